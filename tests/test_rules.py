"""Rulebook cases, straight from RULES.md."""

from __future__ import annotations

import numpy as np
import pytest
from randompositions import random_game

from positions import (
    GameState,
    IllegalMoveError,
    NoPlacement,
    Phase,
    Selection,
    parse_move,
    parse_position,
    write_position,
)
from positions.layout import COLORS, SITES, layout
from positions.rules import can_place

A, B, C, D = range(4)


def over(board: str, players: int = 4, scores: str | None = None, options: str = "") -> GameState:
    """A finished game with ``board`` (every block out of the supply)."""
    colors = 3 if players == 3 else 4
    rounds = layout(players).rounds
    scores = scores or ",".join(["0"] * colors)
    supply = ",".join(["0.0.0.0"] * colors)
    selected = ",".join(["-"] * colors)
    hands = ",".join(["????"] * players)
    text = f"{board} {players} {rounds} - - {scores} {supply} {selected} {hands} - {options}"
    return parse_position(text)


def city(state: GameState, number: int) -> str:
    """City ``number`` (1-6) of ``state``'s position string."""
    return write_position(state).split()[0].split("/")[number - 1]


def play(state: GameState, *moves: str) -> GameState:
    for move in moves:
        state.apply_move(parse_move(move))
    return state


# ----- placing a block --------------------------------------------------------------------


def test_takeover_example_a2_b5_c0_d3() -> None:
    stories = [0] * (SITES * COLORS)
    owner = [-1] * SITES
    stories[0:4] = [2, 5, 0, 3]  # a=2, b=5 (owner), c=0, d=3
    owner[0] = B
    allowed = {
        color: [size for size in range(1, 5) if can_place(stories, owner, 0, color, size)]
        for color in (A, B, C, D)
    }
    assert allowed == {A: [3, 4], B: [1, 2, 3, 4], C: [], D: [2, 3, 4]}


# Round 2 (order P2 P3 P4 P1); city 1's center holds a2 b3 d3 b2: a=2, b=5 (owner), d=3.
TAKEOVER = (
    "4,a2b3d3b2,4/9/9/9/9/9 4 2 {mover} p 0,0,0,0 5.3.2.2,5.3.2.2,5.3.2.2,5.3.2.2 {sel} {hands} -"
)


def test_takeover_example_in_play() -> None:
    a_moves = parse_position(TAKEOVER.format(mover=1, sel="13,1,4,2", hands="5555,????,????,????"))
    legal = [str(m) for m in a_moves.legal_moves()]
    assert "5@1:3" in legal and "5@1:1" not in legal and "5@2:1" in legal
    with pytest.raises(IllegalMoveError, match="needs at least 5 stories"):
        a_moves.clone().apply_move(parse_move("5@1:1"))
    assert city(play(a_moves, "5@1:3"), 1) == "4,a2b3d3b2a3,4"

    d_moves = parse_position(TAKEOVER.format(mover=4, sel="13,1,4,12", hands="????,????,????,5555"))
    legal = [str(m) for m in d_moves.legal_moves()]
    assert "5@1:2" in legal and "5@1:1" not in legal

    c_moves = parse_position(TAKEOVER.format(mover=3, sel="3,-,4,2", hands="????,????,5555,????"))
    legal = [str(m) for m in c_moves.legal_moves()]
    assert "5@2:4" in legal and "5@1:4" not in legal


def test_two_player_colors_take_over_each_other() -> None:
    # P1 plays a and c; a owns a 3-story building in city 1's center.
    state = parse_position(
        "4,a3,4/9/9/9/9/9 2 1 1 p 0,0,0,0 8.6.3.3,8.6.3.3,8.6.3.3,7.6.4.3 "
        "111,111,1113,1111 5555,???? -"
    )
    legal = [str(m) for m in state.legal_moves()]
    assert "5@1:1a" in legal and "5@1:3c" in legal
    assert "5@1:1c" not in legal


# ----- scoring ----------------------------------------------------------------------------


def test_a_tie_for_tallest_scores_nothing() -> None:
    assert over("a3,8/b3,8/9/9/9/9").round_points() == [3, 3, 0, 0]
    assert over("a3,8/b2,8/9/9/9/9").round_points() == [6, 3, 0, 0]
    assert over("a3,8/a3,8/9/9/9/9").round_points() == [6, 0, 0, 0]  # even with one owner


def test_shared_tallest_option() -> None:
    shared = "tallest_tie=shared"
    assert over("a3,8/a3,8/9/9/9/9", options=shared).round_points() == [9, 0, 0, 0]
    assert over("a3,8/b3,8/9/9/9/9", options=shared).round_points() == [3, 3, 0, 0]
    # in 2p a tie between one player's two colors is still a tie
    assert over("a3,8/c3,8/9/9/9/9", 2, options=shared).round_points() == [3, 0, 3, 0]
    assert over("a3,8/a3,8/9/9/9/9", 2, options=shared).round_points() == [9, 0, 0, 0]


