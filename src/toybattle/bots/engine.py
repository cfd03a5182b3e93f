"""The engine protocol (docs/engine-protocol.md): a bot as a program talking lines on stdin/stdout,
in the spirit of chess's UCI. ``serve`` is the engine side; ``EngineBot`` is the arena's client
for any program that speaks it (``cmd:COMMAND``).
"""
from __future__ import annotations

import os
import select
import shlex
import subprocess
import time
from typing import IO

from ..rules import NotationError, State, action_text, observation, parse_action, parse_position, position_text
from ..rules.notation import POSITION_HEADER
from . import DEFAULT_LEVEL, LEVELS, UnknownLevel, make_bot
from .players import Bot, time_limit

PROTOCOL_VERSION = 1
COMMANDS = ("toybattle", "isready", "level", "newgame", "position", "go", "hint", "quit")


class ProtocolError(Exception):
    """A line or answer that breaks the protocol; the message says which and why."""


class Engine:
    """The engine side: reads one command line at a time, answers lines."""

    def __init__(self, level: str = DEFAULT_LEVEL, seed: int | None = None):
        self.seed = seed
        self.bot: Bot = make_bot(level, seed)
        self.obs: State | None = None
        self._pending: list[str] | None = None  # lines of a position being received

    def handle(self, line: str) -> list[str]:
        """The answer lines to one input line (empty for lines that need no answer)."""
        text = line.strip()
        try:
            if self._pending is not None:
                if text == "end":
                    return self._end_position()
                self._pending.append(text)
                return []
            if not text:
                return []
            word, _, rest = text.partition(" ")
            if word not in COMMANDS:
                raise ProtocolError(f"unknown command {word!r} (expected one of: {', '.join(COMMANDS)})")
            return getattr(self, "_cmd_" + word)(rest.strip())
        except ProtocolError as e:
            return [f"error {e}"]
        except (ValueError, IndexError, KeyError) as e:  # a position the rules accept but a bot cannot use
            self.obs = None
            return [f"error cannot play this position: {e}"]

    def _cmd_toybattle(self, rest: str) -> list[str]:
        names = " ".join(lv.name for lv in LEVELS)
        return [f"id name toybattle ({self.bot.level})", f"id protocol {PROTOCOL_VERSION}",
                f"option level {names}", "toybattleok"]

    def _cmd_isready(self, rest: str) -> list[str]:
        return ["readyok"]

    def _cmd_level(self, rest: str) -> list[str]:
        try:
            self.bot = make_bot(rest, self.seed)
        except UnknownLevel as e:
            raise ProtocolError(str(e)) from None
        return []

    def _cmd_newgame(self, rest: str) -> list[str]:
        if rest:
            seed_word, _, value = rest.partition(" ")
            if seed_word != "seed" or not value.strip().lstrip("-").isdigit():
                raise ProtocolError(f"bad newgame line {rest!r} (expected: newgame [seed N])")
            self.seed = int(value)
        self.bot = make_bot(self.bot.level, self.seed)
        self.obs = None
        return []

    def _cmd_position(self, rest: str) -> list[str]:
        if rest:
            raise ProtocolError("'position' stands alone on its line; the position follows, then 'end'")
        self._pending = [POSITION_HEADER]
        return []

    def _end_position(self) -> list[str]:
        lines, self._pending = self._pending or [], None
        if len(lines) > 1 and lines[1] == POSITION_HEADER:
            lines = lines[1:]  # the header may be sent or left out
        try:
            s = parse_position("\n".join(lines))
        except NotationError as e:
            self.obs = None
            raise ProtocolError(str(e) if str(e).startswith("bad position") else f"bad position: {e}") from None
        # Whatever was sent, the bot receives only what the seat to move may know.
        self.obs = observation(s, s.turn)
        return []

    def _ready_obs(self) -> State:
        if self.obs is None:
            raise ProtocolError("no position: send 'position', the position lines, then 'end'")
        if self.obs.over or self.obs.is_chance:
            raise ProtocolError("no decision to take in this position (game over or chance node)")
        return self.obs

    def _cmd_go(self, rest: str) -> list[str]:
        obs = self._ready_obs()
        budget = None
        if rest:
            key, _, value = rest.partition(" ")
            try:
                budget = float(value)
            except ValueError:
                budget = -1.0
            if key != "time" or not budget > 0:
                raise ProtocolError(f"bad go line {rest!r} (expected: go [time SECONDS], seconds > 0)")
        a = self.bot.choose(obs, budget)
        info = self.bot.last_info
        out = []
        if info.get("simulations"):
            out.append(f"info simulations {info['simulations']} seconds {info['seconds']:.3f}"
                       f" winrate {info.get('win_rate', 0.0):.3f}")
        return out + [f"action {action_text(a, obs.b)}"]

    def _cmd_hint(self, rest: str) -> list[str]:
        obs = self._ready_obs()
        a, why = self.bot.hint(obs)
        return [f"hint {action_text(a, obs.b)} {why}"]

    def _cmd_quit(self, rest: str) -> list[str]:
        raise SystemExit(0)


