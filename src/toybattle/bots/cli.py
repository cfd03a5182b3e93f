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

from ..errors import UserError, os_words
from ..rules import SEATS, TERRAIN_IDS, NotationError, action_text, observation, parse_position
from ..said import Said, of_error, say
from . import DEFAULT_LEVEL, LEVEL_NAMES, make_bot
from .arena import ClusterError, DealResult, MatchReport, MatchSpec, plot_svg, run_match, split_budget
from .engine import serve
from .stats import elo, score_interval

LEVEL_NAMES_TEXT = ", ".join(LEVEL_NAMES)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("arena", help=Said("cli.arena.help"),
                       description=Said("cli.arena.description", levels=LEVEL_NAMES_TEXT))
    p.add_argument("bot_a", metavar="BOT_A")
    p.add_argument("bot_b", metavar="BOT_B")
    p.add_argument("--games", type=int, default=100, metavar=Said("cli.metavar.games"),
                   help=Said("cli.arena.help.games"))
    p.add_argument("--terrain", default="castle", help=Said("cli.arena.help.terrain"))
    p.add_argument("--mode", default="standard", choices=("standard", "first-game"))
    p.add_argument("--workers", type=int, default=1, metavar=Said("cli.metavar.workers"),
                   help=Said("cli.arena.help.workers"))
    p.add_argument("--cluster", metavar=Said("cli.metavar.address"), help=Said("cli.arena.help.cluster"))
    p.add_argument("--sprt", metavar="ELO0,ELO1", help=Said("cli.arena.help.sprt"))
    p.add_argument("--seed", type=int, default=1, metavar=Said("cli.metavar.seed"), help=Said("cli.arena.help.seed"))
    p.add_argument("--time", type=float, default=1.0, metavar=Said("cli.metavar.seconds"),
                   help=Said("cli.arena.help.time"))
    p.add_argument("--records", metavar=Said("cli.metavar.dir"), help=Said("cli.arena.help.records"))
    p.add_argument("--engine-log", metavar=Said("cli.metavar.dir"), help=Said("cli.arena.help.engineLog"))
    p.add_argument("--json", action="store_true", help=Said("cli.arena.help.json"))
    p.add_argument("--plot", metavar=Said("cli.metavar.svg"), help=Said("cli.arena.help.plot"))
    p.set_defaults(run=cmd_arena)
    p = sub.add_parser("engine", help=Said("cli.engine.help"), description=Said("cli.engine.description"))
    p.add_argument("--level", default=DEFAULT_LEVEL, metavar=Said("cli.metavar.level"),
                   help=Said("cli.help.level", levels=LEVEL_NAMES_TEXT, level=DEFAULT_LEVEL))
    p.add_argument("--seed", type=int, default=None, metavar=Said("cli.metavar.seed"))
    p.set_defaults(run=cmd_engine)
    p = sub.add_parser("hint", help=Said("cli.hint.help"))
    p.add_argument("file", metavar=Said("cli.metavar.file"), help=Said("cli.hint.help.file"))
    p.add_argument("--level", default=DEFAULT_LEVEL, metavar=Said("cli.metavar.level"),
                   help=Said("cli.help.level", levels=LEVEL_NAMES_TEXT, level=DEFAULT_LEVEL))
    p.add_argument("--seed", type=int, default=None, metavar=Said("cli.metavar.seed"))
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_hint)


def _check_level(name: str) -> str:
    """The level's name; UserError if there is no such level or it cannot be built (a broken data file)."""
    if name not in LEVEL_NAMES:
        raise UserError(Said("error.unknownLevelOf", what=repr(name), levels=LEVEL_NAMES_TEXT))
    try:
        return make_bot(name).level
    except ValueError as e:  # UnknownLevel, or the sparring bot's WeightsError
        raise UserError(of_error(e)) from None


def _bot_spec(spec: str) -> str:
    if spec.startswith("cmd:"):
        if not spec[4:].strip():
            raise UserError(Said("cli.arena.error.cmd", text="'cmd:toybattle engine --level easy'"))
        return spec
    try:
        name, budget = split_budget(spec)
    except ValueError as e:
        raise UserError(of_error(e)) from None
    return _check_level(name) + ("" if budget is None else f"@{budget:g}")


