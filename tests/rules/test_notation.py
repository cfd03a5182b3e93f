"""Positions and records: malformed text is refused with NotationError and a clear one-line message,
never another exception; and the `toybattle replay / legal / terrains` commands built on them."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toybattle import cli
from toybattle.rules import (
    SEATS,
    TERRAIN_IDS,
    IllegalAction,
    NotationError,
    State,
    action_text,
    load_terrain,
    parse_action,
    parse_position,
    parse_record,
    position_text,
    setup_record,
)
from toybattle.rules.troops import full_army
from toybattle.rules.troops import name as troop_name


def game_record(seed: int, terrain: str = "castle", plies: int = 30):
    rng = random.Random(seed)
    orders = [full_army(0), full_army(1)]
    for o in orders:
        rng.shuffle(o)
    rec = setup_record(terrain, False, seed % 2, orders)
    s = rec.start.copy()
    while not s.over and len(rec.actions) < plies:
        a = s.sample_chance(rng) if s.is_chance else rng.choice(s.legal_actions())
        rec.actions.append(action_text(a, s.b))
        s.apply(a)
    return rec, s


VALID_RECORDS = [game_record(k, TERRAIN_IDS[k % len(TERRAIN_IDS)])[0].text() for k in range(6)]
VALID_POSITIONS = [position_text(game_record(k, TERRAIN_IDS[k % len(TERRAIN_IDS)], plies=k * 7)[1])
                   for k in range(6)]


def use_position(s: State) -> None:
    """What a reader does with a parsed position: none of it may raise."""
    s.legal_actions()
    s.describe_decision()
    position_text(s)
    if s.is_chance:
        s.chance_outcomes()


def check_one_line(e: Exception) -> None:
    msg = str(e)
    assert msg and "\n" not in msg and "Traceback" not in msg


# ----------------------------------------------------------------- specific malformed inputs

POS = VALID_POSITIONS[0]


@pytest.mark.parametrize("text, message", [
    ("", "line 1: a position must start with the line 'toybattle position 1'"),
    ("\n# note\ntoybattle position 2\nterrain castle\n", "line 3: a position must start with the line"),
    (POS.replace("terrain castle", "terrain moon"), "line 2: unknown terrain 'moon' (one of: castle,"),
    (POS.replace("terrain castle", "terrain"), "line 2: 'terrain' needs a value"),
    (POS.replace("terrain castle\n", ""), "line 1: a position needs a 'terrain' line"),
    (POS.replace("first blue", "first"), "line 4: 'first' needs a value"),
    (POS.replace("first blue", "first green"), "line 4: unknown side 'green' (blue or red)"),
    (POS.replace("mode standard", "mode hard"), "line 3: mode must be standard or first-game, not 'hard'"),
    (POS + "blue aside ?x99999999999\n", "line 15: 'blue aside' given twice (first on line 9)"),
    (POS.replace("blue aside", "blue aside ?x99999999999 #"),
     "line 9: an unknown-tile count (?xN) must be a whole number from 0 to 24, not '99999999999'"),
    (POS.replace("blue aside", "blue aside ?x-3 #"),
     "line 9: an unknown-tile count (?xN) must be a whole number from 0 to 24, not '-3'"),
    (POS.replace("blue aside", "blue aside ?x1_0 #"),
     "line 9: an unknown-tile count (?xN) must be a whole number from 0 to 24, not '1_0'"),
    (POS.replace("decision turn", "decision jumbo_target 99"),
     "line 6: the decision's node: no node '99' on Castle Field"),
    (POS + "queue 99:1\n", "line 15: queue entry '99:1' (NODE:HEIGHT): no node '99' on Castle Field"),
    (POS + "queue 15\n",
     "line 15: queue entry '15' (NODE:HEIGHT): the height must be a whole number from 1 to 48, not ''"),
    (POS + "stack 11 x7\n", "line 15: bad tile 'x7' on the board (expected b7, rK, ...)"),
    (POS + "stack 11 b?\n", "line 15: a tile on the board cannot be unknown: 'b?'"),
    (POS + "stack 99 b7\n", "line 15: stack: no node '99' on Castle Field"),
    (POS + "stack 11\nstack 11 b7\n", "line 16: node 11 given twice (first on line 15)"),
    (POS + "wizard 3\n", "line 15: unknown field 'wizard'"),
    (POS.replace("claimed -", "claimed 9:blue"),
     "line 14: bad claim '9:blue' (expected REGION:blue or REGION:red, with a region of Castle Field)"),
    (POS.replace("claimed -", "claimed 1:green"),
     "line 14: bad claim '1:green' (expected REGION:blue or REGION:red, with a region of Castle Field)"),
    (POS.replace("decision turn", "decision juggle"), "line 6: unknown decision 'juggle' (one of: turn, capn_extra,"),
    (POS.replace("blue rack", "blue rack Z #"), "line 7: unknown troop 'Z' (use 1-7, K or a troop name)"),
    (POS.replace("blue rack 3 4 K", "blue rack 3 4 K 1 2 3 5 6 7"),
     "line 8: blue has more than 3 tiles of 1 2 3 5 6 7; an army holds 3 of each troop: rack 9 [1 2 3 3 4 5 6 7 K], "
     "reserve 17 [1 1 2 2 2 3 4 4 5 5 6 6 7 7 7 K K], aside 4 [1 3 5 6]; by troop 1:4 2:4 3:4 4:3 5:4 6:4 7:4 K:3 "
     "(each troop: 3)"),
    (POS + "ply x\n", "line 15: ply must be a whole number from 0 to 1000000, not 'x'"),
    (POS + "ply " + "9" * 5000 + "\n",
     "line 15: ply must be a whole number from 0 to 1000000, not '99999999999999999999...'"),
    (POS.replace("claimed -", "claimed -; ply -99999999999999999999"),
     "line 14: ply must be a whole number from 0 to 1000000, not '-99999999999999999999'"),
])
def test_malformed_position_rejected(text, message):
    """Bad position text gets NotationError with a clear one-line message that starts with the line to blame."""
    with pytest.raises(NotationError) as e:
        parse_position(text)
    check_one_line(e.value)
    assert str(e.value).startswith(message)


def test_semicolon_in_a_comment_is_part_of_the_comment():
    """A `;` after `#` is comment text, not a line break; a `;` before it still splits the line, and
    errors on the joined line name that line."""
    text = POS.replace("claimed -", "claimed -   # regions; none yet; see the terrain file")
    assert position_text(parse_position(text)) == POS
    one_line = POS.replace("discard -\nclaimed -\n", "discard - ; claimed - ; ply 3 # three; actions\n")
    assert parse_position(one_line).ply == 3
    with pytest.raises(NotationError, match=r"^line 13: ply must be a whole number from 0 to 1000000, not '3x'$"):
        parse_position(one_line.replace("ply 3", "ply 3x"))


@pytest.mark.parametrize("field, line", [("blue rack", 7), ("red aside", 12), ("discard", 13)])
def test_error_names_the_line_of_the_field(field, line):
    """Each field's error names its own line, comments and blank lines counted."""
    text = POS.replace(field + " ", field + " Z ")
    with pytest.raises(NotationError, match=f"^line {line}: "):
        parse_position(text)
    with pytest.raises(NotationError, match=f"^line {line + 2}: "):
        parse_position("# a note\n\n" + text)


