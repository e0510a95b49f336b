"""Moves as small immutable values whose text form round-trips (NOTATION.md, "Moves"),
and the integer action ids the search uses.

Action ids (``NUM_ACTIONS`` in all):

* placement ``card@city:stories`` with the mover's color slot (0 = first color, 1 = the
  second color of a 2-player seat): ``((card-1)*6 + city-1)*8 + slot*4 + stories-1``;
* no legal placement ``card@-:stories``: ``NO_PLACEMENT_BASE + (card-1)*8 + slot*4 + stories-1``;
* one pick of a block during selection: ``PICK_BASE + slot*4 + stories-1``.  A whole
  selection is the sequence of picks in canonical order (first color first, stories
  ascending), so the search branches at most 8 ways per step instead of over every
  multiset of blocks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from positions.errors import NotationError, quote
from positions.layout import CITIES, COLOR_LETTERS, SIZES

NO_PLACEMENT_BASE = 9 * CITIES * 8
PICK_BASE = NO_PLACEMENT_BASE + 9 * 8
NUM_ACTIONS = PICK_BASE + 8


@dataclass(frozen=True, order=True)
class Selection:
    """A whole selection: for each of the mover's colors (first color first), the stories
    of the chosen blocks in ascending order."""

    blocks: tuple[tuple[int, ...], ...]

    def __str__(self) -> str:
        return "=" + "/".join("".join(map(str, part)) for part in self.blocks)

    def __repr__(self) -> str:
        return f"parse_move({str(self)!r})"


@dataclass(frozen=True, order=True)
class Placement:
    """Play ``card`` and put a block of ``stories`` in ``city`` (1-6) on the site the card
    marks from the mover's seat.  ``color`` is the block's color letter, written only in
    2-player games (``None`` otherwise)."""

    card: int
    city: int
    stories: int
    color: str | None = None

    def __str__(self) -> str:
        return f"{self.card}@{self.city}:{self.stories}{self.color or ''}"

    def __repr__(self) -> str:
        return f"parse_move({str(self)!r})"


@dataclass(frozen=True, order=True)
class NoPlacement:
    """The move when no placement is legal: play ``card`` and remove one selected block of
    ``stories`` (of ``color`` in 2p) from the game."""

    card: int
    stories: int
    color: str | None = None

    def __str__(self) -> str:
        return f"{self.card}@-:{self.stories}{self.color or ''}"

    def __repr__(self) -> str:
        return f"parse_move({str(self)!r})"


Move = Selection | Placement | NoPlacement

_SELECTION = re.compile(r"=([1-4]+)(?:/([1-4]+))?")
_PLACEMENT = re.compile(r"([1-9])@([1-6]|-):([1-4])([abcd]?)")


def parse_move(text: str) -> Move:
    """Parse one move token (without marks or draws).  Checks only the syntax; whether the
    move fits the position is the state's business.  Raises ``NotationError``."""
    match = _SELECTION.fullmatch(text)
    if match:
        parts = tuple(tuple(sorted(int(d) for d in g)) for g in match.groups() if g is not None)
        return Selection(parts)
    match = _PLACEMENT.fullmatch(text)
    if match:
        card, city, stories, color = match.groups()
        if city == "-":
            return NoPlacement(int(card), int(stories), color or None)
        return Placement(int(card), int(city), int(stories), color or None)
    raise NotationError(
        f"bad move {quote(text)}: expected a selection like =112234 (2p: =1123/1234), "
        "a placement like 7@3:4 (2p: 7@3:4c) or 7@-:1"
    )


def placement_action(card: int, city: int, slot: int, stories: int) -> int:
    """The action id of a placement."""
    return ((card - 1) * CITIES + city - 1) * 8 + slot * SIZES + stories - 1


def no_placement_action(card: int, slot: int, stories: int) -> int:
    """The action id of a no-legal-placement move."""
    return NO_PLACEMENT_BASE + (card - 1) * 8 + slot * SIZES + stories - 1


def pick_action(slot: int, stories: int) -> int:
    """The action id of picking one block during selection."""
    return PICK_BASE + slot * SIZES + stories - 1


def decode_action(action: int) -> tuple[str, int, int, int, int]:
    """Split an action id into ``(kind, card, city, slot, stories)`` with kind one of
    ``"place"``, ``"none"`` (no legal placement) and ``"pick"``; unused parts are 0.
    Raises ``ValueError`` for an id out of range."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action id {action} out of range 0..{NUM_ACTIONS - 1}")
    if action >= PICK_BASE:
        slot, size = divmod(action - PICK_BASE, SIZES)
        return "pick", 0, 0, slot, size + 1
    if action >= NO_PLACEMENT_BASE:
        card, rest = divmod(action - NO_PLACEMENT_BASE, 8)
        slot, size = divmod(rest, SIZES)
        return "none", card + 1, 0, slot, size + 1
    card_city, rest = divmod(action, 8)
    card, city = divmod(card_city, CITIES)
    slot, size = divmod(rest, SIZES)
    return "place", card + 1, city + 1, slot, size + 1


def color_letter(color: int) -> str:
    """The letter of color index ``color``."""
    return COLOR_LETTERS[color]
