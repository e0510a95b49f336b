"""Warm helper processes for this machine's cores.

A search with several workers runs one searcher in the calling process and the others in
helper processes of this pool.  On Linux the helpers are forked from the caller once it has
loaded what they need (the compiled playout kernel), so a helper starts searching within
milliseconds instead of the ~0.7 s (several seconds on a loaded machine) a freshly spawned
interpreter needs to import numpy and numba and load the kernel; elsewhere they are
spawned.  The pool is made once per process and kept, so the decisions of a review, the
queries of the engine mode and the games of a match pay no start-up after the first.

Stopping: each job gets a ``should_stop`` check that turns true when its batch is stopped
(``Batch.stop``, also called from a signal handler through ``search.stopping``), and that
also turns true if the parent process is gone.  Helpers ignore Ctrl-C (the parent decides),
die with their parent on Linux (``PR_SET_PDEATHSIG``) and otherwise notice within half a
second that it is gone, so no helper outlives the command, however it ends.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from search import stopping

_LINUX = sys.platform.startswith("linux")
_PR_SET_PDEATHSIG = 1
IDLE_POLL = 0.5  # seconds between a waiting helper's checks that its parent is alive


class HelperError(RuntimeError):
    """A job failed in a helper process (the message holds the helper's traceback)."""


def _die_with_parent(parent_pid: int) -> None:
    """Ask Linux to end this process when its parent dies (best effort)."""
    if not _LINUX:
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != parent_pid:  # the parent died before prctl took effect
        os._exit(0)


def _serve(connection: Any, stop: Any, parent_pid: int) -> None:
    """A helper's life: run jobs sent over ``connection`` until told to leave or orphaned."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _die_with_parent(parent_pid)
    stopping.start_afresh()
    orphaned = lambda: os.getppid() != parent_pid  # noqa: E731
    while True:
        try:
            if not connection.poll(IDLE_POLL):
                if orphaned():
                    return
                continue
            message = connection.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        job_id, function, args = message

        def should_stop(job_id: int = job_id) -> bool:
            return stop.value >= job_id or orphaned()

        try:
            with stopping.watching(should_stop):
                reply: tuple[str, Any] = ("ok", function(*args))
        except BaseException:  # noqa: BLE001 - reported to the parent, which raises it
            reply = ("error", traceback.format_exc())
        try:
            connection.send((job_id, reply))
        except (OSError, ValueError):
            return


@dataclass
class _Helper:
    process: multiprocessing.process.BaseProcess
    connection: Any


class WorkerPool:
    """Helper processes that run jobs (a picklable function and its arguments) side by side.

    Inside a job, ``search.stopping.requested()`` is true once the job's batch is stopped.
    Use ``helper_pool(n)`` to get the process-wide pool rather than making one.
    """

    def __init__(self) -> None:
        method = "fork" if _LINUX else "spawn"
        self._context = multiprocessing.get_context(method)
        self._stop = self._context.RawValue("q", 0)  # jobs with an id ≤ this are stopped
        self._helpers: list[_Helper] = []
        self._next_job = 1
        self._lock = threading.Lock()

    @property
    def size(self) -> int:
        """The number of live helpers."""
        return len(self._helpers)

    def ensure(self, size: int) -> None:
        """Start helpers until there are at least ``size`` (dead ones are replaced)."""
        self._helpers = [h for h in self._helpers if h.process.is_alive()]
        while len(self._helpers) < size:
            parent_end, child_end = self._context.Pipe()
            process = self._context.Process(
                target=_serve, args=(child_end, self._stop, os.getpid()), daemon=True
            )
            process.start()
            child_end.close()
            self._helpers.append(_Helper(process, parent_end))

    def start(self, jobs: Sequence[tuple[Callable[..., Any], tuple]]) -> Batch:
        """Send ``jobs`` to the helpers, one job each (``ensure`` enough helpers first);
        returns the ``Batch`` to stop or wait for."""
        if len(jobs) > len(self._helpers):
            raise ValueError(f"{len(jobs)} jobs for {len(self._helpers)} helpers")
        with self._lock:
            first = self._next_job
            self._next_job += len(jobs)
        for offset, (function, args) in enumerate(jobs):
            self._helpers[offset].connection.send((first + offset, function, args))
        return Batch(self, first, self._helpers[: len(jobs)])

    def map_unordered(
        self, function: Callable[..., Any], arguments: Sequence[tuple], width: int
    ) -> Iterator[tuple[int, Any]]:
        """Run ``function(*args)`` for each of ``arguments`` on ``width`` helpers (``ensure``
        them first), each taking the next as soon as it is free; yields ``(index,
        result)`` as they finish.
        After a stop request no new job starts and the running ones are asked to stop;
        what they return is still yielded, and a helper that ended meanwhile (the same
        signal sent to the whole process group) is dropped.  Raises ``HelperError`` if a
        job raised or a helper ended without a stop request."""
        pending = list(enumerate(arguments))
        pending.reverse()
        busy: dict[Any, tuple[int, int]] = {}  # connection -> (job id, argument index)
        if width > len(self._helpers):
            raise ValueError(f"{width} helpers asked for, {len(self._helpers)} running")
        idle = list(self._helpers[:width])
        try:
            while pending or busy:
                while idle and pending and not stopping.requested():
                    helper = idle.pop()
                    index, args = pending.pop()
                    with self._lock:
                        job_id = self._next_job
                        self._next_job += 1
                    helper.connection.send((job_id, function, args))
                    busy[helper.connection] = (job_id, index)
                if stopping.requested():
                    pending.clear()
                    if busy:
                        self.stop_through(max(job for job, _ in busy.values()))
                if not busy:
                    break
                for connection in multiprocessing.connection.wait(list(busy), timeout=0.5):
                    job_id, index = busy.pop(connection)
                    helper = next(h for h in self._helpers if h.connection is connection)
                    try:
                        answered, (status, value) = connection.recv()
                    except (EOFError, OSError):
                        if stopping.requested():
                            continue  # ended by the signal that asked to stop (kill -- -PGID)
                        raise HelperError(
                            f"a helper process ended (exit code {helper.process.exitcode})"
                        ) from None
                    if status == "error":
                        raise HelperError(value)
                    idle.append(helper)
                    yield index, value
        finally:
            if busy:  # an error or an abandoned generator: stop and drain the rest
                self.stop_through(max(job for job, _ in busy.values()))
                for connection in list(busy):
                    with contextlib.suppress(EOFError, OSError):
                        connection.recv()

    @property
    def last_job(self) -> int:
        """The id of the last job sent."""
        return self._next_job - 1

    def stop_through(self, job_id: int) -> None:
        """Stop every job with an id up to ``job_id`` (safe from a signal handler)."""
        if self._stop.value < job_id:
            self._stop.value = job_id

    def close(self) -> None:
        """Ask the helpers to leave, and end those that do not within a second."""
        self.stop_through(self._next_job)
        for helper in self._helpers:
            with contextlib.suppress(OSError, ValueError):
                helper.connection.send(None)
        for helper in self._helpers:
            helper.process.join(timeout=1.0)
            if helper.process.is_alive():
                helper.process.terminate()
                helper.process.join(timeout=1.0)
        self._helpers = []


class Batch:
    """Jobs running in helpers: ``stop()`` asks them to finish now, ``wait()`` collects the
    results in job order."""

    def __init__(self, pool: WorkerPool, first_job: int, helpers: list[_Helper]):
        self._pool = pool
        self._first = first_job
        self._helpers = helpers
        self._last = first_job + len(helpers) - 1

    def stop(self) -> None:
        """Ask the batch's jobs to stop soon (their ``should_stop`` turns true)."""
        self._pool.stop_through(self._last)

    def wait(self) -> list[Any]:
        """Each job's return value, in order.  Raises ``HelperError`` if a job raised or
        its helper died (the pool replaces dead helpers on the next ``ensure``)."""
        results: list[Any] = []
        failure = None
        for offset, helper in enumerate(self._helpers):
            try:
                job_id, (status, value) = helper.connection.recv()
            except (EOFError, OSError):
                helper.process.join(timeout=1.0)
                failure = failure or f"a helper process ended (exit code {helper.process.exitcode})"
                continue
            if job_id != self._first + offset:
                failure = failure or "a helper answered out of turn"
            elif status == "error":
                failure = failure or value
            else:
                results.append(value)
        if failure is not None:
            raise HelperError(failure)
        return results


_POOL: WorkerPool | None = None
_POOL_OWNER = 0  # the process that made _POOL (a forked helper inherits the variable)


def in_helper() -> bool:
    """Whether this process is a helper of a pool (helpers do not start helpers)."""
    return multiprocessing.current_process().daemon


def helper_pool(size: int) -> WorkerPool:
    """The process-wide pool, with at least ``size`` live helpers.  Made on first use; its
    helpers are stopped when a stop is requested and closed when the process exits.
    Raises ``RuntimeError`` inside a helper."""
    global _POOL, _POOL_OWNER
    if in_helper():
        raise RuntimeError("a helper process cannot start helpers of its own")
    if _POOL is None or os.getpid() != _POOL_OWNER:
        _POOL, _POOL_OWNER = WorkerPool(), os.getpid()
        atexit.register(_POOL.close)
    _POOL.ensure(size)
    return _POOL


def _stop_pool_jobs() -> None:
    """On a stop request in the pool's own process: stop every job sent so far."""
    if _POOL is not None and os.getpid() == _POOL_OWNER:
        _POOL.stop_through(_POOL.last_job)


stopping.add_listener(_stop_pool_jobs)


def close_helper_pool() -> None:
    """Close the process-wide pool now (a later ``helper_pool`` makes a new one)."""
    global _POOL
    if _POOL is not None and os.getpid() == _POOL_OWNER:
        _POOL.close()
    _POOL = None
