"""The files shipped with the package (``positions/data``): example positions, game
records played by the bots, and puzzles."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

DEFAULT_EXAMPLE = "middle_4p_round2.txt"


def data_dir(kind: str) -> Path:
    """The folder of bundled ``kind`` files: ``examples``, ``games`` or ``puzzles``."""
    if kind not in ("examples", "games", "puzzles"):
        raise ValueError(f"no bundled {kind!r}: expected examples, games or puzzles")
    return Path(str(files("positions").joinpath("data", kind)))


def bundled_files(kind: str) -> list[Path]:
    """The bundled files of ``kind``, sorted by name."""
    return sorted(p for p in data_dir(kind).iterdir() if p.is_file() and not p.name.startswith("."))


def default_example() -> Path:
    """The example position ``manhattan analyze`` uses when given no argument."""
    return data_dir("examples") / DEFAULT_EXAMPLE
