"""Terminal drawings for a person at the table (rich): their turn, the coach's feedback,
a hint, the bots' moves and the end of the game.

They take the plain data of ``analyzer.table.Table.to_json()`` and of the answers'
``to_json()``, so the browser can show the same facts its own way.  The board is drawn
from the person's seat: each city turned so their side is at the bottom, so card ``k``
always builds on the ``k``-th cell of a city in reading order.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from render.terminal import COLOR_STYLES, board_grid, players_table

CELL_NAMES = (
    "top-left",
    "top",
    "top-right",
    "left",
    "centre",
    "right",
    "bottom-left",
    "bottom",
    "bottom-right",
)
SHORT_LIST = 40  # moves listed one by one up to this many; beyond, a table per card
COMMANDS = "hint · undo · moves · save FILE · quit · help"


def card_site(card: int) -> str:
    """Where ``card`` builds in every city as its holder sees the board."""
    return CELL_NAMES[card - 1]


def _seat_of(data: dict[str, Any], player: int) -> dict[str, Any]:
    return data["seats"][player - 1]


def who(data: dict[str, Any], player: int) -> str:
    """``"P2 (random)"``, ``"P1 (you)"`` for the viewer, ``"P3 (human)"``."""
    seat = _seat_of(data, player)
    if player == data["viewer"] and seat["kind"] == "human":
        return f"P{player} (you)"
    return f"P{player} ({seat['name']})"


def _keypad(hand: list[int | None]) -> Table:
    """A 3×3 legend: which cell of every city each card builds on, the hand's cards lit."""
    held = {card for card in hand if card is not None}
    pad = Table(
        title="your cards",
        show_header=False,
        box=box.SQUARE,
        padding=(0, 0),
        title_style="bold",
    )
    for _ in range(3):
        pad.add_column(width=4, justify="center")
    for row in range(3):
        cells = []
        for card in range(row * 3 + 1, row * 3 + 4):
            style = "bold reverse" if card in held else "dim"
            cells.append(Text(str(card), style=style))
        pad.add_row(*cells)
    return pad


def hand_line(hand: list[int | None]) -> Text:
    """``your hand: 2 (top) · 5 (centre) ×2 · 7 (bottom-left)``."""
    counts: dict[int, int] = {}
    for card in hand:
        if card is not None:
            counts[card] = counts.get(card, 0) + 1
    line = Text("your hand: ", style="bold")
    parts = []
    for card, count in sorted(counts.items()):
        times = f" ×{count}" if count > 1 else ""
        parts.append(f"{card} → {card_site(card)}{times}")
    line.append(" · ".join(parts) or "-")
    return line


def _headline(data: dict[str, Any]) -> Text:
    state = data["state"]
    text = Text(f"round {state['round']} of {state['rounds']} · {state['phase']} · ")
    if data["over"]:
        text.append("game over", style="bold")
    elif data["your_turn"]:
        viewer = data["viewer"]
        colors = "+".join(_seat_of(data, viewer)["colors"])
        seat = _seat_of(data, viewer)["seat"]
        text.append(f"your turn: P{viewer} ({colors}, seat {seat})", style="bold")
    else:
        text.append(f"{who(data, data['to_move'])} to move", style="bold")
    return text


def board_view(data: dict[str, Any]) -> RenderableType:
    """The board from the viewer's seat with the legend of their cards, the players and
    the viewer's hand."""
    state = data["state"]
    viewer = data["viewer"]
    seat = _seat_of(data, viewer)["seat"]
    hand = state["hands"][viewer - 1]
    names = [
        "you" if p == viewer and s["kind"] == "human" else s["name"]
        for p, s in enumerate(data["seats"], start=1)
    ]
    played = "".join(map(str, state["played"])) or "-"
    parts: list[Any] = [
        _headline(data),
        board_grid(state, seat, _keypad(hand)),
        Text(
            f"board seen from your seat ({seat}); 'now' = points if the round were scored now",
            style="dim",
        ),
        players_table(state, names),
        Text(f"played: {played} · deck: {state['deck_count']} cards", style="dim"),
        hand_line(hand),
    ]
    return Group(*parts)


