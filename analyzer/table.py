"""A game at the table: people and bots in any mix, with hints, take-backs and a coach.

This is the one place the rules of a human game live; the terminal (``manhattan play
--seat K``) and the browser drive it the same way, with plain data in and out:

* ``Table(seats, seed=...)`` deals the world from the seed as ``play_game`` does (or
  starts from a position or a record: ``Table.from_position`` / ``Table.from_record``).
  ``seats`` holds one spec per seat, ``"human"`` for a person, any ``make_bot`` spec for
  a bot.
* ``run_bots()`` plays the bots (each sees only its own view) until a person is to move,
  the game ends, or a take-back offer waits for an answer; ``bot_step()`` plays one.
* ``submit(text)`` plays the person's move, given in notation or as its number in
  ``legal_moves()`` (from 1, canonical order); with the coach on, the answer carries the
  ``Feedback``.  In teaching mode a costly move leaves an ``offer``: ``take_back()`` or
  ``keep()`` answers it, and bots wait until then.
* ``hint()``, ``undo()``, ``record()``, ``save(path)``, ``to_json()``.

Every action returns an ``Answer``: ``ok`` and a one-line ``message`` (what happened, or
why nothing did; bad input changes nothing).  The table keeps the world before every
decision, so ``undo`` restores the position before the person's last own move together
with the bot moves after it (the deck is fixed by the seed, so the same cards come again).
A person's view never shows another hand: ``view``, ``legal_moves``, ``hint`` and
``to_json`` use only what the person to move (or the viewer asked for) can see.  A table
is not thread-safe: a server lets one request at a time act on it.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.coach import Coach, CoachSettings, Feedback, Hint
from analyzer.outputs import check_output_file, write_output
from analyzer.players import DEFAULT_BOT_TIMEOUT, HUMAN_SPEC, check_bot_spec, make_bot
from analyzer.table_answers import read_move, selection_choices
from analyzer.table_world import (
    complete_world,
    deal_tag,
    deal_world,
    seat_generators,
)
from positions.bots import Bot, BotForfeit, RandomBot
from positions.errors import ManhattanError, quote
from positions.loading import describe_position
from positions.moves import Move, Selection
from positions.notation import write_position
from positions.options import RuleOptions
from positions.record import GameRecord, RecordedMove, write_record
from positions.selfplay import play_recorded
from positions.state import GameState

HUMAN = HUMAN_SPEC
RECORD_SUFFIXES = (".mgn",)


@dataclass(frozen=True)
class Answer:
    """What an action at the table did: ``ok`` and a one-line ``message``; the ``move``
    played, the coach's ``feedback`` on it, a ``hint``, or the ``path`` saved to."""

    ok: bool
    message: str
    move: str | None = None
    feedback: Feedback | None = None
    hint: Hint | None = None
    path: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The answer as JSON-ready data."""
        return {
            "ok": self.ok,
            "message": self.message,
            "move": self.move,
            "feedback": None if self.feedback is None else self.feedback.to_json(),
            "hint": None if self.hint is None else self.hint.to_json(),
            "path": self.path,
        }


def _is_player_tag(name: str) -> bool:
    return name.startswith("P") and name[1:].isdigit()


def _refuse(message: str) -> Answer:
    return Answer(False, message)


@dataclass(frozen=True)
class BotMove:
    """A move a bot made: decision ``index`` (from 0), ``player`` (1-based), the move, and
    why it was played at random when the bot forfeited (``forfeit``)."""

    index: int
    player: int
    spec: str
    move: str
    forfeit: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The bot's move as JSON-ready data."""
        return {
            "index": self.index,
            "player": self.player,
            "spec": self.spec,
            "move": self.move,
            "forfeit": self.forfeit,
        }


@dataclass
class _Decision:
    """One decision made at the table: the world before it, and what was recorded."""

    before: GameState
    recorded: RecordedMove
    person: bool
    feedback: Feedback | None = None


def _check_seats(seats: Sequence[str | Bot]) -> list[str]:
    """The spec of each seat (a ``Bot`` object's ``name``), checked: ``human`` or a spec
    ``make_bot`` accepts."""
    specs = [spec.strip() if isinstance(spec, str) else spec.name for spec in seats]
    if len(specs) not in (2, 3, 4):
        raise ManhattanError(f"a table seats 2, 3 or 4 players, not {len(specs)}")
    for seat, spec in zip(seats, specs, strict=True):
        if not spec:
            raise ManhattanError("empty seat spec: name a bot or human")
        if isinstance(seat, str) and spec.lower() != HUMAN:
            check_bot_spec(spec)
    return [HUMAN if spec.lower() == HUMAN else spec for spec in specs]


