"""How fast the ``manhattan`` command answers, start-up included, and how fast a 4-player
game between greedy bots plays.

    python benchmarks/cli_speed.py [--runs 7] [--games 5] [--json]

* ``moves``, ``apply`` and ``show`` are run as subprocesses of the installed command on a
  4-player placement position; each figure is the median wall time of ``--runs`` runs
  (target: well under a second).  ``python -c pass`` is timed the same way for reference.
* ``greedy_game_4p_s``: the median wall time of ``play_game`` with four greedy bots,
  in-process, over ``--games`` seeds (target: under 2 s).

Prints the figures, or one JSON object with ``--json``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "tests" / "data" / "positions.jsonl"
TARGET_COMMAND_S = 1.0
TARGET_GAME_S = 2.0


def _command() -> list[str]:
    found = shutil.which("manhattan")
    return [found] if found else [sys.executable, "-c", "import cli; cli.main()"]


def _sample_position() -> tuple[str, str]:
    """A 4-player placement position with the mover's hand shown, and one legal move."""
    for line in VECTORS.read_text().splitlines():
        vector = json.loads(line)
        fields = vector["pos"].split()
        if fields[1] == "4" and fields[4] == "p" and vector["legal"]:
            return vector["pos"], vector["legal"][0]
    raise SystemExit(f"no 4-player placement position in {VECTORS}")


def _median_wall(args: list[str], runs: int) -> float:
    """Median seconds of ``runs`` runs of ``args`` (which must exit 0)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.run(args, capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(args[:2])} failed: {proc.stderr.strip()}")
    return statistics.median(times)


def time_commands(runs: int) -> dict[str, float]:
    """Median wall seconds of ``moves``, ``apply`` and ``show`` (and bare Python)."""
    position, move = _sample_position()
    command = _command()
    _median_wall([*command, "--version"], 1)  # warm the file cache
    return {
        "python_startup_s": _median_wall([sys.executable, "-c", "pass"], runs),
        "moves_s": _median_wall([*command, "moves", position], runs),
        "apply_s": _median_wall([*command, "apply", position, move], runs),
        "show_s": _median_wall([*command, "show", position], runs),
        "show_json_s": _median_wall([*command, "show", position, "--json"], runs),
    }


def time_greedy_games(games: int) -> dict[str, float]:
    """Median and worst wall seconds of a 4-player game between greedy bots."""
    sys.path.insert(0, str(ROOT))
    from analyzer.players import make_bot
    from positions.selfplay import play_game

    def one_game(seed: int) -> float:
        bots = [make_bot("greedy") for _ in range(4)]
        start = time.perf_counter()
        try:
            play_game(bots, 4, seed)
        finally:
            for bot in bots:
                bot.close()
        return time.perf_counter() - start

    one_game(0)  # warm-up: first imports and caches are not part of a game
    times = [one_game(seed) for seed in range(1, games + 1)]
    return {"greedy_game_4p_s": statistics.median(times), "greedy_game_4p_max_s": max(times)}


def main() -> None:
    """Measure and print (or print JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs per command (median)")
    parser.add_argument("--games", type=int, default=5, help="greedy games (median)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    options = parser.parse_args()

    figures: dict[str, float | int | bool] = {}
    figures.update(time_commands(options.runs))
    figures.update(time_greedy_games(options.games))
    commands_ok = all(figures[key] < TARGET_COMMAND_S for key in ("moves_s", "apply_s", "show_s"))
    figures = {key: round(value, 4) for key, value in figures.items()}
    figures.update(
        runs=options.runs,
        games=options.games,
        commands_under_1s=commands_ok,
        greedy_game_under_2s=figures["greedy_game_4p_s"] < TARGET_GAME_S,
    )
    if options.json:
        print(json.dumps(figures))
        return
    for key, value in figures.items():
        print(f"{key:24} {value}")


if __name__ == "__main__":
    main()
