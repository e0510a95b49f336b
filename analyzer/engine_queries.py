"""The requests of the engine mode (``docs/ENGINE.md``), read and checked from JSON lines.

A line is one of: an analysis query (``position``, or ``record`` with ``turns``, and a
budget), ``{"action": "terminate", "terminate_id": …}`` or ``{"action": "version"}``.
Anything else is a ``RequestError`` naming the field at fault, with the request's id when
it has one, so the engine can answer it and go on.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from analyzer.engine import EngineSettings, default_workers, mover_view
from positions.errors import ManhattanError, shorten
from positions.notation import parse_position
from positions.record import read_record
from positions.state import GameState
from search.limits import MAX_ITERATIONS, MAX_SECONDS, Limit

MAX_WORKERS = 64
MAX_TOP = 1000
QUERY_FIELDS = {
    "id",
    "position",
    "record",
    "turns",
    "iterations",
    "seconds",
    "workers",
    "seed",
    "top",
    "report_every",
}


class RequestError(ManhattanError):
    """A request the engine cannot take; ``request_id`` and ``field`` go in the answer."""

    def __init__(self, message: str, request_id: Any = None, field: str | None = None):
        super().__init__(shorten(message))
        self.request_id = request_id
        self.field = field

    def answer(self) -> dict[str, Any]:
        """The error answer: ``{"id", "error", "field"}``."""
        return {"id": self.request_id, "error": str(self), "field": self.field}


@dataclass(frozen=True)
class Target:
    """One position to analyze: ``turn`` is the decision number of a record (from 1), or
    ``None`` for a position query."""

    turn: int | None
    state: GameState


@dataclass(frozen=True)
class Query:
    """An analysis query: its targets in order and how to search each."""

    id: Any
    targets: list[Target]
    settings: EngineSettings
    top: int | None
    report_every: float | None


@dataclass(frozen=True)
class Terminate:
    """End the queries with ``terminate_id`` now (running) or at once (queued)."""

    id: Any
    terminate_id: Any


@dataclass(frozen=True)
class Version:
    """Ask for the engine's version."""

    id: Any


Request = Query | Terminate | Version


def parse_request(line: str) -> Request:
    """The request on one input line.  Raises ``RequestError``."""
    try:
        data = json.loads(line)
    except (json.JSONDecodeError, RecursionError) as error:
        raise RequestError(f"not JSON: {error}") from None
    if not isinstance(data, dict):
        raise RequestError("a request is a JSON object")
    request_id = data.get("id")
    if not isinstance(request_id, str | int) or isinstance(request_id, bool):
        raise RequestError("every request needs an id (a string or a number)", None, "id")
    action = data.get("action")
    if action is None:
        return _query(data, request_id)
    if action == "version":
        _only(data, {"id", "action"}, request_id)
        return Version(request_id)
    if action == "terminate":
        _only(data, {"id", "action", "terminate_id"}, request_id)
        if "terminate_id" not in data:
            raise RequestError("terminate needs terminate_id", request_id, "terminate_id")
        return Terminate(request_id, data["terminate_id"])
    raise RequestError(
        f"unknown action {action!r}: expected terminate or version", request_id, "action"
    )


def _only(data: dict, allowed: set[str], request_id: Any) -> None:
    for name in data:
        if name not in allowed:
            raise RequestError(f"unknown field {name!r}", request_id, name)


def _number(
    data: dict, name: str, request_id: Any, low: float, high: float, whole: bool
) -> float | int | None:
    if name not in data or data[name] is None:
        return None
    value = data[name]
    kind = int if whole else (int, float)
    if isinstance(value, bool) or not isinstance(value, kind):
        what = "a whole number" if whole else "a number"
        raise RequestError(f"{name} must be {what}", request_id, name)
    if not (math.isfinite(value) and low <= value <= high):
        raise RequestError(f"{name} must be {low:g} to {high:g}, not {value}", request_id, name)
    return value


def _query(data: dict, request_id: Any) -> Query:
    _only(data, QUERY_FIELDS, request_id)
    iterations = _number(data, "iterations", request_id, 1, MAX_ITERATIONS, True)
    seconds = _number(data, "seconds", request_id, 0.001, MAX_SECONDS, False)
    if iterations is None and seconds is None:
        raise RequestError(
            "a query needs a budget: iterations, seconds or both", request_id, "iterations"
        )
    workers = _number(data, "workers", request_id, 1, MAX_WORKERS, True)
    seed = _number(data, "seed", request_id, 0, 2**63 - 1, True)
    top = _number(data, "top", request_id, 1, MAX_TOP, True)
    report_every = _number(data, "report_every", request_id, 0.05, MAX_SECONDS, False)
    settings = EngineSettings(
        limit=Limit(iterations, None if seconds is None else float(seconds)),
        workers=int(workers or default_workers()),
        seed=int(seed or 0),
    )
    return Query(
        request_id,
        _targets(data, request_id),
        settings,
        None if top is None else int(top),
        None if report_every is None else float(report_every),
    )


def _targets(data: dict, request_id: Any) -> list[Target]:
    has_position, has_record = "position" in data, "record" in data
    if has_position == has_record:
        raise RequestError("a query needs either position or record", request_id, "position")
    if has_position:
        if "turns" in data:
            raise RequestError("turns go with a record, not a position", request_id, "turns")
        text = data["position"]
        if not isinstance(text, str):
            raise RequestError("position must be a position string", request_id, "position")
        try:
            return [Target(None, mover_view(parse_position(text)))]
        except ManhattanError as error:
            raise RequestError(str(error), request_id, "position") from None
    text = data["record"]
    if not isinstance(text, str):
        raise RequestError("record must be the text of a game record", request_id, "record")
    try:
        states = read_record(text).states()
    except ManhattanError as error:
        raise RequestError(f"record: {error}", request_id, "record") from None
    turns = data.get("turns")
    decisions = len(states) - 1
    if not isinstance(turns, list) or not turns:
        raise RequestError("turns must be a list of decision numbers", request_id, "turns")
    targets = []
    for turn in turns:
        if isinstance(turn, bool) or not isinstance(turn, int) or not 1 <= turn <= decisions:
            raise RequestError(
                f"turns: {turn!r} is not a decision of the record (1-{decisions})",
                request_id,
                "turns",
            )
        try:
            targets.append(Target(turn, mover_view(states[turn - 1])))
        except ManhattanError as error:
            raise RequestError(f"turn {turn}: {error}", request_id, "turns") from None
    return targets
