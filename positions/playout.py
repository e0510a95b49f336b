"""A compiled playout kernel: plays a fully dealt Manhattan world to the end of the game.

The kernel follows the rules of ``positions.state`` and ``positions.rules`` exactly (a
differential test, ``tests/test_playout.py``, keeps them equal for every policy); it
differs from the readable model only in how the played pile is reshuffled when the deck
runs out (the kernel shuffles with its own generator, not ``random.Random(shuffle_seed)``).

Policy (ε-greedy), chosen per evaluator, the placement and the selection policy each for
every player or one per player (``positions.policy`` holds the policies):

* **Placement.** With probability ε a uniformly random legal action (every legal action id
  equally likely, as ``legal_actions()`` lists them); otherwise the placement policy's
  best: ``"greedy"`` (the most immediate round points for the mover, the default),
  ``"heuristic"`` (``HeuristicBot``'s valuation: takeover risk from the unseen cards,
  bystanders, big blocks first) or ``"imitation"`` (a linear utility fitted to the
  engine's own choices, ``positions.imitation``), ties broken uniformly at random.
  When no placement is legal, a uniformly random no-placement action (``"heuristic"``:
  one giving up a smallest block).
* **Selection.** Picks are made one at a time, as the action ids are.  With probability ε
  a uniformly random legal pick; otherwise the selection policy's: ``"bag"`` (the
  default: the blocks still to pick are drawn at random without replacement from the
  color's supply and the smallest of them is picked, so selections follow the supply's
  mix) or ``"biggest"`` (the biggest blocks left, as the built-in bots select).

``epsilon=1`` is therefore pure uniformly random play over legal action ids.

``PlayoutEvaluator.prior`` gives the search the heuristic values (or the imitation
policy's utilities) of a node's actions as prior weights (see
``search.protocol.Evaluator``).

The compiled modules (this one, ``positions.kernel_board``, ``positions.policy``,
``positions.imitation``, ``positions.value`` and ``positions.inference``) are the only ones
that import numba; ``positions`` does not import them, so the command line starts fast.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from positions import kernel_cache

CACHED = kernel_cache.configure()  # before numba is imported: its cache folder

from numba import njit  # noqa: E402

from positions.imitation import (  # noqa: E402
    _imitation_choice,
    bundled_weights,
    imitation_scratch,
    placement_features,
)
from positions.kernel_board import (  # noqa: E402
    _CARD_SITES,
    _NO_TRACE,
    _PHASE_OVER,
    _PHASE_PLACEMENT,
    _PHASE_SELECTION,
    _QUOTA,
    _ROUNDS,
    H_DECK_LEN,
    H_MIN,
    H_PHASE,
    H_PLAYERS,
    H_ROUND,
    H_SHARED,
    H_TO_MOVE,
    MAX_TRACE,
    OFF_DECK,
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
    _build,
    _can_place,
    _gain,
    _points_delta,
    _round_points,
    _tallest_scorer,
    _uniform,
    to_arrays,
)
from positions.layout import CARD_TYPES, CITIES, COLORS, SITES, SITES_PER_CITY, SIZES  # noqa: E402
from positions.moves import NO_PLACEMENT_BASE, PICK_BASE  # noqa: E402
from positions.policy import (  # noqa: E402
    BAG,
    BIGGEST,
    GREEDY,
    HEURISTIC,
    IMITATION,
    W_IMITATION,
    _greedy_choice,
    _heuristic_choice,
    _pick,
    check_policy,
    heuristic_scratch,
    mover_unseen,
    placement_values,
    weights_array,
)
from positions.state import GameState  # noqa: E402
from positions.value import ValueModel, _estimate  # noqa: E402

__all__ = [  # the kernel's helpers the tests hold against the readable rules
    "_board_facts",
    "_gain",
    "_tallest_scorer",
    "to_arrays",
]


# ----- the playout ----------------------------------------------------------------------


@njit(cache=CACHED, inline="always")
def _decode(action):
    """``(card, city, slot, stories)`` of a placement action id; city -1 for a
    no-placement move (``positions.moves`` numbers them)."""
    if action >= NO_PLACEMENT_BASE:
        rest = action - NO_PLACEMENT_BASE
        return rest // 8 + 1, -1, (rest % 8) // 4, rest % 4 + 1
    return action // (CITIES * 8) + 1, (action // 8) % CITIES, (action % 8) // 4, action % 4 + 1


@njit(cache=CACHED)
def _playout(start, seed, epsilon, placements, selections, weights, horizon, model, trace, forced):
    """Play the world ``start`` (see ``to_arrays``) to the end with each player's placement
    and selection policies coded in ``placements`` and ``selections`` (one code per
    player, ``positions.policy``; ``weights``: ``playout_weights``)
    — or, with ``horizon`` > 0, until
    that many rounds have been scored and then value the rest with the learned ``model``
    (``positions.value``: its chances of first place stand for the win shares).  Returns
    the per-player win shares then final totals (float64, 2×players) and the number of
    actions written to ``trace`` (rows ``(action id, drawn card or -1)``; pass a 0-row
    array for none)."""
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
    rounds_scored = 0

    city_count, city_winner, tall = _board_facts(height, owner)  # kept up to date by _build
    blocks_left = 0
    for i in range(COLORS * SIZES):
        blocks_left += selected[i]

    tracking = False  # whether some player's policy reads ``points`` (not greedy's)
    for p in range(players):
        tracking = tracking or placements[p] != GREEDY
    points = _round_points(owner, city_winner, tall, shared)  # kept up to date if tracking
    delta = np.empty(COLORS, dtype=np.int64)
    unseen = np.zeros(10, dtype=np.int64)
    scratch = heuristic_scratch(players)
    imitation = imitation_scratch(players)

    cards = np.empty(CARD_TYPES, dtype=np.int64)
    kind_slot = np.empty(8, dtype=np.int64)
    kind_size = np.empty(8, dtype=np.int64)
    legal = np.empty(CARD_TYPES * CITIES * 8, dtype=np.int64)

    while phase != _PHASE_OVER:
        player = to_move
        first = forced >= 0 and steps == 0
        if phase == _PHASE_SELECTION:
            if first:
                slot = (forced - PICK_BASE) // 4
                size = (forced - PICK_BASE) % 4 + 1
                color = player + 2 * slot
            else:
                slot, color, size = _pick(
                    a, player, players, quota, epsilon, selections[player], rng
                )
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
        heuristic = placements[player] == HEURISTIC
        imitates = placements[player] == IMITATION
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
        given_up = -1  # a forced no-placement: the index of the kind given up
        explore = False
        if first:
            card, city, slot, size = _decode(forced)
            for k in range(nkinds):
                if kind_slot[k] == slot and kind_size[k] == size:
                    if city < 0:
                        given_up = k
                    else:
                        for ci in range(ncards):
                            if cards[ci] == card:
                                choice = ci * per_card + city * nkinds + k
        else:
            explore = epsilon >= 1.0 or (epsilon > 0.0 and _uniform(rng) < epsilon)
        if first:
            pass
        elif explore:
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
        elif heuristic:
            for card in range(1, CARD_TYPES + 1):
                unseen[card] = 5 - hands[player * 10 + card] - played[card]
            choice = _heuristic_choice(
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
                legal,
                rng,
                scratch,
            )
        elif imitates:
            for card in range(1, CARD_TYPES + 1):
                unseen[card] = 5 - hands[player * 10 + card] - played[card]
            choice, _ = _imitation_choice(
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
                weights[W_IMITATION:],
                legal,
                rng,
                imitation,
            )
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
            if tracking:
                site = city * SITES_PER_CITY + site_of[card]
                _points_delta(
                    site, color, size, owner, height, city_count, city_winner, tall, shared, delta
                )
                for col in range(COLORS):
                    points[col] += delta[col]
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
        elif given_up >= 0:  # the forced no-placement
            k = given_up
            slot = kind_slot[k]
            size = kind_size[k]
            color = player + 2 * slot
            action = forced
        else:  # no legal placement: play a card, give up a block
            card = cards[_below(rng, ncards)]
            if heuristic and not explore:  # a smallest block
                smallest = 5
                for j in range(nkinds):
                    smallest = min(smallest, kind_size[j])
                n = 0
                for j in range(nkinds):
                    if kind_size[j] == smallest:
                        legal[n] = j
                        n += 1
                k = legal[_below(rng, n)]
            else:
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
                a[H_ROUND] = round_number  # the heuristic and the value model read it
                phase = _PHASE_SELECTION
                to_move = (round_number - 1) % players
                rounds_scored += 1
                if rounds_scored == horizon:
                    out = np.zeros(2 * players, dtype=np.float64)
                    if not tracking:
                        points = _round_points(owner, city_winner, tall, shared)
                    _estimate(a, points, model, out)
                    return out, steps

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


@njit(cache=CACHED)
def _playouts_after(start, actions, seed, epsilon, placements, selections, weights, horizon, model):
    """One playout of ``start`` after each of ``actions`` (legal action ids of the player
    to move), all from ``seed``: the rows of ``_playout``'s results, float64
    ``(len(actions), 2×players)``."""
    players = start[H_PLAYERS]
    out = np.empty((len(actions), 2 * players), dtype=np.float64)
    no_trace = np.zeros((0, 2), dtype=np.int64)
    for i in range(len(actions)):
        row, _ = _playout(
            start,
            seed,
            epsilon,
            placements,
            selections,
            weights,
            horizon,
            model,
            no_trace,
            actions[i],
        )
        out[i] = row
    return out


# ----- the Python side ------------------------------------------------------------------

_FIRST_PICK = np.array([PICK_BASE], dtype=np.int64)  # a legal action at any game's start


def playout_weights(heuristic: np.ndarray | None = None, imitation: np.ndarray | None = None):
    """The kernel's weights: the heuristic's (``weights_array``, default its defaults) then
    the imitation policy's (one per ``positions.imitation.FEATURES``, default the bundled
    fit)."""
    return np.concatenate(
        [
            weights_array() if heuristic is None else heuristic,
            bundled_weights() if imitation is None else imitation,
        ]
    )


_IMITATION_WEIGHTS = bundled_weights()  # the imitation policy's and priors' (one per feature)
_WEIGHTS = playout_weights(imitation=_IMITATION_WEIGHTS)  # the heuristic's, then those
PRIOR_SOURCES = ("heuristic", "imitation")  # whose move values make the priors
_NO_MODEL = np.zeros(len(ValueModel.__dataclass_fields__))  # placeholder: no horizon


def _check_epsilon(epsilon: float) -> float:
    epsilon = float(epsilon)
    if not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"epsilon must be in [0, 1], not {epsilon}")
    return epsilon


Policies = str | Sequence[str]  # one policy for every player, or one per player in seat order


def _per_player(names: Policies, players: int) -> list[str]:
    """``names`` as one policy name per player; raises ``ValueError`` when a sequence does
    not name one per player."""
    listed = [names] * players if isinstance(names, str) else list(names)
    if len(listed) != players:
        raise ValueError(f"expected {players} policies, one per player, not {listed}")
    return listed


def policy_codes(
    placement: Policies, selection: Policies, players: int
) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's codes of the policies, per player: the placement policies' and the
    selection policies' (each names one policy for every player, or one per player in
    seat order).  Raises ``ValueError`` for an unknown policy or a sequence that does not
    name one per player."""
    codes = [
        check_policy(place, select)
        for place, select in zip(
            _per_player(placement, players), _per_player(selection, players), strict=True
        )
    ]
    return (
        np.array([code for code, _ in codes], dtype=np.int64),
        np.array([code for _, code in codes], dtype=np.int64),
    )


