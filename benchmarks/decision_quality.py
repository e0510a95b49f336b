"""How much a bigger budget improves the search's decisions, in minutes instead of hours.

A strength match between budgets (``strength.py``'s ``vs_mcts_tenth``) takes half an hour
per 100 games and is dominated by the luck of the deal.  This script measures the same
thing per decision: on fixed 4-player placement positions (from games between heuristic
bots) a long reference search values every move; searches with each tested budget
(iterations, so the figures do not depend on the machine's load) choose a move, and the
*loss* of a choice is the reference's win probability of its best move minus that of the
chosen one (a move the reference never tried counts as its worst).  Use it to screen
search settings before spending a strength run on them.

Prints, per budget, the mean loss (in win probability per decision) and how often the
choice is the reference's best.  ``--exploration`` and ``--margin-weight`` change the
tested searches only; the reference keeps the defaults.  ``--variant 'KEY=VALUE;...'``
sets any evaluator option or ``SearchConfig`` field of the tested searches (as
``variants.py`` reads them, e.g. ``expansion=prior;prior_weight=1``), and
``--reference-variant`` those of the reference (to measure how fast a variant converges
to its own long search).

Usage: ``python benchmarks/decision_quality.py [--positions 30] [--reference 40000]
[--budgets 600,6000] [--seeds 3] [--workers 2] [--exploration C] [--margin-weight W]
[--variant SETTINGS] [--reference-variant SETTINGS] [--references FILE] [--json]``.

``--references FILE`` keeps the reference values in a JSON file: read from it when it
holds them for the same positions, reference budget and settings, else computed and
written there (the reference is most of the run's time).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from analysis import game_positions
from joblib import Parallel, delayed
from variants import parse_variant

from positions.playout import PlayoutEvaluator
from positions.state import GameState
from search.ismcts import SearchConfig
from search.limits import Limit
from search.parallel import Parallelism, run_search

REFERENCE_SEED = 99


def settings(variant: str, config: dict | None = None) -> tuple[dict, SearchConfig]:
    """The evaluator options and search config of ``variant`` (``KEY=VALUE;...``), with
    ``config`` fields under them."""
    parsed = parse_variant(";".join(["1", variant] if variant else ["1"]))
    return parsed.evaluator, SearchConfig(**{**(config or {}), **parsed.config})


def reference_values(
    state: GameState, iterations: int, workers: int, variant: str = ""
) -> dict[str, float]:
    """Win probability of every move a long search of ``state`` (default, or
    ``variant``) tried."""
    limit = Limit(iterations=iterations)
    evaluator, config = settings(variant)
    result = run_search(
        state, limit, PlayoutEvaluator(**evaluator), REFERENCE_SEED, Parallelism(workers), config
    )
    return {candidate.move: candidate.win for candidate in result.candidates}


def chosen_move(
    state: GameState, iterations: int, seed: int, config: SearchConfig, evaluator: dict
) -> str:
    """The move a one-worker search of ``iterations`` plays in ``state``."""
    limit = Limit(iterations=iterations)
    result = run_search(state, limit, PlayoutEvaluator(**evaluator), seed, config=config)
    return result.best.move


def loss(values: dict[str, float], move: str) -> float:
    """Win probability given away by playing ``move`` instead of the reference's best."""
    return max(values.values()) - values.get(move, min(values.values()))


def _read_references(path: Path | None, key: dict) -> list[dict[str, float]] | None:
    """The reference values kept in ``path`` for ``key``, or ``None``."""
    if path is None or not path.exists():
        return None
    data = json.loads(path.read_text())
    return data["values"] if data.get("key") == key else None


def main(argv: list[str] | None = None) -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--reference", type=int, default=40_000, help="reference iterations")
    parser.add_argument("--budgets", default="600,6000", help="tested iteration budgets")
    parser.add_argument("--seeds", type=int, default=3, help="tested searches per position")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--exploration", type=float, default=SearchConfig.exploration)
    parser.add_argument("--margin-weight", type=float, default=SearchConfig.margin_weight)
    parser.add_argument("--variant", default="", help="tested settings, KEY=VALUE;...")
    parser.add_argument("--reference-variant", default="", help="the reference's settings")
    parser.add_argument("--references", type=Path, help="a file keeping the reference values")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    budgets = [int(text) for text in args.budgets.split(",")]
    evaluator, config = settings(
        args.variant, {"exploration": args.exploration, "margin_weight": args.margin_weight}
    )
    started = time.perf_counter()
    states = game_positions(args.positions, seed=500, rounds=(1, 2, 3, 4))
    key = {
        "positions": args.positions,
        "reference": args.reference,
        "reference_variant": args.reference_variant,
    }
    cached = _read_references(args.references, key)
    if cached is None:
        references = [
            reference_values(s, args.reference, args.workers, args.reference_variant)
            for s in states
        ]
        if args.references is not None:
            args.references.write_text(json.dumps({"key": key, "values": references}))
    else:
        references = cached
    rows = []
    for budget in budgets:
        jobs = [(k, seed) for k in range(len(states)) for seed in range(1, args.seeds + 1)]
        moves = Parallel(n_jobs=args.workers)(
            delayed(chosen_move)(states[k], budget, seed, config, evaluator) for k, seed in jobs
        )
        losses = [loss(references[k], move) for (k, _), move in zip(jobs, moves, strict=True)]
        best = [
            move == max(references[k], key=references[k].__getitem__)
            for (k, _), move in zip(jobs, moves, strict=True)
        ]
        rows.append(
            {
                "iterations": budget,
                "mean_loss": round(sum(losses) / len(losses), 4),
                "reference_best": round(sum(best) / len(best), 3),
            }
        )
    figures = {
        "positions": len(states),
        "reference_iterations": args.reference,
        "searches_per_budget": len(states) * args.seeds,
        "exploration": args.exploration,
        "margin_weight": args.margin_weight,
        "variant": args.variant,
        "reference_variant": args.reference_variant,
        "budgets": rows,
        "seconds": round(time.perf_counter() - started, 1),
    }
    if args.json:
        print(json.dumps(figures))
        return
    for row in rows:
        print(
            f"{row['iterations']:>7} iterations: gives away {row['mean_loss']:.2%} win "
            f"probability per decision, plays the reference's best {row['reference_best']:.0%}"
        )


if __name__ == "__main__":
    main()
