"""Analysis targets of issue 4: answer time at default settings, and stability.

* ``analyze_seconds`` — wall time of ``manhattan analyze POS --json`` at default settings
  (a fresh process, start-up and worker spawn included) on 4-player positions: the
  bundled 4p examples and positions from games between heuristic bots.  Target: every one
  within 10 s on 2 cores.
* ``stability`` — on a fixed set of mid-game positions (round 2-3 of 4p games between
  heuristic bots), the share where the top move at default settings equals the top move
  of a search 10× longer.  Target ≥ 80%.

Usage: ``python benchmarks/analysis.py [--positions N] [--skip-stability] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import time

from analyzer.engine import DEFAULT_SECONDS, EngineSettings, analyze, default_workers
from analyzer.players import make_bot
from positions.bundled import bundled_files
from positions.notation import write_position
from positions.selfplay import play_game
from positions.state import GameState, Phase
from search.limits import Limit


def game_positions(count: int, seed: int, rounds: tuple[int, ...]) -> list[GameState]:
    """Mover views from 4p heuristic games: one position per game, in ``rounds``."""
    found = []
    game = 0
    while len(found) < count:
        record = play_game([make_bot("heuristic") for _ in range(4)], 4, seed + game).record
        states = [s for s in record.states() if s.round in rounds and s.phase == Phase.PLACEMENT]
        chosen = states[(7 * game) % len(states)]
        found.append(chosen.view(chosen.current_player()))
        game += 1
    return found


def analyze_seconds(positions: list[str]) -> list[float]:
    """Wall time of the installed command at default settings, per position."""
    times = []
    for position in positions:
        started = time.perf_counter()
        subprocess.run(
            ["manhattan", "analyze", position, "--json"],
            check=True,
            capture_output=True,
        )
        times.append(time.perf_counter() - started)
    return times


def stability(states: list[GameState], factor: int = 10) -> dict:
    """Share of positions whose default top move equals a ``factor``× longer search's."""
    workers = default_workers()
    agree = 0
    details = []
    for index, state in enumerate(states):
        short = analyze(state, EngineSettings(workers=workers, seed=index))
        long = analyze(
            state,
            EngineSettings(
                limit=Limit(seconds=DEFAULT_SECONDS * factor), workers=workers, seed=index
            ),
        )
        same = short.best.move == long.best.move
        agree += same
        details.append(
            {"position": write_position(state), "default": short.best.move, "long": long.best.move}
        )
    return {"agreement": agree / len(states), "positions": len(states), "details": details}


def main(argv: list[str] | None = None) -> None:
    """Measure and print (one JSON object with ``--json``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=10, help="positions per figure")
    parser.add_argument("--skip-stability", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    examples = [p for p in bundled_files("examples") if "4p" in p.name]
    timed = [str(p) for p in examples] + [
        write_position(s) for s in game_positions(args.positions, 500, (1, 2, 3, 4))
    ]
    times = analyze_seconds(timed)
    results: dict = {
        "analyze_positions": len(times),
        "analyze_seconds_max": round(max(times), 2),
        "analyze_seconds_mean": round(sum(times) / len(times), 2),
        "analyze_within_10s": max(times) <= 10.0,
    }
    if not args.skip_stability:
        results["stability"] = stability(game_positions(args.positions, 900, (2, 3)))
    if args.json:
        print(json.dumps(results))
        return
    for name, value in results.items():
        if name == "stability":
            print(f"stability: {value['agreement']:.0%} of {value['positions']} positions")
        else:
            print(f"{name}: {value}")


if __name__ == "__main__":
    main()
