"""Write the screenshots under docs/: a board picture and a game review report, as headless
Chromium shows them.

The bundled 4-player game (heuristic vs three greedy bots) is reviewed with a fixed
iteration budget and seed, so a rerun gives the same figures on any machine.  Then

* ``docs/board.png``: the board after P2's costliest move, drawn from P2's seat (W) with
  the move played and the engine's choice highlighted (``render.svg.board_svg``);
* ``docs/report.png``: the review report (``render.html_report.review_report_html``)
  opened at the game's costliest move;
* ``docs/play.png`` and ``docs/train.png``: the page of ``manhattan serve`` (the installed
  command, on a free port) in the middle of a 2-player game against greedy with the
  coach's feedback, a hint and an analysis, and the train page after a wrong answer
  (``serve_screenshots``).

Needs chromium, chromedriver and selenium (see ``render.headless``).  Usage:
``python scripts/make_screenshots.py [--iterations-per-move N] [--review REVIEW.json]
[--serve-only]`` (``--review``: a saved ``manhattan review --json`` of that game instead of
a new review; ``--serve-only``: only the two pictures of ``serve``).
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from analyzer.review import ReviewSettings, review_game
from positions.bundled import data_dir
from positions.moves import Placement, parse_move
from positions.record import GameRecord, load_record
from render.headless import missing_browser, screenshot, start_browser
from render.html_report import review_report_html
from render.svg import WIDTH, Highlight, board_svg

GAME = "heuristic_vs_greedy_4p.mgn"
BOARD_PLAYER = 2  # seat W: the picture shows the cities turned for a seat other than S
DOCS = Path(__file__).resolve().parent.parent / "docs"


def costliest(review: dict[str, Any], player: int | None = None) -> dict[str, Any]:
    """The placement (of ``player``, or anyone) that lost the most win %."""
    decisions = [
        d
        for d in review["decisions"]
        if isinstance(parse_move(d["played"]), Placement) and player in (None, d["player"])
    ]
    return max(decisions, key=lambda d: (d["loss"], -d["index"]))


def board_picture(record: GameRecord, decision: dict[str, Any]) -> str:
    """The board after ``decision`` from its mover's seat, the move and the engine's choice
    highlighted, and the hand they chose from."""
    index, mover = decision["index"], decision["player"]
    highlights = [Highlight(decision["played"], "played", mover)]
    best = decision.get("better") or decision.get("best")
    if best and best != decision["played"]:
        highlights.append(Highlight(best, "engine", mover))
    names = [record.tags.get(f"P{p}") for p in range(1, record.players + 1)]
    states = record.states()
    return board_svg(states[index + 1], mover, highlights, names=names, hand_before=states[index])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations-per-move", type=int, default=1000)
    parser.add_argument("--review", type=Path, help="a saved review (JSON) of the game")
    parser.add_argument("--serve-only", action="store_true", help="only play.png and train.png")
    args = parser.parse_args()
    reason = missing_browser()
    if reason is not None:
        print(f"error: {reason}", file=sys.stderr)
        return 1
    DOCS.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        serve_screenshots(Path(folder))
    print(f"wrote {DOCS / 'play.png'} and {DOCS / 'train.png'}")
    if args.serve_only:
        return 0
    record = load_record(data_dir("games") / GAME)
    if args.review is not None:
        review = json.loads(args.review.read_text(encoding="utf-8"))
    else:
        settings = ReviewSettings(iterations_per_move=args.iterations_per_move, workers=1)
        review = review_game(record, settings).to_json()
    DOCS.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        svg = board_picture(record, costliest(review, BOARD_PLAYER))
        board = work / "board.svg"
        board.write_text(svg, encoding="utf-8")
        report = work / "review.html"
        report.write_text(review_report_html(record, review), encoding="utf-8")
        worst = costliest(review)["index"] + 1
        driver = start_browser(work / "profile")
        try:
            screenshot(driver, board, DOCS / "board.png", WIDTH, svg_height(svg))
            screenshot(driver, report, DOCS / "report.png", 1360, fragment=str(worst))
        finally:
            driver.quit()
    print(f"wrote {DOCS / 'board.png'} and {DOCS / 'report.png'}")
    return 0


# ----- the page of manhattan serve ------------------------------------------------------------

SERVE_SEED = 4  # the deal of the pictured game
SERVE_MOVES = 12  # the person's moves before the picture (round 2)


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=120) as answer:
        return json.load(answer)


def _planted_exercise(played_text: str) -> str:
    """An exercise of the bundled puzzle p4_k2_01 from P2's seat: find its solution 7@5:1
    instead of ``played_text`` (the words are the coach's; no loss figure is claimed)."""
    from analyzer.explain import compare_moves
    from positions.exercise import Exercise, write_exercise
    from positions.puzzle import load_puzzle

    puzzle = load_puzzle(data_dir("puzzles") / "p4_k2_01.mpz")
    state = puzzle.state.view(puzzle.state.current_player())
    played, best = parse_move(played_text), parse_move("7@5:1")
    exercise = Exercise(
        title="P2 in the bundled puzzle p4_k2_01",
        player=state.current_player() + 1,
        state=state,
        best=best,
        accept=[best],
        played=played,
        why=compare_moves(state, played, best).text,
    )
    return write_exercise(exercise)


def _capture(driver: Any, out: Path, width: int, scale: float = 1.5) -> None:
    """A PNG of the whole page now shown, ``width`` CSS pixels wide."""
    height = int(driver.execute_script("return document.documentElement.scrollHeight"))
    metrics = {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": False}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    time.sleep(0.3)
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png"})
    out.write_bytes(base64.b64decode(shot["data"]))
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def _wait(driver: Any, script: str, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not driver.execute_script(f"return {script}"):
        if time.monotonic() > deadline:
            raise RuntimeError(f"the page did not show {script} within {seconds:g} s")
        time.sleep(0.1)


def serve_screenshots(work: Path) -> None:
    """``docs/play.png``: a 2-player game against greedy in round 2, played through the
    API, with the coach's feedback on the person's last move, a hint and a finished
    analysis; ``docs/train.png``: the train page after a wrong answer (the move the
    exercise says was played), the better move marked and why.  The server is the
    installed ``manhattan serve``; the browser reaches only it."""
    command = shutil.which("manhattan")
    if command is None:
        raise RuntimeError("the manhattan command is not installed (pip install -e .)")
    exercises = work / "exercises"
    exercises.mkdir()
    for number, played in enumerate(("2@3:1", "3@1:1"), start=1):
        exercise = _planted_exercise(played)
        (exercises / f"puzzle_p2_d00{number}.mex").write_text(exercise, encoding="utf-8")
    process = subprocess.Popen(
        [command, "serve", "--port", "0", "--coach-iterations", "3000", "--workers", "1",
         "--exercises", str(exercises)],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )  # fmt: skip
    try:
        url = re.search(r"http://\S+/", process.stdout.readline() or "").group(0)
        game = _post(url + "api/games", {"bots": "greedy", "seed": SERVE_SEED, "coach": True})
        for turn in range(SERVE_MOVES):  # the person plays some good and some poor moves
            legal = game["legal"]
            move = legal[(turn * 5) % len(legal)] if turn % 3 else legal[0]
            game = _post(url + f"api/games/{game['id']}/move", {"move": move})["game"]
        _post(url + f"api/games/{game['id']}/hint", {})
        driver = start_browser(work / "profile", 1400, 1000)
        try:
            driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["https://*", "ws://*"]})
            driver.execute_cdp_cmd(
                "Network.emulateNetworkConditions",
                {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
            )
            driver.get(f"{url}#game={game['id']}")
            _wait(driver, "document.querySelector('#coach p.headline') !== null")
            driver.execute_script("document.getElementById('analysis-seconds').value = '3'")
            driver.find_element("id", "analyze").click()
            _wait(driver, "/Done:/.test(document.getElementById('analysis').textContent)")
            _wait(driver, "document.body.getAttribute('data-busy') === '0'")
            _capture(driver, DOCS / "play.png", 1400)
            driver.get(url + "train")
            _wait(driver, "/Exercise 1/.test(document.getElementById('question').textContent)")
            driver.find_element("id", "train-input").send_keys("2@3:1\n")
            _wait(driver, "/Wrong/.test(document.getElementById('train-feedback').textContent)")
            _capture(driver, DOCS / "train.png", 1400)
        finally:
            driver.quit()
    finally:
        os.killpg(process.pid, signal.SIGINT)
        process.communicate(timeout=30)


def svg_height(svg: str) -> int:
    """The height an SVG picture asks for."""
    return int(float(ET.fromstring(svg).get("height", "600")))


if __name__ == "__main__":
    sys.exit(main())
