"""A compiled playout kernel: plays a fully dealt Manhattan world to the end of the game.

The kernel follows the rules of ``positions.state`` and ``positions.rules`` exactly (a
differential test, ``tests/test_playout.py``, keeps them equal); it differs from the
readable model only in how the played pile is reshuffled when the deck runs out (the
kernel shuffles with its own generator, not ``random.Random(shuffle_seed)``).

Policy (ε-greedy):

* **Placement.** With probability ε a uniformly random legal action (every legal action id
  equally likely, as ``legal_actions()`` lists them); otherwise the placement that gives
  the mover the most round points if the round were scored right after it (the sum over the
  mover's colors in 2p), ties broken uniformly at random.  When no placement is legal, a
  uniformly random no-placement action.
* **Selection.** Picks are made one at a time, as the action ids are.  With probability ε
  a uniformly random legal pick; otherwise "draw from the bag": the blocks still to pick
  are drawn at random without replacement from the color's supply (of the sizes still
  allowed) and the smallest of them is picked, so selections follow the supply's mix.

``epsilon=1`` is therefore pure uniformly random play over legal action ids.

This module is the only one that imports numba; ``positions`` does not import it, so the
command line starts fast.
"""

from __future__ import annotations

import itertools

import numpy as np

from positions import kernel_cache

CACHED = kernel_cache.configure()  # before numba is imported: its cache folder

from numba import njit  # noqa: E402

from positions.layout import (  # noqa: E402
    CARD_TYPES,
    CITIES,
    COLORS,
    DECK_SIZE,
    SITES,
    SITES_PER_CITY,
    SIZES,
    layout,
)
from positions.moves import NO_PLACEMENT_BASE, PICK_BASE  # noqa: E402
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


# ----- the playout ----------------------------------------------------------------------


@njit(cache=CACHED)
def _pick(a, player, players, quota, epsilon, rng):
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
    smallest = 1
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


