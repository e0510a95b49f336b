"""The browser front's JSON API (``web.app``) through Starlette's test client: every
endpoint, bad requests answered with JSON errors while the server goes on, a whole game
played through the API, the coach's offer, the engine protocol over HTTP and the train
page's sessions."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # starlette would rather have httpx2 some day
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from analyzer.coach import CoachSettings  # noqa: E402
from cli import app as cli_app  # noqa: E402
from positions.exercise import Exercise, write_exercise  # noqa: E402
from positions.moves import parse_move  # noqa: E402
from positions.notation import parse_position  # noqa: E402
from positions.record import read_record  # noqa: E402
from web import missing_extra  # noqa: E402
from web.app import ServeSettings, create_app  # noqa: E402

DATA = Path(__file__).parent / "data"
FAST = CoachSettings(iterations=200, workers=1)
ORIGIN = "http://127.0.0.1"
ENGINE_FIELDS = {
    "id", "turn", "during_search", "position", "to_move", "best", "moves", "why_best",
    "line", "iterations", "seconds", "interrupted", "terminated",
}  # fmt: skip


def make_client(exercises: Path | None = None) -> TestClient:
    settings = ServeSettings(coach=FAST, workers=1, exercises=exercises, version="test")
    return TestClient(create_app(settings), base_url=ORIGIN)


@pytest.fixture(scope="module")
def client():
    with make_client() as test_client:
        yield test_client


def new_game(client, **fields):
    response = client.post("/api/games", json={"bots": "random", "seed": 7, **fields})
    assert response.status_code == 201, response.text
    return response.json()


def assert_error(response, status: int, field: str | None, words: str = "") -> dict:
    assert response.status_code == status, response.text
    data = response.json()
    assert set(data) == {"error", "field"} and data["field"] == field, data
    assert words in data["error"] and "\n" not in data["error"], data
    return data


def puzzle_setup() -> str:
    return re.search(r'\[Setup "([^"]*)"\]', (DATA / "p4_k2_01.mpz").read_text()).group(1)


# ----- the page and the info ----------------------------------------------------------------


def test_the_page_is_one_self_contained_file(client):
    for path in ("/", "/train"):
        response = client.get(path)
        assert response.status_code == 200
        assert "connect-src 'self'" in response.headers["content-security-policy"]
        html = response.text
        assert "<script>" in html and 'id="board"' in html
        assert not re.search(r"""(src|href)=["']?https?:""", html)  # nothing from the network
        assert '<link rel="stylesheet"' not in html


def test_info_lists_the_bundled_positions_and_the_bots(client):
    info = client.get("/api/info").json()
    names = {b["name"]: b["players"] for b in info["bundled"]}
    assert names["examples/last_round_2p.txt"] == 2 and names["puzzles/p4_k2_01.mpz"] == 4
    assert "random" in info["bots"] and not any(b.startswith("cmd") for b in info["bots"])
    assert info["exercises"] is False and info["coach"]["iterations"] == 200


# ----- a whole game ---------------------------------------------------------------------------


def test_a_whole_game_through_the_api_replays_from_its_saved_record(client):
    game = new_game(client, coach=True)
    game_id = game["id"]
    assert game["your_turn"] and game["viewer"] == 1 and game["coach"]
    assert 'g class="card"' in game["svg"] and game["choices"]
    assert all(card is None for card in game["state"]["hands"][1])  # the bot's hand hidden
    moves = 0
    while not game["over"]:
        legal = game["legal"]
        move = legal[(moves * 7) % len(legal)]
        answer = client.post(f"/api/games/{game_id}/move", json={"move": move}).json()
        assert answer["answer"]["ok"] and answer["answer"]["move"] == move
        assert answer["answer"]["feedback"]["played"] == move
        game = answer["game"]
        moves += 1
    assert moves == 54
    assert game["places"] and game["graph"].startswith('<svg class="g"')
    person = [h for h in game["history"] if h["person"]]
    assert len(person) == 54 and all(h["win"] is not None for h in person)
    assert game["frames"] == 109 and game["legal"] == [] and not game["your_turn"]
    assert [m["person"] for m in game["moves"]] == [h["person"] for h in game["history"]]
    response = client.get(f"/api/games/{game_id}/record")
    assert response.status_code == 200
    assert game["record_name"] in response.headers["content-disposition"]
    record = read_record(response.text)
    assert record.final_state().player_totals() == game["totals"]
    assert (
        record.tags["Result"] == " ".join(map(str, game["totals"])) and record.tags["Seed"] == "7"
    )
    assert all(m.comment.startswith("coach: ") for m in record.moves[::2][:6])
    assert client.get(f"/api/games/{game_id}").json()["over"]
    assert_error(client.post(f"/api/games/{game_id}/move", json={"move": "1"}), 409, None, "over")


