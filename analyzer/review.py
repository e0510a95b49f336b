"""Game review: every decision of every player judged from that player's information.

For each decision the position before it is searched from the mover's view (cards the
record does not reveal are re-dealt consistently by the search; the card the mover played
is known to have been in their hand).  When the move played is not the search's most
visited decision, it is compared with the search's ``candidates`` most visited decisions
that have at least ``min_visits`` visits (by default the single most visited), all on the
same dealt worlds and playout seeds (``search.compare``: paired samples, common random
numbers).  The engine's choice is the candidate that does best in that comparison, and the
loss (in win-% points and in expected final points, each with a standard error) is
measured against it.  More candidates keep a mark from hanging on how a short search
ranked near-equal moves, but split the comparison's samples among more moves: measured by
``benchmarks/review_quality.py`` at the default budget, five candidates gave the same mark
in two seeds as often as one (86.9 % against 87.1 % of 642 decisions), so one stays the
default.

The comparison's trees explore with half the search's UCB constant
(``compare_exploration`` 0.35 against 0.7).  A tree's mean outcome is what values its
decision, and the iterations it spends trying poor follow-ups drag that mean away from
the decision's worth, most for the decision whose good follow-ups are hardest to find —
a bias no standard error shows, which shrinks only as the budget grows.  Measured by
``benchmarks/review_quality.py`` (2 workers, 1 s a move, 642 decisions): at 0.35 the two
seeds gave the same mark on 92.4 % of the decisions (90.3 % at 0.7) and no ``?`` or
``??`` offered a better move that a 20× budget rates below the move played (one at 0.7),
but fewer marked losses lie within 5 points of the 20× review (83.8 % against 93.1 %).

Marks (lichess's scale, settable): a loss of at least 5 / 10 / 15 win-% points is ``?!`` /
``?`` / ``??`` — but only when the loss clears the threshold with confidence: the mark is
the most severe one whose threshold lies below ``loss − 2.576 × standard error`` (a
one-sided 99.5 % bound, ``confidence_z``).  That bound was 95 % (1.645) until
``benchmarks/review_quality.py`` measured, on two seed pairs at the default budget, that
99.5 % gives the same mark in two reviews about 2 points more often (90.3 % against
88.3 %, and 93.0 % against 91.1 %, of 642 decisions) for a fifth fewer marks, with their
losses as close to a 20× review.  No mark once the game is decided for the mover: when
even the engine's choice wins at most ``decided`` (3 %) or the played move still wins at
least ``1 - decided``.  The engine's choice is offered as the better move (``better``) only when
the comparison shows it better with the same confidence; every candidate has been visited
at least ``min_visits`` times by the search, so none rests on a handful of visits.
Accuracy per move follows lichess's curve, ``103.1668 · exp(−0.04354 · loss) − 3.1669``
clamped to 0-100, and a player's accuracy is the mean over their decisions.

The result is plain data (``Review``) for any renderer, and ``annotate`` writes the
figures back into the record as marks and comments.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from analyzer.engine import DEFAULT_EPSILON, make_evaluator
from analyzer.explain import Figures, why_better
from positions.errors import ManhattanError
from positions.moves import NoPlacement, Placement
from positions.record import GameRecord, RecordedMove
from positions.state import GameState
from search import stopping
from search.compare import compare_decisions
from search.ismcts import SearchConfig
from search.limits import Limit
from search.parallel import Parallelism, run_search, warm_up
from search.results import Candidate
from search.stats import Z995_ONE_SIDED

MARKS_BY_SEVERITY = ("??", "?", "?!")
DEFAULT_SECONDS_PER_MOVE = 1.0


@dataclass(frozen=True)
class ReviewSettings:
    """How each decision is searched and judged.  ``iterations_per_move`` (with the seed
    and workers) makes a review repeatable; otherwise ``seconds_per_move`` of wall time.
    ``search_share`` of a decision's budget finds the engine's choice, the rest compares
    it with the move played (only when they differ)."""

    seconds_per_move: float = DEFAULT_SECONDS_PER_MOVE
    iterations_per_move: int | None = None
    workers: int = 1
    seed: int = 0
    backend: str = "loky"
    scheduler: str | None = None
    thresholds: tuple[float, float, float] = (5.0, 10.0, 15.0)  # ?!, ?, ?? in win-% points
    decided: float = 0.03
    min_visits: int = 30  # a candidate needs this many visits to be compared and offered
    candidates: int = 1  # the played move is compared with this many of the most visited
    confidence_z: float = Z995_ONE_SIDED
    search_share: float = 0.5
    epsilon: float = DEFAULT_EPSILON
    config: SearchConfig = SearchConfig()
    compare_exploration: float = 0.35  # UCB's constant in the comparison's trees

    def __post_init__(self) -> None:
        low, mid, high = self.thresholds
        if not 0 < low <= mid <= high <= 100:
            raise ManhattanError(
                f"mark thresholds must be ascending win-% points in (0, 100], not {self.thresholds}"
            )
        if not 0 < self.seconds_per_move < math.inf:
            raise ManhattanError(f"time per move must be positive, not {self.seconds_per_move}")
        if not 0 < self.search_share < 1:
            raise ManhattanError(f"search share must be in (0, 1), not {self.search_share}")
        if self.candidates < 1:
            raise ManhattanError(f"candidates must be at least 1, not {self.candidates}")
        if not self.compare_exploration > 0:
            raise ManhattanError(
                f"comparison exploration must be positive, not {self.compare_exploration}"
            )

    def parallelism(self) -> Parallelism:
        """The ``Parallelism`` these settings ask for (raises ``ManhattanError`` if bad)."""
        try:
            return Parallelism(self.workers, self.backend, self.scheduler)
        except ValueError as error:
            raise ManhattanError(str(error)) from None

    def comparison_config(self) -> SearchConfig:
        """The search knobs of the paired comparison: the search's, with UCB's constant
        ``compare_exploration``."""
        return replace(self.config, exploration=self.compare_exploration)

    def limit(self, share: float = 1.0) -> Limit:
        """The budget of one search, ``share`` of a decision's budget."""
        if self.iterations_per_move is not None:
            return Limit(iterations=max(1, int(self.iterations_per_move * share)))
        return Limit(seconds=self.seconds_per_move * share)


