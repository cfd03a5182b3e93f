"""Why one action is better than another, in the game's own terms, as messages (``Said``: an id of the
catalogues of toybattle.said and its arguments): what the better action changes that the played one does not,
on the table the deciding seat sees.

Both actions are played on the seat's observation and their turns finished the way the engine would finish them
(the planning beam, chance by its most likely outcome): a Cap'n's extra tile or a tower's recall counts with the
placement that opened it. Then the two ends of turn are compared on what decides games: a win at once, a path to
an H.Q., medals taken or kept from the opponent, connections to special bases, H.Q. distance.

Arguments (said as toybattle.said says each kind): ``seat`` is a seat's word (``"Blue"``, ``"Red"``), ``node``
and ``region`` are the terrain's printed ids, ``troop`` a troop number (1-7, 8 Kwak), ``power`` a special base's
power name (rules/data/powers.json), ``n`` a count (its entry holds plural forms, chosen by the language's rule).
A kept review stores each message with ``Said.to_json`` and reads it back with ``stored``.
"""
from __future__ import annotations

import random
from typing import Any

from ..bots import evaluate as E
from ..bots import heuristic as H
from ..bots.beam import TurnBeam
from ..rules import State
from ..rules import actions as A
from ..rules.state import nodes_in
from ..said import Said

MOST = 3  # reasons kept: the most telling first


SEAT_WORDS = ("Blue", "Red")  # a seat as its message argument: the word said for it (seat.Blue, seat.Red)


def stored(raw: Any) -> Said:
    """A reason or hint kept as ``Said.to_json`` back; one kept before the review spoke through toybattle.said
    (its seat a number) is read too. ValueError if ``raw`` is not a message of the catalogues."""
    if isinstance(raw, dict) and isinstance(raw.get("args"), dict) and raw["args"].get("seat") in (0, 1) \
            and not isinstance(raw["args"]["seat"], bool):
        raw = {**raw, "args": {**raw["args"], "seat": SEAT_WORDS[raw["args"]["seat"]]}}
    return Said.from_json(raw)


def end_of_turn(obs: State, action: int, seed: int = 0) -> State:
    """The seat's turn after ``action`` on its observation, finished as the engine's beam would finish it."""
    seat = obs.actor
    s = obs.copy()
    s.apply_unchecked(action)
    E.settle(s)
    if not s.over and s.actor == seat:
        w = E.weights(E.EXPERT_FILE).per_terrain[s.b.terrain.id]
        s = TurnBeam(seat, w, 6, random.Random(seed)).best(s)
    return s


def reasons(obs: State, better: int, played: int, most: int = MOST) -> list[Said]:
    """Why ``better`` beats ``played`` for the seat deciding in ``obs`` (its observation): at most ``most``
    messages, the most telling first; never empty (the engine's verdict when nothing on the table tells)."""
    seat = obs.actor
    tb, tp = end_of_turn(obs, better), end_of_turn(obs, played)
    out = compare(obs, tb, tp, seat, better, played)
    return out[:most] or [Said("review.why.engine")]


