"""Game records (.mgn) and puzzles (.mpz): the vectors replay and round-trip, random games
written and read back are identical, and marks, comments, unknown tags, ``+?`` and
``Setup`` records survive read -> write -> read."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from randompositions import random_game

from positions import Phase, RuleOptions, parse_move, parse_position, write_position
from positions.moves import NO_PLACEMENT_BASE
from positions.puzzle import load_puzzle, read_puzzle, write_puzzle
from positions.record import (
    MARKS,
    GameRecord,
    RecordedMove,
    load_record,
    read_record,
    write_record,
)

DATA = Path(__file__).parent / "data"
GAMES = ["game_2p.mgn", "game_4p.mgn"]
PUZZLES = ["p2_k3_01.mpz", "p4_k2_01.mpz", "p4_k2_02.mpz"]


@pytest.mark.parametrize("name", GAMES)
def test_placement_choices_are_the_placements_a_player_chose(name: str) -> None:
    record = load_record(DATA / name)
    choices = record.placement_choices()
    played = [d.action for d in record.final_state().history if d.action < NO_PLACEMENT_BASE]
    assert [action for _, action in choices] == played and played
    for state, action in choices:
        assert state.phase == Phase.PLACEMENT and action in state.legal_actions()


@pytest.mark.parametrize("name", GAMES)
def test_vector_game_replays_to_its_result_and_is_canonical(name: str) -> None:
    text = (DATA / name).read_text()
    record = load_record(DATA / name)
    final = record.final_state()
    assert final.is_terminal()
    assert final.player_totals() == [int(t) for t in record.tags["Result"].split()]
    assert len(record.states()) == len(record.moves) + 1
    assert write_record(record) == text
    assert read_record(write_record(record)) == record


def test_vector_game_details() -> None:
    record = load_record(DATA / "game_4p.mgn")
    assert record.players == 4
    assert list(record.tags) == ["Game", "Players", "P1", "P2", "P3", "P4", "Deal", "Result"]
    assert record.initial_state().hand(0) == [4, 5, 9, 9]
    first = record.moves[0]
    assert str(first.move) == "=111234" and first.drawn is None
    assert str(record.moves[4].move) == "9@6:4" and record.moves[4].drawn == 3
    # 4 rounds of 4 selections and 24 placements
    assert len(record.moves) == 4 * (4 + 24)


def test_non_canonical_spelling_reads_to_the_canonical_record() -> None:
    text = (DATA / "game_4p.mgn").read_text()
    head, moves = text.split("\n\n")
    tags = head.splitlines()
    mangled_tags = [tags[-1], tags[0], tags[2], tags[1]] + tags[3:-1]  # any order
    mangled_tags = [t.replace("4599", "9945").replace('"4"]', '"4" ]') for t in mangled_tags]
    mangled_moves = (
        moves.replace("R2 ", "\n  ")  # markers are optional
        .replace("=111234", "=432111")  # selection digits in any order
        .replace(" +", "   +")
    )
    mangled = "\n" + "\n".join(mangled_tags) + "\n" + mangled_moves
    assert mangled != text
    record = read_record(mangled)
    assert write_record(record) == text
    assert record == read_record(text)


def _record_of(game, rnd: random.Random, decorate: bool) -> GameRecord:
    moves = []
    for move, drawn in zip(game.moves, game.drawn, strict=True):
        recorded = RecordedMove(move, drawn)
        if decorate:
            if drawn is not None and rnd.random() < 0.1:
                recorded.drawn = rnd.choice([0, None])
            if rnd.random() < 0.1:
                recorded.mark = rnd.choice(MARKS)
            if rnd.random() < 0.1:
                words = rnd.choices(["good", "bad", "{odd", "tallest!", "?", "x=1", "é"], k=3)
                recorded.comment = " ".join(words)
        moves.append(recorded)
    deal = " ".join("".join(map(str, hand)) for hand in game.deal)
    tags = {"Game": "Manhattan", "Players": str(game.states[0].players), "Deal": deal}
    totals = game.final.player_totals()
    tags["Result"] = " ".join(map(str, totals))
    return GameRecord(game.states[0].players, tags, moves)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from((2, 3, 4)), st.integers(0, 10**6), st.randoms(use_true_random=False))
def test_random_game_records_round_trip(players: int, seed: int, rnd: random.Random) -> None:
    options = RuleOptions(tallest_tie=rnd.choice(["none", "shared"]))
    game = random_game(players, seed, options)
    record = _record_of(game, rnd, decorate=rnd.random() < 0.7)
    if options.tallest_tie == "shared":
        record.tags["Options"] = "tallest_tie=shared"
    text = write_record(record)
    again = read_record(text)
    assert again == record
    assert write_record(again) == text
    final = again.final_state()
    assert final.player_totals() == game.final.player_totals()
    assert text.count("\nR") == game.final.layout.rounds


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_record_with_every_draw_replays_the_exact_game(players: int) -> None:
    game = random_game(players, 99)
    record = _record_of(game, random.Random(0), decorate=False)
    states = read_record(write_record(record)).states()
    assert [write_position(s) for s in states] == [write_position(s) for s in game.states]


MARKED = """\
[Game "Manhattan"]
[Players "4"]
[Annotator "Dee \\"the eye\\" Lu"]
[Date "2026-11-29"]
[Opening "six ones"]

