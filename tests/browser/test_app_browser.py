"""The app in a real browser (Debian's chromium, headless): whole games through the UI.

Every step waits for a state of the page (the board's ply, the actor, an overlay), never for time.
Screenshots go to test-artifacts/browser/.
"""
from __future__ import annotations

import json
import random
import re

import pytest

pytestmark = pytest.mark.slow  # some tests take their page by name (getfixturevalue), unseen by the marker hook

BOARD_READY = "document.querySelector('#board') && document.querySelector('#board').dataset.ply !== undefined"
ME_TURN = "(() => { const p = document.querySelector('#play'); return p && p.dataset.seat && " \
          "!document.querySelector('#cover') && (p.dataset.over === '1' || p.dataset.actor === p.dataset.seat); })()"


def start_game(page, base: str, kind: str = "bot", terrain: str = "castle", level: str | None = "random",
               first: str = "blue") -> None:
    page.goto(base + "/")
    page.wait_for_selector("#newgame")
    page.locator(f"#newgame input[name=kind][value={kind}]").check(force=True)
    page.select_option("#terrain", terrain)
    if level:
        page.select_option("#level", level)
    page.locator(f"#newgame input[name=first][value={first}]").check(force=True)
    page.click("#start")
    page.wait_for_selector("#play")
    page.wait_for_function(BOARD_READY)


def ply(page) -> str:
    return page.eval_on_selector("#board", "b => b.dataset.ply")


def wait_change(page, before: str) -> None:
    page.wait_for_function(
        "([p]) => { const b = document.querySelector('#board'); const t = document.querySelector('#toast');"
        " return (b && b.dataset.ply !== p) || (t && !t.classList.contains('hidden'))"
        " || document.querySelector('#cover'); }",
        arg=[before])


def targets(page) -> list[tuple[int, float]]:
    """Highlighted nodes and their height on screen (lower = nearer the top)."""
    return page.eval_on_selector_all("#board g.node.target",
                                     "gs => gs.map(g => [Number(g.dataset.node), g.getBoundingClientRect().y])")


def tap_node(page, node: int) -> None:
    page.locator(f'#board g.node[data-node="{node}"] circle.hit').click()


def play_one(page, rng: random.Random, avoid: tuple[str, ...] = ()) -> None:
    """One decision for the seat on screen, through the UI: push toward the enemy H.Q. (the top); never
    placing a troop whose code is in ``avoid``."""
    before = ply(page)
    if page.locator("#btn-use").count():
        page.click("#btn-use" if rng.random() < 0.8 or not page.locator("#btn-skip").count() else "#btn-skip")
    elif page.locator("#buttons [data-action^='recover:']").count():
        page.locator("#buttons [data-action^='recover:']").first.click()
    elif targets(page):  # Jumbo, tower recall, bridge shove: tap a highlighted node (two taps for a shove)
        node = min(targets(page), key=lambda t: t[1])[0]
        tap_node(page, node)
        if page.eval_on_selector("#play", "p => p.dataset.decision") == "jungle_shove" and ply(page) == before:
            page.wait_for_function("document.querySelectorAll('#board g.node.target').length > 0")
            tap_node(page, min(targets(page), key=lambda t: t[1])[0])
    else:
        but = "".join(f':not([data-troop="{c}"])' for c in avoid)
        tiles = page.locator(f"#rack .rack-tile:not(.stuck):not(.laid){but}")
        if tiles.count() and (rng.random() < 0.85 or not page.locator("#btn-draw").count()):
            tiles.nth(rng.randrange(tiles.count())).click()
            page.wait_for_selector("#board g.node.target")
            node = min(targets(page), key=lambda t: t[1])[0]
            tap_node(page, node)
        elif page.locator("#btn-draw").count():
            page.click("#btn-draw")
        else:
            page.click("#btn-skip")
    wait_change(page, before)


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def small_targets(page) -> list[str]:
    """Visible interactive things smaller than 40 px on either side (the board's bases: 32 px)."""
    return page.evaluate("""() => [...document.querySelectorAll(
        'button, a.btn, select, .seg-opt span, #board circle.hit')]
      .filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; })
      .filter(e => { const r = e.getBoundingClientRect(); const least = e.matches('#board circle.hit') ? 32 : 39.5;
                     return r.width < least || r.height < least; })
      .map(e => e.outerHTML.slice(0, 80))""")