def test_a_move_by_number_a_hint_and_an_undo(client):
    game = new_game(client, seed=3)
    game_id = game["id"]
    hint = client.post(f"/api/games/{game_id}/hint").json()
    assert hint["answer"]["ok"] and hint["answer"]["hint"]["move"] in game["legal"]
    assert hint["game"]["hint"]["move"] == hint["answer"]["hint"]["move"]
    assert hint["game"]["decisions"] == 0  # a hint plays nothing
    played = client.post(f"/api/games/{game_id}/move", json={"move": "1"}).json()
    assert played["answer"]["move"] == game["legal"][0]
    assert played["game"]["hint"] is None and played["game"]["decisions"] == 2
    assert [b["player"] for b in played["game"]["bots"]] == [2]
    undone = client.post(f"/api/games/{game_id}/undo", json={}).json()
    assert undone["answer"]["ok"] and "took back" in undone["answer"]["message"]
    assert undone["game"]["decisions"] == 0 and undone["game"]["position"] == game["position"]
    assert_error(client.post(f"/api/games/{game_id}/undo"), 409, None, "nothing to take back")


def test_bad_moves_are_refused_and_change_nothing(client):
    game = new_game(client)
    game_id = game["id"]
    for body, field, words in (
        ({"move": "xyz"}, "move", "not a move"),
        ({"move": "9999"}, "move", "numbered"),
        ({"move": ""}, "move", "type a move"),
        ({"move": 7}, "move", "must be a string"),
        ({}, "move", "give the move"),
        ({"move": "1", "extra": 1}, "extra", "unknown field"),
    ):
        assert_error(client.post(f"/api/games/{game_id}/move", json=body), 400, field, words)
    assert_error(
        client.post(
            f"/api/games/{game_id}/move", content=b"{", headers={"content-type": "application/json"}
        ),
        400,
        None,
        "not JSON",
    )
    assert_error(
        client.post(
            f"/api/games/{game_id}/move", content=b"move=1", headers={"content-type": "text/plain"}
        ),
        415,
        None,
        "JSON",
    )
    assert client.get(f"/api/games/{game_id}").json()["decisions"] == 0
    assert client.post(f"/api/games/{game_id}/move", json={"move": "1"}).status_code == 200


def test_bad_new_games_are_refused_with_the_field_named(client):
    for body, field, words in (
        ({"players": 5}, "players", "2 to 4"),
        ({"players": "two"}, "players", "whole number"),
        ({"bots": "cmd:rm -rf /"}, "bots", "built-in bots only"),
        ({"bots": "telepath"}, "bots", "unknown bot spec"),
        ({"bots": ["random", "greedy", "random"], "players": 2}, "bots", "other seats"),
        ({"seat": 3}, "seat", "seats 1-2"),
        ({"bundled": "examples/nothing.txt"}, "bundled", "no bundled position"),
        ({"bundled": "../../etc/passwd"}, "bundled", "no bundled position"),
        ({"position": "not a position"}, "position", "position"),
        ({"record": '[Game "Chess"]'}, "record", "record"),
        ({"position": puzzle_setup(), "record": "x"}, "record", "give one start"),
        ({"position": puzzle_setup(), "players": 4}, "players", "comes from the position"),
        ({"coach": "yes"}, "coach", "true or false"),
        ({"colour": "red"}, "colour", "unknown field"),
    ):
        assert_error(client.post("/api/games", json=body), 400, field, words)
    assert_error(client.post("/api/games", json=[1, 2]), 400, None, "JSON object")
    finished = (DATA / "game_2p.mgn").read_text()
    assert_error(client.post("/api/games", json={"record": finished}), 400, "record", "over")
    assert client.get("/api/info").status_code == 200  # the server goes on


