"""Ctrl-C stops a search cleanly: the command prints what it has, says it was interrupted
and exits with 130."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a process group is POSIX")
@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_returns_the_analysis_so_far(workers):
    command = shutil.which("manhattan")
    assert command, "the manhattan command is installed with the package"
    process = subprocess.Popen(
        [command, "analyze", "--time", "60", "--workers", workers, "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    time.sleep(4)
    os.killpg(process.pid, signal.SIGINT)  # as a terminal does: the whole process group
    stdout, stderr = process.communicate(timeout=30)
    assert process.returncode == 130, stderr
    assert stderr.strip().splitlines()[-1].startswith("interrupted"), stderr
    data = json.loads(stdout)
    assert data["interrupted"] is True
    assert data["iterations"] > 0
    assert data["seconds"] < 30
    assert "Traceback" not in stderr
