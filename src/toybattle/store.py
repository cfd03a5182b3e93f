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
``WriterLock`` for their whole life (a ``flock`` on the file itself where it is safe, and an OS lock
on ``<file's real name>.lock``, which names the holder's process id), so a second program on the same
file, however it names it, stops at once instead of overwriting the first one's games.

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

from .said import Said

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
    """$TOYBATTLE_DB, else games.sqlite3 in the user's data folder (platformdirs: $XDG_DATA_HOME or
    ~/.local/share on Linux, ~/Library/Application Support on macOS, %APPDATA% on Windows), else a games file
    that toybattle's own rule (``legacy_data_dir``) put elsewhere, when there is one there and none here."""
    env = os.environ.get("TOYBATTLE_DB")
    if env:
        return Path(env).expanduser()
    import platformdirs  # here, not at the top: the browser's Python (Pyodide) opens its own file, never this one

    # roaming on Windows: %APPDATA%, where the games file always was
    path = platformdirs.user_data_path("toybattle", appauthor=False, roaming=True) / "games.sqlite3"
    # Where platformdirs and the rule toybattle used before it disagree (macOS with $XDG_DATA_HOME set, Android),
    # a games file that is only at the old place is still the one used, where it is: never moved or copied
    # behind the user's back; one at the new place wins.
    old = legacy_data_dir() / "games.sqlite3"
    if not path.exists() and old.exists():
        return old
    return path


def legacy_data_dir() -> Path:
    """Where toybattle kept the games file before it asked platformdirs (its own rule, per OS)."""
    if os.name == "nt":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif os.uname().sysname == "Darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "toybattle"


