"""Malformed input: every rule of NOTATION.md has its own error, with the exception type,
a distinctive part of the message, and for files the line and column; and mutated
position strings never raise anything but a ``ManhattanError``."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from randompositions import random_states, random_views

from positions import (
    IllegalMoveError,
    InvalidPositionError,
    ManhattanError,
    NotationError,
    parse_move,
    parse_position,
    write_position,
)
from positions.puzzle import read_puzzle
from positions.record import load_record, read_record

DATA = Path(__file__).parent / "data"

SUPPLY4 = "11.6.4.3,11.6.4.3,11.6.4.3,11.6.4.3"
START4 = f"9/9/9/9/9/9 4 1 1 s 0,0,0,0 {SUPPLY4} -,-,-,- ????,????,????,???? -"
# Round 1, placement, P2 to move: P1 has placed one block, the others hold six.
PLACE4 = (
    "a1,8/9/9/9/9/9 4 1 2 p 0,0,0,0 5.6.4.3,5.6.4.3,5.6.4.3,5.6.4.3 "
    "11111,111111,111111,111111 ????,2345,????,???? 1"
)
START2 = "9/9/9/9/9/9 2 1 1 s 0,0,0,0 11.6.4.3,11.6.4.3,11.6.4.3,11.6.4.3 -,-,-,- ????,???? -"
OVER4 = (
    "a1,8/9/9/9/9/9 4 4 - - 3,0,0,0 0.0.0.0,0.0.0.0,0.0.0.0,0.0.0.0 -,-,-,- ????,????,????,???? -"
)


def field(text: str, index: int, value: str) -> str:
    """``text`` with field ``index`` (0-based) replaced by ``value``."""
    fields = text.split(" ")
    fields[index] = value
    return " ".join(fields)


POSITIONS = [
    # rule 1: the form of every field
    ("9/9/9/9/9/9 4 1", NotationError, "expected at least 10 fields"),
    (field(START4, 1, "5"), NotationError, "field 2 (players): expected 2, 3 or 4, found '5'"),
    (field(START4, 0, "9/9/9/9/9"), NotationError, "expected 6 cities joined by '/', found 5"),
    (field(START4, 0, "9,1/9/9/9/9/9"), NotationError, "city 1 covers 10 sites, expected 9"),
    (field(START4, 0, "9/4,x2,4/9/9/9/9"), NotationError, "city 2: bad item 'x2'"),
    (field(START4, 0, "9/9/9/9/9/0,9"), NotationError, "city 6: bad item '0'"),
    (
        "d1,8/9/9/9/9/9 3 1 1 s 0,0,0 11.6.4.3,11.6.4.3,11.6.4.3 -,-,- ????,????,???? -",
        NotationError,
        "color d is not in this game",
    ),
    (field(START4, 2, "5"), NotationError, "expected a round 1-4, found '5'"),
    (field(START4, 2, "²"), NotationError, "expected a round 1-4, found '²'"),
    (field(START4, 3, "5"), NotationError, "expected a player 1-4 or -, found '5'"),
    (field(START4, 4, "q"), NotationError, "expected s, p or -, found 'q'"),
    (field(START4, 5, "0,0,0"), NotationError, "expected 4 scores joined by ','"),
    (field(START4, 5, "0,-1,0,0"), NotationError, "bad score '-1'"),
    (field(START4, 5, "0,0," + "9" * 5000 + ",0"), NotationError, "bad score '99999999999"),
    (field(START4, 6, "11.6.4,11.6.4.3,11.6.4.3,11.6.4.3"), NotationError, "bad supply"),
    (field(PLACE4, 7, "11111,111115,111111,111111"), NotationError, "block stories 1-4"),
    (field(START4, 8, "12345,????,????,????"), NotationError, "bad hand '12345'"),
    (field(START4, 9, "1a"), NotationError, "expected card digits 1-9 or '-'"),
    (field(START4, 3, "-"), InvalidPositionError, "'-' to move goes with phase '-'"),
    (field(OVER4, 2, "3"), InvalidPositionError, "a finished game is in its last round (4)"),
    # rule 2: blocks
    (
        field(PLACE4, 6, "5.6.4.2,5.6.4.3,5.6.4.3,5.6.4.3"),
        InvalidPositionError,
        "supply of a holds 17 blocks, expected 18",
    ),
    (
        field(START4, 0, "a4,a4,a4,a4,5/9/9/9/9/9"),
        InvalidPositionError,
        "color a has 7 blocks of 4 stories",
    ),
    # rule 3: buildings
    (
        field(START4, 0, "9/9/4,b3a1,4/9/9/9"),
        InvalidPositionError,
        "city 3 site 5: the top color a has fewer stories than b",
    ),
    # rule 4: cards
    (
        field(field(START4, 8, "5555,????,????,????"), 9, "55"),
        InvalidPositionError,
        "6 copies of card 5 are visible",
    ),
    (
        field(START4, 9, "1" * 5 + "2" * 5 + "3" * 5 + "4" * 5 + "5" * 5 + "6" * 5),
        InvalidPositionError,
        "30 played cards and 4 hands exceed the 45 cards",
    ),
    # rule 5: turn order
    (
        field(field(START4, 7, "-,111111,-,-"), 6, "11.6.4.3,5.6.4.3,11.6.4.3,11.6.4.3"),
        InvalidPositionError,
        "b (P2, from the mover in turn order) holds 6 selected blocks, expected 0",
    ),
    (
        field(PLACE4, 7, "11111,-,111111,111111"),
        InvalidPositionError,
        "the mover P2 holds no selected block",
    ),
    (
        field(PLACE4, 7, "11111,111111,11111,111111"),
        InvalidPositionError,
        "P3 holds 5 selected blocks, expected 6",
    ),
    # rule 6: options
    (START4 + " fast=yes", NotationError, "unknown option 'fast'"),
    (START4 + " two_player_total=min", NotationError, "applies only to 2-player games"),
    (START4 + " tallest_tie=all", NotationError, "expected tallest_tie=none or shared"),
    (START4 + " tallest_tie=shared tallest_tie=none", NotationError, "given twice"),
    (START4 + " shared", NotationError, "expected name=value"),
]


@pytest.mark.parametrize(("text", "error", "message"), POSITIONS)
def test_malformed_position(text: str, error: type, message: str) -> None:
    with pytest.raises(error) as caught:
        parse_position(text)
    assert message in str(caught.value)


def test_every_position_case_has_its_own_message() -> None:
    messages = [message for _, _, message in POSITIONS]
    assert len(set(messages)) == len(messages) >= 30


MOVES = [
    (START4, "7@7:1", NotationError, "bad move '7@7:1'"),
    (START4, "=11223", IllegalMoveError, "a must select exactly 6 blocks"),
    (START4, "=444444", IllegalMoveError, "a has 3 block(s) of 4 stories left"),
    (START4, "=111/222", IllegalMoveError, "expected a selection like =112234"),
    (START2, "=1111", IllegalMoveError, "expected a selection like =1123/1234"),
    (START4, "5@1:1", IllegalMoveError, "P1 must select blocks first"),
    (PLACE4, "=111111", IllegalMoveError, "it is the placement phase"),
    (PLACE4, "2@1:1c", IllegalMoveError, "a block color is written only in 2-player games"),
    (PLACE4, "9@1:1", IllegalMoveError, "P2 does not hold card 9"),
    (PLACE4, "2@1:2", IllegalMoveError, "b has no selected block of 2 stories"),
    (PLACE4, "2@1:-", NotationError, "bad move '2@1:-'"),
    (OVER4, "=111111", IllegalMoveError, "the game is over"),
]


@pytest.mark.parametrize(("position", "move", "error", "message"), MOVES)
def test_malformed_or_illegal_move(position: str, move: str, error: type, message: str) -> None:
    state = parse_position(position)
    with pytest.raises(error) as caught:
        state.apply_move(parse_move(move))
    assert message in str(caught.value)


def test_a_two_player_placement_needs_its_color() -> None:
    state = parse_position(START2)
    state.apply_move(parse_move("=1111/1111"))
    state.apply_move(parse_move("=1111/1111"))
    state.hands[0:10] = [3, 1, 0, 0, 0, 0, 0, 0, 0, 0]
    with pytest.raises(IllegalMoveError, match="the block's color must follow"):
        state.apply_move(parse_move("1@1:1"))
    with pytest.raises(IllegalMoveError, match="P1 plays a or c, not b"):
        state.apply_move(parse_move("1@1:1b"))


HEAD4 = '[Game "Manhattan"]\n[Players "4"]\n'
SEL4 = "=111111 =111111 =111111 =111111"
GAME_2P = (DATA / "game_2p.mgn").read_text()

RECORDS = [
    ("", "a game record starts with tag pairs", None, None),
    ('[Game "Manhattan"]\n\nR1 =1111', "missing tag [Players", None, None),
    ('[Game "Manhattan"]\n[Players "5"]\n', "Players '5': expected 2, 3 or 4", 2, 11),
    ('[Game "Chess"]\n[Players "4"]\n', "Game 'Chess': expected \"Manhattan\"", 1, 8),
    ("[Game Manhattan]\n", "bad tag line '[Game Manhattan]'", 1, 1),
    (HEAD4 + '  [Date "x" ]\n [Date "y"]\n', "tag Date given twice", 4, 2),
    (HEAD4 + '[Note "a\\n"]\n', "unknown escape '\\\\n'", 3, 9),
    (HEAD4 + '[P5 "Eve"]\n', "a 4-player game has tags P1-P4", 3, 6),
    (HEAD4 + '[Deal "1234 5678 1234"]\n', "expected 4 hands separated by spaces, found 3", 3, 8),
    (HEAD4 + '[Deal "1234 5678 1234 12x4"]\n', "bad hand '12x4'", 3, 8),
    (HEAD4 + '[Deal "9999 99?? 1234 5678"]\n', "6 copies of card 9", 3, 8),
    (HEAD4 + f'[Deal "????"]\n[Setup "{START4}"]\n', "Deal and Setup exclude each other", 4, 9),
    (HEAD4 + f'[Setup "{field(START4, 2, "9")}"]\n', "Setup: position field 3 (round)", 3, 9),
    (HEAD4 + f'[Setup "{START2}"]\n', "Setup is a 2-player position but Players is 4", 3, 9),
    (
        HEAD4 + f'[Options "tallest_tie=shared"]\n[Setup "{START4}"]\n',
        "disagree with the Setup position's options",
        3,
        11,
    ),
    (HEAD4 + '[Options "speed=fast"]\n', "unknown option 'speed'", 3, 11),
    (HEAD4 + '[Result "1 2 3"]\n', "expected 4 final totals", 3, 10),
    (HEAD4 + f'[Result "1 2 3 {"9" * 5000}"]\n', "expected 4 final totals", 3, 10),
    (HEAD4 + '[P01 "Al"]\n', "tag P01: a 4-player game has tags P1-P4", 3, 7),
    (HEAD4 + "\nR1 =111111 =1111", "illegal move '=1111' by P2 in round 1", 4, 12),
    (HEAD4 + "\nR1 =111111 7@3;4", "bad move '7@3;4'", 4, 12),
    (HEAD4 + "\n=111111 +3", "draw '+3' after the selection '=111111'", 4, 9),
    (HEAD4 + f"\n{SEL4} 5@1:1 +10", "bad draw '+10'", 4, 39),
    (HEAD4 + f"\n{SEL4} 5@1:1 {{x}} +1", "a draw follows its placement directly", 4, 43),
    (HEAD4 + f"\n{SEL4} 5@1:1!!! +1", "bad mark '!!!'", 4, 33),
    (HEAD4 + "\nR2 =111111", "round marker 'R2': the next move belongs to round 1", 4, 1),
    (HEAD4 + "\nR1 =111111 R1", "round 1 is marked twice", 4, 12),
    (HEAD4 + "\n=111111 R1", "round 1 is under way", 4, 9),
    (HEAD4 + "\nR0", "bad round marker 'R0'", 4, 1),
    (HEAD4 + "\nR1 {first} =111111", "a comment follows the move it speaks of", 4, 4),
    (HEAD4 + "\nR1 =111111 {open\nstill open", "comment '{' is never closed", 4, 12),
    (HEAD4 + "\nR1 =111111 }", "'}' without a '{'", 4, 12),
    (HEAD4 + '\nR1 =111111\n[Date "today"]', "tag pairs come before the moves", 5, 1),
    (HEAD4 + "\nR1 =111111 xyz", "'xyz': expected a move", 4, 12),
    (
        HEAD4 + '[Deal "1555 55?? ???? ????"]\n\n' + SEL4 + " 1@1:1 +5",
        "draw '+5' after '1@1:1': 1@1:1: card 5 cannot be drawn, all 5 are seen",
        5,
        39,
    ),
    (
        GAME_2P.replace('[Result "129 135"]', '[Result "129 136"]'),
        "Result '129 136' does not match the replayed totals '129 135'",
        6,
        10,
    ),
    (HEAD4 + '[Result "0 0 0 0"]\n\n' + SEL4, "the game is not over after the last move", 3, 10),
    (GAME_2P + "=1111/1111\n", "illegal move '=1111/1111': =1111/1111: the game is over", 14, 1),
]


@pytest.mark.parametrize(("text", "message", "line", "column"), RECORDS)
def test_malformed_record(text: str, message: str, line: int | None, column: int | None) -> None:
    with pytest.raises(NotationError) as caught:
        read_record(text)
    assert message in str(caught.value)
    assert (caught.value.line, caught.value.column) == (line, column)


def test_record_file_errors_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.mgn"
    path.write_text(HEAD4 + "\nR1 =111111 =1111\n")
    with pytest.raises(NotationError) as caught:
        load_record(path)
    assert str(caught.value).startswith(f"{path}: line 4, column 12: illegal move '=1111'")
    with pytest.raises(ManhattanError, match="missing.mgn: file not found"):
        load_record(tmp_path / "missing.mgn")
    path.write_bytes(b"\xff\xfe[Game")
    with pytest.raises(ManhattanError, match="bad.mgn: not UTF-8 text"):
        load_record(path)


KNOWN4 = field(START4, 8, "1234,5678,1239,4567")
PUZZLE_HEAD = '[Puzzle "t"]\n[Goal "win"]\n'

PUZZLES = [
    (PUZZLE_HEAD + f'[Setup "{KNOWN4}"]\n', "missing tag [Solution", None, None),
    (
        '[Puzzle "t"]\n[Goal "draw"]\n[Solution "=111111"]\n' + f'[Setup "{KNOWN4}"]\n',
        "Goal 'draw': expected 'win' or 'round-points'",
        2,
        8,
    ),
    (
        PUZZLE_HEAD + f'[Solution "=111111"]\n[Setup "{START4}"]\n',
        "a puzzle shows every hand, P1's hand has '?'",
        4,
        9,
    ),
    (
        PUZZLE_HEAD + f'[Solution "=111111"]\n[Setup "{field(OVER4, 8, "1234,5678,1239,4567")}"]\n',
        "the game is over",
        4,
        9,
    ),
    (PUZZLE_HEAD + f'[Solution " "]\n[Setup "{KNOWN4}"]\n', "Solution is empty", 3, 12),
    (
        PUZZLE_HEAD + f'[Solution "=111111 =432111"]\n[Setup "{KNOWN4}"]\n',
        "Solution move '=432111' is not canonical, expected '=111234'",
        3,
        20,
    ),
    (
        PUZZLE_HEAD + f'[Solution "=111111 =111111"]\n[Setup "{KNOWN4}"]\n',
        "Solution move '=111111' is listed twice",
        3,
        20,
    ),
    (
        PUZZLE_HEAD + f'[Solution "=1111"]\n[Setup "{KNOWN4}"]\n',
        "Solution move '=1111' is not a legal move for P1",
        3,
        12,
    ),
    (
        PUZZLE_HEAD + f'[Solution "5@1:1"]\n[Setup "{KNOWN4}"]\n',
        "Solution move '5@1:1' is not a legal move for P1",
        3,
        12,
    ),
    (PUZZLE_HEAD + f'[Solution "=11x"]\n[Setup "{KNOWN4}"]\n', "Solution: bad move", 3, 12),
    (
        PUZZLE_HEAD + f'[Solution "=111111"]\n[Setup "{KNOWN4}"]\n\n5@1:1\n',
        "a puzzle has tag pairs only, found '5@1:1'",
        6,
        1,
    ),
]


@pytest.mark.parametrize(("text", "message", "line", "column"), PUZZLES)
def test_malformed_puzzle(text: str, message: str, line: int | None, column: int | None) -> None:
    with pytest.raises(NotationError) as caught:
        read_puzzle(text)
    assert message in str(caught.value)
    assert (caught.value.line, caught.value.column) == (line, column)


def test_the_puzzle_base_is_valid() -> None:
    assert read_puzzle(PUZZLE_HEAD + f'[Solution "=111111"]\n[Setup "{KNOWN4}"]\n').solution


# ----- fuzz: mutated position strings -----------------------------------------------------

SEEDS = [write_position(s) for p in (2, 3, 4) for s in random_states(p, 8, seed=50 + p)]
SEEDS += [write_position(s) for p in (2, 3, 4) for s in random_views(p, 8, seed=60 + p)]
SEEDS += [START4, PLACE4, START2, OVER4]
ALPHABET = "0123456789abcde?-.,/=:@ pxs\t²٣é" + "\x00"


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["insert", "delete", "replace", "swap", "field", "cut"]))
        at = draw(st.integers(0, len(text)))
        char = draw(st.sampled_from(ALPHABET))
        if kind == "insert":
            text = text[:at] + char + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + 1 :]
        elif kind == "replace":
            text = text[:at] + char + text[at + 1 :]
        elif kind == "swap" and at + 1 < len(text):
            text = text[:at] + text[at + 1] + text[at] + text[at + 2 :]
        elif kind == "field":
            fields = text.split(" ")
            index = draw(st.integers(0, len(fields) - 1))
            fields.insert(index, fields[draw(st.integers(0, len(fields) - 1))])
            text = " ".join(fields)
        elif kind == "cut":
            text = text[:at]
    return text


@settings(max_examples=300, deadline=None)
@given(mutated())
def test_mutated_positions_parse_or_raise_a_manhattan_error(text: str) -> None:
    try:
        state = parse_position(text)
    except ManhattanError:
        return
    canonical = write_position(state)
    assert write_position(parse_position(canonical)) == canonical
