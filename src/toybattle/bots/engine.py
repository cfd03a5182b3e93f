"""The engine protocol (docs/engine-protocol.md): a bot as a program talking lines on stdin/stdout,
in the spirit of chess's UCI. ``serve`` is the engine side; ``EngineBot`` is the arena's client
for any program that speaks it (``cmd:COMMAND``).
"""
from __future__ import annotations

import contextlib
import hashlib
import math
import os
import select
import shlex
import subprocess
import time
from collections.abc import Callable, Iterator
from typing import IO

from ..rules import SEATS, NotationError, State, action_text, observation, parse_action, parse_position, position_text
from ..rules import actions as A
from ..rules.notation import POSITION_HEADER
from ..rules.state import ENDINGS, EXTRA, SKULLY_DRAW, STAR_DRAW, XB_USE
from ..rules.troops import code
from . import DEFAULT_LEVEL, LEVEL_NAMES, UnknownLevel, make_bot
from .players import Bot, time_limit

PROTOCOL_VERSION = 1
EXTRAS = ("legal", "about")  # lines an engine may ask to find in every position block (docs/engine-protocol.md)
ILLEGAL, TIMEOUT, FAILED = FORFEITS = ("illegal", "time", "failed")  # how a game is lost by breaking the match's rules


class ProtocolError(Exception):
    """A line or answer that breaks the protocol; the message says which and why."""


def _no_words(word: str, rest: str) -> None:
    if rest:
        raise ProtocolError(f"'{word}' takes nothing after it, not {rest!r}")


class Engine:
    """The engine side: reads one command line at a time, answers lines."""

    def __init__(self, level: str = DEFAULT_LEVEL, seed: int | None = None):
        self.seed = seed
        self.bot: Bot = make_bot(level, seed)
        self.obs: State | None = None
        self._pending: list[str] | None = None  # lines of a position being received
        self._commands: dict[str, Callable[[str], list[str]]] = {
            "toybattle": self._cmd_toybattle, "isready": self._cmd_isready, "level": self._cmd_level,
            "newgame": self._cmd_newgame, "position": self._cmd_position, "go": self._cmd_go,
            "hint": self._cmd_hint, "gameover": self._cmd_gameover, "quit": self._cmd_quit}

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
            command = self._commands.get(word)
            if command is None:
                raise ProtocolError(f"unknown command {word!r} (expected one of: {', '.join(self._commands)})")
            return command(rest.strip())
        except ProtocolError as e:
            return [f"error {e}"]
        except (ValueError, IndexError, KeyError) as e:  # a position the rules accept but a bot cannot use
            self.obs = None
            return [f"error cannot play this position: {e}"]

    def _cmd_toybattle(self, rest: str) -> list[str]:
        _no_words("toybattle", rest)
        names = " ".join(LEVEL_NAMES)
        return [f"id name toybattle ({self.bot.level})", f"id protocol {PROTOCOL_VERSION}",
                f"option level {names}", "toybattleok"]

    def _cmd_isready(self, rest: str) -> list[str]:
        _no_words("isready", rest)
        return ["readyok"]

    def _cmd_level(self, rest: str) -> list[str]:
        if not rest or " " in rest:
            raise ProtocolError(f"bad level line {rest!r} (expected: level NAME, one of: {', '.join(LEVEL_NAMES)})")
        try:
            self.bot = make_bot(rest, self.seed)
        except UnknownLevel as e:
            raise ProtocolError(str(e)) from None
        return []

    def _cmd_newgame(self, rest: str) -> list[str]:
        if rest:
            words = rest.split(" ")
            if len(words) != 2 or words[0] != "seed" or not words[1].lstrip("-").isdigit():
                raise ProtocolError(f"bad newgame line {rest!r} (expected: newgame [seed N])")
            self.seed = int(words[1])
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
        lines = [x for x in lines if x.partition(" ")[0] not in EXTRAS]  # this engine works them out itself
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
        budget = None
        if rest:
            words = rest.split(" ")
            try:
                budget = float(words[1]) if len(words) == 2 and words[0] == "time" else -1.0
            except ValueError:
                budget = -1.0
            if not 0 < budget < math.inf:
                raise ProtocolError(f"bad go line {rest!r} (expected: go [time SECONDS], seconds > 0)")
        obs = self._ready_obs()
        a = self.bot.choose(obs, budget)
        info = self.bot.last_info
        out = []
        work = "simulations" if info.get("simulations") else "positions" if info.get("positions") else ""
        if work:  # a search's work: simulations (tree search) or positions scored (sparring, expert)
            out.append(f"info {work} {info[work]:.0f} seconds {info['seconds']:.3f}"
                       f" winrate {info.get('win_rate', 0.0):.3f} capped {'yes' if info.get('capped') else 'no'}")
        return out + [f"action {action_text(a, obs.b)}"]

    def _cmd_hint(self, rest: str) -> list[str]:
        _no_words("hint", rest)
        obs = self._ready_obs()
        a, why = self.bot.hint(obs)
        return [f"hint {action_text(a, obs.b)} {why}"]

    def _cmd_gameover(self, rest: str) -> list[str]:
        words = rest.split(" ")
        if (len(words) != 6 or words[0::2] != ["winner", "reason", "seat"] or words[1] not in SEATS
                or words[3] not in ENDINGS + FORFEITS or words[5] not in SEATS):
            raise ProtocolError(f"bad gameover line {rest!r} (expected: gameover winner blue|red "
                                f"reason {'|'.join(ENDINGS + FORFEITS)} seat blue|red)")
        self.obs = None
        return []

    def _cmd_quit(self, rest: str) -> list[str]:
        _no_words("quit", rest)
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
    """A bot broke the rules of the match (bad answer, crash): it loses the game."""


