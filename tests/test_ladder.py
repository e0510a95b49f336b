"""The strength ladder's harness (benchmarks/ladder.py), the peeking bot and the frozen
engine.  Games here use tiny budgets; building the frozen engine is opt-in
(``MANHATTAN_FROZEN_TESTS=1``: it installs commit 722ae4b into a cached environment)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.append(str(BENCHMARKS))  # the benchmark scripts import each other by name

import ladder  # noqa: E402
import ladder_log  # noqa: E402
import paired  # noqa: E402
import selfplay_records  # noqa: E402
from ladder_log import GameLog  # noqa: E402
from peeking import PeekingBot, TrueHands, TrueWorld, play_peeking_game  # noqa: E402

from analyzer.match import wilson_interval  # noqa: E402
from positions.bots import GreedyBot, HeuristicBot, RandomBot  # noqa: E402
from positions.errors import ManhattanError  # noqa: E402
from positions.external import ExternalBot  # noqa: E402
from positions.notation import write_position  # noqa: E402
from positions.record import load_record  # noqa: E402
from positions.selfplay import play_game  # noqa: E402
from positions.state import GameState, Phase  # noqa: E402
from search import stopping  # noqa: E402
from search.ismcts import CLASSIC, search_tree  # noqa: E402
from search.limits import Limit  # noqa: E402

# ----- the duplicate schedule ---------------------------------------------------------------


def test_every_deal_seats_the_tested_bot_once_in_every_seat_with_one_seed():
    games = ladder.schedule(deals=5, seed=11)
    assert len(games) == 5 * ladder.PLAYERS
    by_deal: dict[int, list] = {}
    for game in games:
        by_deal.setdefault(game.deal, []).append(game)
    assert sorted(by_deal) == list(range(5))
    for deal_games in by_deal.values():
        assert sorted(g.seat for g in deal_games) == list(range(ladder.PLAYERS))
        assert len({g.seed for g in deal_games}) == 1
    assert len({g.seed for g in games}) == 5  # the deals differ
    assert ladder.schedule(5, 11) == games  # and are the same for every matchup of a run
    assert ladder.schedule(5, 12) != games


def test_seat_specs_put_the_tested_bot_in_the_scheduled_seat_and_fill_in_seeds():
    matchup = ladder.Matchup("x", "mcts:50", "cmd:bot --seed {seed}", "bot", None)
    deal = [g for g in ladder.schedule(2, 3) if g.deal == 1]
    seeds_by_seat: dict[int, set[str]] = {}
    for game in deal:
        specs = ladder.seat_specs(matchup, game)
        assert [s == "mcts:50" for s in specs] == [s == game.seat for s in range(4)]
        for seat, spec in enumerate(specs):
            if spec != "mcts:50":
                seeds_by_seat.setdefault(seat, set()).add(spec)
    # an opponent's seed follows the seat: the same in every game of the deal, not across seats
    assert all(len(specs) == 1 for specs in seeds_by_seat.values())
    assert len({next(iter(specs)) for specs in seeds_by_seat.values()}) == 4


def test_the_ladder_has_the_issues_rungs_and_budgets():
    rungs = {m.name: m for m in ladder.matchups("mcts:{iterations}", 6000)}
    assert list(rungs) == ["vs_v0.1", "tenfold", "vs_heuristic", "vs_greedy", "vs_cheating"]
    assert rungs["vs_v0.1"].opponent == "frozen:v0.1:6000"
    assert (rungs["tenfold"].tested, rungs["tenfold"].opponent) == ("mcts:60000", "mcts:6000")
    assert rungs["vs_cheating"].opponent == "peek:mcts:6000"
    assert {n: m.target for n, m in rungs.items()} == {
        "vs_v0.1": 0.40,
        "tenfold": 0.45,
        "vs_heuristic": 0.85,
        "vs_greedy": 0.95,
        "vs_cheating": None,
    }
    made = ladder.resolve(rungs["vs_v0.1"], lambda name, n: f"cmd:frozen {name} {n}")
    assert made.opponent == "cmd:frozen v0.1 6000"
    with pytest.raises(ManhattanError, match="iterations"):
        ladder.matchups("mcts:6000", 6000)


def make_named_greedy(argument: str) -> GreedyBot:
    """A factory as an engine variant would have one (``py:test_ladder:make_named_greedy:N``)."""
    bot = GreedyBot()
    bot.name = f"greedy-{argument}"
    return bot


def test_an_engine_variant_plugs_in_through_a_factory():
    spec = ladder.engine_spec("py:test_ladder:make_named_greedy:{iterations}", 6000)
    assert ladder.seat_bot(spec).name == "greedy-6000"
    with pytest.raises(ManhattanError, match="py:MODULE:FUNCTION:ARGUMENT"):
        ladder.seat_bot("py:positions.bots")
    with pytest.raises(ManhattanError, match="no_such_factory"):
        ladder.seat_bot("py:positions.bots:no_such_factory:1")
    peeking = ladder.seat_bot("peek:" + spec)
    assert isinstance(peeking, PeekingBot) and peeking.name == "peek:greedy-6000"


# ----- the summary --------------------------------------------------------------------------


def test_summary_counts_the_tested_seat_of_each_game():
    matchup = ladder.Matchup("x", "a", "b", "b", 0.5)
    games = ladder.schedule(2, 0)
    played = []
    for game in games:
        shares = [0.0] * 4
        winner = 0 if game.deal == 0 else game.seat  # deal 1: the tested bot always wins
        shares[winner] = 1.0
        totals = [10 + seat for seat in range(4)]
        played.append({"totals": totals, "win_shares": shares, "forfeits": [], "seconds": 2.0})
    summary = ladder.summarize(matchup, games, played)
    wins = 1 + 4  # deal 0: only when seated in seat 1
    assert summary["games"] == 8 and summary["deals"] == 2
    assert summary["wins"] == wins
    assert summary["win_rate"] == pytest.approx(wins / 8, abs=1e-4)
    low, high = wilson_interval(wins, 8)
    assert summary["ci95"] == [round(low, 4), round(high, 4)]
    assert summary["mean_score"] == 11.5  # every seat once per deal: (10+11+12+13)/4
    assert summary["opponent_mean_score"] == 11.5
    assert summary["meets_target"] is True
    assert summary["seconds_per_game"] == 2.0


def test_a_tiny_matchup_runs_every_scheduled_game():
    matchup = ladder.Matchup("vs_greedy", "mcts:20", "greedy", "`greedy`", 0.95)
    summary = ladder.run_matchup(matchup, deals=1, seed=5, workers=1)
    assert summary["games"] == 4
    assert sorted(r["seat"] for r in summary["results"]) == [1, 2, 3, 4]
    assert 0.0 <= summary["win_rate"] <= 1.0
    rows = summary["results"]  # duplicate: one deal, the same seed in every game
    assert len({row["seed"] for row in rows}) == 1
    assert sum(row["win_share"] for row in rows) == pytest.approx(summary["wins"])


# ----- the README table ---------------------------------------------------------------------


def _summary(name: str, rate: float) -> dict:
    return {
        "matchup": name,
        "tested": "mcts:6000",
        "label": "`greedy`",
        "games": 100,
        "win_rate": rate,
        "ci95": [rate - 0.1, rate + 0.05],
        "target": 0.95,
        "mean_score": 60.25,
        "seconds_per_game": 31.4,
    }


def test_readme_table_is_rewritten_between_the_markers(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(f"# title\n\nbefore\n{ladder.BEGIN}\nold table\n{ladder.END}\nafter\n")
    order = ["vs_v0.1", "vs_greedy", "vs_cheating"]
    ladder.rewrite_readme(readme, [_summary("vs_greedy", 0.9)], order)
    text = readme.read_text()
    assert text.startswith("# title\n\nbefore\n" + ladder.BEGIN + "\n| matchup |")
    assert text.endswith(ladder.END + "\nafter\n")
    assert "old table" not in text
    assert "| `vs_greedy` | `mcts:6000` | `greedy` | 100 | **90.0%** [80.0%, 95.0%] " in text
    # a later run of other rungs keeps this row and puts the rows in ladder order
    ladder.rewrite_readme(readme, [_summary("vs_cheating", 0.2), _summary("vs_v0.1", 0.4)], order)
    lines = readme.read_text().splitlines()
    rows = [line.split("|")[1].strip() for line in lines if line.startswith("| `")]
    assert rows == ["`vs_v0.1`", "`vs_greedy`", "`vs_cheating`"]
    # rewriting a row replaces it
    ladder.rewrite_readme(readme, [_summary("vs_greedy", 0.97)], order)
    text = readme.read_text()
    assert "**97.0%**" in text and "**90.0%**" not in text
    assert text.count("| matchup |") == 1


@pytest.mark.parametrize(
    "text", ["no markers at all\n", f"only {ladder.BEGIN}\n", f"{ladder.END}\n{ladder.BEGIN}\n"]
)
def test_readme_without_markers_fails_clearly(tmp_path, text):
    readme = tmp_path / "README.md"
    readme.write_text(text)
    with pytest.raises(ManhattanError, match="no ladder table markers"):
        ladder.rewrite_readme(readme, [_summary("vs_greedy", 0.9)], ["vs_greedy"])
    assert readme.read_text() == text


def test_command_line_fails_clearly_before_playing(tmp_path, capsys):
    readme = tmp_path / "README.md"
    readme.write_text("no markers\n")
    assert ladder.main(["--only", "nope", "--quiet"]) == 1
    assert "expected one of vs_v0.1" in capsys.readouterr().err
    assert ladder.main(["--engine", "mcts:6000", "--quiet"]) == 1
    assert "{iterations}" in capsys.readouterr().err
    code = ladder.main(
        ["--only", "vs_greedy", "--deals", "1", "--iterations", "10", "--readme", str(readme)]
    )
    assert code == 1
    assert "no ladder table markers" in capsys.readouterr().err


# ----- the cheating bound -------------------------------------------------------------------


def _dealt_placement_world(seed: int) -> GameState:
    """A 4-player world (every card known) at the first placement, after random selections."""
    world = GameState.new_game(4, np.random.default_rng(seed))
    rng = np.random.default_rng(seed)
    while world.phase == Phase.SELECTION:
        actions = world.legal_actions()
        world.apply_action(actions[int(rng.integers(len(actions)))])
    return world


def test_a_true_world_deals_the_truth_every_time():
    world = _dealt_placement_world(3)
    truth = TrueWorld.of(world)
    rng = np.random.default_rng(0)
    for _ in range(3):
        dealt = truth.resample_from_infostate(world.to_move, rng)
        assert type(dealt) is GameState
        assert (dealt.hands, dealt.deck, dealt.shuffle_seed) == (
            world.hands,
            world.deck,
            world.shuffle_seed,
        )
    assert truth.view(1).hands == world.hands  # its views hide nothing
    # the honest deal differs: other hands re-dealt
    honest = world.resample_from_infostate(world.to_move, rng)
    assert honest.hands != world.hands or honest.deck != world.deck


class _WorldRecorder:
    """An evaluator recording, for every world it is given, the seed of the world's future
    reshuffles and whether its deck is what is left of ``truth``'s after some draws."""

    def __init__(self, truth: GameState):
        self.truth = truth
        self.seeds: Counter[int] = Counter()
        self.from_truth = 0

    def evaluate(self, state: GameState, rng: np.random.Generator):
        self.seeds[state.shuffle_seed] += 1
        self.from_truth += state.deck == self.truth.deck[: len(state.deck)]
        return np.zeros(4), np.zeros(4)


