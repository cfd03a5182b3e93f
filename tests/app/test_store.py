"""The games file: versioned layout with migrations, a toybattle 0.1 file opened and brought up to date,
a newer or broken file refused in one line, and every write committed with synchronous=FULL."""
from __future__ import annotations

import json
import sqlite3

import pytest
from starlette.testclient import TestClient

from toybattle import store as store_module
from toybattle.app.server import build_app
from toybattle.rules import setup_record
from toybattle.rules.state import deal
from toybattle.said import of_error, say
from toybattle.store import VERSION, GameRow, Store, StoreError

# The games table exactly as toybattle 0.1 created it (it set no user_version).
V01_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       TEXT PRIMARY KEY,
    kind     TEXT NOT NULL,
    created  REAL NOT NULL,
    updated  REAL NOT NULL,
    over     INTEGER NOT NULL DEFAULT 0,
    winner   TEXT,
    reason   TEXT,
    record   TEXT NOT NULL,
    meta     TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_over ON games(over, updated);
"""


def v01_file(path) -> dict:
    """A games file as toybattle 0.1 left it, holding one unfinished hot-seat game; its row's meta."""
    first, orders = deal(5)
    record = setup_record("castle", False, first, orders)
    meta = {"tokens": {"blue": "tok-blue", "red": "tok-red"},
            "settings": {"kind": "hotseat", "terrain": "castle", "first_game": False, "first": "random",
                         "human": "blue", "level": None}}
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.executescript(V01_SCHEMA)
    db.execute("INSERT INTO games (id, kind, created, updated, over, winner, reason, record, meta) "
               "VALUES (?, ?, ?, ?, 0, NULL, NULL, ?, ?)",
               ("old01", "hotseat", 1.0, 2.0, record.text(), json.dumps(meta, sort_keys=True)))
    db.commit()
    assert db.execute("PRAGMA user_version").fetchone()[0] == 0
    db.close()
    return meta


def user_version(path) -> int:
    db = sqlite3.connect(path)
    try:
        return db.execute("PRAGMA user_version").fetchone()[0]
    finally:
        db.close()


def test_a_0_1_file_opens_migrates_and_its_game_plays_on(tmp_path):
    path = tmp_path / "games.sqlite3"
    meta = v01_file(path)
    s = Store(path)
    assert s.version == VERSION >= 1
    row = s.get("old01")
    assert row is not None and row.kind == "hotseat" and row.meta == meta and not row.over
    assert [r.id for r in s.unfinished()] == ["old01"] and row.created == 1.0
    with TestClient(build_app(s, bot_delay=0, resume=False), base_url="http://127.0.0.1") as client:
        r = client.get("/api/games/old01", params={"token": "tok-blue"})
        assert r.status_code == 200 and r.json()["seat"] == "blue", r.text
    s.put(GameRow(id="new01", kind="bot", record=row.record, meta={"x": 1}))
    s.close()
    assert user_version(path) == VERSION
    again = Store(path)  # opening an up-to-date file changes nothing
    assert again.version == VERSION and {r.id for r in again.unfinished()} == {"old01", "new01"}
    again.close()


def test_a_file_from_a_newer_toybattle_is_refused_untouched(tmp_path):
    path = tmp_path / "games.sqlite3"
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {VERSION + 1}")
    db.close()
    with pytest.raises(StoreError, match="newer toybattle") as refused:
        Store(path)
    assert user_version(path) == VERSION + 1
    # said in the user's language where it is shown (the command line, the app)
    assert say(of_error(refused.value), "fr").startswith(f"le fichier des parties {path} a été écrit par un toybattle "
                                                         "plus récent")


def test_a_file_that_is_not_a_games_file_is_refused_in_one_line(tmp_path):
    path = tmp_path / "games.sqlite3"
    path.write_text("not a database\n" * 100)
    with pytest.raises(StoreError, match="cannot open the games file") as e:
        Store(path)
    assert "\n" not in str(e.value)


def test_a_failing_migration_changes_nothing_and_a_later_one_applies(tmp_path, monkeypatch):
    path = tmp_path / "games.sqlite3"
    v01_file(path)
    Store(path).close()
    broken = (("CREATE TABLE extra (x)", "INSERT INTO no_such_table VALUES (1)"),)
    monkeypatch.setattr(store_module, "MIGRATIONS", store_module.MIGRATIONS + broken)
    monkeypatch.setattr(store_module, "VERSION", VERSION + 1)
    with pytest.raises(StoreError, match="no_such_table"):
        Store(path)
    assert user_version(path) == VERSION
    db = sqlite3.connect(path)
    assert db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'extra'").fetchone()[0] == 0
    db.close()
    monkeypatch.setattr(store_module, "MIGRATIONS", store_module.MIGRATIONS[:-1] + (
        ("ALTER TABLE games ADD COLUMN note TEXT",),))
    s = Store(path)
    assert s.version == VERSION + 1 and s.get("old01") is not None
    s.close()


