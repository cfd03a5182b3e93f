"""``Primitives`` in the browser: the audited npm packages @noble/curves, @noble/ciphers and @noble/hashes,
which the site's worker (site/static/worker.js) loads and exposes as ``globalThis.toybattleCrypto``; no
Pyodide build of PyNaCl or cryptography can be installed from the package registry. Imported only on
Pyodide: ``js`` and ``pyodide.ffi`` exist nowhere else. Each call hands bytes over as a Uint8Array and
copies the answer back; the worker's glue mirrors libsodium, so the bytes equal ``primitives.Native``'s."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .primitives import CryptoError


class Browser:
    def __init__(self) -> None:
        import js  # type: ignore[import-not-found]
        from pyodide.ffi import JsException, to_js  # type: ignore[import-not-found]

        crypto = getattr(js, "toybattleCrypto", None)
        if crypto is None:  # a page that did not load the glue (only the site's worker does)
            raise RuntimeError("the browser's cryptography (globalThis.toybattleCrypto) is not loaded")
        self._js: Any = crypto
        self._to_js: Callable[[bytes], Any] = to_js
        self._error: type[Exception] = JsException

    def _bytes(self, answer: Any) -> bytes:
        return bytes(answer.to_py())

    def _call(self, name: str, *args: bytes) -> bytes:
        """A JS exception (a box that does not open, a point that is not a group element) as CryptoError."""
        try:
            answer = getattr(self._js, name)(*(self._to_js(a) for a in args))
        except self._error as e:
            raise CryptoError(str(e)) from None
        return self._bytes(answer)

    def hkdf(self, secret: bytes, length: int, info: bytes) -> bytes:
        return self._bytes(self._js.hkdf(self._to_js(secret), length, self._to_js(info)))

    def seal(self, key: bytes, message: bytes) -> bytes:
        return self._bytes(self._js.seal(self._to_js(key), self._to_js(message)))

    def open(self, key: bytes, box: bytes) -> bytes:
        return self._call("open", key, box)

    def base_times(self, scalar: bytes) -> bytes:
        return self._call("baseTimes", scalar)

    def times(self, scalar: bytes, point: bytes) -> bytes:
        return self._call("times", scalar, point)

    def add(self, p: bytes, q: bytes) -> bytes:
        return self._call("add", p, q)

    def sub(self, p: bytes, q: bytes) -> bytes:
        return self._call("sub", p, q)

    def is_element(self, point: bytes) -> bool:
        return bool(self._js.isElement(self._to_js(point)))
