"""Rule options (RULES.md, "Rule options"): where the rulebooks disagree, the user chooses."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields, replace

from positions.errors import ManhattanError

# name -> (default, allowed values, player counts it applies to)
_OPTION_TABLE: dict[str, tuple[str, tuple[str, ...], tuple[int, ...]]] = {
    "two_player_total": ("sum", ("sum", "min"), (2,)),
    "tallest_tie": ("none", ("none", "shared"), (2, 3, 4)),
}


@dataclass(frozen=True)
class RuleOptions:
    """The rule options in force; defaults are the rules every rulebook agrees on."""

    two_player_total: str = "sum"
    tallest_tie: str = "none"

    def non_default(self) -> list[str]:
        """``name=value`` strings for the options that differ from the defaults, in table order."""
        return [
            f"{f.name}={getattr(self, f.name)}"
            for f in fields(self)
            if getattr(self, f.name) != _OPTION_TABLE[f.name][0]
        ]


def option_names() -> list[str]:
    """The known option names."""
    return list(_OPTION_TABLE)


def parse_option(text: str, players: int | None = None) -> tuple[str, str]:
    """Parse one ``name=value`` option, checking the name, the value and that it applies
    to ``players`` (when given).  Raises ``ManhattanError`` naming what was expected."""
    name, sep, value = text.partition("=")
    if not sep or not name or not value:
        raise ManhattanError(f"option {text!r}: expected name=value")
    if name not in _OPTION_TABLE:
        raise ManhattanError(
            f"option {text!r}: unknown option {name!r}, expected one of {', '.join(_OPTION_TABLE)}"
        )
    _, allowed, counts = _OPTION_TABLE[name]
    if value not in allowed:
        raise ManhattanError(f"option {text!r}: expected {name}={' or '.join(allowed)}")
    if players is not None and players not in counts:
        raise ManhattanError(
            f"option {text!r}: {name} applies only to {'/'.join(map(str, counts))}-player games"
        )
    return name, value


def parse_options(texts: Iterable[str], players: int | None = None) -> RuleOptions:
    """Build ``RuleOptions`` from ``name=value`` strings; a name given twice is an error."""
    chosen: dict[str, str] = {}
    for text in texts:
        name, value = parse_option(text, players)
        if name in chosen:
            raise ManhattanError(f"option {name!r} given twice")
        chosen[name] = value
    return replace(RuleOptions(), **chosen)
