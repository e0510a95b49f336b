"""Playout speed: how many games the compiled kernel plays per second on one core.

Figures (each its own function, so more can join ``FIGURES``):

* ``playouts_per_s`` — full uniformly random (ε = 1) 4-player games from the start
  (``GameState.new_game(4, rng)``), compile time excluded.  Target ≥ 10,000/s.
* ``greedy_playouts_per_s`` — the same with the evaluator's default ε-greedy policy.
* ``evaluate_calls_per_s`` — ``PlayoutEvaluator().evaluate`` calls from the 4-player start,
  including the ``GameState`` → arrays conversion.
* ``iterations_per_s`` — ISMCTS iterations per second on one core from the 4-player start
  (P1's view), with the default evaluator.  Target ≥ 5,000/s.
* ``random_rollout_iterations_per_s`` — the same with uniformly random playouts (ε = 1).
* ``heuristic_playouts_per_s`` / ``heuristic_iterations_per_s`` — the playouts and the
  search iterations with the heuristic placement policy (``placement="heuristic"``, the
  default ``"bag"`` selection, ε = 0.1), beside the greedy ones.
* ``imitation_playouts_per_s`` / ``imitation_placement_iterations_per_s`` — the playouts
  with the imitation placement policy (``placement="imitation"``, ``positions.imitation``)
  and the default search with them over the placement decisions below.
* ``placement_iterations_per_s`` / ``classic_placement_iterations_per_s`` — iterations
  per second of the default search (halving over a depth-one tree, greedy playouts) and
  of v0.1's (``CLASSIC``, ε = 0.1), on one core, over the same 12 placement decisions of
  4-player games between heuristic bots (rounds 1-3): the placements are most of a game's
  decisions, and halving plays a placement's worlds in one kernel call.
* ``styles_placement_iterations_per_s`` — the default search over the same decisions with
  the three opponents modelled by the heuristic placement policy: what reading styles
  (``positions.styles``) costs per iteration against the heuristic bots.

Usage: ``python benchmarks/playouts.py [--seconds S] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable

import numpy as np

from positions import GameState
from positions.playout import PlayoutEvaluator, run_playout, to_arrays

STARTS = 256  # distinct dealt 4-player starts the timed loops cycle through


def _starts(seed: int = 0) -> list[GameState]:
    rng = np.random.default_rng(seed)
    return [GameState.new_game(4, rng) for _ in range(STARTS)]


def _rate(step: Callable[[int], None], seconds: float) -> float:
    """Calls of ``step(i)`` per second over about ``seconds`` (after one warm-up call)."""
    step(0)  # compiles (or loads the cache)
    calls = 0
    batch = 64
    start = time.perf_counter()
    while True:
        for _ in range(batch):
            step(calls)
            calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return calls / elapsed


HEURISTIC = {"placement": "heuristic"}
IMITATION = {"placement": "imitation"}


def _kernel_rate(epsilon: float, seconds: float, policy: dict | None = None) -> float:
    arrays = [to_arrays(state) for state in _starts()]
    policy = policy or {}

    def step(i: int) -> None:
        run_playout(arrays[i % STARTS], i, epsilon, **policy)

    return _rate(step, seconds)


def playouts_per_s(seconds: float = 2.0) -> float:
    """Uniformly random (ε = 1) full 4-player playouts per second from the start."""
    return _kernel_rate(1.0, seconds)


def greedy_playouts_per_s(seconds: float = 2.0) -> float:
    """Full 4-player playouts per second with the default ε-greedy policy."""
    return _kernel_rate(PlayoutEvaluator().epsilon, seconds)


def heuristic_playouts_per_s(seconds: float = 2.0) -> float:
    """Full 4-player playouts per second with the ε-greedy heuristic policy."""
    return _kernel_rate(PlayoutEvaluator().epsilon, seconds, HEURISTIC)


def imitation_playouts_per_s(seconds: float = 2.0) -> float:
    """Full 4-player playouts per second with the ε-greedy imitation policy."""
    return _kernel_rate(PlayoutEvaluator().epsilon, seconds, IMITATION)


def evaluate_calls_per_s(seconds: float = 2.0) -> float:
    """``PlayoutEvaluator().evaluate`` calls per second from 4-player starts, including
    the conversion of the ``GameState`` into the kernel's arrays."""
    states = _starts()
    evaluator = PlayoutEvaluator()
    rng = np.random.default_rng(1)

    def step(i: int) -> None:
        evaluator.evaluate(states[i % STARTS], rng)

    return _rate(step, seconds)


