"""The search tree and the plain summary of it that workers send back and merge.

A node is reached by an action; its statistics are those of the player who chose that
action (max^n: each player maximizes their own reward).  A *decision* is what a player
decides at once: usually one action, but a game may build one move from several actions
(Manhattan's block selection is a sequence of picks), which nodes mark with ``continues``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Path = tuple[int, ...]


class Node:
    """One node of an information-set tree (OpenSpiel-style ``__slots__``)."""

    __slots__ = (
        "player",
        "continues",
        "children",
        "visits",
        "available",
        "reward_sum",
        "win_sum",
        "score_sum",
        "margin_sum",
        "priors",
    )

    def __init__(self, player: int, continues: bool = False):
        self.player = player  # who chose the action leading here
        self.continues = continues  # that player's move goes on after this action
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.available = 0  # times this action was legal when its parent was visited
        self.reward_sum = 0.0
        self.win_sum = 0.0
        self.score_sum = 0.0
        self.margin_sum = 0.0
        self.priors: dict[int, float] | None = None  # prior weight of each action seen here


@dataclass
class NodeStats:
    """Summed statistics of one node, from the point of view of ``player`` (who chose the
    action that leads to it)."""

    player: int
    continues: bool
    visits: int = 0
    reward_sum: float = 0.0
    win_sum: float = 0.0
    score_sum: float = 0.0
    margin_sum: float = 0.0

    def add(self, other: NodeStats) -> None:
        """Add ``other``'s sums to these."""
        self.visits += other.visits
        self.reward_sum += other.reward_sum
        self.win_sum += other.win_sum
        self.score_sum += other.score_sum
        self.margin_sum += other.margin_sum

    @property
    def win(self) -> float:
        """Mean win share of ``player`` through this node."""
        return self.win_sum / self.visits if self.visits else 0.0

    @property
    def score(self) -> float:
        """Mean final score of ``player`` through this node."""
        return self.score_sum / self.visits if self.visits else 0.0

    @property
    def margin(self) -> float:
        """Mean final margin of ``player`` over the best opponent through this node."""
        return self.margin_sum / self.visits if self.visits else 0.0


@dataclass
class TreeSummary:
    """The top of a search tree as plain data: statistics by action path from the root.

    Summaries of independent searches of the same root merge by adding statistics path by
    path, so root parallelization is a sum.
    """

    root_player: int
    iterations: int = 0
    nodes: dict[Path, NodeStats] = field(default_factory=dict)
    _index: dict[Path, list[Path]] | None = field(default=None, repr=False, compare=False)

    def merge(self, other: TreeSummary) -> None:
        """Add ``other`` (a search of the same root) into this summary."""
        self._index = None
        self.iterations += other.iterations
        for path, stats in other.nodes.items():
            mine = self.nodes.get(path)
            if mine is None:
                self.nodes[path] = NodeStats(stats.player, stats.continues)
                mine = self.nodes[path]
            mine.add(stats)

    def children(self, path: Path) -> list[tuple[Path, NodeStats]]:
        """The summarized children of ``path``, most visited first (ties by action)."""
        if self._index is None:
            self._index = {}
            for p in self.nodes:
                self._index.setdefault(p[:-1], []).append(p)
        found = [(p, self.nodes[p]) for p in self._index.get(path, [])]
        return sorted(found, key=lambda item: (-item[1].visits, item[0]))

    def decisions(self, path: Path = ()) -> list[tuple[Path, NodeStats]]:
        """The whole decisions that start at ``path``: the nodes where the deciding player's
        move is complete, each with the statistics of its last action; most visited first."""
        found = []
        stack = [path]
        while stack:
            current = stack.pop()
            for child_path, stats in self.children(current):
                if stats.continues:
                    stack.append(child_path)
                else:
                    found.append((child_path, stats))
        return sorted(found, key=lambda item: (-item[1].visits, item[0]))


def summarize(
    root: Node, root_player: int, iterations: int, max_depth: int, min_visits: int
) -> TreeSummary:
    """A ``TreeSummary`` of ``root``: every node of the root's decision (however deep the
    decision's actions go), and below that the nodes up to ``max_depth`` actions deep with
    at least ``min_visits`` visits."""
    summary = TreeSummary(root_player, iterations)
    stack: list[tuple[Path, Node, bool]] = [((), root, True)]
    while stack:
        path, node, in_root_decision = stack.pop()
        for action, child in node.children.items():
            child_path = path + (action,)
            keep = in_root_decision or (len(child_path) <= max_depth and child.visits >= min_visits)
            if not keep:
                continue
            summary.nodes[child_path] = NodeStats(
                child.player,
                child.continues,
                child.visits,
                child.reward_sum,
                child.win_sum,
                child.score_sum,
                child.margin_sum,
            )
            stack.append((child_path, child, in_root_decision and child.continues))
    return summary
