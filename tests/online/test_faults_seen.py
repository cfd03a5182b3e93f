"""Issue 26 item 10: faults a test must see.

- A tile shown against a commitment it does not match: a peer places a troop it does not have, opening one of
  its hidden rack slots as that troop (the slot, the salt and the zone are right; the face is not the one it
  committed). The honest side ends the game as the cheater's forfeit, with the reason, in process and on the
  real transport (stored on the honest side).
- The 1 MiB bound on one wire message (docs/fair-play.md, "The wire"): a message one byte over it is refused,
  as the sender's forfeit with the reason; one of exactly 1 MiB goes through as far as its size goes. The
  bound is written here as a number, never read from the code under test, so raising it there is seen.
"""
from __future__ import annotations

import asyncio
import json
import logging
import random
import sys
from pathlib import Path

import pytest

from toybattle.online import transport
from toybattle.online.protocol import RACK, SLOTS, Forfeit, Match, Secrets, Setup, encode
from toybattle.rules import action_text
from toybattle.rules import actions as A
from toybattle.rules.troops import HOOK, KWAK, ROXY, name

sys.path.insert(0, str(Path(__file__).parent))
from online_harness import play_local
from wire_attacks import Attacker, against_a_hostile_host

ONE_MIB = 1_048_576  # the documented bound on one wire message, in bytes: 1 MiB
LIMITS = {"move_limit": 6.0, "reply_limit": 4.0}
# troops whose placement calls for no draw and no random pick: a forged placement of one is otherwise a
# message the rules take as it is, so only the commitment check stands between it and the game
PLAIN = (HOOK, ROXY, KWAK)


# ---------------------------------------------------------------- a shown tile against its commitment


def false_face(match: Match, text: str) -> str:
    """Place a troop this side does not hold, showing one of its hidden rack slots as that troop: the slot
    is on the rack and the salt is that slot's own, only the face differs from the one committed."""
    msg = json.loads(text)
    if msg["t"] != "act" or match.my_move() != "play":
        return text
    me = match.me
    rack = [k for k in range(SLOTS) if match.zone[me][k] == RACK]
    held = {match.secrets.troops[k] for k in rack}
    shown = list(match.faces[me].values())  # faces this side showed so far
    for troop in sorted((t for t in PLAIN if t not in held), key=shown.count):
        if shown.count(troop) >= 2 or (me << 4 | troop) in match.public.rack[me]:
            continue
        for k in rack:
            alt = match.mine()
            alt.rack[me].remove(me << 4 | match.secrets.troops[k])
            alt.rack[me] = sorted(alt.rack[me] + [me << 4 | troop])
            places = [a for a in alt.legal_actions() if A.PLACE <= a < A.PLACE_END and (a - A.PLACE) >> 5 == troop]
            if places:
                opening = match.secrets.opening(k)
                opening[1] = troop
                return encode({"n": msg["n"], "prev": msg["prev"], "by": me, "t": "act",
                               "a": action_text(places[0], alt.b), "open": opening})
    return text


def _expected_reason(match: Match, sent: str) -> str:
    opening = json.loads(sent)["open"]
    assert match.secrets.troops[opening[0]] != opening[1]  # the face shown is not the one committed
    return f"showed slot {opening[0]} as {name(opening[1])}, which does not match its commitment"


def test_a_tile_shown_against_a_commitment_it_does_not_match_is_the_showers_forfeit():
    caught = 0
    for seed in range(6):
        forged: list[tuple[Match, str]] = []

        def cheat(match: Match, text: str, forged: list[tuple[Match, str]] = forged) -> str:
            sent = false_face(match, text)
            if sent != text:
                forged.append((match, sent))
            return sent

        with pytest.raises(Forfeit) as e:
            play_local("castle", seed, cheat={1: cheat})
        assert forged, f"seed {seed}: the cheat never came up"
        match, sent = forged[0]
        assert e.value.seat == 1, e.value
        assert e.value.reason == _expected_reason(match, sent), e.value.reason
        caught += 1
    assert caught == 6


def _snapshot(m: Match) -> tuple:
    p = m.public
    return (list(m.log), [list(z) for z in m.zone], {s: dict(f) for s, f in enumerate(m.faces)},
            [list(r) for r in p.rack], [list(st) for st in p.stacks], p.ply)


