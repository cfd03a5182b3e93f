"""The lessons' words (issue 14): one catalogue per language, every key in both, the same placeholders,
every text read by a lesson, and a lesson built in French says French."""
from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest

from toybattle.lessons import texts
from toybattle.lessons.lesson import LessonError, all_lessons, topics
from toybattle.lessons.texts import PLACEHOLDER, TextsError


def raw(lang: str) -> dict[str, str]:
    return json.loads(resources.files("toybattle.lessons").joinpath(f"data/texts/{lang}.json").read_text("utf-8"))


def test_every_lesson_key_is_in_both_languages_with_the_same_placeholders():
    english, french = raw("en"), raw("fr")
    assert set(english) == set(french)
    for key, text in english.items():
        assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(french[key])), key
    assert texts.catalogue("fr") == french


def test_every_text_is_said_in_french_not_copied():
    english, french = raw("en"), raw("fr")
    assert [k for k in english if english[k] == french[k]] == []
    # the official French names: Cap'taine, Mastok, Crochet, Q.G., support; never the English ones
    said = " ".join(french.values())
    for english_word in ("Jumbo", "Cap'n", "Hook", "H.Q.", "rack", "Castle Field", "Tropical Pool"):
        assert english_word not in said, english_word
    for name in ("Mastok", "Cap'taine", "Crochet", "Q.G.", "support", "La plaine des châteaux"):
        assert name in said, name


def test_a_lesson_built_in_french_says_every_text_in_french():
    english = {x.id: x for x in all_lessons("en")}
    for x in all_lessons("fr"):
        e = english[x.id]
        assert (x.answers, x.wrong) != (e.answers, e.wrong) and len(x.hints) == len(e.hints)
        assert [a.actions for a in x.answers + x.wrong] == [a.actions for a in e.answers + e.wrong]
        assert x.question != e.question and x.wrong_feedback != e.wrong_feedback and x.position == e.position
        assert len(x.goal_words) == len(e.goal_words) and set(x.goal_words).isdisjoint(e.goal_words)
    assert [t.title for t in topics("fr")][1] == "Les règles de base"
    assert all_lessons("de") == all_lessons("en")  # a language without a catalogue reads English


@pytest.fixture
def catalogues(monkeypatch):
    """Stand-in catalogue files: ``catalogues(en=..., fr=...)`` (a language not given reads its real file)."""
    real = texts._json

    def use(**given: object) -> None:
        monkeypatch.setattr(texts, "_json", lambda lang: given[lang] if lang in given else real(lang))
        texts.catalogue.cache_clear()
        topics.cache_clear()
    yield use
    monkeypatch.undo()
    texts.catalogue.cache_clear()
    topics.cache_clear()


@pytest.mark.parametrize("change, message", [
    (lambda d: d.pop("lesson.roxy-medals.hint.1"), "keys differ"),
    (lambda d: d.update({"goal.rack_size.me": "{m} tuiles"}), "placeholders"),
    (lambda d: d.update({"lesson.roxy-medals.intro": " "}), "non-empty texts"),
    (lambda d: d.update({"lesson.roxy-medals.intro": 3}), "non-empty texts"),
])
def test_a_broken_french_catalogue_is_refused_with_its_reason(catalogues, change, message):
    french = raw("fr")
    change(french)
    catalogues(fr=french)
    with pytest.raises(TextsError, match=message):
        texts.catalogue("fr")
    with pytest.raises(LessonError, match=message):
        all_lessons("fr")
    assert all_lessons("en")  # English is untouched


def test_a_text_no_lesson_reads_and_a_goal_without_words_stop_the_load(catalogues):
    english = raw("en")
    catalogues(en=english | {"lesson.roxy-medals.hint.9": "stray"})
    with pytest.raises(LessonError, match=r"no lesson reads lesson\.roxy-medals\.hint\.9"):
        topics("en")
    catalogues(en={k: v for k, v in english.items() if k != "goal.laid.opponent"})
    with pytest.raises(LessonError, match=r"battlefield-lay-down.*goal\.laid\.opponent"):
        topics("en")


