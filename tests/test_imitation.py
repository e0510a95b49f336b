"""The imitation placement policy (``positions.imitation``) against the readable rules.

* every feature of every legal placement is what the rules and the heuristic's card
  counting say it is;
* the imitation playout plays a placement of the largest utility (ties at random);
* the training script's fit recovers the weights that made synthetic choices, and fitted
  to the games kept beside the benchmarks gives the bundled model;
* fitted to the search's visits (``search_targets.py``): a target all on the placement
  played is the plain fit, soft targets recover their weights, and a file of targets
  the script wrote fits, where a malformed one is a one-line error;
* a malformed model file is a one-line error;
* the imitation priors are the fitted choice model's softmax.

The legality of whole imitation playouts is ``tests/test_playout.py``'s differential test.
"""

from __future__ import annotations

import json
import math
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from test_policy import placement_states, site_of

from positions import GameState
from positions.errors import ManhattanError
from positions.imitation import FEATURES, MODEL_FILE, bundled_weights, placement_features
from positions.kernel_board import pack_known, to_arrays
from positions.moves import NO_PLACEMENT_BASE
from positions.playout import PlayoutEvaluator, playout_trace
from positions.scoring import RoundScorer

ROOT = Path(__file__).resolve().parent.parent
sys.path.append(str(ROOT / "scripts"))
import search_targets  # noqa: E402
import train_imitation  # noqa: E402

GAMES = ROOT / "benchmarks" / "results" / "imitation_games_2026-12-06"  # the bundled fit's


def totals_if_scored(state: GameState, points: list[int]) -> list[int]:
    """Each player's total if the round were scored with ``points`` per color."""
    combine = min if state.options.two_player_total == "min" else sum
    return [
        combine(state.scores[c] + points[c] for c in colors)
        for colors in state.layout.player_colors
    ]


def threat(state: GameState, site: int, color: int, mine: int) -> float:
    """The heuristic's chance that an opponent able to top ``mine`` stories of ``color`` on
    ``site`` holds or draws a card reaching it this round, the largest over opponents."""
    mover = state.to_move
    unseen = Counter(state.unseen_cards(mover))
    total = max(1, sum(unseen.values()))
    best = 0.0
    for q, colors in enumerate(state.layout.player_colors):
        if q == mover:
            continue
        held = sum(state.selected[c * 4 + s] for c in colors for s in range(4))
        card = state.layout.card_sites[q].index(site % 9, 1)  # index 0 is no card
        chance = 1.0 - (1.0 - unseen[card] / total) ** (3 + held)
        for x in colors:
            sizes = [s + 1 for s in range(4) if state.selected[x * 4 + s]]
            if sizes and state.stories[site * 4 + x] + max(sizes) >= mine:
                best = max(best, chance)
    return best


def expected_features(state: GameState, action: int) -> list[float]:
    """The ``FEATURES`` of a legal placement, from the readable rules."""
    mover = state.to_move
    site, color, size = site_of(state, action)
    scorer = RoundScorer.of_state(state)
    before = totals_if_scored(state, scorer.points)
    mine = set(state.layout.player_colors[mover])
    gain = sum(scorer.points_after(site, color, size)[c] - scorer.points[c] for c in mine)
    others = [q for q in range(state.players) if q != mover]
    leader = max(others, key=lambda q: (before[q], -q))  # the first of the best
    colors = state.layout.player_colors[leader]
    loss = -sum(scorer.points_after(site, color, size)[c] - scorer.points[c] for c in colors)
    previous = state.owner[site]
    rounds = state.layout.rounds
    chance = threat(state, site, color, state.stories[site * 4 + color] + size)
    return [
        gain,
        size,
        float(previous >= 0 and previous not in mine),
        float(previous < 0),
        chance,
        chance * gain,
        size * (rounds - state.round) / (rounds - 1),
        loss,
    ]


def test_features_are_the_rules():
    checked = 0
    for state in placement_states(12, 5):
        actions, table = placement_features(to_arrays(state), state.to_move)
        legal = [a for a in state.legal_actions() if a < NO_PLACEMENT_BASE]
        assert sorted(actions.tolist()) == legal
        for action, row in zip(actions, table, strict=True):
            expected = expected_features(state, int(action))
            assert row.tolist() == pytest.approx(expected, abs=1e-9), dict(
                zip(FEATURES, zip(row.tolist(), expected, strict=True), strict=True)
            )
            checked += 1
    assert checked > 1500


def test_a_replayed_record_packs_the_same_features():
    state = next(s for s in placement_states(3, 6) if s.players == 4)
    dealt = placement_features(to_arrays(state), state.to_move)
    known = placement_features(pack_known(state), state.to_move)
    assert np.array_equal(dealt[0], known[0]) and np.array_equal(dealt[1], known[1])


def test_imitation_playout_plays_a_best_placement():
    weights = bundled_weights()
    ties = Counter()
    checked = 0
    for state in placement_states(10, 7):
        if state.legal_actions()[0] >= NO_PLACEMENT_BASE:
            continue
        actions, table = placement_features(to_arrays(state), state.to_move)
        utility = table @ weights
        best = set(actions[utility >= utility.max() - 1e-9].tolist())
        firsts = {playout_trace(state, seed, 0.0, "imitation", "bag")[0][0] for seed in range(4)}
        assert firsts <= best
        ties[len(firsts)] += 1
        checked += 1
    assert checked > 30


