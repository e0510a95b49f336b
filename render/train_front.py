"""The terminal front of ``manhattan train``: each exercise drawn from the player's seat,
the answers read (a move, ``hint``, ``skip``, ``quit``), the verdicts printed, and the
score at the end — also on end of input and Ctrl-C.  The session itself is
``analyzer.training.TrainingSession``.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console, Group
from rich.text import Text

from positions.loading import describe_position
from render.table_front import Lines
from render.terminal import board_grid, players_table
from render.terminal_table import hand_line

FEEDBACK_STYLES = {
    "right": "bold green",
    "wrong": "bold red",
    "skipped": "yellow",
    "hint": "cyan",
    "invalid": "yellow",
}


def exercise_view(session: Any) -> Group:
    """The current exercise: the question, the board from the player's seat, the players,
    their hand and where each card builds."""
    exercise = session.current
    data = describe_position(exercise.state)
    seat = data["seats"][exercise.player - 1]
    names = ["you" if p == exercise.player else "" for p in range(1, data["players"] + 1)]
    played = "".join(map(str, data["played"])) or "-"
    return Group(
        Text(session.question(), style="bold"),
        board_grid(data, seat),
        Text(
            f"board seen from your seat ({seat}), round {data['round']} of "
            f"{data['rounds']}, {data['phase']}",
            style="dim",
        ),
        players_table(data, names),
        Text(f"played: {played} · deck: {data['deck_count']} cards", style="dim"),
        hand_line(data["hands"][exercise.player - 1]),
    )


def train_in_terminal(session: Any, console: Console, lines: Lines | None = None) -> bool:
    """Ask ``session``'s exercises one by one on ``console`` until they are done, the input
    ends or the person quits; print how many were right.  Returns whether Ctrl-C (or
    SIGTERM) ended it."""
    lines = lines or Lines()
    interrupted = False
    try:
        while not session.finished:
            console.print(exercise_view(session))
            feedback = None
            while feedback is None or not feedback.done:
                feedback = session.answer(lines.read("your move (or hint, skip, quit)> "))
                for number, line in enumerate(feedback.lines):
                    style = FEEDBACK_STYLES.get(feedback.kind, "") if number == 0 else ""
                    console.print(Text(line, style=style), soft_wrap=True)
            console.print()
    except EOFError:
        console.print(Text("end of input", style="dim"))
    except KeyboardInterrupt:
        interrupted = True
    console.print(Text(f"Training: {session.summary.line}.", style="bold"))
    return interrupted
