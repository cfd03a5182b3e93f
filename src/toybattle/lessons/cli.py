"""``toybattle lessons [--check] [--json]`` and ``toybattle rules [TOPIC] [--json]``."""
from __future__ import annotations

import argparse
import json
import sys
import textwrap

from ..errors import UserError
from ..said import Said, say
from . import rulebook
from .check import check_lesson
from .lesson import LessonError, all_lessons


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("lessons", help=Said("cli.lessons.help"))
    p.add_argument("--check", action="store_true", help=Said("cli.lessons.help.check"))
    p.add_argument("--json", action="store_true", help=Said("cli.help.json"))
    p.set_defaults(run=cmd_lessons)
    p = sub.add_parser("rules", help=Said("cli.rules.help"))
    p.add_argument("topic", nargs="?", metavar=Said("cli.metavar.topic"), help=Said("cli.rules.help.topic"))
    p.add_argument("--json", action="store_true", help=Said("cli.help.json"))
    p.set_defaults(run=cmd_rules)


def cmd_lessons(args: argparse.Namespace) -> int:
    try:
        # JSON stays as it is (English); the list is in the user's language
        lessons = all_lessons() if args.json or args.lang == "en" else all_lessons(args.lang)
    except LessonError as e:
        raise UserError(Said("cli.lessons.error.broken", why=str(e))) from None
    rows = [lesson.summary() for lesson in lessons]
    failed = 0
    if args.check:
        for row, lesson in zip(rows, lessons, strict=True):
            row["problems"] = check_lesson(lesson)
            failed += bool(row["problems"])
    if args.json:
        print(json.dumps(rows, indent=1, ensure_ascii=False))
    else:
        width = max(len(r["id"]) for r in rows)
        for r in rows:
            mark = "" if "problems" not in r else ("ok    " if not r["problems"] else "FAIL  ")  # codes, aligned
            print(f"{mark}{r['id']:<{width}}  {r['topic']:<10}  {r['title']}")
        if args.check:
            for r in rows:
                for p in r["problems"]:
                    print(say(Said("cli.lessons.problem", name=r["id"], why=p), args.lang), file=sys.stderr)
            print(say(Said("cli.lessons.passed", ok=len(rows) - failed, n=len(rows)), args.lang))
    return 1 if failed else 0


def cmd_rules(args: argparse.Namespace) -> int:
    try:
        book = rulebook.load() if args.json or args.lang == "en" else rulebook.load_in(args.lang)
    except rulebook.RulebookError as e:
        raise UserError(Said("cli.rules.error.broken", why=str(e))) from None
    if args.topic is None:
        if args.json:
            print(json.dumps(rulebook.as_json(book), indent=1, ensure_ascii=False))
            return 0
        print(say(Said("cli.rules.topics"), args.lang))
        for t in book.topics:
            print(f"  {t.id:<12} {t.title}")
        faq = say(Said("cli.rules.faq", n=len(book.faq)), args.lang)
        print(f"  {'faq':<12} {faq}")
        return 0
    topic = args.topic.lower()
    if topic not in book.topic_ids():
        raise UserError(Said("cli.rules.error.topic", what=repr(args.topic), name=", ".join(book.topic_ids())))
    if args.json:
        print(json.dumps(rulebook.as_json(book, topic), indent=1, ensure_ascii=False))
        return 0
    print(render(book, topic, args.lang))
    return 0


def _wrap(text: str, indent: str) -> str:
    return textwrap.fill(text, width=88, initial_indent=indent, subsequent_indent=indent + "  ")


def render(book: rulebook.Rulebook, topic: str, lang: str = "en") -> str:
    """A topic (or the FAQ) as plain text for the terminal, its own words in ``lang``."""
    lines = []
    if topic != "faq":
        t = book.topic(topic)
        lines.append(t.title.upper())
        for r in t.rules:
            lines.append(_wrap("- " + r.text, ""))
            lines.append(f"    [{r.source}]")
    faq = [q for q in book.faq if topic == "faq" or q.topic == topic]
    if faq:
        lines.append("" if topic != "faq" else say(Said("cli.rules.faqTitle"), lang))
        if topic != "faq":
            lines.append(say(Said("cli.rules.questions"), lang))
        for q in faq:
            lines.append(_wrap(say(Said("cli.rules.question", text=q.question), lang), ""))
            lines.append(_wrap(say(Said("cli.rules.answer", text=q.answer), lang), ""))
            lines.append(f"    [{q.source}]")
            lines.append("")
    return "\n".join(lines)
