"""A plain install plays without mypy_extensions (issue 27): its one use, mypyc_attr on Bot, matters only to the
optional compiled build, so where the package is missing the bots take a no-op in its place."""
from __future__ import annotations

import subprocess
import sys

# a fresh interpreter in which `import mypy_extensions` fails, as in a plain install (the test tools bring it)
PLAY = """
import sys
sys.modules["mypy_extensions"] = None
from toybattle.bots.players import Bot, RandomBot, _no_mark, mypyc_attr
from toybattle.cli import main
assert mypyc_attr is _no_mark
class Mine(RandomBot):  # the engine's and the tests' bots subclass Bot and its kin
    level = "mine"
assert isinstance(Mine(seed=1), Bot)
sys.exit(main(["arena", "greedy", "random", "--games", "2", "--seed", "3"]))
"""


def test_the_bots_play_without_mypy_extensions():
    done = subprocess.run([sys.executable, "-c", PLAY], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "greedy" in done.stdout
