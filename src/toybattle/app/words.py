"""The page's language, and what the app sends said in it.

Every text for the player is a message (toybattle.said: a ``Said``, an id of the catalogues and its
arguments) from where it is made (the rules' refusals, the view, the log, the routes' refusals, online
play's reasons) to where it is sent: the websocket says a view and an error in its page's language
(sockets.py, Session.view_message), an HTTP refusal is said in the request's language by the app's
outermost middleware (localized.py), the other routes say their texts themselves. Nothing is ever
parsed back from English: a text that is not a Said (a peer's chat line, a peer's forfeit reason, what
a page sent and a refusal quotes) is shown as it is. docs/translating.md says how to add a text.
"""
from __future__ import annotations

from toybattle.said import DEFAULT, LANGS, CatalogueError, Said, catalogue, localize, say

__all__ = ["DEFAULT", "LANGS", "CatalogueError", "Said", "catalogue", "language", "localize", "say"]


def language(asked: object) -> str:
    """The catalogue language for what a page asked ("fr", "fr-FR", an Accept-Language header); English
    if it names none we have."""
    if not isinstance(asked, str):
        return DEFAULT
    for part in asked.split(","):
        tag = part.split(";")[0].strip().lower()[:2]
        if tag in LANGS:
            return tag
    return DEFAULT
