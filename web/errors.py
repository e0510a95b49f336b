"""Bad requests: an ``ApiError`` becomes the JSON answer ``{"error": "...", "field": ...}``
with a 4xx status, and the server goes on.  Reading a request's JSON fields goes through
the checks here, so every field at fault is named."""

from __future__ import annotations

import math
from typing import Any

from positions.errors import ManhattanError, shorten


class ApiError(ManhattanError):
    """A request the server cannot take: the one-line ``message``, the request ``field``
    at fault (or None) and the HTTP ``status`` (400 unless said)."""

    def __init__(self, message: str, field: str | None = None, status: int = 400):
        super().__init__(shorten(message))
        self.field = field
        self.status = status

    def answer(self) -> dict[str, Any]:
        """The JSON body of the error answer."""
        return {"error": str(self), "field": self.field}


def not_found(what: str) -> ApiError:
    """A 404 for ``what`` ("no game 'x1'")."""
    return ApiError(what, None, 404)


class Fields:
    """The fields of one JSON object body, read with checks: every getter raises
    ``ApiError`` naming the field; ``done()`` refuses the fields no getter asked for, so
    a misspelt one never goes unnoticed."""

    def __init__(self, data: Any, allowed: set[str] | None = None):
        if not isinstance(data, dict):
            raise ApiError("the request body must be a JSON object")
        self.data = data
        self.read: set[str] = set()
        self.allowed = allowed

    def has(self, name: str) -> bool:
        """Whether the body gives ``name`` (a null counts as not given)."""
        return self.data.get(name) is not None

    def _get(self, name: str) -> Any:
        self.read.add(name)
        return self.data.get(name)

    def text(self, name: str, default: str | None = None, limit: int = 1_000_000) -> str | None:
        """A string field (at most ``limit`` characters)."""
        value = self._get(name)
        if value is None:
            return default
        if not isinstance(value, str):
            raise ApiError(f"{name} must be a string", name)
        if len(value) > limit:
            raise ApiError(f"{name} is longer than {limit} characters", name)
        return value

    def integer(self, name: str, low: int, high: int, default: int | None = None) -> int | None:
        """A whole-number field from ``low`` to ``high``."""
        value = self._get(name)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            raise ApiError(f"{name} must be a whole number", name)
        if not low <= value <= high:
            raise ApiError(f"{name} must be {low} to {high}, not {value}", name)
        return value

    def number(
        self, name: str, low: float, high: float, default: float | None = None
    ) -> float | None:
        """A number field from ``low`` to ``high``."""
        value = self._get(name)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ApiError(f"{name} must be a number", name)
        if not (math.isfinite(value) and low <= value <= high):
            raise ApiError(f"{name} must be {low:g} to {high:g}, not {value}", name)
        return float(value)

    def flag(self, name: str, default: bool = False) -> bool:
        """A true/false field."""
        value = self._get(name)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise ApiError(f"{name} must be true or false", name)
        return value

    def texts(self, name: str, limit: int = 8) -> list[str] | None:
        """A list of at most ``limit`` strings, or one string (a list of one)."""
        value = self._get(name)
        if value is None:
            return None
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ApiError(f"{name} must be a string or a list of strings", name)
        if len(value) > limit:
            raise ApiError(f"{name} holds more than {limit} entries", name)
        return value

    def done(self) -> None:
        """Refuse any field no getter read (or not in ``allowed``)."""
        known = self.read if self.allowed is None else self.allowed | self.read
        for name in self.data:
            if name not in known:
                raise ApiError(f"unknown field {name!r}", name)
