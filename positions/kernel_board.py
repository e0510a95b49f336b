"""The board of the compiled playout kernel: the packed array a world travels in, the
kernel's random generator, and what the round scoring needs, kept up to date as blocks go on.

``positions.rules`` states the round scoring and ``positions.scoring.RoundScorer`` is its
incremental form in Python; the functions here are the same incremental scoring compiled
for the kernel (``_points_delta`` is ``RoundScorer.points_after`` as a change per color),
kept equal to them by differential tests (``tests/test_playout.py``,
``tests/test_policy.py``).  The playout loop is ``positions.playout``, the policies that
choose its moves ``positions.policy``.
"""

from __future__ import annotations

import itertools

import numpy as np

from positions import kernel_cache

CACHED = kernel_cache.configure()  # before numba is imported: its cache folder

from numba import njit  # noqa: E402

from positions.layout import (  # noqa: E402
    CITIES,
    COLORS,
    DECK_SIZE,
    SITES,
    SITES_PER_CITY,
    SIZES,
    layout,
)
from positions.state import GameState, Phase  # noqa: E402

# ----- the array layout ---------------------------------------------------------------
# ``to_arrays`` packs a state into one int64 vector; offsets of its fields:
H_PLAYERS, H_ROUND, H_PHASE, H_TO_MOVE, H_SHARED, H_MIN, H_DECK_LEN = range(7)
HEADER = 8
OFF_STORIES = HEADER  # stories[site*4 + color], 216
OFF_HEIGHT = OFF_STORIES + SITES * COLORS  # height[site], 54
OFF_OWNER = OFF_HEIGHT + SITES  # owner[site] (color of the top block, -1 empty), 54
OFF_SUPPLY = OFF_OWNER + SITES  # supply[color*4 + stories-1], 16
OFF_SELECTED = OFF_SUPPLY + COLORS * SIZES  # selected[color*4 + stories-1], 16
OFF_SCORES = OFF_SELECTED + COLORS * SIZES  # scores[color], 4
OFF_HANDS = OFF_SCORES + COLORS  # hands[player*10 + card], 40 (index 0 of each hand is 0)
OFF_PLAYED = OFF_HANDS + 4 * 10  # played[card], 10
OFF_DECK = OFF_PLAYED + 10  # deck[0..deck_len), top card last, 45
ARRAY_SIZE = OFF_DECK + DECK_SIZE
MAX_TRACE = 256  # more than the actions of any game (192 in 2p and 4p)

_PHASE_SELECTION = int(Phase.SELECTION)
_PHASE_PLACEMENT = int(Phase.PLACEMENT)
_PHASE_OVER = int(Phase.OVER)

# [players][player][card] -> site in city 0..8 (card 0 unused)
_CARD_SITES = np.zeros((5, 4, 10), dtype=np.int64)
for _players in (2, 3, 4):
    for _player, _sites in enumerate(layout(_players).card_sites):
        _CARD_SITES[_players, _player, :] = _sites
_ROUNDS = np.array([0, 0, layout(2).rounds, layout(3).rounds, layout(4).rounds], dtype=np.int64)
_QUOTA = np.array([0, 0, layout(2).quota, layout(3).quota, layout(4).quota], dtype=np.int64)
_NO_TRACE = np.zeros((0, 2), dtype=np.int64)


def to_arrays(state: GameState) -> np.ndarray:
    """Pack a fully dealt ``state`` into the kernel's int64 vector of ``ARRAY_SIZE``:

    ``[players, round, phase, to_move, tallest_shared, two_player_min, deck_len, 0]``, then
    ``stories`` (54×4), ``height`` (54), ``owner`` (54), ``supply`` (4×4), ``selected``
    (4×4), ``scores`` (4), ``hands`` (4×10, padded with zeros), ``played`` (10) and
    ``deck`` (45, the first ``deck_len`` used, top card last) — the lists of
    ``GameState`` as they are.  Raises ``ValueError`` if a hand holds unseen cards or
    the deck order is unknown.
    """
    hands = state.hands
    if any(hands[p * 10] for p in range(state.layout.players)):
        raise ValueError("a playout needs a dealt world: a hand holds unseen cards (?)")
    deck = state.deck
    if deck is None:
        raise ValueError("a playout needs a dealt world: the deck order is unknown")
    return _pack(state, hands, deck)


