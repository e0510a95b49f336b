"""The board as the explanations read it: who holds the tallest building, each city's
majority and each building, at the level of players (P1, P2, ...), on the real board or on
the board after one hypothetical block.

Scoring itself is ``positions.rules``; this module only names who holds what, so that an
explanation can say "takes the tallest building from P2" or "breaks P3's majority".
"""

from __future__ import annotations

from dataclasses import dataclass

from positions import rules
from positions.layout import COLOR_LETTERS, COLORS, SITES, SITES_PER_CITY, Layout
from positions.state import GameState


@dataclass(frozen=True)
class Board:
    """The building facts of a board: stories per site and color, heights, owners (the
    flat lists of ``GameState``), and whether a tie for tallest is shared (rule option
    ``tallest_tie=shared``)."""

    stories: tuple[int, ...]
    height: tuple[int, ...]
    owner: tuple[int, ...]
    tallest_shared: bool = False

    @classmethod
    def of(cls, state: GameState) -> Board:
        """The board of ``state``."""
        return cls(
            tuple(state.stories),
            tuple(state.height),
            tuple(state.owner),
            state.options.tallest_tie == "shared",
        )

    def can_place(self, site: int, color: int, size: int) -> bool:
        """Whether a block of ``color`` with ``size`` stories may go on ``site``."""
        return rules.can_place(self.stories, self.owner, site, color, size)

    def with_block(self, site: int, color: int, size: int) -> Board:
        """The board after a block of ``color`` with ``size`` stories is put on ``site``
        (legality is the caller's business: see ``can_place``)."""
        stories = list(self.stories)
        stories[site * COLORS + color] += size
        height = list(self.height)
        height[site] += size
        owner = list(self.owner)
        owner[site] = color
        return Board(tuple(stories), tuple(height), tuple(owner), self.tallest_shared)

    def tallest_height(self) -> int:
        """The height of the tallest building (0 on an empty board)."""
        return max(self.height)

    def tallest_sites(self) -> list[int]:
        """The sites of the buildings of the greatest height (none on an empty board)."""
        tallest = self.tallest_height()
        return [s for s in range(SITES) if tallest and self.height[s] == tallest]

    def tallest_scorer(self) -> int:
        """The color that would score the tallest building now, or -1 when nobody would
        (an empty board, or a tie for tallest that RULES.md does not let score)."""
        sites = self.tallest_sites()
        owners = {self.owner[s] for s in sites}
        if len(sites) == 1 or (sites and self.tallest_shared and len(owners) == 1):
            return owners.pop()
        return -1

    def majority_holder(self, city: int) -> int:
        """The color holding the majority of ``city`` (0-based), or -1 when none does."""
        return rules.city_majority(rules.city_buildings(self.owner, city))

    def buildings_in(self, city: int) -> list[int]:
        """Buildings per color (a, b, c, d) in ``city`` (0-based)."""
        return rules.city_buildings(self.owner, city)


def site_index(city: int, site_in_city: int) -> int:
    """The board site of 1-based ``city`` and 0-based ``site_in_city``."""
    return (city - 1) * SITES_PER_CITY + site_in_city


def city_of(site: int) -> int:
    """The 1-based city of a board site."""
    return site // SITES_PER_CITY + 1


def player_of(layout: Layout, color: int) -> int | None:
    """The 1-based player playing ``color``, or ``None`` for -1 (nobody)."""
    return None if color < 0 else layout.color_owner(color) + 1


def color_letter(color: int) -> str | None:
    """The letter of ``color``, or ``None`` for -1 (nobody)."""
    return None if color < 0 else COLOR_LETTERS[color]


def player_round_points(state: GameState, points_per_color: list[int]) -> list[int]:
    """Round points per player (both colors summed in 2p) from points per color."""
    return [sum(points_per_color[c] for c in colors) for colors in state.layout.player_colors]


def board_round_points(state: GameState, board: Board) -> list[int]:
    """What each player would score from ``board`` if the round were scored now."""
    return player_round_points(
        state, rules.round_points(board.height, board.owner, board.tallest_shared)
    )
