"""Two moves side by side: where they differ, which of them each difference favours, and
one line on why the engine's move is the better one (with the search's figures when
given).

Each difference of two placements is weighed roughly in round points (the tallest building
3, a majority 2, a building 1, times the chance involved), so the heaviest reasons are told
first.  Two selections differ in the big blocks they take now or keep for later and in the
stories they bring; those are told as they are.
"""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.explain_describe import MoveFacts
from analyzer.explain_facts import MajorityChange, PlacementFacts, TallestChange
from analyzer.explain_words import (
    big_blocks_phrase,
    majority_phrase,
    selected_stories,
    selection_context,
    threat_phrase,
)

NOTABLE = 0.3  # differences lighter than this (in round points) are not told
RISKIER = 0.1  # a building's chance to be taken back must differ this much to be told
EQUAL_WIN = 1.0  # win-% points within which the search rates two moves about equal
EQUAL_SCORE = 0.5  # expected final points within which too
STANDING_VALUE = {"the leader": 2.0, "joint leader": 1.5, "joint last": -0.5, "last place": -1.0}


@dataclass(frozen=True)
class Figures:
    """The search's figures for one move: ``win``, the mover's chance to finish first
    (0-1), and ``score``, the mover's expected final total."""

    win: float
    score: float


@dataclass(frozen=True)
class Difference:
    """One way two moves differ: ``topic`` (``"tallest"``, ``"majority"``, ``"risk"``,
    ``"takeover"``, ``"points"``, ``"blocks"``, ``"stories"``), the move it favours
    (``better``: ``"engine"`` or ``"move"``), a rough ``weight`` in round points, what
    each move does on it (verb phrases) and ``text``, the clause telling both."""

    topic: str
    better: str
    weight: float
    engine_does: str
    move_does: str
    text: str


def _difference(
    topic: str,
    values: tuple[float, float],
    does: tuple[str, str],
    moves: tuple[str, str],
    weight: float | None = None,
) -> Difference:
    """A difference where the engine's move scores ``values[0]`` and the other
    ``values[1]`` (higher is better for the mover)."""
    better = "engine" if values[0] >= values[1] else "move"
    size = abs(values[0] - values[1]) if weight is None else weight
    text = f"{moves[0]} {does[0]}, {moves[1]} {does[1]}"
    return Difference(topic, better, size, does[0], does[1], text)


# ----- placements ------------------------------------------------------------------------


def _tallest_value(change: TallestChange | None, mover: int) -> float:
    if change is None or change.effect == "raises":
        return 0.0
    if change.effect == "takes":
        return 3.0
    if change.effect == "ties":
        return -3.0 if change.holder_before == mover else 3.0
    if change.effect == "loses":
        return -3.0
    assert change.threat_before is not None and change.threat_after is not None
    return 3.0 * (change.threat_before.chance - change.threat_after.chance)


def _tallest_does(placement: PlacementFacts, mover: int) -> str:
    change = placement.tallest
    if change is None:
        holder = placement.tallest_holder
        if holder is None:
            return "leaves the tallest building unscored"
        return (
            "leaves its tallest building as it is"
            if holder == mover
            else (f"leaves the tallest building to P{holder}")
        )
    if change.effect == "takes":
        source = f" from P{change.holder_before}" if change.holder_before is not None else ""
        return f"takes the tallest building{source}"
    if change.effect == "ties":
        return "ties the tallest building so nobody scores it"
    return {
        "keeps": "keeps its tallest building safe",
        "raises": "raises its tallest building",
        "loses": "gives up the tallest building",
    }[change.effect]


def _majority_value(change: MajorityChange | None) -> float:
    if change is None or change.effect == "hands":
        return 0.0
    if change.effect in ("wins", "breaks"):
        return 2.0
    if change.effect == "loses":
        return -2.0
    assert change.threat_before is not None and change.threat_after is not None
    return 2.0 * (change.threat_before.chance - change.threat_after.chance) + 0.1


