"""The project as a newcomer gets it: one version, typed, and a fresh clone that sets itself up and starts
its programs with nothing on PATH but the system's directories."""
from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import toybattle

ROOT = Path(__file__).resolve().parents[1]
BARE_PATH = "/usr/local/bin:/usr/bin:/bin"


def test_the_version_is_written_once_and_toybattle_version_prints_it():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "toybattle.__version__"}
    out = subprocess.run([sys.executable, "-m", "toybattle", "--version"], capture_output=True, text=True,
                         timeout=60)
    assert (out.returncode, out.stdout, out.stderr) == (0, f"toybattle {toybattle.__version__}\n", "")
    assert f"## [{toybattle.__version__}]" in (ROOT / "CHANGELOG.md").read_text("utf-8")


def test_the_package_says_it_is_typed():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    assert (ROOT / "src" / "toybattle" / "py.typed").is_file()
    assert "py.typed" in project["tool"]["setuptools"]["package-data"]["toybattle"]


def _bare(args: list[str], cwd: Path, home: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    """Runs ``args`` as `env -i HOME=... PATH=/usr/local/bin:/usr/bin:/bin` would; only pip's download cache
    is shared with this machine, so the clone does not fetch every wheel again."""
    cache = os.environ.get("PIP_CACHE_DIR") or str(Path.home() / ".cache" / "pip")
    env = {"HOME": str(home), "PATH": BARE_PATH, "PIP_CACHE_DIR": cache}
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.mark.slow
def test_a_fresh_clone_sets_up_and_starts_its_programs_with_a_bare_path(tmp_path):
    """The README's setup on a clone of HEAD, then a test that starts `toybattle serve` twice and the
    magic-wormhole mailbox as processes: none of them may depend on a virtual environment's PATH."""
    clone, home = tmp_path / "clone", tmp_path / "home"
    home.mkdir()
    cloned = subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], capture_output=True, text=True, timeout=120)
    assert cloned.returncode == 0, f"this test needs the repository as a git checkout:\n{cloned.stderr}"

    first = _bare(["bash", "scripts/setup.sh", "--test"], clone, home, timeout=1200)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "installing toybattle" in first.stderr
    again = _bare(["bash", "scripts/setup.sh", "--test"], clone, home, timeout=60)
    assert (again.returncode, again.stdout, again.stderr) == (0, "", "")  # nothing changed: no pip, no apt

    version = _bare([".venv/bin/toybattle", "--version"], clone, home, timeout=60)
    assert version.stdout == f"toybattle {toybattle.__version__}\n", version.stderr
    test = "tests/online/test_app.py::test_create_and_join_a_room_and_play_moves"
    run = _bare([".venv/bin/python", "-m", "pytest", "-q", "-p", "no:cacheprovider", test], clone, home, timeout=600)
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout + run.stderr