def cut_texts(page) -> list[str]:
    """Visible buttons whose text does not fit inside them (cut off at a side)."""
    return page.evaluate("""() => [...document.querySelectorAll('button, a.btn')]
      .filter(e => e.getBoundingClientRect().width > 0)
      .filter(e => e.scrollWidth > e.clientWidth + 1)
      .map(e => e.textContent.slice(0, 40))""")


def record_socket(page) -> list[tuple[str, dict]]:
    """Every websocket message the page sends ("sent") and receives ("received"), in order."""
    frames: list[tuple[str, dict]] = []

    def watch(ws) -> None:
        ws.on("framesent", lambda payload: frames.append(("sent", json.loads(payload))))
        ws.on("framereceived", lambda payload: frames.append(("received", json.loads(payload))))
    page.on("websocket", watch)
    return frames


def only_offered_actions_sent(frames: list[tuple[str, dict]]) -> int:
    """Check that every action the page sent is one the last view offered it, as text; their number."""
    offered: list[str] = []
    sent = 0
    for way, msg in frames:
        if way == "received" and msg.get("type") == "view":
            offered = (msg["view"].get("legal") or {}).get("actions", [])
        elif way == "sent" and msg.get("type") == "act":
            assert msg["action"] in offered, (msg, offered)
            sent += 1
    return sent


def play_to_the_end(page, rng: random.Random) -> None:
    """Tap this seat's moves (play_one) until the game is over and its end screen shows."""
    for _ in range(300):
        page.wait_for_function(ME_TURN)
        if page.eval_on_selector("#play", "p => p.dataset.over") == "1":
            break
        play_one(page, rng)
    page.wait_for_selector("#endscreen")


def play_bot_game_to_the_end(page, base: str, shot, name: str, seed: int) -> None:
    frames = record_socket(page)
    start_game(page, base, terrain="caribbean", level="random")
    rng = random.Random(seed)
    shot(page, f"{name}-start")
    for n in range(300):
        page.wait_for_function(ME_TURN)
        if page.eval_on_selector("#play", "p => p.dataset.over") == "1":
            break
        if n == 3:
            shot(page, f"{name}-mid")
            assert no_horizontal_scroll(page)
            assert small_targets(page) == []
        play_one(page, rng)
    page.wait_for_selector("#endscreen")
    assert page.locator("#end-title").inner_text().strip()
    assert "win" in page.locator("#end-title").inner_text() and page.locator("#end-reason").inner_text().strip()
    shot(page, f"{name}-end")
    assert no_horizontal_scroll(page)
    log = page.evaluate("document.querySelector('#side-log').textContent + ' ' + "
                        "document.querySelector('#ticker').textContent")
    assert "You place " in log and not re.search(r"\bYou (places|draws|uses|skips|takes|moves|wins|concedes)\b", log)
    assert page.js_errors == []
    assert only_offered_actions_sent(frames) >= 5  # the page composes no action: it sends the view's texts


def test_bot_game_to_the_end_on_a_phone(phone, live_server, shot):
    play_bot_game_to_the_end(phone, live_server.url, shot, "phone-bot", 1)
    # the finished game can be replayed step by step
    phone.click("#btn-replay")
    phone.wait_for_selector("#replay-slider")
    last = phone.input_value("#replay-slider")
    phone.click("#replay-prev")
    assert phone.input_value("#replay-slider") == str(int(last) - 1)
    assert phone.locator("#replay-step").inner_text().startswith(f"Step {int(last) - 1}")
    shot(phone, "phone-replay")


def test_bot_game_to_the_end_on_a_desktop(desktop, live_server, shot):
    play_bot_game_to_the_end(desktop, live_server.url, shot, "desktop-bot", 2)
    desktop.click("#btn-rematch")  # a rematch opens a fresh game
    desktop.wait_for_function("(() => { const b = document.querySelector('#board');"
                              " return b && (b.dataset.ply === '0' || b.dataset.actor === 'red'); })()")
    assert not desktop.locator("#endscreen").count()


