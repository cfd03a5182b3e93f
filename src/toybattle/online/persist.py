"""Online games in the shared games file (toybattle.store): one row per game, kind "online".

The row's record is this peer's chained history (one message per line, exactly as hashed);
its meta holds the setup, this peer's seat, the mailbox and this peer's own secrets (its tile
faces and salts: they never leave this machine before the rules reveal them). Written after
every agreed message, so a restart resumes from the last one.
"""
from __future__ import annotations

from collections.abc import Callable

from ..rules import SEATS
from ..store import GameRow, Store, StoreError
from .protocol import Match, Secrets, Setup

KIND = "online"


class NoSuchGame(LookupError):
    """No online game with that id (or prefix) in the games file."""


def save(store: Store, match: Match, relay: str, extra: dict | None = None) -> None:
    res = match.result()
    over = match.finished
    store.put(GameRow(
        id=match.setup.game, kind=KIND, record="\n".join(match.log), over=over,
        winner=SEATS[res["winner"]] if over and res["winner"] >= 0 else None,
        reason=(res["detail"] or res["reason"]) if over else None,
        meta={"online": {"setup": vars(match.setup), "seat": match.me, "relay": relay,
                         "secrets": match.secrets.to_json(), "head": match.head}, **(extra or {})}))


def load(store: Store, game: str, finished: bool = False,
         seen: Callable[[Match, dict], None] | None = None) -> tuple[Match, str]:
    """The match rebuilt by replaying its stored history through every check, and its mailbox
    (a finished game only if ``finished``: it can be shown, not resumed). ``seen(match, msg)``
    is called after each message, as a player's is in play (the app rebuilds its seat's log so)."""
    row = store.get(game)
    if row is None:
        matches = [r for r in store.unfinished(KIND) if r.id.startswith(game)] if game else []
        if len(matches) != 1:
            raise NoSuchGame(f"no unfinished online game {game!r} in {store.path}")
        row = matches[0]
    if row.kind != KIND or "online" not in row.meta:
        raise NoSuchGame(f"game {row.id} is not an online game")
    if row.over and not finished:
        raise NoSuchGame(f"game {row.id} is already over ({row.reason})")
    meta = row.meta["online"]
    match = Match(Setup(**meta["setup"]), meta["seat"], Secrets.from_json(meta["secrets"]))
    for text in row.record.splitlines():
        msg = match.accept(text, match.expected()[0])
        if seen:
            seen(match, msg)
    return match, meta["relay"]


__all__ = ["KIND", "NoSuchGame", "Store", "StoreError", "load", "save"]
