"""Sessions: what a browser seat talks to.

``Session`` is the small interface the server needs: which seat a token opens,
the view a seat is sent, and the three things a seat may ask (act, undo,
concede). ``LocalSession`` is a game this process referees in full (against a
bot, hot-seat, or two devices on the network). An online session, where this
process holds only its own secrets and the opponent is a remote peer, plugs in
by implementing the same interface (see docs/protocol.md).
"""
from __future__ import annotations

import asyncio
import functools
import json
import logging
import random
import secrets
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from typing import Any, TypeGuard

from toybattle.chat import ChatLog, ChatRefused, said
from toybattle.clocks import Clocks, clock_refusal
from toybattle.rules import (
    SEATS,
    TERRAIN_IDS,
    IllegalAction,
    NotationError,
    Record,
    State,
    action_text,
    observation,
    parse_action,
    parse_record,
    setup_record,
)
from toybattle.rules import actions as A
from toybattle.rules.observation import SPECTATOR
from toybattle.rules.state import RAINBOW_DRAW, SKULLY_DRAW, STAR_DRAW, deal, unanswered
from toybattle.said import DEFAULT, Said, catalogue, localize, of_error
from toybattle.store import GameRow, Store

from . import bot_levels
from .pool import BotPool
from .spectate import spectator_view
from .view import behind_cover, covered, log_lines, result_text, seat_view

log = logging.getLogger("toybattle.app")

KINDS = ("bot", "hotseat", "lan")  # the local kinds of game
# how a game ends other than by the rules, by its key in the game's meta: the State's call, the log's line (and the
# same addressed to that seat)
ENDED_BY: dict[str, tuple[Callable[[State, int], None], str, str]] = {
    "conceded": (State.concede, "log.concedes", "log.youConcede"),
    "out_of_time": (State.out_of_time, "log.outOfTime", "log.yourTimeRanOut"),
}
HINT_LEVEL = "expert"  # the bot level that gives hints: the strongest (in the browser within BROWSER_THINK_S)
VIEWERS = (0, 1, SPECTATOR)  # whoever reads a game's log: each seat, and spectators
MAX_SECRET = 64  # characters of a token or a link's key as a page sends it (ours are 24)


class Refused(Exception):
    """A request the game turns down; the message says why, in the game's words."""


Listener = Callable[["Session"], Awaitable[None]]


