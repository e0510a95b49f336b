"""Puzzles (``.mpz``, NOTATION.md "Puzzle"): tag pairs only, the position in ``Setup``.

::

    [Puzzle "Keep the tallest"]
    [Goal "win"]
    [Solution "7@3:4 7@5:4"]
    [Setup "<position string>"]

Where NOTATION.md is silent this module decides: ``Puzzle``, ``Goal``, ``Solution`` and
``Setup`` are required and written in that order, then unknown tags in the order read
(kept verbatim).  ``Solution`` is stored and written sorted by the moves' canonical text
(the order ``moves`` lists them); on input each move must already be canonical and listed
once.  The title may be empty.  Tag lines follow the rules of ``positions.record`` (``\\"``
and ``\\\\`` escapes).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from positions.errors import ManhattanError, NotationError
from positions.moves import Move, parse_move
from positions.notation import parse_position, write_position
from positions.record import (
    escape_tag_value,
    name_file,
    read_tag_lines,
    read_text_file,
    split_lines,
)
from positions.state import GameState

GOALS = ("win", "round-points")
PUZZLE_TAGS = ("Puzzle", "Goal", "Solution", "Setup")


@dataclass(eq=False)
class Puzzle:
    """A puzzle: its tags (canonical values, unknown tags kept), title, goal, the moves
    that meet the goal and the position (every hand shown, deck order unknown).

    Two puzzles are equal when their title, goal, solution, position string and tags are.
    """

    tags: dict[str, str]
    title: str
    goal: str
    solution: list[Move]
    state: GameState = field(repr=False)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Puzzle):
            return NotImplemented
        return (
            self.tags == other.tags
            and self.title == other.title
            and self.goal == other.goal
            and self.solution == other.solution
            and write_position(self.state) == write_position(other.state)
        )

    @property
    def position(self) -> str:
        """The puzzle position as a canonical position string."""
        return write_position(self.state)


def _solution_columns(value_column: int, value: str) -> list[tuple[str, int]]:
    """The Solution's moves with the column each starts at (exact when the value holds no
    escapes, which a move list never needs)."""
    tokens = []
    index = 0
    while index < len(value):
        if value[index].isspace():
            index += 1
            continue
        end = index
        while end < len(value) and not value[end].isspace():
            end += 1
        tokens.append((value[index:end], value_column + index))
        index = end
    return tokens


def read_puzzle(text: str) -> Puzzle:
    """Read a ``.mpz`` puzzle.

    Returns the ``Puzzle``.  Raises ``NotationError`` (with line and column where there is
    one) for a malformed tag line, a missing tag, an unknown goal, a ``Setup`` that is not a
    valid position, hides a hand or is over, an empty ``Solution``, or a solution move that
    does not parse, is not canonical, is listed twice or is not legal for the mover.
    """
    lines = split_lines(text)
    tags, where, first = read_tag_lines(lines, "puzzle")
    for number in range(first, len(lines)):
        if lines[number].strip():
            stripped = lines[number].lstrip()
            raise NotationError(
                f"a puzzle has tag pairs only, found {stripped[:30]!r}",
                number + 1,
                len(lines[number]) - len(stripped) + 1,
            )
    for name in PUZZLE_TAGS:
        if name not in tags:
            raise NotationError(
                f'missing tag [{name} "..."]: a puzzle needs {", ".join(PUZZLE_TAGS)}'
            )
    goal = tags["Goal"]
    if goal not in GOALS:
        raise NotationError(
            f"Goal {goal!r}: expected {' or '.join(repr(g) for g in GOALS)}", *where["Goal"]
        )
    try:
        state = parse_position(tags["Setup"])
    except ManhattanError as error:
        raise NotationError(f"Setup: {error}", *where["Setup"]) from None
    if state.is_terminal():
        raise NotationError("Setup: the game is over, there is nothing to solve", *where["Setup"])
    for player in range(state.players):
        if not state.hand_is_known(player):
            raise NotationError(
                f"Setup: a puzzle shows every hand, P{player + 1}'s hand has '?'",
                *where["Setup"],
            )
    line, column = where["Solution"]
    tokens = _solution_columns(column, tags["Solution"])
    if not tokens:
        raise NotationError(
            "Solution is empty: expected every move that meets the goal, space-separated",
            line,
            column,
        )
    legal = set(state.legal_moves())
    solution: list[Move] = []
    for token, token_column in tokens:
        try:
            move = parse_move(token)
        except NotationError as error:
            raise NotationError(f"Solution: {error}", line, token_column) from None
        if str(move) != token:
            raise NotationError(
                f"Solution move {token!r} is not canonical, expected {str(move)!r}",
                line,
                token_column,
            )
        if move in solution:
            raise NotationError(f"Solution move {token!r} is listed twice", line, token_column)
        if move not in legal:
            raise NotationError(
                f"Solution move {token!r} is not a legal move for P{state.to_move + 1} "
                "in the Setup position",
                line,
                token_column,
            )
        solution.append(move)
    solution.sort(key=str)
    canonical = {
        "Puzzle": tags["Puzzle"],
        "Goal": goal,
        "Solution": " ".join(map(str, solution)),
        "Setup": write_position(state),
    }
    canonical.update((name, value) for name, value in tags.items() if name not in canonical)
    return Puzzle(canonical, tags["Puzzle"], goal, solution, state)


def write_puzzle(puzzle: Puzzle) -> str:
    """The canonical text of ``puzzle``: ``Puzzle``, ``Goal``, ``Solution``, ``Setup`` from its
    fields, then its other tags in order.  The result is read back to check it, so this
    raises ``ManhattanError`` for anything ``read_puzzle`` would reject."""
    tags = {
        "Puzzle": puzzle.title,
        "Goal": puzzle.goal,
        "Solution": " ".join(sorted(map(str, puzzle.solution))),
        "Setup": write_position(puzzle.state),
    }
    tags.update((name, value) for name, value in puzzle.tags.items() if name not in tags)
    lines = []
    for name, value in tags.items():
        if "\n" in value or "\r" in value:
            raise ManhattanError(f"tag {name}: a tag value cannot hold a line break")
        lines.append(f'[{name} "{escape_tag_value(value)}"]')
    text = "\n".join(lines) + "\n"
    read_puzzle(text)
    return text


def load_puzzle(path: str | Path) -> Puzzle:
    """Read the puzzle in file ``path``.  Raises ``ManhattanError`` whose message starts
    with the file name (``NotationError`` keeps its line and column)."""
    text = read_text_file(path)
    try:
        return read_puzzle(text)
    except ManhattanError as error:
        raise name_file(error, path) from None
