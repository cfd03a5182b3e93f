"""The commitments, random values and openings, each check by the reason it gives (issue 26: mutation testing).

Every forged message below is refused by some check; a test that asked only *who* forfeits let a mutant
that moved a message to the wrong check survive. Each case names the message id of the reason, so each check
is pinned by what it says. The hashes are pinned too, by known answers worked out here with hashlib from the
layout docs/fair-play.md gives: both peers run the same code, so a change to a hash would never show between
them, only against another implementation.
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from online_harness import play_local

from toybattle.online.protocol import (
    OPEN,
    SLOTS,
    UNDRAWN,
    Forfeit,
    Match,
    Secrets,
    Setup,
    _is_hex,
    digest,
    encode,
    sha,
    tile_commitment,
)
from toybattle.said import Said

SETUP = Setup("g", "castle", False, 0)  # the host (seat 0) sends the first commitment, the joiner the second
H = "0123456789abcdef" * 4


def reason(match: Match, text: str, seat: int) -> str:
    """The message id of the reason ``match`` refuses ``text`` from ``seat`` with (it must refuse it), and for
    a field of the wrong shape, which field: ``forfeit.shape:tiles``."""
    with pytest.raises(Forfeit) as e:
        match.accept(text, seat)
    assert e.value.seat == seat
    said = e.value.reason
    assert isinstance(said, Said), said
    return f"{said.key}:{dict(said.args)['fields']}" if said.key == "forfeit.shape" else said.key


def forged(text: str, **change: object) -> str:
    msg = json.loads(text)
    msg.update(change)
    return encode({k: v for k, v in msg.items() if v is not None})


def opening() -> tuple[Match, Match, str]:
    """The host and the joiner, and the host's first commitment (the joiner has not read it yet)."""
    host, joiner = Match(SETUP, 0, Secrets.generate("a")), Match(SETUP, 1, Secrets.generate("b"))
    first = host.make()
    host.accept(first, 0)
    return host, joiner, first


def second() -> tuple[Match, str]:
    """The host, having read nothing but its own commitment, and the joiner's commitment with its value."""
    host, joiner, first = opening()
    joiner.accept(first, 0)
    return host, joiner.make()


def tiles_of(text: str) -> list[str]:
    tiles: list[str] = json.loads(text)["tiles"]
    return tiles


BAD_TILES = [
    "x", None, [], lambda t: t[:-1], lambda t: t + [t[0]], lambda t: [t[0].upper()] + t[1:],
    lambda t: [t[0][:-2]] + t[1:], lambda t: [t[0] + "00"] + t[1:], lambda t: ["g" + t[0][1:]] + t[1:],
    lambda t: [7] + t[1:], lambda t: [None] * SLOTS,
]


@pytest.mark.parametrize("bad", BAD_TILES, ids=range(len(BAD_TILES)))
def test_a_tile_commitment_that_is_not_24_lowercase_hashes_is_refused_by_its_shape(bad):
    _, joiner, first = opening()
    tiles = bad(tiles_of(first)) if callable(bad) else bad
    text = forged(first, tiles=tiles) if tiles is not None else forged(first, tiles=0)
    assert reason(joiner, text, 0) == "forfeit.shape:tiles"


@pytest.mark.parametrize("anchor", [H.upper(), H[:-2], H + "00", "g" + H[1:], 5, "", ["a"]])
def test_a_randomness_commitment_that_is_not_one_lowercase_hash_is_refused_by_its_shape(anchor):
    _, joiner, first = opening()
    assert reason(joiner, forged(first, anchor=anchor), 0) == "forfeit.shape:anchor"


def test_the_first_commitment_may_not_open_a_random_value_yet():
    _, joiner, first = opening()
    assert reason(joiner, forged(first, r=H), 0) == "forfeit.earlyRandom"


