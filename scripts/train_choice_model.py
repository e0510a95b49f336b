"""Fit the opponent model of ``positions.inference`` (one per player count) to recorded play.

Plays ``--games`` games per player count between the ``--bots`` (default: the search
engine at 600 iterations in every seat, the opponent the engine meets most in the ladder),
keeps every placement decision with the hand it was made from (the games' worlds know
every card), and fits the softmax temperature τ and the random ``mix`` of the choice model
by maximum likelihood over a grid (numpy only): the likelihood of each decision's move
given its true hand, with the moves valued from the public board as the dealer values
them.  Writes ``positions/data/models/choice_{players}p.json``: the model and how it was
fitted (games, decisions, bots, the log-likelihood per decision against a uniformly
random choice).  ``--values greedy`` values the moves by their immediate round points
instead of the heuristic's valuation (``ChoiceModel.values``).  Deterministic for a
``--seed``: the same seed plays the same games, so two value sets compare on the same moves.

    python scripts/train_choice_model.py [--players 2,3,4] [--games 8] [--bots mcts:600]
        [--values heuristic] [--seed 7] [--workers 2] [--out positions/data/models]
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed

from analyzer.players import make_bot
from positions.inference import ChoiceModel
from positions.kernel_board import pack_board
from positions.policy import placement_values, public_unseen, values_weights
from positions.selfplay import play_game

ROOT = Path(__file__).resolve().parent.parent
TEMPERATURES = (0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.7, 1.0, 1.4, 2.0, 3.0, 5.0)
MIXES = (0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5)


def decisions_of_game(
    players: int, bots: list[str], seed: int, values_by: str = "heuristic"
) -> list[tuple[np.ndarray, int]]:
    """Every placement decision of one game with a legal placement: the legal moves' values
    (by ``values_by``) given the true hand (NaN elsewhere) and the index of the move played."""
    outcome = play_game([make_bot(spec) for spec in bots], players, seed)
    found = []
    for before, action in outcome.record.placement_choices():
        mover = before.to_move
        cards = [c for c in range(1, 10) if before.hands[mover * 10 + c]]
        values = placement_values(
            pack_board(before.public_copy()),
            mover,
            cards,
            public_unseen(before.played),
            values_weights(values_by),
        )
        found.append((values, action))
    return found


def log_likelihoods(decisions: list[tuple[np.ndarray, int]]) -> np.ndarray:
    """The total log-likelihood of the decisions for each (temperature, mix) of the grid."""
    table = np.zeros((len(TEMPERATURES), len(MIXES)))
    for values, action in decisions:
        legal = ~np.isnan(values)
        v = values[legal]
        chosen = values[action]
        count = legal.sum()
        for i, temperature in enumerate(TEMPERATURES):
            weights = np.exp((v - v.max()) / temperature)
            softmax = np.exp((chosen - v.max()) / temperature) / weights.sum()
            for j, mix in enumerate(MIXES):
                table[i, j] += np.log((1 - mix) * softmax + mix / count)
    return table


def fit(players: int, games: int, bots: list[str], seed: int, workers: int, values_by: str) -> dict:
    """Play, fit and return the JSON-ready model file for ``players``."""
    seeds = [seed * 1000 + players * 100 + g for g in range(games)]
    per_game = Parallel(n_jobs=workers)(
        delayed(decisions_of_game)(players, bots, s, values_by) for s in seeds
    )
    decisions = [d for game in per_game for d in game]
    table = log_likelihoods(decisions)
    i, j = np.unravel_index(int(np.argmax(table)), table.shape)
    uniform = sum(-np.log((~np.isnan(values)).sum()) for values, _ in decisions)
    model = replace(ChoiceModel(), temperature=TEMPERATURES[i], mix=MIXES[j], values=values_by)
    return {
        "model": model.to_json(),
        "fitted": {
            "players": players,
            "games": games,
            "bots": bots,
            "seed": seed,
            "decisions": len(decisions),
            "log_likelihood_per_decision": round(float(table[i, j]) / len(decisions), 4),
            "uniform_log_likelihood_per_decision": round(float(uniform) / len(decisions), 4),
            "grid": {"temperatures": TEMPERATURES, "mixes": MIXES},
        },
    }


def main(argv: list[str] | None = None) -> None:
    """Fit and write one model file per player count."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--bots", default="mcts:600", help="one spec for every seat, or a,b,…")
    parser.add_argument("--values", choices=("heuristic", "greedy"), default="heuristic")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=ROOT / "positions" / "data" / "models")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for players in (int(p) for p in args.players.split(",")):
        specs = args.bots.split(",")
        bots = specs * players if len(specs) == 1 else specs
        if len(bots) != players:
            parser.error(f"--bots: one spec or {players} for a {players}-player game")
        data = fit(players, args.games, bots, args.seed, args.workers, args.values)
        path = args.out / f"choice_{players}p.json"
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        print(f"{path}: {data['model']} from {data['fitted']['decisions']} decisions")


if __name__ == "__main__":
    main()