def test_games_start_from_a_bundled_position_a_string_or_a_record(client):
    game = new_game(client, bundled="puzzles/p4_k2_01.mpz")
    assert game["players"] == 4 and game["viewer"] == 2 and game["your_turn"]
    assert "7@5:1" in game["legal"]
    game = new_game(client, position=puzzle_setup(), seat=2, bots="greedy")
    assert game["viewer"] == 2 and [s["spec"] for s in game["seats"]] == [
        "greedy",
        "human",
        "greedy",
        "greedy",
    ]
    record = (DATA / "game_2p.mgn").read_text()
    unfinished = record[: record.index("R4")].replace('[Result "129 135"]\n', "")
    game = new_game(client, record=unfinished)
    assert game["decisions"] == 54 and game["frames"] == 55 and game["state"]["round"] == 4
    assert len(game["moves"]) == 54 and not any(m["person"] for m in game["moves"])
    assert game["moves"][0] == {
        "index": 0, "player": 1, "round": 1, "move": "=1223/1244", "mark": None, "person": False
    }  # fmt: skip
    upload = client.post(
        "/api/games",
        files={"record": ("game.mgn", unfinished.encode(), "text/plain")},
        data={"options": json.dumps({"bots": "random", "seed": 1})},
    )
    assert upload.status_code == 201, upload.text
    assert upload.json()["decisions"] == 54
    bad = client.post("/api/games", files={"record": ("x.mgn", b"\xff\xfe", "text/plain")})
    assert_error(bad, 400, "record", "UTF-8")
    bad = client.post(
        "/api/games", files={"record": ("x.mgn", b"R1", "text/plain")}, data={"options": "[1]"}
    )
    assert_error(bad, 400, "options", "JSON object")


def test_earlier_positions_are_shown_from_the_persons_seat(client):
    game = new_game(client, seed=11)
    game_id = game["id"]
    for _ in range(3):
        game = client.post(f"/api/games/{game_id}/move", json={"move": "1"}).json()["game"]
    assert game["frames"] == 7
    start = client.get(f"/api/games/{game_id}/board?frame=0").json()
    assert start["frame"] == 0 and start["played"] is None and start["to_move"] == 1
    second = client.get(f"/api/games/{game_id}/board?frame=2").json()
    assert second["played"] == {"player": 2, "move": game["history"][1]["move"]}
    assert 'class="highlight played"' in second["svg"] or "=" in second["played"]["move"]
    for frame in range(game["frames"]):
        data = client.get(f"/api/games/{game_id}/board?frame={frame}").json()
        hands = parse_position(data["position"])
        assert not hands.hand_is_known(1)  # the bot's cards never shown
    now = client.get(f"/api/games/{game_id}/board").json()
    assert now["frame"] == 6 and now["position"] == game["position"]
    marked = client.get(f"/api/games/{game_id}/board?mark={game['legal'][0]},{game['legal'][1]}")
    assert marked.status_code == 200 and marked.json()["svg"].count('class="highlight ') >= 2
    assert_error(client.get(f"/api/games/{game_id}/board?frame=99"), 400, "frame", "0-6")
    assert_error(client.get(f"/api/games/{game_id}/board?frame=-1"), 400, "frame", "")
    assert_error(client.get(f"/api/games/{game_id}/board?mark=zz"), 400, "mark", "")


def test_unknown_games_pages_and_methods_get_json_errors(client):
    assert_error(client.get("/api/games/nosuch"), 404, None, "no game")
    assert_error(client.post("/api/games/nosuch/move", json={"move": "1"}), 404, None, "no game")
    game = new_game(client)
    assert_error(client.post(f"/api/games/{game['id']}/dance"), 404, None, "no action")
    assert_error(client.get("/api/nothing"), 404, None, "no such page")
    assert_error(client.delete("/api/games"), 405, None, "not allowed")
    assert_error(client.post(f"/api/games/{game['id']}/keep"), 409, None, "no take-back offer")


