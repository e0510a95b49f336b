"""The strength ladder (issue 10): 4-player matchups at iteration budgets, duplicate-style.

Each matchup seats the tested bot against three copies of an opponent.  Every deal (a game
seed: the same hands, deck and reshuffles) is played four times, the tested bot in each
seat once, so both sides of a comparison get the same cards; the deals are the same in
every matchup of a run (from ``--seed``).  Win shares count per seat-game (a shared first
counts 1/k, a forfeit 0), with Wilson 95% intervals.  Budgets are iterations per decision,
so a loaded machine changes only the time, never the result of a seed.

Matchups (``--iterations`` N, default 6,000; the engine is ``--engine``, default
``mcts:{iterations}``, today's search bot):

* ``vs_v0.1``: the engine at N against the frozen engine v0.1 (commit 722ae4b, built once
  by ``frozen.py``) at N;
* ``tenfold``: the engine at 10·N against itself at N;
* ``vs_heuristic`` / ``vs_greedy``: the engine at N against the hand-written bots;
* ``vs_cheating``: the engine at N against the same engine at N given the true hands and
  deck (``peeking.py``): how much the hidden information costs the honest engine;
* ``versus`` (only with ``--versus SPEC``): the engine at N against ``SPEC`` (``{iterations}``
  in it replaced by N), e.g. a variant against today's default engine at small budgets.

``--engine`` is a bot spec with ``{iterations}`` in it: any ``analyzer.players`` spec
(``mcts:{iterations}``) or ``py:MODULE:FUNCTION:{iterations}``, which seats
``MODULE.FUNCTION("<iterations>")`` (a bot: ``choose(view, rng)``, ``close()``), for an
engine variant that has no spec of its own.  Games run ``--workers`` at a time, one core
each.  ``--readme`` rewrites the ladder table of README.md between the lines
``<!-- ladder:begin -->`` and ``<!-- ladder:end -->`` (rows of matchups not run are kept).
Ctrl-C ends the run with the figures of the deals finished (``"interrupted": true``); a
rung cut short is printed but not written into the README.  ``--table RUN.json ...``
plays nothing and writes the table from saved ``--json`` reports instead (rungs run
separately, or kept in ``benchmarks/results/``), each dated by its report; with
``--cut-short`` it writes rungs cut short too, their games marked "(cut short)": every
deal they count was played in all four seats, so the comparison stays duplicate, only
smaller.  ``kill`` (SIGTERM) stops a run as Ctrl-C does, and so does SIGINT sent to a run
started in the background (``nohup``, ``&``), whose shell would have it ignored: each is
a stop request (``search.stopping``) that the games and searches poll, so the run ends
within a move; a second one ends it at once.
``--log GAMES.jsonl`` keeps every finished game in a file (``ladder_log.py``); run again
with the same log and the same arguments, a stopped run plays only the games it lacks.

    python benchmarks/ladder.py [--deals 25] [--iterations 6000] [--engine SPEC]
        [--versus SPEC] [--workers 2] [--seed 2026] [--only NAME]... [--json]
        [--log GAMES.jsonl] [--readme [PATH]] [--table RUN.json ... [--cut-short]]

Measured seconds per game at 6,000 iterations, one core each, on a busy 2-core machine:
27 (``vs_greedy``: only the tested seat searches), 31 (``vs_heuristic``), 150
(``vs_v0.1``, ``vs_cheating``: every seat searches) and 460 (``tenfold``).  So 25 deals
(100 games) on 2 workers take about 25 minutes for each hand-written opponent, 2 hours for
``vs_v0.1`` and for ``vs_cheating``, and 6.5 hours for ``tenfold``: screen at smaller
budgets first (``--iterations 600``).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import importlib
import json
import re
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from ladder_log import GameLog, game_key
from peeking import PeekingBot, play_peeking_game

from analyzer.match import wilson_interval
from analyzer.players import check_bot_spec, make_bot
from positions.bots import Bot
from positions.errors import ManhattanError
from positions.selfplay import play_game
from search import stopping
from search.pool import helper_pool, in_helper

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = 4
DEFAULT_ENGINE = "mcts:{iterations}"
BEGIN, END = "<!-- ladder:begin -->", "<!-- ladder:end -->"
SEED = "{seed}"  # in a seat spec: replaced by that seat's own seed in each game
FROZEN = "frozen:"  # frozen:NAME:ITERATIONS, a frozen engine's seat (see ``resolve``)


@dataclass(frozen=True)
class Matchup:
    """One rung: the tested bot against ``PLAYERS - 1`` copies of the opponent.  Specs are
    ``seat_bot`` specs; ``{seed}`` in one is replaced by a seed per game and seat."""

    name: str
    tested: str
    opponent: str
    label: str  # the opponent as the table shows it
    target: float | None  # the tested bot's win rate the issue asks for


@dataclass(frozen=True)
class ScheduledGame:
    """One game of a matchup: deal ``deal`` (from 0), played from ``seed``, with the tested
    bot in seat ``seat`` (0-based)."""

    deal: int
    seat: int
    seed: int


def engine_spec(engine: str, iterations: int) -> str:
    """The engine's bot spec at ``iterations`` per decision; raises ``ManhattanError`` when
    ``engine`` has no ``{iterations}``."""
    if "{iterations}" not in engine:
        raise ManhattanError(f"--engine {engine!r}: expected a spec with {{iterations}} in it")
    return engine.replace("{iterations}", str(iterations))


def matchups(engine: str, iterations: int, versus: str | None = None) -> list[Matchup]:
    """Every rung of the ladder, in table order, at base budget ``iterations`` (with the
    ``versus`` rung when an opponent spec is given)."""
    tested = engine_spec(engine, iterations)
    extra = []
    if versus is not None:
        opponent = versus.replace("{iterations}", str(iterations))
        extra.append(Matchup("versus", tested, opponent, f"`{opponent}`", None))
    return [
        Matchup("vs_v0.1", tested, f"{FROZEN}v0.1:{iterations}", f"v0.1 at {iterations}", 0.40),
        Matchup("tenfold", engine_spec(engine, 10 * iterations), tested, f"`{tested}`", 0.45),
        Matchup("vs_heuristic", tested, "heuristic", "`heuristic`", 0.85),
        Matchup("vs_greedy", tested, "greedy", "`greedy`", 0.95),
        Matchup("vs_cheating", tested, f"peek:{tested}", f"`{tested}` seeing every card", None),
        *extra,
    ]


def resolve(matchup: Matchup, frozen_spec: Callable[[str, int], str]) -> Matchup:
    """``matchup`` with each ``frozen:NAME:ITERATIONS`` seat made into the frozen engine's
    ``cmd:`` spec by ``frozen_spec(NAME, ITERATIONS)`` (which builds it if needed)."""

    def made(spec: str) -> str:
        if not spec.startswith(FROZEN):
            return spec
        name, _, iterations = spec.removeprefix(FROZEN).rpartition(":")
        return frozen_spec(name, int(iterations))

    return Matchup(
        matchup.name, made(matchup.tested), made(matchup.opponent), matchup.label, matchup.target
    )


def schedule(deals: int, seed: int, players: int = PLAYERS) -> list[ScheduledGame]:
    """The games of a matchup: for each of ``deals`` deals (seeds from
    ``SeedSequence(seed).spawn``), one game with the tested bot in each seat."""
    children = np.random.SeedSequence(seed).spawn(deals)
    seeds = [int(child.generate_state(1, dtype=np.uint64)[0]) for child in children]
    return [ScheduledGame(d, seat, seeds[d]) for d in range(deals) for seat in range(players)]


def seat_seed(game_seed: int, seat: int) -> int:
    """The seed a ``{seed}`` seat gets: the same in every game of a deal, different per
    seat (so an external bot's randomness follows the seat, like an in-process bot's)."""
    return int(np.random.SeedSequence([game_seed, seat]).generate_state(1)[0])


def seat_specs(matchup: Matchup, game: ScheduledGame, players: int = PLAYERS) -> list[str]:
    """The spec in each seat of ``game``, ``{seed}`` filled in."""
    specs = [matchup.tested if seat == game.seat else matchup.opponent for seat in range(players)]
    return [spec.replace(SEED, str(seat_seed(game.seed, s))) for s, spec in enumerate(specs)]


def seat_bot(spec: str) -> Bot:
    """The bot of a ladder seat spec: ``peek:<spec>`` (that bot given the true world),
    ``peekhands:<spec>`` (given every hand but not the deck's order),
    ``py:MODULE:FUNCTION:ARGUMENT`` (``MODULE.FUNCTION(ARGUMENT)``) or any
    ``analyzer.players`` spec.  Raises ``ManhattanError`` for a bad spec."""
    if spec.startswith("peek:"):
        return PeekingBot(seat_bot(spec.removeprefix("peek:")))
    if spec.startswith("peekhands:"):
        return PeekingBot(seat_bot(spec.removeprefix("peekhands:")), hands_only=True)
    if spec.startswith("py:"):
        parts = spec.removeprefix("py:").split(":", 2)
        if len(parts) != 3:
            raise ManhattanError(f"bot spec {spec!r}: expected py:MODULE:FUNCTION:ARGUMENT")
        module, function, argument = parts
        try:
            factory = getattr(importlib.import_module(module), function)
        except (ImportError, AttributeError) as error:
            raise ManhattanError(f"bot spec {spec!r}: {error}") from None
        return factory(argument)
    return make_bot(spec)


def check_seat_spec(spec: str) -> None:
    """Check a seat spec before any game (a ``cmd:`` program must exist; any other bot is
    made and closed).  Raises ``ManhattanError``."""
    inner = spec.removeprefix("peek:").removeprefix("peekhands:")
    if inner.startswith("py:"):
        seat_bot(inner).close()
    else:
        check_bot_spec(inner.replace(SEED, "0"))


def play_scheduled(specs: list[str], seed: int) -> dict | None:
    """Play one game with ``specs`` in the seats: its totals, win shares, the seats that
    forfeited and the seconds it took; None when a stop request (``search.stopping``)
    ended it before its end."""
    started = time.perf_counter()
    bots: list[Bot] = []
    try:
        for spec in specs:
            bots.append(seat_bot(spec))
    except BaseException:
        for bot in bots:
            bot.close()
        raise
    if any(getattr(bot, "peeks", False) for bot in bots):
        outcome = play_peeking_game(bots, len(specs), seed, should_stop=stopping.requested)
        forfeits: list[int] = []
    else:
        played = play_game(bots, len(specs), seed, names=specs, should_stop=stopping.requested)
        outcome, forfeits = played, sorted(played.forfeits)
    if outcome.interrupted:
        return None
    return {
        "totals": list(outcome.totals),
        "win_shares": list(outcome.win_shares),
        "forfeits": forfeits,
        "seconds": time.perf_counter() - started,
    }


def summarize(matchup: Matchup, games: Sequence[ScheduledGame], played: Sequence[dict]) -> dict:
    """The tested bot's figures over ``games`` (their results in ``played``, same order)."""
    pairs = list(zip(games, played, strict=True))
    wins = sum(result["win_shares"][game.seat] for game, result in pairs)
    score = sum(result["totals"][game.seat] for game, result in pairs)
    others = [
        total
        for game, result in pairs
        for seat, total in enumerate(result["totals"])
        if seat != game.seat
    ]
    forfeits = [game.seat == seat for game, result in pairs for seat in result["forfeits"]]
    count = len(games)
    low, high = wilson_interval(wins, count)
    rate = wins / count if count else 0.0
    return {
        "matchup": matchup.name,
        "tested": matchup.tested,
        "opponent": matchup.opponent,
        "label": matchup.label,
        "deals": len({game.deal for game in games}),
        "games": count,
        "wins": round(wins, 4),
        "win_rate": round(rate, 4),
        "ci95": [round(low, 4), round(high, 4)],
        "mean_score": round(score / count, 2) if count else 0.0,
        "opponent_mean_score": round(sum(others) / len(others), 2) if others else 0.0,
        "forfeits": {"tested": sum(forfeits), "opponents": len(forfeits) - sum(forfeits)},
        "target": matchup.target,
        "meets_target": None if matchup.target is None else rate >= matchup.target,
        "seconds_per_game": round(sum(r["seconds"] for r in played) / count, 2) if count else 0,
    }


def complete_deals(
    games: Sequence[ScheduledGame], played: Sequence[dict | None]
) -> tuple[list[ScheduledGame], list[dict]]:
    """The games (and their results, same order) of the deals whose every game has a
    result: a deal cut short would seat the tested bot in some seats only."""
    pairs = list(zip(games, played, strict=True))
    unfinished = {game.deal for game, result in pairs if result is None}
    kept = [(game, result) for game, result in pairs if game.deal not in unfinished]
    return [game for game, _ in kept], [result for _, result in kept]


def run_matchup(
    matchup: Matchup,
    deals: int,
    seed: int,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
    log: GameLog | None = None,
) -> dict:
    """Play every game of ``matchup`` (``deals`` deals × every seat) on ``workers``
    processes and return its summary (``summarize``) with the wall ``seconds`` and each
    game's result.  ``progress(done, total)`` is called as games finish.  With a ``log``,
    the games it holds are counted, not played again, and each game played is recorded in
    it as it ends.  A stop request (``search.stopping``: Ctrl-C or ``kill`` while the
    command runs) ends the matchup within a move: the summary then counts the deals whose
    every seat finished (so both sides still had the same cards) and says
    ``"interrupted": true``."""
    for spec in dict.fromkeys((matchup.tested, matchup.opponent)):
        check_seat_spec(spec)
    scheduled = schedule(deals, seed)
    keys = [
        game_key(matchup.name, matchup.tested, matchup.label, g.seed, g.seat) for g in scheduled
    ]
    logged = log.results if log is not None else {}
    played: list[dict | None] = [logged.get(key) for key in keys]
    started = time.perf_counter()
    missing = [i for i, result in enumerate(played) if result is None]
    arguments = [(seat_specs(matchup, scheduled[i]), scheduled[i].seed) for i in missing]
    done = len(scheduled) - len(missing)
    for position, result in _played(arguments, workers):
        if result is None:  # stopped before its end
            continue
        index = missing[position]
        played[index] = result
        done += 1
        if log is not None:
            log.record(keys[index], result)
        if progress is not None:
            progress(done, len(scheduled))
    interrupted = any(result is None for result in played)
    games, results = complete_deals(scheduled, played)
    summary = summarize(matchup, games, results)
    summary["seconds"] = round(time.perf_counter() - started, 1)
    summary["interrupted"] = interrupted
    summary["results"] = [
        {
            "deal": game.deal,
            "seat": game.seat + 1,
            "seed": game.seed,
            "win_share": result["win_shares"][game.seat],
            "score": result["totals"][game.seat],
            "totals": result["totals"],
            "seconds": round(result["seconds"], 2),
        }
        for game, result in zip(games, results, strict=True)
    ]
    return summary


def _played(arguments: list[tuple], workers: int) -> Iterator[tuple[int, dict | None]]:
    """``(index, result)`` of each game ``play_scheduled(*arguments[index])`` as it ends,
    ``workers`` at a time (in the helper processes of ``search.pool``, which stop their
    games when this process is asked to stop).  After a stop request no game starts."""
    if workers == 1 or in_helper():
        for index, args in enumerate(arguments):
            if stopping.requested():
                return
            yield index, play_scheduled(*args)
        return
    width = min(workers, len(arguments))
    if width:
        yield from helper_pool(width).map_unordered(play_scheduled, arguments, width)


# ----- the README table -------------------------------------------------------------------

HEADER = (
    "| matchup | tested | against ×3 | games | win % [95% CI] | target | mean score "
    "| s/game | measured |\n|---|---|---|---|---|---|---|---|---|"
)
ROW_KEY = re.compile(r"^\|\s*`([^`]+)`\s*\|")


def table_row(summary: dict, date: str) -> str:
    """One matchup's row of the README table."""
    low, high = summary["ci95"]
    target = "—" if summary["target"] is None else f"≥ {summary['target']:.0%}"
    per_game = summary["seconds_per_game"]
    per_game_text = f"{per_game:.0f}" if per_game >= 10 else f"{per_game:.1f}"
    games = f"{summary['games']} (cut short)" if summary.get("interrupted") else summary["games"]
    return (
        f"| `{summary['matchup']}` | `{summary['tested']}` | {summary['label']} "
        f"| {games} | **{summary['win_rate']:.1%}** [{low:.1%}, {high:.1%}] "
        f"| {target} | {summary['mean_score']:.1f} | {per_game_text} | {date} |"
    )


def rewrite_table(text: str, rows: dict[str, str], order: Sequence[str], where: str) -> str:
    """``text`` with the ladder table between the markers rewritten: ``rows`` (by matchup
    name) replace or join the rows there, in ``order`` (others after, as they were).
    Raises ``ManhattanError`` when the markers are missing or out of order."""
    begin, end = text.find(BEGIN), text.find(END)
    if begin < 0 or end < 0 or end < begin:
        raise ManhattanError(
            f"{where}: no ladder table markers: add the lines {BEGIN} and {END} "
            "where the table goes"
        )
    old = text[begin + len(BEGIN) : end]
    kept: dict[str, str] = {}
    for line in old.splitlines():
        match = ROW_KEY.match(line.strip())
        if match and match.group(1) != "matchup":
            kept[match.group(1)] = line.strip()
    kept.update(rows)
    names = [n for n in order if n in kept] + [n for n in kept if n not in order]
    table = "\n".join([HEADER] + [kept[name] for name in names])
    return text[:begin] + BEGIN + "\n" + table + "\n" + text[end:]


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as error:
        raise ManhattanError(f"{path}: {error.strerror or error}") from None


def check_readme(path: Path) -> None:
    """Raise ``ManhattanError`` unless the README at ``path`` can be read and has the
    ladder table markers (checked before any game, so hours of games are not lost)."""
    rewrite_table(_read(path), {}, (), str(path))


def rewrite_readme(
    path: Path, summaries: Sequence[dict], order: Sequence[str], date: str | None = None
) -> None:
    """Rewrite the ladder table of the README at ``path`` with ``summaries`` measured on
    ``date`` (default today); raises ``ManhattanError`` when the file cannot be read or
    has no markers."""
    text = _read(path)
    date = date or datetime.date.today().isoformat()
    rows = {summary["matchup"]: table_row(summary, date) for summary in summaries}
    path.write_text(rewrite_table(text, rows, order, str(path)), encoding="utf-8")


def saved_runs(paths: Sequence[Path], cut_short: bool = False) -> list[tuple[str, list[dict]]]:
    """The finished matchups of saved ``--json`` reports (with ``cut_short``, also those
    a Ctrl-C cut short: the deals they finished), with each report's date (its
    ``"date"``, else the file's modification day); raises ``ManhattanError`` naming a
    file that is not such a report."""
    runs = []
    for path in paths:
        try:
            report = json.loads(_read(path))
            matchups = [m for m in report["matchups"] if cut_short or not m.get("interrupted")]
            date = (
                report.get("date") or datetime.date.fromtimestamp(path.stat().st_mtime).isoformat()
            )
        except (json.JSONDecodeError, KeyError, TypeError) as error:
            raise ManhattanError(f"{path}: not a ladder --json report ({error})") from None
        runs.append((date, matchups))
    return runs


# ----- the command ------------------------------------------------------------------------


def _frozen_spec(name: str, iterations: int) -> str:
    from frozen import frozen_engine

    return frozen_engine(name).bot_spec(iterations, SEED)


def main(argv: list[str] | None = None) -> int:
    """Run the selected rungs and print their figures; errors end as one line, exit 1."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=25, help="deals per matchup (×4 games)")
    parser.add_argument("--iterations", type=int, default=6000, help="the base budget N")
    parser.add_argument("--engine", default=DEFAULT_ENGINE, help="the tested engine's spec")
    parser.add_argument("--versus", metavar="SPEC", help="the opponent of the versus rung")
    parser.add_argument("--workers", type=int, default=2, help="games played side by side")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", action="append", metavar="NAME", help="run only this rung")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--readme",
        nargs="?",
        const=ROOT / "README.md",
        type=Path,
        metavar="PATH",
        help="rewrite the ladder table in README.md (or PATH)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    parser.add_argument(
        "--log",
        type=Path,
        metavar="PATH",
        help="append each finished game to PATH (JSON lines); the games already in it are "
        "counted, not played again, so a stopped run resumes",
    )
    parser.add_argument(
        "--table",
        nargs="+",
        type=Path,
        metavar="JSON",
        help="play nothing: write the README table (--readme, default README.md) from "
        "saved --json reports",
    )
    parser.add_argument(
        "--cut-short",
        action="store_true",
        help="with --table: write rungs a Ctrl-C cut short too (the deals they finished), "
        "marked so",
    )
    args = parser.parse_args(argv)
    try:
        with stopping.on_signals():
            return _run(args)
    except ManhattanError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1


def _run(args: argparse.Namespace) -> int:
    if args.cut_short and not args.table:
        raise ManhattanError(
            "--cut-short: only with --table (a run's own rungs cut short are never written)"
        )
    if args.table:
        readme = args.readme or ROOT / "README.md"
        check_readme(readme)
        order = [m.name for m in matchups(DEFAULT_ENGINE, args.iterations)]
        for date, summaries in saved_runs(args.table, args.cut_short):
            rewrite_readme(readme, summaries, order, date)
        return 0
    if args.deals < 1 or args.workers < 1 or args.iterations < 1:
        raise ManhattanError("--deals, --workers and --iterations must be at least 1")
    ladder = matchups(args.engine, args.iterations, args.versus)
    names = [m.name for m in ladder]
    unknown = sorted(set(args.only or ()) - set(names))
    if unknown:
        raise ManhattanError(f"--only {unknown[0]!r}: expected one of {', '.join(names)}")
    if args.readme is not None:
        check_readme(args.readme)
    selected = [m for m in ladder if not args.only or m.name in args.only]
    summaries = []
    with contextlib.ExitStack() as closing:
        log = closing.enter_context(GameLog(args.log)) if args.log is not None else None
        for matchup in selected:
            matchup = resolve(matchup, _frozen_spec)

            def progress(done: int, total: int, name: str = matchup.name) -> None:
                if not args.quiet:
                    print(f"{name}: {done}/{total} games", file=sys.stderr, flush=True)

            summary = run_matchup(matchup, args.deals, args.seed, args.workers, progress, log)
            summaries.append(summary)
            if summary["interrupted"]:
                break
    finished = [s for s in summaries if not s["interrupted"]]
    if args.readme is not None and finished:
        rewrite_readme(args.readme, finished, names)
    report = {
        "date": datetime.date.today().isoformat(),
        "engine": args.engine,
        "iterations": args.iterations,
        "deals": args.deals,
        "seed": args.seed,
        "workers": args.workers,
        "interrupted": any(s["interrupted"] for s in summaries),
        "matchups": summaries,
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    for s in summaries:
        low, high = s["ci95"]
        target = "" if s["target"] is None else f" (target {s['target']:.0%})"
        print(
            f"{s['matchup']:>13}: {s['tested']} vs {s['label'].replace('`', '')} x3: "
            f"win {s['win_rate']:.1%} "
            f"[{low:.1%}, {high:.1%}] over {s['games']} games{target}, mean score "
            f"{s['mean_score']}, {s['seconds_per_game']} s/game, {s['seconds']} s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