def test_a_short_army_gets_its_breakdown_by_zone_and_troop():
    """When an army does not add up to 24, the error says where each tile is and how many of each troop
    the position holds, so the writer sees which one is missing."""
    text = POS.replace("blue rack 3 4 K", "blue rack 3 4").replace("blue reserve K 4 2 1 7", "blue reserve K 4 2 7")
    text += "stack 11 b1\n"
    with pytest.raises(NotationError) as e:
        parse_position(text)
    assert str(e.value) == (
        "line 8: blue's tiles add up to 23, not 24 (4 of them set aside): rack 2 [3 4], "
        "reserve 16 [1 2 2 2 3 4 4 5 5 6 6 7 7 7 K K], aside 4 [1 3 5 6], board 1 [1]; "
        "by troop 1:3 2:3 3:3 4:3 5:3 6:3 7:3 K:2 (each troop: 3)")
    with pytest.raises(NotationError, match=r"^line 11: red has more than 3 tiles of 7; .*: rack 6 \[\? 1 2 3 5 7\], "
                                            r".* 7:4 K:3 \?:1 "):
        parse_position(POS.replace("red rack 1 2 3 5", "red rack 1 2 3 5 7 ?"))


def test_rest_fills_a_zone_with_the_armys_remaining_tiles():
    """`blue reserve rest` puts every tile of blue's army that no other line places into the reserve
    (under the tiles written before `rest`); with unknown tiles elsewhere, the rest is unknown too."""
    s = parse_position(POS)
    short = POS.replace("blue reserve K 4 2 1 7 2 7 2 7 4 K 6 6 3 1 5 5", "blue reserve K 4 rest")
    t = parse_position(short)
    assert t.reserve[0][-2:] == [0x04, 0x08]  # K then 4 on top, as written
    assert sorted(t.reserve[0]) == sorted(s.reserve[0]) and t.rack == s.rack and t.aside == s.aside
    u = parse_position(POS.replace("red aside 6 1 K 5", "red aside rest").replace(
        "red reserve 7 3 3 7 7 4 2 5 4 2 6 6 4 K 1 K", "red reserve ?x16"))
    assert u.aside[1] == [0x10] * 4 and u.reserve[1] == [0x10] * 16
    v = parse_position(POS.replace("blue rack 3 4 K", "blue rack rest").replace(
        "blue reserve K 4 2 1 7 2 7 2 7 4 K 6 6 3 1 5 5", "blue reserve 4 2 1 7 2 7 2 7 4 K 6 6 3 1 5 5"))
    assert v.rack[0] == [0x03, 0x04, 0x08, 0x08] and v.b is s.b


