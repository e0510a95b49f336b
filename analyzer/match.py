"""Matches: many bot games with the seats rotated, played in parallel, summed up per bot.

Game ``g`` (from 0) seats spec ``(i + g) mod players`` in seat ``i``, so over a multiple of
``players`` games every spec plays every seat equally often.  Each game's seed comes from
``np.random.SeedSequence(seed).spawn(games)``, so a match is reproduced by its seed whatever
the number of workers.  Games run side by side through joblib; bots are made inside the
worker (an external program cannot be pickled).  Every record is saved as
``out_dir/game_0001.mgn``, … .

Per distinct spec the result counts seat-games (a spec in three seats of 100 games plays
300), wins (a shared first counts 1/k, a forfeit 0: ``positions.selfplay``), the win rate
with a 95% Wilson score interval, the mean final total and the forfeits.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from joblib import Parallel, delayed

from analyzer.players import DEFAULT_BOT_TIMEOUT, check_bot_spec, make_bot
from positions.errors import ManhattanError
from positions.options import RuleOptions
from positions.record import write_record
from positions.selfplay import GameOutcome, play_game


@dataclass
class BotStats:
    """One distinct spec's results over all its seat-games."""

    spec: str
    games: int = 0
    wins: float = 0.0
    total_score: int = 0
    forfeits: int = 0

    @property
    def win_rate(self) -> float:
        """Wins per seat-game."""
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """95% Wilson score interval of the win rate."""
        return wilson_interval(self.wins, self.games)

    @property
    def mean_score(self) -> float:
        """Mean final total per seat-game."""
        return self.total_score / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        """The JSON object of the match output (rounded for reading)."""
        low, high = self.ci95
        return {
            "spec": self.spec,
            "games": self.games,
            "wins": round(self.wins, 4),
            "win_rate": round(self.win_rate, 4),
            "ci95": [round(low, 4), round(high, 4)],
            "mean_score": round(self.mean_score, 2),
            "forfeits": self.forfeits,
        }


@dataclass
class GameSummary:
    """One game of a match: its 1-based number, the spec in each seat, the outcome and
    where its record was saved."""

    number: int
    seat_specs: list[str]
    outcome: GameOutcome
    path: Path | None = None


@dataclass
class MatchResult:
    """A finished match: per distinct spec (in order of first appearance) and per game."""

    games: int
    bots: list[BotStats]
    results: list[GameSummary] = field(default_factory=list)

    def forfeit_reasons(self) -> list[tuple[int, int, str, str]]:
        """Every forfeit as ``(game number, seat from 1, spec, reason)``."""
        return [
            (game.number, seat + 1, game.seat_specs[seat], reason)
            for game in self.results
            for seat, reason in sorted(game.outcome.forfeits.items())
        ]

    def to_json(self) -> dict[str, Any]:
        """``{"games": N, "bots": [{"spec", "games", "wins", "win_rate", "ci95",
        "mean_score", "forfeits"}, …]}`` as a JSON-ready dict."""
        return {"games": self.games, "bots": [bot.to_json() for bot in self.bots]}


