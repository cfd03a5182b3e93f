"""The command line speaks the user's language (toybattle.cli_lang): chosen from LANGUAGE, LC_ALL, LC_MESSAGES
and LANG as gettext does, French or English; every help text, error and printed line by message id, argparse's
own texts included (data/argparse.json maps its msgids to the catalogues' ids)."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from importlib import resources

import pytest

from toybattle import cli, cli_lang
from toybattle.said import catalogue

# English words that no French text here can hold (as words: "options" is French too, but argparse's own
# heading is "options", so it must not be left)
ENGLISH = ("the", "and", "with", "show", "usage", "options", "game", "games", "file")
LANG_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def english_words(text: str) -> list[str]:
    """The English words of ENGLISH in ``text``, leaving out what the user types as it is: options
    (``--first-game``), choices (``{standard,first-game}``) and file names or paths (``games.sqlite3``)."""
    plain = re.sub(r"\{[^}\s]*\}|--?[\w-]+|\S*\w[./]\w\S*", " ", text)
    return [w for w in re.findall(r"[A-Za-z]+", plain) if w.lower() in ENGLISH]


@pytest.fixture
def lang_env(monkeypatch):
    """Set the language variables: ``lang_env(LANG="fr_FR.UTF-8")``; the others are unset."""
    def setting(**values: str) -> None:
        for name in LANG_VARIABLES:
            if name in values:
                monkeypatch.setenv(name, values[name])
            else:
                monkeypatch.delenv(name, raising=False)
    return setting


def run(capsys, argv: list[str]) -> tuple[int, str, str]:
    """``toybattle ARGV`` in this process: its exit code (argparse's exit included), stdout and stderr."""
    try:
        code = cli.main(argv)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    out = capsys.readouterr()
    return code, out.out, out.err


# ------------------------------------------------------------------------------------------------ the language

@pytest.mark.parametrize("env, lang", [
    ({"LANG": "fr_FR.UTF-8"}, "fr"),
    ({"LANG": "fr"}, "fr"),
    ({"LANG": "fr_CA"}, "fr"),
    ({"LANG": "C"}, "en"),
    ({"LANG": "POSIX"}, "en"),
    ({"LANG": "en_US.UTF-8"}, "en"),
    ({"LANG": "de_DE.UTF-8"}, "en"),
    ({}, "en"),
    ({"LANGUAGE": "fr:en", "LANG": "C"}, "fr"),  # LANGUAGE first, its first entry
    ({"LANGUAGE": "en:fr", "LANG": "fr_FR.UTF-8"}, "en"),
    ({"LANGUAGE": "de:fr", "LANG": "fr_FR.UTF-8"}, "en"),  # only the first entry counts
    ({"LANGUAGE": "", "LC_ALL": "fr_FR.UTF-8", "LANG": "C"}, "fr"),  # an empty variable is skipped
    ({"LC_ALL": "C", "LC_MESSAGES": "fr_FR.UTF-8", "LANG": "fr_FR.UTF-8"}, "en"),
    ({"LC_MESSAGES": "fr_BE.UTF-8", "LANG": "C.UTF-8"}, "fr"),
    ({"LC_ALL": "", "LC_MESSAGES": "", "LANG": "fr_CH"}, "fr"),
])
def test_the_language_is_the_first_variable_set_as_gettext_reads_them(env, lang):
    assert cli_lang.system_lang(env) == lang


def test_language_takes_precedence_over_lang_for_the_command_line(capsys, lang_env):
    lang_env(LANGUAGE="fr", LANG="C.UTF-8")
    code, out, _ = run(capsys, ["replay", "--help"])
    assert code == 0 and out.startswith("utilisation : toybattle replay")
    lang_env(LANGUAGE="en_GB", LANG="fr_FR.UTF-8")
    code, out, _ = run(capsys, ["replay", "--help"])
    assert code == 0 and out.startswith("usage: toybattle replay")


# ------------------------------------------------------------------------------------------------ help

HELPS = [[], *([command] for command in cli.COMMANDS)]


@pytest.mark.parametrize("command", HELPS, ids=lambda c: " ".join(c) or "toybattle")
def test_every_help_is_french_under_a_french_system(capsys, lang_env, command):
    lang_env(LANG="fr_FR.UTF-8")
    code, out, err = run(capsys, [*command, "--help"])
    assert code == 0 and not err
    assert out.startswith("utilisation : toybattle") and "arguments facultatifs :" in out
    assert "affiche ce message d'aide et quitte" in out
    assert english_words(out) == [], out


@pytest.mark.parametrize("command", HELPS, ids=lambda c: " ".join(c) or "toybattle")
def test_every_help_is_english_under_c(capsys, lang_env, command):
    lang_env(LANG="C")
    code, out, _ = run(capsys, [*command, "--help"])
    assert code == 0 and out.startswith("usage: toybattle") and "\noptions:\n" in out
    assert "show this help message and exit" in out and "utilisation" not in out and "affiche" not in out


def test_the_english_help_is_argparses_own_layout(capsys, lang_env):
    """English stays exactly as before: the metavars, the sections, the help texts with their %."""
    lang_env(LANG="C")
    _, out, _ = run(capsys, ["arena", "--help"])
    assert "[--games GAMES]" in out and "[--plot FILE.svg]" in out and "(5% errors)" in out
    _, out, _ = run(capsys, ["replay", "--help"])
    assert out.startswith("usage: toybattle replay [-h] [--json | --position] file\n")
    assert "\npositional arguments:\n  file\n" in out


def test_the_english_check_finds_english(capsys, lang_env):
    """The check above can fail: the same help under C holds its English words."""
    lang_env(LANG="C")
    _, out, _ = run(capsys, ["serve", "--help"])
    assert {"usage", "the", "show", "file", "options"} <= {w.lower() for w in english_words(out)}


# ------------------------------------------------------------------------------------------------ errors

def one_french_error(err: str, command: str) -> str:
    """The error line of ``err`` (after argparse's usage, if any): one line, no traceback."""
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert lines[-1].startswith(f"toybattle {command} : "), err
    assert english_words(lines[-1]) == [], lines[-1]
    return lines[-1]


@pytest.mark.parametrize("argv, says", [
    (["review", "--seat", "green", "record.tbr"], "erreur : argument --seat : choix invalide : 'green' (au choix : "),
    (["replay"], "erreur : les arguments suivants sont requis : fichier"),
    (["replay", "x.tbr", "--bogus"], None),  # unrecognized: argparse reports it as the top parser
    (["perft", "deep"], "erreur : argument profondeur : valeur int invalide : 'deep'"),
    (["host", "--move-limit", "soon"], "erreur : argument --move-limit : 'soon' n'est pas un nombre de secondes"),
    (["host", "--clock", "999+0"], "erreur : argument --clock : une cadence va de 1 à 180 minutes"),
    (["arena", "random", "greedy", "--games"], "erreur : argument --games : un argument attendu"),
    (["legal", "x.tbp", "--nope"], None),
])
def test_a_bad_option_is_refused_in_french(capsys, lang_env, argv, says):
    lang_env(LANG="fr_FR.UTF-8")
    code, out, err = run(capsys, argv)
    assert code == 2 and not out
    assert err.startswith(f"utilisation : toybattle {argv[0] if says else ''}".rstrip())
    if says is None:
        assert err.strip().splitlines()[-1] == f"toybattle : erreur : arguments non reconnus : {argv[-1]}"
    else:
        assert one_french_error(err, argv[0]).startswith(f"toybattle {argv[0]} : {says}")


def test_the_same_bad_option_is_refused_in_english_under_c(capsys, lang_env):
    lang_env(LANG="C")
    code, _, err = run(capsys, ["review", "--seat", "green", "record.tbr"])
    assert code == 2
    assert err.strip().splitlines()[-1] == ("toybattle review: error: argument --seat: invalid choice: 'green' "
                                            "(choose from 'blue', 'red')")
    code, _, err = run(capsys, ["replay"])
    assert code == 2 and err.strip().splitlines()[-1] == \
        "toybattle replay: error: the following arguments are required: file"


def test_a_command_refuses_in_french(capsys, lang_env, tmp_path):
    lang_env(LANG="fr_FR.UTF-8")
    missing = tmp_path / "missing.tbr"
    code, out, err = run(capsys, ["replay", str(missing)])
    assert code == 2 and not out and len(err.strip().splitlines()) == 1
    assert one_french_error(err, "replay") == \
        f"toybattle replay : impossible de lire {missing} : fichier ou dossier introuvable"
    code, _, err = run(capsys, ["arena", "random", "greedy", "--terrain", "nowhere"])
    assert code == 2 and one_french_error(err, "arena").startswith("toybattle arena : terrain inconnu 'nowhere' "
                                                                    "(au choix : castle, ")
    code, _, err = run(capsys, ["arena", "god", "greedy"])
    assert code == 2 and one_french_error(err, "arena").startswith("toybattle arena : niveau de bot inconnu 'god'")
    code, _, err = run(capsys, ["rules", "nonsense"])
    assert code == 2 and one_french_error(err, "rules").startswith("toybattle rules : thème inconnu 'nonsense'")


def test_the_same_command_refuses_in_english_under_c(capsys, lang_env, tmp_path):
    lang_env(LANG="C")
    missing = tmp_path / "missing.tbr"
    code, _, err = run(capsys, ["replay", str(missing)])
    assert code == 2 and err.strip() == f"toybattle replay: cannot read {missing}: No such file or directory"
    code, _, err = run(capsys, ["arena", "random", "greedy", "--terrain", "nowhere"])
    assert code == 2 and err.startswith("toybattle arena: unknown terrain 'nowhere' (one of: castle, ")


# ------------------------------------------------------------------------------------------------ printed lines

def test_what_a_command_prints_is_french(capsys, lang_env):
    lang_env(LANG="fr_FR.UTF-8")
    code, out, _ = run(capsys, ["replay", "examples/castle-opening.tbr"])
    assert code == 0 and "terrain castle (mode standard), 24 actions" in out and "(de bas en haut)" in out
    assert english_words(out) == [], out
    code, out, _ = run(capsys, ["terrains"])
    assert code == 0 and out.startswith("id") and "La plaine des châteaux" in out and "Tour catapulte" in out
    code, out, _ = run(capsys, ["puzzles"])
    assert code == 0 and "rouge joue" in out and "difficulté" in out
    code, out, _ = run(capsys, ["rules"])
    assert code == 0 and out.startswith("Les règles de Toy Battle, par thème")
    code, out, _ = run(capsys, ["replay", "examples/castle-opening.tbr", "--json"])
    assert json.loads(out)["mode"] == "standard"  # JSON stays as it is


def test_a_command_with_its_own_language_option_still_has_it(capsys, lang_env):
    """review's --lang defaults to the system's language now, and still overrides it."""
    lang_env(LANG="fr_FR.UTF-8")
    _, out, _ = run(capsys, ["review", "--help"])
    assert "--lang {en,fr}" in out and "par défaut : celle du système" in out
    assert cli.build_parser("review", lang="fr").parse_args(["review", "x.tbr"]).lang is None  # main fills it in


def test_main_takes_the_language_as_a_parameter(capsys, lang_env):
    lang_env(LANG="C")
    assert cli.main(["terrains"], lang="fr") == 0
    assert "La plaine des châteaux" in capsys.readouterr().out


# ------------------------------------------------------------------------------------------------ argparse's table

def argparse_table() -> dict[str, str]:
    data = json.loads(resources.files("toybattle").joinpath("data", "argparse.json").read_text("utf-8"))
    return {k: v for k, v in data.items() if not k.startswith("//")}


def test_every_id_of_the_argparse_table_is_in_both_catalogues():
    english, french = catalogue("en"), catalogue("fr")
    table = argparse_table()
    assert len(table) >= 20
    for msgid, key in table.items():
        assert key in english and key in french, key
        assert english[key] != french[key], key
        if not isinstance(english[key], dict):  # argparse's own English is the catalogue's (outer spaces aside)
            assert english[key] == msgid, (msgid, english[key])
        # argparse fills the text with %: the same specifiers in both languages
        spec = re.compile(r"%\(\w+\)[sr]|%[sr]")  # a plural's {n} is argparse's %s (cli_lang._ngettext)
        for text in (french[key].values() if isinstance(french[key], dict) else [french[key]]):
            assert sorted(spec.findall(text.replace("{n}", "%s"))) == sorted(spec.findall(msgid)), (key, text)


def test_every_table_msgid_is_one_argparse_asks_for():
    """The table's keys are argparse's msgids (this Python's): a typo would leave its text English."""
    import argparse
    from pathlib import Path

    source = Path(argparse.__file__).read_text("utf-8")
    for msgid in argparse_table():
        assert repr(msgid)[1:-1] in source or msgid.replace("'", "\\'") in source, msgid


def test_an_msgid_the_table_lacks_stays_english_and_layout_is_kept():
    cli_lang.install()
    with cli_lang.using("fr"):
        assert cli_lang._gettext("a text some newer Python asks for") == "a text some newer Python asks for"
        assert cli_lang._gettext("usage: ") == "utilisation : "
        assert cli_lang._gettext("%(prog)s: error: %(message)s\n") == "%(prog)s : erreur : %(message)s\n"
        assert cli_lang._ngettext("expected %s argument", "expected %s arguments", 1) == "%s argument attendu"
        assert cli_lang._ngettext("expected %s argument", "expected %s arguments", 3) == "%s arguments attendus"
        assert cli_lang._ngettext("conflicting option string: %s", "conflicting option strings: %s", 2) == \
            "conflicting option strings: %s"
    assert cli_lang._gettext("usage: ") == "usage: "  # outside a French parser: argparse's own English
    assert cli_lang._ngettext("expected %s argument", "expected %s arguments", 1) == "expected %s argument"


def test_a_french_parser_stays_french_outside_main(capsys):
    parser = cli.build_parser("replay", lang="fr")
    assert parser.format_help().startswith("utilisation : toybattle")
    assert cli.build_parser("replay").format_help().startswith("usage: toybattle")
    assert parser.format_help().startswith("utilisation : toybattle")  # its own language, whatever was built since


def test_every_kind_of_action_is_described_in_french_and_a_terminal_player_speaks_it(capsys):
    """`legal`'s descriptions and a terminal player's lines (online play in a terminal) by message id."""
    import asyncio
    import builtins
    import random

    from toybattle.online.terminal import TerminalPlayer
    from toybattle.rules import State, describe_action
    from toybattle.said import say

    rng = random.Random(5)
    terrains = ("castle", "jungle", "cemetery", "pool", "station", "battlefield", "clouds", "croisette", "caribbean")
    s, kinds = State.new("castle", seed=1), {}
    for _ in range(3000):
        if s.over:
            s = State.new(rng.choice(terrains), seed=rng.randrange(99))
            continue
        acts = [a for a, _ in s.chance_outcomes()] if s.is_chance else s.legal_actions()
        for a in acts:
            d = describe_action(a, s.b)
            kinds[d.key] = (str(d), say(d, "fr"))
        s.apply(rng.choice(acts))
    assert len(kinds) >= 9, sorted(kinds)
    for english, french in kinds.values():
        assert english != french and english_words(french) == [], (english, french)
    s = State.new("castle", seed=2)
    typed = iter(["18@nowhere", "concede"])
    real_input = builtins.input
    builtins.input = lambda prompt="": (print(prompt), next(typed))[1]
    try:
        assert asyncio.run(TerminalPlayer("fr").choose(s, 0)) is None
    finally:
        builtins.input = real_input
    lines = capsys.readouterr().out.splitlines()
    said = lines[lines.index("claimed -") + 1:]  # after the position (notation, the same in every language)
    assert said[1].startswith("permis : draw ") and said[2].startswith("votre action")
    assert said[3].startswith("action invalide '18@nowhere'")
    assert all(english_words(line.replace("'concede'", "")) == [] for line in said), said


def test_every_level_gives_its_hint_reason_in_french():
    """`toybattle hint` and the engine say a level's reason; each level's is a message, said in French."""
    from toybattle.bots import make_bot
    from toybattle.rules import State
    from toybattle.rules.observation import observation
    from toybattle.said import say

    obs = observation(State.new("castle", seed=4), 0)
    obs = observation(State.new("castle", seed=4), obs.actor)
    for level in ("random", "greedy", "easy"):
        _, why = make_bot(level, 1).hint(obs)
        french = say(why, "fr")
        assert french != str(why) and english_words(french) == [], (level, french)


# ------------------------------------------------------------------------------------------------ end to end

@pytest.mark.slow
def test_the_installed_command_speaks_french_end_to_end(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "LANG": "fr_FR.UTF-8", "PYTHONPATH": str(resources.files("toybattle").parent)}
    got = subprocess.run([sys.executable, "-m", "toybattle", "replay", str(tmp_path / "none.tbr")], env=env,
                         capture_output=True, text=True, timeout=60)
    assert got.returncode == 2 and not got.stdout
    none = tmp_path / "none.tbr"
    assert got.stderr == f"toybattle replay : impossible de lire {none} : fichier ou dossier introuvable\n"
    got = subprocess.run([sys.executable, "-m", "toybattle", "--help"], env=env, capture_output=True, text=True,
                         timeout=60)
    assert got.returncode == 0 and got.stdout.startswith("utilisation : toybattle") and english_words(got.stdout) == []
    got = subprocess.run([sys.executable, "-m", "toybattle", "--help"], env={**env, "LANG": "C"}, capture_output=True,
                         text=True, timeout=60)
    assert got.returncode == 0 and got.stdout.startswith("usage: toybattle")
