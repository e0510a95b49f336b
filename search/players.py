"""Game-agnostic players: each returns the actions of one whole decision."""

from __future__ import annotations

import numpy as np

from search.ismcts import SearchConfig
from search.limits import Limit
from search.parallel import Parallelism, run_search
from search.protocol import Evaluator, GameState


class RandomPlayer:
    """Uniformly random legal actions until the player's move is complete."""

    def choose_actions(self, state: GameState, rng: np.random.Generator) -> list[int]:
        """The actions of one random decision of the player to move in ``state``."""
        world = state.clone()
        actions: list[int] = []
        while True:
            legal = world.legal_actions()
            action = legal[int(rng.integers(len(legal)))]
            actions.append(action)
            world.apply_action(action)
            if not world.move_in_progress():
                return actions


class MctsPlayer:
    """Plays the most visited decision of an information-set MCTS within ``limit``, in one
    process (parallel matches run games side by side instead)."""

    def __init__(
        self,
        limit: Limit,
        evaluator: Evaluator,
        config: SearchConfig = SearchConfig(),
        parallelism: Parallelism = Parallelism(),
    ):
        self.limit = limit
        self.evaluator = evaluator
        self.config = config
        self.parallelism = parallelism

    def choose_actions(self, state: GameState, rng: np.random.Generator) -> list[int]:
        """The actions of the best decision found for the player to move in ``state``."""
        legal = state.legal_actions()
        if len(legal) == 1 and not _continues(state, legal[0]):
            return legal
        seed = int(rng.integers(2**32))
        result = run_search(state, self.limit, self.evaluator, seed, self.parallelism, self.config)
        return list(result.best.actions)


def _continues(state: GameState, action: int) -> bool:
    world = state.clone()
    world.apply_action(action)
    return world.move_in_progress()
