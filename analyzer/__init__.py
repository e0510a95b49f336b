"""What players come for: analysis of a position, game review, puzzle solving, matches.

Joins ``positions`` (the game) and ``search`` (the engine).  The Python API in brief
(python-chess's engine module is the model)::

    import analyzer
    from search.limits import Limit

    analysis = analyzer.analyze("<position string>", limit=Limit(iterations=20_000), seed=1)
    print(analysis.best.move, analysis.best.win, analysis.best.win_low, analysis.best.win_high)

The heavy modules (numba, the search) load on the first call, not on import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from analyzer.engine import Analysis
    from positions.state import GameState
    from search.limits import Limit


def analyze(
    position: str | GameState,
    limit: Limit | None = None,
    *,
    workers: int = 1,
    seed: int = 0,
) -> Analysis:
    """Analyze ``position`` (a position string, a file name as ``manhattan analyze`` takes,
    or a ``GameState``) for its player to move, from that player's information only.

    ``limit`` is the budget (default: 5 s of wall time); with an iteration budget, the same
    ``seed`` and ``workers`` give the same ``Analysis``: ``best``, every candidate with
    ``visits``, ``win`` and its 95 % interval ``win_low``–``win_high``, ``score``,
    ``margin``, ``equal_to_best`` and ``reason``; the expected ``line``; and what it cost.
    Raises ``positions.errors.ManhattanError`` for a position that cannot be analyzed.
    """
    from analyzer.engine import EngineSettings, default_limit
    from analyzer.engine import analyze as run_analysis
    from positions.loading import load_position

    state = load_position(position) if isinstance(position, str) else position
    settings = EngineSettings(limit=limit or default_limit(), workers=workers, seed=seed)
    settings.parallelism()
    return run_analysis(state, settings)


__all__ = ["analyze"]
