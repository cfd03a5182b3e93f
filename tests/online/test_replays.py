"""A room delivers again. A side coming back into its room after a restart is given, again, what the other
side sent after this side's last word there: an old hello, an old catch-up, a move it took before it stopped.
Copies of agreed messages change nothing and are no forfeit (found by the browser test where both apps
restart twice: the honest side was once declared a cheat for its own old move). A different message under a
number already agreed is still the sender's forfeit."""
from __future__ import annotations

import asyncio
import json
import logging
import random
import sys
from pathlib import Path

from toybattle.online.protocol import encode

sys.path.insert(0, str(Path(__file__).parent))
from wire_attacks import Attacker, against_a_hostile_host

LIMITS = {"move_limit": 6.0, "reply_limit": 4.0}


def _run(mailbox: str, tmp_path: Path, strike, caplog) -> dict:
    caplog.set_level(logging.DEBUG)
    out = asyncio.run(against_a_hostile_host(mailbox, str(tmp_path / "victim.db"), "replays1", strike, LIMITS))
    assert "Traceback" not in caplog.text, caplog.text[-2000:]
    return out


def test_copies_of_agreed_messages_are_passed_over_and_the_game_ends_as_played(mailbox, tmp_path, caplog):
    rng = random.Random(5)

    async def strike(a: Attacker) -> None:
        await a.play_until("play", rng)
        first = a.send_own(rng.choice(a.match.mine().legal_actions()))
        # what the mailbox replays to a side back in its room: the old hello (a shorter history), a catch-up
        # of messages the victim holds, then that move again, twice
        a.link.send({"k": "hello", "resume": a.match.setup.game, "setup": None,
                     "hashes": [json.loads(json.dumps(h)) for h in _hashes(a.match.log[:2])]})
        a.link.send({"k": "sync", "msgs": a.match.log[1:3]})
        a.link.send({"k": "msg", "m": first})
        a.link.send({"k": "msg", "m": first})
        await a.play_until("end", rng)  # on to the end, honestly, tiles opened

    out = _run(mailbox, tmp_path, strike, caplog)
    res, row = out["result"], out["row"]
    assert res["reason"] in ("hq", "medals", "stuck"), res
    assert row is not None and row.over and row.reason == res["reason"], row


def test_a_different_message_under_an_agreed_number_is_still_a_forfeit(mailbox, tmp_path, caplog):
    rng = random.Random(5)

    async def strike(a: Attacker) -> None:
        await a.play_until("play", rng)
        first = a.send_own(rng.choice(a.match.mine().legal_actions()))
        await asyncio.sleep(0.5)
        other = json.loads(first)
        other["a"] = "d" if other["a"] != "d" else "s"  # the same number, another move
        a.link.send({"k": "msg", "m": encode(other)})

    out = _run(mailbox, tmp_path, strike, caplog)
    res, row = out["result"], out["row"]
    assert res["reason"] == "forfeit" and res["winner"] == 1, res
    assert row is not None and row.over and row.winner == "red", row


def _hashes(log: list[str]) -> list[str]:
    from toybattle.online.protocol import digest
    return [digest(t) for t in log]
