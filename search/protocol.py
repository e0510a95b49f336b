"""What the search needs from a game: an OpenSpiel-like state and a pluggable evaluator."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, Self

import numpy as np


class GameState(Protocol):
    """A game position the search can explore.

    Players are numbered from 0; ``current_player()`` is negative once the game is over.
    ``returns()`` gives one value per player at the end (a win share: 1, 0, or 1/k for a
    k-way shared first); ``player_totals()`` the players' final scores.
    """

    def num_players(self) -> int: ...
    def current_player(self) -> int: ...
    def is_terminal(self) -> bool: ...
    def legal_actions(self) -> list[int]: ...
    def apply_action(self, action: int) -> None: ...
    def clone(self) -> Self: ...
    def returns(self) -> Sequence[float]: ...
    def player_totals(self) -> Sequence[int]: ...
    def action_to_string(self, action: int) -> str: ...
    def move_in_progress(self) -> bool:
        """Whether the player to move is in the middle of a move made of several actions
        (the next action continues it)."""
        ...

    def decision_to_string(self, actions: Sequence[int]) -> str:
        """The readable move made by ``actions`` (one whole decision) from this state."""
        ...

    def view(self, player: int) -> Self:
        """A copy showing only what ``player`` can know."""
        ...

    def resample_from_infostate(self, player: int, rng: np.random.Generator) -> Self:
        """A full world consistent with everything ``player`` can see, chosen at random."""
        ...


class Evaluator(Protocol):
    """Estimates the outcome of a (fully dealt) position, e.g. by playing it out.

    An evaluator may also have a ``prepare()`` method: the search calls it before its
    clock starts (e.g. to compile a kernel in a fresh worker process); and a
    ``prior(state, actions)`` method giving one positive weight per action (legal in the
    dealt ``state``), how promising the player to move would find it — the search uses
    them, normalized over the legal actions, when its config asks for priors
    (``SearchConfig.expansion``, ``prior_weight``).  A node asks once per action, in the
    first world where it is legal, and keeps the weight, so a prior should depend on what
    the player to move sees rather than on the dealt hidden cards.  An
    ``evaluate_actions(world, actions, rng)`` method, giving ``(win_shares,
    final_totals)`` as arrays of shape ``(len(actions), players)`` for each of
    ``actions`` (whole decisions legal in the dealt ``world``) played first and then
    evaluated with the same random numbers, lets halving at a depth-one root evaluate a
    world's actions in one call (``search.halving``).
    """

    def evaluate(self, state: GameState, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """``(win_shares, final_totals)``: one float per player each, from ``state``."""
        ...