class Session(ABC):
    """One game as the server sees it. Subclasses hold whatever state they need."""

    id: str
    kind: str

    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        # called when nothing needs this session in memory any more (the games registry drops it)
        self.on_idle: Callable[[Session], None] | None = None
        self._chat_listeners: list[Listener] = []
        self.chat_log = ChatLog()

    @property
    def chatty(self) -> bool:
        """Whether the two players may chat (two devices and online games; not a bot or one shared device)."""
        return False

    async def chat(self, seat: int, text: object = None, phrase: object = None) -> None:
        """Add ``seat``'s chat line, a text or a quick phrase's key (bounded, rate-limited, outside the
        game record), and tell every seat."""
        if not self.chatty:
            raise Refused(Said("chat.none"))
        try:
            entry = self.chat_log.add(SEATS[seat], said(text, phrase), seat)
        except ChatRefused as e:
            raise Refused(of_error(e)) from None
        await self.send_chat(entry)
        await self.heard()

    async def send_chat(self, entry: dict[str, Any]) -> None:
        """Carry a chat line further (an online game sends it to the other peer); nothing to do here."""
        return None

    def listen_chat(self, fn: Listener) -> None:
        if fn not in self._chat_listeners:
            self._chat_listeners.append(fn)

    def unlisten_chat(self, fn: Listener) -> None:
        if fn in self._chat_listeners:
            self._chat_listeners.remove(fn)

    async def heard(self) -> None:
        """Tell every connected seat that a chat line came."""
        for fn in list(self._chat_listeners):
            try:
                await fn(self)
            except Exception:  # one broken connection must not stop the others
                log.exception("chat listener failed")

    @abstractmethod
    def seat_of(self, token: str) -> int | None:
        """The seat ``token`` opens in this game, or None."""

    @abstractmethod
    def view(self, seat: int) -> dict[str, Any]:
        """The message body for ``seat`` (build it with ``view.seat_view`` from an observation)."""

    def view_message(self, seat: int, lang: str = DEFAULT) -> str:
        """The ``view`` message a socket of ``seat`` is sent (JSON text), with what the game offers, its
        texts said in language ``lang``."""
        view = self.view(seat)
        view["game"] = {**view.get("game", {}), "offers": self.offers() | {"review": self.reviewable(seat)},
                        "chat": self.chatty and seat in (0, 1)}  # the chat is the players', not a watcher's
        if self.kind == "hotseat" and seat in (0, 1) and behind_cover(view):  # a spectator has no cover
            view = covered(view)
        return json.dumps({"type": "view", "view": localize(view, lang)})

    @abstractmethod
    async def act(self, seat: int, action: str) -> None:
        """Play ``action`` (notation text) for ``seat``; Refused if it may not."""

    async def undo(self, seat: int) -> None:
        raise Refused(Said("refused.noUndo"))

    async def concede(self, seat: int) -> None:
        raise Refused(Said("refused.noConcede"))

    async def hint(self, seat: int) -> dict[str, Any]:
        """A suggested action for ``seat`` and why: {"action": text, "reason": words}."""
        raise Refused(Said("refused.noHints"))

    def settings(self) -> dict[str, Any] | None:
        """What a rematch needs to set up the same kind of game; None if no rematch is offered."""
        return None

    def replay(self, seat: int) -> dict[str, Any]:
        raise Refused(Said("error.noReplay"))

    def review_game(self, seat: int) -> tuple[Record | list[tuple[State, int]], State, int | None]:
        """The finished game as ``seat`` may have it reviewed (toybattle.review): its record, or its steps (each
        the state before an action, as ``seat`` knew it, and the action); its last state; and the seat whose
        information alone the review may use (None: the record holds every tile and both seats are reviewed).
        Refused for an unfinished game, or one that cannot be reviewed."""
        raise Refused(Said("review.refused.cannot"))

    def kept(self, key: str) -> Any:
        """What was kept with this game under ``key`` (``keep``), or None."""
        return None

    async def keep(self, key: str, value: Any) -> None:
        """Keep ``value`` with this game under ``key`` in the games file (written off the event loop)."""
        raise Refused(Said("review.refused.cannot"))

    def offers(self) -> dict[str, Any]:
        """What the end of this game offers, so a page shows only what will not be refused."""
        return {"rematch": self.settings() is not None, "replay": False}

    def reviewable(self, seat: int) -> bool:
        """Whether ``seat``'s page can ask for this game's review once it ends (a player's, not a watcher's)."""
        return seat in (0, 1)

    @property
    def over(self) -> bool:
        return False

    def subscribe(self, fn: Listener) -> None:
        self._listeners.append(fn)

    def listeners(self) -> tuple[Listener, ...]:
        """Who is subscribed now (the sockets bound to this game: a rematch or a release tells each)."""
        return tuple(self._listeners)

    def unsubscribe(self, fn: Listener) -> None:
        if fn in self._listeners:
            self._listeners.remove(fn)
        self.release_if_idle()

    @property
    def idle(self) -> bool:
        """Whether nothing needs this session in memory any more (the registry then drops it)."""
        return False

    def release_if_idle(self) -> None:
        if self.idle and self.on_idle is not None:
            self.on_idle(self)

    async def changed(self) -> None:
        """Tell every connected seat to fetch its new view."""
        for fn in list(self._listeners):
            try:
                await fn(self)
            except Exception:  # one broken connection must not stop the others
                log.exception("listener failed")
        self.release_if_idle()


def new_token() -> str:
    return secrets.token_urlsafe(18)


def level_words(name: str, part: str, english: str) -> str:
    """A bot level's words by its name (``level.<name>``, ``level.<name>Text``); a level the catalogues
    do not know (a retired one) keeps the words the bots give it."""
    key = f"level.{name}{part}"
    return Said(key) if key in catalogue(DEFAULT) else english


def echo(value: object, limit: int = 40) -> str:
    """``value`` as a refusal quotes it (``repr``), at most ``limit`` characters: a refusal is one short
    line, however long what it refuses."""
    said = repr(value)
    return said if len(said) <= limit else said[:limit - 3] + "..."


