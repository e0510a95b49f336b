"""Explanations in words (analyzer.explain): each reason on a position built so that it is
the true one, the chances checked against direct counts, and the comparison of two moves.

Card -> site (1-9, reading order from S) per seat, used to build the positions:
S: card k -> site k;  W: 1->3 2->6 3->9 4->2 5->5 6->8 7->1 8->4 9->7;
N: card k -> site 10-k;  E: 1->7 2->4 3->1 4->8 5->5 6->2 7->9 8->6 9->3.
"""

from __future__ import annotations

import json
import re
from itertools import permutations
from math import comb
from pathlib import Path

import numpy as np
import pytest
from randompositions import random_states

from analyzer.explain import (
    Figures,
    compare_moves,
    describe_move,
    explain_move,
    why_better,
)
from analyzer.explain_chance import chance_any_hand_holds, chance_hand_holds
from positions import GameState, ManhattanError, parse_move, parse_position
from positions.loading import load_position

EXAMPLES = Path(__file__).parent.parent / "positions" / "data" / "examples"
NO_SUPPLY_4P = ",".join(["0.0.0.0"] * 4)
LONE_COLOR = re.compile(r"(?<!'s )\b[bcd]\b")  # a color letter not written as "P2's d"


def board(stacks: dict[tuple[int, int], str]) -> str:
    """A board field from ``{(city, site): stack}``, every other site empty."""
    return "/".join(
        ",".join(stacks.get((city, site), "1") for site in range(1, 10)) for city in range(1, 7)
    )


def last_round_4p(
    stacks: dict[tuple[int, int], str],
    *,
    selected: str = "1,1,1,1",
    hands: str = "????,????,????,2456",
    played: str = "-",
    scores: str = "20,20,20,20",
    to_move: int = 4,
) -> GameState:
    """A placement position of round 4 of 4 (P4 starts it: P4, P1, P2, P3)."""
    return parse_position(
        f"{board(stacks)} 4 4 {to_move} p {scores} {NO_SUPPLY_4P} {selected} {hands} {played}"
    )


def hypergeometric(unseen: int, wanted: int, hand: int = 4) -> float:
    """A hand of ``hand`` cards from ``unseen`` holds at least one of ``wanted``."""
    return 1 - comb(unseen - wanted, hand) / comb(unseen, hand)


def assert_players_by_number(*texts: str) -> None:
    for text in texts:
        assert not LONE_COLOR.search(text), text


# ----- the tallest building ------------------------------------------------------------


TALLEST = {(1, 1): "b4b1", (2, 4): "d3"}  # P2 holds the tallest (5); P4's card 2 reaches (2, 4)


def test_takes_the_tallest_building_from_its_holder():
    state = last_round_4p(TALLEST, selected="1,1,1,3")
    facts = describe_move(state, "2@2:3")
    change = facts.placement.tallest
    assert (change.effect, change.holder_before, change.holder_after) == ("takes", 2, 4)
    assert change.height_after == 6
    assert facts.placement.points[1] == -3 and facts.placement.points[3] == 3
    assert "takes the tallest building from P2 (6 stories now)" in facts.line


def test_ties_the_tallest_building_so_nobody_scores_it():
    state = last_round_4p(TALLEST, selected="1,1,1,2")
    facts = describe_move(state, "2@2:2")
    assert facts.placement.tallest.effect == "ties"
    assert facts.placement.tallest.holder_after is None
    assert "ties the tallest building at 5 stories: P2 no longer scores it" in facts.line


def test_comparison_names_the_tallest_as_the_engine_moves_advantage():
    state = last_round_4p(TALLEST, selected="1,1,1,3")
    explanation = compare_moves(state, "4@3:3", "2@2:3")  # 4@3:3 builds on an empty site
    top = explanation.differences[0]
    assert (top.topic, top.better) == ("tallest", "engine")
    assert top.engine_does == "takes the tallest building from P2"
    assert top.move_does == "leaves the tallest building to P2"
    assert explanation.summary.startswith(
        "2@2:3 takes the tallest building from P2, 4@3:3 leaves the tallest building to P2"
    )
    assert why_better(state, "4@3:3", "2@2:3") == explanation.summary
    assert_players_by_number(explanation.text)


