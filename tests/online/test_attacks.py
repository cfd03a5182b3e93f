"""Issue 12, online fair play: each attack by a hostile peer on the REAL transport (a local mailbox,
the real Link and OnlineGame) is reproduced first, then shown to end in a stated reason with nothing lost.
The attacker is ``wire_attacks.py`` (a raw link that sends whatever it likes)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ATTACK = Path(__file__).parent / "wire_attacks.py"


def attack(mailbox, tmp_path, name: str, *args: str, timeout: float = 120) -> dict:
    r = subprocess.run([sys.executable, str(ATTACK), name, mailbox, str(tmp_path / f"{name}.db"), *args],
                       capture_output=True, text=True, timeout=timeout)
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("{")]
    assert r.returncode == 0 and lines, f"exit {r.returncode}\n{r.stdout}\n{r.stderr}"
    return json.loads(lines[-1])


def test_a_forfeit_notice_naming_the_honest_seat_is_the_accusers_forfeit(mailbox, tmp_path):
    """The honest side's own check refutes the claim: the accuser, which has stopped playing, forfeits, and
    the honest side keeps that result (not a game that can never end); the accuser's words are not kept."""
    out = attack(mailbox, tmp_path, "forfeit_notice")
    assert out["outcome"] == "result" and out["winner"] == 1 and out["reason"] == "forfeit", out
    assert "own check of every message it sent refutes" in out["detail"], out
    (row,) = out["rows"]
    assert row["over"] and row["winner"] == "red" and "!!!!!!" not in (row["reason"] or ""), row


def test_a_peer_may_concede_its_own_seat_with_a_bounded_clean_reason(mailbox, tmp_path):
    out = attack(mailbox, tmp_path, "own_forfeit")
    assert out["outcome"] == "result" and out["winner"] == 1 and out["reason"] == "forfeit", out
    (row,) = out["rows"]
    assert row["over"] and row["winner"] == "red"
    assert len(row["reason"]) <= 300 and row["reason"].isprintable() and "\x1b" not in row["reason"], row


def test_the_host_cannot_overwrite_a_stored_game_of_the_joiner(mailbox, tmp_path):
    out = attack(mailbox, tmp_path, "overwrite")
    bot = [r for r in out["rows"] if r["id"] == "a1b2c3d4e5f60718"]
    assert bot == [{"id": "a1b2c3d4e5f60718", "kind": "bot", "over": False, "winner": None, "reason": None,
                    "record": "draw", "meta_keys": ["mine"]}], out["rows"]
    online = [r for r in out["rows"] if r["kind"] == "online"]
    assert len(online) == 1 and online[0]["id"] != "a1b2c3d4e5f60718" and online[0]["id"] == out["local"], out


def test_a_game_id_from_the_wire_is_checked(mailbox, tmp_path):
    out = attack(mailbox, tmp_path, "bad_id")
    assert out["outcome"] == "session" and "game id" in out["line"] and len(out["line"]) < 200, out
    assert out["rows"] == []


def test_a_padded_chained_message_is_refused_and_not_stored(mailbox, tmp_path):
    out = attack(mailbox, tmp_path, "pad")
    assert out["outcome"] == "result" and out["reason"] == "forfeit" and out["winner"] == 1, out
    assert "pad" in out["detail"] and out["detail"].startswith("blue forfeits"), out
    (row,) = out["rows"]
    assert len(row["record"]) < 10_000 and "zzzz" not in row["record"], len(row["record"])


def test_a_peer_that_keeps_coming_back_mid_game_forfeits(mailbox, tmp_path):
    out = attack(mailbox, tmp_path, "comebacks")
    assert out["outcome"] == "result" and out["reason"] == "forfeit" and out["winner"] == 1, out
    assert "came back more than 3 times" in out["detail"] and out["detail"].startswith("blue forfeits"), out
    (row,) = out["rows"]
    assert row["over"] and row["winner"] == "red", row


def test_a_stalling_peer_can_be_claimed_as_abandoned(mailbox, tmp_path):
    out = attack(mailbox, tmp_path, "stall", "claim")
    assert out["outcome"] == "result" and out["reason"] == "abandonment" and out["winner"] == 1, out
    assert "blue" in out["detail"] and "silent" in out["detail"], out
    (row,) = out["rows"]
    assert row["over"] and row["winner"] == "red" and row["record"].count("\n") >= 2, row  # the history so far


def test_a_stalling_peer_can_be_left_with_the_game_saved(mailbox, tmp_path):
    out = attack(mailbox, tmp_path, "stall", "close")
    assert out["outcome"] == "session" and "silent" in out["line"] and "is saved after message" in out["line"], out
    (row,) = out["rows"]
    assert not row["over"] and row["record"].count("\n") >= 2, row


def test_withholding_the_final_opening_is_a_forfeit_once_the_limit_runs_out(mailbox, tmp_path):
    out = attack(mailbox, tmp_path, "withhold")
    assert out["outcome"] == "result" and out["reason"] == "forfeit" and out["winner"] == 0, out
    assert out["detail"].startswith("red forfeits") and "open" in out["detail"], out
    (row,) = out["rows"]
    assert row["over"] and row["winner"] == "blue"


def test_fuzz_the_real_transport_with_500_malformed_messages(mailbox, tmp_path):
    # 500 keep the suite within its time (about a minute here); scripts/bench_cheats.py runs 1,000 (benchmarks)
    out = attack(mailbox, tmp_path, "fuzz", "500", "12", timeout=1800)
    assert out["uncaught"] == [], "\n".join(out["uncaught"][:5])
    assert sum(out["outcomes"].values()) == 500 and set(out["outcomes"]) <= {"session", "forfeit"}, out
