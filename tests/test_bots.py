"""The built-in bots: legal moves everywhere, greedy is greedy, the what-if scorer is exact."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from randompositions import random_states

from positions import rules
from positions.bots import (
    GreedyBot,
    HeuristicBot,
    RandomBot,
    biggest_selection,
)
from positions.moves import NoPlacement, Placement, Selection
from positions.notation import parse_position
from positions.options import RuleOptions
from positions.scoring import RoundScorer
from positions.state import GameState, Phase

BOTS = [RandomBot, GreedyBot, HeuristicBot]


def _views(players: int, count: int, seed: int, options: RuleOptions | None = None):
    """Views of the player to move in random positions (the view a bot is given)."""
    for state in random_states(players, count, seed, options):
        if not state.is_terminal():
            yield state.view(state.current_player())


def _mover_value(view: GameState, move: Placement) -> int:
    """The mover's total if the round were scored right after ``move`` (independent of
    ``RoundScorer``: the board lists are copied and changed by hand)."""
    player = view.to_move
    colors = view.layout.player_colors[player]
    color = colors[0] if move.color is None else "abcd".index(move.color)
    site = (move.city - 1) * 9 + view.layout.card_sites[player][move.card]
    height, owner = view.height[:], view.owner[:]
    height[site] += move.stories
    owner[site] = color
    points = rules.round_points(height, owner, view.options.tallest_tie == "shared")
    combine = min if view.options.two_player_total == "min" else sum
    return combine(view.scores[c] + points[c] for c in colors)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("bot_class", BOTS)
def test_bots_return_legal_moves(players: int, bot_class) -> None:
    bot = bot_class()
    rng = np.random.default_rng(players)
    for view in _views(players, 60, seed=11):
        move = bot.choose(view, rng)
        if view.phase == Phase.SELECTION:
            assert isinstance(move, Selection)
            assert move in view.legal_selections()
        else:
            assert move in view.legal_moves()
    bot.close()


@pytest.mark.parametrize("bot_class", BOTS)
def test_bots_play_when_no_placement_is_legal(bot_class) -> None:
    found = 0
    for view in _views(4, 400, seed=5, options=None):
        if view.phase == Phase.PLACEMENT and isinstance(view.legal_moves()[0], NoPlacement):
            found += 1
            move = bot_class().choose(view, np.random.default_rng(0))
            assert move in view.legal_moves()
    # the conformance vectors end with positions where no placement is legal
    lines = (Path(__file__).parent / "data" / "positions.jsonl").read_text().splitlines()
    for line in lines:
        entry = json.loads(line)
        if "@-:" in " ".join(entry["legal"]):
            view = parse_position(entry["pos"])
            move = bot_class().choose(view, np.random.default_rng(0))
            assert str(move) in entry["legal"]
            found += 1
    assert found > 0


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", [RuleOptions(), RuleOptions(tallest_tie="shared")])
def test_round_scorer_matches_the_rules(players: int, options: RuleOptions) -> None:
    picker = random.Random(players)
    checked = 0
    for state in random_states(players, 40, seed=3, options=options):
        scorer = RoundScorer.of_state(state)
        assert scorer.points == state.round_points()
        for _ in range(30):
            site = picker.randrange(54)
            color = picker.choice(list(state.colors_in_play()))
            size = picker.randint(1, 4)
            height, owner = state.height[:], state.owner[:]
            height[site] += size
            owner[site] = color
            expected = rules.round_points(height, owner, options.tallest_tie == "shared")
            assert scorer.points_after(site, color, size) == expected
            checked += 1
    assert checked == 40 * 30


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_takes_the_most_immediate_points(players: int) -> None:
    options = RuleOptions(two_player_total="min") if players == 2 else None
    rng = np.random.default_rng(1)
    placements = 0
    for view in _views(players, 60, seed=21, options=options):
        moves = view.legal_moves()
        if view.phase != Phase.PLACEMENT or not isinstance(moves[0], Placement):
            continue
        best = max(_mover_value(view, move) for move in moves)
        chosen = GreedyBot().choose(view, rng)
        assert _mover_value(view, chosen) == best
        placements += 1
    assert placements > 20


def test_greedy_breaks_ties_with_the_generator() -> None:
    state = GameState.new_game(4, np.random.default_rng(0))
    state.apply_move(biggest_selection(state))
    for _ in range(3):
        state.apply_move(biggest_selection(state))
    view = state.view(0)
    # on an empty board every placement scores the same, so the choice follows the rng
    choices = {str(GreedyBot().choose(view, np.random.default_rng(seed))) for seed in range(20)}
    assert len(choices) > 1
    again = {str(GreedyBot().choose(view, np.random.default_rng(seed))) for seed in range(20)}
    assert again == choices


def test_greedy_and_heuristic_select_the_biggest_blocks() -> None:
    state = GameState.new_game(2, np.random.default_rng(0))
    assert str(GreedyBot().choose(state.view(0), np.random.default_rng(0))) == "=3444/3444"
    state = GameState.new_game(4, np.random.default_rng(0))
    assert str(HeuristicBot().choose(state.view(0), np.random.default_rng(0))) == "=333444"


def test_bots_decide_the_same_for_the_same_generator() -> None:
    for view in _views(3, 10, seed=8):
        for bot_class in BOTS:
            first = bot_class().choose(view, np.random.default_rng(4))
            second = bot_class().choose(view, np.random.default_rng(4))
            assert first == second
