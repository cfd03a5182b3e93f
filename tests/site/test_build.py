"""`toybattle site` without a browser: what the build writes, what it refuses, and the in-process ASGI
bridge that the worker runs, here under CPython."""
from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from toybattle.site import assets
from toybattle.site.browser import serve


def build(out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "toybattle", "site", str(out)], capture_output=True, text=True,
                          timeout=900)


@pytest.mark.slow
def test_the_site_holds_every_file_it_needs_and_the_service_worker_lists_them(tmp_path):
    out = tmp_path / "www"
    assert build(out).returncode == 0
    sw = (out / "sw.js").read_text()
    files = sorted(json.loads(re.search(r"const FILES = (\{.*?\});\n", sw).group(1)))
    on_disk = sorted("/" + p.relative_to(out).as_posix() for p in out.rglob("*")
                     if p.is_file() and p.name not in ("sw.js", ".toybattle-site") and p.suffix != ".gz")
    assert files == on_disk
    assert "/static/site/crypto.js" in files  # imported by the worker, so cached with it
    for page in ("index.html", "learn/index.html"):
        assert '<meta name="toybattle-transport" content="worker">' in (out / page).read_text()
    # no file names another host (but XML namespaces, which are names, not addresses). Third-party files are
    # exempt: Pyodide's, and the comments of the noble modules (npm/), which cite RFCs, papers and bug trackers;
    # their code, without the comments, is still checked ("http://" in a string keeps its `//`: not a comment)
    comments = re.compile(r"/\*.*?\*/|(?<!:)//[^\n]*", re.S)
    for p in out.rglob("*"):
        if p.suffix in (".html", ".js", ".webmanifest", ".json") and "pyodide" not in p.parts:
            text = comments.sub("", p.read_text()) if "npm" in p.parts else p.read_text()
            assert not re.search(r"https?://(?!localhost|www\.w3\.org/2000/svg)", text), p
    with zipfile.ZipFile(out / "static/site" / json.loads((out / "static/site/site.json").read_text())["package"]) as z:
        names = z.namelist()
    assert "toybattle/rules/data/troops.json" in names and "toybattle/site/browser.py" in names
    assert "toybattle/online/mailbox/client.py" in names  # online rooms run in the browser too


@pytest.mark.slow
def test_a_rebuild_changes_the_version_only_when_a_file_changes(tmp_path):
    out = tmp_path / "www"
    assert build(out).returncode == 0
    first = (out / ".toybattle-site").read_text()
    assert build(out).returncode == 0
    assert (out / ".toybattle-site").read_text() == first


def test_it_refuses_a_directory_it_did_not_build(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    done = build(tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith("toybattle site: ") and "not empty" in done.stderr
    assert "Traceback" not in done.stderr
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_a_cached_asset_that_does_not_match_its_checksum_is_deleted(tmp_path):
    bad = tmp_path / "starlette.whl"
    bad.write_bytes(b"not the pinned wheel")
    assert not assets._verified(bad, assets.WHEELS[0].sha256)
    assert not bad.exists()


def test_the_bridge_serves_the_apps_http_api_and_websocket_and_saves_every_write(tmp_path):
    async def run() -> None:
        out: list[dict] = []
        saves: list[int] = []
        bridge = await serve(str(tmp_path / "games.sqlite3"), out.append, lambda: saves.append(1), bot_delay=0.01)
        meta = await bridge.http("GET", "/api/meta", [], "")
        assert meta["status"] == 200 and "terrains" in json.loads(meta["body"])
        bad = await bridge.http("POST", "/api/games", [("content-type", "application/json")], "[1]")
        assert bad["status"] == 400 and json.loads(bad["body"]) == {"error": "send a JSON object"}
        # online rooms are served; a room's state needs its seat's token, like on the desktop app
        assert (await bridge.http("GET", "/api/online/x", [], ""))["status"] == 404
        made = await bridge.http("POST", "/api/games", [("content-type", "application/json")],
                                 json.dumps({"kind": "bot", "level": "random", "first": "blue"}))
        game = json.loads(made["body"])
        assert saves
        bridge.ws_open(1, "/ws")
        bridge.ws_receive(1, json.dumps({"type": "hello", "game": game["game"], "token": game["tokens"]["blue"]}))
        for _ in range(100):
            if any('"type": "view"' in m.get("data", "") for m in out):
                break
            await asyncio.sleep(0.01)
        assert out[0] == {"t": "ws-open", "sock": 1}
        view = json.loads(next(m["data"] for m in out if '"type": "view"' in m.get("data", "")))["view"]
        assert view["game"]["id"] == game["game"]
        bridge.ws_close(1)
        bridge.stop()
    asyncio.run(run())


@pytest.fixture(autouse=True)
def _assets_cached() -> None:
    try:
        assets.ensure()
    except assets.AssetError as e:
        pytest.fail(f"site assets cannot be fetched: {e}")


def test_a_damaged_games_file_is_set_aside_said_and_a_new_one_started(tmp_path):
    """Browser storage holding a games file that is not one (damaged, or foreign bytes): the site's app starts
    anyway on a new file, keeps the old bytes under another name, and tells the page in one line."""
    db = tmp_path / "games.sqlite3"
    junk = b"this is not an SQLite database, only bytes a damaged storage left " * 100
    db.write_bytes(junk)

    async def run() -> list[dict]:
        out: list[dict] = []
        bridge = await serve(str(db), out.append, lambda: None, bot_delay=0.01)
        made = await bridge.http("POST", "/api/games", [("content-type", "application/json")],
                                 json.dumps({"kind": "bot", "level": "random"}))
        assert made["status"] == 200, made
        bridge.stop()
        return out

    said = asyncio.run(run())
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("games.sqlite3.set-aside-")]
    assert len(aside) == 1 and aside[0].read_bytes() == junk  # kept, byte for byte
    assert said[0] == {"t": "status", "line": "damaged", "params": {"file": aside[0].name}}
    assert db.read_bytes()[:16] == b"SQLite format 3\0"  # the new games file holds the new game
