"""Reading how each opponent plays (``positions.styles``) and playouts that model each
player by their own policy (``PlayoutEvaluator(placement=(...))``)."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.players import make_bot
from analyzer.search_bot import SearchBot
from positions import GameState
from positions.errors import ManhattanError
from positions.playout import PlayoutEvaluator, playout_trace, policy_codes
from positions.selfplay import play_game
from positions.styles import (
    EXACT_LEAST,
    exactly_greedy,
    fitted_policies,
    read_styles,
    selects_biggest,
    took_biggest,
)
from search.limits import Limit

SEATS = ["greedy", "heuristic", "greedy", "heuristic"]


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_greedy_and_heuristic_bots_are_told_apart_by_their_placements(seed):
    states = play_game([make_bot(spec) for spec in SEATS], 4, seed).record.states()
    middle = states[60]  # round 3: two rounds of placements read
    assert fitted_policies(middle, 0) == ("greedy", "heuristic", "greedy", "heuristic")
    # the reader is always modelled as greedy, whoever it is
    assert fitted_policies(middle, 1) == ("greedy", "greedy", "greedy", "heuristic")


def test_without_a_history_everyone_is_greedy():
    state = GameState.new_game(4, np.random.default_rng(1))
    assert fitted_policies(state, 0) == ("greedy",) * 4
    states = play_game([make_bot(spec) for spec in SEATS], 4, 11).record.states()
    stripped = states[60].clone()
    stripped.history = None
    assert fitted_policies(stripped, 0) == ("greedy",) * 4


def test_styles_read_only_what_the_reader_sees():
    """The reader's view hides the other hands; the reading is the same as from the world."""
    states = play_game([make_bot(spec) for spec in SEATS], 4, 12).record.states()
    world = states[70]
    reader = world.current_player()
    assert fitted_policies(world.view(reader), reader) == fitted_policies(world, reader)


def test_a_playout_models_each_player_by_their_own_policy():
    rng = np.random.default_rng(4)
    state = GameState.new_game(4, rng)
    same = playout_trace(state, 9, 0.0, ("heuristic",) * 4)
    assert same == playout_trace(state, 9, 0.0, "heuristic")
    mixed = playout_trace(state, 9, 0.0, ("greedy", "heuristic", "greedy", "heuristic"))
    assert mixed != same and mixed != playout_trace(state, 9, 0.0, "greedy")
    evaluator = PlayoutEvaluator(placement=("greedy", "heuristic", "greedy", "heuristic"))
    shares, totals = evaluator.evaluate(state, np.random.default_rng(2))
    assert shares.sum() == pytest.approx(1.0) and (totals > 0).all()
    assert evaluator.with_policies("greedy").placement == "greedy"


def test_per_player_policies_must_name_every_player():
    with pytest.raises(ValueError, match="one per player"):
        policy_codes(("greedy", "heuristic"), "bag", 4)
    with pytest.raises(ValueError, match="placement policy"):
        policy_codes(("greedy", "clever", "greedy"), "bag", 3)
    state = GameState.new_game(3, np.random.default_rng(1))
    with pytest.raises(ValueError, match="one per player"):
        PlayoutEvaluator(placement=("greedy", "heuristic")).evaluate(
            state, np.random.default_rng(1)
        )


def test_the_search_bot_reads_styles_and_its_own_play_fits_greedy_play():
    # Reading styles is the bots' default, and it must leave play against the engine as
    # it is: the engine's own placements are read as greedy play.
    assert make_bot("mcts:100").styles
    bots = [make_bot("mcts:100"), make_bot("heuristic"), make_bot("mcts:100"), make_bot("greedy")]
    states = play_game(bots, 4, 5).record.states()
    assert fitted_policies(states[80], 0) == ("greedy", "heuristic", "greedy", "greedy")
    assert fitted_policies(states[80], 1) == ("greedy",) * 4


