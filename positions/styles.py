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

Only public information is read (the board, the played card, the move), so reading
styles never uses a card the reader cannot see.  The other cards of the hand are not
known, which is why a move is judged among the placements of its own card only.
"""

from __future__ import annotations

import math

import numpy as np

from positions.kernel_board import pack_board
from positions.layout import CITIES
from positions.moves import NO_PLACEMENT_BASE
from positions.policy import TIE, placement_values, public_unseen, values_weights
from positions.state import GameState, PastDecision

DEPTH = 24  # an opponent's last placements read
MIX = 0.1  # the share of random play in each model, so that no move rules one out
GREEDY_WEIGHTS = values_weights("greedy")


def log_likelihoods(decision: PastDecision) -> tuple[float, float]:
    """The log-likelihood of ``decision``'s placement under greedy play and under the
    heuristic, each valued from its public position among the placements of the played
    card (see the module docstring)."""
    before = decision.before
    arrays = pack_board(before)
    card = decision.action // (CITIES * 8) + 1
    unseen = public_unseen(before.played)
    found = []
    for weights in (GREEDY_WEIGHTS, values_weights("heuristic")):
        values = placement_values(arrays, decision.player, (card,), unseen, weights)
        legal = ~np.isnan(values)
        best = legal & (values >= np.nanmax(values) - TIE)
        chosen = (1 - MIX) * best[decision.action] / best.sum() + MIX / legal.sum()
        found.append(math.log(chosen))
    greedy, heuristic = found
    return greedy, heuristic


def fitted_policies(state: GameState, reader: int) -> tuple[str, ...]:
    """The placement policy to model each player with, in seat order, from ``state``'s
    public history as ``reader`` sees it: ``"heuristic"`` for an opponent whose last
    ``DEPTH`` placements are more likely under the heuristic than under greedy play,
    ``"greedy"`` for everyone else (the reader too)."""
    history = state.history or []
    policies = []
    for player in range(state.layout.players):
        mine = [
            decision
            for decision in reversed(history)
            if decision.player == player and decision.action < NO_PLACEMENT_BASE
        ][:DEPTH]
        evidence = 0.0  # log-likelihood ratio, heuristic over greedy
        if player != reader:
            for decision in mine:
                greedy, heuristic = log_likelihoods(decision)
                evidence += heuristic - greedy
        policies.append("heuristic" if evidence > 0 else "greedy")
    return tuple(policies)