def compare(s: State, tb: State, tp: State, seat: int, better: int = -1, played: int = -1) -> list[Said]:
    """What ``tb`` (after the better action) holds for ``seat`` that ``tp`` (after the played one) does not,
    both reached from ``s``, in order of weight."""
    enemy = 1 - seat
    out: list[Said] = []
    if tb.over and tb.winner == seat and not (tp.over and tp.winner == seat):
        return [Said("review.why.winsHQ" if tb.reason == "hq" else "review.why.winsMedals")]
    if tp.over and tp.winner == enemy and not tb.over:
        out.append(Said("review.why.avoidsLoss", seat=SEAT_WORDS[enemy]))
    live_b, live_p = not tb.over, not tp.over
    if live_b and live_p and H.threatens(tp, enemy) and not H.threatens(tb, enemy):
        out.append(Said("review.why.blocksHQ", seat=SEAT_WORDS[enemy]))
    b = s.b
    # medals: the regions the better action takes that the played one does not
    for k, who in enumerate(tb.claimed):
        if who == seat and tp.claimed[k] != seat and s.claimed[k] < 0:
            rid, medals = b.terrain.regions[k].id, b.regions[k][1]
            if tb.medals(seat) >= b.objective[seat]:
                out.append(Said("review.why.objective", region=rid, n=medals))
            else:
                out.append(Said("review.why.takesRegion", region=rid, n=medals, total=tb.medals(seat),
                                                               objective=b.objective[seat]))
    for k, who in enumerate(tp.claimed):
        if who == enemy and tb.claimed[k] != enemy and s.claimed[k] < 0:
            out.append(Said("review.why.givesRegion", seat=SEAT_WORDS[enemy], region=b.terrain.regions[k].id,
                                                          n=b.regions[k][1]))
    spoilt = _near(tp, enemy) - _near(tb, enemy)
    for k in sorted(spoilt, key=lambda k: -b.regions[k][1])[:1]:
        out.append(Said("review.why.keepsRegion", seat=SEAT_WORDS[enemy], region=b.terrain.regions[k].id,
                                                      n=b.regions[k][1]))
    # connections: the special bases (and bases) the enemy is cut off from, or this seat is joined to
    if live_b and live_p:
        special = sum(1 << i for i in b.bases if b.power[i] is not None)
        cut = tp.connected(enemy) & ~tb.connected(enemy) & b.base_mask
        for i in nodes_in(cut & special)[:1]:
            out.append(Said("review.why.cutsOffBase", seat=SEAT_WORDS[enemy], node=b.ids[i], power=str(b.power[i])))
        if not cut & special and len(nodes_in(cut)) >= 2:
            out.append(Said("review.why.cutsOff", seat=SEAT_WORDS[enemy], n=len(nodes_in(cut))))
        d_b, d_p = H.hq_distance(tb, seat), H.hq_distance(tp, seat)
        if d_b < d_p and d_b == 1:
            out.append(Said("review.why.threatensHQ"))
        elif d_b < d_p and d_b < H.FAR:
            out.append(Said("review.why.closerHQ", n=d_b))
        e_b, e_p = H.hq_distance(tb, enemy), H.hq_distance(tp, enemy)
        if e_b > e_p:
            out.append(Said("review.why.cutsOffHQ", seat=SEAT_WORDS[enemy]) if e_b >= H.FAR else
                       Said("review.why.pushesBack", seat=SEAT_WORDS[enemy], n=e_b))
        joined = tb.connected(seat) & ~tp.connected(seat) & special
        for i in nodes_in(joined)[:1]:
            out.append(Said("review.why.connectsBase", node=b.ids[i], power=str(b.power[i])))
    for k in sorted(_near(tb, seat) - _near(tp, seat), key=lambda k: -b.regions[k][1])[:1]:
        out.append(Said("review.why.nearRegion", region=b.terrain.regions[k].id, n=b.regions[k][1]))
    if A.PLACE <= better < A.PLACE_END:
        i = better & 31
        top = s.top(i)
        if top >= 0 and top >> 4 == enemy and not (A.PLACE <= played < A.PLACE_END and played & 31 == i):
            out.append(Said("review.why.covers", troop=top & 15, node=b.ids[i]))
    if better == A.DRAW and played != A.DRAW:
        out.append(Said("review.why.draws"))
    return out


def _near(s: State, seat: int) -> set[int]:
    """Open regions with medals where ``seat`` tops every base but one and the other side tops none."""
    b = s.b
    own, other = s.owned[seat] & b.base_mask, s.owned[1 - seat] & b.base_mask
    out = set()
    for k, mask in enumerate(b.region_mask):
        if s.claimed[k] < 0 and b.regions[k][1] and not other & mask and (mask & ~own).bit_count() == 1:
            out.add(k)
    return out


__all__ = ["SEAT_WORDS", "compare", "end_of_turn", "reasons", "stored"]
