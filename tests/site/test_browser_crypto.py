"""The wormhole client's cryptography in the browser (online/mailbox/browser_crypto.py: the noble npm packages
through the glue in the site's worker) gives exactly the bytes of ``primitives.Native`` (libsodium,
cryptography) computed here, refuses what libsodium refuses, and runs SPAKE2 with python-spake2. Python runs
in the real site's worker in Debian's chromium; what goes in and out is JSON, bytes as hex."""
from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
from spake2 import SPAKE2_Symmetric

from toybattle.online.mailbox import primitives, spake2
from toybattle.online.transport import APPID

sys.path.insert(0, os.path.dirname(__file__))
from site_harness import BOOT, serving

pytestmark = pytest.mark.slow

L = primitives.L
P = 2**255 - 19  # the field's prime: for y < 19, y + P encodes the same y non-canonically
NATIVE = primitives.Native()
# Python's own namespace in the worker, apart from the app's: every call below goes through Browser()
SETUP = """
import json, statistics, time
from toybattle.online.mailbox import spake2
from toybattle.online.mailbox.browser_crypto import Browser
from toybattle.online.mailbox.primitives import CryptoError
from toybattle.online.transport import APPID
crypto = Browser()

def call(name, *args):
    args = [bytes.fromhex(a) if isinstance(a, str) else a for a in args]
    try:
        out = getattr(crypto, name)(*args)
    except CryptoError:
        return "CryptoError"
    return out.hex() if isinstance(out, bytes) else out

def calls(todo):
    return json.dumps([call(*c) for c in todo])
"""
RUN = """async ([code, first]) => {
  for (let i = 0; !(self.pyodide && self.toybattleCrypto); i++) {
    if (i > 600) throw new Error("the worker did not start");
    await new Promise((ok) => setTimeout(ok, 100));
  }
  if (first || !self.__cryptoTest) self.__cryptoTest = self.pyodide.globals.get("dict")();
  return await self.pyodide.runPythonAsync(code, { globals: self.__cryptoTest });
}"""


class WorkerPython:
    """Python in a page's worker: ``run`` answers the JSON its code's last expression gives."""

    def __init__(self, worker: Any):
        self.worker = worker
        self.worker.evaluate(RUN, [SETUP, True])

    def run(self, code: str) -> Any:
        return json.loads(self.worker.evaluate(RUN, [code, False]))

    def calls(self, todo: list[tuple[Any, ...]]) -> list[Any]:
        """Each (method, *args) of Browser, str arguments as hex: its answer as hex, or "CryptoError"."""
        return self.run(f"calls(json.loads({json.dumps(json.dumps(todo))}))")


@pytest.fixture(scope="module")
def py(browser, site) -> Iterator[WorkerPython]:
    context = browser.new_context()
    context.set_default_timeout(BOOT)
    page = context.new_page()
    with page.expect_worker() as started:
        page.goto(site + "/")
    page.wait_for_function("document.documentElement.dataset.python === 'ready'")  # the worker has booted
    yield WorkerPython(started.value)
    context.close()


def native(name: str, *args: Any) -> Any:
    """What ``calls`` answers, computed here by libsodium and cryptography."""
    try:
        out = getattr(NATIVE, name)(*(bytes.fromhex(a) if isinstance(a, str) else a for a in args))
    except primitives.CryptoError:
        return "CryptoError"
    return out.hex() if isinstance(out, bytes) else out


def le(n: int) -> str:
    return n.to_bytes(32, "little").hex()


B = NATIVE.base_times(primitives.scalar(1)).hex()
IDENTITY = le(1)
# the small-order points' canonical encodings (orders 2, 4 and 8): on the curve, never group elements
SMALL = [le(P - 1), le(0), le(2**255), "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
         "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
         "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
         "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85"]
# not points (y = 2 has no x), or non-canonical encodings (y >= P): never elements; add and sub decode the
# latter as libsodium does
ODD = [le(2), "ff" * 32, le(P)]


def test_hkdf_gives_the_bytes_of_cryptography(py):
    rng = random.Random(1)
    todo = [("hkdf", rng.randbytes(n).hex(), length, info.hex())
            for n, length, info in ((0, 32, b""), (19, 48, b"SPAKE2 pw"), (32, 32, b"wormhole:phase:abc"),
                                    (32, 100, b"x" * 200), (64, 255 * 32, b"i"))]
    assert py.calls(todo) == [native(*c) for c in todo]


