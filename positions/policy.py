"""The compiled policies of the playout kernel, and the move values they give the search.

Placement policies (``PLACEMENTS``), each choosing among the legal placements of the mover:

* ``"greedy"``: the most round points for the mover if the round were scored right after
  the placement (the sum over the mover's colors in 2p), ties broken uniformly;
* ``"heuristic"``: ``positions.bots.HeuristicBot``'s valuation, compiled (the same terms
  and the same weights, ``HeuristicWeights``): those round points (2p: by the total
  rule), shrunk by the chance that an opponent takes the site back this round (card
  counting from the mover's unseen cards and the opponents' held blocks), less a little
  per point the opponents lose (3-4p; 2p: plus every point the opponent loses), the
  leading opponent's loss in the last round, and a bonus per story above what the site
  needs while the mover has other blocks to place.  Ties (within 1e-9) broken uniformly.
* ``"imitation"``: a linear utility over a few facts of each placement, fitted to the
  search engine's own choices (``positions.imitation``, which holds it).

Selection policies (``SELECTIONS``), one pick at a time: ``"bag"`` draws the blocks still
to pick at random from the color's supply and picks the smallest of them (selections
follow the supply's mix); ``"biggest"`` picks towards the biggest blocks left, as the
built-in bots select.

The same valuation serves the search as priors and the opponent model as move values:
``placement_values`` gives the heuristic value of every placement of a set of cards in
a state, without the card counting of any hidden hand (see its docstring).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from positions import kernel_cache

CACHED = kernel_cache.configure()  # before numba is imported: its cache folder

from numba import njit  # noqa: E402

from positions.bots import HeuristicWeights  # noqa: E402
from positions.kernel_board import (  # noqa: E402
    _CARD_SITES,
    _ROUNDS,
    H_MIN,
    H_PLAYERS,
    H_ROUND,
    H_SHARED,
    OFF_HANDS,
    OFF_HEIGHT,
    OFF_OWNER,
    OFF_PLAYED,
    OFF_SCORES,
    OFF_SELECTED,
    OFF_STORIES,
    OFF_SUPPLY,
    _below,
    _board_facts,
    _owner_gain,
    _round_points,
    _tallest_gain,
    _tallest_scorer,
    _uniform,
    _winner,
)
from positions.layout import CARD_TYPES, CARDS_PER_TYPE, CITIES, COLORS, SITES_PER_CITY, SIZES  # noqa: E402
from positions.moves import NO_PLACEMENT_BASE  # noqa: E402

PLACEMENTS = ("greedy", "heuristic", "imitation")
SELECTIONS = ("bag", "biggest")
GREEDY, HEURISTIC, IMITATION = 0, 1, 2
BAG, BIGGEST = 0, 1
# the weights array: HeuristicWeights' fields in this order
W_DUEL, W_BYSTANDERS, W_RISK, W_AGGRESSION, W_BIG_FIRST, W_LEADER = range(6)
W_IMITATION = 6  # where a playout's weights go on with the imitation policy's
TIE = 1e-9  # values this close to the best count as ties


def weights_array(weights: HeuristicWeights | None = None) -> np.ndarray:
    """``weights`` (default: ``HeuristicWeights()``) as the kernel's float64 array."""
    w = weights or HeuristicWeights()
    return np.array(
        [w.duel, w.bystanders, w.risk, w.aggression, w.big_first, w.leader], dtype=np.float64
    )


def values_weights(values: str) -> np.ndarray:
    """The weights that make ``placement_values`` value moves as ``values`` says:
    ``"heuristic"`` (``HeuristicBot``'s valuation) or ``"greedy"`` (the immediate round
    points alone, the greedy policy's values).  Raises ``ValueError`` for another name."""
    if values == "heuristic":
        return weights_array()
    if values == "greedy":
        return weights_array(HeuristicWeights(0.0, 0.0, 0.0, 0.0, 0.0, 0.0))
    raise ValueError(f"values must be heuristic or greedy, not {values!r}")


# ----- greedy ------------------------------------------------------------------------------


