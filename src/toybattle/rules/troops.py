"""Troops and tiles.

A tile is a small int: ``seat << 4 | troop``. Troop 0 is a tile whose face the
holder of this state does not know (an opponent's rack tile, any reserve tile).
Troops 1..7 are their strengths; Kwak, the joker, is 8 and has no strength.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final

from toybattle.said import Said

# Final: the compiled build inlines them (a plain module constant is a dictionary lookup there).
BLUE: Final = 0
RED: Final = 1
SEATS = ("blue", "red")
UNKNOWN: Final = 0
SKULLY: Final = 1
CAPN: Final = 2
JUMBO: Final = 3
HOOK: Final = 4
XB42: Final = 5
STAR: Final = 6
ROXY: Final = 7
KWAK: Final = 8
TROOPS = (SKULLY, CAPN, JUMBO, HOOK, XB42, STAR, ROXY, KWAK)


@dataclass(frozen=True)
class TroopInfo:
    troop: int
    code: str
    name: str
    name_fr: str
    strength: int | None
    effect: str


def _load() -> tuple[dict[int, TroopInfo], dict[str, Any]]:
    raw = json.loads(resources.files("toybattle.rules").joinpath("data/troops.json").read_text("utf-8"))
    infos = {}
    for i, t in enumerate(raw["troops"], start=1):
        infos[i] = TroopInfo(i, t["code"], t["name"], t["name_fr"], t["strength"], t["effect"])
    if [infos[t].code for t in TROOPS] != list("1234567K"):
        raise ValueError("troops.json: troops must be listed Skully..Roxy then Kwak")
    return infos, raw


INFO, _RAW = _load()
COPIES: Final[int] = _RAW["copies"]
SET_ASIDE: Final[int] = _RAW["set_aside"]
RACK_LIMIT: Final[int] = _RAW["rack_limit"]
OPENING_RACK: Final[tuple[int, int]] = (_RAW["opening_rack"]["first"], _RAW["opening_rack"]["second"])

_BY_CODE = {INFO[t].code: t for t in TROOPS}
_BY_NAME = {INFO[t].name.lower(): t for t in TROOPS} | {INFO[t].name_fr.lower(): t for t in TROOPS}
_BY_NAME |= {"capn": CAPN, "xb42": XB42, "xb": XB42}


def tile(seat: int, troop: int) -> int:
    return seat << 4 | troop


def seat_of(t: int) -> int:
    return t >> 4


def troop_of(t: int) -> int:
    return t & 15


def name(troop: int) -> str:
    return INFO[troop].name if troop else "unknown tile"


def code(troop: int) -> str:
    return INFO[troop].code if troop else "?"


def parse_troop(text: str) -> int:
    """A troop from its code (``7``, ``K``) or its name (``Roxy``, ``Cap'n``); ``?`` is unknown."""
    t = text.strip()
    if t == "?":
        return UNKNOWN
    if t.upper() in _BY_CODE:
        return _BY_CODE[t.upper()]
    key = t.lower()
    if key in _BY_NAME:
        return _BY_NAME[key]
    raise ValueError(Said("action.unknownTroop", text=repr(text)))


def covers(mine: int, theirs: int) -> bool:
    """May troop ``mine`` be placed on an enemy's visible ``theirs``? (Kwak both ways.)"""
    return mine == KWAK or theirs == KWAK or mine > theirs


_ARMIES: Final = tuple(tuple(tile(seat, t) for t in TROOPS for _ in range(COPIES)) for seat in (BLUE, RED))


def full_army(seat: int) -> list[int]:
    """``seat``'s 24 tiles, sorted (a new list: every game's deal starts from one)."""
    return list(_ARMIES[seat])


def shuffled_army(seat: int, rng: random.Random) -> list[int]:
    """``seat``'s 24 tiles in the order ``rng`` shuffles them: the one army shuffle, behind every
    new deal (``state.deal``) and every online peer's secret tile order."""
    army = full_army(seat)
    shuffle(army, rng)
    return army


def shuffle(items: list[int], rng: random.Random) -> None:
    """``rng.shuffle(items)`` step for step: the same draws from ``rng`` in the same order, so deals
    and determinizations stay exactly what they were (tests/rules/test_chance.py compares the two).
    Written out because the compiled build compiles it, while random.shuffle is Python code that
    calls back into the generator through two frames per tile (deals and bots shuffle a lot)."""
    bits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = bits(k)
        while j >= n:  # an unbiased pick in 0..i: draw again when out of range, as random.py does
            j = bits(k)
        items[i], items[j] = items[j], items[i]


def parse_seat(text: str) -> int:
    t = text.strip().lower()
    if t in ("blue", "b"):
        return BLUE
    if t in ("red", "r"):
        return RED
    raise ValueError(f"unknown side {text!r} (blue or red)")
