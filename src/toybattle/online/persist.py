"""Online games in the shared games file (toybattle.store): one row per game, kind "online".

The row's id is chosen here, locally, and never taken from the wire: the game id both peers agree
on (chosen by the host) lives in the meta, so no peer can choose where a game is stored or make it
overwrite another. The record is this peer's chained history (one message per line, exactly as
hashed); the meta holds the setup, this peer's seat, the mailbox, this peer's own secrets (its
tile faces and salts: they never leave this machine before the rules reveal them) and the room it
plays in (``client.Room``: its key never leaves this machine either), to come back without a code. Written after
every agreed message, so a restart resumes from the last one.

Every access to the file here goes through the store's writer thread (``put_async``, ``get_async``):
a slow or locked games file delays only this game's next message, never the event loop it runs on
(in the app, every other game and socket).
"""
from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable
from typing import Any

from toybattle.said import Said

from ..rules import SEATS
from ..store import GameRow, Store, StoreError
from .mailbox.client import Room
from .protocol import Forfeit, Match, Secrets, Setup

KIND = "online"


class NoSuchGame(LookupError):
    """No online game with that id (or prefix) in the games file."""


async def new_id(store: Store) -> str:
    """A fresh local id for a new online game: random, and not used by any game in the file."""
    while True:
        local = "online-" + secrets.token_hex(6)
        if await store.get_async(local) is None:
            return local


async def save(store: Store, match: Match, local: str, relay: str, extra: dict[str, Any] | None = None,
               room: Room | None = None) -> None:
    """Store the game as it stands, with the room it is played in; returns once the row is durable."""
    res = match.result()
    over = match.finished
    await store.put_async(GameRow(
        id=local, kind=KIND, record="\n".join(match.log), over=over,
        winner=SEATS[res["winner"]] if over and res["winner"] >= 0 else None,
        reason=(res["detail"] or res["reason"]) if over else None,
        meta={"online": {"setup": match.setup.to_json(), "seat": match.me, "relay": relay, "said": _said(match),
                         "secrets": match.secrets.to_json(), "head": match.head,
                         "abandoned": match.abandoned is not None,
                         "room": room.to_json() if room else None,
                         **({"clock": match.clocks.to_json()} if match.clocks else {})}, **(extra or {})}))


def _said(match: Match) -> dict[str, Any] | None:
    """Why the game ended outside its history (a forfeit, a claim), as a message's id and arguments, so that
    it is said again in any language; None when there is no such reason, or when it is the other
    program's own words (a forfeit notice's reason: shown as it came, never looked up)."""
    why = match.forfeit.reason if match.forfeit else match.abandoned[1] if match.abandoned else None
    return why.to_json() if isinstance(why, Said) else None


def _stored_why(meta: dict[str, Any]) -> Said | None:
    with contextlib.suppress(ValueError):
        return Said.from_json(meta.get("said"))
    return None


def room(row: GameRow | None) -> Room | None:
    """The room a stored online game was last played in (None if it has none, or none that is usable)."""
    if row is None or row.kind != KIND:
        return None
    meta = row.meta.get("online")
    return Room.from_json(meta.get("room")) if isinstance(meta, dict) else None


async def load(store: Store, game: str, finished: bool = False) -> tuple[Match, str, str]:
    """``replay`` of the stored game ``game`` (its local id, or the start of an unfinished one's)."""
    row = await store.get_async(game)
    if row is None:
        matches = [r for r in await store.unfinished_async(KIND) if r.id.startswith(game)] if game else []
        if len(matches) != 1:
            raise NoSuchGame(f"no unfinished online game {game!r} in {store.path}")
        row = matches[0]
    return replay(row, finished)


def replay(row: GameRow, finished: bool = False,
           seen: Callable[[Match, dict[str, Any]], None] | None = None) -> tuple[Match, str, str]:
    """The match rebuilt by replaying the row's stored history through every check, its mailbox and
    its local id (a finished game only if ``finished``: it can be shown, not resumed; a game claimed
    after the other side fell silent can be resumed, if both agree). ``seen(match, msg)`` is called
    after each message, as a player's is in play (the app rebuilds its seat's log so)."""
    if row.kind != KIND or "online" not in row.meta:
        raise NoSuchGame(f"game {row.id} is not an online game")
    meta = row.meta["online"]
    if row.over and not finished and not meta.get("abandoned"):
        raise NoSuchGame(f"game {row.id} is already over ({row.reason})")
    match = Match(Setup(**meta["setup"]), meta["seat"], Secrets.from_json(meta["secrets"]))
    for text in row.record.splitlines():
        msg = match.accept(text, match.expected()[0])
        if seen:
            seen(match, msg)
    if match.clocks:  # the clocks as this side measured them when the game was last stored
        match.clocks.restore(meta.get("clock"))
    if row.over and finished and not match.finished:  # the result not in the history: a forfeit or a claim
        loser = SEATS.index(row.winner) ^ 1 if row.winner in SEATS else match.me
        # the reason by its id (a game stored before ids, or a peer's own words: the line as stored)
        why = _stored_why(meta)
        if meta.get("abandoned"):
            match.claim(loser, why or (row.reason or "").split(": ", 1)[-1])
        else:
            match.forfeit = Forfeit(loser, why or (row.reason or "forfeit").split(" forfeits: ", 1)[-1])
    return match, meta["relay"], row.id


__all__ = ["KIND", "NoSuchGame", "Store", "StoreError", "load", "new_id", "replay", "room", "save"]