def test_a_tie_for_city_majority_scores_nothing() -> None:
    assert over("a1,a1,b1,b1,c1,4/d4,8/9/9/9/9").round_points() == [2, 2, 1, 6]
    assert over("a1,a1,b1,c1,5/d4,8/9/9/9/9").round_points() == [4, 1, 1, 6]


def test_one_building_counts_for_tallest_majority_and_building() -> None:
    assert over("a2,8/9/9/9/9/9").round_points() == [6, 0, 0, 0]
    assert over("9/9/9/9/9/8,c1", 3).round_points()[:3] == [0, 0, 6]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_round_is_scored_and_added(players: int) -> None:
    game = random_game(players, 11)
    ends = 0
    for before, after in zip(game.states, game.states[1:], strict=False):
        if before.phase == Phase.PLACEMENT and after.phase != Phase.PLACEMENT:
            gained = [x - y for x, y in zip(after.scores, before.scores, strict=True)]
            assert gained == after.round_points()
            ends += 1
        else:
            assert after.scores == before.scores
    assert ends == layout(players).rounds


def test_two_player_scores_per_color_with_sum_and_min_totals() -> None:
    state = over("a2,c1,7/9/9/9/9/9", 2, scores="10,7,3,9")
    assert state.round_points() == [4, 0, 1, 0]  # a and c tie for city 1
    assert state.player_totals() == [13, 16]
    low = over("a2,c1,7/9/9/9/9/9", 2, scores="10,7,3,9", options="two_player_total=min")
    assert low.player_totals() == [3, 7]
    ahead = over("9/9/9/9/9/9", 2, scores="3,5,9,5")
    assert ahead.places() == [1, 2]
    assert over("9/9/9/9/9/9", 2, "3,5,9,5", "two_player_total=min").places() == [2, 1]


# ----- cards and seats --------------------------------------------------------------------

SITE_OF_CARD = {  # card 1..9 -> site 1..9 as seen from S
    "S": [1, 2, 3, 4, 5, 6, 7, 8, 9],
    "W": [3, 6, 9, 2, 5, 8, 1, 4, 7],
    "N": [9, 8, 7, 6, 5, 4, 3, 2, 1],
    "E": [7, 4, 1, 8, 5, 2, 9, 6, 3],
}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_card_to_site_table_for_every_seat(players: int) -> None:
    table = layout(players)
    seats = {2: "SN", 3: "SWN", 4: "SWNE"}[players]
    assert "".join(table.player_seats) == seats
    for player, seat in enumerate(seats):
        sites = [table.card_sites[player][card] + 1 for card in range(1, 10)]
        assert sites == SITE_OF_CARD[seat]
    assert SITE_OF_CARD["W"][0] == 3 and SITE_OF_CARD["N"][0] == 9 and SITE_OF_CARD["E"][0] == 7


def test_card_1_and_card_5_from_every_seat_in_play() -> None:
    state = parse_position(
        "9/9/9/9/9/9 4 1 1 p 0,0,0,0 5.6.4.3,5.6.4.3,5.6.4.3,5.6.4.3 "
        "111111,111111,111111,111111 ????,????,????,???? -"
    )
    play(state, "1@1:1", "1@1:1", "1@1:1", "1@1:1", "5@2:1", "5@2:1", "5@2:1", "5@2:1")
    assert city(state, 1) == "a1,1,b1,3,d1,1,c1"
    assert city(state, 2) == "4,a1b1c1d1,4"


# ----- the deck and the hands -------------------------------------------------------------

RESHUFFLE = (
    "9/9/9/9/9/9 4 1 1 p 0,0,0,0 5.6.4.3,5.6.4.3,5.6.4.3,5.6.4.3 "
    "111111,111111,111111,111111 7789,????,????,???? {played}"
)
PLAYED_29 = "11111222223333344444555556666"


def test_reshuffle_when_the_deck_runs_out() -> None:
    state = parse_position(RESHUFFLE.format(played=PLAYED_29))
    assert state.deck_count() == 0
    play(state, "7@1:1")
    fields = write_position(state).split()
    assert fields[9] == "-"  # the played pile (with the 7 just played) became the deck
    assert fields[8].startswith("789?")
    assert state.deck_count() == 29

    world = parse_position(RESHUFFLE.format(played=PLAYED_29)).resample_from_infostate(
        0, np.random.default_rng(1)
    )
    assert world.deck == []
    world.apply_move(parse_move("7@1:1"))
    drawn = [c for c in world.hand(0) if c not in (7, 8, 9)] or [7]
    assert sorted(world.deck + drawn[:1]) == sorted(int(c) for c in PLAYED_29 + "7")


def test_no_reshuffle_while_the_deck_holds_a_card() -> None:
    state = parse_position(RESHUFFLE.format(played=PLAYED_29[:-1]))
    assert state.deck_count() == 1
    play(state, "7@1:1")
    assert write_position(state).split()[9] == PLAYED_29[:-1] + "7"
    assert state.deck_count() == 0
    play(state, "9@1:1")  # P2 plays a card it may hold; the next draw reshuffles
    assert write_position(state).split()[9] == "-"
    assert state.deck_count() == 29


