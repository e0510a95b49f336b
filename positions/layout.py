"""Fixed facts of the game that depend only on the player count (RULES.md).

Everything here is a table: who plays which colors from which seat, how many rounds are
played and how many blocks are selected per round, and where each card builds from each
seat.  The rules that move pieces live in ``rules.py`` and ``state.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

CITIES = 6
SITES_PER_CITY = 9
SITES = CITIES * SITES_PER_CITY
COLORS = 4
COLOR_LETTERS = "abcd"
SIZES = 4  # block sizes 1..4 stories
FULL_SET = (11, 6, 4, 3)  # blocks per color of 1, 2, 3, 4 stories
BLOCKS_PER_COLOR = sum(FULL_SET)
CARD_TYPES = 9
CARDS_PER_TYPE = 5
DECK_SIZE = CARD_TYPES * CARDS_PER_TYPE
HAND_SIZE = 4

SEATS = "SWNE"  # clockwise


def card_cell_to_site(seat: str, row: int, col: int) -> tuple[int, int]:
    """Map a card cell (row 0 = far from the holder, col 0 = holder's left) to (row, col)
    of the board as seen from seat S."""
    if seat == "S":
        return row, col
    if seat == "W":
        return col, 2 - row
    if seat == "N":
        return 2 - row, 2 - col
    if seat == "E":
        return 2 - col, row
    raise ValueError(f"unknown seat {seat!r}")


@dataclass(frozen=True)
class Layout:
    """The table of a game with ``players`` players.

    Players and colors are indexed from 0 here (player 0 is P1, color 0 is ``a``).
    """

    players: int
    rounds: int
    quota: int  # blocks each color selects per round
    player_colors: tuple[tuple[int, ...], ...]
    player_seats: tuple[str, ...]
    colors_in_play: int  # colors written in scores/supply/selected fields
    card_sites: tuple[tuple[int, ...], ...]  # [player][card 1..9] -> site 0..8 (index 0 unused)

    def color_owner(self, color: int) -> int:
        """The player (0-based) who plays ``color``."""
        for player, colors in enumerate(self.player_colors):
            if color in colors:
                return player
        raise ValueError(f"color {color} is not in a {self.players}-player game")

    def blocks_per_turn_round(self) -> int:
        """How many blocks one player selects per round (both colors in 2p)."""
        return self.quota * len(self.player_colors[0])

    def start_player(self, round_number: int) -> int:
        """The start player (0-based) of 1-based round ``round_number``."""
        return (round_number - 1) % self.players

    def round_order(self, round_number: int) -> tuple[int, ...]:
        """Players (0-based) in the order they act in ``round_number``."""
        start = self.start_player(round_number)
        return tuple((start + i) % self.players for i in range(self.players))


@cache
def layout(players: int) -> Layout:
    """The layout of a ``players``-player game (2, 3 or 4).

    Raises ``ValueError`` for any other count.
    """
    if players == 4:
        colors: tuple[tuple[int, ...], ...] = ((0,), (1,), (2,), (3,))
        seats = ("S", "W", "N", "E")
        rounds, quota, in_play = 4, 6, 4
    elif players == 3:
        colors = ((0,), (1,), (2,))
        seats = ("S", "W", "N")
        rounds, quota, in_play = 6, 4, 3
    elif players == 2:
        colors = ((0, 2), (1, 3))
        seats = ("S", "N")
        rounds, quota, in_play = 6, 4, 4
    else:
        raise ValueError(f"players must be 2, 3 or 4, not {players}")
    card_sites = []
    for seat in seats:
        row_of_card = [0]
        for card in range(1, CARD_TYPES + 1):
            r, c = divmod(card - 1, 3)
            br, bc = card_cell_to_site(seat, r, c)
            row_of_card.append(br * 3 + bc)
        card_sites.append(tuple(row_of_card))
    return Layout(players, rounds, quota, colors, seats, in_play, tuple(card_sites))
