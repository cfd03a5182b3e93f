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
    "conceded": "the other side conceded",
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


def result_text(s: State, you: bool = False) -> str:
    """How the game ended; ``you``: addressed to the winner ("You win: ...")."""
    if not s.over or s.winner < 0:
        return ""
    wins = "You win" if you else f"{_who(s.winner)} wins"
    if s.reason == "stuck":  # the seat to play could not act; the medals decide, a tie against that seat
        m = s.medals(s.winner), s.medals(1 - s.winner)
        why = f"{SEATS[s.turn]} could neither draw nor place, so the medals decided ({m[0]} to {m[1]}" + \
            (", and a tie goes against the side that could not act)" if m[0] == m[1] else ")")
        return f"{wins}: {why}."
    return f"{wins}: {REASONS.get(s.reason, s.reason)}."


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
            text, you = say("use", f"XB-42 on {SEATS[1 - actor]}'s rack")
        elif d == LAY_USE:
            text, you = say("use", f"the {POWER_INFO['lay_down'].name.lower()} on base {b.ids[before.dnode]}")
    elif action == A.SKIP:
        text, you = say("skip", _skipped(before))
    elif A.PICK <= action < A.PICK_END:
        victim = 1 - actor
        if d == XB_PICK:
            t = after.discard[-1]
            text = f"XB-42 discards {SEATS[victim]} {name(t & 15)} from {SEATS[victim]}'s rack"
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
    out = [_line(after.ply, actor, viewer, text, you, fx)] if text else []
    for k, (was, now) in enumerate(zip(before.claimed, after.claimed, strict=True)):
        if was < 0 <= now:
            r = b.terrain.regions[k]
            took = f"region {r.id}: {r.medals} medal{'s' if r.medals != 1 else ''}"
            out.append(_line(after.ply, now, viewer, f"{_who(now)} takes {took}", f"You take {took}", {"region": r.id}))
    if after.over and not before.over:
        out.append(_line(after.ply, after.winner, viewer, result_text(after), result_text(after, you=True),
                         {"over": True}))
    return out


def _line(n: int, seat: int, viewer: int, text: str, you: str, fx: dict[str, Any]) -> dict[str, Any]:
    """A log entry about ``seat``; ``you`` (the line addressed to its subject) only on that seat's own log."""
    line: dict[str, Any] = {"n": n, "seat": SEATS[seat], "text": text, "fx": fx}
    if you and seat == viewer:
        line["you"] = you
    return line


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
    opp = SEATS[1 - obs.turn]
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
        "players": players or {},
        "log": list(log),
    }
