"""Two separate toybattle processes meet through a local magic-wormhole mailbox (127.0.0.1 only)."""
from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest

from toybattle.rules import TERRAIN_IDS

from .conftest import LIMITS, Peer

BOT = ["--bot", "random"]


def rows(db) -> list:
    if not db.exists():
        return []
    with sqlite3.connect(db) as c:
        return c.execute("SELECT id, over, record FROM games").fetchall()


def same_game(a: dict, b: dict) -> bool:
    return all(a[k] == b[k] for k in ("head", "winner", "reason", "messages", "game"))


def one_line(err: str) -> str:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def test_bot_games_on_every_terrain(peers):
    pairs = [peers(["--terrain", t, *BOT, "--seed", f"h{t}"], [*BOT, "--seed", f"j{t}"],
                   dbs=(f"{t}-h.db", f"{t}-j.db")) for t in TERRAIN_IDS]
    for host, joiner in pairs:
        a, b = host.result(), joiner.result()
        assert same_game(a, b) and a["reason"] in ("hq", "medals", "stuck") and a["winner"] in (0, 1)
        assert a["seat"] == 0 and b["seat"] == 1 and a["round_trip_ms"] > 0


def test_wrong_code_fails_cleanly_on_both_sides(peers, tmp_path):
    host, joiner = peers(BOT, BOT, code=lambda c: c.split("-")[0] + "-wrong-guess")
    (hrc, _, herr), (jrc, _, jerr) = host.finish(), joiner.finish()
    assert hrc == jrc == 2
    assert "wrong code" in one_line(herr) and "wrong code" in one_line(jerr)
    assert rows(tmp_path / "host.db") == [] and rows(tmp_path / "join.db") == []


def run(*args, db) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "toybattle", *args], capture_output=True, text=True, timeout=60,
                          env={**__import__("os").environ, "TOYBATTLE_DB": str(db)})


def test_expired_code_malformed_code_and_unreachable_mailbox(peers, mailbox, tmp_path):
    host, joiner = peers([*BOT, "--seed", "x"], [*BOT, "--seed", "y"])
    a = host.result()
    joiner.result()
    used = next(ln for ln in host.lines if ln.startswith("room code")).split()[-1]  # its game is over
    db = tmp_path / "third.db"
    r = run("join", used, "--relay", mailbox, "--wait", "3", db=db)
    assert r.returncode == 2 and "wrong or expired" in one_line(r.stderr)
    r = run("join", "not a code", "--relay", mailbox, db=db)
    assert r.returncode == 2 and "not a room code" in one_line(r.stderr)
    r = run("join", "7-guitarist-revenge", "--relay", "ws://127.0.0.1:9/v1", db=db)
    assert r.returncode == 2 and "cannot reach the mailbox" in one_line(r.stderr)
    r = run("host", "--relay", "ws://127.0.0.1:9/v1", db=db)
    assert r.returncode == 2 and "cannot reach the mailbox" in one_line(r.stderr)
    assert rows(db) == [] and a["reason"] != "forfeit"


def test_incompatible_version_gets_one_line_on_both_sides(peers, tmp_path):
    host, joiner = peers(BOT, BOT, join_patch=["--protocol", "99"])
    (hrc, _, herr), (jrc, _, jerr) = host.finish(), joiner.finish()
    assert hrc == jrc == 2
    assert "same version" in one_line(herr) and "same version" in one_line(jerr)
    assert rows(tmp_path / "host.db") == [] and rows(tmp_path / "join.db") == []


CHEATS = {  # cheat -> (terrain, reason shown to both players); seeds below make each come up
    "forged_draw": ("castle", "does not match its randomness commitment"),
    "xb_lie": ("castle", "XB-42"),
    "laid_play": ("battlefield", "laid face down"),
    "never_drawn": ("castle", "was never drawn"),
    "altered_past": ("castle", "does not follow the agreed history"),
    "refuse_open": ("castle", "refused to open its commitments"),
}


@pytest.mark.parametrize("cheat", sorted(CHEATS))
def test_a_cheating_peer_forfeits_and_both_sides_are_told_why(peers, cheat):
    terrain, reason = CHEATS[cheat]
    for seed in range(8):
        host, joiner = peers(["--terrain", terrain, *BOT, "--seed", f"h{seed}"], [*BOT, "--seed", f"c{seed}"],
                             join_patch=["--cheat", cheat], dbs=(f"h{seed}.db", f"c{seed}.db"))
        honest, cheater = host.result(), joiner.result()
        if honest["reason"] != "forfeit" and cheater["reason"] != "forfeit":
            continue  # the cheat's moment never came in this game: try another
        assert honest["winner"] == 0 and reason in honest["detail"] and honest["detail"].startswith("red forfeits")
        assert cheater["detail"] == honest["detail"]
        assert host.proc.returncode == 0 and joiner.proc.returncode == 1
        return
    pytest.fail(f"the {cheat} cheat never came up")


def test_a_cut_connection_resumes_and_ends_as_if_never_cut(peers, mailbox, tmp_path):
    seeds = (["--terrain", "cemetery", *BOT, "--seed", "cut-h"], [*BOT, "--seed", "cut-j"])
    host, joiner = peers(*seeds, dbs=("ref-h.db", "ref-j.db"))
    reference = host.result()
    assert same_game(reference, joiner.result())
    host, joiner = peers(seeds[0] + ["--reply-limit", "3", "--move-limit", "3"], seeds[1],
                         join_patch=["--die-after", "31"])
    rc, _, err = host.finish()
    assert rc == 2 and "resume it in the same room" in one_line(err) and joiner.finish()[0] == 9
    saved = {db: rows(tmp_path / db) for db in ("host.db", "join.db")}
    assert saved["join.db"][0][2].count("\n") + 1 == 31 and saved["host.db"][0][2].count("\n") + 1 == 30
    local = {db: saved[db][0][0] for db in saved}  # each side stores the game under its own local id
    assert local["host.db"] != reference["game"] != local["join.db"]
    # both come back into the same room with no code: each side's hello settles what the other misses
    host = Peer(["host", "--resume", local["host.db"], "--relay", mailbox, "--json", *LIMITS, *BOT, "--seed", "cut-h"],
                tmp_path / "host.db")
    joiner = Peer(["join", "--resume", local["join.db"], "--relay", mailbox, "--json", *LIMITS, *BOT,
                   "--seed", "cut-j"], tmp_path / "join.db")
    a, b = host.result(), joiner.result()
    assert same_game(a, reference) and same_game(b, reference)
    assert not any(ln.startswith("room code") for ln in host.lines)
