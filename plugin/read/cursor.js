// The cursor codec: where a reader stopped, as text a caller can store. A cursor names each segment it has
// read from by (device, inode) — a rename keeps the inode, so rotation does not lose it — plus a fingerprint of
// the segment's first bytes, which catches a reused inode and finds a segment copied to another disk. Archives
// read to their end and long quiet are folded into a "base" (the last one's key, their count and total size),
// so the cursor stays short however long the history.

import { sha1 } from "@noble/hashes/legacy.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { isSegmentKey } from "../paths.js";

/** Bytes of a segment's beginning that identify it: a core line starts with `ts` and `eid`, and both fit in
 *  64 bytes, so no two segments begin alike. */
export const FINGERPRINT_BYTES = 64;
const CURSOR_VERSION = "r1";

/** The error thrown for a cursor that cannot be used; `code` is "EBADCURSOR" or "EWRONGFILE". */
export class CursorError extends Error {
  constructor(code, message) {
    super(message);
    this.name = "CursorError";
    this.code = code;
  }
}

const b36 = (n) => n.toString(36);

function num36(s) {
  if (!/^[0-9a-z]+$/.test(s)) throw new CursorError("EBADCURSOR", `not a cursor (bad number "${s}")`);
  const n = Number.parseInt(s, 36);
  if (!Number.isSafeInteger(n)) throw new CursorError("EBADCURSOR", "not a cursor (number out of range)");
  return n;
}

/** A cursor that has read nothing. State: { family: "m"|"q", base: { key, count, bytes },
 *  segs: [{ dev, ino, off, fpLen, fp }] }. */
export function freshState(family) {
  return { family, base: { key: null, count: 0, bytes: 0 }, segs: [] };
}

function segPart(s) {
  return `${b36(s.dev)}-${b36(s.ino)}-${b36(s.off)}-${b36(s.fpLen)}-${s.fp}`;
}

function basePart(b) {
  return `${b.key ?? "0"}-${b36(b.count)}-${b36(b.bytes)}`;
}

/** The cursor as text: `r1.<family>.<base>.<segment>...`. Opaque to callers; the version prefix lets a
 *  later format read this one. */
export function encodeCursor(state) {
  return [CURSOR_VERSION, state.family, basePart(state.base), ...state.segs.map(segPart)].join(".");
}

/** Parses a cursor made by encodeCursor; throws CursorError. */
export function decodeCursor(text) {
  if (typeof text !== "string") throw new CursorError("EBADCURSOR", "not a cursor (not a string)");
  const parts = text.trim().split(".");
  if (parts[0] !== CURSOR_VERSION || parts.length < 3) {
    throw new CursorError("EBADCURSOR", `not a cursor made by this version of record (expected "${CURSOR_VERSION}.…")`);
  }
  if (parts[1] !== "m" && parts[1] !== "q") throw new CursorError("EBADCURSOR", "not a cursor (bad family)");
  const b = parts[2].split("-");
  if (b.length !== 3 || !(b[0] === "0" || isSegmentKey(b[0]))) {
    throw new CursorError("EBADCURSOR", "not a cursor (bad base)");
  }
  const state = freshState(parts[1]);
  state.base = { key: b[0] === "0" ? null : b[0], count: num36(b[1]), bytes: num36(b[2]) };
  for (const p of parts.slice(3)) {
    const f = p.split("-");
    if (f.length !== 5 || !/^[0-9a-f]{0,16}$/.test(f[4])) throw new CursorError("EBADCURSOR", "not a cursor (bad segment)");
    state.segs.push({ dev: num36(f[0]), ino: num36(f[1]), off: num36(f[2]), fpLen: num36(f[3]), fp: f[4] });
  }
  return state;
}

/**
 * encodeCursor(state) with `rec`'s offset replaced, as a function of that offset: a reader hands out a cursor
 * with every entry, so the text around `rec`'s part is built once, on the first call, and each entry's cursor
 * is one concatenation. `rec` must be in `state.segs` by then, and the rest of the state unchanged after.
 */
export function cursorsAt(state, rec) {
  let pre = null;
  let post = "";
  return (off) => {
    if (pre === null) {
      const idx = state.segs.indexOf(rec);
      pre = encodeCursor({ ...state, segs: state.segs.slice(0, idx) });
      post = state.segs.slice(idx + 1).map((s) => "." + segPart(s)).join("");
    }
    return `${pre}.${b36(rec.dev)}-${b36(rec.ino)}-${b36(off)}-${b36(rec.fpLen)}-${rec.fp}${post}`;
  };
}

/** The fingerprint a cursor keeps of a segment's first bytes: SHA-1, hex, cut to 16. Computed in JS (a
 *  hash of at most a few dozen bytes): loading node:crypto costs a fresh `record recall` several ms. */
export function fingerprintOf(bytes) {
  return bytesToHex(sha1(bytes)).slice(0, 16);
}
