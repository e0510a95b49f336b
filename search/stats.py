"""Small statistics the engine reports with its figures: intervals and standard errors."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959964  # two-sided 95 %
Z995_ONE_SIDED = 2.575829  # one-sided 99.5 %


def wilson_interval(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a rate ``wins / games`` (z = 1.96 for 95 %); it stays
    inside [0, 1] and is sensible for rates near 0 or 1 and for few samples.  Shared wins
    enter as their fractions (a value in [0, 1] has at most the variance of a 0/1 one, so
    the interval is then a little wide, never too narrow).  ``(0, 1)`` for no samples."""
    if games <= 0:
        return 0.0, 1.0
    rate = min(1.0, max(0.0, wins / games))
    scale = 1 + z * z / games
    center = (rate + z * z / (2 * games)) / scale
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / scale
    return max(0.0, center - half), min(1.0, center + half)


def rate_standard_error(rate: float, samples: int) -> float:
    """The standard error of a mean of ``samples`` values in [0, 1] with mean ``rate``
    (the 0/1 bound, with the rate kept half a sample away from 0 and 1 so that a
    handful of equal outcomes does not claim certainty)."""
    if samples <= 0:
        return 1.0
    edge = 0.5 / samples
    p = min(1 - edge, max(edge, rate))
    return math.sqrt(p * (1 - p) / samples)


def mean_and_standard_error(values: Sequence[float]) -> tuple[float, float]:
    """The mean of ``values`` and its standard error (``inf`` for fewer than two)."""
    count = len(values)
    if count == 0:
        return 0.0, math.inf
    mean = sum(values) / count
    if count < 2:
        return mean, math.inf
    variance = sum((v - mean) ** 2 for v in values) / (count - 1)
    return mean, math.sqrt(variance / count)
