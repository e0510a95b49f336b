"""The HTML reports: a game review and a position's analysis, each one self-contained
file (see ``render.page``) built from the analyzer's plain JSON-ready results.  The
review is made here; the analysis in ``render.analysis_report`` (re-exported).

``review_report_html(record, review_data)`` takes ``analyzer.review.Review.to_json()``:
the win-probability graph per player, the move list with marks, the board after any
move with the move and the engine's choice highlighted and what the move cost, ← / → to
step, and the per-player summary.  ``analysis_report_html(state, analysis_data)`` takes
``analyzer.engine.Analysis.to_json()``: the board with the top candidates and the table.

Both read only the keys they show and accept more (intervals and standard errors are
shown when present).  A decision's ``better`` is the move the review established as
better (drawn dashed); when it is null, an engine's choice that differs is drawn dotted as
"not clearly better"; a review without ``better`` takes ``best`` as the better move.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from positions.errors import ManhattanError
from positions.layout import COLOR_LETTERS
from positions.moves import Placement, parse_move
from positions.record import GameRecord
from positions.state import GameState
from render.analysis_report import analysis_report_html
from render.graph import LEFT, GraphPlayer, plot_x, win_graph_svg
from render.page import (
    chip,
    frames_data,
    html_page,
    mark_class,
    nav_bar,
    number,
    percent,
    win_interval,
)
from render.svg import Highlight, board_svg

__all__ = ["analysis_report_html", "review_report_html"]

BIGGEST = 5  # mistakes listed per player in the summary


# ----- reading the analyzer's data ---------------------------------------------------------


def _decisions(review_data: dict[str, Any], record: GameRecord) -> dict[int, dict[str, Any]]:
    """The review's decisions by index, checked against the record."""
    if not isinstance(review_data, dict) or not isinstance(review_data.get("decisions"), list):
        raise ManhattanError("review data: expected an object with a 'decisions' list")
    by_index = {}
    for k, decision in enumerate(review_data["decisions"]):
        if not isinstance(decision, dict) or not isinstance(decision.get("index"), int):
            raise ManhattanError(f"review data: decision {k + 1} has no integer 'index'")
        index = decision["index"]
        if not 0 <= index < len(record.moves):
            raise ManhattanError(
                f"review data: decision index {index} is outside the record's "
                f"{len(record.moves)} moves"
            )
        if str(decision.get("played")) != str(record.moves[index].move):
            raise ManhattanError(
                f"review data: decision {index + 1} played {decision.get('played')!r} but the "
                f"record has {str(record.moves[index].move)!r}: not a review of this game"
            )
        by_index[index] = decision
    return by_index


def _alternative(decision: dict[str, Any] | None) -> tuple[str | None, bool]:
    """The engine's move to show beside the move played, and whether the review
    established it as better.  Newer reviews say so in ``better`` (null when not
    established); older ones only give ``best``."""
    if not decision:
        return None, False
    played = str(decision.get("played"))
    best = decision.get("best")
    best = best if isinstance(best, str) and best and best != played else None
    if "better" in decision:
        better = decision["better"]
        if isinstance(better, str) and better and better != played:
            return better, True
        return best, False
    return best, best is not None


def _engine_highlight(move_text: str, established: bool, player: int) -> Highlight:
    try:
        move = parse_move(move_text)
    except ManhattanError as error:
        raise ManhattanError(f"review data: engine move {move_text!r}: {error}") from None
    label = f"+{move.stories}" if isinstance(move, Placement) else None
    if established:
        return Highlight(move_text, "engine", player, label)
    return Highlight(move_text, "candidate", player, label, "engine's choice, not clearly better")


# ----- the review ----------------------------------------------------------------------------