@njit(cache=CACHED)
def _greedy_choice(
    player,
    players,
    shared,
    ncards,
    cards,
    site_of,
    nkinds,
    kind_slot,
    kind_size,
    stories,
    height,
    owner,
    city_count,
    city_winner,
    tall,
    ties,
    rng,
):
    """The index (into cards × cities × kinds, as the random policy numbers them) of a
    legal placement with the largest ``_gain``, ties broken uniformly; -1 if none."""
    scorer = _tallest_scorer(tall, shared)
    best = -1000
    nties = 0
    per_card = CITIES * nkinds
    for ci in range(ncards):
        site_in_city = site_of[cards[ci]]
        for city in range(CITIES):
            site = city * SITES_PER_CITY + site_in_city
            top = owner[site]
            base_height = height[site]
            k = 0
            while k < nkinds:
                slot = kind_slot[k]
                color = player + 2 * slot
                need = 0
                if top >= 0 and top != color:
                    need = stories[site * 4 + top] - stories[site * 4 + color]
                owner_gain = _owner_gain(
                    site, color, player, players, owner, city_count, city_winner
                )
                while k < nkinds and kind_slot[k] == slot:
                    size = kind_size[k]
                    if size >= need:
                        g = owner_gain + _tallest_gain(
                            base_height + size, color, player, players, shared, tall, scorer
                        )
                        if g > best:
                            best = g
                            nties = 0
                        if g == best:
                            ties[nties] = ci * per_card + city * nkinds + k
                            nties += 1
                    k += 1
    if nties == 0:
        return -1
    return ties[_below(rng, nties)]


# ----- heuristic ---------------------------------------------------------------------------


@njit(cache=CACHED, inline="always")
def _player_value(scores, points, delta, p, players, use_min):
    """Player ``p``'s total if the round were scored with ``points + delta``."""
    if players == 2:
        first = scores[p] + points[p] + delta[p]
        second = scores[p + 2] + points[p + 2] + delta[p + 2]
        return min(first, second) if use_min else first + second
    return scores[p] + points[p] + delta[p]


@njit(cache=CACHED)
def _heuristic_context(a, player, points, unseen, weights, before, biggest, reach):
    """What every candidate of one heuristic decision shares; fills ``before`` (each
    player's total if the round were scored now), ``biggest`` (per opponent color, its
    biggest held block, 0 for none) and ``reach`` (``q*9 + site in city``: the chance
    opponent ``q`` holds or draws a card reaching that site this round, from the mover's
    ``unseen`` counts).  Returns ``(blocks the mover holds, the leading opponent in the
    last round of a 3-4p game or -1)``."""
    players = a[H_PLAYERS]
    use_min = a[H_MIN] != 0
    selected = a[OFF_SELECTED:OFF_SCORES]
    scores = a[OFF_SCORES:OFF_HANDS]
    zero = np.zeros(COLORS, dtype=np.int64)
    ncol = 2 if players == 2 else 1
    total = 0
    for card in range(1, CARD_TYPES + 1):
        total += unseen[card]
    if total < 1:
        total = 1
    my_blocks = 0
    for q in range(players):
        before[q] = _player_value(scores, points, zero, q, players, use_min)
        held = 0
        for s in range(ncol):
            color = q + 2 * s
            big = 0
            for size in range(1, 5):
                n = selected[color * 4 + size - 1]
                held += n
                if n > 0:
                    big = size
            biggest[color] = 0 if q == player else big
        if q == player:
            my_blocks = held
        for site in range(SITES_PER_CITY):
            reach[q * SITES_PER_CITY + site] = 0.0
        if q != player and held > 0:
            for card in range(1, CARD_TYPES + 1):
                miss = 1.0 - unseen[card] / total
                keep = 1.0
                for _ in range(3 + held):  # miss ** (3 + held), a few multiplications
                    keep *= miss
                reach[q * SITES_PER_CITY + _CARD_SITES[players, q, card]] = 1.0 - keep
    leader = -1
    if players > 2 and a[H_ROUND] == _ROUNDS[players]:
        for q in range(players):
            if q != player and (leader < 0 or before[q] > before[leader]):
                leader = q
    return my_blocks, leader


