"""Bots from spec strings, as users write them on the command line (``--bots a,b,c``).

Known specs: ``random``, ``greedy``, ``heuristic`` (``positions.bots``),
``mcts:<budget>`` (``analyzer.search_bot``; e.g. ``mcts:1s``, ``mcts:5000``) and
``cmd:<command line>`` (an external program speaking the bot protocol,
``positions.external``).  A spec names a kind and, after the first ``:``, its argument; a
new kind is one entry in ``BOT_KINDS``.
"""

from __future__ import annotations

import shlex
import shutil
from collections.abc import Callable
from pathlib import Path

from positions.bots import Bot, GreedyBot, HeuristicBot, RandomBot
from positions.errors import ManhattanError
from positions.external import ExternalBot

DEFAULT_BOT_TIMEOUT = 30.0


def _plain(factory: Callable[[], Bot]) -> Callable[[str, str, float], Bot]:
    def make(spec: str, argument: str, timeout: float) -> Bot:
        if argument:
            raise ManhattanError(f"bot spec {spec!r}: {spec.partition(':')[0]} takes no argument")
        return factory()

    return make


def _search(spec: str, argument: str, timeout: float) -> Bot:
    from analyzer.search_bot import SearchBot  # the search loads numba: only when asked

    if not argument:
        raise ManhattanError(
            f"bot spec {spec!r}: expected mcts:<budget>, e.g. mcts:1s or mcts:5000"
        )
    return SearchBot.from_budget(argument, spec.strip())


def _command(spec: str, argument: str, timeout: float) -> Bot:
    _command_argv(spec, argument)
    return ExternalBot(argument, timeout=timeout)


def _command_argv(spec: str, argument: str) -> list[str]:
    """The argument list of a ``cmd:`` spec, checked to name a program that exists."""
    try:
        argv = shlex.split(argument)
    except ValueError as error:
        raise ManhattanError(f"bot spec {spec!r}: {error}") from None
    if not argv:
        raise ManhattanError(f"bot spec {spec!r}: expected cmd:<command line>")
    program = argv[0]
    if shutil.which(program) is None and not Path(program).is_file():
        raise ManhattanError(f"bot spec {spec!r}: program {program!r} not found")
    return argv


# kind -> (how the spec is written, factory(spec, argument, timeout))
BOT_KINDS: dict[str, tuple[str, Callable[[str, str, float], Bot]]] = {
    "random": ("random", _plain(RandomBot)),
    "greedy": ("greedy", _plain(GreedyBot)),
    "heuristic": ("heuristic", _plain(HeuristicBot)),
    "mcts": ("mcts:<budget>", _search),
    "cmd": ("cmd:<command line>", _command),
}


def _split(spec: str) -> tuple[str, str]:
    kind, _, argument = spec.strip().partition(":")
    if kind not in BOT_KINDS:
        known = ", ".join(form for form, _ in BOT_KINDS.values())
        raise ManhattanError(f"unknown bot spec {spec!r}: expected one of {known}")
    return kind, argument.strip()


def check_bot_spec(spec: str) -> None:
    """Check ``spec`` before a match: a ``cmd:`` program must exist (it is not started);
    any other bot is made and closed.  Raises ``ManhattanError`` with a one-line message."""
    kind, argument = _split(spec)
    if kind == "cmd":
        _command_argv(spec, argument)
    else:
        make_bot(spec).close()


def make_bot(spec: str, bot_timeout: float = DEFAULT_BOT_TIMEOUT) -> Bot:
    """The bot ``spec`` names; ``bot_timeout`` is the seconds an external program gets per
    answer.  Starts the program of a ``cmd:`` spec.  Raises ``ManhattanError`` (one line)
    for an unknown or malformed spec or a program that cannot be started."""
    kind, argument = _split(spec)
    return BOT_KINDS[kind][1](spec, argument, bot_timeout)