def test_only_this_machine_and_this_page_are_answered(client):
    assert_error(client.get("/api/info", headers={"host": "evil.example"}), 403, None, "only")
    response = client.post(
        "/api/games", json={"bots": "random"}, headers={"origin": "http://evil.example"}
    )
    assert_error(response, 403, None, "another site")
    same = client.post("/api/games", json={"bots": "random"}, headers={"origin": ORIGIN})
    assert same.status_code == 201


# ----- the coach's take-back offer ------------------------------------------------------------


def test_a_costly_move_is_offered_back_and_the_bots_wait(client):
    game = new_game(client, position=puzzle_setup(), seat=2, teach=True)
    game_id = game["id"]
    answer = client.post(f"/api/games/{game_id}/move", json={"move": "7@1:1"}).json()
    game = answer["game"]
    assert answer["answer"]["feedback"]["takeback"] and game["offer"]["played"] == "7@1:1"
    assert game["bots"] == [] and not game["your_turn"] and game["feedback"]["better"] == "7@5:1"
    assert any("tallest" in s for s in [game["feedback"]["summary"] or ""])
    assert_error(client.post(f"/api/games/{game_id}/move", json={"move": "1"}), 409, None, "offer")
    back = client.post(f"/api/games/{game_id}/take_back").json()
    assert back["answer"]["ok"] and back["game"]["your_turn"] and back["game"]["decisions"] == 0
    client.post(f"/api/games/{game_id}/move", json={"move": "7@1:1"})
    kept = client.post(f"/api/games/{game_id}/keep").json()
    assert "stands" in kept["answer"]["message"] and len(kept["game"]["bots"]) >= 1


# ----- analysis: the engine mode's protocol over HTTP ---------------------------------------


def engine_lines(client, request: dict) -> list[dict]:
    with client.stream("POST", "/api/engine", json=request) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("application/x-ndjson")
        return [json.loads(line) for line in response.iter_lines() if line]


def test_an_analysis_streams_the_engine_modes_answers(client):
    game = new_game(client, seed=5)
    lines = engine_lines(
        client,
        {"id": "q1", "position": game["position"], "iterations": 3000, "top": 3, "seed": 1,
         "report_every": 0.05},
    )  # fmt: skip
    assert lines and all(set(line) == ENGINE_FIELDS for line in lines)
    assert [line["during_search"] for line in lines].count(False) == 1
    assert lines[-1]["during_search"] is False and lines[-1]["id"] == "q1"
    final = lines[-1]
    assert final["best"] in game["legal"] and len(final["moves"]) == 3
    assert final["iterations"] >= 3000 and not final["terminated"]
    again = engine_lines(
        client, {"id": 7, "position": game["position"], "iterations": 3000, "seed": 1, "top": 3}
    )
    assert again[-1]["id"] == 7 and again[-1]["moves"] == final["moves"]  # repeatable


def test_engine_requests_other_than_queries(client):
    assert client.post("/api/engine", json={"id": "v", "action": "version"}).json() == {
        "id": "v",
        "version": "test",
    }
    answer = client.post(
        "/api/engine", json={"id": "t", "action": "terminate", "terminate_id": "zz"}
    )
    assert answer.json() == {"id": "t", "terminated": []}
    for body, field in (
        ({"id": "q", "position": "nonsense", "iterations": 10}, "position"),
        ({"id": "q", "position": puzzle_setup()}, "iterations"),
        ({"position": puzzle_setup(), "iterations": 10}, "id"),
        ({"id": "q", "action": "dance"}, "action"),
        ({"id": "q", "position": puzzle_setup(), "iterations": 10, "depth": 3}, "depth"),
    ):
        response = client.post("/api/engine", json=body)
        assert response.status_code == 400
        data = response.json()
        assert set(data) == {"id", "error", "field"} and data["field"] == field, data
    response = client.post("/api/engine", content=b"not json")
    assert response.status_code == 400 and response.json()["id"] is None