def pack_board(state: GameState) -> np.ndarray:
    """Pack the public part of ``state`` (hands and deck left empty) as ``to_arrays``
    does: enough to value moves (``positions.policy``), not to play out."""
    return _pack(state, [0] * (state.layout.players * 10), [])


def pack_known(state: GameState) -> np.ndarray:
    """Pack ``state`` with its hands as they are (a replayed record knows every card) and
    the deck left empty, as ``to_arrays`` does: enough to value a mover's hand's moves."""
    return _pack(state, state.hands, [])


def _pack(state: GameState, hands: list[int], deck: list[int]) -> np.ndarray:
    options = state.options
    header = (
        state.layout.players,
        state.round,
        int(state.phase),
        state.to_move,
        options.tallest_tie == "shared",
        options.two_player_total == "min",
        len(deck),
        0,
    )
    return np.fromiter(
        itertools.chain(
            header,
            state.stories,
            state.height,
            state.owner,
            state.supply,
            state.selected,
            state.scores,
            hands,
            itertools.repeat(0, 40 - len(hands)),
            state.played,
            deck,
            itertools.repeat(0, DECK_SIZE - len(deck)),
        ),
        dtype=np.int64,
        count=ARRAY_SIZE,
    )


# ----- the random generator (splitmix64; state in a one-element uint64 array) -----------


@njit(cache=CACHED, inline="always")
def _next(rng):
    z = rng[0] + np.uint64(0x9E3779B97F4A7C15)
    rng[0] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=CACHED, inline="always")
