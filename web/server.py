"""Running the app: a socket on 127.0.0.1 only, and a uvicorn server that leaves the
signals to ``search.stopping``.

``manhattan`` turns Ctrl-C and SIGTERM into a stop request (``cli.main``), which ends any
search within milliseconds.  uvicorn would install handlers of its own; here it does not,
and instead checks for such a signal on each of its ticks (every 0.1 s): the server then
stops accepting, lets the answers under way finish (a running analysis ends with its
final answer), waits at most ``GRACE_SECONDS`` for the rest and returns.  A second
Ctrl-C ends the process at once (``search.stopping``).
"""

from __future__ import annotations

import contextlib
import socket

import uvicorn

from search import stopping
from search.parallel import warm_up
from web.app import ServeSettings, create_app

HOST = "127.0.0.1"
GRACE_SECONDS = 1.0


class _Server(uvicorn.Server):
    """uvicorn's server, stopped by the process's stop request instead of its own
    signal handlers."""

    def capture_signals(self) -> contextlib.AbstractContextManager[None]:  # type: ignore[override]
        return contextlib.nullcontext()

    async def on_tick(self, counter: int) -> bool:
        # Only a signal: ``stopping.requested()`` is also true while a search is being
        # terminated (its check is watched process-wide), which must not end the server.
        if stopping.signal_received() is not None:
            return True
        return await super().on_tick(counter)


def bind(port: int) -> socket.socket:
    """A listening TCP socket on 127.0.0.1:``port`` (0: any free port).  Raises
    ``OSError`` when the port is taken."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((HOST, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def address(sock: socket.socket) -> str:
    """The page's address for ``sock``."""
    host, port = sock.getsockname()[:2]
    return f"http://{host}:{port}/"


def prepare(settings: ServeSettings) -> None:
    """Load the search kernel and start the helper processes before serving, so that no
    process is forked from a thread of the running server."""
    from analyzer.engine import DEFAULT_EPSILON, make_evaluator
    from search.parallel import Parallelism

    warm_up(make_evaluator(DEFAULT_EPSILON), Parallelism(settings.workers))


def serve(settings: ServeSettings, sock: socket.socket) -> None:
    """Serve the app on ``sock`` until a stop is requested."""
    config = uvicorn.Config(
        create_app(settings),
        log_level="warning",
        timeout_graceful_shutdown=GRACE_SECONDS,
        lifespan="on",
        access_log=False,
    )
    _Server(config).run(sockets=[sock])