def test_raises_its_tallest_building_out_of_reach():
    # P4's 5-story tallest on (2, 4); P2 can tie it with a 1-story block on its b4 at (1, 1)
    # (card 7 from seat W).  Raised to 6 stories, no 1-story block reaches it.
    state = last_round_4p({(1, 1): "b4", (2, 4): "d4d1"})
    facts = describe_move(state, "2@2:1")
    change = facts.placement.tallest
    assert change.effect == "keeps"
    assert change.threat_before.players == (2,) and change.threat_before.replies[0].cards == (7,)
    assert change.threat_before.chance == pytest.approx(hypergeometric(41, 5))
    assert change.threat_after.replies == ()
    assert facts.line.startswith("raises its tallest building to 6 stories and keeps it safe")


def test_a_smaller_block_now_keeps_the_big_one_for_a_later_turn():
    state = last_round_4p({(1, 1): "b4"}, selected="14,14,14,14")
    small = describe_move(state, "5@3:1")
    assert small.placement.held_after == (4,)
    assert "keeps its 4-story block for a later turn" in small.reasons
    explanation = compare_moves(state, "5@3:4", "5@3:1")
    blocks = next(d for d in explanation.differences if d.topic == "blocks")
    assert (blocks.better, blocks.engine_does) == (
        "engine",
        "keeps its 4-story block for a later turn",
    )


# ----- city majorities -----------------------------------------------------------------


def test_wins_a_majority_nobody_held():
    state = last_round_4p({(3, 1): "b2", (3, 9): "d2"})
    facts = describe_move(state, "5@3:1")
    majority = facts.placement.majority
    assert (majority.effect, majority.holder_before, majority.holder_after) == ("wins", None, 4)
    assert "wins the majority in city 3" in facts.line


def test_breaks_an_opponents_majority():
    state = last_round_4p({(3, 1): "b2", (3, 3): "b2", (3, 9): "d2"})
    facts = describe_move(state, "5@3:1")
    assert facts.placement.majority.effect == "breaks"
    assert facts.placement.points[1] == -2
    assert "breaks P2's majority in city 3" in facts.line


def test_hands_a_majority_to_another_opponent():
    # b and c tie in city 3 with two buildings each; P4 takes one of b's (center): c leads.
    state = last_round_4p({(3, 1): "b1", (3, 5): "b1", (3, 3): "c1", (3, 9): "c1"})
    facts = describe_move(state, "5@3:1")
    majority = facts.placement.majority
    assert (majority.effect, majority.holder_before, majority.holder_after) == ("hands", None, 3)
    assert "hands the majority in city 3 to P3" in facts.line


# City 4 full: d owns 4 buildings (the one on site 4 only d1), b 3, c 2.  Any opponent's
# 1-story block can take d1, which breaks or takes d's majority; P4 raises it to 2 stories.
# Every card 4 (P1's card for site 4) and 6 (P3's) is seen, so only P2 (card 8) can answer.
FULL_CITY_4 = {
    (4, 1): "d4",
    (4, 2): "b4",
    (4, 3): "d4",
    (4, 4): "d1",
    (4, 5): "b4",
    (4, 6): "c4",
    (4, 7): "d4",
    (4, 8): "b4",
    (4, 9): "c4",
}


def test_keeps_a_majority_that_an_opponent_could_break_with_the_right_chance():
    state = last_round_4p(FULL_CITY_4, played="44446666")
    facts = describe_move(state, "2@4:1")
    majority = facts.placement.majority
    assert majority.effect == "keeps"
    before = majority.threat_before
    assert [(r.player, r.cards, r.unseen) for r in before.replies] == [
        (1, (4,), 0),
        (2, (8,), 5),
        (3, (6,), 0),
    ]
    unseen = 45 - 4 - 8
    assert before.replies[1].chance == pytest.approx(hypergeometric(unseen, 5))
    assert before.chance == pytest.approx(hypergeometric(unseen, 5))
    assert majority.threat_after.replies == ()
    assert facts.line.startswith("keeps its majority in city 4 safe from P2 (50% before)")
    assert "P2 could break it next turn with 50%, now nobody can" in facts.text


def test_last_round_3p_the_city_4_move_is_about_the_majority():
    state = load_position(str(EXAMPLES / "last_round_3p.txt"))
    facts = describe_move(state, "3@4:1")
    majority = facts.placement.majority
    assert (majority.city, majority.effect) == (4, "strengthens")
    assert majority.buildings_before[:3] == (3, 2, 0) and majority.buildings_after[:3] == (4, 2, 0)
    assert facts.line.startswith("strengthens its majority in city 4 (4 buildings to 2)")
    # P2 can still break it with a takeover (card 1 or 9 from seat W): said, not hidden.
    threat = next(t for t in facts.placement.threats if t.target == "majority")
    assert [(r.player, r.cards) for r in threat.replies] == [(2, (1, 9))]
    assert "gains" not in facts.text


