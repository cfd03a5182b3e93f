"""Subcommands: ``arena`` (bot against bot), ``engine`` (the line protocol), ``hint`` (a suggested action)."""
from __future__ import annotations

import argparse
import json
import math
import os
import signal
import sys
import tempfile
from types import FrameType
from typing import Any

from ..errors import UserError
from ..rules import SEATS, TERRAIN_IDS, NotationError, action_text, observation, parse_position
from . import DEFAULT_LEVEL, LEVEL_NAMES, make_bot
from .arena import ClusterError, DealResult, MatchReport, MatchSpec, plot_svg, run_match, split_budget
from .engine import serve
from .stats import elo, score_interval

LEVEL_NAMES_TEXT = ", ".join(LEVEL_NAMES)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("arena", help="play two bots against each other on duplicate deals",
                       description="Each deal is played twice, seats swapped. A bot is a level "
                       f"({LEVEL_NAMES_TEXT}), LEVEL@SECONDS (the level thinking at most SECONDS a decision, "
                       "e.g. expert@0.35) or cmd:COMMAND, a program speaking docs/engine-protocol.md.")
    p.add_argument("bot_a", metavar="BOT_A")
    p.add_argument("bot_b", metavar="BOT_B")
    p.add_argument("--games", type=int, default=100, help="games to play (two per deal; default 100)")
    p.add_argument("--terrain", default="castle", help="a terrain id or 'all' (cycled deal by deal)")
    p.add_argument("--mode", default="standard", choices=("standard", "first-game"))
    p.add_argument("--workers", type=int, default=1, help="processes playing deals at once (default 1)")
    p.add_argument("--cluster", metavar="ADDRESS", help="play the deals on the workers of the Dask cluster whose "
                   "scheduler is at ADDRESS (e.g. tcp://10.0.0.5:8786; needs toybattle[cluster]); "
                   "same results as a local run")
    p.add_argument("--sprt", metavar="ELO0,ELO1", help="stop when the sequential test decides between "
                   "'A is ELO0 stronger' and 'A is ELO1 stronger' (5%% errors)")
    p.add_argument("--seed", type=int, default=1,
                   help="the deals' seed; engines are sent seeds derived from it (default 1)")
    p.add_argument("--time", type=float, default=1.0, metavar="SECONDS",
                   help="per-decision budget of cmd: engines (default 1; built-in levels keep their own); an "
                   "answer later than twice it plus 1 s loses on time")
    p.add_argument("--records", metavar="DIR", help="write every game as a record (.tbr) into DIR")
    p.add_argument("--engine-log", metavar="DIR", help="keep the standard error of cmd: engines in DIR")
    p.add_argument("--json", action="store_true", help="print the result as JSON (with every deal)")
    p.add_argument("--plot", metavar="FILE.svg", help="draw A's running score and its interval")
    p.set_defaults(run=cmd_arena)
    p = sub.add_parser("engine", help="speak the engine line protocol on stdin/stdout",
                       description="See docs/engine-protocol.md.")
    p.add_argument("--level", default=DEFAULT_LEVEL, help=f"bot level ({LEVEL_NAMES_TEXT}; default {DEFAULT_LEVEL})")
    p.add_argument("--seed", type=int, default=None)
    p.set_defaults(run=cmd_engine)
    p = sub.add_parser("hint", help="suggest an action for the seat to move in a position file")
    p.add_argument("file", help="a position (docs/notation.md); only the mover's view of it is used")
    p.add_argument("--level", default=DEFAULT_LEVEL, help=f"bot level ({LEVEL_NAMES_TEXT}; default {DEFAULT_LEVEL})")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_hint)


def _check_level(name: str) -> str:
    """The level's name; UserError if there is no such level or it cannot be built (a broken data file)."""
    try:
        return make_bot(name).level
    except ValueError as e:  # UnknownLevel, or the sparring bot's WeightsError
        raise UserError(str(e)) from None


def _bot_spec(spec: str) -> str:
    if spec.startswith("cmd:"):
        if not spec[4:].strip():
            raise UserError("cmd: needs a command, e.g. 'cmd:toybattle engine --level easy'")
        return spec
    try:
        name, budget = split_budget(spec)
    except ValueError as e:
        raise UserError(str(e)) from None
    return _check_level(name) + ("" if budget is None else f"@{budget:g}")