def test_the_search_given_a_true_world_searches_only_the_true_world():
    world = _dealt_placement_world(8)
    peeking = _WorldRecorder(world)
    search_tree(TrueWorld.of(world), Limit(iterations=60), np.random.default_rng(1), peeking)
    evaluated = sum(peeking.seeds.values())
    assert evaluated > 30
    assert set(peeking.seeds) == {world.shuffle_seed}
    assert peeking.from_truth == evaluated
    view = world.view(world.to_move)
    honest = _WorldRecorder(world)
    search_tree(view, Limit(iterations=60), np.random.default_rng(1), honest, CLASSIC)
    assert len(honest.seeds) == sum(honest.seeds.values())  # a new deal every iteration
    assert honest.from_truth == 0
    halving = _WorldRecorder(world)  # a new deal for every world of halving's rounds
    search_tree(view, Limit(iterations=600), np.random.default_rng(1), halving)
    assert len(halving.seeds) > 10 and halving.from_truth == 0


class _Spy:
    """A bot recording whether it was shown the other seats' hands, playing greedy."""

    name = "spy"

    def __init__(self):
        self.saw_hidden = []
        self.greedy = GreedyBot()

    def choose(self, view: GameState, rng: np.random.Generator):
        self.saw_hidden.append(any(not view.hand_is_known(p) for p in range(view.players)))
        return self.greedy.choose(view, rng)

    def close(self) -> None:
        pass


