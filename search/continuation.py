"""The line a search expects beyond its tree: the playouts' most common continuation.

A search whose tree stops at the root decision (``SearchConfig.decision_depth`` 1) leaves
every reply to the playouts, so its tree names no line.  What the search expects after its
choice is then what its playouts most often play: deal worlds the observer cannot tell
from the real one, play the chosen decision and let the evaluator play on, then take the
most common next decision, the most common one after it among the worlds that played it,
and so on.  Each move of the line counts the worlds that played it and the observer's
mean win share at their end.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from search.protocol import GameState
from search.results import LineMove, name_and_play

Decision = tuple[int, tuple[int, ...]]  # (player, actions)


def playout_line(
    state: GameState,
    first: Sequence[int],
    evaluator,
    rng: np.random.Generator,
    worlds: int = 48,
    decisions: int = 3,
) -> list[LineMove]:
    """The ``decisions`` moves the evaluator's playouts most often play after the player
    to move in ``state`` plays ``first`` (one whole decision), over ``worlds`` dealt
    worlds; moves are named in that player's view.  Empty when the evaluator has no
    ``continuation(world, rng)`` method (the actions of one playout from ``world`` and
    its win shares) or the game ends with ``first``."""
    continuation = getattr(evaluator, "continuation", None)
    if continuation is None:
        return []
    observer = state.current_player()
    played: list[tuple[list[Decision], float]] = []
    for _ in range(worlds):
        world = state.resample_from_infostate(observer, rng)
        for action in first:
            world.apply_action(action)
        if world.is_terminal():
            return []
        actions, wins = continuation(world, rng)
        played.append((_decisions(world, actions, decisions), float(wins[observer])))
    return _most_common_line(state.view(observer), first, played, decisions)


def _decisions(world: GameState, actions: Sequence[int], count: int) -> list[Decision]:
    """The first ``count`` whole decisions that ``actions`` make from ``world``."""
    replay = world.clone()
    found: list[Decision] = []
    current: list[int] = []
    for action in actions:
        player = replay.current_player()
        replay.apply_action(action)
        current.append(action)
        if not replay.move_in_progress():
            found.append((player, tuple(current)))
            current = []
            if len(found) == count:
                break
    return found


def _most_common_line(
    view: GameState,
    first: Sequence[int],
    played: list[tuple[list[Decision], float]],
    count: int,
) -> list[LineMove]:
    position = view.clone()
    for action in first:
        position.apply_action(action)
    line: list[LineMove] = []
    for depth in range(count):
        counts = Counter(seq[depth] for seq, _ in played if len(seq) > depth)
        if not counts:
            break
        (player, actions), worlds = counts.most_common(1)[0]
        played = [
            (seq, win)
            for seq, win in played
            if len(seq) > depth and seq[depth] == (player, actions)
        ]
        text = name_and_play(position, actions)
        if text is None:
            break
        line.append(LineMove(player, text, worlds, sum(win for _, win in played) / worlds))
        if position.is_terminal():
            break
    return line
