"""Reading the opponents (``positions.inference``): the likelihood of a hand, the weighted
deal in 2, 3 and 4 players, and that nothing hidden from the observer is read."""

from __future__ import annotations

import math
from collections import Counter
from itertools import combinations_with_replacement

import numpy as np
import pytest

from analyzer.search_bot import SearchBot
from positions import GameState, Phase, parse_position
from positions.bots import HeuristicBot
from positions.inference import (
    GREEDY_PLAYER,
    ChoiceModel,
    InferenceDealer,
    ReadDecision,
    read_decision,
    read_opponents,
    uniform_hands,
)
from positions.kernel_board import pack_board
from positions.layout import CITIES
from positions.moves import NO_PLACEMENT_BASE, Selection
from positions.notation import write_position
from positions.policy import placement_values, public_unseen, values_weights, weights_array
from positions.selfplay import play_game
from search.limits import Limit

MODEL = ChoiceModel(temperature=0.5, mix=0.1, depth=3)
GREEDY_MODEL = ChoiceModel(temperature=0.5, mix=0.1, depth=3, values="greedy")


def heuristic_game(players: int, seed: int, decisions: int) -> GameState:
    """A dealt world after ``decisions`` moves of heuristic bots (its history kept)."""
    world = GameState.new_game(players, np.random.default_rng(seed))
    bot, rng = HeuristicBot(), np.random.default_rng(seed + 1)
    for _ in range(decisions):
        world.apply_move(bot.choose(world.view(world.to_move), rng))
    return world


def reference_likelihood(hand: Counter, decisions: list[ReadDecision], mix: float) -> float:
    """The likelihood stated readably: the draw after the most recent decision is one of
    the cards held now (each equally likely); the hand before it is the hand now with
    that card out and the played card back; and so on, recursively."""
    if not decisions:
        return 1.0
    decision, rest = decisions[0], decisions[1:]
    held = sum(hand.values())
    total = 0.0
    for drawn, copies in hand.items():
        if not copies:
            continue
        before = hand.copy()
        before[drawn] -= 1
        before[decision.card] += 1
        cards = [card for card, n in before.items() if n > 0]
        moves = sum(decision.moves[c] for c in cards)
        if decision.no_placement:
            chance = 1.0 if moves == 0 else 0.0
        elif moves == 0:
            chance = 0.0
        else:
            strength = sum(decision.strength[c] for c in cards)
            chance = (1 - mix) * decision.chosen / strength + mix / moves
        if chance:
            total += copies / held * chance * reference_likelihood(before, rest, mix)
    return total


@pytest.mark.parametrize("model", [MODEL, GREEDY_MODEL], ids=["heuristic", "greedy"])
def test_compiled_weights_equal_the_readable_likelihood(model):
    rng = np.random.default_rng(0)
    checked = 0
    for players, decisions in ((2, 30), (3, 40), (4, 50), (4, 90)):
        world = heuristic_game(players, players * 10 + decisions, decisions)
        observer = world.to_move
        view = world.view(observer)
        reading = read_opponents(view, observer, model)
        assert len(reading.owners) == players - 1
        hands = uniform_hands(view, observer, 200, rng)
        weights = reading.weights(hands, model.mix)
        history = view.history
        for w in range(len(hands)):
            expected = 1.0
            for opponent in reading.owners:
                mine = [d for d in reversed(history) if d.player == opponent][: model.depth]
                read = [read_decision(d, model.temperature, model.values) for d in mine]
                hand = Counter({c: int(n) for c, n in enumerate(hands[w, opponent]) if c and n})
                expected *= reference_likelihood(hand, read, model.mix)
            assert weights[w] == pytest.approx(expected, rel=1e-9)
            checked += 1
    assert checked == 800


