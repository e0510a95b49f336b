"""The README's set-up commands are the ones CI runs, word for word."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).parent.parent


def setup_commands() -> list[str]:
    """The first two indented command lines of the README."""
    lines = (ROOT / "README.md").read_text().splitlines()
    return [line.strip() for line in lines if line.startswith("    python3 -m pip")][:2]


def test_ci_runs_the_readme_commands_in_order():
    first, second = setup_commands()
    assert first.startswith("python3 -m pip install . &&")
    assert second.startswith('python3 -m pip install -e ".[test]"')
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert first in ci and second in ci
    assert ci.index(first) < ci.index(second)
