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

from .errors import UserError, os_words
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
from .said import Said, catalogue, of_error, say


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("replay", help=Said("cli.replay.help"))
    p.add_argument("file", metavar=Said("cli.metavar.file"))
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help=Said("cli.replay.help.json"))
    out.add_argument("--position", action="store_true", help=Said("cli.replay.help.position"))
    p.set_defaults(run=cmd_replay)
    p = sub.add_parser("legal", help=Said("cli.legal.help"))
    p.add_argument("file", metavar=Said("cli.metavar.file"), help=Said("cli.legal.help.file"))
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_legal)
    p = sub.add_parser("terrains", help=Said("cli.terrains.help"))
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_terrains)
    p = sub.add_parser("bench", help=Said("cli.bench.help"))
    p.add_argument("--seconds", type=float, default=3.0, metavar=Said("cli.metavar.seconds"),
                   help=Said("cli.bench.help.seconds"))
    p.add_argument("--rounds", type=int, default=5, metavar=Said("cli.metavar.rounds"),
                   help=Said("cli.bench.help.rounds"))
    p.add_argument("--mix", action="store_true", help=Said("cli.bench.help.mix"))
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_bench)
    p = sub.add_parser("perft", help=Said("cli.perft.help"))
    p.add_argument("depth", type=int, metavar=Said("cli.metavar.depth"), help=Said("cli.perft.help.depth"))
    p.add_argument("--terrain", default="castle", choices=TERRAIN_IDS)
    p.add_argument("--first-game", action="store_true", help=Said("cli.help.firstGamePlain"))
    p.add_argument("--seed", type=int, default=7, metavar=Said("cli.metavar.seed"), help=Said("cli.perft.help.seed"))
    p.set_defaults(run=cmd_perft)


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(Said("cli.error.cannotRead", name=path, why=os_words(e))) from None


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


_HOW = {"hq": "cli.replay.how.hq", "medals": "cli.replay.how.medals", "stuck": "cli.replay.how.stuck",
        "conceded": "cli.replay.how.conceded"}  # how a game ended, as `replay` says it


def _game(args: argparse.Namespace, read: Callable[[str], State]) -> State | None:
    """The state ``read`` finds in ``args.file``; None (after one line on stderr) at a refused action."""
    try:
        return read(_read(args.file))
    except NotationError as e:
        raise UserError(Said("cli.error.inFile", name=args.file, why=of_error(e))) from None
    except IllegalAction as e:
        line = Said("cli.error.line", name=args.command, why=Said("cli.error.inFile", name=args.file, why=of_error(e)))
        print(say(line, args.lang), file=sys.stderr)
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
    lang = args.lang
    if s.over:
        how = Said(_HOW[s.reason]) if s.reason in _HOW else s.reason
        print(say(Said("cli.replay.won", seat=out["winner"], how=how), lang))
    else:
        print(say(Said("cli.replay.notOver", what=s.describe_decision()), lang))
    print(say(Said("cli.replay.terrain", terrain=out["terrain"], kind=out["mode"], n=out["actions"]), lang))
    for x in SEATS:
        print(say(Said("cli.replay.seat", seat=x, n=out["medals"][x], objective=out["objective"][x],
                       k=out["rack"][x], total=out["reserve"][x]), lang))
    b = s.b
    for i, st in enumerate(s.stacks):
        if st:
            tiles = ", ".join(_tile_words(t, lang) for t in st)
            print("  " + say(Said("cli.replay.stack", node=f"{b.ids[i]:>3}", words=tiles), lang))
    print(say(Said("cli.replay.discard", words=", ".join(_tile_words(t, lang) for t in s.discard)
                   or Said("cli.replay.empty")), lang))
    claimed = [say(Said("cli.replay.region", region=k, seat=w), lang) for k, w in out["claimed"].items()]
    print(say(Said("cli.replay.claimed", words=", ".join(claimed) or Said("cli.replay.noRegion")), lang))
    return 0


