"""Solving puzzles (NOTATION.md, "Puzzle"): the mover's moves that meet the goal whatever
the opponents play and whatever cards are drawn.

``solve`` proves the answer with the exact search of ``analyzer.exact`` where it can: the
position is in the placement phase, every hand is shown, for ``"win"`` the round is the
last one (the game must end inside the search), and the search stays within its node
budget.  Otherwise it falls back to MCTS (``search.parallel.run_search`` with the compiled
playout evaluator) and says so: ``proven=False``, ``method="mcts"``, no solutions listed.
A selection-phase position is always followed by a whole round of placements (12 or more),
beyond the exact search, so it goes to the fallback.

When no move meets ``"win"`` (proven), ``best`` is the least bad move: the one with the
largest guaranteed final margin (the mover's total minus the best opponent's, whatever
they play and draw), the first in canonical order among equals; if that second search
overruns its budget (what is left of the node budget, at most a quarter of it), the MCTS
fallback picks it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from analyzer.exact import BudgetExceeded, ExactSearch
from positions.errors import HiddenInformationError, ManhattanError, quote
from positions.notation import write_position
from positions.puzzle import Puzzle, load_puzzle
from positions.state import GameState, Phase
from search import stopping
from search.limits import Limit
from search.parallel import run_search

GOALS = ("win", "round-points")
DEFAULT_NODE_BUDGET = 2_000_000
DEFAULT_FALLBACK = Limit(iterations=4000)


class SolveError(ManhattanError):
    """A position or goal the solver cannot take (an unknown goal, a finished game)."""


@dataclass
class SolveResult:
    """What ``solve`` found.

    ``solutions`` lists every root move meeting the goal (canonical, sorted) when
    ``proven``; ``value`` is, when proven, the points the mover is guaranteed from the
    round (``"round-points"``) or whether ``best`` wins (``"win"``), else ``None``.
    ``nodes`` counts the positions the exact search visited, plus the fallback's
    iterations.  ``method`` is ``"exact"``, ``"mcts"`` (the fallback) or ``"none"`` (no
    proof and no fallback asked for); ``note`` says why the solver fell back, or how
    ``best`` was chosen when nothing wins; ``estimate`` is the fallback's win estimate of
    ``best``.
    """

    position: str
    goal: str
    best: str
    solutions: list[str]
    proven: bool
    value: int | bool | None
    nodes: int
    seconds: float
    method: str
    note: str = ""
    estimate: float | None = field(default=None)

    def to_json(self) -> dict:
        """The result as a JSON-ready dict (NOTATION.md, "Machine-readable analysis")."""
        data = {
            "position": self.position,
            "goal": self.goal,
            "best": self.best,
            "proven": self.proven,
            "solutions": list(self.solutions),
            "value": self.value,
            "method": self.method,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
        }
        if self.note:
            data["note"] = self.note
        if self.estimate is not None:
            data["win_estimate"] = round(self.estimate, 4)
        return data


def _fallback_reason(state: GameState, goal: str) -> str:
    if state.phase == Phase.SELECTION:
        return "a selection is followed by a whole round of placements, too many to prove"
    if any(not state.hand_is_known(p) for p in range(state.players)):
        return "a hand is not shown, so the exact search cannot run"
    if goal == "win" and state.round != state.layout.rounds:
        return "the game does not end in this round, so a win cannot be proven"
    return ""


def solve(
    state: GameState,
    goal: str,
    node_budget: int = DEFAULT_NODE_BUDGET,
    fallback_limit: Limit | None = DEFAULT_FALLBACK,
    seed: int = 0,
) -> SolveResult:
    """Solve ``goal`` (``"win"`` or ``"round-points"``) for the player to move in ``state``.

    Returns a ``SolveResult``: proven by exact search within ``node_budget`` positions, or
    else the MCTS fallback's choice with ``fallback_limit`` (``None``: no fallback, ``best``
    is then the first legal move) and ``proven=False``.  Raises ``SolveError`` for an
    unknown goal or a finished game and ``HiddenInformationError`` when the mover's hand is
    not shown.
    """
    if goal not in GOALS:
        raise SolveError(f"goal {goal!r}: expected {' or '.join(repr(g) for g in GOALS)}")
    if state.is_terminal():
        raise SolveError("the game is over, there is nothing to solve")
    if not state.hand_is_known(state.to_move):
        raise HiddenInformationError(
            f"the hand of P{state.to_move + 1}, who is to move, is not shown (it holds ?)"
        )
    started = time.perf_counter()
    position = write_position(state)
    reason = _fallback_reason(state, goal)
    nodes = 0
    if not reason:
        search = ExactSearch(state, goal, node_budget)
        try:
            values = search.root_values()
        except BudgetExceeded:
            reason = f"the exact search needs more than {node_budget} positions"
            if stopping.requested():
                reason = "interrupted before the proof was complete"
        else:
            return _exact_result(state, goal, position, search, values, started, fallback_limit)
        nodes = search.nodes
    return _fallback(state, goal, position, reason, nodes, started, fallback_limit, seed)


def _exact_result(state, goal, position, search, values, started, fallback_limit) -> SolveResult:
    top = max(value for _, value in values)
    solutions = sorted(text for text, value in values if value == top and (goal != "win" or top))
    if solutions:
        return SolveResult(
            position=position,
            goal=goal,
            best=solutions[0],
            solutions=solutions,
            proven=True,
            value=bool(top) if goal == "win" else top,
            nodes=search.nodes,
            seconds=time.perf_counter() - started,
            method="exact",
        )
    # nothing wins: the least bad move by guaranteed margin
    margin_budget = max(1, min(search.budget - search.nodes, search.budget // 4))
    margin = ExactSearch(state, "margin", margin_budget)
    note = "no move wins; best has the largest guaranteed final margin"
    try:
        margins = margin.root_values()
        top_margin = max(v for _, v in margins)
        best = min(text for text, v in margins if v == top_margin)
    except BudgetExceeded:
        note = "no move wins; best is the MCTS fallback's choice"
        best = _fallback(state, goal, position, "", 0, started, fallback_limit, 0).best
    return SolveResult(
        position=position,
        goal=goal,
        best=best,
        solutions=[],
        proven=True,
        value=False,
        nodes=search.nodes + margin.nodes,
        seconds=time.perf_counter() - started,
        method="exact",
        note=note,
    )


def _fallback(state, goal, position, reason, nodes, started, limit, seed) -> SolveResult:
    if limit is None:
        return SolveResult(
            position=position,
            goal=goal,
            best=str(state.legal_moves()[0]),
            solutions=[],
            proven=False,
            value=None,
            nodes=nodes,
            seconds=time.perf_counter() - started,
            method="none",
            note=reason,
        )
    try:
        from positions.playout import PlayoutEvaluator

        evaluator = PlayoutEvaluator()
    except ImportError:  # pragma: no cover - the kernel is part of the package
        from search.evaluators import RandomRolloutEvaluator

        evaluator = RandomRolloutEvaluator()
    found = run_search(state, limit, evaluator, seed=seed)
    return SolveResult(
        position=position,
        goal=goal,
        best=found.best.move,
        solutions=[],
        proven=False,
        value=None,
        nodes=nodes + found.iterations,
        seconds=time.perf_counter() - started,
        method="mcts",
        note=reason,
        estimate=found.best.win,
    )


def solve_puzzle(
    puzzle: Puzzle,
    node_budget: int = DEFAULT_NODE_BUDGET,
    fallback_limit: Limit | None = DEFAULT_FALLBACK,
) -> SolveResult:
    """Solve ``puzzle``'s goal in its position (see ``solve``)."""
    return solve(puzzle.state, puzzle.goal, node_budget, fallback_limit)


