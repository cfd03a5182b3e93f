"""The app's page runs under its own Content-Security-Policy (issue 12 item 11): a browser context
that enforces the policy (the other browser tests bypass it, since Playwright's waiting helpers
evaluate strings, which the policy forbids) plays a hot-seat turn through the cover screen and opens
the Learn screens (from the game, and at the old Learn page's address), with no policy violation reported
and no script error."""
from __future__ import annotations

from devices import DESKTOP

RECORD = ("window.__csp = []; document.addEventListener('securitypolicyviolation', "
          "e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")


def test_the_page_works_under_its_content_security_policy(browser, live_server):
    ctx = browser.new_context(**DESKTOP)  # the policy enforced
    ctx.set_default_timeout(15000)
    ctx.add_init_script(RECORD)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        response = page.goto(live_server.url + "/")
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
        page.wait_for_selector("#newgame")
        page.locator("#newgame input[name=kind][value=hotseat]").check(force=True)
        page.locator("#newgame input[name=first][value=blue]").check(force=True)
        page.click("#start")  # a POST /api/games from the page itself: same origin, JSON
        page.wait_for_selector('#board[data-ply][data-actor="blue"]')  # the websocket is up
        page.click("#btn-draw")  # blue draws: the turn passes to red, and the cover comes up
        page.wait_for_selector("#cover-go")
        page.click("#cover-go")
        page.wait_for_selector('#play[data-seat="red"]:not([data-actor=""])')
        assert page.locator("#cover").count() == 0
        page.goto(live_server.url + "/#/learn")  # the same page: its Learn screens, styled by app.css alone
        page.wait_for_selector("#progress")
        page.click("#nav-rules")
        page.wait_for_selector(".rules-topic")
        page.goto(live_server.url + "/learn")  # the old address: the page again, moved to #/learn
        page.wait_for_selector('[data-lesson="roxy-medals"]')
        assert page.url == live_server.url + "/#/learn"
        assert page.evaluate("window.__csp") == [] and errors == []
    finally:
        ctx.close()
