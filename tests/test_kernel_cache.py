"""The compiled kernel is cached in a per-user folder, never inside the installed package,
in a subfolder for each version of the package's sources (so that no stale kernel loads),
and a search still works, uncached, where no cache folder can be written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import positions
from positions import kernel_cache

PACKAGE = Path(positions.__file__).parent


def test_the_cache_folder_is_the_per_user_one_outside_the_package(monkeypatch, tmp_path):
    monkeypatch.delenv(kernel_cache.ENVIRONMENT_VARIABLE, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = kernel_cache.cache_folder()
    digest = kernel_cache.source_digest()
    assert folder == tmp_path / "cache" / "manhattan" / "kernel" / digest
    assert PACKAGE not in folder.parents


def test_a_chosen_folder_gets_the_sources_subfolder_once(monkeypatch, tmp_path):
    digest = kernel_cache.source_digest()
    monkeypatch.setenv(kernel_cache.ENVIRONMENT_VARIABLE, str(tmp_path / "mine"))
    assert kernel_cache.cache_folder() == tmp_path / "mine" / digest
    monkeypatch.setenv(kernel_cache.ENVIRONMENT_VARIABLE, str(tmp_path / "mine" / digest))
    assert kernel_cache.cache_folder() == tmp_path / "mine" / digest  # a child process's


def test_any_change_to_the_sources_changes_the_folder(tmp_path):
    """numba checks a cached function against its own file only, so an edit of a kernel
    function called from another file must lead to another folder."""
    copy = tmp_path / "positions"
    copy.mkdir()
    for path in PACKAGE.glob("*.py"):
        (copy / path.name).write_bytes(path.read_bytes())
    before = kernel_cache.source_digest(copy)
    assert before == kernel_cache.source_digest(PACKAGE)
    imitation = copy / "imitation.py"
    imitation.write_text(imitation.read_text() + "\n# an edit\n")
    assert kernel_cache.source_digest(copy) != before


def test_numba_caches_where_we_said_and_the_package_holds_no_cache_files():
    import numba

    from positions import playout

    playout.PlayoutEvaluator().prepare()
    assert playout.CACHED
    cache_dir = Path(numba.config.CACHE_DIR)
    assert cache_dir == Path(os.environ[kernel_cache.ENVIRONMENT_VARIABLE])
    assert PACKAGE not in cache_dir.parents and cache_dir != PACKAGE
    assert list(cache_dir.rglob("playout.*.nbi")), "the kernel's index is in the cache folder"
    assert not list(PACKAGE.rglob("*.nbi")) and not list(PACKAGE.rglob("*.nbc"))


def test_without_a_writable_cache_folder_a_search_still_works_uncached(tmp_path):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder would go")
    code = (
        "import json\n"
        "from positions import playout\n"
        "from analyzer.engine import engine_needs_compiling\n"
        "import analyzer\n"
        "from search.limits import Limit\n"
        "needs = engine_needs_compiling()\n"
        "a = analyzer.analyze('positions/data/examples/last_round_4p.txt', Limit(iterations=50))\n"
        "print(json.dumps({'cached': playout.CACHED, 'needs': needs, 'best': a.best.move}))\n"
    )
    env = {**os.environ, kernel_cache.ENVIRONMENT_VARIABLE: str(blocked / "kernel")}
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        cwd=PACKAGE.parent,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result == {"cached": False, "needs": True, "best": result["best"]}
    assert not (blocked / "kernel").exists()