@pytest.mark.parametrize("change, message", [
    (("blue rack 3 4 K", "blue rack 3 4 K 7 rest"), "line 8: blue has more than 3 tiles of 7;"),
    (("blue aside 5 1 6 3", "blue aside 5 rest\nblue laid 1"), "line 9: blue must have 4 tiles set aside"),
    (("red rack 1 2 3 5", "red rack rest 1"), "line 10: 'rest' must be the last word of its line"),
    (("red aside 6 1 K 5", "red aside rest\nred laid rest"), "line 12: 'rest' is already used on line 13"),
    (("red aside 6 1 K 5", "red aside 6 1 K 5\nred public rest"),
     "line 13: 'rest' fills a rack, laid, reserve or aside line, not public tiles"),
])
def test_rest_mistakes(change, message):
    """`rest` misused is refused with its line: nothing left for it, not last, twice, on public tiles."""
    with pytest.raises(NotationError) as e:
        parse_position(POS.replace(*change))
    assert str(e.value).startswith(message)


@pytest.mark.parametrize("mode, decision, stacks, message", [
    ("standard", "castle_recall 18", {18: "b1"},
     "decision castle_recall: node 18 has no recall effect (it is a plain base)"),
    ("standard", "castle_recall 41", {}, "decision castle_recall: node 41 has no recall effect (it is an H.Q.)"),
    ("first-game", "castle_recall 15", {15: "b1"}, "decision castle_recall: node 15 has no recall effect (it is a "
     "recall base; special bases act as plain bases in the first game)"),
    ("standard", "jungle_shove 15", {15: "b1"},
     "decision jungle_shove: node 15 has no shove effect (it is a recall base)"),
    ("standard", "castle_recall 15", {15: "b1 r2"},
     "decision castle_recall: node 15 must have blue's tile on top (the one whose recall effect is due)"),
    ("standard", "castle_recall 15", {}, "decision castle_recall: node 15 must have blue's tile on top"),
    ("standard", "jumbo_target 14", {14: "b1", 17: "r1"},
     "decision jumbo_target: node 14 must have blue's Jumbo on top"),
    ("standard", "castle_recall", {}, "decision castle_recall: needs the node it is about"),
    ("standard", "turn 18", {}, "decision turn: is not about a node (leave the node out)"),
])
def test_a_decision_about_a_node_is_checked_against_the_board(kit, mode, decision, stacks, message):
    """The node a decision is about must be one that decision can come from: a special base with that
    effect (in standard mode) holding the deciding seat's tile, or the Jumbo just placed."""
    text = kit.position_lines("castle", mode=mode, decision=decision, stacks=stacks)
    assert text.splitlines()[5] == f"decision {decision}"
    with pytest.raises(NotationError) as e:
        parse_position(text)
    assert str(e.value).startswith(f"line 6: {message}")


def test_a_decision_about_the_right_node_is_read(kit):
    """The same decisions on fitting nodes are read, and so is a queue of special bases."""
    s = kit.build("castle", decision="castle_recall 15", stacks={15: "b1", 11: "b2"}, queue="20:1")
    assert s.dnode == s.b.index[15] and kit.legal(s) == {"recall@11", "skip"}
    assert kit.build("castle", decision="jumbo_target 14", stacks={14: "b3", 17: "r1"}).dnode == s.b.index[14]
    with pytest.raises(NotationError, match=r"^line 7: queue: node 18 has no special-base effect to wait for$"):
        kit.build("castle", decision="castle_recall 15", stacks={15: "b1", 11: "b2"}, queue="18:1")


