"""Reading how each opponent plays: which playout policy their placements so far fit.

The search plays every reply with a playout policy, so its values are only as good as
that policy is a model of the players at the table.  Two models are compiled
(``positions.policy``): ``"greedy"`` (the most immediate round points) and
``"heuristic"`` (``HeuristicBot``'s valuation: takeover risk, bystanders, big blocks
first).  For each opponent this module looks at their last placements in the public
history: with the card they played (public) and the position before the move (public),
how likely was their move under each policy, played as "one of that card's best
placements by the policy's values, at random" mixed with a little random play (``MIX``)?
A policy that fits scores each move it explains at 1/(its number of best moves); the
moves that tell are the ties of one policy that the other breaks (the heuristic prefers
bigger blocks when the points are equal, greedy play does not care).  A player whose last
``DEPTH`` placements are more likely under the heuristic is modelled by it; everyone
else, the reader included, by greedy play — the policy measured best against the search
itself.

A player is also read as *exactly greedy* (``exactly_greedy``) when each of their
placements so far, at least ``EXACT_LEAST`` of them, was one of its card's best by
immediate points and their ties lean against the heuristic's (the evidence above is
negative): that is how the greedy bot plays, and a player who plays so makes their hand
readable by the sharp ``positions.inference.GREEDY_PLAYER`` model.  Neither the engine (its
first placements, which score nothing yet, miss the greedy best: in 16 seats of
``mcts:600``/``mcts:1500`` games the first miss came at placement 0 to 3) nor the heuristic
bot (its ties always lean its way) is read so.

Selections are read too, from the public supplies: an opponent each of whose selections
so far took the biggest blocks left, in every color and round where a smaller block was
there to take instead, is read as selecting so (``selects_biggest``, as the built-in bots
select); everyone else, the reader included, is left to the playouts' own selection.

Only public information is read (the board, the played card, the move, the selections), so
reading styles never uses a card the reader cannot see.  The other cards of the hand are not
known, which is why a move is judged among the placements of its own card only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from positions.bots import biggest_blocks
from positions.kernel_board import pack_board
from positions.layout import CITIES, SIZES
from positions.moves import NO_PLACEMENT_BASE
from positions.policy import TIE, placement_values, public_unseen, values_weights
from positions.state import GameState, PastDecision

DEPTH = 24  # an opponent's last placements read
MIX = 0.1  # the share of random play in each model, so that no move rules one out
GREEDY_WEIGHTS = values_weights("greedy")
HEURISTIC_WEIGHTS = values_weights("heuristic")
EXACT_LEAST = 4  # placements read before a player can be read as exactly greedy


def _fits(decision: PastDecision, *policies: np.ndarray) -> list[tuple[float, bool]]:
    """For each policy (its value weights): the log-likelihood of ``decision``'s placement
    under it (see the module docstring) and whether the placement was one of the played
    card's best by its values.  The position is packed once for all of them."""
    before = decision.before
    arrays = pack_board(before)
    card = decision.action // (CITIES * 8) + 1
    unseen = public_unseen(before.played)
    found = []
    for weights in policies:
        values = placement_values(arrays, decision.player, (card,), unseen, weights)
        legal = ~np.isnan(values)
        best = legal & (values >= np.nanmax(values) - TIE)
        chosen = (1 - MIX) * best[decision.action] / best.sum() + MIX / legal.sum()
        found.append((math.log(chosen), bool(best[decision.action])))
    return found


def log_likelihoods(decision: PastDecision) -> tuple[float, float]:
    """The log-likelihood of ``decision``'s placement under greedy play and under the
    heuristic, each valued from its public position among the placements of the played
    card (see the module docstring)."""
    (greedy, _), (heuristic, _) = _fits(decision, GREEDY_WEIGHTS, HEURISTIC_WEIGHTS)
    return greedy, heuristic


