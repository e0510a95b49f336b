"""How well each evaluation foretells who wins a real game, in minutes, without a match.

The search values a move by what its evaluation says of the positions after it, so an
evaluation that foretells the winner of real games better is the better one to search
with.  This script reads finished games (records, e.g. from ``manhattan match --bots
mcts:600 --games 200 --out DIR``), and at the end of every round but the last values
the position by each evaluation, from P1's view: its chances of first place per player,
scored against the game's real win shares by the log-loss (cross-entropy, in nats) and
the Brier score.  Lower is better; ``uniform`` (1/players each) is the no-knowledge
mark.  The Brier score is the one to compare by: a mean of a few playouts often gives
the real winner no chance at all, which the log-loss punishes without bound (it counts
such a chance as 1e-6), while the search only compares the means.  The figures come with
95 % normal intervals over games (a game's round ends are not independent), per round
and overall, and ``paired`` gives each evaluation's Brier score less the first one's on
the same positions.

Evaluations (``--evaluations``, comma-separated):

* ``playouts``: the mean win shares of ``--playouts`` playouts of the search's default
  evaluator (greedy placement, bag selection, to the end of the game), each from a world
  dealt from P1's view (``resample_from_infostate``), as the search deals them;
* ``horizon``: the same with ``horizon=1`` (the next round played out, the bundled
  value model of ``positions.value`` after);
* ``model``: the bundled value model alone, at the round's end;
* ``heuristic``: playouts with the heuristic placement policy;
* ``uniform``: 1/players for everyone.

Usage: ``python benchmarks/evaluation_quality.py RECORDS_DIR [--playouts 256]
[--evaluations playouts,horizon,heuristic,model,uniform] [--seed 1] [--json]``.  Ctrl-C (or SIGTERM)
ends the run within a playout and reports the games scored before the one under way
(``"interrupted": true``); a second one ends it at once.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

from positions.errors import ManhattanError
from positions.playout import PlayoutEvaluator
from positions.record import load_record
from positions.state import GameState, Phase
from positions.value import ValueModel, features, predict
from search import stopping

OBSERVER = 0
Evaluation = Callable[[GameState, np.random.Generator], np.ndarray]


def round_ends(state_list: list[GameState]) -> list[GameState]:
    """The states of a game at the end of each round but the last: the selection phase
    of rounds 2 on, before any pick."""
    ends = []
    for state in state_list:
        picked = any(state.selected)
        if state.phase == Phase.SELECTION and state.round > 1 and not picked:
            ends.append(state)
    return ends


def playout_evaluation(evaluator: PlayoutEvaluator, playouts: int) -> Evaluation:
    """The mean win shares of ``playouts`` playouts of ``evaluator``, each from a world
    dealt from the observer's view."""

    def evaluate(state: GameState, rng: np.random.Generator) -> np.ndarray:
        total = np.zeros(state.players)
        played = 0
        while played < playouts and not stopping.requested():  # a stop ends the game's scoring
            world = state.resample_from_infostate(OBSERVER, rng)
            total += evaluator.evaluate(world, rng)[0]
            played += 1
        return total / max(played, 1)

    return evaluate


def model_evaluation(state: GameState, rng: np.random.Generator) -> np.ndarray:
    """The bundled value model's chances of first place at a round's end."""
    return predict(ValueModel.bundled(state.players), features(state))[0]


def uniform_evaluation(state: GameState, rng: np.random.Generator) -> np.ndarray:
    """Every player equally likely to win."""
    return np.full(state.players, 1.0 / state.players)


def evaluations(names: list[str], playouts: int) -> dict[str, Evaluation]:
    """The evaluations named; raises ``ManhattanError`` for an unknown name."""
    known: dict[str, Callable[[], Evaluation]] = {
        "playouts": lambda: playout_evaluation(PlayoutEvaluator(), playouts),
        "horizon": lambda: playout_evaluation(PlayoutEvaluator(horizon=1), playouts),
        "heuristic": lambda: playout_evaluation(PlayoutEvaluator(placement="heuristic"), playouts),
        "model": lambda: model_evaluation,
        "uniform": lambda: uniform_evaluation,
    }
    unknown = [name for name in names if name not in known]
    if unknown:
        raise ManhattanError(
            f"--evaluations: unknown {', '.join(unknown)} (known: {', '.join(known)})"
        )
    return {name: known[name]() for name in names}


def log_loss(chances: np.ndarray, shares: np.ndarray) -> float:
    """The cross-entropy of the real win shares under the predicted chances (nats)."""
    return float(-(shares * np.log(np.clip(chances, 1e-6, 1.0))).sum())


