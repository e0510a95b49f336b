"""What players come for: analysis of a position, game review, puzzle solving, matches.

Joins ``positions`` (the game) and ``search`` (the engine).
"""