@njit(cache=CACHED)
def _site_values(
    a,
    site,
    color,
    sizes,
    nsizes,
    player,
    city_count,
    city_winner,
    tall,
    scorer,
    points,
    weights,
    before,
    biggest,
    reach,
    my_blocks,
    leader,
    out,
    owned,
    delta,
):
    """``HeuristicBot``'s value of putting ``sizes[j]`` stories of ``color`` on ``site``
    for ``player``, into ``out[j]`` (NaN where not legal), for ``j < nsizes``; the context
    from ``_heuristic_context``, ``scorer`` the color scoring the tallest building now;
    ``owned`` and ``delta`` are scratch (4 ints each).  What does not depend on the size
    (the owner and the majority) is counted once."""
    players = a[H_PLAYERS]
    use_min = a[H_MIN] != 0
    shared = a[H_SHARED] != 0
    stories = a[OFF_STORIES:OFF_HEIGHT]
    height = a[OFF_HEIGHT:OFF_OWNER]
    owner = a[OFF_OWNER:OFF_SUPPLY]
    scores = a[OFF_SCORES:OFF_HANDS]
    base = site * 4
    previous = owner[site]
    need = 0  # the fewest stories that may go on: a takeover must reach the owner's
    if previous >= 0 and previous != color:
        need = stories[base + previous] - stories[base + color]
    needed = max(1, need)
    for col in range(COLORS):  # the change of building and majority points
        owned[col] = 0
    if previous != color:
        owned[color] += 1
        if previous >= 0:
            owned[previous] -= 1
        city = site // SITES_PER_CITY
        old = city_winner[city]
        new = _winner(city_count, city, color, previous)
        if new != old:
            if old >= 0:
                owned[old] -= 2
            if new >= 0:
                owned[new] += 2
    ncol = 2 if players == 2 else 1
    spare = (my_blocks - 1) / my_blocks
    for j in range(nsizes):
        size = sizes[j]
        if size < need:
            out[j] = np.nan
            continue
        for col in range(COLORS):
            delta[col] = owned[col]
        new_height = height[site] + size
        if new_height >= tall[0]:  # the site was lower than the tallest, or was it
            new = color if new_height > tall[0] or (shared and tall[2] == color) else -1
            if new != scorer:
                if scorer >= 0:
                    delta[scorer] -= 3
                if new >= 0:
                    delta[new] += 3
        after = _player_value(scores, points, delta, player, players, use_min)
        gain = float(after - before[player])
        if gain > 0:
            mine = stories[base + color] + size
            keep = 1.0
            for q in range(players):
                if q == player:
                    continue
                reaches = False
                for s in range(ncol):
                    x = q + 2 * s
                    if biggest[x] > 0 and stories[base + x] + biggest[x] >= mine:
                        reaches = True
                if reaches:
                    keep *= 1.0 - weights[W_AGGRESSION] * reach[q * SITES_PER_CITY + site % 9]
            gain *= 1.0 - weights[W_RISK] * (1.0 - keep)
        lost = 0.0
        for q in range(players):
            if q != player:
                lost += before[q] - _player_value(scores, points, delta, q, players, use_min)
        if players == 2:
            value = gain + weights[W_DUEL] * lost
        else:
            value = gain - weights[W_BYSTANDERS] * lost / (players - 1)
        if leader >= 0:
            leader_after = _player_value(scores, points, delta, leader, players, use_min)
            value += weights[W_LEADER] * (before[leader] - leader_after)
        out[j] = value + weights[W_BIG_FIRST] * (size - needed) * spare


@njit(cache=CACHED)
def heuristic_scratch(players):
    """The scratch arrays of ``_heuristic_choice``, allocated once per playout."""
    return (
        np.empty(players, dtype=np.float64),
        np.zeros(COLORS, dtype=np.int64),
        np.empty(players * SITES_PER_CITY, dtype=np.float64),
        np.empty(SIZES, dtype=np.float64),
        np.empty(COLORS, dtype=np.int64),
        np.empty(COLORS, dtype=np.int64),
    )


