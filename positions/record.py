"""Game records (``.mgn``, NOTATION.md "Game record"): reading with a full replay, and
canonical writing.

A record is tag pairs, one per line, then the moves in play order::

    [Game "Manhattan"]
    [Players "4"]
    [Deal "2478 5789 1148 3359"]

    R1 =112233 =112333 =111234 =112233 8@5:2 +4 8@2:3 +6 4@1:4?! +6 {greedy} ...

Where NOTATION.md is silent this module decides (and ``write_record`` writes so that
``read_record(write_record(r)) == r``):

* Tag values may escape ``"`` and ``\\`` with a backslash (as in PGN); no other escape.
  Blank lines may come before the tags; the blank line after them may be left out.
* ``Game`` must be ``Manhattan``.  ``P<k>`` tags beyond the player count are errors, not
  unknown tags.  ``Date`` and unknown tags are kept verbatim.  Known tags are stored and
  written in canonical form: ``Deal`` hands with their known cards ascending then their
  ``?``s, ``Setup`` as a canonical position string, ``Options`` with only the non-default
  options (an empty value when all are defaults; the tag is kept), ``Result`` single-spaced.
* ``R<k>`` is accepted where round k's first move is next, or before the first move of the
  record when it starts in round k (a ``Setup`` in the middle of a round); a round is
  marked at most once.  Records are written with one line per round, and a record starting
  mid-round starts its first line with that round's marker.
* A draw ``+k`` must follow a placement or no-placement move directly (before its
  comment).  ``+?`` (drawn = 0: a card was drawn, which one is not recorded) and no draw
  token (drawn = None) are kept apart; both replay as an unseen card.
* A comment belongs to the move before it; it may not come before the first move or right
  after a round marker.  Its white space is collapsed to single spaces (so a comment can
  span lines and is written on one line); two comments after one move are joined with a
  space.  ``{`` inside a comment is plain text; the first ``}`` ends it.
* ``Result`` is checked only for a finished game: a ``Result`` on a record whose moves stop
  before the end is an error.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from positions.errors import ManhattanError, NotationError
from positions.files import read_input_file
from positions.layout import CARD_TYPES, CARDS_PER_TYPE, HAND_SIZE
from positions.moves import NO_PLACEMENT_BASE, Move, Selection, parse_move
from positions.notation import parse_position, write_position
from positions.options import RuleOptions, parse_options
from positions.state import GameState, Phase

MARKS = ("!", "?", "!!", "??", "!?", "?!")
KNOWN_TAGS = ("Game", "Players", "Date", "Deal", "Setup", "Options", "Result")

_TAG_LINE = re.compile(r'\s*\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*')
_PLAYER_TAG = re.compile(r"P[0-9]+")
_MARKER = re.compile(r"R([1-9][0-9]?)")

Where = tuple[int, int]  # (line, column), both from 1


@dataclass
class RecordedMove:
    """One move of a record with what was written around it."""

    move: Move
    drawn: int | None = None  # card 1-9 from "+k"; 0 for "+?"; None when no draw token
    mark: str | None = None  # one of ! ? !! ?? !? ?!
    comment: str | None = None  # text inside {...}, without braces


@dataclass
class GameRecord:
    """A game: the player count, its tags (``Game``, ``Players``, ``Deal``, ``Setup``, ...)
    and its moves.  The start position comes from the tags (see ``initial_state``)."""

    players: int
    tags: dict[str, str] = field(default_factory=dict)
    moves: list[RecordedMove] = field(default_factory=list)

    def initial_state(self) -> GameState:
        """The position before the first move: the ``Setup`` position, or the start of a
        game with the ``Deal`` hands (else every hand unseen) and the ``Options``.
        Raises ``ManhattanError`` when the tags are inconsistent."""
        return _check_tags(self.players, self.tags, None, reading=False)[1]

    def states(self) -> list[GameState]:
        """The state before each move, then the final state (``len(moves) + 1`` states).
        Raises ``ManhattanError`` (e.g. ``IllegalMoveError``) if a move does not replay."""
        state = self.initial_state()
        states = [state.clone()]
        for number, recorded in enumerate(self.moves, start=1):
            _check_recorded(recorded, number)
            state.apply_move(recorded.move, recorded.drawn or None)
            states.append(state.clone())
        return states

    def final_state(self) -> GameState:
        """The state after the last move.  Raises ``ManhattanError`` as ``states``."""
        return self.states()[-1]

    def placement_choices(self) -> list[tuple[GameState, int]]:
        """Every placement decision where a block could go on the board, as the state it
        was made in and the action id played (the no-placement moves the rules force tell
        nothing about a choice).  Raises ``ManhattanError`` as ``states``."""
        states = self.states()
        return [
            (before, after.history[-1].action)
            for before, after in zip(states, states[1:], strict=False)
            if before.phase == Phase.PLACEMENT
            and after.history
            and after.history[-1].action < NO_PLACEMENT_BASE
        ]


# ----- tags ---------------------------------------------------------------------------


def _error(message: str, where: Where | None) -> NotationError:
    return NotationError(message, *where) if where else NotationError(message)


def _unescape(raw: str) -> str:
    return re.sub(r"\\(.)", r"\1", raw)


def escape_tag_value(value: str) -> str:
    """``value`` with ``\\`` and ``"`` escaped for a tag line."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


