"""Reading the opponents: deal the hidden cards in proportion to how likely each opponent's
last decisions make them, instead of uniformly.

The card an opponent played is public, and so is where it built; what the choice tells is
which *other* cards they probably did not hold: a player who had a big takeover in hand
and built a one-story block elsewhere probably lacked the card for it.  The model of how
players choose (``ChoiceModel``) is a softmax over the values of the placements their
hand allowed (``positions.policy.placement_values``, valued from the public board: the
value of a move cannot depend on the hand we are guessing) — the heuristic's values, or
the greedy policy's (the immediate round points: ``values="greedy"``) — mixed with a
uniformly random choice so that a surprising move never rules a hand out:

    P(move | hand) = (1 − mix) · exp(v(move)/τ) / Σ_{m legal with hand} exp(v(m)/τ)
                     + mix / #(legal moves with hand).

A no-placement move is certain with a hand that has no legal placement and impossible
with one that has.

The hand at an opponent's decision is not the hand they hold now: after each decision
they drew a card, hidden, which is one of the cards held at their next decision (or now).
For the ``depth`` last decisions of each opponent the likelihood of their current hand
sums over which card each draw was (each of the 4 cards held after a draw equally likely
to be it), rebuilding the hand of every decision from the next one: the drawn card out,
the played card back in.

``InferenceDealer`` deals by sampling-importance-resampling: a pool of worlds dealt
uniformly from what the observer sees (``GameState.deal_uniformly``), each weighted by the
product over the opponents of that likelihood; each world the search asks for is a pool
world drawn by weight, its deck shuffled anew.  It reads only the observer's view and the
public history (``GameState.history``), so it never uses a card the observer cannot see;
with no opponent decision in the history it deals uniformly.

Models are fitted per player count by ``scripts/train_choice_model.py`` and shipped in
``positions/data/models/choice_{players}p.json``.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import asdict, dataclass, fields

import numpy as np

from positions import kernel_cache

CACHED = kernel_cache.configure()  # before numba is imported: its cache folder

from numba import njit  # noqa: E402

from positions.bundled import bundled_model  # noqa: E402
from positions.errors import ManhattanError  # noqa: E402
from positions.kernel_board import pack_board  # noqa: E402
from positions.layout import CARD_TYPES, CARDS_PER_TYPE, CITIES, HAND_SIZE  # noqa: E402
from positions.moves import NO_PLACEMENT_BASE  # noqa: E402
from positions.policy import placement_values, public_unseen, values_weights  # noqa: E402
from positions.state import GameState, PastDecision  # noqa: E402


@dataclass(frozen=True)
class ChoiceModel:
    """How players are modelled to choose (see the module docstring): the softmax
    ``temperature`` τ (points of value), the ``mix`` of uniformly random choice, the
    ``depth`` of decisions read back per opponent, the ``pool`` of worlds weighed per
    search (more when the weights are uneven, up to ``max_pool``, until the pool's
    effective size reaches ``effective``) and the ``values`` moves are valued by
    (``"heuristic"`` or ``"greedy"``, ``positions.policy.values_weights``)."""

    temperature: float = 1.0
    mix: float = 0.1
    depth: int = 3
    pool: int = 1000
    max_pool: int = 8000
    effective: int = 300
    values: str = "heuristic"

    def __post_init__(self) -> None:
        if not self.temperature > 0:
            raise ValueError(f"temperature must be positive, not {self.temperature}")
        if not 0 < self.mix <= 1:
            raise ValueError(f"mix must be in (0, 1], not {self.mix}")
        if self.depth < 1 or self.pool < 1 or self.max_pool < self.pool or self.effective < 1:
            raise ValueError("depth, pool and effective must be at least 1, max_pool ≥ pool")
        values_weights(self.values)  # raises ValueError for an unknown name

    @classmethod
    def bundled(cls, players: int) -> ChoiceModel:
        """The fitted model for ``players`` (2-4) from ``positions/data/models``; raises
        ``ManhattanError`` when the file is missing or malformed."""
        known = {f.name for f in fields(cls)}
        return bundled_model(
            f"choice_{players}p.json",
            lambda data: cls(**{k: v for k, v in data.items() if k in known}),
        )

    def to_json(self) -> dict:
        """The model's fields as plain data."""
        return asdict(self)


