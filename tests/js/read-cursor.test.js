// The cursor codec (plugin/read/cursor.js): text round trips, refusals with a code, the per-entry cursor text,
// and the fingerprint. Pure: no files but the one the reader constructor is asked about.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { CursorError, FINGERPRINT_BYTES, cursorsAt, decodeCursor, encodeCursor, fingerprintOf, freshState } from "../../plugin/read/cursor.js";
import { readRecordings } from "../../plugin/read/index.js";
import { tmpdir, xorshift32 } from "./helpers.js";

const readAll = (file, opts = {}) => readRecordings({ file, ...opts });

/** A state as a reader makes it: numbers up to 2^53 - 1, 16 hex digits of fingerprint (or none yet). */
function randomState(rand) {
  const int = (max) => Math.floor(rand() * max);
  const big = () => (rand() < 0.2 ? Number.MAX_SAFE_INTEGER - int(1000) : int(2 ** 40));
  const hex = (n) => Array.from({ length: n }, () => "0123456789abcdef"[int(16)]).join("");
  const state = freshState(rand() < 0.5 ? "m" : "q");
  if (rand() < 0.5) {
    const stamp = `2026${String(1 + int(12)).padStart(2, "0")}15T${String(int(24)).padStart(2, "0")}0000${String(int(1000)).padStart(3, "0")}Z`;
    state.base = { key: `${stamp}_${String(int(10)).padStart(6, "0")}`, count: 1 + int(500), bytes: big() };
  }
  for (let i = int(5); i > 0; i--) {
    const fpLen = rand() < 0.2 ? 0 : 1 + int(FINGERPRINT_BYTES);
    state.segs.push({ dev: big(), ino: big(), off: big(), fpLen, fp: fpLen === 0 ? "" : hex(16) });
  }
  return state;
}

test("a cursor decodes to the state it was made from", () => {
  const rand = xorshift32(7);
  for (let i = 0; i < 300; i++) {
    const state = randomState(rand);
    const text = encodeCursor(state);
    assert.deepEqual(decodeCursor(text), state, text);
    assert.deepEqual(decodeCursor(` ${text}\n`), state, "surrounding whitespace (a cursor file) is ignored");
  }
  assert.equal(encodeCursor(freshState("m")), "r1.m.0-0-0");
});

test("texts that are not cursors are refused with EBADCURSOR and say why", () => {
  const table = [
    [42, /not a string/],
    ["x", /made by this version/],
    ["r1", /made by this version/],
    ["r9.m.0-0-0", /made by this version/],
    ["r1.z.0-0-0", /bad family/],
    ["r1.m.0-0", /bad base/],
    ["r1.m.20261129T100000000Z-1-2", /bad base/],
    ["r1.m.0-0-0.1-2-3", /bad segment/],
    ["r1.m.0-0-0.1-2-3-4-NOTHEX", /bad segment/],
    ["r1.m.0-0-0.1-2-3-4-0123456789abcdef0", /bad segment/],
    ["r1.m.0-0-0.1-2-X-4-ab", /bad number "X"/],
    ["r1.m.0-0-0.1-2-zzzzzzzzzzzz-4-ab", /out of range/],
  ];
  for (const [text, why] of table) {
    assert.throws(
      () => decodeCursor(text),
      (e) => e instanceof CursorError && e.name === "CursorError" && e.code === "EBADCURSOR" && why.test(e.message),
      String(text),
    );
  }
});

test("each entry's cursor is the whole cursor with that segment's offset moved", () => {
  const rand = xorshift32(11);
  for (let i = 0; i < 100; i++) {
    const state = randomState(rand);
    if (state.segs.length === 0) continue;
    const rec = state.segs[Math.floor(rand() * state.segs.length)];
    const at = cursorsAt(state, rec);
    for (const off of [0, 1, rec.off, rec.off + 4096]) {
      assert.equal(at(off), encodeCursor({ ...state, segs: state.segs.map((s) => (s === rec ? { ...s, off } : s)) }));
    }
  }
});

test("the fingerprint tells segments apart by their first bytes", () => {
  const a = Buffer.from('{"ts":"2026-11-29T10:00:00.000Z","eid":"0000000000001","n":1}');
  const b = Buffer.from('{"ts":"2026-11-29T10:00:00.000Z","eid":"0000000000002","n":1}');
  assert.match(fingerprintOf(a), /^[0-9a-f]{16}$/);
  assert.equal(fingerprintOf(a), fingerprintOf(Buffer.from(a)));
  assert.notEqual(fingerprintOf(a), fingerprintOf(b));
  // SHA-1's first 16 hex digits, as cursors and recall indexes written before have them (pinned values).
  assert.equal(fingerprintOf(a), "445e07855d65e4fc");
  assert.equal(fingerprintOf(Buffer.alloc(0)), "da39a3ee5e6b4b0d");
});

test("bad cursors are refused with a code", () => {
  const file = path.join(tmpdir(), "r.jsonl");
  for (const bad of ["", "x", "r1", "r1.z.0-0-0", "r1.m.0-0-0.1-2-3", "r1.m.0-0-0.1-2-3-4-NOTHEX", "r9.m.0-0-0"]) {
    if (bad === "") continue; // empty means "from the start"
    assert.throws(() => readAll(file, { since: bad }), (e) => e instanceof CursorError && e.code === "EBADCURSOR", bad);
  }
  const main = readAll(file).cursor;
  assert.throws(() => readAll(file, { since: main, quarantine: true }), (e) => e.code === "EWRONGFILE");
  const q = readAll(file, { quarantine: true }).cursor;
  assert.throws(() => readAll(file, { since: q }), (e) => e.code === "EWRONGFILE" && /add --quarantine/.test(e.message));
});
