// record() and resolveTarget() in process, against the real wasm core: statuses, targets, stamps, oversized
// inputs in pieces, trap recovery, and the JS fallback line.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { record, resolveTarget, recordSource, recordFd, bufferSource, SPLIT_ABOVE_BYTES, PIECE_BYTES } from "../../plugin/recorder.js";
import { fallbackMarker, fallbackOutcome, newEid, coreLoadError, Core } from "../../plugin/core.js";
import { initSync } from "../../plugin/wasm/recordings_core.js";
import { segments } from "../../plugin/writer/index.js";
import { tmpdir, lines, entries, rawMembers, containsInOrder, git, gitRepo } from "./helpers.js";

function setup() {
  const d = fs.realpathSync(tmpdir());
  const file = path.join(d, "rec.jsonl");
  return { d, file, opts: { file, cwd: d, statusFile: false, env: { HOME: d } } };
}

test("the core loaded", () => {
  assert.equal(coreLoadError(), null);
});

test("statuses and targets for each input style", () => {
  const { file, opts } = setup();
  const q = file.replace(/\.jsonl$/, ".quarantine.jsonl");
  const cases = [
    ['{"note":"json object"}', "recorded", file, "json"],
    ["[1, 2.50, 3]", "recorded", file, null],
    ["category=bad judgement | finding: trusted the cache | result: stale {grade: F}", "recorded", file, null],
    ["plain text, sentiment: relief", "recorded", file, null],
    ["", "recorded", file, null],
    ['{"note": "unterminated', "quarantined", q, null],
    [Uint8Array.from([0x7b, 0xff, 0xfe, 0x7d]), "quarantined", q, null],
    ["lone \ud800 surrogate", "quarantined", q, null],
  ];
  for (const [input, status, where] of cases) {
    const r = record(input, opts);
    assert.equal(r.status, status, String(input));
    assert.equal(r.file, where);
    assert.match(r.eid, /^[0-9a-hjkmnp-tv-z]{13}$/);
    if (status === "quarantined") assert.ok(r.reason, "a quarantined entry says why");
    else assert.equal(r.reason, undefined);
    const last = JSON.parse(lines(where).at(-1));
    assert.equal(last.eid, r.eid);
  }
});

test("entry ids are 64 random bits: none repeats, and every base32 digit turns up in every position", () => {
  // The core draws them in 4 KiB batches (512 ids) from the JS edge's /dev/urandom source (plugin/core.js).
  const { opts } = setup();
  const ids = new Set();
  for (let i = 0; i < 3000; i++) ids.add(record("{}", { ...opts, sync: false }).eid);
  assert.equal(ids.size, 3000);
  // positions 1..12 carry 5 random bits each (position 0 only 4): 3000 draws cover all 32 digits
  for (let pos = 1; pos < 13; pos++) assert.equal(new Set([...ids].map((id) => id[pos])).size, 32, `position ${pos}`);
});

test("supplied members are kept byte for byte and stamps never override them", () => {
  const { d, opts } = setup();
  const input =
    '{ "note" : "caf\\u00e9 \\/ \\"q\\"", "n": 1.0, "big": 123456789012345678901234567890, "e": 1e5,\n' +
    '  "note": "duplicate kept", "sentiment": {"fixed": true, "moods": ["guilt", "relief"]}, "repo": "mine", "empty": {} }';
  const r = record(input, opts);
  assert.equal(r.status, "recorded");
  const line = lines(opts.file).at(-1);
  const got = rawMembers(line);
  const supplied = rawMembers(input);
  assert.ok(containsInOrder(got, supplied), `members changed:\n${line}`);
  assert.equal(got.filter(([k]) => k === "repo").length, 1, "repo once: the caller's");
  assert.equal(got.find(([k]) => k === "repo")[1], '"mine"');
  assert.deepEqual(got.slice(0, 2).map(([k]) => k), ["ts", "eid"]);
  assert.ok(!line.slice(0, -1).includes("\n"));
  assert.ok(d);
});

