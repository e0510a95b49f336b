"""Fit the learned evaluation of ``positions.value`` (one model per player count) by
self-play of the playout policy.

Plays ``--games`` games per player count with the compiled playout policy against itself
(``--placement``/``--selection``, ε = ``--epsilon``: the games the search's playouts
would play), replays each through the readable rules and keeps every round's end with the
game's final totals and win shares.  The coefficients of the predicted final total are
fitted by least squares on (final total − total now), the sharpness of the softmax of
first place by maximum likelihood of the win shares (a 1-D search), on numpy alone.
Writes ``positions/data/models/value_{players}p.json``: the model and how it was fitted
(games, positions, R², log-loss of first place against the uniform guess).
Deterministic for a ``--seed``.

    python scripts/train_value_model.py [--players 2,3,4] [--games 4000]
        [--placement heuristic] [--selection biggest] [--epsilon 0.1] [--seed 11]
        [--out positions/data/models]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from positions.playout import playout_trace
from positions.state import GameState, Phase
from positions.value import FEATURES, ValueModel, features, predict

ROOT = Path(__file__).resolve().parent.parent


def round_ends(players: int, seed: int, epsilon: float, placement: str, selection: str):
    """The features at every round's end of one self-play game, and its final totals and
    win shares."""
    state = GameState.new_game(players, np.random.default_rng(seed))
    trace = playout_trace(state, seed, epsilon, placement, selection)
    rows = []
    for action, drawn in trace:
        scored = state.phase == Phase.PLACEMENT
        if drawn < 0 or (state.deck_count() > 0 and state.deck[-1] == drawn):
            state.apply_action(action)
        else:  # after the kernel's own reshuffle the draw is named
            state.apply_move(state.action_to_move(action), drawn=drawn)
        if scored and state.phase == Phase.SELECTION:
            rows.append(features(state))
    return rows, np.array(state.player_totals(), float), np.array(state.returns(), float)


def fit(players: int, games: int, seed: int, epsilon: float, placement: str, selection: str):
    """Play, fit and return the JSON-ready model file for ``players``."""
    blocks, targets, shares = [], [], []
    for game in range(games):
        rows, totals, wins = round_ends(
            players, seed * 100_000 + game, epsilon, placement, selection
        )
        for row in rows:
            blocks.append(row)
            targets.append(totals)
            shares.append(wins)
    x = np.concatenate([b[:, : len(FEATURES)] for b in blocks])
    now = np.concatenate([b[:, -1] for b in blocks])
    y = np.concatenate(targets) - now
    coefficients, *_ = np.linalg.lstsq(x, y, rcond=None)
    residual = y - x @ coefficients
    r2 = 1 - residual.var() / y.var()
    base = ValueModel(*[float(c) for c in coefficients], sharpness=1.0)

    def log_loss(sharpness: float) -> float:
        model = ValueModel(*base.to_array()[: len(FEATURES)], sharpness=sharpness)
        total = 0.0
        for rows, wins in zip(blocks, shares, strict=True):
            chances, _ = predict(model, rows)
            total -= float(wins @ np.log(np.maximum(chances, 1e-12)))
        return total / len(blocks)

    low, high = 0.01, 5.0
    for _ in range(60):  # golden-section search: the log-loss is unimodal in the sharpness
        a, b = high - 0.618 * (high - low), low + 0.618 * (high - low)
        if log_loss(a) < log_loss(b):
            high = b
        else:
            low = a
    sharpness = (low + high) / 2
    model = ValueModel(*base.to_array()[: len(FEATURES)], sharpness=round(sharpness, 4))
    return {
        "model": {k: round(float(v), 5) for k, v in model.to_json().items()},
        "fitted": {
            "players": players,
            "games": games,
            "positions": len(blocks),
            "policy": {"placement": placement, "selection": selection, "epsilon": epsilon},
            "seed": seed,
            "r2_of_the_rest_of_the_game": round(float(r2), 4),
            "log_loss_of_first_place": round(log_loss(sharpness), 4),
            "log_loss_uniform": round(float(np.log(players)), 4),
        },
    }


def main(argv: list[str] | None = None) -> None:
    """Fit and write one model file per player count."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--placement", default="heuristic")
    parser.add_argument("--selection", default="biggest")
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--out", type=Path, default=ROOT / "positions" / "data" / "models")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for players in (int(p) for p in args.players.split(",")):
        data = fit(players, args.games, args.seed, args.epsilon, args.placement, args.selection)
        path = args.out / f"value_{players}p.json"
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        print(f"{path}: {data['model']} {data['fitted']}")


if __name__ == "__main__":
    main()
