"""Learn from your mistakes: a review's marked decisions as exercises (``positions.exercise``).

For each marked decision of the chosen player the position before it is taken from that
player's view (their hand shown, every other hand hidden; the exercise never holds a card
they could not see), and searched again with a budget of its own, bigger than the
review's:

1. a search of ``search_iterations`` finds the engine's candidates;
2. the best few of them (each searched at least 5 % as often as the best, so that the
   search did not set it aside) and the move played are compared on the same dealt worlds
   and playout seeds (``search.compare``: ``compare_iterations`` paired worlds);
3. the moves counted right (``Accept``) are those whose win chance is within
   ``tolerance`` (3) win-% points of the best one's; the best is ``Best``.  If the move
   played is itself within the tolerance, the deeper search does not confirm the mistake
   and no exercise is made (the decision is listed as skipped, with the reason);
4. in the last round's placement phase the exact solver proves, where the position is
   small enough, which moves win whatever the other players hold, play and draw
   (``analyzer.exercise_proof``: every hand they could hold is tried, so nothing is
   peeked at).  When some move is proven, ``Accept`` is the proven moves and the exercise
   says ``[Proven "win"]``;
5. ``Why`` says in words what the move played does, what the best does and why the best
   is better (``analyzer.explain.compare_moves``), with the figures and the proof.

Exercises are files ``<game>_p<K>_d<NNN>.mex`` (player K, decision NNN counted from 1 as
``analyze --move`` counts them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from analyzer.engine import DEFAULT_EPSILON, EQUAL_MIN_SHARE, make_evaluator
from analyzer.exercise_proof import DEFAULT_MAX_WORLDS, DEFAULT_NODE_BUDGET, Proof, prove_wins
from analyzer.explain import Figures, compare_moves
from analyzer.outputs import check_output_folder, make_folder, write_output
from analyzer.review import DecisionReview, Review, ReviewSettings
from positions.errors import ManhattanError
from positions.exercise import SUFFIX, Exercise, write_exercise
from positions.moves import Move, parse_move
from positions.record import GameRecord
from positions.state import GameState
from search import stopping
from search.compare import DecisionValue, compare_decisions
from search.limits import Limit
from search.parallel import Parallelism, run_search, warm_up

DEFAULT_SEARCH_ITERATIONS = 10_000
DEFAULT_TOLERANCE = 3.0  # win-% points


@dataclass(frozen=True)
class ExerciseSettings:
    """How the exercises' moves are found: the search and comparison budgets (iterations,
    so the same seed and workers give the same exercises), how many of the engine's
    candidates are compared, the ``tolerance`` in win-% points, and the proof's limits
    (``prove=False`` skips it)."""

    search_iterations: int = DEFAULT_SEARCH_ITERATIONS
    compare_iterations: int = DEFAULT_SEARCH_ITERATIONS // 4
    candidates: int = 5
    tolerance: float = DEFAULT_TOLERANCE
    workers: int = 1
    seed: int = 0
    backend: str = "loky"
    scheduler: str | None = None
    epsilon: float = DEFAULT_EPSILON
    prove: bool = True
    max_worlds: int = DEFAULT_MAX_WORLDS
    node_budget: int = DEFAULT_NODE_BUDGET

    def __post_init__(self) -> None:
        if self.search_iterations < 1 or self.compare_iterations < 1 or self.candidates < 1:
            raise ManhattanError("exercise budgets and candidates must be at least 1")
        if not 0 < self.tolerance < 100:
            raise ManhattanError(
                f"tolerance must be in (0, 100) win-% points, not {self.tolerance}"
            )

    @classmethod
    def after_review(cls, review: ReviewSettings) -> ExerciseSettings:
        """Settings for exercises of a review made with ``review``: its workers, seed and
        backend; twice its iterations per move when it counted iterations (at least
        ``DEFAULT_SEARCH_ITERATIONS`` otherwise)."""
        search = DEFAULT_SEARCH_ITERATIONS
        if review.iterations_per_move is not None:
            search = 2 * review.iterations_per_move
        return cls(
            search_iterations=search,
            compare_iterations=max(1, search // 4),
            workers=review.workers,
            seed=review.seed,
            backend=review.backend,
            scheduler=review.scheduler,
            epsilon=review.epsilon,
        )

    def parallelism(self) -> Parallelism:
        """The ``Parallelism`` these settings ask for (raises ``ManhattanError`` if bad)."""
        try:
            return Parallelism(self.workers, self.backend, self.scheduler)
        except ValueError as error:
            raise ManhattanError(str(error)) from None


class NoExercise(ManhattanError):
    """A marked decision that makes no exercise; the message says why."""


class Interrupted(Exception):
    """A stop request cut a search short."""


@dataclass(frozen=True)
class MadeExercise:
    """An exercise of decision ``index`` (from 0) of ``player`` (1-based)."""

    index: int
    player: int
    exercise: Exercise

    def file_name(self, stem: str) -> str:
        """Its file name in a folder of exercises of game ``stem``."""
        return exercise_file_name(stem, self.player, self.index)


@dataclass(frozen=True)
class SkippedDecision:
    """A marked decision that made no exercise, and why."""

    index: int
    player: int
    played: str
    reason: str


@dataclass
class ExerciseSet:
    """The exercises made from a review, the marked decisions skipped, and whether a stop
    request ended the work early."""

    made: list[MadeExercise] = field(default_factory=list)
    skipped: list[SkippedDecision] = field(default_factory=list)
    interrupted: bool = False

    def to_json(self) -> dict:
        """JSON-ready: each exercise's decision, player, best, accepted and played moves,
        loss and proof; each skipped decision with its reason."""
        return {
            "exercises": [
                {
                    "index": m.index,
                    "player": m.player,
                    "best": str(m.exercise.best),
                    "accept": [str(move) for move in m.exercise.accept],
                    "played": str(m.exercise.played),
                    "loss": m.exercise.loss,
                    "proven": m.exercise.proven,
                }
                for m in self.made
            ],
            "skipped": [
                {"index": s.index, "player": s.player, "played": s.played, "reason": s.reason}
                for s in self.skipped
            ],
            "interrupted": self.interrupted,
        }


def exercise_file_name(stem: str, player: int, index: int) -> str:
    """``<stem>_p<player>_d<decision from 1, 3 digits>.mex``."""
    return f"{stem}_p{player}_d{index + 1:03d}{SUFFIX}"


def planned_file_names(record: GameRecord, player: int | None, stem: str) -> list[str]:
    """Every file an exercise of ``player``'s decisions (``None``: every player's) could
    be written to (any decision may turn out marked), to check the folder before the
    review starts."""
    states = record.states()
    movers = [states[index].current_player() + 1 for index in range(len(record.moves))]
    return [
        exercise_file_name(stem, mover, index)
        for index, mover in enumerate(movers)
        if player in (None, mover)
    ]


def check_player(record: GameRecord, player: int | None) -> None:
    """Raise ``ManhattanError`` unless ``player`` is ``None`` or a player of ``record``."""
    if player is not None and not 1 <= player <= record.players:
        raise ManhattanError(f"--player {player}: expected a player 1-{record.players}")


def check_exercise_folder(
    record: GameRecord, folder: Path, player: int | None, stem: str, force: bool
) -> None:
    """Before the review: ``player`` is one of ``record``'s and ``folder`` can take every
    exercise the review could make (none there already unless ``force``).  Raises
    ``ManhattanError``."""
    check_player(record, player)
    check_output_folder(folder, planned_file_names(record, player, stem), force, "--exercises")


def marked_decisions(review: Review, player: int | None = None) -> list[DecisionReview]:
    """The decisions of ``review`` that carry a mark, of ``player`` (``None``: all)."""
    return [d for d in review.decisions if d.mark and player in (None, d.player)]


def exercises_from_review(
    record: GameRecord,
    review: Review,
    player: int | None = None,
    settings: ExerciseSettings = ExerciseSettings(),
    source: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ExerciseSet:
    """The exercises of ``review``'s marked decisions of ``player`` (1-based; ``None``:
    every player) in ``record`` (see the module docstring).  ``source`` names the game
    in each exercise (e.g. its file name).  ``progress(done, total)`` is called after each
    marked decision.  A stop request (Ctrl-C) ends the work: the exercises made are kept
    (``interrupted``).  Raises ``ManhattanError`` for a bad ``player``."""
    check_player(record, player)
    marked = marked_decisions(review, player)
    found = ExerciseSet()
    if not marked:
        return found
    states = record.states()
    warm_up(make_evaluator(settings.epsilon), settings.parallelism())
    for done, decision in enumerate(marked, start=1):
        if stopping.requested():
            found.interrupted = True
            break
        recorded = record.moves[decision.index]
        where = f"decision {decision.index + 1}"
        try:
            exercise = make_exercise(
                states[decision.index],
                recorded.move,
                settings,
                seed=settings.seed + decision.index,
                title=f"P{decision.player}, {where}" + (f" of {source}" if source else ""),
                source=f"{source}, {where}" if source else where,
                mark=decision.mark,
            )
        except NoExercise as reason:
            found.skipped.append(
                SkippedDecision(decision.index, decision.player, str(recorded.move), str(reason))
            )
        except Interrupted:
            found.interrupted = True
            break
        else:
            found.made.append(MadeExercise(decision.index, decision.player, exercise))
        if progress is not None:
            progress(done, len(marked))
    return found


def make_exercise(
    state: GameState,
    played: Move,
    settings: ExerciseSettings = ExerciseSettings(),
    *,
    seed: int = 0,
    title: str = "",
    source: str | None = None,
    mark: str | None = None,
) -> Exercise:
    """The exercise of ``played`` in ``state`` (the mover's decision; other hands may be
    shown, the exercise hides them).  Raises ``NoExercise`` when the position makes none
    (the mover's hand unknown, one legal move, the move played not confirmed worse),
    ``Interrupted`` on a stop request."""
    mover = state.current_player()
    if not state.hand_is_known(mover):
        raise NoExercise(f"the record does not show P{mover + 1}'s hand")
    view = state.view(mover)
    if len(view.legal_moves()) < 2:
        raise NoExercise("there was only one legal move")
    ranked = _ranked_moves(view, played, settings, seed)
    played_value = ranked.pop(str(played))
    best_value = max(ranked.values(), key=lambda value: value.win)
    loss = 100 * (best_value.win - played_value.win)
    if loss <= settings.tolerance:
        raise NoExercise(
            f"a deeper search puts {played} within {settings.tolerance:g} win-% points of "
            f"the best ({loss:.1f})"
        )
    accept = [
        move for move, v in ranked.items() if 100 * (best_value.win - v.win) <= settings.tolerance
    ]
    best = best_value.move
    proof = prove_wins(view, settings.max_worlds, settings.node_budget) if settings.prove else None
    proven = None
    if proof is not None and proof.winners:
        if str(played) in proof.winners:
            raise NoExercise(f"{played} is proven to win too")
        accept = list(proof.winners)
        best = best if best in proof.winners else proof.winners[0]
        proven = "win"
    why = _why(view, played, best, played_value, ranked.get(best), proof)
    exercise = Exercise(
        title=title,
        player=mover + 1,
        state=view,
        best=parse_move(best),
        accept=sorted((parse_move(move) for move in accept), key=str),
        played=played,
        loss=round(min(100.0, loss), 1),
        mark=mark,
        proven=proven,
        why=why,
        source=source,
    )
    write_exercise(exercise)  # checks it reads back
    return exercise


def _ranked_moves(
    view: GameState, played: Move, settings: ExerciseSettings, seed: int
) -> dict[str, DecisionValue]:
    """The engine's best candidates and the move played, compared on the same worlds:
    move -> its paired value (the best candidate first, the move played last)."""
    evaluator = make_evaluator(settings.epsilon)
    parallelism = settings.parallelism()
    result = run_search(
        view, Limit(iterations=settings.search_iterations), evaluator, seed, parallelism
    )
    if result.interrupted:
        raise Interrupted
    best = result.best
    rivals = [
        c
        for c in result.candidates[1:]
        if c.visits >= EQUAL_MIN_SHARE * best.visits and c.move != str(played)
    ][: settings.candidates]
    played_actions = tuple(view.move_to_actions(played))
    if best.move == str(played):
        if not rivals:
            raise NoExercise(f"the engine's deeper search plays {played} too")
        best, rivals = rivals[0], rivals[1:]
    decisions = [best.actions, *(c.actions for c in rivals), played_actions]
    comparison = compare_decisions(
        view,
        decisions,
        Limit(iterations=settings.compare_iterations),
        evaluator,
        seed,
        parallelism,
    )
    if comparison.interrupted:
        raise Interrupted
    return {value.move: value for value in comparison.values}


def _why(
    view: GameState,
    played: Move,
    best: str,
    played_value: DecisionValue,
    best_value: DecisionValue | None,
    proof: Proof | None,
) -> str:
    """In words: what the move played and the best do, why the best is better, and what
    the proof showed."""
    figures = None
    if best_value is not None:
        figures = (
            Figures(played_value.win, played_value.score),
            Figures(best_value.win, best_value.score),
        )
    text = compare_moves(view, played, best, figures=figures).text
    if proof is None or not proof.winners:
        return text
    winners = ", ".join(proof.winners)
    verb = "wins" if len(proof.winners) == 1 else "each win"
    sentence = (
        f"Proven: {winners} {verb} whatever the other players hold, play and draw (all "
        f"{proof.worlds} deals of the cards P{view.to_move + 1} cannot see were checked)"
    )
    count = proof.wins_in.get(str(played), 0)
    if count == 0:
        sentence += f"; {played} wins in none of them"
    else:
        refuted = proof.refuted_by[str(played)]
        sentence += f"; {played} wins in {count} of them, but not when {refuted}"
    return f"{text} {sentence}."


def write_exercises(
    folder: Path, made: Sequence[MadeExercise], stem: str, force: bool = False
) -> list[Path]:
    """Write each exercise to ``folder`` (made if missing) as ``exercise_file_name``; an
    existing file is an error unless ``force``.  Returns the paths written.  Raises
    ``ManhattanError`` (``OutputError``) for a folder or file that cannot be written."""
    names = [m.file_name(stem) for m in made]
    check_output_folder(folder, names, force, str(folder))
    make_folder(folder)
    paths = []
    for entry, name in zip(made, names, strict=True):
        path = folder / name
        write_output(path, write_exercise(entry.exercise))
        paths.append(path)
    return paths


def write_exercise_set(folder: Path, found: ExerciseSet, stem: str, force: bool = False) -> dict:
    """Write ``found``'s exercises (``write_exercises``) and say what was written, as
    JSON-ready data: ``folder``, ``files`` and ``found.to_json()``.  Raises
    ``OutputError``."""
    paths = write_exercises(folder, found.made, stem, force)
    return {"folder": str(folder), "files": [str(path) for path in paths], **found.to_json()}
