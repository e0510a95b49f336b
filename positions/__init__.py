"""The game of Manhattan: state, rules, notation, bundled files and Manhattan-specific bots.

This package knows nothing of search or analysis; ``search`` and ``analyzer`` build on it.
"""

from positions.errors import (
    HiddenInformationError,
    IllegalMoveError,
    InvalidPositionError,
    ManhattanError,
    NotationError,
)
from positions.moves import Move, NoPlacement, Placement, Selection, parse_move
from positions.notation import parse_position, write_position
from positions.options import RuleOptions, parse_options
from positions.state import TERMINAL, GameState, Phase

__all__ = [
    "TERMINAL",
    "GameState",
    "HiddenInformationError",
    "IllegalMoveError",
    "InvalidPositionError",
    "ManhattanError",
    "Move",
    "NoPlacement",
    "NotationError",
    "Phase",
    "Placement",
    "RuleOptions",
    "Selection",
    "parse_move",
    "parse_options",
    "parse_position",
    "write_position",
]
