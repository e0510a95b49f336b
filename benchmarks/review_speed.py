"""Review figures of issue 4: time to review a 4-player game, and where marks land.

* ``review_seconds`` — ``review_game`` of the bundled 4p game between heuristic and greedy
  bots at 0.5 s per decision on 2 workers.  Target: about a minute on 2 cores.
* ``marks`` — the distribution of ``?!``/``?``/``??`` per bot kind over reviewed bot games
  (a random bot should collect many, the heuristic few; a 4p seat's baseline is 25%).

Usage: ``python benchmarks/review_speed.py [--seconds-per-move S] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter

from analyzer.engine import default_workers
from analyzer.players import make_bot
from analyzer.review import ReviewSettings, review_game
from positions.bundled import data_dir
from positions.record import load_record
from positions.selfplay import play_game


def review_time(seconds_per_move: float) -> dict:
    """Review the bundled heuristic-vs-greedy 4p game; time and per-player figures."""
    record = load_record(data_dir("games") / "heuristic_vs_greedy_4p.mgn")
    settings = ReviewSettings(seconds_per_move=seconds_per_move, workers=default_workers())
    started = time.perf_counter()
    review = review_game(record, settings)
    return {
        "decisions": len(review.decisions),
        "seconds": round(time.perf_counter() - started, 1),
        "players": [
            {
                "name": p.name,
                "accuracy": round(p.accuracy, 1),
                "?!": p.inaccuracies,
                "?": p.mistakes,
                "??": p.blunders,
            }
            for p in review.players
        ],
    }


def mark_distribution(seconds_per_move: float, seed: int = 77) -> dict:
    """Marks per bot kind in a 4p game of random, greedy, heuristic and mcts bots."""
    specs = ["random", "greedy", "heuristic", "mcts:1s"]
    record = play_game([make_bot(s) for s in specs], 4, seed, names=specs).record
    settings = ReviewSettings(seconds_per_move=seconds_per_move, workers=default_workers())
    review = review_game(record, settings)
    marks: dict[str, Counter] = {spec: Counter() for spec in specs}
    for decision in review.decisions:
        marks[specs[decision.player - 1]][decision.mark or "none"] += 1
    return {
        spec: {
            "decisions": sum(c.values()),
            **{m: c[m] for m in ("?!", "?", "??")},
            "accuracy": round(review.players[i].accuracy, 1),
        }
        for i, (spec, c) in enumerate(marks.items())
    }


def main(argv: list[str] | None = None) -> None:
    """Measure and print (one JSON object with ``--json``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds-per-move", type=float, default=0.5)
    parser.add_argument("--skip-marks", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    results = {"review": review_time(args.seconds_per_move)}
    if not args.skip_marks:
        results["marks"] = mark_distribution(args.seconds_per_move)
    print(json.dumps(results, indent=None if args.json else 2))


if __name__ == "__main__":
    main()
