"""Make the built-in puzzles (src/toybattle/review/data/puzzles.json) from bot games, with fixed seeds.

    python scripts/make_puzzles.py [--want 30] [--games 60] [--out PATH]

Game k is dealt by seed BASE + k on terrain TERRAINS[k % 9]: the expert plays one seat, greedy or medium (in turn)
the other, seats swapped every other game. Each finished game is reviewed (toybattle.review.analyse, a lighter
effort than the app's: the review only screens candidates) and its puzzles drawn (find_puzzles: every one
re-weighed against every legal action and kept only if clearly best; at most PER_GAME per game, placements
first, Jumbo's targets at most JUMBO_SHARE of the set, none whose only reason is the engine's word). It stops at
``--want`` puzzles, or after ``--games`` games; the same arguments always make the same file. Every puzzle written
passes ``toybattle puzzles --check`` (the check is the same function with the same seed).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from toybattle.bots import make_bot
from toybattle.bots.analysis import Effort
from toybattle.review import analyse, check_puzzle, find_puzzles
from toybattle.review.puzzles import Puzzle, puzzles_json
from toybattle.rules import TERRAIN_IDS, action_text, observation, setup_record
from toybattle.rules.notation import Record, seeded_orders

BASE = 2026_12_000
PER_GAME = 2  # puzzles drawn from one game at most: a set from many games, not a few long ones
JUMBO_SHARE = 0.25  # Jumbo's target is the clearest choice in many games: at most this share of the set
SCREEN = Effort(samples=8, candidates=5)
OUT = Path(__file__).resolve().parent.parent / "src" / "toybattle" / "review" / "data" / "puzzles.json"


def bot_game(k: int) -> Record:
    """Game ``k``'s record (see the module)."""
    seed = BASE + k
    terrain = TERRAIN_IDS[k % len(TERRAIN_IDS)]
    first, orders = seeded_orders(seed)
    record = setup_record(terrain, False, first, orders)
    s = record.start.copy()
    rng = random.Random(seed)
    other = "greedy" if k % 4 < 2 else "medium"
    players = [make_bot("expert", seed), make_bot(other, seed + 1)]
    if k % 2:
        players.reverse()
    for bot in players:
        bot.budget_s = 60.0  # unhurried: the bots answer by their fixed work alone, the same on any machine
    while not s.over and len(record.actions) < 400:
        a = s.sample_chance(rng) if s.is_chance else players[s.actor].choose(observation(s, s.actor))
        record.actions.append(action_text(a, s.b))
        s.apply_unchecked(a)
    return record


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--want", type=int, default=30, help="puzzles to make (default 30)")
    ap.add_argument("--games", type=int, default=60, help="games to play at most (default 60)")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    puzzles: list[Puzzle] = []
    t0 = time.perf_counter()
    for k in range(args.games):
        record = bot_game(k)
        review = analyse(record, effort=SCREEN, seed=k)
        # a new player learns from a reason on the table: not from the engine's word alone
        found = [p for p in find_puzzles(review) if p.why[0].key != "review.why.engine"]
        # placements first (the turn's own choice), then Jumbo's targets while their share allows
        found.sort(key=lambda p: p.answer.startswith("jumbo@"))
        jumbos = sum(p.answer.startswith("jumbo@") for p in puzzles)
        taken = 0
        for p in found:
            if taken == PER_GAME:
                break
            if p.answer.startswith("jumbo@"):
                if jumbos + 1 > JUMBO_SHARE * args.want:
                    continue
                jumbos += 1
            taken += 1
            p = Puzzle(f"{p.terrain}-{BASE + k}-{p.id.rsplit('-', 1)[1]}", p.terrain, p.seat, p.position, p.answer,
                       p.why, p.hint, p.gap, p.difficulty, f"bot game: seed {BASE + k}, {p.source}")
            problem = check_puzzle(p)
            if problem:  # cannot happen (the same check made it); kept as a guard on the file
                print(problem, file=sys.stderr)
                continue
            puzzles.append(p)
        print(f"game {k + 1}: {review.terrain}, {len(record.actions)} actions, {taken} of {len(found)} puzzles "
              f"({len(puzzles)} in all, {time.perf_counter() - t0:.0f} s)", file=sys.stderr)
        if len(puzzles) >= args.want:
            break
    puzzles = puzzles[:args.want]
    args.out.write_text(puzzles_json(puzzles), "utf-8")
    print(f"{len(puzzles)} puzzles written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
