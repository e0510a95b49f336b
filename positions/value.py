"""A learned evaluation: the expected end of a game valued from a round's end, so playouts
can stop there (``PlayoutEvaluator(horizon=1)``) instead of playing every round out.

Buildings score again every round they stand, so a player's future is mostly their board
now times the rounds left.  The model predicts each player's final total from the end of
a round (after its scoring) as

    F(p) = S(p) + a·L·R(p) + b·L·R̄(others) + c·B(p) + d·L

with ``S`` the total now, ``R`` the round points the board gives now (``rules.round_points``
combined by the total rule), ``R̄(others)`` the opponents' mean of it, ``B`` the stories
left in the supply and ``L`` the rounds left; and each player's chance of first place as
a softmax of ``k·F`` over the players.  ``scripts/train_value_model.py`` fits a-d by least
squares and k by maximum likelihood on games the playout policy plays against itself, one
model per player count (``positions/data/models/value_{players}p.json``).

``features`` states the features readably; the kernel computes the same (``_estimate``,
compiled), and a differential test holds them equal.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

import numpy as np

from positions import kernel_cache

CACHED = kernel_cache.configure()  # before numba is imported: its cache folder

from numba import njit  # noqa: E402

from positions.bundled import bundled_model  # noqa: E402
from positions.kernel_board import (  # noqa: E402
    _ROUNDS,
    H_MIN,
    H_PLAYERS,
    H_ROUND,
    OFF_SCORES,
    OFF_SUPPLY,
)
from positions.layout import SIZES  # noqa: E402
from positions.state import GameState  # noqa: E402

FEATURES = ("rounds_points", "others_rounds_points", "supply_stories", "rounds_left")


@dataclass(frozen=True)
class ValueModel:
    """The coefficients of the predicted final total (one per ``FEATURES`` entry, in
    order) and the ``sharpness`` k of the softmax of first place."""

    rounds_points: float
    others_rounds_points: float
    supply_stories: float
    rounds_left: float
    sharpness: float

    @classmethod
    def bundled(cls, players: int) -> ValueModel:
        """The fitted model for ``players`` (2-4) from ``positions/data/models``; raises
        ``ManhattanError`` when the file is missing or malformed."""
        return bundled_model(
            f"value_{players}p.json",
            lambda data: cls(**{f.name: float(data[f.name]) for f in fields(cls)}),
        )

    def to_array(self) -> np.ndarray:
        """The coefficients then the sharpness, as the kernel reads them."""
        return np.array([getattr(self, f.name) for f in fields(self)], dtype=np.float64)

    def to_json(self) -> dict:
        """The model as plain data."""
        return asdict(self)


def features(state: GameState) -> np.ndarray:
    """Per player (rows), the ``FEATURES`` of ``state`` (columns), and the totals now as
    a last column: what the model predicts from.  ``state`` is a round's end (the
    selection phase before any pick) or the end of the game."""
    players = state.players
    colors = state.layout.player_colors
    combine = min if state.options.two_player_total == "min" else sum
    points = state.round_points()
    now = [combine(state.scores[c] for c in cs) for cs in colors]
    again = [
        combine(state.scores[c] + points[c] for c in cs) - now[p] for p, cs in enumerate(colors)
    ]
    left = state.layout.rounds - state.round + (0 if state.is_terminal() else 1)
    rows = []
    for p, cs in enumerate(colors):
        others = sum(again[q] for q in range(players) if q != p) / (players - 1)
        stories = sum(
            (size + 1) * state.supply[c * SIZES + size] for c in cs for size in range(SIZES)
        )
        rows.append([left * again[p], left * others, stories, left, now[p]])
    return np.array(rows, dtype=np.float64)


def predict(model: ValueModel, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(chances of first place, predicted final totals)`` per player from ``features``."""
    coefficients = model.to_array()[: len(FEATURES)]
    totals = rows[:, -1] + rows[:, : len(FEATURES)] @ coefficients
    logits = model.sharpness * (totals - totals.max())
    chances = np.exp(logits) / np.exp(logits).sum()
    return chances, totals


@njit(cache=CACHED)
def _estimate(a, points, model, out):
    """The model's ``(chances, totals)`` written into ``out`` (2×players) for the packed
    world ``a`` at a round's end (``a[H_ROUND]`` the next round), with ``points`` the
    round points per color the board gives now: ``features`` and ``predict`` compiled."""
    players = a[H_PLAYERS]
    use_min = a[H_MIN] != 0
    scores = a[OFF_SCORES : OFF_SCORES + 4]
    supply = a[OFF_SUPPLY : OFF_SUPPLY + 16]
    left = _ROUNDS[players] - a[H_ROUND] + 1
    ncol = 2 if players == 2 else 1
    now = np.empty(players, dtype=np.float64)
    again = np.empty(players, dtype=np.float64)
    stories = np.zeros(players, dtype=np.float64)
    for p in range(players):
        if ncol == 2:
            first, second = scores[p], scores[p + 2]
            if use_min:
                now[p] = min(first, second)
                again[p] = min(first + points[p], second + points[p + 2]) - now[p]
            else:
                now[p] = first + second
                again[p] = points[p] + points[p + 2]
        else:
            now[p] = scores[p]
            again[p] = points[p]
        for s in range(ncol):
            color = p + 2 * s
            for size in range(4):
                stories[p] += (size + 1) * supply[color * 4 + size]
    total_again = 0.0
    for p in range(players):
        total_again += again[p]
    best = -1e300
    for p in range(players):
        others = (total_again - again[p]) / (players - 1)
        predicted = (
            now[p]
            + model[0] * left * again[p]
            + model[1] * left * others
            + model[2] * stories[p]
            + model[3] * left
        )
        out[players + p] = predicted
        best = max(best, predicted)
    total = 0.0
    for p in range(players):
        out[p] = np.exp(model[4] * (out[players + p] - best))
        total += out[p]
    for p in range(players):
        out[p] /= total