def _sprt(text: str | None) -> tuple[float, float] | None:
    if text is None:
        return None
    try:
        e0, e1 = (float(x) for x in text.split(","))
    except ValueError:
        raise UserError(f"--sprt wants ELO0,ELO1 (e.g. 0,50), not {text!r}") from None
    if not e1 > e0:
        raise UserError("--sprt: ELO1 must be greater than ELO0")
    return e0, e1


def _terrains(name: str) -> tuple[str, ...]:
    if name == "all":
        return tuple(TERRAIN_IDS)
    if name in TERRAIN_IDS:
        return (name,)
    raise UserError(f"unknown terrain {name!r} (one of: {', '.join(TERRAIN_IDS)}, or all)")


def _writable_dir(path: str | None, option: str) -> str | None:
    """``path`` made into a directory we can write in; UserError if it cannot be."""
    if path is None:
        return None
    try:
        os.makedirs(path, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as e:
        raise UserError(f"{option}: cannot write in {path}: {e.strerror or e}") from None
    return path


def _match_spec(args: argparse.Namespace) -> MatchSpec:
    a, b = _bot_spec(args.bot_a), _bot_spec(args.bot_b)
    if args.games < 2:
        raise UserError("--games must be at least 2 (one duplicate deal)")
    if args.workers < 1:
        raise UserError("--workers must be at least 1")
    if not 0 < args.time < math.inf:
        raise UserError(f"--time must be a number of seconds above 0, not {args.time:g}")
    if args.cluster is not None and not args.cluster.strip():
        raise UserError("--cluster needs the scheduler's address, e.g. tcp://10.0.0.5:8786")
    return MatchSpec(a, b, (args.games + 1) // 2, _terrains(args.terrain), args.mode == "first-game", args.seed,
                     args.workers, args.time, _writable_dir(args.engine_log, "--engine-log"), args.cluster)


def cmd_arena(args: argparse.Namespace) -> int:
    spec = _match_spec(args)
    sprt = _sprt(args.sprt)
    records = _writable_dir(args.records, "--records")
    if args.plot:
        try:
            open(args.plot, "a").close()
        except OSError as e:
            raise UserError(f"cannot write {args.plot}: {e.strerror or e}") from None
    signal.signal(signal.SIGTERM, _interrupt)  # a TERM (e.g. kill) still prints the deals played so far
    try:
        report = _run_with_progress(spec, sprt, records)
    except ClusterError as e:
        raise UserError(str(e)) from None
    if not report.deals:
        raise UserError("stopped before the first deal was played")
    if args.plot:
        with open(args.plot, "w", encoding="utf-8") as f:
            f.write(plot_svg(report))
    out = report.summary()
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        _print_summary(out)
    return 0


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def write_records(deal: DealResult, directory: str) -> None:
    """The deal's two games as DIR/deal-NNNNN-a-blue.tbr and ...-a-red.tbr (the seat A played)."""
    for game, text in zip(deal.games, deal.records, strict=True):
        name = f"deal-{deal.index:05d}-a-{SEATS[game.a_seat]}.tbr"
        with open(os.path.join(directory, name), "w", encoding="utf-8") as f:
            f.write(text)


def deal_line(report: MatchReport) -> str:
    """One progress line for the deal just played, with the running score."""
    d = report.deals[-1]
    name_a, name_b = report.names()
    games = ", ".join(f"{name_a if g.a_won else name_b} won as {SEATS[g.a_seat if g.a_won else 1 - g.a_seat]} "
                      f"({g.reason})" for g in d.games)
    m, lo, hi = score_interval(report.deal_scores())
    return (f"deal {d.index + 1}/{report.spec.deals} {d.terrain}: {games}; {name_a} {100 * m:.1f}% "
            f"[{100 * lo:.1f}, {100 * hi:.1f}] {report.seconds:.0f} s")


def _run_with_progress(spec: MatchSpec, sprt: tuple[float, float] | None, records: str | None) -> MatchReport:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)

    def note(report: MatchReport) -> None:
        if records:
            write_records(report.deals[-1], records)
        console.print(deal_line(report), highlight=False, markup=False, soft_wrap=True)

    if not console.is_terminal:  # a log file: a plain line per deal
        return run_match(spec, sprt, note)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True) as progress:
        task = progress.add_task(f"{spec.bot_a} vs {spec.bot_b}", total=spec.deals)

        def step(report: MatchReport) -> None:
            note(report)
            progress.update(task, completed=len(report.deals))
        return run_match(spec, sprt, step)


