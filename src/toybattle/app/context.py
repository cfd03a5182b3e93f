"""What the app's own routes, its guard, and the parts plugged into it share: the ``AppContext`` (the
store, the games registry, the names this server answers to, what it offers) and where the page's
files are."""
from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from toybattle.store import Store

from .games import Games
from .lan import Network

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})  # names this server always answers to


def web_dir() -> Path:
    """The page's own files (toybattle/web), which the app serves."""
    return Path(str(resources.files("toybattle").joinpath("web")))


@dataclass
class AppContext:
    """What the parts plugged into the app get from it (see toybattle.app.server), and what its own routes
    and guard read."""
    store: Store
    games: Games
    web_dir: Path
    bind_host: str = "127.0.0.1"
    # the names this server answers to (the Host header): loopback, and this machine's network
    # names only while the app is open to the local network (whoever opens it adds them here)
    allowed_hosts: set[str] = field(default_factory=lambda: set(LOOPBACK))
    links: list[dict[str, str]] = field(default_factory=list)  # extra pages for the home screen: {"label", "href"}
    # what this app offers: "lan" (two-device games, invite and watch links: another device on the
    # network reaches this server) and the parts plugged in: "lessons", "online"
    features: list[str] = field(default_factory=list)
    network: Network = field(default_factory=Network)  # the listener a host opens to the local network