def _iterations_rate(epsilon: float, seconds: float, policy: dict | None = None) -> float:
    from search.limits import Limit
    from search.parallel import run_search

    view = GameState.new_game(4, np.random.default_rng(2)).view(0)
    evaluator = PlayoutEvaluator(epsilon=epsilon, **(policy or {}))
    run_search(view, Limit(iterations=50), evaluator, seed=0)  # warm-up
    result = run_search(view, Limit(seconds=seconds), evaluator, seed=1)
    return result.iterations / result.seconds


def iterations_per_s(seconds: float = 2.0) -> float:
    """Search iterations per second on one core from the 4-player start, default evaluator."""
    return _iterations_rate(PlayoutEvaluator().epsilon, seconds)


def random_rollout_iterations_per_s(seconds: float = 2.0) -> float:
    """Search iterations per second from the 4-player start with random playouts."""
    return _iterations_rate(1.0, seconds)


def heuristic_iterations_per_s(seconds: float = 2.0) -> float:
    """Search iterations per second from the 4-player start with heuristic playouts."""
    return _iterations_rate(PlayoutEvaluator().epsilon, seconds, HEURISTIC)


def _placement_rate(kind: str, seconds: float) -> float:
    """Iterations per second over 12 placement decisions of the search ``kind``:
    ``"default"``, ``"classic"`` (v0.1's), ``"imitation"`` (the default search with
    imitation playouts) or ``"styles"`` (the default search with every opponent modelled
    by the heuristic, as reading styles does against heuristic bots)."""
    from analysis import game_positions

    from search.ismcts import CLASSIC, SearchConfig
    from search.limits import Limit
    from search.parallel import run_search

    config = CLASSIC if kind == "classic" else SearchConfig()
    evaluator = PlayoutEvaluator(**(IMITATION if kind == "imitation" else {}))
    if kind == "classic":
        evaluator = PlayoutEvaluator(epsilon=0.1)
    views = game_positions(12, seed=500, rounds=(1, 2, 3))
    run_search(views[0], Limit(iterations=50), evaluator, seed=0, config=config)  # warm-up
    iterations = elapsed = 0.0
    for index, view in enumerate(views):
        searched = evaluator
        if kind == "styles":
            mover = view.current_player()
            searched = evaluator.with_policies(
                tuple("greedy" if p == mover else "heuristic" for p in range(view.layout.players))
            )
        result = run_search(
            view, Limit(seconds=seconds / len(views)), searched, index, config=config
        )
        iterations += result.iterations
        elapsed += result.seconds
    return iterations / elapsed


def placement_iterations_per_s(seconds: float = 2.0) -> float:
    """Iterations per second of the default search over 12 placement decisions."""
    return _placement_rate("default", seconds)


def classic_placement_iterations_per_s(seconds: float = 2.0) -> float:
    """Iterations per second of v0.1's search (``CLASSIC``) over the same decisions."""
    return _placement_rate("classic", seconds)


def imitation_placement_iterations_per_s(seconds: float = 2.0) -> float:
    """Iterations per second of the default search with imitation playouts over the same
    decisions."""
    return _placement_rate("imitation", seconds)


def styles_placement_iterations_per_s(seconds: float = 2.0) -> float:
    """Iterations per second of the default search over the same decisions with the
    three opponents modelled by the heuristic (reading styles against heuristic bots)."""
    return _placement_rate("styles", seconds)


FIGURES: dict[str, Callable[[float], float]] = {
    "playouts_per_s": playouts_per_s,
    "greedy_playouts_per_s": greedy_playouts_per_s,
    "evaluate_calls_per_s": evaluate_calls_per_s,
    "iterations_per_s": iterations_per_s,
    "random_rollout_iterations_per_s": random_rollout_iterations_per_s,
    "heuristic_playouts_per_s": heuristic_playouts_per_s,
    "heuristic_iterations_per_s": heuristic_iterations_per_s,
    "imitation_playouts_per_s": imitation_playouts_per_s,
    "placement_iterations_per_s": placement_iterations_per_s,
    "classic_placement_iterations_per_s": classic_placement_iterations_per_s,
    "imitation_placement_iterations_per_s": imitation_placement_iterations_per_s,
    "styles_placement_iterations_per_s": styles_placement_iterations_per_s,
}


def main(argv: list[str] | None = None) -> None:
    """Measure every figure and print them (one JSON object with ``--json``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per figure")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    results = {name: round(figure(args.seconds), 1) for name, figure in FIGURES.items()}
    if args.json:
        print(json.dumps(results))
    else:
        for name, value in results.items():
            print(f"{name:>24}: {value:>12,.1f}")


if __name__ == "__main__":
    main()
