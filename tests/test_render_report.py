"""The HTML reports, built from real analyzer results at a tiny budget, checked as text and
structure (the page's behaviour in a real browser: ``test_browser.py``)."""

from __future__ import annotations

import copy
import json
import re
import xml.etree.ElementTree as ET

import pytest

from analyzer.engine import EngineSettings, analyze
from analyzer.review import ReviewSettings, review_game
from positions.bundled import data_dir
from positions.errors import ManhattanError
from positions.loading import load_position
from positions.record import load_record
from render.html_report import analysis_report_html, review_report_html
from render.page import shared_lines
from search.limits import Limit

GAME_2P = data_dir("games") / "heuristic_vs_greedy_2p.mgn"
GAME_4P = data_dir("games") / "heuristic_vs_greedy_4p.mgn"
EXAMPLE = data_dir("examples") / "middle_4p_round2.txt"


@pytest.fixture(scope="module")
def review_2p():
    record = load_record(GAME_2P)
    review = review_game(record, ReviewSettings(iterations_per_move=30, workers=1))
    return record, review.to_json()


def page_frames(html: str) -> tuple[list[str], dict]:
    """The boards (joined back from their shared lines) and the rest of the page's data."""
    text = re.search(r'<script type="text/plain" id="frames-lines">(.*?)</script>', html, re.S)
    found = re.search(r'<script type="application/json" id="frames-data">(.*?)</script>', html)
    lines = text.group(1).split("\n")
    data = json.loads(found.group(1))
    return ["\n".join(lines[i] for i in row) for row in data["boards"]], data


def svg_groups(svg: str, css_class: str) -> list[ET.Element]:
    return [g for g in ET.fromstring(svg).iter("g") if css_class in g.get("class", "").split()]


def assert_self_contained(html: str) -> None:
    """No network at all: no URL scheme, no external source, and a policy that forbids."""
    assert not re.search(r"https?://|//[a-z0-9.-]+\.[a-z]{2,}/", html, re.I)
    assert not re.search(r"<(script|img|iframe|link|source)[^>]+(src|href)=\"(?!data:)", html)
    assert "default-src 'none'" in html
    assert "@import" not in html and "url(" not in html


def test_shared_lines_give_back_every_board_exactly():
    boards = ["<svg>\n<a/>\n<b/>\n</svg>", "<svg>\n<b/>\n<c/>\n</svg>", ""]
    lines, numbers = shared_lines(boards)
    assert len(lines) == 6  # <svg>, <a/>, <b/>, </svg>, <c/>, and the empty board's line
    assert ["\n".join(lines[i] for i in row) for row in numbers] == boards


