"""Record what the default search thinks of every placement decision of recorded games.

For each placement decision of each record (``*.mgn``) in the folders given, searches the
position as its mover saw it (the opponents' hands and the deck hidden) with the default
engine at ``--iterations`` and keeps, for every root placement the search tried, its visits,
mean win share and mean margin.  These are the targets ``train_imitation.py --targets``
fits the playout policy to: the search's visit distribution at a decision (as AlphaZero's
policy is trained), which says something about every placement, where the one placement
played says something about one.

Writes one JSON line per record to ``--out`` as each record is done; a record already in
``--out`` is not searched again, so a stopped run continues.  Decision ``d`` of a record is
searched from seed ``seed * 1000 + d``, so the same arguments give the same targets.

    PYTHONPATH=. python scripts/search_targets.py benchmarks/results/imitation_games_2026-12-06 \\
        --iterations 6000 --out benchmarks/results/search_targets_6000.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from joblib import Parallel, delayed

from analyzer.engine import DEFAULT_EPSILON, make_evaluator, mover_view
from positions.errors import ManhattanError
from positions.record import load_record
from search.ismcts import SearchConfig
from search.limits import Limit
from search.parallel import run_search


def search_record(path: Path, iterations: int, seed: int) -> dict:
    """The search's statistics at every placement decision of the record at ``path``."""
    evaluator = make_evaluator(DEFAULT_EPSILON)
    decisions = []
    for index, (before, played) in enumerate(load_record(path).placement_choices()):
        result = run_search(
            mover_view(before),
            Limit(iterations=iterations),
            evaluator,
            seed * 1000 + index,
            config=SearchConfig(),
        )
        candidates = [c for c in result.candidates if len(c.actions) == 1]
        decisions.append(
            {
                "played": played,
                "actions": [c.actions[0] for c in candidates],
                "visits": [c.visits for c in candidates],
                "win": [round(c.win, 4) for c in candidates],
                "margin": [round(c.margin, 3) for c in candidates],
            }
        )
    return {"record": path.name, "iterations": iterations, "decisions": decisions}


def done_records(out: Path) -> set[str]:
    """The records whose targets ``out`` holds already (none when it does not exist)."""
    if not out.exists():
        return set()
    done = set()
    for number, line in enumerate(out.read_text(encoding="utf-8").splitlines(), 1):
        try:
            done.add(json.loads(line)["record"])
        except (json.JSONDecodeError, KeyError, TypeError):
            sys.exit(f"error: {out}:{number}: expected a JSON object with a record, as this writes")
    return done


def main(argv: list[str] | None = None) -> None:
    """Search the decisions of the records not yet in ``--out``, appending as each ends."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="+", type=Path, help="folders of .mgn records")
    parser.add_argument("--out", type=Path, required=True, help="the JSON-lines file to extend")
    parser.add_argument("--iterations", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    if args.iterations < 1 or args.workers < 1 or args.seed < 0:
        parser.error("expected --iterations ≥ 1, --workers ≥ 1 and --seed ≥ 0")
    paths = sorted(p for folder in args.records for p in folder.glob("*.mgn"))
    if not paths:
        parser.error("no .mgn records in the folders given")
    names = [p.name for p in paths]
    if len(set(names)) != len(names):
        parser.error("two records share a file name; the output keys records by name")
    done = done_records(args.out)
    todo = [p for p in paths if p.name not in done]
    try:
        jobs = Parallel(n_jobs=args.workers, return_as="generator_unordered")(
            delayed(search_record)(path, args.iterations, args.seed) for path in todo
        )
        with args.out.open("a", encoding="utf-8") as out:
            for found in jobs:
                out.write(json.dumps(found) + "\n")  # one whole line per record
                out.flush()
                print(f"{found['record']}: {len(found['decisions'])} decisions", file=sys.stderr)
    except ManhattanError as error:
        sys.exit(f"error: {error}")
    except OSError as error:
        sys.exit(f"error: {args.out}: {error.strerror or error}")
    except KeyboardInterrupt:
        sys.exit(f"interrupted: the records finished are in {args.out}; run again for the rest")
    print(json.dumps({"records": len(paths), "searched": len(todo), "out": str(args.out)}))


if __name__ == "__main__":
    main()
