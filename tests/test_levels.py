"""Strength levels: ``level:1`` … ``level:5`` bot specs play legal moves at every table
size, a bad level is a one-line error, and the level ladder's harness
(``benchmarks/levels.py``) plays its duplicate schedule."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from randompositions import random_states

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.append(str(BENCHMARKS))  # the benchmark scripts import each other by name

import levels as level_ladder  # noqa: E402

from analyzer.levels import LEVELS, TOP_LEVEL, LevelBot, NoisyBot, level  # noqa: E402
from analyzer.players import check_bot_spec, make_bot  # noqa: E402
from positions.bots import GreedyBot  # noqa: E402
from positions.errors import ManhattanError  # noqa: E402
from positions.selfplay import play_game  # noqa: E402
from positions.state import Phase  # noqa: E402

CHEAP = [lv.number for lv in LEVELS if not lv.spec.startswith("mcts")]
SEARCHING = [lv.number for lv in LEVELS if lv.spec.startswith("mcts")]


def test_the_levels_run_from_a_noisy_greedy_bot_to_the_full_engine():
    assert [lv.number for lv in LEVELS] == list(range(1, TOP_LEVEL + 1)) == [1, 2, 3, 4, 5]
    assert [(lv.spec, lv.noise) for lv in LEVELS] == [
        ("greedy", 0.3),
        ("greedy", 0.0),
        ("heuristic", 0.15),
        ("heuristic", 0.0),
        ("mcts:6000", 0.0),  # the full engine, see analyzer/levels.py
    ]
    assert all(lv.summary for lv in LEVELS)
    assert level("3") is LEVELS[2] and level(5) is LEVELS[-1]


def test_noise_plays_a_share_of_random_moves():
    """Level 1 is greedy with 30 % random moves: over many decisions about that share
    differs from what greedy alone plays (with the same generator state)."""
    noisy, plain = make_bot("level:1"), GreedyBot()
    assert isinstance(noisy, LevelBot) and isinstance(noisy._bot, NoisyBot)
    differing = total = 0
    for state in random_states(2, 300, seed=4, rate=0.3):
        if state.is_terminal() or state.phase != Phase.PLACEMENT:
            continue
        view = state.view(state.to_move)
        if len(set(view.legal_moves())) < 5:
            continue
        rng = np.random.default_rng(total)
        chosen = noisy.choose(view, rng)
        assert view.is_legal(chosen)
        differing += chosen not in _greedy_moves(plain, view)
        total += 1
    assert total >= 100
    assert 0.15 < differing / total < 0.35
    with pytest.raises(ManhattanError):
        NoisyBot(GreedyBot(), 1.5)


def _greedy_moves(bot: GreedyBot, view) -> set:
    """Every move greedy may pick in ``view`` (it breaks ties at random)."""
    return {bot.choose(view, np.random.default_rng(seed)) for seed in range(12)}


@pytest.mark.parametrize("number", CHEAP)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_cheap_level_plays_a_whole_legal_game(number, players):
    spec = f"level:{number}"
    bots = [make_bot(spec) for _ in range(players)]
    outcome = play_game(bots, players, seed=number * 10 + players)
    assert outcome.forfeits == {}  # an illegal move would have forfeited the seat
    assert outcome.record.tags["P1"] == spec
    assert "Result" in outcome.record.tags


@pytest.mark.parametrize("number", SEARCHING)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_searching_level_answers_legal_moves(number, players):
    """A selection and a placement at the smaller budget; one late placement (short
    playouts) at the top level's, which takes seconds a decision."""
    bot = make_bot(f"level:{number}")
    assert isinstance(bot, LevelBot) and bot.name == f"level:{number}"
    rng = np.random.default_rng(1)
    states = [s for s in random_states(players, 12, seed=number) if not s.is_terminal()]
    late = next(s for s in reversed(states) if s.phase == Phase.PLACEMENT)
    asked = [late]
    if number < TOP_LEVEL:
        asked.append(next(s for s in states if s.phase == Phase.SELECTION))
    for state in asked:
        view = state.view(state.to_move)
        assert view.is_legal(bot.choose(view, rng))
    bot.close()


@pytest.mark.parametrize("spec", ["level:6", "level:0", "level:", "level:x", "level:-1"])
def test_a_bad_level_is_a_one_line_error(spec):
    for make in (make_bot, check_bot_spec):
        with pytest.raises(ManhattanError) as caught:
            make(spec)
        message = str(caught.value)
        assert message == f"bot spec {spec!r}: expected level:1 to level:5"
    with pytest.raises(ManhattanError, match="expected a level 1 to 5"):
        level(6)


def test_the_bot_spec_list_names_the_levels():
    with pytest.raises(ManhattanError, match=r"level:<1-5>"):
        make_bot("nope")


# ----- the level ladder's harness ---------------------------------------------------------------


def test_the_ladder_has_one_step_per_level_above_the_first():
    steps = level_ladder.level_steps()
    assert [(s.upper, s.upper_spec, s.lower_spec) for s in steps] == [
        (k, f"level:{k}", f"level:{k - 1}") for k in range(2, TOP_LEVEL + 1)
    ]
    screened = level_ladder.level_steps({4: "mcts:300"})
    assert screened[2].upper_spec == "mcts:300" and screened[3].lower_spec == "mcts:300"
    assert level_ladder.parse_override("4=mcts:300") == (4, "mcts:300")
    for bad in ("4", "x=greedy", "9=greedy", "4="):
        with pytest.raises(ManhattanError):
            level_ladder.parse_override(bad)


def test_a_tiny_step_plays_every_deal_from_both_seats():
    step = level_ladder.level_steps()[0]  # level 2 (greedy) against level 1 (noisy greedy)
    summary = level_ladder.run_step(step, deals=3, seed=5)
    assert summary["games"] == 6 and summary["deals"] == 3
    assert summary["tested"] == "level:2" and summary["opponent"] == "level:1"
    assert 0 <= summary["win_rate"] <= 1
    low, high = summary["ci95"]
    assert low <= summary["win_rate"] <= high
    games = level_ladder.schedule(3, 5, level_ladder.PLAYERS)
    for deal in range(3):
        pair = [g for g in games if g.deal == deal]
        assert sorted(g.seat for g in pair) == [0, 1] and len({g.seed for g in pair}) == 1
    table = level_ladder.table([summary], 1, "2026-01-01")
    assert "| 2 (`level:2`) | 1 (`level:1`) | 6 |" in table


def test_the_command_line_fails_clearly(capsys):
    assert level_ladder.main(["--only", "7", "--quiet"]) == 1
    assert "--only 7: expected one of 2, 3, 4, 5" in capsys.readouterr().err
    assert level_ladder.main(["--spec", "4", "--quiet"]) == 1
    assert level_ladder.main(["--deals", "0", "--quiet"]) == 1