def test_hot_seat_covers_the_screen_between_turns(phone, live_server, shot):
    start_game(phone, live_server.url, kind="hotseat", terrain="castle", level=None, first="blue")
    phone.wait_for_function(ME_TURN)
    assert phone.eval_on_selector("#play", "p => p.dataset.seat") == "blue"
    phone.wait_for_selector("#rack .tile.blue")
    assert phone.locator("#rack .tile.red").count() == 0
    rng = random.Random(3)
    for turn in range(6):
        seat = phone.eval_on_selector("#play", "p => p.dataset.seat")
        while phone.eval_on_selector("#play", "p => p.dataset.actor") == seat and not phone.locator("#cover").count():
            play_one(phone, rng)
        phone.wait_for_selector("#cover")
        nxt = "red" if seat == "blue" else "blue"
        assert phone.locator("#cover h2").inner_text() == f"{nxt.capitalize()}'s turn"
        # the cover hides everything: nothing of either rack can be seen or tapped
        box = phone.locator("#cover").bounding_box()
        assert box["width"] >= 389 and box["height"] >= 843
        if turn == 0:
            shot(phone, "hotseat-cover")
        phone.click("#cover-go")
        phone.wait_for_function(f"document.querySelector('#play').dataset.seat === '{nxt}'"
                                " && !document.querySelector('#cover')")
        if turn == 0:
            # red's own rack is shown now, none of blue's tiles (faces alone could match by chance)
            phone.wait_for_selector("#rack .tile.red")
            assert phone.locator("#rack .tile.blue").count() == 0
            shot(phone, "hotseat-red")
            # red's own H.Q. is at the bottom: the board is turned
            hq = phone.eval_on_selector_all(
                "#board g.node.hq", "gs => gs.map(g => [g.classList.contains('red'), g.getBoundingClientRect().y])")
            red_y = next(y for red, y in hq if red)
            blue_y = next(y for red, y in hq if not red)
            assert red_y > blue_y
    assert phone.js_errors == []


def test_reload_mid_game_resumes(phone, live_server, shot):
    start_game(phone, live_server.url, terrain="castle", level="random")
    rng = random.Random(4)
    for _ in range(3):
        phone.wait_for_function(ME_TURN)
        play_one(phone, rng)
    phone.wait_for_function(ME_TURN)
    before = (ply(phone), phone.locator("#rack").inner_text())
    url = phone.url
    phone.reload()
    phone.wait_for_function(ME_TURN)
    assert phone.url == url
    assert (ply(phone), phone.locator("#rack").inner_text()) == before
    shot(phone, "reload-resumed")
    # the home screen lists the game, and it resumes from there too
    phone.goto(live_server.url + "/")
    phone.wait_for_selector(".game-item a.btn.primary")
    phone.locator(".game-item a.btn.primary").first.click()
    phone.wait_for_function(ME_TURN)
    assert ply(phone) == before[0]


def test_a_refused_tap_says_which_rule_refuses_it(desktop, live_server, shot):
    start_game(desktop, live_server.url, terrain="castle", level="random", first="blue")
    desktop.wait_for_function(ME_TURN)
    desktop.locator('#rack .rack-tile:not([data-troop="4"])').first.click()  # Hook could go anywhere
    tap_node(desktop, 1)  # blue's own H.Q.
    desktop.wait_for_selector("#toast:not(.hidden)")
    assert desktop.locator("#toast").inner_text() == "your own H.Q."
    assert desktop.locator("#rack .rack-tile.picked").count() == 1  # still picked after a refusal
    tap_node(desktop, 22)  # far from the H.Q.
    desktop.wait_for_function("document.querySelector('#toast').innerText === 'no path from your H.Q.'")
    shot(desktop, "desktop-refusal")
    # any node can be read: its card shows in the side panel
    desktop.locator('#board g.node[data-node="15"] circle.hit').hover()
    desktop.wait_for_function("document.querySelector('#side-card').innerText.includes('Catapult tower')")


def test_troops_and_terrains_are_readable(small_phone, live_server, shot):
    start_game(small_phone, live_server.url, terrain="pool", level="random")
    small_phone.wait_for_function(ME_TURN)
    shot(small_phone, "small-phone-pool")
    assert no_horizontal_scroll(small_phone)
    assert small_targets(small_phone) == []
    assert cut_texts(small_phone) == []
    small_phone.click("#menu-btn")  # on a phone the troops' cards are in the menu
    small_phone.click("#menu-troops")
    small_phone.wait_for_selector("#sheet .troop-card")
    assert small_phone.locator("#sheet .troop-card").count() == 8
    assert "whatever its strength" in small_phone.locator("#sheet").inner_text()
    small_phone.goto(live_server.url + "/#/troops")
    small_phone.wait_for_selector(".terrain-card")
    assert small_phone.locator(".terrain-card").count() == 9
    assert no_horizontal_scroll(small_phone)
    shot(small_phone, "small-phone-troops", full_page=True)


