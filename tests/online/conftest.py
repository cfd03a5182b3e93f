"""Fixtures for online play: a local magic-wormhole mailbox started by the tests (127.0.0.1 only),
and peers run as separate `toybattle host/join` processes."""
from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).parent
PEER = HERE / "peer.py"  # runs toybattle with test-only patches (cheats, a crash)
LIMITS = ["--move-limit", "20", "--reply-limit", "20"]


def start_mailbox(d: Path, tls: Path | None = None) -> tuple[subprocess.Popen, int]:
    """A magic-wormhole mailbox on 127.0.0.1 (behind TLS with the key and certificate chain in PEM file
    ``tls``), its channels in memory. It listens on a port the system picks (port 0) and says which in its
    log: no free port is guessed, which a parallel worker could take in between."""
    log = d / "mailbox.log"
    port_spec = f"ssl:port=0:interface=127.0.0.1:privateKey={tls}:certKey={tls}" if tls else \
        "tcp:0:interface=127.0.0.1"
    # Twisted's `twist` runner, through this interpreter (no PATH lookup). Its channels live in memory: a
    # database file on disk costs every message a synced commit (about 20 ms a hop here, against 2 ms).
    with open(log, "w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "twisted", "wormhole-mailbox", f"--port={port_spec}",
                                 "--channel-db=:memory:"], cwd=d, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.time() + 20
    port = None
    while time.time() < deadline and proc.poll() is None and port is None:
        time.sleep(0.1)
        found = re.search(r"(?:Site|\(TLS\)) starting on (\d+)", log.read_text())
        port = found and int(found.group(1))
    if port is None:
        proc.kill()
        pytest.fail("the local mailbox did not start:\n" + log.read_text())
    socket.create_connection(("127.0.0.1", port), 5).close()  # it accepts before it is handed out
    return proc, port


@pytest.fixture(scope="session")
def mailbox(tmp_path_factory):
    """ws:// URL of a magic-wormhole mailbox on 127.0.0.1, for the whole test session (one per xdist worker)."""
    proc, port = start_mailbox(tmp_path_factory.mktemp("mailbox"))
    yield f"ws://127.0.0.1:{port}/v1"
    proc.terminate()
    proc.wait(10)


class Peer:
    """A toybattle host/join process; ``code()`` waits for the room code it prints."""

    def __init__(self, args: list[str], db: Path, patch: list[str] | None = None, env: dict | None = None):
        cmd = [sys.executable, str(PEER), *(patch or []), "--", *args]
        env = dict(os.environ, TOYBATTLE_DB=str(db), PYTHONUNBUFFERED="1", **(env or {}))
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.lines: list[str] = []
        self.err = ""  # what it wrote on stderr, once finished

    def code(self) -> str:
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise AssertionError("host ended before printing a code: " + self.proc.stderr.read())
            self.lines.append(line)
            if line.startswith("room code: "):
                return line.split()[-1]

    def finish(self, timeout: float = 120) -> tuple[int, str, str]:
        out, err = self.proc.communicate(timeout=timeout)
        self.err = err
        return self.proc.returncode, "".join(self.lines) + out, err

    def result(self, timeout: float = 120) -> dict:
        rc, out, err = self.finish(timeout)
        lines = [ln for ln in out.splitlines() if ln.startswith("{")]
        assert lines, f"no result (exit {rc}): {out}\n{err}"
        return json.loads(lines[-1])


@pytest.fixture
def peers(mailbox, tmp_path):
    """start(host_args, join_args, host_patch, join_patch, dbs, code) -> (host, joiner) processes;
    ``code`` turns the host's room code into the one the joiner types."""
    started: list[Peer] = []

    def start(host_args=(), join_args=(), host_patch=None, join_patch=None, dbs=("host.db", "join.db"),
              code=lambda c: c):
        host = Peer(["host", "--relay", mailbox, "--json", *LIMITS, *host_args], tmp_path / dbs[0],
                    host_patch)
        started.append(host)
        joiner = Peer(["join", code(host.code()), "--relay", mailbox, "--json", *LIMITS, *join_args],
                      tmp_path / dbs[1], join_patch)
        started.append(joiner)
        return host, joiner

    yield start
    for p in started:
        if p.proc.poll() is None:
            p.proc.kill()
            p.proc.wait()
