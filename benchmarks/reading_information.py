"""How much reading an opponent's moves tells about their hand, in nats, in seconds.

Reading the opponents (``positions.inference``) can win back only what their public moves
say about their hidden cards.  This script measures that directly, without playing a
strength match: it plays games between ``--bots`` (every seat the same spec) and, at each
placement decision of P1 after an opponent's first placement, compares for every opponent
the model's posterior of their *true* hand with the uniform deal's:

* ``prior_nats`` — −log P(true hand) under the uniform deal of the cards P1 cannot see
  (a 4-card hand drawn from them: the multivariate hypergeometric law, exact);
* ``gain_nats[depth]`` — log L(true hand) − log Σ_h P(h)·L(h) for the likelihood L of the
  choice model reading the opponent's last ``depth`` decisions, the sum over every hand
  the uniform deal can give: how many nats closer to the truth the reading's posterior
  is.  Its mean is the information the reading gains (0: none; ``prior_nats``: the
  hand known, as the peeking engine knows it); ``misread[depth]`` is the share of
  readings that put the true hand *below* its uniform chance.

Every figure is exact given the positions (no pool of dealt worlds), so a few games tell
deeper readings apart; the means come with 95 % normal intervals over the readings.

Usage: ``python benchmarks/reading_information.py [--bots greedy] [--games 10]
[--depths 1,2,3,4,6] [--values greedy] [--temperature 0.1] [--mix 0.01] [--seed 100]
[--json]``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
from dataclasses import replace

import numpy as np

from analyzer.players import check_bot_spec, make_bot
from positions.errors import ManhattanError
from positions.inference import GREEDY_PLAYER, ChoiceModel, OpponentReading, read_opponents
from positions.layout import CARD_TYPES, HAND_SIZE
from positions.state import GameState, Phase

PLAYERS = 4
OBSERVER = 0


def possible_hands(unseen: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Every hand of ``HAND_SIZE`` cards a uniform deal of ``unseen`` (a list of cards)
    can give one opponent, as counts (hands × 10), and its probability."""
    available = np.bincount(unseen, minlength=CARD_TYPES + 1)
    total = math.comb(len(unseen), HAND_SIZE)
    hands, chances = [], []
    for cards in itertools.combinations_with_replacement(range(1, CARD_TYPES + 1), HAND_SIZE):
        counts = np.bincount(cards, minlength=CARD_TYPES + 1)
        if (counts <= available).all():
            pairs = zip(available, counts, strict=True)
            ways = math.prod(math.comb(int(a), int(c)) for a, c in pairs)
            hands.append(counts)
            chances.append(ways / total)
    return np.array(hands, dtype=np.int64), np.array(chances)


def hand_nats(
    hands: np.ndarray,
    chances: np.ndarray,
    reading: OpponentReading,
    opponent: int,
    true_hand: np.ndarray,
    mix: float,
) -> tuple[float, float]:
    """``(prior_nats, gain_nats)`` of ``reading`` of ``opponent`` (its likelihood with
    ``mix``) about their ``true_hand`` (counts, index 1-9), over the ``possible_hands``
    ``hands`` with their ``chances`` (see the module docstring)."""
    rows = np.zeros((len(hands) + 1, PLAYERS, 10), dtype=np.int64)
    rows[:-1, opponent] = hands
    rows[-1, opponent] = true_hand
    likelihood = reading.weights(rows, mix)
    truth = (hands[:, 1:] == true_hand[1:]).all(axis=1)
    prior = float(chances[truth].sum())
    return -math.log(prior), math.log(likelihood[-1] / float(chances @ likelihood[:-1]))


def shallower(reading: OpponentReading, depth: int) -> OpponentReading:
    """``reading`` cut to each opponent's last ``depth`` decisions: its rows are the most
    recent first, so this is the reading ``depth`` deep, without reading again."""
    return replace(reading, depths=np.minimum(reading.depths, depth))