GREEDY_PLAYER = ChoiceModel(temperature=0.1, mix=0.01, values="greedy")
"""The model of a player who plays as the greedy bot does (``positions.styles``'s exactly
greedy players): fitted to 768 decisions of eight 4-player games of greedy bots
(``train_choice_model.py --players 4 --bots greedy --values greedy``, seed 7), it sits at
the grid's sharpest corner, log-likelihood −1.54 per decision against −2.88 for a uniform
choice (the greedy bot breaks ties at random, so its moves are not certain)."""


# ----- one decision, read from the public board ---------------------------------------------


@dataclass(frozen=True)
class ReadDecision:
    """What the model needs of one past placement decision: per card type (index 1-9)
    ``strength`` (Σ exp((v − v_max)/τ) over its legal placements) and ``moves`` (how many
    legal placements it has), the played ``card``, the ``chosen`` move's weight
    exp((v − v_max)/τ) and whether it was a no-placement move."""

    strength: np.ndarray
    moves: np.ndarray
    card: int
    chosen: float
    no_placement: bool


def read_decision(
    decision: PastDecision, temperature: float, values_by: str = "heuristic"
) -> ReadDecision:
    """The model's reading of ``decision``, its moves valued from its public position by
    ``values_by`` (``"heuristic"`` or ``"greedy"``)."""
    before = decision.before
    arrays = pack_board(before)
    values = placement_values(
        arrays,
        decision.player,
        range(1, CARD_TYPES + 1),
        public_unseen(before.played),
        values_weights(values_by),
    )
    legal = ~np.isnan(values)
    strength = np.zeros(10, dtype=np.float64)
    moves = np.zeros(10, dtype=np.int64)
    top = float(values[legal].max()) if legal.any() else 0.0
    weights = np.where(legal, np.exp((np.where(legal, values, top) - top) / temperature), 0.0)
    per_card = CITIES * 8
    for card in range(1, CARD_TYPES + 1):
        part = slice((card - 1) * per_card, card * per_card)
        strength[card] = weights[part].sum()
        moves[card] = int(legal[part].sum())
    action = decision.action
    if action >= NO_PLACEMENT_BASE:
        card = (action - NO_PLACEMENT_BASE) // 8 + 1
        return ReadDecision(strength, moves, card, 0.0, True)
    card = action // per_card + 1
    if not legal[action]:
        raise ManhattanError(f"history: action {action} was not legal in its position")
    return ReadDecision(strength, moves, card, float(weights[action]), False)


# ----- the likelihood of a hand (compiled) --------------------------------------------------


@njit(cache=CACHED)
def _choice_probability(hand, d, strength, moves, chosen, no_placement, mix):
    """P(decision ``d``'s move | the hand ``hand`` held at it)."""
    total = 0.0
    count = 0
    for card in range(1, 10):
        if hand[card] > 0:
            total += strength[d, card]
            count += moves[d, card]
    if no_placement[d]:
        return 1.0 if count == 0 else 0.0
    if count == 0:
        return 0.0
    return (1.0 - mix) * chosen[d] / total + mix / count


@njit(cache=CACHED)
def _likelihood(hand, depth, strength, moves, card, chosen, no_placement, mix):
    """The likelihood of the current ``hand`` (counts, changed and restored): the sum over
    the cards drawn after each of the ``depth`` decisions (most recent first) of the
    chance of those draws times the chance of each decision's move from the hand it was
    made with.  A depth-first walk with an explicit stack (numba caches no recursion)."""
    held = 0
    for c in range(1, 10):
        held += hand[c]
    drawn_at = np.zeros(depth, dtype=np.int64)  # the card tried as level d's draw, 0: none
    reach = np.empty(depth, dtype=np.float64)  # the chance of the path down to level d
    reach[0] = 1.0
    total = 0.0
    d = 0
    while d >= 0:
        if drawn_at[d] > 0:  # put back the draw tried last at this level
            hand[card[d]] -= 1
            hand[drawn_at[d]] += 1
        drawn = drawn_at[d] + 1
        while drawn < 10 and hand[drawn] == 0:
            drawn += 1
        if drawn == 10:
            drawn_at[d] = 0
            d -= 1
            continue
        drawn_at[d] = drawn
        share = hand[drawn] / held
        hand[drawn] -= 1  # the hand the decision was made with: the draw out, the card in
        hand[card[d]] += 1
        p = (
            reach[d]
            * share
            * _choice_probability(hand, d, strength, moves, chosen, no_placement, mix)
        )
        if p == 0.0:
            continue
        if d + 1 == depth:
            total += p
            continue
        d += 1
        reach[d] = p
        drawn_at[d] = 0
    return total


