"""Exercises: the ``.mex`` format (round trip, errors with line and column), the proof from
the player's own information, and exercises made from a review of a planted blunder."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from randompositions import random_states

from analyzer.exercise_proof import possible_worlds, prove_wins, relevant_opponents
from analyzer.exercises import (
    ExerciseSettings,
    NoExercise,
    exercises_from_review,
    make_exercise,
    planned_file_names,
    write_exercises,
)
from analyzer.outputs import OutputError
from analyzer.review import ReviewSettings, review_game
from analyzer.solve import solve
from positions.errors import ManhattanError, NotationError
from positions.exercise import Exercise, load_exercise, read_exercise, write_exercise
from positions.moves import parse_move
from positions.notation import parse_position
from positions.record import read_record

DATA = Path(__file__).parent / "data"


def puzzle_state(name: str):
    text = (DATA / name).read_text()
    return parse_position(re.search(r'\[Setup "([^"]*)"\]', text).group(1))


def blunder_record(move: str) -> str:
    setup = re.search(r'\[Setup "([^"]*)"\]', (DATA / "p4_k2_01.mpz").read_text()).group(1)
    return f'[Game "Manhattan"]\n[Players "4"]\n[Setup "{setup}"]\n\nR4 {move}\n'


def sample_exercise(**changes) -> Exercise:
    state = puzzle_state("p4_k2_01.mpz")
    fields = {
        "title": "P2, decision 1",
        "player": 2,
        "state": state.view(1),
        "best": parse_move("7@5:1"),
        "accept": [parse_move("7@5:1"), parse_move("8@5:1")],
        "played": parse_move("7@1:1"),
        "loss": 97.8,
        "mark": "??",
        "proven": None,
        "why": 'It takes the "tallest" building.',
        "source": "blunder.mgn, decision 1",
    }
    fields.update(changes)
    return Exercise(**fields)


# ----- the format ---------------------------------------------------------------------------


def test_the_sample_is_written_in_canonical_order_and_reads_back():
    text = write_exercise(sample_exercise())
    names = re.findall(r"^\[(\w+) ", text, flags=re.M)
    assert names == [
        "Exercise",
        "Player",
        "Setup",
        "Best",
        "Accept",
        "Played",
        "Loss",
        "Mark",
        "Why",
        "Source",
    ]
    assert '[Accept "7@5:1 8@5:1"]' in text
    assert '[Why "It takes the \\"tallest\\" building."]' in text
    assert ",????,1278,????,????" not in text and "????,1278,????,????" in text
    again = read_exercise(text)
    assert again == sample_exercise()
    assert write_exercise(again) == text
    assert again.accept == [parse_move("7@5:1"), parse_move("8@5:1")]
    assert again.loss == 97.8 and again.mark == "??" and again.proven is None


def test_optional_and_unknown_tags():
    bare = sample_exercise(loss=None, mark=None, why=None, source=None)
    text = write_exercise(bare)
    assert "Loss" not in text and "Why" not in text
    assert read_exercise(text) == bare
    extra = text + '[Coach "me"]\n'
    read = read_exercise(extra)
    assert read.extra == {"Coach": "me"}
    assert write_exercise(read) == extra


tag_text = st.text(
    alphabet=st.characters(
        blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="\\"
    ),
    max_size=30,
)


def _exercise_from(state, picker: random.Random, title: str, why: str | None) -> Exercise | None:
    mover = state.to_move
    view = state.view(mover)
    legal = view.legal_moves()
    if len(legal) < 2:
        return None
    played = picker.choice(legal)
    others = [m for m in legal if m != played]
    accept = picker.sample(others, picker.randint(1, min(4, len(others))))
    return Exercise(
        title=title,
        player=mover + 1,
        state=view,
        best=picker.choice(accept),
        accept=accept,
        played=played,
        loss=picker.choice([None, 0.0, 5.5, 100.0, picker.uniform(0, 100)]),
        mark=picker.choice([None, "?!", "?", "??"]),
        proven=picker.choice([None, "win"]),
        why=why,
        source=picker.choice([None, "game.mgn, decision 3"]),
    )


@settings(max_examples=60, deadline=None)
@given(
    players=st.sampled_from([2, 3, 4]),
    seed=st.integers(0, 10_000),
    title=tag_text,
    why=st.none() | tag_text,
)
def test_round_trip_reading_writing_reading_is_the_identity(players, seed, title, why):
    picker = random.Random(seed)
    for state in random_states(players, 3, seed):
        if state.is_terminal():
            continue
        exercise = _exercise_from(state, picker, title, why)
        if exercise is None:
            continue
        text = write_exercise(exercise)
        read = read_exercise(text)
        assert read == exercise
        assert write_exercise(read) == text
        assert read.position == exercise.position
        for player in range(read.state.players):
            if player != read.player - 1:
                assert not any(read.state.hand(player))  # only the mover's hand is shown


def _lines(text: str) -> list[str]:
    return text.splitlines()


def _replace_tag(text: str, name: str, value: str) -> str:
    return re.sub(rf'^\[{name} "[^\n]*"\]$', f'[{name} "{value}"]', text, flags=re.M)


def _where(text: str, name: str) -> tuple[int, int]:
    """Line and column (from 1) of tag ``name``'s value."""
    for number, line in enumerate(_lines(text), start=1):
        if line.startswith(f"[{name} "):
            return number, len(name) + 4
    raise AssertionError(name)


