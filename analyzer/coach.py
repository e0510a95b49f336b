"""The coach at the table: after a person's move, what it cost against the engine's choice
and why, in words; a hint before it; and when to offer taking a move back.

The judgement is the review's (``analyzer.review.review_decision``): the position is
searched from the mover's view and the search's favourite (or its top few, ``candidates``)
is compared with the move played on the same dealt worlds, so the loss in win % and in
points comes with a standard error, and a mark or a "better move" is given only when the
comparison shows it with confidence.  The words are
``analyzer.explain``'s: what each move does, why the engine's is better, and — what
lichess users ask for — the punishing reply: which opponent can undo the move's gain on
their next turn, with which card and how likely, from the cards the mover cannot see.

Teaching mode (KaTrain's): a take-back is offered when the move's confident loss (the
loss less 2.576 standard errors, as the review marks) reaches ``teach_threshold`` win-%
points, 10 by default (the ``?`` mark), and the engine's move is established as better.

Everything returned is plain data (``to_json``); nothing here prints.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from analyzer.engine import EngineSettings, analyze, default_workers, make_evaluator
from analyzer.explain import Threat, compare_moves, describe_move
from analyzer.explain_words import threat_phrase
from analyzer.review import (
    DecisionReview,
    ReviewSettings,
    confident_loss,
    figures_comment,
    is_decided,
    review_decision,
)
from positions.errors import ManhattanError
from positions.moves import Move
from positions.record import RecordedMove
from positions.state import GameState
from search.limits import Limit, LimitError
from search.parallel import warm_up

DEFAULT_COACH_SECONDS = 1.0  # per feedback: pleasant on 2 cores
DEFAULT_TEACH_THRESHOLD = 10.0  # win-% points: the '?' mark
MAX_COACH_SECONDS = 3600.0


@dataclass(frozen=True)
class CoachSettings:
    """The coach's budget and thresholds.  ``seconds`` of wall time per feedback and per
    hint on ``workers`` searchers, or ``iterations`` (repeatable with ``seed``);
    ``marks`` are the win-% drops of ``?!``, ``?`` and ``??``; a take-back is offered from
    ``teach_threshold`` win-% points of confident loss."""

    seconds: float = DEFAULT_COACH_SECONDS
    iterations: int | None = None
    workers: int = field(default_factory=default_workers)
    seed: int = 0
    marks: tuple[float, float, float] = (5.0, 10.0, 15.0)
    teach_threshold: float = DEFAULT_TEACH_THRESHOLD

    def __post_init__(self) -> None:
        try:
            Limit(self.iterations, self.seconds if self.iterations is None else None)
        except LimitError as error:
            raise ManhattanError(f"coach budget: {error}") from None
        if self.seconds > MAX_COACH_SECONDS:
            raise ManhattanError(f"coach budget: at most {MAX_COACH_SECONDS:g} s per move")
        if not 0 < self.teach_threshold <= 100:
            raise ManhattanError(
                f"teach threshold must be win-% points in (0, 100], not {self.teach_threshold}"
            )
        self.review_settings()  # checks the marks and the workers

    def review_settings(self) -> ReviewSettings:
        """The review's settings for one feedback (raises ``ManhattanError`` if bad)."""
        settings = ReviewSettings(
            seconds_per_move=self.seconds,
            iterations_per_move=self.iterations,
            workers=self.workers,
            seed=self.seed,
            thresholds=self.marks,
        )
        settings.parallelism()
        return settings

    def engine_settings(self, index: int) -> EngineSettings:
        """The analysis settings of a hint before decision ``index``."""
        if self.iterations is not None:
            limit = Limit(iterations=self.iterations)
        else:
            limit = Limit(seconds=self.seconds)
        return EngineSettings(limit=limit, workers=self.workers, seed=self.seed + index)


@dataclass(frozen=True)
class Reply:
    """A punishing reply to a move: who can undo its gain (``target`` ``"building"``,
    ``"tallest"`` or ``"majority"`` of ``city``) on their next turn, ``chance`` that one
    of them holds a card for it, and the sentence."""

    target: str
    city: int | None
    players: tuple[int, ...]
    chance: float
    text: str

    def to_json(self) -> dict[str, Any]:
        """The reply as JSON-ready data."""
        return {
            "target": self.target,
            "city": self.city,
            "players": list(self.players),
            "chance": round(self.chance, 4),
            "text": self.text,
        }


