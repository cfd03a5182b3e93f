"""Chat between the two pages of a two-device game, no chat against the bot; the sound switch."""
from __future__ import annotations

import random

import pytest
from devices import PHONE
from test_app_browser import ME_TURN, play_one, start_game

pytestmark = pytest.mark.slow

HTML = "<img src=x id=evil><b>bold</b>"


def join_lan(host, guest, base: str) -> None:
    start_game(host, base, kind="lan", terrain="castle", level=None, first="blue")
    host.wait_for_selector("#invite-url")
    link = host.get_attribute("#invite-url", "href")
    host.click("#sheet .close")
    guest.goto(link)
    guest.wait_for_function("document.querySelector('#play') && document.querySelector('#play').dataset.seat === 'red'")


def test_two_devices_chat_and_html_shows_as_text(desktop, phone, live_server, shot):
    join_lan(desktop, phone, live_server.url)
    desktop.wait_for_selector("#chat-btn:not(.hidden)")
    desktop.click("#chat-btn")
    desktop.fill("#chat-input", HTML)
    desktop.click("#chat-send")
    desktop.wait_for_selector("#chat-lines .chat-line.mine")
    # the guest sees it: first as an unread count, then as text
    phone.wait_for_selector("#chat-btn.unread")
    phone.click("#chat-btn")
    line = phone.locator("#chat-lines .chat-line.blue .chat-text")
    assert line.inner_text() == HTML
    assert phone.locator("#chat-lines img, #evil").count() == 0 and desktop.locator("#evil").count() == 0
    phone.click(".chat-quick button >> nth=1")  # a quick phrase, back to the host (whose sheet is open)
    desktop.wait_for_selector("#chat-lines .chat-line.red")
    assert desktop.locator("#chat-lines .chat-line.red .chat-text").inner_text() == "Well played!"
    for _ in range(5):  # too fast: the server's refusal is said under the chat, in one line
        phone.click(".chat-quick button >> nth=0")
    phone.wait_for_function("document.querySelector('#chat-status').textContent.startsWith('slow down')")
    assert phone.locator("#chat-lines .chat-line.mine").count() == 5
    shot(phone, "chat-guest")
    assert desktop.js_errors == [] and phone.js_errors == []


def test_each_reader_sees_a_quick_phrase_in_their_own_language(desktop, browser, live_server):
    """An English host and a French guest: a quick phrase goes as its key and each page says it in its
    reader's words; a typed line stays as typed."""
    ctx = browser.new_context(bypass_csp=True, locale="fr-FR", **PHONE)
    ctx.set_default_timeout(15000)
    guest = ctx.new_page()
    errors: list[str] = []
    guest.on("pageerror", lambda e: errors.append(str(e)))
    try:
        join_lan(desktop, guest, live_server.url)
        desktop.wait_for_selector("#chat-btn:not(.hidden)")
        desktop.click("#chat-btn")
        desktop.click('.chat-quick button[data-phrase="luck"]')
        desktop.fill("#chat-input", "Good luck!")  # typed, not a quick phrase: it stays as typed
        desktop.click("#chat-send")
        assert desktop.locator("#chat-lines .chat-line.mine .chat-text").nth(0).inner_text() == "Good luck!"
        guest.wait_for_selector("#chat-btn.unread")
        guest.click("#chat-btn")
        guest.wait_for_function("document.querySelectorAll('#chat-lines .chat-line.blue').length === 2")
        heard = guest.locator("#chat-lines .chat-line.blue .chat-text").all_inner_texts()
        assert heard == ["Bonne chance !", "Good luck!"]
        guest.click('.chat-quick button[data-phrase="played"]')
        assert guest.inner_text('.chat-quick button[data-phrase="played"]') == "Bien joué !"
        guest.wait_for_selector("#chat-lines .chat-line.red.mine")
        assert guest.inner_text("#chat-lines .chat-line.red .chat-text") == "Bien joué !"
        desktop.wait_for_selector("#chat-lines .chat-line.red")
        assert desktop.inner_text("#chat-lines .chat-line.red .chat-text") == "Well played!"
        assert desktop.js_errors == [] and errors == []
    finally:
        ctx.close()


