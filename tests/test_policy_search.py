"""Priors in the search (``SearchConfig.expansion`` and ``prior_weight``), game-agnostic,
on the tiny hidden-card games of ``test_search_pins``."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import numpy as np
import pytest
from test_search_pins import SHOW, HiddenCardGame, PlayOut

from search.ismcts import CLASSIC, SearchConfig, TreeSearch, run_iteration, search_tree
from search.limits import Limit
from search.tree import Node

FAVOURITE = 7
ACTIONS = list(range(10))


class PriorPlayOut(PlayOut):
    """``PlayOut`` with a prior that favours one action; counts what it is asked."""

    def __init__(self, favourite_weight: float = 100.0):
        self.favourite_weight = favourite_weight
        self.asked: Counter[int] = Counter()

    def prior(self, state: HiddenCardGame, actions: list[int]) -> list[float]:
        self.asked.update(actions)
        return [self.favourite_weight if a == FAVOURITE else 1.0 for a in actions]


class NoPriors(PlayOut):
    def prior(self, state, actions):
        raise AssertionError("the default search must not ask for priors")


def classic(**fields) -> SearchConfig:
    """The UCB tree search (``CLASSIC``, where priors act) with ``fields`` changed."""
    return replace(CLASSIC, **fields)


def level_game(legal=lambda card: ACTIONS) -> HiddenCardGame:
    """P1 picks one of ten actions, every one of them a shared first."""
    return HiddenCardGame(["o"] * 5, legal=legal, outcome=lambda action, card: (1, 1))


def test_the_default_search_asks_no_priors():
    summary = search_tree(level_game(), Limit(iterations=300), np.random.default_rng(0), NoPriors())
    assert sum(stats.visits for _, stats in summary.decisions()) == 300


def first_expansions(config: SearchConfig, runs: int = 300) -> Counter[int]:
    """Which action the first iteration of a fresh tree expands, over ``runs`` seeds."""
    firsts: Counter[int] = Counter()
    for seed in range(runs):
        root = Node(-1)
        world = level_game().resample_from_infostate(0, np.random.default_rng(seed))
        run_iteration(root, world, np.random.default_rng(seed), PriorPlayOut(), config)
        (action,) = root.children
        firsts[action] += 1
    return firsts


def test_prior_expansion_draws_untried_actions_in_proportion_to_their_priors():
    by_prior = first_expansions(classic(expansion="prior"))
    # the favourite weighs 100 against nine 1s: drawn 100/109 of the time
    assert 0.87 < by_prior[FAVOURITE] / 300 < 0.96, by_prior
    uniform = first_expansions(CLASSIC)
    assert uniform[FAVOURITE] / 300 < 0.2, uniform
    assert len(uniform) == 10


def visit_share(config: SearchConfig, iterations: int, seed: int = 1) -> float:
    summary = search_tree(
        level_game(),
        Limit(iterations=iterations),
        np.random.default_rng(seed),
        PriorPlayOut(),
        config,
    )
    visits = {path: stats.visits for path, stats in summary.decisions()}
    return visits[(FAVOURITE,)] / sum(visits.values())


def test_progressive_bias_leads_early_and_fades():
    """Every action is worth the same: without a bias UCB shares the visits evenly; with
    one the favourite leads at first, and its lead fades as the visits grow."""
    biased = classic(prior_weight=5.0)
    early, late = visit_share(biased, 100), visit_share(biased, 20_000)
    assert early > 0.18, early  # a tenth of the visits without a bias
    assert late < 0.12 and late < early - 0.07, late
    assert visit_share(CLASSIC, 100) < 0.12


def test_a_node_asks_each_actions_prior_once():
    """P1's legal actions depend on P2's hidden card: the root asks for each action's prior
    the first time a world makes it legal, never again."""
    evaluator = PriorPlayOut()
    game = HiddenCardGame(
        ["low", "high"],
        legal=lambda card: [0, 1, 2] if card == "low" else [2, 3, FAVOURITE],
        outcome=lambda action, card: (action, 3),
    )
    search = TreeSearch(game, np.random.default_rng(3), evaluator, classic(prior_weight=1.0))
    search.run(500)
    # and each of P2's five nodes (one under each of P1's actions) asks for SHOW once
    assert evaluator.asked == Counter({0: 1, 1: 1, 2: 1, 3: 1, FAVOURITE: 1, SHOW: 5})


def test_bad_prior_settings_are_refused():
    with pytest.raises(ValueError, match="expansion must be random or prior"):
        SearchConfig(expansion="greedy")
    with pytest.raises(ValueError, match="prior_weight"):
        SearchConfig(prior_weight=-1.0)


def test_an_evaluator_without_priors_searches_as_without_them():
    with_priors = classic(expansion="prior", prior_weight=2.0)
    summaries = [
        search_tree(level_game(), Limit(iterations=300), np.random.default_rng(4), PlayOut(), c)
        for c in (with_priors, CLASSIC)
    ]
    first, second = ({p: s.visits for p, s in x.decisions()} for x in summaries)
    assert first == second