def test_a_no_placement_move_is_certain_without_a_legal_placement_and_impossible_with_one():
    strength = np.zeros(10)
    moves = np.zeros(10, dtype=np.int64)
    strength[3], moves[3] = 2.0, 4  # card 3 had four legal placements, the others none
    forced = ReadDecision(strength, moves, card=5, chosen=0.0, no_placement=True)
    assert reference_likelihood(Counter({5: 4}), [forced], 0.1) == 1.0
    # with one 3 held now: it was in hand at the decision unless it is the card drawn
    assert reference_likelihood(Counter({5: 3, 3: 1}), [forced], 0.1) == pytest.approx(0.25)
    chosen = ReadDecision(strength, moves, card=3, chosen=1.5, no_placement=False)
    assert reference_likelihood(Counter({5: 4}), [chosen], 0.1) == pytest.approx(
        0.9 * 1.5 / 2.0 + 0.1 / 4
    )


def passed_up_position(seed: int) -> tuple[GameState, int, int]:
    """A 4-player world where the mover made their best placement with another card
    although one card of theirs had a placement worth 1 point of value more: ``(world
    after the move, mover, that card)``."""
    world = heuristic_game(4, seed, 30)
    rng = np.random.default_rng(seed)
    while True:
        mover = world.to_move
        if world.phase == Phase.PLACEMENT:
            values = placement_values(
                pack_board(world), mover, range(1, 10), public_unseen(world.played), weights_array()
            )
            legal = [a for a in world.legal_actions() if a < NO_PLACEMENT_BASE]
            card_of = {a: a // (CITIES * 8) + 1 for a in legal}
            top = max(legal, key=lambda a: values[a], default=None)
            others = [a for a in legal if top is not None and card_of[a] != card_of[top]]
            if others:
                chosen = max(others, key=lambda a: values[a])
                if values[top] - values[chosen] > 1:
                    world.apply_move(world.action_to_move(chosen))
                    return world, mover, card_of[top]
        world.apply_move(HeuristicBot().choose(world.view(mover), rng))


def test_an_opponent_who_passed_up_a_big_move_probably_lacked_the_card():
    lowered = 0
    for seed in range(6):
        world, mover, best = passed_up_position(100 + seed)
        observer = world.to_move
        dealer = InferenceDealer(
            ChoiceModel(temperature=0.2, mix=0.1, depth=1, pool=4000, max_pool=4000)
        )
        dealer.build(world.view(observer), observer, np.random.default_rng(seed))
        posterior = dealer.posterior(mover)
        uniform = (dealer.hands[:, mover, :] > 0).mean(axis=0)
        # now holding the best card means it was drawn after the move, or the model's mix
        assert posterior[best] < 0.6 * uniform[best], (posterior[best], uniform[best])
        lowered += 1
    assert lowered == 6


def exact_marginals(view: GameState, observer: int, opponent: int, model: ChoiceModel):
    """P(``opponent`` holds each card type) by enumerating their hand: the uniform deal's
    hypergeometric prior times the readable likelihood of their read decisions."""
    unseen = Counter(view.unseen_cards(observer))
    mine = [d for d in reversed(view.history) if d.player == opponent][: model.depth]
    read = [read_decision(d, model.temperature) for d in mine]
    marginals = np.zeros(10)
    total = 0.0
    for hand in combinations_with_replacement(sorted(unseen), 4):
        counts = Counter(hand)
        prior = math.prod(math.comb(unseen[c], n) for c, n in counts.items())
        weight = prior * reference_likelihood(counts, read, model.mix)
        total += weight
        for card in counts:
            marginals[card] += weight
    return marginals / total


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_weighted_deal_follows_the_exact_posterior(players):
    """Observer P2 in the middle of a game whose history keeps only P1's decisions, so P1's
    hand has an exact posterior (enumerated) to hold the weighted pool against."""
    world = heuristic_game(players, players, 40)
    bot, rng = HeuristicBot(), np.random.default_rng(players)
    while world.to_move != 1 or world.phase != Phase.PLACEMENT:
        world.apply_move(bot.choose(world.view(world.to_move), rng))
    view = world.view(1)
    view.history = [d for d in view.history if d.player == 0]
    model = ChoiceModel(temperature=0.3, mix=0.05, depth=3, pool=20000, max_pool=20000)
    dealer = InferenceDealer(model)
    dealer.build(view, 1, np.random.default_rng(5))
    assert list(read_opponents(view, 1, model).owners) == [0]
    exact = exact_marginals(view, 1, 0, model)
    uniform = (dealer.hands[:, 0, :] > 0).mean(axis=0)
    assert np.abs(dealer.posterior(0)[1:] - exact[1:]).max() < 0.03
    assert np.abs(uniform[1:] - exact[1:]).max() > 0.05  # the decisions did tell something


@pytest.mark.parametrize("model", [MODEL, GREEDY_MODEL], ids=["heuristic", "greedy"])
def test_the_dealer_never_reads_hidden_cards(model):
    """The same worlds whether the state shows the opponents' hands and the deck or not."""
    for players in (2, 3, 4):
        world = heuristic_game(players, 40 + players, 25)
        observer = world.to_move
        shown = world.clone()
        view = world.view(observer)
        dealt = []
        for state in (shown, view):
            state.dealer = InferenceDealer(model)
            rng = np.random.default_rng(9)
            dealt.append([state.resample_from_infostate(observer, rng) for _ in range(30)])
        for from_shown, from_view in zip(*dealt, strict=True):
            assert from_shown.hands == from_view.hands and from_shown.deck == from_view.deck
            assert write_position(from_view.view(observer)) == write_position(view)
        assert view.dealer.effective > 0


def test_the_greedy_model_values_moves_by_their_immediate_points():
    """``values="greedy"`` reads a decision by the immediate round points of its moves:
    the reading equals one made from the greedy policy's values; an unknown name is an
    error."""
    world = heuristic_game(4, 12, 30)
    decision = world.history[-1]
    read = read_decision(decision, 0.5, "greedy")
    before = decision.before
    points = placement_values(
        pack_board(before),
        decision.player,
        range(1, 10),
        public_unseen(before.played),
        values_weights("greedy"),
    )
    legal = ~np.isnan(points)
    top = points[legal].max()
    assert read.chosen == pytest.approx(math.exp((points[decision.action] - top) / 0.5))
    assert read.moves.sum() == legal.sum()
    assert not np.array_equal(values_weights("greedy"), weights_array())
    with pytest.raises(ValueError, match="values must be heuristic or greedy"):
        ChoiceModel(values="clever")


def test_without_history_the_deal_is_uniform():
    world = heuristic_game(4, 3, 40)
    observer = world.to_move
    parsed = parse_position(write_position(world.view(observer)))  # a string has no history
    assert parsed.history == []
    dealer = InferenceDealer(MODEL)
    first = dealer.deal(parsed, observer, np.random.default_rng(4))
    second = parsed.deal_uniformly(observer, np.random.default_rng(4))
    assert first.hands == second.hands and first.deck == second.deck
    assert dealer.effective == 0


def test_dealt_worlds_keep_every_card_and_the_observers_view():
    world = heuristic_game(3, 8, 35)
    observer = world.to_move
    view = world.view(observer)
    view.dealer = InferenceDealer(MODEL)
    rng = np.random.default_rng(1)
    for _ in range(50):
        dealt = view.resample_from_infostate(observer, rng)
        cards = Counter(dealt.deck)
        for p in range(3):
            cards.update(dealt.hand(p))
        cards.update({c: n for c, n in enumerate(dealt.played) if c})
        assert cards == Counter({c: 5 for c in range(1, 10)})
        assert dealt.history is None and dealt.dealer is None
        assert write_position(dealt.view(observer)) == write_position(view)


def test_the_search_bot_reads_the_opponents():
    world = heuristic_game(4, 12, 33)
    bot = SearchBot(Limit(iterations=200), inference=MODEL)
    view = world.view(world.to_move)
    move = bot.choose(view, np.random.default_rng(0))
    assert world.is_legal(move)
    assert view.dealer is None  # the bot searched a copy with the dealer


def test_the_dealer_reads_only_the_opponents_it_is_given():
    """``readers`` limits the reading: the others' decisions weigh nothing, so their cards
    are dealt as uniformly as without any reading; the readers survive pickling."""
    import pickle

    world = heuristic_game(4, 12, 40)
    observer = world.to_move
    view = world.view(observer)
    others = [p for p in range(4) if p != observer]
    read = read_opponents(view, observer, GREEDY_PLAYER, readers=[others[0]])
    assert read.owners.tolist() == [others[0]]
    everyone = read_opponents(view, observer, GREEDY_PLAYER)
    assert everyone.owners.tolist() == others
    hands = uniform_hands(view, observer, 400, np.random.default_rng(3))
    alone = read.weights(hands, GREEDY_PLAYER.mix)
    assert not np.allclose(alone, everyone.weights(hands, GREEDY_PLAYER.mix))
    dealer = pickle.loads(pickle.dumps(InferenceDealer(GREEDY_PLAYER, readers=[others[0]])))
    assert dealer.readers == frozenset([others[0]]) and dealer.model == GREEDY_PLAYER


class DealerSpy:
    """Stands in for the search bot's player: keeps the dealer of the state it searches."""

    def __init__(self, inner):
        self.inner = inner
        self.dealers: list = []

    def choose_actions(self, state, rng):
        self.dealers.append(state.dealer)
        return self.inner.choose_actions(state, rng)


def test_the_search_bot_reads_the_hands_of_exactly_greedy_opponents_only():
    """Against greedy bots, with ``read_greedy``, the bot deals by the sharp greedy model,
    reading only the seats read as exactly greedy; by default it deals uniformly."""
    assert not SearchBot(Limit(iterations=50)).read_greedy
    from analyzer.players import make_bot

    bots = [make_bot("greedy"), make_bot("heuristic"), make_bot("greedy"), make_bot("greedy")]
    states = play_game(bots, 4, 6).record.states()[60:]
    world = next(s for s in states if s.phase == Phase.PLACEMENT and s.current_player() == 1)
    for read_greedy, expected in ((True, {0, 2, 3}), (False, None)):
        bot = SearchBot(Limit(iterations=50), read_greedy=read_greedy)
        spy = DealerSpy(bot._player)
        bot._player = spy
        move = bot.choose(world.view(1), np.random.default_rng(0))
        assert world.is_legal(move)
        dealer = spy.dealers[0]
        if expected is None:
            assert dealer is None
        else:
            assert dealer.model == GREEDY_PLAYER and dealer.readers == expected


class HistoryReader(HeuristicBot):
    """A heuristic bot that checks the public history of every view it is given."""

    def __init__(self):
        super().__init__()
        self.lengths: list[int] = []

    def choose(self, view: GameState, rng: np.random.Generator):
        for decision in view.history:
            before = decision.before
            assert all(not before.hand_is_known(p) for p in range(before.players))
            assert before.deck is None and before.history is None
            assert before.to_move == decision.player and before.phase == Phase.PLACEMENT
        self.lengths.append(len(view.history))
        return super().choose(view, rng)


def test_a_game_shows_every_seat_the_public_history():
    readers = [HistoryReader() for _ in range(3)]
    outcome = play_game(readers, 3, 5)
    placements = [m for m in outcome.record.moves if not isinstance(m.move, Selection)]
    assert readers[0].lengths[0] == 0 and max(r.lengths[-1] for r in readers) >= 70
    replayed = outcome.record.states()[-1]
    assert len(replayed.history) == len(placements)
    for decision, recorded in zip(replayed.history, placements, strict=True):
        assert decision.before.action_to_move(decision.action) == recorded.move