def _numbered(number: int, move: str) -> Text:
    text = Text(f"{number:>3} ", style="dim")
    text.append(move)
    return text


def _block_order(block: str) -> tuple[str, str]:
    """Blocks by colour, then stories (``"3c"``: stories 3, colour c)."""
    return (block[-1] if block[-1].isalpha() else "", block)


def _placement_tables(legal: list[str]) -> list[Table]:
    """One small table per card: rows are the blocks (stories and colour), columns the
    cities, cells the numbers of the moves."""
    numbers = {move: i for i, move in enumerate(legal, start=1)}
    by_card: dict[str, dict[str, dict[str, int]]] = {}
    for move, number in numbers.items():
        card, rest = move.split("@")
        city, block = rest.split(":")
        by_card.setdefault(card, {}).setdefault(block, {})[city] = number
    tables = []
    for card, blocks in by_card.items():
        table = Table(
            title=f"card {card} → {card_site(int(card))}",
            title_justify="left",
            box=box.SIMPLE_HEAD,
            padding=(0, 1),
            pad_edge=False,
        )
        table.add_column("block", justify="left")
        cities = sorted({city for cells in blocks.values() for city in cells})
        for city in cities:
            table.add_column(city if city != "-" else "none", justify="right")
        for block, cells in sorted(blocks.items(), key=lambda item: _block_order(item[0])):
            letter = block[-1] if block[-1].isalpha() else None
            label = Text(block, style=COLOR_STYLES.get(letter or "", ""))
            row: list[Any] = [label]
            row += [str(cells[c]) if c in cells else Text("·", style="dim") for c in cities]
            table.add_row(*row)
        tables.append(table)
    return tables


def moves_view(data: dict[str, Any], full: bool = False) -> RenderableType:
    """The legal moves of the person to move, numbered from 1 in canonical order: every
    one when there are few (or ``full``); placements as a table per card (block × city
    → number); a 2-player selection as the choices of each colour."""
    legal = data["legal"]
    if not legal:
        return Text("no move to make now")
    if full or len(legal) <= SHORT_LIST:
        items = [_numbered(n, m) for n, m in enumerate(legal, start=1)]
        return Group(Text(f"your moves ({len(legal)}):"), Columns(items, padding=(0, 2)))
    if data["choices"] and len(data["choices"]) > 1:
        lines: list[Any] = [
            Text(f"your selection: one group of blocks per colour ({len(legal)} ways)")
        ]
        for choice in data["choices"]:
            line = Text("  ")
            line.append(choice["color"], style=COLOR_STYLES.get(choice["color"], ""))
            line.append(": " + " ".join(choice["groups"]))
            lines.append(line)
        first = [c["groups"][-1] for c in data["choices"]]
        lines.append(
            Text(
                f"type it as ={'/'.join(first)} (first colour, then the second), "
                f"or its number 1-{len(legal)} (moves lists them all)",
                style="dim",
            )
        )
        return Group(*lines)
    if data["choices"]:
        items = [_numbered(n, m) for n, m in enumerate(legal, start=1)]
        return Group(Text(f"your moves ({len(legal)}):"), Columns(items, padding=(0, 2)))
    tables = _placement_tables(legal)
    return Group(
        Text(
            f"your moves ({len(legal)}), by number: a table per card, a row per block, "
            "a column per city"
        ),
        Columns(tables, padding=(0, 3)),
    )


def turn_view(data: dict[str, Any]) -> RenderableType:
    """A person's turn: the board from their seat, their hand, their moves and how to
    answer."""
    return Group(
        board_view(data),
        moves_view(data),
        Text(f"type a move (notation or number) or: {COMMANDS}", style="dim"),
    )


