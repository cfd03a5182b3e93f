"""``toybattle lessons [--check] [--json]`` and ``toybattle rules [TOPIC] [--json]``."""
from __future__ import annotations

import argparse
import json
import sys
import textwrap

from ..errors import UserError
from . import rulebook
from .check import check_lesson
from .lesson import LessonError, all_lessons


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("lessons", help="list the lessons; --check verifies each one with the rules engine")
    p.add_argument("--check", action="store_true", help="verify every lesson; exit 1 if any fails")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=cmd_lessons)
    p = sub.add_parser("rules", help="the rules and the FAQ, by topic")
    p.add_argument("topic", nargs="?", help="a topic id, or 'faq'; omit to list topics")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=cmd_rules)


def cmd_lessons(args: argparse.Namespace) -> int:
    try:
        lessons = all_lessons()
    except LessonError as e:
        raise UserError(f"lesson data is broken: {e}") from None
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
            mark = "" if "problems" not in r else ("ok    " if not r["problems"] else "FAIL  ")
            print(f"{mark}{r['id']:<{width}}  {r['topic']:<10}  {r['title']}")
        if args.check:
            for r in rows:
                for p in r["problems"]:
                    print(f"lesson {r['id']}: {p}", file=sys.stderr)
            print(f"{len(rows) - failed} of {len(rows)} lessons pass the engine's checks")
    return 1 if failed else 0


def cmd_rules(args: argparse.Namespace) -> int:
    try:
        book = rulebook.load()
    except rulebook.RulebookError as e:
        raise UserError(f"rules data is broken: {e}") from None
    if args.topic is None:
        if args.json:
            print(json.dumps(rulebook.as_json(book), indent=1, ensure_ascii=False))
            return 0
        print("Toy Battle rules, by topic (toybattle rules TOPIC):")
        for t in book.topics:
            print(f"  {t.id:<12} {t.title}")
        print(f"  {'faq':<12} Questions and answers ({len(book.faq)})")
        return 0
    topic = args.topic.lower()
    if topic not in book.topic_ids():
        raise UserError(f"unknown topic {args.topic!r} (topics: {', '.join(book.topic_ids())})")
    if args.json:
        print(json.dumps(rulebook.as_json(book, topic), indent=1, ensure_ascii=False))
        return 0
    print(render(book, topic))
    return 0


def _wrap(text: str, indent: str) -> str:
    return textwrap.fill(text, width=88, initial_indent=indent, subsequent_indent=indent + "  ")


def render(book: rulebook.Rulebook, topic: str) -> str:
    """A topic (or the FAQ) as plain text for the terminal."""
    lines = []
    if topic != "faq":
        t = book.topic(topic)
        lines.append(t.title.upper())
        for r in t.rules:
            lines.append(_wrap("- " + r.text, ""))
            lines.append(f"    [{r.source}]")
    faq = [q for q in book.faq if topic == "faq" or q.topic == topic]
    if faq:
        lines.append("" if topic != "faq" else "QUESTIONS AND ANSWERS")
        if topic != "faq":
            lines.append("Questions")
        for q in faq:
            lines.append(_wrap("Q. " + q.question, ""))
            lines.append(_wrap("A. " + q.answer, ""))
            lines.append(f"    [{q.source}]")
            lines.append("")
    return "\n".join(lines)
