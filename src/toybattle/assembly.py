"""The product's web app, assembled: the app (toybattle.app) with the Learn section
(toybattle.lessons.web), online rooms (toybattle.online.web), puzzles (toybattle.review.puzzles_web) and the
game review (toybattle.review.web) plugged in.

The app imports neither part; both import the app. This module, above all three, is the
one place that knows the product has both, so every dependency stays a visible import
pointing inward.
"""
from __future__ import annotations

from starlette.applications import Starlette

from .app import server
from .lessons import web as lessons_web
from .online import web as online_web
from .review import puzzles_web
from .review import web as review_web
from .store import Store

PARTS = (lessons_web.PART, online_web.PART, puzzles_web.PART, review_web.PART)


def build_app(store: Store, *, bot_delay: float = 0.6, bind_host: str = "127.0.0.1",
              resume: bool = True, lan: bool | None = None) -> Starlette:
    """The whole product's app over ``store`` (options as ``toybattle.app.server.build_app``)."""
    return server.build_app(store, parts=PARTS, bot_delay=bot_delay, bind_host=bind_host, resume=resume, lan=lan)
