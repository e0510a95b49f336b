"""The review-quality benchmark's figures (benchmarks/review_quality.py), read from made-up
runs: no search runs here.  A saved run can be marked again by a stricter rule
(``--rescore``); under its own rule it must give back exactly its own figures."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.append(str(BENCHMARKS))  # the benchmark scripts import each other by name

import review_quality  # noqa: E402

from analyzer.review import ReviewSettings  # noqa: E402

RULE = ReviewSettings(confidence_z=1.644854)  # the rule the made-up runs were marked by


def raw(index: int, loss: float, loss_se: float, better: str | None = "4@1:4a") -> dict:
    """One decision as a review records it, marked by the default rule."""
    decision = {
        "index": index,
        "best": better or "4@1:4a",
        "better": better,
        "loss": loss,
        "loss_se": loss_se,
        "points_loss": 1.0,
        "points_loss_se": 0.5,
        "win_before": 0.5,
        "win_after": 0.5 - loss / 100,
        "compared": 400,
    }
    return {**decision, "mark": review_quality.remark({**decision, "mark": None}, RULE)}


def run_of(first: list[dict], second: list[dict], checks: list[dict], scale: int = 20) -> dict:
    run = {
        "settings": {"scale": scale, **review_quality.mark_rule(RULE)},
        "interrupted": False,
        "games": [
            {"game": "g.mgn", "players": 2, "review_seconds": 1.0, "reviews": [first, second]}
        ],
        "checks": checks,
    }
    return {**run, **review_quality.summarize(run, RULE)}


def check(index: int, loss_20x: float, gaps: dict[str, float]) -> dict:
    return {
        "game": "g.mgn",
        "index": index,
        "players": 2,
        "loss_20x": loss_20x,
        "better_minus_played_20x": gaps,
    }


@pytest.fixture
def saved_run(tmp_path: Path) -> Path:
    first = [raw(0, 0.0, 0.0, None), raw(1, 13.0, 1.0), raw(2, 7.0, 1.0), raw(3, 20.0, 1.0)]
    second = [raw(0, 0.0, 0.0, None), raw(1, 13.0, 1.0), raw(2, 7.2, 1.0), raw(3, 7.0, 1.0)]
    checks = [
        check(1, 11.0, {"4@1:4a": 3.0}),
        check(2, 6.5, {}),
        check(3, 10.0, {"4@1:4a": -1.0}),
    ]
    path = tmp_path / "run.json"
    path.write_text(json.dumps(run_of(first, second, checks)))
    return path


def test_the_figures_count_agreements_closeness_and_false_better_moves(saved_run):
    run = json.loads(saved_run.read_text())
    assert [d["mark"] for d in run["games"][0]["reviews"][0]] == [None, "?", "?!", "??"]
    assert run["decisions"] == 4
    assert run["same_mark_share"] == 0.75  # decision 3: ?? against ?!
    assert run["marked"] == 3
    assert run["within_5_share"] == pytest.approx(2 / 3, abs=1e-4)  # decision 3: 20 against 10
    assert run["false_better"] == 1  # decision 3's better move is 1 point below at 20x
    assert run["games"][0]["disagreements"] == [
        {"index": 3, "marks": ["??", "?!"], "losses": [20.0, 7.0]}
    ]


def test_a_run_rescored_by_its_own_rule_is_unchanged(saved_run):
    assert review_quality.rescore(saved_run, RULE) == json.loads(saved_run.read_text())


def test_a_stricter_rule_marks_fewer_decisions_and_reads_the_marking_review(saved_run):
    strict = review_quality.rescore(saved_run, replace(RULE, confidence_z=2.5))
    marks = [g["disagreements"] for g in strict["games"]]
    # 7 - 2.5 and 7.2 - 2.5 are below 5 now; 13 - 2.5 is still ?, 20 - 2.5 still ??
    assert strict["games"][0]["marks_seed1"] == 2
    assert strict["games"][0]["marks_seed2"] == 1
    assert marks == [[{"index": 3, "marks": ["??", None], "losses": [20.0, 7.0]}]]
    assert strict["settings"]["confidence_z"] == 2.5
    assert strict["marked"] == 2


def test_a_loss_against_a_rival_the_search_hardly_visited_is_never_marked():
    """A review offers no better move when its rival had too few visits; a rescore must
    not mark that decision, however large the loss."""
    decision = {**raw(0, 30.0, 1.0, better=None), "best": "5@6:4a"}
    assert decision["mark"] is None
    assert review_quality.remark(decision, replace(RULE, confidence_z=3.0)) is None


def test_a_check_is_read_for_the_review_that_marked_it(tmp_path):
    first = [raw(0, 6.0, 1.0)]  # 6 - 1.645 < 5: no mark
    second = [raw(0, 12.0, 1.0, better="5@6:4a")]  # ?
    path = tmp_path / "run.json"
    path.write_text(json.dumps(run_of(first, second, [check(0, 12.5, {"5@6:4a": -0.5})])))
    (row,) = json.loads(path.read_text())["checks"]
    assert (row["mark"], row["loss"], row["better"]) == ("?", 12.0, "5@6:4a")
    assert row["within_5"] and row["better_below_played"]


def test_a_false_better_move_counts_whichever_review_offered_it(tmp_path):
    first = [raw(0, 9.0, 1.0)]  # ?!: offers no better move
    second = [raw(0, 14.0, 1.0, better="5@6:4a")]  # ?: offers 5@6:4a
    path = tmp_path / "run.json"
    path.write_text(json.dumps(run_of(first, second, [check(0, 1.0, {"5@6:4a": -2.0})])))
    run = json.loads(path.read_text())
    assert run["checks"][0]["mark"] == "?!"  # read for the first review that marked it
    assert run["false_better"] == 1


def test_a_run_without_checks_gives_stability_only(tmp_path):
    first = [raw(0, 9.0, 1.0), raw(1, 0.0, 0.0, None)]
    second = [raw(0, 9.5, 1.0), raw(1, 20.0, 1.0)]
    path = tmp_path / "run.json"
    path.write_text(json.dumps(run_of(first, second, [], scale=0)))
    run = review_quality.rescore(path, replace(RULE, confidence_z=2.0))
    assert (run["same_mark_share"], run["marked"]) == (0.5, 2)
    assert run["within_5_share"] is None and run["false_better"] is None
    assert run["meets_targets"] is None


@pytest.mark.parametrize(
    "looser",
    [{"confidence_z": 1.0}, {"thresholds": (4.0, 10.0, 15.0)}, {"decided": 0.01}],
)
def test_a_looser_rule_than_the_run_s_is_refused(saved_run, looser):
    with pytest.raises(ValueError, match="stricter"):
        review_quality.rescore(saved_run, replace(RULE, **looser))


def test_a_file_that_is_not_a_run_is_refused_in_one_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"games": []}')
    with pytest.raises(ValueError, match="not a review_quality.py --json run"):
        review_quality.rescore(bad, RULE)
    with pytest.raises(SystemExit):
        review_quality.main(["--rescore", str(tmp_path / "missing.json")])
