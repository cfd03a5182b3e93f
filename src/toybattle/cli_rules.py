"""Subcommands over the rules core: replay, legal, terrains, bench."""
from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from .errors import UserError
from .rules import (
    SEATS,
    TERRAIN_IDS,
    IllegalAction,
    NotationError,
    State,
    TerrainError,
    action_text,
    describe_action,
    load_terrain,
    parse_position,
    parse_record,
)
from .rules.state import DECISION_NAMES


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="replay a game record and print the final position")
    p.add_argument("file")
    p.add_argument("--json", action="store_true", help="print JSON (shape in docs/notation.md)")
    p.set_defaults(run=cmd_replay)
    p = sub.add_parser("legal", help="list the legal actions at a position's current decision")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_legal)
    p = sub.add_parser("terrains", help="list the terrains")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_terrains)
    p = sub.add_parser("bench", help="measure the rules engine on one core")
    p.add_argument("--seconds", type=float, default=3.0, help="time per measurement round (default 3)")
    p.add_argument("--rounds", type=int, default=5, help="rounds; the median is reported (default 5)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_bench)


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") from None


def summary(s: State) -> dict:
    """The final-position summary of ``toybattle replay --json``."""
    b = s.b
    return {
        "terrain": b.terrain.id,
        "mode": "first-game" if s.first_game else "standard",
        "over": s.over,
        "winner": SEATS[s.winner] if s.winner >= 0 else None,
        "reason": s.reason or None,
        "decision": DECISION_NAMES[s.decision],
        "to_move": SEATS[s.turn],
        "actions": s.ply,
        "medals": {SEATS[x]: s.medals(x) for x in (0, 1)},
        "objective": {SEATS[x]: b.objective[x] for x in (0, 1)},
        "rack": {SEATS[x]: s.hand_size(x) for x in (0, 1)},
        "reserve": {SEATS[x]: len(s.reserve[x]) for x in (0, 1)},
        "discard": [("blue " if t >> 4 == 0 else "red ") + _troop(t) for t in s.discard],
        "stacks": {str(b.ids[i]): [SEATS[t >> 4] + " " + _troop(t) for t in st] for i, st in enumerate(s.stacks) if st},
    }


def _troop(t: int) -> str:
    from .rules.troops import name
    return name(t & 15)


_HOW = {"hq": "captured the enemy H.Q.", "medals": "reached the medal objective",
        "stuck": "the other player could not act", "conceded": "the other player conceded"}


def cmd_replay(args) -> int:
    try:
        record = parse_record(_read(args.file))
        s = record.replay()
    except NotationError as e:
        raise UserError(f"{args.file}: {e}") from None
    except IllegalAction as e:
        print(f"toybattle replay: {args.file}: {e}", file=__import__("sys").stderr)
        return 1
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
        print(f"{x}: {out['medals'][x]}/{out['objective'][x]} medals, rack {out['rack'][x]}, reserve {out['reserve'][x]}")
    for node, st in out["stacks"].items():
        print(f"  {node:>3}: " + ", ".join(st) + "  (bottom to top)")
    print("discard: " + (", ".join(out["discard"]) or "empty"))
    return 0


def cmd_legal(args) -> int:
    try:
        s = parse_position(_read(args.file))
    except NotationError as e:
        raise UserError(f"{args.file}: {e}") from None
    acts = s.legal_actions()
    rows = [{"action": action_text(a, s.b), "means": describe_action(a, s.b)} for a in acts]
    if s.is_chance:
        probs = dict(s.chance_outcomes())
        for r, a in zip(rows, acts):
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


def terrain_rows() -> list[dict]:
    rows = []
    for tid in TERRAIN_IDS:
        try:
            t = load_terrain(tid)
        except TerrainError as e:
            raise UserError(str(e)) from None
        special = {str(n.id): (n.power or "restricted: " + "/".join(
            sorted(("Kwak" if x == 8 else str(x)) for x in n.allowed))) for n in t.nodes if n.power or n.allowed}
        rows.append({"id": t.id, "name": t.name, "objective": {"blue": t.objective[0], "red": t.objective[1]},
                     "hq": {"blue": len(t.hqs(0)), "red": len(t.hqs(1))}, "bases": len(t.bases),
                     "paths": len(t.paths), "regions": len(t.regions), "medals": t.medals, "special": special})
    return rows


def cmd_terrains(args) -> int:
    rows = terrain_rows()
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(f"{'id':<12}{'name':<18}{'goal':>5}{'H.Q.':>6}{'bases':>7}{'paths':>7}{'regions':>9}{'medals':>8}  special bases")
    for r in rows:
        sp = ", ".join(f"{k} {v}" for k, v in r["special"].items()) or "none"
        print(f"{r['id']:<12}{r['name']:<18}{r['objective']['blue']:>2}/{r['objective']['red']:<2}"
              f"{r['hq']['blue']:>3}/{r['hq']['red']:<2}{r['bases']:>7}{r['paths']:>7}{r['regions']:>9}"
              f"{r['medals']:>8}  {sp}")
    return 0


def random_game(seed: int, terrain: str, first_game: bool, rng: random.Random) -> int:
    """Play one game with uniformly random legal actions; return its number of actions."""
    s = State.new(terrain, first_game, seed=seed)
    while not s.over:
        s.apply_unchecked(s.sample_chance(rng) if s.is_chance else rng.choice(s.legal_actions()))
    return s.ply


def bench(seconds: float, rounds: int) -> dict:
    rng = random.Random(1)
    games, listings = [], []
    seed = 0
    for _ in range(rounds):
        n = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            random_game(seed, TERRAIN_IDS[seed % len(TERRAIN_IDS)], seed % 2 == 1, rng)
            seed += 1
            n += 1
        games.append(n / (time.perf_counter() - t0))
    positions = []
    for k in range(200):  # a fixed sample of mid-game positions
        s = State.new(TERRAIN_IDS[k % len(TERRAIN_IDS)], seed=10_000 + k)
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
    return {"random_games_per_s": round(statistics.median(games), 1),
            "legal_listings_per_s": round(statistics.median(listings)),
            "rounds": rounds, "seconds_per_round": seconds,
            "method": "median over rounds; random games cycle through all 9 terrains, both modes"}


def cmd_bench(args) -> int:
    if args.seconds <= 0 or args.rounds < 1:
        raise UserError("--seconds must be > 0 and --rounds >= 1")
    r = bench(args.seconds, args.rounds)
    if args.json:
        print(json.dumps(r, indent=1))
    else:
        print(f"random full games per second: {r['random_games_per_s']}")
        print(f"legal-action listings per second: {r['legal_listings_per_s']}")
        print(f"({r['method']}; {r['rounds']} rounds of {r['seconds_per_round']} s, one core)")
    return 0
