"""Players as explanations name them: by number (P2), with their standing (the leader,
last place) where it matters, and with a color only where the color matters (in 2 players,
where P1 plays a and c)."""

from __future__ import annotations

from dataclasses import dataclass

from positions.layout import COLOR_LETTERS
from positions.state import GameState


@dataclass(frozen=True)
class Standing:
    """A player's standing: their total with this round's points as the board stands
    (``projected``), and ``label``: ``"the leader"``, ``"joint leader"``,
    ``"last place"``, ``"joint last"`` or ``None`` (in 2 players: always ``None``)."""

    player: int  # 1-based
    projected: int
    label: str | None


def standings(state: GameState) -> list[Standing]:
    """Each player's standing, P1 first: current scores plus the points each would get if
    the round were scored now, combined per player as the game's total rule says."""
    projected_state = state.clone()
    for color, points in enumerate(state.round_points()):
        projected_state.scores[color] += points
    totals = projected_state.player_totals()
    best, worst = max(totals), min(totals)
    result = []
    for index, total in enumerate(totals):
        label = None
        if len(totals) > 2 and best != worst:
            if total == best:
                label = "the leader" if totals.count(best) == 1 else "joint leader"
            elif total == worst:
                label = "last place" if totals.count(worst) == 1 else "joint last"
        result.append(Standing(index + 1, total, label))
    return result


def player_name(player: int | None) -> str:
    """``"P2"`` for player 2, ``"nobody"`` for ``None``."""
    return "nobody" if player is None else f"P{player}"


def color_name(state: GameState, color: int) -> str:
    """A color as its player: ``"P2"``, or in 2 players ``"P1's c"``."""
    player = state.layout.color_owner(color) + 1
    if len(state.layout.player_colors[0]) > 1:
        return f"P{player}'s {COLOR_LETTERS[color]}"
    return f"P{player}"


def with_standing(player: int, standing: Standing | None) -> str:
    """``"P3 (the leader)"``, or just ``"P3"`` when the standing has no label."""
    if standing is None or standing.label is None:
        return f"P{player}"
    return f"P{player} ({standing.label})"


def join_names(names: list[str], last: str = "and") -> str:
    """``"P1"``, ``"P1 and P2"``, ``"P1, P2 and P3"`` (or with ``last="or"``)."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {last} {names[-1]}"