def _below(rng, n):
    """Uniform integer in ``[0, n)`` for ``0 < n < 2**32``."""
    return np.int64(((_next(rng) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=CACHED, inline="always")
def _uniform(rng):
    return np.float64(_next(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


# ----- board helpers --------------------------------------------------------------------


@njit(cache=CACHED, inline="always")
def _is_mine(color, player, players):
    if color < 0:
        return 0
    if players == 2:
        return 1 if color % 2 == player else 0
    return 1 if color == player else 0


@njit(cache=CACHED, inline="always")
def _can_place(stories, owner, site, color, size):
    top = owner[site]
    if top < 0 or top == color:
        return True
    return stories[site * 4 + color] + size >= stories[site * 4 + top]


@njit(cache=CACHED)
def _winner(city_count, city, plus, minus):
    """The color with strictly most buildings in ``city`` (-1 if none), counting one more
    for color ``plus`` and one fewer for ``minus`` (pass -1 for neither)."""
    best = 0
    winner = -1
    for col in range(4):
        n = city_count[city * 4 + col]
        if col == plus:
            n += 1
        if col == minus:
            n -= 1
        if n > best:
            best = n
            winner = col
        elif n == best:
            winner = -1
    return winner


@njit(cache=CACHED, inline="always")
def _tallest_scorer(tall, shared):
    """The color scoring the tallest building: ``tall`` holds (max height, buildings at
    that height, their common owner or -2 when owners differ)."""
    if tall[0] == 0:
        return -1
    if tall[1] == 1 or (shared and tall[2] >= 0):
        return tall[2]
    return -1


@njit(cache=CACHED, inline="always")
def _owner_gain(site, color, player, players, owner, city_count, city_winner):
    """The change of the mover's building and city-majority points if ``color`` tops
    ``site``."""
    prev = owner[site]
    if prev == color:
        return 0
    gain = _is_mine(color, player, players) - _is_mine(prev, player, players)
    city = site // SITES_PER_CITY
    after = _winner(city_count, city, color, prev)
    return gain + 2 * (
        _is_mine(after, player, players) - _is_mine(city_winner[city], player, players)
    )


@njit(cache=CACHED, inline="always")
def _tallest_gain(new_height, color, player, players, shared, tall, scorer):
    """The change of the mover's tallest-building points if a block of ``color`` makes a
    building ``new_height`` tall (``scorer``: who scores the tallest now)."""
    if new_height > tall[0]:
        new_scorer = color
    elif new_height == tall[0]:
        new_scorer = color if (shared and tall[2] == color) else -1
    else:
        return 0
    return 3 * (_is_mine(new_scorer, player, players) - _is_mine(scorer, player, players))


@njit(cache=CACHED)
def _gain(
    site, color, size, player, players, shared, owner, height, city_count, city_winner, tall, scorer
):
    """The change of the mover's round points if ``color`` put ``size`` stories on
    ``site`` (a legal placement)."""
    return _owner_gain(
        site, color, player, players, owner, city_count, city_winner
    ) + _tallest_gain(height[site] + size, color, player, players, shared, tall, scorer)


@njit(cache=CACHED)
def _board_facts(height, owner):
    """What scoring needs, derived from the board: buildings per city and color
    (``city*4 + color``), each city's majority color (-1 for none) and ``tall`` (max
    height, buildings at that height, their common owner or -2 when owners differ)."""
    city_count = np.zeros(CITIES * 4, dtype=np.int64)
    city_winner = np.empty(CITIES, dtype=np.int64)
    tall = np.zeros(3, dtype=np.int64)
    for site in range(SITES):
        col = owner[site]
        if col >= 0:
            city_count[(site // SITES_PER_CITY) * 4 + col] += 1
        h = height[site]
        if h > tall[0]:
            tall[0] = h
            tall[1] = 1
            tall[2] = col
        elif h == tall[0] and h > 0:
            tall[1] += 1
            if tall[2] != col:
                tall[2] = -2
    for city in range(CITIES):
        city_winner[city] = _winner(city_count, city, -1, -1)
    return city_count, city_winner, tall


@njit(cache=CACHED)
def _build(site, color, size, stories, height, owner, city_count, city_winner, tall):
    prev = owner[site]
    stories[site * 4 + color] += size
    height[site] += size
    owner[site] = color
    if prev != color:
        city = site // SITES_PER_CITY
        city_count[city * 4 + color] += 1
        if prev >= 0:
            city_count[city * 4 + prev] -= 1
        city_winner[city] = _winner(city_count, city, -1, -1)
    h = height[site]
    if h > tall[0]:
        tall[0] = h
        tall[1] = 1
        tall[2] = color
    elif h == tall[0]:
        tall[1] += 1
        if tall[2] != color:
            tall[2] = -2


@njit(cache=CACHED)
def _round_points(owner, city_winner, tall, shared):
    """Every color's round points (a-d) if the round were scored now (``rules.round_points``
    from the facts ``_board_facts`` keeps)."""
    points = np.zeros(COLORS, dtype=np.int64)
    for site in range(SITES):
        if owner[site] >= 0:
            points[owner[site]] += 1
    for city in range(CITIES):
        if city_winner[city] >= 0:
            points[city_winner[city]] += 2
    scorer = _tallest_scorer(tall, shared)
    if scorer >= 0:
        points[scorer] += 3
    return points


@njit(cache=CACHED)
def _points_delta(site, color, size, owner, height, city_count, city_winner, tall, shared, delta):
    """Write into ``delta`` (4 ints) the change of every color's round points if ``color``
    put ``size`` stories on ``site`` (a legal placement): ``RoundScorer.points_after`` less
    the points now.  The board is not changed."""
    for col in range(COLORS):
        delta[col] = 0
    previous = owner[site]
    if previous != color:
        delta[color] += 1
        if previous >= 0:
            delta[previous] -= 1
        city = site // SITES_PER_CITY
        old = city_winner[city]
        new = _winner(city_count, city, color, previous)
        if new != old:
            if old >= 0:
                delta[old] -= 2
            if new >= 0:
                delta[new] += 2
    new_height = height[site] + size
    if new_height >= tall[0]:
        # the site was lower than the tallest (or was it): blocks only add stories
        old = _tallest_scorer(tall, shared)
        new = color if new_height > tall[0] or (shared and tall[2] == color) else -1
        if new != old:
            if old >= 0:
                delta[old] -= 3
            if new >= 0:
                delta[new] += 3
