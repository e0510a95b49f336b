"""Game-agnostic evaluators.  A game may bring a faster one of its own (Manhattan's
compiled playout kernel is ``positions.playout.PlayoutEvaluator``)."""

from __future__ import annotations

import numpy as np

from search.protocol import GameState


class RandomRolloutEvaluator:
    """Plays uniformly random legal actions to the end through the state interface: slow,
    but it needs nothing from the game beyond the protocol."""

    def evaluate(self, state: GameState, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """``(win_shares, final_totals)`` of one random playout from ``state`` (not changed)."""
        world = state.clone()
        while not world.is_terminal():
            legal = world.legal_actions()
            world.apply_action(legal[int(rng.integers(len(legal)))])
        return np.asarray(world.returns(), dtype=float), np.asarray(
            world.player_totals(), dtype=float
        )
