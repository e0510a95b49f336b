"""Exercises (``.mex``, docs/EXERCISES.md): a player's own mistake, to find the better move.

::

    [Exercise "P2, decision 1 of blunder.mgn"]
    [Player "2"]
    [Setup "<the position as P2 saw it: P2's hand shown, every other hand ?>"]
    [Best "7@5:1"]
    [Accept "7@5:1"]
    [Played "7@1:1"]
    [Loss "100.0"]
    [Mark "??"]
    [Proven "win"]
    [Why "7@1:1 … 7@5:1 … Why 7@5:1: …"]
    [Source "blunder.mgn, decision 1"]

Unlike a puzzle (``positions.puzzle``), which shows every hand, an exercise shows only what
its player knew: their own hand, and no other hand.  ``Exercise``, ``Player``, ``Setup``,
``Best``, ``Accept`` and ``Played`` are required; ``Loss``, ``Mark``, ``Proven``, ``Why`` and
``Source`` are optional; they are written in that order, then unknown tags in the order
read (kept verbatim).  ``Accept`` lists the moves counted right, canonical, each once,
sorted by their text; it holds ``Best`` and not ``Played``.  Tag lines follow the rules of
``positions.record`` (``\\"`` and ``\\\\`` escapes); errors name the line and column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from positions.errors import ManhattanError, NotationError
from positions.moves import Move, parse_move
from positions.notation import parse_position, write_position
from positions.record import (
    MARKS,
    escape_tag_value,
    name_file,
    read_tag_lines,
    read_text_file,
    split_lines,
)
from positions.state import GameState

REQUIRED_TAGS = ("Exercise", "Player", "Setup", "Best", "Accept", "Played")
OPTIONAL_TAGS = ("Loss", "Mark", "Proven", "Why", "Source")
PROOFS = ("win",)
SUFFIX = ".mex"
_LOSS = re.compile(r"(?:0|[1-9][0-9]{0,2})\.[0-9]")

Where = tuple[int, int]


@dataclass(eq=False)
class Exercise:
    """One exercise: ``player`` (1-based) to move in ``state`` (their view), the moves
    counted right (``accept``, sorted by text, ``best`` among them), the move ``played`` in
    the game, and what the optional tags say: ``loss`` (win-% points ``played`` gave away
    against ``best``), the review's ``mark``, ``proven`` (``"win"``: every accepted move is
    proven to win whatever the other players hold, play and draw), ``why`` in words and
    the ``source``.  ``tags`` holds every tag, canonical, unknown ones kept.

    Two exercises are equal when their tags are (the position canonical)."""

    title: str
    player: int
    state: GameState = field(repr=False)
    best: Move
    accept: list[Move]
    played: Move
    loss: float | None = None
    mark: str | None = None
    proven: str | None = None
    why: str | None = None
    source: str | None = None
    extra: dict[str, str] = field(default_factory=dict)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Exercise):
            return NotImplemented
        return self.tags == other.tags

    @property
    def position(self) -> str:
        """The exercise position as a canonical position string."""
        return write_position(self.state)

    @property
    def tags(self) -> dict[str, str]:
        """Every tag in canonical order with its canonical value."""
        tags = {
            "Exercise": self.title,
            "Player": str(self.player),
            "Setup": self.position,
            "Best": str(self.best),
            "Accept": " ".join(sorted(map(str, self.accept))),
            "Played": str(self.played),
        }
        optional = {
            "Loss": None if self.loss is None else f"{self.loss:.1f}",
            "Mark": self.mark,
            "Proven": self.proven,
            "Why": self.why,
            "Source": self.source,
        }
        tags.update((name, value) for name, value in optional.items() if value is not None)
        tags.update((name, value) for name, value in self.extra.items() if name not in tags)
        return tags

    def is_accepted(self, move: Move) -> bool:
        """Whether ``move`` is one of the moves counted right."""
        return move in self.accept


def _tokens(value: str, column: int) -> list[tuple[str, int]]:
    """The space-separated words of ``value`` with the column each starts at (exact when
    the value holds no escapes, which a move list never needs)."""
    return [(m.group(), column + m.start()) for m in re.finditer(r"\S+", value)]


def _one_move(state: GameState, legal: set[Move], name: str, value: str, where: Where) -> Move:
    """The single canonical legal move of tag ``name``."""
    words = _tokens(value, where[1])
    if len(words) != 1:
        raise NotationError(f"{name} {value!r}: expected one move", *where)
    return _legal_move(state, legal, name, *words[0], where[0])


def _legal_move(
    state: GameState, legal: set[Move], name: str, token: str, column: int, line: int
) -> Move:
    try:
        move = parse_move(token)
    except NotationError as error:
        raise NotationError(f"{name}: {error}", line, column) from None
    if str(move) != token:
        raise NotationError(
            f"{name} move {token!r} is not canonical, expected {str(move)!r}", line, column
        )
    if move not in legal:
        raise NotationError(
            f"{name} move {token!r} is not a legal move for P{state.to_move + 1} "
            "in the Setup position",
            line,
            column,
        )
    return move


def _setup(value: str, where: Where) -> GameState:
    """The Setup position, checked to be an exercise's: a decision to take, the mover's
    hand shown and every other hand hidden."""
    try:
        state = parse_position(value)
    except ManhattanError as error:
        raise NotationError(f"Setup: {error}", *where) from None
    if state.is_terminal():
        raise NotationError("Setup: the game is over, there is no move to find", *where)
    if state.move_in_progress():
        raise NotationError("Setup: the mover is in the middle of a selection", *where)
    mover = state.to_move
    if not state.hand_is_known(mover):
        raise NotationError(
            f"Setup: the hand of P{mover + 1}, who is to move, is not shown (it holds ?)", *where
        )
    for player in range(state.players):
        if player != mover and any(state.hand(player)):
            raise NotationError(
                f"Setup: an exercise shows only the mover's hand, P{player + 1}'s hand shows "
                "cards (write ? for each)",
                *where,
            )
    return state


def read_exercise(text: str) -> Exercise:
    """Read a ``.mex`` exercise.

    Returns the ``Exercise``.  Raises ``NotationError`` (with line and column where there
    is one) for a malformed tag line, text after the tags, a missing tag, a ``Setup`` that
    is not a valid position, is over, hides the mover's hand or shows another's, a
    ``Player`` who is not to move, a move that does not parse, is not canonical or is not
    legal, an ``Accept`` that is empty, lists a move twice, misses ``Best`` or holds
    ``Played``, or a bad ``Loss``, ``Mark`` or ``Proven``.
    """
    lines = split_lines(text)
    tags, where, first = read_tag_lines(lines, "exercise")
    for number in range(first, len(lines)):
        if lines[number].strip():
            stripped = lines[number].lstrip()
            raise NotationError(
                f"an exercise has tag pairs only, found {stripped[:30]!r}",
                number + 1,
                len(lines[number]) - len(stripped) + 1,
            )
    for name in REQUIRED_TAGS:
        if name not in tags:
            raise NotationError(
                f'missing tag [{name} "..."]: an exercise needs {", ".join(REQUIRED_TAGS)}'
            )
    state = _setup(tags["Setup"], where["Setup"])
    player = tags["Player"]
    if not player.isdigit() or not 1 <= int(player) <= state.players:
        raise NotationError(
            f"Player {player!r}: expected a player 1-{state.players}", *where["Player"]
        )
    if int(player) != state.to_move + 1:
        raise NotationError(
            f"Player {player!r}: P{state.to_move + 1} is to move in the Setup position",
            *where["Player"],
        )
    legal = set(state.legal_moves())
    best = _one_move(state, legal, "Best", tags["Best"], where["Best"])
    played = _one_move(state, legal, "Played", tags["Played"], where["Played"])
    accept = _accepted(state, legal, tags["Accept"], where["Accept"], best, played)
    return Exercise(
        title=tags["Exercise"],
        player=int(player),
        state=state,
        best=best,
        accept=accept,
        played=played,
        loss=_loss(tags, where),
        mark=_choice(tags, where, "Mark", MARKS),
        proven=_choice(tags, where, "Proven", PROOFS),
        why=tags.get("Why"),
        source=tags.get("Source"),
        extra={k: v for k, v in tags.items() if k not in REQUIRED_TAGS + OPTIONAL_TAGS},
    )


def _accepted(
    state: GameState, legal: set[Move], value: str, where: Where, best: Move, played: Move
) -> list[Move]:
    line, column = where
    words = _tokens(value, column)
    if not words:
        raise NotationError(
            "Accept is empty: expected the moves counted right, space-separated", line, column
        )
    accept: list[Move] = []
    for token, token_column in words:
        move = _legal_move(state, legal, "Accept", token, token_column, line)
        if move in accept:
            raise NotationError(f"Accept move {token!r} is listed twice", line, token_column)
        if move == played:
            raise NotationError(
                f"Accept move {token!r} is the move played: an exercise asks for a better one",
                line,
                token_column,
            )
        accept.append(move)
    if best not in accept:
        raise NotationError(f"Accept does not hold the Best move {str(best)!r}", line, column)
    return sorted(accept, key=str)


def _loss(tags: dict[str, str], where: dict[str, Where]) -> float | None:
    if "Loss" not in tags:
        return None
    value = tags["Loss"]
    if not _LOSS.fullmatch(value) or float(value) > 100:
        raise NotationError(
            f"Loss {value!r}: expected win-% points 0.0 to 100.0 with one decimal, like 12.5",
            *where["Loss"],
        )
    return float(value)


def _choice(
    tags: dict[str, str], where: dict[str, Where], name: str, choices: tuple[str, ...]
) -> str | None:
    if name not in tags:
        return None
    if tags[name] not in choices:
        expected = " or ".join(repr(c) for c in choices)
        raise NotationError(f"{name} {tags[name]!r}: expected {expected}", *where[name])
    return tags[name]


def write_exercise(exercise: Exercise) -> str:
    """The canonical text of ``exercise`` (its ``tags``, one per line).  The result is read
    back to check it, so this raises ``ManhattanError`` for anything ``read_exercise``
    would reject."""
    lines = []
    for name, value in exercise.tags.items():
        if "\n" in value or "\r" in value:
            raise ManhattanError(f"tag {name}: a tag value cannot hold a line break")
        lines.append(f'[{name} "{escape_tag_value(value)}"]')
    text = "\n".join(lines) + "\n"
    read_exercise(text)
    return text


def load_exercise(path: str | Path) -> Exercise:
    """Read the exercise in file ``path``.  Raises ``ManhattanError`` whose message starts
    with the file name (``NotationError`` keeps its line and column)."""
    text = read_text_file(path)
    try:
        return read_exercise(text)
    except ManhattanError as error:
        raise name_file(error, path) from None
