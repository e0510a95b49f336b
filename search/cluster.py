"""Searchers on a Dask distributed cluster, stoppable from here.

Each job is submitted as a future; the caller waits in short steps, and when a stop is
requested (Ctrl-C) it sets a cluster-wide ``distributed.Event`` that every job polls
through ``search.stopping`` (at most every ``EVENT_POLL`` seconds, to spare the
scheduler), so the jobs end within a second or so with what they have.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any, TypeVar

from search import stopping

T = TypeVar("T")
EVENT_POLL = 0.25  # seconds between a remote job's looks at the stop event
WAIT_STEP = 0.2  # seconds between the caller's looks at its own stop request


def _watched(function: Callable[..., T], args: tuple, event_name: str) -> T:
    """Run ``function(*args)`` on a worker, with the cluster's stop event watched."""
    from distributed import Event

    event = Event(event_name)
    last = [0.0, False]

    def stop_set() -> bool:
        now = time.monotonic()
        if not last[1] and now - last[0] >= EVENT_POLL:
            last[0] = now
            last[1] = event.is_set()
        return bool(last[1])

    with stopping.watching(stop_set):
        return function(*args)


def run_on_cluster(jobs: list[tuple[Callable[..., T], tuple]], scheduler: str) -> list[T]:
    """Run ``jobs`` side by side on the cluster at ``scheduler``; returns their results in
    order.  A stop request here stops them early (their results are still returned)."""
    from distributed import Client, Event, wait

    event_name = f"manhattan-stop-{uuid.uuid4().hex}"
    with Client(scheduler) as client:
        futures = [
            client.submit(_watched, function, args, event_name, pure=False)
            for function, args in jobs
        ]
        told = False
        while True:
            try:
                wait(futures, timeout=WAIT_STEP)
                break
            except TimeoutError:
                pass
            if stopping.requested() and not told:
                Event(event_name, client=client).set()
                told = True
        results: list[Any] = client.gather(futures)
    return results
