"""The wire's checks, one branch at a time, without a network (issue 26: mutation testing).

The tests that send bad messages through real peers (tests/online/test_hardening_wire.py) need the
local mailbox and are slow, so the fast lane never reached ``wire.check``: every mutant of online/wire.py
survived it. These pin each rule of the wire (a field's type, a bound and the bound plus one, the line
that says what is wrong) in a few milliseconds.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from toybattle.chat import MAX_CHAT
from toybattle.online import wire
from toybattle.online.protocol import MAX_CHAINED, MAX_REASON
from toybattle.online.wire import MAX_MESSAGES, Malformed, check, depth, game_id

sys.path.insert(0, str(Path(__file__).parent))
from online_harness import play_local

H = "0123456789abcdef" * 4  # a SHA-256 hash as the wire spells it
SETUP = {"game": "g-1_A", "terrain": "castle", "first_game": True, "host_seat": 1}


def hello(**over):
    msg = {"k": "hello", "resume": None, "setup": None, "hashes": []}
    msg.update(over)
    return msg


def refused(msg) -> str:
    with pytest.raises(Malformed) as e:
        check(msg)
    return str(e.value)


GOOD = [
    hello(), hello(resume="abc"), hello(resume="x" * 40), hello(setup=SETUP), hello(setup={**SETUP, "host_seat": 0}),
    hello(setup={**SETUP, "first_game": False, "terrain": "a" * 40}), hello(hashes=[H, H]),
    hello(hashes=[H] * MAX_MESSAGES),
    {"k": "sync", "msgs": []}, {"k": "sync", "msgs": ["x" * MAX_CHAINED] * 2},
    {"k": "sync", "msgs": [""] * MAX_MESSAGES},
    {"k": "msg", "m": ""}, {"k": "msg", "m": "x" * MAX_CHAINED},
    {"k": "here"},
    {"k": "chat", "text": "a"}, {"k": "chat", "text": "x" * MAX_CHAT}, {"k": "chat", "phrase": "z" * 20},
    {"k": "chat", "phrase": "a"},
    {"k": "forfeit", "seat": 0, "reason": "r"}, {"k": "forfeit", "seat": 1, "reason": "x" * MAX_REASON},
]


@pytest.mark.parametrize("msg", GOOD, ids=range(len(GOOD)))
def test_a_well_formed_message_is_let_through_as_it_is(msg):
    assert check(msg) is msg


BAD = [
    (["hello"], "a message is a JSON object"),
    ({}, "a message of an unknown kind"),
    ({"k": 1}, "a message of an unknown kind"),
    ({"k": "hi"}, "a message of an unknown kind"),
    ({"k": "here", "x": 1}, "a here message with other fields than k"),
    ({"k": "msg"}, "a msg message with other fields than k, m"),
    ({"k": "sync", "msgs": [], "m": ""}, "a sync message with other fields than k, msgs"),
    ({"k": "forfeit", "seat": 0}, "a forfeit message with other fields than k, reason, seat"),
    ({"k": "chat", "phrase": "luck", "text": "hi"}, "a chat message with other fields than k, text"),
    ({"k": "chat"}, "a chat message with other fields than k, text"),
    ({"k": "hello", "resume": None, "setup": None}, "a hello message with other fields than hashes, k, resume, setup"),
    # a quick phrase
    ({"k": "chat", "phrase": "z" * 21}, "a quick phrase that is not a key of 1 to 20 small letters"),
    ({"k": "chat", "phrase": ""}, "a quick phrase that is not a key of 1 to 20 small letters"),
    ({"k": "chat", "phrase": "Luck"}, "a quick phrase that is not a key of 1 to 20 small letters"),
    ({"k": "chat", "phrase": 3}, "a quick phrase that is not a key of 1 to 20 small letters"),
    # hello
    (hello(resume=""), "a game id is 1 to 40 letters, digits, '-' or '_'"),
    (hello(resume="x" * 41), "a game id is 1 to 40 letters, digits, '-' or '_'"),
    (hello(resume="a b"), "a game id is 1 to 40 letters, digits, '-' or '_'"),
    (hello(resume=5), "a game id is 1 to 40 letters, digits, '-' or '_'"),
    (hello(setup=[]), "a hello whose game setup is not {game, terrain, first_game, host_seat, clock?}"),
    (hello(setup={**SETUP, "x": 1}), "a hello whose game setup is not {game, terrain, first_game, host_seat, clock?}"),
    (hello(setup={k: v for k, v in SETUP.items() if k != "game"}),
     "a hello whose game setup is not {game, terrain, first_game, host_seat, clock?}"),
    (hello(setup={**SETUP, "game": "../x"}), "a game id is 1 to 40 letters, digits, '-' or '_'"),
    (hello(setup={**SETUP, "terrain": "Castle"}), "a hello whose game setup has wrong types"),
    (hello(setup={**SETUP, "terrain": "a" * 41}), "a hello whose game setup has wrong types"),
    (hello(setup={**SETUP, "terrain": 3}), "a hello whose game setup has wrong types"),
    (hello(setup={**SETUP, "first_game": 1}), "a hello whose game setup has wrong types"),
    (hello(setup={**SETUP, "host_seat": True}), "a hello whose game setup has wrong types"),
    (hello(setup={**SETUP, "host_seat": 2}), "a hello whose game setup has wrong types"),
    (hello(setup={**SETUP, "host_seat": -1}), "a hello whose game setup has wrong types"),
    (hello(setup={**SETUP, "host_seat": "1"}), "a hello whose game setup has wrong types"),
    (hello(hashes=None), "a hello whose history is not a list of SHA-256 hashes"),
    (hello(hashes=[H] * (MAX_MESSAGES + 1)), "a hello whose history is not a list of SHA-256 hashes"),
    (hello(hashes=[H.upper()]), "a hello whose history is not a list of SHA-256 hashes"),
    (hello(hashes=[H[:-1]]), "a hello whose history is not a list of SHA-256 hashes"),
    (hello(hashes=[H, 5]), "a hello whose history is not a list of SHA-256 hashes"),
    # sync and msg
    ({"k": "sync", "msgs": "x"}, "a sync message whose messages are not a list of chained texts"),
    ({"k": "sync", "msgs": [""] * (MAX_MESSAGES + 1)}, "a sync message whose messages are not a list of chained texts"),
    ({"k": "sync", "msgs": ["", "x" * (MAX_CHAINED + 1)]},
     "a sync message whose messages are not a list of chained texts"),
    ({"k": "sync", "msgs": ["", 3]}, "a sync message whose messages are not a list of chained texts"),
    ({"k": "msg", "m": "x" * (MAX_CHAINED + 1)},
     f"a chained message that is not a text of at most {MAX_CHAINED} characters"),
    ({"k": "msg", "m": 3}, f"a chained message that is not a text of at most {MAX_CHAINED} characters"),
    # chat
    ({"k": "chat", "text": ""}, f"a chat message that is not a text of 1 to {MAX_CHAT} characters"),
    ({"k": "chat", "text": "x" * (MAX_CHAT + 1)}, f"a chat message that is not a text of 1 to {MAX_CHAT} characters"),
    ({"k": "chat", "text": 3}, f"a chat message that is not a text of 1 to {MAX_CHAT} characters"),
    ({"k": "chat", "text": " hi"}, "a chat line with padding or control characters"),
    ({"k": "chat", "text": "a\x07b"}, "a chat line with padding or control characters"),
    ({"k": "chat", "text": " "}, "a chat line with padding or control characters"),
    # forfeit
    ({"k": "forfeit", "seat": True, "reason": "r"},
     f"a forfeit notice without a seat and a reason of at most {MAX_REASON} characters"),
    ({"k": "forfeit", "seat": 2, "reason": "r"},
     f"a forfeit notice without a seat and a reason of at most {MAX_REASON} characters"),
    ({"k": "forfeit", "seat": -1, "reason": "r"},
     f"a forfeit notice without a seat and a reason of at most {MAX_REASON} characters"),
    ({"k": "forfeit", "seat": 0, "reason": 5},
     f"a forfeit notice without a seat and a reason of at most {MAX_REASON} characters"),
    ({"k": "forfeit", "seat": 0, "reason": "x" * (MAX_REASON + 1)},
     f"a forfeit notice without a seat and a reason of at most {MAX_REASON} characters"),
    ({"k": "forfeit", "seat": 0, "reason": ""}, "a forfeit notice whose reason is not one clean line"),
    ({"k": "forfeit", "seat": 1, "reason": "a\nb"}, "a forfeit notice whose reason is not one clean line"),
    ({"k": "forfeit", "seat": 1, "reason": "ab "}, "a forfeit notice whose reason is not one clean line"),
]


@pytest.mark.parametrize(("msg", "line"), BAD, ids=range(len(BAD)))
def test_a_malformed_message_is_refused_with_its_own_line(msg, line):
    assert refused(msg) == line


def test_game_id_gives_back_the_id_it_checked():
    assert game_id("a-Z_9") == "a-Z_9"


@pytest.mark.parametrize(("obj", "deep"), [
    (5, 1), ([], 1), ({}, 1), ([1, 2], 2), ({"a": 1}, 2), ([[]], 2), ([[1]], 3), ({"a": {"b": [1]}}, 4),
    ([1, [2, [3]]], 4), ({"a": 1, "b": {"c": 1}}, 3),
])
def test_depth_counts_the_levels_of_nesting(obj, deep):
    assert depth(obj) == deep


def test_depth_stops_one_level_past_its_limit():
    deep: list = []
    for _ in range(50):
        deep = [deep]
    assert depth(deep) == wire.MAX_DEPTH + 1
    assert depth(deep, limit=2) == 3
    assert depth([[1], [[[2]]]], limit=10) == 5


def test_depth_keeps_the_siblings_it_has_not_looked_at_yet():
    # the last item is looked at first: a deeper one before it must still be counted
    assert depth([[[[1]]], [1]]) == 5
    assert depth({"a": {"b": {"c": 1}}, "z": {"y": 1}}) == 4


def test_a_peer_s_observation_shows_its_own_rack_and_hides_the_other_s():
    """Match.observation is what the app and a bot see online: its own tiles' faces, none of the other's."""
    seen = []

    def look(ms, text, sender):
        for m in ms:
            if m.public is None:  # before both commitments: no game yet
                continue
            obs, mine = m.observation(), m.mine()
            assert obs.rack[m.me] == mine.rack[m.me]
            assert all(t & 15 == 0 for t in obs.rack[1 - m.me] if t not in obs.public[1 - m.me])
            seen.extend(t for t in obs.rack[m.me] if t & 15)

    play_local("castle", 3, on_message=look)
    assert seen  # the racks held known faces at some point
