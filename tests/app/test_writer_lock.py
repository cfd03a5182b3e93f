"""Issue 12 item 7: one writer per games file. A second server on the same file stops at once
with one line naming the process that holds it, and the first server's games are untouched."""
from __future__ import annotations

import os
import subprocess
import sys

from test_restart import end_server, post, start_server


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
