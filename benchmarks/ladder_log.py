"""The ladder's game log: every finished game as one JSON line, so a long run can resume.

A 6,000-iteration rung takes hours on a 2-core machine; a run that is stopped (Ctrl-C,
``kill``, a machine that goes away) keeps every game it finished in the log, and a later
run with the same log plays only the games it lacks.  A game is known by its matchup's
name, the tested bot's spec, the opponent's label (not its spec: a frozen engine's spec
names the checkout it runs from), the deal's seed and the tested seat, so a log serves
any budget, engine and ``--seed`` without mixing them up.

Each line is written whole and flushed as the game ends.  A line that cannot be read is
an error naming the file and line, never skipped: the log is a measurement.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO

from positions.errors import ManhattanError

GameKey = tuple[str, str, str, int, int]  # matchup, tested, opponent label, seed, seat (0-based)
RESULT_FIELDS = ("totals", "win_shares", "forfeits", "seconds")


def game_key(matchup: str, tested: str, label: str, seed: int, seat: int) -> GameKey:
    """The key a game is logged under (``seat`` 0-based)."""
    return (matchup, tested, label, seed, seat)


def read_log(path: Path) -> dict[GameKey, dict]:
    """The games logged in ``path``, by ``game_key``.  Raises ``ManhattanError`` naming the
    file (and line) when it cannot be read or holds a line that is not a logged game."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise ManhattanError(f"{path}: cannot read the game log ({error})") from None
    results: dict[GameKey, dict] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
            key = game_key(
                str(entry["matchup"]),
                str(entry["tested"]),
                str(entry["label"]),
                int(entry["seed"]),
                int(entry["seat"]) - 1,
            )
            results[key] = {field: entry[field] for field in RESULT_FIELDS}
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as error:
            raise ManhattanError(
                f"{path}:{number}: expected a logged game as one JSON object "
                f"with matchup, tested, label, seed, seat, {', '.join(RESULT_FIELDS)} "
                f"({error})"
            ) from None
    return results


class GameLog:
    """An append-only log of finished games at ``path`` (created when missing, opened for
    appending at once, so a log that cannot be written fails before any game).

    ``results`` holds the games already in the file, by ``game_key``; ``record`` appends
    one.  Raises ``ManhattanError`` naming the file (and line) when it cannot be read or
    holds a line that is not a logged game."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.results: dict[GameKey, dict] = read_log(path) if path.exists() else {}
        try:
            self._file: IO[str] = path.open("a", encoding="utf-8")
        except OSError as error:
            raise ManhattanError(f"{path}: {error.strerror or error}") from None

    def record(self, key: GameKey, result: dict) -> None:
        """Append the finished game ``result`` under ``key`` and flush it to disk."""
        matchup, tested, label, seed, seat = key
        entry = {"matchup": matchup, "tested": tested, "label": label, "seed": seed}
        entry["seat"] = seat + 1
        entry.update({field: result[field] for field in RESULT_FIELDS})
        self._file.write(json.dumps(entry) + "\n")
        self._file.flush()
        self.results[key] = result

    def close(self) -> None:
        """Close the file."""
        self._file.close()

    def __enter__(self) -> GameLog:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
