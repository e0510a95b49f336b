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

With ``--targets`` (a file ``search_targets.py`` wrote for the same records) the fit's
target at each decision is the search's visit distribution over the legal placements
instead of the one placement played (a cross-entropy, as AlphaZero's policy is fitted),
and the report's figures are against the search's most visited placement; ``played``
gives the fit's figures against the placements the games played.

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


# A decision: its legal placements' features (a row each) and either the row played or a
# target distribution over the rows (the search's visit shares).
Decision = tuple[np.ndarray, "int | np.ndarray"]
Placement = tuple[np.ndarray, np.ndarray, int]  # features, action ids, the row played


def placements_of_record(path: Path) -> list[Placement]:
    """Every placement decision of a recorded game: its legal placements' features (a row
    each), their action ids and the row of the placement played."""
    found = []
    for before, action in load_record(path).placement_choices():
        actions, table = placement_features(pack_known(before), before.to_move)
        rows = np.flatnonzero(actions == action)
        if len(rows) != 1:
            raise SystemExit(f"error: {path}: a placement of P{before.to_move + 1} is not legal")
        found.append((table, actions, int(rows[0])))
    return found


def played_decisions(placements: list[Placement]) -> list[Decision]:
    """``placements`` (``placements_of_record``) as decisions: features and the row played."""
    return [(table, row) for table, _, row in placements]


def decisions_of_record(path: Path) -> list[Decision]:
    """Every placement decision of a recorded game: its legal placements' features and the
    row of the placement played."""
    return played_decisions(placements_of_record(path))


def searched_decisions(
    path: Path, placements: list[Placement], searched: list[dict]
) -> list[Decision]:
    """The record's ``placements`` (``placements_of_record``) with the search's visit shares
    over the rows in place of the row played, from ``searched`` (the record's decisions in
    a ``search_targets.py`` file)."""
    if len(searched) != len(placements):
        raise SystemExit(
            f"error: {path}: the targets hold {len(searched)} decisions, not {len(placements)}"
        )
    found: list[Decision] = []
    for index, ((table, actions, row), decision) in enumerate(
        zip(placements, searched, strict=True)
    ):
        try:
            target = _visit_shares(actions, decision)
            if decision["played"] != actions[row]:
                target = None
        except (KeyError, TypeError, ValueError):  # not as search_targets.py writes
            target = None
        if target is None:
            raise SystemExit(f"error: {path}: decision {index + 1} is not the one searched")
        found.append((table, target))
    return found


def _visit_shares(actions: np.ndarray, searched: dict) -> np.ndarray | None:
    """The searched visits of each legal placement (row), as shares; ``None`` when the
    search tried a placement that is not among ``actions``."""
    row_of = {int(a): row for row, a in enumerate(actions)}
    visits = np.zeros(len(actions))
    for action, count in zip(searched["actions"], searched["visits"], strict=True):
        if action not in row_of:
            return None
        visits[row_of[action]] = count
    return visits / visits.sum() if visits.sum() > 0 else None


def _target(chosen: int | np.ndarray, rows: int) -> np.ndarray:
    """``chosen`` as a distribution over ``rows`` rows (a row played: all on it)."""
    if isinstance(chosen, np.ndarray):
        return chosen
    target = np.zeros(rows)
    target[chosen] = 1.0
    return target


def log_likelihood(weights: np.ndarray, decisions: list[Decision]):
    """The log-likelihood (the cross-entropy's negative, for targets), its gradient and its
    Hessian at ``weights``."""
    total = 0.0
    gradient = np.zeros(len(weights))
    hessian = np.zeros((len(weights), len(weights)))
    for table, chosen in decisions:
        utility = table @ weights
        log_share = utility - utility.max()
        log_share -= np.log(np.exp(log_share).sum())
        share = np.exp(log_share)
        target = _target(chosen, len(table))
        mean = share @ table
        total += target @ log_share
        gradient += target @ table - mean
        centred = table - mean
        hessian -= (centred * share[:, None]).T @ centred
    return total, gradient, hessian


def fit(decisions: list[Decision], steps: int = 30) -> np.ndarray:
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


def agreement(weights: np.ndarray, decisions: list[Decision]) -> float:
    """The share of decisions where the placement played (for a target, its largest
    share) has the largest utility (a tie of k placements counts 1/k)."""
    hits = 0.0
    for table, chosen in decisions:
        played = chosen if isinstance(chosen, int) else int(np.argmax(chosen))
        utility = table @ weights
        best = np.flatnonzero(utility >= utility.max() - 1e-9)
        hits += (played in best) / len(best)
    return hits / len(decisions)


def report(decisions: list[Decision]) -> dict:
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


def _foretold(weights: np.ndarray, decisions: list[Decision]) -> dict:
    """How well ``weights`` foretell the placements played in ``decisions``."""
    return {
        "decisions": len(decisions),
        "log_likelihood_per_decision": round(
            log_likelihood(weights, decisions)[0] / len(decisions), 4
        ),
        "best_is_played": round(agreement(weights, decisions), 4),
    }


def read_targets(path: Path, paths: list[Path]) -> dict[str, list[dict]]:
    """The searched decisions of each record in ``path`` (a ``search_targets.py`` file), by
    record name; every record there must be among ``paths``."""
    names = {p.name for p in paths}
    found = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise SystemExit(f"error: {path}: {getattr(error, 'strerror', None) or error}") from None
    for number, line in enumerate(lines, 1):
        try:
            entry = json.loads(line)
            name, decisions = entry["record"], entry["decisions"]
        except (json.JSONDecodeError, KeyError, TypeError):
            raise SystemExit(
                f"error: {path}:{number}: expected a line search_targets.py writes"
            ) from None
        if name not in names:
            raise SystemExit(f"error: {path}:{number}: record {name} is not in the folders given")
        found[name] = decisions
    return found


def main(argv: list[str] | None = None) -> None:
    """Read the records, fit, print the report and write it with ``--out``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="+", type=Path, help="folders of .mgn records")
    parser.add_argument("--out", type=Path, help="the model file to write")
    parser.add_argument("--holdout", type=float, default=0.0, help="share of games held out")
    parser.add_argument(
        "--targets", type=Path, help="fit to the search's visits in this search_targets.py file"
    )
    args = parser.parse_args(argv)
    if not 0.0 <= args.holdout < 1.0:
        parser.error(f"--holdout must be in [0, 1), not {args.holdout}")
    paths = sorted(p for folder in args.records for p in folder.glob("*.mgn"))
    searched = read_targets(args.targets, paths) if args.targets else None
    if searched is not None:
        paths = [p for p in paths if p.name in searched]  # the records searched so far
    if not paths:
        parser.error("no .mgn records in the folders given")
    held = round(len(paths) * args.holdout)
    if held >= len(paths):
        parser.error(f"--holdout {args.holdout} leaves none of the {len(paths)} games to fit")
    try:
        placements = [placements_of_record(path) for path in paths]
    except ManhattanError as error:
        raise SystemExit(f"error: {error}") from None
    games = [played_decisions(game) for game in placements]
    targets = games
    if searched:  # each record replayed once, for both
        targets = [
            searched_decisions(path, game, searched[path.name])
            for path, game in zip(paths, placements, strict=True)
        ]
    data = report([d for game in targets[held:] for d in game])
    data["fitted"]["games"] = len(paths) - held
    weights = np.array([data["weights"][f] for f in FEATURES])
    if searched:
        data["fitted"]["targets"] = "search visits"
        data["played"] = _foretold(weights, [d for game in games[held:] for d in game])
    if held:
        data["held_out"] = {
            "games": held,
            **_foretold(weights, [d for g in games[:held] for d in g]),
        }
    print(json.dumps(data, indent=2))
    if args.out:
        args.out.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
