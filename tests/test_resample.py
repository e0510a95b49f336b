"""The re-dealer: what the search deals for an observer never contradicts what the observer
sees and always keeps the 45-card multiset (property tests)."""

from __future__ import annotations

from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from randompositions import random_game

from positions.layout import CARD_TYPES, CARDS_PER_TYPE, HAND_SIZE
from positions.state import GameState

GAMES = {(players, seed): random_game(players, seed) for players in (2, 3, 4) for seed in (1, 2)}


def multiset(world: GameState) -> Counter:
    cards: Counter = Counter()
    for p in range(world.players):
        for card in range(1, CARD_TYPES + 1):
            cards[card] += world.hands[p * 10 + card]
    for card in range(1, CARD_TYPES + 1):
        cards[card] += world.played[card]
    cards.update(world.deck)
    return cards


@settings(max_examples=150, deadline=None)
@given(
    game_key=st.sampled_from(sorted(GAMES)),
    moment=st.floats(min_value=0.0, max_value=0.999),
    observer_offset=st.integers(min_value=0, max_value=3),
    hide_own=st.integers(min_value=0, max_value=2),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_redealt_worlds_respect_the_observer_and_the_deck(
    game_key, moment, observer_offset, hide_own, seed
):
    game = GAMES[game_key]
    state = game.states[int(moment * (len(game.states) - 1))]
    observer = (max(state.current_player(), 0) + observer_offset) % state.players
    view = state.view(observer)
    # Some of the observer's own cards may be unknown too (a record without draws).
    base = observer * 10
    for _ in range(hide_own):
        known = [c for c in range(1, CARD_TYPES + 1) if view.hands[base + c]]
        if known:
            view.hands[base + known[0]] -= 1
            view.hands[base] += 1
    world = view.resample_from_infostate(observer, np.random.default_rng(seed))

    # The 45-card multiset is kept: 5 of each type across hands, played pile and deck.
    assert multiset(world) == Counter({card: CARDS_PER_TYPE for card in range(1, CARD_TYPES + 1)})
    # Every hand is full and fully known; the deck has the right size.
    for p in range(world.players):
        assert world.hands[p * 10] == 0
        assert sum(world.hands[p * 10 + 1 : p * 10 + 10]) == HAND_SIZE
    assert len(world.deck) == world.deck_count()
    # Nothing the observer sees is changed: their known cards, the played pile, the board.
    for card in range(1, CARD_TYPES + 1):
        assert world.hands[base + card] >= view.hands[base + card]
    assert world.played == view.played
    assert world.stacks == view.stacks and world.scores == view.scores
    # No card is dealt that the observer can account for: a card type whose 5 copies are
    # all visible to the observer appears nowhere else.
    for card in range(1, CARD_TYPES + 1):
        seen = view.hands[base + card] + view.played[card]
        elsewhere = (
            sum(world.hands[p * 10 + card] for p in range(world.players) if p != observer)
            + world.deck.count(card)
            + world.hands[base + card]
            - view.hands[base + card]
        )
        assert elsewhere == CARDS_PER_TYPE - seen


def test_resampling_ignores_shown_opponent_hands():
    state = GAMES[(4, 1)].states[30]
    shown = state.clone()
    shown.deck = None
    hidden = state.view(state.current_player())
    a = shown.resample_from_infostate(state.current_player(), np.random.default_rng(5))
    b = hidden.resample_from_infostate(state.current_player(), np.random.default_rng(5))
    assert a.hands == b.hands and a.deck == b.deck and a.shuffle_seed == b.shuffle_seed