def test_a_review_report_shows_every_position_with_its_move(review_2p):
    record, review = review_2p
    html = review_report_html(record, review)
    assert_self_contained(html)
    boards, data = page_frames(html)
    states = record.states()
    assert len(boards) == len(data["details"]) == len(data["xs"]) == len(record.moves) + 1
    for k in (1, 2, 20, len(record.moves)):
        mover = states[k - 1].current_player() + 1
        root = ET.fromstring(boards[k])
        assert root.get("data-viewer") == str(mover)  # drawn from the mover's seat
        played = [g.get("data-move") for g in svg_groups(boards[k], "played") if g.get("data-move")]
        if str(record.moves[k - 1].move).startswith("="):  # a selection builds nowhere
            assert played == []
        else:
            assert played == [str(record.moves[k - 1].move)]
        built = {
            (int(g.get("data-city")), int(g.get("data-site")))
            for g in svg_groups(boards[k], "building")
        }
        state = states[k]
        assert built == {(s // 9 + 1, s % 9 + 1) for s in range(54) if state.owner[s] >= 0}
        assert f"Decision {k} of {len(record.moves)}" in data["details"][k]
    assert "Final:" in data["details"][-1]
    # the move list and the graph open the frames
    assert html.count('class="mv" data-frame=') == len(record.moves)
    points = re.findall(r'<circle class="pt[^"]*" data-frame="(\d+)"', html)
    assert sorted(map(int, points)) == list(range(1, len(record.moves) + 1))


def test_an_established_better_move_is_dashed_and_its_cost_shown(review_2p):
    record, review = review_2p
    review = copy.deepcopy(review)
    decision = next(d for d in review["decisions"] if d["best"] != d["played"] and "@" in d["best"])
    decision.update(better=decision["best"], loss=12.5, loss_se=2.0, points_loss=3.0)
    boards, data = page_frames(review_report_html(record, review))
    k = decision["index"] + 1
    engine = [g.get("data-move") for g in svg_groups(boards[k], "engine") if g.get("data-move")]
    assert engine == [decision["best"]]
    assert f"Better: <b>{decision['best']}</b>" in data["details"][k]
    assert "12.5 ± 2.0</b> win-% points" in data["details"][k]
    # not established: drawn dotted, and said to be within the noise
    decision["better"] = None
    boards, data = page_frames(review_report_html(record, review))
    assert svg_groups(boards[k], "engine") == []
    dotted = [g for g in svg_groups(boards[k], "candidate") if g.get("data-move")]
    assert [g.get("data-move") for g in dotted] == [decision["best"]]
    assert "not clearly better" in data["details"][k]
    # an older review without 'better': its 'best' is the better move
    del decision["better"]
    boards, _ = page_frames(review_report_html(record, review))
    assert [g.get("data-move") for g in svg_groups(boards[k], "engine") if g.get("data-move")]


def test_extra_keys_are_shown_and_missing_ones_tolerated(review_2p):
    record, review = review_2p
    review = copy.deepcopy(review)
    first = review["decisions"][3]
    first.update(win_low=0.2, win_high=0.4, mark="??", best=None)
    first.pop("better", None)
    for decision in review["decisions"][4:]:
        for key in ("points_loss", "loss_se", "win_before"):
            decision.pop(key, None)
    html = review_report_html(record, review)
    _, data = page_frames(html)
    assert "range 20–40%" in data["details"][4]
    assert "No move established as better" in data["details"][4]
    assert 'class="ci"' in html  # the interval on the graph
    assert f'<li data-frame="4">4. {first["played"]}<span class="m3">??</span>' in html


def test_a_stopped_review_says_so_and_leaves_the_rest_unjudged(review_2p):
    record, review = review_2p
    review = dict(review, decisions=review["decisions"][:10], complete=False, reviewed=10)
    html = review_report_html(record, review)
    _, data = page_frames(html)
    assert "stopped early" in html
    assert "Not reviewed" in data["details"][11]
    assert len(data["details"]) == len(record.moves) + 1


def test_a_review_of_another_game_is_refused(review_2p):
    _, review = review_2p
    with pytest.raises(ManhattanError, match="not a review of this game|outside the record"):
        review_report_html(load_record(GAME_4P), review)
    with pytest.raises(ManhattanError, match="'decisions' list"):
        review_report_html(load_record(GAME_4P), {"players": []})


def test_a_four_player_report_stays_under_one_megabyte():
    record = load_record(GAME_4P)
    review = review_game(record, ReviewSettings(iterations_per_move=30, workers=1)).to_json()
    html = review_report_html(record, review)
    assert_self_contained(html)
    size = len(html.encode("utf-8"))
    assert size < 1_000_000, f"{size} bytes"
    boards, _ = page_frames(html)
    assert len(boards) == len(record.moves) + 1


def test_an_analysis_report_highlights_the_top_candidates():
    state = load_position(str(EXAMPLE))
    analysis = analyze(state, EngineSettings(limit=Limit(iterations=300))).to_json()
    html = analysis_report_html(state, analysis)
    assert_self_contained(html)
    boards, data = page_frames(html)
    table_moves = re.findall(
        r'<tr class="cand" data-frame="(\d+)"><td class="num">\d+</td>'
        r"<td><b>([^<]+)</b>",
        html,
    )
    expected = [m["move"] for m in analysis["moves"][:8]]
    assert [move for _, move in table_moves] == expected
    assert len(boards) == len(expected) + 1
    marks = [(g.get("class"), g.get("data-move")) for g in svg_groups(boards[0], "highlight")]
    on_board = [(kind, move) for kind, move in marks if move]
    assert on_board[0] == ("highlight engine", expected[0])
    assert [move for _, move in on_board] == expected[:5]
    alone = [g.get("data-move") for g in svg_groups(boards[3], "highlight") if g.get("data-move")]
    assert alone == [expected[2]]
    # the interval column shows when the analysis gives intervals (newer analyzers do)
    for move in analysis["moves"]:
        move.pop("win_low", None)
        move.pop("win_high", None)
    assert ">interval<" not in analysis_report_html(state, analysis)
    analysis["moves"][0].update(win_low=0.31, win_high=0.42)
    html = analysis_report_html(state, analysis)
    assert "31–42%" in html and ">interval<" in html


def test_an_analysis_report_refuses_bad_data():
    state = load_position(str(EXAMPLE))
    with pytest.raises(ManhattanError, match="'moves' list"):
        analysis_report_html(state, {"best": "1@1:1"})
    with pytest.raises(ManhattanError, match="candidate 1: bad move"):
        analysis_report_html(state, {"moves": [{"move": "1@9:1"}]})
