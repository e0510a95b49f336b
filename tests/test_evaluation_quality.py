"""benchmarks/evaluation_quality.py: it scores every round's end but the last, an oracle
scores 0 and the uniform guess 0.75 (4 players, one winner), greedy playouts foretell
greedy games better than the uniform guess, Ctrl-C keeps the games scored, and bad
input is a one-line error."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

sys.path.append(str(Path(__file__).resolve().parent.parent / "benchmarks"))

import evaluation_quality  # noqa: E402

from analyzer.match import run_match  # noqa: E402
from positions.record import load_record  # noqa: E402
from positions.state import Phase  # noqa: E402
from search import stopping  # noqa: E402


@pytest.fixture(scope="module")
def greedy_games(tmp_path_factory) -> Path:
    """Four 4-player games of greedy bots, as records."""
    folder = tmp_path_factory.mktemp("greedy")
    run_match(["greedy"] * 4, 4, games=4, seed=3, out_dir=folder)
    return folder


def test_every_round_end_but_the_last_is_scored(greedy_games):
    states = load_record(sorted(greedy_games.glob("*.mgn"))[0]).states()
    ends = evaluation_quality.round_ends(states)
    assert [state.round for state in ends] == [2, 3, 4]
    for state in ends:
        assert state.phase == Phase.SELECTION
        assert not any(state.selected)


def test_an_oracle_scores_zero_and_the_uniform_guess_three_quarters(greedy_games):
    paths = sorted(greedy_games.glob("*.mgn"))
    finals = [np.array(load_record(path).states()[-1].returns()) for path in paths]
    answers = iter([shares for shares in finals for _ in range(3)])  # 3 round ends a game

    def oracle(state, rng):
        return next(answers)

    chosen = {"oracle": oracle, "uniform": evaluation_quality.uniform_evaluation}
    report = evaluation_quality.summary(evaluation_quality.score_games(paths, chosen, 1)[0])
    if all(share in (0.0, 1.0) for shares in finals for share in shares):
        assert report["uniform"]["brier"]["mean"] == pytest.approx(0.75)
    assert report["oracle"]["brier"]["mean"] == pytest.approx(0.0)
    assert report["oracle"]["positions"] == 3 * len(paths)
    assert report["uniform"]["paired_brier"]["mean"] > 0.5


def test_greedy_playouts_foretell_greedy_games_in_the_last_round(greedy_games):
    paths = sorted(greedy_games.glob("*.mgn"))
    chosen = evaluation_quality.evaluations(["playouts", "uniform"], playouts=16)
    report = evaluation_quality.summary(evaluation_quality.score_games(paths, chosen, 1)[0])
    last = report["playouts"]["by_round"]["4"]["brier"]["mean"]
    assert last < report["uniform"]["by_round"]["4"]["brier"]["mean"] - 0.2


def test_a_stop_reports_the_games_scored_before_it(greedy_games, monkeypatch, capsys):
    calls = {"n": 0}

    def stopping_in_the_third_game(state, rng):
        calls["n"] += 1
        if calls["n"] == 8:  # the third game's second round end
            stopping.request()  # what Ctrl-C does under stopping.on_signals
        return evaluation_quality.uniform_evaluation(state, rng)

    monkeypatch.setattr(
        evaluation_quality, "evaluations", lambda names, playouts: {"x": stopping_in_the_third_game}
    )
    try:
        assert evaluation_quality.main([str(greedy_games), "--json"]) == 0
    finally:
        stopping.reset()
    report = json.loads(capsys.readouterr().out)
    assert report["interrupted"] is True
    assert report["games"] == 2
    assert report["evaluations"]["x"]["positions"] == 6


def test_ctrl_c_in_a_process_stops_it_with_the_games_scored(greedy_games):
    script = Path(evaluation_quality.__file__)
    process = subprocess.Popen(
        [sys.executable, str(script), str(greedy_games), "--playouts", "10000000", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=script.parent.parent,
    )
    time.sleep(8)  # start-up, then well into the first game's playouts (hours of them)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)  # a stop that waited for the game would not end
    assert "Traceback" not in err
    assert process.returncode == 1  # stopped in the first game: too few games to report
    assert "too few to report" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--evaluations", "playouts,oracle"], "unknown oracle"),
        (["--playouts", "0"], "at least 1"),
    ],
)
def test_bad_options_are_one_line_errors(greedy_games, argv, message, capsys):
    assert evaluation_quality.main([str(greedy_games), *argv]) == 1
    error = capsys.readouterr().err.strip()
    assert message in error and "\n" not in error


def test_a_folder_without_records_and_a_bad_record_are_one_line_errors(tmp_path, capsys):
    assert evaluation_quality.main([str(tmp_path)]) == 1
    assert "no game records" in capsys.readouterr().err
    assert evaluation_quality.main([str(tmp_path / "missing")]) == 1
    assert "expected a folder" in capsys.readouterr().err
    (tmp_path / "game_0001.mgn").write_text('[Game "Manhattan"]\n[Players "5"]\n')
    assert evaluation_quality.main([str(tmp_path)]) == 1
    error = capsys.readouterr().err.strip()
    assert "game_0001.mgn" in error and "\n" not in error
