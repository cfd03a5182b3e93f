"""The cryptographic primitives the wormhole client needs, taken from audited libraries, never written here.

``Primitives`` is the small interface the SPAKE2 transcript (spake2.py) and the record layer (client.py)
run over. Two backends implement it:

- ``Native``: PyNaCl (libsodium's secretbox and its ``crypto_core_ed25519_*`` point operations) and
  ``cryptography`` (HKDF-SHA256), for the desktop app and the command line;
- ``browser_crypto.Browser``: the npm packages @noble/curves, @noble/ciphers and @noble/hashes, served
  with the static site and called from its Pyodide worker (no Pyodide build of PyNaCl or cryptography
  can be installed from the package registry).

Points are 32-byte standard Ed25519 encodings and scalars 32-byte little-endian integers below the
group order ``L``, as libsodium takes them.
"""
from __future__ import annotations

from typing import Protocol

L = 2**252 + 27742317777372353535851937790883648493  # the prime order of Ed25519's base point
NONCE = 24  # bytes of a secretbox nonce (XSalsa20)


class CryptoError(ValueError):
    """A box that does not open (wrong key, or altered), or a point that is not a group element."""


class Primitives(Protocol):
    def hkdf(self, secret: bytes, length: int, info: bytes) -> bytes:
        """HKDF-SHA256 (RFC 5869) with no salt."""

    def seal(self, key: bytes, message: bytes) -> bytes:
        """A random nonce followed by NaCl's secretbox (XSalsa20-Poly1305) of ``message``."""

    def open(self, key: bytes, box: bytes) -> bytes:
        """The message sealed in ``box`` (nonce first); CryptoError if it does not open."""

    def base_times(self, scalar: bytes) -> bytes:
        """scalar * B, the base point."""

    def times(self, scalar: bytes, point: bytes) -> bytes:
        """scalar * point; CryptoError if the point is not a group element or the product is the identity."""

    def add(self, p: bytes, q: bytes) -> bytes:
        """p + q."""

    def sub(self, p: bytes, q: bytes) -> bytes:
        """p - q."""

    def is_element(self, point: bytes) -> bool:
        """Whether ``point`` encodes an element of the prime-order group other than the identity."""


def scalar(n: int) -> bytes:
    """The integer ``n`` as a scalar (reduced modulo L)."""
    return (n % L).to_bytes(32, "little")


class Native:
    """libsodium through PyNaCl, HKDF through cryptography. (Imported where used: this module is loaded in
    the browser too, where neither library exists.)"""

    def hkdf(self, secret: bytes, length: int, info: bytes) -> bytes:
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.kdf.hkdf import HKDF
        return HKDF(hashes.SHA256(), length, None, info).derive(secret)

    def seal(self, key: bytes, message: bytes) -> bytes:
        from nacl.secret import SecretBox
        return bytes(SecretBox(key).encrypt(message))

    def open(self, key: bytes, box: bytes) -> bytes:
        from nacl.exceptions import CryptoError as NaclError
        from nacl.secret import SecretBox
        try:
            return SecretBox(key).decrypt(box)
        except (NaclError, ValueError, TypeError):
            raise CryptoError("the box does not open") from None

    def base_times(self, scalar: bytes) -> bytes:
        from nacl.bindings import crypto_scalarmult_ed25519_base_noclamp
        return self._sodium(crypto_scalarmult_ed25519_base_noclamp, scalar)

    def times(self, scalar: bytes, point: bytes) -> bytes:
        from nacl.bindings import crypto_scalarmult_ed25519_noclamp
        return self._sodium(crypto_scalarmult_ed25519_noclamp, scalar, point)

    def add(self, p: bytes, q: bytes) -> bytes:
        from nacl.bindings import crypto_core_ed25519_add
        return self._sodium(crypto_core_ed25519_add, p, q)

    def sub(self, p: bytes, q: bytes) -> bytes:
        from nacl.bindings import crypto_core_ed25519_sub
        return self._sodium(crypto_core_ed25519_sub, p, q)

    def is_element(self, point: bytes) -> bool:
        from nacl.bindings import crypto_core_ed25519_is_valid_point
        return len(point) == 32 and bool(crypto_core_ed25519_is_valid_point(point))

    @staticmethod
    def _sodium(op: object, *args: bytes) -> bytes:
        from nacl.exceptions import CryptoError as NaclError
        from nacl.exceptions import RuntimeError as NaclRuntimeError
        from nacl.exceptions import ValueError as NaclValueError
        try:
            out: bytes = op(*args)  # type: ignore[operator]
        except (NaclError, NaclRuntimeError, NaclValueError, TypeError) as e:
            raise CryptoError(f"not a group element ({e})") from None
        return out
