"""A placement policy learned to imitate the search: a linear utility over a few facts of
each placement, its weights fitted to the choices of the search engine itself.

Each legal placement of the mover is described by ``FEATURES``:

* ``gain``: the change of the mover's round points (the greedy policy's value);
* ``size``: the stories the block adds;
* ``takeover``: 1 if the site is topped by an opponent's color now;
* ``empty``: 1 if the site holds no building yet;
* ``threat``: the chance (from the mover's unseen cards, as the heuristic counts it) that
  an opponent holding a block big enough to top the site after the placement holds or
  draws a card reaching it this round; the largest over those opponents, 0 if none;
* ``threat_gain``: ``threat`` × ``gain`` (points likely to be taken back);
* ``early_size``: ``size`` × the share of rounds still to come after this one (1 in the
  first round, 0 in the last): spending big blocks early;
* ``leader_loss``: the round points the leading opponent (the most points if the round
  were scored now) loses.

The policy plays a placement with the largest ``weights · features``, ties (within 1e-9)
broken uniformly.  ``scripts/train_imitation.py`` fits the weights to recorded games by
maximum likelihood of a softmax over the legal placements (a conditional logit); the
fitted weights travel as ``positions/data/models/imitation_4p.json`` and serve every
player count.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from positions import kernel_cache

CACHED = kernel_cache.configure()  # before numba is imported: its cache folder

from numba import njit  # noqa: E402

from positions.errors import ManhattanError  # noqa: E402
from positions.kernel_board import (  # noqa: E402
    _CARD_SITES,
    _ROUNDS,
    H_PLAYERS,
    H_ROUND,
    H_SHARED,
    OFF_HANDS,
    OFF_HEIGHT,
    OFF_OWNER,
    OFF_SELECTED,
    OFF_STORIES,
    OFF_SUPPLY,
    _below,
    _board_facts,
    _can_place,
    _is_mine,
    _round_points,
    _tallest_scorer,
    _winner,
)
from positions.layout import CARD_TYPES, CITIES, COLORS, SITES_PER_CITY  # noqa: E402
from positions.moves import NO_PLACEMENT_BASE  # noqa: E402
from positions.policy import TIE, _heuristic_context, mover_unseen, weights_array  # noqa: E402

FEATURES = (
    "gain",
    "size",
    "takeover",
    "empty",
    "threat",
    "threat_gain",
    "early_size",
    "leader_loss",
)
N_FEATURES = len(FEATURES)
MODEL_FILE = Path(__file__).parent / "data" / "models" / "imitation_4p.json"
_NO_WEIGHTS = weights_array()  # the heuristic context reads none of them


def bundled_weights() -> np.ndarray:
    """The fitted weights (one per ``FEATURES`` entry) from ``MODEL_FILE``; raises
    ``ManhattanError`` when it is missing or malformed."""
    try:
        data = json.loads(MODEL_FILE.read_text(encoding="utf-8"))
        return np.array([float(data["weights"][name]) for name in FEATURES], dtype=np.float64)
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ManhattanError(f"{MODEL_FILE}: not a readable imitation model ({error})") from None


@njit(cache=CACHED)
def imitation_scratch(players, rows=0):
    """The scratch arrays of one imitation decision, allocated once per playout: each
    player's total now, each opponent color's biggest held block, each opponent's chance
    to reach each site of a city, the features of one placement, and ``rows`` rows of
    placements' features and action ids for a caller who wants them (none in a playout)."""
    return (
        np.empty(players, dtype=np.float64),
        np.zeros(COLORS, dtype=np.int64),
        np.empty(players * SITES_PER_CITY, dtype=np.float64),
        np.empty(N_FEATURES, dtype=np.float64),
        np.empty((rows, N_FEATURES), dtype=np.float64),
        np.empty(rows, dtype=np.int64),
    )


