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
``--candidates K`` compares the move played with the search's K most visited moves;
``--compare-exploration C`` sets UCB's constant in the review's comparison trees.

A run's JSON keeps what both reviews found for every decision and what the 20× checks
found, so ``--rescore RUN.json`` gives the figures of the same run with its decisions
marked by another rule (``--confidence-z``, ``--thresholds``, ``--decided``) without
searching again.  Only a rule at least as strict as the run's can be read that way (the
run checked only the decisions its own rule marked); under the run's own rule the figures
come back unchanged.

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
from analyzer.review import (
    DecisionReview,
    ReviewSettings,
    _position_for,
    is_established,
    mark_for,
    review_decision,
    review_game,
)
from positions.bundled import bundled_files
from positions.errors import ManhattanError
from positions.moves import parse_move
from positions.record import GameRecord, load_record
from search.compare import compare_decisions

SEVERE = ("?", "??")
TARGETS = {"same_mark_share": 0.90, "within_5_share": 0.80, "false_better": 0}


def trimmed(record: GameRecord, limit: int | None) -> GameRecord:
    """``record`` cut to its first ``limit`` decisions (its Result dropped then)."""
    if limit is None or limit >= len(record.moves):
        return record
    tags = {k: v for k, v in record.tags.items() if k != "Result"}
    return GameRecord(record.players, tags, record.moves[:limit])


def check_marked(
    record: GameRecord,
    reviews: tuple[DecisionReview, DecisionReview],
    settings: ReviewSettings,
    scale: int,
) -> dict:
    """The 20× review of one decision that either review marked: its loss, and the paired
    rating against the move played of each better move a ``?``/``??`` offered (win-%
    points, better minus played).  That rating is made with the search's own exploration,
    whatever the review's comparison uses, so the referee stays the same whatever it judges.
    ``judged_check`` reads it for the reviews' marks."""
    index = reviews[0].index
    big = replace(
        settings,
        seconds_per_move=settings.seconds_per_move * scale,
        iterations_per_move=(
            None if settings.iterations_per_move is None else settings.iterations_per_move * scale
        ),
        seed=settings.seed + 1000,
    )
    state = record.states()[index]
    recorded = record.moves[index]
    judged, _ = review_decision(state, recorded, index, big)
    row = {
        "index": index,
        "players": record.players,
        "loss_20x": judged.loss,
        "better_minus_played_20x": {},
    }
    offered = {d.better for d in reviews if d.mark in SEVERE and d.better}
    view = _position_for(state, recorded)
    played = view.move_to_actions(recorded.move)
    for better in sorted(offered):
        comparison = compare_decisions(
            view,
            [view.move_to_actions(parse_move(better)), played],
            big.limit(1.0),
            make_evaluator(settings.epsilon),
            big.seed,
            settings.parallelism(),
            settings.config,
        )
        row["better_minus_played_20x"][better] = 100 * comparison.values[1].win_gap
    return row


def measure(
    games: list[Path],
    settings: ReviewSettings,
    scale: int,
    limit: int | None,
    seeds: tuple[int, int] = (1, 2),
) -> dict:
    """Review each game twice (with ``seeds``), check the marked decisions at ``scale``×
    the budget (``scale`` 0: no checks, stability only).  A line per game goes to stderr;
    Ctrl-C ends the run with the figures of the games finished (``"interrupted": true``)."""
    per_game, checks = [], []
    interrupted = False
    for path in games:
        try:
            game, game_checks = measure_game(path, settings, scale, limit, seeds)
        except KeyboardInterrupt:
            interrupted = True
            break
        per_game.append(game)
        checks.extend(game_checks)
        print(f"{path.name}: reviewed twice, {len(game_checks)} marked checked", file=sys.stderr)
    run = {
        "settings": {
            "seconds_per_move": settings.seconds_per_move,
            "iterations_per_move": settings.iterations_per_move,
            "workers": settings.workers,
            "candidates": settings.candidates,
            "compare_exploration": settings.compare_exploration,
            "scale": scale,
            "seeds": list(seeds),
            **mark_rule(settings),
        },
        "interrupted": interrupted,
        "games": per_game,
        "checks": checks,
    }
    return {**run, **summarize(run, settings)}