R1 =111111!? {all small} =111111 =111112?? =111113 5@1:1! +5 5@2:1 +? {a draw not seen}
5@3:1!! {brilliant} {really}
"""


def test_marks_comments_unknown_tags_and_unseen_draws_round_trip() -> None:
    record = read_record(MARKED)
    assert list(record.tags) == ["Game", "Players", "Date", "Annotator", "Opening"]
    assert record.tags["Annotator"] == 'Dee "the eye" Lu'
    first, fifth, sixth, seventh = (record.moves[i] for i in (0, 4, 5, 6))
    assert (first.mark, first.comment, first.drawn) == ("!?", "all small", None)
    assert (fifth.mark, fifth.drawn, fifth.comment) == ("!", 5, None)
    assert (sixth.mark, sixth.drawn, sixth.comment) == (None, 0, "a draw not seen")
    assert (seventh.mark, seventh.drawn, seventh.comment) == ("!!", None, "brilliant really")
    text = write_record(record)
    assert text == (
        '[Game "Manhattan"]\n[Players "4"]\n[Date "2026-11-29"]\n'
        '[Annotator "Dee \\"the eye\\" Lu"]\n[Opening "six ones"]\n\n'
        "R1 =111111!? {all small} =111111 =111112?? =111113 5@1:1! +5 5@2:1 +? "
        "{a draw not seen} 5@3:1!! {brilliant really}\n"
    )
    assert read_record(text) == record
    # no draw token and +? both leave an unseen card, but stay distinct in the record
    hands = record.final_state().hand
    assert hands(0) == [5, 0, 0, 0] and hands(1) == [0, 0, 0, 0] and hands(2) == [0] * 4


def test_a_setup_record_starting_mid_round() -> None:
    game = random_game(3, 5)
    start = next(
        i for i, s in enumerate(game.states) if s.round == 2 and s.phase.name == "PLACEMENT"
    )
    start += 4  # a few placements into round 2
    setup = write_position(game.states[start])
    moves = [
        RecordedMove(m, d) for m, d in zip(game.moves[start:], game.drawn[start:], strict=True)
    ]
    record = GameRecord(3, {"Setup": setup, "P2": "Bo"}, moves)
    text = write_record(record)
    lines = text.splitlines()
    assert lines[:4] == ['[Game "Manhattan"]', '[Players "3"]', '[P2 "Bo"]', f'[Setup "{setup}"]']
    assert lines[5].startswith("R2 ") and lines[6].startswith("R3 =")
    again = read_record(text)
    assert again.moves == record.moves
    assert write_position(again.final_state()) == write_position(game.final)
    # the marker may be left out, and only the Setup's round is accepted first
    assert read_record(text.replace("R2 ", "")) == again


def test_setup_with_options_and_matching_options_tag() -> None:
    state = random_game(2, 3).states[40]
    setup = write_position(state) + " two_player_total=min"
    text = (
        f'[Game "Manhattan"]\n[Players "2"]\n[Options "two_player_total=min"]\n[Setup "{setup}"]\n'
    )
    record = read_record(text)
    assert record.initial_state().options == RuleOptions(two_player_total="min")
    assert list(record.tags) == ["Game", "Players", "Setup", "Options"]
    assert read_record(write_record(record)) == record


def test_a_record_that_stops_early_has_no_result_and_is_not_over() -> None:
    text = (DATA / "game_2p.mgn").read_text()
    head, moves = text.split("\n\n")
    head = "\n".join(line for line in head.splitlines() if not line.startswith("[Result"))
    short = head + "\n\n" + moves.splitlines()[0] + "\n"
    record = read_record(short)
    assert len(record.moves) == 2 + 16
    assert not record.final_state().is_terminal()
    assert record.final_state().round == 2
    assert write_record(record) == short


def test_write_record_fills_in_game_and_players() -> None:
    record = GameRecord(3, {}, [RecordedMove(parse_move("=1111"))])
    assert write_record(record) == '[Game "Manhattan"]\n[Players "3"]\n\nR1 =1111\n'


@pytest.mark.parametrize("name", PUZZLES)
def test_vector_puzzles_round_trip(name: str) -> None:
    text = (DATA / name).read_text()
    puzzle = load_puzzle(DATA / name)
    assert puzzle.goal == "win"
    assert puzzle.title == name.removesuffix(".mpz")
    assert puzzle.solution and all(m in puzzle.state.legal_moves() for m in puzzle.solution)
    assert write_puzzle(puzzle) == text
    assert read_puzzle(write_puzzle(puzzle)) == puzzle


def test_puzzle_canonical_order_and_unknown_tags() -> None:
    setup = parse_position(read_puzzle((DATA / "p4_k2_01.mpz").read_text()).position)
    legal = [str(m) for m in setup.legal_moves()]
    text = (
        f'[Setup "  {write_position(setup)}  "]\n[Source "club night"]\n'
        f'[Solution "{legal[3]}  {legal[0]}"]\n[Goal "round-points"]\n[Puzzle "Two ways"]\n'
    )
    puzzle = read_puzzle(text)
    assert puzzle.goal == "round-points"
    assert [str(m) for m in puzzle.solution] == [legal[0], legal[3]]
    out = write_puzzle(puzzle)
    assert out.splitlines() == [
        '[Puzzle "Two ways"]',
        '[Goal "round-points"]',
        f'[Solution "{legal[0]} {legal[3]}"]',
        f'[Setup "{write_position(setup)}"]',
        '[Source "club night"]',
    ]
    assert read_puzzle(out) == puzzle
