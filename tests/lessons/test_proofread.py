"""Proofreading (issue 25): every text a player reads, in English and in French, checked as the player reads it.

A player saw "H.Q.." in a lesson: the page had put a refusal ending in "H.Q." ("your own H.Q.") into its own
sentence "Rule: {r}.". So the texts are gathered as shown, not only as written:

- the lessons as the page receives them (lessons.web: titles, steps, questions, hints, goals, the view's
  prompts) with the verdict of playing each listed answer, and the page's own sentences around them (web/js
  fills "Checked at the end of your move: {goals}", "Rule: {r}", a step's title and text side by side...);
- the rules and the FAQ, each text with its "[source]" as the rules page shows it;
- what the app tells the page about the game: troops, special bases, rule cards, terrains, bot levels;
- every message of the server's catalogues (toybattle/said/data), said in each language with the arguments the
  code gives it (troops, powers, "base 12", "Red's H.Q.", refusals, nested messages...), as the page gets it;
- every entry of the page's catalogue (web/i18n), filled the way web/js fills it, in its own language.

Each is checked for doubled punctuation, a space before a mark where the language puts none, double spaces,
unbalanced brackets and quotes, empty texts, placeholders left unfilled, and (in French) the project's
typography: a space before ? ! : ; and inside « », as every French text here writes it, and no obvious
English left in a French text.
"""
from __future__ import annotations

import itertools
import json
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from toybattle import said
from toybattle.app import reference, words
from toybattle.app.bot_levels import levels
from toybattle.app.session import level_words
from toybattle.lessons import all_lessons, rulebook, topics
from toybattle.lessons.play import play
from toybattle.lessons.web import attempt_json, lesson_json
from toybattle.rules import TERRAIN_IDS, load_terrain
from toybattle.rules.powers import POWER_INFO
from toybattle.rules.troops import TROOPS
from toybattle.said import Said, joined, placeholders, say

LANGS = ("en", "fr")
PAGE = Path(words.__file__).resolve().parents[1] / "web" / "i18n"
PLACEHOLDER = re.compile(r"\{([A-Za-z_]\w*)\}")

Shown = tuple[str, str]  # (where it comes from, the text as shown)
# the strings of a view that are words for the player (the rest are codes and numbers)
TEXT_KEYS = frozenset({"text", "you", "brief", "prompt", "warning", "how", "result", "refused", "label", "name"})


# ------------------------------------------------------------------------------------------------ the checks

# technical words that follow no language's typography: addresses, a header, a command, a code span
TECHNICAL = re.compile(r"\b[a-z]+://[^\s)]*|Content-Type: [\w/]+|`[^`]*`|\b\d+@\d+\b|--\w+")
COMMON = [
    (re.compile(r"(?<!\.)\.\.(?!\.)"), "doubled full stop (after a name ending in '.', such as H.Q., add none)"),
    (re.compile(r",,|;;|::|!!|\?\?"), "doubled punctuation"),
    (re.compile(r"\. \.(?!\.)"), "full stop, space, full stop"),
    (re.compile(r"[,;:] ?[,;:.]"), "a mark right after a comma, colon or semicolon"),
    (re.compile(r"\S {2,}\S|\S\n"), "double space"),
    (re.compile(r"\{[A-Za-z_]\w*\}"), "placeholder left unfilled"),
    (re.compile(r"\s$|^\s"), "space at an end"),
    (re.compile(r"\( | \)"), "space inside ( )"),
    (re.compile(r"[,;](?=[^\s\d])"), "no space after a comma or semicolon"),
    (re.compile(r"\b(?!(?:vous|nous) )(\w+) \1\b", re.IGNORECASE), "repeated word"),
]
ENGLISH = [
    (re.compile(r" [.,;:!?](?=$|[\s\"'\u201d)\]])"), "space before a punctuation mark"),
]
FRENCH = [
    # the project's French: a space before ? ! : ; (and after « , before »), as in "Pourquoi ?", "Règle : ..."
    (re.compile(r"(?<=[^\s(\[\u00ab'\"\u2026])[?!:;]"), "no space before ? ! : ; (French typography)"),
    (re.compile(r"\u00ab(?=\S)|(?<=\S)\u00bb"), "no space inside \u00ab \u00bb"),
    (re.compile(r"[\u201c\u201d]"), "English quotation marks in French (the French texts use \u00ab \u00bb)"),
    # obvious English left in a French text (a name such as "Station Metal-X" or "Toy Battle" has none of these)
    (re.compile(r"\b(?:the|your|yours|you|with|from|this|that|which|and|of|is|are|not|no)\b|\w's\b"),
     "English words in a French text"),
]
PAIRS = [("(", ")"), ("[", "]"), ("\u00ab", "\u00bb"), ("\u201c", "\u201d")]


