"""Manhattan-specific built-in bots: ``RandomBot``, ``GreedyBot`` and ``HeuristicBot``.

A bot plays one seat.  For each decision it is given the position as its seat sees it
(``GameState.view``: its own hand shown, every other hand unseen, the deck unknown) and a
random generator, and returns one whole move: a ``Selection`` in the selection phase, a
``Placement`` (or ``NoPlacement``) in the placement phase.  Every player of the package —
these bots, the external-program bot (``positions.external``) and the search's MCTS bot —
has this shape, so a game or a match can seat any mix of them.

The bots here are cheap (well under a millisecond a move): they score the candidate placements
with ``positions.scoring.RoundScorer``, which answers "what would each color score if the
round were scored right after this one placement" without making it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from positions.errors import ManhattanError
from positions.layout import COLORS, SITES_PER_CITY, SIZES
from positions.moves import Move, NoPlacement, Selection, decode_action
from positions.scoring import RoundScorer
from positions.state import GameState, Phase


class BotForfeit(ManhattanError):
    """A bot gave up its seat: it answered an illegal or malformed move, exited, or did not
    answer in time.  ``reason`` says which, in one line."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)


class Bot(Protocol):
    """A player: ``choose`` returns the move for the seat to move in ``view``."""

    name: str

    def choose(self, view: GameState, rng: np.random.Generator) -> Move:
        """The move to play in ``view`` (a whole ``Selection`` in the selection phase).
        May raise ``BotForfeit``."""
        ...

    def close(self) -> None:
        """Release what the bot holds (processes, pools); calling it twice is harmless."""
        ...


# ----- what-if scoring ----------------------------------------------------------------


def _combine(view: GameState):
    """How a player's colors add up to a total (RULES.md; ``min`` only with the 2p option)."""
    return min if view.options.two_player_total == "min" else sum


def _player_value(view: GameState, player: int, points: list[int]) -> int:
    """``player``'s total if the round were scored with ``points``."""
    colors = view.layout.player_colors[player]
    return _combine(view)(view.scores[c] + points[c] for c in colors)


def _site_of(view: GameState, card: int, city: int) -> int:
    return (city - 1) * SITES_PER_CITY + view.layout.card_sites[view.to_move][card]


# ----- the bots -----------------------------------------------------------------------


class RandomBot:
    """Plays uniformly at random among ``view.legal_moves()`` (whole selections included)."""

    name = "random"

    def choose(self, view: GameState, rng: np.random.Generator) -> Move:
        """A uniformly random legal move."""
        moves = view.legal_moves()
        return moves[int(rng.integers(len(moves)))]

    def close(self) -> None:
        """Nothing to release."""


def biggest_blocks(available: Sequence[int], quota: int) -> list[int]:
    """Per size (1-story first), how many of the ``available`` blocks (per size) a
    selection of ``quota`` blocks takes when it takes the biggest first."""
    taken = [0] * len(available)
    wanted = quota
    for size in reversed(range(len(available))):
        taken[size] = min(available[size], wanted)
        wanted -= taken[size]
    return taken


def biggest_selection(view: GameState) -> Selection:
    """For each of the mover's colors, the biggest blocks left in its supply."""
    parts = []
    for color in view.layout.player_colors[view.to_move]:
        taken = biggest_blocks(view.supply[color * SIZES : (color + 1) * SIZES], view.layout.quota)
        parts.append(tuple(size + 1 for size, n in enumerate(taken) for _ in range(n)))
    return Selection(tuple(parts))


class GreedyBot:
    """Takes the most immediate round points.

    Placement: the move after which the mover's total would be highest if the round were
    scored right away (its colors' points, combined by the 2p total rule); ties are broken
    uniformly by ``rng``.  When no placement is legal it gives up its smallest block.
    Selection: the biggest blocks left (four-story blocks first).
    """

    name = "greedy"

    def choose(self, view: GameState, rng: np.random.Generator) -> Move:
        """The greedy move (see the class docstring)."""
        if view.phase == Phase.SELECTION:
            return biggest_selection(view)
        actions = view.legal_actions()
        if decode_action(actions[0])[0] == "none":
            return _smallest_give_up(view, actions, rng)
        scorer = RoundScorer.of_state(view)
        best: list[int] = []
        best_value = None
        for action in actions:
            _, card, city, slot, size = decode_action(action)
            color = view.layout.player_colors[view.to_move][slot]
            points = scorer.points_after(_site_of(view, card, city), color, size)
            value = _player_value(view, view.to_move, points)
            if best_value is None or value > best_value:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        return view.action_to_move(best[int(rng.integers(len(best)))])

    def close(self) -> None:
        """Nothing to release."""


def _smallest_give_up(view: GameState, actions: list[int], rng: np.random.Generator) -> Move:
    """Among no-placement actions, one that gives up a smallest block (card at random)."""
    smallest = min(decode_action(a)[4] for a in actions)
    candidates = [a for a in actions if decode_action(a)[4] == smallest]
    move = view.action_to_move(candidates[int(rng.integers(len(candidates)))])
    assert isinstance(move, NoPlacement)
    return move


@dataclass(frozen=True)
class HeuristicWeights:
    """The knobs of ``HeuristicBot``; the defaults were tuned in 4-player games against
    three ``GreedyBot``s (see the class docstring for what each term does)."""

    duel: float = 1.0  # 2p: weight of each point the opponent loses
    bystanders: float = 0.3  # 3-4p: reluctance per point an opponent loses
    risk: float = 1.0  # share of a gain lost when an opponent will surely take the site back
    aggression: float = 0.8  # chance an opponent able to take a site this round does so
    big_first: float = 0.6  # bonus per story above the site's need while blocks remain
    leader: float = 1.0  # 3-4p, last round: weight of each point the leading opponent loses


