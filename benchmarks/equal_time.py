"""Equal time against another engine: how many of today's iterations take as long as N of
v0.1's (or of another engine's, ``--engine``), so the ladder can seat both at equal
seconds with iteration budgets (which a loaded machine cannot change) instead of
wall-clock ones.

Both engines choose on the same decisions: every ``--every``-th decision of ``--games``
4-player games between greedy bots (selections and placements alike, as they come in a
game), each seen from the player to move.  Today's engine is the ``mcts:N`` bot in this
process; v0.1 is its ``cmd:`` bot (``frozen.py``), timed through the bot protocol as the
ladder seats it; ``--engine SPEC`` times a ladder seat spec instead (``{iterations}``
filled in, e.g. ``'py:variants:engine:{iterations};placement=imitation'``).  Each
decision is timed once per engine, the two in alternating order, after one untimed
warm-up decision each (compilation, the program's start).

Reports seconds per decision of each, the ratio, and ``equal_time_iterations``: today's
budget that takes as long as the other engine's N (N × ratio, rounded to a hundred).  Run it on a
quiet machine: the ratio is the measurement, and other work changes it.

    python benchmarks/equal_time.py [--iterations 6000] [--games 2] [--every 4]
        [--engine frozen:v0.1] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

import numpy as np
from frozen import frozen_engine
from ladder import seat_bot

from analyzer.players import make_bot
from positions.bots import Bot, GreedyBot
from positions.errors import ManhattanError
from positions.state import GameState

PLAYERS = 4


def decisions(games: int, every: int, seed: int = 2026) -> list[GameState]:
    """Every ``every``-th decision of ``games`` greedy 4-player games, as the mover's view."""
    views = []
    bot = GreedyBot()
    for game in range(games):
        rng = np.random.default_rng([seed, game])
        world = GameState.new_game(PLAYERS, rng)
        step = 0
        while not world.is_terminal():
            view = world.view(world.current_player())
            if step % every == 0:
                views.append(view)
            world.apply_move(bot.choose(view, rng))
            step += 1
    return views


def seconds_per_decision(bot: Bot, view: GameState, seed: int) -> float:
    """Wall seconds of ``bot``'s choice on ``view``."""
    started = time.perf_counter()
    bot.choose(view.clone(), np.random.default_rng(seed))
    return time.perf_counter() - started


FROZEN = "frozen:v0.1"


def other_bot(engine: str, iterations: int) -> Bot:
    """The engine timed against today's: v0.1 through its ``cmd:`` bot, or a ladder seat
    spec with ``{iterations}`` filled in."""
    if engine == FROZEN:
        return make_bot(frozen_engine("v0.1").bot_spec(iterations, 1), bot_timeout=600)
    return seat_bot(engine.replace("{iterations}", str(iterations)))


def measure(iterations: int, games: int, every: int, engine: str = FROZEN) -> dict:
    """Time both engines at ``iterations`` on the same decisions (see the module doc)."""
    views = decisions(games, every)
    today = make_bot(f"mcts:{iterations}")
    other = other_bot(engine, iterations)
    try:
        seconds_per_decision(today, views[0], 0)
        seconds_per_decision(other, views[0], 0)
        times: dict[str, list[float]] = {"today": [], "other": []}
        for index, view in enumerate(views):
            order = [("today", today), ("other", other)]
            for name, bot in order if index % 2 == 0 else reversed(order):
                times[name].append(seconds_per_decision(bot, view, index))
    finally:
        today.close()
        other.close()
    today_s, other_s = (statistics.fmean(times[name]) for name in ("today", "other"))
    ratio = other_s / today_s
    return {
        "iterations": iterations,
        "decisions": len(views),
        "engine": engine,
        "today_seconds_per_decision": round(today_s, 3),
        "other_seconds_per_decision": round(other_s, 3),
        "ratio": round(ratio, 3),
        "equal_time_iterations": int(round(iterations * ratio, -2)),
    }


def main(argv: list[str] | None = None) -> int:
    """Measure and print; errors end as one line, exit 1."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=6000)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--every", type=int, default=4)
    parser.add_argument("--engine", default=FROZEN, help="the engine timed against today's")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        if min(args.iterations, args.games, args.every) < 1:
            raise ManhattanError("--iterations, --games and --every must be at least 1")
        result = measure(args.iterations, args.games, args.every, args.engine)
    except ManhattanError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(
            f"{result['decisions']} decisions at {args.iterations} iterations: today "
            f"{result['today_seconds_per_decision']} s, {args.engine} "
            f"{result['other_seconds_per_decision']} s, ratio {result['ratio']}: today's "
            f"{result['equal_time_iterations']} iterations take {args.engine}'s "
            f"{args.iterations}'s time"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