def run_playout(
    arrays: np.ndarray,
    seed: int,
    epsilon: float,
    placement: Policies = "greedy",
    selection: Policies = "bag",
    weights: np.ndarray | None = None,
    horizon: int = 0,
    model: ValueModel | None = None,
) -> np.ndarray:
    """Play the packed world ``arrays`` (from ``to_arrays``) to the end with generator
    seed ``seed`` and the named policies (``placement``: see ``policy_codes``;
    ``weights``: ``playout_weights``, default its defaults), or for ``horizon`` rounds
    and then valued by ``model``; returns win shares (chances of first place) then final
    totals (float64, 2×players)."""
    codes = policy_codes(placement, selection, int(arrays[H_PLAYERS]))
    chosen = _WEIGHTS if weights is None else weights
    if horizon and model is None:
        raise ValueError("a playout with a horizon needs a value model")
    coefficients = _NO_MODEL if model is None else model.to_array()
    seed64 = np.uint64(seed % 2**64)
    out, _ = _playout(arrays, seed64, epsilon, *codes, chosen, horizon, coefficients, _NO_TRACE, -1)
    return out


def playout_trace(
    state: GameState,
    seed: int,
    epsilon: float,
    placement: Policies = "greedy",
    selection: Policies = "bag",
    forced: int = -1,
) -> list[tuple[int, int]]:
    """The ``(action id, drawn card)`` sequence the kernel plays from ``state`` with
    ``seed`` and the named policies (a pick draws nothing: -1), starting with the legal
    action ``forced`` when one is given.  Raises ``ValueError`` like ``to_arrays``, for an
    unknown policy or for a ``forced`` action that is not legal."""
    if forced >= 0 and forced not in state.legal_actions():
        raise ValueError(f"action {forced} is not legal here")
    codes = policy_codes(placement, selection, state.layout.players)
    trace = np.zeros((MAX_TRACE, 2), dtype=np.int64)
    seed64 = np.uint64(seed % 2**64)
    arrays = to_arrays(state)
    epsilon = _check_epsilon(epsilon)
    _, steps = _playout(arrays, seed64, epsilon, *codes, _WEIGHTS, 0, _NO_MODEL, trace, forced)
    return [(int(action), int(drawn)) for action, drawn in trace[:steps]]