def review_report_html(
    record: GameRecord,
    review_data: dict[str, Any],
    *,
    seat: int | str | None = None,
    title: str | None = None,
) -> str:
    """One self-contained HTML page reviewing ``record`` with ``review_data`` (the JSON of
    ``analyzer.review.Review.to_json()``).

    Frame 0 is the start; frame ``k`` is the board after decision ``k`` (1-based), drawn
    from ``seat`` (default: the seat of the player who moved, so their cards read as they
    saw them) with the move played and the engine's choice highlighted, and the viewer's
    hand as it was before the move.  Raises ``ManhattanError`` when the data does not
    belong to the record or the record does not replay."""
    states = record.states()
    decisions = _decisions(review_data, record)
    names = [record.tags.get(f"P{p}") for p in range(1, record.players + 1)]
    total = len(record.moves)
    movers = [states[i].current_player() + 1 for i in range(total)]
    rounds = [states[i].round for i in range(total)]
    for index, decision in decisions.items():
        if decision.get("player") not in (None, movers[index]):
            raise ManhattanError(
                f"review data: decision {index + 1} is P{decision.get('player')}'s, "
                f"the record's is P{movers[index]}'s"
            )

    boards = [board_svg(states[0], seat, names=names, standalone=False)]
    details = [_start_detail(total)]
    for index, recorded in enumerate(record.moves):
        mover = movers[index]
        decision = decisions.get(index)
        highlights = [Highlight(str(recorded.move), "played", mover)]
        alternative, established = _alternative(decision)
        if alternative is not None:
            highlights.append(_engine_highlight(alternative, established, mover))
        viewer = mover if seat is None else seat
        board = board_svg(
            states[index + 1],
            viewer,
            highlights,
            names=names,
            hand_before=states[index],
            standalone=False,
        )
        boards.append(board)
        details.append(
            _decision_detail(index, total, rounds[index], mover, names, recorded, decision)
            + _final_detail(states[index + 1], names)
        )

    players = [
        GraphPlayer(p + 1, states[0].layout.player_colors[p], names[p])
        for p in range(record.players)
    ]
    graph = win_graph_svg([decisions[i] for i in sorted(decisions)], total, rounds, players)
    xs = [float(LEFT)] + [plot_x(i, total) for i in range(total)]
    body = "\n".join(
        [
            _review_header(record, review_data, names, title),
            '<h2>Players</h2><div class="box">'
            + _summary_table(record, review_data, decisions, states[-1], names, movers)
            + "</div>",
            f'<h2>Win probability after each move</h2><div id="graph" class="box">{graph}</div>',
            '<div class="cols"><div class="box"><div id="detail"></div>'
            + nav_bar("click a move or the graph; ← → step")
            + '<div id="board"></div></div>'
            + f'<div class="box moves">{_move_table(record, states, decisions, names)}</div>'
            + "</div>",
            "<footer>Made by manhattan. Win % is each player's estimated chance of finishing "
            "first, judged from their own information; the marks ?! ? ?? grow with the win % "
            "a move gave up, counted only when the loss is clear of the search's noise."
            "</footer>",
        ]
    )
    page_title = title or f"Manhattan review: {_players_line(names, record.players)}"
    return html_page(page_title, body, frames_data(boards, details, xs))


def _players_line(names: Sequence[str | None], players: int) -> str:
    return " vs ".join(names[p] or f"P{p + 1}" for p in range(players))


def _review_header(
    record: GameRecord, review_data: dict[str, Any], names: Sequence[str | None], title: str | None
) -> str:
    facts = [f"{record.players} players"]
    if record.tags.get("Date"):
        facts.append(escape(record.tags["Date"]))
    if record.tags.get("Result"):
        facts.append(f"result {escape(record.tags['Result'])}")
    reviewed = review_data.get("reviewed", len(review_data["decisions"]))
    facts.append(
        f"{reviewed} of {review_data.get('total_decisions', len(record.moves))} decisions reviewed"
    )
    seconds = number(review_data.get("seconds"))
    if seconds is not None:
        facts.append(f"in {seconds:.0f} s")
    parts = [
        f"<h1>{escape(title or 'Game review: ' + _players_line(names, record.players))}</h1>",
        f'<p class="sub">{" · ".join(facts)}</p>',
    ]
    if review_data.get("complete") is False:
        parts.append(
            '<p class="warn">The review was stopped early: moves after the last reviewed '
            "one have no figures.</p>"
        )
    return "\n".join(parts)


