"""Why an online game ended (a forfeit's or an abandonment's reason) or stopped (a failed handshake, a
lost connection) reaches a French page in French: each reason is a message (toybattle.said: an id of the
``forfeit.*``, ``wire.*``, ``online.peer.*``/``online.link.*`` families and its arguments), said in the
page's language where it is shown (issue 27: never parsed back from English). The games file keeps the
English line and, beside it, the reason's id and arguments; a peer's own words stay as they came."""
from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from toybattle.online import game, persist, wire
from toybattle.online.protocol import Forfeit, Match, Secrets, Setup
from toybattle.online.transport import MAX_WIRE, Garbled, parse
from toybattle.said import Said, say
from toybattle.store import Store

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1] / "app"))
from french import english_in, untranslated
from online_cheats import CHEATS
from online_harness import play_local


def _said_in_french(reason: str) -> str:
    """The end screen's sentence for a forfeit by Red, as a French page reads it; English left in it fails."""
    assert isinstance(reason, Said), f"not a message: {reason!r}"
    end = Said("end.wins", seat="Blue", how=Said("online.forfeits", seat="red", why=reason))
    french = say(end, "fr")
    assert french.startswith("Bleu gagne : rouge perd par forfait : "), french
    assert not untranslated(end) and not english_in(french), (end, french)
    return french.removeprefix("Bleu gagne : rouge perd par forfait : ")


def _reason_of(cheat: str) -> str:
    terrain = "battlefield" if cheat == "laid_play" else "castle"
    for seed in range(60):
        try:
            play_local(terrain, seed, cheat={1: CHEATS[cheat]})
        except Forfeit as f:
            return f.reason
    pytest.fail(f"the {cheat} cheat never came up in 60 games")


@pytest.mark.parametrize("cheat", sorted(CHEATS))
def test_each_cheats_reason_is_said_in_french(cheat):
    _said_in_french(_reason_of(cheat))


def _forfeit_of(text: str, sender: int) -> str:
    setup = Setup("g", "castle", False, 0)
    with pytest.raises(Forfeit) as e:
        Match(setup, 1, Secrets.generate("b")).accept(text, sender)
    return e.value.reason


def test_a_bad_messages_reason_is_said_in_french():
    setup = Setup("g", "castle", False, 0)
    commit = Match(setup, 0, Secrets.generate("a")).make()
    padded = json.dumps({**json.loads(commit), "pad": "z"}, sort_keys=True, separators=(",", ":"))
    reasons = [_forfeit_of("not json", 0), _forfeit_of("{}", 1), _forfeit_of("[]", 0), _forfeit_of(padded, 0),
               _forfeit_of("x" * 5000, 0), _forfeit_of("[" * 40 + "]" * 40, 0)]
    assert _said_in_french(reasons[0]) == "a envoyé un message qui n'est pas du JSON."
    assert _said_in_french(reasons[1]) == "a envoyé le message 1 hors de son tour."
    for reason in reasons[2:]:
        _said_in_french(reason)


def test_a_malformed_wire_messages_reason_and_a_silence_are_said_in_french():
    for bad in ({"k": "nope"}, {"k": "msg", "m": 3}, {"k": "chat", "phrase": "<b>"}, {"k": "msg", "m": "", "x": 1},
                {"k": "forfeit", "seat": 1, "reason": "two\nlines"}, {"k": "hello", "resume": None, "setup": 3}):
        with pytest.raises(wire.Malformed) as e:
            wire.check(bad)
        said = Said("forfeit.malformed", error=e.value.args[0])  # the session's forfeit for it
        told = _said_in_french(said)
        assert told.startswith("a envoyé un message mal formé (") and str(e.value) not in told, told
    with pytest.raises(Garbled) as g:
        parse(b"x" * (MAX_WIRE + 1))
    what = dict(g.value.args[0].args)["what"]  # as the session passes it on (game.py: Garbled -> Malformed)
    assert _said_in_french(Said("forfeit.malformed", error=what)) == \
        f"a envoyé un message mal formé (un message de plus de {MAX_WIRE} octets)."
    setup = Setup("g", "castle", False, 0)
    m = Match(setup, 0, Secrets.generate("a"))
    m.claim(1, Said("forfeit.silent", limit="90", due=Said("forfeit.due.move")))  # as the session claims
    detail = m.result()["detail"]
    assert say(Said("end.wins", seat="Blue", how=detail), "fr") == \
        "Bleu gagne : rouge a abandonné la partie : silencieux pendant 90 s alors que son coup était attendu"


