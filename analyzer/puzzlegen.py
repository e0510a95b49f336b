"""Making puzzles: bot games stopped a few placements before the end of a round, kept when
the exact solver finds the position interesting.

A game is played by the compiled ε-greedy playout kernel (``positions.playout``), then
replayed through ``GameState`` (the readable rules) with the cards the kernel drew, up to
the chosen moment.  A position is a puzzle when at least one move meets the goal and only
a few do, out of many legal moves.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from analyzer.exact import ExactSearch
from analyzer.solve import SolveResult, solve
from positions.moves import decode_action
from positions.notation import parse_position, write_position
from positions.playout import playout_trace
from positions.puzzle import Puzzle, read_puzzle, write_puzzle
from positions.state import GameState, Phase


def tail_position(
    players: int, placements_left: int, seed: int, epsilon: float = 0.3, last_round: bool = True
) -> GameState:
    """A position of a bot game with ``placements_left`` placements left in the last
    round (or, with ``last_round=False``, in a round chosen by ``seed``), every hand shown
    and the deck order unknown, as a puzzle shows it.  Raises ``ValueError`` if
    ``placements_left`` is more than a round has."""
    rng = np.random.default_rng(seed)
    start = GameState.new_game(players, rng)
    per_round = start.layout.quota * len(start.layout.player_colors[0]) * players
    if not 1 <= placements_left <= per_round:
        raise ValueError(f"placements_left must be 1..{per_round}, not {placements_left}")
    target_round = start.layout.rounds if last_round else int(rng.integers(1, start.layout.rounds))
    trace = playout_trace(start, int(rng.integers(2**62)), epsilon)
    state = start
    for action, drawn in trace:
        if (
            state.round == target_round
            and state.phase == Phase.PLACEMENT
            and sum(state.selected) == placements_left
        ):
            break
        if decode_action(action)[0] == "pick":
            state.apply_action(action)
        else:
            state.apply_move(state.action_to_move(action), drawn=drawn)
    return parse_position(write_position(state))


@dataclass
class Candidate:
    """A position the solver found interesting, with its solve result; ``draw_matters``
    when the mover places again and could meet the goal with more moves if they chose
    their next card."""

    state: GameState
    goal: str
    placements_left: int
    result: SolveResult
    draw_matters: bool = False


def draw_matters(state: GameState, goal: str, solutions: list[str], node_budget: int) -> bool:
    """Whether the mover places again this round and the moves meeting ``goal`` would be
    other than ``solutions`` if the mover could choose the cards they draw (so the draw
    before their next placement changes the answer)."""
    if state.blocks_held(state.to_move) < 2:
        return False
    search = ExactSearch(state, goal, node_budget, mover_draws_best=True)
    values = search.root_values()
    top = max(value for _, value in values)
    friendly = sorted(text for text, value in values if value == top and (goal != "win" or top))
    return friendly != solutions


def is_interesting(
    result: SolveResult, legal_moves: int, most: int = 3, min_legal: int = 8
) -> bool:
    """Whether a solved position makes a puzzle: proven, 1..``most`` moves meet the goal,
    out of at least ``min_legal`` legal moves and three times as many as meet it."""
    count = len(result.solutions)
    return result.proven and 1 <= count <= most and legal_moves >= max(min_legal, 3 * count)


def candidates(
    players: int,
    placements_left: int,
    goal: str,
    seeds: Iterator[int],
    node_budget: int = 2_000_000,
    epsilon: float = 0.3,
    min_legal: int = 8,
) -> Iterator[Candidate]:
    """Interesting positions (see ``is_interesting``) from the games of ``seeds``, one
    position tried per seed, with the mover's draw judged (``draw_matters``)."""
    last_round = goal == "win"
    for seed in seeds:
        state = tail_position(players, placements_left, seed, epsilon, last_round)
        result = solve(state, goal, node_budget=node_budget, fallback_limit=None)
        if is_interesting(result, len(state.legal_moves()), min_legal=min_legal):
            matters = draw_matters(state, goal, result.solutions, node_budget)
            yield Candidate(state, goal, placements_left, result, matters)


def make_puzzle(candidate: Candidate, title: str) -> Puzzle:
    """The canonical puzzle of ``candidate`` (read back from its written text)."""
    solution = " ".join(candidate.result.solutions)
    text = (
        f'[Puzzle "{title}"]\n[Goal "{candidate.goal}"]\n[Solution "{solution}"]\n'
        f'[Setup "{write_position(candidate.state)}"]\n'
    )
    return read_puzzle(write_puzzle(read_puzzle(text)))