def _sprt(text: str | None) -> tuple[float, float] | None:
    if text is None:
        return None
    try:
        e0, e1 = (float(x) for x in text.split(","))
    except ValueError:
        raise UserError(Said("cli.arena.error.sprt", kind="ELO0,ELO1", text=repr(text))) from None
    if not e1 > e0:
        raise UserError(Said("cli.arena.error.sprtOrder"))
    return e0, e1


def _terrains(name: str) -> tuple[str, ...]:
    if name == "all":
        return tuple(TERRAIN_IDS)
    if name in TERRAIN_IDS:
        return (name,)
    raise UserError(Said("cli.error.unknownTerrain", what=repr(name), name=", ".join(TERRAIN_IDS)))


def _writable_dir(path: str | None, option: str) -> str | None:
    """``path`` made into a directory we can write in; UserError if it cannot be."""
    if path is None:
        return None
    try:
        os.makedirs(path, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as e:
        raise UserError(Said("cli.error.cannotWriteIn", kind=option, name=path, why=os_words(e))) from None
    return path


def _match_spec(args: argparse.Namespace) -> MatchSpec:
    a, b = _bot_spec(args.bot_a), _bot_spec(args.bot_b)
    if args.games < 2:
        raise UserError(Said("cli.arena.error.games"))
    if args.workers < 1:
        raise UserError(Said("cli.arena.error.workers"))
    if not 0 < args.time < math.inf:
        raise UserError(Said("cli.arena.error.time", text=f"{args.time:g}"))
    if args.cluster is not None and not args.cluster.strip():
        raise UserError(Said("cli.arena.error.cluster"))
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
            raise UserError(Said("cli.error.cannotWrite", name=args.plot, why=os_words(e))) from None
    signal.signal(signal.SIGTERM, _interrupt)  # a TERM (e.g. kill) still prints the deals played so far
    try:
        report = _run_with_progress(spec, sprt, records, args.lang)
    except ClusterError as e:
        raise UserError(of_error(e)) from None
    if not report.deals:
        raise UserError(Said("cli.arena.error.noDeal"))
    if args.plot:
        with open(args.plot, "w", encoding="utf-8") as f:
            f.write(plot_svg(report))
    out = report.summary()
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        _print_summary(out, args.lang)
    return 0


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def write_records(deal: DealResult, directory: str) -> None:
    """The deal's two games as DIR/deal-NNNNN-a-blue.tbr and ...-a-red.tbr (the seat A played)."""
    for game, text in zip(deal.games, deal.records, strict=True):
        name = f"deal-{deal.index:05d}-a-{SEATS[game.a_seat]}.tbr"
        with open(os.path.join(directory, name), "w", encoding="utf-8") as f:
            f.write(text)


def deal_line(report: MatchReport, lang: str = "en") -> str:
    """One progress line for the deal just played, with the running score, in ``lang``."""
    d = report.deals[-1]
    name_a, name_b = report.names()
    games = ", ".join(say(Said("cli.arena.wonAs", name=name_a if g.a_won else name_b,
                               seat=SEATS[g.a_seat if g.a_won else 1 - g.a_seat], reason=g.reason), lang)
                      for g in d.games)
    m, lo, hi = score_interval(report.deal_scores())
    return say(Said("cli.arena.deal", n=d.index + 1, total=report.spec.deals, terrain=d.terrain, words=games,
                    name=name_a, a=f"{100 * m:.1f}", low=f"{100 * lo:.1f}", high=f"{100 * hi:.1f}",
                    limit=f"{report.seconds:.0f}"), lang)


def _run_with_progress(spec: MatchSpec, sprt: tuple[float, float] | None, records: str | None,
                       lang: str = "en") -> MatchReport:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)

    def note(report: MatchReport) -> None:
        if records:
            write_records(report.deals[-1], records)
        console.print(deal_line(report, lang), highlight=False, markup=False, soft_wrap=True)

    if not console.is_terminal:  # a log file: a plain line per deal
        return run_match(spec, sprt, note)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True) as progress:
        task = progress.add_task(say(Said("cli.arena.versus", name=spec.bot_a, host=spec.bot_b), lang),
                                 total=spec.deals)

        def step(report: MatchReport) -> None:
            note(report)
            progress.update(task, completed=len(report.deals))
        return run_match(spec, sprt, step)


def _fmt_elo(score: float) -> str:
    return "+inf" if score >= 1 else "-inf" if score <= 0 else f"{round(elo(score)):+d}"