def test_every_write_is_committed_with_synchronous_full(tmp_path):
    s = Store(tmp_path / "games.sqlite3")
    assert s._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL: see docs/benchmarks.md
    assert s._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    s.close()


def test_rows_that_queue_up_are_written_in_one_commit_and_each_is_told_only_after_it(tmp_path):
    """Group commit: while the file is busy, writes queue; they then go in one transaction, and no
    writer hears "stored" before the COMMIT that holds its row."""
    import asyncio

    s = Store(tmp_path / "games.sqlite3")
    trace: list[str] = []
    s._db.set_trace_callback(trace.append)  # the writer thread's statements, in order

    async def main() -> None:
        holder = sqlite3.connect(str(s.path), timeout=0, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")  # the disk is "busy": the first write waits for it

        async def write(n: int) -> None:
            await s.put_async(GameRow(id=f"g{n}", kind="hotseat", record=f"record {n}"))
            trace.append(f"told g{n}")

        tasks = [asyncio.create_task(write(n)) for n in range(20)]
        await asyncio.sleep(0.5)
        assert not any(t.done() for t in tasks)  # nothing is acknowledged while nothing is stored
        holder.execute("COMMIT")
        holder.close()
        await asyncio.gather(*tasks)

    asyncio.run(main())
    commits = [i for i, line in enumerate(trace) if line == "COMMIT"]
    assert 1 <= len(commits) <= 3, trace  # 20 rows, at most the first alone and then the rest together
    for n in range(20):
        inserted = next(i for i, line in enumerate(trace) if line.startswith("INSERT") and f"'g{n}'" in line)
        committed = next(i for i in commits if i > inserted)
        assert trace.index(f"told g{n}") > committed, trace
    other = sqlite3.connect(str(s.path))  # durable: another connection reads every row
    assert other.execute("SELECT count(*) FROM games").fetchone()[0] == 20
    other.close()
    s.close()


def test_a_failed_commit_tells_each_writer_and_stores_none_of_the_group(tmp_path):
    import asyncio

    s = Store(tmp_path / "games.sqlite3")
    s._db.execute("PRAGMA busy_timeout = 200")

    async def main() -> list[BaseException | None]:
        holder = sqlite3.connect(str(s.path), timeout=0, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        try:
            return await asyncio.gather(*(s.put_async(GameRow(id=f"g{n}", kind="hotseat", record="r"))
                                          for n in range(5)), return_exceptions=True)
        finally:
            holder.execute("COMMIT")
            holder.close()

    outcomes = asyncio.run(main())
    assert all(isinstance(e, StoreError) and "database is locked" in str(e) for e in outcomes), outcomes
    assert s.get("g0") is None
    s.put(GameRow(id="g0", kind="hotseat", record="r"))  # the file is free again: writes go on
    assert s.get("g0") is not None
    s.close()


def test_a_writer_that_stops_waiting_leaves_the_writer_thread_working(tmp_path):
    """A task awaiting put_async can be cancelled (its socket closed) while its row waits for the disk:
    the row is still stored, and the writer thread lives on for every later write."""
    import asyncio

    s = Store(tmp_path / "games.sqlite3")

    async def main() -> None:
        holder = sqlite3.connect(str(s.path), timeout=0, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")  # the disk is busy: the writes below queue behind the first
        first = asyncio.create_task(s.put_async(GameRow(id="g0", kind="hotseat", record="r")))
        tasks = [asyncio.create_task(s.put_async(GameRow(id=f"g{n}", kind="hotseat", record="r")))
                 for n in range(1, 4)]
        read = asyncio.create_task(s.get_async("g0"))
        await asyncio.sleep(0.3)
        for task in (*tasks, read):
            task.cancel()
        holder.execute("COMMIT")
        holder.close()
        await first
        await asyncio.gather(*tasks, read, return_exceptions=True)
        await s.put_async(GameRow(id="later", kind="hotseat", record="r"))  # would hang if the thread had died

    asyncio.run(asyncio.wait_for(main(), 30))
    assert s._writer is not None and s._writer.is_alive()
    assert all(s.get(f"g{n}") is not None for n in range(4)) and s.get("later") is not None
    s.close()


def test_without_threads_every_job_runs_in_turn(tmp_path, monkeypatch):
    """A browser's worker (Pyodide) starts no threads: the store then does each job at once."""
    import asyncio

    monkeypatch.setattr(store_module, "THREADS", False)
    s = Store(tmp_path / "games.sqlite3")
    assert s._writer is None

    async def main() -> None:
        await s.put_async(GameRow(id="g1", kind="hotseat", record="r"))
        assert (await s.get_async("g1")).record == "r"
        assert [r.id for r in await s.unfinished_async("hotseat")] == ["g1"]

    asyncio.run(main())
    s.put(GameRow(id="g2", kind="hotseat", record="r2"))
    assert s.get("g2").record == "r2"
    s.close()
