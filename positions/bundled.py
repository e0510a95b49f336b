"""The files shipped with the package (``positions/data``): example positions, game
records played by the bots, puzzles, and fitted models."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import TypeVar

from positions.errors import ManhattanError

MODELS = "data/models"
Model = TypeVar("Model")

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


def bundled_model(name: str, build: Callable[[dict], Model]) -> Model:
    """``build`` applied to the ``model`` object of the fitted model file ``name`` in
    ``positions/data/models``; a missing or malformed file (or a ``build`` that fails on
    it with ``KeyError``, ``TypeError`` or ``ValueError``) raises ``ManhattanError``
    naming the file."""
    try:
        text = files("positions").joinpath(MODELS, name).read_text("utf-8")
        return build(json.loads(text)["model"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ManhattanError(f"positions/{MODELS}/{name}: {error}") from None
