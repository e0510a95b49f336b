"""benchmarks/reading_information.py: its exact prior is the uniform dealer's, a reading of
greedy bots by the greedy model gains information about their true hands, and bad options
are one-line errors."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

sys.path.append(str(Path(__file__).resolve().parent.parent / "benchmarks"))

import reading_information  # noqa: E402

from positions.bots import GreedyBot  # noqa: E402
from positions.inference import GREEDY_PLAYER, read_opponents, uniform_hands  # noqa: E402
from positions.state import GameState, Phase  # noqa: E402


def _midgame(placements: int) -> GameState:
    """A 4-player game of greedy bots after ``placements`` placements, P1 to move."""
    rng = np.random.default_rng(5)
    state = GameState.new_game(4, rng)
    bot = GreedyBot()
    while len(state.history) < placements or state.to_move != 0:
        state.apply_move(bot.choose(state.view(state.to_move), rng))
    assert state.phase == Phase.PLACEMENT
    return state


def test_the_exact_prior_is_the_uniform_dealers():
    view = _midgame(9).view(0)
    unseen = view.unseen_cards(0)
    hands, chances = reading_information.possible_hands(unseen)
    assert chances.sum() == pytest.approx(1.0)
    mean = chances @ hands[:, 1:]
    assert mean == pytest.approx(4 * np.bincount(unseen, minlength=10)[1:] / len(unseen))
    dealt = uniform_hands(view, 0, 20000, np.random.default_rng(1))[:, 2, :]
    paired = (hands[:, 1:] >= 2).any(axis=1)
    assert (dealt[:, 1:] >= 2).any(axis=1).mean() == pytest.approx(chances[paired].sum(), abs=0.015)


def test_reading_greedy_bots_gains_information_about_their_hands():
    report = reading_information.measure(
        "greedy", 1, [3], reading_information.GREEDY_PLAYER, seed=100
    )
    assert report["readings"] > 40
    assert report["prior_nats"][0] > 4
    gain, half = report["gain_nats"]["3"]
    assert gain - half > 0.2


def test_a_shallower_cut_of_a_deep_reading_is_the_shallow_reading():
    view = _midgame(30).view(0)
    hands = uniform_hands(view, 0, 200, np.random.default_rng(2))
    deep = read_opponents(view, 0, replace(GREEDY_PLAYER, depth=6))
    assert deep.depths.tolist() == [6, 6, 6]
    for depth in (1, 3):
        shallow = read_opponents(view, 0, replace(GREEDY_PLAYER, depth=depth))
        cut = reading_information.shallower(deep, depth)
        expected = shallow.weights(hands, GREEDY_PLAYER.mix)
        assert np.allclose(cut.weights(hands, GREEDY_PLAYER.mix), expected)
        assert not np.allclose(deep.weights(hands, GREEDY_PLAYER.mix), expected)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "clever"], "clever"),
        (["--depths", "3,0"], "at least 1"),
        (["--mix", "0"], "mix"),
    ],
)
def test_bad_options_are_one_line_errors(argv, message, capsys):
    with pytest.raises(SystemExit) as stopped:
        reading_information.main(argv)
    assert stopped.value.code == 1
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1