def _fmt_elo(score: float) -> str:
    return "+inf" if score >= 1 else "-inf" if score <= 0 else f"{round(elo(score)):+d}"


def _fmt_think(name: str, t: dict[str, Any]) -> str:
    parts = []
    for what in ("decision", "turn"):
        s = t[what]
        if s["count"]:
            parts.append(f"per {what} mean {1000 * s['mean']:.1f} ms, median {1000 * s['median']:.1f} ms, "
                         f"max {1000 * s['max']:.0f} ms ({s['count']})")
    if t["cap_hits"]:
        parts.append(f"time cap hit {t['cap_hits']} times ({100 * t['cap_hit_rate']:.1f}% of decisions)")
    return f"think {name}: " + ("; ".join(parts) or "no decisions")


def _print_summary(o: dict[str, Any]) -> None:
    a, b = o["name_a"], o["name_b"]
    print(f"{a} vs {b}: {o['games']} games ({o['deals']} duplicate deals) on "
          f"{', '.join(o['terrains'])} ({o['mode']}), {o['seconds']} s")
    if o["interrupted"]:
        print(f"stopped early: {o['deals']} deals played")
    print(f"wins: {a} {o['wins_a']}, {b} {o['wins_b']}")
    print(f"score of {a}: {100 * o['score']:.1f}% (95% interval {100 * o['score_low']:.1f}% to "
          f"{100 * o['score_high']:.1f}%)")
    print(f"Elo difference: {_fmt_elo(o['score'])} (95% interval {_fmt_elo(o['score_low'])} to "
          f"{_fmt_elo(o['score_high'])})")
    print("endings: " + ", ".join(f"{k}: {v}" for k, v in o["endings"].items()))
    if len(o["per_terrain"]) > 1:
        print(f"score of {a} per terrain: " + ", ".join(
            f"{t} {100 * r['score']:.1f}% [{100 * r['score_low']:.1f}, {100 * r['score_high']:.1f}] ({r['games']})"
            for t, r in o["per_terrain"].items()))
    print(_fmt_think(a, o["think_s"]["a"]))
    print(_fmt_think(b, o["think_s"]["b"]))
    if "sprt" in o:
        s = o["sprt"]
        verdict = {"H1": f"accepted H1: {a} is at least {s['elo1']:+g} Elo stronger",
                   "H0": f"accepted H0: {a} is at most {s['elo0']:+g} Elo stronger"}.get(s["decision"], "undecided")
        print(f"SPRT [{s['elo0']:g}, {s['elo1']:g}]: LLR {s['llr']:.2f}, {verdict}")
    for f in o["forfeits"][:10]:
        print("forfeit: " + f)
    if len(o["forfeits"]) > 10:
        print(f"... and {len(o['forfeits']) - 10} more forfeits")


def cmd_engine(args: argparse.Namespace) -> int:
    name = _check_level(args.level)
    return serve(name, args.seed, sys.stdin, sys.stdout)


def cmd_hint(args: argparse.Namespace) -> int:
    name = _check_level(args.level)
    try:
        with open(args.file, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(f"cannot read {args.file}: {getattr(e, 'strerror', None) or e}") from None
    try:
        s = parse_position(text)
    except NotationError as e:
        raise UserError(f"{args.file}: {e}") from None
    if s.over or s.is_chance:
        raise UserError(f"{args.file}: no decision to take here ({s.describe_decision()})")
    obs = observation(s, s.actor)
    a, why = make_bot(name, args.seed).hint(obs)
    if args.json:
        print(json.dumps({"level": name, "action": action_text(a, obs.b), "reason": why,
                          "deciding": obs.describe_decision()}, indent=1))
    else:
        print(f"{obs.describe_decision()}\nsuggested: {action_text(a, obs.b)}  ({why})")
    return 0