# ----- takeovers, standings and take-backs ---------------------------------------------

# P1 (a) last, P3 (c) the leader; P4's card 3 reaches site 1 of every city.
STANDINGS = {(1, 1): "a1", (2, 1): "c1"}


def test_takeover_from_the_leader_and_from_last_place():
    state = last_round_4p(STANDINGS, hands="????,????,????,3456", scores="10,30,50,30")
    from_last = describe_move(state, "3@1:1")
    from_leader = describe_move(state, "3@2:1")
    assert from_last.placement.building.taken_from == 1
    assert from_last.placement.building.standing == "last place"
    assert from_leader.placement.building.standing == "the leader"
    assert "takes a building from P1 (last place) in city 1" in from_last.line
    assert "takes a building from P3 (the leader) in city 2" in from_leader.line
    explanation = compare_moves(state, "3@1:1", "3@2:1")
    assert [(d.topic, d.better) for d in explanation.differences] == [("takeover", "engine")]
    assert_players_by_number(explanation.text)


def test_only_the_old_owner_can_take_it_back_with_the_hypergeometric_chance():
    # Every card 7 (P2's card for site 1) and 9 (P3's) is seen: only P1 (card 1) can answer.
    state = last_round_4p(
        STANDINGS, hands="????,????,????,3456", scores="10,30,50,30", played="77777999991"
    )
    threat = describe_move(state, "3@1:1").placement.threats[0]
    assert threat.target == "building" and threat.players == (1,)
    reply = threat.replies[0]
    unseen = 45 - 4 - 11
    assert (reply.cards, reply.unseen) == ((1,), 4)
    assert reply.chance == pytest.approx(hypergeometric(unseen, 4))
    assert threat.chance == pytest.approx(reply.chance)
    line = explain_move(state, parse_move("3@1:1"))
    assert f"P1 can take it back (card 1, {reply.chance:.0%})" in line
    assert "P1 can take it back next turn with card 1" in describe_move(state, "3@1:1").text


def test_several_opponents_can_take_it_back():
    state = last_round_4p(STANDINGS, hands="????,????,????,3456", played="1179")
    threat = describe_move(state, "3@1:1").placement.threats[0]
    unseen = 45 - 4 - 4
    assert [(r.player, r.cards, r.unseen) for r in threat.replies] == [
        (1, (1,), 3),
        (2, (7,), 4),
        (3, (9,), 4),
    ]
    for reply in threat.replies:
        assert reply.chance == pytest.approx(hypergeometric(unseen, reply.unseen))
    assert threat.chance > max(r.chance for r in threat.replies)
    assert "P1, P2 or P3 can take it back next turn (" in describe_move(state, "3@1:1").text


def test_no_opponent_can_answer_when_every_card_is_seen():
    # Every card 1, 7 and 9 (P1's, P2's and P3's cards for site 1) is in the played pile.
    state = last_round_4p(STANDINGS, hands="????,????,????,3456", played="777779999911111")
    facts = describe_move(state, "3@1:1")
    threat = facts.placement.threats[0]
    assert [(r.player, r.unseen, r.chance) for r in threat.replies] == [
        (1, 0, 0.0),
        (2, 0, 0.0),
        (3, 0, 0.0),
    ]
    assert threat.chance == 0 and threat.players == ()
    assert "no opponent can take it back next turn" in facts.line
    assert "every P1 card 1, P2 card 7 and P3 card 9 is seen" in facts.text


def test_no_opponent_can_answer_after_the_last_block_of_the_game():
    # P3 places the last block of round 4: P4, P1 and P2 hold none (they played first).
    state = last_round_4p(STANDINGS, selected="-,-,1,-", hands="????,????,1239,????", to_move=3)
    facts = describe_move(state, "9@1:1")  # N's card 9 reaches site 1
    threat = facts.placement.threats[0]
    assert not threat.answerable
    assert "no opponent has a turn left this round to take it back" in facts.line


def test_a_block_too_small_cannot_take_a_building_back():
    # P4 covers b1 with d4 on site 4 of city 5: every opponent holds only 1-story blocks.
    state = last_round_4p({(5, 4): "b1"}, selected="1,1,1,4")
    threat = describe_move(state, "2@5:4").placement.threats[0]
    assert threat.replies == () and threat.answerable
    assert "no opponent can take it back next turn" in describe_move(state, "2@5:4").line


