"""How likely hidden hands hold the cards a reply needs, from one player's information.

Seen from the mover, each opponent's hand is a random draw (without replacement) from the
cards the mover cannot see.  One hand's chance is hypergeometric; the chance that at least
one of several hands can reply is computed exactly by dealing the hands one after the
other over classes of cards (which hands a card type would serve).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from math import comb


def chance_hand_holds(pool_size: int, wanted: int, hand_size: int) -> float:
    """The probability that a hand of ``hand_size`` cards drawn from ``pool_size`` cards,
    ``wanted`` of which would serve, holds at least one of them (hypergeometric).
    Raises ``ValueError`` when the counts do not fit together."""
    if not 0 <= wanted <= pool_size or not 0 <= hand_size <= pool_size:
        raise ValueError(
            f"a hand of {hand_size} with {wanted} wanted cards among {pool_size} is impossible"
        )
    return 1.0 - comb(pool_size - wanted, hand_size) / comb(pool_size, hand_size)


def chance_any_hand_holds(
    pool: Mapping[int, int], hands: Sequence[tuple[int, frozenset[int]]]
) -> float:
    """The probability that at least one hand holds a card it wants, when the hands are
    dealt together from ``pool`` (card type -> copies unseen).  ``hands`` gives each hand's
    size and the card types that would serve it.  Raises ``ValueError`` when the hands
    need more cards than the pool has."""
    wanting = [(size, cards) for size, cards in hands if cards & set(pool)]
    if sum(size for size, _ in hands) > sum(pool.values()):
        raise ValueError("the hands hold more cards than the pool")
    if not wanting:
        return 0.0
    classes: dict[tuple[int, ...], int] = {}
    for card, copies in pool.items():
        key = tuple(i for i, (_, cards) in enumerate(wanting) if card in cards)
        classes[key] = classes.get(key, 0) + copies
    keys = tuple(classes)
    sizes = tuple(size for size, _ in wanting)
    return 1.0 - _chance_all_avoid(keys, sizes, 0, tuple(classes[k] for k in keys))


@cache
def _chance_all_avoid(
    keys: tuple[tuple[int, ...], ...], sizes: tuple[int, ...], hand: int, counts: tuple[int, ...]
) -> float:
    """The chance that hands ``hand``.. each avoid every class naming them, given the
    copies left per class."""
    if hand == len(sizes):
        return 1.0
    remaining = sum(counts)
    eligible = [k for k, key in enumerate(keys) if hand not in key]
    total = 0.0
    for taken in _compositions(sizes[hand], [counts[k] for k in eligible]):
        ways = 1
        left = list(counts)
        for k, x in zip(eligible, taken, strict=True):
            ways *= comb(counts[k], x)
            left[k] -= x
        if ways:
            total += ways * _chance_all_avoid(keys, sizes, hand + 1, tuple(left))
    return total / comb(remaining, sizes[hand])


def _compositions(total: int, limits: list[int]) -> list[tuple[int, ...]]:
    """Every way to write ``total`` as a sum of ``len(limits)`` parts, part k at most
    ``limits[k]``."""
    if not limits:
        return [()] if total == 0 else []
    result = []
    for first in range(min(total, limits[0]) + 1):
        result.extend((first, *rest) for rest in _compositions(total - first, limits[1:]))
    return result
