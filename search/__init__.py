"""Game-agnostic search: information-set MCTS over determinized hidden information.

It sees a game only through the small protocol in ``search.protocol``; it never imports
``positions`` or anything Manhattan-specific.
"""
