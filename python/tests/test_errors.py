"""Bad input: a Python exception (``ValueError`` subclasses for bad values), never a crash;
every exception of the package derives from ``XcoverError``."""

import random

import pytest

import xcover_dlx
from xcover_dlx import InputError, Problem, SudokuError, XcoverError, sudoku


@pytest.mark.parametrize(
    "text, message, line",
    [
        ("", "No items", None),
        ("A B\nA C\n", "Unknown item name", 2),
        ("A A\nA\n", "Duplicate item name", 1),
        ("A | X\nA X:\n", None, 2),
        ("A\nA A\n", "Duplicate item name in this option", 2),
        ("0:0|A\nA\n", None, 1),
    ],
)
def test_bad_text(text, message, line):
    with pytest.raises(InputError) as info:
        Problem.parse(text)
    e = info.value
    assert isinstance(e, ValueError) and isinstance(e, XcoverError)
    if message is not None:
        assert e.message == message
    if line is not None:
        assert e.line == line and str(e).startswith(e.message + "!")


def test_random_bytes_never_crash():
    rng = random.Random(43)
    alphabet = b"AB|:x 12\n\t\x00\xff"
    for _ in range(3000):
        text = bytes(rng.choice(alphabet) for _ in range(rng.randrange(40)))
        try:
            p = Problem.parse(text)
        except InputError:
            continue
        p.count(timeout_mems=100000)
        list(p.solutions(limit=3, as_items=True))


def test_bad_arguments():
    p = Problem.parse("A\nA\n")
    for kwargs in ({"limit": -1}, {"threads": -2}, {"seed": 2**40}, {"timeout_mems": -5}):
        with pytest.raises(ValueError):
            p.count(**kwargs)
    with pytest.raises(ValueError):
        Problem.parse(42)  # type: ignore[arg-type]
    with pytest.raises(OSError):
        Problem.read("/nonexistent/file.dlx")
    with pytest.raises(TypeError):
        Problem([[["unhashable"]]])


def test_bad_matrices():
    np = pytest.importorskip("numpy")
    for bad in (np.zeros(3), np.array([[0, 2]]), np.array([["a"]]), np.array([[0.5, 1]])):
        with pytest.raises(InputError):
            xcover_dlx.covers_bool(bad)
    with pytest.raises(InputError):
        xcover_dlx.covers_bool(np.ones((2, 2)), 3)


def test_bad_sudoku():
    with pytest.raises(SudokuError) as info:
        sudoku.solve("x" * 81)
    assert isinstance(info.value, ValueError)
    assert str(info.value) == "character 1 (row 1, column 1): unexpected `x`"
    with pytest.raises(SudokuError):
        sudoku.count("12")
    with pytest.raises(ValueError):
        sudoku.count("0" * 81, limit=0)
    with pytest.raises(ValueError):
        sudoku.solve([1, 2, 3])  # type: ignore[list-item]
    grid = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
    with pytest.raises(SudokuError) as info:
        sudoku.gridcheck(grid, 17, mask="1111")
    assert info.value.message.startswith("4 characters")
    with pytest.raises(SudokuError):
        sudoku.gridcheck(grid[:80] + "1")
    with pytest.raises(SudokuError):
        sudoku.gridcheck(grid, 0)
    # Refused at the call, before the scan starts (the iterator is never made).
    with pytest.raises(SudokuError):
        sudoku.gridcheck(grid, 2, mask="111*")