def test_tiles_on_an_hq_mean_the_game_is_over(kit):
    """A position with a tile on an H.Q. is refused unless the game is over."""
    text = kit.position_lines("castle", stacks={25: "b1", 41: "b7"}, claimed="")
    assert text.splitlines()[13] == "stack 41 b7"
    with pytest.raises(NotationError, match=r"^line 14: node 41 is an H\.Q\.: tiles there mean the game is over"):
        parse_position(text)
    s = parse_position(text.replace("decision turn", "decision over blue hq"))
    assert s.over and s.winner == 0 and s.legal_actions() == []


REC = VALID_RECORDS[0]


@pytest.mark.parametrize("text, message", [
    ("", "line 1: a record must start with the line 'toybattle record 1'"),
    ("toybattle record 1\nfoo bar\n", "line 2: unknown record line 'foo bar'"),
    ("toybattle record 1\nseed x\n", "line 2: seed must be a whole number from 0 to 9223372036854775807, not 'x'"),
    ("toybattle record 1\n# c\nseed -99999999999999999999\n", "line 3: seed must be a whole number from 0 to"),
    ("toybattle record 1\nterrain moon\nseed 5\n", "line 2: unknown terrain 'moon'"),
    (REC.replace("mode standard", "mode hard"), "line 3: mode must be standard or first-game, not 'hard'"),
    (REC.replace("mode standard", "mode standard\nmode first-game"), "line 4: 'mode' given twice (first on line 3)"),
    (REC.replace("first blue", "first green"), "line 4: unknown side 'green' (blue or red)"),
    (REC.replace("blue order ", "blue order 1 "), "line 5: blue order must list that army's 24 tiles"),
    (REC.replace("red order ", "red order Z "), "line 6: unknown troop 'Z'"),
    ("toybattle record 1\nposition\nterrain castle\n", "line 2: 'position' block without 'end'"),
    ("toybattle record 1\nposition\nterrain castle\nwizard 1\nend\n", "line 4: unknown field 'wizard'"),
    ("toybattle record 1\nposition\n" + "\n".join(POS.splitlines()[1:]) + "\nend\nseed 4\n",
     "line 17: a record starts from a position (line 2) or from a setup, not both"),
    ("toybattle record 1\nfirst blue\nactions\ndraw\n", "line 3: a record needs 'seed N', or 'first' with"),
])
def test_malformed_record_rejected(text, message):
    """Bad record text gets NotationError with a clear one-line message that starts with the line to blame."""
    with pytest.raises(NotationError) as e:
        parse_record(text)
    check_one_line(e.value)
    assert str(e.value).startswith(message)


def test_position_inside_a_record_keeps_its_line_numbers():
    """A position block inside a record is checked like a position file, naming the record's own lines."""
    block = "\n".join(POS.splitlines()[1:]).replace("red rack 1 2 3 5", "red rack 1 2 3 5 x")
    with pytest.raises(NotationError, match=r"^line 12: unknown troop 'x'"):
        parse_record("toybattle record 1\n\nposition\n" + block + "\nend\nactions\n")


def test_illegal_action_in_record_names_number_and_rule():
    """Replaying a record stops at an illegal action with its number and the rule it breaks."""
    rec, _ = game_record(1, plies=6)
    rec.actions.append("7@41")
    with pytest.raises(IllegalAction) as e:
        parse_record(rec.text()).replay()
    assert str(e.value).startswith("line 8: action 7 (7@41) is illegal: ")
    rec.actions[-1] = "fly@41"
    with pytest.raises(IllegalAction, match=r"^line 8: action 7 \(fly@41\): bad action"):
        parse_record(rec.text()).replay()
    read = parse_record("# from a bug report\n" + rec.text().replace("actions\n", "actions\n\n1. "))
    with pytest.raises(IllegalAction, match=r"^line 10: action 7 \(fly@41\): bad action"):
        read.replay()
    read.actions[6:] = ["fly@42"]  # changed in code: no line to name for it
    with pytest.raises(IllegalAction, match=r"^action 7 \(fly@42\): bad action"):
        read.replay()


def seated(seed: int, plies: int) -> tuple[str, list[str]]:
    """A record's text whose every player action names its seat (``blue:7@18``), and those actions."""
    rec, _ = game_record(seed, plies=plies)
    s = rec.start.copy()
    out = []
    for text in rec.actions:
        out.append(text if s.is_chance else f"{SEATS[s.actor]}:{text}")
        s.apply(parse_action(text, s.b))
    rec.actions = out
    return rec.text(), out


