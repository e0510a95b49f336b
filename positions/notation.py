"""Position strings (NOTATION.md, "Position string"): reading with every validity rule,
and canonical writing.

``parse_position(text)`` returns a ``GameState``; ``write_position(state)`` gives its
canonical string, so ``write_position(parse_position(s))`` is the canonical form of ``s``
and reading it again gives the same state.
"""

from __future__ import annotations

import re

from positions.errors import InvalidPositionError, NotationError
from positions.layout import (
    CARD_TYPES,
    CARDS_PER_TYPE,
    COLOR_LETTERS,
    COLORS,
    DECK_SIZE,
    FULL_SET,
    HAND_SIZE,
    SITES,
    SITES_PER_CITY,
    SIZES,
    layout,
)
from positions.options import parse_options
from positions.state import GameState, Phase

FIELD_NAMES = (
    "board",
    "players",
    "round",
    "to move",
    "phase",
    "scores",
    "supply",
    "selected",
    "hands",
    "played",
)
_STACK = re.compile(r"(?:[abcd][1-4])+")
_BLOCK = re.compile(r"([abcd])([1-4])")
_SUPPLY = re.compile(r"([0-9]{1,9})\.([0-9]{1,9})\.([0-9]{1,9})\.([0-9]{1,9})")


def _is_number(text: str) -> bool:
    """Whether ``text`` is a whole number in ASCII digits (``str.isdigit`` also takes ``²``)
    of at most 9 digits (``int`` refuses strings of over 4300 digits with a ValueError)."""
    return text.isascii() and text.isdigit() and len(text) <= 9


def _field_error(index: int, message: str) -> NotationError:
    return NotationError(f"position field {index + 1} ({FIELD_NAMES[index]}): {message}")


def _entries(fields: list[str], index: int, count: int, what: str) -> list[str]:
    entries = fields[index].split(",")
    if len(entries) != count:
        raise _field_error(
            index,
            f"expected {count} {what} joined by ',', found {len(entries)} in {fields[index]!r}",
        )
    return entries


def _parse_board(text: str, colors_in_play: int) -> list[list[tuple[int, int]]]:
    cities = text.split("/")
    if len(cities) != 6:
        raise _field_error(0, f"expected 6 cities joined by '/', found {len(cities)}")
    stacks: list[list[tuple[int, int]]] = []
    for number, city in enumerate(cities, start=1):
        sites_before = len(stacks)
        for item in city.split(","):
            if len(item) == 1 and item in "123456789":
                stacks.extend([] for _ in range(int(item)))
            elif _STACK.fullmatch(item):
                blocks = [(COLOR_LETTERS.index(c), int(s)) for c, s in _BLOCK.findall(item)]
                for color, _ in blocks:
                    if color >= colors_in_play:
                        raise _field_error(
                            0, f"city {number}: color {COLOR_LETTERS[color]} is not in this game"
                        )
                stacks.append(blocks)
            else:
                raise _field_error(
                    0,
                    f"city {number}: bad item {item!r}, expected a stack like a2b3 "
                    "or a digit 1-9 of empty sites",
                )
        covered = len(stacks) - sites_before
        if covered != SITES_PER_CITY:
            raise _field_error(0, f"city {number} covers {covered} sites, expected 9")
    return stacks


def _parse_count_digits(text: str, index: int, allowed: str, what: str) -> list[int]:
    if text == "-":
        return []
    if not text or any(ch not in allowed for ch in text):
        raise _field_error(index, f"bad entry {text!r}, expected {what} or '-'")
    return [int(ch) for ch in text]