def test_a_running_analysis_is_terminated_at_once(client):
    """Terminated once its first partial answer shows it searching (a cold kernel cache
    compiles before that, and no stop can cut into a compile), it ends within seconds of
    the ten minutes it asked for."""
    game = new_game(client, seed=6)
    lines: list[dict] = []
    searching = threading.Event()
    request = {"id": "long", "position": game["position"], "seconds": 600, "report_every": 0.1}

    def read_answers() -> None:
        with client.stream("POST", "/api/engine", json=request) as response:
            for line in response.iter_lines():
                if line:
                    lines.append(json.loads(line))
                    searching.set()

    thread = threading.Thread(target=read_answers)
    thread.start()
    assert searching.wait(timeout=300) and lines[0]["during_search"] is True
    answer = client.post("/api/engine", json={"id": "peek", "action": "version"})
    assert answer.status_code == 200 and thread.is_alive()  # answered while it searches
    twin = client.post("/api/engine", json=request)
    assert twin.status_code == 400 and twin.json()["field"] == "id"  # ids tell streams apart
    stopped = time.monotonic()
    stop = client.post(
        "/api/engine", json={"id": "stop", "action": "terminate", "terminate_id": "long"}
    )
    thread.join(timeout=60)
    assert not thread.is_alive()
    assert stop.json() == {"id": "stop", "terminated": ["long"]}
    assert lines[-1]["terminated"] is True and lines[-1]["during_search"] is False
    assert time.monotonic() - stopped < 30  # not the ten minutes asked for
    assert client.post(f"/api/games/{game['id']}/move", json={"move": "1"}).status_code == 200


# ----- the train page -----------------------------------------------------------------------


def planted_exercise(title: str, **changes) -> Exercise:
    fields = {
        "title": title,
        "player": 2,
        "state": parse_position(puzzle_setup()).view(1),
        "best": parse_move("7@5:1"),
        "accept": [parse_move("7@5:1")],
        "played": parse_move("7@1:1"),
        "loss": 97.8,
        "mark": "??",
        "why": "7@5:1 takes the tallest building from P3.",
    }
    return Exercise(**(fields | changes))


def test_training_asks_each_exercise_and_judges_the_answers(tmp_path):
    (tmp_path / "a_p2_d001.mex").write_text(write_exercise(planted_exercise("first")))
    (tmp_path / "a_p2_d002.mex").write_text(write_exercise(planted_exercise("second")))
    with make_client(tmp_path) as client:
        assert client.get("/api/info").json()["exercises"] is True
        session = client.post("/api/train").json()
        session_id = session["id"]
        exercise = session["exercise"]
        assert session["total"] == 2 and session["number"] == 1 and exercise["player"] == 2
        assert "7@5:1" in exercise["legal"] and 'g class="card"' in exercise["svg"]
        assert "Find a better move" in exercise["question"]

        def answer(text):
            response = client.post(f"/api/train/{session_id}/answer", json={"answer": text})
            assert response.status_code == 200, response.text
            return response.json()

        hint = answer("hint")
        assert hint["feedback"] == {
            "kind": "hint",
            "lines": ["Hint: the engine builds in city 5."],
            "done": False,
        }
        assert answer("9@9:9")["feedback"]["kind"] == "invalid"
        wrong = answer("7@1:1")
        assert wrong["feedback"]["kind"] == "wrong" and wrong["feedback"]["done"]
        assert any("Better: 7@5:1" in line for line in wrong["feedback"]["lines"])
        assert wrong["shown"]["best"] == "7@5:1" and 'data-move="7@5:1"' in wrong["shown"]["svg"]
        assert wrong["session"]["number"] == 2
        right = answer("7@5:1")
        assert right["feedback"]["kind"] == "right" and right["session"]["finished"]
        assert (
            right["session"]["summary"]["right"] == 1 and right["session"]["summary"]["wrong"] == 1
        )
        assert_error(
            client.post(f"/api/train/{session_id}/answer", json={"answer": "skip"}),
            409,
            None,
            "over",
        )
        assert client.get(f"/api/train/{session_id}").json()["finished"]
        assert_error(client.get("/api/train/nosuch"), 404, None, "no training session")
        fresh = client.post("/api/train").json()
        assert_error(client.post(f"/api/train/{fresh['id']}/answer", json={}), 400, "answer", "")
        assert_error(
            client.post(f"/api/train/{fresh['id']}/answer", json={"answer": "quit"}),
            400,
            "answer",
            "quit",
        )


