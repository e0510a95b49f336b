"""The strength levels' ladder (issue 12): each level heads-up against the one below.

Four 2-player matchups, ``level:2`` vs ``level:1`` … ``level:5`` vs ``level:4``
(``analyzer.levels``).  Duplicate-style, with the schedule of ``ladder.py``: every deal (a
game seed: the same hands, deck and reshuffles) is played twice, the higher level in each
seat once, so both sides get the same cards; the deals are the same in every matchup of a
run (from ``--seed``).  A game's win share counts a shared first as 1/2; the win rate is
the higher level's, with a 95% Wilson interval; the issue asks for at least 60% over at
least 100 games (``--deals 50``).  Level budgets are iterations per decision, so a loaded
machine changes only the time, never the result of a seed.

``--spec K=SPEC`` plays level K as another bot spec (to screen a redesign before it goes
into ``analyzer.levels``); ``--only K`` runs only the matchup of level K against K-1.

    python benchmarks/levels.py [--deals 50] [--workers 2] [--seed 2026] [--only K]...
        [--spec K=SPEC]... [--json] [--quiet]

The text output ends with the README's table (markdown).  The matchup of the top two
levels is the slow one: both sides search every decision (about 54 decisions a side in a
2-player game).
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from joblib import Parallel, delayed
from ladder import Matchup, check_seat_spec, play_scheduled, schedule, seat_specs, summarize

from analyzer.levels import LEVELS, TOP_LEVEL
from positions.errors import ManhattanError

PLAYERS = 2
TARGET = 0.60
DEFAULT_DEALS = 50  # × 2 seats = 100 games per matchup


@dataclass(frozen=True)
class LevelStep:
    """One matchup: level ``upper`` (played by ``upper_spec``) against level ``upper - 1``
    (``lower_spec``)."""

    upper: int
    upper_spec: str
    lower_spec: str

    def matchup(self) -> Matchup:
        """The step as a ``ladder.Matchup`` (the higher level is the tested bot)."""
        return Matchup(
            f"level{self.upper}_vs_{self.upper - 1}",
            self.upper_spec,
            self.lower_spec,
            f"level {self.upper - 1}",
            TARGET,
        )


def level_steps(overrides: dict[int, str] | None = None) -> list[LevelStep]:
    """Every step of the level ladder, bottom first; ``overrides`` maps a level to the
    spec that plays it instead of ``level:K``."""
    overrides = overrides or {}
    spec = {lv.number: overrides.get(lv.number, f"level:{lv.number}") for lv in LEVELS}
    return [LevelStep(k, spec[k], spec[k - 1]) for k in range(2, TOP_LEVEL + 1)]


def parse_override(text: str) -> tuple[int, str]:
    """``K=SPEC`` as ``(K, SPEC)``; raises ``ManhattanError``."""
    number, equals, spec = text.partition("=")
    if not equals or not number.strip().isdigit() or not spec.strip():
        raise ManhattanError(f"--spec {text!r}: expected K=SPEC, e.g. 4=mcts:300")
    level = int(number)
    if not 1 <= level <= TOP_LEVEL:
        raise ManhattanError(f"--spec {text!r}: levels are 1 to {TOP_LEVEL}")
    return level, spec.strip()


def run_step(
    step: LevelStep,
    deals: int,
    seed: int,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> dict:
    """Play every game of ``step`` (``deals`` deals × both seats) on ``workers`` processes;
    the higher level's summary (``ladder.summarize``) with the wall ``seconds``."""
    matchup = step.matchup()
    for spec in dict.fromkeys((matchup.tested, matchup.opponent)):
        check_seat_spec(spec)
    games = schedule(deals, seed, PLAYERS)
    started = time.perf_counter()
    jobs = (
        delayed(_numbered)(i, seat_specs(matchup, game, PLAYERS), game.seed)
        for i, game in enumerate(games)
    )
    played: list[dict | None] = [None] * len(games)
    parallel = Parallel(n_jobs=workers, return_as="generator_unordered")
    for done, (index, result) in enumerate(parallel(jobs), start=1):
        played[index] = result
        if progress is not None:
            progress(done, len(games))
    summary = summarize(matchup, games, [r for r in played if r is not None])
    summary["level"] = step.upper
    summary["seconds"] = round(time.perf_counter() - started, 1)
    return summary


def _numbered(index: int, specs: list[str], seed: int) -> tuple[int, dict]:
    return index, play_scheduled(specs, seed)


def table(summaries: Sequence[dict], workers: int, date: str) -> str:
    """The README's table of the level ladder (markdown)."""
    lines = [
        "| level | against | games | win % [95% CI] | mean score (vs) | matchup time |",
        "|---|---|---|---|---|---|",
    ]
    for s in summaries:
        low, high = s["ci95"]
        minutes = s["seconds"] / 60
        lines.append(
            f"| {s['level']} (`{s['tested']}`) | {s['level'] - 1} (`{s['opponent']}`) "
            f"| {s['games']} | **{s['win_rate']:.1%}** [{low:.1%}, {high:.1%}] "
            f"| {s['mean_score']:.1f} ({s['opponent_mean_score']:.1f}) "
            f"| {minutes:.1f} min on {workers} cores |"
        )
    lines.append(f"\nMeasured {date} by `benchmarks/levels.py`.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the selected matchups and print their figures; errors end as one line, exit 1."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=DEFAULT_DEALS, help="deals (×2 games)")
    parser.add_argument("--workers", type=int, default=2, help="games played side by side")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", action="append", type=int, metavar="K", help="level K vs K-1")
    parser.add_argument("--spec", action="append", default=[], metavar="K=SPEC")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)
    try:
        return _run(args)
    except ManhattanError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1


def _run(args: argparse.Namespace) -> int:
    if args.deals < 1 or args.workers < 1:
        raise ManhattanError("--deals and --workers must be at least 1")
    steps = level_steps(dict(parse_override(text) for text in args.spec))
    known = [step.upper for step in steps]
    for level in args.only or ():
        if level not in known:
            raise ManhattanError(f"--only {level}: expected one of {', '.join(map(str, known))}")
    selected = [step for step in steps if not args.only or step.upper in args.only]
    summaries = []
    for step in selected:

        def progress(done: int, total: int, name: str = step.matchup().name) -> None:
            if not args.quiet:
                print(f"{name}: {done}/{total} games", file=sys.stderr, flush=True)

        summaries.append(run_step(step, args.deals, args.seed, args.workers, progress))
    if args.json:
        report = {
            "deals": args.deals,
            "seed": args.seed,
            "workers": args.workers,
            "target": TARGET,
            "matchups": summaries,
        }
        print(json.dumps(report, indent=2))
        return 0
    for s in summaries:
        low, high = s["ci95"]
        print(
            f"{s['matchup']}: {s['tested']} vs {s['opponent']}: win {s['win_rate']:.1%} "
            f"[{low:.1%}, {high:.1%}] over {s['games']} games, mean score {s['mean_score']} "
            f"vs {s['opponent_mean_score']}, {s['seconds_per_game']} s/game, {s['seconds']} s"
        )
    print()
    print(table(summaries, args.workers, datetime.date.today().isoformat()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
