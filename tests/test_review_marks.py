"""Marks that hold up: the played move is judged against the engine's choice on the same
dealt worlds and playout seeds, with a standard error, and no mark (nor better move) comes
from an unpaired or low-visit comparison."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from analyzer.engine import make_evaluator
from analyzer.review import ReviewSettings, _position_for, review_decision, review_game
from positions import GameState, parse_position
from positions.errors import ManhattanError
from positions.moves import parse_move
from positions.playout import PlayoutEvaluator
from positions.record import read_record
from search.compare import compare_decisions
from search.ismcts import CLASSIC
from search.limits import Limit
from search.parallel import Parallelism, run_search

DATA = Path(__file__).parent / "data"


def puzzle_state(name: str) -> GameState:
    text = (DATA / name).read_text()
    return parse_position(re.search(r'\[Setup "([^"]*)"\]', text).group(1))


def blunder_record(move: str) -> str:
    setup = re.search(r'\[Setup "([^"]*)"\]', (DATA / "p4_k2_01.mpz").read_text()).group(1)
    return f'[Game "Manhattan"]\n[Players "4"]\n[Setup "{setup}"]\n\nR4 {move}\n'


def middle_game() -> GameState:
    rng = np.random.default_rng(5)
    world = GameState.new_game(4, rng)
    while world.round < 2 or world.phase != 1:
        legal = world.legal_actions()
        world.apply_action(legal[int(rng.integers(len(legal)))])
    return world.view(world.current_player())


def test_a_decision_compared_with_itself_differs_by_exactly_nothing():
    """Common random numbers: the two sides see the same worlds and the same playouts, so
    a move against itself has a gap of 0 with a standard error of 0 — two independent
    searches would differ by their noise."""
    view = middle_game()
    move = run_search(view, Limit(iterations=200), PlayoutEvaluator(), seed=1).best.actions
    for parallelism in (Parallelism(1), Parallelism(2)):
        comparison = compare_decisions(
            view, [move, move], Limit(iterations=400), PlayoutEvaluator(), 3, parallelism
        )
        reference, same = comparison.values
        assert comparison.iterations == 400
        assert same.win_gap == 0.0 and same.win_gap_se == 0.0
        assert same.score_gap == 0.0 and same.score_gap_se == 0.0
        assert same.win == reference.win and same.score == reference.score


def test_different_moves_get_a_gap_with_an_honest_standard_error():
    view = middle_game()
    result = run_search(view, Limit(iterations=1500), PlayoutEvaluator(), seed=1)
    best, worst = result.candidates[0], result.candidates[-1]
    comparison = compare_decisions(
        view, [best.actions, worst.actions], Limit(iterations=600), PlayoutEvaluator(), 2
    )
    _, other = comparison.values
    assert 0 < other.win_gap_se < 0.05
    assert 0 < other.score_gap_se < 2.0
    assert other.move == worst.move


def test_a_planted_blunder_is_marked_from_a_paired_comparison():
    record = read_record(blunder_record("7@1:1"))
    settings = ReviewSettings(iterations_per_move=3000, seed=2)
    decision, _ = review_decision(record.states()[0], record.moves[0], 0, settings)
    assert decision.best == "7@5:1" and decision.better == "7@5:1"
    assert decision.compared == 1500  # the comparison's half of the budget
    assert decision.loss >= 15 and 0 <= decision.loss_se < 3
    assert decision.mark == "??"


def test_no_mark_and_no_better_move_from_a_handful_of_visits():
    """With a budget this small the engine's choice has fewer than ``min_visits`` visits:
    whatever the loss looks like, nothing is marked and no better move is offered."""
    record = read_record(blunder_record("7@1:1"))
    settings = ReviewSettings(iterations_per_move=40, seed=2)
    decision, _ = review_decision(record.states()[0], record.moves[0], 0, settings)
    assert decision.played != decision.best
    assert decision.mark is None and decision.better is None


def test_an_uncertain_loss_is_not_marked():
    """The mark needs the loss to clear its threshold with confidence: the same loss with a
    large standard error goes unmarked (see also test_mark_thresholds_and_decided_games)."""
    record = read_record((DATA / "game_2p.mgn").read_text())
    record.moves = record.moves[:8]
    record.tags.pop("Result")
    review = review_game(record, ReviewSettings(iterations_per_move=200, seed=1))
    for decision in review.decisions:
        if decision.mark is not None:
            assert decision.loss - ReviewSettings().confidence_z * decision.loss_se >= 5
            assert decision.better == decision.best
        if decision.played != decision.best:
            assert decision.compared > 0


def test_gaps_can_be_measured_from_any_compared_decision():
    """``relative_to(k)`` reads the same paired outcomes with decision ``k`` as the
    reference: its own gap is zero, and the gap between two decisions only changes sign
    when the reference changes side."""
    view = middle_game()
    result = run_search(view, Limit(iterations=1500), PlayoutEvaluator(), seed=1)
    moves = [c.actions for c in result.candidates[:3]]
    comparison = compare_decisions(view, moves, Limit(iterations=300), PlayoutEvaluator(), 4)
    from_second = comparison.relative_to(1)
    assert from_second[1].win_gap == 0.0 and from_second[1].win_gap_se == 0.0
    assert from_second[0].win_gap == pytest.approx(-comparison.values[1].win_gap)
    assert from_second[0].win_gap_se == pytest.approx(comparison.values[1].win_gap_se)
    assert [v.win for v in from_second] == [v.win for v in comparison.values]
    assert from_second[2].win_gap == pytest.approx(
        comparison.values[2].win_gap - comparison.values[1].win_gap
    )


def test_the_move_played_is_judged_against_the_best_of_the_searchs_top_moves():
    """A short search ranks near-equal moves differently from seed to seed, so the move
    played is compared with the search's most visited moves that have enough visits (not
    its single favourite), and the engine's choice is the one that did best on the same
    worlds."""
    record = read_record(blunder_record("7@1:1"))
    settings = ReviewSettings(iterations_per_move=3000, seed=2, candidates=3)
    decision, _ = review_decision(record.states()[0], record.moves[0], 0, settings)
    view = _position_for(record.states()[0], record.moves[0])
    evaluator = make_evaluator(settings.epsilon)
    search = run_search(view, settings.limit(settings.search_share), evaluator, 2)
    expected = [c.move for c in search.candidates if c.move != "7@1:1" and c.visits >= 30][:3]
    assert len(expected) >= 2 and list(decision.rivals) == expected
    assert decision.best in decision.rivals
    single = review_decision(
        record.states()[0], record.moves[0], 0, replace(settings, candidates=1)
    )[0]
    assert single.rivals == (search.best.move,)


def test_candidates_must_be_at_least_one():
    with pytest.raises(ManhattanError, match="candidates"):
        ReviewSettings(candidates=0)


def test_the_comparison_trees_explore_with_their_own_constant():
    """The paired comparison searches with ``compare_exploration``, not the search's (it
    acts where the comparison's trees grow past the compared decision, as ``CLASSIC``'s
    do; the default tree stops there)."""
    record = read_record(blunder_record("7@1:1"))
    state, recorded = record.states()[0], record.moves[0]
    settings = ReviewSettings(
        iterations_per_move=1200, seed=3, compare_exploration=0.2, config=CLASSIC, epsilon=0.1
    )
    decision, _ = review_decision(state, recorded, 0, settings)
    view = _position_for(state, recorded)
    played = view.move_to_actions(recorded.move)
    best = view.move_to_actions(parse_move(decision.best))

    def loss(exploration: float) -> float:
        comparison = compare_decisions(
            view,
            [best, played],
            settings.limit(1 - settings.search_share),
            make_evaluator(settings.epsilon),
            settings.seed,
            Parallelism(1),
            replace(settings.config, exploration=exploration),
        )
        return 100 * comparison.values[1].win_gap

    assert decision.loss == pytest.approx(max(0.0, loss(0.2)))
    assert loss(0.2) != pytest.approx(loss(settings.config.exploration))


def test_the_comparison_exploration_must_be_positive():
    with pytest.raises(ManhattanError, match="exploration"):
        ReviewSettings(compare_exploration=0)
