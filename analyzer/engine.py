"""Analysis of a position for the player to move, from that player's information only.

``analyze(state, settings)`` searches the mover's view of ``state`` (every other hand
hidden, the deck unknown), so the answer is the same whether or not the input showed the
opponents' hands.  The result is plain data (``Analysis``) that the command line turns
into a table or JSON.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from analyzer.explain import Figures, explain_move, why_better
from positions.errors import HiddenInformationError, ManhattanError
from positions.notation import write_position
from positions.state import GameState
from search.continuation import playout_line
from search.ismcts import SearchConfig
from search.limits import Limit, LimitError
from search.parallel import Parallelism, run_search
from search.results import Candidate, SearchResult
from search.stats import Z95, rate_standard_error, wilson_interval

DEFAULT_SECONDS = 5.0
DEFAULT_EPSILON = 0.0  # the playouts' share of random moves: greedy play (measured best)
LINE_WORLDS = 100  # worlds whose playouts name the line beyond a depth-one tree
COMPILE_MESSAGE = "compiling the search kernel (first run only, about 15 s)"


def default_workers() -> int:
    """Searchers to run by default: one per core, at most two (the machines we target)."""
    return max(1, min(2, os.cpu_count() or 1))


def default_limit(iterations: int | None = None, seconds: float | None = None) -> Limit:
    """The budget of an analysis: the ones given, else ``DEFAULT_SECONDS`` of wall time.
    Raises ``ManhattanError`` for a budget out of range."""
    if iterations is None and seconds is None:
        seconds = DEFAULT_SECONDS
    try:
        return Limit(iterations, seconds)
    except LimitError as error:
        raise ManhattanError(str(error)) from None


def engine_needs_compiling() -> bool:
    """Whether getting the search ready means compiling its kernel (the first run after an
    install: several seconds) rather than loading it from the per-user cache."""
    from positions.playout import needs_compiling

    return needs_compiling()


def prepare_engine() -> None:
    """Compile or load the search kernel now, before any search's clock starts."""
    make_evaluator(DEFAULT_EPSILON).prepare()


@dataclass(frozen=True)
class EngineSettings:
    """How hard and where to search: ``DEFAULT_SECONDS`` of wall time by default (the
    command line also runs ``default_workers()`` searchers); an iteration budget with a
    seed and worker count gives a repeatable run."""

    limit: Limit = Limit(seconds=DEFAULT_SECONDS)
    workers: int = 1
    seed: int = 0
    backend: str = "loky"
    scheduler: str | None = None
    config: SearchConfig = SearchConfig()
    epsilon: float = DEFAULT_EPSILON  # exploration of the playout policy

    def parallelism(self) -> Parallelism:
        """The ``Parallelism`` these settings ask for (raises ``ManhattanError`` if bad)."""
        try:
            return Parallelism(self.workers, self.backend, self.scheduler)
        except ValueError as error:
            raise ManhattanError(str(error)) from None


def make_evaluator(epsilon: float):
    """The compiled Manhattan playout evaluator (imported here: numba loads only when a
    search is run)."""
    from positions.playout import PlayoutEvaluator

    return PlayoutEvaluator(epsilon=epsilon)


@dataclass(frozen=True)
class CandidateMove:
    """One candidate of the analysis, from the mover's point of view.

    ``win_low``–``win_high`` is a 95 % interval of ``win`` (Wilson's, from the visits);
    ``equal_to_best`` marks a candidate the search cannot tell from the best (see
    ``equal_to_best``)."""

    move: str
    visits: int
    win: float
    score: float
    margin: float
    reason: str | None
    win_low: float = 0.0
    win_high: float = 1.0
    equal_to_best: bool = False


EQUAL_MIN_SHARE = 0.05  # of the best's visits: a candidate with fewer was set aside


def equal_to_best(best: Candidate, other: Candidate) -> bool:
    """Whether the search cannot tell ``other`` from ``best``: their win rates differ by
    less than 1.96 standard errors of the difference, and ``other`` was searched enough
    to count (at least 5 % of the best's visits; fewer means the search set it aside)."""
    if other.visits < EQUAL_MIN_SHARE * best.visits:
        return False
    spread = math.hypot(
        rate_standard_error(best.win, best.visits), rate_standard_error(other.win, other.visits)
    )
    return abs(best.win - other.win) < Z95 * spread