# ----- two players ----------------------------------------------------------------------


def two_player_last_round(stacks: dict[tuple[int, int], str]) -> GameState:
    """Round 6 of 6 (P2 starts): P1 to move with a1 and c1, P2 holding b1."""
    return parse_position(f"{board(stacks)} 2 6 1 p 30,30,30,30 {NO_SUPPLY_4P} 1,1,1,- 1234,???? -")


def test_two_player_takeover_names_the_player_and_the_own_colors():
    state = two_player_last_round({(1, 1): "b1", (2, 1): "a1"})
    facts = describe_move(state, "1@1:1c")
    building = facts.placement.building
    assert (building.previous, building.taken_from, building.standing) == ("opponent", 2, None)
    assert "takes a building from P2 in city 1" in facts.line
    threat = facts.placement.threats[0]  # P2's b1 reaches site 1 with card 9 (seat N)
    assert [(r.player, r.cards) for r in threat.replies] == [(2, (9,))]
    assert threat.chance == pytest.approx(hypergeometric(45 - 4, 5))
    own = describe_move(state, "1@2:1c")
    assert own.placement.building.previous == "own color"
    assert "puts P1's c on P1's own a building in city 2" in own.line
    assert_players_by_number(facts.text, own.text)


# ----- selections -----------------------------------------------------------------------


def round_2_selection() -> GameState:
    """Round 2 of 4 (order P2, P3, P4, P1): P1 selects last, with both 4-story blocks and
    the last 3-story block left."""
    stacks = {(1, 1): "a3", (1, 2): "a3", (1, 3): "a3", (1, 4): "a4", (1, 5): "a2", (1, 6): "a1"}
    supply = "10.5.1.2,7.4.0.1,7.4.0.1,7.4.0.1"
    return parse_position(
        f"{board(stacks)} 4 2 1 s 9,0,0,0 {supply} -,113344,113344,113344 1234,????,????,???? -"
    )


def test_selection_keeps_both_four_story_blocks_for_the_later_rounds():
    facts = describe_move(round_2_selection(), "=111122")
    fours = next(b for b in facts.selection.blocks if b.stories == 4)
    assert (fours.had, fours.taken, fours.later_rounds) == (2, 0, (3, 4))
    assert facts.reasons[:2] == (
        "keeps both 4-story blocks for rounds 3 and 4",
        "keeps its last 3-story block for round 3 or 4",
    )
    assert facts.line.startswith("keeps both 4-story blocks for rounds 3 and 4")


def test_selection_that_takes_the_four_story_blocks_now():
    state = round_2_selection()
    facts = describe_move(state, "=111344")
    assert facts.reasons[0] == "takes both its 4-story blocks now"
    # P2, P3 and P4 selected 4-story blocks that can take P1's 4-story tallest building.
    assert facts.selection.threatened_by == (2, 3, 4)
    explanation = compare_moves(state, "=111122", "=111344")
    assert explanation.differences[0].text == (
        "=111344 takes both its 4-story blocks now, "
        "=111122 keeps both 4-story blocks for rounds 3 and 4"
    )
    assert "P2, P3 and P4 selected blocks that can take P1's tallest building" in (
        explanation.summary
    )


def test_opening_selection_takes_the_four_story_blocks_while_the_tallest_is_open():
    state = GameState.new_game(4, np.random.default_rng(0)).view(0)
    facts = describe_move(state, "=333444")
    assert facts.line == (
        "takes all three of its 4-story blocks now; the tallest building is open this round"
    )
    assert describe_move(state, "=111111").line.startswith(
        "keeps all three 4-story blocks for rounds 2 to 4"
    )


def test_selection_4p_round2_taking_the_last_three_story_block():
    state = load_position(str(EXAMPLES / "selection_4p_round2.txt"))
    taken = describe_move(state, "=222223")
    kept = describe_move(state, "=222222")
    assert taken.reasons[0] == "takes its last 3-story block now"
    assert kept.reasons[0] == "keeps its last 3-story block for round 3 or 4"
    assert taken.selection.threatened_by == (2, 3)  # their 3-story blocks reach d's 7 stories


def test_two_player_selection_names_each_color_with_its_player():
    state = load_position(str(EXAMPLES / "opening_2p.txt"))
    facts = describe_move(state, "=3344/3444")
    assert facts.reasons[0] == (
        "P1's a takes two of its three 4-story blocks now and keeps one for a later round"
    )
    assert "P1's c takes all three of its 4-story blocks now" in facts.reasons
    assert_players_by_number(facts.text)


