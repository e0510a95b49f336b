"""benchmarks/equal_time.py: the decisions both engines are timed on, the timing against a
ladder seat spec, and its errors (the timing against v0.1 needs the frozen engine, built
by the opt-in tests of test_ladder.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.append(str(Path(__file__).resolve().parent.parent / "benchmarks"))

import equal_time  # noqa: E402


def test_the_decisions_are_every_nth_of_a_game_seen_by_the_mover():
    every_one = equal_time.decisions(games=1, every=1)
    every_fourth = equal_time.decisions(games=1, every=4)
    assert len(every_fourth) == (len(every_one) + 3) // 4
    assert every_fourth[1].history == every_one[4].history
    for view in every_fourth:
        assert not view.is_terminal()
        assert view.deck is None  # a view: the deck and the other hands are unseen


def test_a_budget_below_one_is_a_one_line_error(capsys):
    assert equal_time.main(["--iterations", "0"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: --iterations") and err.count("\n") == 1


def test_another_engine_is_timed_on_the_same_decisions():
    result = equal_time.measure(
        300, games=1, every=60, engine="py:variants:engine:{iterations};placement=imitation"
    )
    assert result["decisions"] == len(equal_time.decisions(games=1, every=60))
    assert result["today_seconds_per_decision"] > 0 and result["other_seconds_per_decision"] > 0
    ratio = result["other_seconds_per_decision"] / result["today_seconds_per_decision"]
    assert result["ratio"] == pytest.approx(ratio, rel=0.05)  # the seconds shown are rounded
    assert result["equal_time_iterations"] == int(round(300 * result["ratio"], -2))


def test_a_bad_engine_spec_is_a_one_line_error(capsys):
    assert equal_time.main(["--games", "1", "--every", "60", "--engine", "py:nowhere"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: bot spec 'py:nowhere'") and err.count("\n") == 1
