"""Do the review's marks hold up?  Three checks on the bundled games (2, 3 and 4 players),
at the review's default settings (issue 8):

* **stability**: two reviews with different seeds give the same mark (or none) on the same
  decision — target ≥ 90 % of the decisions;
* **accuracy**: for each decision either review marked, the loss is within 5 win-% points
  of a review of that decision with a 20× budget — target ≥ 80 % of the marked ones;
* **no false "better"**: no ``?`` or ``??`` whose better move the 20× budget rates below
  the move played, judged by a paired comparison of the two moves — target 0.

Also the wall time of each default review (a 4-player game should take under 2 minutes
on 2 cores).  Prints one JSON object with ``--json``.  ``--iterations-per-move N`` replaces
the default wall-time budget by an iteration budget (for a machine shared with other
work); ``--games NAME…`` picks games; ``--limit K`` reviews the first K decisions only;
``--candidates K`` compares the move played with the search's K most visited moves.

Usage: ``python benchmarks/review_quality.py [--json] [--workers 2] [--scale 20]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

from analyzer.engine import default_workers, make_evaluator
from analyzer.review import ReviewSettings, _position_for, review_decision, review_game
from positions.bundled import bundled_files
from positions.errors import ManhattanError
from positions.moves import parse_move
from positions.record import GameRecord, load_record
from search.compare import compare_decisions

TARGETS = {"same_mark_share": 0.90, "within_5_share": 0.80, "false_better": 0}


def trimmed(record: GameRecord, limit: int | None) -> GameRecord:
    """``record`` cut to its first ``limit`` decisions (its Result dropped then)."""
    if limit is None or limit >= len(record.moves):
        return record
    tags = {k: v for k, v in record.tags.items() if k != "Result"}
    return GameRecord(record.players, tags, record.moves[:limit])


def check_marked(record: GameRecord, decision, settings: ReviewSettings, scale: int) -> dict:
    """The 20× review of one marked decision: its loss, and the paired rating of the
    default review's better move against the move played."""
    big = replace(
        settings,
        seconds_per_move=settings.seconds_per_move * scale,
        iterations_per_move=(
            None if settings.iterations_per_move is None else settings.iterations_per_move * scale
        ),
        seed=settings.seed + 1000,
    )
    state = record.states()[decision.index]
    recorded = record.moves[decision.index]
    judged, _ = review_decision(state, recorded, decision.index, big)
    row = {
        "index": decision.index,
        "players": record.players,
        "mark": decision.mark,
        "loss": round(decision.loss, 2),
        "loss_20x": round(judged.loss, 2),
        "within_5": abs(judged.loss - decision.loss) <= 5.0,
        "better": decision.better,
        "better_below_played": None,
    }
    if decision.mark in ("?", "??") and decision.better:
        view = _position_for(state, recorded)
        better = view.move_to_actions(parse_move(decision.better))
        played = view.move_to_actions(recorded.move)
        comparison = compare_decisions(
            view,
            [better, played],
            big.limit(1.0),
            make_evaluator(settings.epsilon),
            big.seed,
            settings.parallelism(),
        )
        gap = comparison.values[1].win_gap  # better minus played
        row["better_minus_played_20x"] = round(100 * gap, 2)
        row["better_below_played"] = gap < 0
    return row


