"""The reports in a real browser: headless Chromium through selenium opens the files from
disk with the network cut off, and the tests click and press keys as a reader would.

Without chromium, chromedriver or selenium these tests are skipped, unless
``MANHATTAN_REQUIRE_BROWSER=1`` (CI sets it): then they fail.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from analyzer.engine import EngineSettings, analyze
from analyzer.review import ReviewSettings, review_game
from positions.bundled import data_dir
from positions.loading import load_position
from positions.record import load_record
from render.headless import console_errors, missing_browser, network_requests, start_browser
from render.html_report import analysis_report_html, review_report_html
from search.limits import Limit

REQUIRED = os.environ.get("MANHATTAN_REQUIRE_BROWSER") == "1"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    reason = missing_browser()
    if reason is not None:
        if REQUIRED:
            pytest.fail(f"MANHATTAN_REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(reason)
    driver = start_browser(tmp_path_factory.mktemp("chromium-profile"), 1400, 1000)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def review_page(tmp_path_factory):
    """A review of the bundled 2-player game made by the real code at a tiny budget."""
    record = load_record(data_dir("games") / "heuristic_vs_greedy_2p.mgn")
    review = review_game(record, ReviewSettings(iterations_per_move=30, workers=1)).to_json()
    page = tmp_path_factory.mktemp("report") / "review.html"
    page.write_text(review_report_html(record, review), encoding="utf-8")
    return page, record


def open_page(driver, page: Path) -> None:
    """Open ``page`` and check that it loaded cleanly: its script ran (a board is shown),
    nothing went to the console, nothing asked for the network."""
    console_errors(driver)  # forget what earlier pages logged
    network_requests(driver)
    driver.get(page.resolve().as_uri())
    assert driver.find_elements("css selector", "#board svg"), "the page's script drew no board"
    assert_clean(driver)


def assert_clean(driver) -> None:
    assert console_errors(driver) == []
    assert network_requests(driver) == []


def frame_shown(driver) -> int:
    return int(driver.find_element("id", "board").get_attribute("data-frame-shown"))


def board_markup(driver) -> str:
    return driver.find_element("id", "board").get_attribute("innerHTML")


def played_on_board(driver) -> list[str]:
    marks = driver.find_elements("css selector", "#board g.highlight.played[data-move]")
    return [mark.get_attribute("data-move") for mark in marks]


def test_clicking_a_move_shows_the_board_after_it(browser, review_page):
    page, record = review_page
    open_page(browser, page)
    assert frame_shown(browser) == 0
    before = board_markup(browser)
    cell = browser.find_element("css selector", 'td.mv[data-frame="12"]')
    cell.click()
    assert frame_shown(browser) == 12
    assert board_markup(browser) != before
    assert played_on_board(browser) == [str(record.moves[11].move)]
    assert "cur" in cell.get_attribute("class").split()
    assert "Decision 12 of" in browser.find_element("id", "detail").text
    assert_clean(browser)


def test_clicking_the_graph_opens_that_position(browser, review_page):
    page, record = review_page
    open_page(browser, page)
    point = browser.find_element("css selector", '#graph circle.pt[data-frame="40"]')
    point.click()
    assert frame_shown(browser) == 40
    assert played_on_board(browser) == [str(record.moves[39].move)]
    cursor = browser.find_element("id", "cursor")
    assert float(cursor.get_attribute("x1")) == pytest.approx(float(point.get_attribute("cx")))
    before = board_markup(browser)
    band = browser.find_element("css selector", '#graph rect.band[data-frame="75"]')
    band.click()  # anywhere above a decision, not only on its point
    assert frame_shown(browser) == 75
    assert board_markup(browser) != before
    assert_clean(browser)


def test_the_arrow_keys_step_through_the_game(browser, review_page, tmp_path):
    page, record = review_page
    open_page(browser, page)
    browser.find_element("css selector", 'td.mv[data-frame="30"]').click()
    body = browser.find_element("tag name", "body")
    body.send_keys("\ue014")  # →
    assert frame_shown(browser) == 31
    assert played_on_board(browser) == [str(record.moves[30].move)]
    body.send_keys("\ue014", "\ue014")
    assert frame_shown(browser) == 33
    body.send_keys("\ue012")  # ←
    assert frame_shown(browser) == 32
    body.send_keys("\ue011")  # Home
    assert frame_shown(browser) == 0
    body.send_keys("\ue012")  # stays at the start
    assert frame_shown(browser) == 0
    body.send_keys("\ue010")  # End
    assert frame_shown(browser) == len(record.moves)
    assert "Final:" in browser.find_element("id", "detail").text
    assert_clean(browser)
    shot = tmp_path / "review.png"
    browser.save_screenshot(str(shot))
    data = shot.read_bytes()
    assert data.startswith(PNG_SIGNATURE) and len(data) > 20_000


def test_an_analysis_report_shows_each_candidate(browser, tmp_path):
    state = load_position(str(data_dir("examples") / "middle_4p_round2.txt"))
    analysis = analyze(state, EngineSettings(limit=Limit(iterations=300))).to_json()
    page = tmp_path / "analysis.html"
    page.write_text(analysis_report_html(state, analysis), encoding="utf-8")
    open_page(browser, page)
    shown = browser.find_elements("css selector", "#board g.highlight[data-move]")
    assert [g.get_attribute("data-move") for g in shown] == [
        m["move"] for m in analysis["moves"][:5]
    ]
    browser.find_element("css selector", 'tr.cand[data-frame="2"]').click()
    shown = browser.find_elements("css selector", "#board g.highlight[data-move]")
    assert [g.get_attribute("data-move") for g in shown] == [analysis["moves"][1]["move"]]
    assert_clean(browser)


# ----- the checks themselves catch what they must ---------------------------------------------


def test_a_broken_script_is_caught(browser, review_page, tmp_path):
    page, _ = review_page
    broken = tmp_path / "broken.html"
    html = page.read_text(encoding="utf-8")
    broken.write_text(html.replace("function show(k) {", "function show(k) { nosuch();"), "utf-8")
    console_errors(browser)
    browser.get(broken.as_uri())
    assert browser.find_elements("css selector", "#board svg") == []
    assert any("nosuch" in line for line in console_errors(browser))


def test_a_page_that_needs_the_network_is_caught(browser, tmp_path):
    page = tmp_path / "online.html"
    page.write_text(
        '<!DOCTYPE html><html><head><script src="https://example.com/x.js"></script></head>'
        "<body><img src='http://example.com/a.png'></body></html>",
        "utf-8",
    )
    console_errors(browser)
    network_requests(browser)
    browser.get(page.as_uri())
    asked = network_requests(browser)
    assert {"https://example.com/x.js", "http://example.com/a.png"} <= set(asked)
