"""One special-base effect per placement on a special base (issue 15).

Every terrain power, with a Cap'n and its extra tile placed on the same special base in one turn: the
base acts once for each placement, after all troop effects, in the order of the placements. Source:
the game's rules summary (seed 002, "Special bases"), the official online implementation (one base
check queued per placed tile) and the Collection fan app (two recalls for Cap'n and its extra on one
tower). docs/rulings.md ("One special-base effect per placement") lists these tests.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from toybattle.rules import BLUE, RED, IllegalAction, parse_record, position_text
from toybattle.rules import state as S

SEED_002 = ("A special base can trigger again when another Troop is placed on it, "
            "including when you cover your own Troop there.")


def node(s: S.State, nid: int) -> int:
    return s.b.index[nid]


def test_castle_recall_twice(kit):
    """The issue's case. Seed 002, "Special bases": "A special base can trigger again when another Troop
    is placed on it, including when you cover your own Troop there." Cap'n on tower 15, its extra Roxy on
    the same tower: two recalls, neither of them ever the tile on tower 15 itself."""
    assert "including when you cover your own Troop there" in SEED_002
    s = kit.build("castle", blue="2 7", stacks={11: "b4", 13: "b4"})
    kit.play(s, "2@15", "7@15")
    assert s.decision == S.RECALL and s.dnode == node(s, 15)
    assert kit.legal(s) == {"recall@11", "recall@13", "skip"}
    kit.play(s, "recall@11")
    assert s.decision == S.RECALL and s.dnode == node(s, 15) and s.turn == BLUE
    assert kit.legal(s) == {"recall@13", "skip"}
    assert "other of your own" in kit.refused(s, "recall@15")
    kit.play(s, "recall@13")
    assert s.turn == RED and s.decision == S.TURN
    assert s.rack[BLUE] == [BLUE << 4 | 4, BLUE << 4 | 4]
    assert s.stacks[node(s, 15)] == (BLUE << 4 | 2, BLUE << 4 | 7)


def test_castle_recall_of_the_covering_tile_cancels_only_its_own_effect(kit):
    """Seed 002, "Special bases": "A special base can trigger again when another Troop is placed on it,
    including when you cover your own Troop there." Each placement has its own effect: tower 20 (placed on
    first) takes back the Roxy that covers the Cap'n on tower 15, which cancels the Roxy's effect only;
    the Cap'n's effect on 15 still comes, the Cap'n being visible again."""
    s = kit.build("castle", blue="2 2 7", stacks={11: "b4", 13: "b4", 17: "b5"})
    kit.play(s, "2@20", "2@15", "7@15")
    assert s.decision == S.RECALL and s.dnode == node(s, 20)
    kit.play(s, "recall@15")
    assert s.decision == S.RECALL and s.dnode == node(s, 15)
    assert "recall@15" not in kit.legal(s)
    kit.play(s, "skip")
    assert s.turn == RED and s.decision == S.TURN


def test_clouds_draw_twice(kit):
    """Seed 002, "Special bases": "A special base can trigger again when another Troop is placed on it,
    including when you cover your own Troop there." Cap'n and its extra Roxy on rainbow base 13: two
    draws of 1."""
    s = kit.build("clouds", blue="2 7", blue_reserve="3 4 5", stacks={11: "b4"})
    kit.play(s, "2@13", "7@13", "use")
    assert s.decision == S.RAINBOW_DRAW and s.dnode == node(s, 13) and s.rack[BLUE] == [BLUE << 4 | 3]
    kit.play(s, "use")
    assert s.turn == RED and s.rack[BLUE] == [BLUE << 4 | 3, BLUE << 4 | 4]
    assert s.reserve[BLUE] == [BLUE << 4 | 5]


def test_clouds_second_draw_respects_the_rack_limit(kit):
    """Seed 002, "Special bases": "A special base can trigger again when another Troop is placed on it,
    including when you cover your own Troop there." The rack limit still applies to each effect: Skully
    (the extra tile) brings the rack to 7, the first rainbow draw to 8, so the second is not offered."""
    s = kit.build("clouds", blue="2 1 3 3 3 4 4", stacks={11: "b4"})
    kit.play(s, "2@13", "1@13", "use")
    assert s.hand_size(BLUE) == 7 and s.decision == S.RAINBOW_DRAW
    kit.play(s, "use")
    assert s.hand_size(BLUE) == 8 and s.turn == RED and s.decision == S.TURN


def test_jungle_shove_twice(kit):
    """Seed 002, "Special bases": "A special base can trigger again when another Troop is placed on it,
    including when you cover your own Troop there." Cap'n and its extra Roxy on volcano bridge 15: two
    shoves."""
    s = kit.build("jungle", blue="2 7", stacks={11: "b7", 12: "b1", 14: "r1", 18: "r3"})
    kit.play(s, "2@15", "7@15")
    assert s.decision == S.SHOVE and s.dnode == node(s, 15)
    kit.play(s, "shove@14>17")
    assert s.decision == S.SHOVE and s.dnode == node(s, 15)
    assert kit.legal(s) == {"shove@18>15", "shove@18>17", "shove@18>21", "skip"}
    kit.play(s, "shove@18>21")
    assert s.turn == RED and s.decision == S.TURN
    assert s.stacks[node(s, 17)] == (RED << 4 | 1,) and s.stacks[node(s, 21)] == (RED << 4 | 3,)