def measure(
    bots: str, games: int, depths: list[int], model: ChoiceModel, seed: int
) -> dict[str, object]:
    """Play ``games`` games of ``bots`` in every seat and read every opponent of P1 at
    each of P1's placements (see the module docstring).  Each decision lists the
    possible hands once and reads each opponent once, at the deepest depth."""
    prior: list[float] = []
    gains: dict[int, list[float]] = {depth: [] for depth in depths}
    deepest = replace(model, depth=max(depths))
    for game in range(games):
        rng = np.random.default_rng(seed + game)
        state = GameState.new_game(PLAYERS, rng)
        seated = [make_bot(bots) for _ in range(PLAYERS)]
        try:
            while state.phase != Phase.OVER:
                mover = state.to_move
                if mover == OBSERVER and state.phase == Phase.PLACEMENT:
                    view = state.view(OBSERVER)
                    hands, chances = possible_hands(view.unseen_cards(OBSERVER))
                    for opponent in range(1, PLAYERS):
                        if not any(d.player == opponent for d in state.history):
                            continue
                        true_hand = np.array(state.hands[opponent * 10 : opponent * 10 + 10])
                        true_hand[0] = 0
                        reading = read_opponents(view, OBSERVER, deepest, readers=[opponent])
                        for depth in depths:
                            nats, gain = hand_nats(
                                hands,
                                chances,
                                shallower(reading, depth),
                                opponent,
                                true_hand,
                                model.mix,
                            )
                            gains[depth].append(gain)
                        prior.append(nats)
                state.apply_move(seated[mover].choose(state.view(mover), rng))
        finally:
            for bot in seated:
                bot.close()
        print(f"game {game + 1} of {games}: {len(prior)} readings", file=sys.stderr)
    return {
        "bots": bots,
        "games": games,
        "seed": seed,
        "model": {"values": model.values, "temperature": model.temperature, "mix": model.mix},
        "readings": len(prior),
        "prior_nats": _mean(prior),
        "gain_nats": {str(depth): _mean(values) for depth, values in gains.items()},
        "misread": {
            str(depth): round(float(np.mean(np.array(values) < 0)), 3)
            for depth, values in gains.items()
        },
    }


def _mean(values: list[float]) -> list[float]:
    """``[mean, half-width of its 95 % normal interval]``, rounded."""
    array = np.array(values)
    half = 1.96 * array.std(ddof=1) / math.sqrt(len(array)) if len(array) > 1 else math.nan
    return [round(float(array.mean()), 3), round(float(half), 3)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bots", default="greedy", help="the bot spec in every seat")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--depths", default="1,2,3,4,6", help="decisions read back, a list")
    parser.add_argument("--values", default=GREEDY_PLAYER.values)
    parser.add_argument("--temperature", type=float, default=GREEDY_PLAYER.temperature)
    parser.add_argument("--mix", type=float, default=GREEDY_PLAYER.mix)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    try:
        check_bot_spec(args.bots)
        depths = [int(part) for part in args.depths.split(",")]
        model = ChoiceModel(temperature=args.temperature, mix=args.mix, values=args.values)
        if args.games < 1 or min(depths) < 1:
            raise ValueError("--games and every depth must be at least 1")
    except (ManhattanError, ValueError) as error:
        parser.exit(1, f"reading_information.py: {error}\n")
    report = measure(args.bots, args.games, depths, model, args.seed)
    if args.json:
        print(json.dumps(report, indent=1))
        return
    print(
        f"{report['readings']} readings of {args.bots} bots; a hand holds "
        f"{report['prior_nats'][0]} nats"
    )
    for depth, (gain, half) in report["gain_nats"].items():
        print(
            f"  depth {depth}: the reading gains {gain} ± {half} nats "
            f"(misreads {report['misread'][depth]:.0%})"
        )


if __name__ == "__main__":
    main()