def measure(games: list[Path], settings: ReviewSettings, scale: int, limit: int | None) -> dict:
    """Review each game twice, check the marked decisions at ``scale``× the budget.  A
    line per game goes to stderr; Ctrl-C ends the run with the figures of the games
    finished (``"interrupted": true``)."""
    per_game, checks = [], []
    same = total = 0
    interrupted = False
    for path in games:
        try:
            game, game_checks = measure_game(path, settings, scale, limit)
        except KeyboardInterrupt:
            interrupted = True
            break
        per_game.append(game)
        checks.extend(game_checks)
        same += game["same_mark"]
        total += game["decisions"]
        print(
            f"{path.name}: same mark {game['same_mark']}/{game['decisions']}, "
            f"{len(game_checks)} marked checked",
            file=sys.stderr,
            flush=True,
        )
    within = sum(1 for c in checks if c["within_5"])
    false_better = sum(1 for c in checks if c["better_below_played"])
    same_share = same / total if total else 1.0
    within_share = within / len(checks) if checks else 1.0
    return {
        "settings": {
            "seconds_per_move": settings.seconds_per_move,
            "iterations_per_move": settings.iterations_per_move,
            "workers": settings.workers,
            "candidates": settings.candidates,
            "scale": scale,
        },
        "interrupted": interrupted,
        "games": per_game,
        "decisions": total,
        "same_mark_share": round(same_share, 4),
        "marked": len(checks),
        "within_5_share": round(within_share, 4),
        "false_better": false_better,
        "checks": checks,
        "targets": TARGETS,
        "meets_targets": same_share >= TARGETS["same_mark_share"]
        and within_share >= TARGETS["within_5_share"]
        and false_better == TARGETS["false_better"],
    }


def measure_game(
    path: Path, settings: ReviewSettings, scale: int, limit: int | None
) -> tuple[dict, list[dict]]:
    """One game's figures (``same_mark``: the decisions that got the same mark, or none, in
    both reviews) and the checks of its marked decisions."""
    record = trimmed(load_record(path), limit)
    started = time.monotonic()
    first = review_game(record, replace(settings, seed=1))
    seconds = time.monotonic() - started
    second = review_game(record, replace(settings, seed=2))
    disagreements = [
        {
            "index": a.index,
            "marks": [a.mark, b.mark],
            "losses": [round(a.loss, 1), round(b.loss, 1)],
        }
        for a, b in zip(first.decisions, second.decisions, strict=True)
        if a.mark != b.mark
    ]
    marked = {d.index: d for d in first.decisions if d.mark}
    for d in second.decisions:
        if d.mark and d.index not in marked:
            marked[d.index] = d
    game_checks = [check_marked(record, d, settings, scale) for _, d in sorted(marked.items())]
    game = {
        "game": path.name,
        "players": record.players,
        "decisions": len(first.decisions),
        "review_seconds": round(seconds, 1),
        "marks_seed1": sum(1 for d in first.decisions if d.mark),
        "marks_seed2": sum(1 for d in second.decisions if d.mark),
        "same_mark": len(first.decisions) - len(disagreements),
        "marked_checked": len(game_checks),
        "disagreements": disagreements,
    }
    return game, game_checks


def main(argv: list[str] | None = None) -> None:
    """Run the checks and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--iterations-per-move", type=int, default=None)
    parser.add_argument("--scale", type=int, default=20)
    parser.add_argument("--games", nargs="*", default=None, help="bundled game file names")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument(
        "--candidates",
        type=int,
        default=None,
        help="rivals of the move played (default: the review's)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    games = [p for p in bundled_files("games") if args.games is None or p.name in args.games]
    settings = ReviewSettings(workers=args.workers, iterations_per_move=args.iterations_per_move)
    if args.candidates is not None:
        try:
            settings = replace(settings, candidates=args.candidates)
        except ManhattanError as error:
            parser.error(str(error))
    result = measure(games, settings, args.scale, args.limit)
    if args.json:
        print(json.dumps(result))
        return
    for game in result["games"]:
        print(
            f"{game['game']}: {game['decisions']} decisions in {game['review_seconds']} s, "
            f"marks {game['marks_seed1']}/{game['marks_seed2']}, same mark {game['same_mark']}"
        )
    print(
        f"same mark {result['same_mark_share']:.1%} (target 90%); within 5 points of the "
        f"{args.scale}x review {result['within_5_share']:.1%} of {result['marked']} marked "
        f"(target 80%); false better moves {result['false_better']} (target 0)"
    )


if __name__ == "__main__":
    main()
