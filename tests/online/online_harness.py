"""An in-process two-peer driver for protocol tests (no network)."""
from __future__ import annotations

import random

from toybattle.online.protocol import Match, Secrets, Setup


def play_local(terrain: str, seed: int, first_game: bool = False, choose=None, on_message=None,
               cheat: dict | None = None) -> list[Match]:
    """Two in-process peers play a whole game by exchanging messages directly (no network).
    ``choose(match, rng)`` picks actions (default: random legal); ``on_message(ms, text, sender)``
    sees each message after both accepted it; ``cheat[seat] = f(match, text) -> text`` tampers (its first
    tampered message must make the honest peer raise Forfeit)."""
    setup = Setup(f"local{seed}", terrain, first_game, seed % 2)
    ms = [Match(setup, s, Secrets.generate(f"{seed}/{s}")) for s in (0, 1)]
    rng = random.Random(seed)
    cheat = cheat or {}
    while not ms[0].finished and not ms[1].finished:
        me = next(s for s in (0, 1) if ms[s].my_move())
        action = None
        if ms[me].my_move() == "play":
            action = choose(ms[me], rng) if choose else rng.choice(ms[me].mine().legal_actions())
        text = ms[me].make(action)
        if me in cheat:
            sent = cheat[me](ms[me], text)
            if sent != text:
                ms[1 - me].accept(sent, me)  # the honest peer's checks must raise Forfeit here
                raise AssertionError("a tampered message was accepted")
        for m in ms:
            m.accept(text, me)
        if on_message:
            on_message(ms, text, me)
    return ms
