"""The DLX3 conformance corpus through Python: for every case, the same solutions (in
order, as their options' entries) and the same counters as ``xcover dlx3`` gives for the
same input and limits; an input error with the command's message, line and line text."""

import pathlib
import re

import pytest

import xcover_dlx
from conftest import SHARED, run

CASES = sorted(p for p in (SHARED / "conformance" / "dlx3").glob("*") if (p / "input.dlx").is_file())
ALTOGETHER = re.compile(
    r"Altogether (\d+) solutions?, (\d+)\+(\d+) mems, (\d+) updates, (\d+) cleansings, \d+ bytes, (\d+) nodes"
)


def limits(args):
    """Knuth's t, T, s and m from a case's arguments (the first of each wins, as in dlx3)."""
    out = {}
    for word in args:
        for flag, key in (("t", "limit"), ("T", "timeout_mems"), ("s", "seed"), ("m", "every")):
            if word[:1] == flag and key not in out:
                out[key] = int(word[1:])
    # Knuth prints every m-th solution for m > 0, none otherwise; he stops after the
    # first solution for t <= 0 (the count is checked after a solution), where Python's
    # limit=0 finds none; a negative T is no limit (his unsigned compare).
    out["every"] = max(out.get("every", 0), 0)
    if "limit" in out:
        out["limit"] = max(out["limit"], 1)
    if out.get("timeout_mems", 0) < 0:
        del out["timeout_mems"]
    return out


FLAGS = {"limit": "t", "timeout_mems": "T", "seed": "s", "every": "m"}


def command_answer(cli, case, lim):
    """Solutions printed (each a list of options, an option its sorted entries) and
    counters of `xcover dlx3` with the case's limits and spacing."""
    args = [f"{FLAGS[k]}{v}" for k, v in lim.items()]
    out = run([cli, "dlx3", *args], (case / "input.dlx").read_bytes())
    text = out.stdout.decode("latin-1")
    solutions = []
    for line in text.splitlines():
        if re.fullmatch(r"\d+:", line):
            solutions.append([])
        elif line.startswith(" ") and solutions is not None:
            entries = re.sub(r" \(\d+ of \d+\)$", "", line).split()
            if entries[:1] != ["null"]:
                solutions[-1].append(sorted(entries))
    m = ALTOGETHER.search(out.stderr.decode("latin-1"))
    return out, solutions, m


def usable(case):
    exit_code = int((case / "exit").read_text())
    return exit_code != 255  # usage errors are about the command line, not the problem


@pytest.mark.parametrize("case", [c for c in CASES if usable(c)], ids=lambda c: c.name)
def test_case_through_python(case, cli):
    args = (case / "args").read_text().split()
    lim = limits(args)
    out, expected, m = command_answer(cli, case, lim)
    text = (case / "input.dlx").read_bytes()
    if out.returncode == 102:
        with pytest.raises(xcover_dlx.InputError) as info:
            xcover_dlx.Problem.parse(text)
        # The error report: its message (ending with `!`; warnings may come before it),
        # then the position and the line.
        lines = out.stderr.decode("latin-1").splitlines()
        at = max(i for i, line in enumerate(lines) if line.endswith("!"))
        first, where = lines[at], lines[at + 1]
        e = info.value
        assert isinstance(e, ValueError)
        assert first == e.message + "!"
        # Knuth's second line is the scan position and the line's text.
        position, shown = where.split(": ", 1) if ": " in where else (where.rstrip(":"), "")
        assert (e.position, e.line_text) == (int(position), shown)
        assert e.line >= 1 and str(e).startswith(first)
        return
    problem = xcover_dlx.Problem.parse(text)
    if out.returncode == 252:  # Knuth's "Too many levels!"
        with pytest.raises(xcover_dlx.TooManyLevelsError):
            list(problem.solutions(**lim))
        return
    every = lim.pop("every")
    assert out.returncode == 0, out.stderr
    assert m, out.stderr
    solutions = problem.solutions(as_items=True, every=every, **lim)
    got = [[sorted(option) for option in s] for s in solutions]
    assert got == expected
    stats = solutions.stats
    want = tuple(int(x) for x in m.groups())
    assert (stats.solutions, stats.input_mems, stats.mems, stats.updates, stats.cleansings, stats.nodes) == want
    assert problem.count(**lim) == stats.solutions
    assert problem.search(**lim) == stats
    if "seed" not in lim:
        threaded = problem.solutions(threads=2, as_items=True, every=every, **lim)
        assert [[sorted(o) for o in s] for s in threaded] == expected
        assert threaded.stats == stats
        assert problem.search(threads=3, **lim) == stats
