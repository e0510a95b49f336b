"""Exact search to the end of the current round, every hand shown, every draw adversarial.

The game from the puzzle position to the round's last placement is a two-sided game of
perfect information: the mover against a coalition that plays every opponent and chooses
every card drawn (the deck order is unknown, so a guarantee must hold for every draw).  A
position's value is an integer the mover maximizes and the coalition minimizes:

* ``"win"``: 1 if the mover ends the game first alone (RULES.md ranking: total, then the
  tallest building owned, then buildings owned), else 0;
* ``"round-points"``: the points the mover's colors score when the round is scored;
* ``"margin"``: the mover's final total minus the best opponent's (used to pick the least
  bad move when nothing wins).

The search is fail-soft alpha-beta (for ``"win"`` that is AND/OR search: the window is
``(0, 1)``) with

* a board kept with its round points up to date on every placement (a placement changes
  one site, one city's majority and perhaps the tallest), so the last placement of the
  round is valued without being played;
* static bounds: a placement moves the placer's points by at most 6 either way and any
  other player's by -6..+2, which settles lines whose outcome can no longer change;
* a transposition table keyed by a Zobrist hash of everything that can change (stories,
  owners, hands, played pile, selected blocks, the player to move);
* moves ordered by their immediate effect on the value, one move per card type;
* draws grouped by card type, and only searched where they matter: a player's draw
  matters only if that player places again before the round ends.  Any other draw only
  removes a card from the deck; the coalition then takes a type of which the deck holds
  more copies than the draws still to matter, which leaves every later draw open (a
  dominant choice), and branches over the types only when there is none;
* two relaxations tried before a draw that matters, each a lower bound on the mover's
  value for every card at once: the mover going on without the new card, and an opponent
  naming the card only when playing it (see ``_draw_node``).

A played card goes to the played pile before the draw, and when the deck is empty at a
draw the played pile becomes the deck (``GameState._draw``).
"""

from __future__ import annotations

import random

from positions import rules
from positions.layout import (
    CARD_TYPES,
    CARDS_PER_TYPE,
    CITIES,
    COLORS,
    HAND_SIZE,
    SITES,
    SIZES,
)
from positions.moves import no_placement_action, placement_action
from positions.scoring import RoundScorer
from positions.state import GameState, Phase
from search import stopping

OBJECTIVES = ("win", "round-points", "margin")
INFINITY = 10**6

# Zobrist keys: one random 64-bit number per (variable, value).  Variables: stories
# (site*4 + color), owners, hand counts, the played pile, selected blocks and the player to
# move.
VALUES = 64
V_STORIES = 0
V_OWNER = V_STORIES + SITES * COLORS
V_HANDS = V_OWNER + SITES
V_PLAYED = V_HANDS + 4 * 10
V_SELECTED = V_PLAYED + 10
V_TO_MOVE = V_SELECTED + COLORS * SIZES
V_COUNT = V_TO_MOVE + 1
_random = random.Random(20240601)
ZOBRIST = [[_random.getrandbits(64) for _ in range(VALUES)] for _ in range(V_COUNT)]


class BudgetExceeded(Exception):
    """The search visited more nodes than its budget allows (or was asked to stop)."""


STOP_POLL = 4096  # nodes between checks for a stop request (Ctrl-C)


