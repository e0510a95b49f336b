"""Paired comparison of whole decisions on common random numbers.

To judge whether decision A is better than decision B for the player to move, both are
searched in the same dealt worlds with the same playout seeds: iteration ``i`` deals one
world the observer cannot tell from the real one, and for each decision runs one MCTS
iteration of that decision's own tree (``forced`` to it) in a copy of that world, with a
generator seeded alike.  The per-iteration outcomes then come in pairs that share the
deal, the deck order and the playouts' luck, so their difference has a much smaller
variance than two independent searches would give, and its mean has an honest standard
error (``search.stats.mean_and_standard_error``).

Root-parallel like ``search.parallel.run_search``: the iterations are split among the
workers, each with its own seeds from ``SeedSequence(seed).spawn(workers)``; a wall time
is shared.  Same seed, worker count and iteration budget give the same comparison.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from search import stopping
from search.ismcts import SearchConfig, TreeSearch, run_iteration
from search.limits import Limit
from search.parallel import Parallelism, fan_out, prepare_evaluator, searchers
from search.protocol import Evaluator, GameState
from search.stats import mean_and_standard_error

WIN, SCORE, MARGIN = range(3)


@dataclass(frozen=True)
class DecisionValue:
    """One compared decision from the observer's point of view: the means over the paired
    iterations, and the difference from the reference decision (it minus this one) with
    its standard error."""

    move: str
    win: float
    score: float
    margin: float
    win_gap: float
    win_gap_se: float
    score_gap: float
    score_gap_se: float


@dataclass(frozen=True)
class Comparison:
    """The decisions compared on the same dealt worlds: ``outcomes`` holds, per paired
    iteration and decision, the observer's win share, final total and margin.  ``values``
    measures every decision against the first (its gaps are zero); ``relative_to(k)``
    against decision ``k`` instead, from the same paired outcomes."""

    seconds: float
    interrupted: bool
    state: GameState = field(repr=False)
    decisions: tuple[tuple[int, ...], ...] = field(repr=False)
    outcomes: np.ndarray = field(repr=False)

    @property
    def iterations(self) -> int:
        """The paired iterations compared."""
        return len(self.outcomes)

    @cached_property
    def values(self) -> list[DecisionValue]:
        """The compared decisions' values, the first decision the reference."""
        return self.relative_to(0)

    def relative_to(self, reference: int) -> list[DecisionValue]:
        """The compared decisions' values with decision ``reference`` as the one the gaps
        are measured from (``reference`` minus each, paired per iteration)."""
        return _values(self.state, self.decisions, self.outcomes, reference)


def _paired_outcomes(
    state: GameState,
    decisions: tuple[tuple[int, ...], ...],
    limit: Limit,
    deadline: float | None,
    seed: np.random.SeedSequence,
    evaluator: Evaluator,
    config: SearchConfig,
) -> np.ndarray:
    """One worker's share: an array ``(iterations, decisions, 3)`` of the observer's win
    share, final total and margin over the best opponent in each paired iteration."""
    observer = state.current_player()
    worlds_rng = np.random.default_rng(seed)
    trees = [TreeSearch(state, worlds_rng, evaluator, config, forced) for forced in decisions]
    rows: list[list[tuple[float, float, float]]] = []
    while True:
        if len(rows) % 16 == 0 and rows and stopping.requested():
            break
        if limit.iterations is not None and len(rows) >= limit.iterations:
            break
        if deadline is not None and rows and time.monotonic() >= deadline:
            break
        world = state.resample_from_infostate(observer, worlds_rng)
        playout_seed = int(worlds_rng.integers(2**63))
        row = []
        for tree in trees:
            rng = np.random.Generator(np.random.PCG64(playout_seed))
            wins, totals = run_iteration(
                tree.roots[0], world.clone(), rng, evaluator, config, tree.forced
            )
            best_other = max(totals[q] for q in range(len(totals)) if q != observer)
            row.append(
                (
                    float(wins[observer]),
                    float(totals[observer]),
                    float(totals[observer] - best_other),
                )
            )
        rows.append(row)
    return np.asarray(rows, dtype=float).reshape(len(rows), len(decisions), 3)


def compare_decisions(
    state: GameState,
    decisions: Sequence[Sequence[int]],
    limit: Limit,
    evaluator: Evaluator,
    seed: int = 0,
    parallelism: Parallelism = Parallelism(),
    config: SearchConfig = SearchConfig(),
) -> Comparison:
    """Compare whole ``decisions`` (action sequences) of the player to move in ``state``
    on common dealt worlds and playout seeds within ``limit``; the first is the reference
    the others are measured against.  A stop request ends it early with what it has.
    Raises ``ValueError`` for a finished game or fewer than two decisions."""
    if state.is_terminal():
        raise ValueError("the game is over: there is nothing to compare")
    if len(decisions) < 2:
        raise ValueError("a comparison needs at least two decisions")
    if config.determinization != "ismcts":
        raise ValueError("paired comparisons deal a new world every iteration (ismcts)")
    prepare_evaluator(evaluator)
    workers = searchers(parallelism)
    seeds = np.random.SeedSequence(seed).spawn(workers)
    limits = limit.split(workers)
    started = time.monotonic()
    deadline = None if limit.seconds is None else started + limit.seconds
    forced = tuple(tuple(d) for d in decisions)
    jobs = [
        (_paired_outcomes, (state, forced, limits[i], deadline, seeds[i], evaluator, config))
        for i in range(workers)
    ]
    parts, interrupted = fan_out(jobs, parallelism)
    outcomes = np.concatenate(parts, axis=0)
    return Comparison(time.monotonic() - started, interrupted, state, forced, outcomes)


def _values(
    state: GameState,
    decisions: tuple[tuple[int, ...], ...],
    outcomes: np.ndarray,
    reference: int,
) -> list[DecisionValue]:
    values = []
    base = outcomes[:, reference, :]
    for k, actions in enumerate(decisions):
        column = outcomes[:, k, :]
        win_gap, win_se = mean_and_standard_error(list(base[:, WIN] - column[:, WIN]))
        score_gap, score_se = mean_and_standard_error(list(base[:, SCORE] - column[:, SCORE]))
        if k == reference:
            win_se = score_se = 0.0
        means = column.mean(axis=0) if len(column) else np.zeros(3)
        values.append(
            DecisionValue(
                move=state.decision_to_string(actions),
                win=float(means[WIN]),
                score=float(means[SCORE]),
                margin=float(means[MARGIN]),
                win_gap=float(win_gap),
                win_gap_se=float(win_se) if math.isfinite(win_se) else math.inf,
                score_gap=float(score_gap),
                score_gap_se=float(score_se) if math.isfinite(score_se) else math.inf,
            )
        )
    return values
