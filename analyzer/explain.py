"""Explanations in words: what a move does and why one move is better than another.

One library for analysis ("why" column), review and the coach, so they all speak alike:

* ``describe_move(state, move) -> MoveFacts``: what one move does — the tallest building,
  its city's majority, the building it makes or takes and from whom (players by number,
  with their standing: the leader, last place), the points of this round, which opponent
  can undo it on their next turn and how likely (from the cards the mover cannot see),
  and for a selection which big blocks it takes now and keeps for which round;
* ``compare_moves(state, move, engine_move, figures=...) -> Explanation``: both moves
  described, how they differ, and why the engine's move is better (quoting the search's
  win % and expected score when given);
* ``explain_move`` and ``why_better``: the one-line forms.

Everything returned is plain data, with its words in ``text`` / ``sentences``, so the
terminal, the HTML report and the coach render the same facts.  The facts are built in
``explain_facts`` (placements), ``explain_selection``, ``explain_replies`` (who can answer
next turn) and ``explain_chance``; the words in ``explain_words`` and ``explain_compare``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from analyzer.explain_compare import Difference, Figures, differences, why_line
from analyzer.explain_describe import MoveFacts, as_move, describe_move
from analyzer.explain_facts import Building, MajorityChange, PlacementFacts, TallestChange
from analyzer.explain_replies import Reply, Threat
from analyzer.explain_selection import BigBlocks, RivalSelection, SelectionFacts
from positions.errors import ManhattanError
from positions.moves import Move, Selection
from positions.state import GameState

__all__ = [
    "BigBlocks",
    "Building",
    "Difference",
    "Explanation",
    "Figures",
    "MajorityChange",
    "MoveFacts",
    "PlacementFacts",
    "Reply",
    "RivalSelection",
    "SelectionFacts",
    "TallestChange",
    "Threat",
    "compare_moves",
    "describe_move",
    "explain_move",
    "why_better",
]


@dataclass(frozen=True)
class Explanation:
    """Two moves of one position compared: ``move`` (the one played or considered) and
    ``engine_move`` (the engine's choice), their ``differences`` heaviest first, the
    search's ``figures`` for (move, engine move) when given, ``summary`` (one line: why
    the engine's move is better: its heaviest advantages, the move's own, the figures) and
    ``sentences`` (what the move does, what the engine's does, why the engine's is
    better)."""

    move: MoveFacts
    engine_move: MoveFacts
    differences: tuple[Difference, ...]
    figures: tuple[Figures, Figures] | None
    summary: str
    sentences: tuple[str, ...]

    @property
    def text(self) -> str:
        """The sentences as one paragraph."""
        return " ".join(self.sentences)

    def to_json(self) -> dict[str, Any]:
        """The explanation as JSON-ready data: both moves' facts, the differences, the
        figures and their costs, the summary and the text."""
        return {
            "move": self.move.to_json(),
            "engine_move": self.engine_move.to_json(),
            "differences": [asdict(d) for d in self.differences],
            "figures": None if self.figures is None else [asdict(f) for f in self.figures],
            "win_cost": self.win_cost,
            "score_cost": self.score_cost,
            "summary": self.summary,
            "sentences": list(self.sentences),
            "text": self.text,
        }

    @property
    def same_move(self) -> bool:
        """Whether the move is the engine's own."""
        return self.move.move == self.engine_move.move

    @property
    def win_cost(self) -> float | None:
        """Win-% points the move loses against the engine's (``None`` without figures)."""
        if self.figures is None:
            return None
        return (self.figures[1].win - self.figures[0].win) * 100

    @property
    def score_cost(self) -> float | None:
        """Expected final points the move loses against the engine's."""
        if self.figures is None:
            return None
        return self.figures[1].score - self.figures[0].score


def _sentence(clause: str) -> str:
    return clause[:1].upper() + clause[1:] + "."


def _what_it_does(facts: MoveFacts) -> str:
    """The sentence of what a move does: "2@3:1 takes a building ...", or for a 2-player
    selection, whose phrases each name their color, "With =3344/3444, P1's a takes ..."."""
    if facts.kind == "selection" and facts.players == 2:
        return _sentence(f"with {facts.move}, {facts.text}")
    return _sentence(f"{facts.move} {facts.text}")


def compare_moves(
    state: GameState,
    move: Move | str,
    engine_move: Move | str,
    *,
    figures: tuple[Figures, Figures] | None = None,
) -> Explanation:
    """Compare ``move`` with ``engine_move`` (moves or their notation) for the player to
    move in ``state``: what each does, where they differ and why the engine's is better.
    ``figures`` are the search's ``Figures`` for (move, engine move).  ``state`` is not
    changed.  Raises ``ManhattanError`` for a finished game or an illegal move."""
    move, engine_move = as_move(move), as_move(engine_move)
    if isinstance(move, Selection) != isinstance(engine_move, Selection):
        raise ManhattanError(f"{move} and {engine_move} are not moves of the same decision")
    mine = describe_move(state, move)
    engine = describe_move(state, engine_move)
    found = differences(engine, mine)
    summary = why_line(engine, mine, found, figures)
    sentences = [_what_it_does(mine)]
    if mine.move == engine.move:
        sentences.append("It is the engine's move.")
        if figures is not None:
            sentences.append(
                _sentence(
                    f"the search gives it {figures[1].win:.1%} to win and "
                    f"{figures[1].score:.1f} points"
                )
            )
    else:
        sentences.append(_what_it_does(engine))
        sentences.append(_sentence(f"why {engine.move}: {summary}"))
    return Explanation(mine, engine, tuple(found), figures, summary, tuple(sentences))


def explain_move(state: GameState, move: Move) -> str | None:
    """A one-line plain-words reason for ``move`` in ``state`` ("takes a building from P1
    (last place) in city 1; P1 can take it back next turn with card 4 (31%)"), or
    ``None`` when the move cannot be described (not legal here, or the game is over).
    ``state`` is not changed."""
    try:
        return describe_move(state, move).line or None
    except ManhattanError:
        return None


def why_better(
    state: GameState,
    move: Move | str,
    engine_move: Move | str,
    *,
    figures: tuple[Figures, Figures] | None = None,
) -> str:
    """One line saying why ``engine_move`` is better than ``move`` in ``state`` (for
    analysis: the top move against the runner-up).  Raises ``ManhattanError`` like
    ``compare_moves``."""
    return compare_moves(state, move, engine_move, figures=figures).summary