def test_only_greedy_play_reads_as_exactly_greedy():
    """The greedy bots are read as exactly greedy once they have made ``EXACT_LEAST``
    placements; the engine and the heuristic bot never are, and the reader never."""
    bots = [make_bot("mcts:100"), make_bot("heuristic"), make_bot("greedy"), make_bot("greedy")]
    states = play_game(bots, 4, 5).record.states()
    assert exactly_greedy(states[80], 0) == (2, 3)
    assert exactly_greedy(states[80], 2) == (3,)
    for state in states[::8]:
        assert set(exactly_greedy(state, 0)) <= {2, 3}
    early = next(s for s in states if s.history and len(s.history) >= 1)
    assert exactly_greedy(early, 0) == ()  # fewer than EXACT_LEAST placements read
    assert EXACT_LEAST > 1


def test_a_selection_takes_the_biggest_blocks_or_tells_nothing():
    # blocks per size, 1-story first; a quota of 6
    assert took_biggest([6, 6, 6, 6], [0, 0, 0, 6], 6) is True
    assert took_biggest([6, 6, 6, 6], [0, 0, 1, 5], 6) is False
    assert took_biggest([6, 6, 2, 1], [0, 3, 2, 1], 6) is True
    assert took_biggest([6, 6, 2, 1], [1, 2, 2, 1], 6) is False
    assert took_biggest([0, 0, 2, 1], [0, 0, 2, 1], 6) is None  # everything left is taken
    assert took_biggest([0, 0, 0, 9], [0, 0, 0, 6], 6) is None  # one size left: no choice


def test_the_bots_that_select_the_biggest_blocks_are_read_so_and_no_one_else():
    bots = [make_bot("mcts:100"), make_bot("heuristic"), make_bot("greedy"), make_bot("random")]
    states = play_game(bots, 4, 5).record.states()
    before = states[0]  # nobody has selected yet
    assert not any(selects_biggest(before, p) for p in range(4))
    for state in states[3::10]:  # from the first selections of P2 and P3 on
        assert [selects_biggest(state, p) for p in (1, 2, 3)] == [True, True, False]
        assert not read_styles(state, 1)[1].selects_biggest  # never the reader
        view = state.view(0)
        assert read_styles(view, 0) == read_styles(state, 0)


def test_a_playout_selects_for_each_player_by_their_own_policy():
    state = GameState.new_game(4, np.random.default_rng(4))
    trace = playout_trace(state, 9, 0.0, "greedy", ("bag", "biggest", "bag", "biggest"))
    assert trace != playout_trace(state, 9, 0.0, "greedy", "bag")
    assert trace != playout_trace(state, 9, 0.0, "greedy", "biggest")
    world = state.clone()
    (color,) = world.layout.player_colors[1]
    available = world.supply[color * 4 : color * 4 + 4]
    for action, _ in trace[:12]:  # the first round's selections of P1 and P2
        world.apply_action(action)
    selected = world.selected[color * 4 : color * 4 + 4]
    assert took_biggest(available, selected, world.layout.quota)  # P2 selected the biggest
    with pytest.raises(ValueError, match="one per player"):
        policy_codes("greedy", ("bag", "biggest"), 4)
    with pytest.raises(ValueError, match="as many placement as selection"):
        PlayoutEvaluator(placement=("greedy",) * 3, selection=("bag",) * 4)


@pytest.fixture
def asked_policies(monkeypatch) -> list[tuple]:
    """The (placement, selection) policies the search bot asks its evaluator for, in order."""
    asked = []
    with_policies = PlayoutEvaluator.with_policies

    def spy(self, placement=None, selection=None):
        asked.append((placement, selection))
        return with_policies(self, placement, selection)

    monkeypatch.setattr(PlayoutEvaluator, "with_policies", spy)
    return asked


def test_the_search_bot_models_the_selections_it_reads(asked_policies):
    bots = [make_bot(spec) for spec in ("greedy", "greedy", "random", "greedy")]
    state = play_game(bots, 4, 5).record.states()[40]
    reader = state.current_player()
    expected = ["bag" if p in (reader, 2) else "biggest" for p in range(4)]
    for read in (True, False):  # greedy placements everywhere: only selections differ
        bot = SearchBot(Limit(iterations=20), read_selections=read)
        bot.choose(state.view(reader), np.random.default_rng(1))
    assert [selection for _, selection in asked_policies] == [tuple(expected)]