def read_tag_lines(lines: list[str], kind: str) -> tuple[dict[str, str], dict[str, Where], int]:
    """Read the tag pairs at the start of ``lines``: ``(tags in read order, where each
    value starts, index of the first line after the tags)``.  Shared by records and
    puzzles.  Raises ``NotationError`` with line and column for a malformed tag line or a
    tag given twice."""
    tags: dict[str, str] = {}
    where: dict[str, Where] = {}
    index = 0
    while index < len(lines) and not lines[index].strip():
        index += 1
    while index < len(lines) and lines[index].lstrip().startswith("["):
        line = lines[index]
        match = _TAG_LINE.fullmatch(line)
        column = len(line) - len(line.lstrip()) + 1
        if not match:
            raise NotationError(
                f'bad tag line {line.strip()!r}: expected [Name "value"] '
                '(with \\" and \\\\ for a quote and a backslash in the value)',
                index + 1,
                column,
            )
        name, raw = match.group(1), match.group(2)
        bad_escape = re.search(r'\\[^"\\]', raw)
        if bad_escape:
            raise NotationError(
                f'tag {name}: unknown escape {bad_escape.group()!r}, only \\" and \\\\ are allowed',
                index + 1,
                match.start(2) + bad_escape.start() + 1,
            )
        if name in tags:
            raise NotationError(f"tag {name} given twice", index + 1, column)
        tags[name] = _unescape(raw)
        where[name] = (index + 1, match.start(2) + 1)
        index += 1
    if not tags:
        first = lines[index].strip() if index < len(lines) else ""
        raise NotationError(
            f'a {kind} starts with tag pairs like [Game "Manhattan"], found {first[:30]!r}',
            index + 1 if index < len(lines) else None,
            1 if index < len(lines) else None,
        )
    return tags, where, index


def _parse_deal(value: str, players: int, at: Where | None) -> list[str]:
    hands = value.split()
    if len(hands) != players:
        raise _error(
            f"Deal {value!r}: expected {players} hands separated by spaces, found {len(hands)}",
            at,
        )
    canonical = []
    for hand in hands:
        if len(hand) != HAND_SIZE or any(ch not in "123456789?" for ch in hand):
            raise _error(f"Deal {value!r}: bad hand {hand!r}, expected 4 cards 1-9 or ?", at)
        canonical.append("".join(sorted(hand.replace("?", ""))) + "?" * hand.count("?"))
    for card in range(1, CARD_TYPES + 1):
        copies = sum(hand.count(str(card)) for hand in canonical)
        if copies > CARDS_PER_TYPE:
            raise _error(f"Deal {value!r}: {copies} copies of card {card}, there are only 5", at)
    return canonical


def _parse_result(value: str, players: int, at: Where | None) -> list[int]:
    totals = value.split()
    if len(totals) != players or not all(re.fullmatch("[0-9]{1,9}", t) for t in totals):
        raise _error(
            f"Result {value!r}: expected {players} final totals (whole numbers) "
            "separated by spaces",
            at,
        )
    return [int(t) for t in totals]


