"""A recorded game with a known blunder, shared by the review's tests and the puzzles' browser tests.

Greedy plays both seats of a game dealt by seed 27 on Castle Field, except at action 46: blue could win at once
with its Roxy on red's H.Q. (7@41, its only winning action) and draws instead; red then wins at once. The game is
built here, not stored, so that it follows the rules and bots as they are; ``test_the_blunder_is_as_described``
holds it to this description."""
from __future__ import annotations

import random
from dataclasses import dataclass

from toybattle.bots import make_bot
from toybattle.bots.analysis import Effort
from toybattle.rules import Record, State, action_text, observation, parse_action, setup_record
from toybattle.rules.notation import seeded_orders

SEED = 27
BLUNDER = 46  # the action's number in the record
PLAYED, WINNING = "draw", "7@41"
# small enough for a quick test, large enough for steady figures on this game
EFFORT = Effort(samples=6, candidates=4)


@dataclass(frozen=True)
class Blunder:
    """The game, the blunder's action number and seat, what was played and the one winning action there, and the
    engine's effort the tests review it with."""

    record: Record
    index: int
    seat: int
    played: str
    winning: str
    effort: Effort = EFFORT

    def state_before(self, index: int) -> State:
        """The full state before action ``index`` (1-based)."""
        s = self.record.start.copy()
        for text in self.record.actions[:index - 1]:
            s.apply(parse_action(text, s.b))
        return s

    @staticmethod
    def wins_at_once(s: State) -> list[int]:
        """The deciding seat's actions that win at once in ``s``."""
        out = []
        for a in s.legal_actions():
            t = s.copy()
            t.apply_unchecked(a)
            if t.over and t.winner == s.actor:
                out.append(a)
        return out


def build() -> Record:
    first, orders = seeded_orders(SEED)
    record = setup_record("castle", False, first, orders)
    s = record.start.copy()
    rng = random.Random(SEED)
    players = [make_bot("greedy", SEED), make_bot("greedy", SEED + 1)]
    while not s.over:
        if s.is_chance:
            a = s.sample_chance(rng)
        else:
            a = players[s.actor].choose(observation(s, s.actor))
            if len(record.actions) + 1 == BLUNDER:
                a = parse_action(PLAYED, s.b)
        record.actions.append(action_text(a, s.b))
        s.apply_unchecked(a)
    return record
