"""The win-probability graph of a review (SVG): one line per player over the whole game.

The x axis counts decisions; dashed lines start the rounds (``R2`` …); each point is a
player's estimated chance of winning after their own move, larger and outlined when the
move earned a mark.  Every point, and the band of the graph above it, carries
``data-frame`` (the frame after that decision, see ``render.page``) so a click opens that
position.  The line for the cursor has the id ``cursor``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from positions.layout import COLOR_LETTERS
from render.palette import player_line_color

WIDTH = 960
HEIGHT = 236
LEFT, RIGHT, TOP, BOTTOM = 42, 12, 38, 30
DASHES = ("", "7 3", "2 2", "9 3 2 3")  # one line style per player, so colour is not needed
MARK_RADIUS = {"?!": 4.0, "?": 5.0, "??": 6.0}


@dataclass(frozen=True)
class GraphPlayer:
    """A player's line: number (1-based), colour indices, name."""

    player: int
    colors: tuple[int, ...]
    name: str | None


def plot_x(index: int, decisions: int) -> float:
    """The x of decision ``index`` (0-based) in a graph of ``decisions`` decisions."""
    step = (WIDTH - LEFT - RIGHT) / max(1, decisions)
    return LEFT + (index + 0.5) * step


def _y(win: float) -> float:
    return TOP + (1.0 - win) * (HEIGHT - TOP - BOTTOM)


def win_graph_svg(
    decisions: Sequence[dict[str, Any]],
    total: int,
    rounds: Sequence[int],
    players: Sequence[GraphPlayer],
) -> str:
    """The graph of ``decisions`` (review data: ``index``, ``player``, ``win_after``,
    ``mark``, optional ``win_low``/``win_high``) over ``total`` decisions; ``rounds[i]``
    is the round of decision ``i``.  Inline SVG for an HTML page (no namespace)."""
    step = (WIDTH - LEFT - RIGHT) / max(1, total)
    parts = [
        f'<svg class="g" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" '
        'role="img" aria-label="win probability per player after each decision">'
    ]
    for i in range(total):
        parts.append(
            f'<rect class="band" data-frame="{i + 1}" x="{LEFT + i * step:.1f}" y="{TOP}" '
            f'width="{step:.2f}" height="{HEIGHT - TOP - BOTTOM}"/>'
        )
    for pct in (0, 25, 50, 75, 100):
        y = _y(pct / 100)
        css = "axis" if pct == 0 else "gl"
        parts.append(
            f'<line class="{css}" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}"/>'
            f'<text x="{LEFT - 5}" y="{y + 4:.1f}" text-anchor="end">{pct}%</text>'
        )
    parts.append(_round_lines(rounds, step))
    for number in range(10, total + 1, 10):
        x = plot_x(number - 1, total)
        parts.append(
            f'<text x="{x:.1f}" y="{HEIGHT - BOTTOM + 13}" text-anchor="middle">{number}</text>'
        )
    parts.append(
        f'<text x="{WIDTH - RIGHT}" y="{HEIGHT - 4}" text-anchor="end">decision</text>'
        f'<line id="cursor" class="axis" x1="{LEFT}" x2="{LEFT}" y1="{TOP}" '
        f'y2="{HEIGHT - BOTTOM}" stroke-width="2"/>'
    )
    for k, player in enumerate(players):
        mine = [d for d in decisions if d.get("player") == player.player]
        parts.extend(_player_line(mine, total, player, DASHES[k % len(DASHES)]))
    parts.append(_legend(players))
    parts.append("</svg>")
    return "\n".join(parts)


def _round_lines(rounds: Sequence[int], step: float) -> str:
    parts = []
    previous = None
    for i, round_number in enumerate(rounds):
        if round_number != previous:
            x = LEFT + i * step
            if i > 0:
                parts.append(
                    f'<line class="rl" x1="{x:.1f}" x2="{x:.1f}" y1="{TOP}" '
                    f'y2="{HEIGHT - BOTTOM}"/>'
                )
            parts.append(f'<text x="{x + 3:.1f}" y="{TOP - 6}">R{round_number}</text>')
            previous = round_number
    return "".join(parts)


def _player_line(
    mine: Sequence[dict[str, Any]], total: int, player: GraphPlayer, dash: str
) -> list[str]:
    color = player_line_color(player.colors)
    points = [(plot_x(d["index"], total), _y(d["win_after"])) for d in mine]
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    parts = []
    for d in mine:
        low, high = d.get("win_low"), d.get("win_high")
        if isinstance(low, int | float) and isinstance(high, int | float):
            x = plot_x(d["index"], total)
            parts.append(
                f'<line class="ci" stroke="{color}" x1="{x:.1f}" x2="{x:.1f}" '
                f'y1="{_y(low):.1f}" y2="{_y(high):.1f}"/>'
            )
    if points:
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        parts.append(
            f'<polyline class="line" data-player="{player.player}" stroke="{color}"'
            f'{dash_attr} points="{path}"/>'
        )
    for d, (x, y) in zip(mine, points, strict=True):
        mark = d.get("mark")
        radius = MARK_RADIUS.get(mark or "", 2.5)
        css = "pt pm" if mark else "pt"
        tip = f"{d['index'] + 1}. P{player.player} {d.get('played', '')}{mark or ''}"
        tip += f" · win {d['win_after']:.0%}"
        parts.append(
            f'<circle class="{css}" data-frame="{d["index"] + 1}" fill="{color}" '
            f'cx="{x:.1f}" cy="{y:.1f}" r="{radius}"><title>{escape(tip)}</title></circle>'
        )
    return parts


def _legend(players: Sequence[GraphPlayer]) -> str:
    parts = []
    x = LEFT
    for k, player in enumerate(players):
        color = player_line_color(player.colors)
        dash = DASHES[k % len(DASHES)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        letters = "+".join(COLOR_LETTERS[c] for c in player.colors)
        label = f"P{player.player} ({letters})" + (f" {player.name}" if player.name else "")
        parts.append(
            f'<line class="line" stroke="{color}"{dash_attr} x1="{x}" x2="{x + 22}" '
            'y1="10" y2="10"/>'
            f'<text x="{x + 26}" y="14">{escape(label[:22])}</text>'
        )
        x += 150
    return "".join(parts)