class ExactSearch(RoundScorer):
    """The search from one placement-phase position with every hand shown.

    ``objective`` is one of ``OBJECTIVES``; ``node_budget`` bounds the positions visited
    (``BudgetExceeded`` is raised beyond it).  ``mover_draws_best`` lets the mover choose
    the cards they draw (a what-if for telling whether a draw matters; puzzles never use
    it).  The state is copied, never changed.  The board and its round points
    (``points``) are those of ``positions.scoring.RoundScorer``, kept up to date by
    ``put_block`` / ``take_block`` as the search plays and unplays placements.
    """

    def __init__(
        self, state: GameState, objective: str, node_budget: int, mover_draws_best: bool = False
    ):
        if objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {OBJECTIVES}, not {objective!r}")
        if state.phase != Phase.PLACEMENT:
            raise ValueError("the exact search starts in the placement phase")
        if any(not state.hand_is_known(p) for p in range(state.players)):
            raise ValueError("the exact search needs every hand shown")
        super().__init__(
            state.stories, state.height, state.owner, state.options.tallest_tie == "shared"
        )
        table = state.layout
        self.state = state
        self.objective = objective
        self.mover_draws_best = mover_draws_best
        self.budget = node_budget
        self.nodes = 0
        self.players = table.players
        self.player_colors = table.player_colors
        self.card_sites = table.card_sites
        self.mover = state.to_move
        self.mover_colors = table.player_colors[self.mover]
        self.combine_min = state.options.two_player_total == "min"
        self.scores = state.scores[:]
        self.last_round = state.round == table.rounds
        # cards, blocks and turns
        self.hands = state.hands[:]
        self.played = state.played[:]
        self.deck = [0] * 10
        for card in range(1, CARD_TYPES + 1):
            held = sum(self.hands[p * 10 + card] for p in range(self.players))
            self.deck[card] = CARDS_PER_TYPE - held - self.played[card]
        self.deck_total = sum(self.deck)
        self.selected = state.selected[:]
        self.rem = [state.blocks_held(p) for p in range(self.players)]
        self.left = sum(self.rem)
        self.to_move = state.to_move
        self.hash = self._hash_from_scratch()
        self.table: dict[int, tuple[int, int]] = {}

    # ----- scoring ------------------------------------------------------------------------

    def totals(self, rp: list[int]) -> list[int]:
        """Each player's total if the game ended with round points ``rp`` added."""
        scores = self.scores
        if self.players == 2:
            first = (scores[0] + rp[0], scores[2] + rp[2])
            second = (scores[1] + rp[1], scores[3] + rp[3])
            if self.combine_min:
                return [min(first), min(second)]
            return [sum(first), sum(second)]
        return [scores[c] + rp[c] for c in range(self.players)]

    def _keys_now(self, rp: list[int]) -> list[tuple[int, int, int]]:
        return rules.ranking_keys(self.totals(rp), self.height, self.owner, self.player_colors)

    def value_of(self, rp: list[int], site: int = -1, color: int = 0, size: int = 0) -> int:
        """The objective's value of the round's end with round points ``rp``, reached by
        placing ``size`` stories of ``color`` on ``site`` now (``site`` -1: no placement)."""
        objective = self.objective
        if objective == "round-points":
            return sum(rp[c] for c in self.mover_colors)
        totals = self.totals(rp)
        mine = totals[self.mover]
        best_other = max(t for p, t in enumerate(totals) if p != self.mover)
        if objective == "margin":
            return mine - best_other
        if mine != best_other:
            return 1 if mine > best_other else 0
        # equal totals: the tie-breaks need the board after the placement
        if site >= 0:
            undo = self.put_block(site, color, size)
            keys = self._keys_now(rp)
            self.take_block(undo)
        else:
            keys = self._keys_now(rp)
        mover_key = keys[self.mover]
        return int(all(k < mover_key for p, k in enumerate(keys) if p != self.mover))

    def bounds(self) -> tuple[int, int]:
        """Values the position can still reach: ``(lowest, highest)``, from the most one
        placement can move the points (the placer's by 6 either way, anyone else's by
        -6..+2)."""
        left = self.left
        mine_left = self.rem[self.mover]
        rp = self.points
        if self.objective == "round-points":
            now = sum(rp[c] for c in self.mover_colors)
            return max(0, now - 6 * left), now + 6 * mine_left + 2 * (left - mine_left)
        totals = self.totals(rp)
        mine = totals[self.mover]
        lowest = highest = INFINITY
        for q in range(self.players):
            if q == self.mover:
                continue
            theirs = self.rem[q]
            others = left - mine_left - theirs
            margin = mine - totals[q]
            lowest = min(lowest, margin - 8 * mine_left - 12 * theirs - 8 * others)
            highest = min(highest, margin + 12 * mine_left + 8 * theirs + 8 * others)
        if self.objective == "margin":
            return lowest, highest
        if lowest > 0:
            return 1, 1
        if highest < 0:
            return 0, 0
        return 0, 1

    # ----- cards and turns ----------------------------------------------------------------

    def _hash_from_scratch(self) -> int:
        h = 0
        for index, value in enumerate(self.stories):
            h ^= ZOBRIST[V_STORIES + index][value]
        for site, owner in enumerate(self.owner):
            h ^= ZOBRIST[V_OWNER + site][owner + 1]
        for index, value in enumerate(self.hands):
            h ^= ZOBRIST[V_HANDS + index][value]
        for card, value in enumerate(self.played):
            h ^= ZOBRIST[V_PLAYED + card][value]
        for index, value in enumerate(self.selected):
            h ^= ZOBRIST[V_SELECTED + index][value]
        return h ^ ZOBRIST[V_TO_MOVE][self.to_move]

    # ----- moves --------------------------------------------------------------------------

    def moves(self, player: int) -> list[tuple[int, int, int, int, int]]:
        """``(card, site, color, size, slot)`` of each legal placement of ``player`` (one
        per card type); when none is legal, the no-placement moves with ``site`` -1.

        In the relaxed games of ``_draw_node``: an opponent holding a card still to be
        named may play it as any type left in the deck (``card`` is then minus that type),
        and may give up a block whenever their named cards allow no placement (as the real
        card might not); a mover short of a card who cannot place gets no move at all (the
        search scores that as lost).
        """
        base = player * 10
        hands = self.hands
        kinds = [
            (color, size, slot)
            for slot, color in enumerate(self.player_colors[player])
            for size in range(1, SIZES + 1)
            if self.selected[color * SIZES + size - 1]
        ]
        known = [(card, card) for card in range(1, CARD_TYPES + 1) if hands[base + card]]
        found = self._placements(player, known, kinds)
        if not hands[base]:
            if found:
                return found
            if sum(hands[base : base + 10]) < HAND_SIZE:
                return []
            return [(c, -1, color, size, slot) for c, _ in known for color, size, slot in kinds]
        deck = self.deck
        unnamed = [
            (-card, card)
            for card in range(1, CARD_TYPES + 1)
            if deck[card] and not hands[base + card]
        ]
        named_can_place = bool(found)
        found += self._placements(player, unnamed, kinds)
        if named_can_place:
            return found
        return found + [
            (code, -1, color, size, slot)
            for code, _ in known + unnamed
            for color, size, slot in kinds
        ]

    def _placements(self, player: int, cards: list[tuple[int, int]], kinds: list) -> list:
        sites = self.card_sites[player]
        owner = self.owner
        stories = self.stories
        found = []
        for code, card in cards:
            for city in range(CITIES):
                site = city * 9 + sites[card]
                top = owner[site]
                for color, size, slot in kinds:
                    if (
                        top < 0
                        or top == color
                        or stories[site * 4 + color] + size >= stories[site * 4 + top]
                    ):
                        found.append((code, site, color, size, slot))
        return found

    def _play(self, move: tuple[int, int, int, int, int]) -> tuple:
        """Play a card and place (or give up) a block for the player to move, and pass the
        turn; the draw is separate.  Returns the undo."""
        card, site, color, size, _ = move
        player = self.to_move
        zob = ZOBRIST
        h = saved_hash = self.hash
        board = None
        if site >= 0:
            index = site * COLORS + color
            count = self.stories[index]
            h ^= zob[V_STORIES + index][count] ^ zob[V_STORIES + index][count + size]
            previous = self.owner[site]
            if previous != color:
                h ^= zob[V_OWNER + site][previous + 1] ^ zob[V_OWNER + site][color + 1]
            board = self.put_block(site, color, size)
        hand_index = player * 10
        if card > 0:
            hand_index += card
        else:  # a card still to be named, played as type -card: it leaves the deck now
            card = -card
            self.deck[card] -= 1
            self.deck_total -= 1
        count = self.hands[hand_index]
        self.hands[hand_index] = count - 1
        h ^= zob[V_HANDS + hand_index][count] ^ zob[V_HANDS + hand_index][count - 1]
        count = self.played[card]
        self.played[card] = count + 1
        h ^= zob[V_PLAYED + card][count] ^ zob[V_PLAYED + card][count + 1]
        block = color * SIZES + size - 1
        count = self.selected[block]
        self.selected[block] = count - 1
        h ^= zob[V_SELECTED + block][count] ^ zob[V_SELECTED + block][count - 1]
        following = (player + 1) % self.players
        h ^= zob[V_TO_MOVE][player] ^ zob[V_TO_MOVE][following]
        self.to_move = following
        self.rem[player] -= 1
        self.left -= 1
        self.hash = h
        return board, move, player, saved_hash

    def _unplay(self, undo: tuple) -> None:
        board, (card, _, color, size, _), player, saved_hash = undo
        self.to_move = player
        self.rem[player] += 1
        self.left += 1
        self.selected[color * SIZES + size - 1] += 1
        if card > 0:
            self.hands[player * 10 + card] += 1
        else:
            card = -card
            self.hands[player * 10] += 1
            self.deck[card] += 1
            self.deck_total += 1
        self.played[card] -= 1
        self.hash = saved_hash
        if board is not None:
            self.take_block(board)

    def _reshuffle(self) -> tuple:
        saved = (self.played, self.deck, self.deck_total, self.hash)  # replaced, not changed
        h = self.hash
        for card in range(1, CARD_TYPES + 1):
            h ^= ZOBRIST[V_PLAYED + card][self.played[card]] ^ ZOBRIST[V_PLAYED + card][0]
        self.deck = self.played[:]
        self.deck_total = sum(self.deck)
        self.played = [0] * 10
        self.hash = h
        return saved

    def _draw(self, player: int, card: int) -> None:
        index = player * 10 + card
        count = self.hands[index]
        self.hands[index] = count + 1
        self.hash ^= ZOBRIST[V_HANDS + index][count] ^ ZOBRIST[V_HANDS + index][count + 1]
        self.deck[card] -= 1
        self.deck_total -= 1

    def _undraw(self, player: int, card: int) -> None:
        index = player * 10 + card
        count = self.hands[index]
        self.hands[index] = count - 1
        self.hash ^= ZOBRIST[V_HANDS + index][count] ^ ZOBRIST[V_HANDS + index][count - 1]
        self.deck[card] += 1
        self.deck_total += 1

    # ----- the search ---------------------------------------------------------------------

    def value_after(self, move: tuple[int, int, int, int, int], alpha: int, beta: int) -> int:
        """The value after the player to move plays ``move`` (then draws, and play goes
        on), searched with the window ``(alpha, beta)`` (fail-soft)."""
        player = self.to_move
        undo = self._play(move)
        try:
            if self.left == 0:
                self.nodes += 1
                return self.value_of(self.points)
            reshuffled = self._reshuffle() if self.deck_total == 0 else None
            try:
                return self._draw_node(player, alpha, beta)
            finally:
                if reshuffled is not None:
                    self.played, self.deck, self.deck_total, self.hash = reshuffled
        finally:
            self._unplay(undo)

    def _draw_node(self, player: int, alpha: int, beta: int) -> int:
        """``player`` draws: the coalition picks the card (a minimum over card types).

        Two relaxations are tried first, each a lower bound on every draw: the mover
        going on without the new card (a card more only widens the mover's choice, and one
        fewer taken from the deck only widens the coalition's), and an opponent keeping
        the card unnamed until playing it (``_unnamed_draw``).  Both hold only while the
        deck has a card for every draw left, so that no reshuffle comes at another time,
        and only because ``moves`` keeps them on the safe side of the no-legal-placement
        rule (a missing card could have been the one that forces a placement).
        """
        deck = self.deck
        if self.mover_draws_best and player == self.mover and self.rem[player]:
            best = -INFINITY
            for card in range(1, CARD_TYPES + 1):
                if deck[card]:
                    self._draw(player, card)
                    try:
                        value = self.search(max(alpha, best), beta)
                    finally:
                        self._undraw(player, card)
                    if value > best:
                        best = value
                        if best >= beta:
                            break
            return best
        if self.rem[player] and beta < INFINITY and self.deck_total > self.left:
            # a lower bound that may settle every draw at once
            if player == self.mover:
                bound = self.search(alpha, beta)  # the mover without the new card
            else:
                bound = self._unnamed_draw(player, alpha, beta)
            if bound >= beta:
                return bound
        if self.rem[player] == 0:
            # cards that will still be drawn or named where it matters
            still = sum(max(0, r - 1) for r in self.rem)
            still += sum(self.hands[p * 10] for p in range(self.players))
            most = max(range(1, CARD_TYPES + 1), key=deck.__getitem__)
            if deck[most] > still:
                self._draw(player, most)
                try:
                    return self.search(alpha, beta)
                finally:
                    self._undraw(player, most)
        best = INFINITY
        for card in range(1, CARD_TYPES + 1):
            if not deck[card]:
                continue
            self._draw(player, card)
            try:
                value = self.search(alpha, min(beta, best))
            finally:
                self._undraw(player, card)
            if value < best:
                best = value
                if best <= alpha:
                    break
        return best

    def _unnamed_draw(self, player: int, alpha: int, beta: int) -> int:
        """A lower bound on an opponent's draw node: the opponent keeps the card unnamed
        and names it (any type still in the deck) only when playing it, after seeing the
        mover's replies.  That can only help the coalition, so if the mover still reaches
        ``beta`` this way, every real draw does too.  Only used while the deck holds a
        card for every draw left, so that no reshuffle can tell the two games apart."""
        index = player * 10
        count = self.hands[index]
        self.hands[index] = count + 1
        saved = self.hash
        self.hash ^= ZOBRIST[V_HANDS + index][count] ^ ZOBRIST[V_HANDS + index][count + 1]
        try:
            return self.search(alpha, beta)
        finally:
            self.hands[index] = count
            self.hash = saved

    def search(self, alpha: int, beta: int) -> int:
        """The value of the current position within the window ``(alpha, beta)``:
        exact inside it, else a bound on the side it fails (fail-soft)."""
        self.nodes += 1
        if self.nodes > self.budget:
            raise BudgetExceeded
        if self.nodes % STOP_POLL == 0 and stopping.requested():
            raise BudgetExceeded
        if self.left == 0:
            return self.value_of(self.points)
        lowest, highest = self.bounds()
        if lowest >= beta or lowest == highest:
            return lowest
        if highest <= alpha:
            return highest
        player = self.to_move
        maximizing = player == self.mover
        if self.left == 1:
            return self._last_placement(player, maximizing, alpha, beta)
        key = self.hash
        entry = self.table.get(key)
        if entry is not None:
            low, high = entry
            if low >= beta or low == high:
                return low
            if high <= alpha:
                return high
            alpha = max(alpha, low)
            beta = min(beta, high)
        else:
            low, high = -INFINITY, INFINITY
        start_alpha, start_beta = alpha, beta
        moves = self._ordered(player, maximizing)
        if maximizing:
            best = -INFINITY
            for move in moves:
                value = self.value_after(move, alpha, beta)
                if value > best:
                    best = value
                    if best > alpha:
                        alpha = best
                        if alpha >= beta:
                            break
        else:
            best = INFINITY
            for move in moves:
                value = self.value_after(move, alpha, beta)
                if value < best:
                    best = value
                    if best < beta:
                        beta = best
                        if alpha >= beta:
                            break
        if best <= start_alpha:
            self.table[key] = (low, min(high, best))
        elif best >= start_beta:
            self.table[key] = (max(low, best), high)
        else:
            self.table[key] = (best, best)
        return best

    def root_values(self) -> list[tuple[str, int]]:
        """Every move of the mover (canonical text) with its value, the most promising
        first.  For ``"win"`` each value is exactly 0 or 1; otherwise the best moves' values
        are exact and the others' are upper bounds below the best.  Raises
        ``BudgetExceeded``."""
        values = []
        best = -INFINITY
        for move in self._ordered(self.mover, True):
            if self.objective == "win":
                value = self.value_after(move, 0, 1)
            else:
                value = self.value_after(move, best - 1 if best > -INFINITY else best, INFINITY)
                best = max(best, value)
            values.append((self.move_text(move), value))
        return values

    def move_text(self, move: tuple[int, int, int, int, int]) -> str:
        """The canonical text of one of the mover's moves at the root."""
        card, site, _, size, slot = move
        if site < 0:
            action = no_placement_action(card, slot, size)
        else:
            action = placement_action(card, site // 9 + 1, slot, size)
        return str(self.state.action_to_move(action))

    def _ordered(self, player: int, maximizing: bool) -> list[tuple[int, int, int, int, int]]:
        moves = self.moves(player)
        if len(moves) < 2:
            return moves
        now = self.value_of_heuristic(self.points)
        scored = [
            (
                self.value_of_heuristic(self.points_after(m[1], m[2], m[3])) if m[1] >= 0 else now,
                m,
            )
            for m in moves
        ]
        scored.sort(key=lambda pair: pair[0], reverse=maximizing)
        return [m for _, m in scored]

    def value_of_heuristic(self, rp: list[int]) -> int:
        """A quick guess of the value after a placement, for move ordering."""
        if self.objective == "round-points":
            return sum(rp[c] for c in self.mover_colors)
        totals = self.totals(rp)
        return totals[self.mover] - max(t for p, t in enumerate(totals) if p != self.mover)

    def _last_placement(self, player: int, maximizing: bool, alpha: int, beta: int) -> int:
        """The round's last placement, valued without playing it."""
        best = -INFINITY if maximizing else INFINITY
        for _, site, color, size, _ in self.moves(player):
            self.nodes += 1
            if site >= 0:
                value = self.value_of(self.points_after(site, color, size), site, color, size)
            else:
                value = self.value_of(self.points)
            if maximizing:
                if value > best:
                    best = value
                    if best >= beta:
                        break
            elif value < best:
                best = value
                if best <= alpha:
                    break
        return best
