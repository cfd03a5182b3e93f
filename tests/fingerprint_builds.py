"""The builds' fingerprint (run as a script by tests/test_builds.py, once per build): hashes of
everything the rules core and the bots decide over fixed-seed games, printed as JSON.

Run under the pure-Python package and under the compiled one, it must print the same: every legal
action list, chance outcome list, refusal and position (in the position text) over random games on
every terrain in both modes, observations and determinizations of them, the evaluation and the
playout policy, and fixed-seed decisions of greedy, easy and medium."""
from __future__ import annotations

import hashlib
import json
import random
import sys

from toybattle.bots import heuristic as H
from toybattle.bots import make_bot
from toybattle.cli_rules import build
from toybattle.rules import TERRAIN_IDS, State, determinize, observation, position_text

GAMES_PER_KIND = int(sys.argv[1]) if len(sys.argv) > 1 else 12  # per terrain and mode
NOT_ACTIONS = (0, 1, 2, 3, 0x100, 0x100 + (7 << 5) + 3, 0x405, 0x507, 0x800 + (3 << 5) + 4, 0xC05, 0xD07)


def random_games(terrain: str, first_game: bool, hashes: dict[str, hashlib._Hash]) -> int:
    """Play games with random legal actions, hashing what the rules say at every ply; the ply count."""
    plies = 0
    for k in range(GAMES_PER_KIND):
        seed = k * 1009 + TERRAIN_IDS.index(terrain) * 17 + first_game
        rng = random.Random(seed)
        s = State.new(terrain, first_game, seed=seed)
        while not s.over:
            legal = s.legal_actions()
            hashes["legal"].update(repr(legal).encode())
            hashes["position"].update(position_text(s).encode())
            hashes["refusal"].update(repr([s.refusal(a) for a in NOT_ACTIONS]).encode())
            if s.is_chance:
                hashes["chance"].update(repr(s.chance_outcomes()).encode())
                a = s.sample_chance(rng)
            else:
                a = rng.choice(legal)
                if s.ply % 7 == 0:
                    obs = observation(s, s.actor)
                    hashes["observation"].update(position_text(obs).encode())
                    hashes["determinize"].update(position_text(determinize(obs, rng)).encode())
                    hashes["evaluate"].update(repr([H.evaluate(s, 0), H.win_chance(s, 1), H.hq_distance(s, 0),
                                                    H.greedy_scores(s), H.playout_action(s, rng)]).encode())
            s.apply(a)
            plies += 1
        hashes["result"].update(f"{s.winner} {s.reason} {s.ply} {s.medals(0)} {s.medals(1)}".encode())
    return plies


def decisions(level: str, positions: int, hashes: dict[str, hashlib._Hash]) -> None:
    """A fixed-seed bot's choices at the seat to move's observation, along greedy-vs-greedy games
    (the time cap lifted: a search is then defined by its simulations alone, however loaded the machine)."""
    done = 0
    for k, terrain in enumerate(("castle", "pool", "clouds", "battlefield")):
        s = State.new(terrain, seed=500 + k)
        rng = random.Random(k)
        mover = make_bot("greedy", seed=k)
        while not s.over and done < positions:
            if s.is_chance:
                s.apply(s.sample_chance(rng))
                continue
            obs = observation(s, s.actor)
            if s.ply % 3 == 0:
                bot = make_bot(level, seed=s.ply)
                bot.budget_s = 1e6
                a = bot.choose(obs)
                work = bot.last_info.get("simulations"), bot.last_info.get("positions")  # search; sparring, expert
                hashes[level].update(repr((a, work)).encode())
                done += 1
            s.apply(mover.choose(obs))


def main() -> None:
    names = ("legal", "position", "refusal", "chance", "observation", "determinize", "evaluate", "result",
             "greedy", "easy", "medium", "sparring", "expert")
    hashes = {n: hashlib.sha256() for n in names}
    plies = sum(random_games(t, fg, hashes) for t in TERRAIN_IDS for fg in (False, True))
    decisions("greedy", 60, hashes)
    decisions("easy", 12, hashes)
    decisions("medium", 3, hashes)
    decisions("sparring", 60, hashes)
    decisions("expert", 12, hashes)
    print(json.dumps({"build": build(), "plies": plies, **{n: h.hexdigest() for n, h in hashes.items()}}))


if __name__ == "__main__":
    main()
