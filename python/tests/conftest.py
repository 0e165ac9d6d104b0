"""Shared fixtures: where the repository, the shared corpus and the `xcover` command are.

The suite runs on the installed wheel (``import xcover_dlx`` from the virtual
environment), never on the sources; ``.ci/python`` builds the wheel, installs it in a fresh
virtual environment and runs it with ``XCOVER_CLI`` set to the command built from the same
commit.
"""

import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def cli() -> pathlib.Path:
    path = pathlib.Path(os.environ.get("XCOVER_CLI", REPO / "target" / "release" / "xcover"))
    if not path.is_file():
        pytest.fail(f"the xcover command is not at {path}: build it (cargo build --release -p xcover-cli) or set XCOVER_CLI")
    return path


@pytest.fixture(scope="session")
def shared() -> pathlib.Path:
    if not (SHARED / "conformance" / "dlx3").is_dir():
        pytest.fail(f"the shared corpus is not beside the repository ({SHARED})")
    return SHARED


def run(args, stdin=b""):
    return subprocess.run([str(a) for a in args], input=stdin, capture_output=True, timeout=600)