@pytest.mark.parametrize("value", ["wrong", "upper", "short", "number"])
def test_the_second_commitments_value_must_be_a_hash_and_the_preimage_of_its_anchor(value):
    host, text = second()
    good = json.loads(text)["r"]
    r = {"wrong": H, "upper": good.upper(), "short": good[:-2], "number": 12}[value]
    assert reason(host, forged(text, r=r), 1) == ("forfeit.randMismatch" if value == "wrong" else "forfeit.shape:r")


def test_the_second_commitment_must_open_a_random_value():
    host, text = second()
    assert reason(host, forged(text, r=None), 1) == "forfeit.malformedKind"


def test_honest_commitments_are_taken_and_the_first_value_is_due_from_the_host():
    host, text = second()
    host.accept(text, 1)
    assert host.expected() == (0, "rand") and host.pending is not None and host.pending[0] == 1


def test_a_random_value_sent_when_a_move_is_due_is_refused_as_the_wrong_kind():
    host, joiner, first = opening()
    joiner.accept(first, 0)
    text = joiner.make()
    for m in (host, joiner):
        m.accept(text, 1)
    rand = host.make()  # the host's value settles event 1: the deal, then the first player's move is due
    for m in (host, joiner):
        m.accept(rand, 0)
    seat, kind = joiner.expected()
    assert kind == "play" and joiner.pending is None
    again = encode({**json.loads(rand), "n": len(joiner.log) + 1, "prev": joiner.head, "by": seat})
    assert reason(joiner, again, seat) == "forfeit.wrongKind"


@pytest.mark.parametrize(("value", "n", "ok"), [
    (H, 32, True), ("ab" * 16, 16, True), (H.upper(), 32, False), (H[:-1] + "g", 32, False), (H[:-2], 32, False),
    (H + "aa", 32, False), (b"ab" * 32, 32, False), (None, 32, False), ("", 0, True), ("0", 0, False),
    (H[:-1] + "X", 32, False),
])
def test_hex_is_read_strictly(value, n, ok):
    assert _is_hex(value, n) is ok


def test_the_hashes_match_their_documented_layout():
    def framed(*parts: bytes) -> bytes:
        return hashlib.sha256(b"".join(len(p).to_bytes(4, "big") + p for p in parts)).digest()

    salt = bytes(range(16))
    assert sha(b"x", "g", 3) == framed(b"x", b"g", b"3")
    assert sha() == hashlib.sha256(b"").digest()
    assert sha(b"ab", b"c") != sha(b"a", b"bc")  # length-prefixed: no two part lists collide
    assert tile_commitment("g", 1, 5, 9, salt) == framed(b"toybattle/tile", b"g", b"1", b"5", b"9", salt).hex()
    assert digest('{"a":1}') == hashlib.sha256(b'{"a":1}').hexdigest()


def test_a_peers_commitments_are_its_own_tiles_salted_slot_by_slot():
    s = Secrets.generate("c")
    got = s.commitments("g", 1)
    assert len(got) == SLOTS
    assert got == [tile_commitment("g", 1, k, s.troops[k], s.salts[k]) for k in range(SLOTS)]
    assert s.commitments("g", 0) != got and s.commitments("h", 1) != got


# ---------------------------------------------------------------------------------------- openings during play

def caught(change, applies, seeds=range(60), terrain="castle") -> str:
    """Play games (online_harness) in which the second seat changes its first message that ``applies`` with
    ``change``; the message id the honest seat refuses it with (the first game where such a message comes)."""
    def cheat(m: Match, text: str) -> str:
        msg = json.loads(text)
        if not applies(msg):
            return text
        return encode(change(m, msg))

    for seed in seeds:
        try:
            play_local(terrain, seed, cheat={1: cheat})
        except Forfeit as f:
            assert f.seat == 1, f.reason
            said = f.reason
            assert isinstance(said, Said), said
            return f"{said.key}:{dict(said.args)['fields']}" if said.key == "forfeit.shape" else said.key
    pytest.fail("no such message came up")


