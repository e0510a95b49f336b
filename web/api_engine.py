"""The engine mode's protocol (``docs/ENGINE.md``) over HTTP, so that the page asks for
analyses exactly as a program asks ``manhattan engine``, and could talk to it unchanged.

``POST /api/engine`` takes one request object, the same JSON as one input line of the
engine mode.  An analysis query is answered with a stream of the engine's answer lines
(``application/x-ndjson``: partial answers with ``"during_search": true`` every
``report_every`` seconds, then exactly one final answer per position); terminate and
version requests with their one answer; a bad request with the engine's error answer
``{"id", "error", "field"}`` and status 400.

The answers are written by the engine mode's own ``EngineSession`` running on the
server's worker thread: its input is an inbox the HTTP side drops terminate requests
into (read between search iterations, as the engine reads standard input), its output a
sink that hands each answer line to the stream of the query it names.  Query ids must be
unique among the queries not yet answered.  A client that goes away terminates its query.
The server's searches run on the helper processes it warmed up at start, so a query's
``workers`` is capped at the server's.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

from analyzer.engine_mode import EngineSession
from analyzer.engine_queries import Query, RequestError, Terminate, Version, parse_request
from web.worker import Worker

MAX_REQUEST = 16 * 1024 * 1024  # bytes, as one line of the engine mode
QUEUED, RUNNING = "queued", "running"
DISCONNECTED = "client-gone:"  # the id of the terminate sent for a stream left behind


class _Inbox:
    """The engine session's input: lines dropped in by the HTTP side, read by the
    session between search iterations (the interface of ``engine_mode.LineReader``)."""

    def __init__(self) -> None:
        self._lines: list[str] = []
        self._lock = threading.Lock()
        self.too_long = 0
        self.eof = False

    def put(self, line: str) -> None:
        with self._lock:
            self._lines.append(line)

    def poll(self) -> list[str]:
        with self._lock:
            lines, self._lines = self._lines, []
        return lines


class _Sink:
    """The engine session's output: each written line is parsed and handed on."""

    def __init__(self, deliver: Callable[[dict[str, Any]], None]):
        self._deliver = deliver

    def write(self, text: str) -> None:
        for line in text.splitlines():
            if line.strip():
                self._deliver(json.loads(line))

    def flush(self) -> None:
        """Nothing is buffered."""


def _key(request_id: Any) -> str:
    """A dictionary key that tells the id 1 from the id "1"."""
    return json.dumps(request_id)


class EngineChannel:
    """One engine session shared by every page the server serves."""

    def __init__(self, worker: Worker, version: str, max_workers: int):
        self.worker = worker
        self.max_workers = max_workers
        self._inbox = _Inbox()
        self._session = EngineSession(self._inbox, _Sink(self._deliver), version)  # type: ignore[arg-type]
        self._lock = threading.Lock()
        self._states: dict[str, str] = {}  # query key -> QUEUED or RUNNING
        self._cancelled: set[str] = set()  # queued queries terminated before they ran
        self._listeners: dict[str, Callable[[dict[str, Any]], None]] = {}

    # ----- answers out ------------------------------------------------------------------

    def _deliver(self, answer: dict[str, Any]) -> None:
        """Called on the worker thread for every answer the session writes."""
        with self._lock:
            listener = self._listeners.get(_key(answer.get("id")))
        if listener is not None:
            listener(answer)

    def _listen(self, request_id: Any) -> asyncio.Queue[dict[str, Any]]:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        def listener(answer: dict[str, Any]) -> None:
            loop.call_soon_threadsafe(queue.put_nowait, answer)

        self._listeners[_key(request_id)] = listener
        return queue

    def _forget(self, request_id: Any) -> None:
        with self._lock:
            self._listeners.pop(_key(request_id), None)

    # ----- requests in ------------------------------------------------------------------

    def parse(self, text: str) -> Query | Terminate | Version:
        """The request ``text`` holds.  Raises ``RequestError`` (the engine's error)."""
        request = parse_request(text)
        if isinstance(request, Query):
            if _key(request.id) in self._states:
                raise RequestError(
                    f"query {request.id!r} is not answered yet: give each query its own id",
                    request.id,
                    "id",
                )
            workers = min(request.settings.workers, self.max_workers)
            settings = dataclasses.replace(request.settings, workers=workers)
            request = dataclasses.replace(request, settings=settings)
        return request

    def version(self, request: Version) -> dict[str, Any]:
        """The answer to a version request."""
        return {"id": request.id, "version": self._session.version}

    async def terminate(self, request: Terminate) -> dict[str, Any]:
        """End the query named: a running one stops now and this is answered after its
        final answer; a queued one is answered at once and searches only a minimum when
        its turn comes; any other id is answered ``"terminated": []``."""
        with self._lock:
            answer = self._terminate(request, listen=True)
        if isinstance(answer, dict) or answer is None:
            return answer or {"id": request.id, "terminated": []}
        try:
            return await answer.get()
        finally:
            self._forget(request.id)

    def _terminate(
        self, request: Terminate, listen: bool
    ) -> dict[str, Any] | asyncio.Queue[dict[str, Any]] | None:
        """Under the lock: the answer now, or (a running query) the queue its answer
        will come to once the session has read the request (None unless ``listen``)."""
        target = _key(request.terminate_id)
        state = self._states.get(target)
        if state == QUEUED:
            self._cancelled.add(target)
            return {"id": request.id, "terminated": [request.terminate_id]}
        if state != RUNNING:
            return {"id": request.id, "terminated": []}
        queue = self._listen(request.id) if listen else None
        line = {"id": request.id, "action": "terminate", "terminate_id": request.terminate_id}
        self._inbox.put(json.dumps(line))
        return queue

    def stream(self, query: Query) -> AsyncIterator[bytes]:
        """Queue ``query`` on the worker and return the stream of its answer lines."""
        key = _key(query.id)
        with self._lock:
            self._states[key] = QUEUED
            queue = self._listen(query.id)
        self.worker.submit(self._run, query)
        return self._answers(query, queue)

    async def _answers(
        self, query: Query, queue: asyncio.Queue[dict[str, Any]]
    ) -> AsyncIterator[bytes]:
        finals = 0
        try:
            while finals < len(query.targets):
                answer = await queue.get()
                if answer.get("during_search") is False or "error" in answer:
                    finals += 1
                yield (json.dumps(answer) + "\n").encode()
        finally:
            if finals < len(query.targets):  # the client went away: stop searching for it
                with self._lock:
                    self._terminate(Terminate(f"{DISCONNECTED}{query.id}", query.id), False)
            self._forget(query.id)

    def _run(self, query: Query) -> None:
        """On the worker thread: the session answers ``query``, then reads what came in
        meanwhile (terminate requests for it that arrived as it ended)."""
        key = _key(query.id)
        with self._lock:
            self._states[key] = RUNNING
            if key in self._cancelled:
                self._cancelled.discard(key)
                self._session.terminated.add(query.id)
        try:
            self._session.run_query(query)
        except Exception as error:  # noqa: BLE001 - a bug must not leave the stream waiting
            self._deliver(RequestError(f"internal error: {error}", query.id).answer())
        finally:
            with self._lock:
                self._states.pop(key, None)
            self._session.take_input()
