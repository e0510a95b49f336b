"""``manhattan serve`` in a real browser: the real server (the installed command, in its
own process) and headless Chromium through selenium, reaching nothing but the server.

A whole 2-player game is played by clicks against a random bot (card, city and block;
selections group by group), with a hint, an undo, the typed box, a look at an earlier
position, an analysis streamed as it searches, and the record saved from the page and
replayed; the train page asks its exercises and judges answers given by clicks.  Without
chromium, chromedriver or selenium these tests are skipped, unless
``MANHATTAN_REQUIRE_BROWSER=1`` (CI sets it): then they fail.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from positions.exercise import Exercise, write_exercise
from positions.moves import parse_move
from positions.notation import parse_position
from positions.record import read_record
from render.headless import console_errors, missing_browser, network_requests, start_browser

REQUIRED = os.environ.get("MANHATTAN_REQUIRE_BROWSER") == "1"
DATA = Path(__file__).parent / "data"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
WAIT = 30.0  # seconds for one step of the page at most


def puzzle_setup() -> str:
    return re.search(r'\[Setup "([^"]*)"\]', (DATA / "p4_k2_01.mpz").read_text()).group(1)


def exercise(title: str) -> Exercise:
    return Exercise(
        title=title,
        player=2,
        state=parse_position(puzzle_setup()).view(1),
        best=parse_move("7@5:1"),
        accept=[parse_move("7@5:1")],
        played=parse_move("7@1:1"),
        loss=97.8,
        mark="??",
        why="7@5:1 takes the tallest building from P3.",
    )


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The installed ``manhattan serve`` on a free port, with two exercises to train."""
    if missing_browser() is not None and not REQUIRED:
        pytest.skip(missing_browser())
    command = shutil.which("manhattan")
    assert command, "the manhattan command is installed with the package"
    folder = tmp_path_factory.mktemp("exercises")
    for name in ("first", "second"):
        (folder / f"game_p2_{name}.mex").write_text(write_exercise(exercise(name)))
    log = (folder.parent / "serve.log").open("w")
    process = subprocess.Popen(
        [command, "serve", "--port", "0", "--coach-iterations", "200", "--workers", "1",
         "--exercises", str(folder)],
        stdout=subprocess.PIPE,
        stderr=log,
        text=True,
        start_new_session=True,
    )  # fmt: skip
    line = process.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:\d+/", line)
    assert match, line + Path(log.name).read_text()
    yield match.group(0)
    os.killpg(process.pid, signal.SIGINT)
    process.communicate(timeout=20)
    log.close()


