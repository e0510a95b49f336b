"""The one thread that acts: every game action, hint, coach feedback and analysis of the
server runs here, one at a time, in the order asked.

A ``Table`` is not thread-safe and the searches share one pool of helper processes (and
one process-wide stop check, ``search.stopping``), so nothing that searches may run side by
side; the event loop only waits for the answers (``await worker.run(fn, ...)``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


class Worker:
    """A single thread running jobs in order."""

    def __init__(self) -> None:
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="manhattan-worker")

    def submit(self, function: Callable[..., T], *args: Any) -> Future[T]:
        """Queue ``function(*args)``; the future holds its result or exception."""
        return self._executor.submit(function, *args)

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` run on the worker thread, awaited from the event loop."""
        return await asyncio.wrap_future(self.submit(function, *args))

    def close(self) -> None:
        """Drop the queued jobs; the running one ends on its own (a stop request ends a
        search within milliseconds)."""
        self._executor.shutdown(wait=False, cancel_futures=True)