def test_the_fit_recovers_the_weights_that_chose():
    rng = np.random.default_rng(3)
    truth = np.array([1.5, -0.5, 1.0, 0.8, 0.3, -1.0, 0.7, 0.4])
    decisions = []
    for _ in range(3000):
        table = rng.normal(size=(int(rng.integers(5, 30)), len(FEATURES)))
        utility = table @ truth
        share = np.exp(utility - utility.max())
        played = int(rng.choice(len(table), p=share / share.sum()))
        decisions.append((table, played))
    fitted = train_imitation.fit(decisions)
    assert fitted == pytest.approx(truth, abs=0.15)
    best_first = train_imitation.agreement(truth, decisions)
    assert best_first > train_imitation.agreement(-truth, decisions)


def test_a_target_all_on_the_placement_played_is_the_plain_fit():
    rng = np.random.default_rng(4)
    plain, targeted = [], []
    for _ in range(300):
        table = rng.normal(size=(int(rng.integers(3, 12)), len(FEATURES)))
        played = int(rng.integers(len(table)))
        target = np.zeros(len(table))
        target[played] = 1.0
        plain.append((table, played))
        targeted.append((table, target))
    assert train_imitation.fit(targeted) == pytest.approx(train_imitation.fit(plain), abs=1e-9)
    assert train_imitation.agreement(np.ones(len(FEATURES)), targeted) == pytest.approx(
        train_imitation.agreement(np.ones(len(FEATURES)), plain)
    )


def test_the_fit_to_soft_targets_recovers_their_weights():
    rng = np.random.default_rng(5)
    truth = np.array([1.0, -0.4, 0.6, 0.2, -0.3, 0.5, 0.1, -0.2])
    decisions = []
    for _ in range(200):
        table = rng.normal(size=(int(rng.integers(5, 20)), len(FEATURES)))
        utility = table @ truth
        share = np.exp(utility - utility.max())
        decisions.append((table, share / share.sum()))
    assert train_imitation.fit(decisions) == pytest.approx(truth, abs=1e-3)


def test_a_fit_to_the_search_targets_of_a_record(tmp_path, capsys):
    games = tmp_path / "games"
    games.mkdir()
    record = sorted(GAMES.glob("*.mgn"))[0]
    (games / record.name).write_bytes(record.read_bytes())
    targets = tmp_path / "targets.jsonl"
    arguments = [str(games), "--iterations", "40", "--workers", "1", "--out", str(targets)]
    search_targets.main(arguments)
    searched = json.loads(targets.read_text(encoding="utf-8"))
    assert searched["record"] == record.name
    played = train_imitation.decisions_of_record(games / record.name)
    assert len(searched["decisions"]) == len(played)
    for decision in searched["decisions"]:
        assert sum(decision["visits"]) >= 40 and decision["played"] in decision["actions"]
    search_targets.main(arguments)  # done already: nothing is searched again
    assert len(targets.read_text(encoding="utf-8").splitlines()) == 1
    capsys.readouterr()
    out = tmp_path / "model.json"
    train_imitation.main([str(games), "--targets", str(targets), "--out", str(out)])
    fitted = json.loads(out.read_text(encoding="utf-8"))
    assert fitted["fitted"]["targets"] == "search visits"
    assert fitted["played"]["decisions"] == len(played)
    targets.write_text('{"record": "game_9999.mgn", "decisions": []}\n', encoding="utf-8")
    with pytest.raises(SystemExit, match=r"targets.jsonl:1: record game_9999.mgn is not in"):
        train_imitation.main([str(games), "--targets", str(targets)])
    targets.write_text("not json\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=r"targets.jsonl:1: expected a JSON object"):
        search_targets.main(arguments)


def test_the_bundled_model_is_the_fit_of_the_kept_games(tmp_path):
    out = tmp_path / "imitation_4p.json"
    train_imitation.main([str(GAMES), "--out", str(out)])
    refitted = json.loads(out.read_text(encoding="utf-8"))
    assert refitted == json.loads(MODEL_FILE.read_text(encoding="utf-8"))
    assert refitted["fitted"]["games"] == 6
    fitted = refitted["fitted"]
    assert fitted["log_likelihood_per_decision"] > fitted["greedy_log_likelihood_per_decision"]


def test_a_malformed_model_file_is_one_error(tmp_path, monkeypatch):
    broken = tmp_path / "imitation_4p.json"
    broken.write_text('{"weights": {"gain": 1.0}}', encoding="utf-8")
    monkeypatch.setattr("positions.imitation.MODEL_FILE", broken)
    with pytest.raises(ManhattanError, match="not a readable imitation model"):
        bundled_weights()


def test_imitation_priors_are_the_fitted_choice_model():
    """``prior_source="imitation"``: the priors are the softmax of the bundled utilities,
    so at temperature 1 they are the fitted model's choice probabilities (up to scale)."""
    weights = bundled_weights()
    for state in placement_states(6, 8)[::3]:
        legal = state.legal_actions()
        ids, rows = placement_features(to_arrays(state), state.to_move)
        utility = dict(zip(ids.tolist(), (rows @ weights).tolist(), strict=True))
        placements = [a for a in legal if a < NO_PLACEMENT_BASE]
        best = max(utility[a] for a in placements)
        for temperature in (1.0, 0.5):
            evaluator = PlayoutEvaluator(prior_source="imitation", prior_temperature=temperature)
            expected = [
                math.exp((utility[a] - best) / temperature) if a < NO_PLACEMENT_BASE else 1.0
                for a in legal
            ]
            assert evaluator.prior(state, legal) == pytest.approx(expected)
    assert PlayoutEvaluator(prior_source="imitation").prior(state, legal) != (
        PlayoutEvaluator().prior(state, legal)
    )
    with pytest.raises(ValueError, match="prior_source"):
        PlayoutEvaluator(prior_source="oracle")