def test_only_a_peeking_seat_is_given_the_world():
    honest, peeker = _Spy(), _Spy()
    play_peeking_game([honest, PeekingBot(peeker), RandomBot(), RandomBot()], 4, seed=4)
    assert honest.saw_hidden and all(honest.saw_hidden)
    assert peeker.saw_hidden and not any(peeker.saw_hidden)


def test_the_peeking_game_is_the_selfplay_game_when_nobody_peeks():
    for seed in (1, 2):
        bots = [HeuristicBot(), GreedyBot(), RandomBot(), GreedyBot()]
        again = [HeuristicBot(), GreedyBot(), RandomBot(), GreedyBot()]
        ours = play_peeking_game(bots, 4, seed)
        reference = play_game(again, 4, seed)
        assert (ours.totals, ours.places, ours.win_shares) == (
            reference.totals,
            reference.places,
            reference.win_shares,
        )


# ----- the frozen engine (opt-in: builds a virtual environment) -----------------------------

frozen_only = pytest.mark.skipif(
    os.environ.get("MANHATTAN_FROZEN_TESTS") != "1",
    reason="builds the frozen engine v0.1 (set MANHATTAN_FROZEN_TESTS=1)",
)


@frozen_only
def test_the_frozen_engine_builds_once_and_plays_legal_moves():
    from frozen import FROZEN_COMMITS, frozen_engine

    engine = frozen_engine("v0.1")
    assert engine.commit.startswith(FROZEN_COMMITS["v0.1"])
    again = frozen_engine("v0.1")
    assert again.build_seconds == 0.0 and again.python == engine.python  # cached
    spec = engine.bot_spec(30, 7)
    assert spec.startswith("cmd:") and "-I" in spec
    world = GameState.new_game(4, np.random.default_rng(2))
    bot = ExternalBot(spec.removeprefix("cmd:"), timeout=60)
    try:
        for _ in range(12):  # selections and the first placements
            view = world.view(world.to_move)
            move = bot.choose(view, np.random.default_rng(0))
            assert move in view.legal_moves()
            world.apply_move(move)
    finally:
        bot.close()
    assert write_position(world)  # the game went on