def measure_game(
    path: Path, settings: ReviewSettings, scale: int, limit: int | None, seeds: tuple[int, int]
) -> tuple[dict, list[dict]]:
    """One game's two reviews (every decision's figures, as ``raw_decision``) and the 20×
    checks of the decisions either review marked."""
    record = trimmed(load_record(path), limit)
    started = time.monotonic()
    first = review_game(record, replace(settings, seed=seeds[0]))
    seconds = time.monotonic() - started
    second = review_game(record, replace(settings, seed=seeds[1]))
    pairs = zip(first.decisions, second.decisions, strict=True)
    game_checks = [
        {"game": path.name, **check_marked(record, pair, settings, scale)}
        for pair in pairs
        if scale > 0 and (pair[0].mark or pair[1].mark)
    ]
    game = {
        "game": path.name,
        "players": record.players,
        "review_seconds": round(seconds, 1),
        "reviews": [
            [raw_decision(d) for d in first.decisions],
            [raw_decision(d) for d in second.decisions],
        ],
    }
    return game, game_checks


def raw_decision(decision: DecisionReview) -> dict:
    """What a review found for one decision, enough to mark it again by a stricter rule."""
    return {
        "index": decision.index,
        "mark": decision.mark,
        "best": decision.best,
        "better": decision.better,
        "loss": decision.loss,
        "loss_se": decision.loss_se,
        "points_loss": decision.points_loss,
        "points_loss_se": decision.points_loss_se,
        "win_before": decision.win_before,
        "win_after": decision.win_after,
        "compared": decision.compared,
    }


def mark_rule(settings: ReviewSettings) -> dict:
    """The settings that decide a mark from a decision's figures."""
    return {
        "confidence_z": settings.confidence_z,
        "thresholds": list(settings.thresholds),
        "decided": settings.decided,
    }


def remark(raw: dict, settings: ReviewSettings) -> str | None:
    """The mark ``settings`` give a decision a review found ``raw`` (``raw_decision``):
    the review's own rule, so a run's marks come out unchanged under its own settings (a
    better move offered means it was well visited)."""
    if not is_established(raw["loss"], raw["loss_se"], raw["better"] is not None, settings):
        return None
    return mark_for(raw["loss"], raw["loss_se"], raw["win_before"], raw["win_after"], settings)


def summarize(run: dict, settings: ReviewSettings) -> dict:
    """The three figures of a run's reviews and checks, every decision marked by
    ``settings``' rule (``remark``), with each game's agreements and disagreements."""
    checks_by_decision = {(c["game"], c["index"]): c for c in run["checks"]}
    checked = run["settings"]["scale"] > 0
    games, checks = [], []
    marked = 0
    for game in run["games"]:
        first, second = game["reviews"]
        marks = [[remark(raw, settings) for raw in review] for review in (first, second)]
        disagreements = []
        for a, b, m, n in zip(first, second, *marks, strict=True):
            if m != n:
                losses = [round(a["loss"], 1), round(b["loss"], 1)]
                disagreements.append({"index": a["index"], "marks": [m, n], "losses": losses})
            if m or n:
                marked += 1
                if checked:
                    check = checks_by_decision[game["game"], a["index"]]
                    checks.append(judged_check(check, [(a, m), (b, n)]))
        games.append(
            {
                **game,
                "decisions": len(first),
                "marks_seed1": sum(1 for m in marks[0] if m),
                "marks_seed2": sum(1 for m in marks[1] if m),
                "same_mark": len(first) - len(disagreements),
                "disagreements": disagreements,
            }
        )
    total = sum(g["decisions"] for g in games)
    same_share = sum(g["same_mark"] for g in games) / total if total else 1.0
    within_share = sum(c["within_5"] for c in checks) / len(checks) if checks else 1.0
    false_better = sum(1 for c in checks if c["better_below_played"])
    meets = (
        same_share >= TARGETS["same_mark_share"]
        and within_share >= TARGETS["within_5_share"]
        and false_better == TARGETS["false_better"]
    )
    return {
        "games": games,
        "decisions": total,
        "same_mark_share": round(same_share, 4),
        "marked": marked,
        "within_5_share": round(within_share, 4) if checked else None,
        "false_better": false_better if checked else None,
        "checks": checks,
        "targets": TARGETS,
        "meets_targets": meets if checked else None,
    }


