"""The puzzle solver: the conformance puzzles, the bundled puzzles, hand-made answers, a
differential check against a plain reference search over ``GameState``, and the fallback."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from analyzer.exact import INFINITY, ExactSearch
from analyzer.puzzlegen import tail_position
from analyzer.solve import (
    SolveError,
    check_puzzle,
    directory_summary,
    solve,
    solve_directory,
    solve_puzzle,
)
from positions import rules
from positions.errors import HiddenInformationError, IllegalMoveError, ManhattanError
from positions.layout import SIZES
from positions.moves import parse_move
from positions.notation import parse_position, write_position
from positions.options import RuleOptions
from positions.puzzle import load_puzzle, read_puzzle, write_puzzle
from positions.state import Phase
from search.limits import Limit

DATA = Path(__file__).parent / "data"
BUNDLED = Path(__file__).parent.parent / "positions" / "data" / "puzzles"
VECTORS = sorted(DATA.glob("*.mpz"))
PUZZLES = sorted(BUNDLED.glob("*.mpz"))

# A 3-player round-1 position: P3 (c, seat N) places its last block, a 3, holding cards
# 1 5 7 9.  Taking a3 in city 1 with card 9 (site 1 from N) makes a 6-story building (the
# tallest, +3), and 2 of city 1's 3 buildings (+2), from 5 points to 11; nothing else
# reaches 9.
HAND_MADE = (
    "a3,b4,c1,6/a1,c1,2,b1,4/a1,3,a2,4/b1,b2,7/4,c2,4/9 3 1 3 p 0,0,0 "
    "9.5.3.3,9.5.4.2,9.5.3.3 -,-,3 2369,2368,1579 11144555778"
)

# 3 players, last round, one block each: whatever P3 plays, P1 (68 points to P3's 67) can
# stay ahead.
NO_WIN = (
    "c2b2c1,1,b1a1,a2,1,c1a2,a3,b2a2,a1b1/a2,b2,b1a1,a1,a1b2,b3,1,b3c4,c1a2b2/2,c3,3,"
    "c4b4c3c2,c2,1/3,c2a3,c1,b1c3c1,a4,1,a4/a1,c2c1,b1,1,b1a1b1,b2,b1c1,a2,b3/1,c2,b1,1,"
    "c1,a4,a1b4,b3a3c3a3b4c4a1b1c1,c1a1 3 6 3 p 68,52,67 0.0.0.0,0.0.0.0,0.0.0.0 1,1,1 "
    "7789,1239,6778 1"
)

SHORT_DECK = (
    "2,b4,1,c2,3,a4b4b3/a2c4,c2b2c1,1,a3a2,c1c1b4c3b1,a4,1,c1a1,c2/c4c1,1,a2c4,2,a1b2,c1a1,1,"
    "c3/b2a2b1,c1a3,1,b2a2,b1c2,1,a1b2c2,b1,b1a1c1/1,b2a2c2,b1a1b1,c1a1,c1,1,b1c1,c3a4,b1/1,"
    "a1b3a3,2,b3,a1b1a3a1,3 3 6 2 p 60,66,56 0.0.0.0,0.0.0.0,0.0.0.0 1,13,3 9999,8888,5555 "
    "1111122222333334444566666777789"
)


# ----- a reference: textbook alpha-beta over GameState, every draw branched ---------------


def _reference_end(state, mover, objective, start_scores) -> int:
    if objective == "round-points":
        colors = state.layout.player_colors[mover]
        return sum(state.scores[c] - start_scores[c] for c in colors)
    totals = state.player_totals()
    best_other = max(t for p, t in enumerate(totals) if p != mover)
    if objective == "margin":
        return totals[mover] - best_other
    places = state.places()
    return int(places[mover] == 1 and places.count(1) == 1)


def _reference(state, mover, objective, alpha, beta, start) -> int:
    if state.phase != Phase.PLACEMENT or state.round != start[1]:
        return _reference_end(state, mover, objective, start[0])
    maximizing = state.to_move == mover
    best = -INFINITY if maximizing else INFINITY
    for move in state.legal_moves():
        value = _reference_move(state, move, mover, objective, alpha, beta, start)
        if maximizing:
            best, alpha = max(best, value), max(alpha, value)
        else:
            best, beta = min(best, value), min(beta, value)
        if alpha >= beta:
            break
    return best


def _reference_move(state, move, mover, objective, alpha, beta, start) -> int:
    """Every card that can be drawn after ``move``, the worst for the mover.  When nobody
    holds two blocks no one who draws plays again, so no draw can matter."""
    if max(state.blocks_held(p) for p in range(state.players)) <= 1:
        child = state.clone()
        child.apply_move(move)
        return _reference(child, mover, objective, alpha, beta, start)
    best = INFINITY
    for card in range(1, 10):
        child = state.clone()
        try:
            child.apply_move(move, drawn=card)
        except IllegalMoveError:
            continue
        best = min(best, _reference(child, mover, objective, alpha, min(beta, best), start))
        if best <= alpha:
            break
    return best


def _reference_values(state, objective) -> dict[str, int]:
    window = (0, 1) if objective == "win" else (-INFINITY, INFINITY)
    start = (state.scores[:], state.round)
    return {
        str(move): _reference_move(state, move, state.to_move, objective, *window, start)
        for move in state.legal_moves()
    }


def _exact_values(state, objective) -> dict[str, int]:
    search = ExactSearch(state, objective, 10**9)
    window = (0, 1) if objective == "win" else (-INFINITY, INFINITY)
    return {
        search.move_text(move): search.value_after(move, *window)
        for move in search._ordered(search.mover, True)
    }


# ----- conformance and bundled puzzles ----------------------------------------------------


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_conformance_puzzles_solve_to_their_solution(path):
    puzzle = load_puzzle(path)
    result = solve_puzzle(puzzle)
    assert result.proven and result.method == "exact"
    assert result.solutions == sorted(str(m) for m in puzzle.solution)
    assert result.best in result.solutions
    assert result.value is True
    assert check_puzzle(puzzle)[0]


def test_there_are_enough_bundled_puzzles():
    assert len(PUZZLES) >= 30
    puzzles = [load_puzzle(p) for p in PUZZLES]
    assert {p.state.players for p in puzzles} == {2, 3, 4}
    assert {p.goal for p in puzzles} == {"win", "round-points"}
    left = {sum(p.state.selected) for p in puzzles}
    assert {1, 2, 3, 4} <= left
    # the mover places twice in some (and the draw between matters: see the titles)
    assert any(p.state.blocks_held(p.state.to_move) >= 2 for p in puzzles)
    assert any("draw matters" in p.title for p in puzzles)


@pytest.mark.parametrize("path", PUZZLES, ids=lambda p: p.stem)
def test_bundled_puzzle_solves_to_its_solution(path):
    puzzle = load_puzzle(path)
    assert path.read_text() == write_puzzle(puzzle)
    solved, verdict = check_puzzle(puzzle)
    assert solved, verdict
    assert 1 <= len(puzzle.solution) <= 3
    assert len(puzzle.state.legal_moves()) >= 8


def test_solve_directory_reports_each_puzzle():
    checks = solve_directory(DATA)
    assert [c.file for c in checks] == [p.name for p in VECTORS]
    assert all(c.solved for c in checks), [c.verdict for c in checks]
    summary = directory_summary(checks)
    assert summary["solved"] == summary["total"] == len(VECTORS)
    json.dumps([c.to_json() for c in checks])


def test_solve_directory_names_a_bad_file(tmp_path):
    (tmp_path / "good.mpz").write_text(VECTORS[0].read_text())
    (tmp_path / "bad.mpz").write_text('[Puzzle "x"]\n[Goal "win"]\n')
    checks = solve_directory(tmp_path)
    assert [(c.file, c.solved) for c in checks] == [("bad.mpz", False), ("good.mpz", True)]
    assert checks[0].verdict.startswith("error:")
    with pytest.raises(SolveError):
        solve_directory(tmp_path / "missing")


def test_a_wrong_solution_is_caught():
    text = VECTORS[0].read_text()
    puzzle = load_puzzle(VECTORS[0])
    other = next(m for m in puzzle.state.legal_moves() if m not in puzzle.solution)
    wrong = read_puzzle(text.replace(str(puzzle.solution[0]), str(other)))
    solved, verdict = check_puzzle(wrong)
    assert not solved and verdict.startswith("wrong")


# ----- hand-made answers ------------------------------------------------------------------


def test_hand_made_round_points_puzzle():
    state = parse_position(HAND_MADE)
    result = solve(state, "round-points")
    assert result.proven
    assert result.solutions == ["9@1:3"]
    assert result.value == 11
    values = _exact_values(state, "round-points")
    assert values["9@1:3"] == 11
    assert values["1@1:3"] == 8  # a new building in city 1: majority, no tallest


def test_no_winning_move_gives_the_least_bad():
    state = parse_position(NO_WIN)
    result = solve(state, "win")
    assert result.proven and result.solutions == [] and result.value is False
    assert "margin" in result.note
    margins = _reference_values(state, "margin")
    assert max(margins.values()) < 0
    assert result.best == min(m for m, v in margins.items() if v == max(margins.values()))


def test_least_bad_move_falls_back_to_mcts_beyond_the_budget():
    result = solve(parse_position(NO_WIN), "win", node_budget=130, fallback_limit=Limit(30))
    assert result.proven and result.value is False and result.solutions == []
    assert "MCTS" in result.note
    assert result.best in {str(m) for m in parse_position(NO_WIN).legal_moves()}


# ----- the search against the reference ---------------------------------------------------


@pytest.mark.parametrize(
    "players, left, objective, seed",
    [
        (2, 2, "win", 1),
        (2, 3, "win", 2),
        (2, 3, "round-points", 3),
        (3, 2, "margin", 4),
        (3, 2, "round-points", 5),
        (3, 3, "win", 9),
        (4, 2, "win", 6),
        (4, 2, "margin", 7),
        (4, 3, "win", 10),
        (2, 2, "margin", 8),
    ],
)
def test_exact_search_equals_reference(players, left, objective, seed):
    state = tail_position(players, left, seed, last_round=objective != "round-points")
    assert _exact_values(state, objective) == _reference_values(state, objective)


def _squeezed(state, seed):
    """``state`` with hands of one to three card types and a deck of at most five cards
    (the rest in the played pile), so that draws run short and the pile is reshuffled;
    ``None`` if the hands would need a sixth copy of a type."""
    rng = random.Random(seed)
    for player in range(state.players):
        types = rng.sample(range(1, 10), rng.choice((1, 2, 3)))
        state.hands[player * 10 : player * 10 + 10] = [0] * 10
        for _ in range(4):
            state.hands[player * 10 + rng.choice(types)] += 1
    held = [sum(state.hands[p * 10 + t] for p in range(state.players)) for t in range(10)]
    if max(held) > 5:
        return None
    pool = [t for t in range(1, 10) for _ in range(5 - held[t])]
    rng.shuffle(pool)
    state.played = [0] * 10
    for card in pool[rng.choice((0, 1, 2, 3, 5)) :]:
        state.played[card] += 1
    return parse_position(write_position(state))


@pytest.mark.parametrize(
    "players, left, objective",
    [(2, 3, "win"), (2, 4, "win"), (2, 4, "margin"), (3, 4, "win"), (3, 4, "round-points")],
)
def test_exact_search_equals_reference_with_a_short_deck(players, left, objective):
    checked = 0
    for seed in range(40):
        state = tail_position(players, left, seed, last_round=objective != "round-points")
        state = _squeezed(state, seed)
        if state is None:
            continue
        assert _exact_values(state, objective) == _reference_values(state, objective), seed
        checked += 1
        if checked == 6:
            break
    assert checked == 6


def test_reshuffle_mid_search_regression():
    # two cards in the deck: the mover draws one of them (4 or 7), the next draw empties
    # the deck and the one after reshuffles the played pile; the 7 refutes 8@1:1
    state = parse_position(SHORT_DECK)
    assert state.deck_count() == 2
    values = _exact_values(state, "win")
    assert values == _reference_values(state, "win")
    assert values["8@1:1"] == 0


def test_no_legal_placement_is_searched():
    # the mover's only moves give up a block; the opponent still places after
    line = (DATA / "positions.jsonl").read_text().splitlines()[-3]
    position = json.loads(line)["pos"].replace("9999,????", "9999,1234")
    state = parse_position(position)
    assert _exact_values(state, "round-points") == _reference_values(state, "round-points")
    assert solve(state, "round-points").solutions == ["9@-:1c"]


def test_relaxed_hands_keep_every_real_choice():
    # P1 holds 9999 and no 9 can be placed: only giving up the 1c is legal
    line = (DATA / "positions.jsonl").read_text().splitlines()[-3]
    state = parse_position(json.loads(line)["pos"].replace("9999,????", "9999,1234"))
    search = ExactSearch(state, "win", 10**6)
    assert [search.move_text(m) for m in search.moves(0)] == ["9@-:1c"]
    # one 9 still to be named: it may be placed as another type, or a block given up
    search.hands[9], search.hands[0] = 3, 1
    moves = search.moves(0)
    assert any(m[0] < 0 and m[1] >= 0 for m in moves)
    assert {(m[0], m[1]) for m in moves if m[1] < 0} >= {(9, -1)}
    assert all(search.deck[-m[0]] for m in moves if m[0] < 0)
    # a mover a card short with nothing to place has no move (scored as lost)
    search.hands[0] = 0
    assert search.moves(0) == []


def test_tie_break_decides_a_win():
    # equal totals: the tallest building owned and then the buildings owned decide
    ties = 0
    for seed in range(60):
        state = tail_position(3, 1, seed)
        search = ExactSearch(state, "win", 10**6)
        for move in search.moves(search.mover):
            _, site, color, size, _ = move
            if site < 0:
                continue
            rp = search.points_after(site, color, size)
            child = state.clone()
            child.apply_move(parse_move(search.move_text(move)))
            places = child.places()
            expected = int(places[state.to_move] == 1 and places.count(1) == 1)
            assert search.value_of(rp, site, color, size) == expected
            totals = child.player_totals()
            ties += totals.count(max(totals)) > 1
    assert ties > 0


@pytest.mark.parametrize("shared", [False, True])
def test_incremental_points_equal_the_rules(shared):
    rng = random.Random(7)
    options = RuleOptions(tallest_tie="shared") if shared else RuleOptions()
    checked = 0
    for seed in range(30):
        state = tail_position(rng.choice((2, 3, 4)), rng.randint(1, 8), seed)
        state.options = options
        search = ExactSearch(state, "round-points", 10**6)
        assert search.points == rules.round_points(state.height, state.owner, shared)
        for site in range(54):
            for color in range(state.layout.colors_in_play):
                for size in range(1, SIZES + 1):
                    if not rules.can_place(state.stories, state.owner, site, color, size):
                        continue
                    height = state.height[:]
                    owner = state.owner[:]
                    height[site] += size
                    owner[site] = color
                    expected = rules.round_points(height, owner, shared)
                    assert search.points_after(site, color, size) == expected
                    undo = search.put_block(site, color, size)
                    assert search.points == expected
                    search.take_block(undo)
                    checked += 1
        assert search.points == rules.round_points(state.height, state.owner, shared)
    assert checked > 1000


# ----- fallback and errors ----------------------------------------------------------------


def test_win_before_the_last_round_falls_back_to_mcts():
    state = tail_position(4, 3, 11, last_round=False)
    assert state.round < state.layout.rounds
    result = solve(state, "win", fallback_limit=Limit(iterations=60))
    assert not result.proven and result.method == "mcts" and result.solutions == []
    assert result.best in {str(m) for m in state.legal_moves()}
    assert "last round" in result.note or "does not end" in result.note
    data = result.to_json()
    assert {"best", "proven", "solutions", "nodes", "seconds", "goal", "method"} <= set(data)
    assert data["proven"] is False


def test_node_budget_overrun_falls_back():
    state = tail_position(2, 4, 3)
    result = solve(state, "win", node_budget=50, fallback_limit=Limit(iterations=40))
    assert not result.proven and result.method == "mcts"
    assert "50" in result.note
    bare = solve(state, "win", node_budget=50, fallback_limit=None)
    assert not bare.proven and bare.method == "none"


def test_selection_phase_falls_back():
    state = parse_position(
        "9/9/9/9/9/9 3 1 1 s 0,0,0 11.6.4.3,11.6.4.3,11.6.4.3 -,-,- 1234,5678,9123 -"
    )
    result = solve(state, "round-points", fallback_limit=Limit(iterations=30))
    assert not result.proven and result.best.startswith("=")


def test_bad_input_raises():
    state = parse_position(HAND_MADE)
    with pytest.raises(SolveError) as error:
        solve(state, "checkmate")
    assert isinstance(error.value, ManhattanError)
    hidden = parse_position(HAND_MADE.replace("1579", "????"))
    with pytest.raises(HiddenInformationError):
        solve(hidden, "round-points")
    over = tail_position(4, 1, 0)
    over.apply_move(over.legal_moves()[0])
    assert over.is_terminal()
    with pytest.raises(SolveError):
        solve(over, "win")


def test_result_json_shape():
    result = solve(parse_position(HAND_MADE), "round-points")
    data = json.loads(json.dumps(result.to_json()))
    assert data["best"] == "9@1:3" and data["proven"] is True
    assert data["solutions"] == ["9@1:3"] and data["value"] == 11
    assert data["goal"] == "round-points" and data["method"] == "exact"
    assert data["nodes"] >= 1 and data["seconds"] >= 0
