"""The facts of one move in words: short verb phrases with the mover as their subject
("takes a building from P1 (last place) in city 1", "keeps both 4-story blocks for rounds
3 and 4").

Players are named by number; a color is named only where it matters (in 2 players: a
player's own two colors, and a selection, which is made per color).
"""

from __future__ import annotations

from analyzer.explain_facts import (
    KEEP_MARGIN,
    Building,
    MajorityChange,
    PlacementFacts,
    TallestChange,
)
from analyzer.explain_players import join_names
from analyzer.explain_replies import Threat
from analyzer.explain_selection import BigBlocks, SelectionFacts

VERBS = {
    "building": "take it back",
    "tallest": "take or tie the tallest building",
    "majority": "break the majority in city {city}",
}


def percent(chance: float) -> str:
    """A chance as a whole percentage, never rounded to a certainty it is not."""
    if 0 < chance < 0.005:
        return "<1%"
    if 0.995 <= chance < 1:
        return "99%"
    return f"{chance:.0%}"


def stories(count: int) -> str:
    """``"1 story"``, ``"5 stories"``."""
    return f"{count} {'story' if count == 1 else 'stories'}"


NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def count_word(count: int) -> str:
    """A small count in words ("three"), a larger one in digits."""
    return NUMBER_WORDS[count] if 0 <= count < len(NUMBER_WORDS) else str(count)


def card_list(cards: tuple[int, ...]) -> str:
    """``"card 4"``, ``"cards 1 or 9"``."""
    if len(cards) == 1:
        return f"card {cards[0]}"
    return "cards " + join_names([str(c) for c in cards], "or")


def players_or(players: tuple[int, ...]) -> str:
    """``"P1"``, ``"P1 or P2"``; ``"an opponent"`` for none."""
    return join_names([f"P{p}" for p in players], "or") or "an opponent"


def threat_phrase(threat: Threat, detailed: bool = True, verb: str | None = None) -> str:
    """Who can undo the gain on their next turn and how likely: "P1 can take it back next
    turn with card 4 (31%)", "P1 or P2 can take it back next turn (78%: P1 card 4 31%, P2
    card 8 71%)", "no opponent can take it back next turn"; shorter unless ``detailed``:
    "P1 can take it back (card 4, 31%)".  ``verb`` replaces the target's usual one."""
    verb = verb or VERBS[threat.target].format(city=threat.city)
    if not threat.answerable:
        return f"no opponent has a turn left this round to {verb}"
    able = [r for r in threat.replies if r.chance > 0]
    if not able:
        if threat.replies and detailed:
            needs = join_names([f"P{r.player} {card_list(r.cards)}" for r in threat.replies])
            return f"no opponent can {verb} next turn (every {needs} is seen)"
        return f"no opponent can {verb} next turn"
    if len(able) == 1:
        reply = able[0]
        cards, chance = card_list(reply.cards), percent(reply.chance)
        if not detailed:
            return f"P{reply.player} can {verb} ({cards}, {chance})"
        return f"P{reply.player} can {verb} next turn with {cards} ({chance})"
    names = players_or(tuple(r.player for r in able))
    if not detailed:
        return f"{names} can {verb} ({percent(threat.chance)})"
    each = ", ".join(f"P{r.player} {card_list(r.cards)} {percent(r.chance)}" for r in able)
    return f"{names} can {verb} next turn ({percent(threat.chance)}: {each})"


def safety_phrase(before: Threat, after: Threat, verb: str, brief: bool = False) -> str:
    """How much safer a kept gain became: "P1 could break it next turn with 99%, now
    nobody can"; brief: "from P1 (99% before)", "from P1 (99% before, 31% now)"."""
    could = players_or(before.players)
    if brief:
        now = f", {percent(after.chance)} now" if after.players else ""
        return f"from {could} ({percent(before.chance)} before{now})"
    now = (
        "now nobody can"
        if not after.players
        else f"now {players_or(after.players)} with {percent(after.chance)}"
    )
    return f"{could} could {verb} next turn with {percent(before.chance)}, {now}"


def _kept_safe(change: TallestChange | MajorityChange, verb: str, brief: bool) -> str:
    """The tail of a kept gain: safe (nobody can undo it now) or safer, and how much."""
    before, after = change.threat_before, change.threat_after
    assert before is not None and after is not None
    return _safety_tail("safe" if not after.players else "safer", before, after, verb, brief)


def _safety_tail(word: str, before: Threat, after: Threat, verb: str, brief: bool) -> str:
    return f" {word}{' ' if brief else ': '}{safety_phrase(before, after, verb, brief)}"


