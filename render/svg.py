"""The board picture (SVG): the one renderer the command line and every report use.

``board_svg(state, seat, highlights)`` draws the six cities as 3×3 grids turned the way
the viewer sees them (see ``render.seats``): each building with its height, its owner's
colour and letter, a bar of its blocks when several colours share it, a star on the
tallest building(s), and each city framed in its majority owner's colour with the letter
above; beside them the scores, the selected blocks, the viewer's hand (each card a small
grid with the cell it builds on) and the played pile; and the highlighted moves: the move
played (solid outline), the engine's choice (dashed) or other candidates (dotted), with a
legend saying which site each builds on.

The SVG carries its structure for programs and tests: ``<g class="city" data-city="3"
data-majority="b">``, ``<g class="building tallest" data-city="3" data-site="7"
data-owner="b" data-height="5" data-stack="a2b3">`` (site 1..9 in reading order from
seat S, as in the notation), ``<g class="highlight played" data-move="4@3:4"
data-player="1" data-city="3" data-site="7">``, and ``<g class="card" data-card="4"
data-cell="4">`` in the hand (the cell of a city it builds on, 1..9 as drawn).  Style is
by CSS classes (``BOARD_CSS``): an HTML page holding many boards states it once and
embeds each board with ``standalone=False``.  Each element is one line of the text, so
the boards of one game share most of their lines.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from positions import rules
from positions.errors import ManhattanError
from positions.layout import CITIES, COLOR_LETTERS, SIZES
from positions.moves import NoPlacement, Placement, Selection, parse_move
from positions.state import GameState, Phase
from render.palette import BLOCK_FILLS, BLOCK_TEXT
from render.seats import cell_in_view, sides_in_view, sites_in_view, viewer_player

HIGHLIGHT_KINDS = ("played", "engine", "candidate")
HIGHLIGHT_NAMES = {"played": "move played", "engine": "engine's choice", "candidate": "candidate"}

SITE = 30  # one site's square
CITY = 3 * SITE
PAD = 8
HEADER = 24  # the title line above the cities
CITY_TITLE = 15
GAP_X = 14
GAP_Y = 8
BOARD_W = PAD + 3 * CITY + 2 * GAP_X
BOARD_H = HEADER + 2 * (CITY_TITLE + CITY) + GAP_Y
PANEL_X = BOARD_W + 14
WIDTH = PANEL_X + 240
ROW = 16  # a line of the panel or legend
MINI = 11  # a cell of a hand card

_COLOR_CSS = "".join(
    f".mb .c{k}{{fill:{v}}}.mb .t{k}{{fill:{BLOCK_TEXT[k]}}}" for k, v in BLOCK_FILLS.items()
)
BOARD_CSS = (
    ".mb{font-family:'DejaVu Sans',Verdana,sans-serif;font-size:11px}"
    ".mb text{fill:#222}"
    ".mb .ttl{font-size:13px;font-weight:bold}"
    ".mb .dim{fill:#666}"
    ".mb .grid{fill:#f3f3f3;stroke:#c8c8c8}"
    ".mb .frame{fill:none;stroke:#999;stroke-width:1}"
    ".mb .maj{stroke-width:3}"
    ".mb .cn{fill:#b0b0b0;font-size:10px;text-anchor:middle}"
    ".mb .h{font-size:13px;font-weight:bold;text-anchor:middle}"
    ".mb .l{font-size:9px;font-weight:normal}"
    ".mb .chip text,.mb .sel text{text-anchor:middle;font-weight:bold;font-size:9px}"
    ".mb .bar{fill:#fff}"
    ".mb .star{stroke-width:1}.mb .star.s{fill:#222;stroke:#fff}"
    ".mb .star.tie{fill:#fff;stroke:#222}"
    ".mb .halo{fill:none;stroke:#fff;stroke-width:5}"
    ".mb .hl{fill:none;stroke:#000;stroke-width:3}"
    ".mb .engine .hl{stroke-dasharray:6 3}"
    ".mb .candidate .hl{stroke-dasharray:2 2;stroke-width:2}"
    ".mb .badge{fill:#fff;stroke:#000}"
    ".mb .bt{font-size:9px;font-weight:bold;text-anchor:middle}"
    ".mb .mini{fill:#fff;stroke:#888}.mb .mini path{fill:none}.mb .mark{fill:#333}"
    ".mb .unk{fill:#eee;stroke:#888}"
    ".mb .cnum{font-weight:bold;text-anchor:middle}"
    ".mb .you{font-weight:bold}"
    ".mb .cmp{fill:none;stroke:#aaa}.mb .cmpl{font-size:9px;text-anchor:middle;fill:#555}"
    + _COLOR_CSS
)


@dataclass(frozen=True)
class Highlight:
    """A move to mark on the board: ``move`` in notation (``"4@3:4"``), drawn as the move
    ``played`` (solid outline), the ``engine``'s choice (dashed) or another ``candidate``
    (dotted).  ``player`` (1-based) is who makes the move, default the player to move: a
    card builds on a different site from each seat.  ``label`` is a short text drawn in a
    badge on the site (a rank, a block's stories); ``caption`` replaces the kind's name in
    the legend."""

    move: str
    kind: str = "played"
    player: int | None = None
    label: str | None = None
    caption: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in HIGHLIGHT_KINDS:
            raise ManhattanError(
                f"highlight kind {self.kind!r}: expected one of {', '.join(HIGHLIGHT_KINDS)}"
            )


def highlighted_site(state: GameState, highlight: Highlight) -> int | None:
    """The board site (0..53) ``highlight``'s move builds on, from its player's seat; None
    for a selection or a no-placement move.  Raises ``ManhattanError`` for bad move text
    or a player not in the game."""
    move = parse_move(highlight.move)
    mover = _mover(state, highlight)
    if not isinstance(move, Placement):
        return None
    return (move.city - 1) * 9 + state.layout.card_sites[mover][move.card]


def _mover(state: GameState, highlight: Highlight) -> int:
    if highlight.player is None:
        if state.phase == Phase.OVER:
            raise ManhattanError(
                f"highlight {highlight.move}: the game is over, name the player who moves"
            )
        return state.current_player()
    if not 1 <= highlight.player <= state.players:
        raise ManhattanError(
            f"highlight {highlight.move}: player {highlight.player} is not in a "
            f"{state.players}-player game"
        )
    return highlight.player - 1


def _as_highlight(item: Highlight | str) -> Highlight:
    return item if isinstance(item, Highlight) else Highlight(item)


def _text(value: object) -> str:
    return escape(str(value), quote=True)


def city_origin(city: int) -> tuple[int, int]:
    """Top-left corner of city ``city``'s (0-based) grid in the picture."""
    col, row = city % 3, city // 3
    return PAD + col * (CITY + GAP_X), HEADER + CITY_TITLE + row * (CITY + CITY_TITLE + GAP_Y)


def site_origin(seat: str, site: int) -> tuple[int, int]:
    """Top-left corner of board site ``site`` (0..53) as ``seat`` sees the board."""
    city, in_city = divmod(site, 9)
    x, y = city_origin(city)
    row, col = divmod(cell_in_view(seat, in_city), 3)
    return x + col * SITE, y + row * SITE


def _star(cx: float, cy: float, radius: float = 5.5) -> str:
    points = []
    for k in range(10):
        r = radius if k % 2 == 0 else radius * 0.45
        angle = math.pi * (k / 5 - 0.5)
        points.append(f"{cx + r * math.cos(angle):.1f},{cy + r * math.sin(angle):.1f}")
    return " ".join(points)


def tallest_sites(state: GameState) -> tuple[set[int], bool]:
    """The sites of the tallest buildings, and whether their owner scores the 3 points
    (a single tallest, or with ``tallest_tie=shared`` one owner of all of them)."""
    top = max(state.height)
    if top == 0:
        return set(), False
    sites = {s for s, h in enumerate(state.height) if h == top}
    owners = {state.owner[s] for s in sites}
    scores = len(sites) == 1 or (state.options.tallest_tie == "shared" and len(owners) == 1)
    return sites, scores


# ----- the cities --------------------------------------------------------------------------


def _building(state: GameState, seat: str, site: int, tallest: set[int], scores: bool) -> str:
    x, y = site_origin(seat, site)
    owner = COLOR_LETTERS[state.owner[site]]
    height = state.height[site]
    stack = state.stack(site)
    classes = "building"
    if site in tallest:
        classes += " tallest" if scores else " tallest tie"
    city, in_city = divmod(site, 9)
    stack_text = "".join(f"{COLOR_LETTERS[c]}{s}" for c, s in stack)
    parts = [
        f'<g class="{classes}" data-city="{city + 1}" data-site="{in_city + 1}" '
        f'data-owner="{owner}" data-height="{height}" data-stack="{stack_text}">'
        f'<rect class="c{owner}" x="{x + 1}" y="{y + 1}" width="{SITE - 2}" '
        f'height="{SITE - 2}" rx="3"/>'
    ]
    text_y = y + 20
    if len({color for color, _ in stack}) > 1:  # who holds how many stories: takeovers
        text_y = y + 17
        parts.append(f'<rect class="bar" x="{x + 3}" y="{y + 20}" width="{SITE - 6}" height="7"/>')
        left = x + 4.0
        for color, stories in stack:
            width = (SITE - 8) * stories / height
            parts.append(
                f'<rect class="c{COLOR_LETTERS[color]}" x="{left:.1f}" y="{y + 21}" '
                f'width="{width:.1f}" height="5"/>'
            )
            left += width
    size = ' style="font-size:11px"' if height >= 10 else ""
    parts.append(
        f'<text class="h t{owner}" x="{x + SITE // 2}" y="{text_y}"{size}>{height}'
        f'<tspan class="l">{owner}</tspan></text>'
    )
    if site in tallest:
        star = "star s" if scores else "star tie"
        parts.append(f'<polygon class="{star}" points="{_star(x + 3, y + 3, 4.5)}"/>')
    parts.append("</g>")
    return "".join(parts)


def _city(state: GameState, seat: str, city: int, tallest: set[int], scores: bool) -> list[str]:
    x, y = city_origin(city)
    majority = rules.city_majority(rules.city_buildings(state.owner, city))
    letter = COLOR_LETTERS[majority] if majority >= 0 else ""
    lines = [
        f'<g class="city" data-city="{city + 1}" data-majority="{letter}">',
        f'<text x="{x}" y="{y - 4}" class="you">City {city + 1}</text>'
        f'<rect class="grid" x="{x}" y="{y}" width="{CITY}" height="{CITY}"/>'
        f'<path class="frame" d="M{x + SITE} {y}v{CITY}M{x + 2 * SITE} {y}v{CITY}'
        f'M{x} {y + SITE}h{CITY}M{x} {y + 2 * SITE}h{CITY}"/>',
    ]
    for cell, in_city in enumerate(sites_in_view(seat)):
        site = city * 9 + in_city
        if state.owner[site] < 0:  # the viewer's card that builds here
            cx = x + (cell % 3) * SITE + SITE // 2
            cy = y + (cell // 3) * SITE + SITE // 2 + 4
            lines.append(f'<text class="cn" x="{cx}" y="{cy}">{cell + 1}</text>')
        else:
            lines.append(_building(state, seat, site, tallest, scores))
    if letter:
        lines.append(
            f'<rect class="frame maj" x="{x - 1}" y="{y - 1}" width="{CITY + 2}" '
            f'height="{CITY + 2}" style="stroke:{BLOCK_FILLS[letter]}"/>'
            + _chip(letter, x + CITY - 12, y - 15, "majority")
        )
    lines.append("</g>")
    return lines


def _chip(letter: str, x: float, y: float, role: str = "") -> str:
    role_class = f" {role}" if role else ""
    return (
        f'<g class="chip{role_class}"><rect class="c{letter}" x="{x}" y="{y}" width="12" '
        f'height="12" rx="2"/><text class="t{letter}" x="{x + 6}" y="{y + 9}">{letter}</text></g>'
    )


def _highlights(state: GameState, seat: str, items: Sequence[Highlight]) -> list[str]:
    lines = []
    per_site: dict[int, int] = {}
    for item in items:
        site = highlighted_site(state, item)
        if site is None:
            continue
        depth = per_site.get(site, 0)  # several moves on one site: nested outlines
        per_site[site] = depth + 1
        x, y = site_origin(seat, site)
        inset = 2 + 4 * depth
        box = f'x="{x + inset}" y="{y + inset}" width="{SITE - 2 * inset}" '
        box += f'height="{SITE - 2 * inset}"'
        city, in_city = divmod(site, 9)
        line = (
            f'<g class="highlight {item.kind}" data-move="{_text(item.move)}" '
            f'data-player="{_mover(state, item) + 1}" data-city="{city + 1}" '
            f'data-site="{in_city + 1}"><rect class="halo" {box}/><rect class="hl" {box}/>'
        )
        if item.label:
            bx, by = x + SITE - 4 - 4 * depth, y + 4 + 4 * depth
            line += (
                f'<rect class="badge" x="{bx - 7}" y="{by - 6}" width="14" height="11" rx="3"/>'
                f'<text class="bt" x="{bx}" y="{by + 3}">{_text(item.label[:3])}</text>'
            )
        lines.append(line + "</g>")
    return lines


def _headline(state: GameState, viewer: int) -> list[str]:
    table = state.layout
    if state.phase == Phase.OVER:
        winners = [f"P{p + 1}" for p, place in enumerate(state.places()) if place == 1]
        status = f"Game over · {' and '.join(winners)} first"
    else:
        phase = "selection" if state.phase == Phase.SELECTION else "placement"
        status = (
            f"Round {state.round} of {table.rounds} · {phase} · "
            f"P{state.current_player() + 1} to move"
        )
    return [
        f'<text class="ttl" x="{PAD}" y="16">{status}</text>',
        f'<text class="dim" x="{WIDTH - PAD}" y="16" text-anchor="end">seen from '
        f"{table.player_seats[viewer]} (P{viewer + 1})</text>",
    ]


# ----- the panel ---------------------------------------------------------------------------


def _player_rows(
    state: GameState, viewer: int, names: Sequence[str | None]
) -> tuple[list[str], int]:
    """One group per colour; its parts on their own lines (what changes from move to move
    is small)."""
    table = state.layout
    now = state.round_points()
    places = state.places() if state.phase == Phase.OVER else None
    totals = state.player_totals()
    x = PANEL_X
    y = HEADER + 10
    lines = [
        f'<text class="dim" x="{x + 138}" y="{y}" text-anchor="end">score</text>'
        f'<text class="dim" x="{x + 142}" y="{y}">{"now" if places is None else "place"}</text>'
        f'<text class="dim" x="{x + 176}" y="{y}">selected</text>'
    ]
    y += 4
    for player, colors in enumerate(table.player_colors):
        you = ' class="you"' if player == viewer else ""
        for k, color in enumerate(colors):
            letter = COLOR_LETTERS[color]
            lines.append(f'<g class="player" data-player="{player + 1}" data-color="{letter}">')
            if k == 0 and places is None and player == state.current_player():
                lines.append(f'<text x="{x}" y="{y + 10}">▶</text>')
            if k == 0:
                name = names[player] if player < len(names) else None
                label = f"P{player + 1} {table.player_seats[player]}"
                label += f" {name[:10]}" if name else ""
                label_text = f'<text{you} x="{x + 28}" y="{y + 10}">{_text(label)}</text>'
            else:
                label_text = (
                    f'<text class="dim" x="{x + 28}" y="{y + 10}">total {totals[player]}</text>'
                )
            lines.append(_chip(letter, x + 12, y) + label_text)
            lines.append(
                f'<text{you} x="{x + 138}" y="{y + 10}" text-anchor="end">'
                f"{state.scores[color]}</text>"
            )
            if places is None:
                lines.append(f'<text class="dim" x="{x + 142}" y="{y + 10}">+{now[color]}</text>')
            elif k == 0:
                lines.append(f'<text x="{x + 142}" y="{y + 10}">{_ordinal(places[player])}</text>')
            lines.append(_selected(state, color, x + 176, y))
            lines.append("</g>")
            y += ROW
    return lines, y


def _ordinal(place: int) -> str:
    return f"{place}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place, 'th') }"


def _selected(state: GameState, color: int, x: int, y: int) -> str:
    letter = COLOR_LETTERS[color]
    blocks = [
        size
        for size in range(1, SIZES + 1)
        for _ in range(state.selected[color * SIZES + size - 1])
    ]
    if not blocks:
        return f'<text class="dim" x="{x}" y="{y + 10}">-</text>'
    parts = [f'<g class="sel" data-blocks="{"".join(map(str, blocks))}">']
    for i, size in enumerate(blocks):
        bx = x + i * 10
        parts.append(
            f'<rect class="c{letter}" x="{bx}" y="{y + 1}" width="9" height="11"/>'
            f'<text class="t{letter}" x="{bx + 4.5}" y="{y + 10}">{size}</text>'
        )
    parts.append("</g>")
    return "".join(parts)


def _hand(
    state: GameState, viewer: int, y: int, items: Sequence[Highlight], before: bool
) -> tuple[list[str], int]:
    x = PANEL_X
    title = f"Hand of P{viewer + 1}" + (" before the move" if before else "")
    note = "" if before else "card k builds on cell k"
    lines = [
        f'<text class="you" x="{x}" y="{y + 10}">{title}</text>'
        f'<text class="dim" x="{x + 78}" y="{y + 10}">{note}</text>'
    ]
    y += 16
    marked = _hand_marks(state, viewer, items)
    side = 3 * MINI
    for i, card in enumerate(state.hand(viewer)):
        cx = x + i * (side + 14)
        if card == 0:
            lines.append(
                f'<g class="card" data-card="?"><rect class="unk" x="{cx}" y="{y}" '
                f'width="{side}" height="{side}" rx="2"/><text class="cnum" '
                f'x="{cx + side // 2}" y="{y + side // 2 + 4}">?</text></g>'
            )
            continue
        # The viewer's card k builds on the k-th cell of every city as drawn.
        row, col = divmod(card - 1, 3)
        line = (
            f'<g class="card" data-card="{card}" data-cell="{card}"><g class="mini">'
            f'<rect x="{cx}" y="{y}" width="{side}" height="{side}"/>'
            f'<path d="M{cx + MINI} {y}v{side}M{cx + 2 * MINI} {y}v{side}M{cx} {y + MINI}'
            f'h{side}M{cx} {y + 2 * MINI}h{side}"/></g>'
            f'<rect class="mark" x="{cx + col * MINI + 1}" y="{y + row * MINI + 1}" '
            f'width="{MINI - 1}" height="{MINI - 1}"/>'
            f'<text class="cnum" x="{cx + side // 2}" y="{y + side + 12}">{card}</text>'
        )
        if card in marked:
            box = f'x="{cx - 3}" y="{y - 3}" width="{side + 6}" height="{side + 19}"'
            line += (
                f'<g class="highlight {marked[card]}"><rect class="halo" {box}/>'
                f'<rect class="hl" {box}/></g>'
            )
        lines.append(line + "</g>")
    return lines, y + side + 17


def _hand_marks(state: GameState, viewer: int, items: Sequence[Highlight]) -> dict[int, str]:
    """Cards of the viewer's hand that a highlighted move of the viewer plays."""
    marks: dict[int, str] = {}
    for item in items:
        move = parse_move(item.move)
        if isinstance(move, Placement | NoPlacement) and _mover(state, item) == viewer:
            marks.setdefault(move.card, item.kind)
    return marks


def _pile(state: GameState, y: int) -> tuple[list[str], int]:
    """The played pile, 20 cards a row beside its label, and the deck count below them."""
    played = "".join(str(c) for c in range(1, 10) for _ in range(state.played[c])) or "-"
    rows = [played[i : i + 20] for i in range(0, len(played), 20)]
    lines = [
        f'<g class="pile" data-cards="{played}">',
        f'<text x="{PANEL_X}" y="{y + 10}">Played</text>',
    ]
    for k, row in enumerate(rows):
        lines.append(
            f'<text x="{PANEL_X + 44}" y="{y + 10 + 13 * k}" letter-spacing="1">{row}</text>'
        )
    deck_y = y + 10 + 13 * len(rows)
    lines.append(f'<text class="dim" x="{PANEL_X}" y="{deck_y}">deck {state.deck_count()}</text>')
    lines.append("</g>")
    return lines, deck_y + 5


def _compass(seat: str, y: int) -> tuple[str, int]:
    sides = sides_in_view(seat)
    x = PANEL_X + 8
    size = 20
    cx, cy = x + size // 2, y + size // 2 + 11
    line = (
        f'<g class="compass" data-bottom="{sides["bottom"]}" data-left="{sides["left"]}" '
        f'data-top="{sides["top"]}" data-right="{sides["right"]}">'
        f'<rect class="cmp" x="{x}" y="{y + 11}" width="{size}" height="{size}"/>'
        f'<text class="cmpl" x="{cx}" y="{y + 8}">{sides["top"]}</text>'
        f'<text class="cmpl" x="{cx}" y="{y + size + 20}">{sides["bottom"]}</text>'
        f'<text class="cmpl" x="{x - 6}" y="{cy + 3}">{sides["left"]}</text>'
        f'<text class="cmpl" x="{x + size + 6}" y="{cy + 3}">{sides["right"]}</text></g>'
        f'<text class="dim" x="{x + size + 18}" y="{y + 18}">cities turned so that</text>'
        f'<text class="dim" x="{x + size + 18}" y="{y + 31}">seat {seat} is at the bottom</text>'
    )
    return line, y + size + 22


def _legend(state: GameState, items: Sequence[Highlight], y: int) -> tuple[list[str], int]:
    x = PAD
    lines = [
        f'<polygon class="star s" points="{_star(x + 6, y + 6, 6)}"/>'
        f'<text x="{x + 16}" y="{y + 10}">tallest (+3)</text>'
        f'<polygon class="star tie" points="{_star(x + 100, y + 6, 6)}"/>'
        f'<text x="{x + 110}" y="{y + 10}">tied tallest (nobody)</text>'
        f'<rect class="frame maj" x="{x + 252}" y="{y + 1}" width="10" height="10" '
        f'style="stroke:#666"/><text x="{x + 268}" y="{y + 10}">frame and letter: city '
        f"majority (+2)</text>"
    ]
    y += ROW
    seen: set[tuple[str, str]] = set()
    for item in items:
        if (item.kind, item.move) in seen:
            continue
        seen.add((item.kind, item.move))
        box = f'x="{x + 1}" y="{y}" width="12" height="12"'
        name = _text(item.caption) if item.caption else HIGHLIGHT_NAMES[item.kind]
        if item.label and item.kind == "candidate" and not item.caption:
            name += f" {_text(item.label)}"
        lines.append(
            f'<g class="highlight {item.kind}"><rect class="halo" {box}/>'
            f'<rect class="hl" {box}/></g>'
        )
        lines.append(
            f'<text x="{x + 20}" y="{y + 10}">{name}: <tspan class="you">{_text(item.move)}'
            f"</tspan> by P{_mover(state, item) + 1}{_where(state, item)}</text>"
        )
        y += ROW
    return lines, y


def _where(state: GameState, item: Highlight) -> str:
    move = parse_move(item.move)
    if isinstance(move, Placement):
        site = highlighted_site(state, item)
        assert site is not None
        return f" · card {move.card} builds on site {site % 9 + 1} of city {move.city}"
    if isinstance(move, NoPlacement):
        return " · no legal placement: the block leaves the game"
    if isinstance(move, Selection):
        return " · a selection"
    return ""


# ----- the picture -------------------------------------------------------------------------


def board_svg(
    state: GameState,
    seat: int | str | None = None,
    highlights: Sequence[Highlight | str] = (),
    *,
    names: Sequence[str | None] = (),
    hand_before: GameState | None = None,
    standalone: bool = True,
) -> str:
    """The picture of ``state`` as SVG text.

    ``seat`` chooses the viewer: a player number, ``"P2"``, a seat letter, or ``None`` for
    the player to move (P1 once the game is over); the cities are turned the way the
    viewer sees them and the viewer's hand is drawn.  ``highlights`` are moves to mark (a
    plain string is a move played by the player to move).  ``names`` label the players.
    ``hand_before``, the position before a highlighted move, shows the viewer's hand as
    it was then: the cards the move played and the engine's choice were chosen from.
    ``standalone=False`` leaves out the XML namespace and the style sheet, for an HTML
    page that states ``BOARD_CSS`` once.  Raises ``ManhattanError`` for a bad seat or
    highlight."""
    viewer = viewer_player(state, seat)
    if hand_before is not None and hand_before.players != state.players:
        raise ManhattanError(
            f"hand_before: a {hand_before.players}-player position for a "
            f"{state.players}-player board"
        )
    view_seat = state.layout.player_seats[viewer]
    items = [_as_highlight(h) for h in highlights]
    for item in items:
        highlighted_site(state, item)  # bad text or player: raise before drawing
    tallest, scores = tallest_sites(state)
    lines = _headline(state, viewer)
    for city in range(CITIES):
        lines.extend(_city(state, view_seat, city, tallest, scores))
    lines.extend(_highlights(state, view_seat, items))
    rows, y = _player_rows(state, viewer, names)
    lines.extend(rows)
    hand_state = state if hand_before is None else hand_before
    hand, y = _hand(hand_state, viewer, y + 8, items, hand_before is not None)
    lines.extend(hand)
    pile, y = _pile(state, y)
    lines.extend(pile)
    compass, y = _compass(view_seat, y)
    lines.append(compass)
    legend, legend_end = _legend(state, items, max(BOARD_H, y) + 4)
    lines.extend(legend)
    height = legend_end + PAD
    namespace = ' xmlns="http://www.w3.org/2000/svg"' if standalone else ""
    head = [
        f'<svg{namespace} class="mb" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" '
        f'height="{height}" data-seat="{view_seat}" data-viewer="{viewer + 1}">'
    ]
    if standalone:
        head.append(f"<style>{BOARD_CSS}</style>")
    head.append(f'<rect width="{WIDTH}" height="{height}" fill="#fff"/>')
    return "\n".join([*head, *lines, "</svg>"])
