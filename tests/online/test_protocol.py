"""The fair-play protocol in process: games follow the rules exactly, nothing hidden leaks,
and every kind of tampering ends the game as a forfeit with the right reason."""
from __future__ import annotations

import json
import random
import sys
from collections import Counter
from pathlib import Path

import pytest

from toybattle.online.protocol import LAID, OPEN, RACK, SLOTS, Forfeit, Match, Secrets, Setup
from toybattle.rules import TERRAIN_IDS, State, parse_action
from toybattle.rules import actions as A
from toybattle.rules.state import EXTRA, XB_PICK

sys.path.insert(0, str(Path(__file__).parent))
from online_cheats import CHEATS
from online_harness import play_local


def truth(m: Match, secrets: list[Secrets]) -> State:
    """The full game (both seats' hidden faces filled in), known only to a test holding both secrets."""
    s = m.public.copy()
    for seat in (0, 1):
        for zone in (RACK, LAID):
            s.reveal(seat, zone, [secrets[seat].troops[k] for k in range(SLOTS) if m.zone[seat][k] == zone])
    return s


def replay_with_referee(ms: list[Match]) -> None:
    """Replay a finished game's messages against a referee State that knows every tile from the
    start: at every step the peers' public view and private racks must be what the rules say."""
    setup, secrets = ms[0].setup, [ms[0].secrets, ms[1].secrets]
    orders = []
    for seat in (0, 1):
        drawn = ms[0].drawn[seat]
        never = [k for k in range(SLOTS) if k not in drawn]
        slots = never[:4] + drawn + never[4:]
        orders.append([seat << 4 | secrets[seat].troops[k] for k in slots])
    peers = [Match(setup, s, secrets[s]) for s in (0, 1)]
    ref = None
    phantom_extra = False  # Cap'n's extra placement offered on a hidden rack that cannot place
    for text in ms[0].log:  # pass 2: the referee in lockstep
        msg = json.loads(text)
        actor_view = None
        if peers[0].public is not None and not peers[0].public.over and msg["t"] == "act":
            actor_view = peers[msg["by"]].mine()
        before = truth(peers[0], secrets) if peers[0].public else None
        chance = peers[0].public is not None and peers[0].public.is_chance
        for m in peers:
            m.accept(text, m.expected()[0])
        p = peers[0].public
        if ref is None:
            if p is None:
                continue
            ref = State.new(setup.terrain, setup.first_game, first=p.first, orders=orders)
        elif phantom_extra:
            assert msg["a"] == "skip"
        elif msg["t"] == "act":
            assert sorted(ref.legal_actions()) == sorted(actor_view.legal_actions())
            ref.apply(parse_action(msg["a"], ref.b))
        elif msg["t"] == "rand" and chance:
            after = truth(peers[0], secrets)
            victim = 1 - before.turn
            if before.decision == XB_PICK:
                troop = after.discard[-1] & 15
                laid = int(len(after.laid[victim]) < len(before.laid[victim]))
            else:
                troop = next(iter(Counter(after.laid[victim]) - Counter(before.laid[victim]))) & 15
                laid = 0
            ref.apply(A.PICK + (laid << 4) + troop)
        phantom_extra = p.decision == EXTRA and ref.decision != EXTRA
        if phantom_extra or peers[0].pending:  # drawn slots are known once the randomness is joint
            continue
        t = truth(peers[0], secrets)
        assert ref.stacks == p.stacks and ref.discard == p.discard and ref.claimed == p.claimed
        if not (ref.over and not p.over):  # a stuck seat still has to prove it with its rack
            assert (ref.decision, ref.turn, ref.winner) == (p.decision, p.turn, p.winner)
        for seat in (0, 1):
            assert sorted(ref.rack[seat]) == sorted(t.rack[seat]) and sorted(ref.laid[seat]) == sorted(t.laid[seat])
            assert len(ref.reserve[seat]) == len(p.reserve[seat])
    assert ref.over and (ref.winner, ref.reason) == (p.winner, p.reason)


@pytest.mark.parametrize("terrain", TERRAIN_IDS)
def test_games_follow_the_rules_exactly(terrain):
    for seed in range(3):
        ms = play_local(terrain, seed, first_game=(seed == 2))
        assert ms[0].finished and ms[1].finished and ms[0].head == ms[1].head
        assert ms[0].result() == ms[1].result() and ms[0].result()["winner"] in (0, 1)
        replay_with_referee(ms)


def test_who_starts_is_joint_and_both_seats_start_sometimes():
    firsts = Counter(play_local("castle", seed).__getitem__(0).public.first for seed in range(16))
    assert firsts[0] and firsts[1]