test("stamps: capture, pwd, session/model/agent from options, else env, and extra stamps", () => {
  const { d, file } = setup();
  const base = { file, cwd: d, statusFile: false };
  record("a", { ...base, env: { HOME: d, AI_RECORDINGS_SESSION: "s-env", AI_RECORDINGS_MODEL: "m-env", AI_RECORDINGS_AGENT: "a-env" } });
  record("b", { ...base, env: { HOME: d, AI_RECORDINGS_SESSION: "s-env" }, session: "s-opt", model: "m-opt", agent: "a-opt", capture: "mcp", stamps: { client: "zed" } });
  const [a, b] = entries(file);
  assert.deepEqual([a.capture, a.pwd, a.session, a.model, a.agent], ["cli", d, "s-env", "m-env", "a-env"]);
  assert.deepEqual([b.capture, b.session, b.model, b.agent, b.client], ["mcp", "s-opt", "m-opt", "a-opt", "zed"]);
  // stamps follow the supplied members, in the documented order
  const keys = rawMembers(lines(file)[1]).map(([k]) => k);
  assert.deepEqual(keys.filter((k) => ["capture", "pwd", "session", "model", "agent", "client"].includes(k)), ["capture", "pwd", "session", "model", "agent", "client"]);
});

test("git stamps follow the working directory and the current HEAD", () => {
  const { d, file } = setup();
  const repo = gitRepo(path.join(d, "repo"), "https://example.com/acme/tool.git");
  git(repo, "commit", "-q", "--allow-empty", "-m", "one");
  const opts = { file, statusFile: false, env: { HOME: d } };
  record("in repo", { ...opts, cwd: repo });
  git(repo, "commit", "-q", "--allow-empty", "-m", "two");
  record("after a commit", { ...opts, cwd: repo });
  record("outside", { ...opts, cwd: d });
  const [e1, e2, e3] = entries(file);
  assert.equal(e1.repo, "tool");
  assert.equal(e1.origin, "https://example.com/acme/tool.git");
  assert.equal(e1.git_dir, path.join(repo, ".git"));
  assert.equal(e1.branch, "main");
  assert.equal(e2.head, git(repo, "rev-parse", "HEAD"));
  assert.notEqual(e1.head, e2.head);
  assert.equal(e3.pwd, d);
  assert.equal(e3.repo, undefined);
  assert.equal(e3.head, undefined);
});

test("target resolution: option, env, default; ~ and relative paths", () => {
  const cases = [
    [{ file: "/x/a.jsonl", env: { AI_RECORDINGS_FILE: "/y/b.jsonl", HOME: "/h" } }, "/x/a.jsonl", "option"],
    [{ file: "~/n.jsonl", env: { HOME: "/h" } }, "/h/n.jsonl", "option"],
    [{ file: "rel/n.jsonl", cwd: "/w", env: { HOME: "/h" } }, "/w/rel/n.jsonl", "option"],
    [{ env: { AI_RECORDINGS_FILE: "/y/b.jsonl", HOME: "/h" } }, "/y/b.jsonl", "env"],
    [{ env: { AI_RECORDINGS_FILE: "~/e.jsonl", HOME: "/h" } }, "/h/e.jsonl", "env"],
    [{ file: "", env: { HOME: "/h" } }, "/h/git/ai_recordings.jsonl", "default"],
    [{ env: { HOME: "/h" } }, "/h/git/ai_recordings.jsonl", "default"],
  ];
  for (const [opts, file, source] of cases) assert.deepEqual(resolveTarget(opts), { file, source }, JSON.stringify(opts));
});

test("an unwritable main file means skipped with a reason, eid null, and no throw", () => {
  const { d } = setup();
  fs.mkdirSync(path.join(d, "adir"));
  const r = record('{"a":1}', { file: path.join(d, "adir"), cwd: d, statusFile: false });
  assert.deepEqual([r.status, r.eid, r.reason], ["skipped", null, "EISDIR: target is a directory"]);
  // odd inputs never throw either
  for (const odd of [undefined, null, 42, { toString: () => "obj" }]) {
    assert.equal(record(odd, { file: path.join(d, "ok.jsonl"), cwd: d, statusFile: false }).status, "recorded");
  }
});