@njit(cache=CACHED)
def _context(a, player, points, unseen, before, biggest, reach):
    """Fill the context of one decision (see ``imitation_scratch``) and return
    ``(the leading opponent, the share of rounds after this one)``."""
    players = a[H_PLAYERS]
    _heuristic_context(a, player, points, unseen, _NO_WEIGHTS, before, biggest, reach)
    leader = -1
    for q in range(players):
        if q != player and (leader < 0 or before[q] > before[leader]):
            leader = q
    rounds = _ROUNDS[players]
    early = (rounds - a[H_ROUND]) / (rounds - 1)
    return leader, early


@njit(cache=CACHED, inline="always")
def _site_facts(site, color, player, players, leader, owner, city_count, city_winner):
    """What the features of a block of ``color`` on ``site`` owe to the owner and the
    majority alone, whatever its size: ``(the mover's gain, the leader's loss, takeover,
    empty)``."""
    previous = owner[site]
    gain = 0
    loss = 0
    if previous != color:  # ``_owner_gain`` for the mover and the leader, one majority count
        city = site // SITES_PER_CITY
        was = city_winner[city]
        now = _winner(city_count, city, color, previous)
        gain = _is_mine(color, player, players) - _is_mine(previous, player, players)
        gain += 2 * (_is_mine(now, player, players) - _is_mine(was, player, players))
        if leader >= 0:
            loss = _is_mine(previous, leader, players)
            loss += 2 * (_is_mine(was, leader, players) - _is_mine(now, leader, players))
    takeover = 1.0 if previous >= 0 and _is_mine(previous, player, players) == 0 else 0.0
    return gain, loss, takeover, 1.0 if previous < 0 else 0.0