@pytest.mark.parametrize("viewport", ["small_phone", "desktop"])
def test_home_screen_offers_a_bot_game_on_castle_field(viewport, request, live_server, shot):
    page = request.getfixturevalue(viewport)
    page.goto(live_server.url + "/")
    page.wait_for_selector("#newgame")
    assert page.input_value("#terrain") == "castle"
    assert page.locator("#newgame input[name=kind][value=bot]").is_checked()
    assert no_horizontal_scroll(page)
    shot(page, f"{viewport}-home", full_page=True)


def test_two_devices_each_see_only_their_own_rack(desktop, phone, live_server, shot):
    start_game(desktop, live_server.url, kind="lan", terrain="castle", level=None, first="blue")
    desktop.wait_for_selector("#invite-url")  # the host's page offers the join link and its QR code
    assert desktop.locator("#sheet .qr svg").count() == 1
    shot(desktop, "lan-invite")
    link = desktop.get_attribute("#invite-url", "href")
    desktop.click("#sheet .close")
    phone.goto(link)
    phone.wait_for_function("document.querySelector('#play') && document.querySelector('#play').dataset.seat === 'red'")
    assert "/join/" not in phone.url  # the token left the address bar
    # each device shows its own seat's tiles (so the per-move check below cannot pass on an empty selector)
    desktop.wait_for_selector("#rack .tile.blue")
    phone.wait_for_selector("#rack .tile.red")
    rng = random.Random(6)
    for _ in range(8):
        for page in (desktop, phone):
            page.wait_for_function(BOARD_READY)
        actor = desktop if desktop.eval_on_selector("#play", "p => p.dataset.actor") == "blue" else phone
        other = phone if actor is desktop else desktop
        actor.wait_for_function(ME_TURN)
        before = ply(other)
        play_one(actor, rng)
        other.wait_for_function("([p]) => document.querySelector('#board').dataset.ply !== p", arg=[before])
        # the racks shown are each seat's own: blue shields on one device, red houses on the other
        assert desktop.locator("#rack .tile.red").count() == 0 and phone.locator("#rack .tile.blue").count() == 0
        assert ply(desktop) == ply(phone)
    shot(phone, "lan-guest")
    assert desktop.js_errors == [] and phone.js_errors == []


def _seed_decision(store, terrain: str, decision: int):
    """A hot-seat game stored at a moment where ``decision`` is due (found by playing seeded random games)."""
    from toybattle.rules import action_text
    from toybattle.rules.notation import seeded_orders, setup_record
    from toybattle.rules.state import State
    from toybattle.store import GameRow
    for seed in range(500):
        first, orders = seeded_orders(seed)
        s = State.new(terrain, False, first, orders)
        rng = random.Random(seed)
        texts = []
        while not s.over and s.decision != decision and len(texts) < 200:
            a = s.sample_chance(rng) if s.is_chance else rng.choice(s.legal_actions())
            texts.append(action_text(a, s.b))
            s.apply(a)
        if s.decision == decision:
            rec = setup_record(terrain, False, first, orders)
            rec.actions = texts
            row = GameRow(id=f"seed{terrain}{decision}{seed}", kind="hotseat", record=rec.text(),
                          meta={"tokens": {"blue": f"tb{seed}" * 6, "red": f"tr{seed}" * 6}})
            store.put(row)
            return row, s
    raise AssertionError("no game reached that decision")


def _open_seeded(page, base, row, seat):
    tokens, other = row.meta["tokens"], "red" if seat == "blue" else "blue"
    page.goto(base + "/")
    tokens, other = row.meta["tokens"], "red" if seat == "blue" else "blue"
    page.evaluate("([id, tokens]) => localStorage.setItem('tb.games',"
                  " JSON.stringify({[id]: {kind: 'hotseat', tokens}}))",
                  [row.id, {seat: tokens[seat], other: tokens[other]}])  # the page's seat first
    page.goto(base + f"/#/game/{row.id}")
    page.wait_for_function(ME_TURN)


