"""The learned evaluation (``positions.value``): the kernel's estimate equals the readable
features and prediction, playouts with a horizon stop at a round's end, and the bundled
models load."""

from __future__ import annotations

import numpy as np
import pytest

from positions import GameState, Phase, RuleOptions
from positions.kernel_board import _board_facts, _round_points, to_arrays
from positions.playout import PlayoutEvaluator, playout_trace, run_playout
from positions.value import FEATURES, ValueModel, _estimate, features, predict

MODEL = ValueModel(0.3, -0.05, 0.3, 10.0, 0.35)


def round_end_states(players: int, games: int, options: RuleOptions) -> list[GameState]:
    """Every round's end of ``games`` kernel games, replayed through the readable rules."""
    found = []
    for game in range(games):
        state = GameState.new_game(players, np.random.default_rng(game), options)
        for action, drawn in playout_trace(state, game, 0.3, "heuristic", "biggest"):
            scored = state.phase == Phase.PLACEMENT
            if drawn < 0 or (state.deck_count() > 0 and state.deck[-1] == drawn):
                state.apply_action(action)
            else:
                state.apply_move(state.action_to_move(action), drawn=drawn)
            if scored and state.phase == Phase.SELECTION:
                found.append(state.clone())
    return found


@pytest.mark.parametrize(
    "players, options",
    [
        (2, RuleOptions()),
        (2, RuleOptions(two_player_total="min", tallest_tie="shared")),
        (3, RuleOptions()),
        (4, RuleOptions(tallest_tie="shared")),
    ],
)
def test_the_kernels_estimate_is_the_readable_prediction(players, options):
    states = round_end_states(players, 6, options)
    assert len(states) >= 6 * 3
    for state in states:
        arrays = to_arrays(state)
        height = np.array(state.height, dtype=np.int64)
        owner = np.array(state.owner, dtype=np.int64)
        _, city_winner, tall = _board_facts(height, owner)
        points = _round_points(owner, city_winner, tall, options.tallest_tie == "shared")
        assert points.tolist() == state.round_points()
        out = np.zeros(2 * players)
        _estimate(arrays, points, MODEL.to_array(), out)
        chances, totals = predict(MODEL, features(state))
        assert out[:players] == pytest.approx(chances)
        assert out[players:] == pytest.approx(totals)
        assert chances.sum() == pytest.approx(1.0)


def test_features_read_the_board_scores_and_supply():
    state = round_end_states(4, 1, RuleOptions())[0]  # after round 1 of 4
    rows = features(state)
    points = state.round_points()
    assert rows.shape == (4, len(FEATURES) + 1)
    assert rows[:, -1].tolist() == state.player_totals()
    assert rows[:, 3].tolist() == [3] * 4  # three rounds left
    assert rows[:, 0].tolist() == [3 * points[p] for p in range(4)]
    assert rows[0, 1] == pytest.approx(3 * sum(points[1:4]) / 3)
    assert rows[:, 2].tolist() == [
        sum((s + 1) * state.supply[p * 4 + s] for s in range(4)) for p in range(4)
    ]


def test_a_playout_with_a_horizon_stops_at_the_rounds_end():
    state = GameState.new_game(4, np.random.default_rng(3))
    arrays = to_arrays(state)
    full = run_playout(arrays, 7, 0.1, "heuristic", "biggest")
    cut = run_playout(arrays, 7, 0.1, "heuristic", "biggest", horizon=1, model=MODEL)
    assert set(full[:4]) <= {0.0, 0.25, 1 / 3, 0.5, 1.0}  # a played-out game's shares
    assert cut[:4].sum() == pytest.approx(1.0) and 0 < cut[:4].min() < cut[:4].max() < 1
    # the first round alone scores far less than a whole game
    assert cut[4:].max() < full[4:].max() + 40
    with pytest.raises(ValueError, match="value model"):
        run_playout(arrays, 7, 0.1, horizon=1)


def test_in_the_last_round_the_horizon_changes_nothing():
    states = [s for s in round_end_states(4, 3, RuleOptions()) if s.round == 4]
    rng = np.random.default_rng(1)
    for state in states:
        exact = PlayoutEvaluator(placement="heuristic", selection="biggest")
        cut = PlayoutEvaluator(placement="heuristic", selection="biggest", horizon=1)
        seed = int(rng.integers(2**32))
        a = exact.evaluate(state, np.random.default_rng(seed))
        b = cut.evaluate(state, np.random.default_rng(seed))
        assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert states


def test_bundled_value_models_load_for_every_player_count():
    for players in (2, 3, 4):
        model = ValueModel.bundled(players)
        assert model.sharpness > 0 and model.rounds_left > 0
    with pytest.raises(ValueError, match="horizon"):
        PlayoutEvaluator(horizon=-1)
