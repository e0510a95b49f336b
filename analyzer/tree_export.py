"""Export the top of a search tree for inspection: GraphML, or DOT by file extension."""

from __future__ import annotations

from pathlib import Path

import networkx as nx

from positions.errors import ManhattanError
from positions.state import GameState
from search.tree import TreeSummary


def tree_graph(view: GameState, summary: TreeSummary, max_nodes: int = 400) -> nx.DiGraph:
    """A directed graph of the most visited part of ``summary`` (at most ``max_nodes``
    nodes): node ids are action paths joined by ``/`` (``root`` for the root), with the
    attributes ``label`` (the action's text), ``player`` (1-based, who chose it),
    ``visits``, ``win`` and ``score`` (from that player's point of view)."""
    graph = nx.DiGraph()
    graph.add_node(
        "root",
        label="root",
        player=view.current_player() + 1,
        visits=summary.iterations,
        win=0.0,
        score=0.0,
    )
    ranked = sorted(summary.nodes.items(), key=lambda item: (-item[1].visits, item[0]))
    kept = {path for path, _ in ranked[:max_nodes]}
    for path, stats in sorted(summary.nodes.items(), key=lambda item: len(item[0])):
        if path not in kept or (len(path) > 1 and path[:-1] not in kept):
            kept.discard(path)
            continue
        node_id = "/".join(map(str, path))
        parent = "/".join(map(str, path[:-1])) or "root"
        graph.add_node(
            node_id,
            label=_action_text(view, path),
            player=stats.player + 1,
            visits=stats.visits,
            win=round(stats.win, 4),
            score=round(stats.score, 2),
        )
        graph.add_edge(parent, node_id)
    return graph


def _action_text(view: GameState, path: tuple[int, ...]) -> str:
    """The last action of ``path`` named in the observer's view (its id if it cannot be)."""
    position = view.clone()
    try:
        for action in path[:-1]:
            position.apply_action(action)
        return position.action_to_string(path[-1])
    except ValueError:
        return f"action {path[-1]}"


TREE_SUFFIXES = (".graphml", ".dot", ".gv", ".xml")


def tree_text(graph: nx.DiGraph, path: Path) -> str:
    """``graph`` as DOT (``.dot``/``.gv``) or GraphML (``.graphml``/``.xml``) text, by the
    suffix of ``path``.  Raises ``ManhattanError`` for another suffix."""
    suffix = path.suffix.lower()
    if suffix not in TREE_SUFFIXES:
        raise ManhattanError(f"--tree {path}: expected a .graphml or .dot file name")
    if suffix in (".graphml", ".xml"):
        return "\n".join(nx.generate_graphml(graph)) + "\n"
    lines = ["digraph search {", "  node [shape=box, fontname=Helvetica];"]
    for node, data in graph.nodes(data=True):
        text = f"{data['label']}\\nP{data['player']} n={data['visits']} win={data['win']:.2f}"
        lines.append(f'  "{node}" [label="{text}"];')
    for parent, child in graph.edges:
        lines.append(f'  "{parent}" -> "{child}";')
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_tree(graph: nx.DiGraph, path: Path, force: bool = False) -> None:
    """Write ``graph`` to ``path`` as ``tree_text`` gives it.  Raises ``ManhattanError``
    for a bad suffix or an existing file without ``force``."""
    text = tree_text(graph, path)
    if path.exists() and not force:
        raise ManhattanError(f"{path} exists; pass --force to overwrite it")
    path.write_text(text)
