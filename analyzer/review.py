"""Game review: every decision of every player judged from that player's information.

For each decision the position before it is searched from the mover's view (cards the
record does not reveal are re-dealt consistently by the search; the card the mover played
is known to have been in their hand).  The engine's choice gives ``win_before``; the
played move's own statistics give ``win_after`` — from the same search when it tried the
move often enough, else from a search restricted to that move.  ``loss`` is the drop in
win % points, ``points_loss`` the drop in expected final score.

Marks (lichess's scale, settable): a drop of at least 5 / 10 / 15 win-% points is ``?!``
/ ``?`` / ``??``.  No mark once the game is decided for the mover: when even the best
move wins at most ``decided`` (3 %) or the played move still wins at least
``1 - decided``.  Accuracy per move follows lichess's curve,
``103.1668 · exp(−0.04354 · loss) − 3.1669`` clamped to 0-100, and a player's accuracy
is the mean over their decisions.

The result is plain data (``Review``) for any renderer, and ``annotate`` writes the
figures back into the record as marks and comments.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from analyzer.engine import make_evaluator
from positions.errors import ManhattanError
from positions.moves import NoPlacement, Placement
from positions.record import GameRecord, RecordedMove
from positions.state import GameState
from search.ismcts import SearchConfig
from search.limits import Limit
from search.parallel import Parallelism, run_search

MARKS_BY_SEVERITY = ("??", "?", "?!")


@dataclass(frozen=True)
class ReviewSettings:
    """How each decision is searched and judged.  ``iterations_per_move`` (with the seed
    and workers) makes a review repeatable; otherwise ``seconds_per_move`` of wall time."""

    seconds_per_move: float = 0.5
    iterations_per_move: int | None = None
    workers: int = 1
    seed: int = 0
    backend: str = "loky"
    scheduler: str | None = None
    thresholds: tuple[float, float, float] = (5.0, 10.0, 15.0)  # ?!, ?, ?? in win-% points
    decided: float = 0.03
    min_visits: int = 30  # fewer visits for the played move: search it on its own
    epsilon: float = 0.1
    config: SearchConfig = SearchConfig()

    def __post_init__(self) -> None:
        low, mid, high = self.thresholds
        if not 0 < low <= mid <= high:
            raise ManhattanError(
                f"mark thresholds must be positive and ascending, not {self.thresholds}"
            )
        if not self.seconds_per_move > 0:
            raise ManhattanError(f"time per move must be positive, not {self.seconds_per_move}")

    def parallelism(self) -> Parallelism:
        """The ``Parallelism`` these settings ask for (raises ``ManhattanError`` if bad)."""
        try:
            return Parallelism(self.workers, self.backend, self.scheduler)
        except ValueError as error:
            raise ManhattanError(str(error)) from None

    def limit(self, share: float = 1.0) -> Limit:
        """The budget of one search, ``share`` of a decision's budget."""
        if self.iterations_per_move is not None:
            return Limit(iterations=max(1, int(self.iterations_per_move * share)))
        return Limit(seconds=self.seconds_per_move * share)


@dataclass(frozen=True)
class DecisionReview:
    """The judgement of one decision (``index`` counts every decision from 0)."""

    index: int
    player: int  # 1-based
    played: str
    best: str
    win_before: float
    win_after: float
    loss: float  # win-% points lost, ≥ 0
    points_loss: float  # expected final points lost, ≥ 0
    mark: str | None
    best_score: float
    played_score: float

    @property
    def accuracy(self) -> float:
        """Lichess-style accuracy of this move, 0-100."""
        value = 103.1668 * math.exp(-0.04354 * self.loss) - 3.1669
        return max(0.0, min(100.0, value))


@dataclass(frozen=True)
class PlayerSummary:
    """One player's review: accuracy, mark counts, worst moves, win-% timeline."""

    player: int
    name: str | None
    accuracy: float
    inaccuracies: int
    mistakes: int
    blunders: int
    biggest: list[DecisionReview]
    timeline: list[tuple[int, float]]  # (decision index, win after the move)


@dataclass
class Review:
    """A reviewed game: per decision and per player; ``complete`` is false when the review
    was interrupted (what was done is kept)."""

    decisions: list[DecisionReview]
    players: list[PlayerSummary]
    total_decisions: int
    seconds: float
    complete: bool = True
    settings: ReviewSettings = field(default_factory=ReviewSettings, repr=False)

    def to_json(self) -> dict:
        """The review as JSON-ready data (the shape of issue 4's ``review --json``)."""
        return {
            "players": [
                {
                    "player": p.player,
                    "name": p.name,
                    "accuracy": round(p.accuracy, 1),
                    "inaccuracies": p.inaccuracies,
                    "mistakes": p.mistakes,
                    "blunders": p.blunders,
                    "biggest": [
                        {
                            "index": d.index,
                            "played": d.played,
                            "best": d.best,
                            "loss": round(d.loss, 1),
                        }
                        for d in p.biggest
                    ],
                    "timeline": [{"index": i, "win": round(w, 4)} for i, w in p.timeline],
                }
                for p in self.players
            ],
            "decisions": [
                {
                    "index": d.index,
                    "player": d.player,
                    "played": d.played,
                    "best": d.best,
                    "win_before": round(d.win_before, 4),
                    "win_after": round(d.win_after, 4),
                    "loss": round(d.loss, 2),
                    "points_loss": round(d.points_loss, 2),
                    "mark": d.mark,
                }
                for d in self.decisions
            ],
            "complete": self.complete,
            "reviewed": len(self.decisions),
            "total_decisions": self.total_decisions,
            "seconds": round(self.seconds, 2),
        }