def _who(player: int, names: Sequence[str | None], colors: Sequence[int]) -> str:
    chips = "".join(chip(COLOR_LETTERS[c]) for c in colors)
    name = names[player - 1] if player - 1 < len(names) else None
    return f"{chips}P{player}" + (f" {escape(name)}" if name else "")


def _start_detail(total: int) -> str:
    return (
        f"<b>Start of the game</b> · {total} decisions follow. Press → or click a move to "
        "see the board after it."
    )


def _decision_detail(
    index: int,
    total: int,
    round_number: int,
    mover: int,
    names: Sequence[str | None],
    recorded: Any,
    decision: dict[str, Any] | None,
) -> str:
    played = str(recorded.move)
    mark = decision.get("mark") if decision else None
    head = (
        f"<b>Decision {index + 1} of {total}</b> · round {round_number} · P{mover}"
        f"{' ' + escape(names[mover - 1]) if names[mover - 1] else ''} played "
        f"<b>{escape(played)}</b>"
        f'<span class="{mark_class(mark)}">{escape(mark or "")}</span>'
    )
    if decision is None:
        return head + "<br>Not reviewed (the review stopped before this decision)."
    after = f"win {percent(decision.get('win_after'))}"
    interval = win_interval(decision)
    if interval:
        after += f" (range {interval})"
    alternative, established = _alternative(decision)
    if alternative is None:
        best = decision.get("best")
        if best == played:
            return head + f"<br>The engine's choice too · {after}."
        return head + f"<br>No move established as better · {after}."
    loss = f"{number(decision.get('loss')) or 0.0:.1f}{_se(decision.get('loss_se'))}"
    cost = (
        f"<b>{loss}</b> win-% points (win {percent(decision.get('win_before'))} → "
        f"{percent(decision.get('win_after'))})"
    )
    points = number(decision.get("points_loss"))
    if points is not None:
        cost += f" and <b>{points:.1f}{_se(decision.get('points_loss_se'))}</b> points"
    if interval:
        cost += f"; played move's win range {interval}"
    if established:
        return head + f"<br>Better: <b>{escape(alternative)}</b> (dashed) · this move cost {cost}."
    return (
        head + f"<br>Engine's choice <b>{escape(alternative)}</b> (dotted) is not clearly "
        f"better: the estimated cost, {cost}, is within the noise of the search."
    )


def _se(value: Any) -> str:
    figure = number(value)
    return f" ± {figure:.1f}" if figure else ""


def _final_detail(state: GameState, names: Sequence[str | None]) -> str:
    if not state.is_terminal():
        return ""
    totals = state.player_totals()
    places = state.places()
    result = ", ".join(
        f"P{p + 1} {totals[p]} ({_ordinal(places[p])})" for p in range(state.players)
    )
    return f"<br><b>Final:</b> {result}."


def _ordinal(place: int) -> str:
    return f"{place}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place, 'th') }"


