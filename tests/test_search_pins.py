"""Tests that pin the information-set search down, on tiny games where the answer is provable.

Each test names the broken search it catches.  Two plausible changes to
``search/ismcts.py`` once passed the whole suite; these fail for them:

* **a new world every iteration** (dealing one world at the start and searching only it
  is the classic determinization mistake: the search then knows the hidden card) — with
  halving at the root (the default) a new world for every round's world, each played by
  all the surviving actions, and with UCB (``CLASSIC``) for every iteration;
* **subset-armed UCB** (an action's exploration term counts the times it was *available*;
  counting the parent's visits instead over-explores actions that are legal only in some
  worlds, and at the root, whose own visits are never counted, it stops exploring) — the
  rule of ``CLASSIC`` and of the tree inside any decision made of several actions.

The games implement ``search.protocol.GameState``: two players, P1 (the observer) moves
once, then P2 once, then the game is over; P2 holds one hidden card that P1 cannot see,
drawn from a known multiset of card names.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np
import pytest

from search.ismcts import CLASSIC, SearchConfig, run_iteration, search_tree
from search.limits import Limit
from search.tree import Node

SHOW = 9  # P2's only action: show the card (the game then ends)


class HiddenCardGame:
    """P1 plays one action, knowing only the multiset ``cards`` that P2's hidden card was
    drawn from; then P2 shows the card and the game ends.

    ``legal(card)`` gives P1's legal actions when P2 holds ``card``; ``outcome(action,
    card)`` the final totals ``(P1, P2)``: the higher wins, equal totals share first.
    ``ends`` (shared by every copy) counts P2's card each time ``returns()`` is asked of a
    finished game: once per search iteration, in the world the iteration played."""

    def __init__(
        self,
        cards: Sequence[str],
        legal: Callable[[str], list[int]],
        outcome: Callable[[int, str], tuple[int, int]],
        card: str | None = None,
        ends: Counter[str] | None = None,
    ):
        self.cards = list(cards)
        self.legal = legal
        self.outcome = outcome
        self.card = card  # None: not known to the reader of this state
        self.actions: list[int] = []
        self.ends = Counter() if ends is None else ends

    def num_players(self) -> int:
        return 2

    def current_player(self) -> int:
        return -4 if self.is_terminal() else len(self.actions)

    def is_terminal(self) -> bool:
        return len(self.actions) == 2

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        if self.actions:
            return [SHOW]
        if self.card is None:
            raise ValueError("P2's card is not dealt")
        return sorted(self.legal(self.card))

    def apply_action(self, action: int) -> None:
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action}")
        self.actions.append(action)

    def clone(self) -> HiddenCardGame:
        other = HiddenCardGame(self.cards, self.legal, self.outcome, self.card, self.ends)
        other.actions = self.actions[:]
        return other

    def player_totals(self) -> list[int]:
        if not self.is_terminal():
            return [0, 0]
        return list(self.outcome(self.actions[0], self.card))

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        self.ends[self.card] += 1
        first, second = self.player_totals()
        if first == second:
            return [0.5, 0.5]
        return [1.0, 0.0] if first > second else [0.0, 1.0]

    def action_to_string(self, action: int) -> str:
        return str(action)

    def move_in_progress(self) -> bool:
        return False

    def decision_to_string(self, actions: Sequence[int]) -> str:
        return " ".join(map(str, actions))

    def view(self, player: int) -> HiddenCardGame:
        seen = self.clone()
        if player == 0:
            seen.card = None
        return seen

    def resample_from_infostate(self, player: int, rng: np.random.Generator) -> HiddenCardGame:
        world = self.clone()
        if player == 0:
            world.card = self.cards[int(rng.integers(len(self.cards)))]
        return world


class PlayOut:
    """An evaluator that plays the game to its end (P2's only action)."""

    def evaluate(self, state: HiddenCardGame, rng: np.random.Generator):
        world = state.clone()
        while not world.is_terminal():
            world.apply_action(world.legal_actions()[0])
        return np.array(world.returns()), np.array(world.player_totals(), dtype=float)


# ----- a new world every iteration --------------------------------------------------------

GUESS_LEFT, GUESS_RIGHT = 0, 1


def guessing_game() -> HiddenCardGame:
    """P1 guesses P2's card, left or right; 7 of the 10 cards are left.  Guessing left wins
    70% of the time, guessing right 30%: no single deal has those odds."""
    return HiddenCardGame(
        ["left"] * 7 + ["right"] * 3,
        legal=lambda card: [GUESS_LEFT, GUESS_RIGHT],
        outcome=lambda action, card: (
            (1, 0) if (action == GUESS_LEFT) == (card == "left") else (0, 1)
        ),
    )


BOTH_ROOTS = pytest.mark.parametrize("config", [SearchConfig(), CLASSIC], ids=["halving", "ucb"])


@BOTH_ROOTS
def test_every_iteration_deals_a_new_world(config):
    """Catches a search that deals one world at the start (``resample_from_infostate``
    once, outside the loop) and clones it in every iteration: every iteration would end
    with the same hidden card.  The real search deals a new world each iteration, so the
    cards its iterations end with follow the unseen multiset (7 left : 3 right)."""
    for seed in range(5):
        game = guessing_game()
        search_tree(game, Limit(iterations=400), np.random.default_rng(seed), PlayOut(), config)
        ends = game.ends
        assert sum(ends.values()) == 400  # each iteration ends the game once
        assert 0.6 < ends["left"] / 400 < 0.8, ends


@BOTH_ROOTS
def test_a_hidden_card_decides_the_best_move_by_its_odds(config):
    """Catches the same one-world search from its result: in the one world dealt, either
    guess wins always or never (win 1.0 or 0.0, and in 3 deals of 10 it would play
    "right").  The real search values each guess over all the deals the observer cannot
    tell apart: left wins about 70% and is played, for every seed."""
    for seed in range(10):
        summary = search_tree(
            guessing_game(), Limit(iterations=600), np.random.default_rng(seed), PlayOut(), config
        )
        (best_path, best), *others = summary.decisions()
        assert best_path == (GUESS_LEFT,)
        assert abs(best.win - 0.7) < 0.1, best.win
        assert [path for path, _ in others] == [(GUESS_RIGHT,)]


# ----- subset-armed UCB -------------------------------------------------------------------

STRONG, WEAK, ELSE = 0, 1, 2


def rare_choice_game(rare_cards: int, cards: int = 20) -> HiddenCardGame:
    """P1 has a choice only when P2 holds the card "x" (``rare_cards`` of ``cards``): then
    STRONG wins 10-0 and WEAK shares first 5-5; otherwise only ELSE is legal (0-0)."""
    totals = {STRONG: (10, 0), WEAK: (5, 5), ELSE: (0, 0)}
    return HiddenCardGame(
        ["x"] * rare_cards + ["o"] * (cards - rare_cards),
        legal=lambda card: [STRONG, WEAK] if card == "x" else [ELSE],
        outcome=lambda action, card: totals[action],
    )


def _choice_visits(game: HiddenCardGame, iterations: int, seed: int) -> tuple[int, int]:
    summary = search_tree(
        game,
        Limit(iterations=iterations),
        np.random.default_rng(seed),
        PlayOut(),
        replace(CLASSIC, exploration=1.0),
    )
    visits = {path: stats.visits for path, stats in summary.decisions()}
    return visits.get((STRONG,), 0), visits.get((WEAK,), 0)


def test_a_choice_legal_in_few_worlds_is_explored_as_often_as_if_it_were_always_legal():
    """Catches an exploration term that counts the parent's visits instead of the action's
    availability.  The rewards are fixed, so UCB's choices between STRONG and WEAK depend
    only on the counts.  With availability counts, the worlds where P1 has no choice change
    nothing: WEAK is explored exactly as in a game where the choice is always there, run
    for as many iterations as the choice was available (equal up to one visit: which of
    the two was tried first is random).  Counting the parent's visits instead, the ~95%
    of iterations without a choice inflate WEAK's exploration (16-17 visits instead of
    11-12 here); counting the root's own visits (never counted), exploration at the root
    stops (WEAK is tried once), which the lower bound catches."""
    for seed in range(3):
        strong, weak = _choice_visits(rare_choice_game(1), 4000, seed)
        available = strong + weak  # each iteration with a choice visits one of the two
        assert 150 < available < 260
        strong_always, weak_always = _choice_visits(rare_choice_game(20), available, seed)
        assert strong_always + weak_always == available
        assert weak_always >= 8  # the root explores: WEAK is tried again and again
        assert abs(weak - weak_always) <= 1, (weak, weak_always)


def test_selection_uses_each_childs_availability():
    """Catches the same change one step at a time: two children with equal visits, the
    first with the better mean but legal in 10 of the parent's 1,000 visits, the second
    legal in all of them.  Subset-armed UCB gives the often-available one the bigger
    exploration bonus (sqrt(ln 1001 / 10) against sqrt(ln 11 / 10)) and picks it; any
    rule giving both the same count (the parent's visits, or no count at the root) picks
    the better mean."""
    root = Node(-1)
    rare, common = Node(0), Node(0)
    rare.visits, rare.reward_sum, rare.available = 10, 5.5, 10
    common.visits, common.reward_sum, common.available = 10, 5.0, 1000
    root.children = {STRONG: rare, WEAK: common}
    world = rare_choice_game(20).resample_from_infostate(0, np.random.default_rng(0))
    run_iteration(root, world, np.random.default_rng(0), PlayOut(), CLASSIC)
    assert (rare.visits, common.visits) == (10, 11)
    assert (rare.available, common.available) == (11, 1001)


# ----- the margin's reward ----------------------------------------------------------------

SURE, GAMBLE = 0, 1


def gamble_game() -> HiddenCardGame:
    """P1 wins 1-0 for sure (SURE), or gambles: 40-0 with half the cards, 0-1 with the
    other half (GAMBLE)."""
    return HiddenCardGame(
        ["good", "bad"],
        legal=lambda card: [SURE, GAMBLE],
        outcome=lambda action, card: (
            (1, 0) if action == SURE else (40, 0) if card == "good" else (0, 1)
        ),
    )


@BOTH_ROOTS
@pytest.mark.parametrize(
    "margin_scale, best", [(0.0, GAMBLE), (8.0, SURE)], ids=["linear", "saturating"]
)
def test_a_saturating_margin_keeps_the_sure_win(config, margin_scale, best):
    """With 0.05 a point of margin without bound, the gamble's 40-point wins are worth
    more than the half of the games it loses (1 + 2.0 and −0.05 against 1.05); with the
    margin's reward saturating at 8 points they are not (about 1.4 and 0 against 1.05)."""
    config = replace(config, margin_weight=0.05, margin_scale=margin_scale)
    for seed in range(3):
        summary = search_tree(
            gamble_game(), Limit(iterations=400), np.random.default_rng(seed), PlayOut(), config
        )
        (best_path, _), *_ = summary.decisions()
        assert best_path == (best,)
