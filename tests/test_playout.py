"""The compiled playout kernel (``positions.playout``) against the readable rules.

The differential test plays the kernel from thousands of positions (2, 3 and 4 players,
every phase, both rule options), replays each trace through ``GameState`` and checks that
every move is legal there, every draw comes from the known deck (or, after a reshuffle,
from the reshuffled pile) and the final totals and win shares agree.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from positions import GameState, Phase, RuleOptions, parse_position
from positions.layout import COLORS, SITES, SIZES
from positions.moves import NO_PLACEMENT_BASE, PICK_BASE, decode_action
from positions.playout import (
    PlayoutEvaluator,
    _board_facts,
    _gain,
    _tallest_scorer,
    playout_result,
    playout_trace,
    to_arrays,
)

DATA = Path(__file__).parent / "data"
EPSILONS = (1.0, 0.1, 0.0, 0.5)
POLICIES = (
    ("greedy", "bag"),
    ("heuristic", "biggest"),
    ("heuristic", "bag"),
    ("greedy", "biggest"),
    ("imitation", "bag"),
)


def replay(state: GameState, trace: list[tuple[int, int]], stats: Counter) -> GameState:
    """Replay a kernel trace on a copy of ``state``, asserting each move is legal and each
    draw is the deck's top card until the first reshuffle (the kernel reshuffles with its
    own generator, so from then on the draw is named and must be in the Python deck)."""
    state = state.clone()
    reshuffled = False
    for step, (action, drawn) in enumerate(trace):
        assert not state.is_terminal(), f"step {step}: the kernel plays on after the end"
        legal = state.legal_actions()
        assert action in legal, (
            f"step {step}: {state.action_to_string(action)} ({action}) not in {legal}"
        )
        if action >= PICK_BASE:
            assert drawn == -1
            state.apply_action(action)
            stats["pick"] += 1
            continue
        stats["none" if action >= NO_PLACEMENT_BASE else "place"] += 1
        if state.deck_count() == 0:
            reshuffled = True
            stats["reshuffle"] += 1
        if reshuffled:
            state.apply_move(state.action_to_move(action), drawn=drawn)
        else:
            assert drawn == state.deck[-1], f"step {step}: drew {drawn}, top is {state.deck[-1]}"
            state.apply_action(action)
    assert state.is_terminal(), "the kernel stopped before the end of the game"
    return state


def check_position(
    state: GameState,
    seed: int,
    epsilon: float,
    stats: Counter,
    policy: tuple[str, str] = POLICIES[0],
) -> None:
    """Run the kernel from ``state`` with ``policy`` (placement, selection) and hold it
    against the Python model."""
    trace = playout_trace(state, seed, epsilon, *policy)
    final = replay(state, trace, stats)
    shares, totals = playout_result(state, seed, epsilon, *policy)
    assert totals.tolist() == final.player_totals()
    assert shares.tolist() == pytest.approx(final.returns())
    stats["positions"] += 1


def add_noise(state: GameState, rng: np.random.Generator, heavy: bool = False) -> None:
    """Stack random blocks on random sites (ignoring supplies), so that takeovers fail.
    ``heavy`` covers most sites with tall buildings of other players' colors, so that
    "no legal placement" comes up."""
    if heavy:
        mine = state.layout.player_colors[state.current_player()]
        others = [c for c in range(state.layout.colors_in_play) if c not in mine]
        for site in range(SITES):
            if rng.random() < 0.9:
                for _ in range(2):
                    color = others[int(rng.integers(len(others)))]
                    state._build(site, color, int(rng.integers(2, SIZES + 1)))
        return
    for _ in range(int(rng.integers(10, 60))):
        site = int(rng.integers(SITES))
        color = int(rng.integers(state.layout.colors_in_play))
        state._build(site, color, int(rng.integers(1, SIZES + 1)))


def random_options(players: int, rng: np.random.Generator) -> RuleOptions:
    return RuleOptions(
        two_player_total=("sum", "min")[int(rng.integers(2))] if players == 2 else "sum",
        tallest_tie=("none", "shared")[int(rng.integers(2))],
    )


def test_kernel_matches_rules_on_random_positions():
    rng = np.random.default_rng(20240601)
    stats: Counter = Counter()
    for game in range(150):
        players = 2 + game % 3
        state = GameState.new_game(players, rng, random_options(players, rng))
        epsilon = EPSILONS[game % len(EPSILONS)]
        policy = POLICIES[(game // 3) % len(POLICIES)]
        stats[policy] += 1
        trace = playout_trace(state, game, epsilon, *policy)
        # the game from the start, and positions along it (mid-selection included)
        check_position(state, game, epsilon, stats, policy)
        for cut in sorted(rng.choice(len(trace), size=12, replace=False)):
            position = state.clone()
            replay_prefix(position, trace[:cut])
            kind = int(rng.integers(4))
            if kind == 1:  # a fresh world as the search would deal it
                mover = position.current_player()
                position = position.view(mover).resample_from_infostate(mover, rng)
            elif kind == 2 and position.phase == Phase.PLACEMENT:
                add_noise(position, rng, heavy=bool(rng.integers(2)))
            check_position(position, int(rng.integers(2**62)), EPSILONS[kind], stats, policy)
    assert stats["positions"] >= 1900
    assert all(stats[policy] >= 30 for policy in POLICIES), stats
    assert stats["reshuffle"] > 100
    assert stats["none"] > 20, stats
    assert stats["pick"] > 1000


def replay_prefix(state: GameState, trace: list[tuple[int, int]]) -> None:
    """Apply the first moves of a kernel trace in place, drawing the named cards."""
    for action, drawn in trace:
        if drawn < 0 or (state.deck_count() > 0 and state.deck[-1] == drawn):
            state.apply_action(action)
        else:
            state.apply_move(state.action_to_move(action), drawn=drawn)


def test_kernel_on_conformance_positions():
    """The conformance vectors (incl. positions with no legal placement), dealt out."""
    rng = np.random.default_rng(7)
    stats: Counter = Counter()
    for line in (DATA / "positions.jsonl").read_text().splitlines():
        position = parse_position(json.loads(line)["pos"])
        mover = position.current_player()
        for seed in range(4):
            world = position.resample_from_infostate(mover, rng)
            check_position(world, seed, EPSILONS[seed], stats, POLICIES[seed])
    assert stats["none"] >= 10


def mover_points(state: GameState, player: int) -> int:
    points = state.round_points()
    return sum(points[c] for c in state.layout.player_colors[player])


def test_greedy_picks_a_move_with_most_immediate_points():
    rng = np.random.default_rng(11)
    checked = 0
    tie_choices: dict[int, set[int]] = {}
    for game in range(60):
        players = 2 + game % 3
        state = GameState.new_game(players, rng, random_options(players, rng))
        trace = playout_trace(state, game, 1.0)
        for cut in rng.choice(len(trace), size=6, replace=False):
            position = state.clone()
            replay_prefix(position, trace[:cut])
            if position.phase != Phase.PLACEMENT:
                continue
            if game % 2:
                add_noise(position, rng)
            legal = position.legal_actions()
            if legal[0] >= NO_PLACEMENT_BASE:
                continue
            player = position.current_player()
            value = {}
            for action in legal:
                after = position.clone()
                after.apply_action(action)
                value[action] = mover_points(after, player)
            best = max(value.values())
            key = len(tie_choices)
            tie_choices[key] = set()
            for seed in range(5):
                first = playout_trace(position, seed, 0.0)[0][0]
                assert value[first] == best, (position.action_to_string(first), best)
                tie_choices[key].add(first)
            checked += 1
    assert checked >= 100
    # ties are broken at random: some position sees several different best moves
    assert max(len(choices) for choices in tie_choices.values()) > 1


def test_greedy_gain_equals_rescoring():
    """The kernel's incremental change of the mover's round points, for every legal
    placement, equals rescoring the whole board after the placement."""
    rng = np.random.default_rng(12)
    checked = 0
    for game in range(60):
        players = 2 + game % 3
        state = GameState.new_game(players, rng, random_options(players, rng))
        trace = playout_trace(state, game, 0.5)
        for cut in rng.choice(len(trace), size=6, replace=False):
            position = state.clone()
            replay_prefix(position, trace[:cut])
            if position.phase != Phase.PLACEMENT:
                continue
            if game % 2:
                add_noise(position, rng)
            player = position.current_player()
            shared = position.options.tallest_tie == "shared"
            height = np.array(position.height, dtype=np.int64)
            owner = np.array(position.owner, dtype=np.int64)
            city_count, city_winner, tall = _board_facts(height, owner)
            scorer = _tallest_scorer(tall, shared)
            before = mover_points(position, player)
            for action in position.legal_actions():
                kind, card, city, slot, size = decode_action(action)
                if kind != "place":
                    continue
                after = position.clone()
                after.apply_action(action)
                site = (city - 1) * 9 + position.layout.card_sites[player][card]
                color = position.layout.player_colors[player][slot]
                gain = _gain(
                    site,
                    color,
                    size,
                    player,
                    players,
                    shared,
                    owner,
                    height,
                    city_count,
                    city_winner,
                    tall,
                    scorer,
                )
                assert gain == mover_points(after, player) - before, position.action_to_string(
                    action
                )
                checked += 1
    assert checked > 5000


def test_random_policy_is_uniform_over_legal_actions():
    rng = np.random.default_rng(3)
    state = GameState.new_game(4, rng)
    for _ in range(18):
        state.apply_action(PICK_BASE)  # P1-P3 select six 1-story blocks; P4 picks next
    for position in (state, placement_position(rng), no_placement_position(rng)):
        legal = position.legal_actions()
        runs = 200 * len(legal)
        counts = Counter(playout_trace(position, seed, 1.0)[0][0] for seed in range(runs))
        assert set(counts) == set(legal)
        assert min(counts.values()) > 120 and max(counts.values()) < 280, counts


def placement_position(rng: np.random.Generator) -> GameState:
    state = GameState.new_game(4, rng)
    trace = playout_trace(state, 1, 1.0)
    replay_prefix(state, trace[:30])
    assert state.phase == Phase.PLACEMENT
    return state


def no_placement_position(rng: np.random.Generator) -> GameState:
    """A 2-player position where several no-placement moves are the only legal ones."""
    state = GameState.new_game(2, rng)
    trace = playout_trace(state, 1, 1.0)
    replay_prefix(state, trace[:18])
    assert state.phase == Phase.PLACEMENT
    opponent = 1 - state.current_player()
    for site in range(SITES):
        for _ in range(3):
            state._build(site, opponent, SIZES)  # 12 stories: no takeover is possible
    legal = state.legal_actions()
    assert legal[0] >= NO_PLACEMENT_BASE and len(legal) >= 6
    return state


def test_same_seed_same_playout():
    rng = np.random.default_rng(5)
    state = GameState.new_game(3, rng)
    for epsilon in (0.0, 0.1, 1.0):
        for policy in POLICIES:
            trace = playout_trace(state, 42, epsilon, *policy)
            assert trace == playout_trace(state, 42, epsilon, *policy)
            traces = {tuple(playout_trace(state, seed, epsilon, *policy)) for seed in range(5)}
            assert len(traces) > 1
    evaluator = PlayoutEvaluator()
    first = evaluator.evaluate(state, np.random.default_rng(9))
    second = evaluator.evaluate(state, np.random.default_rng(9))
    assert all(np.array_equal(x, y) for x, y in zip(first, second, strict=True))


def test_a_forced_first_action_is_played_then_the_policy_plays_on():
    """``playout_trace(..., forced=a)`` starts with ``a`` (a pick, a placement or a
    no-placement move) and the rest replays through the rules like any playout."""
    rng = np.random.default_rng(21)
    stats: Counter = Counter()
    states = [GameState.new_game(4, rng), placement_position(rng), no_placement_position(rng)]
    for state in states:
        for action in state.legal_actions()[:12]:
            for epsilon, policy in ((0.1, POLICIES[0]), (0.0, POLICIES[1])):
                trace = playout_trace(state, 5, epsilon, *policy, forced=action)
                assert trace[0][0] == action
                replay(state, trace, stats)
    assert stats["pick"] and stats["place"] and stats["none"]
    with pytest.raises(ValueError, match="not legal"):
        playout_trace(states[1], 5, 0.1, forced=NO_PLACEMENT_BASE)


def test_evaluate_actions_plays_each_action_then_the_same_playout():
    """Common random numbers: the row of action ``a`` is the playout of the world after
    ``a`` from the same generator (the forced move draws no random numbers), for worlds
    whose deck does not run out at that move."""
    rng = np.random.default_rng(22)
    for world in (placement_position(rng), no_placement_position(rng)):
        evaluator = PlayoutEvaluator()
        actions = world.legal_actions()[:10]
        wins, totals = evaluator.evaluate_actions(world, actions, np.random.default_rng(3))
        assert wins.shape == totals.shape == (len(actions), world.layout.players)
        for row, action in enumerate(actions):
            after = world.clone()
            after.apply_action(action)
            alone = evaluator.evaluate(after, np.random.default_rng(3))
            assert wins[row].tolist() == alone[0].tolist()
            assert totals[row].tolist() == alone[1].tolist()


def test_evaluate_returns_shares_and_totals():
    rng = np.random.default_rng(8)
    for players in (2, 3, 4):
        state = GameState.new_game(players, rng)
        shares, totals = PlayoutEvaluator().evaluate(state, rng)
        assert shares.dtype == totals.dtype == np.float64
        assert shares.shape == totals.shape == (players,)
        assert shares.sum() == pytest.approx(1.0)
        assert (totals > 0).all()


def test_evaluate_terminal_state_returns_its_own_result():
    rng = np.random.default_rng(4)
    state = GameState.new_game(2, rng, RuleOptions(two_player_total="min"))
    final = replay(state, playout_trace(state, 3, 0.1), Counter())
    shares, totals = PlayoutEvaluator().evaluate(final, rng)
    assert shares.tolist() == final.returns()
    assert totals.tolist() == final.player_totals()


def test_hidden_cards_are_refused():
    rng = np.random.default_rng(6)
    state = GameState.new_game(4, rng)
    evaluator = PlayoutEvaluator()
    with pytest.raises(ValueError, match="unseen"):
        evaluator.evaluate(state.view(0), rng)  # view() also hides the deck
    hidden_hand = state.clone()
    hidden_hand.hands[10:20] = [4] + [0] * 9
    with pytest.raises(ValueError, match="unseen"):
        evaluator.evaluate(hidden_hand, rng)
    with pytest.raises(ValueError, match="unseen"):
        evaluator.evaluate(GameState(3), rng)
    unknown_deck = state.clone()
    unknown_deck.deck = None
    with pytest.raises(ValueError, match="deck"):
        evaluator.evaluate(unknown_deck, rng)
    with pytest.raises(ValueError, match="epsilon"):
        PlayoutEvaluator(epsilon=1.5)
    with pytest.raises(ValueError, match="placement policy must be one of greedy, heuristic"):
        PlayoutEvaluator(placement="clever")
    with pytest.raises(ValueError, match="selection policy must be one of bag, biggest"):
        PlayoutEvaluator(selection="smallest")
    with pytest.raises(ValueError, match="prior_temperature"):
        PlayoutEvaluator(prior_temperature=0)


def test_to_arrays_layout():
    rng = np.random.default_rng(2)
    state = GameState.new_game(3, rng, RuleOptions(tallest_tie="shared"))
    arrays = to_arrays(state)
    assert arrays[:8].tolist() == [3, 1, 0, 0, 1, 0, len(state.deck), 0]
    assert arrays[8 : 8 + SITES * COLORS].tolist() == state.stories
    assert arrays[-45:][: len(state.deck)].tolist() == state.deck


def test_positions_does_not_import_numba():
    code = (
        "import sys, positions, positions.state, positions.notation, positions.rules; "
        "assert 'numba' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