def faults(text: str, lang: str) -> list[str]:
    """What is wrong with ``text`` as shown in language ``lang`` (empty if nothing)."""
    if not text.strip():
        return ["empty text"]
    plain = TECHNICAL.sub("X", text)
    found = [what for pattern, what in COMMON + (FRENCH if lang == "fr" else ENGLISH) if pattern.search(plain)]
    for left, right in PAIRS:
        if plain.count(left) != plain.count(right):
            found.append(f"unbalanced {left} {right}")
    if plain.count('"') % 2:
        found.append('unbalanced "')
    return found


# ------------------------------------------------------------------------------------------------ filling

def fill(template: str, values: dict[str, str]) -> str:
    return PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), template)


def fillings(key: str, template: str, pools: Callable[[str, str], list[str]]) -> Iterator[str]:
    """``template`` filled with each value of each placeholder in turn (the others at their first value),
    so that every value is seen at the end of the text, in the middle, before a full stop..."""
    names = sorted(set(PLACEHOLDER.findall(template)))
    first = {n: pools(key, n)[0] for n in names}
    yield fill(template, first)
    for n in names:
        for v in pools(key, n)[1:]:
            yield fill(template, first | {n: v})


def no_value(key: str, name: str) -> list[str]:
    raise AssertionError(f"{key}: no sample value for {{{name}}}: give the placeholder realistic values here")


# ------------------------------------------------------------------------------------------------ the server's words

APP = said.catalogue("en")  # by message id (toybattle/said/data); an entry may hold plural forms


def _w(key: str, **args: Any) -> Said:
    return Said(key, **args)


# the rules engine's refusals (refused.over .. refused.noPathHq; the app's own, about turns and undo, follow them)
_ENGINE = list(APP)[list(APP).index("refused.over"):list(APP).index("refused.noPathHq") + 1]
_REFUSAL_ARGS = {"troop": 3, "troops": (1, 2), "n": 12, "what": _w("decision.extra", seat="blue")}
REFUSALS = [_w(k, **{p: _REFUSAL_ARGS[p] for p in placeholders(APP[k])}) for k in _ENGINE]
APP_REFUSALS = [_w(k, **{p: "red" for p in placeholders(APP[k])}) for k in APP
                if k.startswith("refused.") and k not in _ENGINE]
