"""What a seat is shown: everything derived from that seat's observation State.

``seat_view(obs, seat, ...)`` builds the one message body a browser seat ever
receives about the game; ``log_lines(before, action, after, viewer)`` writes
the game log as one seat may read it, from two observations of that seat.
Both take observation States (``toybattle.rules.observation``), so they serve
the app's local sessions and online peers alike, and they cannot show a tile
the seat may not know: the data simply is not there.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from toybattle.rules import SEATS, State
from toybattle.rules import actions as A
from toybattle.rules.powers import POWER_INFO
from toybattle.rules.state import (
    DECISION_NAMES,
    EXTRA,
    JUMBO_TARGET,
    LAY_PICK,
    LAY_USE,
    OVER,
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
from toybattle.rules.troops import RACK_LIMIT, SET_ASIDE, code, name

# How a game ended, in words (the winner's point of view).
REASONS = {
    "hq": "captured the enemy H.Q.",
    "medals": "reached the medal objective",
}


def tile_json(t: int) -> list[str]:
    """A tile as ["blue"|"red", troop code]."""
    return [SEATS[t >> 4], code(t & 15)]


def _who(seat: int) -> str:
    return SEATS[seat].capitalize()


def _node_words(s: State, i: int) -> str:
    node = s.b.terrain.nodes[i]
    return f"{SEATS[node.side]}'s H.Q." if node.side is not None else f"base {node.id}"


def _names(troops: list[int]) -> str:
    words = [name(t) for t in sorted(troops)]
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


def _drawn(before: State, after: State, seat: int) -> list[int]:
    """Troops that arrived on ``seat``'s rack (known only if ``seat``'s own tiles are known here)."""
    new = Counter(t & 15 for t in after.rack[seat] + after.laid[seat])
    new.subtract(t & 15 for t in before.rack[seat] + before.laid[seat])
    return [t for t, n in new.items() for _ in range(n) if t and n > 0]


def how_won(s: State) -> str:
    """How the game was won, without who ("Captured the enemy H.Q."); empty while it goes on."""
    if not s.over or s.winner < 0:
        return ""
    if s.reason == "stuck":  # the seat to play could not act; the medals decide, a tie against that seat
        m = s.medals(s.winner), s.medals(1 - s.winner)
        why = f"{SEATS[s.turn]} could neither draw nor place, so the medals decided ({m[0]} to {m[1]}" + \
            (", and a tie goes against the side that could not act)" if m[0] == m[1] else ")")
    elif s.reason == "conceded":
        why = f"{SEATS[1 - s.winner]} conceded"
    else:
        why = REASONS.get(s.reason, s.reason)
    return why.rstrip(".") + "."


def result_text(s: State, you: bool = False) -> str:
    """How the game ended; ``you``: addressed to the winner ("You win: ...")."""
    how = how_won(s)
    if not how:
        return ""
    return f"{'You win' if you else f'{_who(s.winner)} wins'}: {how}"


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
    text = you = ""

    def say(verb: str, rest: str) -> tuple[str, str]:  # "Blue places ..." and "You place ..."
        return f"{who} {verb}s {rest}", f"You {verb} {rest}"
    n_drawn = after.hand_size(actor) - before.hand_size(actor)
    drawn = _drawn(before, after, actor) if actor == viewer else []
    seen = f" ({_names(drawn)})" if drawn else ""
    if action == A.DRAW:
        text, you = say("draw", f"{n_drawn} tile{'s' if n_drawn != 1 else ''}{seen}")
    elif A.PLACE <= action < A.PLACE_END:
        troop, i = (action - A.PLACE) >> 5, action & 31
        under = before.top(i)
        cover = f", covering {SEATS[under >> 4]} {name(under & 15)}" if under >= 0 else ""
        text, you = say("place", f"{name(troop)} on {_node_words(before, i)}{cover}")
        fx = {"place": b.ids[i]}
    elif action == A.USE:
        if d in (SKULLY_DRAW, STAR_DRAW, RAINBOW_DRAW):
            what = {SKULLY_DRAW: "Skully", STAR_DRAW: "Star", RAINBOW_DRAW: POWER_INFO["draw"].name}[d]
            tiles = f"{n_drawn} tile{'s' if n_drawn != 1 else ''}{seen}"
            text, you = f"{who} uses {what} and draws {tiles}", f"You use {what} and draw {tiles}"
        elif d == XB_USE:
            text, you = say("use", f"XB-42 on {_who(1 - actor)}'s rack")
        elif d == LAY_USE:
            text, you = say("use", f"the {POWER_INFO['lay_down'].name.lower()} on base {b.ids[before.dnode]}")
    elif action == A.SKIP:
        text, you = say("skip", _skipped(before))
    elif A.PICK <= action < A.PICK_END:
        victim = 1 - actor
        if d == XB_PICK:
            t = after.discard[-1]
            text = f"XB-42 discards {SEATS[victim]} {name(t & 15)} from {_who(victim)}'s rack"
            fx = {"discard": tile_json(t)}
        elif d == LAY_PICK:
            laid = _laid(before, after, victim) if victim == viewer else []
            what = f"your {name(laid[0])}" if laid else f"one of {SEATS[victim]}'s tiles"
            text = f"The tank lays {what} face down until the end of {SEATS[victim]}'s next turn"
    elif A.JUMBO <= action < A.JUMBO_END:
        i = action - A.JUMBO
        t = before.top(i)
        text = f"Jumbo discards {SEATS[t >> 4]} {name(t & 15)} from base {b.ids[i]}"
        fx = {"remove": b.ids[i]}
    elif A.RECALL <= action < A.RECALL_END:
        i = action - A.RECALL
        text, you = say("take", f"{name(before.top(i) & 15)} back from base {b.ids[i]} to the rack")
        fx = {"remove": b.ids[i]}
    elif A.SHOVE <= action < A.SHOVE_END:
        i, j = ((action - A.SHOVE) >> 5) & 31, action & 31
        t = before.top(i)
        text, you = say("move", f"{SEATS[t >> 4]} {name(t & 15)} from base {b.ids[i]} onto base {b.ids[j]}")
        fx = {"move": [b.ids[i], b.ids[j]]}
    elif A.RECOVER <= action < A.RECOVER_END:
        text, you = say("take", f"{name(action - A.RECOVER)} back from the discard")
    if d == XB_PICK and viewer == 1 - actor and text:  # the victim reads of its own rack
        you = f"XB-42 discards your {name(after.discard[-1] & 15)} from your rack"
    out = [_line(after.ply, actor, viewer, text, you, fx, _brief(before, action, after, viewer))] if text else []
    for k, (was, now) in enumerate(zip(before.claimed, after.claimed, strict=True)):
        if was < 0 <= now:
            r = b.terrain.regions[k]
            took = f"region {r.id}: {_count(r.medals, 'medal')}"
            out.append(_line(after.ply, now, viewer, f"{_who(now)} takes {took}", f"You take {took}", {"region": r.id},
                             f"took region {r.id} ({_count(r.medals, 'medal')})"))
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


def _whose(seat: int, viewer: int) -> str:
    return "your" if seat == viewer else SEATS[seat]


def _short_node(s: State, i: int, viewer: int) -> str:
    """A node in the narration: its number, or whose H.Q. it is."""
    node = s.b.terrain.nodes[i]
    if node.side is None:
        return str(node.id)
    return "your H.Q." if node.side == viewer else f"{_who(node.side)}'s H.Q."


def _brief(before: State, action: int, after: State, viewer: int) -> str:
    """The action in a few words for ``viewer`` ("Star on 18, covering your Kwak", "drew 1"), from the
    viewer's own observations."""
    b, actor, d = before.b, before.turn, before.decision
    n_drawn = after.hand_size(actor) - before.hand_size(actor)
    if action == A.DRAW or (action == A.USE and d in (SKULLY_DRAW, STAR_DRAW, RAINBOW_DRAW)):
        return f"drew {n_drawn}"
    if A.PLACE <= action < A.PLACE_END:
        troop, i = (action - A.PLACE) >> 5, action & 31
        under = before.top(i)
        whose = "its own" if under >> 4 == actor != viewer else _whose(under >> 4, viewer)
        cover = f", covering {whose} {name(under & 15)}" if under >= 0 else ""
        return f"{name(troop)} on {_short_node(before, i, viewer)}{cover}"
    if A.JUMBO <= action < A.JUMBO_END:
        t = before.top(action - A.JUMBO)
        return f"Jumbo discarded {_whose(t >> 4, viewer)} {name(t & 15)} from {b.ids[action - A.JUMBO]}"
    if A.RECALL <= action < A.RECALL_END:
        return f"took {name(before.top(action - A.RECALL) & 15)} back from {b.ids[action - A.RECALL]}"
    if A.SHOVE <= action < A.SHOVE_END:
        i, j = ((action - A.SHOVE) >> 5) & 31, action & 31
        t = before.top(i)
        return f"moved {_whose(t >> 4, viewer)} {name(t & 15)} from {b.ids[i]} to {b.ids[j]}"
    if A.RECOVER <= action < A.RECOVER_END:
        return f"took {name(action - A.RECOVER)} back from the discard"
    if action == A.SKIP:
        return f"skipped {_skipped(before)}"
    if action == A.USE and d == XB_USE:
        return f"XB-42 on {_whose(1 - actor, viewer)} rack"
    if action == A.USE and d == LAY_USE:
        return f"the tank on {b.ids[before.dnode]}"
    if A.PICK <= action < A.PICK_END and d == XB_PICK:
        t = after.discard[-1]
        return f"XB-42 discarded {_whose(t >> 4, viewer)} {name(t & 15)}"
    if A.PICK <= action < A.PICK_END and d == LAY_PICK:
        return "the tank laid a tile face down"
    return ""


