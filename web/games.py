"""The games the server holds: a ``Table`` each (``analyzer.table``), made from a page's
request and shown as JSON with its pictures.

Everything here runs on the worker thread (``web.worker``): a table is never touched by
two requests at once.  A game starts from a new deal, a bundled position (an example or
a puzzle), a pasted position string or an uploaded record.  Bots are the built-in kinds
only: a ``cmd:`` spec would let any page start a program, so it is refused.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from analyzer.coach import CoachSettings
from analyzer.play import fresh_seed
from analyzer.players import bot_specs, check_bot_spec
from analyzer.table import HUMAN, BotMove, Table
from positions.bundled import bundled_files, data_dir
from positions.errors import ManhattanError
from positions.loading import load_position
from positions.notation import parse_position, write_position
from positions.puzzle import load_puzzle
from positions.record import read_record
from positions.state import GameState
from search import stopping
from web.errors import ApiError, Fields, not_found
from web.pictures import game_board, marked_board, player_names, win_graph

MAX_GAMES = 16  # games kept; the least recently used goes first
BUNDLED_KINDS = ("examples", "puzzles")
REFUSED_BOTS = ("cmd",)
DEFAULT_BOT = "greedy"
CREATE_FIELDS = {
    "players",
    "seed",
    "seat",
    "bots",
    "coach",
    "teach",
    "teach_threshold",
    "bundled",
    "position",
    "record",
}


@dataclass
class Game:
    """One game: its id, its table and what the page is shown beside the table's own
    data (the last hint, the bots' moves of the last action)."""

    id: str
    table: Table
    hint: dict[str, Any] | None = None
    bots: list[BotMove] = field(default_factory=list)


def bundled_positions() -> list[dict[str, Any]]:
    """The bundled examples and puzzles a game can start from: ``name``
    (``examples/last_round_2p.txt``), ``kind`` and ``players``."""
    out = []
    for kind in BUNDLED_KINDS:
        for path in bundled_files(kind):
            try:
                players = bundled_state(f"{kind}/{path.name}").players
            except ManhattanError:
                continue
            out.append({"name": f"{kind}/{path.name}", "kind": kind, "players": players})
    return out


def bundled_state(name: str) -> GameState:
    """The position of the bundled file ``name`` (``kind/file``).  Raises ``ApiError``
    for a name that is not one of them."""
    kind, _, file_name = name.partition("/")
    names = [p.name for p in bundled_files(kind)] if kind in BUNDLED_KINDS else []
    if file_name not in names:
        raise ApiError(f"no bundled position {name!r}: see /api/bundled", "bundled")
    path = data_dir(kind) / file_name
    if path.suffix == ".mpz":
        return load_puzzle(path).state
    return load_position(str(path))


def _seats(players: int, seat: int, bots: list[str] | None) -> list[str]:
    """One spec per seat: a person at 1-based ``seat``, the other seats from ``bots``
    (in seat order, or one spec for all)."""
    if not 1 <= seat <= players:
        raise ApiError(f"seat {seat}: a {players}-player game has seats 1-{players}", "seat")
    given = bots or [DEFAULT_BOT]
    if len(given) not in (1, players - 1):
        raise ApiError(
            f"bots names the {players - 1} other seats in seat order (or one spec for all), "
            f"not {len(given)}",
            "bots",
        )
    for spec in given:
        if spec.strip().partition(":")[0].lower() in REFUSED_BOTS:
            raise ApiError(f"bot {spec!r}: the server plays built-in bots only", "bots")
    try:
        others = bot_specs(players - 1, ",".join(given))
        for spec in {spec for spec in others if spec.lower() != HUMAN}:
            check_bot_spec(spec)
    except ManhattanError as error:
        raise ApiError(str(error), "bots") from None
    return others[: seat - 1] + [HUMAN] + others[seat - 1 :]


def _start(fields: Fields) -> tuple[str, Any, str | None]:
    """Where the game starts: ``("deal", None, None)``, ``("position", state, field)`` or
    ``("record", record, "record")``, ``field`` naming the request's field."""
    given = [name for name in ("bundled", "position", "record") if fields.has(name)]
    if len(given) > 1:
        raise ApiError(f"give one start, not {' and '.join(given)}", given[1])
    if not given:
        return "deal", None, None
    name = given[0]
    text = fields.text(name) or ""
    try:
        if name == "bundled":
            return "position", bundled_state(text), name
        if name == "position":
            return "position", parse_position(text.strip()), name
        return "record", read_record(text), name
    except ApiError:
        raise
    except ManhattanError as error:
        raise ApiError(f"{name}: {error}", name) from None


class GameStore:
    """The server's games by id."""

    def __init__(self, coach: CoachSettings, bot_timeout: float):
        self.coach = coach
        self.bot_timeout = bot_timeout
        self._games: OrderedDict[str, Game] = OrderedDict()

    def get(self, game_id: str) -> Game:
        """The game ``game_id``.  Raises ``ApiError`` 404."""
        game = self._games.get(game_id)
        if game is None:
            raise not_found(f"no game {game_id!r}: start one with POST /api/games")
        self._games.move_to_end(game_id)
        return game

    def create(self, fields: Fields) -> Game:
        """A new game from the request's fields (see ``CREATE_FIELDS``), its bots played
        until the person is to move.  Raises ``ApiError``."""
        kind, start, where = _start(fields)
        seed = fields.integer("seed", 0, 2**63 - 1)
        seed = fresh_seed() if seed is None else seed
        if kind == "deal":
            players = fields.integer("players", 2, 4, 2)
        else:
            if fields.has("players"):
                raise ApiError("players comes from the position or record", "players")
            players = start.players
        default_seat = 1
        if kind != "deal":
            final = start if kind == "position" else start.final_state()
            if final.is_terminal():
                raise ApiError(f"{where}: the game is over, there is no move to play", where)
            default_seat = final.current_player() + 1
        seat = fields.integer("seat", 1, 4, default_seat)
        seats = _seats(players, seat, fields.texts("bots", 3))
        coach = fields.flag("coach")
        teach = fields.flag("teach")
        threshold = fields.number("teach_threshold", 0.1, 100.0, self.coach.teach_threshold)
        fields.done()
        settings = CoachSettings(
            seconds=self.coach.seconds,
            iterations=self.coach.iterations,
            workers=self.coach.workers,
            seed=self.coach.seed,
            teach_threshold=threshold,
        )
        options = {
            "seed": seed,
            "coach": coach,
            "teach": teach,
            "coach_settings": settings,
            "bot_timeout": self.bot_timeout,
        }
        try:
            if kind == "deal":
                table = Table(seats, **options)
            elif kind == "position":
                table = Table.from_position(start, seats, **options)
            else:
                table = Table.from_record(start, seats, **options)
        except ManhattanError as error:
            raise ApiError(str(error)) from None
        game = Game(secrets.token_urlsafe(9), table)
        self._games[game.id] = game
        while len(self._games) > MAX_GAMES:
            _, old = self._games.popitem(last=False)
            old.table.close()
        play_bots(game)
        return game

    def close(self) -> None:
        """Close every game's bots."""
        for game in self._games.values():
            game.table.close()
        self._games.clear()


# ----- actions (worker thread) ------------------------------------------------------------


def play_bots(game: Game) -> None:
    """The bots' moves until a person is to move (or an offer waits, or a stop)."""
    game.bots = game.table.run_bots(should_stop=stopping.requested)


def act(game: Game, action: str, move: str | None = None) -> dict[str, Any]:
    """Do ``action`` (``move``, ``hint``, ``undo``, ``take_back`` or ``keep``) at the
    table and return ``{"answer", "bots", "game"}``.  Raises ``ApiError``: 400 for a move
    that is not legal (field ``move``), 409 when the action does not fit the game now."""
    table = game.table
    if action == "move":
        if table.person_to_move is None:
            raise ApiError(_why_not(table), None, 409)
        answer = table.submit(move or "")
        if not answer.ok:
            raise ApiError(answer.message, "move")
    elif action == "hint":
        answer = table.hint()
        if not answer.ok:
            raise ApiError(answer.message, None, 409)
    else:
        do = {"undo": table.undo, "take_back": table.take_back, "keep": table.keep}[action]
        answer = do()
        if not answer.ok:
            raise ApiError(answer.message, None, 409)
    game.bots = []
    if action == "hint":
        game.hint = None if answer.hint is None else answer.hint.to_json()
    else:
        game.hint = None
        play_bots(game)
    return {"answer": answer.to_json(), "game": game_json(game)}


def _why_not(table: Table) -> str:
    if table.is_over:
        return "the game is over"
    if table.offer is not None:
        return f"first answer the offer to take {table.offer.played} back (take back or keep)"
    seat = table.to_move
    return f"it is P{seat + 1}'s turn ({table.seats[seat]})" if seat is not None else "wait"


def move_list(table: Table) -> list[dict[str, Any]]:
    """Every move of the game's record (a record's earlier moves too), for the move list:
    ``index`` (from 0), ``player``, ``round``, ``move``, ``mark``, and whether a person
    made it at this table (``person``)."""
    record = table.record()
    states = record.states()
    people = {h["index"] for h in table.history() if h["person"]}
    return [
        {
            "index": index,
            "player": states[index].current_player() + 1,
            "round": states[index].round,
            "move": str(recorded.move),
            "mark": recorded.mark,
            "person": index in people,
        }
        for index, recorded in enumerate(record.moves)
    ]


def game_json(game: Game) -> dict[str, Any]:
    """The game as the page shows it: the table's ``to_json()`` (the viewer's view only)
    with the board picture, the win-% graph, the last hint, the bots' last moves, every
    move of the record (``moves``), the number of decisions (``frames`` - 1) and the
    record's file name."""
    table = game.table
    data = table.to_json()
    moves = move_list(table)
    data.update(
        {
            "moves": moves,
            "id": game.id,
            "svg": game_board(table, None if game.hint is None else game.hint["move"]),
            "graph": win_graph(table, moves),
            "hint": game.hint,
            "bots": [b.to_json() for b in game.bots],
            "frames": data["decisions"] + 1,
            "record_name": f"manhattan-{game.id[:6]}.mgn",
        }
    )
    return data


def frame_json(game: Game, frame: int | None, marks: list[str]) -> dict[str, Any]:
    """The board after ``frame`` decisions of the game (default: now) from the viewer's
    seat, the move that led there marked, and ``marks`` (moves of the player to move,
    best first): ``frame``, ``frames``, ``svg``, ``played`` (player and move), the
    viewer's ``position`` there, ``to_move`` and ``over``.  Raises ``ApiError``."""
    table = game.table
    record = table.record()
    states = record.states()
    last = len(states) - 1
    if frame is None:
        frame = last
    if not 0 <= frame <= last:
        raise ApiError(f"frame {frame}: the game has frames 0-{last}", "frame")
    state = states[frame]
    viewer = table.viewer()
    played = None
    if frame > 0:
        mover = states[frame - 1].current_player()
        played = (mover + 1, str(record.moves[frame - 1].move))
    try:
        svg = marked_board(state, viewer, player_names(table), played, marks)
    except ManhattanError as error:
        raise ApiError(f"mark: {error}", "mark") from None
    view = state.view(viewer)
    return {
        "frame": frame,
        "frames": last + 1,
        "svg": svg,
        "played": None if played is None else {"player": played[0], "move": played[1]},
        "position": write_position(view),
        "to_move": None if view.is_terminal() else view.current_player() + 1,
        "over": view.is_terminal(),
    }
