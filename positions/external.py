"""External bots: a program that plays one seat through the bot protocol (NOTATION.md,
"Bot protocol").

For each decision the program gets one line on standard input, the position string as its
seat sees it, and answers one line on standard output: a legal move in canonical notation.
An answer that is malformed, not canonical or not legal, the program exiting, or no answer
within the timeout makes the bot forfeit (``BotForfeit``).  What the program writes to
standard error is passed through to ours.  ``close()`` ends the game for the program: its
standard input is closed, and it is killed if it does not exit soon after.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
from collections.abc import Callable

import numpy as np

from positions.bots import BotForfeit
from positions.errors import ManhattanError, quote, shorten
from positions.moves import Move, parse_move
from positions.notation import write_position
from positions.state import GameState

_POSIX = os.name == "posix"
_LINUX = sys.platform.startswith("linux")
_PR_SET_PDEATHSIG = 1
EXIT_GRACE = 2.0  # seconds a program gets to exit after its standard input is closed
_EOF = None  # what the reader thread queues when the program's standard output ends


class ExternalBot:
    """A program speaking the bot protocol, started from ``command`` (a shell-like command
    line: split with ``shlex``, run without a shell).  ``timeout`` is the time allowed per
    answer, in seconds.  Raises ``ManhattanError`` when the program cannot be started."""

    def __init__(self, command: str, timeout: float = 30.0):
        self.command = command
        self.name = f"cmd:{command}"
        self.timeout = timeout
        try:
            argv = shlex.split(command)
        except ValueError as error:
            raise ManhattanError(f"bot command {command!r}: {error}") from None
        if not argv:
            raise ManhattanError("bot command is empty: expected cmd:<command line>")
        try:
            self._process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=None,  # passed through
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                start_new_session=_POSIX,  # its own process group, killed as a whole
                preexec_fn=_death_signal_setter(),
            )
        except OSError as error:
            raise ManhattanError(f"cannot start bot {command!r}: {error.strerror}") from None
        self._answers: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read_answers, daemon=True)
        self._reader.start()

    def _read_answers(self) -> None:
        """Queue each line the program writes, then ``_EOF`` when its output ends."""
        assert self._process.stdout is not None
        try:
            for line in self._process.stdout:
                self._answers.put(line)
        except (OSError, ValueError):  # the pipe was closed under us by close()
            pass
        self._answers.put(_EOF)

    def choose(self, view: GameState, rng: np.random.Generator) -> Move:
        """Send ``view`` as a position string and return the program's move.  Raises
        ``BotForfeit`` (with the reason) for a bad answer, an exit or a timeout."""
        del rng  # the program has its own randomness
        try:
            assert self._process.stdin is not None
            self._process.stdin.write(write_position(view) + "\n")
            self._process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise BotForfeit(self._exit_reason()) from None
        try:
            answer = self._answers.get(timeout=self.timeout)
        except queue.Empty:
            raise BotForfeit(f"no answer within {self.timeout:g} s") from None
        if answer is _EOF:
            raise BotForfeit(self._exit_reason())
        return check_answer(view, answer)

    def _exit_reason(self) -> str:
        try:
            code = self._process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return "the program closed its standard output"
        if code < 0:
            return f"the program was killed by signal {-code}"
        return f"the program exited (exit code {code})"

    def close(self) -> None:
        """Close the program's standard input and reap it, killing it if it has not exited
        within a couple of seconds.  Safe to call more than once."""
        process = self._process
        if process.stdin is not None and not process.stdin.closed:
            with contextlib.suppress(OSError, ValueError):
                process.stdin.close()
        try:
            process.wait(timeout=EXIT_GRACE)
        except subprocess.TimeoutExpired:
            _kill(process)
        self._reader.join(timeout=1.0)
        if process.stdout is not None and not self._reader.is_alive():
            process.stdout.close()


def _death_signal_setter() -> Callable[[], object] | None:
    """What the bot's process runs before the program starts, on Linux: ask the kernel to
    kill it when we die, however we end (a crash or SIGKILL included), so no bot outlives
    the game.  Made here, in our process, so the child only calls it."""
    if not _LINUX:
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return functools.partial(prctl, _PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def _kill(process: subprocess.Popen) -> None:
    """Kill the program and whatever it started in its process group, and reap it."""
    if _POSIX:
        with contextlib.suppress(OSError):
            os.killpg(process.pid, signal.SIGKILL)
    process.kill()
    process.wait()


def check_answer(view: GameState, answer: str) -> Move:
    """The move a bot's answer line names, if it is a legal move of ``view`` in canonical
    notation; otherwise raises ``BotForfeit`` saying what is wrong."""
    text = answer.strip()
    if not text:
        raise BotForfeit("answered an empty line")
    try:
        move = parse_move(text)
    except ManhattanError as error:
        raise BotForfeit(f"malformed answer {quote(text)}: {shorten(str(error))}") from None
    if str(move) != text:
        raise BotForfeit(f"answer {quote(text)} is not canonical (expected {str(move)!r})")
    if not view.is_legal(move):
        raise BotForfeit(f"illegal move {quote(text)}: {_why_illegal(view, move)}")
    return move


def _why_illegal(view: GameState, move: Move) -> str:
    try:
        view.clone().apply_move(move)
    except ManhattanError as error:
        return str(error)
    return "not among the legal moves"  # e.g. a pick sequence the state would accept
