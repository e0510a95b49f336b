"""Position strings: read -> write -> read is the identity over positions from random play
(2, 3 and 4 players, hands shown or hidden, with rule options), non-canonical input reads
to the canonical string, and the conformance vectors of an independent implementation."""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from randompositions import random_game, random_states, random_views

from positions import GameState, RuleOptions, parse_position, write_position

DATA = Path(__file__).parent / "data"
VECTORS = [json.loads(line) for line in (DATA / "positions.jsonl").read_text().splitlines()]


@cache
def pool(players: int) -> tuple[GameState, ...]:
    """Positions of ``players``-player random games: every card shown, as seen by one
    player or by nobody, and finished games."""
    shown = list(random_states(players, 40, seed=players))
    hidden = list(random_views(players, 40, seed=10 + players))
    finished = [random_game(players, 100 + seed).final for seed in range(3)]
    return tuple(shown + hidden + finished)


def snapshot(state: GameState) -> tuple:
    """Everything a position string holds about ``state``."""
    return (
        state.players,
        state.round,
        state.phase,
        state.to_move,
        tuple(state.stacks),
        tuple(state.scores),
        tuple(state.supply),
        tuple(state.selected),
        tuple(state.hands),
        tuple(state.played),
        state.options,
    )


@st.composite
def positions(draw: st.DrawFn) -> GameState:
    """A position from random play with randomly chosen rule options."""
    players = draw(st.sampled_from((2, 3, 4)))
    state = draw(st.sampled_from(pool(players))).clone()
    tallest_tie = draw(st.sampled_from(("none", "shared")))
    total = draw(st.sampled_from(("sum", "min"))) if players == 2 else "sum"
    state.options = RuleOptions(two_player_total=total, tallest_tie=tallest_tie)
    return state


def scramble(text: str, rnd: random.Random) -> str:
    """An accepted but non-canonical spelling of the canonical position ``text``: empty
    runs split, digits of selections, hands and the played pile shuffled, options
    reordered, several spaces between fields and white space around."""

    def shuffled(entry: str) -> str:
        chars = list(entry)
        rnd.shuffle(chars)
        return "".join(chars)

    def split_run(item: str) -> str:
        if not item.isdigit() or item == "1" or rnd.random() < 0.3:
            return item
        first = rnd.randint(1, int(item) - 1)
        return f"{first},{split_run(str(int(item) - first))}"

    fields = text.split(" ")
    fields[0] = "/".join(
        ",".join(split_run(item) for item in city.split(",")) for city in fields[0].split("/")
    )
    for index in (7, 8):
        fields[index] = ",".join(shuffled(entry) for entry in fields[index].split(","))
    fields[9] = shuffled(fields[9])
    options = fields[10:]
    rnd.shuffle(options)
    fields[10:] = options
    out = rnd.choice(["", " ", "\t", "  \n"])
    for index, field in enumerate(fields):
        out += field + (" " * rnd.randint(1, 3) if index + 1 < len(fields) else "")
    return out + rnd.choice(["", " ", "\n", " \t "])


@settings(max_examples=200, deadline=None)
@given(positions())
def test_write_then_read_gives_the_same_position(state: GameState) -> None:
    text = write_position(state)
    again = parse_position(text)
    assert snapshot(again) == snapshot(state)
    assert write_position(again) == text


@settings(max_examples=200, deadline=None)
@given(positions(), st.randoms(use_true_random=False))
def test_non_canonical_input_reads_to_the_canonical_string(
    state: GameState, rnd: random.Random
) -> None:
    canonical = write_position(state)
    text = scramble(canonical, rnd)
    assert write_position(parse_position(text)) == canonical


def test_the_pool_covers_every_phase_and_hidden_hands() -> None:
    for players in (2, 3, 4):
        texts = [write_position(state) for state in pool(players)]
        assert {text.split()[4] for text in texts} == {"s", "p", "-"}
        assert any("?" in text.split()[8] for text in texts)
        assert any("?" not in text.split()[8] for text in texts)


def test_scramble_really_changes_the_text() -> None:
    rnd = random.Random(7)
    state = pool(4)[5]
    canonical = write_position(state)
    assert any(scramble(canonical, rnd) != canonical for _ in range(5))


def test_the_example_start_position_is_canonical() -> None:
    start = (
        "9/9/9/9/9/9 4 1 1 s 0,0,0,0 11.6.4.3,11.6.4.3,11.6.4.3,11.6.4.3 -,-,-,- "
        "????,????,????,???? -"
    )
    assert write_position(GameState(4)) == start
    assert snapshot(parse_position(start)) == snapshot(GameState(4))


def test_options_are_written_only_when_not_default() -> None:
    base = write_position(GameState(2))
    assert write_position(parse_position(base + " two_player_total=sum")) == base
    state = parse_position(base + " tallest_tie=shared two_player_total=min")
    assert write_position(state) == base + " two_player_total=min tallest_tie=shared"


@pytest.mark.parametrize("vector", VECTORS, ids=[f"line{i + 1}" for i in range(len(VECTORS))])
def test_conformance_vector(vector: dict) -> None:
    state = parse_position(vector["pos"])
    assert write_position(state) == vector["pos"]
    assert [str(move) for move in state.legal_moves()] == vector["legal"]
    assert state.round_points()[: state.layout.colors_in_play] == vector["round_score"]
