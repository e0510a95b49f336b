"""The engine variants the benchmarks seat (benchmarks/variants.py): every key reaches the
bot it names, and a bad key or value is a one-line error."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.append(str(Path(__file__).resolve().parent.parent / "benchmarks"))

import variants  # noqa: E402

from positions.errors import ManhattanError  # noqa: E402
from positions.inference import ChoiceModel  # noqa: E402


def test_the_default_variant_is_the_default_bot():
    bot = variants.engine("600")
    assert bot.limit.iterations == 600
    assert bot.styles and not bot.read_selections and not bot.read_greedy
    assert bot.inference is False and not bot.opponent_placement


def test_each_key_reaches_the_bot():
    bot = variants.engine("600;read_greedy=true;styles=true;margin_weight=0.01")
    assert bot.read_greedy and bot.styles
    assert bot._config.margin_weight == 0.01
    assert not variants.engine("600;styles=false").styles
    assert variants.engine("600;read_selections=true").read_selections
    assert variants.engine("600;opponent_placement=imitation").opponent_placement == "imitation"
    own = variants.engine("600;own_placement_vs_heuristic=greedy").own_placement_vs_heuristic
    assert own == "greedy"
    own = variants.engine("600;own_placement_vs_greedy=imitation").own_placement_vs_greedy
    assert own == "imitation"
    assert variants.engine("600;inference=true").inference is True
    model = variants.engine("600;inference_temperature=0.1;inference_values=greedy").inference
    assert isinstance(model, ChoiceModel)
    assert model.temperature == 0.1 and model.values == "greedy"


@pytest.mark.parametrize(
    ("argument", "message"),
    [
        ("600;read_greedy=yes", "expected a bool"),
        ("600;clever=1", "unknown key 'clever'"),
        ("600;styles", "expected KEY=VALUE"),
        ("lots", "engine variant"),
        ("600;inference_values=clever", "values must be heuristic or greedy"),
        ("600;opponent_placement=bold", "opponent placement policy must be one of"),
    ],
)
def test_a_bad_variant_is_an_error(argument, message):
    with pytest.raises(ManhattanError, match=message):
        variants.engine(argument)
