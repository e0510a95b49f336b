"""Positions and games reached by random play, for tests (a helper module, not a test file).

Everything is deterministic for a seed.  Games are dealt with ``GameState.new_game`` (every
card known, the deck order known) and played with uniformly random legal moves: a whole
selection (one of ``legal_selections()``) or a placement / no-placement (one of
``legal_actions()``).  Only moments a position string can describe are returned: the
selection phase before the mover has picked, the placement phase, and the end of the game
(see ``describable``).

    from randompositions import random_game, random_states, random_views
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from positions.layout import SIZES, layout
from positions.moves import Move, Selection
from positions.options import RuleOptions
from positions.state import GameState, Phase


def describable(state: GameState) -> bool:
    """Whether a position string can describe ``state``: not in the middle of a selection
    (``legal_actions()`` in the selection phase are single picks of a whole selection)."""
    if state.phase != Phase.SELECTION:
        return True
    return not any(
        sum(state.selected[color * SIZES : color * SIZES + SIZES])
        for color in state.layout.player_colors[state.to_move]
    )


@dataclass
class RandomGame:
    """A whole game of random moves."""

    moves: list[Move]
    drawn: list[int | None]  # the card drawn after each placement; None after a selection
    states: list[GameState]  # the state before each move, then the final state (dealt worlds)

    @property
    def deal(self) -> list[list[int]]:
        """The initial hands, P1 first, each ascending."""
        return [self.states[0].hand(p) for p in range(self.states[0].players)]

    @property
    def final(self) -> GameState:
        """The state at the end of the game."""
        return self.states[-1]


def _drawn_card(before: GameState, after: GameState, move: Move) -> int:
    """The card the mover drew in the move from ``before`` to ``after``."""
    base = before.to_move * 10
    for card in range(1, 10):
        change = after.hands[base + card] - before.hands[base + card]
        if change + (card == move.card) == 1:
            return card
    raise AssertionError(f"no card drawn by {move}")


def random_game(players: int, seed: int, options: RuleOptions | None = None) -> RandomGame:
    """Deal a ``players``-player game from ``seed`` and play it to the end at random."""
    state = GameState.new_game(players, np.random.default_rng(seed), options)
    chooser = random.Random(seed)
    moves: list[Move] = []
    drawn: list[int | None] = []
    states = [state.clone()]
    while not state.is_terminal():
        if state.phase == Phase.SELECTION:
            move: Move = chooser.choice(state.legal_selections())
            state.apply_move(move)
            drawn.append(None)
        else:
            move = state.action_to_move(chooser.choice(state.legal_actions()))
            before = states[-1]
            state.apply_move(move)
            drawn.append(_drawn_card(before, state, move))
        moves.append(move)
        states.append(state.clone())
    return RandomGame(moves, drawn, states)


def random_states(
    players: int,
    count: int,
    seed: int,
    options: RuleOptions | None = None,
    rate: float = 0.15,
) -> Iterator[GameState]:
    """``count`` states (independent copies, every card known) from random games seeded
    from ``seed``: each placement moment is taken with probability ``rate``, each selection
    moment (there are fewer) with ``rate`` times half the blocks a player selects per round,
    the end of a game with probability 0.5.  Games are played until enough are found."""
    picker = random.Random(f"states-{players}-{seed}")
    found = 0
    game_number = 0
    while found < count:
        game = random_game(players, seed * 1000 + game_number, options)
        game_number += 1
        selection_rate = rate * layout(players).blocks_per_turn_round() / 2
        for state in game.states:
            chance = {Phase.SELECTION: selection_rate, Phase.PLACEMENT: rate}.get(state.phase, 0.5)
            if describable(state) and picker.random() < chance:
                yield state
                found += 1
                if found == count:
                    return


def random_views(
    players: int,
    count: int,
    seed: int,
    options: RuleOptions | None = None,
    rate: float = 0.15,
) -> Iterator[GameState]:
    """Like ``random_states``, but each state as one player sees it (``state.view(p)``:
    the other hands ``?``, the deck unknown) or, one time in ``players + 1``, with every
    hand hidden (as seen by nobody)."""
    picker = random.Random(f"views-{players}-{seed}")
    for state in random_states(players, count, seed, options, rate):
        viewer = picker.randrange(players + 1)
        if viewer < players:
            yield state.view(viewer)
        else:
            hidden = state.view(0)
            hidden.hands[0:10] = [4] + [0] * 9
            yield hidden


def whole_selections(game: RandomGame) -> list[Selection]:
    """The selections of ``game`` in play order."""
    return [move for move in game.moves if isinstance(move, Selection)]
