"""``describe_move``: the structured facts of one move with their words, for any move of
the player to move (a placement, a no-placement or a whole selection)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from analyzer.explain_facts import PlacementFacts, describe_placement
from analyzer.explain_selection import SelectionFacts, describe_selection
from analyzer.explain_words import placement_reasons, selection_reasons
from positions.errors import ManhattanError
from positions.moves import Move, NoPlacement, Selection, parse_move
from positions.state import GameState


@dataclass(frozen=True)
class MoveFacts:
    """What one move does, as data and as words.

    ``kind`` is ``"placement"``, ``"no-placement"`` or ``"selection"``; exactly one of
    ``placement`` (placements and no-placements) and ``selection`` is set.  ``reasons``
    are verb phrases with the mover as subject, most important first; ``brief`` the few
    of them a one-line reason uses."""

    move: str
    player: int  # 1-based mover
    players: int
    kind: str
    placement: PlacementFacts | None
    selection: SelectionFacts | None
    reasons: tuple[str, ...]
    brief: tuple[str, ...]

    @property
    def text(self) -> str:
        """Every reason, joined: "takes a building from P1 (last place) in city 1; ..."."""
        return "; ".join(self.reasons)

    @property
    def line(self) -> str:
        """The one-line reason."""
        return "; ".join(self.brief)

    def to_json(self) -> dict[str, Any]:
        """The facts as JSON-ready data (nested dicts and lists), with ``text`` and
        ``line``."""
        return {**asdict(self), "text": self.text, "line": self.line}


def as_move(move: Move | str) -> Move:
    """``move`` itself, or the move its text names (raises ``NotationError``)."""
    return parse_move(move) if isinstance(move, str) else move


def describe_move(state: GameState, move: Move | str) -> MoveFacts:
    """The facts of ``move`` (a ``Move`` or its notation) for the player to move in
    ``state``, judged from that player's information (chances use only the cards the
    mover cannot see).  ``state`` is not changed.  Raises ``ManhattanError`` when the game
    is over, the mover is in the middle of a selection, or the move is not legal."""
    if state.is_terminal():
        raise ManhattanError("the game is over: there is no move to explain")
    if state.move_in_progress():
        raise ManhattanError("the mover is in the middle of a selection: explain whole moves")
    move = as_move(move)
    mover = state.to_move + 1
    if isinstance(move, Selection):
        selection = describe_selection(state, move)
        return MoveFacts(
            str(move),
            mover,
            state.players,
            "selection",
            None,
            selection,
            tuple(selection_reasons(selection, mover)),
            tuple(selection_reasons(selection, mover, brief=True)),
        )
    placement = describe_placement(state, move)
    return MoveFacts(
        str(move),
        mover,
        state.players,
        "no-placement" if isinstance(move, NoPlacement) else "placement",
        placement,
        None,
        tuple(placement_reasons(placement, mover)),
        tuple(placement_reasons(placement, mover, brief=True)),
    )
