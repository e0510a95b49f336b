"""What one placement does on the board, as structured facts: the building it makes or
takes (and from whom), the tallest building, the majority of its city, the points of this
round, the blocks the mover keeps for later turns, and who can undo it on their next turn.

The move is played on a copy with ``GameState.apply_move`` and the boards before and after
are read with ``analyzer.explain_board``; nothing here restates a rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.explain_board import Board, board_round_points, player_of, site_index
from analyzer.explain_players import standings
from analyzer.explain_replies import (
    Threat,
    building_threat,
    majority_threat,
    tallest_threat,
)
from positions.layout import COLOR_LETTERS, SIZES
from positions.moves import NoPlacement, Placement
from positions.state import GameState

KEEP_MARGIN = 0.10  # an opponent's chance must fall by this much for a move to "keep" a gain


@dataclass(frozen=True)
class Building:
    """The building a placement builds on: ``previous`` is ``"empty"``, ``"own"`` (the
    block's own color), ``"own color"`` (2 players: the mover's other color) or
    ``"opponent"``; ``taken_from`` the previous owner (a player) with ``taken_color`` and
    their standing label when the placement takes it over (for ``"own color"``,
    ``taken_color`` is the mover's color it covers); ``threat_before`` who could take the
    mover's own building on their next turn before the move."""

    city: int
    site: int  # 1-9 in reading order from seat S
    color: str
    stories: int  # of the placed block
    height: int  # after the placement
    previous: str
    taken_from: int | None = None
    taken_color: str | None = None
    standing: str | None = None
    threat_before: Threat | None = None


@dataclass(frozen=True)
class TallestChange:
    """What a placement does to the tallest building: ``effect`` is ``"takes"`` (the mover
    scores it now), ``"ties"`` (nobody scores it now), ``"keeps"`` (the mover raised it
    and the chance that an opponent takes or ties it on their next turn fell by at least
    ``KEEP_MARGIN``: ``threat_before`` to ``threat_after``), ``"raises"`` (raised, not that
    much safer) or ``"loses"``.  Holders are the players scoring it (``None``: nobody)."""

    effect: str
    height_before: int
    height_after: int
    holder_before: int | None
    holder_after: int | None
    threat_before: Threat | None = None
    threat_after: Threat | None = None


@dataclass(frozen=True)
class MajorityChange:
    """What a placement does to the majority of its city: ``effect`` is ``"wins"``,
    ``"breaks"`` (nobody holds it now), ``"hands"`` (to another opponent), ``"loses"``,
    ``"keeps"`` (the mover held it and the chance that an opponent breaks or takes it on
    their next turn fell by at least ``KEEP_MARGIN``: ``threat_before`` to
    ``threat_after``) or ``"strengthens"`` (held, with a bigger lead in buildings, but not
    that much safer).  Holders are players."""

    city: int
    effect: str
    holder_before: int | None
    holder_after: int | None
    buildings_before: tuple[int, ...]  # per color in the city
    buildings_after: tuple[int, ...]
    threat_before: Threat | None = None
    threat_after: Threat | None = None


@dataclass(frozen=True)
class PlacementFacts:
    """The facts of a placement or no-placement move (``building`` is ``None`` for a
    no-placement, which gives up ``given_up`` stories).  ``points`` is each player's
    change of this round's points (P1 first); ``held_after`` the stories of the blocks
    the mover still holds this round; ``threats`` who can undo the building, and the
    tallest building or city majority the mover holds after it, on their next turn;
    ``tallest_holder`` the player scoring the tallest building after the move."""

    building: Building | None
    tallest: TallestChange | None
    majority: MajorityChange | None
    points: tuple[int, ...]
    held_after: tuple[int, ...]
    threats: tuple[Threat, ...]
    tallest_holder: int | None  # the player scoring the tallest building after the move
    given_up: int | None = None


def describe_placement(state: GameState, move: Placement | NoPlacement) -> PlacementFacts:
    """The facts of ``move`` for the player to move.  ``state`` is not changed.  Raises
    ``IllegalMoveError`` (a ``ManhattanError``) when the move is not legal."""
    after = state.clone()
    after.apply_move(move)
    before_board, after_board = Board.of(state), Board.of(after)
    points = tuple(
        a - b
        for a, b in zip(
            board_round_points(state, after_board),
            board_round_points(state, before_board),
            strict=True,
        )
    )
    held = _held_stories(after, state.to_move) if after.round == state.round else ()
    tallest_holder = player_of(state.layout, after_board.tallest_scorer())
    if isinstance(move, NoPlacement):
        return PlacementFacts(
            None, None, None, points, held, (), tallest_holder, given_up=move.stories
        )
    mover = state.to_move
    site = site_index(move.city, state.layout.card_sites[mover][move.card])
    building = _building(state, after, before_board, after_board, move, site)
    tallest = _tallest_change(state, after, before_board, after_board, site)
    majority = _majority_change(state, after, before_board, after_board, move.city)
    threats = [building_threat(state, after, after_board, site)]
    if tallest is not None and tallest.effect in ("takes", "keeps", "raises"):
        threats.append(tallest.threat_after or tallest_threat(state, after, after_board))
    if majority is not None and majority.effect in ("wins", "keeps", "strengthens"):
        threats.append(
            majority.threat_after or majority_threat(state, after, after_board, move.city)
        )
    return PlacementFacts(building, tallest, majority, points, held, tuple(threats), tallest_holder)


def _held_stories(state: GameState, player: int) -> tuple[int, ...]:
    """Stories of every block ``player`` holds selected, biggest first."""
    return tuple(
        sorted(
            (
                size
                for color in state.layout.player_colors[player]
                for size in range(1, SIZES + 1)
                for _ in range(state.selected[color * SIZES + size - 1])
            ),
            reverse=True,
        )
    )


def _block_color(state: GameState, move: Placement) -> int:
    colors = state.layout.player_colors[state.to_move]
    return COLOR_LETTERS.index(move.color) if move.color else colors[0]


def _building(
    state: GameState,
    after: GameState,
    before_board: Board,
    after_board: Board,
    move: Placement,
    site: int,
) -> Building:
    color = _block_color(state, move)
    colors = state.layout.player_colors[state.to_move]
    previous_owner = before_board.owner[site]
    common = dict(
        city=move.city,
        site=site % 9 + 1,
        color=COLOR_LETTERS[color],
        stories=move.stories,
        height=after_board.height[site],
    )
    if previous_owner < 0:
        return Building(previous="empty", **common)
    if previous_owner in colors:
        before_threat = building_threat(state, after, before_board, site)
        if previous_owner == color:
            return Building(previous="own", threat_before=before_threat, **common)
        return Building(
            previous="own color",
            taken_color=COLOR_LETTERS[previous_owner],
            threat_before=before_threat,
            **common,
        )
    victim = player_of(state.layout, previous_owner)
    label = standings(state)[victim - 1].label
    return Building(
        previous="opponent",
        taken_from=victim,
        taken_color=COLOR_LETTERS[previous_owner],
        standing=label,
        **common,
    )


def _tallest_change(
    state: GameState, after: GameState, before_board: Board, after_board: Board, site: int
) -> TallestChange | None:
    mover = state.to_move + 1
    holder_before = player_of(state.layout, before_board.tallest_scorer())
    holder_after = player_of(state.layout, after_board.tallest_scorer())
    heights = dict(
        height_before=before_board.tallest_height(),
        height_after=after_board.tallest_height(),
        holder_before=holder_before,
        holder_after=holder_after,
    )
    if holder_after == mover and holder_before != mover:
        return TallestChange("takes", **heights)
    if holder_before is not None and holder_after is None:
        return TallestChange("ties", **heights)
    if holder_before == mover and holder_after != mover:
        return TallestChange("loses", **heights)
    if holder_before == mover and site in after_board.tallest_sites():
        threat_before = tallest_threat(state, after, before_board)
        threat_after = tallest_threat(state, after, after_board)
        safer = threat_before.chance - threat_after.chance >= KEEP_MARGIN
        return TallestChange(
            "keeps" if safer else "raises",
            **heights,
            threat_before=threat_before,
            threat_after=threat_after,
        )
    return None


def _majority_change(
    state: GameState, after: GameState, before_board: Board, after_board: Board, city: int
) -> MajorityChange | None:
    mover = state.to_move + 1
    holder_before = player_of(state.layout, before_board.majority_holder(city - 1))
    holder_after = player_of(state.layout, after_board.majority_holder(city - 1))
    facts = dict(
        city=city,
        holder_before=holder_before,
        holder_after=holder_after,
        buildings_before=tuple(before_board.buildings_in(city - 1)),
        buildings_after=tuple(after_board.buildings_in(city - 1)),
    )
    if holder_after == mover and holder_before != mover:
        return MajorityChange(effect="wins", **facts)
    if holder_before == mover and holder_after != mover:
        return MajorityChange(effect="loses", **facts)
    if holder_before is not None and holder_after is None:
        return MajorityChange(effect="breaks", **facts)
    if holder_after is not None and holder_after not in (holder_before, mover):
        return MajorityChange(effect="hands", **facts)
    if holder_before == mover and holder_after == mover:
        threat_before = majority_threat(state, after, before_board, city)
        threat_after = majority_threat(state, after, after_board, city)
        if threat_before.chance - threat_after.chance >= KEEP_MARGIN:
            effect = "keeps"
        elif _lead(state, after_board, city) > _lead(state, before_board, city):
            effect = "strengthens"
        else:
            return None
        return MajorityChange(
            effect=effect, threat_before=threat_before, threat_after=threat_after, **facts
        )
    return None


def _lead(state: GameState, board: Board, city: int) -> int:
    """The mover's lead in buildings in 1-based ``city`` over the best other color."""
    colors = state.layout.player_colors[state.to_move]
    owned = board.buildings_in(city - 1)
    mine = max(owned[c] for c in colors)
    return mine - max(n for c, n in enumerate(owned) if c not in colors)
