"""Plain-words reasons for a move: what it does on the board that a player would name.

Kept as a function of its own so analysis, review and (later) coaching speak alike.
"""

from __future__ import annotations

from positions import rules
from positions.layout import COLOR_LETTERS, SITES_PER_CITY, SIZES
from positions.moves import Move, NoPlacement, Placement, Selection
from positions.state import GameState


def _majority_owner(state: GameState, city: int) -> int:
    return rules.city_majority(rules.city_buildings(state.owner, city))


def _tallest_owner(state: GameState) -> int:
    """Color owning the single tallest building, or -1 when none or tied."""
    tallest = max(state.height)
    sites = [s for s, h in enumerate(state.height) if h == tallest]
    return state.owner[sites[0]] if tallest > 0 and len(sites) == 1 else -1


def _placement_reasons(before: GameState, after: GameState, move: Placement) -> list[str]:
    player = before.to_move
    colors = before.layout.player_colors[player]
    reasons = []
    site = (move.city - 1) * SITES_PER_CITY + before.layout.card_sites[player][move.card]
    previous_owner = before.owner[site]
    if _tallest_owner(after) in colors and _tallest_owner(before) not in colors:
        reasons.append("takes the tallest building")
    elif _tallest_owner(before) >= 0 and _tallest_owner(after) == -1:
        reasons.append("ties the tallest building so nobody scores it")
    city = move.city - 1
    if _majority_owner(after, city) in colors and _majority_owner(before, city) not in colors:
        reasons.append(f"wins the majority in city {move.city}")
    elif _majority_owner(before, city) >= 0 and _majority_owner(after, city) == -1:
        reasons.append(f"breaks the majority in city {move.city}")
    if previous_owner >= 0 and previous_owner not in colors:
        reasons.append(f"takes over a building from {COLOR_LETTERS[previous_owner]}")
    gained = sum(after.round_points()[c] - before.round_points()[c] for c in colors)
    if not reasons and gained > 0:
        reasons.append(f"gains {gained} point{'s' if gained != 1 else ''} this round")
    return reasons


def _selection_reasons(state: GameState, move: Selection) -> list[str]:
    rounds_left = state.layout.rounds - state.round
    reasons = []
    for color, part in zip(state.layout.player_colors[state.to_move], move.blocks, strict=True):
        fours_left = state.supply[color * SIZES + 3]
        taken = part.count(4)
        kept = fours_left - taken
        name = f" of {COLOR_LETTERS[color]}" if len(move.blocks) > 1 else ""
        if rounds_left and kept >= 2 and taken == 0:
            amount = "both" if kept == 2 else f"all {kept}"
            reasons.append(f"keeps {amount} 4-story blocks{name} for later rounds")
        elif rounds_left and kept == 1 and taken == 0:
            reasons.append(f"keeps the last 4-story block{name} for a later round")
        elif taken >= 2:
            reasons.append(f"brings {taken} 4-story blocks{name} to fight for the tallest now")
    return reasons


def explain_move(state: GameState, move: Move) -> str | None:
    """A short plain-words reason for ``move`` in ``state`` ("takes the tallest building",
    "wins the majority in city 4", "keeps both 4-story blocks for later rounds"), or
    ``None`` when no reason is clear.  ``state`` is not changed."""
    if isinstance(move, Selection):
        reasons = _selection_reasons(state, move)
    elif isinstance(move, NoPlacement):
        reasons = [f"no placement is legal: gives up a {move.stories}-story block"]
    else:
        after = state.clone()
        try:
            after.apply_move(move)
        except ValueError:
            return None
        reasons = _placement_reasons(state, after, move)
    return "; ".join(reasons) if reasons else None