def judged_check(check: dict, reviews: list[tuple[dict, str | None]]) -> dict:
    """A 20× check read for the two reviews of its decision (each: what it found, the
    mark it gets): the loss of the first that marked it, within 5 points of the 20× loss
    or not, and whether a better move either offered with ``?``/``??`` is rated below the
    move played (a false better move, whichever review offered it)."""
    judged, mark = next((raw, mark) for raw, mark in reviews if mark)
    gaps = check["better_minus_played_20x"]
    offered = [raw["better"] for raw, m in reviews if m in SEVERE and raw["better"]]
    return {
        **check,
        "mark": mark,
        "loss": round(judged["loss"], 2),
        "within_5": abs(check["loss_20x"] - judged["loss"]) <= 5.0,
        "better": judged["better"],
        "better_below_played": any(gaps[b] < 0 for b in offered) if offered else None,
    }


def rescore(path: Path, settings: ReviewSettings) -> dict:
    """The figures of a saved ``--json`` run with its decisions marked by ``settings``'
    rule instead of the run's.  Only a rule at least as strict as the run's can be read
    from it (the run checked only the decisions its own rule marked): raises ``ValueError``
    otherwise, or for a file that is not such a run."""
    try:
        run = json.loads(path.read_text())
        rule = run["settings"]
        strict_enough = (
            settings.confidence_z >= rule["confidence_z"]
            and settings.decided >= rule["decided"]
            and all(a >= b for a, b in zip(settings.thresholds, rule["thresholds"], strict=True))
        )
        if strict_enough:
            figures = summarize(run, settings)
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ValueError(f"{path}: not a review_quality.py --json run ({error})") from None
    if not strict_enough:
        used = (
            f"z {rule['confidence_z']}, thresholds {rule['thresholds']}, decided {rule['decided']}"
        )
        raise ValueError(f"{path}: the run's rule ({used}) is stricter; rescore only stricter")
    return {**run, "settings": {**rule, **mark_rule(settings)}, **figures}


def main(argv: list[str] | None = None) -> None:
    """Run the checks and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--iterations-per-move", type=int, default=None)
    parser.add_argument("--scale", type=int, default=20, help="0: no 20x checks")
    parser.add_argument("--seeds", type=int, nargs=2, default=(1, 2))
    parser.add_argument("--games", nargs="*", default=None, help="bundled game file names")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument(
        "--candidates",
        type=int,
        default=None,
        help="rivals of the move played (default: the review's)",
    )
    parser.add_argument(
        "--compare-exploration",
        type=float,
        default=ReviewSettings.compare_exploration,
        help="UCB's constant in the comparison trees (default: the review's)",
    )
    parser.add_argument("--rescore", type=Path, default=None, help="a saved --json run")
    parser.add_argument("--confidence-z", type=float, default=ReviewSettings.confidence_z)
    parser.add_argument("--thresholds", type=float, nargs=3, default=ReviewSettings.thresholds)
    parser.add_argument("--decided", type=float, default=ReviewSettings.decided)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    games = [p for p in bundled_files("games") if args.games is None or p.name in args.games]
    try:
        settings = ReviewSettings(
            workers=args.workers,
            iterations_per_move=args.iterations_per_move,
            confidence_z=args.confidence_z,
            thresholds=tuple(args.thresholds),
            decided=args.decided,
            compare_exploration=args.compare_exploration,
        )
        if args.candidates is not None:
            settings = replace(settings, candidates=args.candidates)
        if args.rescore is not None:
            result = rescore(args.rescore, settings)
    except (ManhattanError, ValueError) as error:
        parser.error(str(error))
    if args.rescore is None:
        result = measure(games, settings, args.scale, args.limit, tuple(args.seeds))
    if args.json:
        print(json.dumps(result))
        return
    for game in result["games"]:
        print(
            f"{game['game']}: {game['decisions']} decisions in {game['review_seconds']} s, "
            f"marks {game['marks_seed1']}/{game['marks_seed2']}, same mark {game['same_mark']}"
        )
    print(f"same mark {result['same_mark_share']:.1%} (target 90%), {result['marked']} marked")
    if result["within_5_share"] is not None:
        scale = result["settings"]["scale"]
        print(
            f"within 5 points of the {scale}x review {result['within_5_share']:.1%} "
            f"(target 80%); false better moves {result['false_better']} (target 0)"
        )


if __name__ == "__main__":
    main()
