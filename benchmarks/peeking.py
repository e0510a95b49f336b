"""The cheating bound, for benchmarks only: a bot that plays the same search as an honest
one but is given the true world (every hand and the deck order), and the game loop that
seats it.

An honest search deals a new world each iteration from what its seat can see
(``resample_from_infostate``).  ``TrueWorld`` is a ``GameState`` whose every "deal" is a
copy of the real world and whose views hide nothing, so any bot that searches through that
protocol (``mcts:…``, or an engine variant) becomes a perfect-information searcher without
a change to ``search/``: ``PeekingBot`` hands its bot the world wrapped that way.

``positions.selfplay.play_game`` shows each bot only its seat's view, as it must;
``play_peeking_game`` is the same game (the same deal and bot generators from the seed)
for in-process bots, with a peeking bot given the world instead.  It has no forfeits: a
bot that fails raises.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from positions.bots import Bot
from positions.moves import Move
from positions.options import RuleOptions
from positions.state import GameState


class TrueWorld(GameState):
    """A dealt world that tells its searcher the truth: ``resample_from_infostate`` returns
    a copy of this very world (hands and deck order included) and ``view`` hides nothing."""

    __slots__ = ()

    @classmethod
    def of(cls, world: GameState) -> TrueWorld:
        """A ``TrueWorld`` copy of ``world`` (which should be fully dealt: a game's world)."""
        return cls._holding(GameState.clone(world))

    @classmethod
    def _holding(cls, copy: GameState) -> TrueWorld:
        truth = cls.__new__(cls)
        for name in GameState.__slots__:
            setattr(truth, name, getattr(copy, name))
        return truth

    def clone(self) -> TrueWorld:
        """A copy of the same kind (``TrueWorld`` or ``TrueHands``)."""
        return type(self)._holding(GameState.clone(self))

    def view(self, player: int) -> TrueWorld:
        """Everything, whoever asks."""
        return self.clone()

    def resample_from_infostate(self, player: int, rng: np.random.Generator) -> GameState:
        """The real world (a plain ``GameState`` copy), not a deal of the unseen cards."""
        return GameState.clone(self)


class TrueHands(TrueWorld):
    """A dealt world that tells its searcher every hand but not the deck's order: each
    "deal" is the real world with the deck shuffled anew (and fresh reshuffles), the bound
    of what reading the opponents' hands could win back."""

    __slots__ = ()

    def resample_from_infostate(self, player: int, rng: np.random.Generator) -> GameState:
        """The real hands, with the deck in a new random order."""
        world = GameState.clone(self)
        world.deck = [int(c) for c in rng.permutation(world.deck)]
        world.shuffle_seed = int(rng.integers(2**62))
        return world


class PeekingBot:
    """Plays ``bot``'s choice in the true world: ``choose`` must be given the game's world
    (``play_peeking_game`` does that for every bot with ``peeks``), not a seat's view.
    With ``hands_only`` it sees every hand but not the deck's order (``TrueHands``)."""

    peeks = True

    def __init__(self, bot: Bot, hands_only: bool = False):
        self.bot = bot
        self.hands_only = hands_only
        self.name = f"{'peekhands' if hands_only else 'peek'}:{bot.name}"

    def choose(self, world: GameState, rng: np.random.Generator) -> Move:
        """``bot``'s move with the whole of ``world`` known to it."""
        truth = TrueHands.of(world) if self.hands_only else TrueWorld.of(world)
        return self.bot.choose(truth, rng)

    def close(self) -> None:
        """Close the wrapped bot."""
        self.bot.close()


@dataclass
class PeekingOutcome:
    """Per player (P1 first): final totals, places and win shares (as ``GameOutcome``);
    ``interrupted`` when the game was stopped before its end (totals so far, no shares)."""

    totals: list[int]
    places: list[int]
    win_shares: list[float]
    interrupted: bool = False


def play_peeking_game(
    bots: Sequence[Bot],
    players: int,
    seed: int,
    options: RuleOptions | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> PeekingOutcome:
    """Play one game as ``positions.selfplay.play_game`` does (the world and the bots'
    generators from ``seed``; ``should_stop`` asked before every decision ends it there,
    ``interrupted``), but give each bot with a true ``peeks`` attribute the world itself.
    Every bot is closed at the end; an illegal move raises ``IllegalMoveError``."""
    world = GameState.new_game(players, np.random.default_rng(seed), options)
    rngs = [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(players + 1)]
    try:
        while not world.is_terminal():
            if should_stop is not None and should_stop():
                return PeekingOutcome(world.player_totals(), world.places(), [0.0] * players, True)
            seat = world.current_player()
            bot = bots[seat]
            shown = world.clone() if getattr(bot, "peeks", False) else world.view(seat)
            world.apply_move(bot.choose(shown, rngs[seat]))
    finally:
        for bot in bots:
            bot.close()
    return PeekingOutcome(world.player_totals(), world.places(), world.returns())