SKIPS = [_w("skip.draw", troop=1), _w("skip.tower", n=15)]
# what the code puts in each placeholder (a message of its own, a number, a seat's word, a troop's number...)
APP_VALUES: dict[str, list[Any]] = {
    "seat": ["Blue", "Red", "red"], "seat2": ["red", "Blue"],
    "troop": [7, 2, 5], "troop2": [8, 2], "troops": [(1, 4, 7), (3,)],
    "power": list(POWER_INFO),
    "n": [12, 1], "m": [18, 7], "k": [2], "bases": ["12", "12, 13"],
    "count": [_w("count.tiles", n=3), _w("count.tiles", n=1)],
    "where": [_w("where.base", n=12), _w("where.hq", seat="red"), _w("where.hq", seat="Blue"), _w("where.yourHq"), 12],
    "tiles": [_w("count.tiles", n=2), _w("count.tilesSeen", n=1, troops=(7,)),
              _w("count.tilesSeen", n=2, troops=(1, 4))],
    "medals": [_w("count.medals", n=2), _w("count.medals", n=1)],
    "regions": [(_w("where.region", n=2),), (_w("where.region", n=2), _w("where.region", n=3)), (_w("where.aRegion"),)],
    "what": SKIPS + [_w("power.at", power="lay_down", n=14), _w("forfeit.what.xbTile", n=3)],
    "why": [_w("refused.weak", troop=3), _w("error.silent", n="60")],
    "rule": REFUSALS, "how": [_w("how.hq"), _w("how.medals"), _w("how.conceded", seat="Red")],
    "words": [_w("brief.onCoverYours", troop=7, where=18, troop2=8),
              joined([_w("brief.drew", n=2), _w("brief.on", troop=7, where=12)]),
              _w("brief.on", troop=6, where=_w("where.yourHq"))],
    "a": [_w("brief.drew", n=2)],
    "rest": [_w("brief.on", troop=7, where=12), _w("end.wins", seat="Red", how=_w("how.conceded", seat="blue"))],
    "level": [_w("level.expert"), _w("level.greedy")], "levels": ["random, greedy, easy, medium, expert"],
    "kind": ["commit"], "kind2": ["open"], "kinds": ["bot, hotseat, lan"], "types": ["hello, act, chat"],
    "due": ["move", "reply"], "fields": ["colour, level"], "error": ["ECONNRESET"],
    "code": ["7-guitarist-revenge"], "game": ["g7Kq2x"], "game2": ["h8Lr3y"], "host": ["my-laptop.local"],
    "host2": ["my-laptop.local"], "name": ["my-laptop"], "terrain": ["moon"], "limit": ["30"],
    "address": ["wss://relay.example.org:4000/v1"], "relay": ["wss://relay.example.org:4000/v1"],
    "url": ["ws://relay.example.org:4000/v1"], "ours": ["3"], "theirs": ["4"],
    "action": ["7@18"], "actions": ["7@18, draw"], "text": ["'7@99'"],
    # the review's and the puzzles' (toybattle.review): a terrain's printed ids, counts, notation, figures
    "region": [3], "node": [15], "total": [5], "objective": [7], "turn": [12], "index": [31], "best": ["jumbo@17"],
    "after": [18], "before": [64], "difficulty": [2], "ok": [27], "efforts": ["full, quick"],
    # a time control's bounds and a clock's seconds (online/protocol.py)
    "low": [60], "high": [10800], "most": [60], "left": ["12", "?"],
    "sec": ["05"], "m2": [9], "sec2": ["53"], "pid": ["4242", "unknown"],
    "reason": [_w("review.reason.hq"), _w("review.reason.conceded")],
}
# the last: a peer's own words (a forfeit notice's reason), shown as they came
_FORFEITS = [_w("forfeit.illegal", rule=_w("refused.weak", troop=3)), _w("forfeit.illegal", rule=_w("refused.noPath")),
             _w("forfeit.malformed", error="ECONNRESET"), _w("forfeit.notJson"), "I give up"]
