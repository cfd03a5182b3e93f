"""The rules and FAQ data: every rule has a source, every FAQ answer that states a rule names an
engine test, and every named test exists."""
from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

from toybattle.lessons import rulebook

ROOT = Path(__file__).resolve().parents[2]
BOOK = rulebook.load()


@cache
def _test_names(path: str) -> frozenset[str]:
    tree = ast.parse((ROOT / path).read_text("utf-8"))
    return frozenset(n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name.startswith("test"))


def test_every_rule_and_answer_names_its_source():
    assert len(BOOK.topics) >= 9
    for t in BOOK.topics:
        for r in t.rules:
            assert r.source.strip() and r.text.strip()
    for q in BOOK.faq:
        assert q.source.strip() and q.answer.strip()


def test_faq_answers_every_question_of_the_seed():
    # common rules (12), troops (8), terrains and mode (10), getting started (2) — merged where they repeat
    ids = {q.id for q in BOOK.faq}
    must = {"starting-troops", "draw-one-slot", "covering-own-vs-enemy", "effects-order", "stuck-compare",
            "objective-not-three", "hook-to-hq", "cut-off-stays", "kwak-anywhere", "stacks-uncovered",
            "region-no-connection", "laid-counts", "skully-draw", "capn-extra", "jumbo-target", "hook-waiver",
            "xb42-discard", "star-optional", "roxy-effect", "kwak-roxy", "first-game-mode", "castle-tower",
            "pool-restrictions", "clouds-draw", "jungle-shove", "cemetery-setup", "caribbean-hq",
            "station-effects", "battlefield-laid", "who-for", "remember"}
    assert must <= ids


@pytest.mark.parametrize("q", BOOK.faq, ids=[q.id for q in BOOK.faq])
def test_faq_names_an_engine_test_that_exists(q):
    if q.test is None:
        assert q.id == "who-for"  # the only answer that states no rule
        return
    path, _, name = q.test.partition("::")
    assert (ROOT / path).is_file(), f"{q.id}: {path} does not exist"
    assert name in _test_names(path), f"{q.id}: no test {name} in {path}"


def test_unknown_rulebook_shapes_are_refused():
    with pytest.raises(rulebook.RulebookError):
        rulebook.parse({"topics": [], "faq": []})
    good = {"topics": [{"id": "end", "title": "End", "rules": [{"text": "t", "source": "s"}]}], "faq": []}
    assert rulebook.parse(good).topic_ids() == ["end", "faq"]
    bad_test = good | {"faq": [{"id": "x", "topic": "end", "question": "q", "answer": "a", "source": "s",
                                "test": "tests/x.py"}]}
    with pytest.raises(rulebook.RulebookError, match="test"):
        rulebook.parse(bad_test)


def test_rulings_doc_points_back_at_the_same_tests():
    """docs/rulings.md (the rules tests' map) and the FAQ data name the same engine tests."""
    text = (ROOT / "docs" / "rulings.md").read_text("utf-8")
    missing = [q.test for q in BOOK.faq if q.test and q.test.split("::")[1] not in text]
    assert not missing, f"docs/rulings.md does not mention: {missing}"
