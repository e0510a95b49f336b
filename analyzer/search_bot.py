"""The MCTS bot: a seat played by the search (``mcts:<budget>``, e.g. ``mcts:1s``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from analyzer.engine import DEFAULT_EPSILON, make_evaluator
from positions.errors import ManhattanError, quote
from positions.moves import Move
from positions.state import GameState
from search.ismcts import SearchConfig
from search.limits import Limit, LimitError
from search.players import MctsPlayer
from search.protocol import Evaluator

if TYPE_CHECKING:
    from positions.inference import ChoiceModel
    from positions.styles import Style


class SearchBot:
    """Plays the most visited decision of an information-set MCTS of ``limit`` per move,
    in one process (matches run games side by side instead of searchers).

    ``evaluator`` (default: the compiled playouts with ``epsilon``) and ``config`` let a
    benchmark seat a variant of the engine.  ``inference`` (``True`` for the bundled
    model of the player count, or a ``ChoiceModel``) deals the searched worlds by how
    likely the opponents' past decisions in the view's history make each hand
    (``positions.inference``) instead of uniformly.  ``styles`` (on by default) models
    each opponent in the playouts by the policy their placements so far fit
    (``positions.styles``; needs the compiled playout evaluator): against opponents whose
    play fits greedy play, as the engine's own does, it changes nothing, and against the
    heuristic bots it won 77 % to 68 % at 1,500 iterations (same deals).  With styles on,
    ``read_selections`` models the opponents who have always selected the biggest blocks
    left as selecting so (``positions.styles.selects_biggest``).  It is off by default: at
    6,000 iterations it won 88 % against three heuristic bots and 94 % against three greedy
    bots where the default won 90 % and 92 % on the same 100 seat-games
    (docs/STRENGTH.md).
    ``read_greedy`` also reads the hands of the opponents whose play is exactly greedy
    (``positions.styles.exactly_greedy``) by the sharp ``positions.inference.GREEDY_PLAYER``
    model, unless ``inference`` reads every opponent already.  It is off by default: against
    three greedy bots it won 92 % at 6,000 iterations, as the uniform deal did on the same
    100 seat-games (the same reading of every opponent won 94 % to 88 % at 1,500).
    A player styles read as exactly greedy is modelled by greedy play whatever the playout
    policy (the default playouts are greedy: it changes nothing there).
    With styles on, ``opponent_placement`` (a ``positions.policy.PLACEMENTS`` name) models
    every opponent whom styles read neither as the heuristic's nor as exactly greedy by
    that placement policy in the playouts, the bot's own seat keeping the evaluator's: a
    benchmark's way to tell whether a policy helps as a model of the opponents or as the
    engine's own play (empty: the evaluator's for everyone).  ``own_placement_vs_heuristic``
    (also a ``PLACEMENTS`` name, with styles on) plays the bot's own seat by that policy
    while some opponent reads as the heuristic's: the imitation policy, fitted to engines
    playing engines, loses as the engine's own play against the heuristic bots
    (docs/STRENGTH.md), and this keeps it for the tables it was fitted to (empty: the
    evaluator's at every table).  ``own_placement_vs_greedy`` (a ``PLACEMENTS`` name, with
    styles on) plays the bot's own seat by that policy while every opponent reads as exactly
    greedy: their play is then modelled as it is, and what is left to model better is the
    bot's own later play.  It is off by default: with the imitation policy it won 95.3 % of
    300 games against three greedy bots at 6,000 iterations where the default won 92.7 % of
    the same seat-games, a paired +2.7 ± 2.9 that does not clear the noise
    (docs/STRENGTH.md).  Should both switches apply, ``own_placement_vs_heuristic`` is
    played."""

    def __init__(
        self,
        limit: Limit,
        name: str | None = None,
        epsilon: float = DEFAULT_EPSILON,
        config: SearchConfig | None = None,
        evaluator: Evaluator | None = None,
        inference: bool | ChoiceModel = False,
        styles: bool = True,
        read_greedy: bool = False,
        read_selections: bool = False,
        opponent_placement: str = "",
        own_placement_vs_heuristic: str = "",
        own_placement_vs_greedy: str = "",
    ):
        for what, policy in (
            ("opponent", opponent_placement),
            ("own-seat", own_placement_vs_heuristic),
            ("own-seat", own_placement_vs_greedy),
        ):
            if policy:
                from positions.policy import check_policy  # numba: only when asked

                if not styles:
                    raise ManhattanError(f"an {what} placement policy needs styles on")
                try:
                    check_policy(policy, "bag")
                except ValueError as error:
                    raise ManhattanError(f"{what} {error}") from None
        self.limit = limit
        self.inference = inference
        self.styles = styles
        self.read_greedy = read_greedy
        self.read_selections = read_selections
        self.opponent_placement = opponent_placement
        self.own_placement_vs_heuristic = own_placement_vs_heuristic
        self.own_placement_vs_greedy = own_placement_vs_greedy
        self.name = name or f"mcts:{limit}"
        self._evaluator = evaluator if evaluator is not None else make_evaluator(epsilon)
        self._config = config or SearchConfig()
        self._player = MctsPlayer(limit, self._evaluator, self._config)

    @classmethod
    def from_budget(cls, budget: str, name: str | None = None) -> SearchBot:
        """A bot from budget text (``1s``, ``200ms``, ``5000``); raises ``ManhattanError``."""
        try:
            return cls(Limit.parse(budget), name)
        except LimitError as error:
            raise ManhattanError(f"bot spec {quote(name or budget)}: {error}") from None

    def choose(self, view: GameState, rng: np.random.Generator) -> Move:
        """The searched move for the seat to move in ``view``."""
        searched = view
        if self.inference is not False:
            from positions.inference import InferenceDealer  # numba: only when asked

            model = None if self.inference is True else self.inference
            searched = view.clone()
            searched.dealer = InferenceDealer(model)
        player = self._player
        if self.styles:
            from positions.styles import read_styles  # numba: only when asked

            reader = view.current_player()
            styles = read_styles(view, reader)
            placement = self._evaluator.placement
            placement = [placement] * len(styles) if isinstance(placement, str) else placement
            modelled = [  # the opponents' model, where one is asked for
                self.opponent_placement if seat != reader and self.opponent_placement else mine
                for seat, mine in enumerate(placement)
            ]
            opponents = [style for seat, style in enumerate(styles) if seat != reader]
            if self.own_placement_vs_heuristic and any(
                style.policy == "heuristic" for style in opponents
            ):
                modelled[reader] = self.own_placement_vs_heuristic
            elif self.own_placement_vs_greedy and all(style.exactly_greedy for style in opponents):
                modelled[reader] = self.own_placement_vs_greedy
            policies = tuple(
                _policy_for(style, mine) for style, mine in zip(styles, modelled, strict=True)
            )
            selections = None
            if self.read_selections and any(style.selects_biggest for style in styles):
                own = self._evaluator.selection
                own = [own] * len(styles) if isinstance(own, str) else list(own)
                selections = tuple(
                    "biggest" if style.selects_biggest else mine
                    for style, mine in zip(styles, own, strict=True)
                )
            if selections or tuple(policies) != tuple(placement):
                evaluator = self._evaluator.with_policies(policies, selections)
                player = MctsPlayer(self.limit, evaluator, self._config)
            greedy = [seat for seat, style in enumerate(styles) if style.exactly_greedy]
            if self.read_greedy and greedy and self.inference is False:
                from positions.inference import GREEDY_PLAYER, InferenceDealer

                searched = view.clone()
                searched.dealer = InferenceDealer(GREEDY_PLAYER, readers=greedy)
        return view.actions_to_move(player.choose_actions(searched, rng))

    def close(self) -> None:
        """Nothing to release."""


def _policy_for(style: Style, modelled: str) -> str:
    """The placement policy a player of ``style`` is played by in the playouts: the
    heuristic's for a heuristic style, greedy play for an exactly greedy one (they play
    no other way, whatever policy models everyone else), else ``modelled``."""
    if style.policy == "heuristic":
        return "heuristic"
    return "greedy" if style.exactly_greedy else modelled
