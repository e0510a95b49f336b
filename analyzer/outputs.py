"""Files the commands write: checked before any work starts, written whole or not at all.

``check_output_file`` and ``check_output_folder`` refuse, before a long review or match
begins, an output that could not be written at the end: an existing file without
``force``, a folder that is missing or not writable, a wrong suffix, an empty name.
``write_output`` writes through a temporary file in the same folder and renames it into
place, so a failed write never leaves a half-written file or destroys the old one.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Sequence
from pathlib import Path

from positions.errors import ManhattanError


class OutputError(ManhattanError):
    """An output file or folder that cannot be written."""


def _probe_folder(folder: Path, what: str) -> None:
    """Raise ``OutputError`` unless a file can be created in ``folder``."""
    if not folder.is_dir():
        raise OutputError(f"{what}: folder {folder} does not exist")
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".manhattan-probe-"):
            pass
    except OSError as error:
        reason = error.strerror or str(error)
        raise OutputError(f"{what}: cannot write in folder {folder}: {reason}") from None


def check_output_file(
    path: Path, force: bool, suffixes: Sequence[str] = (), what: str | None = None
) -> None:
    """Check that ``path`` can be written: a non-empty name with one of ``suffixes`` (any
    when empty), in an existing writable folder, not a folder itself, and not an existing
    file unless ``force`` (then it must be a regular file).  Raises ``OutputError``."""
    what = what or str(path)
    if not str(path).strip():
        raise OutputError("empty output file name")
    if suffixes and path.suffix.lower() not in suffixes:
        raise OutputError(f"{what}: expected a file name ending in {' or '.join(suffixes)}")
    try:
        info = path.stat()
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise OutputError(f"{what}: {error.strerror or error}") from None
    if info is not None:
        if stat.S_ISDIR(info.st_mode):
            raise OutputError(f"{what}: is a folder, expected a file")
        if not force:
            raise OutputError(f"file exists: {path} (pass --force to overwrite it)")
        if not stat.S_ISREG(info.st_mode):
            raise OutputError(f"{what}: not a regular file, it cannot be replaced")
    _probe_folder(path.parent if str(path.parent) else Path("."), what)


def check_output_folder(
    folder: Path, names: Sequence[str], force: bool, what: str | None = None
) -> None:
    """Check that files ``names`` can be written in ``folder`` (made if missing, its
    parent then must be writable): none of them exists unless ``force``.  Raises
    ``OutputError``."""
    what = what or str(folder)
    if not str(folder).strip():
        raise OutputError("empty output folder name")
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"{what}: is a file, expected a folder")
    if not folder.exists():
        parent = folder.parent
        while not parent.exists() and parent != parent.parent:
            parent = parent.parent
        _probe_folder(parent, what)
        return
    _probe_folder(folder, what)
    if not force:
        for name in names:
            if (folder / name).exists():
                raise OutputError(f"file exists: {folder / name} (pass --force to overwrite it)")


def make_folder(folder: Path) -> None:
    """Create ``folder`` (and its parents).  Raises ``OutputError``."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputError(f"cannot create {folder}: {error.strerror or error}") from None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_output(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` whole: into a temporary file beside it, then
    renamed over it.  Raises ``OutputError`` naming the file; the old file (if any) is
    then untouched."""
    folder = path.parent if str(path.parent) else Path(".")
    temporary = None
    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        with contextlib.suppress(OSError):
            os.chmod(temporary, 0o666 & ~_umask())  # as a plain open() would make it
        os.replace(temporary, path)
        temporary = None
    except OSError as error:
        raise OutputError(f"could not write {path}: {error.strerror or error}") from None
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
