"""Issue 26: nothing a peer sends breaks the other side. Each malformed message, from a hostile peer on the
REAL transport (a local mailbox, the real Link and OnlineGame, in this process), ends the game as the sender's
forfeit with a reason, recorded on the honest side; none raises anything else; and the reason reads in the
player's language (the catalogue knows it)."""
from __future__ import annotations

import asyncio
import json
import logging
import random
import sys
import time
from pathlib import Path

import pytest

from toybattle.online.protocol import Match, Secrets, Setup, encode
from toybattle.said import Said, say

sys.path.insert(0, str(Path(__file__).parent))
from wire_attacks import Attacker, against_a_hostile_host

sys.path.insert(0, str(Path(__file__).parents[1] / "app"))
from french import english_in

LIMITS = {"move_limit": 6.0, "reply_limit": 4.0}


def _forge(attacker: Attacker, **change: object) -> str:
    """The attacker's next honest message with ``change`` made to it, chained like any other."""
    m = attacker.match
    msg = json.loads(m.make(random.Random(1).choice(m.mine().legal_actions())
                            if m.my_move() == "play" else None))
    msg.update(change)
    return encode(msg)


def _run(mailbox: str, tmp_path: Path, strike, caplog) -> dict:
    caplog.set_level(logging.DEBUG)
    out = asyncio.run(against_a_hostile_host(mailbox, str(tmp_path / "victim.db"), "hardening1", strike, LIMITS))
    assert "Traceback" not in caplog.text, caplog.text[-2000:]
    res, row = out["result"], out["row"]
    assert res["reason"] == "forfeit" and res["winner"] == 1, res  # the honest red wins: blue forfeits
    assert res["detail"].startswith("blue forfeits: "), res
    assert row is not None and row.over and row.winner == "red" and row.reason == res["detail"], row
    assert isinstance(res["detail"], Said) and row.meta["online"]["said"] is not None, res  # stored by its id
    told = say(Said("end.wins", seat="Red", how=res["detail"]), "fr")  # the player's language
    assert told.startswith("Rouge gagne : bleu perd par forfait : "), told
    assert res["detail"].split(": ", 1)[1] not in told and not english_in(told), f"not in French: {told}"
    return res


async def _to_play(a: Attacker) -> None:
    """Commit, then the opening random event: the game has begun; then until blue must play."""
    await a.play_until("play", random.Random(3))


def test_an_undecryptable_message_is_a_forfeit(mailbox, tmp_path, caplog):
    async def strike(a: Attacker) -> None:
        await _to_play(a)
        phase = str(a.link._sent)
        a.link._sent += 1
        a.link._conn.add(phase, b"not a secretbox at all, just bytes" * 3)

    res = _run(mailbox, tmp_path, strike, caplog)
    assert "did not decrypt" in res["detail"], res


@pytest.mark.parametrize("a_value", [5, ["draw"], {"x": 1}, None, True])
def test_an_act_that_is_not_a_text_is_a_forfeit(mailbox, tmp_path, caplog, a_value):
    async def strike(a: Attacker) -> None:
        await _to_play(a)
        a.link.send({"k": "msg", "m": _forge(a, t="act", a=a_value)})

    res = _run(mailbox, tmp_path, strike, caplog)
    assert "wrong shape (a)" in res["detail"], res


@pytest.mark.parametrize("padded", [" draw", "draw ", "DRAW", "draw\n"])
def test_a_padded_action_is_a_forfeit(mailbox, tmp_path, caplog, padded):
    async def strike(a: Attacker) -> None:
        await _to_play(a)
        a.link.send({"k": "msg", "m": _forge(a, t="act", a=padded)})

    res = _run(mailbox, tmp_path, strike, caplog)
    assert "otherwise than the notation" in res["detail"] or "wrong shape" in res["detail"], res


@pytest.mark.parametrize("field,value", [("by", False), ("n", True), ("open", [1, 2, 3]), ("r", "AB" * 32)])
def test_a_field_of_the_wrong_type_is_a_forfeit(mailbox, tmp_path, caplog, field, value):
    async def strike(a: Attacker) -> None:
        await _to_play(a)
        a.link.send({"k": "msg", "m": _forge(a, **{field: value})})

    _run(mailbox, tmp_path, strike, caplog)


