"""Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012), and the
determinized-UCT baseline (PIMC: a few fixed worlds, one tree each).

Every ISMCTS iteration deals a new world consistent with what the player to move at the
root can see (``resample_from_infostate``): the opponents' hands and the order of the
deck are re-drawn each time, so no iteration can use a card the observer cannot know, nor
a future draw.  Nodes are reached by actions; an action's statistics belong to the player
who chose it and selection maximizes that player's reward (max^n).  Because the legal
actions at a node change from world to world, selection uses the subset-armed bandit
rule: a child's exploration term counts the times it was *available*, not the parent's
visits.

Reward of player p at the end of an iteration: their win share (1, 0, or 1/k for a k-way
shared first) plus ``margin_weight`` × (their final total − the best opponent's), so
among equally winning moves the search prefers the bigger margin.  With ``margin_scale``
S > 0 the margin's part saturates, ``margin_weight`` × S × tanh(margin / S): the same
slope at a close finish, next to none at a margin several times S, so a clear leader
plays for the win rather than for more points (KataGo's score utility saturates so too).

Priors (optional, off by default): an evaluator with a ``prior(state, actions)`` method
gives each action a positive weight, normalized over the actions legal in the iteration's
world.  ``expansion="prior"`` expands an untried action drawn in proportion to its prior
instead of uniformly (so the opponents' first replies in the tree are plausible moves,
not random ones), and ``prior_weight`` W adds the progressive bias W·P(a)/(n(a)+1) to
UCB (Chaslot et al. 2008): a strong prior leads early and fades as visits come.  A node
asks for the prior of an action once, in the first world where it is legal, and keeps it.
With an evaluator that has no ``prior`` method the search runs without priors, whatever
the config says.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from search.halving import HalvingPlan
from search.limits import Limit
from search.protocol import Evaluator, GameState
from search.tree import Node, TreeSummary, summarize

EXPANSIONS = ("random", "prior")
ROOT_POLICIES = ("ucb", "halving")


@dataclass(frozen=True)
class SearchConfig:
    """Knobs of the search.  The defaults are the engine measured strongest at equal
    iterations (README, "The strength ladder"): sequential halving over the root
    decisions, a tree that stops at the root decision (every reply is the playout's), and
    a reward of the win share plus 0.05 per point of margin.  ``CLASSIC`` is the search of
    v0.1, kept for comparisons.

    ``determinization``: ``"ismcts"`` (a new world every iteration, one shared tree) or
    ``"pimc"`` (``worlds`` fixed worlds, one tree each, the root statistics summed).
    ``exploration`` is UCB's constant; ``margin_weight`` the reward per point of margin,
    ``margin_scale`` (points; 0: none) where that reward saturates (``margin_reward``).
    ``summary_depth`` and ``summary_min_visits`` bound the part of the tree returned.
    ``expansion`` is ``"random"`` (an untried action uniformly) or ``"prior"`` (in
    proportion to the evaluator's priors); ``prior_weight`` the progressive-bias weight
    (0: none).  Both default to the search without priors.  ``decision_depth`` N > 0
    grows the tree through at most N whole decisions (1: the root player's decision only,
    every reply left to the evaluator's playout); 0 leaves it unbounded.  ``root_policy``
    chooses how the root's first actions share the budget: ``"ucb"`` (the tree's rule)
    or ``"halving"`` (sequential halving on common worlds, ``search.halving``; a search
    with a ``forced`` decision or PIMC worlds keeps UCB).
    """

    determinization: str = "ismcts"
    exploration: float = 0.7
    margin_weight: float = 0.05
    margin_scale: float = 0.0
    worlds: int = 8
    summary_depth: int = 16
    summary_min_visits: int = 2
    expansion: str = "random"
    prior_weight: float = 0.0
    decision_depth: int = 1
    root_policy: str = "halving"

    def __post_init__(self) -> None:
        if self.determinization not in ("ismcts", "pimc"):
            raise ValueError(
                f"determinization must be ismcts or pimc, not {self.determinization!r}"
            )
        if self.worlds < 1:
            raise ValueError(f"worlds must be at least 1, not {self.worlds}")
        if self.expansion not in EXPANSIONS:
            raise ValueError(f"expansion must be random or prior, not {self.expansion!r}")
        if not self.prior_weight >= 0:
            raise ValueError(f"prior_weight must be at least 0, not {self.prior_weight}")
        if self.root_policy not in ROOT_POLICIES:
            raise ValueError(f"root_policy must be ucb or halving, not {self.root_policy!r}")
        if self.decision_depth < 0:
            raise ValueError(f"decision_depth must be at least 0, not {self.decision_depth}")
        if not self.margin_scale >= 0:
            raise ValueError(f"margin_scale must be at least 0, not {self.margin_scale}")

    def margin_reward(self, margin: float | np.ndarray) -> float | np.ndarray:
        """The reward of a margin over the best opponent (a float or a numpy array):
        ``margin_weight`` × margin, or ``margin_weight`` × S × tanh(margin / S) with
        ``margin_scale`` S > 0."""
        if self.margin_scale > 0:
            return self.margin_weight * self.margin_scale * np.tanh(margin / self.margin_scale)
        return self.margin_weight * margin

    @property
    def uses_priors(self) -> bool:
        """Whether the search asks the evaluator for priors."""
        return self.expansion == "prior" or self.prior_weight > 0


CLASSIC = SearchConfig(margin_weight=0.002, decision_depth=0, root_policy="ucb")


def _rewards(wins, totals, config: SearchConfig) -> tuple[list[float], list[float]]:
    """Per player: the reward and the margin over the best opponent."""
    players = len(totals)
    margins = []
    for p in range(players):
        best_other = max(totals[q] for q in range(players) if q != p)
        margins.append(float(totals[p] - best_other))
    rewards = [float(wins[p] + config.margin_reward(margins[p])) for p in range(players)]
    return rewards, margins


def _node_priors(node: Node, world: GameState, legal: list[int], evaluator: Evaluator) -> dict:
    """``node``'s prior weight of each action, asked of the evaluator for those of
    ``legal`` it has not seen before (in ``world``, where they are legal)."""
    priors = node.priors
    if priors is None:
        priors = node.priors = {}
    missing = [a for a in legal if a not in priors]
    if missing:
        for action, weight in zip(missing, evaluator.prior(world, missing), strict=True):
            priors[action] = weight
    return priors


def _draw_in_proportion(actions: list[int], priors: dict, rng: np.random.Generator) -> int:
    """One of ``actions`` drawn with chance proportional to its prior."""
    total = sum(priors[a] for a in actions)
    point = float(rng.random()) * total
    for action in actions:
        point -= priors[action]
        if point < 0:
            return action
    return actions[-1]


def run_iteration(
    root: Node,
    world: GameState,
    rng: np.random.Generator,
    evaluator: Evaluator,
    config: SearchConfig,
    forced: Sequence[int] = (),
) -> tuple[Sequence[float], Sequence[float]]:
    """One MCTS iteration in ``world`` (a dealt copy the iteration may change): play the
    ``forced`` actions, select down the tree among the actions legal in this world, expand
    one node, evaluate, back up.  Returns the outcome it backed up: every player's win
    share and final total."""
    exploration = config.exploration
    uses_priors = config.uses_priors and getattr(evaluator, "prior", None) is not None
    by_prior = uses_priors and config.expansion == "prior"
    bias = config.prior_weight if uses_priors else 0.0
    depth = config.decision_depth or math.inf
    decisions = 0  # whole decisions on the path so far
    path: list[Node] = []
    node = root
    for action in forced:
        player = world.current_player()
        world.apply_action(action)
        child = node.children.get(action)
        if child is None:
            child = node.children[action] = Node(player, world.move_in_progress())
        child.available += 1
        path.append(child)
        node = child
        decisions += not child.continues
    while decisions < depth and not world.is_terminal():
        player = world.current_player()
        legal = world.legal_actions()
        children = node.children
        priors = _node_priors(node, world, legal, evaluator) if uses_priors else None
        untried = [a for a in legal if a not in children]
        if untried:
            for action in legal:
                child = children.get(action)
                if child is not None:
                    child.available += 1
            if by_prior:
                action = _draw_in_proportion(untried, priors, rng)
            else:
                action = untried[int(rng.integers(len(untried)))]
            world.apply_action(action)
            child = Node(player, world.move_in_progress())
            child.available = 1
            children[action] = child
            path.append(child)
            break
        best_value = -math.inf
        best_action = legal[0]
        scale = bias / sum(priors[a] for a in legal) if bias > 0 else 0.0
        for action in legal:
            child = children[action]
            child.available += 1
            visits = child.visits
            value = child.reward_sum / visits + exploration * math.sqrt(
                math.log(child.available) / visits
            )
            if scale:
                value += scale * priors[action] / (visits + 1)
            if value > best_value:
                best_value = value
                best_action = action
        world.apply_action(best_action)
        node = children[best_action]
        path.append(node)
        decisions += not node.continues
    if world.is_terminal():
        wins, totals = world.returns(), world.player_totals()
    else:
        wins, totals = evaluator.evaluate(world, rng)
    _backup(path, wins, totals, config)
    return wins, totals


def _backup(path: Sequence[Node], wins, totals, config: SearchConfig) -> None:
    """Add one outcome (every player's win share and final total) to the nodes of
    ``path``, each from the point of view of the player who chose its action."""
    rewards, margins = _rewards(wins, totals, config)
    for node in path:
        p = node.player
        node.visits += 1
        node.reward_sum += rewards[p]
        node.win_sum += float(wins[p])
        node.score_sum += float(totals[p])
        node.margin_sum += margins[p]


def _continues(world: GameState, action: int) -> bool:
    """Whether the mover's decision goes on after ``action`` in ``world``."""
    after = world.clone()
    after.apply_action(action)
    return after.move_in_progress()


def _has_whole_decision(node: Node) -> bool:
    """Whether the tree below ``node`` holds a complete decision of the root player (a
    selection made of several picks needs several iterations to reach its end)."""
    return any(
        not child.continues or _has_whole_decision(child) for child in node.children.values()
    )


class TreeSearch:
    """One searcher's tree(s) for the player to move in ``state``, grown by ``run``.

    ``forced`` actions (one whole decision of the player to move) are played first in every
    iteration: the search then values that decision alone, as a game review needs for a
    move the free search seldom tried.  Raises ``ValueError`` for a finished game.
    """

    def __init__(
        self,
        state: GameState,
        rng: np.random.Generator,
        evaluator: Evaluator,
        config: SearchConfig = SearchConfig(),
        forced: Sequence[int] = (),
    ):
        if state.is_terminal():
            raise ValueError("the game is over: there is nothing to search")
        self.state = state
        self.rng = rng
        self.evaluator = evaluator
        self.config = config
        self.forced = tuple(forced)
        self.observer = state.current_player()
        self.iterations = 0
        if config.determinization == "pimc":
            self.worlds = [
                state.resample_from_infostate(self.observer, rng) for _ in range(config.worlds)
            ]
            self.roots = [Node(-1) for _ in self.worlds]
        else:
            self.worlds, self.roots = [], [Node(-1)]
        halving = config.root_policy == "halving" and not self.worlds and not self.forced
        self.halving = HalvingPlan() if halving else None
        self._budget: int | None = None
        self._deadline: float | None = None
        self._batch: bool | None = None  # see _batched

    def has_whole_decision(self) -> bool:
        """Whether the tree holds at least one whole decision of the root player."""
        return any(_has_whole_decision(root) for root in self.roots)

    def step(self) -> None:
        """One iteration: deal a world the observer cannot tell from the real one (or take
        the next fixed world in PIMC) and run one MCTS iteration in it."""
        if self.halving is not None:
            plan = self.halving
            action, world, seed = plan.next_action(
                self.roots[0], self._deal, self.rng, self.iterations, self._budget, self._deadline
            )
            if self._batched(world):
                actions = [action, *reversed(plan.queue)]
                plan.queue.clear()
                self._run_batch(actions, world, seed)
                self.iterations += len(actions) - 1
            else:
                self._run_root_action(action, world, seed)
        elif self.worlds:
            index = self.iterations % len(self.worlds)
            world = self.worlds[index].clone()
            run_iteration(
                self.roots[index], world, self.rng, self.evaluator, self.config, self.forced
            )
        else:
            world = self.state.resample_from_infostate(self.observer, self.rng)
            run_iteration(self.roots[0], world, self.rng, self.evaluator, self.config, self.forced)
        self.iterations += 1

    def _batched(self, world: GameState) -> bool:
        """Whether halving runs a world's actions in one call of the evaluator's
        ``evaluate_actions``: the tree stops at the root decision (``decision_depth`` 1),
        the evaluator has the method, and every root decision is one action (decided from
        the first world)."""
        if self._batch is None:
            self._batch = (
                self.config.decision_depth == 1
                and getattr(self.evaluator, "evaluate_actions", None) is not None
                and not any(_continues(world, action) for action in world.legal_actions())
            )
        return self._batch

    def _run_batch(self, actions: list[int], world: GameState, seed: int) -> None:
        """One iteration of each root action in ``actions`` in ``world``, played out
        together by the evaluator from one seed (``Evaluator.evaluate_actions``)."""
        rng = np.random.Generator(np.random.PCG64(seed))
        wins, totals = self.evaluator.evaluate_actions(world, actions, rng)
        mover = self.observer
        margins = totals[:, mover] - np.delete(totals, mover, axis=1).max(axis=1)
        rewards = wins[:, mover] + self.config.margin_reward(margins)
        children = self.roots[0].children
        for index, action in enumerate(actions):  # _backup's sums, for the mover only
            child = children.get(action)
            if child is None:
                child = children[action] = Node(mover)
            child.available += 1
            child.visits += 1
            child.reward_sum += float(rewards[index])
            child.win_sum += float(wins[index, mover])
            child.score_sum += float(totals[index, mover])
            child.margin_sum += float(margins[index])

    def _deal(self) -> GameState:
        return self.state.resample_from_infostate(self.observer, self.rng)

    def _run_root_action(self, action: int, world: GameState, seed: int) -> None:
        """One iteration through root ``action`` in a copy of ``world``, its random
        numbers from ``seed`` (the same for every action run in that world)."""
        rng = np.random.Generator(np.random.PCG64(seed))
        run_iteration(self.roots[0], world.clone(), rng, self.evaluator, self.config, (action,))

    def _settle_halving(self) -> None:
        """At a stop in the middle of halving: finish the world under way, then run the
        surviving action with the best mean until it is strictly the most visited, so the
        most visited action (what the search plays) is the one halving would keep."""
        plan = self.halving
        if plan is None or plan.settled or plan.alive is None:
            return
        while plan.queue:
            self._run_root_action(plan.queue.pop(), plan.world, plan.seed)
            self.iterations += 1
        best = plan.best(self.roots[0])
        children = self.roots[0].children
        others = max(
            (children[a].visits for a in plan.alive if a != best and a in children), default=0
        )
        for _ in range(4 * (others + 1)):
            if children[best].visits > others:
                break
            world = self._deal()
            if best in world.legal_actions():
                self._run_root_action(best, world, int(self.rng.integers(2**63)))
                self.iterations += 1

    def run(
        self,
        iterations: int | None = None,
        deadline: float | None = None,
        should_stop: Callable[[], bool] | None = None,
    ) -> bool:
        """Iterate until ``iterations`` in all (counting earlier runs), the ``deadline``
        (a ``time.monotonic()`` instant) or ``should_stop()`` (polled every 32 iterations)
        — but never stop before the tree holds a whole decision of the root player (a few
        iterations at most).  Returns whether ``should_stop`` ended it."""
        stopped = False
        self._budget, self._deadline = iterations, deadline
        next_poll = self.iterations
        while True:
            if not stopped and should_stop is not None and self.iterations >= next_poll:
                stopped = should_stop()
                next_poll = self.iterations + 32
            out_of_budget = (
                stopped
                or (iterations is not None and self.iterations >= iterations)
                or (deadline is not None and time.monotonic() >= deadline)
            )
            if out_of_budget and self.has_whole_decision():
                self._settle_halving()
                return stopped
            self.step()

    def summary(self) -> TreeSummary:
        """The plain summary of the tree(s) so far (see ``search.tree.summarize``)."""
        config = self.config
        count = len(self.roots)
        merged = TreeSummary(self.observer)
        for index, root in enumerate(self.roots):
            share = self.iterations // count + (1 if index < self.iterations % count else 0)
            part = summarize(
                root, self.observer, share, config.summary_depth, config.summary_min_visits
            )
            merged.merge(part)
        return merged


def search_tree(
    state: GameState,
    limit: Limit,
    rng: np.random.Generator,
    evaluator: Evaluator,
    config: SearchConfig = SearchConfig(),
    should_stop: Callable[[], bool] | None = None,
    forced: Sequence[int] = (),
    deadline: float | None = None,
) -> TreeSummary:
    """Search ``state`` for its player to move within ``limit`` and return the summary of
    the tree.  ``should_stop`` is polled now and then; when it returns true (e.g. the user
    pressed Ctrl-C) the search ends early with what it has.  ``deadline`` (a
    ``time.monotonic()`` instant) replaces the limit's seconds when given, so searchers in
    several processes can share one end.  ``forced``: see ``TreeSearch``.  However small
    the budget, the search goes on until the root player has at least one whole decision
    to play.  Raises ``ValueError`` for a finished game."""
    search = TreeSearch(state, rng, evaluator, config, forced)
    prepare = getattr(evaluator, "prepare", None)
    if prepare is not None:
        prepare()
    if deadline is None and limit.seconds is not None:
        deadline = time.monotonic() + limit.seconds
    search.run(limit.iterations, deadline, should_stop)
    return search.summary()
