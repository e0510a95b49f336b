"""Training on exercises (``positions.exercise``): ask each in turn, judge the answers.

``TrainingSession`` holds no input or output of its own: the terminal (``manhattan
train``) and the browser feed it the player's words one answer at a time and show the
``Feedback`` it returns.  An answer is a move in notation (any accepted spelling, e.g. a
selection's digits in any order) or a command: ``hint`` (a clue, a stronger one each
time), ``skip`` (show the answer, count the exercise as skipped) or ``quit``.  A move that
does not parse or is not legal gets the reason and the exercise stays open.  Each exercise
takes one move: right when it is one of the exercise's accepted moves; either way the
better move and why are shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from analyzer.explain import compare_moves
from positions.errors import ManhattanError, NotationError
from positions.exercise import SUFFIX, Exercise, load_exercise
from positions.moves import Move, NoPlacement, Placement, Selection, parse_move

COMMANDS = ("hint", "skip", "quit")


def load_exercises(target: str | Path) -> list[tuple[str, Exercise]]:
    """The exercises of a folder (every ``*.mex`` in it, by file name) or of one file, as
    ``(file name, exercise)``.  Raises ``ManhattanError`` for a missing target, a folder
    without exercises or a malformed file (naming it, with line and column)."""
    path = Path(target)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix == SUFFIX and p.is_file())
        if not files:
            raise ManhattanError(f"{path}: no exercises ({SUFFIX} files) in this folder")
    elif path.exists():
        files = [path]
    else:
        raise ManhattanError(f"{path}: no such folder or file")
    return [(file.name, load_exercise(file)) for file in files]


@dataclass(frozen=True)
class Feedback:
    """What to tell the player after one answer: ``kind`` (``"right"``, ``"wrong"``,
    ``"skipped"``, ``"hint"``, ``"invalid"`` or ``"quit"``), the ``lines`` to show and
    whether the exercise is ``done`` (the session moved on)."""

    kind: str
    lines: tuple[str, ...]
    done: bool


@dataclass
class TrainingSummary:
    """How the session went: of ``asked`` exercises (finished ones), ``right`` (of which
    ``hinted`` after a hint), ``wrong`` and ``skipped``; ``total`` exercises in the set."""

    total: int
    right: int = 0
    wrong: int = 0
    skipped: int = 0
    hinted: int = 0

    @property
    def asked(self) -> int:
        """Exercises finished: answered or skipped."""
        return self.right + self.wrong + self.skipped

    @property
    def line(self) -> str:
        """The summary in one line: "right 2 of 3 (1 after a hint), 1 skipped; 1 not
        asked"."""
        text = f"right {self.right} of {self.asked}"
        if self.hinted:
            text += f" ({self.hinted} after a hint)"
        if self.skipped:
            text += f", {self.skipped} skipped"
        if self.asked < self.total:
            text += f"; {self.total - self.asked} not asked"
        return text

    def to_json(self) -> dict:
        """The summary as JSON-ready data."""
        return {
            "total": self.total,
            "asked": self.asked,
            "right": self.right,
            "wrong": self.wrong,
            "skipped": self.skipped,
            "hinted": self.hinted,
        }


