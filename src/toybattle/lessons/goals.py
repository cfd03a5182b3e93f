"""Outcomes a lesson can ask for, checked on the position after the learner's move.

A goal is a list of conditions, all of which must hold. Each condition is a
small JSON object naming its ``kind``; ``seat`` is "me" (the learner, the
default), "opponent", "blue" or "red".

    {"kind": "medals_at_least", "n": 3}
    {"kind": "region_claimed", "region": 1}
    {"kind": "winner", "reason": "hq"}              # the seat wins (reason optional)
    {"kind": "node_owner", "node": 18, "seat": "me"}   # seat may also be "none"
    {"kind": "top", "node": 18, "troop": "7"}        # the visible tile there is that seat's troop
    {"kind": "connected", "node": 22, "value": true} # joined to the seat's H.Q. (false: cut off)
    {"kind": "rack_size", "n": 8}                    # standing and laid tiles together
    {"kind": "reserve_size", "n": 10}
    {"kind": "rack_has", "troop": "7"}
    {"kind": "laid", "n": 1}                         # tiles laid face down by a tank
    {"kind": "in_discard", "troop": "7", "seat": "opponent"}
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..rules import SEATS, State
from ..rules.troops import INFO, parse_troop
from .texts import PLACEHOLDER


class GoalError(ValueError):
    """A goal condition that is malformed or names something absent from the terrain."""


SEAT_WORDS = ("me", "opponent", "blue", "red")


def seat_of(word: str, me: int) -> int:
    """The seat a condition's ``seat`` word stands for, given the learner's seat."""
    if word == "me":
        return me
    if word == "opponent":
        return 1 - me
    if word in SEATS:
        return SEATS.index(word)
    raise GoalError(f"seat must be one of {', '.join(SEAT_WORDS)}, not {word!r}")


def _node(s: State, c: dict[str, Any]) -> int:
    try:
        return s.b.index[int(c["node"])]
    except (KeyError, TypeError, ValueError):
        raise GoalError(f"{c.get('kind')}: no node {c.get('node')!r} on {s.terrain.name}") from None


def _region(s: State, c: dict[str, Any]) -> int:
    for k, r in enumerate(s.terrain.regions):
        if r.id == c.get("region"):
            return k
    raise GoalError(f"region_claimed: no region {c.get('region')!r} on {s.terrain.name}")


def _troop(c: dict[str, Any]) -> int:
    try:
        t = parse_troop(str(c["troop"]))
    except (KeyError, ValueError):
        raise GoalError(f"{c.get('kind')}: 'troop' must be 1-7 or K") from None
    if not t:
        raise GoalError(f"{c.get('kind')}: 'troop' cannot be unknown")
    return t


def _n(c: dict[str, Any]) -> int:
    n = c.get("n")
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise GoalError(f"{c.get('kind')}: 'n' must be a whole number")
    return n


def _owner(s: State, c: dict[str, Any], me: int) -> bool:
    i = _node(s, c)
    want = c.get("seat", "me")
    return s.owner(i) == (-1 if want == "none" else seat_of(want, me))


def _connected(s: State, c: dict[str, Any], me: int) -> bool:
    value = c.get("value", True)
    if not isinstance(value, bool):
        raise GoalError("connected: 'value' must be true or false")
    return bool(s.connected(seat_of(c.get("seat", "me"), me)) >> _node(s, c) & 1) == value


def _winner(s: State, c: dict[str, Any], me: int) -> bool:
    reason = c.get("reason")
    if reason not in (None, "hq", "medals", "stuck"):
        raise GoalError("winner: 'reason' must be hq, medals or stuck")
    seat = seat_of(c.get("seat", "me"), me)
    return s.over and s.winner == seat and (reason is None or s.reason == reason)


def _top(s: State, c: dict[str, Any], me: int) -> bool:
    return s.top(_node(s, c)) == (seat_of(c.get("seat", "me"), me) << 4 | _troop(c))


def _seat(c: dict[str, Any], me: int) -> int:
    return seat_of(c.get("seat", "me"), me)


_CHECKS: dict[str, Callable[[State, dict[str, Any], int], bool]] = {
    "medals_at_least": lambda s, c, me: s.medals(_seat(c, me)) >= _n(c),
    "region_claimed": lambda s, c, me: s.claimed[_region(s, c)] == _seat(c, me),
    "winner": _winner,
    "node_owner": _owner,
    "top": _top,
    "connected": _connected,
    "rack_size": lambda s, c, me: s.hand_size(_seat(c, me)) == _n(c),
    "reserve_size": lambda s, c, me: len(s.reserve[_seat(c, me)]) == _n(c),
    "rack_has": lambda s, c, me: (_seat(c, me) << 4 | _troop(c)) in s.rack[_seat(c, me)] + s.laid[_seat(c, me)],
    "laid": lambda s, c, me: len(s.laid[_seat(c, me)]) == _n(c),
    "in_discard": lambda s, c, me: (_seat(c, me) << 4 | _troop(c)) in s.discard,
}
KINDS = tuple(_CHECKS)


def holds(s: State, condition: dict[str, Any], me: int) -> bool:
    """Whether ``condition`` holds in ``s`` for the learner playing seat ``me``; GoalError if malformed."""
    if not isinstance(condition, dict) or condition.get("kind") not in _CHECKS:
        raise GoalError(f"unknown goal {condition!r} (kinds: {', '.join(KINDS)})")
    return _CHECKS[condition["kind"]](s, condition, me)


def validate(s: State, condition: dict[str, Any], me: int) -> None:
    """Raise GoalError unless ``condition`` is well formed for the terrain of ``s``."""
    holds(s, condition, me)
    if "seat" in condition and condition["seat"] not in SEAT_WORDS + ("none",):
        raise GoalError(f"seat must be one of {', '.join(SEAT_WORDS)}")


def describe(condition: dict[str, Any], say: Callable[[str], str], lang: str) -> str:
    """The condition in words of language ``lang``: the catalogue's ``goal.<kind>.<seat>[.<variant>]``
    (``say`` gives a key's text), its {placeholders} filled."""
    c = condition
    variant = {"winner": f".{c.get('reason')}" if c.get("reason") else "",
               "connected": "" if c.get("value", True) else ".off"}.get(c["kind"], "")
    fields: dict[str, str] = {k: str(c[k]) for k in ("n", "node", "region") if k in c}
    if "troop" in c:
        fields["troop"] = troop_name(parse_troop(str(c["troop"])), lang)
    template = say(f"goal.{c['kind']}.{c.get('seat', 'me')}{variant}")
    return PLACEHOLDER.sub(lambda m: fields.get(m.group(1), m.group(0)), template)


def troop_name(troop: int, lang: str) -> str:
    info = INFO[troop]
    return info.name_fr if lang == "fr" else info.name