@pytest.fixture(scope="module")
def browser(server, tmp_path_factory):
    reason = missing_browser()
    if reason is not None:
        if REQUIRED:
            pytest.fail(f"MANHATTAN_REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(reason)
    driver = start_browser(tmp_path_factory.mktemp("chromium-profile"), 1400, 1000)
    # The server is on the loopback, which the browser reaches without the (absent)
    # proxy; every other address still goes to a proxy that does not exist.
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["https://*", "ws://*", "wss://*"]})
    driver.execute_cdp_cmd(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    downloads = tmp_path_factory.mktemp("downloads")
    driver.execute_cdp_cmd(
        "Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)}
    )
    driver.downloads = downloads
    driver.implicitly_wait(0)
    yield driver
    driver.quit()


def wait_for(driver, condition, what: str, seconds: float = WAIT):
    """Poll ``condition(driver)`` until it is truthy; fail naming ``what``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            value = condition(driver)
        except Exception:  # noqa: BLE001 - an element replaced under us: look again
            value = None
        if value:
            return value
        time.sleep(0.03)
    errors = console_errors(driver)
    pytest.fail(f"waited {seconds:g} s for {what}; console: {errors}")


def css(driver, selector: str):
    return driver.find_elements("css selector", selector)


def idle(driver) -> bool:
    return driver.find_element("tag name", "body").get_attribute("data-busy") == "0"


def decisions(driver) -> int:
    text = driver.find_element("id", "board").get_attribute("data-decisions")
    return int(text) if text else -1


def text_of(driver, element_id: str) -> str:
    return driver.find_element("id", element_id).text


def assert_only_the_server(driver, origin: str) -> None:
    assert console_errors(driver) == []
    assert all(url.startswith(origin) for url in network_requests(driver))


def start_game(driver, origin: str, seed: int) -> None:
    driver.get(origin)
    wait_for(driver, lambda d: css(d, "#bots option[value=random]"), "the bot list")
    css(driver, "#bots option[value=random]")[0].click()
    css(driver, "#players option[value='2']")[0].click()
    seed_box = driver.find_element("id", "seed")
    seed_box.clear()
    seed_box.send_keys(str(seed))
    driver.find_element("id", "start").click()
    wait_for(driver, lambda d: decisions(d) == 0 and idle(d), "the new game")


def play_by_clicks(driver, turn: int) -> None:
    """One move by clicks: a group per colour then Select, or card, city, block."""
    before = decisions(driver)
    if css(driver, "#builder button.group"):
        for colour in range(len(css(driver, "#builder .step"))):
            groups = css(driver, "#builder .step")[colour].find_elements("css selector", "button")
            groups[(turn + colour) % len(groups)].click()
        driver.find_element("id", "select-button").click()
    else:
        cards = css(driver, "#board g.card[data-cell]")
        cards[turn % len(cards)].click()
        cities = css(driver, "#board rect.cell-target.can")
        if cities:  # none when no block can be placed: the card and a block give one up
            cities[turn % len(cities)].click()
        blocks = [b for b in css(driver, "#builder button.blk") if b.is_enabled()]
        blocks[0].click()
    wait_for(driver, lambda d: decisions(d) > before and idle(d), f"move {turn} to be played")


def test_a_whole_game_by_clicks_with_a_hint_an_undo_and_the_saved_record(browser, server):
    started = time.monotonic()
    console_errors(browser)
    network_requests(browser)
    start_game(browser, server, seed=5)
    assert text_of(browser, "status").startswith("Your move, P1")
    turn = 0
    while not text_of(browser, "status").startswith("Game over"):
        if turn == 3:  # a hint: the engine's move in words and on the board
            browser.find_element("id", "hint-button").click()
            wait_for(browser, lambda d: "the engine plays" in text_of(d, "hint"), "the hint")
            assert css(browser, "#board g.highlight.engine")
        count = decisions(browser)
        play_by_clicks(browser, turn)
        if turn == 3:
            assert "P1 plays" in text_of(browser, "message")
            assert css(browser, "#coach p.headline"), "the coach's feedback"
        if turn == 5:  # undo: the move and the bot's reply are taken back
            browser.find_element("id", "undo-button").click()
            wait_for(browser, lambda d, n=count: decisions(d) == n and idle(d), "the undo")
            assert "took back" in text_of(browser, "message")
        if turn == 8:  # the typed box
            box = browser.find_element("id", "move-input")
            box.send_keys("1\n")
            typed_from = decisions(browser)
            wait_for(
                browser, lambda d, n=typed_from: decisions(d) > n and idle(d), "the typed move"
            )
        if turn == 10:  # step back to an earlier position and return
            live = browser.find_element("id", "board").get_attribute("innerHTML")
            css(browser, '#moves span.mv[data-frame="3"]')[0].click()
            wait_for(browser, lambda d: d.find_element("id", "viewing").is_displayed(), "frame 3")
            assert "After decision 3" in text_of(browser, "viewing-text")
            assert browser.find_element("id", "board").get_attribute("innerHTML") != live
            browser.find_element("id", "back").click()
            wait_for(browser, lambda d: not d.find_element("id", "viewing").is_displayed(), "back")
        turn += 1
        assert turn < 80, "the game does not end"
    totals = [int(t) for t in re.findall(r"P\d (\d+) \(", text_of(browser, "status"))]
    assert len(totals) == 2
    assert css(browser, "#graph svg circle.pt"), "the win-% graph"
    browser.find_element("id", "save").click()
    saved = wait_for(browser, lambda d: [p for p in d.downloads.glob("*.mgn")], "the record file")
    record = read_record(saved[0].read_text(encoding="utf-8"))
    assert record.final_state().player_totals() == totals
    assert record.tags["Result"] == " ".join(map(str, totals)) and record.tags["Seed"] == "5"
    assert len(record.moves) == 108
    assert_only_the_server(browser, server)
    shot = browser.downloads / "play.png"
    browser.save_screenshot(str(shot))
    assert shot.read_bytes().startswith(PNG_SIGNATURE) and shot.stat().st_size > 20_000
    assert time.monotonic() - started < 90


def test_an_analysis_shows_its_progress_and_can_be_stopped(browser, server):
    start_game(browser, server, seed=9)
    play_by_clicks(browser, 0)  # the selection: then the candidates are placements
    seconds = browser.find_element("id", "analysis-seconds")
    # A long search shows its partial answers until it is stopped (a short one may end
    # before a loaded machine's browser sees one).
    seconds.clear()
    seconds.send_keys("60")
    browser.find_element("id", "analyze").click()
    wait_for(browser, lambda d: "Searching:" in text_of(d, "analysis"), "a partial answer")
    assert browser.find_element("id", "analysis-progress").is_displayed()
    stopped = time.monotonic()
    browser.find_element("id", "stop-analysis").click()
    wait_for(browser, lambda d: "Stopped:" in text_of(d, "analysis") and idle(d), "the stop", 10)
    assert time.monotonic() - stopped < 5
    seconds.clear()
    seconds.send_keys("2")
    browser.find_element("id", "analyze").click()
    wait_for(browser, lambda d: "Done:" in text_of(d, "analysis") and idle(d), "the final answer")
    wait_for(browser, lambda d: css(d, "#board g.highlight.engine[data-move]"), "the best moves")
    rows = css(browser, "#analysis tr.cand")
    assert len(rows) >= 2 and "%" in rows[0].text
    rows[1].click()
    wait_for(browser, lambda d: css(d, "#analysis tr.cand.cur"), "one candidate shown")
    marked = css(browser, "#board g.highlight[data-move]")
    assert [g.get_attribute("data-move") for g in marked][-1] == rows[1].get_attribute("data-move")
    assert_only_the_server(browser, server)


def test_a_game_starts_from_an_uploaded_record_or_a_bundled_position(browser, server, tmp_path):
    record = (DATA / "game_2p.mgn").read_text()
    unfinished = tmp_path / "unfinished.mgn"
    unfinished.write_text(record[: record.index("R4")].replace('[Result "129 135"]\n', ""))
    browser.get(server)
    wait_for(browser, lambda d: css(d, "#bundled option"), "the bundled positions")
    css(browser, "input[name=start][value=record]")[0].click()
    browser.find_element("id", "record").send_keys(str(unfinished))
    browser.find_element("id", "start").click()
    wait_for(browser, lambda d: decisions(d) == 54 and idle(d), "the game from the record")
    assert "round 4 of 6" in text_of(browser, "status")
    assert len(css(browser, "#moves span.mv")) == 54
    browser.refresh()  # the address keeps the game
    wait_for(browser, lambda d: decisions(d) == 54 and idle(d), "the game after a reload")
    browser.find_element("id", "setup").click()
    css(browser, "input[name=start][value=bundled]")[0].click()
    css(browser, '#bundled option[value="puzzles/p4_k2_01.mpz"]')[0].click()
    browser.find_element("id", "start").click()
    wait_for(browser, lambda d: "Your move, P2" in text_of(d, "status"), "the puzzle's game")
    assert css(browser, '#board svg[data-viewer="2"]')
    assert_only_the_server(browser, server)


def test_the_train_page_judges_answers_given_by_clicks(browser, server):
    console_errors(browser)
    browser.get(server + "train")
    wait_for(browser, lambda d: "Exercise 1 of 2" in text_of(d, "question"), "the first exercise")
    css(browser, '#train-board g.card[data-card="7"]')[0].click()
    css(browser, '#train-board rect.cell-target[data-city="5"][data-cell="7"]')[0].click()
    css(browser, '#train-builder button.blk[data-stories="1"]')[0].click()
    wait_for(browser, lambda d: "Right" in text_of(d, "train-feedback"), "the verdict")
    assert "takes the tallest building" in text_of(browser, "train-feedback")
    assert css(browser, '#train-board g.highlight.engine[data-move="7@5:1"]')
    browser.find_element("id", "train-next").click()
    wait_for(browser, lambda d: "Exercise 2 of 2" in text_of(d, "question"), "the second")
    browser.find_element("id", "train-input").send_keys("7@1:1\n")
    wait_for(browser, lambda d: "Wrong" in text_of(d, "train-feedback"), "the second verdict")
    assert "Better: 7@5:1" in text_of(browser, "train-feedback")
    assert "right 1 of 2" in text_of(browser, "train-summary")
    shot = browser.downloads / "train.png"
    browser.save_screenshot(str(shot))
    assert shot.read_bytes().startswith(PNG_SIGNATURE)
    assert_only_the_server(browser, server)
