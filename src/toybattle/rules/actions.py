"""Actions as ints, and their text notation.

Notation (node numbers are the terrain's printed ids, troops are 1-7 or K):
``draw``, ``7@18`` (place Roxy on 18), ``use``, ``skip``, ``jumbo@19``, ``recall@17``,
``shove@19>22`` (move the enemy troop on 19 onto 22), ``recover:5``, and the chance
outcomes ``pick:7`` (a standing tile) or ``pick:7*`` (a tile laid face down).
In a record a player's action may name its seat: ``blue:7@18`` (see ``parse_seated``).
"""
from __future__ import annotations

from typing import Final

from toybattle.said import Said, of_error

from .terrain import Board
from .troops import SEATS, code, parse_troop

# Final: the compiled build inlines them (a plain module constant is a dictionary lookup there).
DRAW: Final = 1
USE: Final = 2
SKIP: Final = 3
PLACE: Final = 0x100
PLACE_END: Final = 0x100 + (9 << 5)
JUMBO: Final = 0x400
JUMBO_END: Final = 0x420
RECALL: Final = 0x500
RECALL_END: Final = 0x520
SHOVE: Final = 0x800
SHOVE_END: Final = 0x800 + (32 << 5)
RECOVER: Final = 0xC00
RECOVER_END: Final = 0xC09
PICK: Final = 0xD00
PICK_END: Final = 0xD20


def place(troop: int, index: int) -> int:
    return PLACE + (troop << 5) + index


def to_text(action: int, b: Board) -> str:
    """The notation of ``action`` on board ``b``."""
    ids = b.ids
    if action == DRAW:
        return "draw"
    if action == USE:
        return "use"
    if action == SKIP:
        return "skip"
    if PLACE <= action < PLACE_END:
        return f"{code((action - PLACE) >> 5)}@{ids[action & 31]}"
    if JUMBO <= action < JUMBO_END:
        return f"jumbo@{ids[action - JUMBO]}"
    if RECALL <= action < RECALL_END:
        return f"recall@{ids[action - RECALL]}"
    if SHOVE <= action < SHOVE_END:
        return f"shove@{ids[((action - SHOVE) >> 5) & 31]}>{ids[action & 31]}"
    if RECOVER <= action < RECOVER_END:
        return f"recover:{code(action - RECOVER)}"
    if PICK <= action < PICK_END:
        return f"pick:{code(action & 15)}{'*' if (action - PICK) >> 4 else ''}"
    raise ValueError(f"not an action: {action}")


def _node(text: str, b: Board) -> int:
    i = b.index.get(int(text), -1) if text.isascii() and text.isdigit() and len(text) <= 3 else -1
    if i < 0:
        raise ValueError(Said("action.noNode", text=repr(text[:24]), terrain=b.terrain.name))
    return i


def parse_seated(text: str, b: Board) -> tuple[int | None, int]:
    """(seat, action) for ``text``, which may name its seat first (``blue:7@18``); seat None if it does not."""
    head, sep, rest = text.strip().partition(":")
    if sep and head.lower() in SEATS:
        if rest.lower().startswith("pick:"):
            raise ValueError(Said("action.bad", text=repr(text[:40]), why=Said("action.chance", rest=rest)))
        return SEATS.index(head.lower()), parse(rest, b)
    return None, parse(text, b)


def parse(text: str, b: Board) -> int:
    """The action written ``text`` on board ``b``; ValueError with a clear message if malformed."""
    t = text.strip()
    low = t.lower()
    if low in ("draw", "use", "skip"):
        return {"draw": DRAW, "use": USE, "skip": SKIP}[low]
    try:
        if "@" in t:
            head, _, where = t.partition("@")
            head_l = head.lower()
            if head_l == "jumbo":
                return JUMBO + _node(where, b)
            if head_l == "recall":
                return RECALL + _node(where, b)
            if head_l == "shove":
                src, sep, dst = where.partition(">")
                if not sep:
                    raise ValueError(Said("action.shove"))
                return SHOVE + (_node(src, b) << 5) + _node(dst, b)
            troop = parse_troop(head)
            if not troop:
                raise ValueError(Said("action.unknownTile"))
            return place(troop, _node(where, b))
        if low.startswith("recover:"):
            troop = parse_troop(t[8:])
            if troop:
                return RECOVER + troop
        if low.startswith("pick:"):
            body = t[5:]
            laid = body.endswith("*")
            troop = parse_troop(body.rstrip("*"))
            if troop:
                return PICK + (int(laid) << 4) + troop
    except ValueError as e:
        raise ValueError(Said("action.bad", text=repr(text[:40]), why=of_error(e))) from None
    raise ValueError(Said("action.expected", text=repr(text[:40])))


def describe(action: int, b: Board) -> str:
    """A sentence for ``action``, for logs and the command line (a Said: its English as a str)."""
    ids = b.ids
    if action == DRAW:
        return Said("action.says.draw")
    if action == USE:
        return Said("action.says.use")
    if action == SKIP:
        return Said("action.says.skip")
    if PLACE <= action < PLACE_END:
        node = b.terrain.nodes[action & 31]
        return Said("action.says.placeHq" if node.kind == "hq" else "action.says.place",
                    troop=(action - PLACE) >> 5, n=node.id)
    if JUMBO <= action < JUMBO_END:
        return Said("action.says.jumbo", n=ids[action - JUMBO])
    if RECALL <= action < RECALL_END:
        return Said("action.says.recall", n=ids[action - RECALL])
    if SHOVE <= action < SHOVE_END:
        return Said("action.says.shove", n=ids[((action - SHOVE) >> 5) & 31], m=ids[action & 31])
    if RECOVER <= action < RECOVER_END:
        return Said("action.says.recover", troop=action - RECOVER)
    if PICK <= action < PICK_END:
        tile = action & 15
        if not tile:
            return Said("action.says.pickUnknown")
        return Said("action.says.pickLaid" if (action - PICK) >> 4 else "action.says.pick", troop=tile)
    raise ValueError(f"not an action: {action}")
