"""Write the bundled example positions and game records (positions/data/examples, games).

Positions are taken from games between the built-in bots at chosen moments and written
as the mover sees them (own hand shown, other hands ``?``).  Records are complete bot
games with every draw, so they replay to their Result.  Deterministic: the same seeds
give the same files.  Usage: ``python scripts/make_bundled.py [--force]``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from analyzer.players import make_bot
from positions.bundled import data_dir
from positions.notation import write_position
from positions.record import write_record
from positions.selfplay import play_game
from positions.state import GameState, Phase

# name, players, seed, round, phase, moment (selections made / placements made in the round)
EXAMPLES = [
    ("opening_4p.txt", 4, 11, 1, "s", 0),
    ("selection_4p_round2.txt", 4, 12, 2, "s", 2),
    ("middle_4p_round2.txt", 4, 13, 2, "p", 12),
    ("last_round_4p.txt", 4, 14, 4, "p", 16),
    ("opening_3p.txt", 3, 21, 1, "s", 0),
    ("middle_3p_round3.txt", 3, 22, 3, "p", 6),
    ("last_round_3p.txt", 3, 23, 6, "p", 7),
    ("opening_2p.txt", 2, 31, 1, "s", 0),
    ("middle_2p_round3.txt", 2, 32, 3, "p", 7),
    ("selection_2p_round4.txt", 2, 33, 4, "s", 1),
    ("last_round_2p.txt", 2, 34, 6, "p", 12),
]
EXAMPLE_BOT = "mcts:300"  # varied, sensible play (the simple bots always take the biggest blocks)

# name, players, bot specs, seed
GAMES = [
    ("heuristic_vs_greedy_4p.mgn", 4, ["heuristic", "greedy", "greedy", "greedy"], 101),
    ("greedy_4p.mgn", 4, ["greedy"] * 4, 102),
    ("mcts_vs_heuristic_4p.mgn", 4, ["mcts:300", "heuristic", "heuristic", "heuristic"], 103),
    ("heuristic_3p.mgn", 3, ["heuristic", "greedy", "random"], 104),
    ("heuristic_vs_greedy_2p.mgn", 2, ["heuristic", "greedy"], 105),
    ("random_2p.mgn", 2, ["random", "random"], 106),
]


def describe(state: GameState) -> str:
    """A one-line description of an example position."""
    rounds = state.layout.rounds
    if state.phase == Phase.SELECTION:
        moment = "selection"
    else:
        moment = f"{sum(state.blocks_held(p) for p in range(state.players))} blocks to place"
    return (
        f"{state.players} players, round {state.round} of {rounds}, {moment}, "
        f"P{state.current_player() + 1} to move"
    )


def example_position(
    players: int, seed: int, round_number: int, phase: str, placed: int
) -> GameState:
    """The mover's view of a game between search bots at the given moment."""
    record = play_game([make_bot(EXAMPLE_BOT) for _ in range(players)], players, seed).record
    for state in record.states():
        if state.round != round_number or state.is_terminal():
            continue
        made = sum(state.layout.quota * len(c) for c in state.layout.player_colors)
        placed_now = made - sum(state.selected) if state.phase == Phase.PLACEMENT else 0
        selecting = state.phase == Phase.SELECTION
        if phase == "s" and selecting:
            picked = sum(1 for p in range(players) if state.blocks_held(p))
            if picked == placed:
                return state.view(state.current_player())
        if phase == "p" and not selecting and placed_now == placed:
            return state.view(state.current_player())
    raise ValueError(f"no such moment in game {seed}")


def main() -> None:
    """Write every bundled example and record (refuses to overwrite without --force)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--force", action="store_true", help="overwrite existing files")
    args = parser.parse_args()
    outputs: list[tuple[Path, str]] = []
    for name, players, seed, round_number, phase, placed in EXAMPLES:
        state = example_position(players, seed, round_number, phase, placed)
        text = f"# {describe(state)}\n{write_position(state)}\n"
        outputs.append((data_dir("examples") / name, text))
    for name, players, specs, seed in GAMES:
        bots = [make_bot(spec) for spec in specs]
        record = play_game(bots, players, seed, names=specs).record
        outputs.append((data_dir("games") / name, write_record(record)))
    for path, _ in outputs:
        if path.exists() and not args.force:
            raise SystemExit(f"{path} exists (pass --force to overwrite it)")
    for path, text in outputs:
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
