"""Terminal drawings of the game (rich): a position and a played game's result.

They take the plain data of ``positions.loading.describe_position`` and ``play``'s summary,
so the same data can be drawn elsewhere (JSON for programs; the board picture is
``render.svg``).
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from render.seats import sites_in_view

COLOR_STYLES = {"a": "bold red", "b": "bold blue", "c": "bold green", "d": "bold yellow"}


def _block_text(letter: str, text: str) -> Text:
    return Text(text, style=COLOR_STYLES[letter])


def _render_city(number: int, sites: list[dict[str, Any]], seat: str = "S") -> Table:
    """One city's 3×3 grid as ``seat`` sees it (``sites`` in reading order from S)."""
    grid = Table(
        title=f"City {number}",
        show_header=False,
        box=box.SQUARE,
        padding=(0, 0),
        title_style="bold",
    )
    for _ in range(3):
        grid.add_column(width=4, justify="center")
    shown = [sites[site] for site in sites_in_view(seat)]
    for row in range(3):
        cells = []
        for site in shown[row * 3 : row * 3 + 3]:
            if site["owner"] is None:
                cells.append(Text("·", style="dim"))
            else:
                cells.append(_block_text(site["owner"], f"{site['height']}{site['owner']}"))
        grid.add_row(*cells)
    return grid


def board_grid(data: dict[str, Any], seat: str = "S", extra: RenderableType | None = None) -> Table:
    """The six cities (1 2 3 / 4 5 6) of ``describe_position`` data, each turned as
    ``seat`` sees it; ``extra`` (e.g. a legend) goes beside the first row."""
    board = Table.grid(padding=(0, 2))
    for _ in range(3 if extra is None else 4):
        board.add_column()
    for first in (0, 3):
        row = [_render_city(first + i + 1, data["board"][first + i], seat) for i in range(3)]
        if extra is not None:
            row.append(extra if first == 0 else Text(""))
        board.add_row(*row)
    return board


def _hand_text(cards: list[int | None]) -> str:
    return "".join("?" if card is None else str(card) for card in cards)


def players_table(data: dict[str, Any], names: list[str] | None = None) -> Table:
    """Per player and colour of ``describe_position`` data: seat, score, points if the
    round were scored now, supply, selected blocks and the hand as far as it is shown;
    with ``names`` (one per player) a column naming who plays each seat."""
    to_move = data["to_move"]
    players = Table(box=None, padding=(0, 1), show_edge=False)
    columns = [("", "left"), ("player", "left")]
    if names is not None:
        columns.append(("who", "left"))
    columns += [
        ("seat", "left"),
        ("color", "left"),
        ("score", "right"),
        ("now", "right"),
        ("supply 1.2.3.4", "left"),
        ("selected", "left"),
        ("hand", "left"),
    ]
    for title, justify in columns:
        players.add_column(title, justify=justify)  # type: ignore[arg-type]
    color_index = {letter: i for i, letter in enumerate(data["colors"])}
    for player, letters in enumerate(data["player_colors"], start=1):
        for k, letter in enumerate(letters):
            i = color_index[letter]
            first = k == 0
            cells: list[Any] = [
                "▶" if first and player == to_move else "",
                f"P{player}" if first else "",
            ]
            if names is not None:
                cells.append(names[player - 1] if first else "")
            cells += [
                data["seats"][player - 1] if first else "",
                _block_text(letter, letter),
                str(data["scores"][i]),
                f"+{data['round_score'][i]}",
                ".".join(map(str, data["supply"][i])),
                "".join(map(str, data["selected"][i])) or "-",
                _hand_text(data["hands"][player - 1]) if first else "",
            ]
            players.add_row(*cells)
    return players


def position_view(data: dict[str, Any]) -> RenderableType:
    """A rich drawing of ``describe_position`` data."""

    to_move = data["to_move"]
    headline = Text(f"{data['players']} players · round {data['round']} of {data['rounds']} · ")
    if to_move is None:
        headline.append("game over")
    else:
        colors = "+".join(data["player_colors"][to_move - 1])
        headline.append(
            f"{data['phase']} · P{to_move} ({colors}, {data['seats'][to_move - 1]}) to move",
            style="bold",
        )

    board = board_grid(data)

    players = players_table(data)

    played = "".join(map(str, data["played"])) or "-"
    footer = Text(f"played: {played} · deck: {data['deck_count']} cards")
    options = [
        f"{k}={v}"
        for k, v in data["options"].items()
        if (k, v) not in (("two_player_total", "sum"), ("tallest_tie", "none"))
    ]
    if options:
        footer.append(" · " + " ".join(options))
    parts: list[Any] = [
        headline,
        board,
        Text("board seen from seat S; 'now' = points if the round were scored now", style="dim"),
        players,
        footer,
    ]
    if data["places"] is not None:
        result = ", ".join(
            f"P{p} {t} (place {pl})"
            for p, (t, pl) in enumerate(zip(data["totals"], data["places"], strict=True), start=1)
        )
        parts.append(Text(f"final: {result}", style="bold"))
    return Group(*parts)


def game_summary_view(summary: dict[str, Any]) -> RenderableType:
    """A played game's result (``play``'s JSON summary) as a table and notes."""

    table = Table(title=f"{summary['players']}-player game, seed {summary['seed']}")
    for column in ("place", "player", "bot", "total"):
        table.add_column(column, justify="right" if column in ("place", "total") else "left")
    rows = sorted(
        zip(
            summary["places"],
            range(1, summary["players"] + 1),
            summary["bots"],
            summary["totals"],
            strict=True,
        ),
    )
    for place, player, spec, total in rows:
        name = summary["names"][player - 1]
        label = f"P{player} {name}" if name and name != spec else f"P{player}"
        table.add_row(str(place), label, spec, str(total))
    parts: list[Any] = [table]
    for forfeit in summary["forfeits"]:
        parts.append(Text(f"P{forfeit['player']} forfeited: {forfeit['reason']}"))
    if summary["out"]:
        parts.append(Text(f"record written to {summary['out']}"))
    return Group(*parts)
