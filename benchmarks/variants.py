"""Engine variants for the ladder and other benchmarks: the search bot with any evaluator
option and ``SearchConfig`` field set, so each change is measured alone.

    python benchmarks/ladder.py --engine 'py:variants:engine:{iterations};placement=heuristic'

``engine(ARGUMENT)`` seats the search bot for ``ARGUMENT`` = ``BUDGET[;KEY=VALUE]...``:
``BUDGET`` as ``mcts:`` takes it (``6000``, ``1s``); each ``KEY`` is one of the
``PlayoutEvaluator`` options (``epsilon``, ``placement``, ``selection``,
``prior_temperature``) or a ``SearchConfig`` field (``exploration``, ``margin_weight``,
``prior_weight``, ``expansion``, …).  Values are read as the field's type.  Unknown keys
and bad values raise ``ManhattanError``.
"""

from __future__ import annotations

import dataclasses
import inspect

from analyzer.search_bot import SearchBot
from positions.errors import ManhattanError
from positions.playout import PlayoutEvaluator
from search.ismcts import SearchConfig
from search.limits import Limit, LimitError

EVALUATOR_OPTIONS = {
    name: parameter.default
    for name, parameter in inspect.signature(PlayoutEvaluator.__init__).parameters.items()
    if name != "self"
}
CONFIG_FIELDS = {field.name: field.default for field in dataclasses.fields(SearchConfig)}


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


def parse_variant(argument: str) -> tuple[Limit, dict, dict]:
    """``(limit, evaluator options, config fields)`` of an ``engine`` argument."""
    budget, *settings = argument.split(";")
    try:
        limit = Limit.parse(budget)
    except LimitError as error:
        raise ManhattanError(f"engine variant {argument!r}: {error}") from None
    evaluator: dict = {}
    config: dict = {}
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
        else:
            known = ", ".join([*EVALUATOR_OPTIONS, *CONFIG_FIELDS])
            raise ManhattanError(f"engine variant: unknown key {key!r} (known: {known})")
    return limit, evaluator, config


def engine(argument: str) -> SearchBot:
    """The search bot of ``argument`` (see the module docstring)."""
    limit, evaluator, config = parse_variant(argument)
    try:
        chosen = PlayoutEvaluator(**evaluator)
        settings = SearchConfig(**config)
    except ValueError as error:
        raise ManhattanError(f"engine variant {argument!r}: {error}") from None
    return SearchBot(limit, f"variant:{argument}", config=settings, evaluator=chosen)
