"""benchmarks/equal_time.py: the decisions both engines are timed on, and its errors (the
timing itself needs the frozen engine, built by the opt-in tests of test_ladder.py)."""

from __future__ import annotations

import sys
from pathlib import Path

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
