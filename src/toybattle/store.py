"""SQLite storage of games, shared by the app and online play.

One row per game: its record (toybattle.rules.notation format, or an online
peer's own record), what kind of game it is, whether it is over, and a JSON
``meta`` dict owned by whoever created the row (seat tokens, bot level, ...).
A row is written after every action, before the action is acknowledged, so a
reload, a reconnect or a restarted server resumes the game where it stood.
The server never touches the file on its event loop: ``put_async`` and ``get_async`` run on the
store's one writer thread, so a slow or locked file delays only the actions being stored (still
acknowledged only once stored), never another game or socket; the app and online play both go
through it. Rows that queue up while the disk is busy are written together, in one transaction (a
group commit: one fsync for all of them), and each one's caller is told only after that commit.
Each write is committed with ``synchronous=FULL``: once ``put`` returns, the
game survives a crash of the process and of the machine (a power cut) alike;
docs/benchmarks.md gives what that costs per write next to the cheaper setting.

The file carries its layout's version (``PRAGMA user_version``); opening an
older file brings it up to date through ``MIGRATIONS``, one step per version,
each in its own transaction. A file from a newer toybattle is refused, not
guessed at.

One process writes a games file at a time: ``toybattle serve``, ``host`` and ``join`` hold
``WriterLock`` (an OS lock on ``<file>.lock``, which names the holder's process id) for their whole
life, so a second program on the same file stops at once instead of overwriting the first one's games.

The default file lives in the user's data directory; ``--db`` or the
``TOYBATTLE_DB`` environment variable choose another.
"""
from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import queue
import sqlite3
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# MIGRATIONS[v] takes a file from layout version v to v + 1. Version 0 is a new, empty file, or a file
# written by toybattle 0.1, which kept no version: its games table is exactly layout 1, so on such a
# file the step below only records the version.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    ("""CREATE TABLE IF NOT EXISTS games (
            id       TEXT PRIMARY KEY,
            kind     TEXT NOT NULL,
            created  REAL NOT NULL,
            updated  REAL NOT NULL,
            over     INTEGER NOT NULL DEFAULT 0,
            winner   TEXT,
            reason   TEXT,
            record   TEXT NOT NULL,
            meta     TEXT NOT NULL
        )""",
     "CREATE INDEX IF NOT EXISTS games_over ON games(over, updated)"),
)
VERSION = len(MIGRATIONS)

UPSERT = ("INSERT INTO games (id, kind, created, updated, over, winner, reason, record, meta) "
          "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET kind=excluded.kind, "
          "updated=excluded.updated, over=excluded.over, winner=excluded.winner, "
          "reason=excluded.reason, record=excluded.record, meta=excluded.meta")
GROUP = 64  # the most jobs taken at once (bounds one transaction; the rest go in the next)
THREADS = sys.platform not in ("emscripten", "wasi")  # a browser's worker (Pyodide) starts no threads
CACHE_KIB = 512  # SQLite's page cache: reads are by id, one row each; a bigger cache only grows with the file


class StoreError(Exception):
    """The games file cannot be opened or written (the message says which file and why)."""


@dataclass
class GameRow:
    id: str
    kind: str
    record: str
    meta: dict[str, Any] = field(default_factory=dict)
    over: bool = False
    winner: str | None = None
    reason: str | None = None
    created: float = 0.0
    updated: float = 0.0


def default_path() -> Path:
    """$TOYBATTLE_DB, else games.sqlite3 in the user's data directory (XDG on Linux)."""
    env = os.environ.get("TOYBATTLE_DB")
    if env:
        return Path(env).expanduser()
    if os.name == "nt":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif os.uname().sysname == "Darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "toybattle" / "games.sqlite3"