def _verdict(puzzle: Puzzle, result: SolveResult) -> tuple[bool, str]:
    expected = sorted(str(m) for m in puzzle.solution)
    timing = f"{result.nodes} nodes, {result.seconds:.2f} s"
    if not result.proven:
        return False, f"unproven ({result.note}); best guess {result.best}, {timing}"
    if result.solutions == expected:
        return True, f"solved: {' '.join(expected)} ({timing})"
    found = " ".join(result.solutions) or "no move"
    return False, f"wrong: {found} meets the goal, the puzzle lists {' '.join(expected)}"


def check_puzzle(puzzle: Puzzle, node_budget: int = DEFAULT_NODE_BUDGET) -> tuple[bool, str]:
    """Whether the solver proves exactly ``puzzle``'s Solution, and a one-line verdict."""
    return _verdict(puzzle, solve_puzzle(puzzle, node_budget, fallback_limit=None))


@dataclass
class PuzzleCheck:
    """One puzzle file of a directory: whether it solved to its Solution, the verdict
    line, and the solve result (``None`` if the file could not be read)."""

    file: str
    solved: bool
    verdict: str
    seconds: float
    result: SolveResult | None = None

    def to_json(self) -> dict:
        """The check as a JSON-ready dict."""
        data = {
            "file": self.file,
            "solved": self.solved,
            "verdict": self.verdict,
            "seconds": round(self.seconds, 4),
        }
        if self.result is not None:
            data["result"] = self.result.to_json()
        return data