def _check_tags(
    players: int, tags: dict[str, str], where: dict[str, Where] | None, reading: bool
) -> tuple[dict[str, str], GameState]:
    """Check ``tags`` for a ``players``-player record; return them canonical, in canonical
    order, with the initial state.  ``reading``: ``Game`` and ``Players`` must be given."""
    at = (where or {}).get
    for name in ("Game", "Players"):
        if reading and name not in tags:
            raise NotationError(f'missing tag [{name} "..."]: a record needs Game and Players')
    if tags.get("Game", "Manhattan") != "Manhattan":
        raise _error(f'Game {tags["Game"]!r}: expected "Manhattan"', at("Game"))
    if players not in (2, 3, 4):
        raise ManhattanError(f"a record has 2, 3 or 4 players, not {players}")
    if tags.get("Players", str(players)) != str(players):
        raise _error(
            f"Players {tags['Players']!r}: expected {players}, the record's player count",
            at("Players"),
        )
    canonical: dict[str, str] = {"Game": "Manhattan", "Players": str(players)}
    for number in range(1, players + 1):
        if f"P{number}" in tags:
            canonical[f"P{number}"] = tags[f"P{number}"]
    for name in tags:
        if _PLAYER_TAG.fullmatch(name) and name not in canonical:
            raise _error(f"tag {name}: a {players}-player game has tags P1-P{players}", at(name))
    if "Date" in tags:
        canonical["Date"] = tags["Date"]
    if "Deal" in tags and "Setup" in tags:
        raise _error(
            "Deal and Setup exclude each other: a Setup position holds the hands", at("Setup")
        )
    options = RuleOptions()
    if "Options" in tags:
        try:
            options = parse_options(tags["Options"].split(), players)
        except ManhattanError as error:
            raise _error(f"Options {tags['Options']!r}: {error}", at("Options")) from None
    if "Setup" in tags:
        try:
            state = parse_position(tags["Setup"])
        except ManhattanError as error:
            raise _error(f"Setup: {error}", at("Setup")) from None
        if state.players != players:
            raise _error(
                f"Setup is a {state.players}-player position but Players is {players}",
                at("Setup"),
            )
        if "Options" in tags and state.options != options:
            raise _error(
                f"Options {tags['Options']!r} disagree with the Setup position's options "
                f"{' '.join(state.options.non_default()) or '(defaults)'!r}",
                at("Options"),
            )
    else:
        state = GameState(players, options)
    if "Deal" in tags:
        hands = _parse_deal(tags["Deal"], players, at("Deal"))
        for player, hand in enumerate(hands):
            state.hands[player * 10 : player * 10 + 10] = [hand.count(ch) for ch in "?123456789"]
        canonical["Deal"] = " ".join(hands)
    if "Setup" in tags:
        canonical["Setup"] = write_position(state)
    if "Options" in tags:
        canonical["Options"] = " ".join(options.non_default())
    if "Result" in tags:
        canonical["Result"] = " ".join(
            map(str, _parse_result(tags["Result"], players, at("Result")))
        )
    for name, value in tags.items():
        if name not in canonical and name not in KNOWN_TAGS:
            canonical[name] = value
    return canonical, state


def _check_result(tags: dict[str, str], state: GameState, at: Where | None) -> None:
    if "Result" not in tags:
        return
    if not state.is_terminal():
        raise _error(
            f"Result {tags['Result']!r} given, but the game is not over after the last move "
            f"(round {state.round} of {state.layout.rounds})",
            at,
        )
    replayed = " ".join(map(str, state.player_totals()))
    if tags["Result"] != replayed:
        raise _error(
            f"Result {tags['Result']!r} does not match the replayed totals {replayed!r}", at
        )


# ----- moves --------------------------------------------------------------------------


def _tokens(lines: list[str], first: int) -> Iterator[tuple[str, Where]]:
    """Split the move text (``lines[first:]``) into tokens with where each starts.
    A comment ``{...}`` is one token (it may span lines); ``{`` also ends a token."""
    line_index, column = first, 0
    while line_index < len(lines):
        line = lines[line_index]
        if column >= len(line):
            line_index, column = line_index + 1, 0
            continue
        char = line[column]
        if char.isspace():
            column += 1
            continue
        start = (line_index + 1, column + 1)
        if char == "{":
            parts = []
            text = line[column + 1 :]
            while "}" not in text:
                parts.append(text)
                line_index += 1
                if line_index >= len(lines):
                    raise NotationError("comment '{' is never closed with '}'", *start)
                text, column = lines[line_index], -1
            end = text.index("}")
            parts.append(text[:end])
            column = (column + 1) + end + 1
            yield "{" + "\n".join(parts) + "}", start
            continue
        end = column
        while end < len(line) and not line[end].isspace() and line[end] != "{":
            end += 1
        yield line[column:end], start
        column = end


def _split_mark(token: str, at: Where) -> tuple[str, str | None]:
    body = token.rstrip("!?")
    mark = token[len(body) :]
    if not mark:
        return body, None
    if mark not in MARKS:
        raise NotationError(
            f"move {token!r}: bad mark {mark!r}, expected one of {' '.join(MARKS)}", *at
        )
    return body, mark


