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
from positions.state import GameState, Phase
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


def decisions_left(state: GameState) -> int:
    """The decisions still to come in ``state``'s game: every player's selection not yet
    made this round, every block selected and not yet placed, and every later round's
    (each player selects once a round and places each block selected)."""
    if state.is_terminal():
        return 0
    layout = state.layout
    per_round = layout.players * (1 + layout.blocks_per_turn_round())
    held = sum(state.selected)
    this_round = held
    if state.phase == Phase.SELECTION:
        waiting = sum(1 for p in range(layout.players) if state.blocks_held(p) == 0)
        this_round = held + waiting * (1 + layout.blocks_per_turn_round())
    return this_round + (layout.rounds - state.round) * per_round


def win_graph(table: Table, moves: Sequence[dict[str, Any]]) -> str | None:
    """The win-% graph of the people's moves the coach judged (None when there is none
    yet): one line per person, a point per move, larger when marked, over the whole game
    (``moves``: every decision so far, with its ``round``; the rest of the game's
    decisions are counted from the position now)."""
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
    layout = world.layout
    rounds = [m["round"] for m in moves]
    per_round = layout.players * (1 + layout.blocks_per_turn_round())
    left = decisions_left(world)
    this_round = left - (layout.rounds - world.round) * per_round
    for k in range(left):  # the rest of this round, then whole rounds
        later = 0 if k < this_round else 1 + (k - this_round) // per_round
        rounds.append(world.round + later)
    people = [
        GraphPlayer(p + 1, tuple(layout.player_colors[p]), table.names[p]) for p in table.people
    ]
    return win_graph_svg(points, len(rounds), rounds, people)
