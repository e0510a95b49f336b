"""One game between bots, as ``manhattan play`` runs it, and its summary as plain data."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from analyzer.players import DEFAULT_BOT_TIMEOUT, check_bot_spec, make_bots
from positions.options import RuleOptions
from positions.selfplay import GameOutcome, play_game
from search import stopping

MAX_SEED = 2**63 - 1


def fresh_seed() -> int:
    """A new random seed (reported, so that the game can be replayed)."""
    return int.from_bytes(os.urandom(8), "little") >> 1


def play_bots(
    specs: list[str],
    players: int,
    seed: int,
    options: RuleOptions | None = None,
    bot_timeout: float = DEFAULT_BOT_TIMEOUT,
) -> GameOutcome:
    """Play one game, ``specs[i]`` in seat P(i+1), dealt from ``seed``.  Every spec is
    checked before any bot starts; every bot is closed at the end.  A stop request
    (Ctrl-C) ends the game after the current decision, ``interrupted``, with the record
    so far.  Raises ``ManhattanError`` for a bad spec or a program that cannot start."""
    for spec in dict.fromkeys(specs):
        check_bot_spec(spec)
    bots = make_bots(specs, bot_timeout)
    return play_game(bots, players, seed, options=options, should_stop=stopping.requested)


def game_summary(
    outcome: GameOutcome, specs: list[str], seed: int, out: Path | None
) -> dict[str, Any]:
    """The result of a played game as JSON-ready data: seats, totals, places, forfeits,
    where the record went and whether the game was interrupted."""
    record = outcome.record
    players = len(specs)
    return {
        "players": players,
        "seed": seed,
        "bots": specs,
        "names": [record.tags.get(f"P{p}", "") for p in range(1, players + 1)],
        "totals": list(outcome.totals),
        "places": list(outcome.places),
        "forfeits": [
            {"player": seat + 1, "reason": str(reason)}
            for seat, reason in sorted(outcome.forfeits.items())
        ],
        "decisions": len(record.moves),
        "interrupted": outcome.interrupted,
        "out": None if out is None else str(out),
    }