@njit(cache=CACHED)
def _playout(start, seed, epsilon, trace):
    """Play the world ``start`` (see ``to_arrays``) to the end.  Returns the per-player
    win shares then final totals (float64, 2×players) and the number of actions written
    to ``trace`` (rows ``(action id, drawn card or -1)``; pass a 0-row array for none)."""
    a = start.copy()
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64(seed)
    players = a[H_PLAYERS]
    rounds = _ROUNDS[players]
    quota = _QUOTA[players]
    shared = a[H_SHARED] != 0
    ncol = 2 if players == 2 else 1
    stories = a[OFF_STORIES:OFF_HEIGHT]
    height = a[OFF_HEIGHT:OFF_OWNER]
    owner = a[OFF_OWNER:OFF_SUPPLY]
    selected = a[OFF_SELECTED:OFF_SCORES]
    scores = a[OFF_SCORES:OFF_HANDS]
    hands = a[OFF_HANDS:OFF_PLAYED]
    played = a[OFF_PLAYED:OFF_DECK]
    deck = a[OFF_DECK:]
    deck_len = a[H_DECK_LEN]
    round_number = a[H_ROUND]
    phase = a[H_PHASE]
    to_move = a[H_TO_MOVE]
    record = trace.shape[0] > 0
    steps = 0

    city_count, city_winner, tall = _board_facts(height, owner)  # kept up to date by _build
    blocks_left = 0
    for i in range(COLORS * SIZES):
        blocks_left += selected[i]

    cards = np.empty(CARD_TYPES, dtype=np.int64)
    kind_slot = np.empty(8, dtype=np.int64)
    kind_size = np.empty(8, dtype=np.int64)
    legal = np.empty(CARD_TYPES * CITIES * 8, dtype=np.int64)

    while phase != _PHASE_OVER:
        player = to_move
        if phase == _PHASE_SELECTION:
            slot, color, size = _pick(a, player, players, quota, epsilon, rng)
            a[OFF_SUPPLY + color * 4 + size - 1] -= 1
            selected[color * 4 + size - 1] += 1
            blocks_left += 1
            if record:
                trace[steps, 0] = PICK_BASE + slot * 4 + size - 1
                trace[steps, 1] = -1
            steps += 1
            done = True
            for s in range(ncol):
                c = player + 2 * s
                if (
                    selected[c * 4]
                    + selected[c * 4 + 1]
                    + selected[c * 4 + 2]
                    + selected[c * 4 + 3]
                ) < quota:
                    done = False
            if done:
                start_player = (round_number - 1) % players
                if (player - start_player) % players + 1 < players:
                    to_move = (player + 1) % players
                else:
                    phase = _PHASE_PLACEMENT
                    to_move = start_player
            continue

        # ----- a turn: play a card, place (or give up) a block, draw -----
        ncards = 0
        for card in range(1, CARD_TYPES + 1):
            if hands[player * 10 + card] > 0:
                cards[ncards] = card
                ncards += 1
        nkinds = 0
        for s in range(ncol):
            c = player + 2 * s
            for size in range(1, 5):
                if selected[c * 4 + size - 1] > 0:
                    kind_slot[nkinds] = s
                    kind_size[nkinds] = size
                    nkinds += 1
        site_of = _CARD_SITES[players, player]
        per_card = CITIES * nkinds
        choice = -1  # index into cards × cities × kinds
        if epsilon >= 1.0 or (epsilon > 0.0 and _uniform(rng) < epsilon):
            total = ncards * per_card
            for _ in range(24):  # rejection sampling: most placements are legal
                r = _below(rng, total)
                ci = r // per_card
                k = r % nkinds
                site = ((r % per_card) // nkinds) * SITES_PER_CITY + site_of[cards[ci]]
                if _can_place(stories, owner, site, player + 2 * kind_slot[k], kind_size[k]):
                    choice = r
                    break
            if choice < 0:
                n = 0
                for r in range(total):
                    ci = r // per_card
                    k = r % nkinds
                    site = ((r % per_card) // nkinds) * SITES_PER_CITY + site_of[cards[ci]]
                    if _can_place(stories, owner, site, player + 2 * kind_slot[k], kind_size[k]):
                        legal[n] = r
                        n += 1
                if n > 0:
                    choice = legal[_below(rng, n)]
        else:
            choice = _greedy_choice(
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
                legal,
                rng,
            )

        if choice >= 0:
            ci = choice // per_card
            k = choice % nkinds
            city = (choice % per_card) // nkinds
            card = cards[ci]
            slot = kind_slot[k]
            size = kind_size[k]
            color = player + 2 * slot
            _build(
                city * SITES_PER_CITY + site_of[card],
                color,
                size,
                stories,
                height,
                owner,
                city_count,
                city_winner,
                tall,
            )
            action = ((card - 1) * CITIES + city) * 8 + slot * 4 + size - 1
        else:  # no legal placement: play a card, give up a block
            card = cards[_below(rng, ncards)]
            k = _below(rng, nkinds)
            slot = kind_slot[k]
            size = kind_size[k]
            color = player + 2 * slot
            action = NO_PLACEMENT_BASE + (card - 1) * 8 + slot * 4 + size - 1
        hands[player * 10 + card] -= 1
        played[card] += 1
        selected[color * 4 + size - 1] -= 1
        blocks_left -= 1

        if deck_len == 0:  # reshuffle the played pile into a new deck
            for c in range(1, CARD_TYPES + 1):
                for _ in range(played[c]):
                    deck[deck_len] = c
                    deck_len += 1
                played[c] = 0
            for i in range(deck_len - 1, 0, -1):
                j = _below(rng, i + 1)
                deck[i], deck[j] = deck[j], deck[i]
        deck_len -= 1
        drawn = deck[deck_len]
        hands[player * 10 + drawn] += 1
        if record:
            trace[steps, 0] = action
            trace[steps, 1] = drawn
        steps += 1

        if blocks_left > 0:
            to_move = (player + 1) % players
        else:  # score the round
            for site in range(SITES):
                if owner[site] >= 0:
                    scores[owner[site]] += 1
            for city in range(CITIES):
                if city_winner[city] >= 0:
                    scores[city_winner[city]] += 2
            scorer = _tallest_scorer(tall, shared)
            if scorer >= 0:
                scores[scorer] += 3
            if round_number == rounds:
                phase = _PHASE_OVER
            else:
                round_number += 1
                phase = _PHASE_SELECTION
                to_move = (round_number - 1) % players

    # ----- final totals, ranking, win shares -----
    out = np.zeros(2 * players, dtype=np.float64)
    totals = np.empty(players, dtype=np.int64)
    tallest = np.zeros(players, dtype=np.int64)
    owned = np.zeros(players, dtype=np.int64)
    for p in range(players):
        if players == 2:
            if a[H_MIN]:
                totals[p] = min(scores[p], scores[p + 2])
            else:
                totals[p] = scores[p] + scores[p + 2]
        else:
            totals[p] = scores[p]
    for site in range(SITES):
        col = owner[site]
        if col >= 0:
            p = col % 2 if players == 2 else col
            owned[p] += 1
            if height[site] > tallest[p]:
                tallest[p] = height[site]
    firsts = 0
    for p in range(players):
        first = True
        for q in range(players):
            if totals[q] > totals[p] or (
                totals[q] == totals[p]
                and (tallest[q] > tallest[p] or (tallest[q] == tallest[p] and owned[q] > owned[p]))
            ):
                first = False
        if first:
            out[p] = 1.0
            firsts += 1
    for p in range(players):
        out[p] /= firsts
        out[players + p] = totals[p]
    return out, steps


# ----- the Python side ------------------------------------------------------------------


def _check_epsilon(epsilon: float) -> float:
    epsilon = float(epsilon)
    if not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"epsilon must be in [0, 1], not {epsilon}")
    return epsilon


def run_playout(arrays: np.ndarray, seed: int, epsilon: float) -> np.ndarray:
    """Play the packed world ``arrays`` (from ``to_arrays``) to the end with generator
    seed ``seed``; returns win shares then final totals (float64, 2×players)."""
    out, _ = _playout(arrays, np.uint64(seed % 2**64), epsilon, _NO_TRACE)
    return out


def playout_trace(state: GameState, seed: int, epsilon: float) -> list[tuple[int, int]]:
    """The ``(action id, drawn card)`` sequence the kernel plays from ``state`` with
    ``seed`` (a pick draws nothing: -1).  Raises ``ValueError`` like ``to_arrays``."""
    trace = np.zeros((MAX_TRACE, 2), dtype=np.int64)
    _, steps = _playout(to_arrays(state), np.uint64(seed % 2**64), _check_epsilon(epsilon), trace)
    return [(int(action), int(drawn)) for action, drawn in trace[:steps]]


def playout_result(state: GameState, seed: int, epsilon: float) -> tuple[np.ndarray, np.ndarray]:
    """``(win_shares, final_totals)`` of the kernel's playout from ``state`` with ``seed``
    (the game ``playout_trace`` with the same arguments plays)."""
    out = run_playout(to_arrays(state), seed, _check_epsilon(epsilon))
    players = state.layout.players
    return out[:players], out[players:]


_PREPARED = False  # whether this process has compiled or loaded the kernel


def needs_compiling() -> bool:
    """Whether getting the kernel ready in this process means compiling it (a few seconds:
    the first run after an install, or every run when no cache folder can be written)
    rather than loading it from the cache (a fraction of a second)."""
    if _PREPARED:
        return False
    if not CACHED:
        return True
    try:  # numba keeps no public way to ask; its index is empty when missing or stale
        return not _playout._cache._cache_file._load_index()
    except Exception:  # noqa: BLE001 - an unknown numba: assume the slow case
        return True


class PlayoutEvaluator:
    """Evaluator for search (see ``search/protocol.py``): one ε-greedy playout per call."""

    def __init__(self, epsilon: float = 0.1):
        """``epsilon`` in [0, 1] is the chance of a uniformly random move at each decision
        (1 = pure random play).  Raises ``ValueError`` outside that range."""
        self.epsilon = _check_epsilon(epsilon)

    def prepare(self) -> None:
        """Compile the kernel (or load it from numba's cache) in this process now, so the
        search's clock does not pay for it: the first run on a new machine compiles for
        several seconds, later ones load the cache."""
        global _PREPARED
        if not _PREPARED:
            world = GameState.new_game(2, np.random.default_rng(0))
            _playout(to_arrays(world), np.uint64(1), self.epsilon, _NO_TRACE)
            _PREPARED = True

    def evaluate(self, state: GameState, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """``(win_shares, final_totals)`` per player, float64 arrays of length players,
        from a fully dealt state (every hand known and ``state.deck`` not None — as made by
        ``GameState.new_game`` or ``state.resample_from_infostate``); raises ``ValueError``
        otherwise.  A terminal state returns its own ``returns()``/``player_totals()``."""
        players = state.layout.players
        if state.is_terminal():
            return (
                np.array(state.returns(), dtype=np.float64),
                np.array(state.player_totals(), dtype=np.float64),
            )
        seed = rng.integers(0, 2**64, dtype=np.uint64)
        out, _ = _playout(to_arrays(state), seed, self.epsilon, _NO_TRACE)
        return out[:players], out[players:]
