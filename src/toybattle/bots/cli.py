"""Subcommands: ``arena`` (bot against bot), ``engine`` (the line protocol), ``hint`` (a suggested action)."""
from __future__ import annotations

import argparse
import json
import signal
import sys

from ..errors import UserError
from ..rules import TERRAIN_IDS, NotationError, action_text, observation, parse_position
from . import DEFAULT_LEVEL, LEVELS, UnknownLevel, level, make_bot

LEVEL_NAMES = ", ".join(lv.name for lv in LEVELS)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("arena", help="play two bots against each other on duplicate deals",
                       description="Each deal is played twice, seats swapped. A bot is a level "
                       f"({LEVEL_NAMES}) or cmd:COMMAND, a program speaking docs/engine-protocol.md.")
    p.add_argument("bot_a", metavar="BOT_A")
    p.add_argument("bot_b", metavar="BOT_B")
    p.add_argument("--games", type=int, default=100, help="games to play (two per deal; default 100)")
    p.add_argument("--terrain", default="castle", help="a terrain id or 'all' (cycled deal by deal)")
    p.add_argument("--mode", default="standard", choices=("standard", "first-game"))
    p.add_argument("--workers", type=int, default=1, help="processes playing deals at once (default 1)")
    p.add_argument("--sprt", metavar="ELO0,ELO1", help="stop when the sequential test decides between "
                   "'A is ELO0 stronger' and 'A is ELO1 stronger' (5%% errors)")
    p.add_argument("--seed", type=int, default=1, help="the deals' seed (default 1)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--plot", metavar="FILE.svg", help="draw A's running score and its interval")
    p.set_defaults(run=cmd_arena)
    p = sub.add_parser("engine", help="speak the engine line protocol on stdin/stdout",
                       description="See docs/engine-protocol.md.")
    p.add_argument("--level", default=DEFAULT_LEVEL, help=f"bot level ({LEVEL_NAMES}; default {DEFAULT_LEVEL})")
    p.add_argument("--seed", type=int, default=None)
    p.set_defaults(run=cmd_engine)
    p = sub.add_parser("hint", help="suggest an action for the seat to move in a position file")
    p.add_argument("file", help="a position (docs/notation.md); only the mover's view of it is used")
    p.add_argument("--level", default=DEFAULT_LEVEL, help=f"bot level ({LEVEL_NAMES}; default {DEFAULT_LEVEL})")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_hint)


def _check_level(name: str) -> str:
    try:
        return level(name).name
    except UnknownLevel as e:
        raise UserError(str(e)) from None


def _bot_spec(spec: str) -> str:
    if spec.startswith("cmd:"):
        if not spec[4:].strip():
            raise UserError("cmd: needs a command, e.g. 'cmd:toybattle engine --level easy'")
        return spec
    return _check_level(spec)


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


def cmd_arena(args) -> int:
    from .arena import MatchSpec, plot_svg
    a, b = _bot_spec(args.bot_a), _bot_spec(args.bot_b)
    if args.games < 2:
        raise UserError("--games must be at least 2 (one duplicate deal)")
    if args.workers < 1:
        raise UserError("--workers must be at least 1")
    if args.terrain == "all":
        terrains = TERRAIN_IDS
    elif args.terrain in TERRAIN_IDS:
        terrains = (args.terrain,)
    else:
        raise UserError(f"unknown terrain {args.terrain!r} (one of: {', '.join(TERRAIN_IDS)}, or all)")
    sprt = _sprt(args.sprt)
    if args.plot:
        try:
            open(args.plot, "a").close()
        except OSError as e:
            raise UserError(f"cannot write {args.plot}: {e.strerror or e}") from None
    deals = (args.games + 1) // 2
    spec = MatchSpec(a, b, deals, terrains, args.mode == "first-game", args.seed, args.workers)
    signal.signal(signal.SIGTERM, _interrupt)  # a TERM (e.g. kill) still prints the deals played so far
    report = _run_with_progress(spec, sprt)
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


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def _run_with_progress(spec, sprt):
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from .arena import run_match
    from .stats import score_interval
    console = Console(stderr=True)

    def line(report) -> str:
        m, lo, hi = score_interval(report.deal_scores())
        return f"{spec.bot_a} vs {spec.bot_b}: {100 * m:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"

    if not console.is_terminal:  # a log file: a plain line every 10 deals
        def note(report) -> None:
            n = len(report.deals)
            if n % 10 == 0 or n == spec.deals or report.decision:
                print(f"{n}/{spec.deals} deals  {line(report)}  {report.seconds:.0f} s", file=sys.stderr, flush=True)
        return run_match(spec, sprt, note)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True) as progress:
        task = progress.add_task(f"{spec.bot_a} vs {spec.bot_b}", total=spec.deals)
        return run_match(spec, sprt, lambda r: progress.update(task, completed=len(r.deals), description=line(r)))


def _fmt_elo(score: float) -> str:
    from .stats import elo
    return "+inf" if score >= 1 else "-inf" if score <= 0 else f"{round(elo(score)):+d}"


def _print_summary(o: dict) -> None:
    print(f"{o['bot_a']} vs {o['bot_b']}: {o['games']} games ({o['deals']} duplicate deals) on "
          f"{', '.join(o['terrains'])} ({o['mode']}), {o['seconds']} s")
    if o["interrupted"]:
        print(f"stopped early: {o['deals']} deals played")
    print(f"wins: {o['bot_a']} {o['wins_a']}, {o['bot_b']} {o['wins_b']}")
    print(f"score of {o['bot_a']}: {100 * o['score']:.1f}% (95% interval {100 * o['score_low']:.1f}% to "
          f"{100 * o['score_high']:.1f}%)")
    print(f"Elo difference: {_fmt_elo(o['score'])} (95% interval {_fmt_elo(o['score_low'])} to "
          f"{_fmt_elo(o['score_high'])})")
    print("endings: " + ", ".join(f"{k}: {v}" for k, v in o["endings"].items()))
    med = o["median_think_s"]
    print("median think per move: " + ", ".join(
        f"{name} {1000 * v:.1f} ms" for name, v in ((o['bot_a'], med['a']), (o['bot_b'], med['b'])) if v is not None))
    if "sprt" in o:
        s = o["sprt"]
        verdict = {"H1": f"accepted H1: {o['bot_a']} is at least {s['elo1']:+g} Elo stronger",
                   "H0": f"accepted H0: {o['bot_a']} is at most {s['elo0']:+g} Elo stronger"}.get(s["decision"],
                                                                                                "undecided")
        print(f"SPRT [{s['elo0']:g}, {s['elo1']:g}]: LLR {s['llr']:.2f}, {verdict}")
    for f in o["forfeits"][:10]:
        print("forfeit: " + f)
    if len(o["forfeits"]) > 10:
        print(f"... and {len(o['forfeits']) - 10} more forfeits")


def cmd_engine(args) -> int:
    from .engine import serve
    name = _check_level(args.level)
    return serve(name, args.seed, sys.stdin, sys.stdout)


def cmd_hint(args) -> int:
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
