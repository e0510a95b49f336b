"""A frozen engine's search as a bot-protocol program (NOTATION.md, "Bot protocol").

Run by the frozen environment's Python in isolated mode (``benchmarks/frozen.py`` builds
it and writes the command line): it imports only the frozen commit's packages, so it must
not use anything newer than their API (v0.1: ``SearchBot(Limit(iterations=N))`` and
``choose(view, rng)``).  One random generator, seeded by ``--seed``, serves every decision
of the game; each decision is a search of ``--iterations`` iterations.

    python -I frozen_bot.py --iterations 6000 --seed 7   < one position line per decision
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

import analyzer
from analyzer.search_bot import SearchBot
from positions.errors import ManhattanError
from positions.notation import parse_position
from search.limits import Limit


def main(argv: list[str] | None = None) -> int:
    """Answer each position line on standard input with the searched move, one line each,
    until standard input closes.  Exit code 1, with a one-line reason on standard error,
    for a position the frozen code cannot read or packages that are not the frozen ones."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    args = parser.parse_args(argv)
    if not analyzer.__file__.startswith(sys.prefix):
        print(
            f"frozen_bot: the packages come from {analyzer.__file__}, not the frozen "
            f"environment {sys.prefix} (run it with that Python and -I)",
            file=sys.stderr,
        )
        return 1
    bot = SearchBot(Limit(iterations=args.iterations), name="frozen")
    rng = np.random.default_rng(args.seed)
    for line in sys.stdin:
        text = line.strip()
        if not text:
            continue
        try:
            view = parse_position(text)
        except ManhattanError as error:
            print(f"frozen_bot: cannot read the position {text!r}: {error}", file=sys.stderr)
            return 1
        print(bot.choose(view, rng), flush=True)
    bot.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
