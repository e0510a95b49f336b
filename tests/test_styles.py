"""Reading how each opponent plays (``positions.styles``) and playouts that model each
player by their own policy (``PlayoutEvaluator(placement=(...))``)."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.players import make_bot
from positions import GameState
from positions.playout import PlayoutEvaluator, playout_trace, policy_codes
from positions.selfplay import play_game
from positions.styles import EXACT_LEAST, exactly_greedy, fitted_policies

SEATS = ["greedy", "heuristic", "greedy", "heuristic"]


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_greedy_and_heuristic_bots_are_told_apart_by_their_placements(seed):
    states = play_game([make_bot(spec) for spec in SEATS], 4, seed).record.states()
    middle = states[60]  # round 3: two rounds of placements read
    assert fitted_policies(middle, 0) == ("greedy", "heuristic", "greedy", "heuristic")
    # the reader is always modelled as greedy, whoever it is
    assert fitted_policies(middle, 1) == ("greedy", "greedy", "greedy", "heuristic")


def test_without_a_history_everyone_is_greedy():
    state = GameState.new_game(4, np.random.default_rng(1))
    assert fitted_policies(state, 0) == ("greedy",) * 4
    states = play_game([make_bot(spec) for spec in SEATS], 4, 11).record.states()
    stripped = states[60].clone()
    stripped.history = None
    assert fitted_policies(stripped, 0) == ("greedy",) * 4


def test_styles_read_only_what_the_reader_sees():
    """The reader's view hides the other hands; the reading is the same as from the world."""
    states = play_game([make_bot(spec) for spec in SEATS], 4, 12).record.states()
    world = states[70]
    reader = world.current_player()
    assert fitted_policies(world.view(reader), reader) == fitted_policies(world, reader)


def test_a_playout_models_each_player_by_their_own_policy():
    rng = np.random.default_rng(4)
    state = GameState.new_game(4, rng)
    same = playout_trace(state, 9, 0.0, ("heuristic",) * 4)
    assert same == playout_trace(state, 9, 0.0, "heuristic")
    mixed = playout_trace(state, 9, 0.0, ("greedy", "heuristic", "greedy", "heuristic"))
    assert mixed != same and mixed != playout_trace(state, 9, 0.0, "greedy")
    evaluator = PlayoutEvaluator(placement=("greedy", "heuristic", "greedy", "heuristic"))
    shares, totals = evaluator.evaluate(state, np.random.default_rng(2))
    assert shares.sum() == pytest.approx(1.0) and (totals > 0).all()
    assert evaluator.with_placement("greedy").placement == "greedy"


def test_per_player_policies_must_name_every_player():
    with pytest.raises(ValueError, match="one per player"):
        policy_codes(("greedy", "heuristic"), "bag", 4)
    with pytest.raises(ValueError, match="placement policy"):
        policy_codes(("greedy", "clever", "greedy"), "bag", 3)
    state = GameState.new_game(3, np.random.default_rng(1))
    with pytest.raises(ValueError, match="one per player"):
        PlayoutEvaluator(placement=("greedy", "heuristic")).evaluate(
            state, np.random.default_rng(1)
        )


def test_the_search_bot_reads_styles_and_its_own_play_fits_greedy_play():
    # Reading styles is the bots' default, and it must leave play against the engine as
    # it is: the engine's own placements are read as greedy play.
    assert make_bot("mcts:100").styles
    bots = [make_bot("mcts:100"), make_bot("heuristic"), make_bot("mcts:100"), make_bot("greedy")]
    states = play_game(bots, 4, 5).record.states()
    assert fitted_policies(states[80], 0) == ("greedy", "heuristic", "greedy", "greedy")
    assert fitted_policies(states[80], 1) == ("greedy",) * 4


def test_only_greedy_play_reads_as_exactly_greedy():
    """The greedy bots are read as exactly greedy once they have made ``EXACT_LEAST``
    placements; the engine and the heuristic bot never are, and the reader never."""
    bots = [make_bot("mcts:100"), make_bot("heuristic"), make_bot("greedy"), make_bot("greedy")]
    states = play_game(bots, 4, 5).record.states()
    assert exactly_greedy(states[80], 0) == (2, 3)
    assert exactly_greedy(states[80], 2) == (3,)
    for state in states[::8]:
        assert set(exactly_greedy(state, 0)) <= {2, 3}
    early = next(s for s in states if s.history and len(s.history) >= 1)
    assert exactly_greedy(early, 0) == ()  # fewer than EXACT_LEAST placements read
    assert EXACT_LEAST > 1
