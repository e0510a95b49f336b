"""The one exception family of the package: every bad input ends as a ``ManhattanError``.

Each error's message names where the problem is (a field, or a line and column, both from
1) and what was expected, so the command line can print it as one line.
"""

from __future__ import annotations

import re


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


QUOTE_LIMIT = 80  # characters of a user's input an error message repeats


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` quoted for an error message: ``repr`` of at most ``limit`` characters, with
    the total length when it was cut (a 10 MB answer must not make a 10 MB message)."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text):,} characters)"


_LONG_QUOTE = re.compile("'([^']{" + str(QUOTE_LIMIT) + "})[^']+'")
MESSAGE_LIMIT = 400


def shorten(message: str) -> str:
    """``message`` on one line with every quoted input cut to ``QUOTE_LIMIT`` characters
    and the whole to ``MESSAGE_LIMIT``: what error lines and forfeit reasons show."""
    text = " ".join(message.split())
    text = _LONG_QUOTE.sub(lambda m: f"'{m.group(1)}…'", text)
    if len(text) > MESSAGE_LIMIT:
        text = f"{text[:MESSAGE_LIMIT]}… ({len(text):,} characters)"
    return text