@dataclass
class _Start:
    """How the table's game began: the world, its tags and where the table's own
    decisions start."""

    world: GameState
    tags: dict[str, str]
    earlier: list[RecordedMove] = field(default_factory=list)
    dealt: bool = False  # dealt from the table's seed (the record gets a Seed tag)


class Table:
    """One game with people and bots (see the module docstring)."""

    def __init__(
        self,
        seats: Sequence[str | Bot],
        *,
        seed: int = 0,
        options: RuleOptions | None = None,
        names: Sequence[str] | None = None,
        coach: bool = False,
        teach: bool = False,
        coach_settings: CoachSettings | None = None,
        bot_timeout: float = DEFAULT_BOT_TIMEOUT,
        start: _Start | None = None,
    ):
        """A table with one spec per seat (``"human"``, a bot spec, or a ``Bot`` object
        that the table then owns and closes), dealt from ``seed`` (or started from
        ``start``, see ``from_position``).  ``coach`` judges each of the people's moves;
        ``teach`` (implies ``coach``) offers to take back a costly one.  Raises
        ``ManhattanError`` for a bad spec, name or setting."""
        self.seats = _check_seats(seats)
        players = len(self.seats)
        if names is not None and len(names) != players:
            raise ManhattanError(f"a {players}-player table needs {players} names")
        self.names = list(names) if names is not None else list(self.seats)
        self.seed = seed
        self.teach = teach
        self.coaching = coach or teach
        self.coach = Coach(coach_settings)
        if start is None:
            world = deal_world(players, seed, options)
            tags = {"Deal": deal_tag(world)}
            if world.options.non_default():
                tags["Options"] = " ".join(world.options.non_default())
            start = _Start(world, tags, dealt=True)
        if start.world.players != players:
            raise ManhattanError(
                f"the position has {start.world.players} players but {players} seats are given"
            )
        self._start = start
        self.world = start.world.clone()
        self._decisions: list[_Decision] = []
        self._rngs = seat_generators(players, seed)
        self._bots: dict[int, Bot] = {}
        self._forfeits: dict[int, str] = {}
        self._forfeit_noted: dict[int, int] = {}  # seat -> decision whose comment says so
        self._written: set[Path] = set()
        self.offer: Feedback | None = None
        self.bot_timeout = bot_timeout
        try:
            for seat, (given, spec) in enumerate(zip(seats, self.seats, strict=True)):
                if not isinstance(given, str):
                    self._bots[seat] = given
                elif spec != HUMAN:
                    self._bots[seat] = make_bot(spec, bot_timeout)
        except BaseException:
            self.close()
            raise

    # ----- other starts ----------------------------------------------------------------

    @classmethod
    def from_position(cls, state: GameState, seats: Sequence[str | Bot], **kwargs: Any) -> Table:
        """A table playing on from ``state``: the cards it does not show are dealt from
        ``seed`` (a keyword argument, default 0).  The record starts from a ``Setup`` of
        the dealt position.  Raises ``ManhattanError`` for a finished game or a mover
        in the middle of a selection."""
        if state.move_in_progress():
            raise ManhattanError("the mover is in the middle of a selection")
        rng = np.random.default_rng(np.random.SeedSequence(kwargs.get("seed", 0)).spawn(2)[1])
        world = complete_world(state, rng)
        return cls(seats, start=_Start(world, {"Setup": write_position(world)}), **kwargs)

    @classmethod
    def from_record(cls, record: GameRecord, seats: Sequence[str | Bot], **kwargs: Any) -> Table:
        """A table playing on from the end of ``record`` (its moves are kept in the new
        record and cannot be taken back).  Raises ``ManhattanError`` for a record that
        does not replay or a finished game."""
        final = record.final_state()
        rng = np.random.default_rng(np.random.SeedSequence(kwargs.get("seed", 0)).spawn(2)[1])
        world = complete_world(final, rng)
        tags = {k: v for k, v in record.tags.items() if k not in ("Result", "Seed")}
        return cls(seats, start=_Start(world, tags, list(record.moves)), **kwargs)

    def close(self) -> None:
        """Close every bot (external programs end).  Harmless twice."""
        for bot in self._bots.values():
            bot.close()

    # ----- who is where -----------------------------------------------------------------

    @property
    def players(self) -> int:
        """The number of players."""
        return len(self.seats)

    def is_person(self, seat: int) -> bool:
        """Whether 0-based ``seat`` is played by a person."""
        return self.seats[seat] == HUMAN

    @property
    def people(self) -> list[int]:
        """The 0-based seats played by people."""
        return [s for s in range(self.players) if self.is_person(s)]

    @property
    def is_over(self) -> bool:
        """Whether the last round has been scored."""
        return self.world.is_terminal()

    @property
    def to_move(self) -> int | None:
        """The 0-based seat to move, ``None`` when the game is over."""
        return None if self.is_over else self.world.current_player()

    @property
    def person_to_move(self) -> int | None:
        """The 0-based seat of the person to move now, else ``None`` (a bot's turn or
        the game over).  A take-back offer waits for the person who made the move; when
        another person is to move, their move declines it."""
        seat = self.to_move
        if seat is None or not self.is_person(seat):
            return None
        return seat

    @property
    def decisions(self) -> int:
        """Decisions made at this table (earlier moves of a record not counted)."""
        return len(self._decisions)

    def viewer(self) -> int:
        """The seat whose view the table shows: the person to move, else the person who
        moved last, else the first person, else P1."""
        seat = self.to_move
        if seat is not None and self.is_person(seat):
            return seat
        for decision in reversed(self._decisions):
            if decision.person:
                return decision.before.current_player()
        return self.people[0] if self.people else 0

    def view(self, seat: int | None = None) -> GameState:
        """The position as ``seat`` (default: ``viewer()``) sees it: other hands hidden."""
        return self.world.view(self.viewer() if seat is None else seat)

    def legal_moves(self) -> list[Move]:
        """The legal moves of the person to move, canonical order (empty otherwise)."""
        seat = self.person_to_move
        return [] if seat is None else self.world.view(seat).legal_moves()

    # ----- people's moves -----------------------------------------------------------------

    def submit(self, text: str) -> Answer:
        """Play the person's move named by ``text`` (notation, or its number from 1 in
        ``legal_moves()``).  With the coach on, the answer carries the ``Feedback`` (and
        in teaching mode a costly move leaves ``offer`` set).  A stop request during the
        coach's search leaves the move played without feedback."""
        seat = self.person_to_move
        if seat is None:
            return _refuse(self._why_no_person_move())
        view = self.world.view(seat)
        read = read_move(view, view.legal_moves(), text)
        if read.move is None:
            return _refuse(str(read.reason))
        self.offer = None  # another person at the table plays on: the offer is declined
        before = self.world.clone()
        recorded = play_recorded(self.world, read.move)
        decision = _Decision(before, recorded, person=True)
        self._decisions.append(decision)
        index = len(self._decisions) - 1
        message = f"P{seat + 1} plays {recorded.move}"
        if self.coaching:
            feedback = self.coach.feedback(before, read.move, self._record_index(index))
            if feedback is not None:
                decision.feedback = feedback
                recorded.mark = feedback.mark
                recorded.comment = feedback.comment
                if self.teach and feedback.takeback:
                    self.offer = feedback
        return Answer(True, message, move=str(recorded.move), feedback=decision.feedback)

    def _why_no_person_move(self) -> str:
        if self.is_over:
            return "the game is over"
        if self.offer is not None:
            return f"first answer the offer to take {self.offer.played} back (take back or keep)"
        seat = self.world.current_player()
        return f"it is P{seat + 1}'s turn ({self.seats[seat]})"

    def keep(self) -> Answer:
        """Decline the take-back offer: the move stands and the game goes on."""
        if self.offer is None:
            return _refuse("there is no take-back offer to answer")
        played = self.offer.played
        self.offer = None
        return Answer(True, f"{played} stands")

    def take_back(self) -> Answer:
        """Accept the take-back offer: the move is undone (as ``undo``)."""
        if self.offer is None:
            return _refuse("there is no take-back offer to answer")
        seat = self.offer.player - 1
        self.offer = None
        return self.undo(seat)

    # ----- bots -------------------------------------------------------------------------

    def bot_step(self) -> BotMove | None:
        """Play one bot move if a bot is to move (and no take-back offer waits); else
        ``None``.  A bot that fails (illegal answer, a program that died) forfeits: its
        moves are played at random from then on, and the record says so."""
        seat = self.to_move
        if seat is None or self.is_person(seat) or self.offer is not None:
            return None
        move, reason = None, None
        if seat not in self._forfeits:
            try:
                move = self._bot_move(seat)
            except BotForfeit as forfeit:
                self._forfeits[seat] = reason = forfeit.reason
                self._bots[seat].close()
        if move is None:
            move = RandomBot().choose(self.world.view(seat), self._rngs[self.players])
        comment = None
        if seat in self._forfeits and seat not in self._forfeit_noted:
            self._forfeit_noted[seat] = len(self._decisions)
            text = (
                f"P{seat + 1} ({self.names[seat]}) forfeits: {self._forfeits[seat]}; "
                "its moves are played at random from here"
            )
            comment = " ".join(text.replace("{", "(").replace("}", ")").split())
        before = self.world.clone()
        recorded = play_recorded(self.world, move, comment)
        self._decisions.append(_Decision(before, recorded, person=False))
        return BotMove(
            len(self._decisions) - 1, seat + 1, self.seats[seat], str(recorded.move), reason
        )

    def _bot_move(self, seat: int) -> Move:
        move = self._bots[seat].choose(self.world.view(seat), self._rngs[seat])
        if isinstance(move, Selection):
            move = Selection(tuple(tuple(sorted(part)) for part in move.blocks))
        if not self.world.is_legal(move):
            raise BotForfeit(f"illegal move {quote(str(move))}")
        return move

    def run_bots(
        self,
        should_stop: Callable[[], bool] | None = None,
        on_move: Callable[[BotMove], None] | None = None,
    ) -> list[BotMove]:
        """Play bot moves until a person is to move, the game ends, a take-back offer
        waits, or ``should_stop()`` says so (asked before each move).  ``on_move`` is
        told of each move as it is made."""
        made = []
        while should_stop is None or not should_stop():
            step = self.bot_step()
            if step is None:
                break
            made.append(step)
            if on_move is not None:
                on_move(step)
        return made

    # ----- hints and take-backs -----------------------------------------------------------

    def hint(self) -> Answer:
        """The engine's move and why, for the person to move, from their own view."""
        seat = self.person_to_move
        if seat is None:
            return _refuse(self._why_no_person_move())
        view = self.world.view(seat)
        hint = self.coach.hint(view, view.legal_moves(), self._record_index(self.decisions))
        if hint is None:
            return _refuse("the hint's search was stopped")
        return Answer(True, hint.text, move=hint.move, hint=hint)

    def undo(self, seat: int | None = None) -> Answer:
        """Take back the last move of the person at 0-based ``seat`` (default: the person
        to move, else the person who moved last) and every move after it; that person is
        to move again.  Moves made before the table started cannot be taken back."""
        if seat is None:
            seat = self.to_move
            if seat is None or not self.is_person(seat):
                seat = next(
                    (d.before.current_player() for d in reversed(self._decisions) if d.person),
                    None,
                )
        if seat is None or not self.is_person(seat):
            return _refuse("nothing to take back: no person has moved yet")
        mine = [
            i
            for i, d in enumerate(self._decisions)
            if d.person and d.before.current_player() == seat
        ]
        if not mine:
            return _refuse(f"nothing to take back: P{seat + 1} has not moved yet")
        index = mine[-1]
        taken = self._decisions[index:]
        self.world = taken[0].before.clone()
        del self._decisions[index:]
        self.offer = None
        self._forfeit_noted = {s: i for s, i in self._forfeit_noted.items() if i < index}
        others = len(taken) - 1
        tail = f" and {others} move{'s' if others != 1 else ''} after it" if others else ""
        return Answer(True, f"took back {taken[0].recorded.move}{tail}: P{seat + 1} to move")

    # ----- the record ---------------------------------------------------------------------

    def _record_index(self, index: int) -> int:
        """The decision's index in the record (earlier moves of a record counted)."""
        return len(self._start.earlier) + index

    def record(self) -> GameRecord:
        """The game so far as a record that replays: the deal (or setup), every move with
        the card drawn, the coach's marks and comments, and the ``Result`` once the game
        is over."""
        tags = {"Game": "Manhattan", "Players": str(self.players)}
        tags.update({f"P{p + 1}": self.names[p] for p in range(self.players)})
        tags["Date"] = datetime.date.today().isoformat()
        for name, value in self._start.tags.items():
            if name not in tags and not _is_player_tag(name):
                tags[name] = value
        if self.is_over:
            tags["Result"] = " ".join(map(str, self.world.player_totals()))
        if self._start.dealt:
            tags["Seed"] = str(self.seed)
        moves = list(self._start.earlier) + [d.recorded for d in self._decisions]
        return GameRecord(self.players, tags, moves)

    def record_text(self) -> str:
        """The record in ``.mgn`` notation."""
        return write_record(self.record())

    def save(self, path: str | Path, force: bool = False) -> Answer:
        """Write the record to ``path`` (``.mgn``).  A file that exists is replaced only
        when this table wrote it or ``force``; the file is written whole or not at all."""
        target = Path(path)
        try:
            mine = target.exists() and target.resolve() in self._written
            check_output_file(target, force or mine, RECORD_SUFFIXES, str(target))
            write_output(target, self.record_text())
        except ManhattanError as error:
            return _refuse(
                str(error).replace("pass --force to overwrite it", "choose another name")
            )
        self._written.add(target.resolve())
        return Answer(True, f"record saved to {target}", path=str(target))

    # ----- as data ------------------------------------------------------------------------

    def feedback_list(self) -> list[Feedback]:
        """The coach's feedback on every person's move still in the game, in order."""
        return [d.feedback for d in self._decisions if d.feedback is not None]

    @property
    def last_feedback(self) -> Feedback | None:
        """The feedback on the last person's move, if the coach gave one."""
        for decision in reversed(self._decisions):
            if decision.person:
                return decision.feedback
        return None

    def history(self) -> list[dict[str, Any]]:
        """Per decision at the table, for a move list and the win-% graph: index (in the
        record, from 0), player, move, whether a person made it, and for people's moves
        the coach's win chance after it (``win``), the engine's (``best_win``), the loss
        and the mark."""
        out = []
        for i, decision in enumerate(self._decisions):
            feedback = decision.feedback
            out.append(
                {
                    "index": self._record_index(i),
                    "player": decision.before.current_player() + 1,
                    "round": decision.before.round,
                    "move": str(decision.recorded.move),
                    "person": decision.person,
                    "win": None if feedback is None else round(feedback.win_after, 4),
                    "best_win": None if feedback is None else round(feedback.win_before, 4),
                    "loss": None if feedback is None else round(feedback.loss, 2),
                    "mark": decision.recorded.mark,
                }
            )
        return out

    def to_json(self, seat: int | None = None) -> dict[str, Any]:
        """The table as JSON-ready data, as ``seat`` (default ``viewer()``) may see it:
        the seats, whose turn it is, the position and board from that view, the legal
        moves and selection choices when that person is to move, the last feedback, a
        waiting take-back offer, the move history with the win-% figures, and the final
        totals when the game is over."""
        viewer = self.viewer() if seat is None else seat
        view = self.world.view(viewer)
        to_move = self.to_move
        mine = self.person_to_move == viewer
        layout = self.world.layout
        return {
            "players": self.players,
            "seats": [
                {
                    "player": p + 1,
                    "seat": layout.player_seats[p],
                    "colors": [chr(ord("a") + c) for c in layout.player_colors[p]],
                    "kind": "human" if self.is_person(p) else "bot",
                    "spec": self.seats[p],
                    "name": self.names[p],
                    "forfeit": self._forfeits.get(p),
                }
                for p in range(self.players)
            ],
            "viewer": viewer + 1,
            "to_move": None if to_move is None else to_move + 1,
            "your_turn": mine,
            "over": self.is_over,
            "position": write_position(view),
            "state": describe_position(view),
            "legal": [str(m) for m in view.legal_moves()] if mine else [],
            "choices": [
                {"color": letter, "groups": groups}
                for letter, groups in (selection_choices(view) if mine else [])
            ],
            "coach": self.coaching,
            "teach": self.teach,
            "feedback": None if self.last_feedback is None else self.last_feedback.to_json(),
            "offer": None if self.offer is None else self.offer.to_json(),
            "can_undo": any(d.person for d in self._decisions),
            "history": self.history(),
            "totals": self.world.player_totals(),
            "places": self.world.places() if self.is_over else None,
            "decisions": self._record_index(self.decisions),
        }


def new_record_path() -> Path:
    """A record file name in the current folder that does not exist yet:
    ``manhattan-<date>.mgn``, else ``manhattan-<date>-2.mgn``, …"""
    stem = f"manhattan-{datetime.date.today().isoformat()}"
    path, number = Path(f"{stem}.mgn"), 1
    while path.exists():
        number += 1
        path = Path(f"{stem}-{number}.mgn")
    return path
