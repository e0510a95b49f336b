"""Bots from spec strings, as users write them on the command line (``--bots a,b,c``).

Known specs: ``random``, ``greedy``, ``heuristic`` (``positions.bots``),
``mcts:<budget>`` (``analyzer.search_bot``; e.g. ``mcts:1s``, ``mcts:5000``),
``cmd:<command line>`` (an external program speaking the bot protocol,
``positions.external``) and ``level:<1-5>`` (a strength level, ``analyzer.levels``).  A
spec names a kind and, after the first ``:``, its argument; a new kind is one entry in
``BOT_KINDS``.
"""

from __future__ import annotations

import shlex
import shutil
from collections.abc import Callable
from pathlib import Path

from positions.bots import Bot, GreedyBot, HeuristicBot, RandomBot
from positions.errors import ManhattanError, quote
from positions.external import ExternalBot

DEFAULT_BOT_TIMEOUT = 30.0
MAX_BOT_TIMEOUT = 3600.0  # an hour per answer


def _plain(factory: Callable[[], Bot]) -> Callable[[str, str, float], Bot]:
    def make(spec: str, argument: str, timeout: float) -> Bot:
        if argument:
            raise ManhattanError(
                f"bot spec {quote(spec)}: {spec.partition(':')[0]} takes no argument"
            )
        return factory()

    return make


def _search(spec: str, argument: str, timeout: float) -> Bot:
    from analyzer.search_bot import SearchBot  # the search loads numba: only when asked

    if not argument:
        raise ManhattanError(
            f"bot spec {quote(spec)}: expected mcts:<budget>, e.g. mcts:1s or mcts:5000"
        )
    return SearchBot.from_budget(argument, spec.strip())


def _level(spec: str, argument: str, timeout: float) -> Bot:
    from analyzer.levels import TOP_LEVEL, LevelBot, level

    try:
        chosen = level(argument)
    except ManhattanError:
        raise ManhattanError(
            f"bot spec {quote(spec)}: expected level:1 to level:{TOP_LEVEL}"
        ) from None
    return LevelBot(chosen, make_bot(chosen.spec, timeout))


def _command(spec: str, argument: str, timeout: float) -> Bot:
    _command_argv(spec, argument)
    return ExternalBot(argument, timeout=timeout)


def _command_argv(spec: str, argument: str) -> list[str]:
    """The argument list of a ``cmd:`` spec, checked to name a program that exists."""
    try:
        argv = shlex.split(argument)
    except ValueError as error:
        raise ManhattanError(f"bot spec {quote(spec)}: {error}") from None
    if not argv:
        raise ManhattanError(f"bot spec {quote(spec)}: expected cmd:<command line>")
    program = argv[0]
    if shutil.which(program) is None and not Path(program).is_file():
        raise ManhattanError(f"bot spec {quote(spec)}: program {quote(program)} not found")
    return argv


# kind -> (how the spec is written, factory(spec, argument, timeout))
BOT_KINDS: dict[str, tuple[str, Callable[[str, str, float], Bot]]] = {
    "random": ("random", _plain(RandomBot)),
    "greedy": ("greedy", _plain(GreedyBot)),
    "heuristic": ("heuristic", _plain(HeuristicBot)),
    "mcts": ("mcts:<budget>", _search),
    "cmd": ("cmd:<command line>", _command),
    "level": ("level:<1-5>", _level),
}


def _split(spec: str) -> tuple[str, str]:
    kind, _, argument = spec.strip().partition(":")
    if kind not in BOT_KINDS:
        known = ", ".join(form for form, _ in BOT_KINDS.values())
        raise ManhattanError(f"unknown bot spec {quote(spec)}: expected one of {known}")
    return kind, argument.strip()


def check_bot_spec(spec: str) -> None:
    """Check ``spec`` before a match: a ``cmd:`` program must exist (it is not started);
    any other bot is made and closed.  Raises ``ManhattanError`` with a one-line message."""
    kind, argument = _split(spec)
    if kind == "cmd":
        _command_argv(spec, argument)
    else:
        make_bot(spec).close()


def check_bot_timeout(seconds: float) -> float:
    """``seconds`` if it is a usable per-answer timeout (0.1 s to an hour); else raises
    ``ManhattanError``."""
    if not (isinstance(seconds, int | float) and 0.1 <= seconds <= MAX_BOT_TIMEOUT):
        raise ManhattanError(
            f"bot timeout must be 0.1 to {MAX_BOT_TIMEOUT:g} seconds, not {seconds}"
        )
    return float(seconds)


def bot_specs(players: int, bots: str | None = None, bot: list[str] | None = None) -> list[str]:
    """One bot spec per seat, from a comma-separated list (``--bots a,b,c``) or one spec
    per seat (``--bot SPEC`` repeated, for command lines holding commas).  One spec seats
    that bot everywhere; none seats ``greedy`` everywhere.  Raises ``ManhattanError`` for
    both forms at once, an empty spec or a count that fits no table."""
    if bots is not None and bot:
        raise ManhattanError("give the bots with --bots or with --bot, not both")
    if bot:
        specs = [spec.strip() for spec in bot]
    elif bots is not None:
        specs = [spec.strip() for spec in bots.split(",")]
    else:
        specs = ["greedy"]
    if any(not spec for spec in specs):
        raise ManhattanError(f"--bots {quote(bots or '')}: empty bot spec")
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise ManhattanError(
            f"{len(specs)} bots for {players} players: give one bot per seat, or one for all"
        )
    return specs


def make_bots(specs: list[str], bot_timeout: float = DEFAULT_BOT_TIMEOUT) -> list[Bot]:
    """The bots ``specs`` name, one per seat (external programs started); if one cannot be
    made, those already made are closed and the ``ManhattanError`` raised."""
    made: list[Bot] = []
    try:
        for spec in specs:
            made.append(make_bot(spec, bot_timeout))
    except BaseException:
        for bot in made:
            bot.close()
        raise
    return made


def make_bot(spec: str, bot_timeout: float = DEFAULT_BOT_TIMEOUT) -> Bot:
    """The bot ``spec`` names; ``bot_timeout`` is the seconds an external program gets per
    answer.  Starts the program of a ``cmd:`` spec.  Raises ``ManhattanError`` (one line)
    for an unknown or malformed spec or a program that cannot be started."""
    kind, argument = _split(spec)
    return BOT_KINDS[kind][1](spec, argument, check_bot_timeout(bot_timeout))


HUMAN_SPEC = "human"  # a seat played by a person (``manhattan play``), not a bot


def table_specs(
    players: int, bots: str | None, bot: list[str] | None, seat: int | None, level: int | None
) -> list[str]:
    """One spec per seat.  ``--seat K`` seats a person at K and ``--bots`` (or ``--bot``)
    names the other seats in seat order, one spec for all of them also works; ``--level
    N`` stands for ``--bots level:N``; ``human`` may be named among the bots."""
    if level is not None:
        if bots is not None or bot:
            raise ManhattanError("give --level or --bots/--bot, not both")
        bots = f"level:{level}"
    if seat is None:
        return bot_specs(players, bots, bot)
    if not 1 <= seat <= players:
        raise ManhattanError(f"--seat {seat}: a {players}-player game has seats 1-{players}")
    given = bot if bot else (bots.split(",") if bots is not None else [])
    if len(given) not in (0, 1, players - 1):
        raise ManhattanError(
            f"--seat {seat}: --bots names the {players - 1} other seats in seat order "
            f"(or one spec for all of them), not {len(given)}"
        )
    others = bot_specs(players - 1, bots, bot)
    return others[: seat - 1] + [HUMAN_SPEC] + others[seat - 1 :]
