"""Terminal renderings (rich) of the analyzer's plain results: an analysis table, a game
review summary, a solve verdict, a match table.  The results themselves stay plain data
(``to_json``); this is one renderer of them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:
    from analyzer.engine import Analysis
    from analyzer.review import Review
    from analyzer.solve import PuzzleCheck, SolveResult

SPARK = "▁▂▃▄▅▆▇█"


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def analysis_view(analysis: Analysis, top: int) -> RenderableType:
    """The top ``top`` candidates as a table (win % with its 95 % interval; ``≈`` marks a
    move the search cannot tell from the best), the expected line and the search's cost."""
    table = Table(title=f"P{analysis.to_move} to move", title_justify="left")
    for name, justify in (
        ("#", "right"),
        ("move", "left"),
        ("visits", "right"),
        ("win", "right"),
        ("95% interval", "right"),
        ("score", "right"),
        ("margin", "right"),
    ):
        table.add_column(name, justify=justify)
    reasons: list[RenderableType] = []
    for rank, candidate in enumerate(analysis.candidates[:top], start=1):
        style = "bold green" if rank == 1 else None
        label = f"≈ {rank}" if candidate.equal_to_best else str(rank)
        table.add_row(
            label,
            candidate.move,
            f"{candidate.visits:,}",
            _percent(candidate.win),
            f"{_percent(candidate.win_low)}-{_percent(candidate.win_high)}",
            f"{candidate.score:.1f}",
            f"{candidate.margin:+.1f}",
            style=style,
        )
        if candidate.reason:
            reasons.append(Text.assemble((f"{rank}. {candidate.move}: ", "bold"), candidate.reason))
    line = "  ".join(f"P{player} {move}" for player, move in analysis.line) or "-"
    footer = f"{analysis.iterations:,} iterations in {analysis.seconds:.1f} s"
    if analysis.interrupted:
        footer += " (interrupted)"
    parts: list[RenderableType] = [
        table,
        *reasons,
        Text.assemble(("best: ", "bold"), (analysis.best.move, "bold green")),
    ]
    if analysis.why_best:
        parts.append(Text.assemble(("why: ", "bold"), analysis.why_best))
    equals = [c.move for c in analysis.candidates if c.equal_to_best]
    if equals:
        parts.append(
            Text(f"≈ the search cannot tell {', '.join(equals)} from the best", style="dim")
        )
    parts += [Text.assemble(("expected line: ", "bold"), line), Text(footer, style="dim")]
    return Group(*parts)


def sparkline(values: list[float]) -> str:
    """Win probabilities 0-1 as a line of block characters."""
    return "".join(SPARK[min(len(SPARK) - 1, int(v * len(SPARK)))] for v in values)


def _decision_line(player: int, decision) -> Text:
    """One marked move of the review: what it cost, with its standard error."""
    better = f"; better {decision.better}" if decision.better else ""
    return Text.assemble(
        (f"P{player} move {decision.index + 1}: ", "bold"),
        (f"{decision.played}{decision.mark or ''}", "red" if decision.mark else ""),
        f" lost {decision.loss:.1f} ± {decision.loss_se:.1f} win-% points and "
        f"{decision.points_loss:.1f} ± {decision.points_loss_se:.1f} points{better}",
    )


def review_view(review: Review) -> RenderableType:
    """Per player: accuracy, mark counts and a win-% timeline; then every marked move."""
    table = Table(title="Review", title_justify="left")
    for name in ("player", "accuracy", "?!", "?", "??", "win % over the game"):
        table.add_column(
            name, justify="left" if name in ("player", "win % over the game") else "right"
        )
    for player in review.players:
        name = f"P{player.player}" + (f" {player.name}" if player.name else "")
        table.add_row(
            name,
            f"{player.accuracy:.1f}",
            str(player.inaccuracies),
            str(player.mistakes),
            str(player.blunders),
            sparkline([win for _, win in player.timeline][-60:]),
        )
    parts: list[RenderableType] = [table]
    for player in review.players:
        parts.extend(_decision_line(player.player, decision) for decision in player.biggest)
    status = (
        f"{len(review.decisions)} of {review.total_decisions} decisions in {review.seconds:.1f} s"
    )
    if not review.complete:
        status += " (interrupted: the rest was not reviewed)"
    parts.append(Text(status, style="dim"))
    return Group(*parts)


def solve_view(result: SolveResult) -> RenderableType:
    """A solve result: the best move, every solution when proven, and the cost."""
    verdict = "proven" if result.proven else "not proven (MCTS estimate)"
    lines = [
        Text.assemble(("best: ", "bold"), (result.best, "bold green"), f"  [{verdict}]"),
    ]
    if result.proven:
        lines.append(
            Text(f"moves meeting the goal ({result.goal}): {' '.join(result.solutions) or 'none'}")
        )
    if result.note:
        lines.append(Text(result.note, style="yellow"))
    lines.append(Text(f"{result.nodes:,} nodes in {result.seconds:.2f} s", style="dim"))
    return Group(*lines)


def directory_view(checks: list[PuzzleCheck]) -> RenderableType:
    """Each puzzle's verdict, then solved/total and the time."""
    table = Table(title="Puzzles", title_justify="left")
    for name in ("file", "verdict", "seconds"):
        table.add_column(name, justify="right" if name == "seconds" else "left")
    for check in checks:
        style = "green" if check.solved else "red"
        table.add_row(check.file, Text(check.verdict, style=style), f"{check.seconds:.2f}")
    solved = sum(1 for c in checks if c.solved)
    total_time = sum(c.seconds for c in checks)
    return Group(table, Text(f"solved {solved}/{len(checks)} in {total_time:.1f} s", style="bold"))


def match_view(data: dict) -> RenderableType:
    """A match summary (the ``to_json`` shape): win rates with 95% intervals per bot."""
    table = Table(title=f"{data['games']} games", title_justify="left")
    for name in ("bot", "games", "wins", "win rate", "95% CI", "mean score", "forfeits"):
        table.add_column(name, justify="left" if name == "bot" else "right")
    for bot in data["bots"]:
        low, high = bot["ci95"]
        table.add_row(
            bot["spec"],
            str(bot["games"]),
            f"{bot['wins']:g}",
            _percent(bot["win_rate"]),
            f"{_percent(low)}-{_percent(high)}",
            f"{bot['mean_score']:.1f}",
            str(bot["forfeits"]),
        )
    return table
