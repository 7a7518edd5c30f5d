// A secret that straddles two pieces of an oversized input is redacted: through record() of
// plugin/recorder.js, which cuts an input over SPLIT_ABOVE_BYTES into ~PIECE_BYTES pieces, and plugin/core.js, which
// gives the core what a piece held back first with the next one. The pieces in the quarantine file must hold no
// secret and reassemble to the input with each secret replaced by its marker.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { record, SPLIT_ABOVE_BYTES, PIECE_BYTES } from "../../plugin/recorder.js";
import { coreLoadError } from "../../plugin/core.js";
import { segments } from "../../plugin/writer/index.js";
import { tmpdir, entries } from "./helpers.js";

// Fake secrets, assembled so that this file does not look like a leak.
const GH = "gh" + "p_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
const PW = "Xk7pQ2wR9zL4mN8bVq3T";
const MARK = { [GH]: "[REDACTED:github-token]", [PW]: "[REDACTED:secret-assignment]" };

function setup() {
  const d = fs.realpathSync(tmpdir());
  const file = path.join(d, "rec.jsonl");
  return { file, opts: { file, cwd: d, statusFile: false, env: { HOME: d } } };
}

/** ASCII text just over the size bound (so the cuts fall at every PIECE_BYTES) with a secret across each cut, the cut
 *  at a different place in each; `line` is the text of a line and `put(secret)` what a secret is written in. Returns
 *  the text and what it must read as once redacted. */
function straddling(line, put) {
  const secrets = [GH, PW];
  let text = "";
  let want = "";
  const pieces = Math.ceil(SPLIT_ABOVE_BYTES / PIECE_BYTES) + 2;
  for (let k = 1; k < pieces; k++) {
    const secret = secrets[k % 2];
    const [before, after] = put(secret);
    const into = 1 + ((secret.length - 2) * (k % 7)) / 6;
    const start = k * PIECE_BYTES - Math.floor(into) - before.length;
    const fill = line.repeat(Math.ceil((start - text.length) / line.length)).slice(0, start - text.length);
    text += fill + before + secret + after;
    want += fill + before + MARK[secret] + after;
  }
  return { text: text + line.repeat(100), want: want + line.repeat(100) };
}

function pieces(file, eid) {
  const q = file.replace(/\.jsonl$/, ".quarantine.jsonl");
  return segments(q)
    .flatMap(entries)
    .filter((e) => e.eid === eid)
    .sort((a, b) => Number(a.piece) - Number(b.piece));
}

test("the core loaded", () => {
  assert.equal(coreLoadError(), null);
});

for (const [name, line, put] of [
  ["log lines", "2026-11-29T10:12:01.123Z INFO  http: GET /v1/items?page=3 200 12ms\n", (s) => (s === GH ? ["\npush with ", " done\n"] : ["\nDB_PASSWORD=", "\n"])],
  ["one long line (minified JSON)", '{"id":7,"note":"an entry of the export"},', (s) => (s === GH ? ['{"token":"', '"},'] : ['{"password":"', '"},'])],
]) {
  test(`a secret across two pieces of an oversized input is redacted: ${name}`, () => {
    const { file, opts } = setup();
    const { text, want } = straddling(line, put);
    assert.ok(Buffer.byteLength(text) > SPLIT_ABOVE_BYTES);
    const r = record(text, opts);
    assert.equal(r.status, "quarantined", r.reason);
    const ps = pieces(file, r.eid);
    assert.ok(ps.length > 16, `${ps.length} pieces`);
    for (const p of ps) {
      assert.equal(typeof p.raw, "string");
      assert.ok(!p.raw.includes(GH) && !p.raw.includes(PW), `piece ${p.piece} holds a secret`);
    }
    const whole = ps.map((p) => p.raw).join("");
    assert.equal(whole.length, want.length);
    assert.ok(whole === want, "the pieces reassemble to the input with each secret replaced by its marker");
    // Each cut secret is named in the piece that holds it.
    const named = ps.flatMap((p) => (p.redacted ?? []).map((h) => h.rule));
    assert.ok(named.filter((x) => x === "github-token").length >= 8 && named.includes("secret-assignment"), JSON.stringify(named));
  });
}
