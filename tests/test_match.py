"""Matches: seat rotation, the JSON summary, saved records, no overwriting, bot specs."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from analyzer.match import record_paths, run_match, seat_specs, wilson_interval
from analyzer.players import check_bot_spec, make_bot
from positions.bots import GreedyBot, HeuristicBot, RandomBot
from positions.errors import ManhattanError
from positions.record import load_record

SPECS = ["heuristic", "greedy", "random", "greedy"]


def test_seats_rotate_so_each_spec_plays_each_seat() -> None:
    assert seat_specs(["a", "b", "c"], 0) == ["a", "b", "c"]
    assert seat_specs(["a", "b", "c"], 1) == ["b", "c", "a"]
    assert seat_specs(["a", "b", "c"], 5) == ["c", "a", "b"]


def test_a_small_match(tmp_path: Path) -> None:
    calls: list[int] = []
    result = run_match(
        SPECS, 4, 8, workers=1, seed=3, out_dir=tmp_path / "out", progress=calls.append
    )
    assert calls == list(range(1, 9))
    summary = result.to_json()
    assert set(summary) == {"games", "finished", "interrupted", "bots"}
    assert summary["finished"] == summary["games"] and not summary["interrupted"]
    assert summary["games"] == 8
    assert [bot["spec"] for bot in summary["bots"]] == ["heuristic", "greedy", "random"]
    for bot in summary["bots"]:
        assert list(bot) == ["spec", "games", "wins", "win_rate", "ci95", "mean_score", "forfeits"]
        low, high = bot["ci95"]
        assert 0 <= low <= bot["win_rate"] <= high <= 1
        assert bot["forfeits"] == 0
    games = {bot["spec"]: bot["games"] for bot in summary["bots"]}
    assert games == {"heuristic": 8, "greedy": 16, "random": 8}
    assert sum(bot["wins"] for bot in summary["bots"]) == pytest.approx(8)

    for number, game in enumerate(result.results, start=1):
        assert game.number == number
        assert game.seat_specs == seat_specs(SPECS, number - 1)
        assert game.path == tmp_path / "out" / f"game_{number:04d}.mgn"
        record = load_record(game.path)
        assert [record.tags[f"P{p}"] for p in range(1, 5)] == game.seat_specs
        assert record.final_state().player_totals() == game.outcome.totals
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        f"game_{n:04d}.mgn" for n in range(1, 9)
    ]
    # each spec sat in each seat twice
    for seat in range(4):
        assert [g.seat_specs[seat] for g in result.results].count("heuristic") == 2


def test_records_are_not_overwritten(tmp_path: Path) -> None:
    run_match(["greedy", "random"], 2, 2, seed=1, out_dir=tmp_path)
    first = (tmp_path / "game_0002.mgn").read_text()
    with pytest.raises(ManhattanError, match="game_0001.mgn"):
        run_match(["greedy", "random"], 2, 2, seed=2, out_dir=tmp_path)
    assert (tmp_path / "game_0002.mgn").read_text() == first
    run_match(["greedy", "random"], 2, 2, seed=2, out_dir=tmp_path, force=True)
    assert (tmp_path / "game_0002.mgn").read_text() != first


def test_parallel_workers_give_the_same_match() -> None:
    one = run_match(["heuristic", "greedy", "greedy"], 3, 6, workers=1, seed=7, out_dir=None)
    two = run_match(["heuristic", "greedy", "greedy"], 3, 6, workers=2, seed=7, out_dir=None)
    assert one.to_json() == two.to_json()
    assert [g.outcome.totals for g in one.results] == [g.outcome.totals for g in two.results]


def test_a_forfeiting_program_loses_and_the_match_goes_on(tmp_path: Path) -> None:
    script = tmp_path / "crash.py"
    script.write_text("import sys\nsys.stdin.readline()\nsys.exit(1)\n")
    spec = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(script))}"
    result = run_match([spec, "greedy"], 2, 2, seed=0, out_dir=tmp_path / "games")
    bots = {bot["spec"]: bot for bot in result.to_json()["bots"]}
    assert bots[spec]["forfeits"] == 2
    assert bots[spec]["wins"] == 0
    assert bots["greedy"]["wins"] == 2
    reasons = result.forfeit_reasons()
    assert [(game, seat) for game, seat, _, _ in reasons] == [(1, 1), (2, 2)]
    assert all("exit code 1" in reason for *_, reason in reasons)


def test_bad_arguments_are_one_line_errors(tmp_path: Path) -> None:
    with pytest.raises(ManhattanError, match="2 bot specs for 3 players"):
        run_match(["greedy", "greedy"], 3, 1)
    with pytest.raises(ManhattanError, match="games must be 1 to"):
        run_match(["greedy", "greedy"], 2, 0)
    with pytest.raises(ManhattanError, match="unknown bot spec 'alphago'"):
        run_match(["greedy", "alphago"], 2, 1)
    (tmp_path / "file").write_text("")
    with pytest.raises(ManhattanError, match="is a file"):
        run_match(["greedy", "greedy"], 2, 1, out_dir=tmp_path / "file")


def test_bot_specs() -> None:
    assert isinstance(make_bot("random"), RandomBot)
    assert isinstance(make_bot(" greedy "), GreedyBot)
    assert isinstance(make_bot("heuristic"), HeuristicBot)
    with pytest.raises(ManhattanError) as error:
        make_bot("minimax")
    message = str(error.value)
    assert "\n" not in message
    for kind in ("random", "greedy", "heuristic", "cmd:<command line>"):
        assert kind in message
    with pytest.raises(ManhattanError, match="takes no argument"):
        make_bot("greedy:3")
    with pytest.raises(ManhattanError, match="not found"):
        check_bot_spec("cmd:no-such-program-here")
    check_bot_spec(f"cmd:{shlex.quote(sys.executable)} -c pass")


def test_wilson_interval() -> None:
    low, high = wilson_interval(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and round(high, 4) == 0.2775
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_record_paths_widen_for_many_games(tmp_path: Path) -> None:
    assert record_paths(tmp_path, 3)[-1].name == "game_0003.mgn"
    assert record_paths(tmp_path, 12345)[0].name == "game_00001.mgn"