@dataclass(frozen=True)
class Style:
    """How one player's play so far reads: ``policy`` (the placement policy to model them
    with), ``exactly_greedy`` and ``selects_biggest`` (see the module docstring)."""

    policy: str
    exactly_greedy: bool
    selects_biggest: bool = False


def took_biggest(available: Sequence[int], selected: Sequence[int], quota: int) -> bool | None:
    """Whether one color's selection (``selected``, blocks per size, 1-story first) took the
    biggest of the ``available`` blocks (per size, before it) for a ``quota``: None when no
    smaller block was left to take instead (every selection then looks the same)."""
    biggest = biggest_blocks(available, quota)
    smallest_taken = next((size for size, n in enumerate(biggest) if n), len(available))
    if not any(available[size] - biggest[size] for size in range(smallest_taken)):
        return None
    return list(selected) == biggest


def _selections(state: GameState) -> list[GameState]:
    """The public positions that show a round's selections whole: the position before each
    round's first placement in the history, and ``state`` itself for a round the history
    has not reached (its complete selections only count, see ``selects_biggest``)."""
    firsts: dict[int, GameState] = {}
    for decision in state.history or []:
        firsts.setdefault(decision.before.round, decision.before)
    return [*firsts.values(), *([] if state.round in firsts else [state])]


def selects_biggest(state: GameState, player: int) -> bool:
    """Whether every selection of ``player``'s colors that ``state``'s public positions
    show whole (``_selections``), at least one with a choice, took the biggest blocks left
    (``took_biggest``)."""
    quota = state.layout.quota
    verdicts = []
    for shown in _selections(state):
        for color in state.layout.player_colors[player]:
            kinds = slice(color * SIZES, (color + 1) * SIZES)
            selected = shown.selected[kinds]
            available = [
                left + taken for left, taken in zip(shown.supply[kinds], selected, strict=True)
            ]
            if sum(selected) == min(quota, sum(available)):  # a whole selection
                verdicts.append(took_biggest(available, selected, quota))
    read = [verdict for verdict in verdicts if verdict is not None]
    return bool(read) and all(read)


def read_styles(state: GameState, reader: int) -> tuple[Style, ...]:
    """Each player's ``Style``, in seat order, from ``state``'s public history as
    ``reader`` sees it: the policy is ``"heuristic"`` for an opponent whose last ``DEPTH``
    placements are more likely under the heuristic than under greedy play and
    ``"greedy"`` for everyone else (the reader too, who is never exactly greedy); the
    reader never ``selects_biggest``."""
    history = state.history or []
    styles = []
    for player in range(state.layout.players):
        mine = [
            decision
            for decision in reversed(history)
            if decision.player == player and decision.action < NO_PLACEMENT_BASE
        ]
        evidence = 0.0  # log-likelihood ratio, heuristic over greedy
        always_best = len(mine) >= EXACT_LEAST
        if player != reader:
            for index, decision in enumerate(mine):
                if index < DEPTH:
                    (greedy, best), (heuristic, _) = _fits(
                        decision, GREEDY_WEIGHTS, HEURISTIC_WEIGHTS
                    )
                    evidence += heuristic - greedy
                else:
                    [(_, best)] = _fits(decision, GREEDY_WEIGHTS)
                always_best = always_best and best
        policy = "heuristic" if evidence > 0 else "greedy"
        biggest = player != reader and selects_biggest(state, player)
        styles.append(Style(policy, player != reader and always_best and evidence < 0, biggest))
    return tuple(styles)


def fitted_policies(state: GameState, reader: int) -> tuple[str, ...]:
    """The placement policy to model each player with, in seat order (``read_styles``)."""
    return tuple(style.policy for style in read_styles(state, reader))


def exactly_greedy(state: GameState, reader: int) -> tuple[int, ...]:
    """The opponents of ``reader`` whose placements so far read as exactly greedy play."""
    return tuple(p for p, style in enumerate(read_styles(state, reader)) if style.exactly_greedy)