# where a placeholder holds narrower words than its name says
APP_BY_KEY: dict[tuple[str, str], list[Any]] = {
    ("online.abandoned", "why"): [_w("forfeit.silent", limit="60", due=_w("forfeit.due.move"))],
    ("online.abandonedLine", "why"): [_w("forfeit.silent", limit="60", due=_w("forfeit.due.reply"))],
    ("online.forfeits", "why"): _FORFEITS, ("online.forfeitsLine", "why"): _FORFEITS,
    ("forfeit.illegal", "rule"): REFUSALS, ("forfeit.refusedAction", "rule"): REFUSALS,
    ("forfeit.silent", "due"): [_w("forfeit.due.move"), _w("forfeit.due.reply")],
    ("error.unknownType", "what"): ["'hi'"], ("error.unknownLevel", "what"): ["'god'"],
    ("error.unknownLevelOf", "what"): ["'god'"], ("error.unknownKind", "what"): ["'chess'"],
    ("error.unknownTerrain", "what"): ["'moon'"], ("error.internal", "what"): ["KeyError"],
    ("error.alreadyOver", "what"): ["g7Kq2x"], ("error.stillConnected", "what"): ["g7Kq2x"],
    ("error.noRoom", "what"): ["g7Kq2x"],
    ("prompt.drawOne", "what"): [_w("troop.6"), _w("power.at", power="draw", n=12)],
    ("prompt.playing", "what"): [_w("prompt.drawOrPlace"), _w("prompt.extraOther", troop=2)],
    ("refused.decision", "what"): [_w("decision.turn", seat="blue"), _w("decision.recall", seat="red", n=15)],
    ("forfeit.notOpened", "what"): [_w("forfeit.what.xbTile", n=3), _w("forfeit.what.stuckRack")],
    ("forfeit.badOpening", "what"): [_w("forfeit.what.xbTile", n=3)],
    ("forfeit.wrongSlot", "what"): [_w("forfeit.what.placed", troop=7)],
    ("forfeit.wrongSlot", "why"): [_w("forfeit.why.shown"), _w("forfeit.why.laid")],
    ("log.skips", "what"): SKIPS, ("log.youSkip", "what"): [_w("skip.tank", n=14)],
    ("brief.skipped", "what"): SKIPS, ("log.uses", "what"): [_w("troop.6"), _w("power.draw")],
    ("log.youUse", "what"): [_w("troop.1")],
    # an H.Q. is always taken from a base (decider.from): "took {where}." names a base
    ("decider.took", "where"): [_w("where.base", n=18)], ("decider.yoursTook", "where"): [_w("where.base", n=18)],
    ("action.chance", "rest"): ["pick:7"], ("action.bad", "why"): [_w("action.shove"), _w("action.unknownTile")],
    ("decision.won", "why"): ["hq"], ("online.peer.sent", "what"): [_w("wire.tooBig", n=65536), _w("wire.garbled")],
    ("online.peer.malformed", "error"): [_w("wire.unknownKind")],
    ("online.lost", "why"): [_w("online.link.closed", error="ECONNRESET"), _w("error.silent", n="60")],
    ("online.link.goneResume", "why"): [_w("online.link.gone", relay="wss://relay.example.org:4000/v1")],
    ("online.link.closed", "error"): ["ECONNRESET", _w("online.link.mailboxClosed")],
    ("error.noRematch", "why"): [_w("error.gameGone"), _w("refused.unknownGame")],
    ("error.network", "why"): ["[Errno 98]"], ("error.notSaved", "why"): ["disk full"],
    ("error.notStarted", "why"): ["disk full"], ("error.lessonDeal", "why"): ["disk full"],
    ("error.onlineStoppedWhy", "why"): ["KeyError"], ("log.concedes", "rest"): APP_VALUES["rest"][1:],
    ("log.youConcede", "rest"): APP_VALUES["rest"][1:], ("wire.setup", "fields"): ["{game, terrain, first_game}"],
    ("hint.explain", "what"): [_w("action.says.place", troop=7, n=18), _w("action.says.draw")],
    ("hint.explain", "why"): [_w("hint.win.hq"), _w("hint.drawLater")],
    ("hint.random", "rest"): [_w("hint.explain", what=_w("action.says.draw"), why=_w("hint.drawLater"))],
    ("bot.name", "level"): [_w("level.expert")], ("chat.fast", "m"): ["10"], ("forfeit.comeback", "limit"): ["60"],
}


def app_pool(key: str, name: str) -> list[Any]:
    return APP_BY_KEY.get((key, name)) or APP_VALUES.get(name) or no_value(key, name)


def app_texts(lang: str) -> Iterator[Shown]:
    """Every message of the server's catalogues as the page shows it, said in ``lang`` with the arguments the
    code gives it (each placeholder's sample values in turn, the others at their first)."""
    for key, entry in APP.items():
        if key.startswith("action."):  # the notation's own words (draw, recover:5, pick:7) stay as they are
            continue
        names = sorted(placeholders(entry))
        first = {n: app_pool(key, n)[0] for n in names}
        fills = [first] + [first | {n: v} for n in names for v in app_pool(key, n)[1:]]
        for args in fills:
            yield f"said/data/{lang}.json {key}", say(Said(key, **args), lang)


