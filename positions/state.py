"""The game state: everything about a Manhattan game at one moment, and the moves that
change it (RULES.md).

The interface follows OpenSpiel's: ``current_player()``, sorted ``legal_actions()``,
``apply_action()``, ``is_terminal()``, ``returns()`` (one value per player), ``clone()``,
``information_state_string(player)`` and ``resample_from_infostate(player, rng)``; the
readable side (``legal_moves()``, ``apply_move()``) works with the values of
``positions.moves``.

Hidden cards.  A hand is a count per card type with index 0 counting cards the reader of
the state cannot see (``?``).  The deck is either unknown (``deck is None``: a draw is a
``?`` unless a record names it) or, in a world the search has dealt, an ordered list whose
end is the top card; when it runs out the played pile is reshuffled with a generator
seeded from ``shuffle_seed``, so a dealt world is fully determined and cheap to clone.

History.  A state played forward with ``apply_move`` (a game, a record's replay) keeps
its public history: for every placement decision the position before it as everyone saw
it, who decided and the action (``history``, a list of ``PastDecision``).  A state read
from a position string starts with none, and a world dealt for a search carries none.
``dealer``, when set, deals the worlds of ``resample_from_infostate`` instead of the
uniform deal (``positions.inference`` weighs the hands by the opponents' past decisions).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import IntEnum
from itertools import combinations_with_replacement, product
from typing import TYPE_CHECKING, NamedTuple, Protocol

from positions import rules
from positions.errors import HiddenInformationError, IllegalMoveError
from positions.layout import (
    CARD_TYPES,
    CARDS_PER_TYPE,
    COLOR_LETTERS,
    COLORS,
    DECK_SIZE,
    FULL_SET,
    HAND_SIZE,
    SITES,
    SITES_PER_CITY,
    SIZES,
    Layout,
    layout,
)
from positions.moves import (
    PICK_BASE,
    Move,
    NoPlacement,
    Placement,
    Selection,
    decode_action,
    no_placement_action,
    pick_action,
    placement_action,
)
from positions.options import RuleOptions

if TYPE_CHECKING:
    import numpy as np

TERMINAL = -4  # current_player() of a finished game, as in OpenSpiel


class Phase(IntEnum):
    """The part of the round the game is in."""

    SELECTION = 0
    PLACEMENT = 1
    OVER = 2


class Dealer(Protocol):
    """Deals the worlds of ``GameState.resample_from_infostate`` (see there)."""

    def deal(self, state: GameState, player: int, rng: np.random.Generator) -> GameState:
        """A full world consistent with everything ``player`` sees in ``state``."""
        ...


class GameState:
    """A Manhattan game at one moment.  Players and colors are 0-based inside (player 0 is
    P1, color 0 is ``a``); notation and the command line speak 1-based."""

    __slots__ = (
        "layout",
        "options",
        "round",
        "phase",
        "to_move",
        "stacks",
        "stories",
        "height",
        "owner",
        "supply",
        "selected",
        "scores",
        "hands",
        "played",
        "deck",
        "shuffle_seed",
        "history",
        "dealer",
    )

    def __init__(self, players: int, options: RuleOptions | None = None):
        """The start of a game with every hand unseen (``?``) and the deck unknown.
        Raises ``ValueError`` for a player count other than 2, 3 or 4."""
        self.layout: Layout = layout(players)
        self.options = options or RuleOptions()
        self.round = 1
        self.phase = Phase.SELECTION
        self.to_move = 0
        self.stacks: list[tuple[int, ...]] = [()] * SITES  # block codes color*4 + stories-1
        self.stories = [0] * (SITES * COLORS)
        self.height = [0] * SITES
        self.owner = [-1] * SITES
        self.supply = [0] * (COLORS * SIZES)
        for color in self.colors_in_play():
            self.supply[color * SIZES : color * SIZES + SIZES] = list(FULL_SET)
        self.selected = [0] * (COLORS * SIZES)
        self.scores = [0] * COLORS
        self.hands = [0] * (players * 10)
        for p in range(players):
            self.hands[p * 10] = HAND_SIZE
        self.played = [0] * 10
        self.deck: list[int] | None = None
        self.shuffle_seed = 0
        self.history: list[PastDecision] | None = []  # None: not kept (a dealt world)
        self.dealer: Dealer | None = None

    # ----- construction ---------------------------------------------------------------

    @classmethod
    def new_game(
        cls, players: int, rng: np.random.Generator, options: RuleOptions | None = None
    ) -> GameState:
        """A new game with the deck shuffled by ``rng`` and four cards dealt to each player
        (P1 first), every card known: the world a bot game is played in."""
        state = cls(players, options)
        deck = [card for card in range(1, CARD_TYPES + 1) for _ in range(CARDS_PER_TYPE)]
        deck = [int(c) for c in rng.permutation(deck)]
        for p in range(players):
            state.hands[p * 10] = 0
            for _ in range(HAND_SIZE):
                state.hands[p * 10 + deck.pop()] += 1
        state.deck = deck
        state.shuffle_seed = int(rng.integers(2**62))
        return state

    def clone(self) -> GameState:
        """An independent copy (lists are copied; stacks share their immutable tuples)."""
        other = GameState.__new__(GameState)
        other.layout = self.layout
        other.options = self.options
        other.round = self.round
        other.phase = self.phase
        other.to_move = self.to_move
        other.stacks = self.stacks[:]
        other.stories = self.stories[:]
        other.height = self.height[:]
        other.owner = self.owner[:]
        other.supply = self.supply[:]
        other.selected = self.selected[:]
        other.scores = self.scores[:]
        other.hands = self.hands[:]
        other.played = self.played[:]
        other.deck = None if self.deck is None else self.deck[:]
        other.shuffle_seed = self.shuffle_seed
        other.history = None if self.history is None else self.history[:]
        other.dealer = self.dealer
        return other

    def public_copy(self) -> GameState:
        """A copy showing what every player sees: every hand unseen, the deck unknown, no
        history and no dealer."""
        seen = self.clone()
        for p in range(self.players):
            base = p * 10
            seen.hands[base : base + 10] = [HAND_SIZE] + [0] * CARD_TYPES
        seen.deck = None
        seen.shuffle_seed = 0
        seen.history = None
        seen.dealer = None
        return seen

    # ----- what the state shows -------------------------------------------------------

    @property
    def players(self) -> int:
        """The number of players."""
        return self.layout.players

    def num_players(self) -> int:
        """The number of players (OpenSpiel's name)."""
        return self.layout.players

    def colors_in_play(self) -> range:
        """The colors with a score and a supply in this game (a-c in 3p, a-d otherwise)."""
        return range(self.layout.colors_in_play)

    def current_player(self) -> int:
        """The player to move (0-based), or ``TERMINAL`` when the game is over."""
        return TERMINAL if self.phase == Phase.OVER else self.to_move

    def is_terminal(self) -> bool:
        """Whether the last round has been scored."""
        return self.phase == Phase.OVER

    def hand(self, player: int) -> list[int]:
        """The known cards of ``player``'s hand, ascending, then one 0 per unseen card."""
        base = player * 10
        cards = [c for c in range(1, CARD_TYPES + 1) for _ in range(self.hands[base + c])]
        return cards + [0] * self.hands[base]

    def hand_is_known(self, player: int) -> bool:
        """Whether every card of ``player``'s hand is shown."""
        return self.hands[player * 10] == 0

    def deck_count(self) -> int:
        """Cards in the draw pile now."""
        return DECK_SIZE - sum(self.hands) - sum(self.played)

    def visible_count(self, card: int) -> int:
        """Copies of ``card`` that the state shows: in known hand cards and the played pile."""
        shown = sum(self.hands[p * 10 + card] for p in range(self.players))
        return shown + self.played[card]

    def blocks_held(self, player: int) -> int:
        """Selected and not yet placed blocks of ``player`` (both colors in 2p)."""
        colors = self.layout.player_colors[player]
        return sum(sum(self.selected[c * SIZES : c * SIZES + SIZES]) for c in colors)

    def stack(self, site: int) -> list[tuple[int, int]]:
        """The building on ``site`` as ``(color, stories)`` blocks, bottom first."""
        return [(code // SIZES, code % SIZES + 1) for code in self.stacks[site]]

    def round_points(self) -> list[int]:
        """What each color (a, b, c, d) would score if the round were scored now."""
        return rules.round_points(self.height, self.owner, self.options.tallest_tie == "shared")

    def player_totals(self) -> list[int]:
        """Each player's total: their color's score, or in 2p both colors summed (or the
        weaker one with ``two_player_total=min``)."""
        combine = min if self.options.two_player_total == "min" else sum
        return [combine(self.scores[c] for c in colors) for colors in self.layout.player_colors]

    def places(self) -> list[int]:
        """Each player's place (1 = first) by total, tallest building, buildings owned."""
        keys = rules.ranking_keys(
            self.player_totals(), self.height, self.owner, self.layout.player_colors
        )
        return rules.places_from_keys(keys)

    def returns(self) -> list[float]:
        """Win shares per player at the end (a shared first counts 1/k), zeros before."""
        if not self.is_terminal():
            return [0.0] * self.players
        return rules.win_shares(self.places())

    def information_state_string(self, player: int) -> str:
        """The position string as ``player`` sees it (every other hand ``?``)."""
        from positions.notation import write_position

        return write_position(self.view(player))

    def view(self, player: int) -> GameState:
        """A copy showing only what ``player`` can know: other hands unseen, deck unknown
        (the public history is kept; no dealer)."""
        seen = self.clone()
        for p in range(self.players):
            if p != player:
                base = p * 10
                seen.hands[base : base + 10] = [HAND_SIZE] + [0] * CARD_TYPES
        seen.deck = None
        seen.shuffle_seed = 0
        seen.dealer = None
        return seen

    # ----- the hidden cards -----------------------------------------------------------

    def unseen_cards(self, player: int) -> list[int]:
        """The cards ``player`` cannot see (other hands, the deck and their own ``?``s),
        as a sorted list: 5 of each type less their known hand and the played pile."""
        base = player * 10
        return [
            card
            for card in range(1, CARD_TYPES + 1)
            for _ in range(CARDS_PER_TYPE - self.hands[base + card] - self.played[card])
        ]

    def resample_from_infostate(self, player: int, rng: np.random.Generator) -> GameState:
        """A full world consistent with what ``player`` knows: by the ``dealer`` when one
        is set, else ``deal_uniformly``.  Uses only ``player``'s information, whatever the
        state shows of other hands."""
        if self.dealer is not None:
            return self.dealer.deal(self, player, rng)
        return self.deal_uniformly(player, rng)

    def deal_uniformly(self, player: int, rng: np.random.Generator) -> GameState:
        """A full world consistent with what ``player`` knows, every one equally likely:
        the cards they cannot see are dealt at random to the other hands (and their own
        unseen cards), the rest form a shuffled deck, and future reshuffles get a fresh
        seed.  The world keeps no history and has no dealer."""
        world = self.clone()
        world.history = None
        world.dealer = None
        pool = [int(c) for c in rng.permutation(self.unseen_cards(player))]
        for p in range(self.players):
            base = p * 10
            if p == player:
                missing = self.hands[base]
            else:
                world.hands[base : base + 10] = [0] * 10
                missing = HAND_SIZE
            world.hands[base] = 0
            for _ in range(missing):
                world.hands[base + pool.pop()] += 1
        world.deck = pool
        world.shuffle_seed = int(rng.integers(2**62))
        return world

    # ----- legal moves ----------------------------------------------------------------

    def _held_blocks(self, player: int) -> list[tuple[int, int, int]]:
        """``(slot, color, stories)`` of each kind of block ``player`` holds selected."""
        return [
            (slot, color, size)
            for slot, color in enumerate(self.layout.player_colors[player])
            for size in range(1, SIZES + 1)
            if self.selected[color * SIZES + size - 1] > 0
        ]

    def _require_known_hand(self) -> None:
        if not self.hand_is_known(self.to_move):
            raise HiddenInformationError(
                f"the hand of P{self.to_move + 1}, who is to move, is not shown (it holds ?)"
            )

    def _placement_actions(self, cards: Sequence[int]) -> list[int]:
        player = self.to_move
        card_sites = self.layout.card_sites[player]
        held = self._held_blocks(player)
        actions = []
        for card in cards:
            site_in_city = card_sites[card]
            for city in range(1, 7):
                site = (city - 1) * SITES_PER_CITY + site_in_city
                for slot, color, size in held:
                    if rules.can_place(self.stories, self.owner, site, color, size):
                        actions.append(placement_action(card, city, slot, size))
        return actions

    def _pick_slot(self) -> tuple[int, int, int]:
        """During selection: ``(slot, color, picks still to make)`` of the mover's next pick
        (the first color that has not selected its quota)."""
        quota = self.layout.quota
        selected = self.selected
        for slot, color in enumerate(self.layout.player_colors[self.to_move]):
            base = color * SIZES
            count = selected[base] + selected[base + 1] + selected[base + 2] + selected[base + 3]
            if count < quota:
                return slot, color, quota - count
        raise AssertionError("the mover has no pick left")  # unreachable in a valid state

    def _pick_actions(self) -> list[int]:
        """Legal picks: picks come in ascending stories per color (one order per selection),
        and a pick must leave enough blocks at least as big for the rest of the quota."""
        slot, color, remaining = self._pick_slot()
        base = color * SIZES
        selected = self.selected
        supply = self.supply
        actions = []
        at_least = 0  # supply of blocks of this size or bigger
        for size in range(SIZES, 0, -1):
            at_least += supply[base + size - 1]
            if supply[base + size - 1] and at_least >= remaining:
                actions.append(PICK_BASE + slot * SIZES + size - 1)
            if selected[base + size - 1]:
                break  # smaller blocks would break the ascending order
        actions.reverse()
        return actions

    def legal_actions(self) -> list[int]:
        """Sorted legal action ids for the player to move (empty when the game is over).

        During selection these are single picks (see ``positions.moves``).  Raises
        ``HiddenInformationError`` in the placement phase when the mover's hand has ``?``.
        """
        if self.phase == Phase.OVER:
            return []
        if self.phase == Phase.SELECTION:
            return self._pick_actions()
        self._require_known_hand()
        base = self.to_move * 10
        cards = [c for c in range(1, CARD_TYPES + 1) if self.hands[base + c]]
        actions = self._placement_actions(cards)
        if not actions:
            held = self._held_blocks(self.to_move)
            actions = [
                no_placement_action(card, slot, size) for card in cards for slot, _, size in held
            ]
        return sorted(actions)

    def legal_selections(self) -> list[Selection]:
        """Every whole selection the mover may make now (selection phase, before a pick)."""
        quota = self.layout.quota
        per_color = []
        for color in self.layout.player_colors[self.to_move]:
            supply = self.supply[color * SIZES : color * SIZES + SIZES]
            per_color.append(
                [
                    combo
                    for combo in combinations_with_replacement(range(1, SIZES + 1), quota)
                    if all(combo.count(size) <= supply[size - 1] for size in range(1, SIZES + 1))
                ]
            )
        return [Selection(parts) for parts in product(*per_color)]

    def legal_moves(self) -> list[Move]:
        """Every legal move for the player to move, sorted by canonical text."""
        if self.phase == Phase.OVER:
            return []
        if self.phase == Phase.SELECTION:
            moves: list[Move] = list(self.legal_selections())
        else:
            moves = [self.action_to_move(a) for a in self.legal_actions()]
        return sorted(moves, key=str)

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal for the player to move (a whole selection in the
        selection phase, a placement or no-placement in the placement phase)."""
        return move in self.legal_moves()

    # ----- moves <-> actions ----------------------------------------------------------

    def _color_of_slot(self, slot: int) -> str | None:
        colors = self.layout.player_colors[self.to_move]
        return COLOR_LETTERS[colors[slot]] if len(colors) > 1 else None

    def action_to_move(self, action: int) -> Move:
        """The readable move of a placement or no-placement action id.  A pick is part of a
        selection; it reads as a one-block ``Selection`` of that slot."""
        kind, card, city, slot, size = decode_action(action)
        if kind == "place":
            return Placement(card, city, size, self._color_of_slot(slot))
        if kind == "none":
            return NoPlacement(card, size, self._color_of_slot(slot))
        parts: list[tuple[int, ...]] = [()] * len(self.layout.player_colors[self.to_move])
        parts[slot] = (size,)
        return Selection(tuple(parts))

    def move_in_progress(self) -> bool:
        """Whether the mover has begun a selection (picked some blocks, not all): the next
        action continues the same move."""
        if self.phase != Phase.SELECTION:
            return False
        return any(
            sum(self.selected[c * SIZES : c * SIZES + SIZES])
            for c in self.layout.player_colors[self.to_move]
        )

    def actions_to_move(self, actions: Sequence[int]) -> Move:
        """The move made by ``actions`` from this state: one placement or no-placement, or
        the picks of one whole selection.  Raises ``IllegalMoveError`` if they do not make
        exactly one move of the player to move."""
        if not actions:
            raise IllegalMoveError("no action given")
        kind = decode_action(actions[0])[0]
        if kind != "pick":
            if len(actions) != 1:
                raise IllegalMoveError("a placement is a single action")
            return self.action_to_move(actions[0])
        colors = self.layout.player_colors[self.to_move]
        parts: list[list[int]] = [
            [s + 1 for s in range(SIZES) for _ in range(self.selected[c * SIZES + s])]
            for c in colors
        ]
        for action in actions:
            kind, _, _, slot, size = decode_action(action)
            if kind != "pick" or slot >= len(colors):
                raise IllegalMoveError("a selection is made of picks of the mover's colors")
            parts[slot].append(size)
        if any(len(part) != self.layout.quota for part in parts):
            raise IllegalMoveError("the picks do not make one whole selection")
        return Selection(tuple(tuple(sorted(part)) for part in parts))

    def decision_to_string(self, actions: Sequence[int]) -> str:
        """Canonical text of the move made by ``actions`` from this state."""
        return str(self.actions_to_move(actions))

    def action_to_string(self, action: int) -> str:
        """Readable text of an action id (a pick reads ``+3`` or, in 2p, ``+3c``)."""
        kind, _, _, slot, size = decode_action(action)
        if kind == "pick":
            return f"+{size}{self._color_of_slot(slot) or ''}"
        return str(self.action_to_move(action))

    def _slot_of(self, color: str | None, move: Move) -> int:
        colors = self.layout.player_colors[self.to_move]
        if len(colors) == 1:
            if color is not None:
                raise IllegalMoveError(f"{move}: a block color is written only in 2-player games")
            return 0
        if color is None:
            raise IllegalMoveError(f"{move}: in a 2-player game the block's color must follow")
        index = COLOR_LETTERS.index(color)
        if index not in colors:
            mine = " or ".join(COLOR_LETTERS[c] for c in colors)
            raise IllegalMoveError(f"{move}: P{self.to_move + 1} plays {mine}, not {color}")
        return colors.index(index)

    def move_to_actions(self, move: Move) -> list[int]:
        """The action ids that make ``move``: one for a placement, the picks of a selection.
        Checks that the move fits the phase and the mover's colors and supply, not (for
        placements) that it is legal; raises ``IllegalMoveError``."""
        if self.phase == Phase.OVER:
            raise IllegalMoveError(f"{move}: the game is over")
        if isinstance(move, Selection):
            return self._selection_actions(move)
        if self.phase != Phase.PLACEMENT:
            raise IllegalMoveError(f"{move}: P{self.to_move + 1} must select blocks first")
        slot = self._slot_of(move.color, move)
        if isinstance(move, Placement):
            return [placement_action(move.card, move.city, slot, move.stories)]
        return [no_placement_action(move.card, slot, move.stories)]

    def _selection_actions(self, move: Selection) -> list[int]:
        if self.phase != Phase.SELECTION:
            raise IllegalMoveError(f"{move}: it is the placement phase, a block must be placed")
        colors = self.layout.player_colors[self.to_move]
        if len(move.blocks) != len(colors):
            shape = "=1123/1234 (one group per color)" if len(colors) > 1 else "=112234"
            raise IllegalMoveError(f"{move}: expected a selection like {shape}")
        quota = self.layout.quota
        actions = []
        for slot, (color, part) in enumerate(zip(colors, move.blocks, strict=True)):
            letter = COLOR_LETTERS[color]
            if sum(self.selected[color * SIZES : color * SIZES + SIZES]):
                raise IllegalMoveError(f"{move}: {letter} has already selected this round")
            if len(part) != quota:
                raise IllegalMoveError(f"{move}: {letter} must select exactly {quota} blocks")
            for size in range(1, SIZES + 1):
                have = self.supply[color * SIZES + size - 1]
                if part.count(size) > have:
                    raise IllegalMoveError(
                        f"{move}: {letter} has {have} block(s) of {size} stories left"
                    )
            actions.extend(pick_action(slot, size) for size in sorted(part))
        return actions

    # ----- making moves ---------------------------------------------------------------

    def apply_move(self, move: Move, drawn: int | None = None) -> None:
        """Play ``move`` for the player to move.  After a placement the mover draws
        ``drawn`` (a card 1-9 named by a record), or else the deck's top card when the deck
        is known, or else an unseen card (``?``).  Raises ``IllegalMoveError`` saying why
        the move is not legal, or ``HiddenInformationError``."""
        actions = self.move_to_actions(move)
        if drawn is not None and isinstance(move, Selection):
            raise IllegalMoveError(f"{move}: a card is drawn only after a placement")
        if isinstance(move, Selection):
            for action in actions:
                self.apply_action(action)
            return
        before = self.public_copy() if self.history is not None else None
        self._play(actions[0], drawn, str(move))
        if before is not None:
            self.history.append(PastDecision(before, before.to_move, actions[0]))

    def apply_action(self, action: int) -> None:
        """Apply one action id (a pick, a placement or a no-placement).  Raises
        ``IllegalMoveError`` if it is not legal here."""
        if self.phase == Phase.OVER:
            raise IllegalMoveError("the game is over")
        kind = decode_action(action)[0]
        if kind == "pick":
            self._pick(action)
        else:
            self._play(action, None, self.action_to_string(action))

    def _pick(self, action: int) -> None:
        if self.phase != Phase.SELECTION:
            raise IllegalMoveError("a block can be picked only in the selection phase")
        if action not in self._pick_actions():
            raise IllegalMoveError(f"pick {self.action_to_string(action)} is not allowed now")
        slot, color, remaining = self._pick_slot()
        size = action - PICK_BASE - slot * SIZES + 1
        self.supply[color * SIZES + size - 1] -= 1
        self.selected[color * SIZES + size - 1] += 1
        if remaining > 1 or slot + 1 < len(self.layout.player_colors[self.to_move]):
            return
        order = self.layout.round_order(self.round)
        position = order.index(self.to_move)
        if position + 1 < self.players:
            self.to_move = order[position + 1]
        else:
            self.phase = Phase.PLACEMENT
            self.to_move = order[0]

    def _play(self, action: int, drawn: int | None, text: str) -> None:
        if self.phase != Phase.PLACEMENT:
            raise IllegalMoveError(f"{text}: blocks are placed only in the placement phase")
        kind, card, city, slot, size = decode_action(action)
        player = self.to_move
        colors = self.layout.player_colors[player]
        if slot >= len(colors):
            raise IllegalMoveError(f"{text}: P{player + 1} has only one color")
        color = colors[slot]
        letter = COLOR_LETTERS[color]
        if self.selected[color * SIZES + size - 1] == 0:
            raise IllegalMoveError(f"{text}: {letter} has no selected block of {size} stories")
        base = player * 10
        if self.hands[base + card] == 0 and (
            self.hands[base] == 0 or self.visible_count(card) >= CARDS_PER_TYPE
        ):
            raise IllegalMoveError(f"{text}: P{player + 1} does not hold card {card}")
        if kind == "place":
            site = (city - 1) * SITES_PER_CITY + self.layout.card_sites[player][card]
            if not rules.can_place(self.stories, self.owner, site, color, size):
                raise IllegalMoveError(
                    f"{text}: {letter} cannot take the building on site "
                    f"{site % SITES_PER_CITY + 1} of city {city}: it needs at least "
                    f"{self.stories[site * COLORS + self.owner[site]]} stories there"
                )
        else:
            known = [c for c in range(1, CARD_TYPES + 1) if self.hands[base + c]]
            if self._placement_actions(known):
                raise IllegalMoveError(f"{text}: a legal placement exists, a block must be placed")
        if self.hands[base + card]:
            self.hands[base + card] -= 1
        else:
            self.hands[base] -= 1
        self.played[card] += 1
        self.selected[color * SIZES + size - 1] -= 1
        if kind == "place":
            self._build(site, color, size)
        self._draw(player, drawn, text)
        if any(self.selected):
            self.to_move = (player + 1) % self.players
        else:
            self._end_round()

    def _build(self, site: int, color: int, size: int) -> None:
        self.stacks[site] = self.stacks[site] + (color * SIZES + size - 1,)
        self.stories[site * COLORS + color] += size
        self.height[site] += size
        self.owner[site] = color

    def _draw(self, player: int, drawn: int | None, text: str) -> None:
        if self.deck_count() == 0:
            self._reshuffle()
        if drawn is None:
            card = self.deck.pop() if self.deck is not None else 0
        else:
            if not 1 <= drawn <= CARD_TYPES:
                raise IllegalMoveError(f"{text}: a drawn card is 1-9, not {drawn}")
            if self.visible_count(drawn) >= CARDS_PER_TYPE:
                raise IllegalMoveError(f"{text}: card {drawn} cannot be drawn, all 5 are seen")
            if self.deck is not None:
                if drawn not in self.deck:
                    raise IllegalMoveError(f"{text}: card {drawn} is not in the deck")
                self.deck.remove(drawn)
            card = drawn
        self.hands[player * 10 + card] += 1

    def _reshuffle(self) -> None:
        """The played pile becomes the new deck (shuffled when the deck is tracked)."""
        if self.deck is not None:
            pile = [c for c in range(1, CARD_TYPES + 1) for _ in range(self.played[c])]
            generator = random.Random(self.shuffle_seed)
            generator.shuffle(pile)
            self.deck = pile
            self.shuffle_seed = generator.getrandbits(62)
        self.played = [0] * 10

    def _end_round(self) -> None:
        for color, points in enumerate(self.round_points()):
            self.scores[color] += points
        if self.round == self.layout.rounds:
            self.phase = Phase.OVER
            self.to_move = -1
        else:
            self.round += 1
            self.phase = Phase.SELECTION
            self.to_move = self.layout.start_player(self.round)


class PastDecision(NamedTuple):
    """One placement decision as every player saw it: the position just before it
    (``GameState.public_copy``), the player who decided and the action id played."""

    before: GameState
    player: int
    action: int
