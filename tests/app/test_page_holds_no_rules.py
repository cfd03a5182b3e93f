"""The page holds no rule and composes no action: it sends only the action texts a view gave it
(see toybattle.app.view.legal_json), and the rules it shows come from the server. Checked by
reading every script of the front end for the notation's words, the decisions' names, the rack
limit and the rule texts, each taken from the rules themselves."""
from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest

from toybattle.app.reference import powers_json, rule_texts, troops_json
from toybattle.rules import State, action_text
from toybattle.rules import actions as A
from toybattle.rules.state import DECISION_NAMES
from toybattle.rules.troops import RACK_LIMIT

JS = Path(str(resources.files("toybattle").joinpath("web/js")))


def _scripts(folder: Path = JS) -> dict[str, str]:
    return {p.name: p.read_text("utf-8") for p in sorted(folder.glob("*.js"))}


def _strings(source: str) -> list[str]:
    """The string and template literals of a script (comments left out)."""
    code = re.sub(r"/\*.*?\*/|(?<![:\"'`])//[^\n]*", "", source, flags=re.S)
    return re.findall(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`(?:[^`\\]|\\.)*`', code)


def _notation_words() -> set[str]:
    """Each kind of action's fixed words, as the rules write them (draw, use, skip, jumbo@ ...)."""
    b = State.new("castle").b
    samples = [A.DRAW, A.USE, A.SKIP, A.place(7, 3), A.JUMBO + 3, A.RECALL + 3, A.SHOVE + (3 << 5) + 4,
               A.RECOVER + 5, A.PICK + 7]
    return {re.sub(r"[\dK]+", "", action_text(a, b)).rstrip("@:>") for a in samples} - {""}


def problems(scripts: dict[str, str]) -> list[str]:
    out = []
    words = _notation_words()
    texts = [t for t in rule_texts().values()] + [p["text"] for p in powers_json().values()] + \
        [t["effect"] for t in troops_json()["troops"]]
    for name, source in scripts.items():
        for lit in _strings(source):
            body = lit[1:-1]
            if re.search(r"@\$\{|\$\{[^}]*\}@|>\$\{|\}>", body) or re.fullmatch(r"[\w$]*@", body):
                out.append(f"{name}: builds an action: {lit}")
            if body in words or any(re.fullmatch(rf"{re.escape(w)}[@:].*", body) for w in words):
                out.append(f"{name}: a word of the notation: {lit}")
            if body in DECISION_NAMES.values():
                out.append(f"{name}: decides by the decision's name: {lit}")
            if "at most" in body or any(t[:40] in body for t in texts):
                out.append(f"{name}: writes a rule the server states: {lit}")
        for line in source.splitlines():
            if re.search(r"rack|laid|reserve|draw", line, re.I) and \
                    re.search(rf"(?<![\w.#-])({RACK_LIMIT}|{RACK_LIMIT - 1})(?![\w.%])", line):
                out.append(f"{name}: the rack limit: {line.strip()[:100]}")
            if re.search(r"\[1-7K\]|1-7", line):
                out.append(f"{name}: reads troop codes out of an action: {line.strip()[:100]}")
    return out


def test_the_scripts_compose_no_action_and_hold_no_rule():
    scripts = _scripts()
    assert {"app.js", "learn.js", "choice.js", "rack.js", "dom.js"} <= set(scripts)
    assert problems(scripts) == []


@pytest.mark.parametrize("script,found", [
    ('send(`${picked}@${id}`)', "builds an action"),
    ("send(`shove@${a}>${b}`)", "builds an action"),
    ('if (v.decision === "jungle_shove") go();', "decision's name"),
    ('const label = "jumbo@" + id;', "notation"),
    ('act("Draw", "draw")', "notation"),
    ('const full = c.rack + c.laid === 7;', "rack limit"),
    ('const m = a.match(/^([1-7K])@(\\d+)$/);', "troop codes"),
    ('h("p", {}, "Rack: 3 tiles (at most 8).")', "rule the server states"),
])
def test_the_check_finds_what_it_looks_for(script, found):
    assert any(found in p for p in problems({"x.js": script})), problems({"x.js": script})
