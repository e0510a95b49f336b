"""The pictures of the page: the board of a game (now or after any earlier decision),
of an exercise, and the win-% graph of the person's moves, all drawn by ``render``.

Boards are embedded in the page (``standalone=False``; the page states ``BOARD_CSS``
once).  On the current board the moves since the viewer's last own move are marked: that
move (solid) and each reply after it (dotted, labelled with its player), and a hint (the
engine's move, dashed).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from analyzer.table import Table
from positions.state import GameState
from render.graph import GraphPlayer, win_graph_svg
from render.svg import Highlight, board_svg

MAX_MARKS = 8  # moves marked on one board at most


def player_names(table: Table) -> list[str]:
    """The names the board labels the players with: "you" for the viewer."""
    viewer = table.viewer()
    return ["you" if p == viewer else table.names[p] for p in range(table.players)]


def recent_highlights(table: Table) -> list[Highlight]:
    """The viewer's last own move and every move after it."""
    history = table.history()
    viewer = table.viewer() + 1
    own = [i for i, h in enumerate(history) if h["person"] and h["player"] == viewer]
    start = own[-1] if own else max(0, len(history) - table.players + 1)
    marks = []
    for entry in history[start:][-MAX_MARKS:]:
        player = entry["player"]
        if entry["person"] and player == viewer:
            marks.append(Highlight(entry["move"], "played", player, caption="your move"))
        else:
            marks.append(
                Highlight(entry["move"], "candidate", player, f"P{player}", f"P{player}'s move")
            )
    return marks


def game_board(table: Table, hint: str | None = None) -> str:
    """The current board from the viewer's seat, with the recent moves and ``hint``."""
    marks = recent_highlights(table)
    if hint is not None:
        marks.append(Highlight(hint, "engine", table.viewer() + 1, caption="hint"))
    return board_svg(
        table.view(), table.viewer() + 1, marks, names=player_names(table), standalone=False
    )


def marked_board(
    state: GameState,
    viewer: int,
    names: Sequence[str],
    played: tuple[int, str] | None,
    marks: Sequence[str],
) -> str:
    """``state`` from 0-based ``viewer``'s seat (their view only): the move ``played``
    (``(player, move)``) solid and ``marks`` (moves of the player to move: an analysis's
    candidates, best first) dashed, then dotted with their rank."""
    highlights = []
    if played is not None:
        highlights.append(Highlight(played[1], "played", played[0]))
    for rank, move in enumerate(marks[:MAX_MARKS], start=1):
        kind = "engine" if rank == 1 else "candidate"
        highlights.append(Highlight(move, kind, None, str(rank)))
    return board_svg(state.view(viewer), viewer + 1, highlights, names=names, standalone=False)


def decisions_in_game(state: GameState) -> int:
    """How many decisions a whole game of ``state``'s size has: every player selects
    once a round and places (or gives up) each block selected."""
    layout = state.layout
    return layout.rounds * layout.players * (1 + layout.blocks_per_turn_round())


def win_graph(table: Table) -> str | None:
    """The win-% graph of the people's moves the coach judged (None when there is none
    yet): one line per person, a point per move, larger when marked."""
    points = [
        {
            "index": h["index"],
            "player": h["player"],
            "win_after": h["win"],
            "mark": h["mark"],
            "played": h["move"],
        }
        for h in table.history()
        if h["person"] and h["win"] is not None
    ]
    if not points:
        return None
    world = table.world
    total = max(decisions_in_game(world), points[-1]["index"] + 1)
    per_round = total // world.layout.rounds
    rounds = [i // per_round + 1 for i in range(total)]
    people = [
        GraphPlayer(p + 1, tuple(world.layout.player_colors[p]), table.names[p])
        for p in table.people
    ]
    return win_graph_svg(points, total, rounds, people)


def graph_points(table: Table) -> list[dict[str, Any]]:
    """The figures behind the graph, for the page's move list."""
    return [h for h in table.history() if h["person"] and h["win"] is not None]
