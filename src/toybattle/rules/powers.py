"""The special bases' names and rule texts (data/powers.json), checked on load.

A key is a node's ``power`` (see ``terrain.POWERS``) or ``restricted``, the
base that only some troops may be placed on.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

from .terrain import POWERS

RESTRICTED = "restricted"


@dataclass(frozen=True)
class PowerInfo:
    key: str
    name: str
    text: str


def parse_powers(raw: object) -> dict[str, PowerInfo]:
    """The powers from their JSON data; ValueError naming what is wrong."""
    want = (*POWERS, RESTRICTED)
    if not isinstance(raw, dict) or set(raw) != set(want):
        raise ValueError(f"powers.json: an object with exactly the keys {', '.join(want)}")
    out = {}
    for key in want:
        p = raw[key]
        if not isinstance(p, dict) or not all(isinstance(p.get(f), str) and p[f] for f in ("name", "text")):
            raise ValueError(f"powers.json: {key!r} needs a non-empty 'name' and 'text'")
        out[key] = PowerInfo(key, p["name"], p["text"])
    return out


POWER_INFO: dict[str, PowerInfo] = parse_powers(
    json.loads(resources.files("toybattle.rules").joinpath("data/powers.json").read_text("utf-8")))