@pytest.mark.parametrize("players", [2, 3, 4])
def test_hands_are_kept_across_rounds(players: int) -> None:
    game = random_game(players, 21)
    changes = 0
    for before, after in zip(game.states, game.states[1:], strict=False):
        assert all(len(after.hand(p)) == 4 and 0 not in after.hand(p) for p in range(players))
        if after.round != before.round:
            changes += 1
            for p in range(players):
                if p != before.to_move:
                    assert after.hand(p) == before.hand(p)
            # nothing is dealt again: only the last card played joins the pile
            assert sum(after.played) in (sum(before.played) + 1, 0)
    assert changes == layout(players).rounds - 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_start_player_passes_clockwise(players: int) -> None:
    game = random_game(players, 31)
    starts = {}
    for state in game.states:
        if state.phase == Phase.SELECTION and not any(state.selected):
            starts[state.round] = state.to_move
        if state.phase == Phase.PLACEMENT and all(
            state.blocks_held(p) == layout(players).blocks_per_turn_round() for p in range(players)
        ):
            assert state.to_move == starts[state.round]  # placing starts with it too
    assert starts == {r: (r - 1) % players for r in range(1, layout(players).rounds + 1)}


def test_three_players_play_six_rounds_of_four_blocks() -> None:
    assert (layout(3).rounds, layout(3).quota) == (6, 4)
    game = random_game(3, 41)
    selections = [m for m in game.moves if isinstance(m, Selection)]
    assert len(selections) == 6 * 3
    assert all(len(s.blocks) == 1 and len(s.blocks[0]) == 4 for s in selections)
    assert len(game.moves) - len(selections) == 6 * 3 * 4
    assert game.final.is_terminal() and game.final.round == 6


# ----- no legal placement -----------------------------------------------------------------

# Round 2, P1 to move last with card 5 only; every city's center holds b2.
BLOCKED = (
    "4,b2,4/4,b2,4/4,b2,4/4,b2,4/4,b2,4/4,b2,4 4 2 1 p 0,0,0,0 "
    "8.2.1.1,8.0.2.2,8.2.1.1,8.2.1.1 {a},1,1,1 5555,????,????,???? -"
)


def test_the_no_legal_placement_move() -> None:
    state = parse_position(BLOCKED.format(a="11"))
    assert state.legal_moves() == [NoPlacement(5, 1)]
    board = write_position(state).split()[0]
    play(state, "5@-:1")
    fields = write_position(state).split()
    assert fields[0] == board  # the block is not placed
    assert fields[6].split(",")[0] == "8.2.1.1"  # nor returned to the supply
    assert fields[7] == "1,1,1,1"  # it is gone from the selection
    assert fields[8].startswith("555?")  # the card was played and one drawn
    assert fields[9] == "5"
    assert state.to_move == 1


def test_no_placement_is_illegal_when_a_block_can_be_placed() -> None:
    state = parse_position(BLOCKED.format(a="12"))
    legal = [str(m) for m in state.legal_moves()]
    assert legal == [f"5@{city}:2" for city in range(1, 7)]
    with pytest.raises(IllegalMoveError, match="a legal placement exists"):
        state.apply_move(parse_move("5@-:1"))


def test_no_placement_notation_in_two_player_games() -> None:
    move = parse_move("7@-:1c")
    assert move == NoPlacement(7, 1, "c") and str(move) == "7@-:1c"


# ----- the end of the game ----------------------------------------------------------------


def test_final_ranking_by_total_then_tallest_then_buildings() -> None:
    board = "a3,a1,d3,b2,c1,4/9/9/9/9/9"
    tied = over(board, scores="10,10,10,10")
    assert tied.places() == [1, 3, 4, 2]  # a and d: tallest 3; a owns 2 buildings
    assert tied.returns() == [1.0, 0.0, 0.0, 0.0]
    assert over(board, scores="10,11,10,10").places() == [2, 1, 4, 3]  # the total comes first


def test_players_still_equal_share_the_place_and_the_win() -> None:
    shared = over("a3,d3,b2,c1,5/9/9/9/9/9", scores="10,10,10,10")
    assert shared.places() == [1, 3, 4, 1]
    assert shared.returns() == [0.5, 0.0, 0.0, 0.5]
    three = over("a1,b1,c1,6/9/9/9/9/9", 3, scores="7,7,7")
    assert three.places() == [1, 1, 1]
    assert three.returns() == pytest.approx([1 / 3] * 3)


def test_two_player_ranking_counts_both_colors() -> None:
    # equal totals; P1's tallest (c4) beats P2's (b3) though P2 owns more buildings
    assert over("c4,b3,b3,6/9/9/9/9/9", 2, scores="5,5,5,5").places() == [1, 2]
    assert over("c1,b1,b1,6/9/9/9/9/9", 2, scores="5,5,5,5").places() == [2, 1]


def test_returns_are_zero_before_the_end() -> None:
    state = GameState(4)
    assert state.returns() == [0.0] * 4 and not state.is_terminal()
