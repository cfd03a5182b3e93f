"""What each seat may know: the one place where hidden tiles are hidden.

``observation(state, seat)`` keeps that seat's own rack and laid tiles, the
opponent's tiles it saw arrive on their rack (``public``), and everything on the
table; every other tile becomes unknown. ``determinize`` fills the unknowns with
a random assignment consistent with what the seat saw; it also gives real faces
to a prepared position's unknown tiles (a lesson played on against a bot), whose
known reserve and set-aside faces it keeps.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from .state import State
from .troops import BLUE, RED, SEATS, full_army, shuffle

SPECTATOR = -1  # the seat of someone who watches: no seat's hidden tiles are known to it


def observation(state: State, seat: int) -> State:
    """The state as ``seat`` sees it: the same type, with what it may not know made unknown.
    ``SPECTATOR`` sees what both players see: the table, the discard, the tiles each saw arrive
    on the other's rack (``public``), and only the number of tiles on every rack and reserve."""
    obs = state.copy()
    for side in (BLUE, RED):
        unknown = side << 4
        obs.reserve[side] = [unknown] * len(state.reserve[side])
        obs.aside[side] = [unknown] * len(state.aside[side])
        if side != seat:
            obs.rack[side] = [unknown] * len(state.rack[side])
            obs.laid[side] = [unknown] * len(state.laid[side])
    return obs


def unseen(obs: State, seat: int) -> Counter[int]:
    """The tiles of ``seat``'s army whose place ``obs`` does not show (as a multiset of tiles)."""
    seen: Counter[int] = Counter()
    for st in obs.stacks:
        seen.update(t for t in st if t >> 4 == seat)
    seen.update(t for t in obs.discard if t >> 4 == seat)
    known = [t for t in obs.rack[seat] + obs.laid[seat] if t & 15]
    if not known:
        known = obs.public[seat]  # what the opponent saw arrive on that rack
    seen.update(known)
    # faces already known in the reserve or set aside (a prepared position may state some)
    seen.update(t for t in obs.reserve[seat] + obs.aside[seat] if t & 15)
    left = Counter(full_army(seat))
    left.subtract(seen)
    if any(v < 0 for v in left.values()):
        raise ValueError("the position shows more tiles of a kind than an army holds")
    return +left


def determinize(obs: State, rng: random.Random) -> State:
    """A full state consistent with ``obs``: every unknown tile given a face, at random.
    ValueError if an army's tiles in ``obs`` do not add up to its 24."""
    return determinizer(obs)(rng)


def determinizer(obs: State) -> Callable[[random.Random], State]:
    """``determinize`` for many samples of one observation: what is unseen is counted once
    (searching bots draw thousands of samples per move)."""
    pools = [list(unseen(obs, seat).elements()) for seat in (BLUE, RED)]
    for seat in (BLUE, RED):
        if len(pools[seat]) != _unknown_slots(obs, seat):
            raise ValueError(f"{SEATS[seat]}'s tiles in this position are not one army of 24")

    def sample(rng: random.Random) -> State:
        s = obs.copy()
        for seat in (BLUE, RED):
            pool = pools[seat][:]
            shuffle(pool, rng)
            _fill(s, seat, pool, rng)
        return s

    return sample


def _hand_from_public(s: State, seat: int) -> bool:
    """Whether ``seat``'s rack and laid tiles are all unknown but some were seen arriving: then the
    hand is dealt as those seen tiles plus unseen ones, in any order."""
    return not any(t & 15 for t in s.rack[seat] + s.laid[seat]) and bool(s.public[seat])


def _unknown_slots(s: State, seat: int) -> int:
    hand = s.rack[seat] + s.laid[seat]
    n = len(hand) - len(s.public[seat]) if _hand_from_public(s, seat) else sum(1 for t in hand if not t & 15)
    return n + sum(1 for t in s.reserve[seat] + s.aside[seat] if not t & 15)


def _fill(s: State, seat: int, pool: list[int], rng: random.Random) -> None:
    """Give every unknown tile of ``seat`` in ``s`` a face from the shuffled ``pool``."""
    if _hand_from_public(s, seat):
        hand = s.public[seat] + [pool.pop() for _ in range(s.hand_size(seat) - len(s.public[seat]))]
        shuffle(hand, rng)
        n_laid = len(s.laid[seat])
        s.laid[seat] = sorted(hand[:n_laid])
        s.rack[seat] = sorted(hand[n_laid:])
    else:
        s.rack[seat] = sorted(t if t & 15 else pool.pop() for t in s.rack[seat])
        s.laid[seat] = sorted(t if t & 15 else pool.pop() for t in s.laid[seat])
    s.reserve[seat] = [t if t & 15 else pool.pop() for t in s.reserve[seat]]
    s.aside[seat] = [t if t & 15 else pool.pop() for t in s.aside[seat]]


def hidden_from(state: State, seat: int) -> dict[str, list[int]]:
    """The opponent's tiles ``seat`` must never be shown (for leak tests): its rack faces
    not seen arriving, laid tiles, reserve order and set-aside tiles."""
    enemy = 1 - seat
    return {"rack": state.rack[enemy], "laid": state.laid[enemy], "reserve": state.reserve[enemy],
            "aside": state.aside[enemy], "own_reserve": state.reserve[seat], "own_aside": state.aside[seat]}

