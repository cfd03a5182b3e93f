"""The Ed25519 group (twisted Edwards curve over 2**255 - 19), just what SPAKE2 needs: adding points,
multiplying by a scalar, and the standard 32-byte encoding. Points are extended coordinates (X, Y, Z, T)
with x = X/Z, y = Y/Z, x*y = T/Z. Nothing here is constant-time: a PAKE run lasts one exchange,
and the one-time code it protects is worth one guess anyway.
"""
from __future__ import annotations

from .kdf import hkdf

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493  # the prime order of the base point
D = -121665 * pow(121666, P - 2, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)

Point = tuple[int, int, int, int]
IDENTITY: Point = (0, 1, 1, 0)


class BadElement(ValueError):
    """Bytes that are not a point of the prime-order group."""


def add(a: Point, b: Point) -> Point:
    """a + b (the unified formula for a = -1: also right when a == b)."""
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    aa = (y1 - x1) * (y2 - x2) % P
    bb = (y1 + x1) * (y2 + x2) % P
    cc = 2 * D * t1 * t2 % P
    dd = 2 * z1 * z2 % P
    e, f, g, h = bb - aa, dd - cc, dd + cc, bb + aa
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def mul(point: Point, n: int) -> Point:
    """n * point, for n >= 0 (double and add, from the top bit)."""
    out = IDENTITY
    for bit in bin(n)[2:] if n else "":
        out = add(out, out)
        if bit == "1":
            out = add(out, point)
    return out


def neg(point: Point) -> Point:
    x, y, z, t = point
    return (-x % P, y, z, -t % P)


def is_identity(point: Point) -> bool:
    x, y, z, _ = point
    return x % P == 0 and (y - z) % P == 0


def affine(point: Point) -> tuple[int, int]:
    x, y, z, _ = point
    zi = pow(z, P - 2, P)
    return x * zi % P, y * zi % P


def from_affine(x: int, y: int) -> Point:
    return (x % P, y % P, 1, x * y % P)


def encode(point: Point) -> bytes:
    """y in 255 bits, little-endian, with the low bit of x on top."""
    x, y = affine(point)
    return (y | (x & 1) << 255).to_bytes(32, "little")


def x_for(y: int) -> int | None:
    """The even x with (x, y) on the curve, or None if no x fits."""
    xx = (y * y - 1) * pow(D * y * y + 1, P - 2, P) % P
    x = pow(xx, (P + 3) // 8, P)
    if (x * x - xx) % P:
        x = x * SQRT_M1 % P
    if (x * x - xx) % P:
        return None
    return P - x if x & 1 else x


def decode(data: bytes) -> Point:
    """The point ``data`` encodes; BadElement if it encodes none (or not canonically)."""
    if len(data) != 32:
        raise BadElement("a point is 32 bytes")
    n = int.from_bytes(data, "little")
    y, odd = n & ((1 << 255) - 1), n >> 255
    x = x_for(y) if y < P else None
    if x is None or (x == 0 and odd):
        raise BadElement("not a point of the curve")
    return from_affine(P - x if odd else x, y)


def element(data: bytes) -> Point:
    """A point of the prime-order subgroup, other than the identity (what a peer's PAKE message must be)."""
    point = decode(data)
    if is_identity(point) or not is_identity(mul(point, L)):
        raise BadElement("not an element of the group")
    return point


def arbitrary_element(seed: bytes) -> Point:
    """An element nobody knows the discrete log of, derived from ``seed`` as SPAKE2 (python-spake2)
    derives its blinding elements: HKDF to 48 bytes, read big-endian mod p as a y coordinate; the first
    y from there upwards that is on the curve (with its even x), times the cofactor 8, not the identity."""
    y = int.from_bytes(hkdf(seed, 48, info=b"SPAKE2 arbitrary element"), "big") % P
    while True:
        x = x_for(y)
        if x is not None:
            point = mul(from_affine(x, y), 8)
            if not is_identity(point):
                return point
        y = (y + 1) % P


BASE: Point = from_affine(x_for(4 * pow(5, P - 2, P)) or 0, 4 * pow(5, P - 2, P))