def _check_recorded(recorded: RecordedMove, number: int) -> None:
    if recorded.mark is not None and recorded.mark not in MARKS:
        raise ManhattanError(
            f"move {number} ({recorded.move}): bad mark {recorded.mark!r}, "
            f"expected one of {' '.join(MARKS)}"
        )
    if recorded.drawn is not None:
        if isinstance(recorded.move, Selection):
            raise ManhattanError(
                f"move {number} ({recorded.move}): a card is drawn only after a placement"
            )
        if not 0 <= recorded.drawn <= CARD_TYPES:
            raise ManhattanError(
                f"move {number} ({recorded.move}): drawn card {recorded.drawn}, "
                "expected 1-9 (or 0 for '+?')"
            )


class _Replay:
    """Replays tokens onto a state, collecting the recorded moves."""

    def __init__(self, state: GameState):
        self.state = state
        self.moves: list[RecordedMove] = []
        self.pending: tuple[RecordedMove, str, Where, str | None, Where | None] | None = None
        self.previous = "start"  # kind of the last token: start, marker, move, draw, comment
        self.moves_in_round = 0
        self.marked: set[int] = set()

    def marker(self, token: str, at: Where) -> None:
        self.flush()
        match = _MARKER.fullmatch(token)
        if not match:
            raise NotationError(f"bad round marker {token!r}: expected R1, R2, ...", *at)
        number, state = int(match.group(1)), self.state
        if state.is_terminal():
            raise NotationError(f"round marker {token!r}: the game is over", *at)
        if number in self.marked:
            raise NotationError(f"round marker {token!r}: round {number} is marked twice", *at)
        if number != state.round:
            raise NotationError(
                f"round marker {token!r}: the next move belongs to round {state.round}", *at
            )
        if self.moves_in_round:
            raise NotationError(
                f"round marker {token!r}: round {number} is under way "
                f"({self.moves_in_round} of its moves come before the marker)",
                *at,
            )
        self.marked.add(number)
        self.previous = "marker"

    def move(self, token: str, at: Where) -> None:
        self.flush()
        body, mark = _split_mark(token, at)
        try:
            move = parse_move(body)
        except NotationError as error:
            raise NotationError(str(error), *at) from None
        self.pending = (RecordedMove(move, mark=mark), token, at, None, None)
        self.previous = "move"

    def draw(self, token: str, at: Where) -> None:
        if len(token) != 2 or token[1] not in "123456789?":
            raise NotationError(f"bad draw {token!r}: expected + and one card 1-9 or ?", *at)
        if self.previous != "move" or self.pending is None:
            raise NotationError(
                f"draw {token!r}: a draw follows its placement directly "
                "(not a selection, a comment, a marker or another draw)",
                *at,
            )
        recorded, move_token, move_at, _, _ = self.pending
        if isinstance(recorded.move, Selection):
            raise NotationError(
                f"draw {token!r} after the selection {move_token!r}: "
                "a card is drawn only after a placement",
                *at,
            )
        recorded.drawn = 0 if token[1] == "?" else int(token[1])
        self.pending = (recorded, move_token, move_at, token, at)
        self.previous = "draw"

    def comment(self, token: str, at: Where) -> None:
        self.flush()
        if self.previous in ("start", "marker") or not self.moves:
            raise NotationError(
                f"comment {token[:30]!r}: a comment follows the move it speaks of", *at
            )
        text = " ".join(token[1:-1].split())
        last = self.moves[-1]
        last.comment = text if last.comment is None else f"{last.comment} {text}".strip()
        self.previous = "comment"

    def flush(self) -> None:
        """Apply the pending move (once its draw, if any, is known)."""
        if self.pending is None:
            return
        recorded, token, at, draw_token, draw_at = self.pending
        self.pending = None
        before = self.state.clone()
        mover, round_number = before.to_move + 1, before.round
        try:
            self.state.apply_move(recorded.move, recorded.drawn or None)
        except ManhattanError as error:
            if draw_token is not None and draw_at is not None:
                try:
                    before.clone().apply_move(recorded.move)
                except ManhattanError:
                    pass
                else:
                    raise NotationError(
                        f"draw {draw_token!r} after {token!r}: {error}", *draw_at
                    ) from None
            who = "" if before.is_terminal() else f" by P{mover} in round {round_number}"
            raise NotationError(f"illegal move {token!r}{who}: {error}", *at) from None
        self.moves.append(recorded)
        if self.state.round != round_number:
            self.moves_in_round = 0
        else:
            self.moves_in_round += 1


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` (``\\n`` or ``\\r\\n`` line ends, a leading BOM dropped)."""
    text = text.removeprefix("\ufeff")
    return [line.removesuffix("\r") for line in text.split("\n")]


def read_record(text: str) -> GameRecord:
    """Read a ``.mgn`` game record and replay every move.

    Returns the ``GameRecord`` with its tags canonical.  Raises ``NotationError`` (with line
    and column) for text that breaks NOTATION.md, a tag that does not fit, an illegal move
    (naming it), a misplaced ``R<k>``, or a ``Result`` that differs from the replayed totals.
    """
    lines = split_lines(text)
    raw_tags, where, first = read_tag_lines(lines, "game record")
    players_text = raw_tags.get("Players")
    if players_text is None:
        raise NotationError('missing tag [Players "..."]: a record needs Game and Players')
    if players_text not in ("2", "3", "4"):
        raise NotationError(f"Players {players_text!r}: expected 2, 3 or 4", *where["Players"])
    players = int(players_text)
    tags, state = _check_tags(players, raw_tags, where, reading=True)
    replay = _Replay(state)
    for token, at in _tokens(lines, first):
        head = token[0]
        if head == "R":
            replay.marker(token, at)
        elif head == "+":
            replay.draw(token, at)
        elif head == "{":
            replay.comment(token, at)
        elif head == "=" or head.isdigit():
            replay.move(token, at)
        elif head == "[":
            raise NotationError(f"{token!r}: tag pairs come before the moves, one per line", *at)
        elif head == "}":
            raise NotationError("'}' without a '{' opening a comment", *at)
        else:
            raise NotationError(
                f"{token!r}: expected a move (=112234, 7@3:4, 7@-:1), a draw +k, "
                "a comment {...} or a round marker R<k>",
                *at,
            )
    replay.flush()
    _check_result(tags, replay.state, where.get("Result"))
    return GameRecord(players, tags, replay.moves)


def write_record(record: GameRecord) -> str:
    """The canonical text of ``record``: tags in canonical order, a blank line, then one
    line per round starting with its ``R<k>``, each move ``move[mark] [+card] [{comment}]``.

    Raises ``ManhattanError`` if the tags are inconsistent, a move does not replay, a
    ``Result`` disagrees with the replay, or a comment or tag value cannot be written
    (a ``}`` in a comment, a line break in a tag value).
    """
    tags, _ = _check_tags(record.players, record.tags, None, reading=False)
    states = record.states()
    _check_result(tags, states[-1], None)
    out = []
    for name, value in tags.items():
        if "\n" in value or "\r" in value:
            raise ManhattanError(f"tag {name}: a tag value cannot hold a line break")
        out.append(f'[{name} "{escape_tag_value(value)}"]')
    out.append("")
    line: list[str] = []
    current_round = None
    for recorded, before in zip(record.moves, states, strict=False):
        if before.round != current_round:
            if line:
                out.append(" ".join(line))
            current_round = before.round
            line = [f"R{current_round}"]
        move = recorded.move
        if isinstance(move, Selection):
            move = Selection(tuple(tuple(sorted(part)) for part in move.blocks))
        line.append(f"{move}{recorded.mark or ''}")
        if recorded.drawn is not None:
            line.append(f"+{recorded.drawn or '?'}")
        if recorded.comment is not None:
            if "}" in recorded.comment:
                raise ManhattanError(f"comment {recorded.comment!r}: a comment cannot hold '}}'")
            line.append("{" + " ".join(recorded.comment.split()) + "}")
    if line:
        out.append(" ".join(line))
    return "\n".join(out) + "\n"


def read_text_file(path: str | Path) -> str:
    """The text of ``path`` (a UTF-8 regular file, ``positions.files.read_input_file``).
    Raises ``ManhattanError`` naming the file."""
    try:
        return read_input_file(path)
    except FileNotFoundError:
        raise ManhattanError(f"{path}: file not found") from None
    except OSError as error:
        raise ManhattanError(f"{path}: cannot read: {error.strerror or error}") from None


def name_file(error: ManhattanError, path: str | Path) -> ManhattanError:
    """``error`` with the file name in front of its message (line and column kept)."""
    error.args = (f"{path}: {error.args[0] if error.args else error}",)
    return error


def load_record(path: str | Path) -> GameRecord:
    """Read and replay the game record in file ``path``.  Raises ``ManhattanError`` whose
    message starts with the file name (``NotationError`` keeps its line and column)."""
    text = read_text_file(path)
    try:
        return read_record(text)
    except ManhattanError as error:
        raise name_file(error, path) from None