@dataclass(frozen=True)
class Feedback:
    """The coach's word on one decision (``index`` from 0, ``player`` 1-based).

    Figures are the review's: ``win_before`` is the engine's choice's win chance,
    ``win_after`` the move played's, ``loss`` ± ``loss_se`` their paired difference in
    win-% points, ``points_loss`` ± ``points_loss_se`` in expected final points.
    ``better`` and ``mark`` are set only when established.  ``sentences``: what the move
    does, and when the engine's is established as better, what that does and why
    (``summary``); ``replies``: who can punish the move next turn; ``takeback``: whether
    teaching mode offers to take the move back."""

    index: int
    player: int
    played: str
    best: str
    better: str | None
    win_before: float
    win_after: float
    loss: float
    loss_se: float
    points_loss: float
    points_loss_se: float
    mark: str | None
    summary: str | None
    sentences: tuple[str, ...]
    replies: tuple[Reply, ...]
    takeback: bool
    seconds: float
    decision: DecisionReview = field(repr=False, compare=False)

    @property
    def agrees(self) -> bool:
        """Whether the move played is the engine's choice."""
        return self.played == self.best

    @property
    def headline(self) -> str:
        """One line: the verdict with its figures."""
        played = f"{self.played}{self.mark or ''}"
        if self.agrees:
            return f"{played} is the engine's move (win {self.win_after:.0%})"
        cost = (
            f"{self.loss:.1f} ± {self.loss_se:.1f} win-% points and "
            f"{self.points_loss:.1f} ± {self.points_loss_se:.1f} points"
        )
        if self.better is None:
            return (
                f"{played} is as good as the search can tell: the engine's {self.best} is "
                f"not clearly better (-{self.loss:.1f} ± {self.loss_se:.1f} win-%, "
                f"-{self.points_loss:.1f} ± {self.points_loss_se:.1f} points)"
            )
        return (
            f"{played} costs {cost}: {self.better} was better "
            f"(win {self.win_before:.0%} against {self.win_after:.0%})"
        )

    @property
    def comment(self) -> str:
        """The feedback as a record comment (the review's figures, then the punishing
        reply), without braces."""
        text = f"coach: {figures_comment(self.decision)}"
        if self.better is not None and self.replies:
            text += "; reply: " + "; ".join(r.text for r in self.replies)
        return " ".join(text.replace("{", "(").replace("}", ")").split())

    def to_json(self) -> dict[str, Any]:
        """The feedback as JSON-ready data."""
        return {
            "index": self.index,
            "player": self.player,
            "played": self.played,
            "best": self.best,
            "better": self.better,
            "agrees": self.agrees,
            "win_before": round(self.win_before, 4),
            "win_after": round(self.win_after, 4),
            "loss": round(self.loss, 2),
            "loss_se": round(self.loss_se, 2),
            "points_loss": round(self.points_loss, 2),
            "points_loss_se": round(self.points_loss_se, 2),
            "mark": self.mark,
            "headline": self.headline,
            "summary": self.summary,
            "sentences": list(self.sentences),
            "replies": [r.to_json() for r in self.replies],
            "takeback": self.takeback,
            "seconds": round(self.seconds, 2),
        }


@dataclass(frozen=True)
class Hint:
    """The engine's move for the player to move, from their view: its number in the
    legal list, win chance (95 % interval) and expected final score, what it does
    (``reason``) and why it beats the runner-up (``why``)."""

    move: str
    number: int | None
    win: float
    win_low: float
    win_high: float
    score: float
    reason: str | None
    why: str | None
    runner_up: str | None
    iterations: int
    seconds: float

    @property
    def text(self) -> str:
        """The hint in one or two sentences."""
        number = f" (number {self.number})" if self.number else ""
        text = f"the engine plays {self.move}{number}: win {self.win:.0%}, {self.score:.1f} points"
        if self.reason:
            text += f"; it {self.reason}"
        return text

    def to_json(self) -> dict[str, Any]:
        """The hint as JSON-ready data."""
        return {
            "move": self.move,
            "number": self.number,
            "win": round(self.win, 4),
            "win_low": round(self.win_low, 4),
            "win_high": round(self.win_high, 4),
            "score": round(self.score, 2),
            "reason": self.reason,
            "why": self.why,
            "runner_up": self.runner_up,
            "text": self.text,
            "iterations": self.iterations,
            "seconds": round(self.seconds, 3),
        }


