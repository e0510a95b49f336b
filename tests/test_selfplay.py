"""Bot games: the record replays to the same result, a seed fixes the game, forfeits."""

from __future__ import annotations

import numpy as np
import pytest

from positions.bots import BotForfeit, GreedyBot, HeuristicBot, RandomBot
from positions.errors import ManhattanError
from positions.moves import Placement
from positions.options import RuleOptions
from positions.record import read_record, write_record
from positions.selfplay import play_game
from positions.state import GameState


class _ForfeitsAt:
    """Plays greedy until its ``turn``-th decision, then forfeits (or answers nonsense)."""

    def __init__(self, turn: int, illegal: bool = False):
        self.name = "quitter"
        self.turn = turn
        self.illegal = illegal
        self.decisions = 0
        self.closed = 0

    def choose(self, view: GameState, rng: np.random.Generator):
        self.decisions += 1
        if self.decisions == self.turn:
            if self.illegal:
                return Placement(1, 1, 1)  # in 2p a placement must name its color
            raise BotForfeit("gave up on purpose")
        return GreedyBot().choose(view, rng)

    def close(self) -> None:
        self.closed += 1


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, RuleOptions(two_player_total="min")),
        (3, RuleOptions(tallest_tie="shared")),
        (4, None),
    ],
)
def test_the_record_replays_to_the_same_result(players: int, options) -> None:
    bots = [HeuristicBot(), GreedyBot(), RandomBot(), GreedyBot()][:players]
    outcome = play_game(bots, players, seed=5, options=options)
    text = write_record(outcome.record)
    replay = read_record(text)
    final = replay.final_state()
    assert final.is_terminal()
    assert final.player_totals() == outcome.totals
    assert replay.tags["Result"] == " ".join(map(str, outcome.totals))
    assert final.places() == outcome.places
    assert replay.tags["P1"] == "heuristic"
    assert len(replay.tags["Deal"].split()) == players
    if options is not None:
        assert replay.tags["Options"] == " ".join(options.non_default())
    placements = [m for m in replay.moves if isinstance(m.move, Placement)]
    assert placements and all(m.drawn and 1 <= m.drawn <= 9 for m in placements)
    assert sum(outcome.win_shares) == pytest.approx(1.0)


def test_the_same_seed_gives_the_same_game() -> None:
    def moves(seed: int) -> list[str]:
        record = play_game([HeuristicBot(), RandomBot(), GreedyBot()], 3, seed).record
        return [f"{m.move} +{m.drawn}" for m in record.moves]

    assert moves(9) == moves(9)
    assert moves(9) != moves(10)


def test_a_forfeit_is_recorded_and_the_game_goes_on() -> None:
    quitter = _ForfeitsAt(turn=5)
    outcome = play_game([GreedyBot(), quitter, GreedyBot(), GreedyBot()], 4, seed=2)
    assert outcome.forfeits == {1: "gave up on purpose"}
    assert quitter.decisions == 5  # never asked again
    assert quitter.closed >= 1
    assert outcome.win_shares[1] == 0.0
    # the best place among the others wins (shared 1/k)
    standing = [p for p in range(4) if p != 1]
    best = min(outcome.places[p] for p in standing)
    firsts = [p for p in standing if outcome.places[p] == best]
    for p in standing:
        assert outcome.win_shares[p] == pytest.approx(1 / len(firsts) if p in firsts else 0.0)
    replay = read_record(write_record(outcome.record))
    commented = [m for m in replay.moves if m.comment]
    assert len(commented) == 1
    assert commented[0].comment.startswith("P2 (quitter) forfeits: gave up on purpose")
    assert replay.final_state().player_totals() == outcome.totals


def test_an_illegal_move_is_a_forfeit() -> None:
    outcome = play_game([_ForfeitsAt(turn=2, illegal=True), GreedyBot()], 2, seed=4)
    assert list(outcome.forfeits) == [0]
    assert outcome.forfeits[0].startswith("illegal move")
    assert outcome.win_shares == [0.0, 1.0]


def test_when_everyone_forfeits_nobody_wins() -> None:
    outcome = play_game([_ForfeitsAt(turn=1), _ForfeitsAt(turn=3)], 2, seed=1)
    assert sorted(outcome.forfeits) == [0, 1]
    assert outcome.win_shares == [0.0, 0.0]


def test_bots_are_closed_and_counts_checked() -> None:
    quitters = [_ForfeitsAt(turn=10**6) for _ in range(2)]
    play_game(quitters, 2, seed=0, names=["Ann", "Ben"])
    assert all(q.closed == 1 for q in quitters)
    with pytest.raises(ManhattanError, match="needs 3 bots"):
        play_game([GreedyBot()], 3, seed=0)
    with pytest.raises(ManhattanError, match="needs 2 names"):
        play_game([GreedyBot(), GreedyBot()], 2, seed=0, names=["x"])
