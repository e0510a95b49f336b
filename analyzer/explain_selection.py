"""What a selection does: which big blocks it takes now and which it keeps for which later
round, how many stories it brings, and the round it is made in (who holds the tallest
building, what the players who selected before chose, whether their blocks can take the
mover's tallest this round)."""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.explain_board import Board, player_of
from analyzer.explain_replies import held_kinds
from positions.layout import COLOR_LETTERS, SITES, SIZES
from positions.moves import Selection
from positions.state import GameState

BIG_SIZES = (4, 3)  # the blocks a selection is judged by: they fight for the tallest


@dataclass(frozen=True)
class BigBlocks:
    """The blocks of one big size (4 or 3 stories) of one color: ``had`` in the supply
    before the selection, ``taken`` now, the rest kept for ``later_rounds``."""

    player: int  # 1-based
    color: str
    stories: int
    had: int
    taken: int
    later_rounds: tuple[int, ...]

    @property
    def kept(self) -> int:
        """Blocks of this size left for later rounds."""
        return self.had - self.taken


@dataclass(frozen=True)
class RivalSelection:
    """An opponent's selection already made this round (selections are public)."""

    player: int  # 1-based
    biggest: int  # stories of their biggest selected block
    stories: int  # stories selected in all


@dataclass(frozen=True)
class SelectionFacts:
    """The facts of one selection (see the module docstring).

    ``blocks`` has an entry per color and big size the color still had; ``stories`` the
    stories selected per color (first color first); ``tallest_holder`` the player scoring
    the tallest building now (``None``: nobody, on an empty board or a tie);
    ``threatened_by`` the opponents whose selected blocks can, with one placement, stop
    the mover scoring the tallest building this round."""

    player: int  # 1-based mover
    colors: tuple[str, ...]
    blocks: tuple[BigBlocks, ...]
    stories: tuple[int, ...]
    tallest_height: int
    tallest_holder: int | None
    rivals: tuple[RivalSelection, ...]
    threatened_by: tuple[int, ...]
    last_round: bool


def describe_selection(state: GameState, move: Selection) -> SelectionFacts:
    """The facts of ``move``, a whole selection of the player to move.  Raises
    ``IllegalMoveError`` when the selection is not legal."""
    state.move_to_actions(move)  # checks the phase, the quota and the supply
    mover = state.to_move
    layout = state.layout
    colors = layout.player_colors[mover]
    later = tuple(range(state.round + 1, layout.rounds + 1))
    blocks = []
    for color, part in zip(colors, move.blocks, strict=True):
        for size in BIG_SIZES:
            had = state.supply[color * SIZES + size - 1]
            if had:
                blocks.append(
                    BigBlocks(mover + 1, COLOR_LETTERS[color], size, had, part.count(size), later)
                )
    board = Board.of(state)
    scorer = board.tallest_scorer()
    return SelectionFacts(
        player=mover + 1,
        colors=tuple(COLOR_LETTERS[c] for c in colors),
        blocks=tuple(blocks),
        stories=tuple(sum(part) for part in move.blocks),
        tallest_height=board.tallest_height(),
        tallest_holder=player_of(layout, scorer),
        rivals=tuple(_rivals(state)),
        threatened_by=tuple(_threats_to_tallest(state, board) if scorer in colors else ()),
        last_round=not later,
    )


def _rivals(state: GameState) -> list[RivalSelection]:
    """The opponents who have selected this round, in the round's order."""
    rivals = []
    for player in state.layout.round_order(state.round):
        kinds = held_kinds(state, player)
        if player == state.to_move or not kinds:
            continue
        stories = sum(size * state.selected[color * SIZES + size - 1] for color, size in kinds)
        rivals.append(RivalSelection(player + 1, max(size for _, size in kinds), stories))
    return rivals


def _threats_to_tallest(state: GameState, board: Board) -> list[int]:
    """The opponents whose selected blocks can, in one placement, stop the mover scoring
    the tallest building (take it over, tie it or build higher)."""
    colors = state.layout.player_colors[state.to_move]
    tallest = board.tallest_height()
    players = []
    for player in range(state.players):
        if player == state.to_move:
            continue
        if any(
            board.can_place(site, color, size)
            and board.with_block(site, color, size).tallest_scorer() not in colors
            for color, size in held_kinds(state, player)
            for site in range(SITES)
            if board.height[site] + size >= tallest
        ):
            players.append(player + 1)
    return players
