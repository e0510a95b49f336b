"""Self-play records of an engine variant, for fitting a playout policy to its choices.

``manhattan match`` seats the named bots only; this seats the same ``variants.engine``
(``LIMIT;key=value;…``, see ``variants.py``) in every seat and writes each game's record,
as ``match --out`` would, to ``OUT/game_SEED_GAME.mgn``. Game ``g`` of seed ``s`` is
played from ``s * 1000 + g``, so the same arguments give the same games, and a record
already in ``OUT`` is kept and not played again (a run stopped part-way continues).
Prints a JSON summary of what it wrote.

    PYTHONPATH=. python benchmarks/selfplay_records.py --engine '6000;placement=imitation' \\
        --seeds 11 12 13 14 --games 5 --out benchmarks/results/imitation_games_iter_2026-12-07
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from joblib import Parallel, delayed

sys.path.insert(0, str(Path(__file__).resolve().parent))

import variants  # noqa: E402

from positions.errors import ManhattanError  # noqa: E402
from positions.record import write_record  # noqa: E402
from positions.selfplay import play_game  # noqa: E402


def record_path(out: Path, seed: int, game: int) -> Path:
    """Where game ``game`` of ``seed`` is written."""
    return out / f"game_{seed:02d}_{game:02d}.mgn"


def play_one(argument: str, players: int, seed: int, game: int, out: Path) -> float:
    """Play one self-play game of the variant in every seat and write its record; returns
    its seconds."""
    started = time.perf_counter()
    bots = [variants.engine(argument, players) for _ in range(players)]
    outcome = play_game(bots, players, seed * 1000 + game, names=[f"variant:{argument}"] * players)
    path = record_path(out, seed, game)
    partial = path.with_suffix(".part")
    partial.write_text(write_record(outcome.record), encoding="utf-8")
    partial.replace(path)  # a record appears whole or not at all
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> None:
    """Play the games not yet in ``--out`` and print the summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", required=True, help="variant, e.g. '6000;placement=imitation'")
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--seeds", type=int, nargs="+", required=True)
    parser.add_argument("--games", type=int, default=5, help="games per seed")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    if not 1 <= args.games <= 999 or args.workers < 1 or min(args.seeds) < 0:
        parser.error("expected --games from 1 to 999, --workers ≥ 1 and seeds ≥ 0")
    try:
        variants.engine(args.engine, args.players)  # a bad variant fails here, before any game
        args.out.mkdir(parents=True, exist_ok=True)
    except ManhattanError as error:
        sys.exit(f"error: {error}")
    except OSError as error:
        sys.exit(f"error: {args.out}: {error.strerror or error}")
    todo = [
        (seed, game)
        for seed in args.seeds
        for game in range(1, args.games + 1)
        if not record_path(args.out, seed, game).exists()
    ]
    try:
        seconds = Parallel(n_jobs=args.workers)(
            delayed(play_one)(args.engine, args.players, seed, game, args.out)
            for seed, game in todo
        )
    except KeyboardInterrupt:
        sys.exit(f"interrupted: the games finished are in {args.out}; run again for the rest")
    summary = {
        "engine": args.engine,
        "players": args.players,
        "seeds": args.seeds,
        "games_per_seed": args.games,
        "played": len(todo),
        "seconds_per_game": round(sum(seconds) / len(seconds), 1) if seconds else None,
        "out": str(args.out),
    }
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
