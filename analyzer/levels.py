"""Strength levels a person can pick: ``level:1`` (the weakest) to ``level:5`` (the full
engine), each measured to beat the one below heads-up (``benchmarks/levels.py``).

A level is a name for one of the package's bots at a fixed setting, so that a person
picks "3" rather than learning bot specs.  Search budgets are iterations per decision, not
seconds, so a level plays the same on a loaded machine as on a quiet one (only slower).
The top level is the engine at the budget the strength ladder and the review use: 6,000
iterations a decision, about one second of one core (``review`` spends 1 s on each of two
searchers per decision, half of it finding the engine's choice).  ``analyze``'s default
(5 s on two searchers, about 45,000 iterations) is stronger still but too slow to play
against.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from positions.bots import Bot
from positions.errors import ManhattanError, quote
from positions.moves import Move
from positions.state import GameState


@dataclass(frozen=True)
class Level:
    """One strength level: its number, the bot spec (``analyzer.players``) that plays it
    and what it is, in words."""

    number: int
    spec: str
    summary: str


LEVELS: tuple[Level, ...] = (
    Level(1, "random", "plays any legal move, at random"),
    Level(2, "greedy", "takes the most points it would score if the round ended now"),
    Level(
        3,
        "heuristic",
        "weighs majorities, the tallest building and which buildings can be taken back",
    ),
    Level(4, "mcts:600", "a small search: 600 iterations a decision"),
    Level(5, "mcts:6000", "the full engine: 6,000 search iterations a decision"),
)
TOP_LEVEL = LEVELS[-1].number


def level(number: int | str) -> Level:
    """The level ``number`` (``3`` or ``"3"``).  Raises ``ManhattanError`` (one line) for
    anything but a level 1 to ``TOP_LEVEL``."""
    text = str(number).strip()
    if not text.isdigit() or not 1 <= int(text) <= TOP_LEVEL:
        raise ManhattanError(f"level {quote(text)}: expected a level 1 to {TOP_LEVEL}")
    return LEVELS[int(text) - 1]


class LevelBot:
    """A bot playing at a strength level: the level's bot under the name ``level:K``."""

    def __init__(self, chosen: Level, bot: Bot):
        self.level = chosen
        self.name = f"level:{chosen.number}"
        self._bot = bot

    def choose(self, view: GameState, rng: np.random.Generator) -> Move:
        """The level's move in ``view``."""
        return self._bot.choose(view, rng)

    def close(self) -> None:
        """Close the level's bot."""
        self._bot.close()