@dataclass
class Analysis:
    """The analysis of one position: candidates (most visited first), the expected line,
    and what the search spent."""

    position: str  # the mover's view of the analyzed position, canonical
    to_move: int  # 1-based
    candidates: list[CandidateMove]
    line: list[tuple[int, str]]  # (1-based player, move)
    iterations: int
    seconds: float
    interrupted: bool
    search: SearchResult = field(repr=False)
    why_best: str | None = None  # why the best move beats the runner-up, in words

    @property
    def best(self) -> CandidateMove:
        """The recommended move."""
        return self.candidates[0]

    def to_json(self) -> dict:
        """The machine-readable analysis of NOTATION.md."""
        return {
            "position": self.position,
            "to_move": self.to_move,
            "best": self.best.move,
            "moves": [
                {
                    "move": c.move,
                    "visits": c.visits,
                    "win": round(c.win, 4),
                    "score": round(c.score, 2),
                    "margin": round(c.margin, 2),
                    "win_low": round(c.win_low, 4),
                    "win_high": round(c.win_high, 4),
                    "equal_to_best": c.equal_to_best,
                    "reason": c.reason,
                }
                for c in self.candidates
            ],
            "why_best": self.why_best,
            "line": [{"player": p, "move": m} for p, m in self.line],
            "iterations": self.iterations,
            "seconds": round(self.seconds, 3),
            "interrupted": self.interrupted,
        }


def mover_view(state: GameState) -> GameState:
    """The position as the player to move sees it.  Raises ``ManhattanError`` when the game
    is over and ``HiddenInformationError`` when the mover's own hand is not shown."""
    if state.is_terminal():
        raise ManhattanError("the game is over: there is no move to analyze")
    mover = state.current_player()
    if not state.hand_is_known(mover):
        raise HiddenInformationError(
            f"the hand of P{mover + 1}, who is to move, is not shown (it holds ?): "
            "analysis needs the mover's cards"
        )
    if state.move_in_progress():
        raise ManhattanError("the mover is in the middle of a selection")
    return state.view(mover)


EXPLAINED = 10  # candidates that get a reason (the rest are rarely looked at)


def analysis_from_result(view: GameState, result: SearchResult) -> Analysis:
    """The ``Analysis`` of a search ``result`` of the mover's ``view``: each candidate with
    its interval, whether it is indistinguishable from the best, and (for the top
    ``EXPLAINED``) a reason in words."""
    best = result.best
    candidates = [
        CandidateMove(
            c.move,
            c.visits,
            c.win,
            c.score,
            c.margin,
            explain_move(view, view.actions_to_move(c.actions)) if rank < EXPLAINED else None,
            *wilson_interval(c.win * c.visits, c.visits),
            equal_to_best=c is not best and equal_to_best(best, c),
        )
        for rank, c in enumerate(result.candidates)
    ]
    return Analysis(
        position=write_position(view),
        to_move=view.current_player() + 1,
        candidates=candidates,
        line=[(m.player + 1, m.move) for m in result.line],
        iterations=result.iterations,
        seconds=result.seconds,
        interrupted=result.interrupted,
        search=result,
        why_best=_why_best(view, result),
    )


def _why_best(view: GameState, result: SearchResult) -> str | None:
    """Why the best candidate beats the runner-up, with the search's figures."""
    if len(result.candidates) < 2:
        return None
    best, second = result.candidates[0], result.candidates[1]
    try:
        return why_better(
            view,
            view.actions_to_move(second.actions),
            view.actions_to_move(best.actions),
            figures=(Figures(second.win, second.score), Figures(best.win, best.score)),
        )
    except ManhattanError:
        return None


def analyze(
    state: GameState,
    settings: EngineSettings = EngineSettings(),
    progress: Callable[[float], None] | None = None,
    report: Callable[[SearchResult], None] | None = None,
    report_every: float = 1.0,
) -> Analysis:
    """Search the position for its player to move, from that player's view, and return
    the ``Analysis``.

    ``progress`` is called about every 0.1 s with the elapsed seconds; ``report`` every
    ``report_every`` seconds with the search's result so far (for partial answers).  A
    stop request ends the search with what it has (``interrupted``).  Raises
    ``ManhattanError`` (or a subclass) for a position that cannot be analyzed.
    """
    view = mover_view(state)
    evaluator = make_evaluator(settings.epsilon)
    result = run_search(
        view,
        settings.limit,
        evaluator,
        settings.seed,
        settings.parallelism(),
        settings.config,
        progress,
        report=report,
        report_every=report_every,
    )
    if len(result.line) == 1:  # the tree stops at the root decision: ask the playouts
        rng = np.random.default_rng(settings.seed)
        result.line += playout_line(view, result.best.actions, evaluator, rng, LINE_WORLDS)
    return analysis_from_result(view, result)
