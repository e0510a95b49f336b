"""Root-parallel scaling: search iterations per second with 1 and 2 workers.

The 2-worker figure is measured after a warm-up search, so worker start-up (process
spawn, numba's cached kernels loading) is not counted: it is paid once per session, not
per search.  Target: ``speedup`` ≥ 1.7 on 2 cores.

Usage: ``python benchmarks/scaling.py [--seconds S] [--json]``.
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from positions import GameState
from positions.playout import PlayoutEvaluator
from search.limits import Limit
from search.parallel import Parallelism, run_search


def iterations_per_s(workers: int, seconds: float) -> float:
    """Iterations per second of a ``workers``-worker search from the 4-player start."""
    view = GameState.new_game(4, np.random.default_rng(2)).view(0)
    evaluator = PlayoutEvaluator()
    parallelism = Parallelism(workers=workers)
    run_search(view, Limit(seconds=0.5), evaluator, seed=0, parallelism=parallelism)
    result = run_search(view, Limit(seconds=seconds), evaluator, seed=1, parallelism=parallelism)
    return result.iterations / result.seconds


def main(argv: list[str] | None = None) -> None:
    """Measure and print the figures (one JSON object with ``--json``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="search time per figure")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    one = iterations_per_s(1, args.seconds)
    two = iterations_per_s(2, args.seconds)
    results = {
        "iterations_per_s_1_worker": round(one, 1),
        "iterations_per_s_2_workers": round(two, 1),
        "speedup": round(two / one, 2),
    }
    if args.json:
        print(json.dumps(results))
    else:
        for name, value in results.items():
            print(f"{name:>28}: {value:>10,}")


if __name__ == "__main__":
    main()
