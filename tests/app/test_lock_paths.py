"""Issue 26 item 6: one writer per games file, however it is reached. A second server that reaches the
same file through a symlink, a hard link, a relative path from another working directory or a
symlinked directory is refused while the first runs (one line naming the first's process), and once
the first is killed with SIGKILL a new one starts the same way and finds the first one's games."""
from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from test_restart import end_server, post, start_server

from toybattle.store import Store


def _symlink(tmp: Path, db: Path) -> tuple[str, Path | None]:
    (tmp / "elsewhere").mkdir()
    link = tmp / "elsewhere" / "link.sqlite3"  # another directory, another name
    link.symlink_to(db)
    return str(link), None


def _hardlink(tmp: Path, db: Path) -> tuple[str, Path | None]:
    (tmp / "elsewhere").mkdir()
    hard = tmp / "elsewhere" / "hard.sqlite3"
    os.link(db, hard)
    return str(hard), None


def _relative(tmp: Path, db: Path) -> tuple[str, Path | None]:
    (tmp / "a" / "b").mkdir(parents=True)
    return os.path.join("..", "..", "data", db.name), tmp / "a" / "b"


def _symlinked_dir(tmp: Path, db: Path) -> tuple[str, Path | None]:
    (tmp / "linked").symlink_to(db.parent, target_is_directory=True)
    return str(tmp / "linked" / db.name), None


def _kill(proc: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(10)


WAYS = {"symlink": _symlink, "hardlink": _hardlink, "relative": _relative, "symlinked_dir": _symlinked_dir}


def _refused(db: str, cwd: Path | None) -> str:
    """Starts a server on ``db`` (from ``cwd``) and returns its one line of refusal; fails if it serves."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "toybattle", "serve", "--port", "0", "--no-browser", "--db", db],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd,
        env={**os.environ, "PYTHONUNBUFFERED": "1"}, start_new_session=True)
    watchdog = threading.Timer(60, _kill, (proc,))  # neither refused nor serving: fail, do not hang
    watchdog.start()
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if "ready" in line:  # it serves: the lock let it in
                _kill(proc)
                pytest.fail(f"a second server on {db} was not refused: {line.strip()}")
        out, err = proc.communicate()
    finally:
        watchdog.cancel()
    assert proc.returncode != 0, out
    lines = err.strip().splitlines()
    assert len(lines) == 1, err  # one line, no traceback
    return lines[0]


@pytest.mark.slow
@pytest.mark.parametrize("way", WAYS)
def test_a_second_server_is_refused_however_it_reaches_the_file(tmp_path, way):
    db = tmp_path / "data" / "games.sqlite3"
    db.parent.mkdir()
    Store(db).close()  # the file exists (a hard link needs it)
    first, base = start_server(db)
    other, cwd = WAYS[way](tmp_path, db)  # the other name is made while the first server runs
    if cwd is not None:
        assert (cwd / other).resolve() == db.resolve()
    try:
        made = post(base + "/api/games", {"kind": "hotseat", "terrain": "castle"})
        line = _refused(other, cwd)
        assert "in use" in line and f"process {first.pid}" in line, line
        assert first.poll() is None  # the first one serves on
        assert post(base + "/api/games", {"kind": "hotseat", "terrain": "castle"})["game"]
        first.send_signal(signal.SIGKILL)  # a crash: nothing is released by the program itself
        first.wait(timeout=20)
    finally:
        end_server(first)
    if way == "hardlink":  # a file of two names is refused after the crash (the test below)
        assert "2 names" in _refused(other, cwd)
        return
    # the lock went with its holder: a server reaching the file the other way starts, and has the game
    again, base = _start(other, cwd)
    try:
        assert _stored(base, made), "the first server's acknowledged game is missing"
    finally:
        end_server(again)


@pytest.mark.slow
def test_a_games_file_with_two_names_is_refused_until_one_goes_then_has_every_game(tmp_path):
    """SQLite keeps its write-ahead log beside the name it opened (games.sqlite3-wal): after a crash, a
    start under another hard link would not see the last commits. A file with two names is refused in one
    line, whichever name is used; once the other name is gone, every acknowledged game is there."""
    db = tmp_path / "games.sqlite3"
    Store(db).close()
    first, base = start_server(db)
    try:
        made = post(base + "/api/games", {"kind": "hotseat", "terrain": "castle"})
        other, _ = _hardlink(tmp_path, db)  # a second name made while the server runs
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=20)
    finally:
        end_server(first)
    for name in (other, str(db)):
        line = _refused(name, None)
        assert "2 names" in line, line
    os.unlink(other)
    again, base = start_server(db)
    try:
        assert _stored(base, made)
    finally:
        end_server(again)


def _start(db: str, cwd: Path | None) -> tuple[subprocess.Popen, str]:
    if cwd is None:
        return start_server(db)
    with contextlib.chdir(cwd):  # start_server starts it from this directory
        return start_server(db)


def _stored(base: str, made: dict) -> bool:
    """Whether the server at ``base`` has the game ``made`` (as the create call answered it)."""
    token = next(iter(made["tokens"].values()))
    try:
        with urllib.request.urlopen(f"{base}/api/games/{made['game']}?token={token}", timeout=10) as r:
            return bool(json.loads(r.read())["game"] == made["game"])
    except urllib.error.HTTPError as e:
        if e.code == 404:
            return False
        raise