function reassemble(qfile, eid) {
  // Pieces may span a rotation of the quarantine file (16 MiB default): read every segment.
  const pieces = segments(qfile)
    .flatMap(entries).filter((e) => e.eid === eid).sort((a, b) => Number(a.piece) - Number(b.piece));
  return {
    pieces,
    bytes: Buffer.concat(pieces.map((p) => (p.raw_b64 !== undefined ? Buffer.from(p.raw_b64, "base64") : Buffer.from(p.raw, "utf8")))),
  };
}

test("an input over 16 MiB goes to quarantine in ~1 MiB pieces under one eid, with a marker in the main file", () => {
  const { file, opts } = setup();
  // Multi-byte characters straddle the nominal cut points: pieces still hold whole characters.
  const unit = "é€🙂 quarantined text with a note: ";
  const text = unit.repeat(Math.ceil((SPLIT_ABOVE_BYTES + 3 * PIECE_BYTES) / Buffer.byteLength(unit)));
  const r = record(text, opts);
  assert.equal(r.status, "quarantined");
  assert.match(r.reason, /over the/);
  const q = file.replace(/\.jsonl$/, ".quarantine.jsonl");
  const { pieces, bytes } = reassemble(q, r.eid);
  assert.ok(pieces.length >= 19 && pieces.length <= 21, `${pieces.length} pieces`);
  assert.ok(pieces.every((p) => typeof p.raw === "string"), "every piece is readable text");
  assert.ok(bytes.equals(Buffer.from(text, "utf8")), "pieces reassemble to the input");
  assert.ok(pieces.every((p) => Number(p.pieces) === pieces.length && Number(p.bytes) === bytes.length));
  const marker = entries(file).find((e) => e.eid === r.eid);
  assert.equal(marker.oversized, true);
  assert.equal(Number(marker.pieces), pieces.length);
  for (const l of segments(q).flatMap(lines)) assert.ok(l.length < 4 * PIECE_BYTES, "no line holds the whole input");
});

test("oversized bytes that are not UTF-8 reassemble exactly", () => {
  const { file, opts } = setup();
  const bytes = Buffer.alloc(SPLIT_ABOVE_BYTES + 12345);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 131 + (i >> 8)) & 0xff;
  const r = recordSource(bufferSource(bytes), opts);
  assert.equal(r.status, "quarantined");
  const got = reassemble(file.replace(/\.jsonl$/, ".quarantine.jsonl"), r.eid);
  assert.ok(got.bytes.equals(bytes));
});

test("a trap in the core is recovered: the instance is reset and the entry still recorded", () => {
  const { file, opts } = setup();
  assert.equal(record('{"before":1}', opts).status, "recorded");
  // Wreck the real instance's memory (allocator state and all): the next call traps inside wasm.
  const exportsBefore = initSync({ module: undefined });
  new Uint8Array(exportsBefore.memory.buffer).fill(0xff);
  const r = record('{"after":2}', opts);
  assert.equal(r.status, "recorded", JSON.stringify(r));
  const exportsAfter = initSync({ module: undefined });
  assert.notEqual(exportsAfter, exportsBefore, "a fresh instance replaced the trapped one");
  assert.deepEqual(entries(file).map((e) => e.before ?? e.after), [1, 2]);
  assert.equal(entries(file)[1].capture, "cli", "the context was set again on the rebuilt recorder");
  // and other Core wrappers are rebuilt too
  const other = new Core({ redact: false });
  assert.equal(other.record("x", Date.now()).target, "main");
});

test("the JS fallback line keeps the input whole and parses", () => {
  const ctx = { capture: "cli", stamps: { pwd: "/w", repo: "r", eid: "not-this" } };
  const s = "text with \ud83d lone surrogate and \"quotes\"\nnewline";
  const o = fallbackOutcome(s, 0, "core failed: RuntimeError: unreachable", ctx);
  assert.equal(o.target, "quarantine");
  assert.ok(o.line.endsWith("\n") && !o.line.slice(0, -1).includes("\n"));
  const e = JSON.parse(o.line);
  assert.equal(e.raw, s);
  assert.equal(e.ts, "1970-01-01T00:00:00.000Z");
  assert.equal(e.eid, o.eid);
  assert.deepEqual([e.capture, e.pwd, e.repo, e.unredacted], ["cli", "/w", "r", true]);
  assert.deepEqual(Object.keys(e).slice(0, 3), ["ts", "eid", "reason"]);
  const b = JSON.parse(fallbackOutcome(Uint8Array.from([0, 255, 10]), 0, "x", null).line);
  assert.deepEqual([...Buffer.from(b.raw_b64, "base64")], [0, 255, 10]);
  assert.match(newEid(), /^[0-9a-f][0-9a-hjkmnp-tv-z]{12}$/);
});

