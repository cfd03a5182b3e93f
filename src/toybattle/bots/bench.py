"""Measure the bots on one core: think time per move for every level, and search speed.

    python -m toybattle.bots.bench [--positions 60] [--terrain castle] [--level NAME ...] [--json]

Positions are the observations met in games between two greedy bots (a fixed seed), so they
look like real play; the median over them is reported (docs/benchmarks.md).
"""
from __future__ import annotations

import json
import random
import statistics
import time
from typing import Any

from .. import cli_lang
from ..rules import State, observation
from ..said import Said, say
from . import LEVELS, level, make_bot
from .players import SearchBot, simulations_per_second


def sample_positions(count: int, terrain: str, seed: int = 1) -> list[State]:
    """Observations of the seat to move at its decisions, from greedy-vs-greedy games."""
    rng = random.Random(seed)
    out: list[State] = []
    bots = [make_bot("greedy", seed), make_bot("greedy", seed + 1)]
    game = 0
    while len(out) < count:
        s = State.new(terrain, seed=seed * 1000 + game)
        game += 1
        while len(out) < count:
            s.resolve_chance(rng)
            if s.over:
                break
            obs = observation(s, s.actor)
            if len(obs.legal_actions()) > 1 and rng.random() < 0.5:
                out.append(obs)
            s.apply_unchecked(bots[s.actor].choose(obs))
    return out


def measure(positions: list[State], names: list[str] | None = None) -> dict[str, Any]:
    """Think times of the levels ``names`` (default: the ladder) over ``positions``, and search speed."""
    rows = {}
    for lv in [level(n) for n in names] if names else LEVELS:
        bot = make_bot(lv.name, seed=1)
        times, sims = [], []
        for obs in positions:
            t0 = time.perf_counter()
            bot.choose(obs)
            times.append(time.perf_counter() - t0)
            if isinstance(bot, SearchBot):
                sims.append(bot.last_info.get("simulations", 0))
            elif "positions" in bot.last_info:  # beam and reply levels: positions scored (their work, not the load's)
                sims.append(bot.last_info["positions"])
        rows[lv.name] = {"budget_s": lv.budget_s, "median_s": statistics.median(times), "max_s": max(times),
                         "median_simulations": statistics.median(sims) if sims else None}
    speed = [simulations_per_second(obs, 0.5, seed=k) for k, obs in enumerate(positions[:20])]
    return {"positions": len(positions), "levels": rows,
            "simulations_per_s_median": statistics.median(speed)}


def main() -> None:
    lang = cli_lang.system_lang()  # the user's language, as the toybattle command's (toybattle.cli_lang)
    cli_lang.install()
    p = cli_lang.Parser(description=Said("cli.benchBots.description"), lang=lang)
    p.add_argument("--positions", type=int, default=60, metavar=Said("cli.metavar.positions"))
    p.add_argument("--terrain", default="castle", metavar="TERRAIN")
    p.add_argument("--level", action="append", metavar=Said("cli.metavar.level"),
                   help=Said("cli.benchBots.help.level"))
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    r = measure(sample_positions(args.positions, args.terrain), args.level)
    if args.json:
        print(json.dumps(r, indent=1))
        return
    for name, row in r["levels"].items():
        times = {"name": f"{name:<8}", "a": f"{row['budget_s']:.1f}", "m": f"{1000 * row['median_s']:.1f}",
                 "k": f"{1000 * row['max_s']:.0f}"}
        if row["median_simulations"] is None:
            print(say(Said("cli.benchBots.level", **times), lang))
            continue
        work = "cli.benchBots.simulations" if level(name).kind == "search" else "cli.benchBots.scored"
        print(say(Said("cli.benchBots.levelWork", **times, words=Said(work, n=f"{row['median_simulations']:.0f}")),
                  lang))
    print(say(Said("cli.benchBots.speed", n=f"{r['simulations_per_s_median']:.0f}"), lang))


if __name__ == "__main__":
    main()
