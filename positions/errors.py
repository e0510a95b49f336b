"""The one exception family of the package: every bad input ends as a ``ManhattanError``.

Each error's message names where the problem is (a field, or a line and column, both from
1) and what was expected, so the command line can print it as one line.
"""

from __future__ import annotations


class ManhattanError(ValueError):
    """Base class of every error caused by bad input (a file, a string, a move, an option)."""


class NotationError(ManhattanError):
    """Text that does not follow NOTATION.md.

    ``line`` and ``column`` (from 1) locate the problem in a file when they are known.
    """

    def __init__(self, message: str, line: int | None = None, column: int | None = None):
        self.line = line
        self.column = column
        where = ""
        if line is not None:
            where = f"line {line}, column {column}: " if column is not None else f"line {line}: "
        super().__init__(where + message)


class InvalidPositionError(ManhattanError):
    """A well-formed position that breaks one of NOTATION.md's validity rules."""


class IllegalMoveError(ManhattanError):
    """A move that is well formed but not legal in the position it is applied to."""


class HiddenInformationError(ManhattanError):
    """An operation needs a card the position does not show (e.g. the mover's hand)."""