class WriterLock:
    """The one-writer lock of a games file: an OS lock on ``<file>.lock`` holding the holder's pid.

    The OS drops the lock when the process ends, even on ``kill -9``, so a stale lock file never
    keeps a server out; only a live holder does."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(f"{path}.lock")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = open(self.path, "a+")  # noqa: SIM115 - held open for the lock's whole life
        except OSError as e:
            raise StoreError(f"cannot lock the games file {path}: {e}") from None
        if not _try_lock(self._file):
            self._file.seek(0)
            holder = self._file.read().strip()[:20] or "unknown"
            self._file.close()
            raise StoreError(f"the games file {path} is in use by another toybattle program (process {holder}); "
                             "stop that one, or choose another file with --db")
        self._file.seek(0)
        self._file.truncate()
        self._file.write(f"{os.getpid()}\n")
        self._file.flush()

    def release(self) -> None:
        if not self._file.closed:
            self._file.close()  # closing the file releases the lock


def _try_lock(f: Any) -> bool:
    """Take an exclusive, non-blocking OS lock on the open file ``f``; False if another process holds it."""
    try:
        if sys.platform == "win32":
            import msvcrt
            f.seek(0)
            msvcrt.locking(f.fileno(), msvcrt.LK_NBLCK, 1)
        else:
            import fcntl
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


class _Job:
    """One piece of work for the writer thread: a row to write, or a read to run; ``done`` tells its outcome."""

    __slots__ = ("call", "done", "game_id", "params")

    def __init__(self, game_id: str = "", params: tuple[Any, ...] = (), call: Callable[[], Any] | None = None):
        self.game_id, self.params, self.call = game_id, params, call
        self.done: Future[Any] = Future()


class Store:
    """The games file. Safe to share between the event loop and worker threads (one lock)."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        self._lock = threading.Lock()
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        try:
            if str(self.path) != ":memory:":
                self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
            self._db.row_factory = sqlite3.Row
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")  # see the module docstring
            self._db.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
            self._migrate()
        except (OSError, sqlite3.Error, StoreError) as e:
            with contextlib.suppress(AttributeError, sqlite3.Error):
                self._db.close()
            if isinstance(e, StoreError):
                raise
            raise StoreError(f"cannot open the games file {self.path}: {e}") from None
        self._writer: threading.Thread | None = None
        if THREADS:
            self._writer = threading.Thread(target=self._work, name="toybattle-store", daemon=True)
            self._writer.start()

    def _migrate(self) -> None:
        while (version := self._user_version()) < VERSION:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                if self._user_version() == version:  # else another process took this step meanwhile
                    for statement in MIGRATIONS[version]:
                        self._db.execute(statement)
                    self._db.execute(f"PRAGMA user_version = {version + 1}")
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        if version > VERSION:
            raise StoreError(f"the games file {self.path} was written by a newer toybattle (layout {version}; "
                             f"this one knows up to {VERSION}): update toybattle to open it")

    def _user_version(self) -> int:
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    @property
    def version(self) -> int:
        """The file's layout version (``VERSION`` once opened)."""
        with self._lock:
            return self._user_version()

    def close(self) -> None:
        if self._writer is not None and self._writer.is_alive():
            self._jobs.put(None)
            self._writer.join()  # writes already handed over finish first
        with self._lock:
            self._db.close()

    def put(self, row: GameRow) -> None:
        """Insert or replace a game; the write is durable when this returns."""
        self._submit(_Job(row.id, self._params(row))).result()

    async def put_async(self, row: GameRow) -> None:
        """``put`` on the writer thread: the event loop runs on while the file is written, and this
        returns once the row is durable. The row is read now, so later changes to it are not part of
        this write."""
        await asyncio.wrap_future(self._submit(_Job(row.id, self._params(row))))

    async def get_async(self, game_id: str) -> GameRow | None:
        """``get`` on the writer thread (never waits for the file on the event loop), after every
        write handed over before it."""
        result: GameRow | None = await asyncio.wrap_future(self._submit(_Job(call=lambda: self.get(game_id))))
        return result

    async def unfinished_async(self, kind: str | None = None) -> list[GameRow]:
        """``unfinished`` on the writer thread."""
        result: list[GameRow] = await asyncio.wrap_future(self._submit(_Job(call=lambda: self.unfinished(kind))))
        return result

    def _submit(self, job: _Job) -> Future[Any]:
        if self._writer is None:  # no threads here: the job runs now, in turn
            self._run([job])
            return job.done
        if not self._writer.is_alive():
            raise StoreError(f"the games file {self.path} is closed")
        self._jobs.put(job)
        return job.done

    @staticmethod
    def _params(row: GameRow) -> tuple[Any, ...]:
        now = time.time()
        row.updated = now
        if not row.created:
            row.created = now
        return (row.id, row.kind, row.created, row.updated, int(row.over), row.winner, row.reason, row.record,
                json.dumps(row.meta, sort_keys=True))

    def _work(self) -> None:
        """The writer thread: takes every job waiting, in order; rows handed over together (one game's
        write waited for the disk while others queued) go to the file in one transaction: a group
        commit, one fsync for all of them. Each row's ``done`` is set only after that commit."""
        while True:
            jobs = [self._jobs.get()]
            with contextlib.suppress(queue.Empty):
                while len(jobs) < GROUP:
                    jobs.append(self._jobs.get_nowait())
            self._run([j for j in jobs if j is not None])
            if None in jobs:
                return

    def _run(self, jobs: list[_Job]) -> None:
        """Jobs in order; consecutive writes in one transaction."""
        for is_write, group in itertools.groupby(jobs, lambda j: j.call is None):
            if is_write:
                self._commit(list(group))
            else:
                for job in group:
                    _settle(job)

    def _commit(self, group: list[_Job]) -> None:
        try:
            with self._lock:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    for job in group:
                        self._db.execute(UPSERT, job.params)
                    self._db.execute("COMMIT")
                except BaseException:
                    with contextlib.suppress(sqlite3.Error):
                        self._db.execute("ROLLBACK")
                    raise
        except sqlite3.Error as e:  # nothing of the group is stored: each game is told so
            for job in group:
                _tell(job.done, error=StoreError(f"cannot write game {job.game_id} to {self.path}: {e}"))
            return
        for job in group:
            _tell(job.done)

    def get(self, game_id: str) -> GameRow | None:
        with self._lock:
            r = self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        return self._row(r) if r else None

    def unfinished(self, kind: str | None = None) -> list[GameRow]:
        """Every game not over yet (optionally of one kind), oldest first."""
        where = "WHERE over = 0" + (" AND kind = ?" if kind else "") + " ORDER BY updated"
        with self._lock:
            rows = self._db.execute(f"SELECT * FROM games {where}", (kind,) if kind else ()).fetchall()
        return [self._row(r) for r in rows]

    @staticmethod
    def _row(r: sqlite3.Row) -> GameRow:
        return GameRow(id=r["id"], kind=r["kind"], record=r["record"], meta=json.loads(r["meta"]),
                       over=bool(r["over"]), winner=r["winner"], reason=r["reason"], created=r["created"],
                       updated=r["updated"])


def _settle(job: _Job) -> None:
    """Run a read job on the writer thread; its caller gets the result, or the exception, as if it had called."""
    if job.done.cancelled():  # nobody waits for this read any more
        return
    try:
        result = job.call() if job.call else None
    except BaseException as e:
        _tell(job.done, error=e)
    else:
        _tell(job.done, result)


def _tell(done: Future[Any], result: Any = None, error: BaseException | None = None) -> None:
    """Settle a job's future, unless its caller stopped waiting (an awaiting task cancelled, e.g. a closed
    socket's): a cancelled future cannot be set, and the writer thread must never die of that. A write
    is stored either way; the game in memory has already moved on."""
    if not done.set_running_or_notify_cancel():
        return
    if error is not None:
        done.set_exception(error)
    else:
        done.set_result(result)
