"""The MCTS bot: a seat played by the search (``mcts:<budget>``, e.g. ``mcts:1s``)."""

from __future__ import annotations

import numpy as np

from analyzer.engine import make_evaluator
from positions.errors import ManhattanError, quote
from positions.moves import Move
from positions.state import GameState
from search.ismcts import SearchConfig
from search.limits import Limit, LimitError
from search.players import MctsPlayer
from search.protocol import Evaluator


class SearchBot:
    """Plays the most visited decision of an information-set MCTS of ``limit`` per move,
    in one process (matches run games side by side instead of searchers).

    ``evaluator`` (default: the compiled playouts with ``epsilon``) and ``config`` let a
    benchmark seat a variant of the engine."""

    def __init__(
        self,
        limit: Limit,
        name: str | None = None,
        epsilon: float = 0.1,
        config: SearchConfig | None = None,
        evaluator: Evaluator | None = None,
    ):
        self.limit = limit
        self.name = name or f"mcts:{limit}"
        chosen = evaluator if evaluator is not None else make_evaluator(epsilon)
        self._player = MctsPlayer(limit, chosen, config or SearchConfig())

    @classmethod
    def from_budget(cls, budget: str, name: str | None = None) -> SearchBot:
        """A bot from budget text (``1s``, ``200ms``, ``5000``); raises ``ManhattanError``."""
        try:
            return cls(Limit.parse(budget), name)
        except LimitError as error:
            raise ManhattanError(f"bot spec {quote(name or budget)}: {error}") from None

    def choose(self, view: GameState, rng: np.random.Generator) -> Move:
        """The searched move for the seat to move in ``view``."""
        return view.actions_to_move(self._player.choose_actions(view, rng))

    def close(self) -> None:
        """Nothing to release."""
