"""Playing strength: 4-player matches with seats rotated, win rates with 95% intervals.

Matchups (issue 3): ``mcts:1s`` against ``greedy``×3 (target win rate ≥ 75%, seat
baseline 25%), against ``heuristic``×3 (≥ 50%), and against ``mcts:0.1s``×3 (≥ 40%).
Each matchup plays ``--games`` games (default 100), ``--workers`` at a time (one core
each: the search bots run single-threaded).  Prints one JSON object with ``--json``.

Usage: ``python benchmarks/strength.py [--games N] [--budget 1s] [--workers K]
[--only NAME] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from analyzer.match import run_match

TARGETS = {"vs_greedy": 0.75, "vs_heuristic": 0.50, "vs_mcts_tenth": 0.40}


def matchups(budget: str) -> dict[str, list[str]]:
    """The seat specs of each matchup (the tested bot first)."""
    return {
        "vs_greedy": [f"mcts:{budget}", "greedy", "greedy", "greedy"],
        "vs_heuristic": [f"mcts:{budget}", "heuristic", "heuristic", "heuristic"],
        "vs_mcts_tenth": [f"mcts:{budget}", "mcts:100ms", "mcts:100ms", "mcts:100ms"],
    }


def measure(
    name: str, specs: list[str], games: int, workers: int, seed: int, out: Path | None
) -> dict:
    """Play one matchup and return the tested bot's figures (records saved under ``out``)."""
    started = time.perf_counter()
    folder = None if out is None else out / name
    result = run_match(specs, 4, games, workers, seed, folder, force=True)
    tested = result.to_json()["bots"][0]
    return {
        "matchup": name,
        "bots": specs,
        "games": games,
        "win_rate": tested["win_rate"],
        "ci95": tested["ci95"],
        "mean_score": tested["mean_score"],
        "target": TARGETS[name],
        "meets_target": tested["win_rate"] >= TARGETS[name],
        "seconds": round(time.perf_counter() - started, 1),
    }


def main(argv: list[str] | None = None) -> None:
    """Run the matchups and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--budget", default="1s", help="the tested bot's budget per move")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", choices=sorted(TARGETS), action="append")
    parser.add_argument("--out", type=Path, help="save every game record under this folder")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    results = [
        measure(name, specs, args.games, args.workers, args.seed, args.out)
        for name, specs in matchups(args.budget).items()
        if not args.only or name in args.only
    ]
    if args.json:
        print(json.dumps({"matchups": results}))
        return
    for r in results:
        low, high = r["ci95"]
        print(
            f"{r['matchup']:>14}: win {r['win_rate']:.1%} [{low:.1%}, {high:.1%}] over "
            f"{r['games']} games (target {r['target']:.0%}), mean score {r['mean_score']}"
        )


if __name__ == "__main__":
    main()
