"""The train page's sessions: a run through the exercises folder given to ``manhattan
serve --exercises DIR`` (``analyzer.training``), one session per page, judged answer by
answer as the terminal's ``train`` judges them.  Runs on the worker thread."""

from __future__ import annotations

import secrets
from collections import OrderedDict
from pathlib import Path
from typing import Any

from analyzer.table_answers import selection_choices
from analyzer.training import TrainingSession, load_exercises
from positions.errors import ManhattanError
from positions.exercise import Exercise
from positions.notation import write_position
from render.svg import Highlight, board_svg
from web.errors import ApiError, not_found

MAX_SESSIONS = 16


class TrainStore:
    """Training sessions by id over the exercises of ``folder`` (None: no train page)."""

    def __init__(self, folder: Path | None):
        self.folder = folder
        self._sessions: OrderedDict[str, TrainingSession] = OrderedDict()

    def create(self) -> tuple[str, TrainingSession]:
        """A new session over the folder's exercises as they are now.  Raises
        ``ApiError`` when the server has no exercises folder or it holds none."""
        if self.folder is None:
            raise not_found("this server has no exercises: start it with --exercises DIR")
        try:
            session = TrainingSession(load_exercises(self.folder))
        except ManhattanError as error:
            raise ApiError(str(error), None, 409) from None
        session_id = secrets.token_urlsafe(9)
        self._sessions[session_id] = session
        while len(self._sessions) > MAX_SESSIONS:
            self._sessions.popitem(last=False)
        return session_id, session

    def get(self, session_id: str) -> TrainingSession:
        """The session ``session_id``.  Raises ``ApiError`` 404."""
        session = self._sessions.get(session_id)
        if session is None:
            raise not_found(f"no training session {session_id!r}: start one with POST /api/train")
        self._sessions.move_to_end(session_id)
        return session


def _board(exercise: Exercise, mark: str | None) -> str:
    """The exercise's board from its player's seat, ``mark`` drawn as the engine's move."""
    marks = [Highlight(mark, "engine", exercise.player, caption="better move")] if mark else []
    players = exercise.state.players
    names = ["you" if p == exercise.player else None for p in range(1, players + 1)]
    return board_svg(exercise.state, exercise.player, marks, names=names, standalone=False)


def session_json(session_id: str, session: TrainingSession, reveal: str | None = None) -> dict:
    """The session as the page shows it: the summary and, unless finished, the current
    exercise (question, board from the player's seat, legal moves, selection choices).
    ``reveal`` is a move to mark on the board (the better move just shown)."""
    data: dict[str, Any] = {
        "id": session_id,
        "finished": session.finished,
        "summary": session.summary.to_json() | {"line": session.summary.line},
        "total": len(session.exercises),
        "number": min(session.position + 1, len(session.exercises)),
        "exercise": None,
    }
    if session.finished:
        return data
    exercise = session.current
    state = exercise.state
    data["exercise"] = {
        "name": session.current_name,
        "title": exercise.title,
        "question": session.question(),
        "player": exercise.player,
        "played": str(exercise.played),
        "mark": exercise.mark,
        "position": write_position(state),
        "svg": _board(exercise, reveal),
        "legal": [str(m) for m in state.legal_moves()],
        "choices": [{"color": c, "groups": g} for c, g in selection_choices(state)],
        "players": state.players,
    }
    return data


def answer_json(session_id: str, session: TrainingSession, text: str) -> dict[str, Any]:
    """Judge ``text`` (a move, ``hint``, ``skip``) and return ``{"feedback", "shown",
    "session"}``: the feedback's kind, lines and whether the exercise is done, the
    exercise just finished (its board with the better move marked) and the session now.
    Raises ``ApiError`` once the session is over or for ``quit`` (the page has no use
    for it)."""
    if session.finished:
        raise ApiError("the training session is over: start a new one", None, 409)
    if text.strip().lower() == "quit":
        raise ApiError("quit is for the terminal: leave the page or start again", "answer")
    exercise = session.current
    question = session.question()
    feedback = session.answer(text)
    shown = None
    if feedback.done:
        best = str(exercise.best)
        shown = {
            "name": session.exercises[session.position - 1][0],
            "question": question,
            "best": best,
            "svg": _board(exercise, best),
        }
    return {
        "feedback": {"kind": feedback.kind, "lines": list(feedback.lines), "done": feedback.done},
        "shown": shown,
        "session": session_json(session_id, session),
    }
