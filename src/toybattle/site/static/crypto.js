// The cryptography of the wormhole client in the browser (toybattle.online.mailbox.browser_crypto): thin glue
// over the audited noble packages (pinned in toybattle.site.assets, unpacked into an npm/ folder), Uint8Arrays
// in and out. It mirrors libsodium, which the desktop app uses, so both sides compute the same bytes.
// loadCrypto(base) imports the modules from `npm/` relative to the URL `base` and sets the frozen
// globalThis.toybattleCrypto; the site's worker calls it with its own directory (the site may live under a
// sub-path), a test page with its own.
export async function loadCrypto(base) {
  const [{ ed25519 }, { bytesToNumberLE }, { xsalsa20poly1305 }, { hkdf }, { sha256 }] = await Promise.all(
    ["@noble/curves/ed25519.js", "@noble/curves/utils.js", "@noble/ciphers/salsa.js", "@noble/hashes/hkdf.js",
     "@noble/hashes/sha2.js"].map((m) => import(new URL(`npm/${m}`, base).href)));
  const { Point } = ed25519;
  const NONCE = 24;
  // A 32-byte little-endian scalar read as libsodium's *_noclamp functions read it: top bit ignored, and
  // (the points being of prime order L) taken mod L. Zero mod L would make the identity, which libsodium
  // refuses; noble's multiply wants 1 <= n < L.
  const scalar = (bytes) => {
    if (!(bytes instanceof Uint8Array) || bytes.length !== 32) throw new Error("a scalar is 32 bytes");
    const n = Point.Fn.create(bytesToNumberLE(bytes) & ((1n << 255n) - 1n));
    if (n === 0n) throw new Error("the product is the identity");
    return n;
  };
  // What libsodium's crypto_core_ed25519_is_valid_point accepts: a canonical encoding (strict decoding,
  // RFC 8032) of a point in the prime-order subgroup (torsion free) other than the identity.
  const element = (bytes) => {
    const p = Point.fromBytes(bytes);
    if (p.is0() || !p.isTorsionFree()) throw new Error("not an element of the prime-order group");
    return p;
  };
  // crypto_core_ed25519_add/sub decode any point on the curve, non-canonical encodings included: ZIP 215
  // decoding accepts the same ones, so both backends agree on every input.
  const onCurve = (bytes) => Point.fromBytes(bytes, true);
  const product = (p) => {
    if (p.is0()) throw new Error("the product is the identity");
    return p.toBytes();
  };
  globalThis.toybattleCrypto = Object.freeze({
    hkdf: (secret, length, info) => hkdf(sha256, secret, undefined, info, length),  // no salt: HashLen zeros
    seal(key, message) {
      const nonce = crypto.getRandomValues(new Uint8Array(NONCE));
      const box = xsalsa20poly1305(key, nonce).encrypt(message);
      const out = new Uint8Array(NONCE + box.length);
      out.set(nonce);
      out.set(box, NONCE);
      return out;
    },
    open(key, box) {  // throws if the tag does not match (wrong key, or altered)
      if (box.length < NONCE) throw new Error("too short for a box");
      return xsalsa20poly1305(key, box.slice(0, NONCE)).decrypt(box.slice(NONCE)).slice();
    },
    baseTimes: (s) => product(Point.BASE.multiply(scalar(s))),
    times: (s, point) => product(element(point).multiply(scalar(s))),
    add: (p, q) => onCurve(p).add(onCurve(q)).toBytes(),
    sub: (p, q) => onCurve(p).subtract(onCurve(q)).toBytes(),
    isElement(point) {
      try {
        element(point);
        return true;
      } catch {
        return false;
      }
    },
  });
}