def reference_texts(lang: str) -> Iterator[Shown]:
    """What /api/meta tells the page about the game: troops, special bases, rule cards, terrains, bot levels."""
    for t in reference.troops_json(lang)["troops"]:
        yield f"troop {t['code']}", t["name"]
        yield f"troop {t['code']} effect", t["effect"]
    for k, p in reference.powers_json(lang).items():
        yield f"power {k}", p["name"]
        yield f"power {k} text", p["text"]
    for k, text in reference.rule_texts(lang).items():
        yield f"rule card {k}", text
    for tid in TERRAIN_IDS:
        t = load_terrain(tid)
        yield f"terrain {tid}", t.name_fr if lang == "fr" else t.name
    for lv in levels():
        yield f"level {lv.name}", say(level_words(lv.name, "", lv.label), lang)
        yield f"level {lv.name} text", say(level_words(lv.name, "Text", lv.description), lang)


# ------------------------------------------------------------------------------------------------ the lessons

def lesson_texts(lang: str) -> Iterator[Shown]:
    """Every lesson as the page gets it (lessons.web) and shows it (web/js/learn.js), and the verdict of
    playing each of its listed answers and wrong answers."""
    page = page_catalogue(lang)
    for topic in topics(lang):
        yield f"topic {topic.id}", topic.title
    for x in all_lessons(lang):
        where = f"lesson {x.id}"
        j = lesson_json(x, lang)
        for field in ("title", "source", "intro", "question", "terrain_name"):
            if j[field] or field != "intro":  # a lesson may have no intro
                yield f"{where} {field}", j[field]
        for k, step in enumerate(j["steps"], start=1):
            yield f"{where} step {k}", f"{step['title']} {step['text']}"  # side by side on the page
        for k, hint in enumerate(j["hints"], start=1):
            yield f"{where} hint {k}", hint
        for k, goal in enumerate(j["goal"], start=1):
            yield f"{where} goal {k}", goal
        if j["goal"]:
            yield f"{where} learn.checked", fill(page["learn.checked"], {"goals": page["list.sep"].join(j["goal"])})
        yield f"{where} source line", fill(page["learn.source"], {"source": j["source"]})
        yield f"{where} board", fill(page["learn.boardOf"], {"name": j["terrain_name"]})
        yield from ((f"{where} view", text) for text in view_texts(j["view"]))
        for a in x.answers + x.wrong:
            yield f"{where} feedback {' '.join(a.actions)}", a.feedback
            got = attempt_json(x, play(x, list(a.actions), random.Random(0)), lang)
            if got["feedback"]:
                yield f"{where} verdict {' '.join(a.actions)}", got["feedback"]
            if got["refusal"]:
                yield f"{where} learn.rule {' '.join(a.actions)}", fill(page["learn.rule"], {"r": got["refusal"]})
        yield f"{where} right", x.right_feedback
        yield f"{where} wrong", x.wrong_feedback


def view_texts(view: object, key: str = "") -> Iterator[str]:
    """The words of a view (the prompt, the buttons, the counters' cards...)."""
    if isinstance(view, dict):
        for k, v in view.items():
            yield from view_texts(v, "counters" if key == "counters" else k)
    elif isinstance(view, list):
        for v in view:
            yield from view_texts(v, key)
    elif isinstance(view, str) and view and (key in TEXT_KEYS or key == "counters"):
        yield view


def rule_texts(lang: str) -> Iterator[Shown]:
    """The rules and the FAQ, as the rules page shows them: each rule and answer followed by its [source]."""
    book = rulebook.load_in(lang)
    for t in book.topics:
        yield f"rules {t.id} title", t.title
        for k, r in enumerate(t.rules, start=1):
            yield f"rules {t.id} #{k}", f"{r.text} [{r.source}]"
    for q in book.faq:
        yield f"faq {q.id} question", q.question
        yield f"faq {q.id} answer", f"{q.answer} [{q.source}]"


# ------------------------------------------------------------------------------------------------ the page's words

def page_catalogue(lang: str) -> dict[str, str]:
    return json.loads((PAGE / f"{lang}.json").read_text(encoding="utf-8"))