class BotTimeout(BotFailure):
    """An engine program did not answer within the time limit: it loses the game on time."""


class EngineBot(Bot):
    """A bot that is a separate program speaking the engine protocol.

    ``budget_s`` is the per-decision budget sent with ``go time``; the answer is awaited until
    ``time_limit(budget_s)``, after which the game is lost on time and the program is stopped
    (it is started again for the next game). ``log_path`` keeps its standard error."""

    def __init__(self, command: str, budget_s: float = 1.0, startup_s: float = 20.0, log_path: str | None = None):
        super().__init__(None)
        self.command = command
        self.level = "cmd:" + command
        self.budget_s = budget_s
        self.startup_s = startup_s
        self.log_path = log_path
        self.id_name = ""  # what the program calls itself (its 'id name' line)
        self.extras: tuple[str, ...] = ()  # extra position lines it asked for ('option extras ...')
        self.proc: subprocess.Popen[bytes] | None = None
        self._buf = b""
        self._last_place: tuple[int, int] | None = None  # (node index, troop) of its last placement

    @property
    def name(self) -> str:
        return self.id_name or self.level

    def start(self) -> None:
        try:
            args = shlex.split(self.command)
        except ValueError as e:
            raise BotFailure(f"cannot read the command {self.command!r}: {e}") from None
        if not args:
            raise BotFailure("empty engine command")
        try:
            with open(self.log_path or os.devnull, "ab") as log:  # the child keeps its own copy of the handle
                self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log)
        except OSError as e:
            raise BotFailure(f"cannot start {args[0]!r}: {e.strerror or e}") from None
        self._buf = b""
        self._send(["toybattle"])
        with self._stopped_on_failure(f"no 'toybattleok' within {self.startup_s:g} s of 'toybattle'"):
            deadline = time.monotonic() + self.startup_s
            while (line := self._readline(deadline)) != "toybattleok":
                words = line.split()
                if words[:2] == ["id", "name"] and len(words) > 2:
                    self.id_name = " ".join(words[2:])
                elif words[:2] == ["option", "extras"]:
                    self.extras = tuple(w for w in words[2:] if w in EXTRAS)

    @contextlib.contextmanager
    def _stopped_on_failure(self, late: str) -> Iterator[None]:
        """Stop the program if the block fails (a half-started engine is not reused); ``late``
        explains a timeout."""
        try:
            yield
        except BotFailure as e:
            self.close_now()
            raise BotFailure(late if isinstance(e, BotTimeout) else str(e)) from None

    def close(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        try:
            assert proc.stdin is not None
            proc.stdin.write(b"quit\n")
            proc.stdin.close()  # end of input stops an engine that ignores 'quit'
            proc.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()

    def new_game(self, seed: int | None = None) -> None:
        if self.proc is None or self.proc.poll() is not None:
            self.start()
        self._last_place = None
        # 'isready' ends whatever an earlier game left unread (a late answer, an error about 'gameover')
        self._send(["newgame" if seed is None else f"newgame seed {engine_seed(seed)}", "isready"])
        with self._stopped_on_failure(f"no 'readyok' within {self.startup_s:g} s of 'isready'"):
            deadline = time.monotonic() + self.startup_s
            while self._readline(deadline) != "readyok":
                pass

    def game_over(self, winner: int, reason: str, seat: int) -> None:
        if self.proc is not None and self.proc.poll() is None:
            # if it stopped after its last move, the next game starts it again
            with contextlib.suppress(BotFailure):
                self._send([f"gameover winner {SEATS[winner]} reason {reason} seat {SEATS[seat]}"])

    def choose(self, obs: State, budget_s: float | None = None) -> int:
        budget = self.budget_s if budget_s is None else budget_s
        self.last_info = {}
        if self.proc is None:
            self.start()
        lines = ["position"] + position_text(obs).splitlines() + self.extra_lines(obs) + ["end", f"go time {budget:g}"]
        self._send(lines)
        try:
            answer = self._read_until("action", time_limit(budget))
        except BotTimeout:
            self.close_now()
            raise
        try:
            a = parse_action(answer, obs.b)
        except ValueError as e:
            raise BotFailure(f"engine answered a bad action: {e}") from None
        self._last_place = (a & 31, (a - A.PLACE) >> 5) if A.PLACE <= a < A.PLACE_END else None
        return a

    def extra_lines(self, obs: State) -> list[str]:
        """The 'legal' and 'about' lines the engine asked for, for the position ``obs``."""
        out = []
        if "legal" in self.extras:
            out.append("legal " + " ".join(action_text(a, obs.b) for a in obs.legal_actions()))
        if "about" in self.extras:
            about = decision_subject(obs, self._last_place)
            if about:
                out.append(f"about {about}")
        return out

    def close_now(self) -> None:
        """Stop the program at once (it overran its time; a late answer must not reach the next game)."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def _send(self, lines: list[str]) -> None:
        assert self.proc and self.proc.stdin
        try:
            self.proc.stdin.write(("\n".join(lines) + "\n").encode())
            self.proc.stdin.flush()
        except OSError:
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
            if head == "info":
                self._note_info(rest.split())

    def _note_info(self, words: list[str]) -> None:
        pairs = dict(zip(words[0::2], words[1::2], strict=False))
        self.last_info = {"capped": 1.0} if pairs.get("capped") == "yes" else {}

    def _readline(self, deadline: float) -> str:
        assert self.proc and self.proc.stdout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BotTimeout("the engine did not answer in time")
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise BotFailure("the engine program has stopped")
                self._buf += chunk
        line, _, self._buf = self._buf.partition(b"\n")
        return line.decode("utf-8", "replace").strip()


def engine_seed(game_seed: int) -> int:
    """The seed an engine program is sent for a game: the same for the same game seed, but not the
    game seed itself, from which the deal (every hidden tile) could be computed."""
    return int.from_bytes(hashlib.sha256(f"toybattle engine seed {game_seed}".encode()).digest()[:6], "big")


def decision_subject(obs: State, last_place: tuple[int, int] | None) -> str:
    """'NODE TILE' for the node and tile the current decision is about ('' at a plain turn).

    Base effects and Jumbo name their node in the position; a Skully or Star draw, XB-42's use
    and Cap'n's extra placement follow the mover's own placement just before, ``last_place``."""
    if obs.dnode >= 0 and obs.stacks[obs.dnode]:
        i = obs.dnode
    elif obs.decision in (EXTRA, SKULLY_DRAW, STAR_DRAW, XB_USE) and last_place is not None:
        i = last_place[0]
    else:
        return ""
    top = obs.stacks[i][-1] if obs.stacks[i] else 0
    return f"{obs.b.ids[i]} {SEATS[top >> 4][0]}{code(top & 15)}" if top else str(obs.b.ids[i])