def _tile_words(t: int, lang: str) -> str:
    """A seat's tile in words ("blue Jumbo", "Mastok bleu")."""
    return say(Said("cli.replay.tile", seat=SEATS[t >> 4], troop=t & 15), lang)


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
    print(say(s.describe_decision(), args.lang))
    for r in rows:
        extra = f"  p={r['probability']:.3f}" if "probability" in r else ""
        print(f"  {r['action']:<14} {say(r['means'], args.lang)}{extra}")
    if not rows:
        print("  " + say(Said("cli.legal.none"), args.lang))
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
            raise UserError(of_error(e)) from None
    return rows


def cmd_terrains(args: argparse.Namespace) -> int:
    rows = terrain_rows()
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    lang = args.lang
    # the columns' headings, one catalogue entry: "id|name|goal|H.Q.|bases|paths|regions|medals|special bases"
    c = say(Said("cli.terrains.columns"), lang).split("|")
    names = [r["name_fr"] if lang == "fr" else r["name"] for r in rows]
    w = [max(18, *(len(n) + 1 for n in names))] + [max(width, len(h) + 1) for width, h in zip((7, 7, 9, 8), c[4:8],
                                                                                              strict=True)]
    print(f"{c[0]:<12}{c[1]:<{w[0]}}{c[2]:>5}{c[3]:>6}{c[4]:>{w[1]}}{c[5]:>{w[2]}}{c[6]:>{w[3]}}{c[7]:>{w[4]}}  {c[8]}")
    for r, name in zip(rows, names, strict=True):
        sp = ", ".join(f"{k} {_special_words(v, lang)}" for k, v in r["special"].items()) \
            or say(Said("cli.terrains.none"), lang)
        print(f"{r['id']:<12}{name:<{w[0]}}{r['objective']['blue']:>2}/{r['objective']['red']:<2}"
              f"{len(r['hq']['blue']):>3}/{len(r['hq']['red']):<2}{len(r['bases']):>{w[1]}}{len(r['paths']):>{w[2]}}"
              f"{len(r['regions']):>{w[3]}}{r['medals']:>{w[4]}}  {sp}")
    return 0


def _special_words(special: str, lang: str) -> str:
    """A special base as ``terrains`` lists it: the troops a restricted base takes, or its power: by its key in
    English (``recall``, as --json and the terrain files name it), by its name in another language."""
    if special.startswith("restricted: "):
        return say(Said("cli.terrains.restricted", text=special.removeprefix("restricted: ")), lang)
    if lang == "en" or f"power.{special}" not in catalogue(lang):
        return special
    return say(Said(f"power.{special}"), lang)


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
        raise UserError(Said("cli.bench.error.args"))
    r = bench(args.seconds, args.rounds, args.mix)
    if args.json:
        print(json.dumps(r, indent=1))
    else:
        lang = args.lang
        built = Said("cli.bench.pure") if r["build"] == "pure Python" else Said("cli.bench.compiled")
        print(say(Said("cli.bench.build", kind=built, name=r["python"]), lang))
        print(say(Said("cli.bench.games", n=str(r["random_games_per_s"])), lang))
        print(say(Said("cli.bench.listings", n=str(r["legal_listings_per_s"])), lang))
        where = Said("cli.bench.onMix") if args.mix else Said("cli.bench.onCastle")
        print(say(Said("cli.bench.method", what=where, n=r["rounds"], m=f"{r['seconds_per_round']}"), lang))
    return 0


def cmd_perft(args: argparse.Namespace) -> int:
    if args.depth < 1:
        raise UserError(Said("cli.perft.error.depth", n=args.depth))
    start = State.new(args.terrain, args.first_game, seed=args.seed)
    for depth in range(1, args.depth + 1):
        t = time.perf_counter()
        leaves = perft(start, depth)
        took = time.perf_counter() - t
        rate = f"{leaves / took if took else 0:,.0f}"
        print("  ".join([say(Said("cli.perft.depth", n=depth, k=leaves), args.lang), f"{took:.3f} s",
                         say(Said("cli.perft.rate", n=rate), args.lang)]))
    return 0
