"""The world a game at the table is played in, and how its moves are written down.

A table deals its world from a seed exactly as ``positions.selfplay.play_game`` does (the
same seed gives the same deal and the same bot generators), or starts from a position or
a record: then the cards nobody can see there (``?`` hands and the deck order) are dealt
at random from the cards left, so that bots and draws can be played.  Moves are recorded
with the card the mover drew, so the record replays to the same game.
"""

from __future__ import annotations

import numpy as np

from positions.errors import ManhattanError
from positions.layout import CARD_TYPES, CARDS_PER_TYPE
from positions.options import RuleOptions
from positions.state import GameState


def seat_generators(players: int, seed: int) -> list[np.random.Generator]:
    """One random generator per seat and one for stand-ins (forfeited seats), spawned
    from ``seed`` as ``play_game`` spawns them."""
    sequences = np.random.SeedSequence(seed).spawn(players + 1)
    return [np.random.default_rng(s) for s in sequences]


def deal_world(players: int, seed: int, options: RuleOptions | None = None) -> GameState:
    """A new game dealt by ``np.random.default_rng(seed)`` (every card known)."""
    return GameState.new_game(players, np.random.default_rng(seed), options)


def deal_tag(world: GameState) -> str:
    """The ``Deal`` tag of a world at its start: each hand's cards, P1 first."""
    return " ".join("".join(map(str, world.hand(p))) for p in range(world.players))


def complete_world(state: GameState, rng: np.random.Generator) -> GameState:
    """A copy of ``state`` with every card it does not show dealt: each ``?`` of a hand
    gets a card, the rest shuffled into the deck.  Cards a hand or the played pile shows
    stay where they are.  Raises ``ManhattanError`` for a finished game."""
    if state.is_terminal():
        raise ManhattanError("the game is over: there is nothing left to play")
    world = state.clone()
    pool = [
        card
        for card in range(1, CARD_TYPES + 1)
        for _ in range(CARDS_PER_TYPE - state.visible_count(card))
    ]
    pool = [int(card) for card in rng.permutation(pool)]
    for player in range(state.players):
        base = player * 10
        for _ in range(world.hands[base]):
            world.hands[base + pool.pop()] += 1
        world.hands[base] = 0
    world.deck = pool
    world.shuffle_seed = int(rng.integers(2**62))
    return world