@frozen_only
def test_the_frozen_adapter_refuses_packages_that_are_not_frozen():
    import subprocess

    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "frozen_bot.py"), "--iterations", "5", "--seed", "1"],
        input="",
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert "not the frozen environment" in done.stderr


class StopAfter:
    """A ``progress`` callback that keeps the counts it is given, and a stop check (for
    ``stopping.watching``) that asks to stop once ``games`` games have finished."""

    def __init__(self, games: int) -> None:
        self.games = games
        self.finished: list[int] = []

    def progress(self, done: int, total: int) -> None:
        self.finished.append(done)

    def check(self) -> bool:
        return len(self.finished) >= self.games


def test_a_stop_request_keeps_the_deals_whose_every_seat_finished():
    """A matchup cut short counts only whole deals, so both sides still had the same
    cards; the summary says it was interrupted."""
    matchup = ladder.Matchup("vs_greedy", "mcts:20", "greedy", "`greedy`", 0.95)
    stop = StopAfter(5)
    with stopping.watching(stop.check):
        summary = ladder.run_matchup(matchup, deals=2, seed=5, workers=1, progress=stop.progress)
    assert summary["interrupted"] is True
    assert summary["games"] == 4 and summary["deals"] == 1
    assert sorted(r["seat"] for r in summary["results"]) == [1, 2, 3, 4]


def test_a_stop_request_reaches_the_games_in_helper_processes():
    """With two workers the games run in helper processes; a stop in this process ends
    the games running there within a move instead of waiting for their end (a game of
    this budget takes several seconds)."""
    matchup = ladder.Matchup("vs_greedy", "mcts:2000", "greedy", "`greedy`", 0.95)
    finished: list[int] = []
    started = time.monotonic()
    with stopping.watching(lambda: time.monotonic() > started + 1.0):
        summary = ladder.run_matchup(
            matchup, deals=2, seed=5, workers=2, progress=lambda done, total: finished.append(done)
        )
    assert finished == []  # both games were stopped, not played out
    assert summary["interrupted"] is True and summary["games"] == 0
    assert ladder.play_scheduled(["greedy"] * 4, seed=5) is not None  # no stop left behind


def test_complete_deals_drops_a_deal_with_a_missing_game():
    games = ladder.schedule(2, seed=5)
    played = [{"n": i} for i in range(len(games))]
    played[-1] = None
    kept, results = ladder.complete_deals(games, played)
    assert {g.deal for g in kept} == {games[0].deal} and len(kept) == len(results) == 4


