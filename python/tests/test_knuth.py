"""Knuth's ``dlx3`` program through Python (``xcover_dlx.dlx3``): every case of the DLX3
conformance corpus (recorded from Knuth's program), display options included (``v``,
``m``, ``c``, ``C``, ``l``, ``d``, ``S``), gives his stdout, stderr, exit status and shape
file byte for byte; the counters agree with his closing line; bad arguments and bad
types raise."""

import re

import pytest

import xcover_dlx
from conftest import SHARED

CASES = sorted(p for p in (SHARED / "conformance" / "dlx3").glob("*") if (p / "input.dlx").is_file())
ALTOGETHER = re.compile(
    rb"Altogether (\d+) solutions?, (\d+)\+(\d+) mems, (\d+) updates, (\d+) cleansings, \d+ bytes, (\d+) nodes"
)


def test_the_corpus_is_there():
    assert len(CASES) >= 220


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_case_byte_for_byte(case, tmp_path, monkeypatch):
    # `S<file>` names a file relative to the working directory, as for the program.
    monkeypatch.chdir(tmp_path)
    args = (case / "args").read_text().split()
    status = int((case / "exit").read_text())
    text = (case / "input.dlx").read_bytes()
    if status == 255:
        with pytest.raises(ValueError, match="Usage: dlx3"):
            xcover_dlx.dlx3(text, args)
        return
    run = xcover_dlx.dlx3(text, args)
    assert run.stdout_bytes == (case / "stdout").read_bytes()
    assert run.stderr_bytes == (case / "stderr").read_bytes()
    assert run.returncode == status
    assert run.stdout.encode("utf-8", "surrogateescape") == run.stdout_bytes
    if (case / "shape").is_file():
        assert (tmp_path / "shape.out").read_bytes() == (case / "shape").read_bytes()
    m = ALTOGETHER.search(run.stderr_bytes)
    if m:
        s = run.stats
        want = tuple(int(x) for x in m.groups())
        assert (s.solutions, s.input_mems, s.mems, s.updates, s.cleansings, s.nodes) == want


def test_arguments_as_one_string_or_words():
    text = "A B\nA\nB\nA B\n"
    one, words = xcover_dlx.dlx3(text, "m1  v0"), xcover_dlx.dlx3(text, ["m1", "v0"])
    assert one.stdout == words.stdout == "1:\n A (1 of 2)\n B (1 of 1)\n2:\n A B (2 of 2)\n"
    assert one.stderr == "" and one.returncode == 0
    # The first occurrence of a letter wins, as in Knuth's program.
    assert xcover_dlx.dlx3(text, "m2 m1 v0").stdout == "2:\n A B (2 of 2)\n"
    assert xcover_dlx.dlx3(text.encode(), b"t1 v0 m1").stats.end == "solution_limit"


def test_bad_input_is_the_programs_report():
    run = xcover_dlx.dlx3("A\nB\n", "v0")
    assert run.returncode == 102
    assert run.stderr.startswith("Unknown item name!\n")
    assert run.stdout == ""


@pytest.mark.parametrize("args", ["x1", "m", ["v1", "q"]])
def test_bad_arguments_raise(args):
    with pytest.raises(ValueError, match=r"bad argument: Usage: dlx3 \[v<n>\]"):
        xcover_dlx.dlx3("A\nA\n", args)


@pytest.mark.parametrize("call", [lambda: xcover_dlx.dlx3(5), lambda: xcover_dlx.dlx3("A\nA\n", [3])])
def test_bad_types_raise(call):
    with pytest.raises(TypeError):
        call()
