"""Engine variants for the ladder and other benchmarks: the search bot with any evaluator
option and ``SearchConfig`` field set, so each change is measured alone.

    python benchmarks/ladder.py --engine 'py:variants:engine:{iterations};placement=heuristic'

``engine(ARGUMENT)`` seats the search bot for ``ARGUMENT`` = ``BUDGET[;KEY=VALUE]...``:
``BUDGET`` as ``mcts:`` takes it (``6000``, ``1s``); each ``KEY`` is one of the
``PlayoutEvaluator`` options (``epsilon``, ``placement``, ``selection``,
``prior_temperature``, ``prior_source``, ``horizon``) or a ``SearchConfig`` field
(``exploration``, ``margin_weight``, ``prior_weight``, ``expansion``, …), or a switch of
``SearchBot``: ``styles`` (``false``: model every opponent by the default playout
policies instead of the ones their play fits, ``positions.styles``), ``read_selections``
(``true``: model the opponents who have always selected the biggest blocks left as
selecting so), ``read_greedy`` (``true``: deal the hands of the opponents who play
exactly greedy by ``positions.inference.GREEDY_PLAYER``), ``opponent_placement`` (a
placement policy to model the opponents by, the bot's own seat keeping ``placement``),
``own_placement_vs_heuristic`` (a placement policy for the bot's own seat while some
opponent reads as the heuristic's), ``own_placement_vs_greedy`` (one for the bot's own
seat while every opponent reads as exactly greedy), or ``inference`` (``true``: deal by
the bundled opponent model) and ``inference_*`` for a ``ChoiceModel`` field
(``inference_temperature``, ``inference_mix``, ``inference_depth``, …: inference with that
model, the other fields from the bundled one). Values are read as the field's type.
Unknown keys and bad values raise ``ManhattanError``.
"""

from __future__ import annotations

import dataclasses
import inspect

from analyzer.search_bot import SearchBot
from positions.errors import ManhattanError
from positions.inference import ChoiceModel
from positions.playout import PlayoutEvaluator
from search.ismcts import SearchConfig
from search.limits import Limit, LimitError

EVALUATOR_OPTIONS = {
    name: parameter.default
    for name, parameter in inspect.signature(PlayoutEvaluator.__init__).parameters.items()
    if name != "self"
}
CONFIG_FIELDS = {field.name: field.default for field in dataclasses.fields(SearchConfig)}
SWITCHES = {
    name: inspect.signature(SearchBot.__init__).parameters[name].default
    for name in (
        "styles",
        "read_selections",
        "read_greedy",
        "opponent_placement",
        "own_placement_vs_heuristic",
        "own_placement_vs_greedy",
    )
}
MODEL_FIELDS = {f"inference_{f.name}": f.default for f in dataclasses.fields(ChoiceModel)}


def _typed(key: str, text: str, default: object) -> object:
    """``text`` read as the type of ``default``; raises ``ManhattanError``."""
    try:
        if isinstance(default, bool):
            if text not in ("true", "false"):
                raise ValueError(text)
            return text == "true"
        return type(default)(text)
    except ValueError:
        raise ManhattanError(
            f"engine variant: {key}={text!r}: expected a {type(default).__name__}"
        ) from None


@dataclasses.dataclass(frozen=True)
class Variant:
    """An ``engine`` argument read: the budget, the evaluator options, the config fields,
    the opponent model's fields (None: no inference) and the ``SWITCHES`` of the bot."""

    limit: Limit
    evaluator: dict
    config: dict
    model: dict | None
    switches: dict


def parse_variant(argument: str) -> Variant:
    """The ``Variant`` of an ``engine`` argument; raises ``ManhattanError``."""
    budget, *settings = argument.split(";")
    try:
        limit = Limit.parse(budget)
    except LimitError as error:
        raise ManhattanError(f"engine variant {argument!r}: {error}") from None
    evaluator: dict = {}
    config: dict = {}
    model: dict | None = None
    switches = dict(SWITCHES)
    for setting in settings:
        key, equals, text = setting.partition("=")
        if not equals:
            raise ManhattanError(
                f"engine variant {argument!r}: expected KEY=VALUE, not {setting!r}"
            )
        if key in EVALUATOR_OPTIONS:
            evaluator[key] = _typed(key, text, EVALUATOR_OPTIONS[key])
        elif key in CONFIG_FIELDS:
            config[key] = _typed(key, text, CONFIG_FIELDS[key])
        elif key in SWITCHES:
            switches[key] = _typed(key, text, SWITCHES[key])
        elif key == "inference":
            if _typed(key, text, False):
                model = model or {}
        elif key in MODEL_FIELDS:
            model = model or {}
            model[key.removeprefix("inference_")] = _typed(key, text, MODEL_FIELDS[key])
        else:
            known = ", ".join(
                [
                    *EVALUATOR_OPTIONS,
                    *CONFIG_FIELDS,
                    *SWITCHES,
                    "inference",
                    *MODEL_FIELDS,
                ]
            )
            raise ManhattanError(f"engine variant: unknown key {key!r} (known: {known})")
    return Variant(limit, evaluator, config, model, switches)


def engine(argument: str, players: int = 4) -> SearchBot:
    """The search bot of ``argument`` (see the module docstring) for ``players``-player
    games (whose bundled opponent model ``inference_*`` fields change)."""
    variant = parse_variant(argument)
    try:
        chosen = PlayoutEvaluator(**variant.evaluator)
        settings = SearchConfig(**variant.config)
        inference: bool | ChoiceModel = False
        if variant.model == {}:
            inference = True
        elif variant.model:
            inference = dataclasses.replace(ChoiceModel.bundled(players), **variant.model)
    except ValueError as error:
        raise ManhattanError(f"engine variant {argument!r}: {error}") from None
    return SearchBot(
        variant.limit,
        f"variant:{argument}",
        config=settings,
        evaluator=chosen,
        inference=inference,
        **variant.switches,
    )