@pytest.mark.parametrize("terrain,decision,name", [("jungle", 8, "shove"), ("castle", 5, "jumbo"),
                                                    ("castle", 6, "recall"), ("cemetery", 9, "recover")])
def test_effect_decisions_are_taken_by_tapping(terrain, decision, name, phone, live_server, shot):
    row, s = _seed_decision(live_server.store, terrain, decision)
    _open_seeded(phone, live_server.url, row, ["blue", "red"][s.turn])
    assert phone.eval_on_selector("#play", "p => p.dataset.decision") == {
        8: "jungle_shove", 5: "jumbo_target", 6: "castle_recall", 9: "cemetery_recover"}[decision]
    shot(phone, f"decision-{name}")
    before = ply(phone)
    if name == "recover":
        phone.locator("#buttons [data-action^='recover:']").first.click()
    else:
        first = targets(phone)[0][0]
        tap_node(phone, first)
        if name == "shove":
            phone.wait_for_function(f"document.querySelector('#board g.node.selected[data-node=\"{first}\"]')")
            tap_node(phone, targets(phone)[0][0])
    phone.wait_for_function("([p]) => document.querySelector('#board').dataset.ply !== p"
                            " || document.querySelector('#cover')", arg=[before])
    from toybattle.rules import parse_record
    last = parse_record(live_server.store.get(row.id).record).actions[-1]
    assert last.startswith({"shove": "shove@", "jumbo": "jumbo@", "recall": "recall@", "recover": "recover:"}[name])


@pytest.mark.parametrize("decision,name", [(4, "xb42"), (10, "battlefield")])
def test_effect_buttons_fit_on_a_small_phone(decision, name, small_phone, live_server, shot):
    row, s = _seed_decision(live_server.store, "battlefield", decision)
    _open_seeded(small_phone, live_server.url, row, ["blue", "red"][s.turn])
    small_phone.wait_for_selector("#btn-use")
    shot(small_phone, f"small-phone-{name}")
    assert cut_texts(small_phone) == []
    assert no_horizontal_scroll(small_phone)


def test_the_side_card_follows_the_board(desktop, live_server, shot):
    """The card of the base last pointed at is rebuilt from every new view, so it never shows a
    board that has changed (here: the base is filled while the pointer is elsewhere)."""
    start_game(desktop, live_server.url, terrain="castle", level="random", first="blue")
    desktop.wait_for_function(ME_TURN)
    desktop.locator("#rack .rack-tile:not(.stuck)").first.click()
    desktop.wait_for_selector("#board g.node.target")
    node = targets(desktop)[0][0]
    desktop.locator(f'#board g.node[data-node="{node}"] circle.hit').hover()
    card = desktop.locator("#side-card")
    assert card.inner_text().startswith(f"Base {node}") and "Empty base" in card.inner_text()
    desktop.mouse.move(1200, 700)  # off the board: the side card keeps that base
    before = ply(desktop)
    desktop.dispatch_event(f'#board g.node[data-node="{node}"] circle.hit', "click")  # no pointer move
    wait_change(desktop, before)
    desktop.wait_for_function("([n]) => { const t = document.querySelector('#side-card').textContent;"
                              " return t.startsWith('Base ' + n) && t.includes('(top)'); }", arg=[node])
    assert "Empty base" not in card.inner_text()
    shot(desktop, "desktop-side-card")


def test_hint_then_concede(desktop, live_server, shot):
    start_game(desktop, live_server.url, terrain="cemetery", level="random", first="blue")
    desktop.wait_for_function(ME_TURN)
    desktop.click("#btn-hint")
    desktop.wait_for_selector("#side-card .hint-card")
    assert desktop.locator("#side-card .hint-card .card-title").inner_text().startswith("Hint: ")
    shot(desktop, "desktop-hint")
    desktop.click("#menu-btn")
    desktop.click("#btn-concede")
    desktop.click("#confirm-yes")
    desktop.wait_for_selector("#endscreen")
    assert "conceded" in desktop.locator("#end-reason").inner_text()
    assert desktop.locator("#end-title").inner_text() == "Bot (Random) wins"