def tallest_phrase(change: TallestChange, mover: int, brief: bool = False) -> str:
    """The tallest building in words: "takes the tallest building from P2 (9 stories now)",
    "ties the tallest building at 9 stories: P2 no longer scores it", "raises its tallest
    building to 12 stories and keeps it safe: ..."."""
    height = stories(change.height_after)
    if change.effect == "takes":
        if change.holder_before is not None:
            return f"takes the tallest building from P{change.holder_before} ({height} now)"
        if change.height_before == 0:
            return f"builds the tallest building ({height})"
        return f"takes the tallest building ({height}), which nobody scored"
    if change.effect == "ties":
        if change.holder_before == mover:
            return f"ties its own tallest building at {height}: nobody scores it"
        return f"ties the tallest building at {height}: P{change.holder_before} no longer scores it"
    if change.effect == "loses":
        return "gives up the tallest building"
    if change.effect == "keeps":
        assert change.threat_after is not None
        keeps = "keeps it" if not change.threat_after.players else "makes it"
        return f"raises its tallest building to {height} and {keeps}" + _kept_safe(
            change, "take it", brief
        )
    return f"raises its tallest building to {height}"


def majority_phrase(change: MajorityChange, brief: bool = False) -> str:
    """The majority in words: "wins the majority in city 4 from P2", "breaks P2's majority
    in city 5", "keeps its majority in city 1 safe: ...", "strengthens its majority in city
    4 (4 buildings to 2)"."""
    city = f"city {change.city}"
    if change.effect == "wins":
        source = f" from P{change.holder_before}" if change.holder_before is not None else ""
        return f"wins the majority in {city}{source}"
    if change.effect == "breaks":
        return f"breaks P{change.holder_before}'s majority in {city}"
    if change.effect == "hands":
        return f"hands the majority in {city} to P{change.holder_after}"
    if change.effect == "loses":
        return f"gives up its majority in {city}"
    if change.effect == "keeps":
        assert change.threat_after is not None
        verb = "keeps" if not change.threat_after.players else "makes"
        return f"{verb} its majority in {city}" + _kept_safe(change, "break it", brief)
    ranked = sorted(change.buildings_after, reverse=True)
    return f"strengthens its majority in {city} ({ranked[0]} buildings to {ranked[1]})"


def building_phrase(
    building: Building, mover: int, after: Threat, brief: bool = False
) -> tuple[str, bool]:
    """What the placement does to its building, and whether that already says how safe
    the building is ("raises its own building ... out of reach")."""
    city = f"city {building.city}"
    if building.previous == "opponent":
        standing = f" ({building.standing})" if building.standing else ""
        return f"takes a building from P{building.taken_from}{standing} in {city}", False
    if building.previous == "own color":
        own = f"P{mover}'s own {building.taken_color}"
        return f"puts P{mover}'s {building.color} on {own} building in {city}", False
    if building.previous == "own":
        raised = f"raises its own building in {city} to {stories(building.height)}"
        before = building.threat_before
        if before is not None and before.chance - after.chance >= KEEP_MARGIN:
            if brief:
                word = "safe" if not after.players else "safer"
            else:
                word = "out of reach" if not after.players else "harder to take"
            return f"{raised}," + _safety_tail(word, before, after, "take it", brief), True
        return raised, False
    return f"builds on an empty site in {city}", False


def points_phrase(points: tuple[int, ...], mover: int) -> str | None:
    """This round's points: "+1 point this round (-1 for P1)", or ``None`` when no
    player's points change."""
    own = points[mover - 1]
    others = [f"{p:+d} for P{i + 1}" for i, p in enumerate(points) if p and i != mover - 1]
    if not own and not others:
        return None
    head = f"{own:+d} point{'' if abs(own) == 1 else 's'} this round"
    return head + (f" ({', '.join(others)})" if others else "")


def placement_reasons(facts: PlacementFacts, mover: int, brief: bool = False) -> list[str]:
    """The phrases of a placement, most important first; ``brief`` keeps the few a
    one-line reason needs, in shorter words."""
    if facts.building is None:
        kept = f", keeps its {facts.held_after[0]}-story block" if facts.held_after else ""
        return [f"no placement is legal: gives up a {facts.given_up}-story block{kept}"]
    reasons = []
    if facts.tallest is not None:
        reasons.append(tallest_phrase(facts.tallest, mover, brief))
    if facts.majority is not None:
        reasons.append(majority_phrase(facts.majority, brief))
    taken_back = next(t for t in facts.threats if t.target == "building")
    phrase, safe = building_phrase(facts.building, mover, taken_back, brief)
    reasons.append(phrase)
    points = points_phrase(facts.points, mover)
    if points and not brief:
        reasons.append(points)
    if not safe:
        verb = "take it back" if facts.building.previous == "opponent" else "take it over"
        reasons.append(threat_phrase(taken_back, detailed=not brief, verb=verb))
    if not brief:
        reasons.extend(
            threat_phrase(threat)
            for threat in facts.threats
            if threat.target != "building" and not _said_safe(threat, facts)
        )
    if facts.held_after and facts.held_after[0] > facts.building.stories:
        reasons.append(f"keeps its {facts.held_after[0]}-story block for a later turn")
    return reasons


