"""Root-parallel search: independent searchers with seeds from ``SeedSequence.spawn``,
their tree summaries added together.  Through joblib, on this machine's cores or, with
``backend="dask"``, on a Dask distributed cluster.

Same seed, worker count and iteration budget give the same result; a wall-time budget
cannot promise it.  Ctrl-C during a search stops every local worker cleanly: the parent
turns SIGINT into a stop file that the workers poll, and returns what they have.
"""

from __future__ import annotations

import contextlib
import os
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from search.ismcts import SearchConfig, search_tree
from search.limits import Limit
from search.protocol import Evaluator, GameState
from search.results import SearchResult, build_result
from search.tree import TreeSummary

BACKENDS = ("loky", "dask")


@dataclass(frozen=True)
class Parallelism:
    """Where the searchers run: ``workers`` of them through joblib's ``backend`` (``loky``
    processes on this machine, or ``dask`` with a scheduler address)."""

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


def _worker(
    state: GameState,
    limit: Limit,
    seed: np.random.SeedSequence,
    evaluator: Evaluator,
    config: SearchConfig,
    stop_file: str | None,
    forced: tuple[int, ...] = (),
) -> TreeSummary:
    """One searcher (runs in a worker process or thread)."""
    if threading.current_thread() is threading.main_thread():
        # Ctrl-C reaches the whole process group; the parent decides when to stop.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    should_stop = None if stop_file is None else (lambda: os.path.exists(stop_file))
    rng = np.random.default_rng(seed)
    return search_tree(state, limit, rng, evaluator, config, should_stop, forced)


@contextlib.contextmanager
def _stop_on_interrupt(stop_file: str) -> Iterator[list[bool]]:
    """While active, Ctrl-C creates ``stop_file`` instead of raising KeyboardInterrupt."""
    interrupted = [False]
    if threading.current_thread() is not threading.main_thread():
        yield interrupted
        return

    def on_interrupt(signum, frame) -> None:
        interrupted[0] = True
        with open(stop_file, "w"):
            pass

    previous = signal.signal(signal.SIGINT, on_interrupt)
    try:
        yield interrupted
    finally:
        signal.signal(signal.SIGINT, previous)


def run_search(
    state: GameState,
    limit: Limit,
    evaluator: Evaluator,
    seed: int = 0,
    parallelism: Parallelism = Parallelism(),
    config: SearchConfig = SearchConfig(),
    progress: Callable[[float], None] | None = None,
    forced: tuple[int, ...] = (),
) -> SearchResult:
    """Search ``state`` for its player to move and return the merged result.

    The budget is split among the workers (``Limit.split``); each searcher gets its own
    seed from ``SeedSequence(seed).spawn(workers)``.  ``progress`` is called now and then
    with the elapsed seconds while local workers run.  ``forced`` restricts the root to
    one decision (see ``search_tree``).
    """
    seeds = np.random.SeedSequence(seed).spawn(parallelism.workers)
    limits = limit.split(parallelism.workers)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="manhattan-search-") as folder:
        stop_file = os.path.join(folder, "stop")
        with _stop_on_interrupt(stop_file) as interrupted:
            if parallelism.workers == 1 and parallelism.backend == "loky":
                summaries = [
                    _run_local(
                        state, limits[0], seeds[0], evaluator, config, stop_file, progress, forced
                    )
                ]
            else:
                summaries = _run_joblib(
                    state,
                    limits,
                    seeds,
                    evaluator,
                    config,
                    stop_file,
                    parallelism,
                    progress,
                    forced,
                )
    merged = TreeSummary(summaries[0].root_player)
    for summary in summaries:
        merged.merge(summary)
    return build_result(state, merged, time.perf_counter() - started, interrupted[0])


def _run_local(state, limit, seed, evaluator, config, stop_file, progress, forced) -> TreeSummary:
    """The single-worker case, in this process (no pickling, progress from a timer)."""
    started = time.perf_counter()
    last = [started]

    def should_stop() -> bool:
        now = time.perf_counter()
        if progress is not None and now - last[0] > 0.1:
            last[0] = now
            progress(now - started)
        return os.path.exists(stop_file)

    rng = np.random.default_rng(seed)
    return search_tree(state, limit, rng, evaluator, config, should_stop, forced)


def _run_joblib(
    state, limits, seeds, evaluator, config, stop_file, parallelism, progress, forced
) -> list[TreeSummary]:
    from joblib import Parallel, delayed, parallel_config

    tasks = [
        delayed(_worker)(
            state,
            limits[i],
            seeds[i],
            evaluator,
            config,
            stop_file if parallelism.backend == "loky" else None,
            forced,
        )
        for i in range(parallelism.workers)
    ]
    if parallelism.backend == "dask":
        from distributed import Client

        with Client(parallelism.scheduler), parallel_config(backend="dask"):
            return list(Parallel(n_jobs=parallelism.workers)(tasks))
    done: list[TreeSummary] = []
    finished = threading.Event()

    def report() -> None:
        started = time.perf_counter()
        while not finished.wait(0.1):
            progress(time.perf_counter() - started)

    reporter = None
    if progress is not None:
        reporter = threading.Thread(target=report, daemon=True)
        reporter.start()
    try:
        done = list(Parallel(n_jobs=parallelism.workers, backend="loky")(tasks))
    finally:
        finished.set()
        if reporter is not None:
            reporter.join()
    return done
