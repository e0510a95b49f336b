"""Stopping long work on request: Ctrl-C (SIGINT) and SIGTERM become a request to stop that
every search loop, review, match and game polls, so each ends soon with what it has.

The request is process-wide, as signals are.  ``requested()`` is what loops poll; it is true
once ``request()`` was called in this process (by the signal handlers ``on_signals``
installs) or once any check added with ``watching`` says so — a helper process watches the
stop flag its parent shares with it, so a stop in the parent reaches searches running there.
Listeners (``add_listener``) are told at once, from the signal handler: the helper pool
uses one to stop its workers even while the parent is blocked waiting for them.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator

_requested = False
_checks: list[Callable[[], bool]] = []
_listeners: list[Callable[[], None]] = []
_last_words: list[Callable[[], None]] = []
_signals_received: list[int] = []
FORCED_EXIT_CODE = 130


def requested() -> bool:
    """Whether this process was asked to stop (a signal, ``request()`` or a watched check)."""
    if _requested:
        return True
    return any(check() for check in _checks)


def request() -> None:
    """Ask every loop in this process to stop, and tell the listeners."""
    global _requested
    _requested = True
    for listener in list(_listeners):
        listener()


def reset() -> None:
    """Forget an earlier request (a new piece of work starts)."""
    global _requested
    _requested = False
    _signals_received.clear()


def start_afresh() -> None:
    """Forget everything inherited from a parent: a forked process starts with a copy of
    the parent's request, checks and last words, which are the parent's, not its own (a
    check the parent was watching when it forked would otherwise stop this process's work
    for ever once it turns true)."""
    reset()
    _checks.clear()
    _last_words.clear()


def signal_received() -> int | None:
    """The first signal that asked to stop since the last ``reset()``, if any."""
    return _signals_received[0] if _signals_received else None


def add_listener(listener: Callable[[], None]) -> None:
    """Call ``listener()`` whenever a stop is requested (it must be quick and not raise)."""
    _listeners.append(listener)


@contextlib.contextmanager
def watching(check: Callable[[], bool]) -> Iterator[None]:
    """While active, ``requested()`` is also true when ``check()`` is."""
    _checks.append(check)
    try:
        yield
    finally:
        _checks.remove(check)


def add_last_words(action: Callable[[], None]) -> None:
    """Run ``action()`` (quick, e.g. killing a child process group) before a forced exit."""
    _last_words.append(action)


def remove_last_words(action: Callable[[], None]) -> None:
    """Forget an ``add_last_words`` action."""
    if action in _last_words:
        _last_words.remove(action)


def _force_exit() -> None:
    """A second signal: the user does not want to wait.  Clean up what must not outlive
    this process and leave at once."""
    for action in list(_last_words):
        with contextlib.suppress(Exception):  # nothing may keep the process alive now
            action()
    os.write(2, b"interrupted again: stopped at once\n")
    os._exit(FORCED_EXIT_CODE)


def _on_signal(signum: int, frame: object) -> None:
    if _signals_received:
        _force_exit()
    _signals_received.append(signum)
    request()


@contextlib.contextmanager
def on_signals(signals: tuple[int, ...] = (signal.SIGINT, signal.SIGTERM)) -> Iterator[None]:
    """While active, the ``signals`` (default Ctrl-C and SIGTERM) request a stop instead of
    raising ``KeyboardInterrupt`` or ending the process; a second one ends the process at
    once (exit code 130) after the ``add_last_words`` actions.  Only in the main thread
    (elsewhere signals cannot be handled, and this does nothing)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, _on_signal) for sig in signals}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
