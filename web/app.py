"""The Starlette app of ``manhattan serve``: the page and the JSON API.

=====================================  ==================================================
``GET /``, ``GET /train``              the page (play, and train with ``--exercises``)
``GET /api/info``                      version, bundled positions, bots, budgets
``POST /api/games``                    a new game (JSON, or a form with a record file)
``GET /api/games/{id}``                the game from the person's seat
``POST /api/games/{id}/move``          ``{"move": "7@3:4"}`` (notation or number)
``POST /api/games/{id}/hint``          the engine's move and why
``POST /api/games/{id}/undo``          take back the person's last move
``POST /api/games/{id}/take_back``     accept the coach's offer; ``.../keep`` declines it
``GET /api/games/{id}/board``          the board after ``?frame=K`` decisions, ``&mark=``
``GET /api/games/{id}/record``         the record (``.mgn``) to save
``POST /api/engine``                   the engine mode's protocol (``web.api_engine``)
``POST /api/train``                    a training session; ``GET /api/train/{id}``
``POST /api/train/{id}/answer``        ``{"answer": "7@5:1"}`` (or hint, skip)
=====================================  ==================================================

Every bad request is answered ``{"error": "<one line>", "field": <the field or null>}``
with a 4xx status (the engine endpoint answers with the engine's own error shape, which
adds the request's ``id``), and the server goes on; an unexpected failure is a 500 in the
same shape.  Requests must name this server as their ``Host`` (127.0.0.1 or localhost: no
DNS rebinding) and may not come from another site's page (``Origin``).  Game actions and
searches run one at a time on the worker thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from analyzer.coach import CoachSettings
from analyzer.engine_queries import Query, RequestError, Terminate
from positions.errors import ManhattanError
from web.api_engine import MAX_REQUEST, EngineChannel
from web.errors import ApiError, Fields
from web.games import CREATE_FIELDS, GameStore, act, bundled_positions, frame_json, game_json
from web.page import CSP_HEADER, page_html
from web.training import TrainStore, answer_json, session_json
from web.worker import Worker

MAX_BODY = MAX_REQUEST
CLOSE_SECONDS = 1.0  # at shutdown, for the games' bots to close
LOCAL_HOSTS = ("127.0.0.1", "localhost")
BOT_CHOICES = (
    "random",
    "greedy",
    "heuristic",
    "level:1",
    "level:2",
    "level:3",
    "level:4",
    "level:5",
    "mcts:1s",
    "human",
)
ACTIONS = ("hint", "undo", "take_back", "keep")


@dataclass(frozen=True)
class ServeSettings:
    """What the server is set up with: the coach's budget (hints and feedback),
    ``workers`` searchers at most per search, a bot's ``bot_timeout``, the exercises
    folder of the train page and the version it reports."""

    coach: CoachSettings
    workers: int = 1
    bot_timeout: float = 30.0
    exercises: Path | None = None
    version: str = "0"


# ----- requests ---------------------------------------------------------------------------


async def _body(request: Request) -> bytes:
    size = int(request.headers.get("content-length") or 0)
    if size > MAX_BODY:
        raise ApiError(f"the request body is larger than {MAX_BODY} bytes", None, 413)
    body = await request.body()
    if len(body) > MAX_BODY:
        raise ApiError(f"the request body is larger than {MAX_BODY} bytes", None, 413)
    return body


async def _json(request: Request, empty_ok: bool = False) -> Any:
    """The request's JSON body (``{}`` for an empty one when ``empty_ok``)."""
    body = await _body(request)
    if not body.strip() and empty_ok:
        return {}
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise ApiError("send the body as JSON (Content-Type: application/json)", None, 415)
    try:
        return json.loads(body)
    except (ValueError, RecursionError) as error:
        raise ApiError(f"the body is not JSON: {error}") from None


