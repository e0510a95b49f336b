"""How fast the exact solver proves the bundled puzzles (target: every puzzle with at most
four placements left in under 5 s on this machine).

    python benchmarks/solve_speed.py [--json] [DIR]

For each ``.mpz`` file: players, placements left, goal, seconds, nodes, whether it was
proven and solved to its Solution; then the largest time among puzzles with at most four
placements left.
"""

from __future__ import annotations

import argparse
import json
import platform
from pathlib import Path

from analyzer.solve import solve_directory
from positions.puzzle import load_puzzle

ROOT = Path(__file__).resolve().parent.parent
TARGET_SECONDS = 5.0


def measure(folder: Path) -> dict:
    """The benchmark's figures for every puzzle in ``folder``."""
    rows = []
    for check in solve_directory(folder):
        puzzle = load_puzzle(folder / check.file)
        result = check.result
        rows.append(
            {
                "file": check.file,
                "players": puzzle.state.players,
                "placements_left": sum(puzzle.state.selected),
                "goal": puzzle.goal,
                "seconds": round(check.seconds, 4),
                "nodes": result.nodes if result else 0,
                "proven": bool(result and result.proven),
                "solved": check.solved,
            }
        )
    small = [r["seconds"] for r in rows if r["placements_left"] <= 4]
    worst = max(small, default=0.0)
    return {
        "machine": platform.processor() or platform.machine(),
        "python": platform.python_version(),
        "puzzles": rows,
        "solved": sum(r["solved"] for r in rows),
        "total": len(rows),
        "max_seconds_up_to_4_left": worst,
        "target_seconds": TARGET_SECONDS,
        "target_met": worst < TARGET_SECONDS and all(r["proven"] for r in rows),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default=str(ROOT / "positions/data/puzzles"))
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    report = measure(Path(args.folder))
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    for row in report["puzzles"]:
        print(
            f"{row['file']:<16} {row['players']}p k={row['placements_left']} "
            f"{row['goal']:<12} {row['seconds']:8.3f} s {row['nodes']:>9} nodes "
            f"{'proven' if row['proven'] else 'UNPROVEN'} {'ok' if row['solved'] else 'WRONG'}"
        )
    print(
        f"solved {report['solved']}/{report['total']}; max {report['max_seconds_up_to_4_left']:.3f}"
        f" s with <= 4 placements left (target {TARGET_SECONDS:g} s)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
