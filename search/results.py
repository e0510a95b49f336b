"""What a search returns: the candidates for the root decision with their statistics, and
the line the search expects, as plain data for any renderer (text, JSON, HTML)."""

from __future__ import annotations

from dataclasses import dataclass, field

from search.protocol import GameState
from search.tree import Path, TreeSummary


@dataclass(frozen=True)
class Candidate:
    """One whole decision of the root player, from that player's point of view."""

    move: str
    actions: Path
    visits: int
    win: float  # mean win share (a shared first counts 1/k)
    score: float  # mean final total
    margin: float  # mean final total minus the best opponent's


@dataclass(frozen=True)
class LineMove:
    """One decision of the expected line: who makes it, the move and its visits."""

    player: int
    move: str
    visits: int
    win: float


@dataclass
class SearchResult:
    """The merged outcome of a search.

    ``candidates`` holds every root decision the search tried, most visited first;
    ``line`` is the expected continuation starting with the best candidate;
    ``searcher_iterations`` the iterations of each searcher that was merged.
    """

    player: int
    candidates: list[Candidate]
    line: list[LineMove]
    iterations: int
    seconds: float
    interrupted: bool = False
    summary: TreeSummary | None = field(default=None, repr=False)
    searcher_iterations: tuple[int, ...] = ()

    @property
    def best(self) -> Candidate:
        """The most visited candidate."""
        return self.candidates[0]

    def candidate(self, move: str) -> Candidate | None:
        """The candidate for ``move`` (canonical text), if the search tried it."""
        return next((c for c in self.candidates if c.move == move), None)


def build_result(
    state: GameState,
    summary: TreeSummary,
    seconds: float,
    interrupted: bool,
    searcher_iterations: tuple[int, ...] = (),
) -> SearchResult:
    """Turn a merged summary into candidates and an expected line, naming moves from
    ``state`` (the searched position)."""
    candidates = [
        Candidate(
            state.decision_to_string(path),
            path,
            stats.visits,
            stats.win,
            stats.score,
            stats.margin,
        )
        for path, stats in summary.decisions(())
    ]
    line = expected_line(state, summary)
    return SearchResult(
        summary.root_player,
        candidates,
        line,
        summary.iterations,
        seconds,
        interrupted,
        summary,
        searcher_iterations or (summary.iterations,),
    )


def expected_line(state: GameState, summary: TreeSummary, max_moves: int = 12) -> list[LineMove]:
    """Follow the most visited decisions from the root, naming them in the root player's
    view of the game (so no hidden card leaks into the text); stops where the summary
    ends or a move cannot be named."""
    line: list[LineMove] = []
    position = state.view(summary.root_player)
    path: Path = ()
    while len(line) < max_moves:
        decisions = summary.decisions(path)
        if not decisions:
            break
        next_path, stats = decisions[0]
        text = name_and_play(position, next_path[len(path) :])
        if text is None:
            break
        line.append(LineMove(stats.player, text, stats.visits, stats.win))
        path = next_path
        if position.is_terminal():
            break
    return line


def name_and_play(position: GameState, actions: Path) -> str | None:
    """Name the decision ``actions`` in ``position`` (a player's view) and play it there;
    None, with ``position`` in an undefined state, when it cannot be named or played."""
    try:
        text = position.decision_to_string(actions)
        for action in actions:
            position.apply_action(action)
    except ValueError:
        return None
    return text