def test_actions_may_name_their_seat():
    """`blue:7@18` is blue's 7@18: a record whose actions name their seats replays to the same state."""
    text, actions = seated(7, 60)
    assert any(a.startswith("blue:") for a in actions) and any(a.startswith("red:") for a in actions)
    assert parse_record(text).replay() == game_record(7, plies=60)[1]


def test_an_action_naming_the_wrong_seat_is_refused_with_its_number():
    """A record whose action names the seat that is not deciding is refused with the action's line and
    number, even when the action itself would be legal for the right seat."""
    text, actions = seated(7, 60)
    k = next(i for i, a in enumerate(actions) if a.startswith("red:"))
    wrong = "blue:" + actions[k][4:]
    actions = [*actions[:k], wrong]
    rec = parse_record(text)
    rec.actions = actions
    line = 8 + k // 10
    with pytest.raises(IllegalAction) as e:
        parse_record(rec.text()).replay()
    assert str(e.value) == (f"line {line}: action {k + 1} ({wrong}) names blue, but the decision is red's: "
                            "red's turn: draw or place a troop")


def test_a_chance_outcome_names_no_seat(kit):
    """`pick:` outcomes belong to no seat: a seat on one, or a seat's action at a chance node, is refused."""
    start = kit.position_lines("castle", turn="blue", decision="xb42_pick", red="7 7 1", stacks={11: "b1", 13: "b5"})
    body = "\n".join(start.splitlines()[1:])
    head = f"toybattle record 1\nposition\n{body}\nend\nactions\n"
    assert parse_record(head + "pick:7 red:draw\n").replay().ply == 2
    n = len(head.splitlines()) + 1
    with pytest.raises(IllegalAction, match=rf"^line {n}: action 1 \(red:pick:7\): bad action 'red:pick:7': a chance "
                                            r"outcome is no seat's action \(write pick:7\)$"):
        parse_record(head + "red:pick:7\n").replay()
    with pytest.raises(IllegalAction, match=rf"^line {n}: action 1 \(blue:draw\) names blue, but a chance outcome "
                                            r"decides now: chance: "):
        parse_record(head + "blue:draw\n").replay()


# ----------------------------------------------------------------- fuzzing

def _parse_any(text: str) -> None:
    try:
        s = parse_position(text)
    except NotationError as e:
        check_one_line(e)
    else:
        use_position(s)
    try:
        r = parse_record(text)
    except NotationError as e:
        check_one_line(e)
    else:
        try:
            use_position(r.replay())
        except IllegalAction as e:
            check_one_line(e)


FUZZ = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.text(max_size=200))
def test_fuzz_random_text(text):
    """Any text is either read or refused with NotationError, never another exception."""
    _parse_any(text)
    _parse_any("toybattle position 1\n" + text)
    _parse_any("toybattle record 1\n" + text)


TOKENS = st.sampled_from(["-", "?x3", "?x99999999999", "?x-1", "b7", "rK", "7", "K", "?", "blue", "red", "x",
                          "15:2", "99", "41", "0", "-1", "1e9", "over", "turn", "jumbo_target", "castle_recall",
                          "xb42_pick", "battlefield_pick", "stack", "end", "position", "actions", "draw", "7@41",
                          "pick:7*", "shove@14>17", "recall@15", "#", ";", "1:blue", "seed", "order", "\t", "é",
                          "rest", "blue:7@18", "red:draw", "blue:pick:7", "1_0", "१", "-99999999999999999999",
                          "15:2", "castle_recall", "# ;", "20"])


@st.composite
def mutated(draw, sources):
    lines = draw(st.sampled_from(sources)).splitlines()
    for _ in range(draw(st.integers(1, 4))):
        if not lines:
            break
        k = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(["drop", "dup", "word", "insert", "swap", "chars"]))
        words = lines[k].split()
        if op == "drop":
            del lines[k]
        elif op == "dup":
            lines.insert(k, lines[k])
        elif op == "word" and words:
            words[draw(st.integers(0, len(words) - 1))] = draw(TOKENS)
            lines[k] = " ".join(words)
        elif op == "insert":
            words.insert(draw(st.integers(0, len(words))), draw(TOKENS))
            lines[k] = " ".join(words)
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[k], lines[j] = lines[j], lines[k]
        elif op == "chars":
            lines[k] = draw(st.text(max_size=12))
    return "\n".join(lines) + "\n"


@FUZZ
@given(mutated(VALID_POSITIONS))
def test_fuzz_mutated_positions(text):
    """Mutations of valid positions are read or refused with NotationError, never another exception;
    what is read can be used (legal actions, description, text)."""
    _parse_any(text)


