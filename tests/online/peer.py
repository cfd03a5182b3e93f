"""Run `toybattle ARGS` with test-only patches: ``--cheat NAME`` (a tampering peer, see
online_cheats.py) and ``--die-after N`` (the process dies right after storing message N, before
sending it, as in a crash or a cut cable). ``--protocol N`` (claim another
protocol version). ``--stall-after N`` (sends nothing after its N-th chained message, yet stays).
``--think S`` (the bot takes S seconds over each decision, so that a game lasts long enough to be cut).
``--false-flag-after N`` (claims the other side's clock ran out as soon as its move is due once N chained
messages are agreed, whatever the clock says).
With TOYBATTLE_TEST_DEBUG set in its environment it logs every link event, timed, on stderr.
``--seed X`` among ARGS is not a toybattle option (whoever knows a seed knows the tiles): this script takes
it out and sets the test-only hook ``toybattle.online.cli.TEST_SEED`` (reproducible secrets and bot).
Usage: peer.py [--cheat NAME] [--die-after N] [--protocol N] [--stall-after N] [--think S] [--false-flag-after N]
-- ARGS"""
from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from online_cheats import CHEATS

from toybattle import cli
from toybattle.online import persist
from toybattle.online.protocol import Match, digest


def main(argv: list[str]) -> int:
    split = argv.index("--")
    opts, args = argv[:split], argv[split + 1:]
    if "--seed" in args:  # the test-only hook, in this process only
        from toybattle.online import cli as online_cli
        at = args.index("--seed")
        online_cli.TEST_SEED = args[at + 1]
        del args[at:at + 2]
    if "--cheat" in opts:
        cheat = CHEATS[opts[opts.index("--cheat") + 1]]
        honest_make, honest_accept, honest_move = Match.make, Match.accept, Match.my_move
        forged: set[str] = set()

        def make(self, action=None):
            self.cheating = True  # only the live match cheats; a fresh recheck of its history does not
            text = honest_make(self, action)
            sent = cheat(self, text)
            if sent != text:
                forged.add(sent)
            return sent

        def accept(self, text, sender):
            if text in forged and getattr(self, "cheating", False):  # the cheater skips its own forgery
                self.log.append(text)
                self.head = digest(text)
                self.cheated = True
                return {"t": "forged", "by": sender}
            return honest_accept(self, text, sender)

        def my_move(self):  # after a forgery, wait for the other side's verdict
            return None if getattr(self, "cheated", False) else honest_move(self)

        Match.make, Match.accept, Match.my_move = make, accept, my_move
    if "--protocol" in opts:  # pretend to be another version of toybattle
        from toybattle.online.mailbox import client as mailbox_client
        mailbox_client.PROTOCOL = int(opts[opts.index("--protocol") + 1])
    if "--stall-after" in opts:  # a peer that stops sending after N chained messages, yet stays connected
        from toybattle.online.mailbox.client import Link
        quota = [int(opts[opts.index("--stall-after") + 1])]
        honest_send = Link.send

        def send(self, obj):
            if obj.get("k") == "msg":
                quota[0] -= 1
            if quota[0] >= 0:
                honest_send(self, obj)

        Link.send = send
    if "--think" in opts:
        import asyncio

        from toybattle.online.game import BotPlayer
        pause = float(opts[opts.index("--think") + 1])
        honest_choose = BotPlayer.choose

        async def choose(self, obs, n):
            await asyncio.sleep(pause)
            return await honest_choose(self, obs, n)

        BotPlayer.choose = choose
    if "--false-flag-after" in opts:  # a time claim before the other's clock ran out
        import time

        from toybattle.online.game import OnlineGame
        after = int(opts[opts.index("--false-flag-after") + 1])
        honest_flag_at = OnlineGame._flag_at

        def flag_at(self):
            at = honest_flag_at(self)
            return time.monotonic() - 1 if at is not None and len(self.m.log) >= after else at

        OnlineGame._flag_at = flag_at
    if "--die-after" in opts:
        n = int(opts[opts.index("--die-after") + 1])
        honest_save = persist.save

        async def save(store, match, *more):
            await honest_save(store, match, *more)
            if len(match.log) >= n:
                os._exit(9)

        persist.save = save
    if os.environ.get("TOYBATTLE_TEST_DEBUG"):  # every link event, timed, on stderr: for a failure's story
        import logging
        logging.basicConfig(format="%(relativeCreated)d %(name)s %(message)s")
        logging.getLogger("toybattle").setLevel(logging.DEBUG)
    return cli.main(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