@njit(cache=CACHED)
def _pool_weights(hands, owners, starts, depths, strength, moves, card, chosen, no_placement, mix):
    """The weight of each pool world: ``hands[w, p, 1..9]`` its dealt hands; for each
    read opponent ``i`` (``owners[i]``) its decisions are rows ``starts[i]`` to
    ``starts[i] + depths[i]`` of the decision arrays, most recent first."""
    worlds = hands.shape[0]
    out = np.ones(worlds, dtype=np.float64)
    for w in range(worlds):
        for i in range(owners.shape[0]):
            hand = hands[w, owners[i]].copy()
            s = starts[i]
            e = s + depths[i]
            out[w] *= _likelihood(
                hand,
                depths[i],
                strength[s:e],
                moves[s:e],
                card[s:e],
                chosen[s:e],
                no_placement[s:e],
                mix,
            )
    return out


# ----- the dealer ---------------------------------------------------------------------------


@dataclass(frozen=True)
class OpponentReading:
    """The decisions read for each opponent (most recent first), stacked for the kernel."""

    owners: np.ndarray
    starts: np.ndarray
    depths: np.ndarray
    strength: np.ndarray
    moves: np.ndarray
    card: np.ndarray
    chosen: np.ndarray
    no_placement: np.ndarray

    @property
    def empty(self) -> bool:
        """Whether no opponent decision was read."""
        return self.owners.shape[0] == 0

    def weights(self, hands: np.ndarray, mix: float) -> np.ndarray:
        """The likelihood of each row of ``hands`` (worlds × players × 10 counts)."""
        return _pool_weights(
            hands,
            self.owners,
            self.starts,
            self.depths,
            self.strength,
            self.moves,
            self.card,
            self.chosen,
            self.no_placement,
            mix,
        )


def read_opponents(
    state: GameState,
    observer: int,
    model: ChoiceModel,
    readers: Collection[int] | None = None,
) -> OpponentReading:
    """The last ``model.depth`` placement decisions of every opponent of ``observer`` in
    ``state``'s public history (only those in ``readers`` when given), read by ``model``."""
    history = state.history or []
    owners, starts, depths, rows = [], [], [], []
    for player in range(state.players):
        if player == observer or (readers is not None and player not in readers):
            continue
        mine = [d for d in reversed(history) if d.player == player][: model.depth]
        if not mine:
            continue
        owners.append(player)
        starts.append(len(rows))
        depths.append(len(mine))
        rows.extend(read_decision(d, model.temperature, model.values) for d in mine)
    count = len(rows)
    return OpponentReading(
        np.array(owners, dtype=np.int64),
        np.array(starts, dtype=np.int64),
        np.array(depths, dtype=np.int64),
        np.array([r.strength for r in rows], dtype=np.float64).reshape(count, 10),
        np.array([r.moves for r in rows], dtype=np.int64).reshape(count, 10),
        np.array([r.card for r in rows], dtype=np.int64),
        np.array([r.chosen for r in rows], dtype=np.float64),
        np.array([r.no_placement for r in rows], dtype=np.bool_),
    )


def hand_counts(worlds: list[GameState]) -> np.ndarray:
    """The hands of ``worlds`` as an int64 array (worlds × players × 10)."""
    players = worlds[0].players
    return np.array([w.hands for w in worlds], dtype=np.int64).reshape(len(worlds), players, 10)


def uniform_hands(
    state: GameState, player: int, count: int, rng: np.random.Generator
) -> np.ndarray:
    """``count`` deals of the cards ``player`` cannot see, as ``deal_uniformly`` deals them
    (every other hand filled, ``player``'s own unseen cards too), as hand counts
    (count × players × 10: the known cards of ``player``'s hand included, the deck not)."""
    players = state.players
    unseen = np.array(state.unseen_cards(player), dtype=np.int64)
    missing = [state.hands[p * 10] if p == player else HAND_SIZE for p in range(players)]
    drawn = rng.permuted(np.tile(unseen, (count, 1)), axis=1)
    hands = np.zeros((count, players, 10), dtype=np.int64)
    column = 0
    for p in range(players):
        if p == player:
            hands[:, p, :] = state.hands[p * 10 : p * 10 + 10]
            hands[:, p, 0] = 0
        for _ in range(missing[p]):
            np.add.at(hands[:, p, :], (np.arange(count), drawn[:, column]), 1)
            column += 1
    return hands


