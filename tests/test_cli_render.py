"""The pictures and reports from the command line: show --svg, analyze --html, review --html."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from typer.testing import CliRunner

from cli import app

ROOT = Path(__file__).parent.parent
EXAMPLE = ROOT / "positions" / "data" / "examples" / "middle_4p_round2.txt"
GAME_2P = ROOT / "positions" / "data" / "games" / "heuristic_vs_greedy_2p.mgn"
SVG = "{http://www.w3.org/2000/svg}"
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


def test_show_svg_from_a_seat_with_highlights(tmp_path):
    out = tmp_path / "board.svg"
    result = run(
        "show",
        str(EXAMPLE),
        "--svg",
        str(out),
        "--seat",
        "W",
        "--highlight",
        "3@1:2",
        "--engine",
        "9@5:2",
    )
    assert result.exit_code == 0, result.output
    root = ET.parse(out).getroot()
    assert root.get("data-seat") == "W"
    kinds = {g.get("class") for g in root.iter(f"{SVG}g") if "highlight" in (g.get("class") or "")}
    assert {"highlight played", "highlight engine"} <= kinds
    again = run("show", str(EXAMPLE), "--svg", str(out))
    assert again.exit_code == 1 and "--force" in again.stderr


def test_show_svg_refuses_bad_seats_moves_and_suffixes(tmp_path):
    for args, fragment in [
        (["--svg", str(tmp_path / "b.svg"), "--seat", "X"], "seat"),
        (["--svg", str(tmp_path / "b.svg"), "--highlight", "nonsense"], "nonsense"),
        (["--svg", str(tmp_path / "b.png")], ".svg"),
        (["--seat", "2"], "--svg"),
    ]:
        result = run("show", str(EXAMPLE), *args)
        assert result.exit_code == 1, result.output
        assert fragment in result.stderr and result.stderr.count("\n") == 1
    assert not (tmp_path / "b.svg").exists()


def test_analyze_html_is_one_self_contained_page(tmp_path):
    out = tmp_path / "analysis.html"
    result = run("analyze", str(EXAMPLE), "--iterations", "300", "--html", str(out), "--json")
    assert result.exit_code == 0, result.output
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page
    assert (
        "http://" not in page.replace("http://www.w3.org/2000/svg", "") and "https://" not in page
    )


def test_review_html_checked_before_the_review_and_written_after(tmp_path):
    out = tmp_path / "review.html"
    missing = run("review", str(GAME_2P), "--html", str(tmp_path / "no" / "r.html"))
    assert missing.exit_code == 1 and "does not exist" in missing.stderr
    result = run(
        "review",
        str(GAME_2P),
        "--iterations-per-move",
        "40",
        "--workers",
        "1",
        "--html",
        str(out),
        "--json",
    )
    assert result.exit_code == 0, result.output
    page = out.read_text()
    assert "Game review" in page and "<script src" not in page
