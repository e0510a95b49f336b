"""Analysis, explanations, tree export and game review (analyzer package)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from analyzer.engine import EngineSettings, analyze
from analyzer.explain import explain_move
from analyzer.review import ReviewSettings, annotate, mark_for, review_game
from analyzer.tree_export import tree_graph, write_tree
from positions import GameState, ManhattanError, parse_move, parse_position
from positions.record import read_record, write_record
from search.limits import Limit

DATA = Path(__file__).parent / "data"
QUICK = EngineSettings(limit=Limit(iterations=400), seed=3)


def puzzle_position(name: str) -> str:
    return re.search(r'\[Setup "([^"]*)"\]', (DATA / name).read_text()).group(1)


def test_analysis_json_shape_and_best_move():
    state = parse_position(puzzle_position("p4_k2_01.mpz"))
    analysis = analyze(state, EngineSettings(limit=Limit(iterations=1500), seed=1))
    data = analysis.to_json()
    assert set(data) >= {"position", "to_move", "best", "moves", "iterations", "seconds"}
    assert data["to_move"] == 2
    assert data["best"] == "7@5:1" == data["moves"][0]["move"]
    assert data["iterations"] == 1500
    visits = [m["visits"] for m in data["moves"]]
    assert visits == sorted(visits, reverse=True)
    legal = {str(m) for m in state.legal_moves()}
    assert {m["move"] for m in data["moves"]} <= legal
    for move in data["moves"]:
        assert 0.0 <= move["win"] <= 1.0
        assert set(move) >= {"move", "visits", "win", "score"}
    # The analyzed position is the mover's view: no opponent card is shown.
    hands = data["position"].split()[8].split(",")
    assert hands[1] == "1278" and hands[0] == hands[2] == hands[3] == "????"


def test_analysis_is_identical_with_opponent_hands_hidden_or_shown():
    shown = parse_position(puzzle_position("p4_k2_02.mpz"))
    hidden = shown.view(shown.current_player())
    first = analyze(shown, QUICK).to_json()
    second = analyze(hidden, QUICK).to_json()
    first.pop("seconds"), second.pop("seconds")
    assert first == second


def test_selection_phase_recommends_a_whole_selection():
    state = GameState.new_game(3, np.random.default_rng(1)).view(0)
    analysis = analyze(state, QUICK)
    legal = {str(m) for m in state.legal_moves()}
    assert analysis.best.move in legal
    assert re.fullmatch(r"=[1-4]{4}", analysis.best.move)


def test_analysis_refuses_a_hidden_mover_hand_and_a_finished_game():
    state = parse_position(puzzle_position("p4_k2_01.mpz"))
    with pytest.raises(ManhattanError, match="not shown"):
        analyze(state.view(0), QUICK)  # P2 is to move but only P1's hand is shown
    finished = read_record((DATA / "game_4p.mgn").read_text()).final_state()
    with pytest.raises(ManhattanError, match="game is over"):
        analyze(finished, QUICK)


def test_explain_names_tallest_majority_and_takeover():
    state = parse_position(puzzle_position("p4_k2_01.mpz"))
    reason = explain_move(state, parse_move("7@5:1"))
    assert reason is not None
    assert "takes the tallest building" in reason
    assert "takes a building from P3" in reason


def test_explain_selection_keeps_big_blocks():
    state = GameState.new_game(4, np.random.default_rng(0)).view(0)
    assert explain_move(state, parse_move("=111111")).startswith(
        "keeps all three 4-story blocks for rounds 2 to 4"
    )
    assert "takes two of its three 4-story blocks now" in explain_move(state, parse_move("=111144"))


def test_tree_export_graphml_and_dot(tmp_path):
    state = parse_position(puzzle_position("p4_k2_01.mpz"))
    analysis = analyze(state, QUICK)
    view = state.view(state.current_player())
    graph = tree_graph(view, analysis.search.summary, max_nodes=50)
    assert graph.number_of_nodes() <= 51
    assert graph.nodes["root"]["visits"] == 400
    labels = {data["label"] for _, data in graph.nodes(data=True)}
    assert analysis.best.move in labels
    graphml = tmp_path / "tree.graphml"
    write_tree(graph, graphml)
    ET.parse(graphml)
    dot = tmp_path / "tree.dot"
    write_tree(graph, dot)
    assert dot.read_text().startswith("digraph search {")
    with pytest.raises(ManhattanError, match="exists"):
        write_tree(graph, dot)
    with pytest.raises(ManhattanError, match="graphml or .dot"):
        write_tree(graph, tmp_path / "tree.png")


def _one_move_record(move: str) -> str:
    setup = puzzle_position("p4_k2_01.mpz")
    return f'[Game "Manhattan"]\n[Players "4"]\n[Setup "{setup}"]\n\nR4 {move}\n'


def test_review_marks_a_planted_blunder():
    settings = ReviewSettings(iterations_per_move=1500, seed=2)
    blunder = review_game(read_record(_one_move_record("7@1:1")), settings)
    decision = blunder.decisions[0]
    assert decision.best == "7@5:1"
    assert decision.loss >= 15
    assert decision.mark == "??"
    assert blunder.players[1].blunders == 1
    good = review_game(read_record(_one_move_record("7@5:1")), settings)
    assert good.decisions[0].mark is None
    assert good.decisions[0].loss == 0


def test_review_json_shape_and_annotated_record_rereads():
    record = read_record((DATA / "game_2p.mgn").read_text())
    record.moves = record.moves[:6]
    record.tags.pop("Result")
    review = review_game(record, ReviewSettings(iterations_per_move=120))
    data = review.to_json()
    assert [d["index"] for d in data["decisions"]] == list(range(6))
    assert data["decisions"][0]["played"] == "=1223/1244"
    assert [p["player"] for p in data["players"]] == [1, 2]
    for player in data["players"]:
        assert set(player) >= {"player", "accuracy", "inaccuracies", "mistakes", "blunders"}
    for decision in data["decisions"]:
        assert set(decision) == {
            "index",
            "player",
            "played",
            "best",
            "better",
            "win_before",
            "win_after",
            "loss",
            "loss_se",
            "points_loss",
            "points_loss_se",
            "mark",
            "compared",
            "rivals",
            "why",
        }
    annotated = write_record(annotate(record, review))
    again = read_record(annotated)
    assert [str(m.move) for m in again.moves] == [str(m.move) for m in record.moves]
    assert all(m.comment for m in again.moves)


def test_mark_thresholds_and_decided_games():
    settings = ReviewSettings()
    assert mark_for(4.9, 0.0, 0.5, 0.45, settings) is None
    assert mark_for(5.0, 0.0, 0.5, 0.45, settings) == "?!"
    assert mark_for(10.0, 0.0, 0.5, 0.4, settings) == "?"
    assert mark_for(15.0, 0.0, 0.5, 0.35, settings) == "??"
    assert mark_for(40.0, 0.0, 0.02, 0.0, settings) is None  # already lost
    assert mark_for(2.0, 0.0, 1.0, 0.98, settings) is None  # still won
    # a loss marks only when it clears the threshold with confidence
    assert mark_for(16.0, 1.0, 0.5, 0.34, settings) == "?"
    assert mark_for(16.0, 0.3, 0.5, 0.34, settings) == "??"  # 16 - 2.576 * 0.3 > 15
    assert mark_for(8.0, 2.0, 0.5, 0.42, settings) is None
    with pytest.raises(ManhattanError):
        ReviewSettings(thresholds=(10.0, 5.0, 15.0))