def effective_size(weights: np.ndarray) -> float:
    """Kish's effective sample size of ``weights`` (0 when they are all 0)."""
    total = float(weights.sum())
    if total <= 0:
        return 0.0
    return total * total / float((weights * weights).sum())


class InferenceDealer:
    """Deals worlds weighed by the opponents' past decisions (see the module docstring);
    set it as ``GameState.dealer`` of the observer's view.  The pool of hands is built at
    the first deal (with that deal's generator, so a seeded search stays repeatable) and
    kept while the same state and observer ask; it is not pickled (a helper process builds
    its own).  ``effective`` is the pool's effective size once built (0: uniform deals).
    ``readers`` (default: every opponent) are the opponents whose decisions are read; the
    others' hands are dealt uniformly."""

    def __init__(self, model: ChoiceModel | None = None, readers: Collection[int] | None = None):
        self.model = model
        self.readers = None if readers is None else frozenset(readers)
        self._key: tuple[int, int] | None = None
        self.hands = np.zeros((0, 0, 10), dtype=np.int64)
        self.weights = np.zeros(0)
        self._cumulative = np.zeros(0)
        self.effective = 0.0

    def __getstate__(self) -> dict:
        return {"model": self.model, "readers": self.readers}

    def __setstate__(self, data: dict) -> None:
        self.__init__(data["model"], data["readers"])

    def deal(self, state: GameState, player: int, rng: np.random.Generator) -> GameState:
        """A world consistent with what ``player`` sees in ``state``: hands drawn from the
        pool by weight, the rest of the unseen cards a shuffled deck (``deal_uniformly``
        when no opponent decision is known)."""
        key = (id(state), player)
        if self._key != key:
            self.build(state, player, rng)
            self._key = key
        if not self.effective:
            return state.deal_uniformly(player, rng)
        point = rng.random() * self._cumulative[-1]
        index = min(int(np.searchsorted(self._cumulative, point, "right")), len(self.weights) - 1)
        hands = self.hands[index]
        world = state.clone()
        world.history = None
        world.dealer = None
        deck_counts = CARDS_PER_TYPE - hands.sum(axis=0) - np.asarray(state.played)
        deck_counts[0] = 0
        for p in range(state.players):
            world.hands[p * 10 : p * 10 + 10] = [int(n) for n in hands[p]]
        deck = np.repeat(np.arange(10), deck_counts)
        world.deck = [int(c) for c in rng.permutation(deck)]
        world.shuffle_seed = int(rng.integers(2**62))
        return world

    def build(self, state: GameState, player: int, rng: np.random.Generator) -> None:
        """Weigh a pool of hands dealt uniformly for ``player`` in ``state`` (batches of
        ``model.pool`` until the effective size reaches ``model.effective`` or the pool
        ``model.max_pool``)."""
        model = self.model or ChoiceModel.bundled(state.players)
        reading = read_opponents(state, player, model, self.readers)
        self.hands = np.zeros((0, state.players, 10), dtype=np.int64)
        self.weights, self._cumulative, self.effective = np.zeros(0), np.zeros(0), 0.0
        if reading.empty:
            return
        batches, weights = [], []
        while sum(len(w) for w in weights) < model.max_pool:
            batch = uniform_hands(state, player, model.pool, rng)
            batches.append(batch)
            weights.append(reading.weights(batch, model.mix))
            if effective_size(np.concatenate(weights)) >= model.effective:
                break
        all_weights = np.concatenate(weights)
        if all_weights.sum() <= 0:  # no dealt world fits (not expected): deal uniformly
            return
        self.hands = np.concatenate(batches)
        self.weights = all_weights
        self._cumulative = np.cumsum(all_weights)
        self.effective = effective_size(all_weights)

    def posterior(self, player: int) -> np.ndarray:
        """Per card type (index 1-9), the weighted chance that ``player`` holds at least
        one in the pool (for tests and reports; uniform weights before any decision)."""
        held = self.hands[:, player, :] > 0
        total = float(self.weights.sum())
        return (self.weights[:, None] * held).sum(axis=0) / total if total > 0 else np.zeros(10)