def mark_for(
    loss: float, win_before: float, win_after: float, settings: ReviewSettings
) -> str | None:
    """The mark a win-% ``loss`` earns (None below the first threshold or when decided)."""
    if win_before <= settings.decided or win_after >= 1.0 - settings.decided:
        return None
    for mark, threshold in zip(MARKS_BY_SEVERITY, reversed(settings.thresholds), strict=True):
        if loss >= threshold:
            return mark
    return None


def _position_for(state: GameState, recorded: RecordedMove) -> GameState:
    """The mover's view before ``recorded``, with the card they played shown in their hand
    (the record proves they held it)."""
    mover = state.current_player()
    view = state.view(mover)
    move = recorded.move
    if isinstance(move, Placement | NoPlacement):
        base = mover * 10
        if view.hands[base + move.card] == 0 and view.hands[base] > 0:
            view.hands[base] -= 1
            view.hands[base + move.card] += 1
    return view


def review_decision(
    state: GameState, recorded: RecordedMove, index: int, settings: ReviewSettings
) -> tuple[DecisionReview, bool]:
    """Judge one decision; returns it and whether a search was interrupted."""
    view = _position_for(state, recorded)
    played_actions = tuple(view.move_to_actions(recorded.move))
    parallelism = settings.parallelism()
    evaluator = make_evaluator(settings.epsilon)
    seed = settings.seed + index
    result = run_search(view, settings.limit(), evaluator, seed, parallelism, settings.config)
    interrupted = result.interrupted
    best = result.best
    played = result.candidate(str(recorded.move))
    if played is None or played.visits < settings.min_visits:
        forced = run_search(
            view,
            settings.limit(1 / 3),
            evaluator,
            seed,
            parallelism,
            settings.config,
            forced=played_actions,
        )
        interrupted = interrupted or forced.interrupted
        played = forced.best
    win_before = max(best.win, played.win)
    loss = max(0.0, best.win - played.win) * 100.0
    points_loss = max(0.0, best.score - played.score)
    decision = DecisionReview(
        index=index,
        player=view.current_player() + 1,
        played=str(recorded.move),
        best=best.move,
        win_before=win_before,
        win_after=played.win,
        loss=loss,
        points_loss=points_loss,
        mark=mark_for(loss, win_before, played.win, settings),
        best_score=best.score,
        played_score=played.score,
    )
    return decision, interrupted


def summarize_players(record: GameRecord, decisions: list[DecisionReview]) -> list[PlayerSummary]:
    """Per player: accuracy, mark counts, the three biggest losses, the win timeline."""
    summaries = []
    for player in range(1, record.players + 1):
        mine = [d for d in decisions if d.player == player]
        accuracy = sum(d.accuracy for d in mine) / len(mine) if mine else 0.0
        biggest = sorted((d for d in mine if d.loss > 0), key=lambda d: -d.loss)[:3]
        summaries.append(
            PlayerSummary(
                player=player,
                name=record.tags.get(f"P{player}"),
                accuracy=accuracy,
                inaccuracies=sum(d.mark == "?!" for d in mine),
                mistakes=sum(d.mark == "?" for d in mine),
                blunders=sum(d.mark == "??" for d in mine),
                biggest=biggest,
                timeline=[(d.index, d.win_after) for d in mine],
            )
        )
    return summaries


def review_game(
    record: GameRecord,
    settings: ReviewSettings = ReviewSettings(),
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review every decision of ``record`` in order.  ``progress(done, total)`` is called
    after each.  Ctrl-C stops the review after the current decision; what is done is kept
    (``complete`` is then false).  Raises ``ManhattanError`` for a record that does not
    replay."""
    started = time.perf_counter()
    states = record.states()
    total = len(record.moves)
    decisions: list[DecisionReview] = []
    complete = True
    try:
        for index, recorded in enumerate(record.moves):
            decision, interrupted = review_decision(states[index], recorded, index, settings)
            decisions.append(decision)
            if progress is not None:
                progress(index + 1, total)
            if interrupted:
                complete = index + 1 == total
                break
    except KeyboardInterrupt:
        complete = False
    return Review(
        decisions,
        summarize_players(record, decisions),
        total,
        time.perf_counter() - started,
        complete,
        settings,
    )


def annotate(record: GameRecord, review: Review) -> GameRecord:
    """A copy of ``record`` with the review's marks on the moves (a move the review does not
    mark keeps its own mark) and a comment with the figures after each reviewed move."""
    moves = list(record.moves)
    for decision in review.decisions:
        recorded = moves[decision.index]
        figures = (
            f"win {decision.win_after:.0%}"
            if decision.played == decision.best
            else f"best {decision.best} {decision.win_before:.0%}, played {decision.win_after:.0%}"
            f" (-{decision.loss:.1f} %, -{decision.points_loss:.1f} pts)"
        )
        comment = f"{recorded.comment} | {figures}" if recorded.comment else figures
        moves[decision.index] = replace(
            recorded, mark=decision.mark or recorded.mark, comment=comment
        )
    return GameRecord(record.players, dict(record.tags), moves)
