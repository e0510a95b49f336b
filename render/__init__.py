"""The presentation layer: terminal drawings (rich), board pictures (SVG) and the
self-contained HTML reports of an analysis and a game review.

Data flows text → ``positions`` → ``search`` → ``analyzer`` → ``render`` → ``cli``:
``render`` reads game states and the plain results of the analyzer, nothing imports it
but the command line.
"""
