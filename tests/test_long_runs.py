"""Long runs and odd inputs (issue 11), through the installed command as a real process:
Ctrl-C and SIGTERM stop every long command within 2 s with the results so far (stretched by
the machine's load beyond its cores, ``load_factor``), outputs are
checked before the work, every number has a range, only regular files are read, echoed
input is cut, and no helper or bot process outlives the command."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
EXAMPLE = ROOT / "positions" / "data" / "examples" / "middle_4p_round2.txt"
GAME_4P = ROOT / "positions" / "data" / "games" / "heuristic_vs_greedy_4p.mgn"
PUZZLES = ROOT / "positions" / "data" / "puzzles"
POSIX = sys.platform != "win32"
pytestmark = pytest.mark.skipif(not POSIX, reason="signals and FIFOs are POSIX")


def manhattan() -> str:
    command = shutil.which("manhattan")
    assert command, "the manhattan command is installed with the package"
    return command


def start(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [manhattan(), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: we can look for leftovers
        cwd=ROOT,
    )


def group_alive(pgid: int) -> bool:
    """Whether any process of the group ``pgid`` still runs (zombies do not count)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[2]) == pgid:
            return True
    return False


def interrupt(process: subprocess.Popen, after: float, sig: int = signal.SIGINT):
    """Send ``sig`` to the whole process group after ``after`` s (as a terminal's Ctrl-C
    does); returns (seconds from the signal to the end, stdout, stderr)."""
    time.sleep(after)
    os.killpg(process.pid, sig)
    sent = time.monotonic()
    out, err = process.communicate(timeout=60)
    return time.monotonic() - sent, out, err


def load_factor() -> float:
    """How many times over the machine's cores are busy (at least 1): the seconds a
    bound allows are stretched by it, so other work on the machine (a benchmark running
    beside the tests) does not fail a bound that the command itself meets."""
    return max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))


def assert_interrupted(process, took, err):
    assert process.returncode == 130, err
    assert took < 2.0 * load_factor(), f"took {took:.1f} s to stop (load {os.getloadavg()[0]})"
    lines = err.strip().splitlines()
    assert lines and lines[-1].startswith("interrupted"), err
    assert "Traceback" not in err
    deadline = time.monotonic() + 3
    while group_alive(process.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not group_alive(process.pid), "a helper outlived the command"


@pytest.mark.parametrize("workers", ["1", "2"])
def test_review_stops_on_ctrl_c_with_the_decisions_done(workers):
    process = start(
        "review", str(GAME_4P), "--time-per-move", "0.3", "--workers", workers, "--json"
    )
    took, out, err = interrupt(process, 4.0)
    assert_interrupted(process, took, err)
    data = json.loads(out)
    assert data["interrupted"] is True and data["complete"] is False
    assert 0 < data["reviewed"] < data["total_decisions"]


def test_play_with_a_search_bot_stops_and_keeps_the_record_so_far(tmp_path):
    out = tmp_path / "game.mgn"
    process = start(
        "play", "--bots", "mcts:1s,greedy,greedy,greedy", "--seed", "3", "--out", str(out), "--json"
    )
    took, stdout, err = interrupt(process, 4.0, signal.SIGTERM)
    assert_interrupted(process, took, err)
    summary = json.loads(stdout)
    assert summary["interrupted"] is True and summary["decisions"] > 0
    from positions.record import load_record

    record = load_record(out)
    assert len(record.moves) == summary["decisions"] and "Result" not in record.tags


@pytest.mark.parametrize("workers", ["1", "2"])
def test_match_with_search_bots_stops_and_reports_the_finished_games(tmp_path, workers):
    process = start(
        "match",
        "--players",
        "2",
        "--bots",
        "mcts:200ms,greedy",
        "--games",
        "20",
        "--workers",
        workers,
        "--out",
        str(tmp_path / "games"),
        "--json",
    )
    took, out, err = interrupt(process, 5.0)
    assert_interrupted(process, took, err)
    data = json.loads(out)
    assert data["interrupted"] is True and data["finished"] < 20
    assert len(list((tmp_path / "games").glob("*.mgn"))) == data["finished"]


def test_a_long_solve_stops_on_ctrl_c():
    from positions.notation import write_position
    from positions.record import load_record
    from positions.state import Phase

    states = load_record(GAME_4P).states()
    # the first placement of the last round, every hand known: far too big to prove
    position = write_position(
        next(s for s in states if s.round == 4 and s.phase == Phase.PLACEMENT)
    )
    process = start(
        "solve", position, "--goal", "round-points", "--node-budget", "1000000000", "--json"
    )
    took, out, err = interrupt(process, 6.0)
    assert_interrupted(process, took, err)
    data = json.loads(out)
    assert data["proven"] is False and data["best"]


def test_analyze_killed_outright_leaves_no_helper_running():
    process = start("analyze", "--time", "600", "--workers", "2", "--json")
    time.sleep(3.0)
    os.kill(process.pid, signal.SIGKILL)
    process.communicate(timeout=30)
    deadline = time.monotonic() + 3
    while group_alive(process.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not group_alive(process.pid)


def run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [manhattan(), *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT
    )


def assert_one_error_line(done: subprocess.CompletedProcess, *fragments: str) -> None:
    assert done.returncode == 1, (done.returncode, done.stderr)
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert len(lines[0]) < 500
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def test_outputs_are_checked_before_the_work(tmp_path):
    started = time.monotonic()
    assert_one_error_line(run("review", str(GAME_4P), "--out", "/proc/x.mgn"), "/proc")
    readonly = tmp_path / "readonly"
    readonly.mkdir()
    readonly.chmod(0o500)
    try:
        if not os.access(readonly, os.W_OK) or os.geteuid() != 0:
            assert_one_error_line(
                run("match", "--games", "3", "--out", str(readonly / "sub")), "cannot"
            )
        assert_one_error_line(run("match", "--games", "3", "--out", "/proc/games"), "/proc")
    finally:
        readonly.chmod(0o700)
    assert_one_error_line(run("analyze", "--tree", str(tmp_path / "t.png")), ".graphml")
    assert_one_error_line(
        run("analyze", "--html", str(tmp_path / "no" / "a.html")), "does not exist"
    )
    assert_one_error_line(run("match", "--out", ""), "empty")
    assert time.monotonic() - started < 30 * load_factor()  # no review, match or search ran


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["play", "--bot-timeout", "inf"], "--bot-timeout"),
        (["play", "--bot-timeout", "1e10"], "--bot-timeout"),
        (["match", "--bot-timeout", "nan"], "--bot-timeout"),
        (["analyze", "--workers", "999999999999999999999999"], "--workers"),
        (["review", str(GAME_4P), "--workers", "999999999999999999999999"], "--workers"),
        (["match", "--workers", "999999999999999999999999"], "--workers"),
        (["match", "--games", "999999999999999999999999"], "--games"),
        (["analyze", "--iterations", "1000000000000000000000000"], "--iterations"),
        (["analyze", "--time", "inf"], "--time"),
        (["analyze", "--top", "0"], "--top"),
        (
            ["review", str(GAME_4P), "--iterations-per-move", "1000000000000000000000000"],
            "--iterations-per-move",
        ),
        (["review", str(GAME_4P), "--marks", "5,10,1000"], "--marks"),
        (["play", "--bots", "mcts:99999999999999999999999"], "1,000,000,000"),
        (["play", "--bots", "mcts:inf"], "budget"),
        (["solve", str(PUZZLES), "--node-budget", "10"], "--node-budget"),
        (["analyze", "--backend", "loky", "--scheduler", "tcp://x:1"], "dask"),
        (["solve", str(PUZZLES / "p2_k1_01.mpz"), "--goal", ""], "--goal"),
        (["solve", ""], "empty"),
    ],
)
def test_numbers_and_options_out_of_range_are_one_line_errors(args, fragment):
    assert_one_error_line(run(*args, timeout=30), fragment)


