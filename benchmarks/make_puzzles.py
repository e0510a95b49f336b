"""Write the bundled puzzles, ``positions/data/puzzles/*.mpz``.

Bot games (ε-greedy playouts) are stopped a few placements before the end of a round; the
exact solver keeps a position when 1-3 of many legal moves meet the goal, and its
``Solution`` tag lists exactly those.  Files are named ``p<players>_k<placements left>_<nn>``.
Where the plan asks for it, only positions in which the mover places twice and the draw in
between changes the answer are kept.

    python benchmarks/make_puzzles.py [--out DIR] [--seed N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from analyzer.puzzlegen import candidates, make_puzzle
from positions.puzzle import write_puzzle

ROOT = Path(__file__).resolve().parent.parent
# (players, placements left, goal, how many, only positions where the mover's draw matters,
#  fewest legal moves)
PLAN = [
    (4, 1, "win", 2, False, 8),
    (4, 2, "win", 3, False, 8),
    (4, 3, "win", 3, False, 8),
    (4, 4, "win", 3, False, 8),
    (3, 1, "win", 2, False, 8),
    (3, 2, "win", 2, False, 8),
    (3, 3, "win", 2, False, 8),
    (3, 4, "win", 2, False, 8),
    (3, 4, "win", 1, True, 8),
    (2, 1, "win", 2, False, 8),
    (2, 2, "win", 2, False, 8),
    (2, 3, "win", 1, False, 8),
    (2, 3, "win", 2, True, 8),
    (2, 4, "win", 1, False, 8),
    (2, 4, "win", 2, True, 8),
    (4, 2, "round-points", 1, False, 8),
    (4, 3, "round-points", 1, False, 8),
    (3, 2, "round-points", 1, False, 8),
    (3, 4, "round-points", 1, False, 8),
    (2, 2, "round-points", 1, False, 8),
    (2, 3, "round-points", 1, True, 8),
    (2, 4, "win", 1, False, 24),
    (3, 4, "win", 1, False, 24),
    (4, 4, "win", 1, False, 16),
]
PLAYERS_WORD = {2: "Two", 3: "Three", 4: "Four"}


def title(players: int, left: int, goal: str, matters: bool) -> str:
    """The puzzle's title."""
    aim = "finish first alone" if goal == "win" else "most points this round, guaranteed"
    placements = "1 placement" if left == 1 else f"{left} placements"
    extra = "; your next draw matters" if matters else ""
    return f"{PLAYERS_WORD[players]} players, {placements} left: {aim}{extra}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "positions" / "data" / "puzzles"))
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--tries", type=int, default=400, help="positions tried per plan line")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.mpz"):
        old.unlink()
    index: dict[tuple[int, int], int] = {}
    seen: set[str] = set()
    for line, (players, left, goal, count, need_draw, min_legal) in enumerate(PLAN):
        started = time.perf_counter()
        base = args.seed + 100_000 * line
        found = 0
        seeds = iter(range(base, base + args.tries))
        for candidate in candidates(players, left, goal, seeds, min_legal=min_legal):
            if need_draw and not candidate.draw_matters:
                continue
            position = candidate.result.position
            if position in seen:
                continue
            seen.add(position)
            number = index.get((players, left), 0) + 1
            index[(players, left)] = number
            name = f"p{players}_k{left}_{number:02d}"
            puzzle = make_puzzle(candidate, title(players, left, goal, candidate.draw_matters))
            (out / f"{name}.mpz").write_text(write_puzzle(puzzle))
            print(
                f"{name}: {goal} {' '.join(candidate.result.solutions)} "
                f"({candidate.result.nodes} nodes, {candidate.result.seconds:.2f} s)",
                file=sys.stderr,
            )
            found += 1
            if found == count:
                break
        if found < count:
            print(f"plan line {line}: only {found} of {count} found", file=sys.stderr)
        print(f"  line {line} done in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