def page_pools(lang: str) -> Callable[[str, str], list[str]]:
    """What web/js puts in each placeholder of web/i18n/<lang>.json, in words of ``lang``."""
    page = page_catalogue(lang)
    seats = [page["seat.blue"], page["seat.red"]]
    troops = [say(Said(f"troop.{t}"), lang) for t in TROOPS]
    terrains = [load_terrain(t).name_fr if lang == "fr" else load_terrain(t).name for t in TERRAIN_IDS]
    lessons = all_lessons(lang)
    said = lambda messages: [say(m, lang) for m in messages]  # noqa: E731  the server's words
    numbers = ["12", "1"]
    pools: dict[str, list[str]] = {
        "seat": seats, "side": seats, "other": seats[::-1],
        "who": seats + [page["play.you"], say(Said("bot.name", level=Said("level.expert")), lang), "Alice"],
        "whose": [page["play.your"]] + seats, "name": troops + terrains, "names": [", ".join(troops[:3]), troops[6]],
        "terrain": terrains, "ids": ["12", "12, 13, 18"],
        "id": numbers, "n": numbers, "k": numbers, "node": numbers, "to": numbers, "b": numbers, "r": numbers,
        "o": ["7"], "bo": ["7"], "ro": ["7"], "me": numbers, "mo": ["7"], "them": numbers, "done": ["3", "12"],
        "total": ["9"], "rr": ["4"], "br": ["5"], "left": ["45 s"], "since": ["2 min"],
        "goals": [page["list.sep"].join(x.goal_words) for x in lessons if x.goal_words],
        "source": [x.source for x in lessons],
        "words": said([Said("hint.search", n=62, m=40, k=300),
                       joined([Said("hint.near", n=1), Said("hint.lead", seat="Red")])]),  # the hint bot's words
        "message": said([Said("error.noLesson"), Said("error.lessonActions", n=24)]),
        "error": said([Said("error.notSaved", why="ECONNRESET")]) + [page["site.cut"], "QuotaExceededError"],
        "text": [page["chat.quick.gg"], "hello"], "code": ["7-guitarist-revenge"],
        "address": ["http://192.168.1.20:8000"], "example": ["7@18"], "file": ["toybattle-games.old"],
        "start": [page["home.start"]], "online": [page["home.online"]], "join": [page["home.join"]],
        "strength": [fill(page["play.strength"], {"n": "7"}), page["play.joker"]],
        # the review (web/js/review.js): percentages, a move in notation or in the log's words (joined by list.sep)
        "before": ["64"], "after": ["18"], "drop": ["12"], "action": ["7@18"], "min": ["10"], "inc": ["5"],
        "best": ["jumbo@17", page["list.sep"].join(said([Said("log.places", seat="Blue", troop=7,
                                                                where=Said("where.base", n=12))] * 2))],
        "how": said([Said("review.reason.hq"), Said("review.reason.conceded")]),
    }
    # a tile in a screen reader's words, as web/js/data.js says a stack (troopWords, stackWords)
    pools["troop"] = [fill(page["board.troop"], {"name": troops[k], "strength": v})
                      for k, v in ((6, pools["strength"][0]), (7, pools["strength"][1]))]
    tiles = [fill(page["board.tile"], {"whose": w, "troop": t})
             for w, t in zip(pools["whose"], pools["troop"] * 2, strict=False)]
    pools["tiles"] = [page["list.sep"].join(tiles[:2]), page["list.sep"].join(tiles)]
    by_key = {("learn.rule", "r"): said(REFUSALS), ("limits.reply", "who"): seats + ["Alice"],
              ("learn.wentWrong", "message"): pools["message"] + said(APP_REFUSALS),
              ("play.youHold", "who"): [page["play.you"]], ("play.youHoldNone", "who"): [page["play.you"]],
              ("learn.boardOf", "name"): terrains, ("learn.picked", "name"): troops, ("play.picked", "name"): troops,
              ("play.place", "name"): troops, ("rack.laidLabel", "name"): troops}

    def pool(key: str, name: str) -> list[str]:
        return by_key.get((key, name)) or pools.get(name) or no_value(key, name)
    return pool


def page_texts(lang: str) -> Iterator[Shown]:
    pools = page_pools(lang)
    for key, template in page_catalogue(lang).items():
        for text in fillings(key, template, pools):
            # a fragment the page glues to its neighbours keeps its outer spaces (" (top)", "Or type a move: ")
            yield f"web/i18n/{lang}.json {key}", text.strip() if text.strip() else text