def test_a_deeply_nested_chained_message_is_a_forfeit(mailbox, tmp_path, caplog):
    async def strike(a: Attacker) -> None:
        await _to_play(a)
        a.link.send({"k": "msg", "m": _forge(a, a="[" * 3000 + "]" * 3000)[:4000]})
        a.link.send({"k": "msg", "m": '{"a":' + "[" * 2000 + "]" * 2000 + "}"})

    _run(mailbox, tmp_path, strike, caplog)


@pytest.mark.parametrize("phase", ["\u00b2", "07", "1e3", "99999999999"])
def test_a_message_in_a_phase_that_is_not_a_number_is_a_forfeit(mailbox, tmp_path, caplog, phase):
    async def strike(a: Attacker) -> None:
        await _to_play(a)
        a.link._conn.add(phase, b"x" * 40)

    res = _run(mailbox, tmp_path, strike, caplog)
    assert "the connection is not safe" in res["detail"], res


def test_the_final_opening_withheld_behind_a_false_notice_is_a_forfeit(mailbox, tmp_path, caplog):
    """At the end, instead of opening its tiles (a stacked army would be caught there), blue sends a
    notice that red broke a rule: red's own check refutes it, and blue forfeits for the opening."""
    async def strike(a: Attacker) -> None:
        await a.play_until("open", random.Random(3))
        a.link.send({"k": "forfeit", "seat": 1, "reason": "you cheated"})

    res = _run(mailbox, tmp_path, strike, caplog)
    assert "withheld an opening" in res["detail"], res


def test_the_final_opening_is_not_put_off_by_coming_back_again_and_again(mailbox, tmp_path, caplog):
    """A hello (a side coming back) restarts no limit: the opening is still due within the reply limit."""
    due: list[float] = []
    hellos: list[asyncio.Future[None]] = []

    async def strike(a: Attacker) -> None:
        await a.play_until("open", random.Random(3))
        due.append(time.monotonic())

        async def comebacks() -> None:
            for _ in range(3):  # within the comeback allowance, each before the limit runs out
                await asyncio.sleep(LIMITS["reply_limit"] * 0.6)
                a.link.send({"k": "hello", "resume": a.match.setup.game, "setup": None, "hashes": []})
        hellos.append(asyncio.ensure_future(comebacks()))

    res = _run(mailbox, tmp_path, strike, caplog)
    assert "withheld an opening" in res["detail"], res
    took = time.monotonic() - due[0]
    assert took < LIMITS["reply_limit"] + 2, f"the opening was put off for {took:.1f} s"


@pytest.mark.parametrize("notice", [{"seat": 0, "reason": "  I give up  "}, {"seat": 0, "reason": ""},
                                    {"seat": True, "reason": "I give up"}])
def test_a_notice_that_is_not_clean_is_a_forfeit_of_its_sender(mailbox, tmp_path, caplog, notice):
    async def strike(a: Attacker) -> None:
        await _to_play(a)
        a.link.send({"k": "forfeit", **notice})

    res = _run(mailbox, tmp_path, strike, caplog)
    assert "malformed" in res["detail"], res


def test_nothing_leaves_match_accept_but_a_forfeit():
    """Whatever the text, ``Match.accept`` raises Forfeit (the sender's) or accepts: never anything else."""
    setup = Setup("g", "castle", False, 0)
    host, guest = Match(setup, 0, Secrets.generate("h")), Match(setup, 1, Secrets.generate("j"))
    text = host.make()
    host.accept(text, 0)
    guest.accept(text, 0)
    base = json.loads(guest.make())
    rng = random.Random(26)
    junk = [None, True, 7, -1, 2**80, 1.5, "", "x" * 5000, [], {}, [[[[1]]]], {"a": {"b": {"c": {}}}}, ["ab"] * 30]
    from toybattle.online.protocol import Forfeit
    for _ in range(400):
        msg = dict(base)
        msg[rng.choice(sorted(msg))] = rng.choice(junk)
        m = Match(setup, 0, Secrets.generate("h"))
        m.accept(text, 0)
        try:
            m.accept(encode(msg), 1)
        except Forfeit as f:
            assert f.seat == 1 and f.reason
