"""Sequential halving at the root and the tree's depth bound (``search.halving``,
``SearchConfig.root_policy`` and ``decision_depth``), on tiny games with known answers."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from test_search_pins import GUESS_LEFT, HiddenCardGame, PlayOut, guessing_game

from positions import GameState, Phase
from positions.playout import PlayoutEvaluator
from search.evaluators import RandomRolloutEvaluator
from search.ismcts import CLASSIC, SearchConfig, search_tree
from search.limits import Limit
from search.parallel import run_search

HALVING = SearchConfig(root_policy="halving")
ACTIONS = 16


def ladder_game() -> HiddenCardGame:
    """P1 picks one of 16 actions; P2's hidden card is one of 0..19; action ``a`` wins when
    the card is below ``a + 4``, so action 15 (19 of 20) is best, each action better than
    the one before."""
    return HiddenCardGame(
        [str(card) for card in range(20)],
        legal=lambda card: list(range(ACTIONS)),
        outcome=lambda action, card: (1, 0) if int(card) < action + 4 else (0, 1),
    )


def test_halving_finds_the_best_of_many_actions_and_spends_the_budget():
    for seed in range(5):
        summary = search_tree(
            ladder_game(), Limit(iterations=2000), np.random.default_rng(seed), PlayOut(), HALVING
        )
        decisions = summary.decisions()
        (best_path, best), *others = decisions
        assert best_path[0] >= ACTIONS - 2
        assert summary.iterations == 2000
        assert sum(stats.visits for _, stats in decisions) == 2000
        # the first round gives every action the same few visits; the worst half stops there
        first_round = min(stats.visits for _, stats in decisions)
        assert first_round >= 2000 // (4 * ACTIONS) - 1
        dropped = [path[0] for path, stats in decisions if stats.visits == first_round]
        assert set(dropped) >= set(range(ACTIONS // 4))
        assert best.visits > others[0][1].visits


class EndLog(Counter):
    """A ``HiddenCardGame.ends`` that also keeps the order of the game ends."""

    def __init__(self) -> None:
        super().__init__()
        self.order: list[str] = []

    def __setitem__(self, card: str, count: int) -> None:
        self.order.append(card)
        super().__setitem__(card, count)


def test_halving_compares_the_survivors_in_the_same_worlds():
    """Catches halving that deals a world per iteration instead of one per world of the
    round: with two actions the budget is one round (less the survivor's one iteration at
    the end), each world ending the game once for each action, so the game ends come in
    pairs with the same hidden card."""
    game = guessing_game()
    game.ends = EndLog()
    summary = search_tree(game, Limit(iterations=400), np.random.default_rng(3), PlayOut(), HALVING)
    assert summary.decisions()[0][0] == (GUESS_LEFT,)
    order = game.ends.order
    assert len(order) == 400
    pairs = list(zip(order[0:398:2], order[1:398:2], strict=True))
    assert all(first == second for first, second in pairs)
    assert 0.6 < sum(first == "left" for first, _ in pairs) / len(pairs) < 0.8


def test_halving_under_a_wall_time_plays_its_best_survivor():
    for seed in range(3):
        summary = search_tree(
            ladder_game(), Limit(seconds=0.3), np.random.default_rng(seed), PlayOut(), HALVING
        )
        (best_path, best), (_, second) = summary.decisions()[:2]
        assert best.visits > second.visits
        assert best_path[0] >= ACTIONS - 3


def test_halving_on_manhattan_is_seeded_and_returns_whole_decisions():
    state = GameState.new_game(4, np.random.default_rng(5)).view(0)
    results = [
        run_search(state, Limit(iterations=300), RandomRolloutEvaluator(), seed=2, config=HALVING)
        for _ in range(2)
    ]
    assert results[0].candidates == results[1].candidates
    assert results[0].best.move in {str(m) for m in state.legal_moves()}


def test_decision_depth_one_keeps_the_tree_to_the_root_decision():
    summary = search_tree(
        guessing_game(),
        Limit(iterations=200),
        np.random.default_rng(1),
        PlayOut(),
        SearchConfig(decision_depth=1),
    )
    assert {len(path) for path in summary.nodes} == {1}
    deep = search_tree(
        guessing_game(), Limit(iterations=200), np.random.default_rng(1), PlayOut(), CLASSIC
    )
    assert max(len(path) for path in deep.nodes) == 2


def test_decision_depth_counts_a_selection_of_picks_as_one_decision():
    state = GameState.new_game(4, np.random.default_rng(7)).view(0)
    summary = search_tree(
        state,
        Limit(iterations=400),
        np.random.default_rng(1),
        RandomRolloutEvaluator(),
        SearchConfig(decision_depth=1),
    )
    lengths = Counter(len(path) for path in summary.nodes)
    assert max(lengths) == 6  # the six picks of one 4-player selection, nothing below


class OneAtATime:
    """The playout evaluator without ``evaluate_actions``: halving then runs each root
    action's iteration on its own."""

    def __init__(self) -> None:
        self.evaluator = PlayoutEvaluator()

    def evaluate(self, state, rng):
        return self.evaluator.evaluate(state, rng)


@pytest.mark.parametrize("margin_scale", [0.0, 8.0], ids=["linear", "saturating"])
def test_halving_at_depth_one_batches_a_worlds_actions_with_the_same_outcome(margin_scale):
    """The batched kernel call (``evaluate_actions``) gives the very statistics that one
    iteration per action gives: same worlds, same playout seeds, same results, rewards
    included, whatever the margin's reward."""
    config = SearchConfig(root_policy="halving", decision_depth=1, margin_scale=margin_scale)
    rng = np.random.default_rng(8)
    state = GameState.new_game(4, rng)
    while state.phase != Phase.PLACEMENT or state.round < 2:
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    view = state.view(state.current_player())
    batched = search_tree(
        view, Limit(iterations=600), np.random.default_rng(4), PlayoutEvaluator(), config
    )
    single = search_tree(
        view, Limit(iterations=600), np.random.default_rng(4), OneAtATime(), config
    )
    assert batched.nodes == single.nodes
    assert batched.iterations == single.iterations == 600


@pytest.mark.parametrize(
    "fields",
    [{"root_policy": "thompson"}, {"decision_depth": -1}, {"margin_scale": -1.0}],
    ids=["policy", "depth", "margin scale"],
)
def test_bad_settings_are_refused(fields):
    with pytest.raises(ValueError):
        SearchConfig(**fields)