# ----- the comparison and the one-line forms --------------------------------------------


def test_bundled_last_round_4p_safer_takeover_beats_the_takeover_from_the_leader():
    state = load_position(str(EXAMPLES / "last_round_4p.txt"))
    figures = (Figures(0.019, 52.4), Figures(0.083, 54.2))
    explanation = compare_moves(state, "2@3:1", "2@1:1", figures=figures)
    topics = [(d.topic, d.better) for d in explanation.differences]
    assert topics == [("majority", "engine"), ("risk", "engine"), ("takeover", "move")]
    assert "though 2@3:1 takes a building from P3 (the leader) instead" in explanation.summary
    assert "2@3:1 costs 6.4 win-% points and 1.8 points" in explanation.summary
    assert explanation.win_cost == pytest.approx(6.4)
    assert explanation.score_cost == pytest.approx(1.8)
    assert_players_by_number(explanation.text)


def test_explanations_are_plain_json_data():
    state = load_position(str(EXAMPLES / "last_round_4p.txt"))
    figures = (Figures(0.019, 52.4), Figures(0.083, 54.2))
    data = json.loads(json.dumps(compare_moves(state, "2@3:1", "2@1:1", figures=figures).to_json()))
    assert data["engine_move"]["placement"]["building"]["taken_from"] == 1
    replies = data["move"]["placement"]["threats"][0]["replies"]
    assert [(r["player"], r["cards"]) for r in replies] == [(1, [4]), (2, [8]), (3, [6])]
    assert data["differences"][0]["topic"] == "majority"
    assert data["win_cost"] == pytest.approx(6.4) and data["summary"] in data["text"]


def test_figures_within_noise_are_called_about_equal():
    state = last_round_4p(STANDINGS, hands="????,????,????,3456")
    summary = why_better(
        state, "3@1:1", "3@2:1", figures=(Figures(0.196, 90.6), Figures(0.197, 90.7))
    )
    assert "the search rates them about equal (3@2:1 19.7% to win and 90.7 points" in summary


def test_the_engines_own_move_and_moves_of_different_decisions():
    state = last_round_4p(TALLEST, selected="1,1,1,3")
    explanation = compare_moves(state, "2@2:3", "2@2:3")
    assert explanation.same_move and explanation.differences == ()
    assert "It is the engine's move." in explanation.sentences
    with pytest.raises(ManhattanError, match="same decision"):
        compare_moves(round_2_selection(), "=111122", "1@1:1")


def test_explain_move_is_none_for_an_illegal_move_and_describe_move_raises():
    state = last_round_4p(TALLEST, selected="1,1,1,3")
    assert explain_move(state, parse_move("1@1:4")) is None  # no 4-story block selected
    with pytest.raises(ManhattanError):
        describe_move(state, "1@1:4")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_legal_move_gets_a_reason_naming_players_by_number(players):
    for state in random_states(players, 12, seed=5):
        if state.is_terminal():
            continue
        view = state.view(state.current_player())
        for move in view.legal_moves()[:60]:
            line = explain_move(view, move)
            assert line, (view.information_state_string(view.to_move), move)
            if players > 2:
                assert_players_by_number(line)


# ----- the chances -----------------------------------------------------------------------


def test_one_hand_chance_is_hypergeometric():
    assert chance_hand_holds(13, 1, 4) == pytest.approx(4 / 13)
    assert chance_hand_holds(13, 3, 4) == pytest.approx(1 - comb(10, 4) / comb(13, 4))
    assert chance_hand_holds(10, 0, 4) == 0
    assert chance_any_hand_holds({1: 3, 2: 10}, [(4, frozenset({1}))]) == pytest.approx(
        chance_hand_holds(13, 3, 4)
    )
    with pytest.raises(ValueError):
        chance_hand_holds(3, 1, 4)


def test_several_hands_chance_matches_every_deal():
    pool = {1: 2, 2: 1, 3: 2, 4: 2}
    hands = [(2, frozenset({1})), (3, frozenset({1, 3})), (1, frozenset())]
    cards = [card for card, copies in pool.items() for _ in range(copies)]
    deals = list(permutations(range(len(cards))))
    hits = 0
    for deal in deals:
        first = {cards[i] for i in deal[:2]}
        second = {cards[i] for i in deal[2:5]}
        hits += bool(first & {1}) or bool(second & {1, 3})
    assert chance_any_hand_holds(pool, hands) == pytest.approx(hits / len(deals))
