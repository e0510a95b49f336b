"""``manhattan play`` with a person at the table, through ``typer.testing.CliRunner`` with
scripted input (and once as a process, for Ctrl-C)."""

from __future__ import annotations

import datetime
import json
import shutil
import signal
import subprocess
import threading
import time

import pytest
from typer.testing import CliRunner

from cli import app
from positions.record import load_record

runner = CliRunner()
COACH = ["--coach-iterations", "300", "--workers", "1"]


def play(*args: str, answers: str = ""):
    """Run ``manhattan play`` in-process with ``answers`` as the person's input."""
    return runner.invoke(app, ["play", *args], input=answers, catch_exceptions=False)


def numbers(count: int, number: int = 1) -> str:
    return f"{number}\n" * count


def test_a_whole_two_player_game_answered_by_number(tmp_path):
    out = tmp_path / "game.mgn"
    result = play(
        "-n",
        "2",
        "--seat",
        "1",
        "--bots",
        "random",
        "--seed",
        "3",
        "--out",
        str(out),
        answers=numbers(54),
    )
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "your turn: P1 (a+c, seat S)" in text and "your hand:" in text
    assert "P2 (random) plays" in text and "round 6 scored" in text
    assert "final scores" in text and f"record saved to {out}" in text
    assert f"manhattan review {out}" in text
    record = load_record(out)  # checks the Result against the replay
    assert record.tags["Seed"] == "3" and record.tags["P1"] == "human"
    assert len(record.moves) == 108
    totals = record.final_state().player_totals()
    assert record.tags["Result"] == " ".join(map(str, totals))


def test_the_board_is_drawn_from_the_persons_seat(tmp_path):
    result = play(
        "-n",
        "4",
        "--seat",
        "3",
        "--bots",
        "greedy",
        "--seed",
        "1",
        "--out",
        str(tmp_path / "g.mgn"),
        answers="quit\n",
    )
    assert result.exit_code == 0, result.output
    assert "your turn: P3 (c, seat N)" in result.stdout
    assert "board seen from your seat (N)" in result.stdout
    assert result.stdout.count("P1 (greedy) plays") == 1  # P1 and P2 select before P3
    assert result.stdout.count("P2 (greedy) plays") == 1


def test_hint_undo_bad_input_save_and_quit(tmp_path):
    out, copy = tmp_path / "game.mgn", tmp_path / "copy.mgn"
    answers = (
        "\n".join(
            [
                "xyz",
                "99999",
                "help",
                "hint",
                "1",
                "undo",
                "undo",
                "2",
                "board",
                "moves",
                f"save {copy}",
                "1",
                "quit",
                "1",
            ]
        )
        + "\n"
    )
    result = play(
        "-n",
        "2",
        "--seat",
        "1",
        "--bots",
        "random",
        "--seed",
        "5",
        "--out",
        str(out),
        *COACH,
        answers=answers,
    )
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "'xyz' is not a move" in text and "no move '99999'" in text
    assert "At your turn type one of:" in text
    assert "hint: =" in text and "win" in text
    assert "took back =1111/1111 and 1 move after it: P1 to move" in text
    assert "nothing to take back: P1 has not moved yet" in text
    assert f"record saved to {copy}" in text
    assert "the game so far (4 decisions) is saved" in text
    assert not out.exists()  # 'save FILE' moved the record there
    record = load_record(copy)
    assert str(record.moves[0].move) == "=1111/1112"
    assert len(record.moves) == 4 and "Result" not in record.tags


def test_end_of_input_saves_and_stops(tmp_path):
    out = tmp_path / "game.mgn"
    result = play("-n", "3", "--seat", "2", "--seed", "4", "--out", str(out), answers="1\n")
    assert result.exit_code == 0, result.output
    assert "end of input: the game is saved and stopped" in result.stdout
    assert len(load_record(out).moves) == 4  # P1, P2 (the person) and P3 select, P1 places


def test_the_default_record_is_a_new_file_in_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    stem = f"manhattan-{datetime.date.today().isoformat()}"
    (tmp_path / f"{stem}.mgn").write_text("someone else's game")
    result = play("-n", "2", "--seat", "2", "--bots", "greedy", answers="quit\n")
    assert result.exit_code == 0, result.output
    saved = tmp_path / f"{stem}-2.mgn"
    assert f"The record will be saved to {saved.name}" in result.stdout
    assert load_record(saved).tags["P2"] == "human"
    assert (tmp_path / f"{stem}.mgn").read_text() == "someone else's game"


def test_an_existing_out_file_is_refused_before_the_game(tmp_path):
    out = tmp_path / "game.mgn"
    out.write_text("keep")
    result = play("-n", "2", "--seat", "1", "--out", str(out), answers="quit\n")
    assert result.exit_code == 1 and "file exists" in result.stderr
    assert out.read_text() == "keep"
    result = play("-n", "2", "--seat", "1", "--out", str(out), "--force", answers="quit\n")
    assert result.exit_code == 0 and load_record(out).tags["P1"] == "human"