@FUZZ
@given(mutated(VALID_RECORDS))
def test_fuzz_mutated_records(text):
    """Mutations of valid records are read (and replay or stop with IllegalAction) or are refused with
    NotationError, never another exception."""
    _parse_any(text)


# ----------------------------------------------------------------- the command line

def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_replay_ok(tmp_path, capsys):
    """`toybattle replay FILE` replays a record and prints the final summary (JSON with --json)."""
    rec, s = game_record(3, plies=500)
    f = tmp_path / "game.tbr"
    f.write_text(rec.text())
    code, out, _ = run(capsys, "replay", str(f), "--json")
    data = json.loads(out)
    assert code == 0 and data["actions"] == s.ply and data["over"] == s.over
    assert data["winner"] == (("blue", "red")[s.winner] if s.over else None)
    code, out, _ = run(capsys, "replay", str(f))
    assert code == 0 and "terrain castle" in out


def test_cli_replay_illegal_action(tmp_path, capsys):
    """An illegal action stops `toybattle replay` with exit code 1, naming the action's number and the
    rule it breaks, in one line."""
    rec, _ = game_record(2, plies=5)
    rec.actions.append("K@1")
    f = tmp_path / "bad.tbr"
    f.write_text(rec.text())
    code, out, err = run(capsys, "replay", str(f))
    assert code == 1 and out == ""
    assert "line 8: action 6 (K@1) is illegal" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("content", ["", "toybattle record 1\nfoo\n", "\x00\x01garbage", "toybattle position 1\n"])
def test_cli_replay_malformed_file(tmp_path, capsys, content):
    """A malformed record gets one line on stderr and exit code 2, no traceback."""
    f = tmp_path / "bad.tbr"
    f.write_text(content)
    code, out, err = run(capsys, "replay", str(f))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert err.startswith("toybattle replay: ")


def test_cli_replay_missing_or_binary_file(tmp_path, capsys):
    """A missing or undecodable file is a one-line user error too."""
    code, _, err = run(capsys, "replay", str(tmp_path / "nope.tbr"))
    assert code == 2 and "cannot read" in err and len(err.strip().splitlines()) == 1
    f = tmp_path / "bin.tbr"
    f.write_bytes(b"\xff\xfe\x00\x80" * 10)
    code, _, err = run(capsys, "replay", str(f))
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_cli_legal_json(tmp_path, capsys):
    """`toybattle legal POSITION --json` lists the actions open at the position's decision."""
    s = State.new("castle", first=0, seed=4)
    f = tmp_path / "p.tbp"
    f.write_text(position_text(s))
    code, out, _ = run(capsys, "legal", str(f), "--json")
    data = json.loads(out)
    assert code == 0 and data["decision"] == "turn"
    assert [r["action"] for r in data["actions"]] == [action_text(a, s.b) for a in s.legal_actions()]
    assert all(r["means"] for r in data["actions"])
    code, _, err = run(capsys, "legal", str(tmp_path / "nope.tbp"))
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_cli_legal_chance_probabilities(tmp_path, capsys, kit):
    """At a chance node `legal --json` gives each outcome's probability."""
    s = kit.build("castle", turn="blue", decision="xb42_pick", red="7 7 1", stacks={11: "b1", 13: "b5"})
    f = tmp_path / "p.tbp"
    f.write_text(position_text(s))
    code, out, _ = run(capsys, "legal", str(f), "--json")
    rows = {r["action"]: r["probability"] for r in json.loads(out)["actions"]}
    assert code == 0 and rows == pytest.approx({"pick:1": 1 / 3, "pick:7": 2 / 3})


