"""Which opponent can undo a gain on their next turn, and how likely, from the mover's
information.

An opponent can answer when they still have a turn this round (they hold selected blocks
after the move and the round is not over), hold a selected block big enough for the
placement that undoes the gain, and hold a card that reaches a site where that placement
works (card -> site depends on their seat: ``layout.card_sites``).  Their hand is unseen,
so the chance is that of a 4-card hand drawn from the cards the mover cannot see
(``state.unseen_cards(mover)``), every such hand equally likely (what an opponent kept
or played before is not read into it).  Each opponent's reply is judged on the board
right after the move, as if they moved next.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from analyzer.explain_board import Board
from analyzer.explain_chance import chance_any_hand_holds, chance_hand_holds
from positions.layout import CARD_TYPES, SITES, SITES_PER_CITY, SIZES
from positions.state import GameState, Phase


@dataclass(frozen=True)
class Reply:
    """One opponent able to undo the gain with one block: with any of ``cards`` (card
    types as that opponent holds them), of which ``unseen`` copies are unseen by the
    mover; ``chance`` that their hand holds one (0 when every such card is seen)."""

    player: int  # 1-based
    cards: tuple[int, ...]
    unseen: int
    chance: float


@dataclass(frozen=True)
class Threat:
    """The opponents who can undo one of the mover's gains on their next turn this round.

    ``target`` is ``"building"`` (take the building back), ``"tallest"`` (take or tie the
    tallest building) or ``"majority"`` (break or take the majority of ``city``);
    ``replies`` lists every opponent with a block and a card type for it; ``chance`` is
    the probability that at least one of them holds such a card; ``answerable`` is false
    when no opponent has a turn left before the round is scored."""

    target: str
    city: int | None
    replies: tuple[Reply, ...]
    chance: float
    answerable: bool = True

    @property
    def players(self) -> tuple[int, ...]:
        """The opponents who can do it with some chance, in turn order of ``replies``."""
        return tuple(r.player for r in self.replies if r.chance > 0)


def opponents_to_answer(before: GameState, after: GameState) -> list[int]:
    """The 0-based opponents of the mover of ``before`` who have another turn in this round
    after the move that led to ``after``, in the order they play next."""
    if after.phase != Phase.PLACEMENT or after.round != before.round:
        return []
    mover = before.to_move
    order = [(mover + step) % before.players for step in range(1, before.players)]
    return [p for p in order if after.blocks_held(p) > 0]


def held_kinds(state: GameState, player: int) -> list[tuple[int, int]]:
    """``(color, stories)`` of each kind of block ``player`` holds selected."""
    return [
        (color, size)
        for color in state.layout.player_colors[player]
        for size in range(1, SIZES + 1)
        if state.selected[color * SIZES + size - 1] > 0
    ]


def _card_for_site(state: GameState, player: int, site: int) -> int:
    """The card type that builds on ``site`` from ``player``'s seat."""
    sites = state.layout.card_sites[player]
    return next(card for card in range(1, CARD_TYPES + 1) if sites[card] == site % SITES_PER_CITY)


def find_threat(
    before: GameState,
    after: GameState,
    board: Board,
    target: str,
    city: int | None,
    sites: Sequence[int],
    undoes: Callable[[Board], bool],
) -> Threat:
    """The opponents of the mover of ``before`` who, on their next turn after the move that
    led to ``after``, can put one of their held blocks on one of ``sites`` of ``board`` so
    that ``undoes`` says the gain is lost; with their chances from the mover's view."""
    mover = before.to_move
    pool = Counter(before.unseen_cards(mover))
    pool_size = sum(pool.values())
    answering = opponents_to_answer(before, after)
    replies = []
    hands = []
    for player in answering:
        kinds = held_kinds(after, player)
        cards = {
            _card_for_site(after, player, site)
            for site in sites
            for color, size in kinds
            if board.can_place(site, color, size) and undoes(board.with_block(site, color, size))
        }
        if not cards:
            continue
        hand_size = sum(before.hands[player * 10 : player * 10 + 10])
        unseen = sum(pool[card] for card in cards)
        chance = chance_hand_holds(pool_size, unseen, hand_size)
        replies.append(Reply(player + 1, tuple(sorted(cards)), unseen, chance))
        hands.append((hand_size, frozenset(cards)))
    chance = chance_any_hand_holds(pool, hands) if hands else 0.0
    return Threat(target, city, tuple(replies), chance, bool(answering))


def building_threat(before: GameState, after: GameState, board: Board, site: int) -> Threat:
    """Who can take the mover's building on ``site`` back on their next turn."""
    colors = before.layout.player_colors[before.to_move]
    city = site // SITES_PER_CITY + 1
    return find_threat(
        before, after, board, "building", city, [site], lambda b: b.owner[site] not in colors
    )


def tallest_threat(before: GameState, after: GameState, board: Board) -> Threat:
    """Who can stop the mover scoring the tallest building on their next turn (take it
    over, tie it or build higher), on a board where the mover scores it."""
    colors = before.layout.player_colors[before.to_move]
    tallest = board.tallest_height()
    sites = [s for s in range(SITES) if board.height[s] + SIZES >= tallest]  # others cannot
    return find_threat(
        before, after, board, "tallest", None, sites, lambda b: b.tallest_scorer() not in colors
    )


def majority_threat(before: GameState, after: GameState, board: Board, city: int) -> Threat:
    """Who can break or take the mover's majority in 1-based ``city`` on their next turn."""
    colors = before.layout.player_colors[before.to_move]
    sites = range((city - 1) * SITES_PER_CITY, city * SITES_PER_CITY)
    return find_threat(
        before,
        after,
        board,
        "majority",
        city,
        sites,
        lambda b: b.majority_holder(city - 1) not in colors,
    )
