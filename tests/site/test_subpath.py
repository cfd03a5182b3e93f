"""The static site served under a sub-path (a project page such as https://name.github.io/toybattle/): the
built directory at <root>/a/toybattle/ of a plain static file server. Everything works there as at a
host's root, offline too, and no request leaves the site's directory."""
from __future__ import annotations

import os
import random
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "browser"))
from site_harness import serving
from test_app_browser import ME_TURN, play_to_the_end, start_game  # the app's own UI steps

pytestmark = pytest.mark.slow

CONTROLLED = "navigator.serviceWorker && navigator.serviceWorker.controller !== null"
UNDER = "/a/toybattle"  # nested, so a path that climbs one directory too many is caught


@pytest.fixture(scope="module")
def nested(site_dir, tmp_path_factory):
    """The base URL of the built site served at UNDER (a link to it: the build is shared, and only read)."""
    root = tmp_path_factory.mktemp("host")
    (root / "a").mkdir()
    (root / "a" / "toybattle").symlink_to(site_dir, target_is_directory=True)
    (root / "index.html").write_text("the host's own page, not the site's")
    with serving(root, probe=UNDER + "/sw.js") as url:
        yield url + UNDER


def test_the_site_works_under_a_sub_path_online_and_offline(nested, recorded):
    page = recorded.page()
    # a game against the bot, to its end
    start_game(page, nested, terrain="castle", level="random")
    assert page.eval_on_selector("meta[name=toybattle-transport]", "m => m.content") == "worker"
    play_to_the_end(page, random.Random(7))
    assert page.locator("#end-reason").inner_text().strip()
    page.wait_for_function(CONTROLLED)
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL") == f"{nested}/sw.js"
    assert page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)") == f"{nested}/"

    # the home's Learn link, a lesson, the rules
    page.goto(nested + "/")
    page.locator("a.btn.primary[href$='/#/learn']").click()
    page.wait_for_selector('[data-lesson="roxy-medals"] a')
    assert page.url == f"{nested}/#/learn"  # a screen of the same page, under the site's directory
    page.click("#nav-rules")
    page.wait_for_selector(".rules-topic")
    page.click("#nav-lessons")
    page.click('[data-lesson="roxy-medals"] a')
    page.wait_for_selector("#question")
    page.click('.rack button[data-troop="7"]')
    page.click('[data-node="12"]')
    page.wait_for_selector("#feedback.right")
    # playing on: the game screen of the same page, under the site's directory, then its home
    page.click("#continue")
    page.wait_for_url(f"{nested}/#/game/*")
    page.wait_for_function(ME_TURN)
    page.locator("#home-btn").click()
    page.wait_for_selector("#newgame")

    # offline, the site still opens: the home, and the Learn page from it
    recorded.context.set_offline(True)
    page.reload()
    page.wait_for_selector("#newgame")
    page.locator("a.btn.primary[href$='/#/learn']").click()
    page.wait_for_selector('[data-lesson="roxy-medals"] .done-mark')

    outside = [u for u in recorded.requests if not u.startswith(("data:", "blob:", nested + "/"))]
    assert outside == []
    assert recorded.errors == []
