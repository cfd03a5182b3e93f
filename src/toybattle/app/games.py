"""The games this server serves: ``Games``, the registry of live sessions over the store, and the first
writes of new games, which the answer that made them waits for (``pending_writes``, ``settle``)."""
from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from toybattle.rules import State
from toybattle.store import GameRow, Store, StoreError

from .pool import BotPool
from .session import KINDS, LocalSession, Session

log = logging.getLogger("toybattle.app")


class Pending(NamedTuple):
    """A new game's first write, on the store's writer thread while the event loop runs on."""
    write: asyncio.Task[None]
    session: LocalSession
    games: Games


# the first writes of the games made while answering one request (see Games.create): the answer waits
# for them (Guard for HTTP, Games.rematch for a websocket's rematch)
_PENDING: contextvars.ContextVar[list[Pending] | None] = contextvars.ContextVar("toybattle_pending", default=None)


@contextlib.contextmanager
def pending_writes() -> Iterator[list[Pending]]:
    """Collect the first writes of the games made meanwhile (in this context), for the caller to ``settle``."""
    pending: list[Pending] = []
    reset = _PENDING.set(pending)
    try:
        yield pending
    finally:
        _PENDING.reset(reset)


async def settle(pending: list[Pending]) -> None:
    """Wait for ``pending`` writes (and empty it). A game whose write failed is dropped (no game is served
    that the games file does not hold), and the first failure is raised (StoreError)."""
    failed: BaseException | None = None
    while pending:
        p = pending.pop(0)
        try:
            await p.write
        except StoreError as e:
            p.games.drop(p.session)
            failed = failed or e
    if failed is not None:
        raise failed


def _written(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("a new game could not be stored: %s", task.exception())


class Games:
    """The live sessions, loaded from the store on demand and kept while the server runs."""

    def __init__(self, store: Store, pool: BotPool, bot_delay: float = 0.6):
        self.store = store
        self.pool = pool  # where the bots of its games think
        self.bot_delay = bot_delay
        self.sessions: dict[str, Session] = {}
        self.loaders: dict[str, Callable[[GameRow], Session]] = {
            kind: (lambda row: LocalSession(row, self.store, self.pool, self.bot_delay)) for kind in KINDS}
        # how a game whose stored meta holds this key is played again (the Learn section registers
        # "lesson": a rematch starts from the lesson's position, not from a new deal)
        self.rematchers: dict[str, Callable[[LocalSession], LocalSession]] = {}

    def add(self, session: Session) -> None:
        self.sessions[session.id] = session
        session.on_idle = self.forget

    def forget(self, session: Session) -> None:
        """Drop a finished game nobody watches: it lives on in the store, and ``get`` loads it again."""
        if self.sessions.get(session.id) is session and session.idle:
            del self.sessions[session.id]
            session.on_idle = None

    def get(self, game_id: str) -> Session | None:
        """The live session of ``game_id``, loaded from the store if need be (on the calling thread:
        the event loop uses ``fetch``)."""
        if not isinstance(game_id, str) or not 0 < len(game_id) <= 64:
            return None
        return self.sessions.get(game_id) or self._serve(self.store.get(game_id))

    async def fetch(self, game_id: str) -> Session | None:
        """``get`` without waiting for the games file on the event loop."""
        if not isinstance(game_id, str) or not 0 < len(game_id) <= 64:
            return None
        return self.sessions.get(game_id) or self._serve(await self.store.get_async(game_id))

    def _serve(self, row: GameRow | None) -> Session | None:
        if row is None or row.kind not in self.loaders:
            return None
        if row.id in self.sessions:  # loaded meanwhile
            return self.sessions[row.id]
        try:
            session = self.loaders[row.kind](row)
        except Exception as e:
            log.error("game %s cannot be loaded: %s", row.id, e)
            return None
        self.add(session)
        if isinstance(session, LocalSession):
            session.kick_bot()
        with contextlib.suppress(RuntimeError):  # no loop running (a script): nothing to release later
            # a finished game opened for one request (its status, its replay) is dropped after it,
            # unless a socket subscribed meanwhile
            asyncio.get_running_loop().call_soon(session.release_if_idle)
        return session

    def create(self, settings: dict[str, Any], start: State | None = None,
               extra: dict[str, Any] | None = None) -> LocalSession:
        """A new local game (``LocalSession.create``), stored, served and its bot started. Called on the
        event loop (a part's route, a rematcher), it never waits for the games file there: the row goes to
        the store's writer thread and the request that made the game is answered once it is stored (the
        Guard, or ``rematch``, waits for it; if it fails the game is dropped and the answer says so).
        Elsewhere (a script) it returns once the row is stored."""
        s = LocalSession.create(self.store, self.pool, bot_delay=self.bot_delay, start=start, extra=extra, **settings)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.store.put(s.row)
            return self._start(s)
        write = loop.create_task(self.store.put_async(s.row))  # runs first thing, before any change to the row
        write.add_done_callback(_written)
        # its bot starts once the game is stored: a game whose first write failed never moves, so nothing of
        # it reaches the games file later (a bot's move queued behind the failed write would store it)
        write.add_done_callback(lambda done: self._kick_if_stored(s, done))
        waiting = _PENDING.get()
        if waiting is not None:
            waiting.append(Pending(write, s, self))
        self.add(s)
        return s

    def _kick_if_stored(self, s: LocalSession, write: asyncio.Task[None]) -> None:
        if not write.cancelled() and write.exception() is None and self.sessions.get(s.id) is s:
            s.kick_bot()

    def drop(self, session: LocalSession) -> None:
        """Stop serving a game the games file does not hold (its first write failed)."""
        session.stop()
        if self.sessions.get(session.id) is session:
            del self.sessions[session.id]
        session.on_idle = None

    async def create_async(self, settings: dict[str, Any]) -> LocalSession:
        """``create`` without waiting for the games file on the event loop."""
        s = LocalSession.create(self.store, self.pool, bot_delay=self.bot_delay, **settings)
        await self.store.put_async(s.row)
        return self._start(s)

    def _start(self, s: LocalSession) -> LocalSession:
        self.add(s)
        s.kick_bot()
        return s

    async def rematch(self, session: LocalSession, settings: dict[str, Any]) -> LocalSession:
        """A new game like ``session``: as a registered rematcher starts it again, else a new deal."""
        for key, again in self.rematchers.items():
            if key in session.row.meta:
                with pending_writes() as pending:
                    new = again(session)  # Games.create: its write runs on the writer thread...
                    await settle(pending)  # ...and the rematch is answered once it is stored
                return new
        return await self.create_async(settings)

    def resume_all(self) -> int:
        """Load every unfinished game of the kinds we can serve (bots pick up their turn)."""
        n = 0
        for row in self.store.unfinished():
            if row.kind in self.loaders and self.get(row.id) is not None:
                n += 1
        return n

    def stop(self) -> None:
        for s in self.sessions.values():
            if isinstance(s, LocalSession):
                s.stop()