class HeuristicBot:
    """A hand-written strategy that knows majorities, the tallest building and timing.

    Placement: each legal placement is valued as

    * the round points it gains the mover if the round were scored now (buildings, city
      majorities and the tallest building, exactly; 2p: both colors by the total rule);
    * shrunk by the chance that an opponent takes the site back this round: some opponent
      still holds a block big enough to reach the mover's stories there and, by card
      counting, is likely to hold or draw a card that reaches the site (``risk``,
      ``aggression``) — so points are taken late in the round and where they are safe;
    * plus a bonus for each story above what the site needs while the mover still has
      other blocks to place this round (``big_first``): big blocks early make safe
      buildings, small blocks are kept for the cheap grabs at the end of the round;
    * 2p: plus every point the move takes from the opponent (``duel``: the game is
      zero-sum);  3-4p: less a little per point the move takes from opponents
      (``bystanders``): hurting one opponent draws the answer while the bystanders
      profit, so building where it costs nobody is better at the same gain — except in
      the last round, where the leading opponent's loss counts for the mover (``leader``).

    Selection: the biggest blocks left (as ``GreedyBot``).  Buildings score every round,
    so blocks placed early earn most: against three greedy bots (4p, 1,600 games each)
    this wins 53% of the games, keeping one 4-story block for the last round 49%, keeping
    two 41%.  So big blocks are not saved for later rounds; within a round they go first
    (``big_first``) and the small ones wait for the end-of-round grabs.
    """

    name = "heuristic"

    def __init__(self, weights: HeuristicWeights | None = None):
        self.weights = weights or HeuristicWeights()

    def close(self) -> None:
        """Nothing to release."""

    def choose(self, view: GameState, rng: np.random.Generator) -> Move:
        """The move the heuristic values most (ties broken by ``rng``)."""
        if view.phase == Phase.SELECTION:
            return biggest_selection(view)
        actions = view.legal_actions()
        if decode_action(actions[0])[0] == "none":
            return _smallest_give_up(view, actions, rng)
        judge = _PlacementJudge(view, self.weights)
        values = [judge.value(action) for action in actions]
        best = max(values)
        candidates = [a for a, v in zip(actions, values, strict=True) if v >= best - 1e-9]
        return view.action_to_move(candidates[int(rng.integers(len(candidates)))])


class _PlacementJudge:
    """Values placements for ``HeuristicBot`` (see its docstring); built once a decision."""

    def __init__(self, view: GameState, weights: HeuristicWeights):
        self.view = view
        self.w = weights
        self.me = view.to_move
        self.my_colors = view.layout.player_colors[self.me]
        self.opponents = [p for p in range(view.players) if p != self.me]
        self.scorer = RoundScorer.of_state(view)
        self.before = [_player_value(view, p, self.scorer.points) for p in range(view.players)]
        self.my_blocks = view.blocks_held(self.me)
        self.leader = -1
        if view.round == view.layout.rounds and view.players > 2:
            self.leader = max(self.opponents, key=lambda p: self.before[p])
        # per opponent color: the biggest block it still holds this round
        self.biggest = [0] * COLORS
        for p in self.opponents:
            for color in view.layout.player_colors[p]:
                held = [s + 1 for s in range(SIZES) if view.selected[color * SIZES + s]]
                self.biggest[color] = max(held, default=0)
        # per opponent, per site of a city: the chance they hold or draw a card reaching it
        unseen = [0] * 10
        for card in view.unseen_cards(self.me):
            unseen[card] += 1
        total = max(1, sum(unseen))
        self.reach: dict[int, list[float]] = {}
        for p in self.opponents:
            turns = view.blocks_held(p)
            chance = [0.0] * SITES_PER_CITY
            if turns:
                for card in range(1, 10):
                    site = view.layout.card_sites[p][card]
                    chance[site] = 1 - (1 - unseen[card] / total) ** (3 + turns)
            self.reach[p] = chance

    def threat(self, site: int, owner: int, stories: list[int]) -> float:
        """Chance that an opponent takes ``site`` from ``owner`` later this round, with the
        stories per color ``stories`` there."""
        keep = 1.0
        for p in self.opponents:
            if any(
                self.biggest[x] and stories[x] + self.biggest[x] >= stories[owner]
                for x in self.view.layout.player_colors[p]
            ):
                keep *= 1 - self.w.aggression * self.reach[p][site % SITES_PER_CITY]
        return 1 - keep

    def value(self, action: int) -> float:
        """The heuristic value of one placement action."""
        view, w = self.view, self.w
        _, card, city, slot, size = decode_action(action)
        color = self.my_colors[slot]
        site = _site_of(view, card, city)
        points = self.scorer.points_after(site, color, size)
        gain = _player_value(view, self.me, points) - self.before[self.me]
        stories = view.stories[site * COLORS : site * COLORS + COLORS]
        stories[color] += size
        if gain > 0:
            gain *= 1 - w.risk * self.threat(site, color, stories)

        losses = [self.before[p] - _player_value(view, p, points) for p in self.opponents]
        if len(losses) == 1:
            value = gain + w.duel * losses[0]
        else:
            value = gain - w.bystanders * sum(losses) / len(losses)
        if self.leader >= 0:
            leader_loss = self.before[self.leader] - _player_value(view, self.leader, points)
            value += w.leader * leader_loss

        old_owner = view.owner[site]
        needed = 1
        if old_owner >= 0 and old_owner != color:
            needed = max(1, stories[old_owner] - stories[color] + size)
        spare = (self.my_blocks - 1) / self.my_blocks
        return value + w.big_first * (size - needed) * spare