def test_no_message_shows_a_hidden_tile():
    """A face is shown only by its salt: no message may carry the salt of a tile the rules keep
    hidden after that message, nor a chain value ahead of its time; bots see only observations."""
    def check(ms, text, sender):
        m = ms[sender]
        if json.loads(text)["t"] == "open":  # the game is over: everything is opened and checked
            return
        for k in range(SLOTS):
            if m.zone[sender][k] != OPEN:
                assert m.secrets.salts[k].hex() not in text
        assert m.secrets.seed.hex() not in text
        for seat in (0, 1):
            if ms[seat].public and not ms[seat].public.over:
                obs = ms[seat].observation()
                enemy = 1 - seat
                assert all(t & 15 == 0 for t in obs.rack[enemy] + obs.laid[enemy] + obs.reserve[enemy] +
                           obs.aside[enemy] + obs.reserve[seat] + obs.aside[seat])
    for terrain in ("battlefield", "cemetery", "castle"):
        play_local(terrain, 5, on_message=check)


def test_tile_commitments_are_salted():
    s = Secrets.generate("x")
    hashes = s.commitments("g", 0)
    assert len(set(hashes)) == SLOTS  # three Roxies, three different hashes


REASONS = {
    "forged_draw": "does not match its randomness commitment",
    "xb_lie": "XB-42",
    "laid_play": "laid face down",
    "never_drawn": "was never drawn",
    "altered_past": "does not follow the agreed history",
    "refuse_open": "refused to open its commitments",
    "false_stuck": "claimed to be stuck but could still play",
}


@pytest.mark.parametrize("cheat", sorted(REASONS))
def test_each_cheat_is_caught_with_its_reason(cheat):
    terrain = "battlefield" if cheat == "laid_play" else "castle"
    for seed in range(60):
        try:
            play_local(terrain, seed, cheat={1: CHEATS[cheat]})
        except Forfeit as f:
            assert f.seat == 1 and REASONS[cheat] in f.reason, f.reason
            return
    pytest.fail(f"the {cheat} cheat never came up in 60 games")


def test_a_forfeit_ends_the_game_and_names_the_cheater():
    with pytest.raises(Forfeit) as e:
        play_local("castle", 0, cheat={0: CHEATS["refuse_open"]})
    assert e.value.seat == 0


def test_a_bad_message_is_a_forfeit_not_a_crash():
    setup = Setup("g", "castle", False, 0)
    m = Match(setup, 1, Secrets.generate("b"))
    for junk in ["not json", "[]", '{"n":1}', json.dumps({"n": 1, "prev": setup.genesis(), "by": 0, "t": "commit"},
                                                          sort_keys=True, separators=(",", ":"))]:
        with pytest.raises(Forfeit) as e:
            Match(setup, 1, Secrets.generate("b")).accept(junk, 0)
        assert e.value.seat == 0
    with pytest.raises(Forfeit):
        m.accept("{}", 1)  # out of turn


def _first_commit() -> tuple[Setup, str]:
    setup = Setup("g", "castle", False, 0)
    return setup, Match(setup, 0, Secrets.generate("a")).make()


@pytest.mark.parametrize("pad", [{"pad": "z"}, {"note": "z" * 10}, {"tiles2": []}])
def test_a_chained_message_with_fields_the_protocol_does_not_define_is_refused(pad):
    setup, text = _first_commit()
    padded = json.dumps({**json.loads(text), **pad}, sort_keys=True, separators=(",", ":"))
    with pytest.raises(Forfeit) as e:
        Match(setup, 1, Secrets.generate("b")).accept(padded, 0)
    assert e.value.seat == 0 and "fields the protocol does not define" in e.value.reason


def test_a_chained_message_over_the_size_limit_is_refused_before_it_is_read():
    setup, text = _first_commit()
    big = json.dumps({**json.loads(text), "anchor": "0" * 20_000_000}, sort_keys=True, separators=(",", ":"))
    with pytest.raises(Forfeit) as e:
        Match(setup, 1, Secrets.generate("b")).accept(big, 0)
    assert "at most 4096 characters" in e.value.reason


def test_a_forfeit_reason_is_bounded_and_printable():
    f = Forfeit(0, "bad\x1b[2J\n" + "!" * 100_000)
    assert len(f.reason) <= 300 and f.reason.isprintable()


def test_a_stacked_army_is_caught_when_its_fourth_copy_is_shown_long_before_the_end():
    """Six Kwaks (and three Roxies fewer): each tile shown is counted against the army as it is opened."""
    caught = []
    for seed in range(30):
        setup = Setup(f"s{seed}", "castle", False, 0)
        cheat = Secrets.generate(f"c{seed}")
        kwak, roxy = 8, 7
        swap = [k for k in range(SLOTS) if cheat.troops[k] == roxy]
        for k in swap:
            cheat.troops[k] = kwak
        ms = [Match(setup, 0, Secrets.generate(f"h{seed}")), Match(setup, 1, cheat)]
        rng = random.Random(seed)
        try:
            while not ms[0].finished:
                me = next(s for s in (0, 1) if ms[s].my_move())
                action = rng.choice(ms[me].mine().legal_actions()) if ms[me].my_move() == "play" else None
                text = ms[me].make(action)
                for m in (ms[1 - me], ms[me]):
                    m.accept(text, me)
        except Forfeit as f:
            assert f.seat == 1
            caught.append((f.reason, ms[0].public.over if ms[0].public else False))
    early = [r for r, over in caught if "more than 3 copies of Kwak" in r and not over]
    assert len(caught) == 30 and early, caught