@njit(cache=CACHED)
def _heuristic_choice(
    a,
    player,
    ncards,
    cards,
    site_of,
    nkinds,
    kind_slot,
    kind_size,
    city_count,
    city_winner,
    tall,
    points,
    unseen,
    weights,
    ties,
    rng,
    scratch,
):
    """The index (cards × cities × kinds) of a legal placement with the largest heuristic
    value, ties broken uniformly; -1 if none.  ``scratch`` is ``heuristic_scratch``'s
    arrays (allocated once per playout)."""
    before, biggest, reach, values, owned, delta = scratch
    my_blocks, leader = _heuristic_context(
        a, player, points, unseen, weights, before, biggest, reach
    )
    scorer = _tallest_scorer(tall, a[H_SHARED] != 0)
    best = -1e300
    nties = 0
    per_card = CITIES * nkinds
    for ci in range(ncards):
        site_in_city = site_of[cards[ci]]
        for city in range(CITIES):
            site = city * SITES_PER_CITY + site_in_city
            first = 0
            while first < nkinds:  # the kinds of one color slot at a time
                slot = kind_slot[first]
                last = first
                while last < nkinds and kind_slot[last] == slot:
                    last += 1
                _site_values(
                    a,
                    site,
                    player + 2 * slot,
                    kind_size[first:last],
                    last - first,
                    player,
                    city_count,
                    city_winner,
                    tall,
                    scorer,
                    points,
                    weights,
                    before,
                    biggest,
                    reach,
                    my_blocks,
                    leader,
                    values,
                    owned,
                    delta,
                )
                for k in range(first, last):
                    value = values[k - first]
                    if np.isnan(value):
                        continue
                    if value > best + TIE:
                        best = value
                        nties = 0
                    if value >= best - TIE:
                        ties[nties] = ci * per_card + city * nkinds + k
                        nties += 1
                first = last
    if nties == 0:
        return -1
    return ties[_below(rng, nties)]


@njit(cache=CACHED)
def _all_placement_values(a, player, card_mask, unseen, weights, values):
    """Fill ``values`` (indexed by placement action id) with the heuristic value of every
    legal placement by ``player`` of a card with ``card_mask[card]`` set, NaN elsewhere."""
    players = a[H_PLAYERS]
    height = a[OFF_HEIGHT:OFF_OWNER]
    owner = a[OFF_OWNER:OFF_SUPPLY]
    selected = a[OFF_SELECTED:OFF_SCORES]
    shared = a[H_SHARED] != 0
    city_count, city_winner, tall = _board_facts(height, owner)
    points = _round_points(owner, city_winner, tall, shared)
    scorer = _tallest_scorer(tall, shared)
    before = np.empty(players, dtype=np.float64)
    biggest = np.zeros(COLORS, dtype=np.int64)
    reach = np.empty(players * SITES_PER_CITY, dtype=np.float64)
    my_blocks, leader = _heuristic_context(
        a, player, points, unseen, weights, before, biggest, reach
    )
    values[:] = np.nan
    sizes = np.empty(SIZES, dtype=np.int64)
    out = np.empty(SIZES, dtype=np.float64)
    owned = np.empty(COLORS, dtype=np.int64)
    delta = np.empty(COLORS, dtype=np.int64)
    ncol = 2 if players == 2 else 1
    for slot in range(ncol):
        color = player + 2 * slot
        nsizes = 0
        for size in range(1, SIZES + 1):
            if selected[color * 4 + size - 1] > 0:
                sizes[nsizes] = size
                nsizes += 1
        if nsizes == 0:
            continue
        for card in range(1, CARD_TYPES + 1):
            if not card_mask[card]:
                continue
            site_in_city = _CARD_SITES[players, player, card]
            for city in range(CITIES):
                site = city * SITES_PER_CITY + site_in_city
                _site_values(
                    a,
                    site,
                    color,
                    sizes,
                    nsizes,
                    player,
                    city_count,
                    city_winner,
                    tall,
                    scorer,
                    points,
                    weights,
                    before,
                    biggest,
                    reach,
                    my_blocks,
                    leader,
                    out,
                    owned,
                    delta,
                )
                for j in range(nsizes):
                    action = ((card - 1) * CITIES + city) * 8 + slot * 4 + sizes[j] - 1
                    values[action] = out[j]


# ----- selection ---------------------------------------------------------------------------