SAMPLE = write_exercise(sample_exercise(proven="win"))
VIEW = sample_exercise().position
SHOWN = VIEW.replace("????,1278,????,????", "????,1278,3389,????")


@pytest.mark.parametrize(
    ("name", "value", "message", "offset"),
    [
        ("Player", "3", "P2 is to move", 0),
        ("Player", "x", "expected a player 1-4", 0),
        ("Setup", "9/9/9", "Setup:", 0),
        ("Setup", SHOWN, "P3's hand shows cards", 0),
        ("Setup", VIEW.replace("1278", "12??"), "is not shown", 0),
        ("Best", "9@5:1", "not a legal move", 0),
        ("Best", "7@5:1 8@5:1", "expected one move", 0),
        ("Played", "7@01:1", "bad move", 0),
        ("Accept", "8@5:1", "does not hold the Best move", 0),
        ("Accept", "", "Accept is empty", 0),
        ("Accept", "7@5:1 7@5:1", "listed twice", 6),
        ("Accept", "7@5:1 7@1:1", "is the move played", 6),
        ("Accept", "7@5:1 8@5:01", "bad move", 6),
        ("Loss", "12", "one decimal", 0),
        ("Loss", "100.5", "0.0 to 100.0", 0),
        ("Mark", "?!?", "expected", 0),
        ("Proven", "yes", "expected 'win'", 0),
    ],
)
def test_malformed_tags_name_line_and_column(name, value, message, offset):
    text = _replace_tag(SAMPLE, name, value)
    line, column = _where(text, name)
    with pytest.raises(NotationError) as caught:
        read_exercise(text)
    assert message in str(caught.value)
    assert (caught.value.line, caught.value.column) == (line, column + offset)
    assert "\n" not in str(caught.value)


def test_a_missing_tag_text_after_the_tags_and_a_bad_tag_line():
    without = "\n".join(line for line in _lines(SAMPLE) if not line.startswith("[Played "))
    with pytest.raises(NotationError, match=r'missing tag \[Played "..."\]'):
        read_exercise(without)
    with pytest.raises(NotationError) as caught:
        read_exercise(SAMPLE + "\n7@5:1\n")
    assert (caught.value.line, caught.value.column) == (len(_lines(SAMPLE)) + 2, 1)
    broken = SAMPLE.replace('[Mark "??"]', "[Mark ??]")
    with pytest.raises(NotationError) as caught:
        read_exercise(broken)
    assert caught.value.line == _where(SAMPLE, "Mark")[0]
    with pytest.raises(NotationError, match="game is over"):
        read_exercise(_replace_tag(SAMPLE, "Setup", _finished_position()))


def _finished_position() -> str:
    for state in random_states(4, 40, 3):
        if state.is_terminal():
            from positions.notation import write_position

            return write_position(state)
    raise AssertionError("no finished game")


def test_a_file_error_names_the_file(tmp_path):
    path = tmp_path / "bad.mex"
    path.write_text(_replace_tag(SAMPLE, "Player", "3"))
    with pytest.raises(ManhattanError, match=r"bad\.mex: line 2, column 10: Player"):
        load_exercise(path)


# ----- the proof ------------------------------------------------------------------------------


