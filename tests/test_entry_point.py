"""The installed ``manhattan`` command: bad options end as one line and exit code 1."""

from __future__ import annotations

import shutil
import subprocess

import pytest

COMMAND = shutil.which("manhattan")


def run(*args: str) -> subprocess.CompletedProcess:
    assert COMMAND, "the manhattan command is installed with the package"
    return subprocess.run([COMMAND, *args], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["analyze", "--time", "0"], "--time"),
        (["play", "--players", "5"], "--players"),
        (["analyze", "--workers", "x"], "--workers"),
        (["review"], "Missing argument"),
        (["bogus"], "No such command"),
        (["match", "--games", "-1"], "--games"),
    ],
)
def test_usage_errors_are_one_line_and_exit_1(args, fragment):
    result = run(*args)
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: manhattan")
    assert fragment in lines[0]
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr


def test_no_arguments_print_the_help_and_version_works():
    result = run()
    assert result.returncode == 0 and "Usage: manhattan" in result.stdout
    version = run("--version")
    assert version.returncode == 0 and version.stdout.startswith("manhattan ")
