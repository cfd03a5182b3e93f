"""The terminal commands: toybattle lessons [--check] [--json], toybattle rules [TOPIC]."""
from __future__ import annotations

import dataclasses
import json

from toybattle import cli
from toybattle.lessons import cli as lessons_cli
from toybattle.lessons import lesson
from toybattle.lessons.lesson import Answer


def test_lessons_lists_id_title_topic(capsys):
    assert cli.main(["lessons"]) == 0
    out = capsys.readouterr().out
    assert "roxy-medals" in out and "first-game" in out and "Which placement takes the medals?" in out
    assert cli.main(["lessons", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {"id": "kwak-joker", "title": "Kwak: the joker that covers anything", "topic": "troops"} in rows


def test_lessons_check_passes(capsys):
    assert cli.main(["lessons", "--check", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows and all(r["problems"] == [] for r in rows)


def test_lessons_check_fails_with_one_line_per_problem(capsys, monkeypatch):
    broken = dataclasses.replace(lesson("roxy-medals"), answers=(Answer(("7@17",), "no"),))
    monkeypatch.setattr(lessons_cli, "all_lessons", lambda: (lesson("kwak-joker"), broken))
    assert cli.main(["lessons", "--check"]) == 1
    captured = capsys.readouterr()
    assert "FAIL  roxy-medals" in captured.out and "ok    kwak-joker" in captured.out
    errors = captured.err.strip().splitlines()
    assert errors and all(line.startswith("lesson roxy-medals: answer 7@17") for line in errors)


def test_rules_topics_topic_faq_and_unknown(capsys):
    assert cli.main(["rules"]) == 0
    assert "placement" in capsys.readouterr().out
    assert cli.main(["rules", "troops"]) == 0
    out = capsys.readouterr().out
    assert "Kwak (joker)" in out and "Player aid p. 1" in out and "Can Kwak cover a Roxy?" in out
    assert cli.main(["rules", "faq", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["faq"]) >= 31
    assert cli.main(["rules", "nonsense"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "unknown topic 'nonsense'" in err and "troops" in err