def test_cli_terrains_json_gives_the_whole_graph(capsys):
    """`toybattle terrains --json`: per terrain its nodes (coordinates, kinds, H.Q. sides, powers, troops
    allowed), paths, regions with their medals, H.Q.s, special bases and objectives; all matching the terrain."""
    code, out, _ = run(capsys, "terrains", "--json")
    rows = json.loads(out)
    assert code == 0 and [r["id"] for r in rows] == list(TERRAIN_IDS)
    for r in rows:
        t = load_terrain(r["id"])
        assert set(r) == {"id", "name", "name_fr", "objective", "medals", "hq", "bases", "nodes", "paths", "regions",
                          "special"}
        assert [(n["id"], n["kind"], n["x"], n["y"]) for n in r["nodes"]] == [(n.id, n.kind, n.x, n.y) for n in t.nodes]
        assert [tuple(p) for p in r["paths"]] == list(t.paths)
        assert [(g["id"], tuple(g["bases"]), g["medals"]) for g in r["regions"]] == \
            [(g.id, g.bases, g.medals) for g in t.regions]
        assert r["medals"] == sum(g["medals"] for g in r["regions"]) and r["objective"] == dict(zip(
            SEATS, t.objective, strict=True))
        assert r["hq"] == {"blue": [n["id"] for n in r["nodes"] if n["side"] == "blue"],
                           "red": [n["id"] for n in r["nodes"] if n["side"] == "red"]}
    castle = next(r for r in rows if r["id"] == "castle")
    assert castle["hq"] == {"blue": [1], "red": [41]}
    assert castle["special"] == {str(i): "recall" for i in (15, 16, 20, 21)}
    assert next(n for n in castle["nodes"] if n["id"] == 15)["power"] == "recall"
    caribbean = next(r for r in rows if r["id"] == "caribbean")
    assert len(caribbean["hq"]["blue"]) == 2 and len(caribbean["hq"]["red"]) == 1 and caribbean["special"] == {}
    pool = next(r for r in rows if r["id"] == "pool")
    assert pool["special"]["17"] == "restricted: 6/7/Kwak"
    assert next(n for n in pool["nodes"] if n["id"] == 17)["allowed"] == ["6", "7", "K"]
    code, out, _ = run(capsys, "terrains")
    assert code == 0 and "castle      Castle Field       7/7   1/1      15     24        8      14  15 recall" in out