def _said_safe(threat: Threat, facts: PlacementFacts) -> bool:
    """Whether a "keeps ... safe" phrase already says how safe the gain is now."""
    change = facts.tallest if threat.target == "tallest" else facts.majority
    return change is not None and change.effect == "keeps"


def _rounds(rounds: tuple[int, ...], count: int) -> str:
    """Later rounds in words: "round 4", "rounds 3 and 4", "round 3 or 4", "rounds 2 to 6",
    "a later round"."""
    if len(rounds) == 1:
        return f"round {rounds[0]}"
    if len(rounds) == 2:
        joined = "and" if count > 1 else "or"
        return f"round{'s' if count > 1 else ''} {rounds[0]} {joined} {rounds[1]}"
    return f"rounds {rounds[0]} to {rounds[-1]}" if count > 1 else "a later round"


def big_blocks_phrase(blocks: BigBlocks, name_color: bool = False) -> str:
    """How a selection treats one big size: "takes its last 3-story block now", "keeps
    both 4-story blocks for rounds 3 and 4", "takes two of its three 4-story blocks now and
    keeps one for a later round".  With ``name_color`` (2 players, where each color
    selects) the color and its player lead: "P1's c takes all three of its 4-story blocks
    now"."""
    kind = f"{blocks.stories}-story block"
    subject = f"P{blocks.player}'s {blocks.color} " if name_color else ""
    had, taken, kept = (count_word(n) for n in (blocks.had, blocks.taken, blocks.kept))
    if blocks.taken == blocks.had:
        if blocks.had == 1:
            return f"{subject}takes its last {kind} now"
        amount = "both its" if blocks.had == 2 else f"all {had} of its"
        return f"{subject}takes {amount} {kind}s now"
    later = _rounds(blocks.later_rounds, blocks.kept)
    if blocks.taken == 0:
        if blocks.had == 1:
            return f"{subject}keeps its last {kind} for {later}"
        amount = "both" if blocks.had == 2 else f"all {had}"
        return f"{subject}keeps {amount} {kind}s for {later}"
    return f"{subject}takes {taken} of its {had} {kind}s now and keeps {kept} for {later}"


def selected_stories(facts: SelectionFacts) -> str:
    """The stories selected: "selects 13 stories", in 2 players (a clause of its own)
    "P1's a selects 14 stories and P1's c 15"."""
    if len(facts.colors) == 1:
        return f"selects {stories(facts.stories[0])}"
    (first, second), player = facts.stories, facts.player
    a, c = facts.colors
    return f"P{player}'s {a} selects {stories(first)} and P{player}'s {c} {second}"


def selection_context(facts: SelectionFacts, mover: int) -> str | None:
    """The round a selection is made in, when it bears on the big blocks: "P2 and P3
    selected blocks that can take its tallest building (15 stories) this round", "the
    tallest building is open this round", "P2 holds the tallest building (12 stories)"."""
    if facts.threatened_by:
        names = join_names([f"P{p}" for p in facts.threatened_by])
        return (
            f"{names} selected blocks that can take P{mover}'s tallest building "
            f"({stories(facts.tallest_height)}) this round"
        )
    if facts.tallest_holder is None:
        return "the tallest building is open this round"
    if facts.tallest_holder != mover:
        height = stories(facts.tallest_height)
        return f"P{facts.tallest_holder} holds the tallest building ({height})"
    return None


def selection_reasons(facts: SelectionFacts, mover: int, brief: bool = False) -> list[str]:
    """The phrases of a selection: per color the big blocks it takes now or keeps for
    later rounds (brief: the biggest size only), the round's situation when the selection
    takes big blocks, and the stories selected against the rivals' so far."""
    if facts.last_round:
        return ["takes every block left: the last round's selection is forced"]
    two_colors = len(facts.colors) > 1
    reasons = []
    for color in facts.colors:
        sizes = [b for b in facts.blocks if b.color == color]
        reasons.extend(big_blocks_phrase(b, two_colors) for b in (sizes[:1] if brief else sizes))
    context = selection_context(facts, mover)
    if context and (any(b.taken for b in facts.blocks) or not brief):
        reasons.append(context)
    if not brief or len(reasons) < 2:
        rivals = ", ".join(f"P{r.player} {r.stories}" for r in facts.rivals)
        reasons.append(selected_stories(facts) + (f" (so far: {rivals})" if rivals else ""))
    return reasons
