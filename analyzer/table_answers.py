"""What a person at the table types for a move: its notation or its number in the list
of legal moves, read against the position they see; and the choices of a selection.

Nothing here changes a game: ``read_move`` returns the legal ``Move`` meant, or the reason
(one line) why the text is not one.
"""

from __future__ import annotations

from dataclasses import dataclass

from positions.errors import ManhattanError
from positions.layout import COLOR_LETTERS, SIZES
from positions.moves import Move, Placement, Selection, parse_move
from positions.state import GameState, Phase

MAX_ANSWER = 200  # characters of a typed move quoted back in a reason


@dataclass(frozen=True)
class ReadMove:
    """A typed answer read: the ``move`` meant, or ``reason`` why there is none."""

    move: Move | None
    reason: str | None = None


def _quoted(text: str) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= 40 else text[:37] + "...")


def read_move(view: GameState, legal: list[Move], text: str) -> ReadMove:
    """The legal move ``text`` names for the player to move in ``view`` (their own view):
    a number from 1 (``legal`` in canonical order) or a move in notation (case and spaces
    do not matter; in 2 players a placement may leave out the block's colour when only
    one colour fits).  Otherwise the reason, naming what was expected."""
    answer = "".join(text.split()).lower()[:MAX_ANSWER]
    if not answer:
        return ReadMove(None, "type a move, its number, or help")
    if answer.isdigit():
        number = int(answer)
        if 1 <= number <= len(legal):
            return ReadMove(legal[number - 1])
        return ReadMove(None, f"no move {_quoted(text)}: the moves are numbered 1-{len(legal)}")
    try:
        move = parse_move(answer)
    except ManhattanError:
        return ReadMove(
            None,
            f"{_quoted(text)} is not a move: type its number (1-{len(legal)}), a move like "
            f"{_example(view, legal)}, or help",
        )
    colourless = isinstance(move, Placement) and move.color is None and view.players == 2
    if colourless and view.phase == Phase.PLACEMENT:
        return _placement_without_colour(view, legal, move)
    if move in legal:
        return ReadMove(move)
    return ReadMove(None, _why_illegal(view, move))


def _example(view: GameState, legal: list[Move]) -> str:
    if view.phase == Phase.SELECTION:
        return "=1123/1234" if view.players == 2 else "=" + "1234"[: view.layout.quota]
    return str(legal[0]) if legal else "7@3:4"


def _placement_without_colour(view: GameState, legal: list[Move], move: Placement) -> ReadMove:
    """A 2-player placement typed without its colour: the one legal colour, or the
    choice to make."""
    fits = [
        m
        for m in legal
        if isinstance(m, Placement)
        and (m.card, m.city, m.stories) == (move.card, move.city, move.stories)
    ]
    if len(fits) == 1:
        return ReadMove(fits[0])
    if fits:
        return ReadMove(None, f"{move}: say which colour, {' or '.join(map(str, fits))}")
    holding = [
        COLOR_LETTERS[c]
        for c in view.layout.player_colors[view.to_move]
        if view.selected[c * SIZES + move.stories - 1]
    ]
    if not holding:
        return ReadMove(None, f"{move} is not legal: no selected block of {move.stories} stories")
    coloured = Placement(move.card, move.city, move.stories, holding[0])
    return ReadMove(None, _why_illegal(view, coloured))


def _why_illegal(view: GameState, move: Move) -> str:
    """Why ``move`` cannot be played by the player to move in ``view``."""
    trial = view.clone()
    try:
        trial.apply_move(move)
    except ManhattanError as error:
        reason = str(error).removeprefix(f"{move}: ")
        return f"{move} is not legal: {reason}"
    return f"{move} is not legal here"


def selection_choices(view: GameState) -> list[tuple[str, list[str]]]:
    """In the selection phase: for each colour of the player to move (first colour
    first), its letter and the groups of blocks it may take, as digit strings in
    canonical order (``"1124"``); the legal selections are every combination of one
    group per colour.  Empty outside the selection phase."""
    if view.phase != Phase.SELECTION:
        return []
    colors = view.layout.player_colors[view.to_move]
    groups: list[list[str]] = [[] for _ in colors]
    for selection in view.legal_selections():
        for slot, part in enumerate(selection.blocks):
            text = "".join(map(str, part))
            if text not in groups[slot]:
                groups[slot].append(text)
    return [(COLOR_LETTERS[c], sorted(g)) for c, g in zip(colors, groups, strict=True)]


def selection_number(legal: list[Move], move: Selection) -> int:
    """The number (from 1) of a selection in the canonical list ``legal``."""
    return legal.index(move) + 1


def held_sizes(view: GameState) -> list[tuple[str, list[int]]]:
    """Each colour of the player to move with the stories of its selected, unplaced
    blocks (ascending)."""
    out = []
    for color in view.layout.player_colors[view.to_move]:
        sizes = [
            size
            for size in range(1, SIZES + 1)
            for _ in range(view.selected[color * SIZES + size - 1])
        ]
        out.append((COLOR_LETTERS[color], sizes))
    return out