def test_the_french_rules_cite_their_sources_in_french():
    from toybattle.lessons import rulebook
    book = rulebook.load_in("fr")
    sources = {r.source for t in book.topics for r in t.rules} | {q.source for q in book.faq}
    left = {s for s in sources if re.search(r"Rules|[Pp]layer aid|ruling|End of the game|Setup|Jumbo|Hook", s)}
    assert left == set()
    raw = json.loads(resources.files("toybattle.lessons").joinpath("data/rules.fr.json").read_text("utf-8"))
    del raw["sources"]["Rules p. 2 · Setup"]
    with pytest.raises(rulebook.RulebookError, match=re.escape("no words for the source 'Rules p. 2 · Setup'")):
        rulebook.parse_translation(raw, rulebook.load(), "fr")


def test_every_source_of_the_rulebook_has_its_french_line_looked_up_whole():
    """No regular expression turns a source's English into French: each source line rules.json cites has its
    French line in rules.fr.json, by the exact English line, and no line there is cited by nothing."""
    from toybattle.lessons import rulebook
    book, fr = rulebook.load(), rulebook.load_in("fr")
    raw = json.loads(resources.files("toybattle.lessons").joinpath("data/rules.fr.json").read_text("utf-8"))
    cited = {r.source for t in book.topics for r in t.rules} | {q.source for q in book.faq}
    assert set(raw["sources"]) == cited and len(cited) > 50
    pairs = [(r.source, f.source) for t, tf in zip(book.topics, fr.topics, strict=True)
             for r, f in zip(t.rules, tf.rules, strict=True)]
    pairs += [(q.source, f.source) for q, f in zip(book.faq, fr.faq, strict=True)]
    assert all(raw["sources"][en] == said for en, said in pairs)
    assert "Règles p. 2 · Mise en place" in raw["sources"].values()
    stray = raw | {"sources": raw["sources"] | {"Rules p. 99": "Règles p. 99"}}
    with pytest.raises(rulebook.RulebookError, match=re.escape("'Rules p. 99', which no rule or answer")):
        rulebook.parse_translation(stray, book, "fr")
    assert "\nimport re\n" not in Path(rulebook.__file__).read_text("utf-8")


def test_the_learn_api_answers_in_the_pages_language(tmp_path):
    from starlette.testclient import TestClient

    from toybattle.assembly import build_app
    from toybattle.store import Store
    fr = {"accept-language": "fr-FR,fr;q=0.9"}
    app = build_app(Store(tmp_path / "games.sqlite"), bot_delay=0.0, resume=False)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        topics_fr = client.get("/api/lessons", headers=fr).json()["topics"]
        assert topics_fr[0]["lessons"][1]["title"] == "Quel placement prend les médailles ?"
        x = client.get("/api/lessons/roxy-medals", headers=fr).json()
        assert x["question"] == raw("fr")["lesson.roxy-medals.question"] and x["source"].startswith("Règles p. 5")
        assert x["goal"] == ["la région 1 prise par vous", "au moins 3 médailles pour vous"]
        assert x["hints"] == [raw("fr")["lesson.roxy-medals.hint.1"], raw("fr")["lesson.roxy-medals.hint.2"]]
        url = "/api/lessons/roxy-medals/play"
        wrong = client.post(url, json={"actions": ["7@17"], "nonce": "a"}, headers=fr).json()
        assert wrong["feedback"] == raw("fr")["lesson.roxy-medals.wrong.1"]
        refused = client.post(url, json={"actions": ["7@25"], "nonce": "a"}, headers=fr).json()
        assert refused["status"] == "refused" and refused["refusal"] == "aucun chemin depuis votre Q.G."
        assert refused["feedback"] == ""  # no words of its own: the page shows the rule that refused it
        right = client.post(url + "?lang=fr", json={"actions": ["7@12"], "nonce": "a"}).json()
        assert right["feedback"] == raw("fr")["lesson.roxy-medals.right.1"]
        assert client.get("/api/lessons/roxy-medals").json()["question"] == raw("en")["lesson.roxy-medals.question"]
