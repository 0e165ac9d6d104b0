"""Sudoku through Python against the `xcover` command: the grid checker on the
repository's example grid and mask (``examples/grid.txt``, ``examples/grid.mask``), and
solve and count on puzzles of the shared 17-clue list, some with a clue removed or
changed."""

import random
import subprocess
import sys
import textwrap
import time

import pytest

from conftest import REPO, SHARED, run
from xcover_dlx import sudoku

GRID = (REPO / "examples" / "grid.txt").read_text().split()[0]
MASK = (REPO / "examples" / "grid.mask").read_text().strip()


@pytest.mark.parametrize("clues, minimal", [(17, False), (18, True), (18, False)])
def test_gridcheck_matches_the_command(cli, clues, minimal):
    args = [cli, "gridcheck", "--clues", clues, "--mask", MASK, "--file", REPO / "examples" / "grid.txt"]
    out = run(args + (["--minimal"] if minimal else []))
    assert out.returncode == 0, out.stderr
    want = out.stdout.decode().split()
    assert want, "the command finds puzzles"
    for threads in (1, 2):
        got = list(sudoku.gridcheck(GRID, clues, mask=MASK, minimal=minimal, threads=threads))
        # Each once, in the order found; sorted, the command's list.
        assert sorted(got) == want and len(set(got)) == len(got)
    for p in want[:3]:
        assert sudoku.count(p) == 1 and sudoku.solve(p) == GRID


def puzzles(n):
    lines = (SHARED / "data" / "sudoku17.txt").read_text().split()[:n]
    rng = random.Random(17)
    out = []
    for line in lines:
        out.append(line)
        cells = list(line)
        i = rng.choice([k for k in range(81) if cells[k] != "0"])
        old = cells[i]
        cells[i] = "0"
        out.append("".join(cells))
        cells[i] = str(int(old) % 9 + 1)
        out.append("".join(cells))
    return out


def test_solve_and_count_match_the_command(cli, shared):
    ps = puzzles(40)
    stdin = ("\n".join(ps) + "\n").encode()
    solved = run([cli, "sudoku", "solve"], stdin)
    counted = run([cli, "sudoku", "count", "--limit", "2"], stdin)
    # The command exits 1 when some puzzle has not exactly one solution.
    assert solved.returncode in (0, 1) and counted.returncode in (0, 1), (solved.stderr, counted.stderr)
    # A count, or `more than 2 (stopped at the limit; ...)`: the count stopped at 2.
    want_counts = [int(x.split()[2] if x.startswith("more than ") else x) for x in counted.stdout.decode().splitlines()]
    assert len(want_counts) == len(ps)
    assert sudoku.count(ps) == want_counts
    assert [sudoku.count(p) for p in ps[:6]] == want_counts[:6]
    assert {0, 1, 2} <= set(want_counts), "the list has proper, unsolvable and open puzzles"
    got = sudoku.solve(ps)
    lines = solved.stdout.decode().splitlines()
    assert len(lines) == len(ps)
    for p, g, line, c in zip(ps, got, lines, want_counts):
        if c == 0:
            assert g is None and line == "no solution"
        elif c == 1:
            assert g == line
        else:
            # Several solutions: the command says so; Python gives one of them.
            assert line == "multiple solutions"
            assert g is not None and sudoku.count(g) == 1
        if g is not None:
            assert all(a in "0." or a == b for a, b in zip(p, g))


def test_gridcheck_gives_puzzles_as_found():
    """A puzzle comes as soon as the scan finds it: the first of a scan that runs for
    many minutes (the example grid's 22-clue puzzles under its mask; the 20-clue scan finds
    102,784 in seconds, each clue more multiplies the work) arrives long before the end,
    and dropping the iterator then stops the scan (the process ends)."""
    script = textwrap.dedent(f"""
        import time
        from xcover_dlx import sudoku
        start = time.monotonic()
        scan = sudoku.gridcheck({GRID!r}, 22, mask={MASK!r})
        first = next(scan)
        print(first, time.monotonic() - start, flush=True)
        del scan
        """)
    start = time.monotonic()
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    first, seconds = out.stdout.split()
    assert len(first) == 81 and 81 - first.count("0") == 22
    assert sudoku.count(first) == 1 and sudoku.solve(first) == GRID
    # The whole scan takes minutes; a list made at its end could not be here this soon.
    assert time.monotonic() - start < 60, seconds
