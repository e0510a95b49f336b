"""Reading the files users give: positions, game records and puzzles.

Only regular files are read (a FIFO would block for ever, a device such as ``/dev/zero``
never ends), and only up to ``MAX_INPUT_BYTES``: anything else is a one-line
``ManhattanError`` naming the file, before a byte is read.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from positions.errors import ManhattanError, NotationError

MAX_INPUT_BYTES = 10 * 1024 * 1024  # 10 MB: far more than any game record needs


def check_input_file(path: str | Path) -> Path:
    """``path`` if it names a regular file of at most ``MAX_INPUT_BYTES``.  Raises
    ``FileNotFoundError`` when there is no such file, ``ManhattanError`` for a folder, a
    FIFO, a device or a file too large, and ``OSError`` when it cannot be looked at."""
    file = Path(path)
    if not str(path).strip():
        raise ManhattanError("empty file name: expected a file")
    info = file.stat()  # FileNotFoundError / PermissionError name the file
    if stat.S_ISDIR(info.st_mode):
        raise ManhattanError(f"{path}: is a folder, expected a file")
    if not stat.S_ISREG(info.st_mode):
        raise ManhattanError(f"{path}: not a regular file (a FIFO, socket or device)")
    if info.st_size > MAX_INPUT_BYTES:
        raise ManhattanError(
            f"{path}: {info.st_size:,} bytes, more than the {MAX_INPUT_BYTES:,} a file may hold"
        )
    return file


def read_input_file(path: str | Path) -> str:
    """The UTF-8 text of the regular file ``path`` (a leading byte-order mark dropped).
    Raises what ``check_input_file`` raises, ``NotationError`` for a file that is not UTF-8
    text and ``ManhattanError`` for one that cannot be read."""
    file = check_input_file(path)
    try:
        with open(file, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise ManhattanError(f"{path}: not a regular file")
            data = handle.read(MAX_INPUT_BYTES + 1)
    except OSError as error:
        raise ManhattanError(f"{path}: cannot read: {error.strerror or error}") from None
    if len(data) > MAX_INPUT_BYTES:
        raise ManhattanError(f"{path}: more than the {MAX_INPUT_BYTES:,} bytes a file may hold")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise NotationError(
            f"{path}: not UTF-8 text (byte {error.start + 1} cannot be decoded)"
        ) from None
