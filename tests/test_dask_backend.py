"""The Dask backend: a real LocalCluster on loopback runs the same root-parallel search."""

from __future__ import annotations

import numpy as np
import pytest

from positions import GameState
from search.evaluators import RandomRolloutEvaluator
from search.limits import Limit
from search.parallel import Parallelism, run_search

distributed = pytest.importorskip("distributed")


def test_dask_cluster_gives_the_same_merged_result_as_local_workers():
    state = GameState.new_game(4, np.random.default_rng(6)).view(0)
    limit = Limit(iterations=120)
    local = run_search(
        state, limit, RandomRolloutEvaluator(), seed=5, parallelism=Parallelism(workers=2)
    )
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        remote = run_search(
            state,
            limit,
            RandomRolloutEvaluator(),
            seed=5,
            parallelism=Parallelism(workers=2, backend="dask", scheduler=cluster.scheduler_address),
        )
    assert remote.iterations == local.iterations == 120
    assert remote.candidates == local.candidates


def test_a_stop_request_reaches_the_searchers_on_the_cluster():
    import time

    from search import stopping

    state = GameState.new_game(4, np.random.default_rng(7)).view(0)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        parallelism = Parallelism(workers=2, backend="dask", scheduler=cluster.scheduler_address)
        stopping.reset()
        started = time.monotonic()
        with stopping.watching(lambda: time.monotonic() > started + 1.5):
            result = run_search(
                state, Limit(seconds=120), RandomRolloutEvaluator(), seed=1, parallelism=parallelism
            )
        stopping.reset()
    assert result.interrupted and result.iterations > 0
    assert time.monotonic() - started < 20