def brier(chances: np.ndarray, shares: np.ndarray) -> float:
    """The squared distance of the predicted chances from the real win shares."""
    return float(((chances - shares) ** 2).sum())


def mean_interval(per_game: list[float]) -> dict:
    """The mean of per-game means with its 95 % normal interval's half width."""
    values = np.array(per_game)
    half = 1.96 * values.std(ddof=1) / math.sqrt(len(values)) if len(values) > 1 else math.nan
    return {"mean": round(float(values.mean()), 4), "pm": round(float(half), 4)}


Scores = dict[str, dict[int, list[tuple[int, float, float]]]]


def score_games(paths: list[Path], chosen: dict[str, Evaluation], seed: int) -> tuple[Scores, int]:
    """For each evaluation and round, ``(game, log-loss, Brier)`` of every round end, and
    the games scored: all of them, or those finished before a stop was requested
    (``search.stopping``: Ctrl-C, SIGTERM), which ends the game under way within a
    playout; a game counts whole or not at all."""
    scores: Scores = {name: {} for name in chosen}
    for game, path in enumerate(paths):
        states = load_record(path).states()
        shares = np.array(states[-1].returns())
        rows = []
        for state in round_ends(states):
            for name, evaluate in chosen.items():
                rng = np.random.default_rng([seed, game, state.round])
                chances = evaluate(state, rng)
                if stopping.requested():
                    return scores, game
                rows.append((name, state.round, log_loss(chances, shares), brier(chances, shares)))
        for name, round_number, loss, score in rows:
            scores[name].setdefault(round_number, []).append((game, loss, score))
        print(f"{game + 1}/{len(paths)} games", file=sys.stderr)
    return scores, len(paths)


def per_game(rows: list[tuple[int, float, float]], column: int) -> list[float]:
    """The mean of ``column`` over each game's rows, game by game."""
    games: dict[int, list[float]] = {}
    for row in rows:
        games.setdefault(row[0], []).append(row[column])
    return [float(np.mean(values)) for _, values in sorted(games.items())]


def summary(scores: Scores) -> dict:
    """Per evaluation: overall and per-round log-loss and Brier with intervals, and the
    Brier score paired with the first evaluation's (every evaluation scores the same
    positions, so per game the difference of the means is the mean of the differences)."""
    names = list(scores)
    first = per_game([row for rows in scores[names[0]].values() for row in rows], 2)
    report = {}
    for name in names:
        rows = [row for by_round in scores[name].values() for row in by_round]
        brier_per_game = per_game(rows, 2)
        report[name] = {
            "positions": len(rows),
            "log_loss": mean_interval(per_game(rows, 1)),
            "brier": mean_interval(brier_per_game),
            "paired_brier": mean_interval(
                [mine - theirs for mine, theirs in zip(brier_per_game, first, strict=True)]
            ),
            "by_round": {
                str(r): {
                    "log_loss": mean_interval(per_game(by_round, 1)),
                    "brier": mean_interval(per_game(by_round, 2)),
                }
                for r, by_round in sorted(scores[name].items())
            },
        }
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", type=Path, help="a folder of game records (*.mgn)")
    parser.add_argument("--playouts", type=int, default=256, help="playouts per position")
    parser.add_argument("--evaluations", default="playouts,horizon,heuristic,model,uniform")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    try:
        if not args.records.is_dir():
            raise ManhattanError(f"{args.records}: expected a folder of game records")
        paths = sorted(args.records.glob("*.mgn"))
        if not paths:
            raise ManhattanError(f"{args.records}: no game records (*.mgn) in it")
        if args.playouts < 1:
            raise ManhattanError(f"--playouts: expected at least 1, not {args.playouts}")
        chosen = evaluations(args.evaluations.split(","), args.playouts)
        stopping.reset()
        with stopping.on_signals():
            scores, scored = score_games(paths, chosen, args.seed)
    except ManhattanError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    if scored < 2:
        print(f"interrupted after {scored} games: too few to report", file=sys.stderr)
        return 1
    report = {
        "records": str(args.records),
        "games": scored,
        "interrupted": scored < len(paths),
        "playouts": args.playouts,
        "seed": args.seed,
        "evaluations": summary(scores),
    }
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        if report["interrupted"]:
            print(f"interrupted: {scored} of {len(paths)} games scored")
        for name, figures in report["evaluations"].items():
            score, paired = figures["brier"], figures["paired_brier"]
            print(
                f"{name:10s} Brier {score['mean']:.4f} ± {score['pm']:.4f}  "
                f"paired {paired['mean']:+.4f} ± {paired['pm']:.4f}  "
                f"log-loss {figures['log_loss']['mean']:.4f}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