def solve_directory(path: str | Path, node_budget: int = DEFAULT_NODE_BUDGET) -> list[PuzzleCheck]:
    """Check every ``*.mpz`` file of directory ``path`` (sorted by name): each solved
    exactly to its Solution or not, with its verdict and time.  A file that cannot be read
    is a failed check naming the error.  A stop request (Ctrl-C) ends the list after the
    puzzle in progress.  Raises ``SolveError`` if ``path`` is not a directory or holds no
    ``.mpz`` file."""
    folder = Path(path)
    if not folder.is_dir():
        raise SolveError(f"{path}: not a directory")
    files = sorted(folder.glob("*.mpz"))
    if not files:
        raise SolveError(f"{path}: no .mpz puzzle files")
    checks = []
    for file in files:
        if stopping.requested():
            break
        started = time.perf_counter()
        try:
            puzzle = load_puzzle(file)
        except ManhattanError as error:
            checks.append(
                PuzzleCheck(file.name, False, f"error: {error}", time.perf_counter() - started)
            )
            continue
        result = solve_puzzle(puzzle, node_budget, fallback_limit=None)
        solved, verdict = _verdict(puzzle, result)
        checks.append(PuzzleCheck(file.name, solved, verdict, result.seconds, result))
    return checks


def is_puzzle_folder(target: str) -> bool:
    """Whether ``target`` names a folder (of puzzles) rather than a puzzle or position."""
    return bool(target.strip()) and Path(target).is_dir()


def load_target(target: str, goal: str | None) -> tuple[GameState, str]:
    """The position and goal ``solve`` works on: a puzzle file's Setup and Goal, or a
    position (string or file) with ``goal`` (default ``win``).  ``goal`` overrides the
    puzzle's.  Raises ``ManhattanError`` for an empty target, a bad file or goal."""
    from positions.loading import load_position

    if not target.strip():
        raise SolveError("empty puzzle name: expected a puzzle (.mpz), a folder or a position")
    if goal is not None and goal not in GOALS:
        raise SolveError(f"--goal {quote(goal)}: expected one of {', '.join(GOALS)}")
    if target.strip().lower().endswith(".mpz"):
        puzzle = load_puzzle(target.strip())
        return puzzle.state, goal or puzzle.goal
    return load_position(target), goal or "win"


def directory_summary(checks: list[PuzzleCheck]) -> dict:
    """``{"solved": …, "total": …, "seconds": …}`` of a directory's checks."""
    return {
        "solved": sum(1 for c in checks if c.solved),
        "total": len(checks),
        "seconds": round(sum(c.seconds for c in checks), 4),
    }
