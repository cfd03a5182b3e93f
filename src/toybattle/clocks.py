"""Time controls (issue 28): the bounds of a time control, and both seats' clocks measured by one referee.

Online, each side keeps both clocks by its own measure (online/protocol.py: a claim that a clock ran out is checked
against the claimed side's own); on one screen the app keeps them (app/session.py). Pure: every call is given
``now``, monotonic seconds.
"""
from __future__ import annotations

from typing import Any

from .rules import SEATS
from .said import Said

# a time control (issue 28): base seconds on each clock and seconds added after each move, within these bounds
CLOCK_BASE = (60, 3 * 3600)
CLOCK_INCREMENT = (0, 60)


def clock_refusal(base: object, increment: object) -> Said | None:
    """Why (base, increment) is no time control (a Said), or None if it is one: whole seconds in bounds."""
    if not (type(base) is int and type(increment) is int and CLOCK_BASE[0] <= base <= CLOCK_BASE[1]
            and CLOCK_INCREMENT[0] <= increment <= CLOCK_INCREMENT[1]):
        return Said("error.clock", low=CLOCK_BASE[0], high=CLOCK_BASE[1], most=CLOCK_INCREMENT[1])
    return None


class Clocks:
    """Both seats' clocks as one referee measures them: a seat's clock runs from ``start`` (its play is due) until
    ``played`` (numbered ``n``: online, a chained message's number), which adds ``increment``. Online each side is
    such a referee: the other seat's clock, as this side measures it, includes the network's delays, and this
    side's own does not."""

    def __init__(self, base: int, increment: int):
        self.base, self.increment = base, increment
        self.left = [float(base), float(base)]  # seconds left when the running clock started
        self.running: int | None = None
        self.since = 0.0
        self.plays: dict[int, tuple[int, float]] = {}  # message n -> (seat, seconds left when it was agreed)
        self.moves = [0, 0]  # play messages each seat made (clocked or not)

    def now_left(self, seat: int, now: float) -> float:
        return self.left[seat] - (now - self.since if self.running == seat else 0.0)

    def start(self, seat: int, now: float) -> None:
        if self.running != seat:
            self.running, self.since = seat, now

    def played(self, seat: int, n: int, now: float) -> None:
        """``seat``'s play message number ``n`` was agreed at ``now``: its clock stops, the increment is added."""
        left = self.now_left(seat, now)
        self.plays[n] = (seat, left)
        self.left[seat] = left + self.increment
        self.moves[seat] += 1
        if self.running == seat:
            self.running = None

    def stop(self, now: float) -> None:
        if self.running is not None:
            self.left[self.running] = self.now_left(self.running, now)
            self.running = None

    def view(self, now: float, at: float, running: bool = True) -> dict[str, Any]:
        """Both clocks for a page, measured at ``now`` (monotonic s) and said as of ``at`` (epoch s): each seat's
        seconds left and whose runs (none unless ``running``: a game that is not being played), so the page can
        count the running one down from ``at``."""
        return {"base": self.base, "increment": self.increment, "at": round(at, 2),
                "left": {SEATS[s]: round(max(0.0, self.now_left(s, now)), 1) for s in (0, 1)},
                "running": SEATS[self.running] if self.running is not None and running else None}

    def to_json(self) -> dict[str, Any]:
        return {"left": [round(x, 3) for x in self.left], "moves": self.moves}

    def restore(self, d: object) -> None:
        if isinstance(d, dict) and isinstance(d.get("left"), list) and len(d["left"]) == 2:
            self.left = [float(x) for x in d["left"]]
            if isinstance(d.get("moves"), list) and len(d["moves"]) == 2:
                self.moves = [int(x) for x in d["moves"]]


__all__ = ["CLOCK_BASE", "CLOCK_INCREMENT", "Clocks", "clock_refusal"]