def same_secret(given: object, held: object) -> bool:
    """Whether ``given`` (what a page sent) is the secret ``held`` (a token, a link's key), compared in
    constant time. Any text may come in: compared as UTF-8 bytes (``compare_digest`` refuses a str with
    non-ASCII characters), so a token such as "é" is just a wrong token."""
    return isinstance(given, str) and isinstance(held, str) and bool(held) and \
        secrets.compare_digest(given.encode("utf-8", "surrogatepass"), held.encode("utf-8", "surrogatepass"))


def secret_shaped(text: object) -> TypeGuard[str]:
    """Whether ``text`` could be a token or a link's key at all (a short ASCII text); anything else opens
    nothing and is never handed to a session's comparison."""
    return isinstance(text, str) and text.isascii() and 0 < len(text) <= MAX_SECRET


def seat_of(session: Session | None, token: object) -> int | None:
    """The seat ``token`` opens in ``session`` (None for no session, or a token that cannot be one)."""
    return session.seat_of(token) if session is not None and secret_shaped(token) else None


class LocalSession(Session):
    """A game refereed by this process: it holds the full state; each seat sees only its observation."""

    def __init__(self, row: GameRow, store: Store, pool: BotPool, bot_delay: float = 0.6):
        super().__init__()
        self.id = row.id
        self.kind = row.kind
        self.row = row
        self.store = store
        self.pool = pool  # where its bot thinks and its hints come from
        self.bot_delay = bot_delay
        self.tokens: dict[int, str] = {SEATS.index(s): t for s, t in row.meta.get("tokens", {}).items()}
        bot = row.meta.get("bot")
        self.bot_seat: int = SEATS.index(bot["seat"]) if bot else -1
        if bot:
            bot["level"] = bot_levels.offered(bot["level"])
        self.bot_level: str | None = bot["level"] if bot else None  # the bot thinks in the pool (app/pool.py)
        self.rng = random.SystemRandom()
        self.lock = asyncio.Lock()
        self._bot_task: asyncio.Task[None] | None = None
        self._views: dict[int, dict[str, Any]] = {}  # each seat's view of the current state (see view())
        self._messages: dict[tuple[int, str], str] = {}  # ... and its view message by language, encoded once
        clock = row.meta.get("settings", {}).get("clock")
        self.clocks: Clocks | None = None  # a game on one screen with a time control: the app keeps both clocks
        if self.kind == "hotseat" and isinstance(clock, dict) and clock_refusal(clock.get("base"),
                                                                               clock.get("increment")) is None:
            self.clocks = Clocks(clock["base"], clock["increment"])
            self.clocks.restore(row.meta.get("clock"))
        self._flag: asyncio.TimerHandle | None = None  # when the running clock runs out
        self._flag_task: asyncio.Task[None] | None = None  # held: the loop keeps only a weak reference to a task
        try:
            self.record = parse_record(row.record)
        except NotationError as e:
            raise ValueError(f"game {row.id}: stored record cannot be read: {e}") from None
        self._rebuild()
        self._tick_clocks()  # the clock of the seat to move runs from now: not while the app was closed
        self._watch_flag()

    # ------------------------------------------------------------ creation and loading

    @classmethod
    def create(cls, store: Store, pool: BotPool, kind: str, terrain: str = "castle", first_game: bool = False,
               first: str = "random", human: str = "blue", level: str | None = None,
               bot_delay: float = 0.6, start: State | None = None, extra: dict[str, Any] | None = None,
               clock: dict[str, Any] | None = None) -> LocalSession:
        """A new game, NOT stored yet: store its ``row`` before serving it. Raises Refused for bad
        settings. ``start``: a full position to play from instead of a new deal (its terrain and mode
        win); ``extra``: more meta for whoever started the game (the Learn section marks its games
        with "lesson"); ``clock``: a time control ``{"base": s, "increment": s}`` (a game on one screen only)."""
        if kind not in KINDS:
            raise Refused(Said("error.unknownKind", what=echo(kind), kinds=", ".join(KINDS)))
        if clock is not None:
            if kind != "hotseat":
                raise Refused(Said("error.clockKinds"))
            refusal = clock_refusal(clock.get("base"), clock.get("increment")) if isinstance(clock, dict) \
                else clock_refusal(None, None)
            if refusal is not None:
                raise Refused(refusal)
        rng = random.SystemRandom()
        if start is not None:
            terrain, first_game = start.terrain.id, start.first_game
        if terrain == "random":
            terrain = rng.choice(TERRAIN_IDS)
        if terrain not in TERRAIN_IDS:
            raise Refused(Said("error.unknownTerrain", what=echo(terrain)))
        if first not in ("random", *SEATS):
            raise Refused(Said("error.whoStarts"))
        if human == "random":
            human = rng.choice(SEATS)
        if human not in SEATS:
            raise Refused(Said("error.yourColour"))
        if start is None:
            dealt_first, orders = deal(rng)
            record = setup_record(terrain, bool(first_game), dealt_first if first == "random" else SEATS.index(first),
                                  orders)
        else:
            record = Record(start)
        settings: dict[str, Any] = {"kind": kind, "terrain": terrain, "first_game": bool(first_game), "first": first,
                                    "human": human, "level": level}
        if clock is not None:  # a rematch keeps it
            settings["clock"] = {"base": clock["base"], "increment": clock["increment"]}
        meta: dict[str, Any] = {"tokens": {}, "settings": settings}
        if kind == "bot":
            level = level or bot_levels.default_level()
            if level not in [lv.name for lv in bot_levels.levels()]:
                raise Refused(Said("error.unknownLevel", what=echo(level)))
            meta["settings"]["level"] = level
            meta["bot"] = {"seat": SEATS[1 - SEATS.index(human)], "level": level}
            meta["tokens"][human] = new_token()
        else:
            meta["tokens"] = {s: new_token() for s in SEATS}
            if kind == "lan":
                meta["host"] = human
                meta["invite"] = new_token()  # the join link's key: it seats the first device that opens it
        meta.update(extra or {})
        row = GameRow(id=secrets.token_hex(6), kind=kind, record=record.text(), meta=meta)
        return cls(row, store, pool, bot_delay)

    def _rebuild(self) -> None:
        """Replay the record: the state, each seat's log, the turn's start (for undo)."""
        s = self.record.start.copy()
        self.state = s
        self.logs: list[list[dict[str, Any]]] = [[], [], []]  # blue's, red's, and spectators' (logs[SPECTATOR])
        self._checkpoint = (0, s.copy())
        self._revealed = False
        texts = self.record.actions
        self.record.actions = []
        for n, text in enumerate(texts, start=1):
            try:
                a = parse_action(text, s.b)
                while unanswered(s, a):  # a base effect the record never answered: declined (docs/rulings.md)
                    self._apply(A.SKIP)
                if s.refusal(a):
                    raise IllegalAction(s.refusal(a))
            except (ValueError, IllegalAction) as e:
                log.error("game %s: action %d (%s) cannot be replayed: %s", self.id, n, text, e)
                break
            self._apply(a)
        for how in ENDED_BY:
            seat = self.row.meta.get(how)
            if seat in SEATS and not s.over:
                self._end(how, SEATS.index(seat))

    # ------------------------------------------------------------ the interface

    @property
    def chatty(self) -> bool:
        return self.kind == "lan"

    def seat_of(self, token: str) -> int | None:
        for seat, t in self.tokens.items():
            if same_secret(token, t):
                return seat
        return None

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def idle(self) -> bool:
        """Over, no socket watching and no bot task: the store holds all of it, and the registry
        loads it again if a page asks."""
        return self.over and not self._listeners and not (self._bot_task and not self._bot_task.done())

    def players(self) -> dict[str, Any]:
        out = {}
        for seat in (0, 1):
            if seat == self.bot_seat:
                level = self.row.meta["bot"]["level"]
                label = next((lv.label for lv in bot_levels.levels() if lv.name == level), level)
                out[SEATS[seat]] = {"kind": "bot", "name": Said("bot.name", level=level_words(level, "", label))}
            else:
                out[SEATS[seat]] = {"kind": "human", "name": Said(f"seat.{SEATS[seat].capitalize()}")}
        return out

    def game_info(self) -> dict[str, Any]:
        info = {"id": self.id, "kind": self.kind, "terrain": self.state.b.terrain.id,
                "first_game": self.state.first_game, "host": self.row.meta.get("host")}
        c = self.clocks
        if c is not None:  # as an online game's view says it: the page counts the running one down
            info["clock"] = None if self.state.over else c.view(self._clock(), time.time())
        return info

    def view(self, seat: int) -> dict[str, Any]:
        """``seat``'s view, built once per change however many sockets watch the seat (a copy of the
        top level: the server adds to it)."""
        if seat not in self._views:
            self._views[seat] = self._view(seat)
        return dict(self._views[seat])

    def view_message(self, seat: int, lang: str = DEFAULT) -> str:
        if (seat, lang) not in self._messages:
            self._messages[seat, lang] = super().view_message(seat, lang)
        return self._messages[seat, lang]

    def _view(self, seat: int) -> dict[str, Any]:
        if seat == SPECTATOR:
            return spectator_view(observation(self.state, SPECTATOR), log=self.logs[SPECTATOR][-300:],
                                  players=self.players(), game=self.game_info())
        return seat_view(observation(self.state, seat), seat, log=self.logs[seat][-300:],
                         can_undo=self.can_undo(seat), players=self.players(), game=self.game_info())

    def can_undo(self, seat: int) -> bool:
        s = self.state
        return (not s.over and s.actor == seat and seat != self.bot_seat and not self._revealed
                and len(self.record.actions) > self._checkpoint[0])

    def settings(self) -> dict[str, Any]:
        return dict(self.row.meta.get("settings", {}))

    def offers(self) -> dict[str, Any]:
        return {"rematch": True, "replay": True}

    def reviewable(self, seat: int) -> bool:
        # on two devices the guest's device reaches this app only while the game lasts: the host reviews
        return super().reviewable(seat) and (self.kind != "lan" or self.row.meta.get("host") == SEATS[seat])

    async def act(self, seat: int, action: str) -> None:
        async with self.lock:
            ran_out = await self._out_of_time_if_due()
            if not ran_out:
                a = self._check(seat, action)
                await self._commit(lambda: self._play(a))
        await self.changed()
        if ran_out:  # the clock fell before this action came: the game is over on time
            raise Refused(Said("refused.timeUp"))
        self.kick_bot()

    async def undo(self, seat: int) -> None:
        async with self.lock:
            if self.state.over:
                raise Refused(Said("refused.over"))
            if self.state.actor != seat:
                raise Refused(Said("refused.undoOwn"))
            if self._revealed:
                raise Refused(Said("refused.undoHidden"))
            if not self.can_undo(seat):
                raise Refused(Said("refused.nothingToUndo"))
            await self._commit(self._undo)
        await self.changed()

    async def concede(self, seat: int) -> None:
        async with self.lock:
            if self.state.over:
                raise Refused(Said("refused.over"))
            await self._commit(lambda: self._end("conceded", seat))
        await self.changed()

    async def hint(self, seat: int) -> dict[str, Any]:
        s = self.state
        if s.over or s.actor != seat or seat == self.bot_seat:
            raise Refused(Said("refused.hintSeat"))
        obs = observation(s, seat)  # the adviser sees what the seat sees, nothing more
        a, why = await self.pool.hint(HINT_LEVEL, obs)
        return {"action": action_text(a, obs.b), "reason": why, "ply": obs.ply}

    def review_game(self, seat: int) -> tuple[Record | list[tuple[State, int]], State, int | None]:
        """Against a bot or on one device (hot-seat): the record, both seats reviewed. On two devices each player
        has their own review, from their own seat's observations: the other's rack stays theirs."""
        if not self.state.over:
            raise Refused(Said("review.refused.unfinished"))
        record = parse_record(self.record.text())
        if self.kind != "lan":
            return record, self.state.copy(), None
        s = record.start.copy()
        todo: list[tuple[State, int]] = []
        for text in record.actions:
            a = parse_action(text, s.b)
            while unanswered(s, a):
                todo.append((observation(s, seat), A.SKIP))
                s.apply_unchecked(A.SKIP)
            todo.append((observation(s, seat), a))
            s.apply_unchecked(a)
        return todo, observation(self.state, seat), seat

    def kept(self, key: str) -> Any:
        return self.row.meta.get(key)

    async def keep(self, key: str, value: Any) -> None:
        async with self.lock:
            await self._commit(lambda: self.row.meta.__setitem__(key, value))

    def replay(self, seat: int) -> dict[str, Any]:
        """Every step of a finished game, as ``seat`` saw it. Never the record itself: it holds the
        opponent's tile order and set-aside tiles, which no seat ever sees, even after the game."""
        if not self.state.over:
            raise Refused(Said("refused.replayOver"))
        s = self.record.start.copy()
        frames = [seat_view(observation(s, seat), seat, players=self.players(), game=self.game_info())]
        logs: list[dict[str, Any]] = []
        for text in self.record.actions:
            before = observation(s, seat)
            s.apply(parse_action(text, s.b))
            after = observation(s, seat)
            logs += log_lines(before, parse_action(text, s.b), after, seat)
            if s.is_chance:
                continue
            frames.append(seat_view(after, seat, log=logs[-12:], players=self.players(), game=self.game_info()))
        final = seat_view(observation(self.state, seat), seat, log=self.logs[seat][-12:], players=self.players(),
                          game=self.game_info())
        if frames[-1]["ply"] != final["ply"] or final["over"] != frames[-1]["over"]:
            frames.append(final)
        return {"frames": frames}

    # ------------------------------------------------------------ spectators

    async def watch_key(self) -> str:
        """The key of this game's watch link (made, and stored, the first time it is asked for)."""
        async with self.lock:
            if not isinstance(self.row.meta.get("watch"), str):
                await self._commit(lambda: self.row.meta.__setitem__("watch", new_token()))
            key: str = self.row.meta["watch"]
            return key

    def watches(self, key: str) -> bool:
        """Whether ``key`` opens this game's watch link."""
        watch = self.row.meta.get("watch")
        return same_secret(key, watch)

    # ------------------------------------------------------------ two devices: the guest's seat

    def guest_seat(self, host_seat: int) -> int:
        """The guest's seat, if ``host_seat`` is the host of this game on two devices; else Refused."""
        if self.kind != "lan" or self.row.meta.get("host") != SEATS[host_seat]:
            raise Refused(Said("error.hostInvites"))
        return 1 - host_seat

    def invitation(self, host_seat: int) -> str:
        """The join link's key, for the host; Refused once a device has taken the guest's seat."""
        guest = self.guest_seat(host_seat)
        key = self.row.meta.get("invite")
        if not isinstance(key, str):
            raise Refused(Said("error.deviceJoined", seat=SEATS[guest]))
        return key

    async def claim(self, key: str) -> tuple[int, str]:
        """The first device to open the join link gets the guest's seat and its token (which nobody
        else, not the host either, is ever sent); the link then seats nobody else."""
        async with self.lock:
            invite = self.row.meta.get("invite")
            if self.kind != "lan" or not same_secret(key, invite):
                raise Refused(Said("error.linkUsed"))
            guest = 1 - SEATS.index(self.row.meta["host"])
            await self._commit(lambda: self.row.meta.pop("invite"))
            return guest, self.tokens[guest]

    async def release(self, host_seat: int) -> int:
        """The host frees the guest's seat: the old token stops working and a new join link is made."""
        guest = self.guest_seat(host_seat)
        async with self.lock:
            def change() -> None:
                self.tokens[guest] = new_token()
                self.row.meta["tokens"] = {**self.row.meta["tokens"], SEATS[guest]: self.tokens[guest]}
                self.row.meta["invite"] = new_token()
            old = self.tokens[guest]
            try:
                await self._commit(change)
            except Refused:
                self.tokens[guest] = old
                raise
        return guest

    # ------------------------------------------------------------ rules plumbing

    def _check(self, seat: int, text: str) -> int:
        s = self.state
        if s.over:
            raise Refused(Said("refused.over"))
        if s.actor != seat:
            raise Refused(Said("refused.turnOf", seat=SEATS[s.turn]))
        if not isinstance(text, str) or len(text) > 40:
            raise Refused(Said("error.actionText"))
        try:
            a = parse_action(text, s.b)
        except ValueError as e:
            raise Refused(of_error(e)) from None
        why = observation(s, seat).refusal(a)
        if why:
            raise Refused(why)
        return a

    def _play(self, a: int) -> None:
        self._apply(a)
        self.state.resolve_chance(self.rng, self._apply)  # XB-42 and the tank pick at random: we draw the lot

    def _apply(self, a: int) -> None:
        """Apply a legal action: record it, write both seats' logs, track the turn's start."""
        s = self.state
        before = [observation(s, viewer) for viewer in VIEWERS]
        d, turn = s.decision, s.turn
        text = action_text(a, s.b)
        s.apply_unchecked(a)
        self.record.actions.append(text)
        for viewer, seen in zip(VIEWERS, before, strict=True):
            self.logs[viewer] += log_lines(seen, a, observation(s, viewer), viewer)
        if a == A.DRAW or (a == A.USE and d in (SKULLY_DRAW, STAR_DRAW, RAINBOW_DRAW)) or \
                A.PICK <= a < A.PICK_END:
            self._revealed = True
        if s.turn != turn and not s.over:
            self._checkpoint = (len(self.record.actions), s.copy())
            self._revealed = False

    def _undo(self) -> None:
        n, start = self._checkpoint
        del self.record.actions[n:]
        self.state = start.copy()
        # the logs were written action by action: cut back to the lines written before the turn began
        for viewer in VIEWERS:
            self.logs[viewer] = [e for e in self.logs[viewer] if e["n"] <= start.ply]
        for viewer in VIEWERS:  # every log lost the turn's lines, so each says why
            line = {"n": start.ply, "seat": SEATS[start.turn], "fx": {"undo": True},
                    "text": Said("log.takesTurnBack", seat=SEATS[start.turn].capitalize())}
            if viewer == start.turn:
                line["you"] = Said("log.youTakeTurnBack")
            self.logs[viewer].append(line)

    def _end(self, how: str, seat: int) -> None:
        """``seat`` concedes, or its clock runs out (``how``, a key of ENDED_BY, kept in the game's meta: the record
        holds neither): the other seat wins."""
        end, said, said_you = ENDED_BY[how]
        s = self.state
        end(s, seat)
        self.row.meta[how] = SEATS[seat]
        for viewer in VIEWERS:
            line = {"n": s.ply, "seat": SEATS[seat], "fx": {"over": True},
                    "text": Said(said, seat=SEATS[seat].capitalize(), rest=result_text(s))}
            if viewer == seat:
                line["you"] = Said(said_you, rest=result_text(s))
            self.logs[viewer].append(line)

    # ------------------------------------------------------------ the clocks (a game on one screen with a time control)

    def _tick_clocks(self) -> None:
        """After a change: the clock of the seat whose turn ended stops (its increment added), the clock of the
        seat to act runs; kept in the game's meta with it."""
        c = self.clocks
        if c is None:
            return
        now, s = self._clock(), self.state
        due = None if s.over or s.actor not in (0, 1) else s.actor
        if c.running is not None and c.running != due:
            c.played(c.running, s.ply, now)
        if due is None:
            c.stop(now)
        else:
            c.start(due, now)
        self.row.meta["clock"] = c.to_json()

    def _watch_flag(self, at_least: float = 0.0) -> None:
        """Be woken when the running clock runs out (the game then ends on time, whoever is looking), and not
        before ``at_least`` seconds."""
        if self._flag is not None:
            self._flag.cancel()
            self._flag = None
        c = self.clocks
        if c is None or c.running is None or self.state.over:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # made by a script, not served: nobody to tell
            return
        delay = max(at_least, c.now_left(c.running, self._clock()) + 0.05)

        def fall() -> None:
            self._flag_task = loop.create_task(self._flag_fell())
        self._flag = loop.call_later(delay, fall)

    async def _flag_fell(self) -> None:
        try:
            async with self.lock:
                ran_out = await self._out_of_time_if_due()
        except Refused:  # the games file would not take the result now (logged): a second later, again
            self._watch_flag(at_least=1.0)
            return
        if ran_out:
            await self.changed()
            self.release_if_idle()
        else:
            self._watch_flag()  # woken a little early, or the game moved on: look again when it is due

    async def _out_of_time_if_due(self) -> bool:
        """Under the lock: if the running clock has run out, end the game on time (stored) and say so."""
        c = self.clocks
        if c is None or c.running is None or self.state.over or c.now_left(c.running, self._clock()) > 0:
            return False
        seat = c.running
        await self._commit(lambda: self._end("out_of_time", seat))
        return True

    async def _commit(self, change: Callable[[], None]) -> None:
        """Make ``change``, then store the game (off the event loop); if storing fails, put everything
        back and refuse. Called under ``self.lock``, so nothing else changes this game meanwhile."""
        saved = (self.state.copy(), list(self.record.actions), [lines[:] for lines in self.logs], self._checkpoint,
                 self._revealed, dict(self.row.meta))
        c = self.clocks
        clocks = (list(c.left), list(c.moves), c.running, c.since) if c is not None else None
        self._views.clear()
        self._messages.clear()
        change()
        self._tick_clocks()
        try:
            await self._save()
        except Exception as e:
            (self.state, self.record.actions, self.logs, self._checkpoint, self._revealed, self.row.meta) = saved
            if c is not None and clocks is not None:
                c.left, c.moves, c.running, c.since = clocks
            self._views.clear()
            self._messages.clear()
            log.error("game %s: cannot store: %s", self.id, e)
            raise Refused(Said("error.notSaved", why=of_error(e))) from None
        self._watch_flag()

    async def _save(self) -> None:
        r = self.row
        r.record = self.record.text()
        r.over = self.state.over
        r.winner = SEATS[self.state.winner] if self.state.over and self.state.winner >= 0 else None
        r.reason = self.state.reason or None
        await self.store.put_async(r)

    # ------------------------------------------------------------ the bot

    def kick_bot(self) -> None:
        """Start the bot's turn if it is due (and not already running)."""
        if self.bot_level is None or self.state.over or self.state.actor != self.bot_seat:
            return
        if self._bot_task and not self._bot_task.done():
            return
        self._bot_task = asyncio.get_running_loop().create_task(self._run_bot())
        self._bot_task.add_done_callback(lambda _: self.release_if_idle())  # its last move may end the game

    @property
    def pace(self) -> float:
        """Seconds from the start of each bot move to its answer: the longer of the bot delay and the
        level's time budget (0 when the delay is 0: tests and benchmarks). It depends on nothing the
        bot sees, so the answer's timing cannot tell how many options the bot had (issue 12 item 10)."""
        if self.bot_delay <= 0 or self.bot_level is None:
            return 0.0
        level = next((lv for lv in bot_levels.levels() if lv.name == self.bot_level), None)
        return max(self.bot_delay, level.budget_s if level else 0.0)

    _clock = staticmethod(time.monotonic)

    @staticmethod
    async def _wait(seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))

    async def _think(self, level: str, obs: State, budget_s: float | None) -> int:
        """The bot's choice, made in the bots' process pool from its seat's observation only."""
        return await self.pool.choose(level, obs, budget_s)

    async def _bot_answer(self, level: str, obs: State) -> int:
        """The bot's action, released at the pace after the move began, however long it thought
        (a forced move answers no sooner than a long search); its thinking is capped at the pace."""
        start = self._clock()
        pace = self.pace
        try:
            a = await self._think(level, obs, pace or None)
        except Exception:
            log.exception("game %s: the bot failed; it plays a random legal action", self.id)
            a = self.rng.choice(obs.legal_actions())
        await self._wait(start + pace - self._clock())
        return a

    async def _run_bot(self) -> None:
        level = self.bot_level
        while level is not None and not self.state.over and self.state.actor == self.bot_seat:
            ply = self.state.ply
            a = await self._bot_answer(level, observation(self.state, self.bot_seat))
            async with self.lock:
                if self.state.ply != ply or self.state.over:
                    continue  # the game moved on meanwhile (a concession): think again
                if a not in self.state.legal_actions():
                    log.error("game %s: the bot chose an illegal action %r", self.id, a)
                    a = self.rng.choice(self.state.legal_actions())
                try:
                    await self._commit(functools.partial(self._play, a))
                except Refused:
                    return
            await self.changed()

    def stop(self) -> None:
        if self._bot_task:
            self._bot_task.cancel()
        if self._flag is not None:
            self._flag.cancel()


__all__ = ["KINDS", "LocalSession", "Refused", "Session", "echo", "new_token", "same_secret", "seat_of",
           "secret_shaped"]
