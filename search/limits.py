"""How long a search may run: a number of iterations, a wall time, or both (first reached)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

MAX_ITERATIONS = 1_000_000_000
MAX_SECONDS = 86_400.0  # a day


class LimitError(ValueError):
    """A budget text that is not a number of iterations or seconds."""


@dataclass(frozen=True)
class Limit:
    """A search budget.  At least one of ``iterations`` and ``seconds`` is set; with both,
    the search stops at whichever comes first.  Only an iteration budget makes a seeded
    search repeatable: a wall time depends on the machine."""

    iterations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise LimitError("a limit needs iterations, seconds or both")
        if self.iterations is not None and not 1 <= self.iterations <= MAX_ITERATIONS:
            raise LimitError(
                f"iterations must be 1 to {MAX_ITERATIONS:,}, not {_short(self.iterations)}"
            )
        if self.seconds is not None and not (
            math.isfinite(self.seconds) and 0 < self.seconds <= MAX_SECONDS
        ):
            raise LimitError(
                f"seconds must be more than 0 and at most {MAX_SECONDS:g}, "
                f"not {_short(self.seconds)}"
            )

    @classmethod
    def parse(cls, text: str) -> Limit:
        """Read a budget: ``5000`` (iterations), ``1s`` / ``0.5s`` / ``200ms`` (wall time).
        Raises ``LimitError`` naming what was expected."""
        match = re.fullmatch(r"(\d+(?:\.\d*)?|\.\d+)(ms|s)?", text.strip())
        if not match or len(text) > 40:
            raise LimitError(
                f"bad budget {_short(text)}: expected iterations like 5000 or a time like 1s "
                "or 200ms"
            )
        number, unit = match.groups()
        if unit is None:
            if "." in number:
                raise LimitError(f"bad budget {_short(text)}: iterations are a whole number")
            return cls(iterations=int(number))
        seconds = float(number) / (1000.0 if unit == "ms" else 1.0)
        return cls(seconds=seconds)

    def split(self, workers: int) -> list[Limit]:
        """The budget of each of ``workers`` parallel searchers: the iterations divided as
        evenly as possible (each at least 1), the same wall time for all."""
        if self.iterations is None:
            return [self] * workers
        base, extra = divmod(self.iterations, workers)
        return [Limit(max(1, base + (1 if i < extra else 0)), self.seconds) for i in range(workers)]

    def __str__(self) -> str:
        parts = []
        if self.iterations is not None:
            parts.append(f"{self.iterations} iterations")
        if self.seconds is not None:
            parts.append(f"{self.seconds:g} s")
        return " or ".join(parts)


def _short(value: object, limit: int = 40) -> str:
    """``value`` for an error message, cut to ``limit`` characters."""
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"
