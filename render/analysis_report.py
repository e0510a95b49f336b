"""The HTML report of a position's analysis: the board with the best candidates
highlighted and the table of candidates (win %, its interval when given, expected score,
margin, reason); a row shows its candidate alone on the board.  Built from the JSON of
``analyzer.engine.Analysis.to_json()``, reading only the keys it shows."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from positions.errors import ManhattanError
from positions.moves import parse_move
from positions.state import GameState
from render.page import frames_data, html_page, nav_bar, number, percent, win_interval
from render.svg import Highlight, board_svg

BOARD_CANDIDATES = 5  # candidates drawn on the board at once


def analysis_report_html(
    state: GameState,
    analysis_data: dict[str, Any],
    *,
    top: int = 8,
    seat: int | str | None = None,
    names: Sequence[str | None] = (),
) -> str:
    """One self-contained HTML page of the analysis ``analysis_data`` (the JSON of
    ``analyzer.engine.Analysis.to_json()``) of ``state``: the board from ``seat`` (default
    the player to move) with the best candidates highlighted, and a table of the ``top``
    candidates (win %, its interval when the data has one, expected score, margin,
    reason); a row shows that candidate alone on the board.  Raises ``ManhattanError``
    for data without a ``moves`` list or with moves that do not parse."""
    if not isinstance(analysis_data, dict) or not isinstance(analysis_data.get("moves"), list):
        raise ManhattanError("analysis data: expected an object with a 'moves' list")
    if state.is_terminal():
        raise ManhattanError("analysis report: the game is over, there is no move to show")
    mover = analysis_data.get("to_move")
    mover = mover if isinstance(mover, int) else state.current_player() + 1
    candidates = [c for c in analysis_data["moves"] if isinstance(c, dict) and "move" in c][:top]
    for k, candidate in enumerate(candidates, start=1):
        try:
            parse_move(str(candidate["move"]))
        except ManhattanError as error:
            raise ManhattanError(f"analysis data: candidate {k}: {error}") from None

    def highlight(rank: int, candidate: dict[str, Any]) -> Highlight:
        kind = "engine" if rank == 1 else "candidate"
        return Highlight(str(candidate["move"]), kind, mover, str(rank))

    shown = [highlight(r, c) for r, c in enumerate(candidates[:BOARD_CANDIDATES], start=1)]
    boards = [board_svg(state, seat, shown, names=names, standalone=False)]
    details = [
        f"<b>The {len(shown)} best candidates</b> for P{mover}: 1 is the engine's choice "
        "(dashed). Click a row to see one alone."
    ]
    for rank, candidate in enumerate(candidates, start=1):
        boards.append(
            board_svg(state, seat, [highlight(rank, candidate)], names=names, standalone=False)
        )
        details.append(_candidate_detail(rank, candidate))
    body = "\n".join(
        [
            _analysis_header(analysis_data, mover),
            '<div class="cols"><div class="box"><div id="detail"></div>'
            + nav_bar("← → step through the candidates")
            + '<div id="board"></div></div>'
            + f'<div class="box">{_candidate_table(candidates)}{_line(analysis_data)}</div>'
            + "</div>",
            "<footer>Made by manhattan. Win % is the mover's estimated chance of finishing "
            "first, from the mover's own information; the score is the expected final total."
            "</footer>",
        ]
    )
    return html_page(f"Manhattan analysis: P{mover} to move", body, frames_data(boards, details))


def _analysis_header(data: dict[str, Any], mover: int) -> str:
    facts = []
    if isinstance(data.get("iterations"), int):
        facts.append(f"{data['iterations']} iterations")
    seconds = number(data.get("seconds"))
    if seconds is not None:
        facts.append(f"{seconds:.1f} s")
    if data.get("best"):
        facts.append(f"best <b>{escape(str(data['best']))}</b>")
    if data.get("interrupted"):
        facts.append("interrupted")
    position = escape(str(data.get("position", "")))
    return (
        f"<h1>Analysis: P{mover} to move</h1>"
        f'<p class="sub">{" · ".join(facts)}</p>'
        f'<p class="sub"><code style="word-break:break-all">{position}</code></p>'
    )


def _candidate_detail(rank: int, candidate: dict[str, Any]) -> str:
    parts = [f"<b>{rank}. {escape(str(candidate['move']))}</b>"]
    win = f"win {percent(candidate.get('win'))}"
    interval = win_interval(candidate)
    if interval:
        win += f" ({interval})"
    parts.append(win)
    score = number(candidate.get("score"))
    if score is not None:
        parts.append(f"expected score {score:.1f}")
    if candidate.get("reason"):
        parts.append(escape(str(candidate["reason"])))
    return " · ".join(parts)


def _candidate_table(candidates: Sequence[dict[str, Any]]) -> str:
    has_interval = any(win_interval(c) for c in candidates)
    head = (
        '<tr><th class="num">#</th><th>move</th><th class="num">visits</th>'
        '<th class="num">win</th>'
        + ('<th class="num">interval</th>' if has_interval else "")
        + '<th class="num">score</th><th class="num">margin</th><th>reason</th></tr>'
    )
    rows = [f'<table class="candidates">{head}']
    for rank, c in enumerate(candidates, start=1):
        score, margin = number(c.get("score")), number(c.get("margin"))
        rows.append(
            f'<tr class="cand" data-frame="{rank}"><td class="num">{rank}</td>'
            f"<td><b>{escape(str(c['move']))}</b>{_equal_note(c)}</td>"
            f'<td class="num">{escape(str(c.get("visits", "")))}</td>'
            f'<td class="num">{percent(c.get("win"))}</td>'
            + (f'<td class="num">{win_interval(c) or "–"}</td>' if has_interval else "")
            + f'<td class="num">{"–" if score is None else f"{score:.1f}"}</td>'
            f'<td class="num">{"–" if margin is None else f"{margin:+.1f}"}</td>'
            f"<td>{escape(str(c.get('reason') or ''))}</td></tr>"
        )
    rows.append("</table>")
    return "".join(rows)


def _equal_note(candidate: dict[str, Any]) -> str:
    if candidate.get("equal_to_best") is not True:
        return ""
    return ' <span class="loss" title="the search cannot tell it from the best">≈ best</span>'


def _line(data: dict[str, Any]) -> str:
    line = [m for m in data.get("line", []) if isinstance(m, dict)]
    if not line:
        return ""
    moves = " ".join(f"P{m.get('player')} {escape(str(m.get('move')))}" for m in line)
    return f'<p class="sub">Expected line: {moves}</p>'
