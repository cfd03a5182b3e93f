"""What a spectator is shown: the board, the log and the counts, from the spectator's observation.

``observation(state, SPECTATOR)`` (toybattle.rules.observation) hides every rack, reserve and set-aside
tile of both sides; the view is the seats' view built from it, with everything that belongs to a
seat (its rack, its choices, undo) left out. A watch link holds a key of its own, never a seat's
token: whoever watches can do nothing but watch.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toybattle.rules import SEATS, State

from .view import prompt, seat_view, tile_json


def spectator_view(obs: State, *, log: Sequence[dict[str, Any]] = (), players: dict[str, Any] | None = None,
                   game: dict[str, Any] | None = None) -> dict[str, Any]:
    """The view sent to spectators; ``obs`` must be ``observation(state, SPECTATOR)``."""
    # built as the seat NOT deciding now sees it, so no choices are worked out; then the seat's own parts go
    watcher = 1 - obs.actor if obs.actor >= 0 else 0
    v = seat_view(obs, watcher, log=log, players=players, game=game)
    v.update(seat=None, spectator=True, rack=[], laid=[], seen=[], legal=None, can_undo=False,
             prompt=prompt(obs, -1),
             # the tiles each side was seen to take onto its rack: both players know them
             public={SEATS[s]: [tile_json(t) for t in obs.public[s]] for s in (0, 1)})
    return v


__all__ = ["spectator_view"]