def test_jungle_second_shove_still_comes_when_the_first_covered_the_bridge(kit):
    """Seed 002, "Special bases": "A special base can trigger again when another Troop is placed on it,
    including when you cover your own Troop there." The effect belongs to the placement: the first shove
    puts the red Star on the bridge itself, over the blue Roxy, and the Roxy's own shove still comes (the
    official online implementation cancels a queued check only when its tile leaves the board)."""
    s = kit.build("jungle", blue="2 7", stacks={11: "b7", 12: "b1", 14: "r1", 18: "r6"})
    kit.play(s, "2@15", "7@15", "shove@18>15")
    assert s.owner(node(s, 15)) == RED
    assert s.decision == S.SHOVE and s.dnode == node(s, 15)
    kit.play(s, "shove@14>17")
    assert s.turn == RED and s.stacks[node(s, 17)] == (RED << 4 | 1,)


def test_cemetery_recover_twice(kit):
    """Seed 002, "Special bases": "A special base can trigger again when another Troop is placed on it,
    including when you cover your own Troop there." Cap'n and its extra Roxy on pumpkin 12: two
    recoveries from the discard."""
    s = kit.build("cemetery", blue="2 7", stacks={13: "b4"}, discard="b5 b3 r6")
    kit.play(s, "2@12", "7@12")
    assert s.decision == S.RECOVER and s.dnode == node(s, 12)
    kit.play(s, "recover:5")
    assert s.decision == S.RECOVER and s.dnode == node(s, 12)
    assert kit.legal(s) == {"recover:3", "skip"}
    kit.play(s, "recover:3")
    assert s.turn == RED and s.rack[BLUE] == [BLUE << 4 | 3, BLUE << 4 | 5]


def test_battlefield_lay_down_twice(kit):
    """Seed 002, "Special bases": "A special base can trigger again when another Troop is placed on it,
    including when you cover your own Troop there." Cap'n and its extra Roxy on tank 14: two tiles of
    the opponent's rack laid down, the second picked among those still standing."""
    s = kit.build("battlefield", blue="2 7", red="1 5", stacks={11: "b4", 13: "b4"})
    kit.play(s, "2@14", "7@14")
    assert s.decision == S.LAY_USE and s.dnode == node(s, 14)
    kit.play(s, "use", "pick:5")
    assert s.decision == S.LAY_USE and s.dnode == node(s, 14)
    kit.play(s, "use")
    assert s.chance_outcomes() == [(s.legal_actions()[0], 1.0)]
    kit.play(s, "pick:1")
    assert s.turn == RED and s.laid[RED] == [RED << 4 | 1, RED << 4 | 5] and s.rack[RED] == []


def test_first_game_mode_gives_no_effect_however_often_placed(kit):
    """Seed 002, "Special bases": "A special base can trigger again when another Troop is placed on it,
    including when you cover your own Troop there." In first-game mode special bases are plain bases:
    placing twice on tower 15 gives nothing."""
    s = kit.build("castle", mode="first-game", blue="2 7", stacks={11: "b4", 13: "b4"})
    kit.play(s, "2@15", "7@15")
    assert s.turn == RED and s.decision == S.TURN and s.queue == []


def test_an_old_record_goes_on_to_the_next_turn_so_the_second_effect_was_declined(kit):
    """Seed 002, "Special bases": "A special base can trigger again when another Troop is placed on it,
    including when you cover your own Troop there." A record made while a base acted once per turn has
    no answer for the second recall: red's draw follows the first one. It still replays, and reads as if
    blue had declined the second recall (docs/rulings.md); anything else the rules refuse stays refused."""
    lines = kit.position_lines("castle", blue="2 7", stacks={11: "b4", 13: "b4"}).splitlines()[1:]
    old = "\n".join(["toybattle record 1", "position", *lines, "end", "actions", "2@15 7@15 recall@11 draw"])
    s = parse_record(old + "\n").replay()
    expected = kit.play(kit.build("castle", blue="2 7", stacks={11: "b4", 13: "b4"}),
                        "2@15", "7@15", "recall@11", "skip", "draw")
    assert s.turn == BLUE and s.decision == S.TURN
    assert position_text(s) == position_text(expected) and s.rack == expected.rack
    with pytest.raises(IllegalAction, match=r"action 4 \(recall@15\) is illegal: the tower takes back one other"):
        parse_record(old.replace("draw", "recall@15") + "\n").replay()


PRE_ISSUE15 = sorted((Path(__file__).parent / "data" / "pre_issue15").glob("*.tbr"))


@pytest.mark.parametrize("path", PRE_ISSUE15, ids=[p.stem for p in PRE_ISSUE15])
def test_records_played_before_the_fix_replay_to_the_same_end(path):
    """Seed 002, "Special bases": "A special base can trigger again when another Troop is placed on it,
    including when you cover your own Troop there." Random games played by the engine that gave one
    effect per base per turn, each with a base placed on twice in a turn: they replay to the very end
    position they reached then (saved beside them, its ply line left out: replay adds the skips)."""
    record = parse_record(path.read_text("utf-8"))
    s = record.replay()
    assert s.ply > len(record.actions)  # the second effect came up, and the replay declined it
    assert re.sub(r"\nply \d+", "", position_text(s)) == path.with_suffix(".tbp").read_text("utf-8")
