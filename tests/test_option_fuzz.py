"""Mutated options and files, in the style of ``test_malformed.py``: whatever values the
options get, a command ends with a result or one error line, never a traceback."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import cli

ROOT = Path(__file__).parent.parent
EXAMPLE = str(ROOT / "positions" / "data" / "examples" / "last_round_4p.txt")
GAME = str(ROOT / "positions" / "data" / "games" / "random_2p.mgn")
PUZZLE = str(ROOT / "positions" / "data" / "puzzles" / "p2_k1_01.mpz")
GARBAGE = [
    "",
    " ",
    "0",
    "-1",
    "1e400",
    "inf",
    "-inf",
    "nan",
    "1.5",
    "abc",
    "99999999999999999999999",
    "0x10",
    "1,2",
    "5,10",
    "5,10,15,20",
    "∞",
    "\x00",
    "--json",
    "x" * 5000,
    "1e-9",
    "3",
]
# command, fixed arguments (a small budget so valid values end fast), options to mutate
COMMANDS = [
    ("analyze", [EXAMPLE, "--iterations", "20"], ["--top", "--seed", "--workers", "--move"]),
    ("analyze", [EXAMPLE], ["--iterations", "--time", "--backend", "--tree"]),
    ("review", [GAME, "--iterations-per-move", "5"], ["--marks", "--seed", "--workers"]),
    ("match", ["--players", "2", "--games", "1"], ["--bots", "--seed", "--bot-timeout"]),
    ("match", ["--players", "2"], ["--games", "--workers", "--option"]),
    ("solve", [PUZZLE], ["--goal", "--node-budget"]),
    ("play", ["--players", "2"], ["--seed", "--bots", "--option"]),
    ("show", [EXAMPLE], ["--seat", "--svg"]),
]


def run_main(args: list[str], capsys, monkeypatch) -> tuple[int, str, str]:
    """The command's entry point as the installed ``manhattan`` runs it, in-process."""
    monkeypatch.setattr("sys.argv", ["manhattan", *args])
    with pytest.raises(SystemExit) as end:
        cli.main()
    out, err = capsys.readouterr()
    return int(end.value.code or 0), out, err


def test_mutated_option_values_give_a_result_or_one_error_line(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # whatever a mutated output option names lands here
    rng = random.Random(20261201)
    outcomes = {0: 0, 1: 0}
    for _ in range(120):
        command, fixed, options = rng.choice(COMMANDS)
        option = rng.choice(options)
        value = rng.choice(GARBAGE)
        if option in ("--bots",) and value not in ("", "abc"):
            value = rng.choice(["mcts:" + value, "level:" + value, "cmd:" + value, value])
        args = [command, *fixed, option, value]
        code, out, err = run_main(args, capsys, monkeypatch)
        assert code in (0, 1), (args, out, err)
        assert "Traceback" not in err and "internal error" not in err, (args, err)
        if code == 1:
            lines = err.strip().splitlines()
            assert len(lines) == 1 and len(lines[0]) < 500, (args, err)
            assert out == "", (args, out)
        outcomes[code] += 1
    assert outcomes[1] > 60  # most mutations are refused
