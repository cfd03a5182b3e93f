"""Issue 26 item 5: the old ``words.translate`` kept every text it was ever asked for, and peer text reached
it (an echoed message type, a refusal quoting what a page sent): 3,000 lines made 6,002 entries, 20,000
lines 70 MB. Since issue 27 nothing is translated from its text: a message is said from its id and
arguments, and nothing is kept per text, however many distinct lines a peer sends."""
from __future__ import annotations

import tracemalloc

from toybattle.app import words
from toybattle.said import Said


def test_saying_20000_distinct_peer_lines_keeps_nothing():
    words.say(Said("error.unknownType", what="'warm up'", types="hello"), "fr")
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for n in range(20_000):
            said = Said("error.unknownType", what=f"'peer line {n}'", types="hello, act, undo, concede, rematch")
            assert words.say(said, "fr").startswith("type de message inconnu")
            assert words.say(f"see you at {n}, nice game!", "fr") == f"see you at {n}, nice game!"
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 200_000, f"20,000 lines left {grown} bytes behind"


def test_long_peer_texts_do_not_pile_up_in_memory():
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for n in range(1_000):
            words.say(Said("online.peer.malformed", error=f"{n} " + "x" * 2_000), "fr")
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 500_000, f"1,000 long lines left {grown} bytes behind"
