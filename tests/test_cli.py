"""The ``manhattan`` command through ``typer.testing.CliRunner`` (and, for robustness
against mutated input, the installed command as a subprocess)."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from cli import app
from positions.notation import parse_position, write_position

DATA = Path(__file__).parent / "data"
VECTORS = [json.loads(line) for line in (DATA / "positions.jsonl").read_text().splitlines()]
START_4P = (
    "9/9/9/9/9/9 4 1 1 s 0,0,0,0 11.6.4.3,11.6.4.3,11.6.4.3,11.6.4.3 -,-,-,- ????,????,????,???? -"
)
# 4p, round 1, placement; P4 (hand 1359) to move, P1-P3 hands unseen; played 156.
P4_TO_PLACE = (
    "4,c2,4/9/9/9/a4,6,b4,1/9 4 1 4 p 0,0,0,0 7.5.4.2,9.4.3.2,9.4.2.3,9.3.3.3 "
    "11112,11223,11233,112223 ????,????,????,1359 156"
)

runner = CliRunner()


def run(*args: str):
    """Invoke the command in-process; unexpected exceptions propagate to the test."""
    return runner.invoke(app, list(args), catch_exceptions=False)


def assert_one_error_line(result, *fragments: str) -> str:
    """Exit code 1, nothing on stdout, exactly one line on stderr holding ``fragments``."""
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


# ----- help and version ----------------------------------------------------------------


def command_names() -> list[str]:
    return sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]


def test_the_four_commands_exist():
    assert {"show", "moves", "apply", "play"} <= set(command_names())


@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_help_on_every_command(flag):
    for name in [*command_names(), None]:
        args = [flag] if name is None else [name, flag]
        result = run(*args)
        assert result.exit_code == 0, (name, result.output)
        assert "Usage" in result.stdout, name


def test_version():
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout.startswith("manhattan ")


# ----- show ----------------------------------------------------------------------------


@pytest.mark.parametrize("vector", VECTORS, ids=range(len(VECTORS)))
def test_show_json_round_score_matches_vectors(vector):
    result = run("show", vector["pos"], "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["round_score"] == vector["round_score"]
    assert data["position"] == write_position(parse_position(vector["pos"]))


def test_show_json_shape():
    data = json.loads(run("show", P4_TO_PLACE, "--json").stdout)
    assert data["players"] == 4
    assert data["round"] == 1
    assert data["to_move"] == 4
    assert data["phase"] == "placement"
    assert data["scores"] == [0, 0, 0, 0]
    assert data["supply"][0] == [7, 5, 4, 2]
    assert data["selected"][3] == [1, 1, 2, 2, 2, 3]
    assert data["hands"] == [[None] * 4, [None] * 4, [None] * 4, [1, 3, 5, 9]]
    assert data["played"] == [1, 5, 6]
    assert data["deck_count"] == 45 - 16 - 3
    assert len(data["board"]) == 6 and all(len(city) == 9 for city in data["board"])
    assert data["board"][0][4] == {
        "height": 2,
        "owner": "c",
        "blocks": [{"color": "c", "stories": 2}],
    }
    assert data["board"][0][0] == {"height": 0, "owner": None, "blocks": []}
    assert data["board"][4][7]["owner"] == "b"
    assert len(data["round_score"]) == 4


def test_show_json_game_start_and_3p_color_count():
    data = json.loads(run("show", START_4P, "--json").stdout)
    assert data["phase"] == "selection" and data["to_move"] == 1
    assert data["round_score"] == [0, 0, 0, 0]
    three = next(v for v in VECTORS if v["pos"].split()[1] == "3")
    assert len(json.loads(run("show", three["pos"], "--json").stdout)["round_score"]) == 3


def test_show_draws_the_board():
    result = run("show", P4_TO_PLACE)
    assert result.exit_code == 0, result.output
    for city in range(1, 7):
        assert f"City {city}" in result.stdout
    assert "2c" in result.stdout and "4a" in result.stdout and "4b" in result.stdout
    assert "P4" in result.stdout and "to move" in result.stdout
    assert "1359" in result.stdout
    assert "deck: 26" in result.stdout


def test_show_game_over_position():
    import numpy as np

    from positions.state import GameState

    state = GameState.new_game(3, np.random.default_rng(0))
    while not state.is_terminal():
        state.apply_move(state.legal_moves()[0])
    over = write_position(state)
    data = json.loads(run("show", over, "--json").stdout)
    assert data["to_move"] is None and data["phase"] == "over"
    assert sorted(data["places"])[0] == 1
    assert run("moves", over, "--json").stdout.strip() == "[]"
    text = run("show", over)
    assert text.exit_code == 0 and "game over" in text.stdout


# ----- moves ---------------------------------------------------------------------------


@pytest.mark.parametrize("vector", VECTORS, ids=range(len(VECTORS)))
def test_moves_json_matches_vectors(vector):
    result = run("moves", vector["pos"], "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == vector["legal"]


def test_moves_text_one_per_line():
    result = run("moves", VECTORS[0]["pos"])
    assert result.stdout.splitlines() == VECTORS[0]["legal"]


def test_moves_in_selection_phase():
    legal = json.loads(run("moves", START_4P, "--json").stdout)
    assert "=111111" in legal and "=112234" in legal and legal == sorted(legal)
    assert all(move.startswith("=") and len(move) == 7 for move in legal)


def test_moves_needs_the_movers_hand():
    hidden = P4_TO_PLACE.replace("????,????,????,1359", "????,????,????,13?9")
    line = assert_one_error_line(run("moves", hidden), "P4")
    assert "?" in line


# ----- apply ---------------------------------------------------------------------------


def hands_of(position: str) -> list[str]:
    return position.split()[8].split(",")


def test_apply_named_and_unnamed_draws():
    named = run("apply", P4_TO_PLACE, "1@1:1", "+2")
    assert named.exit_code == 0, named.output
    assert hands_of(named.stdout)[3] == "2359"
    unnamed = run("apply", P4_TO_PLACE, "1@1:1")
    assert hands_of(unnamed.stdout)[3] == "359?"
    state = parse_position(unnamed.stdout.strip())
    assert state.to_move == 0 and state.played[1] == 2


def test_apply_several_moves_and_unseen_card():
    # P1's hand is unseen: playing card 3 takes the place of one of its '?'s.
    result = run("apply", P4_TO_PLACE, "1@1:1", "+?", "3@2:1", "+7")
    assert result.exit_code == 0, result.output
    assert hands_of(result.stdout)[0] == "7???"
    assert result.stdout.split()[9] == "11356"


def test_apply_ignores_marks_and_gives_json():
    plain = run("apply", P4_TO_PLACE, "9@6:3", "+4", "--json")
    marked = run("apply", P4_TO_PLACE, "9@6:3!?", "+4", "--json")
    assert plain.exit_code == marked.exit_code == 0
    assert json.loads(plain.stdout) == json.loads(marked.stdout)
    assert set(json.loads(plain.stdout)) == {"position"}


def test_apply_a_whole_selection_round():
    result = run("apply", START_4P, "=111234", "=112233", "=111122", "=123344")
    assert result.exit_code == 0, result.output
    fields = result.stdout.split()
    assert fields[4] == "p" and fields[7] == "111234,112233,111122,123344"


def test_apply_illegal_move_names_it():
    # P4 sits E: card 3 builds on site 1, which in city 5 holds a4; d has no 4 selected.
    line = assert_one_error_line(run("apply", P4_TO_PLACE, "3@5:1"), "move 1", "3@5:1")
    assert "4 stories" in line
    line = assert_one_error_line(run("apply", P4_TO_PLACE, "1@1:1", "2@1:9"), "move 2")
    assert "bad move" in line
    assert_one_error_line(run("apply", START_4P, "=111234", "=1111"), "move 2", "=1111")
    assert_one_error_line(run("apply", START_4P, "=111234", "+3"), "draw")
    assert_one_error_line(run("apply", P4_TO_PLACE, "1@1:1", "+0"), "+0")
    assert_one_error_line(run("apply", P4_TO_PLACE, "2@1:1"), "card 2")


# ----- position arguments ----------------------------------------------------------------


def test_malformed_positions_exit_1_with_one_line():
    for bad in [
        "",
        "hello",
        "9/9/9/9/9/9 5 1 1 s",
        START_4P.replace(" 1 1 s", " 9 1 s"),
        START_4P + " tallest_tie=maybe",
        "-9/9/9/9/9/9 4 1 1 s",
        "--nonsense",
    ]:
        for command in ("show", "moves"):
            assert_one_error_line(run(command, bad))
    assert_one_error_line(run("apply", "junk", "=111111"))


def test_invalid_position_rule_message():
    bad = START_4P.replace("11.6.4.3,11.6.4.3", "10.6.4.3,11.6.4.3", 1)
    assert_one_error_line(run("show", bad), "supply of a")


def test_position_from_text_file(tmp_path):
    path = tmp_path / "pos.txt"
    path.write_text(f"# a comment\n\n  {P4_TO_PLACE}  \nignored\n")
    assert json.loads(run("moves", str(path), "--json").stdout) == json.loads(
        run("moves", P4_TO_PLACE, "--json").stdout
    )
    empty = tmp_path / "empty.pos"
    empty.write_text("# nothing\n")
    assert_one_error_line(run("show", str(empty)), "no position")


def test_missing_file():
    assert_one_error_line(run("show", "no/such/game.mgn"), "file not found", "no/such/game.mgn")
    assert_one_error_line(run("moves", "missing.mpz"), "file not found")
    assert_one_error_line(run("moves", "./missing_position"), "file not found")


def test_position_from_record_and_puzzle():
    from positions.puzzle import load_puzzle
    from positions.record import load_record

    for game in ("game_4p.mgn", "game_2p.mgn"):
        data = json.loads(run("show", str(DATA / game), "--json").stdout)
        expected = load_record(DATA / game).final_state()
        assert data["position"] == write_position(expected)
        assert data["phase"] == "over"
    puzzle = DATA / "p4_k2_01.mpz"
    data = json.loads(run("show", str(puzzle), "--json").stdout)
    assert data["position"] == write_position(load_puzzle(puzzle).state)


# ----- play ----------------------------------------------------------------------------


def play(*args: str):
    return run("play", *args)


@pytest.mark.parametrize(
    "players,bots", [(4, "greedy,random,greedy,random"), (2, "random"), (3, "greedy")]
)
def test_play_writes_a_record_that_replays(tmp_path, players, bots):
    from positions.record import load_record

    out = tmp_path / "game.mgn"
    result = play(
        "--players", str(players), "--bots", bots, "--seed", "7", "--out", str(out), "--json"
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    record = load_record(out)  # checks the Result tag against the replay
    final = record.final_state()
    assert final.is_terminal()
    assert summary["totals"] == final.player_totals()
    assert summary["places"] == final.places()
    assert record.tags["Result"] == " ".join(map(str, summary["totals"]))
    assert summary["players"] == players and len(summary["bots"]) == players


def test_play_is_reproducible_and_prints_record_without_out():
    first = play("--players", "4", "--seed", "3")
    second = play("--players", "4", "--seed", "3", "--bots", "greedy")
    assert first.exit_code == 0, first.output
    assert first.stdout == second.stdout
    assert first.stdout.startswith("[Game")
    from positions.record import read_record

    assert read_record(first.stdout).final_state().is_terminal()


def test_play_text_summary(tmp_path):
    out = tmp_path / "g.mgn"
    result = play(
        "--players", "2", "--bot", "greedy", "--bot", "random", "--seed", "1", "--out", str(out)
    )
    assert result.exit_code == 0, result.output
    assert "greedy" in result.stdout and "random" in result.stdout
    assert str(out) in result.stdout.replace("\n", "")


def test_play_refuses_to_overwrite(tmp_path):
    out = tmp_path / "game.mgn"
    out.write_text("keep me")
    assert_one_error_line(play("--seed", "1", "--out", str(out)), str(out), "--force")
    assert out.read_text() == "keep me"
    forced = play("--seed", "1", "--out", str(out), "--force")
    assert forced.exit_code == 0, forced.output
    assert out.read_text().startswith("[Game")


def test_play_bad_options(tmp_path):
    assert_one_error_line(play("--option", "tallest_tie=maybe"), "tallest_tie")
    assert_one_error_line(play("--players", "4", "--option", "two_player_total=min"), "2-player")
    assert_one_error_line(play("--option", "nonsense"), "name=value")
    assert_one_error_line(play("--bots", "greedy,random"), "2 bots for 4 players")
    assert_one_error_line(play("--bots", "greedy", "--bot", "random"), "not both")
    assert_one_error_line(play("--bots", "telepath"), "telepath")
    assert_one_error_line(play("--out", str(tmp_path / "no" / "dir" / "g.mgn")), "does not exist")
    result = play("--players", "5")
    assert result.exit_code != 0 and "players" in result.output.lower()
    result = play("--players", "many")
    assert result.exit_code != 0 and "players" in result.output.lower()


def test_play_with_an_option(tmp_path):
    out = tmp_path / "g.mgn"
    result = play(
        "--players", "2", "--seed", "5", "--option", "two_player_total=min", "--out", str(out)
    )
    assert result.exit_code == 0, result.output
    assert "two_player_total=min" in out.read_text()


# ----- the installed command against mutated positions --------------------------------------


def manhattan_command() -> list[str]:
    found = shutil.which("manhattan")
    return [found] if found else [sys.executable, "-c", "import cli; cli.main()"]


def mutate(text: str, rng: random.Random) -> str:
    chars = list(text)
    alphabet = "abcde0123456789,./-?= psx"
    for _ in range(rng.randint(1, 3)):
        k = rng.randrange(len(chars))
        roll = rng.random()
        if roll < 0.4:
            chars[k] = rng.choice(alphabet)
        elif roll < 0.7:
            del chars[k]
        else:
            chars.insert(k, rng.choice(alphabet))
    return "".join(chars)


def test_installed_command_on_mutated_positions():
    rng = random.Random(20261129)
    command = manhattan_command()
    outcomes = {0: 0, 1: 0}
    for i in range(100):
        text = mutate(rng.choice(VECTORS)["pos"], rng)
        verb = ("show", "moves", "show --json")[i % 3].split()
        proc = subprocess.run(
            [*command, verb[0], text, *verb[1:]], capture_output=True, text=True, timeout=60
        )
        assert "Traceback" not in proc.stderr, (text, proc.stderr)
        assert "internal error" not in proc.stderr, (text, proc.stderr)
        if proc.returncode == 0:
            assert proc.stdout
        else:
            assert proc.returncode == 1, (text, proc.stderr)
            assert len(proc.stderr.strip().splitlines()) == 1, (text, proc.stderr)
            assert proc.stdout == ""
        outcomes[proc.returncode] += 1
    assert outcomes[1] > 50  # most edits break the position


def test_play_with_an_external_bot_whose_command_holds_commas(tmp_path):
    script = tmp_path / "first_move.py"
    script.write_text(
        "import sys\n"
        "from positions.notation import parse_position\n"
        "for line in sys.stdin:\n"
        "    print(parse_position(line).legal_moves()[0], flush=True)\n"
    )
    spec = f"cmd:{sys.executable} {script} --label a,b"
    out = tmp_path / "g.mgn"
    result = play(
        "--players",
        "2",
        "--bot",
        spec,
        "--bot",
        "random",
        "--seed",
        "2",
        "--out",
        str(out),
        "--json",
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["bots"] == [spec, "random"]
    assert summary["forfeits"] == []
    from positions.record import load_record

    assert load_record(out).final_state().player_totals() == summary["totals"]


@pytest.mark.parametrize("command", ["moves", "show", "apply"])
def test_fast_commands_do_not_import_heavy_modules(command):
    """moves/show/apply must start fast: no numba, numpy, joblib, networkx, search, analyzer."""
    args = ["manhattan", command, P4_TO_PLACE] + (["1@1:1"] if command == "apply" else [])
    code = (
        "import sys, cli\n"
        f"sys.argv = {args!r}\n"
        "try:\n    cli.app()\nexcept SystemExit as end:\n    assert not end.code, end.code\n"
        "heavy = ('numpy', 'numba', 'joblib', 'networkx', 'dask', 'search', 'analyzer')\n"
        "print(sorted(m for m in heavy if m in sys.modules), file=sys.stderr)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).parent.parent,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == "[]"