def _summary_table(
    record: GameRecord,
    review_data: dict[str, Any],
    decisions: dict[int, dict[str, Any]],
    final: GameState,
    names: Sequence[str | None],
    movers: Sequence[int],
) -> str:
    layout = final.layout
    summaries = {p.get("player"): p for p in review_data.get("players", []) if isinstance(p, dict)}
    over = final.is_terminal()
    totals, places = final.player_totals(), final.places() if over else None
    rows = [
        "<table><tr><th>player</th>"
        + ('<th class="num">final</th>' if over else "")
        + '<th class="num">accuracy</th><th class="num">?!</th><th class="num">?</th>'
        '<th class="num">??</th><th>marked moves, biggest first (click to see)</th></tr>'
    ]
    for player in range(1, record.players + 1):
        summary = summaries.get(player, {})
        accuracy = number(summary.get("accuracy"))
        mine = [d for i, d in decisions.items() if movers[i] == player]
        counts = [
            summary.get(key, sum(d.get("mark") == mark for d in mine))
            for key, mark in (("inaccuracies", "?!"), ("mistakes", "?"), ("blunders", "??"))
        ]
        final_cell = ""
        if places is not None:
            final_cell = (
                f'<td class="num">{totals[player - 1]} ({_ordinal(places[player - 1])})</td>'
            )
        rows.append(
            f"<tr><td>{_who(player, names, layout.player_colors[player - 1])}</td>{final_cell}"
            f'<td class="num">{"–" if accuracy is None else f"{accuracy:.1f}"}</td>'
            + "".join(f'<td class="num">{escape(str(c))}</td>' for c in counts)
            + f"<td>{_biggest(mine)}</td></tr>"
        )
    rows.append("</table>")
    return "".join(rows)


def _biggest(mine: Sequence[dict[str, Any]]) -> str:
    """The player's marked moves, most costly first: the first few, then the rest folded."""
    marked = [d for d in mine if d.get("mark")]
    marked.sort(key=lambda d: (-(number(d.get("loss")) or 0.0), d["index"]))
    if not marked:
        return '<span class="loss">no marked move</span>'
    items = []
    for d in marked:
        alternative, _ = _alternative(d)
        better = f" → {escape(alternative)}" if alternative else ""
        items.append(
            f'<li data-frame="{d["index"] + 1}">{d["index"] + 1}. {escape(str(d["played"]))}'
            f'<span class="{mark_class(d.get("mark"))}">{escape(str(d["mark"]))}</span>{better} '
            f'<span class="loss">−{number(d.get("loss")) or 0.0:.1f}%</span></li>'
        )
    shown = f'<ul class="mistakes">{"".join(items[:BIGGEST])}</ul>'
    if len(items) > BIGGEST:
        shown += (
            f"<details><summary>{len(items) - BIGGEST} more</summary>"
            f'<ul class="mistakes">{"".join(items[BIGGEST:])}</ul></details>'
        )
    return shown


def _move_table(
    record: GameRecord,
    states: Sequence[GameState],
    decisions: dict[int, dict[str, Any]],
    names: Sequence[str | None],
) -> str:
    players = record.players
    layout = states[0].layout
    head = "".join(
        f"<th>{_who(p, names, layout.player_colors[p - 1])}</th>" for p in range(1, players + 1)
    )
    rows = [f"<table><tr>{head}</tr>"]
    row: dict[int, str] = {}  # column (player, 0-based) -> cell of the current turn cycle

    def flush() -> None:
        if row:
            rows.append("<tr>" + "".join(row.get(c, "<td></td>") for c in range(players)) + "</tr>")
            row.clear()

    current_round = None
    for index, recorded in enumerate(record.moves):
        state = states[index]
        column = state.current_player()
        if state.round != current_round:
            flush()
            current_round = state.round
            rows.append(f'<tr><th class="round" colspan="{players}">Round {state.round}</th></tr>')
        if row and column <= max(row):
            flush()
        row[column] = _move_cell(index, str(recorded.move), decisions.get(index))
    flush()
    rows.append("</table>")
    return "".join(rows)


def _move_cell(index: int, played: str, decision: dict[str, Any] | None) -> str:
    mark = decision.get("mark") if decision else None
    tip = f"{index + 1}. {played}"
    alternative, established = _alternative(decision)
    if alternative:
        tip += f" · {'better' if established else 'engine'} {alternative}"
        tip += f" · −{number(decision.get('loss')) or 0.0:.1f} win-%"
    return (
        f'<td class="mv" data-frame="{index + 1}" title="{escape(tip)}">{escape(played)}'
        f'<span class="{mark_class(mark)}">{escape(mark or "")}</span></td>'
    )
