"""Messages as data (issue 27): a text for the player is a message id and its arguments (toybattle.said), said
in a language where it is shown. These tests hold the type, the plural rules, the catalogues and a static
scan of the code: every id it names exists in both languages with the arguments the code gives it."""
from __future__ import annotations

import ast
import json
import pickle
import re
from pathlib import Path

import pytest
from french import SAME

import toybattle
from toybattle import said
from toybattle.app import lan
from toybattle.rules.powers import POWER_INFO
from toybattle.rules.troops import INFO, TROOPS
from toybattle.said import Said, catalogue, joined, of_error, placeholders, plural, say

SRC = Path(toybattle.__file__).parent


def test_a_said_is_its_english_and_says_itself_in_french():
    s = Said("log.places", seat="Blue", troop=3, where=Said("where.base", n=18))
    assert s == "Blue places Jumbo on base 18" and str(s) == say(s, "en") == say(s, "de")
    assert say(s, "fr") == "Bleu place Mastok sur la base 18"
    assert say("a peer's own words", "fr") == "a peer's own words"  # a plain text is never looked up
    assert s.key == "log.places" and dict(s.args)["troop"] == 3
    with pytest.raises(AttributeError):
        s.key = "log.draws"  # type: ignore[misc]


def test_a_wrong_id_or_wrong_arguments_fail_where_the_message_is_made():
    with pytest.raises(ValueError, match="no message"):
        Said("log.nope")
    with pytest.raises(ValueError, match="takes"):
        Said("log.places", seat="Blue", troop=3)
    with pytest.raises(ValueError, match="not a troop"):
        Said("refused.weak", troop="Jumbo")
    with pytest.raises(ValueError, match="not a seat"):
        Said("refused.turnOf", seat="green")
    with pytest.raises(ValueError, match="not a power"):
        Said("power.at", power="flight", n=3)


@pytest.mark.parametrize("n, en, fr", [(0, "0 tiles", "0 tuile"), (1, "1 tile", "1 tuile"), (2, "2 tiles", "2 tuiles")])
def test_plurals_follow_each_languages_cldr_rule(n, en, fr):
    assert plural(n, "en") == ("one" if n == 1 else "other")
    assert plural(n, "fr") == ("one" if n < 2 else "other")
    assert say(Said("count.tiles", n=n), "en") == en and say(Said("count.tiles", n=n), "fr") == fr


def test_lists_joins_and_one_full_stop():
    assert say(Said("refused.only", troops=(8, 1, 3), n=4), "fr") == "seuls Skully, Mastok et Kwak peuvent aller sur 4"
    both = joined([Said("brief.drew", n=2), Said("brief.on", troop=6, where=12)])
    assert both == "drew 2; Star on 12" and say(both, "fr") == "a pioché 2 ; Star sur 12"
    assert joined([]) == ""
    # a reason ending in "H.Q." before the entry's own full stop: one full stop
    why = Said("forfeit.illegal", rule=Said("refused.noPath"))
    assert Said("online.forfeits", seat="red", why=why).endswith("from your H.Q.")
    assert say(Said("online.forfeits", seat="red", why=why), "fr").endswith("depuis votre Q.G.")


def test_a_said_survives_pickling_storage_and_an_exception():
    s = Said("forfeit.wrongSlot", n=3, what=Said("forfeit.what.placed", troop=7), why=Said("forfeit.why.shown"))
    assert pickle.loads(pickle.dumps(s)).to_json() == s.to_json()  # the bots' pool sends hints across processes
    stored = json.loads(json.dumps(s.to_json()))
    assert Said.from_json(stored) == s and say(Said.from_json(stored), "fr") == say(s, "fr")
    with pytest.raises(ValueError):
        Said.from_json({"id": "gone.from.the.catalogue", "args": {}})
    assert of_error(ValueError(s)) is s and of_error(ValueError("plain")) == "plain"


def test_the_catalogues_hold_the_same_ids_and_placeholders():
    english, french = catalogue("en"), catalogue("fr")
    assert set(english) == set(french) and len(english) > 450
    for key in english:
        assert placeholders(english[key]) == placeholders(french[key]), key
        if isinstance(english[key], dict):
            assert set(french[key]) >= {"one", "other"}, key


def test_the_catalogues_say_the_rules_data_in_its_own_words():
    """The troops' and special bases' names and texts come from the rules' data files; the catalogues
    say them by id and must not drift from them."""
    for t in TROOPS:
        assert say(Said(f"troop.{t}"), "en") == INFO[t].name and say(Said(f"troop.{t}"), "fr") == INFO[t].name_fr
        assert Said(f"effect.{t}") == INFO[t].effect
    for k, p in POWER_INFO.items():
        assert Said(f"power.{k}") == p.name and Said(f"powertext.{k}") == p.text
    assert Said("network.warning") == lan.WARNING  # app/lan.py's own words, said by id in the page's language


def _said_calls() -> list[tuple[str, int, ast.Call]]:
    out = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Said":
                out.append((str(path.relative_to(SRC)), node.lineno, node))
    return out


def test_every_id_the_code_names_is_in_both_catalogues_with_its_arguments():
    """A static scan of src/toybattle: each Said("id", name=...) names an id of both catalogues and gives it
    exactly the placeholders it holds; an id built from parts (f"troop.{t}") matches some id."""
    english, french = catalogue("en"), catalogue("fr")
    calls = _said_calls()
    assert len(calls) > 300
    wrong = []
    for where, line, call in calls:
        first = call.args[0]
        names = {k.arg for k in call.keywords}
        if isinstance(first, ast.Constant):
            key = first.value
            if key not in english or key not in french:
                wrong.append(f"{where}:{line} {key}: not in both catalogues")
            elif None not in names and names != placeholders(english[key]):
                wrong.append(f"{where}:{line} {key}: given {sorted(names)}, holds {sorted(placeholders(english[key]))}")
        elif isinstance(first, ast.JoinedStr):
            pattern = "".join(re.escape(v.value) if isinstance(v, ast.Constant) else r"[\w.]+" for v in first.values)
            if not any(re.fullmatch(pattern, k) for k in english):
                wrong.append(f"{where}:{line} {pattern}: matches no id")
    assert not wrong, "\n".join(wrong)


def test_every_id_is_used():
    """An id no code names (nor builds) is a text nobody is shown: remove it."""
    source = "\n".join(p.read_text("utf-8") for p in SRC.rglob("*.py"))
    source += (SRC / "data" / "argparse.json").read_text("utf-8")  # argparse's texts, by msgid (toybattle.cli_lang)
    built = ("troop.", "effect.", "power.", "powertext.", "seat.", "level.", "forfeit.due.", "forfeit.why.",
             "how.", "list.", "prompt.")
    unused = [k for k in catalogue("en") if f'"{k}"' not in source and not k.startswith(built)]
    assert not unused, unused


def test_no_english_is_parsed_back():
    """No regular expression turns English into another language: the app's words module holds none, and
    the catalogues are read only by toybattle.said."""
    words = (SRC / "app" / "words.py").read_text("utf-8")
    assert "import re" not in words and "translate" not in words
    readers = [str(p.relative_to(SRC)) for p in SRC.rglob("*.py") if "said/data" in p.read_text("utf-8")]
    assert readers == [], readers
    assert said.catalogue.__module__ == "toybattle.said"


def test_french_is_other_words_than_english_but_for_names():
    """An entry whose French is its English is a text left untranslated, unless it is one of the few the
    French and English games name alike (tests/app/french.py SAME)."""
    english, french = catalogue("en"), catalogue("fr")
    assert {k for k in english if english[k] == french[k]} == SAME
