"""Where numba caches the compiled playout kernel: a per-user cache folder, never inside the
installed package.

A cache written into ``site-packages/positions/__pycache__`` outlives an uninstall and
turns ``positions`` into a namespace package under the next install, so the kernel is
cached in ``platformdirs.user_cache_dir("manhattan")/kernel`` (on Linux
``~/.cache/manhattan/kernel``), or in ``$NUMBA_CACHE_DIR`` when the user set it.  When no
such folder can be written the kernel is compiled afresh in every process (a few seconds)
instead of failing.

``configure()`` must run before numba is imported for the first time, so that numba reads
the folder from its environment; ``positions.playout`` calls it first thing.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ENVIRONMENT_VARIABLE = "NUMBA_CACHE_DIR"


def default_folder() -> Path:
    """The per-user folder the kernel is cached in unless ``$NUMBA_CACHE_DIR`` says else."""
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("manhattan", appauthor=False)) / "kernel"


def _writable(folder: Path) -> bool:
    """Whether ``folder`` exists or can be made, and a file can be written in it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError:
        return False
    return True


def cache_folder() -> Path | None:
    """The folder to cache the kernel in, or ``None`` when none can be written."""
    chosen = os.environ.get(ENVIRONMENT_VARIABLE)
    folder = Path(chosen) if chosen else default_folder()
    return folder if _writable(folder) else None


def configure() -> bool:
    """Point numba's cache at ``cache_folder()``; returns whether the kernel can be cached
    (false: compile it in every process).  Harmless to call more than once."""
    folder = cache_folder()
    if folder is None:
        return False
    os.environ[ENVIRONMENT_VARIABLE] = str(folder)
    numba_config = sys.modules.get("numba.core.config")
    if numba_config is not None:  # numba was already imported: tell it directly
        numba_config.CACHE_DIR = str(folder)
    return True
