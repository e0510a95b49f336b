"""``manhattan train`` through ``typer.testing.CliRunner`` with scripted answers (and once
as a process, for Ctrl-C), and ``review --exercises`` writing what it trains on."""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli import app
from positions.exercise import Exercise, load_exercise, write_exercise
from positions.moves import parse_move
from positions.notation import parse_position

DATA = Path(__file__).parent / "data"
runner = CliRunner()


def _setup() -> str:
    return re.search(r'\[Setup "([^"]*)"\]', (DATA / "p4_k2_01.mpz").read_text()).group(1)


def exercise(title: str = "the tallest", **changes) -> Exercise:
    state = parse_position(_setup())
    fields = {
        "title": title,
        "player": 2,
        "state": state.view(1),
        "best": parse_move("7@5:1"),
        "accept": [parse_move("7@5:1")],
        "played": parse_move("7@1:1"),
        "loss": 97.8,
        "mark": "??",
        "why": "7@5:1 takes the tallest building from P3.",
    }
    fields.update(changes)
    return Exercise(**fields)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Two exercises: the planted blunder twice (the second accepts two moves)."""
    (tmp_path / "a_p2_d001.mex").write_text(write_exercise(exercise("first")))
    second = exercise("second", accept=[parse_move("7@5:1"), parse_move("8@5:1")])
    (tmp_path / "a_p2_d002.mex").write_text(write_exercise(second))
    (tmp_path / "notes.txt").write_text("not an exercise")
    return tmp_path


def train(target: Path, answers: str):
    return runner.invoke(app, ["train", str(target)], input=answers, catch_exceptions=False)


def test_a_right_answer_then_a_wrong_one(folder):
    result = train(folder, "7@5:1\n7@1:1\n")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "Exercise 1 of 2 (first): P2 to move; in the game P2 played 7@1:1??" in text
    assert "board seen from your seat (W)" in text and "your hand: 1 → top-left" in text
    assert "Right: 7@5:1 is the engine's move." in text
    assert "Why: 7@5:1 takes the tallest building from P3." in text
    assert "Exercise 2 of 2 (second)" in text
    assert "Wrong: 7@1:1 is the move played in the game, which gives away 97.8" in text
    assert "Better: 7@5:1." in text and "Also right: 8@5:1." in text
    assert "Training: right 1 of 2." in text


def test_another_accepted_move_is_right_and_a_wrong_one_is_explained(folder):
    result = train(folder, "2@2:1\n8@5:1\n")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "Wrong: 2@2:1 is not among the moves the engine counts right." in text
    # why the better move beats the player's own answer, from the moves' facts
    assert re.search(r"Why: 2@2:1 .*7@5:1", text)
    assert "Right: 8@5:1 keeps the win chance within a few points of the engine's 7@5:1" in text
    assert "Also right: 7@5:1." in text
    assert "Training: right 1 of 2." in text


def test_skip_hint_and_quit(folder):
    result = train(folder, "hint\nhint\nhint\nskip\nquit\n")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "Hint: the engine builds in city 5." in text
    assert "Hint: play card 7 in city 5." in text
    assert "No more hints" in text
    assert "Skipped." in text and "Better: 7@5:1." in text
    assert "Exercise 2 of 2" in text
    assert "Training: right 0 of 1, 1 skipped; 1 not asked." in text


def test_a_hint_is_counted_with_the_right_answer(folder):
    result = train(folder / "a_p2_d001.mex", "hint\n7@5:1\n")
    assert result.exit_code == 0, result.output
    assert "Training: right 1 of 1 (1 after a hint)." in result.stdout


def test_bad_input_re_prompts_with_the_reason(folder):
    result = train(folder, "\nfoo\n7@5:9\n4@4:1\n7@5:1\n7@5:1\n")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "Type a move, or hint, skip or quit." in text
    assert "bad move 'foo'" in text and "bad move '7@5:9'" in text
    assert "4@4:1 is not a legal move for P2 here; try again." in text
    assert text.count("Exercise 1 of 2") == 1  # the board is not drawn again
    assert "Training: right 2 of 2." in text


def test_end_of_input_ends_with_the_summary(folder):
    result = train(folder, "7@5:1\n")
    assert result.exit_code == 0, result.output
    assert "end of input" in result.stdout
    assert "Training: right 1 of 1; 1 not asked." in result.stdout


def test_bad_folders_and_files_are_one_line_errors(tmp_path, folder):
    empty = tmp_path / "empty"
    empty.mkdir()
    for target, message in [
        (empty, "no exercises (.mex files) in this folder"),
        (tmp_path / "missing", "no such folder or file"),
    ]:
        result = train(target, "")
        assert result.exit_code == 1
        assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    broken = folder / "a_p2_d003.mex"
    broken.write_text(write_exercise(exercise()).replace('[Player "2"]', '[Player "3"]'))
    result = train(folder, "")
    assert result.exit_code == 1
    assert "a_p2_d003.mex: line 2, column 10: Player '3'" in result.stderr


def test_ctrl_c_ends_the_session_with_the_summary(folder):
    command = shutil.which("manhattan")
    if command is None:
        pytest.skip("the manhattan command is not installed")
    process = subprocess.Popen(
        [command, "train", str(folder)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    seen = bytearray()

    def read() -> None:
        while chunk := process.stdout.read1(4096):
            seen.extend(chunk)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    process.stdin.write(b"7@5:1\n")
    process.stdin.flush()
    deadline = time.monotonic() + 60
    while seen.count(b"quit)> ") < 2 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    process.wait(timeout=30)
    reader.join(timeout=5)
    assert process.returncode == 130, process.stderr.read()
    assert b"Training: right 1 of 1; 1 not asked." in seen
    assert b"interrupted" in process.stderr.read()


# ----- review --exercises ---------------------------------------------------------------------


def test_review_writes_the_exercises_train_asks(tmp_path):
    game = tmp_path / "blunder.mgn"
    game.write_text(f'[Game "Manhattan"]\n[Players "4"]\n[Setup "{_setup()}"]\n\nR4 7@1:1\n')
    out = tmp_path / "ex"
    args = ["review", str(game), "--iterations-per-move", "3000", "--seed", "2"]
    result = runner.invoke(app, [*args, "--workers", "1", "--exercises", str(out), "--player", "2"])
    assert result.exit_code == 0, result.output
    assert f"1 exercise written to {out}: practise with  manhattan train {out}" in result.stdout
    written = load_exercise(out / "blunder_p2_d001.mex")
    assert str(written.best) == "7@5:1" and written.proven == "win"
    assert written.source == "blunder.mgn, decision 1"
    # the folder is checked before the review: an exercise there is not overwritten
    again = runner.invoke(app, [*args, "--exercises", str(out), "--json"])
    assert again.exit_code == 1 and "file exists" in again.stderr
    trained = train(out, "7@5:1\n")
    assert "Right: 7@5:1 wins whatever the others hold, play and draw (proven)." in trained.stdout


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--player", "2"], "--player chooses whose exercises to write: add --exercises DIR"),
        (["--player", "3", "--exercises", "EX"], "--player 3: expected a player 1-2"),
        (["--exercises", "FILE"], "is a file, expected a folder"),
    ],
)
def test_review_exercise_options_are_checked_before_the_review(tmp_path, extra, message):
    taken = tmp_path / "taken.txt"
    taken.write_text("")
    extra = [str(tmp_path / "ex") if a == "EX" else str(taken) if a == "FILE" else a for a in extra]
    game = DATA / "game_2p.mgn"
    result = runner.invoke(app, ["review", str(game), *extra])
    assert result.exit_code == 1
    assert message in result.stderr
    assert not (tmp_path / "ex").exists()
