"""Test-only tampering: each cheat takes (match, honest message text) and returns the text a
cheating peer sends instead (unchanged when the cheat does not apply at that moment)."""
from __future__ import annotations

import hashlib
import json

from toybattle.online.protocol import LAID, RACK, SLOTS, UNDRAWN, encode
from toybattle.rules import action_text
from toybattle.rules import actions as A


def forged_draw(match, text):
    """Reveal a random value of its own choosing (to steer which slots it draws)."""
    msg = json.loads(text)
    if msg["t"] == "act" and "r" in msg and any(z == UNDRAWN for z in match.zone[match.me]):
        msg["r"] = hashlib.sha256(b"a draw I like" + msg["r"].encode()).hexdigest()
    return encode(msg)


def xb_lie(match, text):
    """As XB-42's victim, give up a different rack tile than the jointly random one."""
    msg = json.loads(text)
    if msg["t"] == "rand" and "open" in msg:
        k, troop = msg["open"][0], msg["open"][1]
        others = [j for j in range(SLOTS) if match.zone[match.me][j] in (RACK, LAID) and j != k]
        cheaper = sorted(others, key=lambda j: (match.secrets.troops[j] == troop, match.secrets.troops[j]))
        if cheaper:
            msg["open"] = match.secrets.opening(cheaper[0])
        else:
            msg["open"][1] = 1 if troop != 1 else 2
    return encode(msg)


def laid_play(match, text):
    """Play the tile a Battlefield tank laid face down, as if the pick had taken another."""
    msg = json.loads(text)
    laid = [k for k in range(SLOTS) if match.zone[match.me][k] == LAID]
    if msg["t"] != "act" or not laid:
        return text
    k = laid[0]
    troop = match.secrets.troops[k]
    alt = match.mine()
    if (match.me << 4 | troop) in match.public.rack[match.me]:
        return text
    me_tile = match.me << 4 | troop
    alt.laid[match.me].remove(me_tile)
    alt.rack[match.me] = sorted(alt.rack[match.me] + [me_tile])
    places = [a for a in alt.legal_actions() if A.PLACE <= a < A.PLACE_END and (a - A.PLACE) >> 5 == troop]
    if not places:
        return text
    return encode({"n": msg["n"], "prev": msg["prev"], "by": msg["by"], "t": "act",
                   "a": action_text(places[0], alt.b), "open": match.secrets.opening(k)})


def never_drawn(match, text):
    """Place a tile from a slot that was never drawn (its face is right, its slot is not)."""
    msg = json.loads(text)
    if msg["t"] == "act" and "open" in msg:
        troop = msg["open"][1]
        fresh = [j for j in range(SLOTS) if match.zone[match.me][j] == UNDRAWN and match.secrets.troops[j] == troop]
        if fresh:
            msg["open"] = match.secrets.opening(fresh[0])
    return encode(msg)


def altered_past(match, text):
    """After 20 messages, go on from a rewritten history (its chain head differs)."""
    msg = json.loads(text)
    if len(match.log) >= 20:
        msg["prev"] = hashlib.sha256((match.log[-1].replace('"a":"draw"', '"a":"skip"') + " ").encode()).hexdigest()
    return encode(msg)


def refuse_open(match, text):
    """At the end, refuse to open its commitments."""
    msg = json.loads(text)
    if msg["t"] == "open":
        return encode({"n": msg["n"], "prev": msg["prev"], "by": msg["by"], "t": "refuse"})
    return text


def false_stuck(match, text):
    """Claim to be stuck (showing its rack) while it can still play."""
    msg = json.loads(text)
    if msg["t"] == "act" and match.public.reserve[match.me] == [] and any(z == RACK for z in match.zone[match.me]):
        return encode({"n": msg["n"], "prev": msg["prev"], "by": msg["by"], "t": "stuck",
                       "open": [match.secrets.opening(k) for k in range(SLOTS) if match.zone[match.me][k] == RACK]})
    return text


CHEATS = {f.__name__: f for f in (forged_draw, xb_lie, laid_play, never_drawn, altered_past, refuse_open,
                                   false_stuck)}
