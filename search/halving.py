"""Sequential halving at the root: a budget split into rounds, the worse half of the root
player's first actions dropped after each (Karnin, Koren & Somekh 2013; the root of Gumbel
MuZero, Danihelka et al. 2022).

UCB spreads visits to keep its *cumulative* regret small, but only the action finally
played matters at the root (simple regret), which halving serves better for the same
budget.  Each round deals worlds the observer cannot tell from the real one and, in each
world, runs one MCTS iteration of every surviving action legal there, all from the same
playout seed (common random numbers), so the survivors are compared on the same luck.
Below the root action each iteration goes on as the tree search does (so a selection made
of several picks is completed by UCB, and the line below the best action grows).

With ``k`` first actions the budget goes to ``ceil(log2 k)`` rounds of equal size; once one
action is left it gets what remains.  With a wall-time budget the iterations still to come
are estimated from the rate so far, at the start of each round.
"""

from __future__ import annotations

import math
import time

import numpy as np

from search.tree import Node

MAX_EMPTY_WORLDS = 100  # worlds dealt in a row where no surviving action is legal


class HalvingPlan:
    """The state of one search's sequential halving: the surviving root actions, the
    current round's quota of worlds, and the world whose iterations are under way."""

    def __init__(self) -> None:
        self.alive: list[int] | None = None  # None until the first world names the actions
        self.dropped: set[int] = set()
        self.rounds_left = 0
        self.round_worlds = 1  # worlds of the current round (1 until a rate is known)
        self.planned = False  # whether the round's quota came from a known budget or rate
        self.worlds_done = 0  # worlds finished in the current round
        self.queue: list[int] = []  # actions still to run in the current world
        self.world = None
        self.seed = 0
        self.started = time.monotonic()

    @property
    def settled(self) -> bool:
        """Whether one action is left (it gets every iteration from now on)."""
        return self.alive is not None and len(self.alive) == 1

    def next_action(
        self,
        root: Node,
        deal,
        rng: np.random.Generator,
        done: int,
        budget: int | None,
        deadline: float | None,
    ) -> tuple[int, object, int]:
        """The root action of the next iteration, the world to run it in (the caller
        clones it) and the playout seed.  ``deal()`` deals a new world; ``done`` is the
        iterations run so far; ``budget`` and ``deadline`` the search's limits."""
        tries = 0
        while not self.queue:
            if self.alive is not None and not self.planned:
                self._plan(done, budget, deadline)  # the first world measured the rate
            if self.alive is not None and self.worlds_done >= self.round_worlds:
                self._cut(root, done, budget, deadline)
            self.world = deal()
            self.seed = int(rng.integers(2**63))
            legal = self.world.legal_actions()
            if self.alive is None:
                self.alive = list(legal)
                self.rounds_left = max(1, math.ceil(math.log2(max(len(legal), 1))))
                self._plan(done, budget, deadline)
            else:  # an action legal only in some worlds joins when first seen
                seen = set(self.alive) | self.dropped
                self.alive.extend(a for a in legal if a not in seen)
            tries += 1
            self.queue = [a for a in reversed(legal) if a not in self.dropped]
            if not self.queue and tries >= MAX_EMPTY_WORLDS:
                self.queue = list(reversed(legal))  # never stall: play what is legal
            if self.queue:
                self.worlds_done += 1
        return self.queue.pop(), self.world, self.seed

    def best(self, root: Node) -> int | None:
        """The surviving action with the best mean reward so far (None before any)."""
        if not self.alive:
            return None
        return max(self.alive, key=lambda a: _mean(root, a))

    def _cut(self, root: Node, done: int, budget: int | None, deadline: float | None) -> None:
        """End the round: keep the better half of the survivors; plan the next round."""
        if len(self.alive) > 1:
            ranked = sorted(self.alive, key=lambda a: -_mean(root, a))
            self.alive = ranked[: math.ceil(len(ranked) / 2)]
            self.dropped.update(ranked[len(self.alive) :])
            self.rounds_left = max(self.rounds_left - 1, 1)
        self.worlds_done = 0
        self._plan(done, budget, deadline)

    def _plan(self, done: int, budget: int | None, deadline: float | None) -> None:
        """Set this round's quota of worlds from the iterations left (known, or estimated
        from the rate so far and the deadline)."""
        left = _iterations_left(done, budget, deadline, self.started)
        self.planned = left is not None
        if left is None:
            self.round_worlds = 1
            return
        left -= 1  # kept for the last survivor, so that it ends the most visited
        per_round = left / self.rounds_left if len(self.alive) > 1 else left
        self.round_worlds = max(1, int(per_round // max(len(self.alive), 1)))


def _mean(root: Node, action: int) -> float:
    child = root.children.get(action)
    if child is None or child.visits == 0:
        return -math.inf
    return child.reward_sum / child.visits


def _iterations_left(
    done: int, budget: int | None, deadline: float | None, started: float
) -> float | None:
    """The iterations the search can still run: from the budget, or estimated from the
    deadline at the rate so far (the smaller when both); None when nothing tells."""
    found = []
    if budget is not None:
        found.append(max(budget - done, 0))
    if deadline is not None and done > 0:
        elapsed = time.monotonic() - started
        if elapsed > 0:
            found.append(max(deadline - time.monotonic(), 0.0) * done / elapsed)
    return min(found) if found else None
