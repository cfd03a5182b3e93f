"""Issue 12 item 7: one writer per games file. A second server on the same file stops at once
with one line naming the process that holds it, and the first server's games are untouched."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
from test_restart import end_server, post, start_server


@pytest.mark.slow
def test_second_server_on_the_same_file_refuses(tmp_path):
    db = tmp_path / "games.sqlite3"
    first, base = start_server(db)
    try:
        game = post(base + "/api/games", {"kind": "hotseat", "terrain": "castle"})
        second = subprocess.run(
            [sys.executable, "-m", "toybattle", "serve", "--port", "0", "--no-browser", "--db", str(db)],
            capture_output=True, text=True, timeout=30, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        assert second.returncode != 0
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1, second.stderr  # one line, no traceback
        assert "in use" in lines[0] and f"process {first.pid}" in lines[0], lines[0]
        assert "ready" not in second.stdout
        # the first server still serves its game
        assert first.poll() is None
        assert post(base + "/api/games", {"kind": "bot", "terrain": "castle", "level": "random"})["game"]
        assert game["game"]
    finally:
        first.terminate()
        first.wait(timeout=20)
        end_server(first)
    # once the holder is gone, the file opens again (a stale lock file keeps nobody out)
    again, _ = start_server(db)
    again.terminate()
    again.wait(timeout=20)
    end_server(again)


@pytest.mark.slow
def test_lock_is_dropped_when_the_holder_is_killed(tmp_path):
    db = tmp_path / "games.sqlite3"
    first, _ = start_server(db)
    try:
        first.kill()  # the server alone, as a crash would: its bots' processes are cleared away after the check
        first.wait(timeout=20)
        again, _ = start_server(db)
        again.terminate()
        again.wait(timeout=20)
        end_server(again)
    finally:
        end_server(first)


def test_the_files_own_lock_leaves_sqlites_locks_alone(tmp_path):
    """Issue 26 item 6: the writer lock is also a flock on the games file itself. On Linux that lock and
    SQLite's byte-range locks are apart: the holder's Store writes (in WAL) as before, and another
    process still takes SQLite's write lock on the file, and reads what the holder stored."""
    from toybattle.store import GameRow, Store, WriterLock

    db = tmp_path / "games.sqlite3"
    lock = WriterLock(db)
    try:
        assert lock._games is not None  # the file itself is locked here
        store = Store(db)
        try:
            store.put(GameRow("g1", "hotseat", "record 1"))
            other = subprocess.run(
                [sys.executable, "-c", "import sqlite3, sys\n"
                 "db = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=5)\n"
                 "db.execute('BEGIN IMMEDIATE')\n"  # SQLite's own write lock, from another process
                 "print(db.execute('SELECT record FROM games').fetchone()[0])\n"
                 "db.execute('ROLLBACK')", str(db)],
                capture_output=True, text=True, timeout=30)
            assert other.returncode == 0, other.stderr
            assert other.stdout.strip() == "record 1"
            store.put(GameRow("g2", "hotseat", "record 2"))  # and the holder writes on
            assert store.get("g2") is not None
            assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        finally:
            store.close()
    finally:
        lock.release()


def test_where_flock_would_meet_sqlites_locks_only_the_lock_file_is_held(tmp_path, monkeypatch):
    """Where a flock on the file would refuse this very process's byte-range locks (the BSDs and macOS,
    NFS, SMB), the file itself is not locked; the lock file next to its real name still is."""
    import fcntl

    from toybattle.store import StoreError, WriterLock

    def refused(*args: object) -> None:
        raise BlockingIOError("as where flock and fcntl locks meet")

    db = tmp_path / "games.sqlite3"
    monkeypatch.setattr(fcntl, "lockf", refused)
    lock = WriterLock(db)
    try:
        assert lock._games is None
        with open(db, "rb") as f:  # the file's flock was let go at once
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        link = tmp_path / "link.sqlite3"
        link.symlink_to(db)
        try:
            WriterLock(link)
        except StoreError as e:
            assert f"process {os.getpid()}" in str(e)
        else:
            raise AssertionError("a second writer through a symlink was let in")
    finally:
        lock.release()
