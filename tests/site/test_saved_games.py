"""'Your games' on the built static site (issue 24): drawn at once from what the browser kept, every game
listed; a game deleted (with a confirmation), saved as a record file and opened again; damaged entries in
localStorage, a damaged row of the games file and a full storage quota each cost one clear line, never the
other games."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from toybattle.rules import action_text, parse_record, setup_record
from toybattle.rules.state import deal

pytestmark = pytest.mark.slow

# the text of the games list when it is first drawn, whatever comes later
FIRST_LIST = """
new MutationObserver((_, obs) => {
  const l = document.querySelector('.game-list');
  if (l && l.children.length && window.__first === undefined) { window.__first = l.textContent; obs.disconnect(); }
}).observe(document, { subtree: true, childList: true });
"""
FILL = """() => { let k = 0;
  for (const size of [262144, 1024, 16]) {
    const s = 'x'.repeat(size);
    try { for (;;) localStorage.setItem('junk' + k++, s); } catch {}
  }
}"""
STORED = "JSON.parse(localStorage.getItem('tb.games') || '{}')"
# an edit of the games file's bytes as IndexedDB keeps them for the site (IDBFS at /data): `needle` -> `repl`
DAMAGE = """async ([needle, repl]) => {
  const db = await new Promise((ok, no) => {
    const r = indexedDB.open('/data'); r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error);
  });
  const tx = db.transaction('FILE_DATA', 'readwrite');
  const st = tx.objectStore('FILE_DATA');
  const v = await new Promise((ok) => { const r = st.get('/data/games.sqlite3'); r.onsuccess = () => ok(r.result); });
  const bytes = new Uint8Array(v.contents.buffer, v.contents.byteOffset, v.contents.byteLength);
  const n = new TextEncoder().encode(needle), m = new TextEncoder().encode(repl);
  let hits = 0;
  outer: for (let i = 0; i + n.length <= bytes.length; i++) {
    for (let j = 0; j < n.length; j++) if (bytes[i + j] !== n[j]) continue outer;
    bytes.set(m, i); hits++;
  }
  st.put(v, '/data/games.sqlite3');
  await new Promise((ok) => { tx.oncomplete = ok; });
  db.close();
  return hits;
}"""


def finished(seed: int, terrain: str) -> str:
    rng = random.Random(seed)
    first, orders = deal(rng)
    record = setup_record(terrain, False, first, orders)
    s = record.start.copy()
    while not s.over:
        a = s.sample_chance(rng) if s.is_chance else rng.choice(s.legal_actions())
        record.actions.append(action_text(a, s.b))
        s.apply(a)
    return record.text()


def summary(ply: int) -> dict:
    return {"terrain": "castle", "terrainName": "Castle Field", "kind": "bot", "ply": ply, "over": False,
            "turn": "blue", "offers": {}}


def test_the_list_is_drawn_from_what_the_browser_kept_and_survives_damaged_entries(site, recorded):
    page = recorded.page()
    page.goto(site + "/")
    page.wait_for_selector("#newgame")
    kept = {f"gone{k}": {"kind": "bot", "tokens": {"blue": f"t{k}"}, "created": 1000 + k, "summary": summary(k)}
            for k in range(15)}  # more than the old list's 12, none of them in the app's games file
    kept |= {"bad id!": {"kind": "bot", "tokens": {"blue": "x"}}, "notokens": {"kind": "bot"}, "list": [1, 2],
             "old": {"kind": "hotseat", "tokens": {"blue": "o1", "red": "o2"}}}  # an older version's entry: no summary
    page.evaluate("(v) => localStorage.setItem('tb.games', v)", json.dumps(kept))
    page.add_init_script(FIRST_LIST)
    page.reload()
    page.wait_for_selector(".game-item[data-id=gone14]")
    first = page.evaluate("window.__first")
    assert "move 14" in first and "Castle Field" in first, first  # from the kept summary: the app knows no such game
    ids = page.eval_on_selector_all(".game-item", "els => els.map(e => e.dataset.id)")
    assert ids == [f"gone{k}" for k in range(14, -1, -1)] + ["old"], ids  # every game, newest first
    assert page.inner_text("#games-note") == \
        "3 saved entries in this browser are not games this version can read: they are left as they are."
    # once the app answers: each game it does not know says so in one line, with its delete button
    page.wait_for_selector(".game-item[data-id=gone0] .error")
    line = page.inner_text(".game-item[data-id=old] .small")
    assert line.startswith("This game cannot be opened"), line
    page.get_by_role("button", name="Delete the game on Castle Field").first.click()
    page.click("#confirm-yes")
    page.wait_for_function("!document.querySelector('.game-item[data-id=gone14]')")
    stored = page.evaluate(STORED)
    assert "gone14" not in stored and "gone13" in stored and stored["list"] == [1, 2] and "bad id!" in stored
    # a value that is no JSON at all: one line, the page works, and a new game is saved beside a copy of it
    page.evaluate("localStorage.setItem('tb.games', '{oops')")
    page.reload()
    page.wait_for_selector("#games-note:not([hidden])")
    assert page.inner_text("#games-note").startswith("1 saved entry in this browser is not a game")
    assert page.locator(".game-item").count() == 0 and page.is_visible("#games-empty")
    page.set_input_files("#games-file", files=[{"name": "g.tbr", "mimeType": "text/plain",
                                                "buffer": finished(3, "castle").encode()}])
    page.wait_for_selector(".game-item")
    assert page.evaluate("localStorage.getItem('tb.games.damaged')") == "{oops"
    assert recorded.errors == []


def test_delete_export_import_a_damaged_row_and_a_full_quota(site, recorded):
    page = recorded.page()
    page.goto(site + "/")
    page.wait_for_selector("#games-import")
    # bad files: one line each, nothing listed
    for name, body, line in (("big.tbr", b"x" * 20_000, "That file is too big or empty"),
                             ("foreign.json", b'{"games": 1}', "That file is not a Toy Battle game record"),
                             ("illegal.tbr", finished(1, "castle").replace("actions\n", "actions\n7@41 ").encode(),
                              "this file is not a Toy Battle game record, or it does not replay")):
        page.set_input_files("#games-file", files=[{"name": name, "mimeType": "text/plain", "buffer": body}])
        page.wait_for_function("(l) => document.querySelector('#games-error').textContent.startsWith(l)", arg=line)
        page.evaluate("document.querySelector('#games-error').textContent = ''")
    assert page.locator(".game-item").count() == 0 and page.evaluate(STORED) == {}
    castle, pool = finished(11, "castle"), finished(12, "pool")
    for name, text in (("castle.tbr", castle), ("pool.tbr", pool)):
        n = page.locator(".game-item").count()
        page.set_input_files("#games-file", files=[{"name": name, "mimeType": "text/plain", "buffer": text.encode()}])
        page.wait_for_function(f"document.querySelectorAll('.game-item').length === {n + 1}")
    page.wait_for_selector(".game-item [data-export]")
    stored = page.evaluate(STORED)
    by_terrain = {e["summary"]["terrain"]: gid for gid, e in stored.items()}
    assert set(by_terrain) == {"castle", "pool"} and all(e["imported"] for e in stored.values())
    # export the castle game: the download is the same game, in the project's notation
    with page.expect_download() as got:
        page.click(f"[data-export='{by_terrain['castle']}']")
    download = got.value
    assert download.suggested_filename == f"toybattle-castle-{by_terrain['castle']}.tbr"
    text = Path(download.path()).read_text(encoding="utf-8")
    back, original = parse_record(text).replay(), parse_record(castle).replay()
    assert (back.ply, back.winner, back.reason, back.stacks) == (original.ply, original.winner, original.reason,
                                                                 original.stacks)
    # ... and it comes back as a third game, which can be replayed
    page.set_input_files("#games-file", files=[{"name": "a.tbr", "mimeType": "text/plain", "buffer": text.encode()}])
    page.wait_for_function("document.querySelectorAll('.game-item').length === 3")
    third = next(g for g in page.evaluate(STORED) if g not in stored)
    page.wait_for_selector(f".game-item[data-id='{third}'] a[href$='#/replay/{third}']")
    # delete it: asked first, then gone from the list, this browser and the app
    page.click(f"[data-delete='{third}']")
    assert "Castle Field" in page.inner_text("#sheet")
    page.click("#confirm-yes")
    page.wait_for_function(f"!document.querySelector(\".game-item[data-id='{third}']\")")
    assert third not in page.evaluate(STORED)
    # a damaged row of the games file: that game says so, the other is intact
    assert page.evaluate(DAMAGE, ["terrain pool", "terrain p0ol"]) == 1
    page.goto(site + "/?again")
    page.wait_for_selector(f".game-item[data-id='{by_terrain['pool']}'] .error")
    castle_item = f".game-item[data-id='{by_terrain['castle']}']"
    page.wait_for_selector(f"{castle_item} a[href$='#/replay/{by_terrain['castle']}']")
    assert "wins" in page.inner_text(castle_item)
    page.click(f"[data-delete='{by_terrain['pool']}']")
    page.click("#confirm-yes")
    page.wait_for_function("document.querySelectorAll('.game-item').length === 1")
    # this browser's storage full (localStorage filled to its quota): a game opened now cannot be kept in the
    # list, and one line in the page's language says so; the game already listed stays
    page.evaluate(FILL)
    page.set_input_files("#games-file", files=[{"name": "p.tbr", "mimeType": "text/plain", "buffer": pool.encode()}])
    page.wait_for_selector("#games-note:not([hidden])")
    page.wait_for_function("document.querySelector('#games-note').textContent.includes('storage for Toy Battle')")
    assert page.locator(".game-item").count() == 1 and page.locator(castle_item).count() == 1
    page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('junk')).forEach(k => localStorage.removeItem(k))"
                  )
    assert recorded.errors == []
