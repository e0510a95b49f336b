"""Frozen opponents: an old commit of this engine, built once into a cached virtual
environment and seated as a ``cmd:`` bot, so every change is measured against it at equal
iteration budgets.

``v0.1`` is commit 722ae4b (the main issue 10 was filed on).  The build takes the commit's
files with ``git archive`` (no tag needs to travel), installs them with their dependencies
into ``platformdirs.user_cache_dir("manhattan")/frozen/v0.1/venv`` (not editable: the
frozen code does not change with the working tree) and plays one search to compile its
playout kernel.  It happens once: later calls find the environment and check it (the
frozen packages import from it, and its manifest names the commit); a missing or broken
one is built again.

The bot is ``benchmarks/frozen_bot.py`` run by the frozen environment's Python in
isolated mode, which sees only the frozen packages:

    python benchmarks/frozen.py [--name v0.1] [--rebuild] [--iterations 6000 --seed 1] [--json]

prints the ``cmd:`` spec to seat (building first if needed), e.g. in
``manhattan match --bot "cmd:…/python -I …/frozen_bot.py --iterations 6000 --seed 1" …``.
"""

from __future__ import annotations

import argparse
import io
import json
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import venv
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from positions.errors import ManhattanError
from positions.notation import write_position
from positions.state import GameState

ROOT = Path(__file__).resolve().parent.parent
ADAPTER = Path(__file__).resolve().parent / "frozen_bot.py"
FROZEN_COMMITS = {"v0.1": "722ae4b"}
MANIFEST = "frozen.json"


@dataclass(frozen=True)
class FrozenEngine:
    """A built frozen engine: its name, the full commit, the environment's Python and
    the seconds the build took now (0 when it was already built)."""

    name: str
    commit: str
    python: Path
    build_seconds: float

    def bot_spec(self, iterations: int, seed: int | str) -> str:
        """The ``cmd:`` bot spec of this engine searching ``iterations`` per decision with
        its own random generator seeded by ``seed`` (a number, or a placeholder such as
        ``{seed}`` that the caller replaces by one)."""
        command = shlex.join([str(self.python), "-I", str(ADAPTER)])
        return f"cmd:{command} --iterations {int(iterations)} --seed {seed}"


def cache_folder(name: str) -> Path:
    """Where the frozen engine ``name`` is built (``…/manhattan/frozen/<name>``)."""
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("manhattan", appauthor=False)) / "frozen" / name


def _full_commit(short: str) -> str:
    """The full hash of ``short`` in this repository; raises ``ManhattanError``."""
    done = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"{short}^{{commit}}"],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise ManhattanError(
            f"frozen engine: commit {short} is not in the repository at {ROOT} "
            "(a shallow clone? fetch the full history)"
        )
    return done.stdout.strip()


def _python_of(folder: Path) -> Path:
    return folder / "venv" / "bin" / "python"


def _is_built(folder: Path, commit: str) -> bool:
    """Whether ``folder`` holds a working build of ``commit``: its manifest names the
    commit and the frozen packages import from its environment, not from anywhere else."""
    python = _python_of(folder)
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if manifest.get("commit") != commit or not python.exists():
        return False
    probe = (
        "import sys, positions, search, analyzer.search_bot as bot; "
        "sys.exit(0 if bot.__file__.startswith(sys.prefix) else 3)"
    )
    done = subprocess.run([str(python), "-I", "-c", probe], capture_output=True)
    return done.returncode == 0


def _run(argv: list[str], what: str, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(argv, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        last = (done.stderr.strip() or done.stdout.strip()).splitlines()[-1:] or ["no output"]
        raise ManhattanError(f"frozen engine: {what} failed: {last[0]}")
    return done


def _warm_up_position() -> str:
    """A 4-player start as P1 sees it, written by today's notation (what the frozen bot
    will be sent): one search of it compiles the frozen playout kernel."""
    return write_position(GameState.new_game(4, np.random.default_rng(0)).view(0))


def _build(folder: Path, commit: str) -> None:
    """Build ``commit`` into ``folder`` (replacing whatever is there)."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", commit], capture_output=True
    )
    if archive.returncode != 0:
        raise ManhattanError(f"frozen engine: git archive {commit} failed")
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    try:
        source = staging / "source"
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(source, filter="data")
        # the environment is made where it will live: a venv cannot be moved
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        venv.EnvBuilder(with_pip=True, clear=True).create(folder / "venv")
        python = str(_python_of(folder))
        _run([python, "-m", "pip", "install", "--quiet", str(source)], "pip install")
        frozen = _run([python, "-m", "pip", "freeze"], "pip freeze").stdout.splitlines()
        _run(
            [python, "-I", str(ADAPTER), "--iterations", "50", "--seed", "0"],
            "the warm-up search",
            input=_warm_up_position() + "\n",
            timeout=600,
        )
        manifest = {"commit": commit, "python": sys.version.split()[0], "packages": frozen}
        (folder / MANIFEST).write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def frozen_engine(name: str = "v0.1", rebuild: bool = False) -> FrozenEngine:
    """The frozen engine ``name`` (a key of ``FROZEN_COMMITS``), built first if it is
    missing, broken or ``rebuild`` is asked.  Raises ``ManhattanError`` for an unknown
    name or a failed build (one line naming the step)."""
    if name not in FROZEN_COMMITS:
        known = ", ".join(FROZEN_COMMITS)
        raise ManhattanError(f"unknown frozen engine {name!r}: expected one of {known}")
    commit = _full_commit(FROZEN_COMMITS[name])
    folder = cache_folder(name)
    started = time.perf_counter()
    built_now = rebuild or not _is_built(folder, commit)
    if built_now:
        _build(folder, commit)
    seconds = time.perf_counter() - started if built_now else 0.0
    return FrozenEngine(name, commit, _python_of(folder), round(seconds, 1))


def main(argv: list[str] | None = None) -> int:
    """Build (if needed) and print the bot spec; errors end as one line and exit code 1."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--name", default="v0.1", choices=sorted(FROZEN_COMMITS))
    parser.add_argument("--rebuild", action="store_true", help="build again even if cached")
    parser.add_argument("--iterations", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        engine = frozen_engine(args.name, args.rebuild)
    except ManhattanError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    spec = engine.bot_spec(args.iterations, args.seed)
    if args.json:
        report = {
            "name": engine.name,
            "commit": engine.commit,
            "python": str(engine.python),
            "build_seconds": engine.build_seconds,
            "spec": spec,
        }
        print(json.dumps(report, indent=2))
    else:
        print(spec)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
