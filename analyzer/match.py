"""Matches: many bot games with the seats rotated, played in parallel, summed up per bot.

Game ``g`` (from 0) seats spec ``(i + g) mod players`` in seat ``i``, so over a multiple of
``players`` games every spec plays every seat equally often.  Each game's seed comes from
``np.random.SeedSequence(seed).spawn(games)``, so a match is reproduced by its seed whatever
the number of workers.  Games run side by side in warm helper processes
(``search.pool``); bots are made inside the helper (an external program cannot be
pickled).  Every record is saved as
``out_dir/game_0001.mgn``, … .

Per distinct spec the result counts seat-games (a spec in three seats of 100 games plays
300), wins (a shared first counts 1/k, a forfeit 0: ``positions.selfplay``), the win rate
with a 95% Wilson score interval, the mean final total and the forfeits.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.outputs import OutputError, check_output_folder, make_folder, write_output
from analyzer.players import DEFAULT_BOT_TIMEOUT, check_bot_spec, check_bot_timeout, make_bots
from positions.errors import ManhattanError
from positions.options import RuleOptions
from positions.record import write_record
from positions.selfplay import GameOutcome, play_game
from search import stopping
from search.pool import helper_pool, in_helper
from search.stats import wilson_interval

MAX_GAMES = 100_000
MAX_WORKERS = 64


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
    """A match: per distinct spec (in order of first appearance) and per finished game.

    ``finished`` counts the games played to the end (an interrupted match reports those
    only); ``write_failure`` says which record could not be saved, if one could not."""

    games: int
    bots: list[BotStats]
    results: list[GameSummary] = field(default_factory=list)
    interrupted: bool = False
    write_failure: str | None = None

    @property
    def finished(self) -> int:
        """Games played to the end."""
        return len(self.results)

    def forfeit_reasons(self) -> list[tuple[int, int, str, str]]:
        """Every forfeit as ``(game number, seat from 1, spec, reason)``."""
        return [
            (game.number, seat + 1, game.seat_specs[seat], reason)
            for game in self.results
            for seat, reason in sorted(game.outcome.forfeits.items())
        ]

    def to_json(self) -> dict[str, Any]:
        """``{"games": N, "finished": n, "interrupted": …, "bots": [{"spec", "games",
        "wins", "win_rate", "ci95", "mean_score", "forfeits"}, …]}`` as a JSON-ready
        dict."""
        return {
            "games": self.games,
            "finished": self.finished,
            "interrupted": self.interrupted,
            "bots": [bot.to_json() for bot in self.bots],
        }


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
    """One game (in this process or a helper): make the bots, play game ``number``."""
    bots = make_bots(specs, bot_timeout)
    outcome = play_game(bots, players, seed, options, names=specs, should_stop=stopping.requested)
    return number, outcome


def check_match_output(out_dir: Path, games: int, force: bool) -> None:
    """Check, before any game, that the records of ``games`` games can be saved in
    ``out_dir``.  Raises ``ManhattanError``."""
    names = [path.name for path in record_paths(out_dir, games)]
    check_output_folder(out_dir, names, force, "--out")


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
    """Play ``games`` games between ``specs`` (one per seat, rotated each game),
    ``workers`` at a time in warm helper processes, and sum them up per distinct spec.

    Saves each finished record in ``out_dir`` (created if missing) unless it is ``None``;
    an existing record file is an error unless ``force``.  ``progress`` is called with the
    number of games finished so far each time one finishes.  A stop request (Ctrl-C) ends
    the match within a move: the games finished are reported, the ones in progress
    dropped.  A record that cannot be saved does not stop the match (``write_failure``).
    Raises ``ManhattanError`` for bad arguments, bad specs or an unusable ``out_dir``,
    before any game is played.
    """
    specs = [spec.strip() for spec in specs]
    if players not in (2, 3, 4):
        raise ManhattanError(f"players must be 2, 3 or 4, not {players}")
    if len(specs) != players:
        raise ManhattanError(f"{len(specs)} bot specs for {players} players: give one per seat")
    if not 1 <= games <= MAX_GAMES:
        raise ManhattanError(f"games must be 1 to {MAX_GAMES:,}, not {games}")
    if not 1 <= workers <= MAX_WORKERS:
        raise ManhattanError(f"workers must be 1 to {MAX_WORKERS}, not {workers}")
    check_bot_timeout(bot_timeout)
    for spec in dict.fromkeys(specs):
        check_bot_spec(spec)
    paths = None
    if out_dir is not None:
        check_match_output(out_dir, games, force)
        make_folder(out_dir)
        paths = record_paths(out_dir, games)

    children = np.random.SeedSequence(seed).spawn(games)
    seeds = [int(child.generate_state(1, dtype=np.uint64)[0]) for child in children]
    arguments = [
        (g + 1, seat_specs(specs, g), players, seeds[g], options, bot_timeout) for g in range(games)
    ]
    summaries: list[GameSummary] = []
    failure = None
    for number, outcome in _played(arguments, workers):
        if outcome.interrupted:
            continue
        path = None
        if paths is not None:
            path = paths[number - 1]
            try:
                write_output(path, write_record(outcome.record))
            except OutputError as error:
                failure = failure or str(error)
                path = None
        summaries.append(GameSummary(number, seat_specs(specs, number - 1), outcome, path))
        if progress is not None:
            progress(len(summaries))
    summaries.sort(key=lambda game: game.number)
    interrupted = len(summaries) < games
    return MatchResult(games, _tally(specs, summaries), summaries, interrupted, failure)


def _played(arguments: list[tuple], workers: int) -> Iterator[tuple[int, GameOutcome]]:
    """The games ``arguments`` describe, played ``workers`` at a time, as they finish."""
    if workers == 1 or in_helper():
        for args in arguments:
            if stopping.requested():
                return
            yield _play_one(*args)
        return
    width = min(workers, len(arguments))
    for _, played in helper_pool(width).map_unordered(_play_one, arguments, width):
        yield played


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
