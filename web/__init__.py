"""The browser front (``manhattan serve``): a Starlette app on uvicorn, one self-contained
page and a JSON API over the same libraries the terminal uses.

* ``web.app.create_app(settings)``: the routes and their JSON errors (``web.errors``);
  the games (``web.games``, tables of ``analyzer.table``), the training sessions
  (``web.training``), the engine mode's protocol over HTTP (``web.api_engine``), the
  pictures (``web.pictures``, drawn by ``render``) and the page (``web.page``, its
  script and style);
* ``web.worker``: the one thread that runs every game action and search, in order;
* ``web.server``: the socket on 127.0.0.1 and a uvicorn server that stops on the
  process's own stop signal (Ctrl-C through ``search.stopping``).

Starlette and uvicorn are the optional extra ``serve``: they are imported only by the
modules that need them, so ``missing_extra()`` can say what to install before anything
fails.
"""

from __future__ import annotations

import importlib.util

SERVE_EXTRA = ("starlette", "uvicorn", "multipart")
INSTALL_HINT = "pip install 'manhattan[serve]'"


def missing_extra() -> str | None:
    """Why ``manhattan serve`` cannot run here (a module of the ``serve`` extra is not
    installed, with the command that installs it), or None when it can."""
    missing = []
    for name in SERVE_EXTRA:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # a module set to None, or without a spec
            found = False
        if not found:
            missing.append("python-multipart" if name == "multipart" else name)
    if not missing:
        return None
    return f"manhattan serve needs {' and '.join(missing)}: install them with  {INSTALL_HINT}"