class WriterLock:
    """The one-writer lock of a games file, however the file is reached (a symlink, a hard link, a
    relative path from any working directory, a symlinked directory): two OS locks, held for the
    holder's whole life and dropped by the OS when it ends, even on ``kill -9`` (so a stale lock file
    never keeps a server out; only a live holder does).

    - ``flock`` on the games file itself (POSIX): tied to the file, not to any of its names, so it
      also catches a hard link. Used only where it leaves SQLite's own byte-range locks alone (Linux
      on a local disk); where it would not (the BSDs and macOS, NFS, SMB: there ``flock`` and
      ``fcntl`` locks meet, checked when the lock is taken) it is not taken.
    - a lock on ``<file>.lock`` next to the file's real name (symlinks and ``..`` resolved), with the
      holder's process id in it: every name but a hard link leads there, on every OS (Windows too).

    A second program stops with one line naming the holder's process (read from ``<file>.lock``, or,
    for a hard link, from ``/proc/locks`` on Linux)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self._file: Any = None
        self._games: int | None = None  # the games file's own descriptor, while it holds the flock
        self.path: Path | None = None  # <file's real name>.lock
        if str(path) == ":memory:":  # no file: nothing another process could reach
            return
        real = Path(os.path.realpath(path))
        self.path = Path(f"{real}.lock")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = open(self.path, "a+")  # noqa: SIM115 - held open for the lock's whole life
        except OSError as e:
            raise StoreError(Said("store.cannotLock", name=str(path), why=str(e))) from None
        holder = None
        if not _try_lock(self._file):
            self._file.seek(0)
            holder = self._file.read().strip()[:20] or "unknown"
        else:
            try:
                self._games = _lock_the_file(real)
            except BlockingIOError:  # the same file under another name (a hard link) is held
                holder = _flock_holder(real) or "unknown"
            except OSError as e:
                self._file.close()
                raise StoreError(Said("store.cannotLock", name=str(path), why=str(e))) from None
        if holder is not None:
            self._file.close()
            raise StoreError(Said("store.inUse", name=str(path), pid=holder))
        names = _names(real)
        if names > 1:
            # SQLite keeps its write-ahead log beside the name it opened: after a crash, a start under another
            # name of the same file would not see the last games saved under the first
            self.release()
            raise StoreError(Said("store.hardLinks", name=str(path), n=names))
        self._file.seek(0)
        self._file.truncate()
        self._file.write(f"{os.getpid()}\n")
        self._file.flush()

    def release(self) -> None:
        """Drops the lock (after the Store on this file is closed: closing a descriptor of the games file
        also ends this process's SQLite locks on it)."""
        if self._games is not None:
            os.close(self._games)  # closing it releases the flock
            self._games = None
        if self._file is not None and not self._file.closed:
            self._file.close()  # closing the file releases the lock


def _names(real: Path) -> int:
    """How many names (hard links) the file has (1 if it does not exist yet)."""
    try:
        return os.stat(real).st_nlink
    except OSError:
        return 1


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


PROBE = 1 << 40  # a byte SQLite never locks (its locks lie at 1 GiB) nor holds (a file's limit is far below)


def _lock_the_file(real: Path) -> int | None:
    """``flock`` the games file itself (created empty if missing, as SQLite would): its open descriptor,
    or None where such a lock cannot be had without touching SQLite's (Windows: mandatory locks; the
    BSDs, macOS, NFS, SMB: a ``flock`` there is a byte-range lock over the whole file, which would
    refuse this very process's SQLite). BlockingIOError if another process holds it."""
    if sys.platform == "win32":
        return None
    try:
        import fcntl
    except ImportError:  # a platform without it (a browser's Python): nothing to share the file with
        return None
    fd = os.open(real, os.O_RDONLY | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as e:
        os.close(fd)
        if isinstance(e, BlockingIOError):
            raise
        return None  # no flock on this file system (or none on a read-only descriptor): not taken
    try:  # would a byte-range lock of this process (as SQLite takes them) now be refused?
        fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB, 1, PROBE)
        fcntl.lockf(fd, fcntl.LOCK_UN, 1, PROBE)
    except OSError:  # it would: flock and fcntl locks meet here, so the file is not locked this way
        os.close(fd)  # (and no SQLite lock of this process is lost: the Store opens after this lock)
        return None
    return fd


def _flock_holder(real: Path) -> str | None:
    """The process holding a ``flock`` on this file, from ``/proc/locks`` (Linux; None elsewhere)."""
    try:
        st = os.stat(real)
        with open("/proc/locks") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    for line in lines:
        fields = line.split()  # 1: FLOCK  ADVISORY  WRITE 4321 fd:01:1234567 0 EOF
        if len(fields) < 6 or fields[1] != "FLOCK":  # "->" marks a waiter, not a holder
            continue
        dev = fields[5].split(":")
        try:
            same = (len(dev) == 3 and int(dev[0], 16) == os.major(st.st_dev)
                    and int(dev[1], 16) == os.minor(st.st_dev) and int(dev[2]) == st.st_ino)
        except ValueError:
            continue
        if same and fields[4].isdigit() and int(fields[4]) > 0:
            return fields[4]
    return None


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
            raise StoreError(Said("store.cannotOpen", name=str(self.path), why=str(e))) from None
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
            raise StoreError(Said("store.newer", name=str(self.path), n=version, m=VERSION))

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
            raise StoreError(Said("store.closed", name=str(self.path)))
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

    def delete(self, game_id: str) -> bool:
        """Remove a game from the file; True if it was there. Durable when this returns (after every
        write handed over before it)."""
        found: bool = self._submit(_Job(call=lambda: self._delete(game_id))).result()
        return found

    async def delete_async(self, game_id: str) -> bool:
        """``delete`` on the writer thread."""
        found: bool = await asyncio.wrap_future(self._submit(_Job(call=lambda: self._delete(game_id))))
        return found

    def _delete(self, game_id: str) -> bool:
        try:
            with self._lock:
                n = self._db.execute("DELETE FROM games WHERE id = ?", (game_id,)).rowcount
        except sqlite3.Error as e:
            raise StoreError(Said("store.cannotDelete", game=game_id, name=str(self.path), why=str(e))) from None
        return bool(n)

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
        """A stored row as a GameRow. A damaged or foreign row (meta that is no JSON object, a record that
        is no text) still comes back, with empty meta or record: its game then cannot be loaded (its
        loader refuses it) and nobody's token opens it, but every other game of the file is read."""
        try:
            meta = json.loads(r["meta"])
        except (TypeError, ValueError):
            meta = None
        record = r["record"]
        return GameRow(id=str(r["id"]), kind=str(r["kind"]), record=record if isinstance(record, str) else "",
                       meta=meta if isinstance(meta, dict) else {}, over=bool(r["over"]), winner=r["winner"],
                       reason=r["reason"], created=r["created"], updated=r["updated"])


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