def during_play(msg) -> bool:
    return msg["t"] in ("rand", "act") and "open" in msg


def reopened(**change):
    """The opening [slot, troop, salt] of a message, with some of its parts changed."""
    def f(m, msg):
        slot, troop, salt = msg["open"]
        got = {"slot": slot, "troop": troop, "salt": salt} | change
        msg["open"] = [got["slot"], got["troop"], got["salt"]]
        return msg
    return f


@pytest.mark.parametrize(("change", "key"), [
    (reopened(slot=SLOTS), "forfeit.badOpening"), (reopened(slot=-1), "forfeit.badOpening"),
    (reopened(troop=0), "forfeit.badOpening"), (reopened(troop=99), "forfeit.badOpening"),
    (reopened(salt="00" * 16), "forfeit.notCommitted"),
    (lambda m, msg: {k: v for k, v in msg.items() if k != "open"}, "forfeit.notOpened"),
], ids=["slot past the last", "slot -1", "troop 0", "troop 99", "another salt", "no opening"])
def test_a_tile_opened_during_play_is_checked_field_by_field(change, key):
    assert caught(change, during_play) == key


def test_a_tile_opened_from_a_slot_never_drawn_is_refused_for_that():
    def other_slot(m, msg):
        never = next(k for k in range(SLOTS) if m.zone[m.me][k] == UNDRAWN)
        return reopened(slot=never)(m, msg)
    assert caught(other_slot, during_play) == "forfeit.wrongSlot"


def final(msg) -> bool:
    return msg["t"] == "open"


@pytest.mark.parametrize("change", [
    lambda m, msg: {**msg, "tiles": [[99, msg["tiles"][0][1]]] + msg["tiles"][1:]},
    lambda m, msg: {**msg, "tiles": [[msg["tiles"][0][0], "00" * 16]] + msg["tiles"][1:]},
    lambda m, msg: {**msg, "tiles": msg["tiles"][1:] + msg["tiles"][:1]},
], ids=["a troop that is none", "another salt", "the slots turned round"])
def test_the_final_opening_is_checked_slot_by_slot(change):
    assert caught(change, final) == "forfeit.endSlot"


SALT = "ab" * 16


@pytest.mark.parametrize("opening", ["x", [1, 2], [1, 2, SALT, 4], ["1", 2, SALT], [1, "2", SALT], [True, 2, SALT],
                                     [1, True, SALT], [1, 2, "zz"], [1, 2, SALT.upper()]])
def test_an_opening_that_is_not_two_ints_and_a_salt_is_refused_by_its_shape(opening):
    assert caught(lambda m, msg: {**msg, "open": opening}, during_play) == "forfeit.shape:open"


@pytest.mark.parametrize("pair", ["x", [1], [1, SALT, 3], ["1", SALT], [True, SALT], [1, "zz"]])
def test_a_final_opening_that_is_not_an_int_and_a_salt_is_refused_by_its_shape(pair):
    assert caught(lambda m, msg: {**msg, "tiles": [pair] + msg["tiles"][1:]}, final) == "forfeit.shape:tiles"


def test_a_tile_opened_again_from_a_slot_already_shown_is_refused_for_that():
    """The reason names why the slot is wrong: here, its tile is already face up."""
    def cheat(m: Match, text: str) -> str:
        msg = json.loads(text)
        shown = [k for k in range(SLOTS) if m.zone[m.me][k] == OPEN]
        return encode(reopened(slot=shown[0])(m, msg)) if during_play(msg) and shown else text

    reasons = []
    for seed in range(60):
        try:
            play_local("castle", seed, cheat={1: cheat})
        except Forfeit as f:
            said = f.reason
            assert isinstance(said, Said) and said.key == "forfeit.wrongSlot", said
            reasons.append(dict(said.args)["why"].key)
            break
    assert reasons == ["forfeit.why.shown"]
