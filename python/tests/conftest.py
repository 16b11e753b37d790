"""Shared fixtures: the `cktile` command the answers are compared with."""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _cli() -> str:
    """The `cktile` binary: $CKTILE, else a build in the repository's target/ (release first)."""
    given = os.environ.get("CKTILE")
    if given:
        return given
    for profile in ("release", "debug"):
        path = ROOT / "target" / profile / "cktile"
        if path.exists():
            return str(path)
    raise RuntimeError(
        "no cktile binary: build one (cargo build --release) or set CKTILE to its path; "
        "the Python tests compare the package's answers with the CLI's"
    )


class Cli:
    """Runs `cktile` and returns (exit code, stdout, stderr)."""

    def __init__(self, path: str) -> None:
        self.path = path

    def run(self, *args: str):
        p = subprocess.run([self.path, *args], capture_output=True, text=True, timeout=600)
        return p.returncode, p.stdout.rstrip("\n"), p.stderr.rstrip("\n")

    def json(self, *args: str):
        code, out, err = self.run(*args, "--json")
        assert code == 0, err
        return out


@pytest.fixture(scope="session")
def cli() -> Cli:
    return Cli(_cli())


def loads(text: str):
    return json.loads(text)