def wilson_interval(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate ``wins / games`` (z = 1.96 for 95%); it
    stays inside [0, 1] and is sensible for rates near 0 or 1 and for few games.  Shared
    wins enter as their fractions.  ``(0, 1)`` for no games."""
    if games <= 0:
        return 0.0, 1.0
    rate = wins / games
    scale = 1 + z * z / games
    center = (rate + z * z / (2 * games)) / scale
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / scale
    return max(0.0, center - half), min(1.0, center + half)


def seat_specs(specs: Sequence[str], game: int) -> list[str]:
    """The spec in each seat of game ``game`` (from 0): seat ``i`` gets ``(i + game) mod n``."""
    n = len(specs)
    return [specs[(seat + game) % n] for seat in range(n)]


def record_paths(out_dir: Path, games: int) -> list[Path]:
    """``out_dir/game_0001.mgn`` … (more digits when there are more games)."""
    width = max(4, len(str(games)))
    return [out_dir / f"game_{number:0{width}d}.mgn" for number in range(1, games + 1)]


def _play_one(
    number: int,
    specs: list[str],
    players: int,
    seed: int,
    options: RuleOptions | None,
    bot_timeout: float,
) -> tuple[int, GameOutcome]:
    """Worker: make the bots, play game ``number``, return its outcome."""
    bots = []
    try:
        for spec in specs:
            bots.append(make_bot(spec, bot_timeout))
    except BaseException:
        for bot in bots:
            bot.close()
        raise
    return number, play_game(bots, players, seed, options, names=specs)


def run_match(
    specs: Sequence[str],
    players: int,
    games: int,
    workers: int = 1,
    seed: int = 0,
    out_dir: Path | None = None,
    options: RuleOptions | None = None,
    progress: Callable[[int], None] | None = None,
    *,
    force: bool = False,
    bot_timeout: float = DEFAULT_BOT_TIMEOUT,
) -> MatchResult:
    """Play ``games`` games between ``specs`` (one per seat, rotated each game) on
    ``workers`` processes and sum them up per distinct spec.

    Saves each record in ``out_dir`` (created if missing) unless it is ``None``; an
    existing record file is an error unless ``force``.  ``progress`` is called with the
    number of games finished so far each time one finishes.  Raises ``ManhattanError`` for
    bad arguments, bad specs or an existing file, before any game is played.
    """
    specs = [spec.strip() for spec in specs]
    if players not in (2, 3, 4):
        raise ManhattanError(f"players must be 2, 3 or 4, not {players}")
    if len(specs) != players:
        raise ManhattanError(f"{len(specs)} bot specs for {players} players: give one per seat")
    if games < 1:
        raise ManhattanError(f"games must be at least 1, not {games}")
    if workers < 1:
        raise ManhattanError(f"workers must be at least 1, not {workers}")
    for spec in dict.fromkeys(specs):
        check_bot_spec(spec)
    paths = _prepare_out_dir(out_dir, games, force) if out_dir is not None else None

    children = np.random.SeedSequence(seed).spawn(games)
    seeds = [int(child.generate_state(1, dtype=np.uint64)[0]) for child in children]
    jobs = (
        delayed(_play_one)(g + 1, seat_specs(specs, g), players, seeds[g], options, bot_timeout)
        for g in range(games)
    )
    summaries: list[GameSummary] = []
    parallel = Parallel(n_jobs=workers, return_as="generator_unordered")
    for done, (number, outcome) in enumerate(parallel(jobs), start=1):
        path = None
        if paths is not None:
            path = paths[number - 1]
            path.write_text(write_record(outcome.record), encoding="utf-8")
        summaries.append(GameSummary(number, seat_specs(specs, number - 1), outcome, path))
        if progress is not None:
            progress(done)
    summaries.sort(key=lambda game: game.number)
    return MatchResult(games, _tally(specs, summaries), summaries)


def _prepare_out_dir(out_dir: Path, games: int, force: bool) -> list[Path]:
    if out_dir.exists() and not out_dir.is_dir():
        raise ManhattanError(f"{out_dir} is a file, expected a folder for the game records")
    paths = record_paths(out_dir, games)
    if not force:
        for path in paths:
            if path.exists():
                raise ManhattanError(f"file exists: {path} (pass --force to overwrite it)")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ManhattanError(f"cannot create {out_dir}: {error.strerror or error}") from None
    return paths


def _tally(specs: Sequence[str], games: list[GameSummary]) -> list[BotStats]:
    stats = {spec: BotStats(spec) for spec in dict.fromkeys(specs)}
    for game in games:
        outcome = game.outcome
        for seat, spec in enumerate(game.seat_specs):
            entry = stats[spec]
            entry.games += 1
            entry.wins += outcome.win_shares[seat]
            entry.total_score += outcome.totals[seat]
            entry.forfeits += seat in outcome.forfeits
    return list(stats.values())