def parse_position(text: str) -> GameState:
    """Read a position string, checking its form and every validity rule of NOTATION.md.

    Raises ``NotationError`` for text that does not have the form (naming the field) and
    ``InvalidPositionError`` for a well-formed position that cannot arise in play.
    """
    fields = text.split()
    if len(fields) < len(FIELD_NAMES):
        raise NotationError(
            f"position: expected at least {len(FIELD_NAMES)} fields "
            f"({', '.join(FIELD_NAMES)}), found {len(fields)}"
        )
    if fields[1] not in ("2", "3", "4"):
        raise _field_error(1, f"expected 2, 3 or 4, found {fields[1]!r}")
    players = int(fields[1])
    table = layout(players)
    try:
        options = parse_options(fields[10:], players)
    except ValueError as error:
        raise NotationError(f"position options: {error}") from None
    state = GameState(players, options)
    n_colors = table.colors_in_play

    stacks = _parse_board(fields[0], n_colors)

    if not _is_number(fields[2]) or not 1 <= int(fields[2]) <= table.rounds:
        raise _field_error(2, f"expected a round 1-{table.rounds}, found {fields[2]!r}")
    state.round = int(fields[2])

    phase_text = fields[4]
    if phase_text not in ("s", "p", "-"):
        raise _field_error(4, f"expected s, p or -, found {phase_text!r}")
    state.phase = {"s": Phase.SELECTION, "p": Phase.PLACEMENT, "-": Phase.OVER}[phase_text]

    mover = fields[3]
    if mover == "-":
        state.to_move = -1
    elif _is_number(mover) and 1 <= int(mover) <= players:
        state.to_move = int(mover) - 1
    else:
        raise _field_error(3, f"expected a player 1-{players} or -, found {mover!r}")

    for color, entry in enumerate(_entries(fields, 5, n_colors, "scores")):
        if not _is_number(entry):
            raise _field_error(5, f"bad score {entry!r}, expected a non-negative whole number")
        state.scores[color] = int(entry)

    for color, entry in enumerate(_entries(fields, 6, n_colors, "supplies")):
        match = _SUPPLY.fullmatch(entry)
        if not match:
            raise _field_error(6, f"bad supply {entry!r}, expected four counts like 9.5.3.3")
        state.supply[color * SIZES : color * SIZES + SIZES] = [int(g) for g in match.groups()]

    for color, entry in enumerate(_entries(fields, 7, n_colors, "selections")):
        for size in _parse_count_digits(entry, 7, "1234", "block stories 1-4"):
            state.selected[color * SIZES + size - 1] += 1

    for player, entry in enumerate(_entries(fields, 8, players, "hands")):
        if len(entry) != HAND_SIZE or any(ch not in "123456789?" for ch in entry):
            raise _field_error(8, f"bad hand {entry!r}, expected 4 cards 1-9 or ?")
        state.hands[player * 10 : player * 10 + 10] = [entry.count(ch) for ch in "?123456789"]

    if " " in fields[9] or "," in fields[9]:
        raise _field_error(9, "expected card digits or '-'")
    for card in _parse_count_digits(fields[9], 9, "123456789", "card digits 1-9"):
        state.played[card] += 1

    for site, blocks in enumerate(stacks):
        for color, size in blocks:
            state._build(site, color, size)
    _validate(state, stacks)
    return state


def _invalid(message: str) -> InvalidPositionError:
    return InvalidPositionError(f"impossible position: {message}")