def _fmt_think(name: str, t: dict[str, Any], lang: str) -> str:
    parts = []
    for what, key in (("decision", "cli.arena.think.decision"), ("turn", "cli.arena.think.turn")):
        s = t[what]
        if s["count"]:
            parts.append(say(Said(key, a=f"{1000 * s['mean']:.1f}", m=f"{1000 * s['median']:.1f}",
                                  k=f"{1000 * s['max']:.0f}", n=s["count"]), lang))
    if t["cap_hits"]:
        parts.append(say(Said("cli.arena.think.capHits", n=t["cap_hits"], a=f"{100 * t['cap_hit_rate']:.1f}"), lang))
    words = "; ".join(parts) if parts else say(Said("cli.arena.think.none"), lang)
    return say(Said("cli.arena.think", name=name, words=words), lang)


def _print_summary(o: dict[str, Any], lang: str = "en") -> None:
    def line(key: str, **args: Any) -> None:
        print(say(Said(key, **args), lang))

    a, b = o["name_a"], o["name_b"]
    line("cli.arena.summary", name=a, host=b, n=o["games"], k=o["deals"], terrain=", ".join(o["terrains"]),
         kind=o["mode"], limit=str(o["seconds"]))
    if o["interrupted"]:
        line("cli.arena.stopped", n=o["deals"])
    line("cli.arena.wins", name=a, n=o["wins_a"], host=b, k=o["wins_b"])
    line("cli.arena.score", name=a, a=f"{100 * o['score']:.1f}", low=f"{100 * o['score_low']:.1f}",
         high=f"{100 * o['score_high']:.1f}")
    line("cli.arena.elo", a=_fmt_elo(o["score"]), low=_fmt_elo(o["score_low"]), high=_fmt_elo(o["score_high"]))
    line("cli.arena.endings", words=", ".join(f"{k}: {v}" for k, v in o["endings"].items()))
    if len(o["per_terrain"]) > 1:
        line("cli.arena.perTerrain", name=a, words=", ".join(
            f"{t} {100 * r['score']:.1f}% [{100 * r['score_low']:.1f}, {100 * r['score_high']:.1f}] ({r['games']})"
            for t, r in o["per_terrain"].items()))
    print(_fmt_think(a, o["think_s"]["a"], lang))
    print(_fmt_think(b, o["think_s"]["b"], lang))
    if "sprt" in o:
        s = o["sprt"]
        verdict = {"H1": Said("cli.arena.sprt.h1", name=a, a=f"{s['elo1']:+g}"),
                   "H0": Said("cli.arena.sprt.h0", name=a, a=f"{s['elo0']:+g}")}.get(s["decision"],
                                                                                 Said("cli.arena.sprt.undecided"))
        line("cli.arena.sprt", low=f"{s['elo0']:g}", high=f"{s['elo1']:g}", a=f"{s['llr']:.2f}", why=verdict)
    for f in o["forfeits"][:10]:
        line("cli.arena.forfeit", text=f)
    if len(o["forfeits"]) > 10:
        line("cli.arena.moreForfeits", n=len(o["forfeits"]) - 10)


def cmd_engine(args: argparse.Namespace) -> int:
    name = _check_level(args.level)
    return serve(name, args.seed, sys.stdin, sys.stdout)


def cmd_hint(args: argparse.Namespace) -> int:
    name = _check_level(args.level)
    try:
        with open(args.file, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(Said("cli.error.cannotRead", name=args.file, why=os_words(e))) from None
    try:
        s = parse_position(text)
    except NotationError as e:
        raise UserError(Said("cli.error.inFile", name=args.file, why=of_error(e))) from None
    if s.over or s.is_chance:
        raise UserError(Said("cli.error.inFile", name=args.file,
                             why=Said("cli.hint.error.noDecision", what=s.describe_decision())))
    obs = observation(s, s.actor)
    a, why = make_bot(name, args.seed).hint(obs)
    if args.json:
        print(json.dumps({"level": name, "action": action_text(a, obs.b), "reason": why,
                          "deciding": obs.describe_decision()}, indent=1))
    else:
        print(say(obs.describe_decision(), args.lang))
        print(say(Said("cli.hint.suggested", action=action_text(a, obs.b), why=why), args.lang))
    return 0