@dataclass(frozen=True)
class DecisionReview:
    """The judgement of one decision (``index`` counts every decision from 0).

    ``best`` is the engine's choice (the move played when the search visited it most, else
    the rival that did best in the paired comparison); ``better`` is the same move when it
    is established as better than the one played, else ``None``.  ``loss`` and
    ``points_loss`` (≥ 0) are the paired estimates of what the move played gave away,
    ``loss_se`` and ``points_loss_se`` their standard errors (0 when the move played is the
    engine's choice); ``compared`` counts the paired iterations behind them and ``rivals``
    names the search's moves the move played was compared with (``best`` is one of them).
    """

    index: int
    player: int  # 1-based
    played: str
    best: str
    better: str | None
    win_before: float
    win_after: float
    loss: float  # win-% points
    loss_se: float
    points_loss: float
    points_loss_se: float
    mark: str | None
    best_score: float
    played_score: float
    compared: int = 0
    why: str | None = None  # in words: why the engine's choice is better, when it is
    rivals: tuple[str, ...] = ()  # the search's moves the move played was compared with

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


def _round(value: float, digits: int) -> float | None:
    return round(value, digits) if math.isfinite(value) else None


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
        """The review as JSON-ready data."""
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
                            "better": d.better,
                            "loss": round(d.loss, 1),
                            "points_loss": round(d.points_loss, 1),
                            "mark": d.mark,
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
                    "better": d.better,
                    "win_before": round(d.win_before, 4),
                    "win_after": round(d.win_after, 4),
                    "loss": round(d.loss, 2),
                    "loss_se": _round(d.loss_se, 2),
                    "points_loss": round(d.points_loss, 2),
                    "points_loss_se": _round(d.points_loss_se, 2),
                    "mark": d.mark,
                    "compared": d.compared,
                    "rivals": list(d.rivals),
                    "why": d.why,
                }
                for d in self.decisions
            ],
            "complete": self.complete,
            "interrupted": not self.complete,
            "reviewed": len(self.decisions),
            "total_decisions": self.total_decisions,
            "seconds": round(self.seconds, 2),
        }


def is_decided(win_before: float, win_after: float, settings: ReviewSettings) -> bool:
    """Whether the game is already decided for the mover (no mark is given then)."""
    return win_before <= settings.decided or win_after >= 1.0 - settings.decided


def confident_loss(loss: float, loss_se: float, settings: ReviewSettings) -> float:
    """The loss the player gave away at least, with the confidence of ``confidence_z``
    (one-sided 99.5 % by default)."""
    return loss - settings.confidence_z * loss_se


def is_established(
    loss: float, loss_se: float, well_visited: bool, settings: ReviewSettings
) -> bool:
    """Whether the engine's choice is established as better than the move played: the
    search visited it at least ``min_visits`` times (``well_visited``) and the paired
    ``loss`` clears zero with confidence.  Only then is it offered, or a mark given."""
    return well_visited and confident_loss(loss, loss_se, settings) > 0