def test_without_exercises_the_train_endpoints_say_how_to_get_them(client):
    assert_error(client.post("/api/train"), 404, None, "--exercises")


# ----- the command ----------------------------------------------------------------------------


def test_serve_says_how_to_install_what_it_misses(monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "uvicorn", None)
    assert "uvicorn" in missing_extra() and "pip install 'manhattan[serve]'" in missing_extra()
    result = CliRunner().invoke(cli_app, ["serve", "--port", "0"])
    assert result.exit_code == 1
    assert "pip install 'manhattan[serve]'" in result.output


def test_serve_refuses_an_empty_exercises_folder(tmp_path):
    result = CliRunner().invoke(cli_app, ["serve", "--exercises", str(tmp_path)])
    assert result.exit_code == 1 and "no exercises" in result.output


def _post(url: str, body: dict):
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    return urllib.request.urlopen(request, timeout=30)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a process group is POSIX")
def test_ctrl_c_stops_the_server_within_2_s_and_a_terminated_search_does_not():
    command = shutil.which("manhattan")
    assert command, "the manhattan command is installed with the package"
    process = subprocess.Popen(
        [command, "serve", "--port", "0", "--workers", "1", "--coach-iterations", "200"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        url = re.search(r"http://\S+/", process.stdout.readline()).group(0)
        game = json.load(_post(url + "api/games", {"bots": "random", "seed": 2}))
        game_id = game["id"]
        game = json.load(_post(url + f"api/games/{game_id}/move", {"move": "1"}))["game"]
        # A placement: its answer (the reasons in words) takes a while to write.
        query = {"position": game["position"], "seconds": 60, "report_every": 0.2}
        answers: list[dict] = []

        def analyze(query_id: str) -> None:
            with _post(url + "api/engine", {"id": query_id, **query}) as stream:
                answers.extend(json.loads(line) for line in stream)

        first = threading.Thread(target=analyze, args=("first",))
        first.start()
        time.sleep(1.0)
        stop = {"id": "t", "action": "terminate", "terminate_id": "first"}
        assert json.load(_post(url + "api/engine", stop))["terminated"] == ["first"]
        first.join(timeout=10)
        assert answers[-1]["terminated"] and answers[-1]["during_search"] is False
        time.sleep(0.5)  # the server goes on after a terminated search
        assert process.poll() is None
        assert json.load(urllib.request.urlopen(url + "api/info", timeout=10))["version"]
        answers.clear()
        second = threading.Thread(target=analyze, args=("second",))
        second.start()
        time.sleep(1.5)
        interrupted = time.monotonic()
        os.killpg(process.pid, signal.SIGINT)  # as a terminal does: the whole group
        _, stderr = process.communicate(timeout=20)
        elapsed = time.monotonic() - interrupted
        second.join(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, stderr
    assert elapsed < 2.0, f"the server took {elapsed:.2f} s to stop"
    assert stderr.strip().splitlines()[-1].startswith("interrupted"), stderr
    assert "Traceback" not in stderr
    assert answers[-1]["during_search"] is False and answers[-1]["interrupted"] is True


def test_the_server_stops_on_a_signal_not_on_a_terminated_search():
    import asyncio

    import uvicorn

    from search import stopping
    from web.server import _Server

    server = _Server(uvicorn.Config(create_app(ServeSettings(coach=FAST))))
    with stopping.watching(lambda: True):  # a search being terminated, process-wide
        assert stopping.requested()
        assert asyncio.run(server.on_tick(1)) is False
    assert asyncio.run(server.on_tick(1)) is False


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_graph_spans_the_decisions_left_in_the_game(players):
    from analyzer.table import HUMAN, Table
    from web.pictures import decisions_left

    table = Table([HUMAN] + ["random"] * (players - 1), seed=players)
    total = decisions_left(table.world)
    assert total == {2: 108, 3: 90, 4: 112}[players]
    made = 0
    while not table.is_over:
        assert decisions_left(table.world) == total - made
        if table.person_to_move is not None:
            table.submit("1")
        else:
            table.bot_step()
        made += 1
    assert made == total and decisions_left(table.world) == 0
