"""The rules of building and scoring (RULES.md), as pure functions on the board.

The board is kept as three flat lists (see ``state.GameState``):
``stories[site*4 + color]`` (stories of each color in each building), ``height[site]`` and
``owner[site]`` (color of the top block, -1 for an empty site).  Sites are numbered
``(city-1)*9 + site_in_city`` with ``site_in_city`` 0..8 in reading order from seat S.

This module is the single readable statement of these rules; the compiled playout kernel
(``positions.playout``) is kept equal to it by a differential test.
"""

from __future__ import annotations

from collections.abc import Sequence

from positions.layout import CITIES, COLORS, SITES, SITES_PER_CITY


def can_place(
    stories: Sequence[int], owner: Sequence[int], site: int, color: int, size: int
) -> bool:
    """Whether a block of ``color`` with ``size`` stories may go on ``site``: an empty site,
    a building the color owns, or one where the color's stories after placing reach the
    owner's (the owner always holds the most stories, so that is "≥ every other color")."""
    top = owner[site]
    if top < 0 or top == color:
        return True
    return stories[site * COLORS + color] + size >= stories[site * COLORS + top]


def round_points(
    height: Sequence[int], owner: Sequence[int], tallest_shared: bool = False
) -> list[int]:
    """Points per color (a, b, c, d) if the round were scored now.

    * 3 to the owner of the single tallest building; a tie for tallest scores nothing,
      unless ``tallest_shared`` (rule option ``tallest_tie=shared``) and every tied
      building has the same owner color;
    * 2 per city to the color owning strictly more buildings there than every other color;
    * 1 per building owned.
    """
    points = [0] * COLORS
    tallest = max(height)
    if tallest > 0:
        tallest_owners = {owner[s] for s in range(SITES) if height[s] == tallest}
        tallest_count = sum(1 for s in range(SITES) if height[s] == tallest)
        if tallest_count == 1 or (tallest_shared and len(tallest_owners) == 1):
            points[tallest_owners.pop()] += 3
    for city in range(CITIES):
        winner = city_majority(city_buildings(owner, city))
        if winner >= 0:
            points[winner] += 2
    for s in range(SITES):
        if owner[s] >= 0:
            points[owner[s]] += 1
    return points


def city_buildings(owner: Sequence[int], city: int) -> list[int]:
    """Buildings owned per color (a, b, c, d) in ``city`` (0-based)."""
    owned = [0] * COLORS
    for s in range(city * SITES_PER_CITY, (city + 1) * SITES_PER_CITY):
        if owner[s] >= 0:
            owned[owner[s]] += 1
    return owned


def city_majority(buildings: Sequence[int]) -> int:
    """The color owning strictly more of a city's buildings than every other color, given
    the buildings per color; -1 when no color does (no buildings, or a tie for most)."""
    best = max(buildings)
    if best == 0 or buildings.count(best) > 1:
        return -1
    return buildings.index(best)


def tallest_owned(height: Sequence[int], owner: Sequence[int], colors: Sequence[int]) -> int:
    """Height of the tallest building owned by any of ``colors`` (0 if none)."""
    return max((height[s] for s in range(SITES) if owner[s] in colors), default=0)


def buildings_owned(owner: Sequence[int], colors: Sequence[int]) -> int:
    """Number of buildings owned by any of ``colors``."""
    return sum(1 for s in range(SITES) if owner[s] in colors)


def ranking_keys(
    totals: Sequence[int],
    height: Sequence[int],
    owner: Sequence[int],
    player_colors: Sequence[Sequence[int]],
) -> list[tuple[int, int, int]]:
    """Per player the key the final ranking sorts by, larger first: total, then the height
    of their tallest building, then the number of buildings they own."""
    return [
        (totals[p], tallest_owned(height, owner, cols), buildings_owned(owner, cols))
        for p, cols in enumerate(player_colors)
    ]


def places_from_keys(keys: Sequence[tuple[int, int, int]]) -> list[int]:
    """Final places (1 = first) from ranking keys; equal keys share the better place."""
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def win_shares(places: Sequence[int]) -> list[float]:
    """A shared first place counts ``1/k`` for each of the ``k`` players sharing it."""
    firsts = places.count(1)
    return [1.0 / firsts if place == 1 else 0.0 for place in places]
