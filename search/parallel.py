"""Root-parallel search: independent searchers with seeds from ``SeedSequence.spawn``,
their tree summaries added together.

On this machine the first searcher runs in the calling process from the first moment and
the others in the warm helper processes of ``search.pool``, all ending at one shared
deadline, so ``Limit(seconds=T)`` is the wall time of the whole search whatever the worker
count.  With ``backend="dask"`` every searcher runs on a Dask distributed cluster
(``search.cluster``).

Same seed, worker count and iteration budget give the same result; a wall-time budget
cannot promise it.  A stop request (Ctrl-C or SIGTERM through ``search.stopping``) ends
every local searcher within a few milliseconds, and the result says it was interrupted.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from search import stopping
from search.ismcts import SearchConfig, TreeSearch, search_tree
from search.limits import Limit
from search.pool import helper_pool, in_helper
from search.protocol import Evaluator, GameState
from search.results import SearchResult, build_result
from search.tree import TreeSummary

BACKENDS = ("loky", "dask")
PROGRESS_EVERY = 0.1  # seconds between progress calls
T = TypeVar("T")


@dataclass(frozen=True)
class Parallelism:
    """Where the searchers run: ``workers`` of them on this machine (``backend="loky"``,
    the name kept from the joblib backend this used to be: the calling process and warm
    helper processes), or on a Dask cluster (``"dask"`` with a scheduler address)."""

    workers: int = 1
    backend: str = "loky"
    scheduler: str | None = None

    def __post_init__(self) -> None:
        if self.workers < 1:
            raise ValueError(f"workers must be at least 1, not {self.workers}")
        if self.backend not in BACKENDS:
            raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, not {self.backend!r}")
        if self.backend == "dask" and not self.scheduler:
            raise ValueError("the dask backend needs a scheduler address (--scheduler)")
        if self.backend != "dask" and self.scheduler:
            raise ValueError("--scheduler applies to the dask backend only (--backend dask)")


_FROZEN = False  # whether prepare_evaluator has frozen what this process had loaded


def prepare_evaluator(evaluator: Evaluator) -> None:
    """Let the evaluator get ready (e.g. compile its kernel) before any clock starts and
    before helpers are forked, so they inherit it.  What exists by then (modules, a
    loaded kernel) is moved out of the garbage collector's view once per process
    (``gc.freeze``): full collections during the search would scan it again and again for
    nothing (the first search of a process reached about 10 % more iterations), and forked
    helpers share it without copying.  Only once, so that no later garbage is frozen
    with it and kept for good."""
    global _FROZEN
    prepare = getattr(evaluator, "prepare", None)
    if prepare is not None:
        prepare()
    if not _FROZEN:
        gc.freeze()
        _FROZEN = True


def warm_up(evaluator: Evaluator, parallelism: Parallelism) -> None:
    """Get the evaluator and the helper processes ready now, so that the first search pays
    no start-up (the engine mode and reviews call this before their first search)."""
    prepare_evaluator(evaluator)
    if parallelism.backend != "dask" and parallelism.workers > 1 and not in_helper():
        helper_pool(parallelism.workers - 1)


def searchers(parallelism: Parallelism) -> int:
    """How many searchers ``parallelism`` really runs (one inside a helper process)."""
    if parallelism.backend != "dask" and in_helper():
        return 1
    return parallelism.workers


def _helper_search(
    state: GameState,
    limit: Limit,
    seed: np.random.SeedSequence,
    evaluator: Evaluator,
    config: SearchConfig,
    forced: tuple[int, ...],
    deadline: float | None,
) -> TreeSummary:
    """One searcher in a helper process (or a Dask worker), stopping on request."""
    rng = np.random.default_rng(seed)
    return search_tree(
        state, limit, rng, evaluator, config, stopping.requested, forced, deadline=deadline
    )


def run_search(
    state: GameState,
    limit: Limit,
    evaluator: Evaluator,
    seed: int = 0,
    parallelism: Parallelism = Parallelism(),
    config: SearchConfig = SearchConfig(),
    progress: Callable[[float], None] | None = None,
    forced: tuple[int, ...] = (),
    report: Callable[[SearchResult], None] | None = None,
    report_every: float = 1.0,
) -> SearchResult:
    """Search ``state`` for its player to move and return the merged result.

    The iterations of the budget are split among the workers (``Limit.split``); a wall
    time is shared by all.  Each searcher gets its own seed from
    ``SeedSequence(seed).spawn(workers)``.  ``progress`` is called about every 0.1 s with
    the elapsed seconds; ``report`` every ``report_every`` seconds with the result of the
    first searcher's tree so far (a partial answer; local backend only).  ``forced``
    restricts the root to one decision (see ``search.ismcts.TreeSearch``).
    """
    seeds = np.random.SeedSequence(seed).spawn(parallelism.workers)
    limits = limit.split(parallelism.workers)
    started = time.monotonic()
    if parallelism.backend == "dask":
        jobs = [
            (_helper_search, (state, limits[i], seeds[i], evaluator, config, forced, None))
            for i in range(parallelism.workers)
        ]
        summaries, interrupted = fan_out(jobs, parallelism)
    else:
        summaries, interrupted = _run_local(
            state, limit, limits, seeds, evaluator, config, forced, progress, report, report_every
        )
    merged = TreeSummary(summaries[0].root_player)
    for summary in summaries:
        merged.merge(summary)
    parts = tuple(summary.iterations for summary in summaries)
    return build_result(state, merged, time.monotonic() - started, interrupted, parts)


def _run_local(
    state: GameState,
    limit: Limit,
    limits: list[Limit],
    seeds: list[np.random.SeedSequence],
    evaluator: Evaluator,
    config: SearchConfig,
    forced: tuple[int, ...],
    progress: Callable[[float], None] | None,
    report: Callable[[SearchResult], None] | None,
    report_every: float,
) -> tuple[list[TreeSummary], bool]:
    """The calling process searches at once; helpers (if any) join as soon as they have
    the job and all stop at the same deadline.  Returns the summaries and whether a stop
    request ended the search."""
    prepare_evaluator(evaluator)
    helpers = len(limits) - 1
    if in_helper():  # a helper cannot have helpers: search the whole budget here
        limits, helpers = [limit], 0
    batch = None
    started = time.monotonic()
    deadline = None if limit.seconds is None else started + limit.seconds
    if helpers:
        pool = helper_pool(helpers)
        batch = pool.start(
            [
                (_helper_search, (state, limits[i], seeds[i], evaluator, config, forced, deadline))
                for i in range(1, helpers + 1)
            ]
        )
    search = TreeSearch(state, np.random.default_rng(seeds[0]), evaluator, config, forced)
    clock = {"progress": started, "report": started + report_every}

    def should_stop() -> bool:
        now = time.monotonic()
        if progress is not None and now - clock["progress"] >= PROGRESS_EVERY:
            clock["progress"] = now
            progress(now - started)
        if report is not None and now >= clock["report"] and search.has_whole_decision():
            clock["report"] = now + report_every
            report(build_result(state, search.summary(), now - started, False))
        return stopping.requested()

    try:
        interrupted = search.run(limits[0].iterations, deadline, should_stop)
    finally:
        if batch is not None and stopping.requested():
            batch.stop()
    summaries = [search.summary()]
    if batch is not None:
        summaries.extend(batch.wait())
    return summaries, interrupted or stopping.requested()


def fan_out(
    jobs: list[tuple[Callable[..., T], tuple]], parallelism: Parallelism
) -> tuple[list[T], bool]:
    """Run ``jobs`` (picklable functions and their arguments) side by side: on this
    machine the first in the calling process and the others in helpers, or all on the
    Dask cluster.  A job polls ``search.stopping.requested()`` to end early.  Returns the
    results in order and whether a stop was requested."""
    if parallelism.backend == "dask":
        from search.cluster import run_on_cluster

        assert parallelism.scheduler is not None
        return run_on_cluster(jobs, parallelism.scheduler), stopping.requested()
    if in_helper():  # helpers have no helpers: one after the other
        return [function(*args) for function, args in jobs], stopping.requested()
    batch = helper_pool(len(jobs) - 1).start(jobs[1:]) if len(jobs) > 1 else None
    function, args = jobs[0]
    try:
        first = function(*args)
    finally:
        if batch is not None and stopping.requested():
            batch.stop()
    results = [first] + (batch.wait() if batch is not None else [])
    return results, stopping.requested()
