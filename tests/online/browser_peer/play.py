"""One online game in the browser (Pyodide): a random bot plays an OnlineGame whose rooms go through the
browser's WebSocket. peer.js calls ``main(args)``; args (JSON): relay, seed, and the code to join
(without one it hosts and sets window.roomCode). Answers the result as JSON, or {"error": line}."""
import asyncio
import json

import js

from toybattle.bots import make_bot
from toybattle.online.game import OnlineGame, Options, SessionError
from toybattle.online.mailbox.browser_socket import connect_browser
from toybattle.online.mailbox.client import Rooms


class Bot:
    async def choose(self, obs, n):
        await asyncio.sleep(0)  # no threads in the browser: the bot thinks on the event loop
        return make_bot("random", seed=n).choose(obs)

    def seen(self, match, msg):
        pass


def on_code(code):
    js.window.roomCode = code


async def main(raw):
    args = json.loads(raw)
    game = OnlineGame(Options(relay=args["relay"], db="/tmp/games.sqlite3", seed=args["seed"], move_limit=30,
                        reply_limit=30, wait=30),
                Bot(), print, rooms=Rooms(connect_browser))
    try:
        result = await (game.join(args["code"]) if args.get("code") else game.host(on_code))
    except SessionError as e:
        return json.dumps({"error": str(e)})
    return json.dumps({**result, "game": game.match.setup.game, "seat": game.match.me})