def test_a_peers_own_words_are_shown_as_they_came():
    """A forfeit notice's reason is the other program's text: never looked up, shown as its words."""
    setup = Setup("g", "castle", False, 0)
    m = Match(setup, 0, Secrets.generate("a"))
    m.forfeit = Forfeit(1, "I give up, sorry")
    line = m.result()["detail"]
    assert say(line, "fr") == "rouge perd par forfait : I give up, sorry"


def test_the_games_file_keeps_the_english_line_and_the_reasons_id(tmp_path):
    """What is stored: the English line (as every older reader shows it) and the reason's id and arguments,
    so a game read back says its reason in any language; an older row's English stays as it is."""
    reason = _reason_of("forged_draw")
    setup = Setup("g", "castle", False, 0)
    m = Match(setup, 0, Secrets.generate("a"))
    m.forfeit = Forfeit(1, reason)
    store = Store(str(tmp_path / "games.sqlite"))
    try:
        asyncio.run(persist.save(store, m, "online-abc", "ws://relay"))
        row = store.get("online-abc")
        assert row.reason == f"red forfeits: {reason}" and row.meta["online"]["said"] == reason.to_json()
        back, _, _ = persist.replay(row, finished=True)
        assert back.forfeit.reason.to_json() == reason.to_json()
        assert say(back.result()["detail"], "fr").startswith("rouge perd par forfait : ")
        old = row.__class__(**{**vars(row), "meta": {**row.meta, "online": {**row.meta["online"], "said": None}}})
        before_ids, _, _ = persist.replay(old, finished=True)  # a row stored before ids: its English, as it was
        assert before_ids.forfeit.reason == reason and not isinstance(before_ids.forfeit.reason, Said)
    finally:
        store.close()


def _session_error(call, *args) -> str:
    with pytest.raises(game.SessionError) as e:
        call(*args)
    return e.value.args[0]


def test_why_an_online_game_stopped_is_said_in_french():
    """The one line the page shows where an online game stopped (a handshake that failed, a lost
    connection): from the session's own code where it can be raised here, else as the code makes it."""
    lines = [_session_error(game._check_resume, None, "abc"), _session_error(game._check_resume, "abc", None),
             _session_error(game._check_resume, "abc", "def"), _session_error(game._setup_from, None),
             _session_error(game._setup_from, {"game": "g", "terrain": "moon", "first_game": False,
                                                   "host_seat": 0})]
    lines += [Said("online.peer.malformed", error=Said("wire.unknownKind")),
              Said("online.peer.unexpected", kind="msg", kind2="hello"),
              Said("online.link.nobodyJoined", code="7-a-b", limit="60"),
              Said("online.link.nobodyWaiting", code="7-a-b"), Said("online.link.noRoom", code="7-a-b"),
              Said("online.link.unreachable", relay="ws://127.0.0.1:4000/v1"),
              Said("online.link.refused", relay="ws://h:1/v1", error="full"),
              Said("online.link.protocol", theirs="1.1", ours="2.2"),
              Said("online.lost", why=Said("online.link.closed", error=Said("online.link.mailboxClosed")), game="abc",
                   n=12),
              Said("online.link.goneResume", why=Said("online.link.gone", relay="wss://h/v1"), game="abc"),
              Said("online.link.https", url="ws://h:1/v1"),
              Said("online.link.closed", error=Said("online.link.mailboxRefused", relay="wss://h/v1", error="crowded")),
              Said("online.link.noRoomToRejoin", game="abc"), Said("error.connectionClosed"), Said("error.youClosed")]
    for line in lines:
        assert isinstance(line, Said), line
        french = say(line, "fr")
        assert not untranslated(line) and not english_in(french), (line, french)