def test_the_table_is_written_from_saved_reports(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(f"# title\n{ladder.BEGIN}\n{ladder.END}\n")
    report = {"date": "2026-11-30", "matchups": [_summary("vs_greedy", 0.96)]}
    cut = {"matchups": [{**_summary("vs_heuristic", 0.5), "interrupted": True}]}
    saved, unfinished = tmp_path / "run.json", tmp_path / "cut.json"
    saved.write_text(json.dumps(report))
    unfinished.write_text(json.dumps(cut))
    argv = ["--table", str(saved), str(unfinished), "--readme", str(readme)]
    assert ladder.main(argv) == 0
    text = readme.read_text()
    assert "`vs_greedy`" in text and "**96.0%**" in text and "2026-11-30" in text
    assert "`vs_heuristic`" not in text  # a rung cut short is written only when asked
    assert ladder.main([*argv, "--cut-short"]) == 0
    text = readme.read_text()
    assert "`vs_heuristic`" in text and "(cut short)" in text and "**96.0%**" in text
    assert ladder.main(["--cut-short", "--readme", str(readme)]) == 1  # only with --table
    (tmp_path / "bad.json").write_text("[1, 2]")
    assert ladder.main(["--table", str(tmp_path / "bad.json"), "--readme", str(readme)]) == 1


# ----- long runs: the game log and the stop signals ----------------------------------------


def test_a_logged_run_that_was_stopped_resumes_where_it_stopped(tmp_path):
    """The games a stopped run finished are in its log; run again with the log, only the
    games it lacks are played, and the figures are those of a run never stopped."""
    matchup = ladder.Matchup("vs_greedy", "mcts:20", "greedy", "`greedy`", 0.95)
    path = tmp_path / "games.jsonl"

    stop = StopAfter(5)
    with GameLog(path) as log, stopping.watching(stop.check):
        stopped = ladder.run_matchup(matchup, 2, 5, progress=stop.progress, log=log)
    assert stopped["interrupted"] and len(path.read_text().splitlines()) == 5

    counted: list[int] = []
    log = GameLog(path)
    assert len(log.results) == 5
    resumed = ladder.run_matchup(matchup, 2, 5, progress=lambda d, t: counted.append(d), log=log)
    log.close()
    assert counted == [6, 7, 8]  # only the three games the log lacked were played
    assert len(path.read_text().splitlines()) == 8
    fresh = ladder.run_matchup(matchup, 2, 5)
    assert not resumed["interrupted"] and resumed["games"] == 8
    assert sorted((r["deal"], r["seat"], r["totals"]) for r in resumed["results"]) == sorted(
        (r["deal"], r["seat"], r["totals"]) for r in fresh["results"]
    )
    # another budget is another game: nothing of this log counts for it
    other = ladder.Matchup("vs_greedy", "mcts:21", "greedy", "`greedy`", 0.95)
    keys = [
        ladder_log.game_key(other.name, other.tested, other.label, g.seed, g.seat)
        for g in ladder.schedule(2, 5)
    ]
    assert not set(keys) & set(GameLog(path).results)


def test_a_log_line_that_is_not_a_game_is_an_error_naming_the_line(tmp_path, capsys):
    path = tmp_path / "games.jsonl"
    path.write_text('{"matchup": "vs_greedy"}\n')
    with pytest.raises(ManhattanError, match=r"games.jsonl:1: expected a logged game"):
        GameLog(path)
    argv = ["--only", "vs_greedy", "--deals", "1", "--iterations", "10", "--log", str(path)]
    assert ladder.main([*argv, "--quiet"]) == 1
    assert "games.jsonl:1:" in capsys.readouterr().err
    assert path.read_text() == '{"matchup": "vs_greedy"}\n'  # the log is left as it was
    assert ladder.main([*argv[:-1], str(tmp_path / "no" / "dir.jsonl"), "--quiet"]) == 1


def _logged(path: Path, games: list[tuple[int, int, list[int], list[float]]]) -> Path:
    """A game log of ``(seed, seat, totals, win_shares)`` games of one versus matchup."""
    with GameLog(path) as log:
        for seed, seat, totals, shares in games:
            key = ladder_log.game_key("versus", "mcts:10", "`mcts:10`", seed, seat)
            log.record(key, {"totals": totals, "win_shares": shares, "forfeits": [], "seconds": 1})
    return path


def test_paired_comparison_takes_the_games_both_runs_played(tmp_path):
    p1, p2, p4 = [1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]
    new = _logged(
        tmp_path / "new.jsonl",
        [(7, 0, [60, 50, 50, 50], p1), (7, 1, [50, 40, 50, 60], p4), (8, 0, [4, 3, 2, 1], p1)],
    )
    old = _logged(
        tmp_path / "old.jsonl",
        [(7, 0, [50, 60, 50, 50], p2), (7, 1, [50, 40, 50, 60], p4), (9, 0, [4, 3, 2, 1], p1)],
    )
    report = paired.compare(paired.by_deal_and_seat(new, None), paired.by_deal_and_seat(old, None))
    assert (report["games"], report["deals"]) == (2, 1)  # seeds 8 and 9 are in one log only
    assert report["win"]["new"] == 50.0 and report["win"]["old"] == 0.0
    assert report["win"]["difference"] == 50.0
    assert report["win"]["half_width_95"] == pytest.approx(98.0)  # 1.96 · sd 70.7 / √2
    # margins: new +10 and 40 − 160/3; old 50 − 160/3 and the same 40 − 160/3
    assert report["margin"]["new"] == pytest.approx((10 + 40 - 160 / 3) / 2, abs=0.01)
    assert report["margin"]["old"] == pytest.approx((50 - 160 / 3 + 40 - 160 / 3) / 2, abs=0.01)
    assert report["margin"]["difference"] == pytest.approx((10 - 50 + 160 / 3) / 2, abs=0.01)
    with pytest.raises(ManhattanError, match="share no game"):
        paired.compare(paired.by_deal_and_seat(new, None), {})
    one = paired.compare(*(paired.by_deal_and_seat(log, None) for log in (new, new)))
    assert one["games"] == 3 and one["win"]["difference"] == 0.0
    lone = {(7, 0): (1.0, 10.0)}
    assert paired.compare(lone, lone)["win"]["half_width_95"] is None  # no spread from one game


def test_selfplay_records_are_written_once_and_replay(tmp_path, capsys):
    argv = ["--engine", "8", "--seeds", "3", "--games", "1", "--workers", "1"]
    selfplay_records.main([*argv, "--out", str(tmp_path)])
    assert json.loads(capsys.readouterr().out)["played"] == 1
    path = selfplay_records.record_path(tmp_path, 3, 1)
    record = load_record(path)
    assert record.tags["Seed"] == "3001" and record.tags["P1"] == "variant:8"
    assert record.final_state().is_terminal()
    written = path.read_text()
    selfplay_records.main([*argv, "--out", str(tmp_path)])  # a record there is kept
    assert json.loads(capsys.readouterr().out)["played"] == 0
    assert path.read_text() == written
    with pytest.raises(SystemExit, match="error: engine variant: unknown key 'clever'"):
        selfplay_records.main(["--engine", "8;clever=1", "--seeds", "3", "--out", str(tmp_path)])


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_kill_or_an_ignored_sigint_ends_a_run_with_its_figures_and_log(tmp_path, signum):
    """SIGTERM, and SIGINT sent to a run started in the background (which the shell
    starts with SIGINT ignored), stop a run as Ctrl-C does: exit 0, the figures of the
    deals finished, every finished game kept in the log, no traceback."""
    log = tmp_path / "games.jsonl"
    command = [sys.executable, str(BENCHMARKS / "ladder.py"), "--only", "vs_greedy"]
    command += ["--iterations", "300", "--deals", "50", "--workers", "1", "--json"]
    process = subprocess.Popen(
        [*command, "--log", str(log)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    try:
        deadline = time.monotonic() + 120
        while not (log.exists() and log.read_text()) and time.monotonic() < deadline:
            assert process.poll() is None, process.communicate()
            time.sleep(0.2)
        process.send_signal(signum)
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 0 and "Traceback" not in err, err
    summary = json.loads(out)["matchups"][0]
    assert summary["interrupted"] is True
    logged = len(log.read_text().splitlines())
    assert 1 <= logged < 200 and summary["games"] == logged // 4 * 4


def test_a_hands_only_peek_sees_every_hand_but_not_the_deck_order():
    world = GameState.new_game(4, np.random.default_rng(3))
    truth = TrueHands.of(world)
    rng = np.random.default_rng(1)
    dealt = [truth.resample_from_infostate(0, rng) for _ in range(5)]
    assert all(d.hands == world.hands for d in dealt)
    assert all(sorted(d.deck) == sorted(world.deck) for d in dealt)
    assert any(d.deck != world.deck for d in dealt)
    assert isinstance(truth.clone(), TrueHands) and truth.view(1).hands == world.hands
    bot = ladder.seat_bot("peekhands:greedy")
    assert bot.hands_only and bot.name == "peekhands:greedy"
    assert not ladder.seat_bot("peek:greedy").hands_only
