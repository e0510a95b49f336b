"""The analysis commands (analyze, review, solve, match) through ``CliRunner``."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from cli import app
from positions.bundled import bundled_files
from positions.notation import parse_position
from positions.record import load_record

DATA = Path(__file__).parent / "data"
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


def assert_one_error_line(result, *fragments: str) -> None:
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def puzzle_position(name: str) -> str:
    return re.search(r'\[Setup "([^"]*)"\]', (DATA / name).read_text()).group(1)


def test_analyze_json_names_the_winning_move():
    result = run("analyze", puzzle_position("p4_k2_01.mpz"), "--iterations", "800", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["best"] == "7@5:1"
    assert data["iterations"] == 800
    assert data["moves"][0]["move"] == "7@5:1"
    assert data["line"][0] == {"player": 2, "move": "7@5:1"}


def test_analyze_without_argument_uses_the_bundled_example():
    result = run("analyze", "--iterations", "200", "--workers", "1", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    state = parse_position(data["position"])
    assert data["best"] in {str(m) for m in state.legal_moves()}


def test_analyze_table_shows_best_line_and_reasons():
    result = run("analyze", puzzle_position("p4_k2_01.mpz"), "--iterations", "600", "--top", "3")
    assert result.exit_code == 0, result.output
    assert "best: 7@5:1" in result.stdout
    assert "takes the tallest building" in result.stdout
    assert "expected line" in result.stdout


def test_analyze_a_record_before_a_given_decision():
    game = str(DATA / "game_2p.mgn")
    result = run("analyze", game, "--move", "3", "--iterations", "150", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    before = load_record(game).states()[2]
    assert data["to_move"] == before.current_player() + 1
    assert_one_error_line(run("analyze", game, "--move", "999"), "--move 999", "1-108")
    assert_one_error_line(
        run("analyze", puzzle_position("p4_k2_01.mpz"), "--move", "2"), "game records"
    )


def test_analyze_refuses_bad_input_with_one_line(tmp_path):
    position = puzzle_position("p4_k2_01.mpz")
    hidden = position.replace("1226,1278,3389,5667", "1226,????,3389,5667")
    assert_one_error_line(run("analyze", hidden, "--iterations", "10"), "not shown")
    assert_one_error_line(run("analyze", "9/9/9", "--iterations", "10"), "position")
    assert_one_error_line(
        run("analyze", position, "--backend", "dask", "--iterations", "10"), "scheduler"
    )
    assert_one_error_line(
        run("analyze", position, "--backend", "ray", "--iterations", "10"), "backend"
    )
    finished = str(DATA / "game_4p.mgn")
    # A finished record: the default position is the one before the last decision.
    assert run("analyze", finished, "--iterations", "50", "--json").exit_code == 0
    tree = tmp_path / "tree.png"
    assert_one_error_line(
        run("analyze", position, "--iterations", "10", "--tree", str(tree)), ".graphml or .dot"
    )


def test_analyze_tree_export_and_no_overwrite(tmp_path):
    position = puzzle_position("p4_k2_01.mpz")
    tree = tmp_path / "tree.graphml"
    assert run("analyze", position, "--iterations", "200", "--tree", str(tree)).exit_code == 0
    assert "<graphml" in tree.read_text()
    before = tree.read_text()
    assert_one_error_line(
        run("analyze", position, "--iterations", "200", "--tree", str(tree)), "exists"
    )
    assert tree.read_text() == before


def _short_record(tmp_path: Path) -> Path:
    text = (DATA / "game_4p.mgn").read_text()
    tags, moves = text.split("\n\n", 1)
    tags = "\n".join(line for line in tags.splitlines() if not line.startswith("[Result"))
    first_round = moves.splitlines()[0].split()[:9]  # R1, 4 selections, 2 placements + draws
    path = tmp_path / "short.mgn"
    path.write_text(tags + "\n\n" + " ".join(first_round) + "\n")
    return path


def test_review_json_and_annotated_record(tmp_path):
    game = _short_record(tmp_path)
    out = tmp_path / "annotated.mgn"
    result = run(
        "review",
        str(game),
        "--iterations-per-move",
        "60",
        "--workers",
        "1",
        "--json",
        "--out",
        str(out),
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [d["index"] for d in data["decisions"]] == list(range(6))
    assert [p["player"] for p in data["players"]] == [1, 2, 3, 4]
    annotated = load_record(out)
    assert len(annotated.moves) == 6
    assert all(m.comment for m in annotated.moves)
    assert_one_error_line(
        run("review", str(game), "--iterations-per-move", "10", "--out", str(out)), "exists"
    )


def test_review_table_and_bad_options(tmp_path):
    game = _short_record(tmp_path)
    result = run("review", str(game), "--iterations-per-move", "40", "--workers", "1")
    assert result.exit_code == 0, result.output
    assert "accuracy" in result.stdout
    assert_one_error_line(run("review", str(game), "--marks", "5,10"), "three win-% drops")
    assert_one_error_line(run("review", str(game), "--marks", "10,5,15"), "ascending")
    assert_one_error_line(run("review", str(tmp_path / "missing.mgn")), "missing.mgn")


def test_match_json_and_records(tmp_path):
    out = tmp_path / "games"
    result = run(
        "match",
        "--players",
        "3",
        "--bots",
        "greedy,random,heuristic",
        "--games",
        "3",
        "--out",
        str(out),
        "--json",
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 3
    assert [b["spec"] for b in data["bots"]] == ["greedy", "random", "heuristic"]
    assert sum(b["wins"] for b in data["bots"]) == 3
    for bot in data["bots"]:
        assert set(bot) == {"spec", "games", "wins", "win_rate", "ci95", "mean_score", "forfeits"}
    assert len(list(out.glob("*.mgn"))) == 3
    assert_one_error_line(
        run("match", "--bots", "greedy,nobody,random,random", "--games", "1"), "nobody"
    )


def test_bundled_files_are_valid():
    examples = bundled_files("examples")
    games = bundled_files("games")
    assert len(examples) >= 10 and len(games) >= 5
    players = set()
    for path in examples:
        result = run("moves", str(path), "--json")
        assert result.exit_code == 0, (path, result.output)
        assert json.loads(result.stdout)
        players.add(parse_position(_position_of(path)).players)
    assert players == {2, 3, 4}
    for path in games:
        record = load_record(path)
        assert record.final_state().is_terminal()


def _position_of(path: Path) -> str:
    return next(
        line for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")
    )