def _majority_does(change: MajorityChange | None) -> str:
    if change is None:
        return "changes no majority"
    if change.effect == "strengthens":
        return f"strengthens its majority in city {change.city}"
    return majority_phrase(change, brief=True)


def _majority_key(change: MajorityChange | None) -> tuple[int, str] | None:
    return None if change is None else (change.city, change.effect)


def _taken_back(placement: PlacementFacts) -> float:
    return next((t.chance for t in placement.threats if t.target == "building"), 0.0)


def _takeover_does(placement: PlacementFacts) -> str:
    building = placement.building
    if building is None or building.taken_from is None:
        return "takes no building"
    standing = f" ({building.standing})" if building.standing else ""
    return f"takes a building from P{building.taken_from}{standing}"


def placement_differences(engine: MoveFacts, move: MoveFacts) -> list[Difference]:
    """How two placements (or no-placements) of one position differ."""
    mover = engine.player
    ep, mp = engine.placement, move.placement
    assert ep is not None and mp is not None
    moves = (engine.move, move.move)
    found = []
    values = (_tallest_value(ep.tallest, mover), _tallest_value(mp.tallest, mover))
    if abs(values[0] - values[1]) >= NOTABLE:
        does = (_tallest_does(ep, mover), _tallest_does(mp, mover))
        found.append(_difference("tallest", values, does, moves))
    values = (_majority_value(ep.majority), _majority_value(mp.majority))
    if _majority_key(ep.majority) != _majority_key(mp.majority) and (
        abs(values[0] - values[1]) >= NOTABLE
    ):
        does = (_majority_does(ep.majority), _majority_does(mp.majority))
        found.append(_difference("majority", values, does, moves))
    risks = (_taken_back(ep), _taken_back(mp))
    if ep.building and mp.building and abs(risks[0] - risks[1]) >= RISKIER:
        verb = "take the building back"
        does = tuple(
            threat_phrase(next(t for t in p.threats if t.target == "building"), False, verb)
            for p in (ep, mp)
        )
        text = f"after {moves[0]}, {does[0]}; after {moves[1]}, {does[1]}"
        better = "engine" if risks[0] <= risks[1] else "move"
        found.append(Difference("risk", better, abs(risks[0] - risks[1]), does[0], does[1], text))
    standings = [p.building.standing if p.building else None for p in (ep, mp)]
    if _takeover_does(ep) != _takeover_does(mp) and standings[0] != standings[1]:
        values = tuple(STANDING_VALUE.get(s or "", 0.0) for s in standings)
        does = (_takeover_does(ep), _takeover_does(mp))
        found.append(_difference("takeover", values, does, moves, weight=NOTABLE))
    own = (ep.points[mover - 1], mp.points[mover - 1])
    if own[0] != own[1] and not any(d.topic in ("tallest", "majority") for d in found):
        does = (f"scores {own[0]:+d} this round", f"scores {own[1]:+d}")
        found.append(_difference("points", own, does, moves))
    kept = (max(ep.held_after, default=0), max(mp.held_after, default=0))
    if kept[0] != kept[1]:
        does = tuple(
            f"keeps its {k}-story block for a later turn" if k else "keeps no block" for k in kept
        )
        found.append(_difference("blocks", kept, does, moves, weight=NOTABLE))
    return found


# ----- selections ------------------------------------------------------------------------