def test_coach_feedback_is_shown_and_written_into_the_record(tmp_path):
    out = tmp_path / "game.mgn"
    result = play(
        "-n",
        "2",
        "--seat",
        "1",
        "--bots",
        "random",
        "--seed",
        "2",
        "--out",
        str(out),
        "--coach",
        *COACH,
        answers="1\n1\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.count("coach: ") == 2
    record = load_record(out)
    assert record.moves[0].comment.startswith("coach: ")
    assert record.moves[1].comment is None  # the bot's move


def test_teach_offers_a_take_back(tmp_path):
    out = tmp_path / "game.mgn"
    coach = ["--coach-iterations", "1500", "--workers", "1", "--teach-threshold", "1"]
    result = play(
        "-n",
        "2",
        "--seat",
        "1",
        "--bots",
        "random",
        "--seed",
        "2",
        "--out",
        str(out),
        "--teach",
        *coach,
        answers="1\nmaybe\ny\nquit\n",
    )
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "take =1111/1111 back? [Y/n]" in text and "answer y (take it back) or n" in text
    assert "took back =1111/1111" in text
    assert "P2 (random) plays" not in text  # the bot waited for the answer
    assert len(load_record(out).moves) == 0


def test_the_saved_record_can_be_reviewed(tmp_path):
    out = tmp_path / "game.mgn"
    play(
        "-n",
        "2",
        "--seat",
        "2",
        "--bots",
        "random",
        "--seed",
        "9",
        "--out",
        str(out),
        answers=numbers(3) + "quit\n",
    )
    result = runner.invoke(
        app, ["review", str(out), "--iterations-per-move", "60", "--workers", "1", "--json"]
    )
    assert result.exit_code == 0, result.output
    review = json.loads(result.stdout)
    assert review["reviewed"] == len(load_record(out).moves) == 7


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--coach"], "need a person at the table"),
        (["--seat", "1", "--json"], "--json is for games between bots"),
        (["-n", "3", "--seat", "4"], "seats 1-3"),
        (["-n", "4", "--seat", "1", "--bots", "random,greedy"], "names the 3 other seats"),
        (["--seat", "1", "--level", "2", "--bots", "random"], "--level or --bots"),
        (["--seat", "1", "--bots", "telepath"], "telepath"),
    ],
)
def test_bad_options_are_one_line_errors(tmp_path, args, fragment):
    result = play(*args, "--out", str(tmp_path / "g.mgn"))
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and fragment in lines[0]
    assert not (tmp_path / "g.mgn").exists()


def test_level_and_human_seats(tmp_path):
    out = tmp_path / "g.mgn"
    result = play(
        "-n",
        "3",
        "--seat",
        "1",
        "--level",
        "2",
        "--seed",
        "1",
        "--out",
        str(out),
        answers="quit\n",
    )
    assert result.exit_code == 0, result.output
    assert "P2 (level:2)" in result.stdout and "P3 (level:2)" in result.stdout
    result = play(
        "-n",
        "3",
        "--bots",
        "human,greedy,human",
        "--seed",
        "1",
        "--out",
        str(out),
        "--force",
        answers="1\n1\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "P1 (seat S) and P3 (seat N) at the table" in result.stdout
    assert "your turn: P3" in result.stdout


def test_without_a_person_play_is_the_bot_game_it_was():
    result = play("-n", "2", "--bots", "random", "--seed", "3")
    assert result.exit_code == 0 and result.stdout.startswith('[Game "Manhattan"]')


@pytest.mark.skipif(shutil.which("manhattan") is None, reason="the command is not installed")
def test_ctrl_c_at_the_prompt_saves_and_exits_130(tmp_path):
    out = tmp_path / "game.mgn"
    process = subprocess.Popen(
        ["manhattan", "play", "-n", "2", "--seat", "1", "--seed", "1", "--out", str(out)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
    )
    seen = bytearray()

    def read() -> None:
        for chunk in iter(lambda: process.stdout.read1(4096), b""):
            seen.extend(chunk)

    threading.Thread(target=read, daemon=True).start()
    process.stdin.write(b"1\n")
    process.stdin.flush()
    deadline = time.monotonic() + 60
    while seen.count(b"P1> ") < 2 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)  # the second prompt: the first move is played, the person waits
    process.send_signal(signal.SIGINT)
    assert seen.count(b"P1> ") == 2, bytes(seen[-2000:])
    process.wait(timeout=30)
    stderr = process.stderr.read()
    assert process.returncode == 130, stderr
    assert b"interrupted: the game was saved to" in stderr
    assert len(load_record(out).moves) == 2  # both selections
