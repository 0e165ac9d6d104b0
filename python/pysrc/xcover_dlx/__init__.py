"""xcover_dlx: exact cover and Sudoku for Python, on xcover's Rust engines.

Knuth's DLX3 (exact cover with item multiplicities and color controls), a Sudoku solver
and a Sudoku grid checker. Searches run without the GIL, in slices: another Python
thread runs meanwhile, and Ctrl-C stops a long search with ``KeyboardInterrupt``.

PyPI ``xcover`` users switch by changing the import::

    >>> from xcover_dlx import covers
    >>> options = [[1, 4, 7], [1, 4], [4, 5, 7], [3, 5, 6], [2, 3, 6, 7], [2, 7]]
    >>> list(covers(options))
    [[1, 3, 5]]

Knuth's text format, with statistics::

    >>> from xcover_dlx import Problem
    >>> p = Problem.parse("A B C | x\\nA x:1\\nB x:1\\nC\\nA B C\\n")
    >>> p.count()
    2
    >>> p.search().nodes > 0
    True

Knuth's ``dlx3`` program itself, his letter arguments and his text byte for byte::

    >>> from xcover_dlx import dlx3
    >>> run = dlx3("A B\\nA\\nB\\nA B\\n", "m2")
    >>> run.stdout
    '2:\\n A B (2 of 2)\\n'
    >>> run.stderr.splitlines()[-1].startswith("Altogether 2 solutions")
    True

Sudoku: :mod:`xcover_dlx.sudoku`.
"""

from ._errors import InputError, SearchError, SudokuError, TooManyLevelsError, XcoverError
from ._native import Dlx3Run, Problem, Solutions, Stats, covers, covers_bool, dlx3
from . import sudoku

__all__ = [
    "Problem",
    "Solutions",
    "Stats",
    "covers",
    "covers_bool",
    "dlx3",
    "Dlx3Run",
    "sudoku",
    "XcoverError",
    "InputError",
    "SudokuError",
    "SearchError",
    "TooManyLevelsError",
]
