"""A Manhattan board that keeps its round points up to date as blocks are put on it.

A placement changes one site, the majority of one city and perhaps the tallest building,
so the points every color would score if the round ended now are updated in a few steps
(``put_block``), and the points after a placement can be read without making it
(``points_after``).  ``positions.rules.round_points`` stays the statement of the rules; a
test keeps the two equal.  The board also keeps a Zobrist hash of its stories and owners
for the exact search's transposition table.
"""

from __future__ import annotations

import random

from positions import rules
from positions.layout import CITIES, COLORS, SITES, SITES_PER_CITY, SIZES
from positions.state import GameState

# Zobrist keys: one random 64-bit number per (variable, value).  Variables: stories
# (site*4 + color) and owners, kept here; hand counts, the played pile, selected blocks and
# the player to move, kept by the exact search.
VALUES = 64
V_STORIES = 0
V_OWNER = V_STORIES + SITES * COLORS
V_HANDS = V_OWNER + SITES
V_PLAYED = V_HANDS + 4 * 10
V_SELECTED = V_PLAYED + 10
V_TO_MOVE = V_SELECTED + COLORS * SIZES
V_COUNT = V_TO_MOVE + 1
_random = random.Random(20240601)
ZOBRIST = [[_random.getrandbits(64) for _ in range(VALUES)] for _ in range(V_COUNT)]


def _winner(city_count: list[int], base: int) -> int:
    """The majority color of the city whose counts start at ``city_count[base]``, or -1."""
    return rules.city_majority(city_count[base : base + COLORS])


class ScoreBoard:
    """The board of ``state`` (copied) with each color's round points ``rp`` kept up to
    date, and the Zobrist ``hash`` of its stories and owners.  ``put_block`` /
    ``take_block`` change it and undo the change."""

    def __init__(self, state: GameState):
        self.shared = state.options.tallest_tie == "shared"
        self.stories = state.stories[:]
        self.height = state.height[:]
        self.owner = state.owner[:]
        # buildings per city and color, flat: city_count[city*4 + color]
        self.city_count = [n for c in range(CITIES) for n in rules.city_buildings(self.owner, c)]
        self.city_winner = [_winner(self.city_count, c * COLORS) for c in range(CITIES)]
        self.tmax = max(self.height)
        at_max = [self.owner[s] for s in range(SITES) if self.height[s] == self.tmax]
        self.tcount = len(at_max) if self.tmax > 0 else 0
        self.towner = (at_max[0] if len(set(at_max)) == 1 else -2) if self.tmax > 0 else -2
        self.rp = rules.round_points(self.height, self.owner, self.shared)
        self.hash = 0
        for index, value in enumerate(self.stories):
            self.hash ^= ZOBRIST[V_STORIES + index][value]
        for site, owner in enumerate(self.owner):
            self.hash ^= ZOBRIST[V_OWNER + site][owner + 1]

    def _scorer(self, tmax: int, tcount: int, towner: int) -> int:
        if tmax > 0 and (tcount == 1 or (self.shared and towner >= 0)):
            return towner
        return -1

    def points_after(self, site: int, color: int, size: int) -> list[int]:
        """The round points per color if ``color`` put ``size`` stories on ``site`` now
        (the board is not changed)."""
        rp = self.rp[:]
        prev = self.owner[site]
        if prev != color:
            rp[color] += 1
            base = (site // SITES_PER_CITY) * COLORS
            counts = self.city_count[base : base + COLORS]
            counts[color] += 1
            if prev >= 0:
                rp[prev] -= 1
                counts[prev] -= 1
            old = self.city_winner[site // SITES_PER_CITY]
            new = rules.city_majority(counts)
            if new != old:
                if old >= 0:
                    rp[old] -= 2
                if new >= 0:
                    rp[new] += 2
        h = self.height[site] + size
        tmax = self.tmax
        if h >= tmax:
            old = self._scorer(tmax, self.tcount, self.towner)
            new = color if h > tmax or (self.shared and self.towner == color) else -1
            if new != old:
                if old >= 0:
                    rp[old] -= 3
                if new >= 0:
                    rp[new] += 3
        return rp

    def put_block(self, site: int, color: int, size: int) -> tuple:
        """Put ``size`` stories of ``color`` on ``site`` (a legal placement), keeping the
        round points and the hash up to date; returns what ``take_block`` needs to undo it."""
        prev = self.owner[site]
        city = site // SITES_PER_CITY
        undo = (
            site,
            color,
            size,
            prev,
            self.city_winner[city],
            self.tmax,
            self.tcount,
            self.towner,
            self.rp,
            self.hash,
        )
        self.rp = self.points_after(site, color, size)
        index = site * COLORS + color
        old = self.stories[index]
        self.stories[index] = old + size
        zob = ZOBRIST
        h = self.hash ^ zob[V_STORIES + index][old] ^ zob[V_STORIES + index][old + size]
        self.height[site] += size
        if prev != color:
            h ^= zob[V_OWNER + site][prev + 1] ^ zob[V_OWNER + site][color + 1]
            self.owner[site] = color
            base = city * COLORS
            self.city_count[base + color] += 1
            if prev >= 0:
                self.city_count[base + prev] -= 1
            self.city_winner[city] = _winner(self.city_count, base)
        self.hash = h
        height = self.height[site]
        if height > self.tmax:
            self.tmax, self.tcount, self.towner = height, 1, color
        elif height == self.tmax:
            self.tcount += 1
            if self.towner != color:
                self.towner = -2
        return undo

    def take_block(self, undo: tuple) -> None:
        """Undo the ``put_block`` that returned ``undo`` (the last one not yet undone)."""
        site, color, size, prev, winner, tmax, tcount, towner, rp, h = undo
        self.stories[site * COLORS + color] -= size
        self.height[site] -= size
        if prev != color:
            self.owner[site] = prev
            base = (site // SITES_PER_CITY) * COLORS
            self.city_count[base + color] -= 1
            if prev >= 0:
                self.city_count[base + prev] += 1
            self.city_winner[site // SITES_PER_CITY] = winner
        self.tmax, self.tcount, self.towner, self.rp, self.hash = tmax, tcount, towner, rp, h
