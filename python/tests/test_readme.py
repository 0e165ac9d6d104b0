"""The README's Python section: its examples run as written (doctest), on the installed
wheel. (Its first two commands are run by .ci/python, which builds and installs the wheel
with them.)"""

import doctest

from conftest import REPO


def python_section():
    text = (REPO / "README.md").read_text()
    start = text.index("\n## Python\n")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def test_readme_python_examples():
    section = python_section()
    blocks = section.split("```python\n")[1:]
    assert len(blocks) >= 3, "the section shows its examples"
    source = "\n".join(b.split("```")[0] for b in blocks)
    test = doctest.DocTestParser().get_doctest(source, {}, "README Python", "README.md", 0)
    assert len(test.examples) >= 10
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0, f"{runner.failures} README examples failed (output above)"


def test_readme_starts_with_the_two_commands():
    section = python_section()
    first = section.split("```sh\n")[1].split("```")[0].strip().splitlines()
    assert first == [
        "pip install maturin && maturin build --release -m python/Cargo.toml",
        "pip install python/target/wheels/xcover_dlx-*.whl",
    ]