def serve(level: str, seed: int | None, stdin: IO[str], stdout: IO[str]) -> int:
    """Run the engine until 'quit' or the end of input."""
    engine = Engine(level, seed)
    try:
        for line in stdin:
            for out in engine.handle(line):
                stdout.write(out + "\n")
            stdout.flush()
    except SystemExit:
        pass
    return 0


# ---------------------------------------------------------------- the client (arena side)

class BotFailure(Exception):
    """A bot broke the rules of the match (bad answer, crash, time): it loses the game."""


class EngineBot(Bot):
    """A bot that is a separate program speaking the engine protocol."""

    def __init__(self, command: str, budget_s: float = 1.0, startup_s: float = 20.0):
        super().__init__(None)
        self.command = command
        self.level = "cmd:" + command
        self.budget_s = budget_s
        self.startup_s = startup_s
        self.proc: subprocess.Popen | None = None
        self._buf = b""

    def start(self) -> None:
        try:
            args = shlex.split(self.command)
        except ValueError as e:
            raise BotFailure(f"cannot read the command {self.command!r}: {e}") from None
        if not args:
            raise BotFailure("empty engine command")
        try:
            self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL)
        except OSError as e:
            raise BotFailure(f"cannot start {args[0]!r}: {e.strerror or e}") from None
        self._buf = b""
        self._send(["toybattle"])
        self._read_until("toybattleok", self.startup_s)

    def close(self) -> None:
        if self.proc and self.proc.poll() is None:
            try:
                self._send(["quit"])
                self.proc.stdin.close()  # end of input stops an engine that ignores 'quit'
                self.proc.wait(timeout=2)
            except (BotFailure, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def new_game(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            self.start()
        self._send(["newgame"])

    def choose(self, obs: State, budget_s: float | None = None) -> int:
        budget = self.budget_s if budget_s is None else budget_s
        if self.proc is None:
            self.start()
        self._send(["position"] + position_text(obs).splitlines() + ["end", f"go time {budget:g}"])
        answer = self._read_until("action", time_limit(budget) + 0.5)
        try:
            return parse_action(answer, obs.b)
        except ValueError as e:
            raise BotFailure(f"engine answered a bad action: {e}") from None

    def _send(self, lines: list[str]) -> None:
        assert self.proc and self.proc.stdin
        try:
            self.proc.stdin.write(("\n".join(lines) + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise BotFailure("the engine program has stopped") from None

    def _read_until(self, word: str, timeout: float) -> str:
        """The rest of the first line starting with ``word``; an 'error' line fails the bot."""
        deadline = time.monotonic() + timeout
        while True:
            line = self._readline(deadline)
            head, _, rest = line.partition(" ")
            if head == word:
                return rest.strip()
            if head == "error":
                raise BotFailure(f"engine error: {rest.strip()}")

    def _readline(self, deadline: float) -> str:
        assert self.proc and self.proc.stdout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BotFailure("the engine did not answer in time")
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise BotFailure("the engine program has stopped")
                self._buf += chunk
        line, _, self._buf = self._buf.partition(b"\n")
        return line.decode("utf-8", "replace").strip()
