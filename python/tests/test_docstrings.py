"""The examples in the package's docstrings and in its stubs run as written."""

import doctest
import pathlib
import re
import textwrap

import xcover_dlx
import xcover_dlx._errors
import xcover_dlx.sudoku


def test_module_docstrings():
    for module in (xcover_dlx, xcover_dlx.sudoku, xcover_dlx._errors):
        result = doctest.testmod(module, raise_on_error=False)
        assert result.failed == 0, module.__name__
        assert result.attempted > 0, module.__name__


def test_stub_docstrings():
    stub = pathlib.Path(xcover_dlx.__file__).with_name("_native.pyi")
    assert stub.is_file(), "the wheel ships the stubs"
    assert stub.with_name("py.typed").is_file(), "the wheel ships py.typed"
    # Each docstring of the stubs, dedented, as a doctest.
    # (The stubs' text is read, not imported: undo its string escapes.)
    docstrings = [d.replace("\\\\", "\\") for d in re.findall(r'"""(.*?)"""', stub.read_text(), re.S)]
    names = {"Problem": xcover_dlx.Problem, "covers": xcover_dlx.covers}
    parser, runner, examples = doctest.DocTestParser(), doctest.DocTestRunner(), 0
    for k, text in enumerate(docstrings):
        test = parser.get_doctest(textwrap.dedent("    " + text.lstrip()), dict(names), f"stub {k}", str(stub), 0)
        examples += len(test.examples)
        runner.run(test)
    assert examples >= 5
    assert runner.failures == 0


def test_native_docstrings():
    """help() on the native classes and functions shows examples that run."""
    P = xcover_dlx.Problem
    objects = [P, P.parse, P.count, P.search, P.solutions, xcover_dlx.covers]
    names = {"Problem": P, "covers": xcover_dlx.covers}
    parser, runner, examples = doctest.DocTestParser(), doctest.DocTestRunner(), 0
    for obj in objects:
        assert obj.__doc__, obj
        test = parser.get_doctest(obj.__doc__, dict(names), getattr(obj, "__name__", "?"), None, 0)
        examples += len(test.examples)
        runner.run(test)
    assert examples >= len(objects)
    assert runner.failures == 0
    for obj in (P.read, P.from_matrix, P.option, xcover_dlx.covers_bool):
        assert obj.__doc__, obj