@njit(cache=CACHED, inline="always")
def _features(
    site,
    color,
    size,
    player,
    players,
    shared,
    stories,
    height,
    tall,
    scorer,
    biggest,
    reach,
    leader,
    early,
    facts,
    out,
):
    """Write the ``FEATURES`` of ``player`` putting ``size`` stories of ``color`` on
    ``site`` (a legal placement; ``facts`` from ``_site_facts``) into ``out``."""
    owner_gain, owner_loss, takeover, empty = facts
    new_height = height[site] + size
    gain = owner_gain
    loss = owner_loss
    if new_height >= tall[0]:  # ``_tallest_gain`` for the mover and the leader
        crowned = color if new_height > tall[0] or (shared and tall[2] == color) else -1
        gain += 3 * (_is_mine(crowned, player, players) - _is_mine(scorer, player, players))
        if leader >= 0:
            loss += 3 * (_is_mine(scorer, leader, players) - _is_mine(crowned, leader, players))
    mine = stories[site * 4 + color] + size
    threat = 0.0
    at = site - (site // SITES_PER_CITY) * SITES_PER_CITY  # the site within its city
    for x in range(COLORS):
        if biggest[x] > 0 and stories[site * 4 + x] + biggest[x] >= mine:
            q = x - players if x >= players else x  # the color's player
            chance = reach[q * SITES_PER_CITY + at]
            if chance > threat:
                threat = chance
    out[0] = gain
    out[1] = size
    out[2] = takeover
    out[3] = empty
    out[4] = threat
    out[5] = threat * gain
    out[6] = size * early
    out[7] = loss


@njit(cache=CACHED)
def _imitation_choice(
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
    """``(choice, rows)``: the index (cards × cities × kinds, as the other policies number
    them) of a legal placement with the largest ``weights · FEATURES``, ties broken
    uniformly (-1 if none), and the number of legal placements written to the scratch's
    table (its features) and action ids, when it has rows for them (0 otherwise).
    ``points`` are the round points now; ``scratch`` is ``imitation_scratch``'s."""
    before, biggest, reach, one, table, actions = scratch
    record = table.shape[0] > 0
    leader, early = _context(a, player, points, unseen, before, biggest, reach)
    players = a[H_PLAYERS]
    shared = a[H_SHARED] != 0
    stories = a[OFF_STORIES:OFF_HEIGHT]
    height = a[OFF_HEIGHT:OFF_OWNER]
    owner = a[OFF_OWNER:OFF_SUPPLY]
    scorer = _tallest_scorer(tall, shared)
    best = -1e300
    nties = 0
    rows = 0
    per_card = CITIES * nkinds
    for ci in range(ncards):
        site_in_city = site_of[cards[ci]]
        for city in range(CITIES):
            site = city * SITES_PER_CITY + site_in_city
            slot = -1
            facts = (0, 0, 0.0, 0.0)
            for k in range(nkinds):
                color = player + 2 * kind_slot[k]
                size = kind_size[k]
                if not _can_place(stories, owner, site, color, size):
                    continue
                if kind_slot[k] != slot:  # the kinds come color slot by color slot
                    slot = kind_slot[k]
                    facts = _site_facts(
                        site, color, player, players, leader, owner, city_count, city_winner
                    )
                features = table[rows] if record else one
                _features(
                    site,
                    color,
                    size,
                    player,
                    players,
                    shared,
                    stories,
                    height,
                    tall,
                    scorer,
                    biggest,
                    reach,
                    leader,
                    early,
                    facts,
                    features,
                )
                if record:
                    actions[rows] = ((cards[ci] - 1) * CITIES + city) * 8 + slot * 4 + size - 1
                    rows += 1
                value = 0.0
                for f in range(N_FEATURES):
                    value += weights[f] * features[f]
                if value > best + TIE:
                    best = value
                    nties = 0
                if value >= best - TIE:
                    ties[nties] = ci * per_card + city * nkinds + k
                    nties += 1
    if nties == 0:
        return -1, rows
    return ties[_below(rng, nties)], rows


@njit(cache=CACHED)
def _all_placement_features(a, player, unseen, weights, scratch):
    """The number of legal placements by ``player`` of a card in their hand, their
    ``FEATURES`` and action ids written to the table of ``scratch`` (``imitation_scratch``
    with rows for every placement), in action id order.  ``a`` is a packed position with
    ``player``'s hand known."""
    players = a[H_PLAYERS]
    height = a[OFF_HEIGHT:OFF_OWNER]
    owner = a[OFF_OWNER:OFF_SUPPLY]
    city_count, city_winner, tall = _board_facts(height, owner)
    points = _round_points(owner, city_winner, tall, a[H_SHARED] != 0)
    cards = np.empty(CARD_TYPES, dtype=np.int64)
    ncards = 0
    for card in range(1, CARD_TYPES + 1):
        if a[OFF_HANDS + player * 10 + card] > 0:
            cards[ncards] = card
            ncards += 1
    kind_slot = np.empty(8, dtype=np.int64)
    kind_size = np.empty(8, dtype=np.int64)
    nkinds = 0
    for slot in range(2 if players == 2 else 1):
        for size in range(1, 5):
            if a[OFF_SELECTED + (player + 2 * slot) * 4 + size - 1] > 0:
                kind_slot[nkinds] = slot
                kind_size[nkinds] = size
                nkinds += 1
    ties = np.empty(NO_PLACEMENT_BASE, dtype=np.int64)
    rng = np.ones(1, dtype=np.uint64)
    _, rows = _imitation_choice(
        a,
        player,
        ncards,
        cards,
        _CARD_SITES[players, player],
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
    )
    return rows


def placement_features(arrays: np.ndarray, player: int) -> tuple[np.ndarray, np.ndarray]:
    """``(action ids, FEATURES rows)`` of every legal placement by ``player`` of a card in
    their hand in the packed position ``arrays`` (``kernel_board.to_arrays`` or
    ``pack_known``: ``player``'s hand must be known), the threat counted from their unseen
    cards, as the playout policy sees them."""
    scratch = imitation_scratch(int(arrays[H_PLAYERS]), NO_PLACEMENT_BASE)
    unseen = mover_unseen(arrays, player)
    rows = _all_placement_features(arrays, player, unseen, np.zeros(N_FEATURES), scratch)
    return scratch[5][:rows].copy(), scratch[4][:rows].copy()