@njit(cache=CACHED)
def _pick(a, player, players, quota, epsilon, selection, rng):
    """Choose one selection pick for ``player``; returns ``(slot, color, stories)``."""
    ncol = 2 if players == 2 else 1
    slot = 0
    color = player
    picked = 0
    for slot in range(ncol):
        color = player + 2 * slot
        picked = 0
        for s in range(4):
            picked += a[OFF_SELECTED + color * 4 + s]
        if picked < quota:
            break
    smallest = 1  # the smallest size the next pick may have: picks come ascending
    for s in range(4):
        if a[OFF_SELECTED + color * 4 + s] > 0:
            smallest = s + 1
    remaining = quota - picked
    sup = OFF_SUPPLY + color * 4
    if epsilon >= 1.0 or (epsilon > 0.0 and _uniform(rng) < epsilon):
        legal = np.empty(4, dtype=np.int64)
        n = 0
        above = 0
        for size in range(4, smallest - 1, -1):
            above += a[sup + size - 1]
            if a[sup + size - 1] > 0 and above >= remaining:
                legal[n] = size
                n += 1
        return slot, color, legal[_below(rng, n)]
    if selection == BIGGEST:  # the smallest of the ``remaining`` biggest blocks left
        above = 0
        for size in range(4, smallest - 1, -1):
            above += a[sup + size - 1]
            if above >= remaining:
                return slot, color, size
        return slot, color, smallest  # unreachable: a legal pick exists
    pool = np.zeros(5, dtype=np.int64)
    total = 0
    for size in range(smallest, 5):
        pool[size] = a[sup + size - 1]
        total += pool[size]
    chosen = 5
    for _ in range(remaining):
        r = _below(rng, total)
        size = smallest
        while r >= pool[size]:
            r -= pool[size]
            size += 1
        pool[size] -= 1
        total -= 1
        if size < chosen:
            chosen = size
    return slot, color, chosen


# ----- the Python side ---------------------------------------------------------------------


def check_policy(placement: str, selection: str) -> tuple[int, int]:
    """The kernel's codes of a placement and a selection policy; raises ``ValueError``
    naming the choices for an unknown one."""
    if placement not in PLACEMENTS:
        raise ValueError(
            f"placement policy must be one of {', '.join(PLACEMENTS)}, not {placement!r}"
        )
    if selection not in SELECTIONS:
        raise ValueError(
            f"selection policy must be one of {', '.join(SELECTIONS)}, not {selection!r}"
        )
    return PLACEMENTS.index(placement), SELECTIONS.index(selection)


def public_unseen(played: Iterable[int]) -> np.ndarray:
    """Per card type (index 1-9), the copies not in the played pile ``played`` (index 0
    unused): the unseen counts of a reader who knows no hand."""
    counts = np.full(10, CARDS_PER_TYPE, dtype=np.int64)
    counts[0] = 0
    for card, n in enumerate(played):
        if card:
            counts[card] -= n
    return counts


def placement_values(
    arrays: np.ndarray,
    player: int,
    cards: Iterable[int],
    unseen: np.ndarray,
    weights: np.ndarray,
) -> np.ndarray:
    """The heuristic value of every legal placement by ``player`` with one of ``cards`` in
    the packed position ``arrays`` (``kernel_board.to_arrays`` or ``pack_board``), as a
    float64 array indexed by placement action id (NaN for the others).  ``unseen`` (10
    ints, index 0 unused) are the card counts the takeover risk is counted from: the
    mover's unseen cards in a playout, ``public_unseen`` for a reader who knows no hand."""
    mask = np.zeros(10, dtype=np.bool_)
    for card in cards:
        mask[card] = True
    values = np.empty(NO_PLACEMENT_BASE, dtype=np.float64)
    _all_placement_values(arrays, player, mask, unseen, weights, values)
    return values


def mover_unseen(arrays: np.ndarray, player: int) -> np.ndarray:
    """The unseen counts of ``player`` in a packed dealt world: 5 of each type less their
    hand and the played pile (``GameState.unseen_cards`` as counts)."""
    unseen = np.full(10, CARDS_PER_TYPE, dtype=np.int64)
    unseen[0] = 0
    base = OFF_HANDS + player * 10
    for card in range(1, CARD_TYPES + 1):
        unseen[card] -= arrays[base + card] + arrays[OFF_PLAYED + card]
    return unseen