def test_the_proof_uses_only_what_the_mover_sees():
    state = puzzle_state("p4_k2_01.mpz")
    proof = prove_wins(state)
    assert proof is not None
    assert proof == prove_wins(state.view(state.to_move))  # the true hands play no part
    assert proof.winners == ("7@5:1",)
    # P1 and P4 have no block left: only P3's hand can change the result
    assert relevant_opponents(state) == [2]
    assert proof.worlds == len(possible_worlds(state.view(1), 10_000)) > 100
    assert proof.wins_in["7@1:1"] < proof.worlds
    # a move winning in every world wins in the true one: the solver agrees
    assert set(proof.winners) <= set(solve(state, "win").solutions)


def test_the_proof_is_not_tried_before_the_last_round_or_with_too_many_worlds():
    early = next(s for s in random_states(2, 30, 1) if s.round == 1 and s.phase == 1)
    assert prove_wins(early) is None
    assert prove_wins(puzzle_state("p4_k2_01.mpz"), max_worlds=10) is None
    assert prove_wins(puzzle_state("p4_k2_01.mpz"), node_budget=10) is None


# ----- exercises from a review ------------------------------------------------------------------


@pytest.fixture(scope="module")
def blunder_review():
    record = read_record(blunder_record("7@1:1"))
    review_settings = ReviewSettings(iterations_per_move=3000, seed=2)
    return record, review_settings, review_game(record, review_settings)


@pytest.fixture(scope="module")
def blunder_exercises(blunder_review):
    record, review_settings, review = blunder_review
    settings_ = ExerciseSettings.after_review(review_settings)
    return exercises_from_review(record, review, 2, settings_, source="b.mgn")


def test_a_planted_blunder_becomes_an_exercise_from_the_players_view(
    blunder_review, blunder_exercises
):
    _, _, review = blunder_review
    assert review.decisions[0].mark == "??"
    found = blunder_exercises
    assert not found.skipped and not found.interrupted
    (made,) = found.made
    exercise = made.exercise
    assert made.file_name("b") == "b_p2_d001.mex"
    assert exercise.player == 2 and str(exercise.played) == "7@1:1"
    assert [str(m) for m in exercise.accept] == ["7@5:1"] and str(exercise.best) == "7@5:1"
    assert exercise.proven == "win" and exercise.mark == "??"
    assert exercise.loss is not None and exercise.loss >= 15
    assert "tallest" in exercise.why and "Proven: 7@5:1 wins" in exercise.why
    assert exercise.source == "b.mgn, decision 1" and "b.mgn" in exercise.title
    # the opponents' cards are not in the exercise: P1, P3 and P4 show ????
    assert " ????,1278,????,???? " in exercise.position
    text = write_exercise(exercise)
    for hand in ("1226", "3389", "5667"):
        assert hand not in text
    assert read_exercise(text) == exercise


def test_only_the_chosen_players_decisions_and_the_folder_is_checked(
    blunder_review, blunder_exercises, tmp_path
):
    record, review_settings, review = blunder_review
    settings_ = ExerciseSettings.after_review(review_settings)
    assert exercises_from_review(record, review, 1, settings_).made == []
    with pytest.raises(ManhattanError, match="--player 5"):
        exercises_from_review(record, review, 5, settings_)
    assert planned_file_names(record, 2, "b") == ["b_p2_d001.mex"]
    assert planned_file_names(record, 1, "b") == []
    made = blunder_exercises.made
    paths = write_exercises(tmp_path / "new", made, "b")
    assert [p.name for p in paths] == ["b_p2_d001.mex"]
    assert load_exercise(paths[0]) == made[0].exercise
    with pytest.raises(OutputError, match="file exists"):
        write_exercises(tmp_path / "new", made, "b")
    write_exercises(tmp_path / "new", made, "b", force=True)


def test_a_good_move_makes_no_exercise():
    state = puzzle_state("p4_k2_01.mpz")
    quick = ExerciseSettings(search_iterations=2000, compare_iterations=500, prove=False)
    with pytest.raises(NoExercise):
        make_exercise(state, parse_move("7@5:1"), quick)


def test_an_unknown_hand_makes_no_exercise():
    state = puzzle_state("p4_k2_01.mpz").view(0)  # P2's hand hidden
    with pytest.raises(NoExercise, match="does not show P2's hand"):
        make_exercise(state, parse_move("7@1:1"))


def test_settings_are_checked():
    with pytest.raises(ManhattanError):
        ExerciseSettings(tolerance=0)
    with pytest.raises(ManhattanError):
        ExerciseSettings(search_iterations=0)
    assert (
        ExerciseSettings.after_review(ReviewSettings(iterations_per_move=500)).search_iterations
        == 1000
    )
