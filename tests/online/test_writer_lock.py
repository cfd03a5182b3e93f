"""Issue 12 item 7 for online play: `toybattle host` and `toybattle join` hold their games file's
writer lock, as `serve` does, so no two programs write one games file: the second stops at once with
one line naming the process that holds it."""
from __future__ import annotations

import subprocess
import sys

from .test_app import serve


def _refused(args: list[str], db, holder: int) -> None:
    r = subprocess.run([sys.executable, "-m", "toybattle", *args, "--db", str(db)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode != 0, r.stdout
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr  # one line, no traceback
    assert "in use" in lines[0] and f"process {holder}" in lines[0], lines[0]
    assert "room code" not in r.stdout


def test_host_and_join_refuse_a_games_file_held_by_a_server(tmp_path, mailbox):
    server, _, _ = serve(tmp_path, "app")
    db = tmp_path / "app.db"
    try:
        _refused(["host", "--relay", mailbox], db, server.pid)
        _refused(["join", "7-guitarist-revenge", "--relay", mailbox], db, server.pid)
        assert server.poll() is None  # the server runs on
    finally:
        server.terminate()
        server.wait(10)


def test_a_hosting_game_holds_its_games_file_against_servers_hosts_and_joins(tmp_path, mailbox):
    db = tmp_path / "games.db"
    host = subprocess.Popen([sys.executable, "-m", "toybattle", "host", "--relay", mailbox, "--bot", "random",
                             "--wait", "120", "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        assert host.stdout is not None
        line = host.stdout.readline()
        assert line.startswith("room code: "), line + host.stderr.read()
        _refused(["serve", "--port", "0", "--no-browser"], db, host.pid)
        _refused(["host", "--relay", mailbox], db, host.pid)
        _refused(["join", line.split()[-1], "--relay", mailbox], db, host.pid)
        assert host.poll() is None  # still waiting for its guest
    finally:
        host.terminate()
        host.wait(10)
    # the holder is gone: the file is free again (a wrong code now fails for its own reason)
    r = subprocess.run([sys.executable, "-m", "toybattle", "join", "7-guitarist-revenge", "--relay", mailbox,
                        "--wait", "5", "--db", str(db)], capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and "in use" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
