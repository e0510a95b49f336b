"""The terminal front of a game at the table (``manhattan play --seat K``): it draws each
of the people's turns from their seat, reads their answers and commands (a move or its
number, ``hint``, ``undo``, ``moves``, ``board``, ``save FILE``, ``quit``, ``help``),
prints the bots' moves and the coach's feedback, and saves the record at the end — also on
end of input and Ctrl-C.  The game itself is ``analyzer.table.Table``; the pictures are
``render.terminal_table``.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from rich.console import Console

from search import stopping

INTERRUPTED_EXIT_CODE = 130


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """While the person is asked for input, Ctrl-C and SIGTERM raise ``KeyboardInterrupt``
    (elsewhere they ask the running search to stop, see ``search.stopping``)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught = (signal.SIGINT, signal.SIGTERM)
    previous = {sig: signal.signal(sig, signal.default_int_handler) for sig in caught}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


class Lines:
    """The person's answers: with line editing (prompt_toolkit) when both ends are a real
    terminal, plain lines otherwise (pipes, scripts, tests).  End of input raises
    ``EOFError``, Ctrl-C ``KeyboardInterrupt``."""

    def __init__(self) -> None:
        self._session: Any = None
        if sys.stdin.isatty() and sys.stdout.isatty():
            from prompt_toolkit import PromptSession

            self._session = PromptSession()

    def read(self, prompt: str) -> str:
        with interruptible():
            if self._session is not None:
                return self._session.prompt(prompt)
            sys.stdout.write(prompt)
            sys.stdout.flush()
            line = sys.stdin.readline()
        if not line:
            sys.stdout.write("\n")
            raise EOFError
        return line.rstrip("\r\n")


