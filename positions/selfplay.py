"""Playing whole games between bots, with a record that replays to the same result.

The game is played in a world dealt from the seed (``GameState.new_game``: the deck order
and every hand known); each bot sees only its seat's view.  The record holds the deal,
every draw and the final totals, so ``read_record(write_record(outcome.record))`` replays
to the same ``Result``; an extra ``Seed`` tag names the seed the game was played from.

Forfeits (NOTATION.md, "Bot protocol"): a bot that raises ``BotForfeit`` or returns a move
that is not legal gives up its seat.  The decision where it happened and every later one of
that seat are played by a uniformly random bot; the record's comment on that move says who
forfeited and why.  The game still counts its true totals and places, but a forfeiting
player's win share is 0 and first place goes to the best of the players who did not
forfeit (a shared first among them counts 1/k each, RULES.md).  If every player forfeits,
nobody wins.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from positions import rules
from positions.bots import Bot, BotForfeit, RandomBot
from positions.errors import ManhattanError
from positions.moves import Move, Selection
from positions.options import RuleOptions
from positions.record import GameRecord, RecordedMove
from positions.state import GameState


@dataclass
class GameOutcome:
    """A finished bot game.  Per player (P1 first): ``totals`` (final scores), ``places``
    (1 = first, by RULES.md's ranking, forfeits not considered) and ``win_shares`` (with
    forfeits: see the module docstring).  ``forfeits`` maps a 0-based seat to the reason it
    forfeited."""

    record: GameRecord
    totals: list[int]
    places: list[int]
    win_shares: list[float]
    forfeits: dict[int, str] = field(default_factory=dict)
    interrupted: bool = False  # stopped before the end: totals so far, no Result


def play_game(
    bots: Sequence[Bot],
    players: int,
    seed: int,
    options: RuleOptions | None = None,
    names: Sequence[str] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> GameOutcome:
    """Play one game, ``bots[i]`` in seat P(i+1), in the world dealt by
    ``np.random.default_rng(seed)``; the bots' own random generators are spawned from
    ``seed`` too, so the same seed and bots give the same game.

    ``names`` go in the record's ``P1``… tags (default: each bot's ``name``).  Every bot is
    closed when the game ends (a bot object plays one game).  ``should_stop`` is asked
    before every decision; when it answers true the game ends there, ``interrupted``, with
    the record so far (no ``Result``) and the totals so far.  Raises ``ManhattanError``
    for a wrong number of bots or names.
    """
    if len(bots) != players:
        raise ManhattanError(f"a {players}-player game needs {players} bots, got {len(bots)}")
    names = list(names) if names is not None else [bot.name for bot in bots]
    if len(names) != players:
        raise ManhattanError(f"a {players}-player game needs {players} names, got {len(names)}")
    world = GameState.new_game(players, np.random.default_rng(seed), options)
    rngs = [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(players + 1)]
    stand_in, stand_in_rng = RandomBot(), rngs[players]
    deal = " ".join("".join(map(str, world.hand(p))) for p in range(players))
    moves: list[RecordedMove] = []
    forfeits: dict[int, str] = {}
    interrupted = False
    try:
        while not world.is_terminal():
            if should_stop is not None and should_stop():
                interrupted = True
                break
            seat = world.current_player()
            comment = None
            move = None
            if seat not in forfeits:
                try:
                    move = _checked(world, bots[seat].choose(world.view(seat), rngs[seat]))
                except BotForfeit as forfeit:
                    forfeits[seat] = forfeit.reason
                    comment = _forfeit_comment(seat, names[seat], forfeit.reason)
                    bots[seat].close()
                    move = None
            if move is None:
                move = stand_in.choose(world.view(seat), stand_in_rng)
            moves.append(play_recorded(world, move, comment))
    finally:
        for bot in bots:
            bot.close()

    totals = world.player_totals()
    places = world.places()
    tags = {"Game": "Manhattan", "Players": str(players)}
    tags.update({f"P{p + 1}": names[p] for p in range(players)})
    tags["Date"] = datetime.date.today().isoformat()
    tags["Deal"] = deal
    if world.options.non_default():
        tags["Options"] = " ".join(world.options.non_default())
    if not interrupted:
        tags["Result"] = " ".join(map(str, totals))
    tags["Seed"] = str(seed)  # an extra tag: `manhattan play --seed` replays the game
    record = GameRecord(players, tags, moves)
    shares = [0.0] * players if interrupted else _win_shares(world, forfeits)
    return GameOutcome(record, totals, places, shares, forfeits, interrupted)


def _checked(world: GameState, move: Move) -> Move:
    """``move`` (a selection with its blocks sorted) if it is a legal whole move of the
    player to move; else raises ``BotForfeit``."""
    if isinstance(move, Selection):
        move = Selection(tuple(tuple(sorted(part)) for part in move.blocks))
    if not world.is_legal(move):
        raise BotForfeit(f"illegal move {str(move)!r}")
    return move


def play_recorded(world: GameState, move: Move, comment: str | None = None) -> RecordedMove:
    """Play ``move`` in ``world`` (the mover draws the deck's top card) and return it as a
    record holds it, with the card drawn (a selection with its blocks sorted).  Raises
    ``IllegalMoveError`` for an illegal move (``world`` is then unchanged)."""
    if isinstance(move, Selection):
        move = Selection(tuple(tuple(sorted(part)) for part in move.blocks))
        world.apply_move(move)
        return RecordedMove(move, comment=comment)
    base = world.to_move * 10
    before = world.hands[base : base + 10]
    world.apply_move(move)
    after = world.hands[base : base + 10]
    # the hand lost the played card and gained the drawn one
    gained = [after[c] - before[c] + (c == move.card) for c in range(10)]
    return RecordedMove(move, drawn=gained.index(1), comment=comment)


def _forfeit_comment(seat: int, name: str, reason: str) -> str:
    text = f"P{seat + 1} ({name}) forfeits: {reason}; its moves are played at random from here"
    return " ".join(text.replace("{", "(").replace("}", ")").split())


def _win_shares(world: GameState, forfeits: dict[int, str]) -> list[float]:
    """Win shares with forfeiting players ranked out (see the module docstring)."""
    if not forfeits:
        return world.returns()
    keys = rules.ranking_keys(
        world.player_totals(), world.height, world.owner, world.layout.player_colors
    )
    standing = [p for p in range(world.players) if p not in forfeits]
    if not standing:
        return [0.0] * world.players
    best = max(keys[p] for p in standing)
    firsts = [p for p in standing if keys[p] == best]
    return [1.0 / len(firsts) if p in firsts else 0.0 for p in range(world.players)]
