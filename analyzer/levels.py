"""Strength levels a person can pick: ``level:1`` (the weakest) to ``level:5`` (the full
engine), each measured to beat the one below heads-up (``benchmarks/levels.py``; the
figures are in the README).

A level is a name for one of the package's bots at a fixed setting, so that a person
picks "3" rather than learning bot specs.  Two levels add noise to a bot (a share of its
moves uniformly random among the legal ones), because in two players the hand-written
bots are far apart: ``heuristic`` beats ``greedy`` in 94 % of the games, ``greedy`` beats
``random`` in all of them.  The top level is the engine at the budget the strength
ladder and the review use: 6,000 iterations a decision, about one second of one core
(``review`` spends 1 s on each of two searchers per decision, half of it finding the
engine's choice).  Budgets are iterations, not seconds, so a level plays the same on a
loaded machine as on a quiet one (only slower).  ``analyze``'s default (5 s on two
searchers, about 45,000 iterations) is stronger still but too slow to play against.
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
    """One strength level: its number, the bot spec (``analyzer.players``) that plays it,
    the share of its moves played at random instead (``noise``) and what it is, in
    words."""

    number: int
    spec: str
    summary: str
    noise: float = 0.0


LEVELS: tuple[Level, ...] = (
    Level(
        1,
        "greedy",
        "takes the most points it would score if the round ended now, "
        "but plays three moves in ten at random",
        noise=0.3,
    ),
    Level(2, "greedy", "takes the most points it would score if the round ended now"),
    Level(
        3,
        "heuristic",
        "weighs majorities, the tallest building and the opponents' replies, but plays "
        "three moves in twenty at random",
        noise=0.15,
    ),
    Level(
        4,
        "heuristic",
        "weighs majorities, the tallest building and which buildings can be taken back",
    ),
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


class NoisyBot:
    """``bot``, except that a share ``noise`` of its decisions is a uniformly random legal
    move (drawn from the game's ``rng``, so a seeded game replays)."""

    def __init__(self, bot: Bot, noise: float):
        if not 0 <= noise <= 1:
            raise ManhattanError(f"noise must be a share 0 to 1, not {noise}")
        self.name = f"{bot.name} with {noise:.0%} random moves"
        self.noise = noise
        self._bot = bot

    def choose(self, view: GameState, rng: np.random.Generator) -> Move:
        """A random legal move with probability ``noise``, else the bot's."""
        if rng.random() < self.noise:
            moves = view.legal_moves()
            return moves[int(rng.integers(len(moves)))]
        return self._bot.choose(view, rng)

    def close(self) -> None:
        """Close the bot."""
        self._bot.close()


class LevelBot:
    """A bot playing at a strength level under the name ``level:K``: ``bot`` (made from
    the level's spec), with the level's noise."""

    def __init__(self, chosen: Level, bot: Bot):
        self.level = chosen
        self.name = f"level:{chosen.number}"
        self._bot: Bot = NoisyBot(bot, chosen.noise) if chosen.noise else bot

    def choose(self, view: GameState, rng: np.random.Generator) -> Move:
        """The level's move in ``view``."""
        return self._bot.choose(view, rng)

    def close(self) -> None:
        """Close the level's bot."""
        self._bot.close()