class TableFront:
    """The terminal side of a game at the table: draws each of the people's turns, reads
    their answers and commands, prints the bots' moves and the coach, saves at the end."""

    def __init__(
        self,
        table: Any,
        out: Path,
        force: bool,
        ready_engine: Callable[[], None],
        print_error: Callable[[str], None],
    ) -> None:
        self.table = table
        self.out = out
        self.force = force
        self.ready_engine = ready_engine
        self.print_error = print_error
        self.console = Console(highlight=False)
        self.lines = Lines()
        self._drawn: int | None = None  # the decision count when the turn was last drawn
        self._key = self._round_key()
        self._totals = table.world.player_totals()

    def say(self, message: str, style: str | None = None) -> None:
        """One message line (left to the terminal to wrap: it may hold a file name)."""
        from rich.text import Text

        self.console.print(Text(message, style=style or ""), soft_wrap=True)

    def run(self) -> int:
        """Play to the end, a quit, end of input or Ctrl-C; save; the exit code."""
        interrupted = False
        try:
            self._intro()
            while not self._finished():
                if self.table.offer is not None:
                    self._answer_offer()
                elif not self._turn():
                    break
        except EOFError:
            self.say("end of input: the game is saved and stopped", "dim")
        except KeyboardInterrupt:
            interrupted = True
        finally:
            saved = self._save_at_end()
            self.table.close()
        interrupted = interrupted or stopping.requested()
        if saved is None:
            return 1
        if interrupted:
            Console(stderr=True).print(
                f"interrupted: the game was saved to {saved}", style="yellow", soft_wrap=True
            )
            return INTERRUPTED_EXIT_CODE
        return 0

    def _intro(self) -> None:
        table = self.table
        data = table.to_json()
        from render.terminal_table import who

        seats = data["seats"]
        people = [f"P{s['player']} (seat {s['seat']})" for s in seats if s["kind"] == "human"]
        bots = [who(data, s["player"]) for s in seats if s["kind"] == "bot"]
        against = f" against {', '.join(bots)}" if bots else ""
        self.say(f"{' and '.join(people)} at the table{against}; seed {table.seed}.", "bold")
        if table.coaching:
            teach = (
                f"; it offers a take-back from {table.coach.settings.teach_threshold:g} win-% "
                "points lost"
                if table.teach
                else ""
            )
            self.say(f"The coach judges each of your moves{teach}.")
        self.say(f"The record will be saved to {self.out}. Type help for the commands.", "dim")

    def _finished(self) -> bool:
        """Play the bots' moves; whether the game is over.  A stop request (Ctrl-C during
        a search) raises ``KeyboardInterrupt``."""
        from render.terminal_table import bot_move_line

        def shown(move: Any) -> None:
            self.console.print(bot_move_line(self.table.to_json(), move.to_json()))
            self._scored()

        self.table.run_bots(should_stop=stopping.requested, on_move=shown)
        if stopping.requested():
            raise KeyboardInterrupt
        return self.table.is_over

    def _round_key(self) -> tuple[int, bool]:
        world = self.table.world
        return world.round, world.is_terminal()

    def _scored(self) -> None:
        """After a move: say so when it ended a round."""
        from render.terminal_table import round_scored_line

        if self._round_key() != self._key:
            data = self.table.to_json()
            self.console.print(round_scored_line(data, self._totals, self._key[0]))
        self._reset_round()

    def _reset_round(self) -> None:
        self._key = self._round_key()
        self._totals = self.table.world.player_totals()

    def _turn(self) -> bool:
        """One answer of the person to move; false when they quit."""
        from render.terminal_table import help_view, hint_view, moves_view, turn_view

        table = self.table
        if self._drawn != table.decisions:
            self.console.print(turn_view(table.to_json()))
            self._drawn = table.decisions
        seat = table.person_to_move
        line = self.lines.read(f"P{seat + 1}> ")
        word, _, rest = line.strip().partition(" ")
        command = word.lower()
        if command in ("quit", "exit"):
            return False
        if command in ("help", "?"):
            self.console.print(help_view())
        elif command == "hint":
            self.ready_engine()
            answer = table.hint()
            if answer.hint is None:
                self.say(answer.message, "yellow")
            else:
                self.console.print(hint_view(answer.hint.to_json()))
        elif command == "undo":
            answer = table.undo()
            self.say(answer.message, None if answer.ok else "yellow")
            if answer.ok:
                self._drawn = None
                self._reset_round()
        elif command == "moves":
            self.console.print(moves_view(table.to_json(), full=True))
        elif command == "board":
            self._drawn = None
        elif command == "save":
            self._save(rest.strip())
        else:
            self._move(line)
        return True

    def _move(self, text: str) -> None:
        from render.terminal_table import feedback_view

        answer = self.table.submit(text)
        if not answer.ok:
            self.say(answer.message, "yellow")
            return
        self.say(f"you play {answer.move}", "bold")
        if answer.feedback is not None:
            self.console.print(feedback_view(answer.feedback.to_json()))
        self._scored()

    def _answer_offer(self) -> None:
        """Teaching mode: ask whether to take the costly move back."""
        offer = self.table.offer
        reply = self.lines.read(f"take {offer.played} back? [Y/n] ").strip().lower()
        if reply in ("", "y", "yes"):
            answer = self.table.take_back()
            self._drawn = None
            self._reset_round()
        elif reply in ("n", "no"):
            answer = self.table.keep()
        else:
            self.say("answer y (take it back) or n (keep it)", "yellow")
            return
        self.say(answer.message)

    def _save(self, name: str) -> None:
        """``save FILE``: save now, and from then on to FILE."""
        path = Path(name) if name else self.out
        answer = self.table.save(path, force=self.force and path == self.out)
        self.say(answer.message, None if answer.ok else "yellow")
        if answer.ok:
            self.out = path

    def _save_at_end(self) -> Path | None:
        """Save the record; on failure print it, so the game is not lost."""
        from render.terminal_table import final_view

        answer = self.table.save(self.out, force=self.force)
        if not answer.ok:
            self.print_error(answer.message)
            sys.stdout.write(self.table.record_text())
            return None
        if self.table.is_over:
            self.console.print(final_view(self.table.to_json()))
            self.say(f"record saved to {self.out}; review it with: manhattan review {self.out}")
        else:
            self.say(
                f"the game so far ({self.table.decisions} decisions) is saved to {self.out}",
                "bold",
            )
        return self.out