def _hq_taken(before: State, action: int, viewer: int) -> dict[str, Any]:
    """The move that took an H.Q.: which troop, onto which H.Q., from which base of the taker's chain."""
    troop, i = (action - A.PLACE) >> 5, action & 31
    actor, b = before.turn, before.b
    chain = before.connected(actor)
    via = [j for j in b.neighbours[i] if chain >> j & 1]
    taker = "Your" if actor == viewer else f"{_who(actor)}'s"
    frm = f" from base {b.ids[via[0]]}" if via else ""
    text = f"{taker} {name(troop)} took {_short_node(before, i, viewer)}{frm}".rstrip(".") + "."
    return {"text": text, "nodes": [b.ids[i]] + ([b.ids[via[0]]] if via else [])}


def _objective_reached(before: State, after: State, viewer: int) -> dict[str, Any]:
    """The region whose medals reached the winner's objective."""
    b, w = after.b, after.winner
    took = [b.terrain.regions[k] for k, (x, y) in enumerate(zip(before.claimed, after.claimed, strict=True))
            if x < 0 <= y and y == w]
    who = "You" if w == viewer else _who(w)
    regions = " and ".join(f"region {r.id}" for r in took) or "a region"
    return {"text": f"{who} took {regions}, reaching {after.medals(w)} medals of the {b.objective[w]} needed.",
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
    words = "; ".join(line.get("brief") or line["text"] for line in run)
    who = run[0]["seat"]
    return {"seat": who, "nodes": nodes, "text": f"{'You' if who == SEATS[seat] else who.capitalize()}: {words}"}


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
    where = ", ".join(str(n) for n in near)
    return f"Careful: {SEATS[enemy].capitalize()} holds base {where}, next to your H.Q.: " \
        f"one more placement there could take it."


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


def _skipped(s: State) -> str:
    node = s.b.ids[s.dnode] if s.dnode >= 0 else None
    return {
        EXTRA: "Cap'n's extra placement", SKULLY_DRAW: "Skully's draw", STAR_DRAW: "Star's draw",
        XB_USE: "XB-42's discard", JUMBO_TARGET: "Jumbo's discard", RECALL: f"the tower on {node}",
        RAINBOW_DRAW: f"the rainbow base's draw on {node}", SHOVE: f"the bridge on {node}",
        RECOVER: f"the pumpkin on {node}", LAY_USE: f"the tank on {node}",
    }.get(s.decision, "the effect")


def prompt(obs: State, seat: int) -> str:
    """What the seat is asked now, in words addressed to that seat (or what it is waiting for)."""
    if obs.over:
        return result_text(obs)
    d = obs.decision
    opp = _who(1 - obs.turn)
    node = obs.b.ids[obs.dnode] if obs.dnode >= 0 else None
    if obs.actor != seat:
        return f"{_who(obs.turn)} is playing: {_decision_words(d, opp, node)}"
    if d == TURN:
        can_draw = A.DRAW in obs.legal_actions()
        return "Your turn: draw 2 tiles, or pick a troop on your rack and place it." if can_draw else \
            "Your turn: pick a troop on your rack and place it."
    return _decision_words(d, opp, node, you=True)


def _decision_words(d: int, opp: str, node: int | None, you: bool = False) -> str:
    p = {k: v.name for k, v in POWER_INFO.items()}
    tap = "tap" if you else "choosing"
    return {
        TURN: "draw or place a troop",
        EXTRA: "Cap'n: place one more troop, or skip." if you else "Cap'n's extra placement",
        SKULLY_DRAW: "Skully: draw up to 2 tiles?",
        STAR_DRAW: "Star: draw 1 tile?",
        XB_USE: f"XB-42: discard a random tile from {opp}'s rack?",
        JUMBO_TARGET: f"Jumbo on {node}: {tap} an enemy troop next to it to discard, or skip.",
        RECALL: f"{p['recall']} {node}: {tap} one of your other troops to take back, or skip." if you
        else f"{p['recall']} {node}: taking a troop back?",
        RAINBOW_DRAW: f"{p['draw']} {node}: draw 1 tile?",
        SHOVE: f"{p['shove']} {node}: tap an enemy troop next to it, then the base to move it to; "
               "or skip." if you else f"{p['shove']} {node}: moving an enemy troop?",
        RECOVER: f"{p['recover']} {node}: pick one of your troops in the discard to take back, or skip."
        if you else f"{p['recover']} {node}: recovering a troop?",
        LAY_USE: f"{p['lay_down']} {node}: lay down a blind pick from {opp}'s rack until the end of "
                 f"their next turn?",
        XB_PICK: "XB-42's random pick", LAY_PICK: "the tank's blind pick", OVER: "",
    }[d]


# What the use button does, by decision: its label.
USE_LABELS = {SKULLY_DRAW: "Draw (Skully)", STAR_DRAW: "Draw 1 (Star)", XB_USE: "Random discard",
              RAINBOW_DRAW: "Draw 1", LAY_USE: "Lay one down"}


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
            out.append({"action": text, "label": f"Draw {n}", "main": True})
        elif a == A.USE:
            out.append({"action": text, "label": USE_LABELS.get(d, "Use"), "main": True})
        elif A.RECOVER <= a < A.RECOVER_END:
            out.append({"action": text, "label": f"Recover {name(a - A.RECOVER)}", "tile": code(a - A.RECOVER)})
        elif a == A.SKIP:
            out.append({"action": text, "label": "Skip extra" if d == EXTRA else "Skip"})
    return out


def counters_json(obs: State) -> dict[str, Any]:
    """The counters' cards in words: each side's medals, rack and reserve, and the discard."""
    def side(s: int) -> dict[str, str]:
        who = SEATS[s].capitalize()
        held, laid, left = obs.hand_size(s), len(obs.laid[s]), len(obs.reserve[s])
        return {
            "medals": f"Medals: {obs.medals(s)} of the {obs.b.objective[s]} {who} needs. "
                      "Reaching the objective wins at once.",
            "rack": f"Rack: {_count(held, 'tile')} (at most {RACK_LIMIT}). "
                    + (f"{laid} laid face down by a tank until the end of {who}'s turn. " if laid else "")
                    + "Only its owner sees them.",
            "reserve": f"Reserve: {_count(left, 'face-down tile')} left to draw; nobody knows which comes next. "
                       f"({SET_ASIDE} more were set aside unseen at the start.)",
        }
    return {SEATS[0]: side(0), SEATS[1]: side(1),
            "discard": f"The discard: {_count(len(obs.discard), 'tile')} face up, for both to see."}


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


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
        "how": how_won(obs)[:1].upper() + how_won(obs)[1:],
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
