"""Where numba caches the compiled playout kernel: a per-user cache folder, never inside the
installed package.

A cache written into ``site-packages/positions/__pycache__`` outlives an uninstall and
turns ``positions`` into a namespace package under the next install, so the kernel is
cached in ``platformdirs.user_cache_dir("manhattan")/kernel`` (on Linux
``~/.cache/manhattan/kernel``), or in ``$NUMBA_CACHE_DIR`` when the user set it.  When no
such folder can be written the kernel is compiled afresh in every process (a few seconds)
instead of failing.

The kernel is cached in a subfolder named by a digest of the package's sources
(``source_digest``): numba checks a cached function against its own file only, so a
change in a kernel function that another file's kernel calls (``positions.imitation``'s
policy inside ``positions.playout``'s playout) would otherwise load the stale machine code.
A new version, or an edited checkout, compiles once into its own subfolder; the old ones
are left for the user to delete.

``configure()`` must run before numba is imported for the first time, so that numba reads
the folder from its environment; ``positions.playout`` calls it first thing.
"""

from __future__ import annotations

import functools
import hashlib
import os
import sys
import tempfile
from pathlib import Path

ENVIRONMENT_VARIABLE = "NUMBA_CACHE_DIR"
PACKAGE = Path(__file__).resolve().parent


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


def source_digest(package: Path = PACKAGE) -> str:
    """A short digest of the names and contents of ``package``'s Python files: it changes
    whenever any of them does."""
    digest = hashlib.sha256()
    for path in sorted(package.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


@functools.cache
def _package_digest() -> str:
    """``source_digest()`` of this package, read once per process: every kernel module
    calls ``configure`` as it is imported."""
    return source_digest()


def cache_folder() -> Path | None:
    """The folder to cache the kernel in: the sources' subfolder (``source_digest``) of
    ``$NUMBA_CACHE_DIR`` or ``default_folder()``, or ``None`` when none can be written.
    A ``$NUMBA_CACHE_DIR`` that already is that subfolder (as ``configure`` leaves it for
    the processes it starts) is kept as it is."""
    chosen = os.environ.get(ENVIRONMENT_VARIABLE)
    folder = Path(chosen) if chosen else default_folder()
    digest = _package_digest()
    if folder.name != digest:
        folder = folder / digest
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