@dataclass
class TrainingSession:
    """A run through ``exercises`` (``(name, exercise)`` pairs) in order."""

    exercises: Sequence[tuple[str, Exercise]]
    position: int = 0
    hints_given: int = 0
    stopped: bool = False
    summary: TrainingSummary = field(init=False)

    def __post_init__(self) -> None:
        self.summary = TrainingSummary(len(self.exercises))

    @property
    def finished(self) -> bool:
        """Whether every exercise was taken, or the player quit."""
        return self.stopped or self.position >= len(self.exercises)

    @property
    def current(self) -> Exercise:
        """The exercise being asked.  Raises ``ManhattanError`` once the session is over."""
        if self.finished:
            raise ManhattanError("the training session is over")
        return self.exercises[self.position][1]

    @property
    def current_name(self) -> str:
        """The current exercise's name (its file name)."""
        return self.exercises[self.position][0]

    def question(self) -> str:
        """What is asked, in one line: "Exercise 2 of 5: P2 to move, the review marked
        7@1:1?? — find a better move."""
        exercise = self.current
        played = f"{exercise.played}{exercise.mark or ''}"
        return (
            f"Exercise {self.position + 1} of {len(self.exercises)} ({exercise.title}): "
            f"P{exercise.player} to move; in the game P{exercise.player} played {played}. "
            "Find a better move."
        )

    def answer(self, text: str) -> Feedback:
        """Judge the player's answer ``text`` to the current exercise (see the module
        docstring).  Raises ``ManhattanError`` once the session is over."""
        exercise = self.current
        word = text.strip()
        command = word.lower()
        if command == "quit":
            self.stopped = True
            return Feedback("quit", (), True)
        if command == "hint":
            return self._hint(exercise)
        if command == "skip":
            self.summary.skipped += 1
            lines = ("Skipped.", *self._answer_lines(exercise), *self._why_lines(exercise))
            return self._next("skipped", lines)
        if not word:
            return Feedback("invalid", ("Type a move, or hint, skip or quit.",), False)
        try:
            move = parse_move(word)
        except NotationError as error:
            return Feedback("invalid", (f"{error}; or type hint, skip or quit.",), False)
        if not exercise.state.is_legal(move):
            return Feedback(
                "invalid",
                (f"{move} is not a legal move for P{exercise.player} here; try again.",),
                False,
            )
        if exercise.is_accepted(move):
            return self._right(exercise, move)
        return self._wrong(exercise, move)

    # ----- the answers --------------------------------------------------------------

    def _next(self, kind: str, lines: Sequence[str]) -> Feedback:
        self.position += 1
        self.hints_given = 0
        return Feedback(kind, tuple(lines), True)

    def _right(self, exercise: Exercise, move: Move) -> Feedback:
        self.summary.right += 1
        if self.hints_given:
            self.summary.hinted += 1
        if exercise.proven == "win":
            first = f"Right: {move} wins whatever the others hold, play and draw (proven)."
        elif move == exercise.best:
            first = f"Right: {move} is the engine's move."
        else:
            first = (
                f"Right: {move} keeps the win chance within a few points of the engine's "
                f"{exercise.best}."
            )
        lines = [first]
        others = [str(m) for m in exercise.accept if m != move]
        if others:
            lines.append(f"Also right: {', '.join(others)}.")
        return self._next("right", [*lines, *self._why_lines(exercise)])

    def _wrong(self, exercise: Exercise, move: Move) -> Feedback:
        self.summary.wrong += 1
        if move == exercise.played:
            lines = [f"Wrong: {move} is the move played in the game{self._cost(exercise)}."]
            why = self._why_lines(exercise)
        else:
            lines = [f"Wrong: {move} is not among the moves the engine counts right."]
            why = self._why_against(exercise, move)
        return self._next("wrong", [*lines, *self._answer_lines(exercise), *why])

    @staticmethod
    def _cost(exercise: Exercise) -> str:
        if exercise.loss is None:
            return ""
        return f", which gives away {exercise.loss:.1f} win-% points"

    @staticmethod
    def _answer_lines(exercise: Exercise) -> list[str]:
        lines = [f"Better: {exercise.best}."]
        others = [str(m) for m in exercise.accept if m != exercise.best]
        if others:
            lines.append(f"Also right: {', '.join(others)}.")
        return lines

    @staticmethod
    def _why_lines(exercise: Exercise) -> list[str]:
        return [f"Why: {exercise.why}"] if exercise.why else []

    @staticmethod
    def _why_against(exercise: Exercise, move: Move) -> list[str]:
        """Why the best beats the player's own answer (no search: the moves' facts)."""
        try:
            text = compare_moves(exercise.state, move, exercise.best).text
        except ManhattanError:
            return []
        return [f"Why: {text}"]

    # ----- hints --------------------------------------------------------------------

    def _hint(self, exercise: Exercise) -> Feedback:
        hints = hints_for(exercise)
        if self.hints_given >= len(hints):
            return Feedback("hint", ("No more hints: answer, or skip to see the move.",), False)
        self.hints_given += 1
        return Feedback("hint", (f"Hint: {hints[self.hints_given - 1]}",), False)


def hints_for(exercise: Exercise) -> list[str]:
    """The clues for ``exercise``, vaguer first, none naming the whole move."""
    best = exercise.best
    if isinstance(best, Placement):
        return [
            f"the engine builds in city {best.city}.",
            f"play card {best.card} in city {best.city}.",
        ]
    if isinstance(best, NoPlacement):
        return [f"no block can be placed: the engine gives up a {best.stories}-story block."]
    assert isinstance(best, Selection)
    big = sum(size == 4 for part in best.blocks for size in part)
    small = sum(size == 1 for part in best.blocks for size in part)
    return [
        f"the engine's selection takes {big} four-story block{'s' if big != 1 else ''}.",
        f"it takes {small} one-story block{'s' if small != 1 else ''}.",
    ]