def test_the_search_bot_models_its_opponents_by_the_policy_asked_for(asked_policies):
    bots = [make_bot(spec) for spec in ("greedy", "heuristic", "random", "greedy")]
    state = play_game(bots, 4, 5).record.states()[47]  # P1 to place
    styles = read_styles(state, 0)
    assert [(s.policy, s.exactly_greedy) for s in styles[1:]] == [
        ("heuristic", False),  # P2, the heuristic bot
        ("greedy", False),  # P3, the random bot: no heuristic style, not exactly greedy
        ("greedy", True),  # P4, the greedy bot
    ]
    SearchBot(Limit(iterations=20), opponent_placement="imitation").choose(
        state.view(0), np.random.default_rng(1)
    )
    own_imitation = PlayoutEvaluator(placement="imitation")
    SearchBot(Limit(iterations=20), evaluator=own_imitation).choose(
        state.view(0), np.random.default_rng(1)
    )
    # an exactly greedy player is modelled by greedy play whatever models the others
    assert [placement for placement, _ in asked_policies] == [
        ("greedy", "heuristic", "imitation", "greedy"),
        ("imitation", "heuristic", "imitation", "greedy"),
    ]
    with pytest.raises(ManhattanError, match="opponent placement policy must be one of"):
        SearchBot(Limit(iterations=20), opponent_placement="bold")
    with pytest.raises(ManhattanError, match="needs styles on"):  # never silently unused
        SearchBot(Limit(iterations=20), styles=False, opponent_placement="imitation")


def test_the_search_bot_plays_its_own_seat_otherwise_at_a_heuristic_table(asked_policies):
    own_imitation = PlayoutEvaluator(placement="imitation")
    games = {  # bots, the position, the placements the playouts are asked for
        "a heuristic opponent": (
            ("greedy", "heuristic", "random", "greedy"),
            47,
            ("greedy", "heuristic", "imitation", "greedy"),
        ),
        "none": (
            ("greedy", "greedy", "random", "greedy"),
            47,
            ("imitation", "greedy", "imitation", "greedy"),
        ),
    }
    for bots, at, _ in games.values():
        state = play_game([make_bot(spec) for spec in bots], 4, 5).record.states()[at]
        reader = state.current_player()
        assert reader == 0  # P1 to place
        bot = SearchBot(
            Limit(iterations=20), evaluator=own_imitation, own_placement_vs_heuristic="greedy"
        )
        bot.choose(state.view(reader), np.random.default_rng(1))
    assert [placement for placement, _ in asked_policies] == [
        expected for _, _, expected in games.values()
    ]
    with pytest.raises(ManhattanError, match="own-seat placement policy must be one of"):
        SearchBot(Limit(iterations=20), own_placement_vs_heuristic="bold")
    with pytest.raises(ManhattanError, match="needs styles on"):
        SearchBot(Limit(iterations=20), styles=False, own_placement_vs_heuristic="greedy")


def test_the_search_bot_plays_its_own_seat_otherwise_at_an_exactly_greedy_table(asked_policies):
    games = {  # bots, the placements the playouts are asked for at P1's placement 47
        "every opponent exactly greedy": (
            ("greedy", "greedy", "greedy", "greedy"),
            ("imitation", "greedy", "greedy", "greedy"),
        ),
        "a random opponent": (  # modelled as the default: the playouts are not re-asked
            ("greedy", "greedy", "random", "greedy"),
            None,
        ),
        "a heuristic opponent": (
            ("greedy", "heuristic", "greedy", "greedy"),
            ("greedy", "heuristic", "greedy", "greedy"),
        ),
    }
    for bots, _ in games.values():
        state = play_game([make_bot(spec) for spec in bots], 4, 5).record.states()[47]
        assert state.current_player() == 0
        bot = SearchBot(Limit(iterations=20), own_placement_vs_greedy="imitation")
        bot.choose(state.view(0), np.random.default_rng(1))
    assert [placement for placement, _ in asked_policies] == [
        expected for _, expected in games.values() if expected
    ]
    with pytest.raises(ManhattanError, match="own-seat placement policy must be one of"):
        SearchBot(Limit(iterations=20), own_placement_vs_greedy="bold")
    with pytest.raises(ManhattanError, match="needs styles on"):
        SearchBot(Limit(iterations=20), styles=False, own_placement_vs_greedy="imitation")