def playout_result(
    state: GameState,
    seed: int,
    epsilon: float,
    placement: Policies = "greedy",
    selection: Policies = "bag",
) -> tuple[np.ndarray, np.ndarray]:
    """``(win_shares, final_totals)`` of the kernel's playout from ``state`` with ``seed``
    (the game ``playout_trace`` with the same arguments plays)."""
    out = run_playout(to_arrays(state), seed, _check_epsilon(epsilon), placement, selection)
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
    """Evaluator for search (see ``search/protocol.py``): one ε-greedy playout per call
    (to the end of the game, or of the ``horizon``-th round, valued from there by the
    learned model), and the heuristic's (or the imitation policy's) move values as
    priors."""

    def __init__(
        self,
        epsilon: float = 0.0,
        placement: Policies = "greedy",
        selection: Policies = "bag",
        prior_temperature: float = 1.0,
        horizon: int = 0,
        prior_source: str = "heuristic",
    ):
        """``epsilon`` in [0, 1] is the chance of a uniformly random move at each decision
        (1 = pure random play); ``placement`` and ``selection`` name the policies
        (``positions.policy``; each may name one per player, in seat order, to model each
        player by the policies their play fits); ``prior_temperature`` (> 0) is
        the number of points of heuristic value that make a placement's prior e times
        larger; ``horizon`` (≥ 0) the rounds a playout scores before the bundled value
        model of the player count (``positions.value``) estimates the rest (0: play to the
        end); ``prior_source`` whose move values make the priors: ``"heuristic"`` (its
        placement values, in points) or ``"imitation"`` (the imitation policy's fitted
        utilities, ``positions.imitation``, whose softmax at temperature 1 is the choice
        model fitted to the engine's own play).  Raises ``ValueError`` for a value out of
        range or an unknown policy or prior source."""
        self.epsilon = _check_epsilon(epsilon)
        self.placement = placement if isinstance(placement, str) else tuple(placement)
        self.selection = selection if isinstance(selection, str) else tuple(selection)
        named = [p for p in (self.placement, self.selection) if not isinstance(p, str)]
        if any(len(policies) != len(named[0]) for policies in named):
            raise ValueError(f"expected as many placement as selection policies, not {named}")
        policy_codes(self.placement, self.selection, len(named[0]) if named else 1)
        self._code_cache: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._weights = _WEIGHTS
        if not prior_temperature > 0:
            raise ValueError(f"prior_temperature must be positive, not {prior_temperature}")
        self.prior_temperature = float(prior_temperature)
        if horizon < 0:
            raise ValueError(f"horizon must be at least 0, not {horizon}")
        self.horizon = int(horizon)
        if prior_source not in PRIOR_SOURCES:
            raise ValueError(f"prior_source must be one of {PRIOR_SOURCES}, not {prior_source!r}")
        self.prior_source = prior_source
        self._models: dict[int, np.ndarray] = {}

    def __repr__(self) -> str:
        return (
            f"PlayoutEvaluator(epsilon={self.epsilon}, placement={self.placement!r}, "
            f"selection={self.selection!r}, prior_temperature={self.prior_temperature}, "
            f"horizon={self.horizon}, prior_source={self.prior_source!r})"
        )

    def with_policies(
        self, placement: Policies | None = None, selection: Policies | None = None
    ) -> PlayoutEvaluator:
        """A copy of this evaluator with the placement and selection policies given (see
        ``__init__``; None keeps this one's)."""
        return PlayoutEvaluator(
            self.epsilon,
            self.placement if placement is None else placement,
            self.selection if selection is None else selection,
            self.prior_temperature,
            self.horizon,
            self.prior_source,
        )

    def _codes(self, players: int) -> tuple[np.ndarray, np.ndarray]:
        """The kernel's policy codes for a ``players``-player game (``policy_codes``)."""
        codes = self._code_cache.get(players)
        if codes is None:
            codes = self._code_cache[players] = policy_codes(
                self.placement, self.selection, players
            )
        return codes

    def _model(self, players: int) -> np.ndarray:
        """The value model's coefficients for ``players`` (placeholder without horizon)."""
        if not self.horizon:
            return _NO_MODEL
        model = self._models.get(players)
        if model is None:
            model = self._models[players] = ValueModel.bundled(players).to_array()
        return model

    def prepare(self) -> None:
        """Compile the kernel (or load it from numba's cache) in this process now, so the
        search's clock does not pay for it: the first run on a new machine compiles for
        several seconds, later ones load the cache."""
        global _PREPARED
        if not _PREPARED:
            world = GameState.new_game(2, np.random.default_rng(0))
            arrays = to_arrays(world)
            codes = (  # every policy
                np.array([GREEDY, HEURISTIC, IMITATION], dtype=np.int64),
                np.array([BAG, BIGGEST, BAG], dtype=np.int64),
            )
            _playout(arrays, np.uint64(1), 0.1, *codes, self._weights, 1, _NO_MODEL, _NO_TRACE, -1)
            _playouts_after(
                arrays, _FIRST_PICK, np.uint64(1), 0.1, *codes, self._weights, 1, _NO_MODEL
            )
            placement_values(arrays, 0, (), mover_unseen(arrays, 0), self._weights)
            placement_features(arrays, 0)
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
        out, _ = _playout(
            to_arrays(state),
            seed,
            self.epsilon,
            *self._codes(players),
            self._weights,
            self.horizon,
            self._model(players),
            _NO_TRACE,
            -1,
        )
        return out[:players], out[players:]

    def evaluate_actions(
        self, world: GameState, actions: Sequence[int], rng: np.random.Generator
    ) -> tuple[np.ndarray, np.ndarray]:
        """``(win_shares, final_totals)``, float64 arrays of shape ``(len(actions),
        players)``: each of ``actions`` (legal in the dealt ``world``, each a whole
        decision) played first and then played out, every playout from the same seed
        (common random numbers), in one call of the compiled kernel."""
        players = world.layout.players
        seed = rng.integers(0, 2**64, dtype=np.uint64)
        out = _playouts_after(
            to_arrays(world),
            np.asarray(actions, dtype=np.int64),
            seed,
            self.epsilon,
            *self._codes(players),
            self._weights,
            self.horizon,
            self._model(players),
        )
        return out[:, :players], out[:, players:]

    def continuation(
        self, world: GameState, rng: np.random.Generator
    ) -> tuple[list[int], np.ndarray]:
        """One playout of the dealt ``world`` as ``evaluate`` plays it: its action ids in
        order and the win shares at its end (for the line a search expects,
        ``search.continuation``)."""
        players = world.layout.players
        trace = np.zeros((MAX_TRACE, 2), dtype=np.int64)
        out, steps = _playout(
            to_arrays(world),
            rng.integers(0, 2**64, dtype=np.uint64),
            self.epsilon,
            *self._codes(players),
            self._weights,
            self.horizon,
            self._model(players),
            trace,
            -1,
        )
        return [int(action) for action in trace[:steps, 0]], out[:players]

    def prior(self, state: GameState, actions: Sequence[int]) -> list[float]:
        """Prior weights (positive, to be normalized over the legal actions) of ``actions``
        (legal in the dealt world ``state``): ``exp(value / prior_temperature)`` of each
        placement's value by the ``prior_source`` (the heuristic's, with the takeover risk
        counted from the mover's unseen cards, or the imitation policy's utility), scaled
        so the best is 1; 1 for picks and no-placement moves."""
        mover = state.to_move
        placements = [a for a in actions if a < NO_PLACEMENT_BASE]
        if not placements:
            return [1.0] * len(actions)
        arrays = to_arrays(state)
        if self.prior_source == "imitation":
            ids, rows = placement_features(arrays, mover)
            values = dict(zip(ids.tolist(), (rows @ _IMITATION_WEIGHTS).tolist(), strict=True))
        else:
            cards = {a // (CITIES * 8) + 1 for a in placements}
            unseen = mover_unseen(arrays, mover)
            values = placement_values(arrays, mover, cards, unseen, self._weights)
        scale = 1.0 / self.prior_temperature
        best = max(values[a] for a in placements)
        return [
            math.exp((values[a] - best) * scale) if a < NO_PLACEMENT_BASE else 1.0 for a in actions
        ]
