"""Warm helpers and time budgets: a wall-time budget is kept with two workers, helpers are
reused across searches, stop when asked, and die with their parent."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from positions import GameState
from positions.playout import PlayoutEvaluator
from search import stopping
from search.limits import Limit
from search.parallel import Parallelism, run_search
from search.pool import helper_pool

TWO = Parallelism(workers=2)


def start_state() -> GameState:
    return GameState.new_game(4, np.random.default_rng(3)).view(0)


def test_a_time_budget_is_the_wall_time_of_the_whole_search_with_two_workers():
    evaluator = PlayoutEvaluator()
    run_search(start_state(), Limit(iterations=50), evaluator, parallelism=TWO)  # warm
    started = time.monotonic()
    result = run_search(start_state(), Limit(seconds=0.5), evaluator, seed=1, parallelism=TWO)
    wall = time.monotonic() - started
    assert result.seconds >= 0.5 and wall < 2.0, (result.seconds, wall)
    # the helper searched within the same budget: its tree is part of the result
    assert len(result.searcher_iterations) == 2
    assert all(part > 0 for part in result.searcher_iterations)


def test_helpers_stay_warm_between_searches():
    pool = helper_pool(1)
    first = [h.process.pid for h in pool._helpers]
    run_search(start_state(), Limit(iterations=100), PlayoutEvaluator(), parallelism=TWO)
    again = helper_pool(1)
    assert again is pool
    assert [h.process.pid for h in again._helpers][: len(first)] == first


def test_an_iteration_budget_with_two_workers_is_repeatable():
    evaluator = PlayoutEvaluator()
    a = run_search(start_state(), Limit(iterations=300), evaluator, seed=4, parallelism=TWO)
    b = run_search(start_state(), Limit(iterations=300), evaluator, seed=4, parallelism=TWO)
    assert a.candidates == b.candidates and a.iterations == 300


def test_a_stop_request_ends_the_searchers_at_once():
    evaluator = PlayoutEvaluator()
    run_search(start_state(), Limit(iterations=50), evaluator, parallelism=TWO)  # warm
    stopping.reset()
    with stopping.watching(lambda: time.monotonic() > started + 0.3):
        started = time.monotonic()
        result = run_search(start_state(), Limit(seconds=30), evaluator, parallelism=TWO)
    assert result.interrupted
    assert time.monotonic() - started < 3
    stopping.reset()


ORPHAN_SCRIPT = textwrap.dedent(
    """
    import sys, time
    import numpy as np
    from positions import GameState
    from positions.playout import PlayoutEvaluator
    from search.limits import Limit
    from search.parallel import Parallelism, run_search
    from search.pool import helper_pool
    state = GameState.new_game(4, np.random.default_rng(1)).view(0)
    pool = helper_pool(1)
    print(" ".join(str(h.process.pid) for h in pool._helpers), flush=True)
    run_search(state, Limit(seconds=600), PlayoutEvaluator(), parallelism=Parallelism(2))
    """
)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead for our purpose
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="checks /proc")
@pytest.mark.parametrize("kill", [signal.SIGKILL, signal.SIGTERM])
def test_helpers_do_not_outlive_a_killed_parent(kill):
    parent = subprocess.Popen(
        [sys.executable, "-c", ORPHAN_SCRIPT], stdout=subprocess.PIPE, text=True
    )
    assert parent.stdout is not None
    helpers = [int(pid) for pid in parent.stdout.readline().split()]
    assert helpers and all(_alive(pid) for pid in helpers)
    time.sleep(1.0)  # searching now
    parent.send_signal(kill)
    parent.wait(timeout=10)
    deadline = time.monotonic() + 5
    while any(_alive(pid) for pid in helpers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in helpers)


def test_what_a_process_has_loaded_is_frozen_once_so_no_later_garbage_is_kept(monkeypatch):
    from search import parallel

    frozen, prepared = [], []

    class Evaluator:
        def prepare(self):
            prepared.append(True)

    monkeypatch.setattr(parallel, "_FROZEN", False)
    monkeypatch.setattr(parallel.gc, "freeze", lambda: frozen.append(True))
    parallel.prepare_evaluator(Evaluator())
    parallel.prepare_evaluator(Evaluator())
    assert prepared == [True, True]
    assert frozen == [True]


def test_a_helper_ended_by_the_signal_that_stops_the_run_is_a_stop_not_an_error():
    """``kill -- -PGID`` reaches the helpers too: one that died while a stop was requested
    is dropped; one that died without a stop request is an error."""
    import threading

    from search.pool import HelperError, close_helper_pool

    pool = helper_pool(2)
    victim = pool._helpers[0].process

    def stop_and_kill() -> None:
        stopping.request()
        victim.kill()

    timer = threading.Timer(0.5, stop_and_kill)
    timer.start()
    try:
        done = list(pool.map_unordered(time.sleep, [(3.0,), (3.0,)], 2))
    finally:
        timer.join()
        stopping.reset()
    assert len(done) == 1  # the other helper's job still answered
    pool = helper_pool(2)
    victim = pool._helpers[0].process
    timer = threading.Timer(0.5, victim.kill)
    timer.start()
    try:
        with pytest.raises(HelperError, match="a helper process ended"):
            list(pool.map_unordered(time.sleep, [(3.0,), (3.0,)], 2))
    finally:
        timer.join()
        close_helper_pool()


def test_a_helper_forked_while_a_stop_check_was_watched_does_not_inherit_it():
    """A pool made inside ``stopping.watching`` (as a ladder run's first matchup makes it)
    forks helpers holding a copy of the parent's checks; they must not keep stopping the
    helpers' later jobs once the parent has left the block."""
    from search.pool import close_helper_pool

    close_helper_pool()
    started = time.monotonic()
    try:
        with stopping.watching(lambda: time.monotonic() > started + 0.2):
            pool = helper_pool(1)
        time.sleep(0.4)
        answers = [value for _, value in pool.map_unordered(stopping.requested, [()], 1)]
    finally:
        close_helper_pool()
    assert answers == [False]