def test_the_honest_match_takes_nothing_of_a_false_face():
    """The opening is refused before anything of it is used: the honest side's game is as it was."""
    setup = Setup("faces", "castle", False, 0)
    ms = [Match(setup, s, Secrets.generate(f"faces/{s}")) for s in (0, 1)]
    rng = random.Random(2)
    while True:
        me = next(s for s in (0, 1) if ms[s].my_move())
        text = ms[me].make(rng.choice(ms[me].mine().legal_actions()) if ms[me].my_move() == "play" else None)
        sent = false_face(ms[me], text) if ms[me].public is not None else text
        if sent != text:
            break
        for m in ms:
            m.accept(text, me)
    honest = ms[1 - me]
    before = _snapshot(honest)
    with pytest.raises(Forfeit) as e:
        honest.accept(sent, me)
    assert e.value.seat == me and e.value.reason == _expected_reason(ms[me], sent), e.value
    assert _snapshot(honest) == before


# ---------------------------------------------------------------- on the real transport


def _honest_side(mailbox: str, tmp_path: Path, game_id: str, strike, caplog) -> str:
    """Run a scenario; the game must end as blue's (the attacker's) forfeit, stored on the honest side.
    Returns the reason (after "blue forfeits: ")."""
    caplog.set_level(logging.DEBUG)
    out = asyncio.run(against_a_hostile_host(mailbox, str(tmp_path / "victim.db"), game_id, strike, LIMITS))
    assert "Traceback" not in caplog.text, caplog.text[-2000:]
    res, row = out["result"], out["row"]
    assert res["reason"] == "forfeit" and res["winner"] == 1, res
    assert res["detail"].startswith("blue forfeits: "), res
    assert row is not None and row.over and row.winner == "red" and row.reason == res["detail"], row
    return str(res["detail"]).removeprefix("blue forfeits: ")


# sent after the message under test: a game still running then ends on this concession, with this reason
AFTERWARDS = "conceded after the message under test went through"


def _concede(a: Attacker) -> None:
    a.link.send({"k": "forfeit", "seat": a.match.me, "reason": AFTERWARDS})


async def _to_play(a: Attacker) -> None:
    await a.play_until("play", random.Random(3))


def test_a_false_face_on_the_real_transport_is_the_cheaters_forfeit_stored_by_the_honest_side(
        mailbox, tmp_path, caplog):
    sent: list[str] = []

    async def strike(a: Attacker) -> None:
        await _to_play(a)
        m = a.match
        text = false_face(m, m.make(random.Random(1).choice(m.mine().legal_actions())))
        assert json.loads(text).get("open"), "no false face could be made at this turn"
        sent.append(_expected_reason(m, text))
        a.link.send({"k": "msg", "m": text})
        _concede(a)

    reason = _honest_side(mailbox, tmp_path, "faults-face", strike, caplog)
    assert reason == sent[0], reason


def _padded_here(size: int) -> bytes:
    """A presence message padded with JSON whitespace to exactly ``size`` bytes: well formed at any size."""
    body = b'{"k":"here"}'
    return body + b" " * (size - len(body))


def test_the_wire_bound_is_one_mib_in_the_reader():
    assert transport.parse(_padded_here(ONE_MIB)) == {"k": "here"}
    with pytest.raises(transport.Garbled) as e:
        transport.parse(_padded_here(ONE_MIB + 1))
    assert str(e.value) == f"the other player sent a message over {ONE_MIB} bytes"


def test_a_wire_message_one_byte_over_one_mib_is_the_senders_forfeit(mailbox, tmp_path, caplog):
    async def strike(a: Attacker) -> None:
        await _to_play(a)
        a.raw(_padded_here(ONE_MIB + 1))
        _concede(a)

    reason = _honest_side(mailbox, tmp_path, "faults-over", strike, caplog)
    assert reason == f"sent a malformed message (a message over {ONE_MIB} bytes)", reason


def test_a_wire_message_of_exactly_one_mib_goes_through(mailbox, tmp_path, caplog):
    async def strike(a: Attacker) -> None:
        await _to_play(a)
        a.raw(_padded_here(ONE_MIB))
        _concede(a)

    reason = _honest_side(mailbox, tmp_path, "faults-under", strike, caplog)
    assert reason == AFTERWARDS, reason  # the presence message was taken: the game ended on what came next


def test_the_padding_is_all_that_differs():
    """The two messages above are the same presence message; only their sizes straddle the bound."""
    over, under = _padded_here(ONE_MIB + 1), _padded_here(ONE_MIB)
    assert (len(over), len(under)) == (ONE_MIB + 1, ONE_MIB) == (2**20 + 1, 2**20)
    assert json.loads(over) == json.loads(under) == {"k": "here"}
