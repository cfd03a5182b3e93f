"""Every word the player reads comes from one catalogue per language: the page's (web/i18n/*.json) and
the server's (toybattle/said/data/*.json, by message id). Both languages hold the same keys, and every key
is used."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from app_harness import whole_game
from french import english_in, saids, texts, untranslated

from toybattle import said
from toybattle.app import words
from toybattle.lessons import rulebook
from toybattle.rules import TERRAIN_IDS
from toybattle.said import Said

WEB = Path(words.__file__).resolve().parents[1] / "web"
JS = sorted((WEB / "js").glob("*.js"))
# keys the page builds from a seat, a kind of game, a counter or a quick phrase (`seat.${seat}`) instead of naming them
BUILT = ("seat.", "home.kind.", "strip.", "chat.quick.")


def page_catalogue(lang: str) -> dict[str, str]:
    return json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def test_the_page_catalogues_hold_the_same_keys_and_placeholders():
    en, fr = page_catalogue("en"), page_catalogue("fr")
    assert set(en) == set(fr), sorted(set(en) ^ set(fr))
    for key in en:
        assert placeholders(en[key]) == placeholders(fr[key]), key
        assert fr[key].strip(), key


def test_every_page_key_is_used_and_every_used_key_exists():
    en = page_catalogue("en")
    source = "\n".join(p.read_text(encoding="utf-8") for p in JS)
    spaces = {k.split(".")[0] for k in en}
    named = {q for q in re.findall(r'"([a-z]+\.[\w.]+)"', source) if q.split(".")[0] in spaces}
    assert len(named) > 100
    for key in named:
        assert key in en or f"{key}.one" in en, f"{key} is used by the page but not in the catalogue"
    for key in en:
        assert key.removesuffix(".one").removesuffix(".many") in named or key.startswith(BUILT), f"{key} is unused"


def test_the_server_catalogues_load_and_agree():
    for lang in words.LANGS:
        assert set(said.catalogue(lang)) == set(said.catalogue("en"))


def test_a_broken_catalogue_is_refused():
    with pytest.raises(said.CatalogueError, match="placeholders"):
        said.check({"a": "x {n}"}, {"a": "y"}, "fr")
    with pytest.raises(said.CatalogueError, match="keys differ"):
        said.check({"a": "x {n}"}, {"b": "y {n}"}, "fr")
    with pytest.raises(said.CatalogueError, match="placeholders"):
        said.check({"a": {"one": "{n} x", "other": "{n} xs"}}, {"a": {"one": "un", "other": "{m} ys"}}, "fr")
    with pytest.raises(said.CatalogueError, match="no count"):
        said.check({"a": {"one": "x {m}", "other": "xs {m}"}}, {"a": {"one": "y {m}", "other": "ys {m}"}}, "fr")


# the strings of a view that are words for the player (the rest are codes and numbers), and all of its counters' cards
WORDS = frozenset({"text", "you", "brief", "prompt", "warning", "how", "result", "refused", "label", "name"})


def _words(value, key="", under=False):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _words(v, k, under or k == "counters")
    elif isinstance(value, list):
        for v in value:
            yield from _words(v, key, under)
    elif isinstance(value, str) and (under or key in WORDS):
        yield value


def test_every_text_of_whole_games_is_said_in_french():
    """Whole random games on every terrain: each log line, narration, prompt, button, refusal and counter
    card a seat is shown is a message, said in French in other words than its English (unless the
    catalogue gives both the same words), with no run of the English catalogue left in it; and what the
    seat is sent holds no English once said in French."""
    used: set[str] = set()
    for g, terrain in enumerate(TERRAIN_IDS):
        game = whole_game(terrain, g)
        for v in (0, 1):  # every view but its log, and the log once: a line never changes once written
            shown = [{**view, "log": []} for view in game.views[v]] + [{"log": game.logs[v]}]
            assert not untranslated(shown, strict=True)
            plain = [t for t in _words(shown) if t and not isinstance(t, Said)]
            assert not plain, plain[:5]  # every word for the player is a message
            sent = words.localize(shown, "fr")
            assert not [t for t in texts(sent) if english_in(t)], [(t, english_in(t)) for t in texts(sent)
                                                                  if english_in(t)][:5]
            used |= {x.key for x in saids(shown)}
    assert len(used) > 100


def test_a_refusal_and_a_language_header():
    weak = Said("refused.weak", troop=3)
    assert words.say(weak, "fr") == "trop faible pour recouvrir Mastok"
    assert words.say(weak, "en") == weak == "too weak to cover Jumbo"
    assert words.say("an unknown text", "fr") == "an unknown text"  # not a message: never looked up
    assert words.language("fr-FR,fr;q=0.9,en;q=0.8") == "fr"
    assert words.language("de-DE,en;q=0.5") == "en"
    assert words.language(None) == "en" and words.language(42) == "en"


def test_the_rules_and_faq_in_french_say_every_text():
    english, french = rulebook.load(), rulebook.load_in("fr")
    assert [t.id for t in french.topics] == [t.id for t in english.topics]
    assert [len(t.rules) for t in french.topics] == [len(t.rules) for t in english.topics]
    # the sources in French words, citing the same pages and references
    cited = lambda book: [re.findall(r"\d+|\[S\d\]", r.source) for t in book.topics for r in t.rules]  # noqa: E731
    assert cited(french) == cited(english)
    said = [r.text for t in french.topics for r in t.rules] + [q.answer for q in french.faq]
    assert not set(said) & ({r.text for t in english.topics for r in t.rules} | {q.answer for q in english.faq})
    assert rulebook.load_in("de") is english


def test_a_translation_missing_a_rule_is_refused():
    english = rulebook.load()
    raw = json.loads((Path(rulebook.__file__).parent / "data" / "rules.fr.json").read_text(encoding="utf-8"))
    raw["topics"]["overview"]["rules"].pop()
    with pytest.raises(rulebook.RulebookError, match="overview"):
        rulebook.parse_translation(raw, english, "fr")
    del raw["faq"]["who-for"]
    with pytest.raises(rulebook.RulebookError, match="ids differ"):
        rulebook.parse_translation(raw, english, "fr")


def test_a_french_page_is_told_the_game_in_french(client):
    from app_harness import WS, new_game
    g = new_game(client, kind="hotseat", first="blue")
    with client.websocket_connect(WS) as ws:
        ws.send_json({"type": "hello", "game": g["game"], "token": "wrong", "lang": "fr-FR"})
        assert ws.receive_json()["message"] == "partie ou jeton inconnus"
        ws.send_json({"type": "hello", "game": g["game"], "token": g["tokens"]["blue"], "lang": "fr"})
        assert ws.receive_json()["type"] == "welcome"
        view = ws.receive_json()["view"]
        assert view["prompt"].startswith("À vous : ")
        assert view["counters"]["discard"].startswith("La défausse : ")
        ws.send_json({"type": "act", "action": "K@1", "id": 1})  # blue's own H.Q. (or no Kwak on the rack)
        assert ws.receive_json()["message"] in ("votre propre Q.G.", "pas de Kwak sur votre support")
    meta = client.get("/api/meta", headers={"accept-language": "fr-FR,fr;q=0.9"}).json()
    assert [t["name"] for t in meta["troops"]["troops"]][1:4] == ["Cap'taine", "Mastok", "Crochet"]
    assert client.get("/api/meta?lang=en").json()["troops"]["troops"][2]["name"] == "Jumbo"