test("entry ids come from the core; the JS fallback's have the same layout", () => {
  const core = new Core();
  const ids = Array.from({ length: 2000 }, () => core.newEid(0));
  const layout = /^[0-9a-f][0-9a-hjkmnp-tv-z]{12}$/;
  for (const id of ids) assert.match(id, layout);
  assert.equal(new Set(ids).size, ids.length);
  // The record() path draws from the same pool: its ids have the same layout and never repeat the ones above.
  const recorded = JSON.parse(core.record("note: x", 0).line).eid;
  assert.match(recorded, layout);
  assert.ok(!ids.includes(recorded));
  for (let i = 0; i < 200; i++) assert.match(newEid(), layout);
  // Drawn by the core, not by the JS fallback: with WebCrypto gone, the fallback throws and the core goes on.
  const getRandomValues = globalThis.crypto.getRandomValues;
  globalThis.crypto.getRandomValues = () => {
    throw new Error("no WebCrypto here");
  };
  try {
    assert.throws(() => newEid(), /no WebCrypto here/);
    assert.match(new Core().newEid(0), layout);
  } finally {
    globalThis.crypto.getRandomValues = getRandomValues;
  }
});

test("the JS fallback lines follow the core's own layout, stamps included", () => {
  const ctx = { capture: "cli", stamps: { pwd: "/w", repo: "r", session: "ses_1", model: "p/m" } };
  const core = new Core();
  core.setContext(ctx);
  // The marker: byte for byte the core's (it once left out capture and every stamp).
  assert.equal(fallbackMarker(1000, "0123456789abc", 3, 99, ctx, "w").line, core.marker(1000, "0123456789abc", 3, 99).line);
  // A quarantined input: the core's members in the core's order, plus `unredacted`, with the fallback's reason.
  const input = '{"a": "unterminated';
  const fromCore = JSON.parse(core.record(input, 1000).line);
  const fromEdge = JSON.parse(fallbackOutcome(input, 1000, "core failed: x", ctx, { eid: fromCore.eid }).line);
  assert.equal(fromEdge.unredacted, true);
  delete fromEdge.unredacted;
  assert.deepEqual(Object.keys(fromEdge), Object.keys(fromCore));
  assert.deepEqual({ ...fromEdge, reason: fromCore.reason }, fromCore);
});

test("recordFd reads a descriptor to the end; a read error part-way still records what arrived", () => {
  const { d, file, opts } = setup();
  const src = path.join(d, "input.txt");
  fs.writeFileSync(src, "from a file descriptor sentiment: calm");
  const fd = fs.openSync(src, "r");
  try {
    assert.equal(recordFd(fd, opts).status, "recorded");
  } finally {
    fs.closeSync(fd);
  }
  assert.equal(entries(file).at(-1).raw, "from a file descriptor sentiment: calm");
  let calls = 0;
  const seam = {
    ...fs,
    readSync: (fdIn, buf, off, len, pos) => {
      if (fdIn !== 999) return fs.readSync(fdIn, buf, off, len, pos);
      if (calls++ === 0) return buf.write("partial input", off);
      throw Object.assign(new Error("io"), { code: "EIO" });
    },
  };
  const r = recordFd(999, { ...opts, fs: seam });
  assert.equal(r.status, "recorded");
  assert.match(r.warnings.join(), /reading the input failed after 13 bytes: EIO/);
  assert.equal(entries(file).at(-1).raw, "partial input");
});