def test_only_regular_files_are_read(tmp_path):
    fifo = tmp_path / "game.mgn"
    os.mkfifo(fifo)
    puzzle_fifo = tmp_path / "p.mpz"
    os.mkfifo(puzzle_fifo)
    assert_one_error_line(run("review", str(fifo), timeout=10), "not a regular file")
    assert_one_error_line(run("solve", str(puzzle_fifo), timeout=10), "not a regular file")
    assert_one_error_line(run("review", "/dev/zero", timeout=10), "not a regular file")
    assert_one_error_line(run("show", "/dev/zero", timeout=10), "not a regular file")
    assert_one_error_line(run("review", str(tmp_path), timeout=10), "folder")
    shutil.copy(PUZZLES / "p2_k1_01.mpz", tmp_path / "a.mpz")
    done = run("solve", str(tmp_path), "--json", timeout=60)  # the folder holds the FIFO too
    assert done.returncode == 0, done.stderr
    verdicts = {p["file"]: p for p in json.loads(done.stdout)["puzzles"]}
    assert verdicts["a.mpz"]["solved"] and "not a regular file" in verdicts["p.mpz"]["verdict"]
    big = tmp_path / "big.mgn"
    with open(big, "wb") as handle:
        handle.truncate(11 * 1024 * 1024)
    assert_one_error_line(run("review", str(big), timeout=10), "bytes")


def test_echoed_input_is_cut(tmp_path):
    assert_one_error_line(run("moves", "x" * 100_000, timeout=30))
    token = tmp_path / "token.txt"
    token.write_text("a1" * 2_500_000 + " 4 1 1 s\n")
    assert_one_error_line(run("show", str(token), timeout=30))
    assert_one_error_line(run("apply", "9/9/9/9/9/9 2 1 1 s", "=" + "1" * 100_000, timeout=30))
    bot = tmp_path / "chatty.py"
    bot.write_text("import sys\nfor line in sys.stdin:\n    print('9' * 10_000_000, flush=True)\n")
    out = tmp_path / "games"
    done = run(
        "match",
        "--players",
        "2",
        "--bot",
        f"cmd:{sys.executable} {bot}",
        "--bot",
        "random",
        "--games",
        "2",
        "--out",
        str(out),
        "--json",
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert len(done.stdout) < 10_000
    for record in out.glob("*.mgn"):
        assert record.stat().st_size < 20_000
