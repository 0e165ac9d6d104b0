"""Type stubs of the native module (xcover_dlx._native); see the package docstring."""

import os
from typing import Any, Dict, Hashable, Iterable, Iterator, List, Literal, Mapping, Optional, Sequence, Tuple, Union

Item = Hashable

class Stats:
    """The counters of a search (Knuth's closing ``Altogether ...`` line); the same on
    any number of threads."""

    solutions: int
    mems: int
    input_mems: int
    updates: int
    cleansings: int
    nodes: int
    max_level: int
    end: Literal["exhausted", "solution_limit", "timeout", "stopped"]

class Solutions(Iterator[List[Any]]):
    """The solutions of a search, in order, found without the GIL as they are read.

    Each is a list of option indices (0-based, input order), or with ``as_items=True`` a
    list of options, each the list of its entries. Each list is a new one, the caller's to
    keep or change. Dropping the iterator stops the search.
    """

    def __iter__(self) -> "Solutions": ...
    def __next__(self) -> List[Any]: ...
    @property
    def stats(self) -> Optional[Stats]:
        """The counters, once the iterator is exhausted (``None`` before)."""

class Problem:
    """An exact-cover problem with multiplicities and colors (Knuth's DLX3 input).

    A solution is a set of options covering every primary item within its bounds (once by
    default) and every secondary item at most once, or by options agreeing on its color.

    >>> p = Problem([["a", "b"], ["c"], ["a", "c"], ["b"]])
    >>> list(p.solutions())
    [[0, 1], [2, 3]]
    >>> p = Problem([["a", "s:red"], ["b", "s:red"], ["b", "s:blue"]], secondary=["s"], colored=True)
    >>> p.count()
    1
    >>> p = Problem([["k", "x"], ["k", "y"], ["k", "z"]], bounds={"k": (2, 3)}, secondary=["x", "y", "z"])
    >>> p.count()
    4
    """

    def __init__(
        self,
        options: Iterable[Iterable[Item]],
        primary: Optional[Iterable[Item]] = None,
        secondary: Optional[Iterable[Item]] = None,
        colored: bool = False,
        *,
        bounds: Optional[Mapping[Item, Tuple[int, int]]] = None,
    ) -> None:
        """Options are iterables of items (any hashable values), as PyPI ``xcover`` takes
        them. Without ``primary`` every item not in ``secondary`` is primary; without
        ``secondary`` every item not in ``primary`` is secondary; with both, an item in
        neither is an error. ``colored``: entries ``"item:color"`` (split at the first
        ``:``) give a secondary item a color. ``bounds``: ``{item: (lo, hi)}``, a primary
        item covered from ``lo`` to ``hi`` times (Knuth's ``lo:hi|item``). Raises
        :class:`InputError` (a ``ValueError``) with Knuth's message and the item."""
    @staticmethod
    def parse(text: Union[str, bytes]) -> "Problem":
        """Reads Knuth's DLX3 text: a line of items (``lo:hi|name`` bounds, ``|`` before the
        secondary ones), then one option per line (``name:c`` colors); ``|`` lines are
        comments. Raises :class:`InputError` with Knuth's message, ``line`` and
        ``position``, as ``xcover dlx3`` reports them.

        >>> Problem.parse("A B\\nA\\nB\\nA B\\n").count()
        2
        """
    @staticmethod
    def read(path: Union[str, "os.PathLike[str]"]) -> "Problem":
        """:meth:`parse` of a ``.dlx`` file. Raises ``OSError`` when it cannot be read."""
    @staticmethod
    def from_matrix(matrix: Any, primary: Optional[int] = None) -> "Problem":
        """A problem from a 2-D 0/1 or boolean array (numpy, or anything ``numpy.asarray``
        takes): rows are options, columns items, the first ``primary`` columns (default
        all) primary, the others secondary. Read in bulk, without a Python loop."""
    @property
    def items(self) -> List[Any]:
        """The items, primary ones first (names for text, column numbers for a matrix)."""
    @property
    def primary_count(self) -> int:
        """How many items are primary (they come first in :attr:`items`)."""
    @property
    def bounds(self) -> Dict[Any, Tuple[int, int]]:
        """Every primary item's bounds ``(lo, hi)``."""
    def __len__(self) -> int:
        """The number of options."""
    def option(self, index: int) -> List[Any]:
        """Option ``index``'s entries (``"name"`` or ``"name:c"`` for text; as given for a
        problem built in Python). Raises ``IndexError``."""
    def count(
        self,
        *,
        limit: Optional[int] = None,
        timeout_mems: Optional[int] = None,
        seed: Optional[int] = None,
        threads: int = 1,
    ) -> int:
        """The number of solutions, found without listing them (Knuth's ``m0``).

        ``limit``: stop after that many (Knuth's ``t``); ``timeout_mems``: stop after that
        many mems (``T``); ``seed``: randomize the order (``s``; one thread); ``threads``:
        search on that many threads (0: one per core), same answer."""
    def search(
        self,
        *,
        limit: Optional[int] = None,
        timeout_mems: Optional[int] = None,
        seed: Optional[int] = None,
        threads: int = 1,
    ) -> Stats:
        """:meth:`count`, returning every counter (solutions, mems, updates, nodes, ...)."""
    def solutions(
        self,
        *,
        limit: Optional[int] = None,
        timeout_mems: Optional[int] = None,
        seed: Optional[int] = None,
        threads: int = 1,
        every: int = 1,
        as_items: bool = False,
    ) -> Solutions:
        """The solutions, in the order of Knuth's program, as a lazy iterator (options by
        index, or with ``as_items`` by their entries). ``every``: give only every n-th
        solution (Knuth's ``m``; 0 none, the counters still count them all). With
        ``threads`` the same solutions come in the same order."""

