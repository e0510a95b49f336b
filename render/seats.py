"""Who looks at the board and how it turns for them.

A board picture is drawn as one player sees it: each city's grid is turned so that the
viewer's side of the table is at the bottom.  Then the viewer's card ``k`` always builds
on the ``k``-th cell of a city in reading order, whatever their seat (RULES.md, "Card →
site").  Sites keep their notation numbers: 0..8 in reading order as seen from seat S.
"""

from __future__ import annotations

from functools import cache

from positions.errors import ManhattanError
from positions.layout import SEATS, card_cell_to_site
from positions.state import GameState


def viewer_player(state: GameState, seat: int | str | None = None) -> int:
    """The player (0-based) a picture of ``state`` is drawn for.

    ``seat`` is a player number (``2`` or ``"2"`` or ``"P2"``), a seat letter of the game
    (``"W"``), or ``None``: the player to move, or P1 once the game is over.  Raises
    ``ManhattanError`` for a seat or player not in the game."""
    players = state.players
    seats = state.layout.player_seats
    if seat is None:
        return 0 if state.is_terminal() else state.current_player()
    if isinstance(seat, int) and not isinstance(seat, bool):
        number = seat
    else:
        text = str(seat).strip().upper()
        if text in SEATS:
            if text not in seats:
                raise ManhattanError(
                    f"seat {text!r}: a {players}-player game has seats {', '.join(seats)}"
                )
            return seats.index(text)
        digits = text[1:] if text.startswith("P") else text
        if not digits.isdigit():
            raise ManhattanError(
                f"seat {seat!r}: expected a player 1-{players} or a seat letter "
                f"({', '.join(seats)})"
            )
        number = int(digits)
    if not 1 <= number <= players:
        raise ManhattanError(f"seat {seat!r}: expected a player 1-{players}")
    return number - 1


@cache
def sites_in_view(seat: str) -> tuple[int, ...]:
    """For each cell of a city as ``seat`` sees it (0..8 in reading order, 0 = far left),
    the site it shows (0..8 in reading order from S)."""
    shown = []
    for cell in range(9):
        row, col = card_cell_to_site(seat, *divmod(cell, 3))
        shown.append(row * 3 + col)
    return tuple(shown)


@cache
def cell_in_view(seat: str, site: int) -> int:
    """Where site ``site`` (0..8 from S) appears in a city as ``seat`` sees it (0..8 in
    reading order).  The viewer's card ``cell + 1`` builds there."""
    return sites_in_view(seat).index(site)


def sides_in_view(seat: str) -> dict[str, str]:
    """The seat at each side (``bottom``, ``left``, ``top``, ``right``) of a picture drawn
    for ``seat``: the viewer at the bottom, then clockwise round the table."""
    start = SEATS.index(seat)
    sides = ("bottom", "left", "top", "right")
    return {side: SEATS[(start + k) % 4] for k, side in enumerate(sides)}
