"""What the command line reads and shows: a position argument (a position string or a
file), a list of move tokens to apply (with ``+<card>`` draws and ``!?`` marks), and a
state as plain data for ``--json``.

Library code: nothing here prints; every bad input raises a ``ManhattanError`` (or an
``OSError`` for a file that cannot be read) whose message is one line.
"""

from __future__ import annotations

import errno
import re
from pathlib import Path
from typing import Any

from positions.errors import (
    HiddenInformationError,
    IllegalMoveError,
    ManhattanError,
    NotationError,
)
from positions.files import read_input_file
from positions.layout import CARD_TYPES, COLOR_LETTERS, SITES_PER_CITY, SIZES
from positions.moves import Move, Selection, parse_move
from positions.notation import parse_position, write_position
from positions.state import GameState, Phase

RECORD_SUFFIX = ".mgn"
PUZZLE_SUFFIX = ".mpz"
_PATH_SUFFIXES = (RECORD_SUFFIX, PUZZLE_SUFFIX, ".txt")
# Every character a board field may hold; a word with '/' and some other character is a path.
_BOARD_CHARACTERS = set("abcd0123456789,/")
_MARK = re.compile(r"(!!|\?\?|!\?|\?!|!|\?)$")
PHASE_NAMES = {Phase.SELECTION: "selection", Phase.PLACEMENT: "placement", Phase.OVER: "over"}


def _existing_file(arg: str) -> Path | None:
    """``arg`` as a path if something exists there (a file, or a folder or device that
    reading will refuse with a clear error), else ``None``."""
    if not arg.strip():
        return None
    path = Path(arg).expanduser()
    try:
        return path if path.exists() else None
    except (OSError, ValueError):  # a name too long for the file system, or holding NUL
        return None


def looks_like_path(arg: str) -> bool:
    """Whether ``arg`` is meant as a file name rather than a position string: it ends with
    ``.mgn``, ``.mpz`` or ``.txt``, or it is one word holding a path separator and some
    character a board field cannot hold (a position's board is full of ``/``)."""
    text = arg.strip()
    if text.lower().endswith(_PATH_SUFFIXES):
        return True
    if not text or any(ch.isspace() for ch in text):
        return False
    return ("/" in text or "\\" in text) and not set(text) <= _BOARD_CHARACTERS


def first_position_line(text: str, source: str) -> str:
    """The first line of ``text`` that is neither blank nor a ``#`` comment.
    Raises ``NotationError`` naming ``source`` if there is none."""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return stripped
    raise NotationError(f"{source}: no position found (only blank lines and # comments)")


def load_position(arg: str) -> GameState:
    """The position a command-line argument names.

    An existing file is read by its extension: ``.mgn`` gives the game record's final
    position, ``.mpz`` the puzzle's ``Setup`` position, any other file its first
    non-empty, non-comment line read as a position string.  Otherwise ``arg`` itself is
    a position string.

    Raises ``FileNotFoundError`` ("file not found") when ``arg`` looks like a file name but
    no such file exists, another ``OSError`` when a file cannot be read, and
    ``ManhattanError`` for text that is not a valid position (or record, or puzzle).
    """
    path = _existing_file(arg)
    if path is None:
        if looks_like_path(arg):
            raise FileNotFoundError(errno.ENOENT, "file not found", arg.strip())
        return parse_position(arg)
    suffix = path.suffix.lower()
    if suffix == RECORD_SUFFIX:
        from positions.record import load_record

        return load_record(path).final_state()
    if suffix == PUZZLE_SUFFIX:
        from positions.puzzle import load_puzzle

        return load_puzzle(path).state
    text = read_text(path)
    line = first_position_line(text, str(path))
    try:
        return parse_position(line)
    except ManhattanError as error:
        raise type(error)(f"{path}: {error}") from None


def read_text(path: Path) -> str:
    """The text of a UTF-8 regular file (``positions.files.read_input_file``)."""
    return read_input_file(path)


# ----- applying a list of move tokens ----------------------------------------------------


def parse_move_tokens(tokens: list[str]) -> list[tuple[str, Move, int | None]]:
    """Read command-line move tokens into ``(text, move, drawn)`` triples.

    A token is a move in canonical notation, optionally followed by one of the marks
    ``! ? !! ?? !? ?!`` (ignored).  A token ``+<card>`` (``+1`` … ``+9``) after a placement
    names the card drawn; ``+?`` or no token means unknown.  Raises ``NotationError``
    naming the token (1-based index among the moves) for anything else.
    """
    parsed: list[tuple[str, Move, int | None]] = []
    drawn_named = False
    for token in tokens:
        token = token.strip()
        if token.startswith("+"):
            if not parsed:
                raise NotationError(f"draw {token!r}: a drawn card must follow a placement")
            text, move, drawn = parsed[-1]
            where = f"draw {token!r} after move {len(parsed)} ({text})"
            if isinstance(move, Selection):
                raise NotationError(f"{where}: a card is drawn only after a placement")
            if drawn_named:
                raise NotationError(f"{where}: that move's draw is already given")
            if len(token) != 2 or token[1] not in "123456789?":
                raise NotationError(f"{where}: expected + and one card 1-9 or ?")
            drawn_named = True
            parsed[-1] = (text, move, None if token[1] == "?" else int(token[1]))
            continue
        text = _MARK.sub("", token)
        try:
            move = parse_move(text)
        except NotationError as error:
            raise NotationError(f"move {len(parsed) + 1}: {error}") from None
        parsed.append((text, move, None))
        drawn_named = False
    return parsed