def test_cli_replay_json_reports_everything_the_position_holds(tmp_path, capsys, kit):
    """`replay --json` gives claimed regions, laid-down and public tiles, every zone's faces (unknown as null),
    the node a decision is about and the queue: everything the position format holds."""
    start = kit.position_lines("castle", decision="castle_recall 15", stacks={15: "b1", 11: "b2", 13: "b4",
                                                                              17: "b3"},
                               blue="7", red="1 2", red_laid="5", queue="20:1")
    start = start.replace("red rack 1 2", "red rack ?x2").replace("red laid 5", "red laid ?")
    f = tmp_path / "g.tbr"
    f.write_text("toybattle record 1\nposition\n" + "\n".join(start.splitlines()[1:]) + "\nend\nactions\n")
    code, out, err = run(capsys, "replay", str(f), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["decision"] == "castle_recall" and data["decision_node"] == 15
    assert data["queue"] == [{"node": 20, "height": 1}] and data["claimed"] == {"2": "blue"}
    assert data["tiles"]["blue"]["rack"] == ["Roxy"] and data["tiles"]["red"]["rack"] == [None, None]
    assert data["tiles"]["red"]["laid"] == [None] and data["rack"]["red"] == 3
    rec, s = game_record(11, plies=200)
    f.write_text(rec.text())
    data = json.loads(run(capsys, "replay", str(f), "--json")[1])
    assert data["tiles"]["blue"]["reserve"] == [troop_name(t & 15) for t in s.reserve[0][::-1]]
    assert data["tiles"]["red"]["aside"] == [troop_name(t & 15) for t in s.aside[1]]
    assert data["claimed"] == {str(s.b.terrain.regions[k].id): SEATS[w] for k, w in enumerate(s.claimed) if w >= 0}
    assert data["stacks"] and data["first"] == SEATS[s.first]


@pytest.mark.parametrize("seed", range(12))
def test_cli_replay_position_round_trip(tmp_path, capsys, seed):
    """`replay --position` prints the final position as a .tbp that `legal` reads back: the same position,
    the same options as `legal` on the record itself (every terrain, games cut anywhere, finished ones too)."""
    terrain = TERRAIN_IDS[seed % len(TERRAIN_IDS)]
    rec, s = game_record(seed, terrain, plies=[5, 17, 40, 500][seed % 4])
    f = tmp_path / "g.tbr"
    f.write_text(rec.text())
    code, position, err = run(capsys, "replay", str(f), "--position")
    assert code == 0 and err == "" and position == position_text(s)
    assert parse_position(position) == s
    g = tmp_path / "g.tbp"
    g.write_text(position)
    code, from_position, _ = run(capsys, "legal", str(g), "--json")
    assert code == 0
    assert run(capsys, "legal", str(f), "--json")[1] == from_position
    listed = [r["action"] for r in json.loads(from_position)["actions"]]
    assert listed == [action_text(a, s.b) for a in s.legal_actions()]


def test_position_text_round_trips_every_decision():
    """Positions written at every decision of many random games (special-base and chance decisions
    included) are read back as the same state."""
    seen = set()
    for seed in range(40):
        _, s = game_record(seed, TERRAIN_IDS[seed % len(TERRAIN_IDS)], plies=0)
        rng = random.Random(seed)
        while not s.over:
            assert parse_position(position_text(s)) == s, position_text(s)
            seen.add(s.decision)
            s.apply(s.sample_chance(rng) if s.is_chance else rng.choice(s.legal_actions()))
        assert parse_position(position_text(s)) == s
    assert len(seen) >= 10


def test_cli_legal_reads_a_record(tmp_path, capsys):
    """`toybattle legal RECORD` lists the options at the position after the record's last action; a record
    with a refused action stops with exit code 1 and the action's line and number."""
    rec, s = game_record(6, plies=9)
    f = tmp_path / "g.tbr"
    f.write_text(rec.text())
    code, out, _ = run(capsys, "legal", str(f), "--json")
    assert code == 0 and [r["action"] for r in json.loads(out)["actions"]] == [action_text(a, s.b)
                                                                             for a in s.legal_actions()]
    rec.actions.append("7@41")
    f.write_text(rec.text())
    code, out, err = run(capsys, "legal", str(f))
    assert code == 1 and out == ""
    assert err.startswith(f"toybattle legal: {f}: line 8: action 10 (7@41) is illegal: ")
    f.write_text(rec.text().replace("mode standard", "mode hard"))
    code, out, err = run(capsys, "legal", str(f))
    assert code == 2 and err == f"toybattle legal: {f}: line 3: mode must be standard or first-game, not 'hard'\n"


def test_cli_legal_on_a_record_as_a_real_process(tmp_path):
    """The same through `python -m toybattle legal`, a real process."""
    rec, s = game_record(8, plies=12)
    f = tmp_path / "g.tbr"
    f.write_text(rec.text())
    p = subprocess.run([sys.executable, "-m", "toybattle", "legal", str(f), "--json"], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["deciding"] == s.describe_decision()


EXAMPLES = sorted((Path(__file__).parents[2] / "examples").iterdir())


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_every_example_is_read(capsys, path):
    """Each file in examples/ is a position or record that `legal` reads (records also replay)."""
    assert path.suffix in (".tbp", ".tbr")
    code, out, err = run(capsys, "legal", str(path))
    assert code == 0 and err == "" and out.splitlines()[1].startswith("  ")
    if path.suffix == ".tbr":
        assert run(capsys, "replay", str(path), "--position")[0] == 0


def test_hand_written_example_means_what_its_comments_say():
    """examples/castle-recall-by-hand.tbp: `rest` filled blue's reserve with its leftovers and red's with
    unknown tiles; the ';' in a comment did not break a line, the one outside did."""
    s = parse_position((Path(__file__).parents[2] / "examples" / "castle-recall-by-hand.tbp").read_text())
    assert s.first == s.turn == 0 and len(s.reserve[0]) == 24 - 4 - 2 - 4 and all(t & 15 for t in s.reserve[0])
    assert s.reserve[1] == [0x10] * (24 - 4 - 4 - 2) and s.claimed[1] == 0


def test_console_script_end_to_end(tmp_path):
    """The installed `toybattle` command (a real process) replays a record with an illegal action."""
    rec, _ = game_record(5, plies=3)
    rec.actions.append("K@1")
    f = tmp_path / "bad.tbr"
    f.write_text(rec.text())
    p = subprocess.run([sys.executable, "-m", "toybattle", "replay", str(f)], capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 1 and "action 4 (K@1) is illegal: " in p.stderr
    assert "Traceback" not in p.stderr


def test_position_at_a_chance_node_with_nothing_to_pick_is_refused():
    """A chance node needs a tile to pick (docs/rules.md, ruling 8: XB-42 against an empty rack does nothing,
    so the engine never stops there); a hand-written position that does is malformed."""
    import pytest as _pytest

    from toybattle.rules import NotationError, parse_position
    text = ("toybattle position 1\nterrain castle\ndecision xb42_pick\nblue rack -\nblue reserve ?x20\n"
            "blue aside ?x4\nred rack -\nred reserve ?x20\nred aside ?x4\n")
    with _pytest.raises(NotationError, match="nothing to pick"):
        parse_position(text)
    with _pytest.raises(NotationError, match="winner and how"):
        parse_position(text.replace("xb42_pick", "over blue"))
    assert parse_position(text.replace("xb42_pick", "over blue stuck")).winner == 0
