"""The search engine: seeded results, merging, information hiding, limits, backends."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from positions import GameState, parse_position
from search.evaluators import RandomRolloutEvaluator
from search.ismcts import SearchConfig, search_tree
from search.limits import Limit, LimitError
from search.parallel import Parallelism, run_search
from search.players import MctsPlayer, RandomPlayer
from search.tree import TreeSummary

DATA = Path(__file__).parent / "data"


def puzzle_setup(name: str) -> tuple[GameState, str]:
    text = (DATA / name).read_text()
    setup = re.search(r'\[Setup "([^"]*)"\]', text).group(1)
    solution = re.search(r'\[Solution "([^"]*)"\]', text).group(1)
    return parse_position(setup), solution


@pytest.mark.parametrize("name", ["p4_k2_01.mpz", "p4_k2_02.mpz"])
def test_seeded_search_finds_the_winning_move(name):
    state, solution = puzzle_setup(name)
    result = run_search(state, Limit(iterations=1500), RandomRolloutEvaluator(), seed=7)
    assert result.best.move == solution
    assert result.best.win > 0.95
    assert result.iterations == 1500


def test_same_seed_same_result_and_other_seed_differs():
    state = GameState.new_game(4, np.random.default_rng(5)).view(0)
    first = run_search(state, Limit(iterations=200), RandomRolloutEvaluator(), seed=3)
    again = run_search(state, Limit(iterations=200), RandomRolloutEvaluator(), seed=3)
    other = run_search(state, Limit(iterations=200), RandomRolloutEvaluator(), seed=4)
    assert first.candidates == again.candidates
    assert first.candidates != other.candidates


def test_analysis_does_not_depend_on_shown_opponent_hands():
    rng = np.random.default_rng(11)
    world = GameState.new_game(3, rng)
    for _ in range(20):  # into the placement phase of round 1
        legal = world.legal_actions()
        world.apply_action(legal[int(rng.integers(len(legal)))])
    mover = world.current_player()
    shown = world.clone()
    shown.deck = None
    hidden = world.view(mover)
    a = run_search(shown, Limit(iterations=300), RandomRolloutEvaluator(), seed=9)
    b = run_search(hidden, Limit(iterations=300), RandomRolloutEvaluator(), seed=9)
    assert a.candidates == b.candidates
    assert [m.move for m in a.line] == [m.move for m in b.line]


def test_merged_parallel_result_is_the_sum_of_the_parts():
    state = GameState.new_game(4, np.random.default_rng(2)).view(0)
    evaluator = RandomRolloutEvaluator()
    seeds = np.random.SeedSequence(21).spawn(2)
    limits = Limit(iterations=201).split(2)
    parts = [
        search_tree(state, limits[i], np.random.default_rng(seeds[i]), evaluator) for i in range(2)
    ]
    merged = run_search(
        state, Limit(iterations=201), evaluator, seed=21, parallelism=Parallelism(workers=2)
    )
    assert merged.iterations == 201 == sum(p.iterations for p in parts)
    for candidate in merged.candidates:
        path = candidate.actions
        expected = sum(p.nodes[path].visits for p in parts if path in p.nodes)
        assert candidate.visits == expected
        win_sum = sum(p.nodes[path].win_sum for p in parts if path in p.nodes)
        assert candidate.win == pytest.approx(win_sum / expected)


def test_summary_merge_adds_statistics():
    a = TreeSummary(0)
    b = TreeSummary(0)
    state = GameState.new_game(2, np.random.default_rng(1)).view(0)
    a = search_tree(state, Limit(iterations=50), np.random.default_rng(1), RandomRolloutEvaluator())
    b = search_tree(state, Limit(iterations=70), np.random.default_rng(2), RandomRolloutEvaluator())
    total = TreeSummary(0)
    total.merge(a)
    total.merge(b)
    assert total.iterations == a.iterations + b.iterations >= 120
    for path in set(a.nodes) | set(b.nodes):
        visits = sum(s.nodes[path].visits for s in (a, b) if path in s.nodes)
        assert total.nodes[path].visits == visits


def test_selection_candidates_are_whole_selections():
    state = GameState.new_game(2, np.random.default_rng(4)).view(0)
    result = run_search(state, Limit(iterations=300), RandomRolloutEvaluator(), seed=1)
    legal = {str(m) for m in state.legal_moves()}
    assert result.candidates
    for candidate in result.candidates:
        assert candidate.move in legal
        assert re.fullmatch(r"=[1-4]{4}/[1-4]{4}", candidate.move)


def test_pimc_baseline_runs_and_is_seeded():
    state, solution = puzzle_setup("p4_k2_01.mpz")
    config = SearchConfig(determinization="pimc", worlds=4)
    first = run_search(
        state, Limit(iterations=800), RandomRolloutEvaluator(), seed=2, config=config
    )
    again = run_search(
        state, Limit(iterations=800), RandomRolloutEvaluator(), seed=2, config=config
    )
    assert first.candidates == again.candidates
    assert first.best.move == solution


def test_wall_time_limit_stops_the_search():
    state = GameState.new_game(4, np.random.default_rng(8)).view(0)
    result = run_search(state, Limit(seconds=0.3), RandomRolloutEvaluator(), seed=1)
    assert 0.25 < result.seconds < 1.5
    assert result.iterations > 0


@pytest.mark.parametrize(
    ("text", "limit"),
    [("5000", Limit(iterations=5000)), ("1s", Limit(seconds=1.0)), ("250ms", Limit(seconds=0.25))],
)
def test_limit_parse(text, limit):
    assert Limit.parse(text) == limit


@pytest.mark.parametrize("text", ["", "1.5", "abc", "0", "-3", "1h"])
def test_limit_parse_rejects(text):
    with pytest.raises(LimitError):
        Limit.parse(text)


def test_players_return_one_whole_decision():
    rng = np.random.default_rng(3)
    state = GameState.new_game(4, rng).view(0)
    for player in (RandomPlayer(), MctsPlayer(Limit(iterations=60), RandomRolloutEvaluator())):
        actions = player.choose_actions(state, rng)
        assert len(actions) == 6  # six picks make the 4-player selection
        assert str(state.actions_to_move(actions)) in {str(m) for m in state.legal_moves()}


def test_a_tiny_budget_still_returns_a_whole_decision():
    state = GameState.new_game(4, np.random.default_rng(12)).view(0)
    for limit in (Limit(iterations=1), Limit(seconds=1e-9)):
        result = run_search(state, limit, RandomRolloutEvaluator(), seed=1)
        assert result.candidates
        assert result.best.move in {str(m) for m in state.legal_moves()}
    stopped = search_tree(
        state,
        Limit(iterations=10_000),
        np.random.default_rng(1),
        RandomRolloutEvaluator(),
        should_stop=lambda: True,
    )
    assert stopped.decisions() and stopped.iterations < 200
