"""The engine mode: analyses for programs over JSON lines (``manhattan engine``; the
protocol is ``docs/ENGINE.md``), the way GUIs drive KataGo's analysis engine.

One process reads requests from standard input and writes answers to standard output, one
JSON object per line.  Queries queue and are answered in order, each with partial answers
while it searches (when it asks for them) and exactly one final answer per position;
``terminate`` and ``version`` are handled as soon as they are read, even mid-search, and
a line that is not a good request is answered with an error and forgotten.  The input is
read without a thread (``select`` between search iterations), so the warm helper
processes of ``search.pool`` can be forked safely; they stay up between queries.  When
standard input closes, the queued queries are finished and the engine exits 0; Ctrl-C or
SIGTERM end the running query with its final answer, drop the queue and exit 130.
"""

from __future__ import annotations

import json
import os
import select
from collections import deque
from collections.abc import Callable
from typing import Any, TextIO

from analyzer.engine import Analysis, analysis_from_result, analyze, make_evaluator
from analyzer.engine_queries import (
    Query,
    RequestError,
    Target,
    Terminate,
    Version,
    parse_request,
)
from search import stopping
from search.parallel import warm_up

MAX_LINE = 16 * 1024 * 1024  # bytes of one request line (a game record fits many times)
INTERRUPTED_EXIT_CODE = 130
IDLE_POLL = 0.25  # seconds between checks for Ctrl-C while waiting for input


class LineReader:
    """Lines from a file descriptor without blocking: ``poll()`` returns the complete lines
    that can be read now, ``wait()`` blocks until there is one or the input ends."""

    def __init__(self, fd: int):
        self.fd = fd
        self.buffer = b""
        self.eof = False
        self.too_long = 0  # lines dropped for being longer than MAX_LINE

    def _read_available(self, timeout: float | None) -> None:
        while not self.eof:
            ready, _, _ = select.select([self.fd], [], [], timeout)
            if not ready:
                return
            chunk = os.read(self.fd, 1 << 16)
            if not chunk:
                self.eof = True
                return
            self.buffer += chunk
            if len(self.buffer) > MAX_LINE and b"\n" not in self.buffer:
                self.buffer = b""
                self.too_long += 1
            timeout = 0

    def _lines(self) -> list[str]:
        *complete, self.buffer = self.buffer.split(b"\n")
        if self.eof and self.buffer:
            complete.append(self.buffer)
            self.buffer = b""
        return [line.decode("utf-8", errors="replace") for line in complete if line.strip()]

    def poll(self) -> list[str]:
        """The complete lines available now (never blocks)."""
        self._read_available(0)
        return self._lines()

    def wait(self, timeout: float) -> list[str]:
        """The lines that arrive within ``timeout`` seconds (at least one, unless the time
        ran out or the input ended)."""
        self._read_available(timeout)
        return self._lines()


class EngineSession:
    """The requests of one engine process and the answers written for them."""

    def __init__(self, reader: LineReader, out: TextIO, version: str):
        self.reader = reader
        self.out = out
        self.version = version
        self.queue: deque[Query] = deque()
        self.running: Query | None = None
        self.terminated: set[Any] = set()  # ids to end now
        self.acks: list[Terminate] = []  # terminate requests to answer after the final one

    def write(self, answer: dict[str, Any]) -> None:
        """Write one answer line and flush it."""
        self.out.write(json.dumps(answer) + "\n")
        self.out.flush()

    def take_input(self) -> None:
        """Read what has arrived and handle it: queue queries, answer the rest at once."""
        for line in self.reader.poll():
            self.handle(line)
        while self.reader.too_long:
            self.reader.too_long -= 1
            self.write(RequestError(f"a request line longer than {MAX_LINE} bytes").answer())

    def handle(self, line: str) -> None:
        """One request line."""
        try:
            request = parse_request(line)
        except RequestError as error:
            self.write(error.answer())
            return
        if isinstance(request, Version):
            self.write({"id": request.id, "version": self.version})
        elif isinstance(request, Terminate):
            self.terminate(request)
        else:
            self.queue.append(request)

    def terminate(self, request: Terminate) -> None:
        """End the target query: now if it runs (answered after its final answer), else
        it is answered from a minimal search when its turn comes."""
        target = request.terminate_id
        running = self.running is not None and self.running.id == target
        queued = [q.id for q in self.queue if q.id == target]
        if running or queued:
            self.terminated.add(target)
        if running:
            self.acks.append(request)
            return
        self.write({"id": request.id, "terminated": queued[:1]})

    def run_query(self, query: Query) -> None:
        """Analyze every target of ``query``, with partial answers as asked, then the
        final answer of each; a terminate ends them all now."""
        self.running = query
        stop_this = lambda: query.id in self.terminated  # noqa: E731
        try:
            warm_up(make_evaluator(query.settings.epsilon), query.settings.parallelism())
            with stopping.watching(stop_this):
                for target in query.targets:
                    analysis = analyze(
                        target.state,
                        query.settings,
                        progress=lambda _elapsed: self.take_input(),
                        report=self._reporter(query, target),
                        report_every=query.report_every or 1.0,
                    )
                    self.write(self.answer(query, target, analysis, during_search=False))
        finally:
            self.running = None
            self.terminated.discard(query.id)
            for ack in self.acks:
                self.write({"id": ack.id, "terminated": [ack.terminate_id]})
            self.acks.clear()

    def _reporter(self, query: Query, target: Target) -> Callable[[Any], None] | None:
        if not query.report_every:
            return None

        def report(result: Any) -> None:
            partial = analysis_from_result(target.state, result)
            self.write(self.answer(query, target, partial, during_search=True))

        return report

    def answer(
        self, query: Query, target: Target, analysis: Analysis, during_search: bool
    ) -> dict[str, Any]:
        """The answer line: the fields of ``analyze --json`` plus the query's id, the turn
        and whether the search goes on."""
        data = analysis.to_json()
        if query.top is not None:
            data["moves"] = data["moves"][: query.top]
        data["terminated"] = query.id in self.terminated
        return {"id": query.id, "turn": target.turn, "during_search": during_search, **data}

    def serve(self) -> int:
        """Answer requests until the input ends (0) or a stop is requested (130)."""
        while True:
            if stopping.requested():
                return INTERRUPTED_EXIT_CODE
            self.take_input()
            if self.queue:
                self.run_query(self.queue.popleft())
                continue
            if self.reader.eof:
                return 0
            for line in self.reader.wait(IDLE_POLL):
                self.handle(line)


def serve(fd: int, out: TextIO, version: str) -> int:
    """Run the engine mode on input file descriptor ``fd`` and text stream ``out``; returns
    the exit code."""
    return EngineSession(LineReader(fd), out, version).serve()
