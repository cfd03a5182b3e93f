"""What a seat is shown: everything derived from that seat's observation State.

``seat_view(obs, seat, ...)`` builds the one message body a browser seat ever
receives about the game; ``log_lines(before, action, after, viewer)`` writes
the game log as one seat may read it, from two observations of that seat.
Both take observation States (``toybattle.rules.observation``), so they serve
the app's local sessions and online peers alike, and they cannot show a tile
the seat may not know: the data simply is not there.

Every text for the player is a Said (a message id and its arguments, toybattle.said): as a str it
reads as English; the app says it in the page's language where it sends the view (app/words.py).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from toybattle.rules import SEATS, State
from toybattle.rules import actions as A
from toybattle.rules.state import (
    DECISION_NAMES,
    EXTRA,
    JUMBO_TARGET,
    LAY_PICK,
    LAY_USE,
    RAINBOW_DRAW,
    RECALL,
    RECOVER,
    SHOVE,
    SKULLY_DRAW,
    STAR_DRAW,
    TURN,
    XB_PICK,
    XB_USE,
)
from toybattle.rules.troops import CAPN, JUMBO, RACK_LIMIT, SET_ASIDE, SKULLY, STAR, XB42, code, name
from toybattle.said import Said, joined

__all__ = ["Said", "how_won", "log_lines", "name", "prompt", "result_text", "seat_view"]


def tile_json(t: int) -> list[str]:
    """A tile as ["blue"|"red", troop code]."""
    return [SEATS[t >> 4], code(t & 15)]


def _who(seat: int) -> str:
    return SEATS[seat].capitalize()


def _node_words(s: State, i: int) -> Said:
    node = s.b.terrain.nodes[i]
    return Said("where.hq", seat=SEATS[node.side]) if node.side is not None else Said("where.base", n=node.id)


def _tiles(n: int, troops: list[int]) -> Said:
    """``n`` tiles, and which troops when they are known ("2 tiles (Skully and Star)")."""
    return Said("count.tilesSeen", n=n, troops=tuple(sorted(troops))) if troops else Said("count.tiles", n=n)


def _drawn(before: State, after: State, seat: int) -> list[int]:
    """Troops that arrived on ``seat``'s rack (known only if ``seat``'s own tiles are known here)."""
    new = Counter(t & 15 for t in after.rack[seat] + after.laid[seat])
    new.subtract(t & 15 for t in before.rack[seat] + before.laid[seat])
    return [t for t, n in new.items() for _ in range(n) if t and n > 0]


def how_won(s: State, capital: bool = False) -> str:
    """How the game was won, without who ("captured the enemy H.Q."; ``capital``: as a sentence's
    start, "Captured the enemy H.Q."); empty while it goes on."""
    if not s.over or s.winner < 0:
        return ""
    if s.reason == "stuck":  # the seat to play could not act; the medals decide, a tie against that seat
        m = s.medals(s.winner), s.medals(1 - s.winner)
        seat = _who(s.turn) if capital else SEATS[s.turn]
        return Said("how.stuckTie" if m[0] == m[1] else "how.stuck", seat=seat, n=m[0], m=m[1])
    if s.reason in ("conceded", "time"):  # the loser's doing: conceded, or its clock ran out
        return Said(f"how.{s.reason}", seat=_who(1 - s.winner) if capital else SEATS[1 - s.winner])
    if s.reason in ("hq", "medals"):
        return Said(f"how.{s.reason.capitalize() if capital else s.reason}")
    return s.reason


def result_text(s: State, you: bool = False) -> str:
    """How the game ended; ``you``: addressed to the winner ("You win: ...")."""
    how = how_won(s)
    if not how:
        return ""
    return Said("end.youWin", how=how) if you else Said("end.wins", seat=_who(s.winner), how=how)


def log_lines(before: State, action: int, after: State, viewer: int) -> list[dict[str, Any]]:
    """The log lines ``viewer`` reads for ``action`` (played from ``before`` to ``after``).

    ``before`` and ``after`` must be ``viewer``'s observations: the texts are written from them
    alone, so a tile the viewer may not know cannot appear (a tank's blind pick stays blind).
    A line whose subject is the viewer also carries ``you``: the same line addressed to the viewer."""
    b = before.b
    actor = before.turn
    who = _who(actor)
    d = before.decision
    fx: dict[str, Any] = {}
    text: str = ""
    you: str = ""
    n_drawn = after.hand_size(actor) - before.hand_size(actor)
    drawn = _drawn(before, after, actor) if actor == viewer else []
    if action == A.DRAW:
        text, you = Said("log.draws", seat=who, tiles=_tiles(n_drawn, drawn)), \
            Said("log.youDraw", tiles=_tiles(n_drawn, drawn))
    elif A.PLACE <= action < A.PLACE_END:
        troop, i = (action - A.PLACE) >> 5, action & 31
        under = before.top(i)
        if under >= 0:
            text = Said("log.placesCover", seat=who, troop=troop, where=_node_words(before, i), seat2=SEATS[under >> 4],
                        troop2=under & 15)
            you = Said("log.youPlaceCover", troop=troop, where=_node_words(before, i), seat2=SEATS[under >> 4],
                       troop2=under & 15)
        else:
            text, you = Said("log.places", seat=who, troop=troop, where=_node_words(before, i)), \
                Said("log.youPlace", troop=troop, where=_node_words(before, i))
        fx = {"place": b.ids[i]}
    elif action == A.USE:
        if d in (SKULLY_DRAW, STAR_DRAW, RAINBOW_DRAW):
            what = {SKULLY_DRAW: Said(f"troop.{SKULLY}"), STAR_DRAW: Said(f"troop.{STAR}"),
                    RAINBOW_DRAW: Said("power.draw")}[d]
            text = Said("log.uses", seat=who, what=what, tiles=_tiles(n_drawn, drawn))
            you = Said("log.youUse", what=what, tiles=_tiles(n_drawn, drawn))
        elif d == XB_USE:
            text = Said("log.usesXb", seat=who, seat2=_who(1 - actor))
            you = Said("log.youUseXb", seat2=_who(1 - actor))
        elif d == LAY_USE:
            text, you = Said("log.usesTank", seat=who, n=b.ids[before.dnode]), \
                Said("log.youUseTank", n=b.ids[before.dnode])
    elif action == A.SKIP:
        text, you = Said("log.skips", seat=who, what=_skipped(before)), Said("log.youSkip", what=_skipped(before))
    elif A.PICK <= action < A.PICK_END:
        victim = 1 - actor
        if d == XB_PICK:
            t = after.discard[-1]
            text = Said("log.xbDiscards", seat=SEATS[victim], troop=t & 15, seat2=_who(victim))
            fx = {"discard": tile_json(t)}
        elif d == LAY_PICK:
            laid = _laid(before, after, victim) if victim == viewer else []
            text = Said("log.tankYours", troop=laid[0], seat=SEATS[victim]) if laid else \
                Said("log.tankOne", seat=SEATS[victim], seat2=SEATS[victim])
    elif A.JUMBO <= action < A.JUMBO_END:
        i = action - A.JUMBO
        t = before.top(i)
        text = Said("log.jumbo", troop=JUMBO, seat=SEATS[t >> 4], troop2=t & 15, n=b.ids[i])
        fx = {"remove": b.ids[i]}
    elif A.RECALL <= action < A.RECALL_END:
        i = action - A.RECALL
        text, you = Said("log.takesBack", seat=who, troop=before.top(i) & 15, n=b.ids[i]), \
            Said("log.youTakeBack", troop=before.top(i) & 15, n=b.ids[i])
        fx = {"remove": b.ids[i]}
    elif A.SHOVE <= action < A.SHOVE_END:
        i, j = ((action - A.SHOVE) >> 5) & 31, action & 31
        t = before.top(i)
        text, you = Said("log.moves", seat=who, seat2=SEATS[t >> 4], troop=t & 15, n=b.ids[i], m=b.ids[j]), \
            Said("log.youMove", seat2=SEATS[t >> 4], troop=t & 15, n=b.ids[i], m=b.ids[j])
        fx = {"move": [b.ids[i], b.ids[j]]}
    elif A.RECOVER <= action < A.RECOVER_END:
        text, you = Said("log.recovers", seat=who, troop=action - A.RECOVER), \
            Said("log.youRecover", troop=action - A.RECOVER)
    if d == XB_PICK and viewer == 1 - actor and text:  # the victim reads of its own rack
        you = Said("log.xbDiscardsYours", troop=after.discard[-1] & 15)
    out = [_line(after.ply, actor, viewer, text, you, fx, _brief(before, action, after, viewer))] if text else []
    for k, (was, now) in enumerate(zip(before.claimed, after.claimed, strict=True)):
        if was < 0 <= now:
            r = b.terrain.regions[k]
            medals = Said("count.medals", n=r.medals)
            out.append(_line(after.ply, now, viewer, Said("log.region", seat=_who(now), n=r.id, medals=medals),
                             Said("log.youRegion", n=r.id, medals=medals), {"region": r.id},
                             Said("brief.region", n=r.id, medals=medals)))
    if after.over and not before.over:
        over = _line(after.ply, after.winner, viewer, result_text(after), result_text(after, you=True), {"over": True})
        if after.reason == "hq" and A.PLACE <= action < A.PLACE_END:
            over["decider"] = _hq_taken(before, action, viewer)
        elif after.reason == "medals":
            over["decider"] = _objective_reached(before, after, viewer)
        out.append(over)
    return out


def _line(n: int, seat: int, viewer: int, text: str, you: str, fx: dict[str, Any], brief: str = "") -> dict[str, Any]:
    """A log entry about ``seat``; ``you`` (the line addressed to the viewer) only on the viewer's own log;
    ``brief``: the short words of the narration of a turn, as the viewer reads it."""
    line: dict[str, Any] = {"n": n, "seat": SEATS[seat], "text": text, "fx": fx}
    if you and (seat == viewer or "your" in you):
        line["you"] = you
    if brief:
        line["brief"] = brief
    return line


def _short_node(s: State, i: int, viewer: int) -> Said | int:
    """A node in the narration: its number, or whose H.Q. it is."""
    node = s.b.terrain.nodes[i]
    if node.side is None:
        return node.id
    return Said("where.yourHq") if node.side == viewer else Said("where.hq", seat=_who(node.side))


def _brief(before: State, action: int, after: State, viewer: int) -> str:
    """The action in a few words for ``viewer`` ("Star on 18, covering your Kwak", "drew 1"), from the
    viewer's own observations."""
    b, actor, d = before.b, before.turn, before.decision
    n_drawn = after.hand_size(actor) - before.hand_size(actor)
    if action == A.DRAW or (action == A.USE and d in (SKULLY_DRAW, STAR_DRAW, RAINBOW_DRAW)):
        return Said("brief.drew", n=n_drawn)
    if A.PLACE <= action < A.PLACE_END:
        troop, i = (action - A.PLACE) >> 5, action & 31
        under = before.top(i)
        where = _short_node(before, i, viewer)
        if under < 0:
            return Said("brief.on", troop=troop, where=where)
        if under >> 4 == actor != viewer:
            return Said("brief.onCoverOwn", troop=troop, where=where, troop2=under & 15)
        if under >> 4 == viewer:
            return Said("brief.onCoverYours", troop=troop, where=where, troop2=under & 15)
        return Said("brief.onCover", troop=troop, where=where, seat=SEATS[under >> 4], troop2=under & 15)
    if A.JUMBO <= action < A.JUMBO_END:
        t = before.top(action - A.JUMBO)
        n = b.ids[action - A.JUMBO]
        return Said("brief.jumboYours", troop=JUMBO, troop2=t & 15, n=n) if t >> 4 == viewer else \
            Said("brief.jumbo", troop=JUMBO, seat=SEATS[t >> 4], troop2=t & 15, n=n)
    if A.RECALL <= action < A.RECALL_END:
        return Said("brief.tookBack", troop=before.top(action - A.RECALL) & 15, n=b.ids[action - A.RECALL])
    if A.SHOVE <= action < A.SHOVE_END:
        i, j = ((action - A.SHOVE) >> 5) & 31, action & 31
        t = before.top(i)
        return Said("brief.movedYours", troop=t & 15, n=b.ids[i], m=b.ids[j]) if t >> 4 == viewer else \
            Said("brief.moved", seat=SEATS[t >> 4], troop=t & 15, n=b.ids[i], m=b.ids[j])
    if A.RECOVER <= action < A.RECOVER_END:
        return Said("brief.recovered", troop=action - A.RECOVER)
    if action == A.SKIP:
        return Said("brief.skipped", what=_skipped(before))
    if action == A.USE and d == XB_USE:
        return Said("brief.xbYours") if 1 - actor == viewer else Said("brief.xb", seat=SEATS[1 - actor])
    if action == A.USE and d == LAY_USE:
        return Said("brief.tank", n=b.ids[before.dnode])
    if A.PICK <= action < A.PICK_END and d == XB_PICK:
        t = after.discard[-1]
        return Said("brief.xbDiscardedYours", troop=t & 15) if t >> 4 == viewer else \
            Said("brief.xbDiscarded", seat=SEATS[t >> 4], troop=t & 15)
    if A.PICK <= action < A.PICK_END and d == LAY_PICK:
        return Said("brief.tankLaid")
    return ""


def _hq_taken(before: State, action: int, viewer: int) -> dict[str, Any]:
    """The move that took an H.Q.: which troop, onto which H.Q., from which base of the taker's chain."""
    troop, i = (action - A.PLACE) >> 5, action & 31
    actor, b = before.turn, before.b
    chain = before.connected(actor)
    via = [j for j in b.neighbours[i] if chain >> j & 1]
    where = _short_node(before, i, viewer)
    if via:
        text = Said("decider.yoursFrom", troop=troop, where=where, n=b.ids[via[0]]) if actor == viewer else \
            Said("decider.from", seat=_who(actor), troop=troop, where=where, n=b.ids[via[0]])
    else:
        text = Said("decider.yoursTook", troop=troop, where=where) if actor == viewer else \
            Said("decider.took", seat=_who(actor), troop=troop, where=where)
    return {"text": text, "nodes": [b.ids[i]] + ([b.ids[via[0]]] if via else [])}


def _objective_reached(before: State, after: State, viewer: int) -> dict[str, Any]:
    """The region whose medals reached the winner's objective."""
    b, w = after.b, after.winner
    took = [b.terrain.regions[k] for k, (x, y) in enumerate(zip(before.claimed, after.claimed, strict=True))
            if x < 0 <= y and y == w]
    regions = tuple(Said("where.region", n=r.id) for r in took) or (Said("where.aRegion"),)
    text = Said("decider.youRegions", regions=regions, n=after.medals(w), m=b.objective[w]) if w == viewer else \
        Said("decider.regions", seat=_who(w), regions=regions, n=after.medals(w), m=b.objective[w])
    return {"text": text,
            "nodes": [n for r in took for n in r.bases]}


def last_turn(log: Sequence[dict[str, Any]], seat: int, over: bool) -> dict[str, Any] | None:
    """The other side's latest turn, from ``seat``'s own log (after the end: the deciding turn):
    who, the nodes it touched (for the board's marker) and a short narration."""
    enemy = SEATS[1 - seat]
    run: list[dict[str, Any]] = []
    for line in reversed(log):
        fx = line.get("fx", {})
        if fx.get("over") or fx.get("undo"):
            continue
        if not run and not over and line["seat"] != enemy:
            continue
        if run and line["seat"] != run[0]["seat"]:
            break
        run.insert(0, line)
    if not run:
        return None
    nodes: list[int] = []
    for line in run:
        fx = line.get("fx", {})
        nodes += [n for k in ("place", "remove") if (n := fx.get(k)) is not None] + list(fx.get("move", []))
    words = joined([line.get("brief") or line["text"] for line in run])  # "drew 2; Star on 18"
    who = run[0]["seat"]
    text = Said("brief.you", words=words) if who == SEATS[seat] else \
        Said("brief.seat", seat=who.capitalize(), words=words)
    return {"seat": who, "nodes": nodes, "text": text}


def threats(obs: State, seat: int) -> list[int]:
    """The bases next to ``seat``'s H.Q. that the enemy holds, linked to its own H.Q.: one placement away."""
    b = obs.b
    if obs.over:
        return []
    chain = obs.connected(1 - seat)
    return sorted({b.ids[j] for i in b.hq[seat] for j in b.neighbours[i] if chain >> j & 1})


def hq_warning(obs: State, seat: int) -> str:
    """A warning when the enemy's chain reaches a base next to ``seat``'s H.Q."""
    enemy = 1 - seat
    near = threats(obs, seat)
    if not near:
        return ""
    return Said("prompt.warning", seat=_who(enemy), bases=", ".join(str(n) for n in near))


def ending(log: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """The deciding move of a finished game, as the log told it (the H.Q.'s taker and where from)."""
    for line in reversed(log):
        if line.get("fx", {}).get("over"):
            decider: dict[str, Any] | None = line.get("decider")
            return decider
    return None


def _laid(before: State, after: State, seat: int) -> list[int]:
    new = Counter(t & 15 for t in after.laid[seat])
    new.subtract(t & 15 for t in before.laid[seat])
    return [t for t, n in new.items() if t and n > 0]


def _skipped(s: State) -> Said:
    node = s.b.ids[s.dnode] if s.dnode >= 0 else 0
    d = s.decision
    if d in (EXTRA, SKULLY_DRAW, STAR_DRAW, XB_USE, JUMBO_TARGET):
        key, troop = {EXTRA: ("skip.extra", CAPN), SKULLY_DRAW: ("skip.draw", SKULLY), STAR_DRAW: ("skip.draw", STAR),
                      XB_USE: ("skip.discard", XB42), JUMBO_TARGET: ("skip.discard", JUMBO)}[d]
        return Said(key, troop=troop)
    key2 = {RECALL: "skip.tower", RAINBOW_DRAW: "skip.rainbow", SHOVE: "skip.bridge", RECOVER: "skip.pumpkin",
            LAY_USE: "skip.tank"}.get(d)
    return Said(key2, n=node) if key2 else Said("skip.effect")


def prompt(obs: State, seat: int) -> str:
    """What the seat is asked now, in words addressed to that seat (or what it is waiting for)."""
    if obs.over:
        return result_text(obs)
    d = obs.decision
    opp = _who(1 - obs.turn)
    node = obs.b.ids[obs.dnode] if obs.dnode >= 0 else 0
    if obs.actor != seat:
        return Said("prompt.playing", seat=_who(obs.turn), what=_decision_words(d, opp, node))
    if d == TURN:
        return Said("prompt.turnDraw", n=2) if A.DRAW in obs.legal_actions() else Said("prompt.turn")
    return _decision_words(d, opp, node, you=True)


def _decision_words(d: int, opp: str, node: int, you: bool = False) -> str:
    other = "" if you else "Other"
    if d == TURN:
        return Said("prompt.drawOrPlace")
    if d == EXTRA:
        return Said(f"prompt.extra{other}", troop=CAPN)
    if d == SKULLY_DRAW:
        return Said("prompt.drawUpTo", troop=SKULLY, n=2)
    if d == STAR_DRAW:
        return Said("prompt.drawOne", what=Said(f"troop.{STAR}"), n=1)
    if d == RAINBOW_DRAW:
        return Said("prompt.drawOne", what=Said("power.at", power="draw", n=node), n=1)
    if d == XB_USE:
        return Said("prompt.xb", seat=opp)
    if d == JUMBO_TARGET:
        return Said(f"prompt.jumbo{other}", troop=JUMBO, n=node)
    if d in (RECALL, SHOVE, RECOVER):
        power = {RECALL: "recall", SHOVE: "shove", RECOVER: "recover"}[d]
        return Said(f"prompt.{power}{other}", power=power, n=node)
    if d == LAY_USE:
        return Said("prompt.tank", power="lay_down", n=node, seat=opp)
    return {XB_PICK: Said("prompt.xbOther"), LAY_PICK: Said("prompt.tankOther")}.get(d, "")


# What the use button does, by decision: its label.
USE_LABELS = {SKULLY_DRAW: Said("button.drawWith", troop=SKULLY), STAR_DRAW: Said("button.drawNWith", n=1, troop=STAR),
              XB_USE: Said("button.random"), RAINBOW_DRAW: Said("button.draw", n=1), LAY_USE: Said("button.lay")}


def legal_json(obs: State) -> dict[str, Any]:
    """The deciding seat's choices, each with the exact action text to send: the page composes none.

    ``actions``: every legal action. ``buttons``: the choices off the board (draw, use, skip, recover),
    each with its label. ``rack``: for each troop on the seat's rack, what tapping each node does once
    that troop is picked. ``board``: what tapping each node does with nothing picked. A tap is
    ``{"action"}`` (legal), ``{"action", "refused"}`` (the rule that refuses it, in words),
    ``{"refused"}`` (no action at all starts there) or ``{"then": {node: tap}}`` (a first step: the
    bridge's victim, then where it goes). Built from the seat's observation alone."""
    legal = obs.legal_actions()
    out: dict[str, Any] = {"actions": [A.to_text(a, obs.b) for a in legal], "buttons": _buttons(obs, legal),
                           "rack": {}, "board": {}}
    d = obs.decision
    nodes = range(obs.b.size)
    if d in (TURN, EXTRA):
        for troop in sorted({t & 15 for t in obs.rack[obs.turn] if t & 15}):
            out["rack"][code(troop)] = _taps(obs, legal, [A.place(troop, i) for i in nodes])
    elif d == JUMBO_TARGET:
        out["board"] = _taps(obs, legal, [A.JUMBO + i for i in nodes])
    elif d == RECALL:
        out["board"] = _taps(obs, legal, [A.RECALL + i for i in nodes])
    elif d == SHOVE:
        out["board"] = _shove_taps(obs, legal)
    return out


def _taps(obs: State, legal: list[int], actions: list[int]) -> dict[str, dict[str, str]]:
    """For every node (``actions[i]``: the action a tap on node index i means): the action's text,
    and the rule refusing it if it is not legal."""
    out = {}
    for nid, a in zip(obs.b.ids, actions, strict=True):
        tap = {"action": A.to_text(a, obs.b)}
        if a not in legal:
            tap["refused"] = obs.refusal(a)
        out[str(nid)] = tap
    return out


def _shove_taps(obs: State, legal: list[int]) -> dict[str, Any]:
    """The bridge: a tap on a troop it may move opens where that troop may go; any other node says why not."""
    b = obs.b
    victims = {((a - A.SHOVE) >> 5) & 31 for a in legal if A.SHOVE <= a < A.SHOVE_END}
    out: dict[str, Any] = {}
    for i, nid in enumerate(b.ids):
        if i in victims:
            out[str(nid)] = {"then": _taps(obs, legal, [A.SHOVE + (i << 5) + j for j in range(b.size)])}
        else:  # the rule, as refused for moving it to a neighbour
            out[str(nid)] = {"refused": obs.refusal(A.SHOVE + (i << 5) + b.neighbours[i][0])}
    return out


def _buttons(obs: State, legal: list[int]) -> list[dict[str, Any]]:
    """The choices that are not a tap on the board, in the order of ``legal``; ``main`` marks the
    decision's own action, ``tile`` the troop a button shows."""
    seat, d = obs.turn, obs.decision
    out: list[dict[str, Any]] = []
    for a in legal:
        text = A.to_text(a, obs.b)
        if a == A.DRAW:
            n = min(2, len(obs.reserve[seat]), RACK_LIMIT - obs.hand_size(seat))
            out.append({"action": text, "label": Said("button.draw", n=n), "main": True})
        elif a == A.USE:
            out.append({"action": text, "label": USE_LABELS.get(d, Said("button.use")), "main": True})
        elif A.RECOVER <= a < A.RECOVER_END:
            out.append({"action": text, "label": Said("button.recover", troop=a - A.RECOVER),
                        "tile": code(a - A.RECOVER)})
        elif a == A.SKIP:
            out.append({"action": text, "label": Said("button.skipExtra" if d == EXTRA else "button.skip")})
    return out


def counters_json(obs: State) -> dict[str, Any]:
    """The counters' cards in words: each side's medals, rack and reserve, and the discard."""
    def side(s: int) -> dict[str, str]:
        who = SEATS[s].capitalize()
        held, laid, left = obs.hand_size(s), len(obs.laid[s]), len(obs.reserve[s])
        rack = Said("counter.rackLaid", count=Said("count.tiles", n=held), n=RACK_LIMIT, k=laid, seat=who) if laid \
            else Said("counter.rack", count=Said("count.tiles", n=held), n=RACK_LIMIT)
        return {
            "medals": Said("counter.medals", n=obs.medals(s), m=obs.b.objective[s], seat=who),
            "rack": rack,
            "reserve": Said("counter.reserve", count=Said("count.faceDowns", n=left), n=SET_ASIDE),
        }
    return {SEATS[0]: side(0), SEATS[1]: side(1),
            "discard": Said("counter.discard", count=Said("count.tiles", n=len(obs.discard)))}


def seat_view(obs: State, seat: int, *, log: Sequence[dict[str, Any]] = (), can_undo: bool = False,
              players: dict[str, Any] | None = None, game: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything ``seat`` is sent about the game, from its observation ``obs`` alone.

    ``log`` is that seat's own log (see ``log_lines``); ``players`` names the two sides;
    ``game`` carries public facts about the game itself (id, kind, mode)."""
    b = obs.b
    enemy = 1 - seat
    actor = obs.actor
    mine = actor == seat and not obs.over
    return {
        "game": game or {},
        "seat": SEATS[seat],
        "terrain": b.terrain.id,
        "first_game": obs.first_game,
        "ply": obs.ply,
        "first": SEATS[obs.first],
        "turn": SEATS[obs.turn],
        "actor": SEATS[actor] if actor >= 0 else None,
        "decision": DECISION_NAMES[obs.decision],
        "dnode": b.ids[obs.dnode] if obs.dnode >= 0 else None,
        "prompt": prompt(obs, seat),
        "stacks": {str(b.ids[i]): [tile_json(t) for t in st] for i, st in enumerate(obs.stacks) if st},
        "connected": {SEATS[s]: [b.ids[i] for i in range(b.size) if obs.connected(s) >> i & 1] for s in (0, 1)},
        "claimed": {str(b.terrain.regions[k].id): SEATS[w] for k, w in enumerate(obs.claimed) if w >= 0},
        "medals": {SEATS[s]: obs.medals(s) for s in (0, 1)},
        "objective": {SEATS[s]: b.objective[s] for s in (0, 1)},
        "counts": {SEATS[s]: {"rack": len(obs.rack[s]), "laid": len(obs.laid[s]), "reserve": len(obs.reserve[s]),
                              "aside": len(obs.aside[s])} for s in (0, 1)},
        "rack": [code(t & 15) for t in obs.rack[seat]],
        "laid": [code(t & 15) for t in obs.laid[seat]],
        "seen": [code(t & 15) for t in obs.public[enemy]],
        "discard": [tile_json(t) for t in obs.discard],
        "legal": legal_json(obs) if mine else None,
        "counters": counters_json(obs),
        "can_undo": bool(can_undo and mine),
        "over": obs.over,
        "winner": SEATS[obs.winner] if obs.over and obs.winner >= 0 else None,
        "reason": obs.reason or None,
        "result": result_text(obs),
        "how": how_won(obs, capital=True),
        "players": players or {},
        "log": list(log),
        "last": last_turn(log, seat, obs.over),
        "warning": hq_warning(obs, seat),
        "threats": threats(obs, seat),
        "decider": ending(log) if obs.over else None,
    }


def behind_cover(view: dict[str, Any]) -> bool:
    """A hot-seat page shows its cover when the view's seat is not the one deciding: the turn passed."""
    return not view.get("over") and view.get("actor") not in (None, view.get("seat"))


def covered(view: dict[str, Any]) -> dict[str, Any]:
    """The view a hot-seat page holds behind its cover: no tiles of either seat (its rack, laid
    tiles, the opponent's tiles it saw) and no log (its lines name the seat's own draws). The next
    player's view comes when that player uncovers (a hello with that seat's token)."""
    return {**view, "rack": [], "laid": [], "seen": [], "log": [], "covered": True}