test("after an input over 8 MiB the wasm instance is reset, so its grown memory is released", () => {
  const { file, opts } = setup();
  const small = initSync({ module: undefined });
  assert.equal(record("x".repeat(1024 * 1024), opts).status, "recorded");
  assert.equal(initSync({ module: undefined }), small, "a 1 MiB input does not reset");
  const r = record(`{"big":"${"y".repeat(9 * 1024 * 1024)}"}`, opts);
  assert.equal(r.status, "recorded");
  const fresh = initSync({ module: undefined });
  assert.notEqual(fresh, small, "a fresh instance");
  assert.ok(fresh.memory.buffer.byteLength < 16 * 1024 * 1024, `memory after reset: ${fresh.memory.buffer.byteLength}`);
  assert.equal(entries(file).at(-1).eid, r.eid);
  assert.equal(record('{"next":1}', opts).status, "recorded");
});

test("redaction: on by default; off with redact:false or env AI_RECORDINGS_REDACT=0", () => {
  const { file, opts } = setup();
  const secret = "AKIAIOSFODNN7EXAMPLQ"; // an AWS access key id shape
  const input = `{"note":"key ${secret} leaked"}`;
  record(input, opts);
  record(input, { ...opts, redact: false });
  record(input, { ...opts, env: { ...opts.env, AI_RECORDINGS_REDACT: "0" } });
  record(input, { ...opts, redact: true, env: { ...opts.env, AI_RECORDINGS_REDACT: "0" } });
  const notes = entries(file).map((e) => e.note.includes(secret));
  assert.deepEqual(notes, [false, true, true, false]);
});

test("record() says what happened in a closed code", () => {
  const { d, file, opts } = setup();
  assert.equal(record('{"note":"fine"}', opts).code, "recorded");
  assert.equal(record('{"a": "unterminated', opts).code, "quarantined");
  const big = record(Buffer.alloc(SPLIT_ABOVE_BYTES + 10, 0x61), opts);
  assert.deepEqual([big.status, big.code], ["quarantined", "oversized"]);
  const dir = path.join(d, "a-dir");
  fs.mkdirSync(dir);
  const skipped = record("x", { ...opts, file: dir });
  assert.deepEqual([skipped.status, skipped.code], ["skipped", "EISDIR"]);
  assert.match(skipped.reason, /^EISDIR: /);
  // An error the writer has no words for is EOTHER, its own code still in the reason.
  const odd = { ...fs, openSync: () => { const e = new Error("weird"); e.code = "EWEIRD"; throw e; } };
  const other = record("x", { ...opts, file: path.join(d, "other.jsonl"), fs: odd });
  assert.deepEqual([other.code, other.reason.split(":")[0]], ["EOTHER", "EWEIRD"]);
  assert.ok(fs.existsSync(file));
});

test("recorder.d.ts lists exactly the writer's closed error codes", async () => {
  const { WRITE_ERROR_CODES } = await import("../../plugin/writer/index.js");
  const dts = fs.readFileSync(path.join(path.dirname(new URL(import.meta.url).pathname), "../../plugin/recorder.d.ts"), "utf8");
  const union = /export type WriteErrorCode =([^;]*);/.exec(dts)[1];
  assert.deepEqual([...union.matchAll(/"([A-Z]+)"/g)].map((m) => m[1]).sort(), [...WRITE_ERROR_CODES].sort());
});

test("every skipped status has one shape, a closed code among them", async () => {
  const { skipped } = await import("../../plugin/writer/errors.js");
  assert.deepEqual(skipped("EACCES", "/f", "EACCES: permission denied"), { status: "skipped", code: "EACCES", file: "/f", eid: null, reason: "EACCES: permission denied" });
  assert.equal(skipped("EWEIRD", "/f", "x").code, "EOTHER");
  assert.equal(skipped("EINTERNAL", undefined, "x").file, null);
  assert.deepEqual(skipped("ENOSPC", "/f", "x", ["w"]).warnings, ["w"]);
  // A recorder that throws (it never should) still gives that shape to the plugin.
  const { emit } = await import("../../plugin/capture/record-tool.js");
  const { createState } = await import("../../plugin/capture/state.js");
  const st = emit(() => { throw new Error("boom"); }, { file: "/f" }, createState(), "s", { trigger: "x" }, "/w");
  assert.deepEqual(st, { status: "skipped", code: "EINTERNAL", file: "/f", eid: null, reason: "EINTERNAL: recorder threw: boom" });
});
