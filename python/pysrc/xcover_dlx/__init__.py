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

Sudoku: :mod:`xcover_dlx.sudoku`.
"""

from ._errors import InputError, SearchError, SudokuError, TooManyLevelsError, XcoverError
from ._native import Problem, Solutions, Stats, covers, covers_bool
from . import sudoku

__all__ = [
    "Problem",
    "Solutions",
    "Stats",
    "covers",
    "covers_bool",
    "sudoku",
    "XcoverError",
    "InputError",
    "SudokuError",
    "SearchError",
    "TooManyLevelsError",
]
