"""What the page is told about the game itself: troops, special bases, terrains and the rule
texts it shows, serialized from the rules' validated objects (never from their raw data files); their words
by message id (troop.<n>, effect.<n>, power.<key>, powertext.<key>, card.*), each in the page's language."""
from __future__ import annotations

from typing import Any

from toybattle.rules import SEATS, Terrain
from toybattle.rules.powers import POWER_INFO
from toybattle.rules.troops import COPIES, INFO, OPENING_RACK, RACK_LIMIT, SET_ASIDE, TROOPS, code
from toybattle.said import DEFAULT, Said, say


def troops_json(lang: str = DEFAULT) -> dict[str, Any]:
    """The troops (in order Skully .. Roxy, Kwak) and the army's numbers, in words of ``lang``."""
    troops = [{"code": i.code, "name": say(Said(f"troop.{t}"), lang), "name_fr": i.name_fr, "strength": i.strength,
               "effect": say(Said(f"effect.{t}"), lang)} for t, i in ((t, INFO[t]) for t in TROOPS)]
    return {"troops": troops, "copies": COPIES, "set_aside": SET_ASIDE, "rack_limit": RACK_LIMIT,
            "opening_rack": {"first": OPENING_RACK[0], "second": OPENING_RACK[1]}}


def powers_json(lang: str = DEFAULT) -> dict[str, dict[str, str]]:
    """The special bases by power: name and rule text."""
    return {k: {"name": say(Said(f"power.{k}"), lang), "text": say(Said(f"powertext.{k}"), lang)} for k in POWER_INFO}


def terrain_json(t: Terrain, lang: str = DEFAULT) -> dict[str, Any]:
    """A terrain as the board renderer draws it (web/js/board.js): node coordinates in percent of a
    portrait board, blue's H.Q. at the bottom; a restricted node lists its troops by name and by code."""
    nodes = []
    for n in t.nodes:
        node: dict[str, Any] = {"id": n.id, "kind": n.kind, "x": n.x, "y": n.y}
        if n.side is not None:
            node["side"] = SEATS[n.side]
        if n.power:
            node["power"] = n.power
        if n.allowed:
            node["allowed"] = [say(Said(f"troop.{tr}"), lang) for tr in TROOPS if tr in n.allowed]
            node["allowed_codes"] = sorted(code(tr) for tr in n.allowed)
        nodes.append(node)
    return {"id": t.id, "name": t.name_fr if lang == "fr" else t.name, "name_fr": t.name_fr,
            "objective": {"blue": t.objective[0], "red": t.objective[1]}, "nodes": nodes,
            "paths": [list(p) for p in t.paths],
            "regions": [{"id": r.id, "bases": list(r.bases), "medals": r.medals,
                         "medal_spots": [list(s) for s in r.medal_spots]} for r in t.regions]}


def rule_texts(lang: str = DEFAULT) -> dict[str, str]:
    """The rules the page's cards state, in words of ``lang`` (the page writes none itself)."""
    return {k: say(v, lang) for k, v in _RULE_TEXTS.items()}


_RULE_TEXTS = {
    "own_hq": Said("card.ownHq"), "enemy_hq": Said("card.enemyHq"), "first_game_power": Said("card.firstGamePower"),
    "region": Said("card.region"), "laid": Said("card.laid"), "army": Said("card.army", n=COPIES),
}
