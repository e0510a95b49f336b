"""The compiled playout policies (``positions.policy``) against the readable code they restate.

* ``_points_delta`` (every color's change of round points) equals ``RoundScorer``;
* the compiled heuristic values every legal placement as ``HeuristicBot`` does, and the
  heuristic playout plays a move of the best value (ties at random);
* the ``biggest`` selection is the bots' ``biggest_selection``;
* the evaluator's priors are the heuristic values through a softmax.

The legality of whole playouts under each policy is ``tests/test_playout.py``'s
differential test.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from randompositions import random_states
from test_playout import no_placement_position

from positions import GameState, Phase, RuleOptions
from positions.bots import HeuristicWeights, _PlacementJudge, biggest_selection
from positions.kernel_board import _board_facts, _points_delta, pack_board, to_arrays
from positions.layout import COLORS, SITES_PER_CITY
from positions.moves import NO_PLACEMENT_BASE, PICK_BASE, decode_action
from positions.playout import PlayoutEvaluator, playout_trace
from positions.policy import mover_unseen, placement_values, public_unseen, weights_array
from positions.scoring import RoundScorer

OPTIONS = (
    RuleOptions(),
    RuleOptions(tallest_tie="shared"),
)


def placement_states(count: int, seed: int) -> list[GameState]:
    """Dealt placement-phase states of 2, 3 and 4 players under both tallest rules (and
    the 2p ``min`` total), some from late in the game (last rounds)."""
    found = []
    for players in (2, 3, 4):
        for index, options in enumerate(OPTIONS + (RuleOptions(two_player_total="min"),)):
            if players != 2 and options.two_player_total == "min":
                continue
            states = random_states(players, count, seed + 10 * players + index, options, 0.2)
            found.extend(s for s in states if s.phase == Phase.PLACEMENT)
    return found


def site_of(state: GameState, action: int) -> tuple[int, int, int]:
    """``(site, color, size)`` of a placement action of the player to move."""
    _, card, city, slot, size = decode_action(action)
    site = (city - 1) * SITES_PER_CITY + state.layout.card_sites[state.to_move][card]
    return site, state.layout.player_colors[state.to_move][slot], size


def test_points_delta_equals_the_round_scorer():
    checked = 0
    for state in placement_states(25, 1):
        scorer = RoundScorer.of_state(state)
        height = np.array(state.height, dtype=np.int64)
        owner = np.array(state.owner, dtype=np.int64)
        city_count, city_winner, tall = _board_facts(height, owner)
        shared = state.options.tallest_tie == "shared"
        delta = np.empty(COLORS, dtype=np.int64)
        for action in state.legal_actions():
            if action >= NO_PLACEMENT_BASE:
                continue
            site, color, size = site_of(state, action)
            _points_delta(
                site, color, size, owner, height, city_count, city_winner, tall, shared, delta
            )
            after = scorer.points_after(site, color, size)
            assert delta.tolist() == [a - b for a, b in zip(after, scorer.points, strict=True)]
            checked += 1
    assert checked > 3000


def test_heuristic_values_are_the_heuristic_bots():
    checked = 0
    weights = weights_array()
    for state in placement_states(20, 2):
        mover = state.to_move
        view = state.view(mover)
        legal = [a for a in view.legal_actions() if a < NO_PLACEMENT_BASE]
        if not legal:
            continue
        arrays = to_arrays(state)
        cards = {decode_action(a)[1] for a in legal}
        values = placement_values(arrays, mover, cards, mover_unseen(arrays, mover), weights)
        judge = _PlacementJudge(view, HeuristicWeights())
        for action in legal:
            assert values[action] == pytest.approx(judge.value(action), abs=1e-9), (
                view.action_to_string(action)
            )
            checked += 1
        # every other placement id is NaN: not legal, or a card not asked for
        others = np.ones(NO_PLACEMENT_BASE, dtype=bool)
        others[legal] = False
        assert np.isnan(values[others]).all()
    assert checked > 3000


def test_public_values_count_no_hand():
    """Valued from the public board (no hand known), the risk counts every card not played."""
    state = next(s for s in placement_states(5, 3) if s.players == 4)
    view = state.view(state.to_move)
    unseen = public_unseen(view.played)
    assert unseen[0] == 0 and unseen[1:].tolist() == [5 - n for n in view.played[1:]]
    values = placement_values(pack_board(view), view.to_move, range(1, 10), unseen, weights_array())
    # with no hand known every card's placements are valued, the mover's own ones too
    legal = [a for a in view.legal_actions() if a < NO_PLACEMENT_BASE]
    assert not np.isnan(values[legal]).any()
    assert np.count_nonzero(~np.isnan(values)) > len(legal)


def best_value_actions(state: GameState) -> set[int]:
    judge = _PlacementJudge(state.view(state.to_move), HeuristicWeights())
    values = {a: judge.value(a) for a in state.legal_actions()}
    best = max(values.values())
    return {a for a, v in values.items() if v >= best - 1e-9}


def test_heuristic_playout_plays_a_best_valued_placement():
    ties = Counter()
    checked = 0
    for state in placement_states(16, 4):
        if state.legal_actions()[0] >= NO_PLACEMENT_BASE:
            continue
        best = best_value_actions(state)
        firsts = {playout_trace(state, seed, 0.0, "heuristic", "bag")[0][0] for seed in range(4)}
        assert firsts <= best, [state.action_to_string(a) for a in firsts - best]
        ties[len(firsts)] += 1
        checked += 1
    assert checked > 50
    assert max(ties) > 1  # ties are broken at random


def test_biggest_selection_is_the_bots():
    checked = 0
    for players in (2, 3, 4):
        for state in random_states(players, 40, 5, rate=0.3):
            if state.phase != Phase.SELECTION:
                continue
            trace = playout_trace(state, checked, 0.0, "greedy", "biggest")
            quota = state.layout.quota * len(state.layout.player_colors[state.to_move])
            picks = [action for action, _ in trace[:quota]]
            assert all(a >= PICK_BASE for a in picks)
            assert state.actions_to_move(picks) == biggest_selection(state.view(state.to_move))
            checked += 1
    assert checked > 20


def test_heuristic_gives_up_a_smallest_block():
    state = no_placement_position(np.random.default_rng(3))
    legal = state.legal_actions()
    smallest = min(decode_action(a)[4] for a in legal)
    assert {decode_action(a)[4] for a in legal} != {smallest}
    for seed in range(20):
        first = playout_trace(state, seed, 0.0, "heuristic", "bag")[0][0]
        assert first >= NO_PLACEMENT_BASE and decode_action(first)[4] == smallest


def test_priors_are_a_softmax_of_the_heuristic_values():
    state = next(s for s in placement_states(5, 6) if s.players == 3)
    legal = state.legal_actions()
    arrays = to_arrays(state)
    mover = state.to_move
    values = placement_values(
        arrays, mover, range(1, 10), mover_unseen(arrays, mover), weights_array()
    )
    for temperature in (0.5, 2.0):
        priors = PlayoutEvaluator(prior_temperature=temperature).prior(state, legal)
        best = max(values[a] for a in legal)
        expected = [math.exp((values[a] - best) / temperature) for a in legal]
        assert priors == pytest.approx(expected)
        assert max(priors) == pytest.approx(1.0)
    picks = GameState.new_game(4, np.random.default_rng(1))
    assert PlayoutEvaluator().prior(picks, picks.legal_actions()) == [1.0] * len(
        picks.legal_actions()
    )
