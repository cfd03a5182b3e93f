"""The site's side of an online game never sends the other side a message that its own saved game lacks: a
frame leaves the browser's socket only once the games file is saved (the worker's ``toybattleSaved``). The
end-to-end case (a page closed right after it played, reopened a minute later) is
tests/online/test_site_reconnect.py; this pins the order itself."""
from __future__ import annotations

import asyncio

from toybattle.online.mailbox.browser_socket import BrowserSocket


class OpenSocket:
    """What BrowserSocket uses of the browser's WebSocket: its state and send()."""

    readyState = 1

    def __init__(self, events: list[str]) -> None:
        self.events = events

    def send(self, text: str) -> None:
        self.events.append(f"sent {text}")


def test_a_frame_leaves_only_after_the_games_file_is_saved():
    events: list[str] = []

    async def saved() -> None:
        await asyncio.sleep(0.05)  # the browser's storage takes its time
        events.append("saved")

    async def run() -> None:
        sock = BrowserSocket(OpenSocket(events), asyncio.Queue(), {}, saved)
        await sock.send("m9")
        await sock.send("m10")

    asyncio.run(run())
    assert events == ["saved", "sent m9", "saved", "sent m10"]


def test_without_a_games_file_to_save_a_frame_leaves_at_once():
    events: list[str] = []
    asyncio.run(BrowserSocket(OpenSocket(events), asyncio.Queue(), {}).send("hello"))
    assert events == ["sent hello"]