def test_secretbox_opens_both_ways_and_refuses_a_tampered_box(py):
    rng = random.Random(2)
    key = rng.randbytes(32)
    messages = [rng.randbytes(n) for n in (0, 1, 16, 63, 64, 65, 200, 5000)]
    boxes = py.calls([("seal", key.hex(), m.hex()) for m in messages])
    for m, box in zip(messages, boxes, strict=True):
        assert len(bytes.fromhex(box)) == primitives.NONCE + 16 + len(m)
        assert NATIVE.open(key, bytes.fromhex(box)) == m  # the browser's box opens with libsodium
    again = py.calls([("seal", key.hex(), messages[6].hex())])[0]
    assert again != boxes[6]  # a fresh random nonce each time
    theirs = [NATIVE.seal(key, m).hex() for m in messages]
    assert py.calls([("open", key.hex(), box) for box in theirs]) == [m.hex() for m in messages]
    box = bytes.fromhex(theirs[6])
    tampered = [bytes([box[0] ^ 1]) + box[1:], box[:30] + bytes([box[30] ^ 0x80]) + box[31:],  # nonce, tag
                box[:-1] + bytes([box[-1] ^ 1]), box[:-1], box[:10], b""]  # ciphertext, cut short
    todo = [("open", key.hex(), t.hex()) for t in tampered] + [("open", rng.randbytes(32).hex(), theirs[6])]
    assert py.calls(todo) == ["CryptoError"] * len(todo) == [native(*c) for c in todo]


def test_the_group_operations_give_libsodiums_bytes(py):
    rng = random.Random(3)
    scalars = [le(n) for n in (1, 2, 8, L - 1, L + 5, *(rng.randrange(1, L) for _ in range(6)))]
    refused = [le(n) for n in (0, L, 2 * L)]  # the identity: libsodium refuses it
    points = [NATIVE.base_times(bytes.fromhex(s)).hex() for s in scalars] + [spake2.BLINDING.hex()]
    todo: list[tuple[Any, ...]] = [("base_times", s) for s in scalars + refused]
    todo += [("times", s, p) for s in scalars[:4] + refused for p in points[:3] + points[-1:]]
    todo += [(op, p, q) for op in ("add", "sub") for p in points[:4] for q in points[-4:]]
    todo += [("add", B, B), ("sub", B, B), ("add", B, IDENTITY), ("sub", IDENTITY, B)]
    # add and sub take any point on the curve, as libsodium does: small order, non-canonical encodings
    todo += [(op, B, t) for op in ("add", "sub") for t in SMALL]
    todo += [("add", B, le(1 + P)), ("add", IDENTITY[:-2] + "80", B)]  # the identity, non-canonical
    todo += [(op, B, bad) for op in ("add", "sub") for bad in ODD]
    answers = py.calls(todo)
    expected = [native(*c) for c in todo]
    assert answers == expected, [(c, a, e) for c, a, e in zip(todo, answers, expected, strict=True) if a != e]
    assert answers[len(scalars):len(scalars) + len(refused)] == ["CryptoError"] * len(refused)


def test_only_elements_of_the_prime_order_group_are_elements_and_times_refuses_the_rest(py):
    good = [B, spake2.BLINDING.hex(), NATIVE.base_times(primitives.scalar(12345)).hex()]
    torsioned = [NATIVE.add(bytes.fromhex(B), bytes.fromhex(t)).hex() for t in SMALL[3:]]  # B plus order 8
    bad = [IDENTITY, le(1 + P), *SMALL, *torsioned, *ODD, B[:-2], B + "00", ""]
    assert py.calls([("is_element", p) for p in good + bad]) == [True] * len(good) + [False] * len(bad)
    assert [NATIVE.is_element(bytes.fromhex(p)) for p in good + bad] == [True] * len(good) + [False] * len(bad)
    todo = [("times", le(5), p) for p in bad]
    assert py.calls(todo) == ["CryptoError"] * len(todo) == [native(*c) for c in todo]