def test_a_bot_game_has_no_chat(phone, live_server):
    start_game(phone, live_server.url, terrain="castle", level="random")
    phone.wait_for_function("document.querySelector('#board') && document.querySelector('#board').dataset.ply")
    assert phone.locator("#chat-btn.hidden").count() == 1


# counts the page's AudioContexts and notes, wrapping the browser's own
COUNT_AUDIO = """window.__tbSound = { contexts: 0, notes: 0 };
  const Native = window.AudioContext;
  window.AudioContext = class extends Native {
    constructor(...a) { super(...a); window.__tbSound.contexts++; }
    createOscillator() { window.__tbSound.notes++; return super.createOscillator(); } };"""


def _my_move(page, rng) -> None:
    page.wait_for_function(ME_TURN)
    play_one(page, rng)
    page.wait_for_function(ME_TURN)


def test_sounds_play_until_muted_and_the_mute_is_remembered(phone, live_server):
    phone.add_init_script(COUNT_AUDIO)
    start_game(phone, live_server.url, terrain="castle", level="random")
    rng = random.Random(2)
    for _ in range(8):  # both sides may draw (no sound) on a move; a placement comes within a few
        _my_move(phone, rng)
        if phone.evaluate("window.__tbSound.notes") > 0:
            break
    assert phone.evaluate("window.__tbSound.notes") > 0  # a placement sounded, made in the page
    phone.click("#menu-btn")
    assert phone.get_attribute("#btn-sound", "aria-pressed") == "true"
    phone.click("#btn-sound")
    assert phone.get_attribute("#btn-sound", "aria-pressed") == "false"
    phone.reload()  # the counters start again from zero, the switch is remembered
    phone.wait_for_function("document.querySelector('#board') && document.querySelector('#board').dataset.ply")
    for _ in range(2):
        _my_move(phone, rng)
    assert phone.evaluate("window.__tbSound") == {"contexts": 0, "notes": 0}  # no audio code ran at all
    assert phone.evaluate("localStorage.getItem('tb.sound')") == "off"
    phone.click("#menu-btn")
    assert phone.inner_text("#btn-sound") == "Sound: off"
    assert phone.js_errors == []


def test_reduced_motion_stops_the_board_animations(phone, live_server):
    phone.emulate_media(reduced_motion="reduce")
    start_game(phone, live_server.url, terrain="castle", level="random")
    _my_move(phone, random.Random(4))
    assert phone.evaluate("document.getAnimations().filter(a => a.playState === 'running').length") == 0


def test_each_kind_of_move_has_its_sound(phone, live_server):
    """The log lines' effects map to the five sounds: placing, covering, a medal, a capture, the end."""
    phone.goto(live_server.url + "/")
    phone.wait_for_selector("#newgame")
    heard = phone.evaluate("""async () => { const { soundsOf } = await import('/static/js/sound.js');
      const before = { '12': [['red', '3']] };
      return [
        soundsOf([{ seat: 'blue', fx: { place: 11 } }], before, 'blue'),
        soundsOf([{ seat: 'blue', fx: { place: 12 } }], before, 'blue'),
        soundsOf([{ seat: 'blue', fx: { place: 12 } }, { seat: 'blue', fx: { region: 2 } }], before, 'blue'),
        soundsOf([{ seat: 'red', fx: { remove: 12 } }, { seat: 'red', fx: { discard: ['blue', '5'] } }],
                 before, 'blue'),
        soundsOf([{ seat: 'blue', fx: { over: true } }], before, 'blue'),
        soundsOf([{ seat: 'red', fx: { over: true } }], before, 'blue'),
      ]; }""")
    assert heard == [["place"], ["cover"], ["cover", "medal"], ["capture", "capture"], ["win"], ["lose"]]