async def _create_fields(request: Request) -> Fields:
    """A new game's fields: a JSON object, or a form with the record file (``record``)
    and the other fields as JSON (``options``)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "multipart/form-data":
        return Fields(await _json(request), CREATE_FIELDS)
    if int(request.headers.get("content-length") or 0) > MAX_BODY:
        raise ApiError(f"the request body is larger than {MAX_BODY} bytes", None, 413)
    async with request.form(max_files=1, max_fields=4) as form:
        upload = form.get("record")
        if not isinstance(upload, UploadFile):
            raise ApiError("the form needs the record file as 'record'", "record")
        raw = await upload.read(MAX_BODY + 1)
        options = form.get("options") or "{}"
    if len(raw) > MAX_BODY:
        raise ApiError(f"the record is larger than {MAX_BODY} bytes", "record", 413)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ApiError("the record is not UTF-8 text", "record") from None
    try:
        data = json.loads(options if isinstance(options, str) else "{}")
    except ValueError as error:
        raise ApiError(f"options is not JSON: {error}", "options") from None
    if not isinstance(data, dict):
        raise ApiError("options must be a JSON object", "options")
    if "record" in data:
        raise ApiError("the record comes as the file, not in options", "record")
    return Fields(data | {"record": text}, CREATE_FIELDS)


def _frame(request: Request) -> int | None:
    text = request.query_params.get("frame")
    if text is None or text == "":
        return None
    if not text.isdigit() or len(text) > 6:
        raise ApiError(f"frame must be a decision count, not {text[:20]!r}", "frame")
    return int(text)


def _marks(request: Request) -> list[str]:
    text = request.query_params.get("mark", "")
    marks = [m.strip() for m in text.split(",") if m.strip()]
    if len(marks) > 8:
        raise ApiError("mark at most 8 moves", "mark")
    return marks


# ----- the app -------------------------------------------------------------------------------


class _Guard:
    """Refuse a request whose ``Host`` is not this machine's loopback name (DNS
    rebinding) or whose ``Origin`` is another site (a page elsewhere posting here)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
            host = headers.get("host", "")
            name = host.rsplit(":", 1)[0] if not host.startswith("[") else host
            origin = headers.get("origin")
            problem = None
            if name not in LOCAL_HOSTS:
                problem = f"this server answers only as 127.0.0.1 or localhost, not {host!r}"
            elif origin not in (None, "null") and origin.split("://", 1)[-1] != host:
                problem = f"requests from another site ({origin}) are refused"
            if problem is not None:
                response = JSONResponse({"error": problem, "field": None}, status_code=403)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def create_app(settings: ServeSettings) -> Starlette:
    """The app serving ``settings``' games, engine and exercises."""
    worker = Worker()
    games = GameStore(settings.coach, settings.bot_timeout)
    training = TrainStore(settings.exercises)
    engine = EngineChannel(worker, settings.version, settings.workers)

    async def page(request: Request) -> Response:
        mode = "train" if request.url.path == "/train" else "play"
        html = page_html(mode, training.folder is not None)
        return HTMLResponse(html, headers={"Content-Security-Policy": CSP_HEADER})

    async def info(request: Request) -> Response:
        coach = settings.coach
        return JSONResponse(
            {
                "version": settings.version,
                "bundled": await worker.run(bundled_positions),
                "bots": list(BOT_CHOICES),
                "exercises": training.folder is not None,
                "coach": {"seconds": coach.seconds, "iterations": coach.iterations},
                "workers": settings.workers,
            }
        )

    async def new_game(request: Request) -> Response:
        fields = await _create_fields(request)
        game = await worker.run(games.create, fields)
        return JSONResponse(await worker.run(game_json, game), status_code=201)

    async def show_game(request: Request) -> Response:
        game_id = request.path_params["game"]
        return JSONResponse(await worker.run(lambda: game_json(games.get(game_id))))

    async def move(request: Request) -> Response:
        game_id = request.path_params["game"]
        fields = Fields(await _json(request))
        text = fields.text("move", limit=1000)
        fields.done()
        if text is None:
            raise ApiError('give the move: {"move": "7@3:4"} (notation or number)', "move")
        return JSONResponse(await worker.run(lambda: act(games.get(game_id), "move", text)))

    async def action(request: Request) -> Response:
        game_id = request.path_params["game"]
        name = request.path_params["action"]
        if name not in ACTIONS:
            raise ApiError(f"no action {name!r}: expected move, {', '.join(ACTIONS)}", None, 404)
        Fields(await _json(request, empty_ok=True)).done()
        return JSONResponse(await worker.run(lambda: act(games.get(game_id), name)))

    async def board(request: Request) -> Response:
        game_id = request.path_params["game"]
        frame, marks = _frame(request), _marks(request)
        return JSONResponse(await worker.run(lambda: frame_json(games.get(game_id), frame, marks)))

    async def record(request: Request) -> Response:
        game_id = request.path_params["game"]

        def text() -> tuple[str, str]:
            game = games.get(game_id)
            return game.table.record_text(), game_json(game)["record_name"]

        body, name = await worker.run(text)
        return Response(
            body,
            media_type="text/plain; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def engine_request(request: Request) -> Response:
        try:
            body = await _body(request)
            parsed = engine.parse(body.decode("utf-8", errors="replace"))
        except RequestError as error:
            return JSONResponse(error.answer(), status_code=400)
        if isinstance(parsed, Query):
            return StreamingResponse(
                engine.stream(parsed),
                media_type="application/x-ndjson",
                headers={"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"},
            )
        if isinstance(parsed, Terminate):
            return JSONResponse(await engine.terminate(parsed))
        return JSONResponse(engine.version(parsed))

    async def new_training(request: Request) -> Response:
        Fields(await _json(request, empty_ok=True)).done()

        def start() -> dict[str, Any]:
            session_id, session = training.create()
            return session_json(session_id, session)

        return JSONResponse(await worker.run(start), status_code=201)

    async def show_training(request: Request) -> Response:
        session_id = request.path_params["session"]
        return JSONResponse(
            await worker.run(lambda: session_json(session_id, training.get(session_id)))
        )

    async def train_answer(request: Request) -> Response:
        session_id = request.path_params["session"]
        fields = Fields(await _json(request))
        text = fields.text("answer", limit=1000)
        fields.done()
        if text is None:
            raise ApiError('give the answer: {"answer": "7@5:1"} (or hint, skip)', "answer")
        return JSONResponse(
            await worker.run(lambda: answer_json(session_id, training.get(session_id), text))
        )

    routes = [
        Route("/", page),
        Route("/train", page),
        Route("/api/info", info),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{game}", show_game),
        Route("/api/games/{game}/move", move, methods=["POST"]),
        Route("/api/games/{game}/board", board),
        Route("/api/games/{game}/record", record),
        Route("/api/games/{game}/{action}", action, methods=["POST"]),
        Route("/api/engine", engine_request, methods=["POST"]),
        Route("/api/train", new_training, methods=["POST"]),
        Route("/api/train/{session}", show_training),
        Route("/api/train/{session}/answer", train_answer, methods=["POST"]),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        with contextlib.suppress(Exception):  # a job still running: its bots close at exit
            await asyncio.wait_for(worker.run(games.close), CLOSE_SECONDS)
        worker.close()

    return Starlette(
        routes=routes,
        middleware=[Middleware(_Guard)],
        exception_handlers={
            ApiError: _api_error,
            ManhattanError: _domain_error,
            HTTPException: _http_error,
            Exception: _internal_error,
        },
        lifespan=lifespan,
    )


async def _api_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, ApiError)
    return JSONResponse(error.answer(), status_code=error.status)


async def _domain_error(request: Request, error: Exception) -> Response:
    return JSONResponse({"error": str(error), "field": None}, status_code=400)


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    reasons = {
        404: f"no such page or endpoint: {request.url.path}",
        405: f"{request.method} is not allowed on {request.url.path}",
    }
    message = reasons.get(error.status_code, str(error.detail))
    return JSONResponse({"error": message, "field": None}, status_code=error.status_code)


async def _internal_error(request: Request, error: Exception) -> Response:
    message = f"internal error (please report it): {type(error).__name__}: {error}"
    return JSONResponse({"error": message[:300], "field": None}, status_code=500)