def covers(
    options: Iterable[Iterable[Item]],
    primary: Optional[Iterable[Item]] = None,
    secondary: Optional[Iterable[Item]] = None,
    colored: bool = False,
    *,
    bounds: Optional[Mapping[Item, Tuple[int, int]]] = None,
    limit: Optional[int] = None,
    threads: int = 1,
    as_items: bool = False,
) -> Solutions:
    """PyPI ``xcover``'s ``covers``: the solutions (lists of option indices) of the
    problem :class:`Problem` builds from the same arguments. It does not count Knuth's
    mems, updates and cleansings (its ``stats`` shows 0 for them; the search is faster
    without): :meth:`Problem.solutions` does.

    >>> list(covers([[1, 4, 7], [1, 4], [4, 5, 7], [3, 5, 6], [2, 3, 6, 7], [2, 7]]))
    [[1, 3, 5]]
    """

def covers_bool(
    matrix: Any,
    primary: Optional[int] = None,
    *,
    limit: Optional[int] = None,
    threads: int = 1,
) -> Solutions:
    """PyPI ``xcover``'s ``covers_bool``: the solutions (row indices) of a 0/1 matrix
    (:meth:`Problem.from_matrix`)."""

def sudoku_solve(puzzle: Union[str, List[str]]) -> Any: ...
def sudoku_count(puzzle: Union[str, List[str]], limit: int = 2) -> Any: ...
class GridPuzzles:
    """The puzzles of a grid scan, each handed over as soon as the scan (on threads of its
    own, without the GIL) finds it. Dropping it stops the scan."""

    def __iter__(self) -> "GridPuzzles": ...
    def __next__(self) -> str: ...

def gridcheck(
    grid: str, clues: int = 17, *, mask: Optional[str] = None, minimal: bool = False, threads: int = 1
) -> GridPuzzles: ...

class Dlx3Run:
    """What a run of Knuth's ``dlx3`` printed and how it ended (:func:`dlx3`), like
    :class:`subprocess.CompletedProcess`."""

    @property
    def stdout(self) -> str:
        """The solutions (UTF-8; bytes that are not are kept as surrogate escapes, so
        ``stdout.encode("utf-8", "surrogateescape") == stdout_bytes``)."""
    @property
    def stderr(self) -> str:
        """The reports, traces, warnings and the closing statistics, as text."""
    @property
    def stdout_bytes(self) -> bytes:
        """Standard output, byte for byte."""
    @property
    def stderr_bytes(self) -> bytes:
        """Standard error, byte for byte."""
    @property
    def returncode(self) -> int:
        """The program's exit status: 0 done, 102 input error (Knuth's report is in
        ``stderr``), 252 ``Too many levels!``."""
    @property
    def stats(self) -> Stats:
        """The counters of the search (zero when it did not start)."""

def dlx3(input: Union[str, bytes], args: Union[str, bytes, Sequence[Union[str, bytes]], None] = None) -> Dlx3Run:
    """Knuth's ``dlx3`` program on ``input`` (his text format) with his letter arguments
    (``"v1 m1000 s7"``, or a list of words: ``v`` verbosity, ``m`` print interval, ``s``
    random seed, ``d`` report interval, ``c``/``C``/``l`` trace limits, ``t`` solution
    limit, ``T`` mem limit, ``S<file>`` shape file), printing what ``xcover dlx3 ARGS <
    FILE`` prints, byte for byte, into the returned :class:`Dlx3Run`. The search runs
    without the GIL; Ctrl-C raises ``KeyboardInterrupt``. A bad argument raises
    ``ValueError`` with Knuth's usage line; bad input is, as for the program, a
    ``returncode`` of 102 with his report in ``stderr`` (:meth:`Problem.parse` raises it).

    >>> from xcover_dlx import dlx3
    >>> run = dlx3("A B\\nA\\nB\\nA B\\n", "m1 v0")
    >>> print(run.stdout, end="")
    1:
     A (1 of 2)
     B (1 of 1)
    2:
     A B (2 of 2)
    >>> run.returncode, run.stats.solutions
    (0, 2)
    >>> dlx3("A B\\nA\\nB\\nA B\\n").stderr.splitlines()[-1][:22]
    'Altogether 2 solutions'
    """
