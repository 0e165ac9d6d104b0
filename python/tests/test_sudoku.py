"""Sudoku through Python against the `xcover` command: the grid checker on the
repository's example grid and mask (``examples/grid.txt``, ``examples/grid.mask``), and
solve and count on puzzles of the shared 17-clue list, some with a clue removed or
changed."""

import random

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
        assert got == want
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
