"""Proving an exercise from its player's information only: the moves that win whatever the
other players hold, play and draw.

The exact solver (``analyzer.exact``) needs every hand shown, and an exercise must not
show (nor use) the hands its player could not see.  So the proof runs the solver once for
every hand the other players could hold, given what the mover sees (the cards they cannot
see, ``GameState.unseen_cards``), and keeps the moves that win in all of them: a move
proven this way wins against every opponent's hand, reply and draw — it is the mover's
guaranteed win, not a peek at the true cards.

Only the hands that can matter are enumerated.  When every player places at most once more
this round, no draw matters (a drawn card is never played again before the game ends) and
the hands of opponents who place no more cannot change the result, so only the hands of the
opponents still to place are dealt (the others get any cards left).  Otherwise every
opponent's hand is dealt.  The proof is tried only in the last round's placement phase and
gives up when there are more than ``max_worlds`` hands to try or the solver's positions
exceed ``node_budget`` over all of them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from analyzer.exact import BudgetExceeded, ExactSearch
from positions.layout import CARD_TYPES
from positions.state import GameState, Phase

DEFAULT_MAX_WORLDS = 500
DEFAULT_NODE_BUDGET = 2_000_000


@dataclass(frozen=True)
class Proof:
    """What the proof found for the mover of a position: ``winners``, the moves (canonical,
    sorted) that win in each of the ``worlds`` hands checked; for every move, in how many
    of them it wins (``wins_in``), and for each other move the first hand found where it
    does not win (``refuted_by``: move -> "P3 holds 3467")."""

    winners: tuple[str, ...]
    worlds: int
    wins_in: dict[str, int] = field(default_factory=dict)
    refuted_by: dict[str, str] = field(default_factory=dict)


def can_try(view: GameState) -> bool:
    """Whether a proof is worth trying: the last round's placement phase, the mover's hand
    shown."""
    return (
        view.phase == Phase.PLACEMENT
        and view.round == view.layout.rounds
        and view.hand_is_known(view.to_move)
    )


def relevant_opponents(view: GameState) -> list[int]:
    """The opponents (0-based) whose hands can change the result from ``view`` on."""
    mover = view.to_move
    opponents = [p for p in range(view.players) if p != mover]
    if any(view.blocks_held(p) >= 2 for p in range(view.players)):
        return opponents  # someone draws and places again: the deck's cards matter
    return [p for p in opponents if view.blocks_held(p) >= 1]


def _hands(pool: Counter[int], size: int, lowest: int = 1) -> Iterator[list[int]]:
    """Every multiset of ``size`` cards from ``pool`` (card -> copies), ascending."""
    if size == 0:
        yield []
        return
    for card in range(lowest, CARD_TYPES + 1):
        if pool[card]:
            pool[card] -= 1
            for rest in _hands(pool, size - 1, card):
                yield [card, *rest]
            pool[card] += 1


def _deals(pool: Counter[int], players: list[int], sizes: list[int]) -> Iterator[list[list[int]]]:
    """Every way to deal hands of ``sizes`` to ``players`` from ``pool``."""
    if not players:
        yield []
        return
    for hand in _hands(pool, sizes[0]):
        pool.subtract(hand)
        for rest in _deals(pool, players[1:], sizes[1:]):
            yield [hand, *rest]
        pool.update(hand)


def possible_worlds(view: GameState, max_worlds: int) -> list[GameState] | None:
    """Every world (all hands shown) the mover of ``view`` cannot tell apart as far as the
    result goes, or ``None`` when there are more than ``max_worlds``."""
    mover = view.to_move
    dealt = relevant_opponents(view)
    others = [p for p in range(view.players) if p != mover and p not in dealt]
    pool = Counter(view.unseen_cards(mover))
    sizes = [view.hands[p * 10] + sum(view.hands[p * 10 + 1 : p * 10 + 10]) for p in dealt]
    worlds = []
    for hands in _deals(pool, dealt, sizes):
        if len(worlds) == max_worlds:
            return None
        world = view.clone()
        left = pool.copy()
        for player, hand in zip(dealt, hands, strict=True):
            _give(world, player, hand)
            left.subtract(hand)
        for player in others:  # any cards: these hands cannot change the result
            spare = sorted(left.elements())[: view.hands[player * 10]]
            _give(world, player, spare)
            left.subtract(spare)
        worlds.append(world)
    return worlds


def _give(world: GameState, player: int, cards: list[int]) -> None:
    base = player * 10
    world.hands[base : base + 10] = [0] * 10
    for card in cards:
        world.hands[base + card] += 1


def held_text(world: GameState, players: list[int]) -> str:
    """ "P3 holds 3467" (and "P4 holds …") for ``players`` of ``world``."""
    return " and ".join(f"P{p + 1} holds {''.join(map(str, world.hand(p)))}" for p in players)


def prove_wins(
    view: GameState,
    max_worlds: int = DEFAULT_MAX_WORLDS,
    node_budget: int = DEFAULT_NODE_BUDGET,
) -> Proof | None:
    """The moves of ``view``'s mover that win (first alone) in every world the mover cannot
    rule out, whatever is played and drawn; ``None`` when no proof can be tried (see
    ``can_try``), there are too many worlds, the solver overruns ``node_budget`` or a stop
    was requested.  Uses only what the mover sees: other hands in ``view`` are ignored."""
    if not can_try(view):
        return None
    worlds = possible_worlds(view.view(view.to_move), max_worlds)
    if not worlds:
        return None
    dealt = relevant_opponents(view)
    wins_in: Counter[str] = Counter()
    refuted: dict[str, str] = {}
    spent = 0
    for world in worlds:
        search = ExactSearch(world, "win", node_budget - spent)
        try:
            values = search.root_values()
        except BudgetExceeded:
            return None
        spent += search.nodes
        for move, value in values:
            wins_in[move] += bool(value)
            if not value and move not in refuted:
                refuted[move] = held_text(world, dealt)
    winners = sorted(move for move, count in wins_in.items() if count == len(worlds))
    return Proof(tuple(winners), len(worlds), dict(wins_in), refuted)
