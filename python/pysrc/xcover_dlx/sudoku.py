"""Sudoku: solve and count puzzles, and find every N-clue puzzle inside a solution grid.

A puzzle is a string of 81 cells, row by row: ``1``-``9`` a given, ``0`` or ``.`` an
empty cell. ``solve`` and ``count`` take one puzzle or a list of them.

    >>> from xcover_dlx import sudoku
    >>> p = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
    >>> sudoku.solve(p)[:9]
    '693784512'
    >>> sudoku.count(p)
    1
"""

from typing import Iterator, List, Optional, Union, overload

from . import _native

__all__ = ["solve", "count", "gridcheck"]


@overload
def solve(puzzle: str) -> Optional[str]: ...
@overload
def solve(puzzle: List[str]) -> List[Optional[str]]: ...
def solve(puzzle):  # type: ignore[no-untyped-def]
    """A solution of ``puzzle`` (81 digits), or ``None`` when it has none; for a list of
    puzzles, a list of those. Raises :class:`xcover_dlx.SudokuError` for a puzzle that
    cannot be read.

    >>> solve("55" + "0" * 79) is None
    True
    """
    return _native.sudoku_solve(puzzle)


@overload
def count(puzzle: str, limit: int = 2) -> int: ...
@overload
def count(puzzle: List[str], limit: int = 2) -> List[int]: ...
def count(puzzle, limit=2):  # type: ignore[no-untyped-def]
    """The number of solutions of ``puzzle``, counting stops at ``limit`` (1 or more; the
    default 2 tells a proper puzzle, 1, from one with several solutions); for a list of
    puzzles, a list of counts.

    >>> count("0" * 81, limit=100)
    100
    """
    return _native.sudoku_count(puzzle, limit)


def gridcheck(
    grid: str,
    clues: int = 17,
    *,
    mask: Optional[str] = None,
    minimal: bool = False,
    threads: int = 1,
) -> Iterator[str]:
    """Every ``clues``-clue puzzle with a unique solution inside the solution ``grid`` (81
    digits), each given as soon as the scan finds it (in the scan's order, which depends
    on ``threads``; ``sorted(...)`` gives the order of ``xcover gridcheck``).

    ``mask`` forces cells, one character per cell: ``1`` a given of every puzzle, ``0``
    empty in every puzzle, ``.`` free (81 characters, or fewer ending with ``*``).
    ``minimal`` keeps only puzzles from which no given can be removed. ``threads``: the
    scan's threads (0: one per core). The scan runs on threads of its own, without the
    GIL, while Python reads the puzzles; Ctrl-C stops it, and so does dropping the
    iterator. Bad settings raise :class:`xcover_dlx.SudokuError` at the call.

    >>> grid = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
    >>> [p[:3] for p in sorted(gridcheck(grid, 80, mask=".." + "1" * 79))]
    ['023', '103']
    """
    return _native.gridcheck(grid, clues, mask=mask, minimal=minimal, threads=threads)
