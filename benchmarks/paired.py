"""Two ladder runs compared on the games both played: the paired difference of the tested seat.

Two runs of ``ladder.py`` with the same ``--seed`` deal the same cards to the same seats, so
a game of one run and the game of the other with the same deal seed and tested seat differ
only by the engines. Pairing them takes the deals' luck out of the comparison: this prints,
as JSON, over the seat-games both logs hold, each run's win share of the tested seat and its
margin (its score less the mean of the others'), and the mean paired difference of each
with its 95 % half-width (1.96 standard errors of the mean). The "paired" figures of the
README and of docs/STRENGTH.md are this script's.

    python benchmarks/paired.py NEW.jsonl OLD.jsonl [--matchup versus]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ladder_log import GameKey, read_log  # noqa: E402

from positions.errors import ManhattanError  # noqa: E402


def tested_seat(key: GameKey, result: dict) -> tuple[float, float]:
    """The tested seat's win share and margin over the mean of the other seats' scores."""
    seat = key[4]
    totals = result["totals"]
    others = [t for s, t in enumerate(totals) if s != seat]
    return float(result["win_shares"][seat]), totals[seat] - sum(others) / len(others)


def by_deal_and_seat(path: Path, matchup: str | None) -> dict[tuple[int, int], tuple]:
    """The games of ``path`` (one matchup), by deal seed and tested seat."""
    games = read_log(path)
    matchups = {key[0] for key in games}
    if matchup is None and len(matchups) > 1:
        raise ManhattanError(
            f"{path}: holds matchups {sorted(matchups)}; choose one with --matchup"
        )
    return {
        (key[3], key[4]): tested_seat(key, result)
        for key, result in games.items()
        if matchup is None or key[0] == matchup
    }


def mean_and_half_width(values: list[float]) -> tuple[float, float | None]:
    """The mean and 1.96 standard errors of it (None for fewer than two values)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, None
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(variance / n)


def compare(new: dict, old: dict) -> dict:
    """The paired comparison of two runs' games (as ``by_deal_and_seat`` gives them)."""
    common = sorted(set(new) & set(old))
    if not common:
        raise ManhattanError("the two logs share no game (same --seed and matchup expected)")
    report: dict = {"games": len(common), "deals": len({seed for seed, _ in common})}
    for index, name in enumerate(("win", "margin")):
        new_values = [new[game][index] for game in common]
        old_values = [old[game][index] for game in common]
        difference, half_width = mean_and_half_width(
            [a - b for a, b in zip(new_values, old_values, strict=True)]
        )
        scale = 100.0 if name == "win" else 1.0  # win shares in percentage points
        report[name] = {
            "new": round(scale * sum(new_values) / len(common), 2),
            "old": round(scale * sum(old_values) / len(common), 2),
            "difference": round(scale * difference, 2),
            "half_width_95": None if half_width is None else round(scale * half_width, 2),
        }
    return report


def main() -> None:
    """Compare the two logs named on the command line and print the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("new", type=Path, help="the log of the run under test")
    parser.add_argument("old", type=Path, help="the log of the run it is compared with")
    parser.add_argument("--matchup", help="the matchup to compare (needed when a log holds more)")
    args = parser.parse_args()
    try:
        report = compare(
            by_deal_and_seat(args.new, args.matchup), by_deal_and_seat(args.old, args.matchup)
        )
    except ManhattanError as error:
        sys.exit(f"error: {error}")
    print(json.dumps({"new": str(args.new), "old": str(args.old), **report}, indent=2))


if __name__ == "__main__":
    main()
