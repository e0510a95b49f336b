"""Write the screenshots under docs/: a board picture and a game review report, as headless
Chromium shows them.

The bundled 4-player game (heuristic vs three greedy bots) is reviewed with a fixed
iteration budget and seed, so a rerun gives the same figures on any machine.  Then

* ``docs/board.png``: the board after P2's costliest move, drawn from P2's seat (W) with
  the move played and the engine's choice highlighted (``render.svg.board_svg``);
* ``docs/report.png``: the review report (``render.html_report.review_report_html``)
  opened at the game's costliest move.

Needs chromium, chromedriver and selenium (see ``render.headless``).  Usage:
``python scripts/make_screenshots.py [--iterations-per-move N] [--review REVIEW.json]``
(``--review``: a saved ``manhattan review --json`` of that game instead of a new review).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
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
    args = parser.parse_args()
    reason = missing_browser()
    if reason is not None:
        print(f"error: {reason}", file=sys.stderr)
        return 1
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


def svg_height(svg: str) -> int:
    """The height an SVG picture asks for."""
    return int(float(ET.fromstring(svg).get("height", "600")))


if __name__ == "__main__":
    sys.exit(main())