def mark_for(
    loss: float, loss_se: float, win_before: float, win_after: float, settings: ReviewSettings
) -> str | None:
    """The mark a win-% ``loss`` with standard error ``loss_se`` earns: the most severe whose
    threshold the confident loss clears (None below the first, or when decided)."""
    if is_decided(win_before, win_after, settings):
        return None
    sure = confident_loss(loss, loss_se, settings)
    for mark, threshold in zip(MARKS_BY_SEVERITY, reversed(settings.thresholds), strict=True):
        if sure >= threshold:
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
    """Judge one decision; returns it and whether a stop request cut its searches short."""
    view = _position_for(state, recorded)
    played_actions = tuple(view.move_to_actions(recorded.move))
    played_text = str(recorded.move)
    parallelism = settings.parallelism()
    evaluator = make_evaluator(settings.epsilon)
    seed = settings.seed + index
    result = run_search(
        view, settings.limit(settings.search_share), evaluator, seed, parallelism, settings.config
    )
    best = result.best
    player = view.current_player() + 1
    if best.move == played_text:
        decision = DecisionReview(
            index,
            player,
            played_text,
            best.move,
            None,
            best.win,
            best.win,
            0.0,
            0.0,
            0.0,
            0.0,
            None,
            best.score,
            best.score,
        )
        return decision, result.interrupted
    rivals = _rivals(result.candidates, played_text, settings)
    comparison = compare_decisions(
        view,
        [*(c.actions for c in rivals), played_actions],
        settings.limit(1 - settings.search_share),
        evaluator,
        seed,
        parallelism,
        settings.comparison_config(),
    )
    chosen = max(range(len(rivals)), key=lambda k: comparison.values[k].win)
    values = comparison.relative_to(chosen)
    engine, played = values[chosen], values[-1]
    loss, loss_se = 100.0 * played.win_gap, 100.0 * played.win_gap_se
    established = is_established(
        loss, loss_se, rivals[chosen].visits >= settings.min_visits, settings
    )
    decision = DecisionReview(
        index=index,
        player=player,
        played=played_text,
        best=engine.move,
        better=engine.move if established else None,
        win_before=engine.win,
        win_after=played.win,
        loss=max(0.0, loss),
        loss_se=loss_se,
        points_loss=max(0.0, played.score_gap),
        points_loss_se=played.score_gap_se,
        mark=mark_for(loss, loss_se, engine.win, played.win, settings) if established else None,
        best_score=engine.score,
        played_score=played.score,
        compared=comparison.iterations,
        why=_why(view, recorded, engine.move, engine, played) if established else None,
        rivals=tuple(c.move for c in rivals),
    )
    return decision, result.interrupted or comparison.interrupted


def _rivals(candidates: list[Candidate], played: str, settings: ReviewSettings) -> list[Candidate]:
    """The search's most visited decisions other than the move played that the move played
    is compared with: up to ``settings.candidates`` with at least ``min_visits`` visits, or
    the single most visited when none has (it is then compared but never offered)."""
    others = [c for c in candidates if c.move != played]
    visited = [c for c in others if c.visits >= settings.min_visits]
    return visited[: settings.candidates] or others[:1]


def _why(view: GameState, recorded: RecordedMove, best: str, engine, played) -> str | None:
    """In words, why the engine's ``best`` beats the move played (with the figures)."""
    try:
        return why_better(
            view,
            recorded.move,
            best,
            figures=(Figures(played.win, played.score), Figures(engine.win, engine.score)),
        )
    except ManhattanError:
        return None


def summarize_players(record: GameRecord, decisions: list[DecisionReview]) -> list[PlayerSummary]:
    """Per player: accuracy, mark counts, every marked move (most costly first) and the
    win timeline."""
    summaries = []
    for player in range(1, record.players + 1):
        mine = [d for d in decisions if d.player == player]
        accuracy = sum(d.accuracy for d in mine) / len(mine) if mine else 0.0
        biggest = sorted((d for d in mine if d.mark), key=lambda d: (-d.loss, d.index))
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
    after each.  A stop request (Ctrl-C) ends the review: the decisions judged in full are
    kept (``complete`` is then false), the one in progress is dropped.  Raises
    ``ManhattanError`` for a record that does not replay."""
    started = time.monotonic()
    states = record.states()
    total = len(record.moves)
    warm_up(make_evaluator(settings.epsilon), settings.parallelism())
    decisions: list[DecisionReview] = []
    for index, recorded in enumerate(record.moves):
        if stopping.requested():
            break
        decision, interrupted = review_decision(states[index], recorded, index, settings)
        if interrupted:
            break
        decisions.append(decision)
        if progress is not None:
            progress(index + 1, total)
    return Review(
        decisions,
        summarize_players(record, decisions),
        total,
        time.monotonic() - started,
        len(decisions) == total,
        settings,
    )


def figures_comment(decision: DecisionReview) -> str:
    """The review's figures of one decision as a record comment."""
    if decision.played == decision.best:
        return f"engine agrees, win {decision.win_after:.0%}"
    loss = f"-{decision.loss:.1f} ± {decision.loss_se:.1f} win-%"
    points = f"-{decision.points_loss:.1f} ± {decision.points_loss_se:.1f} pts"
    if decision.better is None:
        return f"engine prefers {decision.best} but cannot show it is better ({loss}, {points})"
    comment = (
        f"better {decision.better} {decision.win_before:.0%}, played {decision.win_after:.0%} "
        f"({loss}, {points})"
    )
    return f"{comment}: {decision.why}" if decision.why else comment


def annotate(record: GameRecord, review: Review) -> GameRecord:
    """A copy of ``record`` with the review's marks on the moves (a move the review does not
    mark keeps its own mark) and a comment with the figures after each reviewed move."""
    moves = list(record.moves)
    for decision in review.decisions:
        recorded = moves[decision.index]
        figures = figures_comment(decision)
        comment = f"{recorded.comment} | {figures}" if recorded.comment else figures
        moves[decision.index] = replace(
            recorded, mark=decision.mark or recorded.mark, comment=comment
        )
    return GameRecord(record.players, dict(record.tags), moves)
