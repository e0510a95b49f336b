"""A board that keeps every color's round points up to date as blocks are put on and taken off.

``positions.rules.round_points`` is the readable statement of the round scoring; this is
its incremental form, for the code that asks "what would each color score now" many times
per decision: the built-in bots (the points after each candidate placement), the exact
solver (the points after every placement it searches, and undoing it) and playout
policies.  A placement changes one site, the majority of that site's city and perhaps the
tallest building, so ``points_after`` answers in a few steps without changing the board,
``put_block`` makes the placement and ``take_block`` undoes it.  A differential test keeps
it equal to ``rules.round_points`` after random sequences of both.
"""

from __future__ import annotations

from collections.abc import Sequence

from positions import rules
from positions.layout import CITIES, COLORS, SITES, SITES_PER_CITY
from positions.state import GameState

MIXED = -2  # ``tallest_owner`` when the tallest buildings have different owners


class RoundScorer:
    """A copy of a board with the round points per color (``points``) kept up to date.

    ``stories``, ``height`` and ``owner`` are the board lists of ``GameState`` (copied, and
    changed by ``put_block`` / ``take_block``); ``points`` is replaced, never changed in
    place, so a caller may keep a reference to it.  Besides them it keeps the buildings
    per city and color (``city_count[city*4 + color]``), each city's majority color
    (``city_winner``, -1 for none) and the tallest height with how many buildings reach it
    and who owns them (``tallest_owner``: their color if they share one, else ``MIXED``).
    """

    def __init__(
        self,
        stories: Sequence[int],
        height: Sequence[int],
        owner: Sequence[int],
        tallest_shared: bool = False,
    ):
        """A scorer of the board given as ``GameState``'s three lists (copied);
        ``tallest_shared`` is the rule option ``tallest_tie=shared``."""
        self.shared = tallest_shared
        self.stories = list(stories)
        self.height = list(height)
        self.owner = list(owner)
        self.city_count = [n for c in range(CITIES) for n in rules.city_buildings(self.owner, c)]
        self.city_winner = [
            rules.city_majority(self.city_count[c * COLORS : c * COLORS + COLORS])
            for c in range(CITIES)
        ]
        self.tallest = max(self.height)
        at_tallest = {self.owner[s] for s in range(SITES) if self.height[s] == self.tallest}
        self.tallest_count = (
            sum(1 for h in self.height if h == self.tallest) if self.tallest > 0 else 0
        )
        self.tallest_owner = (
            next(iter(at_tallest)) if self.tallest > 0 and len(at_tallest) == 1 else MIXED
        )
        self.points = rules.round_points(self.height, self.owner, self.shared)

    @classmethod
    def of_state(cls, state: GameState) -> RoundScorer:
        """A scorer of ``state``'s board under its rule options (the state is not changed)."""
        return cls(state.stories, state.height, state.owner, state.options.tallest_tie == "shared")

    def _tallest_scorer(self) -> int:
        """The color scoring the tallest building now, or -1."""
        if self.tallest > 0 and (
            self.tallest_count == 1 or (self.shared and self.tallest_owner >= 0)
        ):
            return self.tallest_owner
        return -1

    def points_after(self, site: int, color: int, size: int) -> list[int]:
        """The round points per color (a-d) if ``color`` put ``size`` stories on ``site``
        now (a new list; the board is not changed).  The placement is assumed legal."""
        points = self.points[:]
        previous = self.owner[site]
        if previous != color:
            points[color] += 1
            city = site // SITES_PER_CITY
            base = city * COLORS
            counts = self.city_count[base : base + COLORS]
            counts[color] += 1
            if previous >= 0:
                points[previous] -= 1
                counts[previous] -= 1
            old = self.city_winner[city]
            new = rules.city_majority(counts)
            if new != old:
                if old >= 0:
                    points[old] -= 2
                if new >= 0:
                    points[new] += 2
        height = self.height[site] + size
        tallest = self.tallest
        if height >= tallest:
            # the site was lower than the tallest (or the tallest), blocks only add stories
            old = self._tallest_scorer()
            shared = self.shared and self.tallest_owner == color
            new = color if height > tallest or shared else -1
            if new != old:
                if old >= 0:
                    points[old] -= 3
                if new >= 0:
                    points[new] += 3
        return points

    def put_block(self, site: int, color: int, size: int) -> tuple:
        """Put ``size`` stories of ``color`` on ``site`` (a legal placement) and bring the
        points up to date; returns what ``take_block`` needs to undo it."""
        previous = self.owner[site]
        city = site // SITES_PER_CITY
        undo = (
            site,
            color,
            size,
            previous,
            self.city_winner[city],
            self.tallest,
            self.tallest_count,
            self.tallest_owner,
            self.points,
        )
        self.points = self.points_after(site, color, size)
        self.stories[site * COLORS + color] += size
        height = self.height[site] + size
        self.height[site] = height
        if previous != color:
            self.owner[site] = color
            base = city * COLORS
            counts = self.city_count
            counts[base + color] += 1
            if previous >= 0:
                counts[base + previous] -= 1
            self.city_winner[city] = rules.city_majority(counts[base : base + COLORS])
        if height > self.tallest:
            self.tallest, self.tallest_count, self.tallest_owner = height, 1, color
        elif height == self.tallest:
            self.tallest_count += 1
            if self.tallest_owner != color:
                self.tallest_owner = MIXED
        return undo

    def take_block(self, undo: tuple) -> None:
        """Undo the ``put_block`` that returned ``undo`` (the last one not yet undone)."""
        site, color, size, previous, winner, tallest, count, tallest_owner, points = undo
        self.stories[site * COLORS + color] -= size
        self.height[site] -= size
        if previous != color:
            self.owner[site] = previous
            city = site // SITES_PER_CITY
            base = city * COLORS
            self.city_count[base + color] -= 1
            if previous >= 0:
                self.city_count[base + previous] += 1
            self.city_winner[city] = winner
        self.tallest, self.tallest_count, self.tallest_owner = tallest, count, tallest_owner
        self.points = points
