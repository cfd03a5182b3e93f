"""Why an online game ended (a forfeit's or an abandonment's reason) or stopped (a failed handshake, a
lost connection) reaches a French page in French: each reason has a key in the server's catalogues
(app/data: the ``forfeit.*``, ``wire.*`` and ``online.peer.*``/``online.link.*`` keys) and is said again
at display; what the game stores stays the protocol's English."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from toybattle.app import words
from toybattle.online import session, wire
from toybattle.online.protocol import Forfeit, Match, Secrets, Setup
from toybattle.online.transport import MAX_WIRE

sys.path.insert(0, str(Path(__file__).parent))
from online_cheats import CHEATS
from online_harness import play_local


def _said_in_french(reason: str) -> str:
    """The end screen's sentence for a forfeit by Red, as a French page reads it; English left in it fails."""
    english = f"Blue wins: red forfeits: {reason}."
    french = words.translate(english, "fr")
    assert french.startswith("Bleu gagne : rouge perd par forfait : "), french
    told = french.removeprefix("Bleu gagne : rouge perd par forfait : ")
    assert told != f"{reason}.", f"not in the catalogue: {reason!r}"
    return told


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
    reason = _reason_of(cheat)
    told = _said_in_french(reason)
    said = reason.split()
    runs = {" ".join(said[i:i + 3]) for i in range(len(said) - 2)}
    assert not [r for r in runs if r in told and re.search("[a-z]{3}", r)], (reason, told)  # none left in English


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
               _forfeit_of("x" * 5000, 0)]
    assert _said_in_french(reasons[0]) == "a envoyé un message qui n'est pas du JSON."
    assert _said_in_french(reasons[1]) == "a envoyé le message 1 hors de son tour."
    for reason in reasons[2:]:
        _said_in_french(reason)


def test_a_malformed_wire_messages_reason_and_a_silence_are_said_in_french():
    for bad in ({"k": "nope"}, {"k": "msg", "m": 3}, {"k": "chat", "phrase": "<b>"}, {"k": "msg", "m": "", "x": 1}):
        with pytest.raises(wire.Malformed) as e:
            wire.check(bad)
        told = _said_in_french(f"sent a malformed message ({e.value})")  # the session's forfeit for it
        assert told.startswith("a envoyé un message mal formé (") and str(e.value) not in told, told
    assert _said_in_french(f"sent a malformed message (a message over {MAX_WIRE} bytes)") == \
        f"a envoyé un message mal formé (un message de plus de {MAX_WIRE} octets)."
    setup = Setup("g", "castle", False, 0)
    m = Match(setup, 0, Secrets.generate("a"))
    m.claim(1, "silent for 90 s while its move was due")  # as the session words it when this side claims
    detail = m.result()["detail"]
    assert words.translate(f"Blue wins: {detail}.", "fr") == \
        "Bleu gagne : rouge a abandonné la partie : silencieux pendant 90 s alors que son coup était attendu."


def test_the_view_says_it_in_french_and_the_record_keeps_english():
    view = {"result": "Blue wins: red forfeits: its 24 committed tiles are not a true army (3 of each troop).",
            "prompt": "red forfeits: its 24 committed tiles are not a true army (3 of each troop).",
            "game": {"forfeit": "red forfeits: its 24 committed tiles are not a true army (3 of each troop)"}}
    french = words.localize(view, "fr")
    assert french["result"] == ("Bleu gagne : rouge perd par forfait : ses 24 tuiles engagées ne forment pas "
                                "une vraie armée (3 de chaque troupe).")
    assert french["prompt"].startswith("rouge perd par forfait : ses 24 tuiles engagées")
    assert words.localize(view, "en") == view  # English pages, and what is stored, keep the protocol's words


def _session_error(call, *args) -> str:
    with pytest.raises(session.SessionError) as e:
        call(*args)
    return str(e.value)


def test_why_an_online_game_stopped_is_said_in_french():
    """The one line the page shows where an online game stopped (a handshake that failed, a lost
    connection, a notice not believed): each from the session's own code where it can be raised here."""
    lines = [_session_error(session._check_resume, None, "abc"), _session_error(session._check_resume, "abc", None),
             _session_error(session._check_resume, "abc", "def"), _session_error(session._setup_from, None),
             _session_error(session._setup_from, {"game": "g", "terrain": "moon", "first_game": False,
                                                   "host_seat": 0})]
    lines += ["the other player sent a malformed message (a message of an unknown kind)",
              "the other player sent 'msg' where this program expected 'hello'",
              "the connection closed before the game began (x)", "nobody joined room 7-a-b within 60 s",
              "nobody is waiting in room 7-a-b (a wrong or expired code?)",
              "no room 7-a-b is open (a wrong or expired code?)",
              "cannot reach the mailbox at ws://127.0.0.1:4000/v1", "the mailbox at ws://h:1/v1 refused us: full",
              "the other player's toybattle speaks online protocol 1.1, this one speaks 2.2: both need the same "
              "version",
              "the other player stopped, saying blue broke a rule (opened a tile nobody asked for); not believed: this "
              "program's own check of every message it sent finds no fault",
              "the connection closed (lost); game abc is saved after message 12",
              "the mailbox at wss://h/v1 no longer holds this room (it forgets a room left alone for about ten "
              "minutes); resume game abc with a new code",
              "this page is served over https, so its mailbox must be a wss:// address, not ws://h:1/v1",
              "the connection closed (the mailbox at wss://h/v1 refused: crowded)",
              "game abc has no room to come back to: resume it with a new code"]
    for line in lines:
        french = words.translate(line, "fr")
        said = line.split()
        runs = {" ".join(said[i:i + 3]) for i in range(len(said) - 2)}
        english = [r for r in runs if r in french and re.fullmatch(r"[a-z]+ [a-z]+ [a-z]+", r)]  # words, not code
        assert french != line and not english, (line, french)