def bot_move_line(data: dict[str, Any], move: dict[str, Any]) -> Text:
    """``P2 (random) plays 3@4:2b``, with a forfeit's reason."""
    line = Text(f"{who(data, move['player'])} plays ")
    line.append(move["move"], style="bold")
    if move.get("forfeit"):
        line.append(f" (forfeited: {move['forfeit']}; playing at random)", style="yellow")
    return line


def feedback_view(feedback: dict[str, Any]) -> RenderableType:
    """The coach's feedback: the verdict with its figures, what the move does, the better
    move and why, and the punishing reply."""
    mark = feedback["mark"]
    style = "green" if feedback["agrees"] else ("red" if mark else "yellow")
    parts: list[Any] = [Text("coach: ", style="bold").append(feedback["headline"], style=style)]
    sentences = feedback["sentences"]
    if feedback["better"] and not feedback["played"].startswith("="):
        for label, sentence in zip(("you", "better"), sentences, strict=False):
            parts.append(Text(f"  {label}: ", style="dim").append(sentence))
    if feedback["better"] and feedback["summary"]:
        parts.append(Text("  why: ", style="dim").append(feedback["summary"]))
    if feedback["better"]:
        for reply in feedback["replies"]:
            parts.append(Text("  punishing reply: ", style="dim").append(reply["text"]))
    return Group(*parts)


def hint_view(hint: dict[str, Any]) -> RenderableType:
    """A hint: the engine's move, its number, its figures, what it does and why it beats
    the runner-up."""
    number = f" (number {hint['number']})" if hint["number"] else ""
    head = Text("hint: ", style="bold")
    head.append(f"{hint['move']}{number}", style="bold cyan")
    head.append(
        f" · win {hint['win']:.0%} ({hint['win_low']:.0%}-{hint['win_high']:.0%})"
        f" · {hint['score']:.1f} points"
    )
    parts: list[Any] = [head]
    if hint["reason"]:
        parts.append(Text(f"  it {hint['reason']}"))
    if hint["why"] and hint["runner_up"]:
        parts.append(Text(f"  against {hint['runner_up']}: {hint['why']}", style="dim"))
    return Group(*parts)


def round_scored_line(data: dict[str, Any], before: list[int], round_number: int) -> Text:
    """``round 2 scored: P1 +12 → 34 · P2 +9 → 30``."""
    parts = []
    for player, (old, new) in enumerate(zip(before, data["totals"], strict=True), start=1):
        parts.append(f"{who(data, player)} +{new - old} → {new}")
    return Text(f"round {round_number} scored: " + " · ".join(parts), style="bold")


def final_view(data: dict[str, Any]) -> RenderableType:
    """The end of the game: the board, the places and the totals."""
    table = Table(title="final scores")
    for column in ("place", "player", "total"):
        table.add_column(column, justify="left" if column == "player" else "right")
    places = data["places"] or [None] * data["players"]
    rows = sorted(
        zip(places, range(1, data["players"] + 1), data["totals"], strict=True),
        key=lambda row: (row[0] or 0, row[1]),
    )
    for place, player, total in rows:
        table.add_row(str(place or "-"), who(data, player), str(total))
    return Group(board_grid(data["state"], _seat_of(data, data["viewer"])["seat"]), table)


HELP = """\
At your turn type one of:
  a move       in notation: =112234 (2 players: =1123/1234), 7@3:4 (2 players: 7@3:4c),
               7@-:1 when no placement is legal; in 2 players the colour may be left out
               when only one colour fits
  a number     the move's number in the list (from 1)
  hint         the engine's move and why (from your cards only)
  undo         take back your last move and the moves after it
  moves        list every legal move with its number
  board        draw the board again
  save FILE    save the record to FILE (.mgn) and keep saving there
  quit         save the record and stop
  help         this text
End of input (Ctrl-D) saves and stops; so does Ctrl-C."""


def help_view() -> Text:
    """The commands a person can type."""
    return Text(HELP)