def _validate(state: GameState, stacks: list[list[tuple[int, int]]]) -> None:
    table = state.layout
    players = table.players
    if (state.phase == Phase.OVER) != (state.to_move == -1):
        raise _invalid("'-' to move goes with phase '-' (game over), and only with it")
    if state.phase == Phase.OVER and state.round != table.rounds:
        raise _invalid(f"a finished game is in its last round ({table.rounds}), not {state.round}")

    # Rule 3: every building's owner holds the most stories.
    for site, blocks in enumerate(stacks):
        if blocks:
            top = state.owner[site]
            for color in range(COLORS):
                if state.stories[site * COLORS + color] > state.stories[site * COLORS + top]:
                    raise _invalid(
                        f"city {site // 9 + 1} site {site % 9 + 1}: the top color "
                        f"{COLOR_LETTERS[top]} has fewer stories than {COLOR_LETTERS[color]}"
                    )

    # Rule 5: turn order (checked before supplies, whose expected totals depend on it).
    order = table.round_order(state.round)
    held = [state.blocks_held(p) for p in range(players)]
    per_player = table.blocks_per_turn_round()
    if state.phase == Phase.SELECTION:
        position = order.index(state.to_move)
        for index, player in enumerate(order):
            for color in table.player_colors[player]:
                count = sum(state.selected[color * SIZES : color * SIZES + SIZES])
                expected = table.quota if index < position else 0
                if count != expected:
                    when = "before" if index < position else "from"
                    raise _invalid(
                        f"selection phase: {COLOR_LETTERS[color]} (P{player + 1}, {when} the "
                        f"mover in turn order) holds {count} selected blocks, expected {expected}"
                    )
    elif state.phase == Phase.PLACEMENT:
        position = order.index(state.to_move)
        m = held[state.to_move]
        if m < 1:
            raise _invalid(
                f"placement phase: the mover P{state.to_move + 1} holds no selected block"
            )
        if m > per_player:
            raise _invalid(
                f"placement phase: P{state.to_move + 1} holds {m} selected blocks, "
                f"at most {per_player}"
            )
        for index, player in enumerate(order):
            expected = m - 1 if index < position else m
            if held[player] != expected:
                raise _invalid(
                    f"placement phase: P{player + 1} holds {held[player]} selected blocks, "
                    f"expected {expected} (the mover P{state.to_move + 1} holds {m})"
                )
    elif any(held):
        raise _invalid("the game is over but selected blocks remain")

    # Rule 2: blocks.
    for color in state.colors_in_play():
        player = table.color_owner(color)
        if state.phase == Phase.OVER:
            made = table.rounds
        elif state.phase == Phase.PLACEMENT:
            made = state.round
        else:
            made = state.round - 1 + (order.index(player) < order.index(state.to_move))
        supply = state.supply[color * SIZES : color * SIZES + SIZES]
        expected = sum(FULL_SET) - table.quota * made
        if sum(supply) != expected:
            raise _invalid(
                f"supply of {COLOR_LETTERS[color]} holds {sum(supply)} blocks, expected {expected} "
                f"(24 less {table.quota} for each of the {made} selections made)"
            )
        for size in range(1, SIZES + 1):
            on_board = sum(1 for blocks in stacks for c, s in blocks if c == color and s == size)
            total = on_board + supply[size - 1] + state.selected[color * SIZES + size - 1]
            if total > FULL_SET[size - 1]:
                raise _invalid(
                    f"color {COLOR_LETTERS[color]} has {total} blocks of {size} stories on the "
                    f"board, in supply and selected; the set has {FULL_SET[size - 1]}"
                )

    # Rule 4: cards.
    for card in range(1, CARD_TYPES + 1):
        seen = state.visible_count(card)
        if seen > CARDS_PER_TYPE:
            raise _invalid(f"{seen} copies of card {card} are visible, there are only 5")
    if HAND_SIZE * players + sum(state.played) > DECK_SIZE:
        raise _invalid(f"{sum(state.played)} played cards and {players} hands exceed the 45 cards")


def _write_city(state: GameState, city: int) -> str:
    items: list[str] = []
    empty = 0
    for site in range(city * SITES_PER_CITY, (city + 1) * SITES_PER_CITY):
        blocks = state.stack(site)
        if not blocks:
            empty += 1
            continue
        if empty:
            items.append(str(empty))
            empty = 0
        items.append("".join(f"{COLOR_LETTERS[c]}{s}" for c, s in blocks))
    if empty:
        items.append(str(empty))
    return ",".join(items)


def _digits_or_dash(counts: list[int], first: int) -> str:
    text = "".join(str(first + i) * n for i, n in enumerate(counts))
    return text or "-"


def write_position(state: GameState) -> str:
    """The canonical position string of ``state`` (NOTATION.md, "Canonical form")."""
    table = state.layout
    colors = state.colors_in_play()
    phase = {Phase.SELECTION: "s", Phase.PLACEMENT: "p", Phase.OVER: "-"}[state.phase]
    fields = [
        "/".join(_write_city(state, city) for city in range(SITES // SITES_PER_CITY)),
        str(table.players),
        str(state.round),
        "-" if state.phase == Phase.OVER else str(state.to_move + 1),
        phase,
        ",".join(str(state.scores[c]) for c in colors),
        ",".join(".".join(map(str, state.supply[c * SIZES : c * SIZES + SIZES])) for c in colors),
        ",".join(_digits_or_dash(state.selected[c * SIZES : c * SIZES + SIZES], 1) for c in colors),
        ",".join(
            "".join(str(card) if card else "?" for card in state.hand(p))
            for p in range(table.players)
        ),
        _digits_or_dash(state.played[1:], 1),
    ]
    fields.extend(state.options.non_default())
    return " ".join(fields)