def reply_sentence(threat: Threat) -> str:
    """A threat as a sentence standing on its own ("P3 can take the building in city 5
    back next turn with card 9 (38%)")."""
    verb = f"take the building in city {threat.city} back" if threat.target == "building" else None
    return threat_phrase(threat, verb=verb)


def punishing_replies(view: GameState, move: Move) -> tuple[Reply, ...]:
    """Who can undo what ``move`` gains on their next turn, from the mover's ``view``:
    one ``Reply`` per threatened gain that some opponent can reach with some chance."""
    try:
        facts = describe_move(view, move)
    except ManhattanError:
        return ()
    if facts.placement is None:
        return ()
    return tuple(
        Reply(t.target, t.city, t.players, t.chance, reply_sentence(t))
        for t in facts.placement.threats
        if t.answerable and t.players
    )


class Coach:
    """Judges a person's decisions and gives hints with ``settings``' budget."""

    def __init__(self, settings: CoachSettings | None = None):
        self.settings = settings or CoachSettings()
        self._review = self.settings.review_settings()
        self._ready = False

    def warm_up(self) -> None:
        """Load the search kernel and start the helper processes now, so the first
        feedback pays no start-up."""
        if not self._ready:
            warm_up(make_evaluator(self._review.epsilon), self._review.parallelism())
            self._ready = True

    def feedback(self, world: GameState, move: Move, index: int) -> Feedback | None:
        """The feedback on ``move`` played by the player to move in ``world`` (the state
        before it; only the mover's view of it is searched) as decision ``index``.
        ``None`` when a stop request cut the searches short."""
        self.warm_up()
        started = time.monotonic()
        decision, interrupted = review_decision(world, RecordedMove(move), index, self._review)
        if interrupted:
            return None
        view = world.view(world.current_player())
        sentences, summary = _words(view, decision)
        replies = punishing_replies(view, move) if decision.played != decision.best else ()
        return Feedback(
            index=index,
            player=decision.player,
            played=decision.played,
            best=decision.best,
            better=decision.better,
            win_before=decision.win_before,
            win_after=decision.win_after,
            loss=decision.loss,
            loss_se=decision.loss_se,
            points_loss=decision.points_loss,
            points_loss_se=decision.points_loss_se,
            mark=decision.mark,
            summary=summary,
            sentences=sentences,
            replies=replies,
            takeback=self.offers_takeback(decision),
            seconds=time.monotonic() - started,
            decision=decision,
        )

    def offers_takeback(self, decision: DecisionReview) -> bool:
        """Whether teaching mode offers to take ``decision`` back: the engine's move is
        established as better, the game is not decided, and the confident loss reaches
        the teach threshold."""
        if decision.better is None or is_decided(
            decision.win_before, decision.win_after, self._review
        ):
            return False
        sure = confident_loss(decision.loss, decision.loss_se, self._review)
        return sure >= self.settings.teach_threshold

    def hint(self, view: GameState, legal: list[Move], index: int) -> Hint | None:
        """The engine's move for the player to move in ``view`` (their own view: the
        search never sees another hand) before decision ``index``; ``None`` when a stop
        request cut the search short."""
        self.warm_up()
        analysis = analyze(view, self.settings.engine_settings(index))
        if analysis.interrupted:
            return None
        best = analysis.best
        texts = [str(m) for m in legal]
        runner_up = analysis.candidates[1].move if len(analysis.candidates) > 1 else None
        return Hint(
            move=best.move,
            number=texts.index(best.move) + 1 if best.move in texts else None,
            win=best.win,
            win_low=best.win_low,
            win_high=best.win_high,
            score=best.score,
            reason=best.reason,
            why=analysis.why_best,
            runner_up=runner_up,
            iterations=analysis.iterations,
            seconds=analysis.seconds,
        )


def _words(view: GameState, decision: DecisionReview) -> tuple[tuple[str, ...], str | None]:
    """The sentences of a feedback and the one-line why (when the engine's move is
    established as better), without the figures (the feedback carries them)."""
    played = decision.played
    try:
        if decision.better is None:
            return compare_moves(view, played, played).sentences[:1], None
        explanation = compare_moves(view, played, decision.better)
    except ManhattanError:
        return (), None
    return explanation.sentences, explanation.summary
