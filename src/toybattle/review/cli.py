"""``toybattle review FILE [--seat blue|red] [--json] [--lang en|fr]`` and
``toybattle puzzles [--check | --list] [--json]``."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..bots.analysis import Effort
from ..errors import UserError, os_words
from ..rules import SEATS, IllegalAction, NotationError, parse_record
from ..rules.terrain import load_terrain
from ..said import LANGS, Said, of_error, say
from .game import REVIEW_EFFORT, Review, analyse
from .puzzles import builtin_puzzles, check_puzzle

MAX_RECORD = 200_000  # characters: a whole game's record is a few hundred
REASONS = {"hq": "review.reason.hq", "medals": "review.reason.medals", "stuck": "review.reason.stuck",
           "conceded": "review.reason.conceded"}  # how a game ended, as the review says it


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("review", help=Said("cli.review.help"))
    p.add_argument("file", metavar=Said("cli.metavar.file"), help=Said("cli.review.help.file"))
    p.add_argument("--seat", choices=SEATS, help=Said("cli.review.help.seat"))
    p.add_argument("--json", action="store_true", help=Said("cli.review.help.json"))
    # None: the command line's language (toybattle.cli sets it from the environment)
    p.add_argument("--lang", choices=LANGS, default=None, help=Said("cli.review.help.lang"))
    p.add_argument("--samples", type=int, default=None, help=argparse.SUPPRESS)  # tests: a smaller effort
    p.set_defaults(run=cmd_review)
    p = sub.add_parser("puzzles", help=Said("cli.puzzles.help"))
    p.add_argument("--check", action="store_true", help=Said("cli.puzzles.help.check"))
    p.add_argument("--list", action="store_true", help=Said("cli.puzzles.help.list"))
    p.add_argument("--json", action="store_true", help=Said("cli.help.json"))
    p.set_defaults(run=cmd_puzzles)


def cmd_review(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        text = path.read_text("utf-8")[:MAX_RECORD + 1]
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(Said("cli.error.cannotRead", name=str(path), why=os_words(e))) from None
    if len(text) > MAX_RECORD:
        raise UserError(Said("cli.review.error.tooBig", name=str(path)))
    try:
        record = parse_record(text)
    except NotationError as e:
        raise UserError(Said("cli.error.inFile", name=str(path), why=of_error(e))) from None
    viewer = None if args.seat is None else SEATS.index(args.seat)
    effort = REVIEW_EFFORT if not args.samples else Effort(samples=max(1, args.samples), candidates=4)
    show = sys.stderr.isatty() and not args.json
    try:
        review = analyse(record, viewer=viewer, effort=effort, progress=_progress if show else None)
    except (IllegalAction, ValueError) as e:  # a refused action; a record whose start hides a rack's tiles
        raise UserError(Said("cli.error.inFile", name=str(path), why=of_error(e))) from None
    if show:
        print(file=sys.stderr)
    if args.json:
        print(json.dumps(review.to_json(), indent=1, ensure_ascii=False))
    else:
        print(text_review(review, args.lang))
    return 0


def _progress(done: int, total: int) -> None:
    print(f"\r{done}/{total}", end="", file=sys.stderr, flush=True)


def _seat(seat: int) -> str:
    """A seat's word, as a message's ``seat`` argument (said in the message's language)."""
    return SEATS[seat].capitalize()


def text_review(review: Review, lang: str = "en") -> str:
    """The review for the terminal, in ``lang``: the chart as a table with bars, then each side's costliest turns."""
    terrain = load_terrain(review.terrain) if review.terrain else None
    name = "?" if terrain is None else terrain.name_fr if lang == "fr" else terrain.name
    lines = [say(Said("review.cli.title", terrain=name), lang)]
    if review.viewer is not None:
        lines.append(say(Said("review.cli.viewer", seat=_seat(review.viewer)), lang))
    lines.append("")
    turn = say(Said("review.cli.turn"), lang)
    blue, red = say(Said("seat.Blue"), lang), say(Said("seat.Red"), lang)
    lines.append(f"{turn:>5}  {'':<5} {blue:>5} {red:>5}")
    for k, seat in enumerate(review.turns):
        pb, pr = review.chart[0][k], review.chart[1][k]
        bar = "#" * round(pb * 20)
        lines.append(f"{k + 1:>5}  {say(Said(f'seat.{_seat(seat)}'), lang):<5} {pb:>5.0%} {pr:>5.0%}  |{bar:<20}|")
    if review.winner >= 0:
        how = Said(REASONS[review.reason]) if review.reason in REASONS else review.reason
        lines += ["", say(Said("review.cli.winner", seat=_seat(review.winner), reason=how), lang)]
    for seat in (0, 1):
        costly = review.costly(seat)
        if review.viewer is not None and seat != review.viewer:
            continue
        lines.append("")
        if not costly:
            lines.append(say(Said("review.cli.none", seat=_seat(seat)), lang))
            continue
        lines.append(say(Said("review.cli.costliest", seat=_seat(seat)), lang))
        for d in costly:
            lines.append("  " + say(Said("review.cli.costly", turn=d.turn, index=d.index, action=d.action, best=d.best,
                                         after=round(d.after * 100), before=round(d.before * 100)), lang))
            for m in d.why:
                lines.append("    - " + say(m, lang))
    return "\n".join(lines)


def cmd_puzzles(args: argparse.Namespace) -> int:
    try:
        puzzles = builtin_puzzles()
    except ValueError as e:
        raise UserError(Said("cli.puzzles.error.broken", why=of_error(e))) from None
    problems: dict[str, str] = {}
    if args.check:
        for p in puzzles:
            why = check_puzzle(p)
            if why:
                problems[p.id] = why
    if args.json:
        rows = [p.to_json() | ({"problem": problems.get(p.id)} if args.check else {}) for p in puzzles]
        print(json.dumps(rows, indent=1, ensure_ascii=False))
    elif args.check:
        for why in problems.values():
            print(say(why, args.lang))
        print(say(Said("puzzles.cli.ok", ok=len(puzzles) - len(problems), total=len(puzzles)), args.lang),
              file=sys.stderr)
    else:
        for p in puzzles:
            print("  ".join([p.id, p.terrain, say(Said("puzzles.cli.toPlay", seat=SEATS[p.seat]), args.lang),
                             say(Said("puzzles.cli.difficulty", difficulty=p.difficulty), args.lang)]))
    return 1 if problems else 0


__all__ = ["cmd_puzzles", "cmd_review", "register", "text_review"]