def selection_differences(engine: MoveFacts, move: MoveFacts) -> list[Difference]:
    """How two selections of one position differ: in the big blocks taken now or kept for
    later rounds, and in stories.  Both are told as the engine's choice."""
    es, ms = engine.selection, move.selection
    assert es is not None and ms is not None
    two_colors = len(es.colors) > 1
    moves = (engine.move, move.move)
    found = []
    for eb, mb in zip(es.blocks, ms.blocks, strict=True):
        if eb.taken != mb.taken:
            does = (big_blocks_phrase(eb, two_colors), big_blocks_phrase(mb, two_colors))
            weight = 0.5 * abs(eb.taken - mb.taken) * (2 if eb.stories == 4 else 1)
            found.append(_told("blocks", weight, does, moves, two_colors))
    if es.stories != ms.stories:
        does = (selected_stories(es), selected_stories(ms))
        weight = 0.1 * abs(sum(es.stories) - sum(ms.stories))
        found.append(_told("stories", weight, does, moves, two_colors))
    return found


def _told(
    topic: str, weight: float, does: tuple[str, str], moves: tuple[str, str], clauses: bool
) -> Difference:
    """A selection difference, told as the engine's choice; ``clauses`` when each side is
    a clause with its own subject ("P1's a takes ...")."""
    if clauses:
        text = f"with {moves[0]}, {does[0]}; with {moves[1]}, {does[1]}"
        return Difference(topic, "engine", weight, does[0], does[1], text)
    return _difference(topic, (1, 0), does, moves, weight=weight)


# ----- the comparison --------------------------------------------------------------------


def differences(engine: MoveFacts, move: MoveFacts) -> list[Difference]:
    """Every notable way ``engine`` and ``move`` (two moves of one position) differ,
    heaviest first."""
    if engine.move == move.move:
        return []
    if engine.selection is not None and move.selection is not None:
        found = selection_differences(engine, move)
    elif engine.placement is not None and move.placement is not None:
        found = placement_differences(engine, move)
    else:
        found = []
    return sorted(found, key=lambda d: -d.weight)


def about_equal(figures: tuple[Figures, Figures]) -> bool:
    """Whether the search rates the two moves about equal."""
    mine, engine = figures
    return (
        abs(engine.win - mine.win) * 100 < EQUAL_WIN
        and abs(engine.score - mine.score) < EQUAL_SCORE
    )


def figures_phrase(engine_move: str, move: str, figures: tuple[Figures, Figures]) -> str:
    """What the search says of the two moves: "2@3:1 costs 6.4 win-% points and 1.8
    points (2@1:1 8.3% to win and 54.2 points, 2@3:1 1.9% and 52.4)", or that it rates
    them about equal."""
    mine, engine = figures
    rated = (
        f"{engine_move} {engine.win:.1%} to win and {engine.score:.1f} points, "
        f"{move} {mine.win:.1%} and {mine.score:.1f}"
    )
    if about_equal(figures):
        return f"the search rates them about equal ({rated})"
    win_cost = (engine.win - mine.win) * 100
    score_cost = engine.score - mine.score
    return f"{move} costs {win_cost:.1f} win-% points and {score_cost:.1f} points ({rated})"


def why_line(
    engine: MoveFacts,
    move: MoveFacts,
    found: list[Difference],
    figures: tuple[Figures, Figures] | None,
) -> str:
    """One line on why ``engine`` is the better move: its heaviest advantages over
    ``move``, the heaviest advantage ``move`` has instead, and the search's figures."""
    if engine.move == move.move:
        return f"{engine.move} is the engine's move"
    pros = [d for d in found if d.better == "engine"][:2]
    cons = [d for d in found if d.better == "move"][:1]
    parts = [d.text for d in pros]
    if engine.selection is not None and pros:
        context = selection_context(engine.selection, engine.player)
        if context:
            parts.append(context)
    if cons:
        con = cons[0]
        parts.append(f"though {move.move} {con.move_does} instead" if pros else con.text)
    if not pros:
        if figures is not None and about_equal(figures):
            parts.append(figures_phrase(engine.move, move.move, figures))
            return "; ".join(parts)
        parts.append(
            f"nothing on the board now sets {engine.move} above {move.move}: "
            "the search prefers it for the turns that follow"
        )
    if figures is not None:
        parts.append(figures_phrase(engine.move, move.move, figures))
    return "; ".join(parts)
