"""Fit the imitation placement policy (``positions.imitation``) to recorded games.

Reads every record (``*.mgn``, as ``manhattan match --out`` writes them) in the folders
given, replays each game (a record holds the deal, so every hand is known) and keeps every
placement decision with a legal placement: the ``FEATURES`` of each legal placement of the
mover's hand, as the playout policy sees them, and the one played.  Fits a conditional
logit (the played placement's softmax share over the legal ones, weights · features) by
Newton's method with a small ridge, numpy only, and reports how well the fit and the
greedy policy foretell the played placements: the log-likelihood per decision (a
uniformly random choice's beside it) and the share of decisions where the policy's best
is the placement played (ties shared).  Writes the model file with ``--out``.

    python scripts/train_imitation.py RECORDS... [--out positions/data/models/imitation_4p.json]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from positions.errors import ManhattanError
from positions.imitation import FEATURES, placement_features
from positions.kernel_board import pack_known
from positions.record import load_record

RIDGE = 1e-3  # keeps Newton's steps finite when a feature never varies


def decisions_of_record(path: Path) -> list[tuple[np.ndarray, int]]:
    """Every placement decision of a recorded game: its legal placements' features and
    the row of the placement played."""
    found = []
    for before, action in load_record(path).placement_choices():
        actions, table = placement_features(pack_known(before), before.to_move)
        rows = np.flatnonzero(actions == action)
        if len(rows) != 1:
            raise SystemExit(f"error: {path}: a placement of P{before.to_move + 1} is not legal")
        found.append((table, int(rows[0])))
    return found


def log_likelihood(weights: np.ndarray, decisions: list[tuple[np.ndarray, int]]):
    """The log-likelihood, its gradient and its Hessian at ``weights``."""
    total = 0.0
    gradient = np.zeros(len(weights))
    hessian = np.zeros((len(weights), len(weights)))
    for table, played in decisions:
        utility = table @ weights
        share = np.exp(utility - utility.max())
        share /= share.sum()
        mean = share @ table
        total += np.log(share[played])
        gradient += table[played] - mean
        centred = table - mean
        hessian -= (centred * share[:, None]).T @ centred
    return total, gradient, hessian


def fit(decisions: list[tuple[np.ndarray, int]], steps: int = 30) -> np.ndarray:
    """The maximum-likelihood weights (with a ``RIDGE`` penalty), by Newton's method."""
    weights = np.zeros(decisions[0][0].shape[1])
    for _ in range(steps):
        _, gradient, hessian = log_likelihood(weights, decisions)
        gradient -= RIDGE * weights
        hessian -= RIDGE * np.eye(len(weights))
        step = np.linalg.solve(hessian, -gradient)
        weights += step
        if np.abs(step).max() < 1e-8:
            break
    return weights


def agreement(weights: np.ndarray, decisions: list[tuple[np.ndarray, int]]) -> float:
    """The share of decisions where the placement played has the largest utility (a tie
    of k placements counts 1/k)."""
    hits = 0.0
    for table, played in decisions:
        utility = table @ weights
        best = np.flatnonzero(utility >= utility.max() - 1e-9)
        hits += (played in best) / len(best)
    return hits / len(decisions)


def report(decisions: list[tuple[np.ndarray, int]]) -> dict:
    """The fitted weights and how the fit and greedy foretell the decisions."""
    weights = fit(decisions)
    greedy = np.zeros(len(FEATURES))
    greedy[FEATURES.index("gain")] = 1.0
    greedy_sharpness = fit([(t[:, :1], p) for t, p in decisions])[0]
    n = len(decisions)
    return {
        "weights": dict(zip(FEATURES, (round(float(w), 4) for w in weights), strict=True)),
        "fitted": {
            "decisions": n,
            "log_likelihood_per_decision": round(log_likelihood(weights, decisions)[0] / n, 4),
            "greedy_log_likelihood_per_decision": round(
                log_likelihood(greedy * greedy_sharpness, decisions)[0] / n, 4
            ),
            "uniform_log_likelihood_per_decision": round(
                -sum(np.log(len(t)) for t, _ in decisions) / n, 4
            ),
            "best_is_played": round(agreement(weights, decisions), 4),
            "greedy_best_is_played": round(agreement(greedy, decisions), 4),
        },
    }


def main(argv: list[str] | None = None) -> None:
    """Read the records, fit, print the report and write it with ``--out``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="+", type=Path, help="folders of .mgn records")
    parser.add_argument("--out", type=Path, help="the model file to write")
    parser.add_argument("--holdout", type=float, default=0.0, help="share of games held out")
    args = parser.parse_args(argv)
    if not 0.0 <= args.holdout < 1.0:
        parser.error(f"--holdout must be in [0, 1), not {args.holdout}")
    paths = sorted(p for folder in args.records for p in folder.glob("*.mgn"))
    if not paths:
        parser.error("no .mgn records in the folders given")
    held = round(len(paths) * args.holdout)
    if held >= len(paths):
        parser.error(f"--holdout {args.holdout} leaves none of the {len(paths)} games to fit")
    try:
        games = [decisions_of_record(path) for path in paths]
    except ManhattanError as error:
        raise SystemExit(f"error: {error}") from None
    train = [d for game in games[held:] for d in game]
    data = report(train)
    data["fitted"]["games"] = len(paths) - held
    if held:
        test = [d for game in games[:held] for d in game]
        weights = np.array([data["weights"][f] for f in FEATURES])
        data["held_out"] = {
            "games": held,
            "decisions": len(test),
            "log_likelihood_per_decision": round(log_likelihood(weights, test)[0] / len(test), 4),
            "best_is_played": round(agreement(weights, test), 4),
        }
    print(json.dumps(data, indent=2))
    if args.out:
        args.out.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