# ------------------------------------------------------------------------------------------------ the tests

SOURCES = {"lessons": lesson_texts, "rules": rule_texts, "app": app_texts, "game": reference_texts,
           "page": page_texts}

# Faults of the code that composes a text, not of the texts (issue 25): (language, where, fault, why). Each must
# still be found (test_the_known_faults_are_still_there): once the code is fixed, its line goes.
KNOWN: list[tuple[str, str, str, str]] = []  # none left


def known(lang: str, where: str, fault: str) -> bool:
    return any(lang in k[0].split("|") and re.search(k[1], where) and fault.startswith(k[2]) for k in KNOWN)


def shown(lang: str, source: str) -> list[Shown]:
    return list(SOURCES[source](lang))


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("lang", LANGS)
def test_every_text_as_shown_is_well_punctuated(lang, source):
    texts = shown(lang, source)
    assert len(texts) > 20
    found = {f"{where}: {what}: {text!r}" for where, text in texts for what in faults(text, lang)
             if not known(lang, where, what)}
    assert not found, f"{len(found)} fault(s):\n" + "\n".join(sorted(found))


def test_a_lesson_page_shows_the_texts_of_both_languages():
    en, fr = shown("en", "lessons"), shown("fr", "lessons")
    assert len(en) == len(fr) > 500
    assert sum(a[1] == b[1] for a, b in zip(en, fr, strict=True)) < len(en) // 10  # French, not English again


@pytest.mark.parametrize("text, lang, fault", [
    ("Rule: your own H.Q..", "en", "doubled full stop"),
    ("Règle : votre propre Q.G..", "fr", "doubled full stop"),
    ("Wait... then place.", "en", None),
    ("Right!! Well played.", "en", "doubled punctuation"),
    ("Base 12 , then 13.", "en", "space before a punctuation mark"),
    ("Why ?", "en", "space before a punctuation mark"),
    ("Pourquoi?", "fr", "no space before"),
    ("Pourquoi ?", "fr", None),
    ("Règle: la base 12.", "fr", "no space before"),
    ("Appuyez sur «Jouer».", "fr", "no space inside"),
    ("Le Q.G. de Red's side.", "fr", "English words"),
    ("Take  base 12.", "en", "double space"),
    ("Take base 12 (the bridge.", "en", "unbalanced ( )"),
    ("Take base {n}.", "en", "placeholder left unfilled"),
    ("Drew 2,, then 1.", "en", "doubled punctuation"),
    ("Done. .", "en", "full stop, space, full stop"),
    ("Open http://127.0.0.1:8000 now.", "en", None),
    ("Ouvrez http://127.0.0.1:8000 ou ws://relay : la boîte.", "fr", None),
    (" ", "fr", "empty text"),
    ("Take the the bridge.", "en", "repeated word"),
    ("Vous vous placez là.", "fr", None),
    ("Take base 12 ( the bridge).", "en", "space inside ( )"),
    ("Take 12,then 13.", "en", "no space after a comma"),
    ("Place it;then draw.", "en", "no space after a comma or semicolon"),
    ("Forces 1,5 et 2.", "fr", None),
])
def test_the_checks_find_each_kind_of_fault(text, lang, fault):
    found = faults(text, lang)
    if fault is None:
        assert found == []
    else:
        assert any(f.startswith(fault) for f in found), found


def test_the_fillings_put_every_value_at_the_end():
    got = list(fillings("k", "Rule: {r}.", lambda key, name: ["a", "your own H.Q."]))
    assert got == ["Rule: a.", "Rule: your own H.Q.."]
    assert faults(got[1], "en")
    assert list(itertools.islice(fillings("k", "no placeholder", no_value), 3)) == ["no placeholder"]


def test_the_known_faults_are_still_there():
    """Each known fault of the composing code is still found: when the code is put right, remove its line."""
    for langs, where, fault, why in KNOWN:
        for lang in langs.split("|"):
            hits = [text for source in SOURCES for w, text in shown(lang, source)
                    if re.search(where, w) and any(f.startswith(fault) for f in faults(text, lang))]
            assert hits, f"no longer found, remove it from KNOWN: {lang} {where} {fault} ({why})"
