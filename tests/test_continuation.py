"""The line beyond a depth-one tree: the playouts' most common continuation
(``search.continuation``) and the analysis that shows it."""

from __future__ import annotations

import numpy as np

from analyzer.engine import EngineSettings, analyze
from positions import GameState, Phase
from positions.playout import PlayoutEvaluator
from search.continuation import playout_line
from search.evaluators import RandomRolloutEvaluator
from search.ismcts import SearchConfig
from search.limits import Limit


def placement_view(seed: int) -> GameState:
    rng = np.random.default_rng(seed)
    state = GameState.new_game(4, rng)
    while state.phase != Phase.PLACEMENT or state.round < 2:
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    return state.view(state.current_player())


def test_the_line_follows_the_most_common_continuation():
    view = placement_view(3)
    first = view.legal_actions()[0]
    line = playout_line(view, [first], PlayoutEvaluator(), np.random.default_rng(1), worlds=40)
    assert len(line) == 3
    players = [move.player for move in line]
    mover = view.current_player()
    assert players == [(mover + k) % 4 for k in (1, 2, 3)]
    visits = [move.visits for move in line]
    assert 40 >= visits[0] >= visits[1] >= visits[2] >= 1
    assert all(0.0 <= move.win <= 1.0 for move in line)
    again = playout_line(view, [first], PlayoutEvaluator(), np.random.default_rng(1), worlds=40)
    assert again == line


def test_no_line_without_continuations():
    view = placement_view(4)
    first = view.legal_actions()[0]
    rng = np.random.default_rng(1)
    assert playout_line(view, [first], RandomRolloutEvaluator(), rng) == []


def test_analysis_with_a_depth_one_tree_still_shows_a_line():
    view = placement_view(5)
    config = SearchConfig(root_policy="halving", decision_depth=1)
    analysis = analyze(view, EngineSettings(limit=Limit(iterations=400), config=config))
    assert len(analysis.line) == 4
    assert analysis.line[0] == (view.current_player() + 1, analysis.best.move)
