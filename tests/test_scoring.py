"""The incremental round scorer equals the readable rules after any sequence of put/take."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from randompositions import random_states

from positions import rules
from positions.layout import COLORS, SITES, SIZES
from positions.options import RuleOptions
from positions.scoring import RoundScorer
from positions.state import GameState


class _Board:
    """The reference: the three board lists changed by hand, scored by ``rules``."""

    def __init__(self, state: GameState):
        self.stories = state.stories[:]
        self.height = state.height[:]
        self.owner = state.owner[:]
        self.history: list[tuple[int, int, int, int]] = []

    def put(self, site: int, color: int, size: int) -> None:
        self.history.append((site, color, size, self.owner[site]))
        self.stories[site * COLORS + color] += size
        self.height[site] += size
        self.owner[site] = color

    def take(self) -> None:
        site, color, size, previous = self.history.pop()
        self.stories[site * COLORS + color] -= size
        self.height[site] -= size
        self.owner[site] = previous

    def points(self, shared: bool) -> list[int]:
        return rules.round_points(self.height, self.owner, shared)

    def points_after(self, site: int, color: int, size: int, shared: bool) -> list[int]:
        height, owner = self.height[:], self.owner[:]
        height[site] += size
        owner[site] = color
        return rules.round_points(height, owner, shared)


def _legal_blocks(board: _Board, colors: range) -> list[tuple[int, int, int]]:
    return [
        (site, color, size)
        for site in range(SITES)
        for color in colors
        for size in range(1, SIZES + 1)
        if rules.can_place(board.stories, board.owner, site, color, size)
    ]


def _check(scorer: RoundScorer, board: _Board, shared: bool) -> None:
    assert scorer.points == board.points(shared)
    assert scorer.stories == board.stories
    assert scorer.height == board.height
    assert scorer.owner == board.owner


def _walk(state: GameState, shared: bool, steps: int, picker: random.Random) -> int:
    """Random puts (legal placements of the colors in play) and takes (undoing the last
    put) from ``state``'s board, checked against the rules after each step, with a few
    ``points_after`` queries per step; returns the number of checks."""
    scorer = RoundScorer(state.stories, state.height, state.owner, shared)
    board = _Board(state)
    undos = []
    checks = 0
    colors = state.colors_in_play()
    _check(scorer, board, shared)
    for _ in range(steps):
        if undos and picker.random() < 0.35:
            scorer.take_block(undos.pop())
            board.take()
        else:
            site, color, size = picker.choice(_legal_blocks(board, colors))
            expected = board.points_after(site, color, size, shared)
            assert scorer.points_after(site, color, size) == expected
            undos.append(scorer.put_block(site, color, size))
            board.put(site, color, size)
        _check(scorer, board, shared)
        for site, color, size in picker.sample(_legal_blocks(board, colors), 3):
            assert scorer.points_after(site, color, size) == board.points_after(
                site, color, size, shared
            )
        checks += 1
    while undos:
        scorer.take_block(undos.pop())
        board.take()
        _check(scorer, board, shared)
    assert scorer.points == state.round_points()
    return checks


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("tallest_tie", ["none", "shared"])
def test_random_put_take_sequences_match_the_rules(players: int, tallest_tie: str) -> None:
    options = RuleOptions(tallest_tie=tallest_tie)
    picker = random.Random(f"{players}-{tallest_tie}")
    checks = 0
    for state in random_states(players, 25, seed=17, options=options):
        checks += _walk(state, tallest_tie == "shared", 40, picker)
    assert checks == 25 * 40


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.tuples(st.integers(0, SITES - 1), st.integers(0, COLORS - 1), st.integers(1, SIZES)),
            st.none(),  # take the last block back
        ),
        max_size=60,
    ),
    st.booleans(),
)
def test_any_sequence_from_the_empty_board_matches_the_rules(operations, shared) -> None:
    state = GameState(4, RuleOptions(tallest_tie="shared" if shared else "none"))
    scorer = RoundScorer.of_state(state)
    board = _Board(state)
    undos = []
    for operation in operations:
        if operation is None:
            if undos:
                scorer.take_block(undos.pop())
                board.take()
        else:
            site, color, size = operation
            if not rules.can_place(board.stories, board.owner, site, color, size):
                continue
            assert scorer.points_after(site, color, size) == board.points_after(
                site, color, size, shared
            )
            undos.append(scorer.put_block(site, color, size))
            board.put(site, color, size)
        _check(scorer, board, shared)


def test_ties_for_tallest_follow_the_rule_option() -> None:
    # two 3-story buildings of a in cities 1 and 3: nobody scores the tallest, unless the
    # tie is shared (RULES.md, tallest_tie)
    empty = GameState(4)
    for shared, tallest_points in ((False, 0), (True, 3)):
        scorer = RoundScorer(empty.stories, empty.height, empty.owner, shared)
        scorer.put_block(0, 0, 3)
        assert scorer.points == [1 + 2 + 3, 0, 0, 0]
        assert scorer.points_after(20, 0, 3) == [2 + 4 + tallest_points, 0, 0, 0]
        scorer.put_block(20, 0, 3)
        assert scorer.points == [2 + 4 + tallest_points, 0, 0, 0]
        # b joins the tie in city 5: tied owners differ, so nobody scores it either way
        assert scorer.points_after(40, 1, 3) == [2 + 4, 1 + 2, 0, 0]
        scorer.put_block(40, 1, 3)
        assert scorer.points == [2 + 4, 1 + 2, 0, 0]


def test_the_state_is_not_changed() -> None:
    state = next(random_states(4, 1, seed=2))
    before = (state.stories[:], state.height[:], state.owner[:])
    scorer = RoundScorer.of_state(state)
    site = next(s for s in range(SITES) if rules.can_place(state.stories, state.owner, s, 0, 4))
    scorer.put_block(site, 0, 4)
    assert (state.stories, state.height, state.owner) == before
