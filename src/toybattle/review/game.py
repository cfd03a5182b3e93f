"""A finished game's review: every decision weighed by the engine from the deciding seat's own observation.

For each decision the engine (bots/analysis.py: the expert's look-ahead over guesses of the hidden tiles) gives
the deciding seat's chance to win with its best action (``before``) and with the action played (``after``) on
the same guesses; the difference is the ``drop``. Each seat's chart is its chance after every turn: after its own
turn, the chance of the last action it played; after the opponent's, its chance at its next decision (its best
action's); at the end, 1 for the winner and 0 for the loser. Each side's costliest turns are the decisions whose
drop is at least ``threshold`` (one per turn, the worst first, at most ``COSTLIEST``), each with the better
action and why, in the game's words (why.py).

Information: a decision is weighed only from ``observation(state, seat)`` of the seat deciding, never from the
full state. A game whose record holds every tile (against a bot, hot-seat, an imported record file) is reviewed
for both seats. An online game holds only what one peer knew: give its states with ``viewer`` set to that peer's
seat, and only that seat's decisions are weighed (from its observation); the other seat's chart is then the
complement of the viewer's chance, and its decisions carry no drop.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..bots import analysis
from ..bots.analysis import Effort
from ..rules import SEATS, IllegalAction, Record, State, action_text, observation, parse_action, position_text
from ..rules.actions import SKIP, parse_seated
from ..rules.state import TURN, unanswered
from ..said import Said
from .why import reasons, stored

# The work per decision: the expert's beams with more guesses than it plays on (its 5), for steadier figures.
REVIEW_EFFORT = Effort(samples=12, candidates=6)
THRESHOLD = 0.10  # a drop of win chance that counts as a costly decision (estimates on 12 guesses move ~0.03)
COSTLIEST = 3  # costly turns shown per side
PUZZLE_GAP = 0.12  # best minus second best (among the actions weighed) that keeps a position as a puzzle candidate

Progress = Callable[[int, int], None]  # (decisions weighed, decisions to weigh)
Step = tuple[State, int]  # the state before an action, and that action


@dataclass(frozen=True)
class Decision:
    """One decision of the game as the engine saw it from the deciding seat's observation.

    ``index``: the action's number in the game (1-based, as a record counts them, chance outcomes included);
    ``turn``: the turn it belongs to (1-based); ``before``/``after``: the seat's chance with the best action and
    with the one played; ``second``: the best chance among the other actions weighed (None with one action);
    ``position``: the seat's observation in the position format, kept for costly decisions and puzzle candidates
    (the board to show, the puzzle to make); ``why``: for a costly decision, why ``best`` is better."""

    index: int
    turn: int
    seat: int
    action: str
    best: str
    before: float
    after: float
    second: float | None
    options: int
    position: str | None = None
    why: tuple[Said, ...] = ()

    @property
    def drop(self) -> float:
        return max(0.0, self.before - self.after)

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "turn": self.turn, "seat": SEATS[self.seat], "action": self.action,
                "best": self.best, "before": _r(self.before), "after": _r(self.after), "drop": _r(self.drop),
                "second": None if self.second is None else _r(self.second), "options": self.options,
                "position": self.position, "why": [m.to_json() for m in self.why]}

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Decision:
        return cls(int(raw["index"]), int(raw["turn"]), SEATS.index(raw["seat"]), str(raw["action"]),
                   str(raw["best"]), float(raw["before"]), float(raw["after"]),
                   None if raw["second"] is None else float(raw["second"]), int(raw["options"]), raw["position"],
                   tuple(stored(m) for m in raw["why"]))


@dataclass(frozen=True)
class Review:
    """A game's review (see the module). ``chart[seat][k]``: that seat's chance after turn k + 1; ``turns[k]``:
    the seat that played turn k + 1; ``costliest[seat]``: indices into ``decisions``, the worst first."""

    terrain: str
    viewer: int | None
    decisions: tuple[Decision, ...]
    turns: tuple[int, ...]
    chart: tuple[tuple[float, ...], tuple[float, ...]]
    costliest: tuple[tuple[int, ...], tuple[int, ...]]
    winner: int
    reason: str
    effort: Effort = REVIEW_EFFORT
    seed: int = 0
    threshold: float = THRESHOLD

    def costly(self, seat: int) -> list[Decision]:
        return [self.decisions[k] for k in self.costliest[seat]]

    def to_json(self) -> dict[str, Any]:
        """The review as JSON data: what the app keeps with the game and what ``toybattle review --json`` prints."""
        return {"version": 1, "terrain": self.terrain, "viewer": None if self.viewer is None else SEATS[self.viewer],
                "winner": SEATS[self.winner] if self.winner >= 0 else None, "reason": self.reason,
                "effort": {"samples": self.effort.samples, "candidates": self.effort.candidates,
                           "width": self.effort.width, "reply_width": self.effort.reply_width},
                "seed": self.seed, "threshold": self.threshold,
                "turns": [SEATS[s] for s in self.turns],
                "chart": {SEATS[s]: [_r(p) for p in self.chart[s]] for s in (0, 1)},
                "costliest": {SEATS[s]: list(self.costliest[s]) for s in (0, 1)},
                "decisions": [d.to_json() for d in self.decisions]}

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Review:
        """A review kept with a game (``to_json``) back; ValueError if it is not one."""
        try:
            if raw.get("version") != 1:
                raise ValueError("unknown review version")
            e = raw["effort"]
            return cls(str(raw["terrain"]), None if raw["viewer"] is None else SEATS.index(raw["viewer"]),
                       tuple(Decision.from_json(d) for d in raw["decisions"]),
                       tuple(SEATS.index(s) for s in raw["turns"]),
                       (tuple(map(float, raw["chart"]["blue"])), tuple(map(float, raw["chart"]["red"]))),
                       (tuple(map(int, raw["costliest"]["blue"])), tuple(map(int, raw["costliest"]["red"]))),
                       -1 if raw["winner"] is None else SEATS.index(raw["winner"]), str(raw["reason"]),
                       Effort(int(e["samples"]), int(e["candidates"]), int(e["width"]), int(e["reply_width"])),
                       int(raw["seed"]), float(raw["threshold"]))
        except (KeyError, TypeError, AttributeError) as err:
            raise ValueError(f"not a review: {err}") from None


def _r(x: float) -> float:
    return round(x, 4)


def steps(record: Record) -> tuple[list[Step], State]:
    """Every (state before it, action) of a record, chance outcomes included, and the state it ends in; a base
    effect the record left unanswered is written out as its skip (as the replay reads it). IllegalAction names
    the action the rules refuse."""
    s = record.start.copy()
    out: list[Step] = []
    for n, text in enumerate(record.actions, start=1):
        try:
            _, a = parse_seated(text, s.b)
        except ValueError as e:
            raise IllegalAction(f"action {n} ({text}): {e}") from None
        while unanswered(s, a):
            out.append((s.copy(), SKIP))
            s.apply_unchecked(SKIP)
        why = s.refusal(a)
        if why:
            raise IllegalAction(f"action {n} ({text}) is illegal: {why}")
        out.append((s.copy(), a))
        s.apply_unchecked(a)
    return out, s


def analyse(game: Record | Sequence[Step], *, viewer: int | None = None, effort: Effort = REVIEW_EFFORT,
            seed: int = 0, threshold: float = THRESHOLD, progress: Progress | None = None,
            end: State | None = None) -> Review:
    """The review of ``game``: a record, or its steps (the state before each action and the action; chance
    outcomes may be among them and are passed over).

    ``viewer``: None to weigh both seats' decisions, each from its own observation (the game must then show both
    racks: a record always does); or the seat whose information alone the review may use, for an online game whose
    other rack was never revealed: only that seat's decisions are weighed, from its observation of the states
    given (which may hide the other seat's tiles). ``end``: the state after the last step (default: the last step
    played on). ``progress(done, total)`` is called after each decision weighed (the work goes decision by
    decision, so a worker can report it). ``seed`` fixes the guesses: the same game, effort and seed always give
    the same review.

    The same work in pieces, for a caller that spreads it (the app's workers): ``p = plan(...)``, ``weigh(*job)``
    for each of ``p.jobs()``, ``explain(*job)`` for each of ``p.to_explain(decisions)``, ``p.finish(...)``."""
    p = plan(game, viewer=viewer, effort=effort, seed=seed, threshold=threshold, end=end)
    jobs = p.jobs()
    decisions: list[Decision] = []
    for done, job in enumerate(jobs, start=1):
        decisions.append(weigh(*job))
        if progress is not None:
            progress(done, len(jobs))
    return p.finish(decisions, {k: explain(obs, better, played) for k, obs, better, played in p.to_explain(decisions)})


# one decision to weigh: the deciding seat's observation, the action played, its place in the game (0-based), its
# turn, the effort, the seed and the threshold (all a worker process needs: nothing the seat may not know)
WeighJob = tuple[State, int, int, int, Effort, int, float]
ExplainJob = tuple[int, State, int, int]  # (decision's place in the review, the seat's observation, better, played)


@dataclass(frozen=True)
class Plan:
    """A game read for its review: its steps, its end, the decisions to weigh and the turn of each step."""

    todo: tuple[Step, ...]
    final: State
    viewer: int | None
    effort: Effort
    seed: int
    threshold: float
    decisions_at: tuple[int, ...]
    turn_of: tuple[int, ...]

    def jobs(self) -> list[WeighJob]:
        """The decisions to weigh, in order, each as ``weigh``'s arguments (the seat's observation only)."""
        out = []
        for k in self.decisions_at:
            s, a = self.todo[k]
            out.append((observation(s, s.actor), a, k, self.turn_of[k], self.effort, self.seed, self.threshold))
        return out

    def costliest(self, decisions: Sequence[Decision]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return _costliest(list(decisions), self.threshold)

    def to_explain(self, decisions: Sequence[Decision]) -> list[ExplainJob]:
        """The costliest decisions to say why of, each as (its place, ``explain``'s arguments)."""
        out = []
        costliest = self.costliest(decisions)
        for k in costliest[0] + costliest[1]:
            d = decisions[k]
            obs = observation(self.todo[d.index - 1][0], d.seat)
            out.append((k, obs, parse_action(d.best, obs.b), parse_action(d.action, obs.b)))
        return out

    def finish(self, weighed: Sequence[Decision], why: dict[int, tuple[Said, ...]]) -> Review:
        """The review from the decisions weighed (``jobs``' order) and why of each costliest one (``to_explain``)."""
        turns = _turn_seats(list(self.todo), list(self.turn_of))
        chart = _chart(list(weighed), turns, self.final)
        costliest = self.costliest(weighed)
        decisions = [d if k in costliest[0] + costliest[1] else _light(d) for k, d in enumerate(weighed)]
        for k in costliest[0] + costliest[1]:
            d = decisions[k]
            decisions[k] = Decision(d.index, d.turn, d.seat, d.action, d.best, d.before, d.after, d.second, d.options,
                                    d.position, why[k])
        final = self.final
        return Review(final.b.terrain.id if self.todo else "", self.viewer, tuple(decisions), tuple(turns),
                      chart, costliest, final.winner if final.over else -1, final.reason if final.over else "",
                      self.effort, self.seed, self.threshold)


def plan(game: Record | Sequence[Step], *, viewer: int | None = None, effort: Effort = REVIEW_EFFORT,
         seed: int = 0, threshold: float = THRESHOLD, end: State | None = None) -> Plan:
    """``game`` read for its review (arguments as ``analyse``); ValueError if ``viewer`` is None and a state to
    weigh hides a rack's tiles, IllegalAction for a record's refused action."""
    if isinstance(game, Record):
        todo, final = steps(game)
        if end is not None:
            final = end
    else:
        todo = list(game)
        if end is None and todo:
            final = todo[-1][0].copy()
            final.apply_unchecked(todo[-1][1])
        else:
            final = end if end is not None else State.empty()
    weighed_seats = (0, 1) if viewer is None else (viewer,)
    decisions_at = [k for k, (s, _) in enumerate(todo) if s.actor in weighed_seats]
    for k in decisions_at:
        s = todo[k][0]
        if viewer is None and any(not t & 15 for seat in (0, 1) for t in s.rack[seat] + s.laid[seat]):
            raise ValueError(f"action {k + 1}: this game hides a rack's tiles; review it for one seat (viewer)")
    turn_of: list[int] = []
    turn = 0
    for k, (s, _) in enumerate(todo):
        if s.decision == TURN or k == 0:
            turn += 1
        turn_of.append(turn)
    return Plan(tuple(todo), final, viewer, effort, seed, threshold, tuple(decisions_at), tuple(turn_of))


def explain(obs: State, better: int, played: int) -> tuple[Said, ...]:
    """Why ``better`` beats ``played`` from the deciding seat's observation ``obs``, in the game's words."""
    return tuple(reasons(obs, better, played))


def weigh(state: State, action: int, k: int, turn: int, effort: Effort, seed: int, threshold: float) -> Decision:
    """Decision ``k`` (0-based place in the game) weighed from its seat's observation of ``state``."""
    return _weigh(state, action, k, turn, effort, seed, threshold)


def _weigh(state: State, action: int, k: int, turn: int, effort: Effort, seed: int, threshold: float) -> Decision:
    """Decision ``k`` weighed from its seat's observation (see the module): only the observation goes to the engine."""
    seat = state.actor
    obs = observation(state, seat)
    legal = obs.legal_actions()
    chances = analysis.action_chances(obs, include=(action,), effort=effort, seed=seed * 100_003 + k)
    best = chances.best()
    others = [chances.mean(a) for a in chances.per_sample if a != best]
    # kept to 4 places, as written in JSON: a review read back is the review computed
    before, after = _r(chances.mean(best)), _r(chances.mean(action))
    second = _r(max(others)) if others else None
    keep = before - after >= threshold or (second is not None and before - second >= PUZZLE_GAP)
    return Decision(k + 1, turn, seat, action_text(action, obs.b), action_text(best, obs.b), before, after, second,
                    len(legal), position_text(obs) if keep else None)


def _light(d: Decision) -> Decision:
    """A decision kept without its position unless it may make a puzzle (the review stays small)."""
    if d.position is None or (d.second is not None and d.before - d.second >= PUZZLE_GAP):
        return d
    return Decision(d.index, d.turn, d.seat, d.action, d.best, d.before, d.after, d.second, d.options)


def _turn_seats(todo: list[Step], turn_of: list[int]) -> list[int]:
    """The seat that played each turn."""
    seats: dict[int, int] = {}
    for (s, _), t in zip(todo, turn_of, strict=True):
        if s.actor >= 0:
            seats.setdefault(t, s.actor)
        else:
            seats.setdefault(t, s.turn)
    return [seats[t] for t in sorted(seats)]


def _chart(decisions: list[Decision], turns: list[int], final: State) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Each seat's chance after every turn (see the module); a seat whose decisions were not weighed (an online
    review's other side) gets the complement of the other's chance."""
    last_of: dict[int, Decision] = {}  # turn -> the last weighed decision in it
    first_of: dict[int, Decision] = {}
    for d in decisions:
        last_of[d.turn] = d
        first_of.setdefault(d.turn, d)
    series: list[list[float]] = [[], []]
    n = len(turns)
    for t in range(1, n + 1):
        player = turns[t - 1]
        if t == n and final.over:
            for seat in (0, 1):
                series[seat].append(1.0 if final.winner == seat else 0.0)
            continue
        mine = last_of[t].after if t in last_of else math.nan
        nxt = first_of.get(t + 1)
        theirs = nxt.before if nxt is not None and nxt.seat != player else math.nan
        if math.isnan(mine):
            mine = 1.0 - theirs if not math.isnan(theirs) else _prev(series[player])
        if math.isnan(theirs):
            theirs = 1.0 - mine
        series[player].append(_r(mine))
        series[1 - player].append(_r(theirs))
    return tuple(series[0]), tuple(series[1])


def _prev(series: list[float]) -> float:
    return series[-1] if series else 0.5


def _costliest(decisions: list[Decision], threshold: float) -> tuple[tuple[int, ...], tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    for seat in (0, 1):
        worst: dict[int, int] = {}  # turn -> the index of its costliest decision
        for k, d in enumerate(decisions):
            if d.seat != seat or d.drop < threshold:
                continue
            if d.turn not in worst or d.drop > decisions[worst[d.turn]].drop:
                worst[d.turn] = k
        out.append(tuple(sorted(worst.values(), key=lambda k: -decisions[k].drop)[:COSTLIEST]))
    return out[0], out[1]


__all__ = ["COSTLIEST", "PUZZLE_GAP", "REVIEW_EFFORT", "THRESHOLD", "Decision", "ExplainJob", "Plan", "Review", "Step",
           "WeighJob", "analyse", "explain", "plan", "steps", "weigh"]