def apply_move_tokens(state: GameState, tokens: list[str]) -> GameState:
    """A copy of ``state`` after the moves ``tokens`` name (see ``parse_move_tokens``).

    A placement's drawn card that is not named becomes ``?`` in the mover's hand.  Raises
    ``IllegalMoveError`` (or ``HiddenInformationError``) saying which move (its index from
    1 and its text) and why, ``NotationError`` for a malformed token.
    """
    result = state.clone()
    for index, (text, move, drawn) in enumerate(parse_move_tokens(tokens), start=1):
        try:
            result.apply_move(move, drawn=drawn)
        except (IllegalMoveError, HiddenInformationError) as error:
            reason = str(error)
            for prefix in (f"{move}: ", f"{text}: "):
                reason = reason.removeprefix(prefix)
            raise type(error)(f"move {index} ({text}) is not legal: {reason}") from None
    return result


# ----- a state as plain data ---------------------------------------------------------------


def _site_data(state: GameState, site: int) -> dict[str, Any]:
    owner = state.owner[site]
    return {
        "height": state.height[site],
        "owner": COLOR_LETTERS[owner] if owner >= 0 else None,
        "blocks": [
            {"color": COLOR_LETTERS[color], "stories": stories}
            for color, stories in state.stack(site)
        ],
    }


def describe_position(state: GameState) -> dict[str, Any]:
    """Everything a position shows, as JSON-ready data.

    Per-color lists follow the colors in play (a, b, c[, d]); per-player lists run P1…Pn.
    ``to_move`` is 1-based (``None`` when the game is over); a hand lists its known cards
    ascending then ``None`` per unseen card; ``board`` is 6 cities of 9 sites in reading
    order from seat S; ``round_score`` is what each color would score if the round were
    scored now.
    """
    table = state.layout
    colors = list(state.colors_in_play())
    over = state.phase == Phase.OVER
    return {
        "position": write_position(state),
        "players": table.players,
        "rounds": table.rounds,
        "round": state.round,
        "start_player": table.start_player(state.round) + 1,
        "to_move": None if over else state.to_move + 1,
        "phase": PHASE_NAMES[state.phase],
        "options": {
            "two_player_total": state.options.two_player_total,
            "tallest_tie": state.options.tallest_tie,
        },
        "colors": [COLOR_LETTERS[c] for c in colors],
        "player_colors": [[COLOR_LETTERS[c] for c in pc] for pc in table.player_colors],
        "seats": list(table.player_seats),
        "scores": [state.scores[c] for c in colors],
        "totals": state.player_totals(),
        "places": state.places() if over else None,
        "supply": [state.supply[c * SIZES : c * SIZES + SIZES] for c in colors],
        "selected": [
            [
                size
                for size in range(1, SIZES + 1)
                for _ in range(state.selected[c * SIZES + size - 1])
            ]
            for c in colors
        ],
        "hands": [[card or None for card in state.hand(p)] for p in range(table.players)],
        "played": [card for card in range(1, CARD_TYPES + 1) for _ in range(state.played[card])],
        "deck_count": state.deck_count(),
        "board": [
            [_site_data(state, city * SITES_PER_CITY + i) for i in range(SITES_PER_CITY)]
            for city in range(6)
        ],
        "round_score": state.round_points()[: len(colors)],
    }


# ----- which position of a record to analyze -----------------------------------------------


def load_analysis_target(arg: str | None, move: int | None = None) -> GameState:
    """The position ``analyze`` looks at: the bundled example when ``arg`` is ``None``, a
    position string or file, or a game record's position before its ``move``-th decision
    (from 1; default: the last position with a decision to make).  Raises
    ``ManhattanError`` for ``move`` out of range or given without a record, and what
    ``load_position`` raises."""
    from positions.bundled import default_example
    from positions.record import load_record

    text = str(default_example()) if arg is None else arg
    path = _existing_file(text)
    if path is not None and path.suffix.lower() == RECORD_SUFFIX:
        record = load_record(path)
        states = record.states()
        if move is None:
            last = states[-1]
            return last if not last.is_terminal() or len(states) == 1 else states[-2]
        if not 1 <= move <= len(record.moves):
            raise ManhattanError(
                f"--move {move}: expected 1-{len(record.moves)}, "
                "the number of decisions in the record"
            )
        return states[move - 1]
    if move is not None:
        raise ManhattanError("--move applies to game records (.mgn) only")
    return load_position(text)
