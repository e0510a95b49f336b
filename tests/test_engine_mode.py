"""The engine mode through a real subprocess: a scripted session of valid, malformed,
terminated and partial-answer queries; every request answered with its id, none lost."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from analyzer.engine_queries import Query, RequestError, Terminate, Version, parse_request

ROOT = Path(__file__).parent.parent
EXAMPLES = ROOT / "positions" / "data" / "examples"
GAME = ROOT / "positions" / "data" / "games" / "heuristic_vs_greedy_2p.mgn"


def position(name: str) -> str:
    lines = (EXAMPLES / name).read_text().splitlines()
    return next(line for line in lines if line.strip() and not line.startswith("#"))


def run_session(lines: list[str]):
    """Send ``lines`` to ``manhattan engine``, close stdin and return (answers, exit code,
    stderr)."""
    command = shutil.which("manhattan")
    assert command, "the manhattan command is installed with the package"
    process = subprocess.Popen(
        [command, "engine"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None
    for line in lines:
        process.stdin.write(line + "\n")
    process.stdin.close()
    assert process.stdout is not None and process.stderr is not None
    out = process.stdout.read()
    err = process.stderr.read()
    process.wait(timeout=120)
    return [json.loads(line) for line in out.splitlines()], process.returncode, err


def test_a_scripted_session_answers_every_request_in_order():
    pos = position("middle_4p_round2.txt")
    record = GAME.read_text()
    lines = [
        json.dumps({"id": "v1", "action": "version"}),
        json.dumps({"id": "q1", "position": pos, "iterations": 400, "seed": 1, "top": 3}),
        "this is not json",
        json.dumps({"id": "bad1", "position": pos}),  # no budget
        json.dumps({"id": "bad2", "position": pos, "iterations": 0}),
        json.dumps({"id": 7, "position": pos, "iterations": 300, "speed": 3}),  # unknown field
        json.dumps({"position": pos, "iterations": 300}),  # no id
        json.dumps({"id": "bad3", "position": "9/9/9", "iterations": 300}),
        json.dumps({"id": "r1", "record": record, "turns": [3, 10], "iterations": 300}),
        json.dumps({"id": "q2", "position": pos, "iterations": 300, "seed": 1, "top": 3}),
    ]
    answers, code, err = run_session(lines)
    assert code == 0, err
    by_id: dict = {}
    for answer in answers:
        by_id.setdefault(answer["id"], []).append(answer)
    assert by_id["v1"] == [{"id": "v1", "version": by_id["v1"][0]["version"]}]
    errors = {a["id"]: a for a in answers if "error" in a}
    assert set(errors) == {None, "bad1", "bad2", "bad3", 7}
    assert errors["bad1"]["field"] == "iterations"
    assert errors["bad2"]["field"] == "iterations"
    assert errors[7]["field"] == "speed"
    assert errors["bad3"]["field"] == "position"
    finals = [a for a in answers if "best" in a and not a["during_search"]]
    assert [(a["id"], a["turn"]) for a in finals] == [
        ("q1", None),
        ("r1", 3),
        ("r1", 10),
        ("q2", None),
    ]
    q1, q2 = by_id["q1"][0], by_id["q2"][0]
    assert q1["iterations"] == 400 and len(q1["moves"]) == 3
    assert q1["moves"][0]["move"] == q1["best"]
    assert {"win_low", "win_high", "equal_to_best"} <= set(q1["moves"][0])
    assert q2["iterations"] == 300 and q2["terminated"] is False
    # the same query in analyze --json: the same fields
    assert {"position", "to_move", "best", "moves", "line", "iterations", "seconds"} <= set(q1)


def test_terminate_ends_a_running_query_with_its_final_answer_and_partials_come_first():
    pos = position("opening_4p.txt")
    process = subprocess.Popen(
        [shutil.which("manhattan"), "engine"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None
    query = {"id": "long", "position": pos, "seconds": 60, "report_every": 0.3}
    process.stdin.write(json.dumps(query) + "\n")
    process.stdin.write(json.dumps({"id": "after", "position": pos, "iterations": 200}) + "\n")
    process.stdin.flush()
    answers = [json.loads(process.stdout.readline()) for _ in range(2)]  # two partials
    started = time.monotonic()
    process.stdin.write(json.dumps({"id": "t1", "action": "terminate", "terminate_id": "long"}))
    process.stdin.write("\n")
    process.stdin.close()
    answers += [json.loads(line) for line in process.stdout.read().splitlines()]
    assert process.wait(timeout=60) == 0, process.stderr.read() if process.stderr else ""
    assert time.monotonic() - started < 20  # not the 60 s the query asked for
    long = [a for a in answers if a["id"] == "long"]
    assert len(long) >= 3 and all(a["during_search"] for a in long[:-1])
    final = long[-1]
    assert final["during_search"] is False and final["terminated"] is True
    assert final["interrupted"] is True and final["best"]
    assert answers.index(final) < answers.index({"id": "t1", "terminated": ["long"]})
    after = [a for a in answers if a["id"] == "after"]
    assert len(after) == 1 and after[0]["iterations"] == 200


def test_terminating_a_queued_query_and_an_unknown_one():
    pos = position("middle_4p_round2.txt")
    lines = [
        json.dumps({"id": "q1", "position": pos, "iterations": 300}),
        json.dumps({"id": "q2", "position": pos, "iterations": 100000}),
        json.dumps({"id": "t1", "action": "terminate", "terminate_id": "q2"}),
        json.dumps({"id": "t2", "action": "terminate", "terminate_id": "nobody"}),
    ]
    answers, code, err = run_session(lines)
    assert code == 0, err
    assert {"id": "t1", "terminated": ["q2"]} in answers
    assert {"id": "t2", "terminated": []} in answers
    q2 = [a for a in answers if a["id"] == "q2"]
    assert len(q2) == 1 and q2[0]["terminated"] is True and q2[0]["iterations"] < 1000


@pytest.mark.parametrize(
    ("line", "field"),
    [
        ("[1, 2]", None),
        ('{"id": true, "action": "version"}', "id"),
        ('{"id": "a", "action": "dance"}', "action"),
        ('{"id": "a", "action": "terminate"}', "terminate_id"),
        ('{"id": "a", "position": "x", "record": "y", "iterations": 5}', "position"),
        ('{"id": "a", "position": "x", "iterations": 5, "turns": [1]}', "turns"),
        (
            '{"id": "a", "record": "[Game \\"Manhattan\\"]", "iterations": 5, "turns": [1]}',
            "record",
        ),
        ('{"id": "a", "position": "x", "seconds": "fast"}', "seconds"),
        ('{"id": "a", "position": "x", "iterations": 5, "workers": 1000}', "workers"),
        ('{"id": "a", "position": "x", "iterations": 5, "report_every": -1}', "report_every"),
        ('{"id": "a", "position": "x", "iterations": 1e30}', "iterations"),
    ],
)
def test_bad_requests_name_the_field(line, field):
    with pytest.raises(RequestError) as caught:
        parse_request(line)
    assert caught.value.field == field
    answer = caught.value.answer()
    assert set(answer) == {"id", "error", "field"} and "\n" not in answer["error"]


def test_good_requests_parse():
    pos = position("middle_4p_round2.txt")
    assert parse_request('{"id": 1, "action": "version"}') == Version(1)
    assert parse_request('{"id": "t", "action": "terminate", "terminate_id": 3}') == Terminate(
        "t", 3
    )
    query = parse_request(json.dumps({"id": "q", "position": pos, "seconds": 1.5, "workers": 2}))
    assert isinstance(query, Query)
    assert query.settings.limit.seconds == 1.5 and query.settings.workers == 2
    assert [t.turn for t in query.targets] == [None]
