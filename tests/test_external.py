"""External bots (NOTATION.md, "Bot protocol"): a good program plays; one that answers an
illegal or malformed move, hangs or crashes forfeits, and the game goes on and replays."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import numpy as np
import pytest

import positions.external as external
from analyzer.players import make_bot
from positions.bots import BotForfeit, GreedyBot
from positions.errors import ManhattanError
from positions.external import ExternalBot, check_answer
from positions.record import read_record, write_record
from positions.selfplay import play_game
from positions.state import GameState

GOOD = """
import sys
from positions.notation import parse_position
print("good bot starting", file=sys.stderr, flush=True)
for line in sys.stdin:
    print(str(parse_position(line).legal_moves()[0]), flush=True)
"""

# answers its first decision (a selection) with `answer`
ANSWERS = """
import sys
sys.stdin.readline()
print({answer!r}, flush=True)
sys.stdin.readline()
"""

HANGS = """
import sys, time
sys.stdin.readline()
time.sleep(60)
"""

CRASHES = """
import sys
sys.stdin.readline()
sys.exit(3)
"""


def _command(tmp_path: Path, source: str, name: str = "bot.py") -> str:
    folder = tmp_path / "my bots, v2"  # a command line with a space and a comma
    folder.mkdir(exist_ok=True)
    script = folder / name
    script.write_text(source)
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"


@pytest.fixture(autouse=True)
def _short_grace(monkeypatch):
    monkeypatch.setattr(external, "EXIT_GRACE", 0.5)


def _play_with(bot, players: int = 2, seed: int = 3):
    bots = [GreedyBot() for _ in range(players)]
    bots[1] = bot
    return play_game(bots, players, seed)


def test_a_good_program_plays_a_whole_game(tmp_path: Path, capfd) -> None:
    bot = make_bot("cmd:" + _command(tmp_path, GOOD))
    outcome = _play_with(bot)
    assert outcome.forfeits == {}
    assert "good bot starting" in capfd.readouterr().err  # stderr passes through
    assert bot._process.poll() is not None  # closed and reaped when the game ended
    replay = read_record(write_record(outcome.record))
    assert replay.final_state().player_totals() == outcome.totals
    assert replay.tags["P2"].startswith("cmd:")


@pytest.mark.parametrize(
    ("source", "timeout", "reason"),
    [
        (ANSWERS.format(answer="1@1:1"), 30.0, "illegal move '1@1:1'"),
        (ANSWERS.format(answer="hello"), 30.0, "malformed answer 'hello'"),
        (ANSWERS.format(answer="=4433/4433"), 30.0, "not canonical (expected '=3344/3344')"),
        (ANSWERS.format(answer=""), 30.0, "empty line"),
        (HANGS, 1.0, "no answer within 1 s"),
        (CRASHES, 30.0, "exited (exit code 3)"),
    ],
    ids=["illegal", "malformed", "not-canonical", "empty", "hangs", "crashes"],
)
def test_a_bad_program_forfeits_and_the_game_goes_on(
    tmp_path: Path, source: str, timeout: float, reason: str
) -> None:
    bot = ExternalBot(_command(tmp_path, source), timeout=timeout)
    outcome = _play_with(bot)
    assert list(outcome.forfeits) == [1]
    assert reason in outcome.forfeits[1]
    assert outcome.win_shares[1] == 0.0
    assert sum(outcome.win_shares) == pytest.approx(1.0)
    assert bot._process.poll() is not None  # killed or exited, and reaped
    replay = read_record(write_record(outcome.record))
    assert replay.final_state().player_totals() == outcome.totals
    comments = [m.comment for m in replay.moves if m.comment]
    assert len(comments) == 1
    assert comments[0].startswith("P2 (cmd:") and reason in comments[0]
    # the forfeit happened at P2's first decision, the second move of the game
    assert replay.moves[1].comment == comments[0]


def test_check_answer_accepts_legal_canonical_moves_only() -> None:
    state = GameState.new_game(4, np.random.default_rng(0))
    view = state.view(0)
    assert str(check_answer(view, "=333444\r\n")) == "=333444"
    with pytest.raises(BotForfeit, match="has 3 block"):
        check_answer(view, "=444444")
    state.apply_move(check_answer(view, "=333444"))
    for _ in range(3):
        state.apply_move(GreedyBot().choose(state.view(state.to_move), np.random.default_rng(0)))
    view = state.view(0)
    first = view.legal_moves()[0]
    assert check_answer(view, f" {first} ") == first
    with pytest.raises(BotForfeit, match="illegal move '=111111'"):
        check_answer(view, "=111111")


def test_programs_that_cannot_start_are_errors(tmp_path: Path) -> None:
    with pytest.raises(ManhattanError, match="not found"):
        make_bot("cmd:/no/such/program --flag")
    with pytest.raises(ManhattanError, match="cannot start"):
        ExternalBot(str(tmp_path))  # a folder is not a program
    with pytest.raises(ManhattanError, match="expected cmd:<command line>"):
        make_bot("cmd:   ")
    with pytest.raises(ManhattanError, match="No closing quotation"):
        make_bot("cmd:python 'unclosed")


def test_close_is_idempotent(tmp_path: Path) -> None:
    bot = ExternalBot(_command(tmp_path, GOOD))
    bot.close()
    bot.close()
    assert bot._process.returncode == 0


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_a_hanging_program_started_by_a_wrapper_is_killed_with_it(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    hang = _command(
        tmp_path,
        f"import os\nopen({str(pid_file)!r}, 'w').write(str(os.getpid()))\n" + HANGS,
        name="hang.py",
    )
    bot = ExternalBot(f"sh -c {shlex.quote(hang + '; true')}", timeout=1.0)
    outcome = _play_with(bot)
    assert "no answer within 1 s" in outcome.forfeits[1]
    stat = Path(f"/proc/{pid_file.read_text()}/stat")
    if stat.exists():  # gone, or a zombie waiting for its new parent to reap it
        assert stat.read_text().split(")")[-1].split()[0] in ("Z", "X")