@pytest.mark.parametrize("other", ["7-guitarist-revenge", "7-guitarist-revenue"])
def test_spake2_in_the_browser_meets_python_spake2(py, other):
    code = "7-guitarist-revenge"
    mine = py.run(f"ours = spake2.Spake2({code.encode()!r}, APPID.encode(), Browser())\n"
                  "json.dumps(ours.start().hex())")
    theirs = SPAKE2_Symmetric(other.encode(), idSymmetric=APPID.encode())
    their_msg = theirs.start()
    key = py.run(f"json.dumps(ours.finish(bytes.fromhex({their_msg.hex()!r})).hex())")
    assert (bytes.fromhex(key) == theirs.finish(bytes.fromhex(mine))) == (code == other)
    refused = py.run(f"""
try:
    spake2.Spake2(b"c", b"a", Browser()).finish(b"S" + bytes.fromhex({IDENTITY!r}))
    answer = "accepted"
except spake2.PakeError:
    answer = "PakeError"
json.dumps(answer)""")
    assert refused == "PakeError"


def test_how_long_spake2_and_a_seal_take_in_the_browser(py):
    """Measured, printed, not asserted (run with -s to see): the median of one whole SPAKE2 side (start and
    finish) and of sealing 200 bytes, in the browser and natively."""
    peer = SPAKE2_Symmetric(b"7-guitarist-revenge", idSymmetric=APPID.encode()).start()
    out = py.run(f"""
peer = bytes.fromhex({peer.hex()!r})
pake = []
for _ in range(15):
    t0 = time.perf_counter()
    s = spake2.Spake2(b"7-guitarist-revenge", APPID.encode(), crypto)
    s.start()
    s.finish(peer)
    pake.append(time.perf_counter() - t0)
key, message, seal = bytes(range(32)), bytes(200), []
for _ in range(9):  # 100 seals a sample: one is below the browser's timer resolution
    t0 = time.perf_counter()
    for _ in range(100):
        crypto.seal(key, message)
    seal.append((time.perf_counter() - t0) / 100)
json.dumps({{"spake2_ms": statistics.median(pake) * 1e3, "seal_200_us": statistics.median(seal) * 1e6}})""")
    pake, seal = [], []
    for _ in range(15):
        t0 = time.perf_counter()
        s = spake2.Spake2(b"7-guitarist-revenge", APPID.encode(), NATIVE)
        s.start()
        s.finish(peer)
        pake.append(time.perf_counter() - t0)
    for _ in range(9):
        t0 = time.perf_counter()
        for _ in range(100):
            NATIVE.seal(bytes(range(32)), bytes(200))
        seal.append((time.perf_counter() - t0) / 100)
    print(f"\nbrowser (noble): SPAKE2 start+finish {out['spake2_ms']:.1f} ms, seal 200 B {out['seal_200_us']:.0f} us;"
          f" native (libsodium): {statistics.median(pake) * 1e3:.2f} ms, {statistics.median(seal) * 1e6:.1f} us")
    assert out["spake2_ms"] > 0 and out["seal_200_us"] > 0


def test_the_worker_finds_its_modules_when_the_site_is_under_a_sub_path(browser, site_dir, tmp_path):
    """worker.js imports the noble modules relative to its own address, so a site served from /toybattle/
    loads them from there (the page itself is not needed: only the worker's start is)."""
    (tmp_path / "toybattle").symlink_to(site_dir, target_is_directory=True)
    with serving(tmp_path, probe="/toybattle/sw.js") as url:
        context = browser.new_context()
        context.set_default_timeout(BOOT)
        requests: list[str] = []
        context.on("request", lambda r: requests.append(r.url))
        page = context.new_page()
        page.goto(url + "/toybattle/manifest.webmanifest")
        with page.expect_worker() as started:
            page.evaluate("() => { window.w = new Worker('/toybattle/static/site/worker.js', { type: 'module' }); }")
        base = started.value.evaluate("""async () => {
          for (let i = 0; !self.toybattleCrypto; i++) {
            if (i > 600) throw new Error("the worker did not load its cryptography");
            await new Promise((ok) => setTimeout(ok, 50));
          }
          return Array.from(self.toybattleCrypto.baseTimes(new Uint8Array(32).fill(1, 0, 1)));
        }""")
        context.close()
    assert bytes(base).hex() == B
    npm = [u for u in requests if "/npm/" in u]
    assert npm and all(u.startswith(url + "/toybattle/static/site/npm/@noble/") for u in npm), npm
