"""Subcommands over the rules core: replay, legal, terrains, bench, perft."""
from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from .errors import UserError
from .rules import (
    SEATS,
    TERRAIN_IDS,
    IllegalAction,
    NotationError,
    State,
    Terrain,
    TerrainError,
    action_text,
    describe_action,
    load_terrain,
    parse_record,
    perft,
    position_text,
)
from .rules.notation import parse_game
from .rules.state import DECISION_NAMES, NODE_DECISIONS
from .rules.terrain import Node
from .rules.troops import KWAK, code
from .rules.troops import name as troop_name


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("replay", help="replay a game record and print the final position")
    p.add_argument("file")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print everything the final position holds, as JSON "
                     "(shape in docs/notation.md)")
    out.add_argument("--position", action="store_true", help="print the final position as a .tbp position")
    p.set_defaults(run=cmd_replay)
    p = sub.add_parser("legal", help="list the legal actions at a position's decision (or after a record)")
    p.add_argument("file", help="a position (.tbp) or a game record (.tbr)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_legal)
    p = sub.add_parser("terrains", help="list the terrains (--json: every node, path and region)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_terrains)
    p = sub.add_parser("bench", help="measure the rules engine on one core")
    p.add_argument("--seconds", type=float, default=3.0, help="time per measurement round (default 3)")
    p.add_argument("--rounds", type=int, default=5, help="rounds; the median is reported (default 5)")
    p.add_argument("--mix", action="store_true", help="cycle through all terrains and both modes instead of "
                   "Castle Field, standard mode")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_bench)
    p = sub.add_parser("perft", help="count the leaves of the tree of legal actions from a deal, depth by depth "
                       "(pins the move generator: tests/rules/test_perft.py)")
    p.add_argument("depth", type=int, help="the deepest depth counted (1 and up)")
    p.add_argument("--terrain", default="castle", choices=TERRAIN_IDS)
    p.add_argument("--first-game", action="store_true", help="the first-game mode (special bases plain)")
    p.add_argument("--seed", type=int, default=7, help="the deal's seed (default 7)")
    p.set_defaults(run=cmd_perft)


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") from None


def _tile_name(t: int) -> str | None:
    """A tile's troop name, None if its face is unknown."""
    return troop_name(t & 15) if t & 15 else None


def _seat_tiles(s: State, seat: int) -> dict[str, list[str | None]]:
    return {"rack": [_tile_name(t) for t in s.rack[seat]], "laid": [_tile_name(t) for t in s.laid[seat]],
            "public": [_tile_name(t) for t in s.public[seat]],
            "reserve": [_tile_name(t) for t in s.reserve[seat][::-1]], "aside": [_tile_name(t) for t in s.aside[seat]]}


def summary(s: State) -> dict[str, Any]:
    """Everything the final position holds, for ``toybattle replay --json``."""
    b = s.b
    return {
        "terrain": b.terrain.id,
        "mode": "first-game" if s.first_game else "standard",
        "over": s.over,
        "winner": SEATS[s.winner] if s.winner >= 0 else None,
        "reason": s.reason or None,
        "decision": DECISION_NAMES[s.decision],
        "decision_node": b.ids[s.dnode] if s.dnode >= 0 and s.decision in NODE_DECISIONS else None,
        "deciding": s.describe_decision(),
        "first": SEATS[s.first],
        "to_move": SEATS[s.turn],
        "actions": s.ply,
        "medals": {SEATS[x]: s.medals(x) for x in (0, 1)},
        "objective": {SEATS[x]: b.objective[x] for x in (0, 1)},
        "claimed": {str(b.terrain.regions[k].id): SEATS[w] for k, w in enumerate(s.claimed) if w >= 0},
        "rack": {SEATS[x]: s.hand_size(x) for x in (0, 1)},
        "reserve": {SEATS[x]: len(s.reserve[x]) for x in (0, 1)},
        "tiles": {SEATS[x]: _seat_tiles(s, x) for x in (0, 1)},
        "discard": [f"{SEATS[t >> 4]} {troop_name(t & 15)}" for t in s.discard],
        "stacks": {str(b.ids[i]): [f"{SEATS[t >> 4]} {troop_name(t & 15)}" for t in st]
                   for i, st in enumerate(s.stacks) if st},
        "queue": [{"node": b.ids[i], "height": h} for i, h in s.queue],
    }


_HOW = {"hq": "captured the enemy H.Q.", "medals": "reached the medal objective",
        "stuck": "the other player could not act", "conceded": "the other player conceded"}


def _game(args: argparse.Namespace, read: Callable[[str], State]) -> State | None:
    """The state ``read`` finds in ``args.file``; None (after one line on stderr) at a refused action."""
    try:
        return read(_read(args.file))
    except NotationError as e:
        raise UserError(f"{args.file}: {e}") from None
    except IllegalAction as e:
        print(f"toybattle {args.command}: {args.file}: {e}", file=sys.stderr)
        return None


def cmd_replay(args: argparse.Namespace) -> int:
    s = _game(args, lambda text: parse_record(text).replay())
    if s is None:
        return 1
    if args.position:
        print(position_text(s), end="")
        return 0
    out = summary(s)
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    if s.over:
        print(f"{out['winner']} won: {_HOW.get(s.reason, s.reason)}")
    else:
        print(f"not over: {s.describe_decision()}")
    print(f"terrain {out['terrain']} ({out['mode']}), {out['actions']} actions")
    for x in SEATS:
        print(f"{x}: {out['medals'][x]}/{out['objective'][x]} medals, rack {out['rack'][x]}, "
              f"reserve {out['reserve'][x]}")
    for node, st in out["stacks"].items():
        print(f"  {node:>3}: " + ", ".join(st) + "  (bottom to top)")
    print("discard: " + (", ".join(out["discard"]) or "empty"))
    print("claimed: " + (", ".join(f"region {k} {w}" for k, w in out["claimed"].items()) or "none"))
    return 0


def cmd_legal(args: argparse.Namespace) -> int:
    s = _game(args, parse_game)
    if s is None:
        return 1
    acts = s.legal_actions()
    rows: list[dict[str, Any]] = [{"action": action_text(a, s.b), "means": describe_action(a, s.b)} for a in acts]
    if s.is_chance:
        probs = dict(s.chance_outcomes())
        for r, a in zip(rows, acts, strict=True):
            r["probability"] = probs[a]
    if args.json:
        print(json.dumps({"decision": DECISION_NAMES[s.decision], "deciding": s.describe_decision(),
                          "actions": rows}, indent=1))
        return 0
    print(s.describe_decision())
    for r in rows:
        extra = f"  p={r['probability']:.3f}" if "probability" in r else ""
        print(f"  {r['action']:<14} {r['means']}{extra}")
    if not rows:
        print("  (none)")
    return 0


def _special(n: Node) -> str | None:
    """A special base in words: its power, or the troops a restricted base takes."""
    if n.power:
        return n.power
    if n.allowed:
        return "restricted: " + "/".join(sorted(("Kwak" if x == KWAK else str(x)) for x in n.allowed))
    return None


def terrain_graph(t: Terrain) -> dict[str, Any]:
    """The whole board graph of ``t``, for ``toybattle terrains --json``."""
    nodes = [{"id": n.id, "kind": n.kind, "x": n.x, "y": n.y, "side": SEATS[n.side] if n.side is not None else None,
              "power": n.power, "allowed": [code(x) for x in sorted(n.allowed)] if n.allowed else None}
             for n in t.nodes]
    return {"id": t.id, "name": t.name, "name_fr": t.name_fr,
            "objective": {"blue": t.objective[0], "red": t.objective[1]}, "medals": t.medals,
            "hq": {SEATS[x]: [n.id for n in t.hqs(x)] for x in (0, 1)},
            "bases": [n.id for n in t.bases], "nodes": nodes, "paths": [list(p) for p in t.paths],
            "regions": [{"id": r.id, "bases": list(r.bases), "medals": r.medals,
                         "medal_spots": [list(xy) for xy in r.medal_spots]} for r in t.regions],
            "special": {str(n.id): _special(n) for n in t.nodes if _special(n)}}


def terrain_rows() -> list[dict[str, Any]]:
    rows = []
    for tid in TERRAIN_IDS:
        try:
            rows.append(terrain_graph(load_terrain(tid)))
        except TerrainError as e:
            raise UserError(str(e)) from None
    return rows


def cmd_terrains(args: argparse.Namespace) -> int:
    rows = terrain_rows()
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(f"{'id':<12}{'name':<18}{'goal':>5}{'H.Q.':>6}{'bases':>7}{'paths':>7}{'regions':>9}{'medals':>8}"
          "  special bases")
    for r in rows:
        sp = ", ".join(f"{k} {v}" for k, v in r["special"].items()) or "none"
        print(f"{r['id']:<12}{r['name']:<18}{r['objective']['blue']:>2}/{r['objective']['red']:<2}"
              f"{len(r['hq']['blue']):>3}/{len(r['hq']['red']):<2}{len(r['bases']):>7}{len(r['paths']):>7}"
              f"{len(r['regions']):>9}{r['medals']:>8}  {sp}")
    return 0


def random_game(seed: int, terrain: str, first_game: bool, rng: random.Random) -> int:
    """Play one game with uniformly random legal actions; return its number of actions.
    The loop is the engine's public interface and nothing more (the bench measures the engine):
    ``rng.random()`` picks an action in one C call, where ``rng.choice`` costs two Python frames."""
    s = State.new(terrain, first_game, seed=seed)
    pick = rng.random
    while not s.over:
        if s.is_chance:
            s.apply_unchecked(s.sample_chance(rng))
        else:
            legal = s.legal_actions()
            s.apply_unchecked(legal[int(pick() * len(legal))])
    return s.ply


def build() -> str:
    """Which build of the rules core runs: a compiled extension module, or the pure-Python source."""
    from .rules import state
    return "pure Python" if (state.__file__ or "").endswith(".py") else "compiled"


def bench(seconds: float, rounds: int, mix: bool = False) -> dict[str, Any]:
    """Random full games and legal-action listings per second: on Castle Field in standard mode,
    or (``mix``) cycling through every terrain and both modes."""
    def game_kind(k: int) -> tuple[str, bool]:
        return (TERRAIN_IDS[k % len(TERRAIN_IDS)], k % 2 == 1) if mix else ("castle", False)

    rng = random.Random(1)
    games, listings = [], []
    seed = 0
    for _ in range(rounds):
        n = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            random_game(seed, *game_kind(seed), rng)
            seed += 1
            n += 1
        games.append(n / (time.perf_counter() - t0))
    positions = []
    for k in range(200):  # a fixed sample of mid-game positions
        s = State.new(*game_kind(k), seed=10_000 + k)
        for _ in range(rng.randrange(5, 40)):
            if s.over:
                break
            s.apply_unchecked(s.sample_chance(rng) if s.is_chance else rng.choice(s.legal_actions()))
        if not s.over and not s.is_chance:
            positions.append(s)
    for _ in range(rounds):
        n = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            for s in positions:
                s.legal_actions()
            n += len(positions)
        listings.append(n / (time.perf_counter() - t0))
    where = "all 9 terrains and both modes in turn" if mix else "Castle Field, standard mode"
    return {"random_games_per_s": round(statistics.median(games), 1),
            "legal_listings_per_s": round(statistics.median(listings)),
            "rounds": rounds, "seconds_per_round": seconds, "build": build(),
            "python": platform.python_version(), "games": "mix" if mix else "castle standard",
            "method": f"median over rounds; random games on {where}"}


def cmd_bench(args: argparse.Namespace) -> int:
    if args.seconds <= 0 or args.rounds < 1:
        raise UserError("--seconds must be > 0 and --rounds >= 1")
    r = bench(args.seconds, args.rounds, args.mix)
    if args.json:
        print(json.dumps(r, indent=1))
    else:
        print(f"build: {r['build']} (Python {r['python']})")
        print(f"random full games per second: {r['random_games_per_s']}")
        print(f"legal-action listings per second: {r['legal_listings_per_s']}")
        print(f"({r['method']}; {r['rounds']} rounds of {r['seconds_per_round']} s, one core)")
    return 0


def cmd_perft(args: argparse.Namespace) -> int:
    if args.depth < 1:
        raise UserError(f"the depth is 1 or more, not {args.depth}")
    start = State.new(args.terrain, args.first_game, seed=args.seed)
    for depth in range(1, args.depth + 1):
        t = time.perf_counter()
        leaves = perft(start, depth)
        took = time.perf_counter() - t
        print(f"depth {depth} {leaves} leaves  {took:.3f} s  {leaves / took if took else 0:,.0f} leaves/s")
    return 0
