"""The colours every picture uses: one per block colour, from the Okabe–Ito palette that
readers with any common colour-vision deficiency can tell apart, and a text colour that
stays readable on each.  Every picture also writes the colour letter, so nothing depends
on telling colours apart.
"""

from __future__ import annotations

from positions.layout import COLOR_LETTERS

# Okabe & Ito (2008): vermillion, blue, bluish green, yellow, in the order a, b, c, d
# (close to the terminal's red, blue, green, yellow).
BLOCK_FILLS = {"a": "#D55E00", "b": "#0072B2", "c": "#009E73", "d": "#F0E442"}
# Text on a block: white on the dark fills, near-black on yellow.
BLOCK_TEXT = {"a": "#fff", "b": "#fff", "c": "#fff", "d": "#222"}
# Lines of the win-probability graph: the same hue per colour, yellow darkened so a thin
# line shows on white.
LINE_COLORS = {"a": "#D55E00", "b": "#0072B2", "c": "#009E73", "d": "#B8A800"}
NEUTRAL = "#777"


def block_fill(letter: str) -> str:
    """The fill of a block of colour ``letter`` (``a``–``d``)."""
    return BLOCK_FILLS[letter]


def player_line_color(player_colors: tuple[int, ...]) -> str:
    """The graph colour of a player: the colour of their first block colour."""
    return LINE_COLORS[COLOR_LETTERS[player_colors[0]]]
