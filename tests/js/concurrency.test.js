// Many real processes appending to one file with rotation at 64 KiB:
//  1. 8 writers x 1000 entries of 100 B - 256 KiB: every entry exactly once across all segments, every line
//     parses, eids unique.
//  2. the same while writers are SIGKILLed at random moments: every line parses (except a fragment torn by
//     a kill in the middle of the kernel's copy, which must sit on a line of its own), and every entry whose
//     record() had returned before the kill is there exactly once.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { spawn } from "node:child_process";
import { segments, appendLine } from "../../plugin/writer/index.js";
import { tmpdir, isolatedEnv, RUNTIME, ROOT } from "./helpers.js";

const CHILD = path.join(ROOT, "tests", "js", "stress-child.js");
const WRITERS = Number(process.env.STRESS_WRITERS || 8);
const PER_WRITER = Number(process.env.STRESS_ENTRIES || 1000);
const MAX_BYTES = 64 * 1024;

function startChild(env, id, count) {
  const p = spawn(RUNTIME, [CHILD, String(id), String(count), String(id + 1)], { env, stdio: ["ignore", "pipe", "pipe"] });
  const c = { id, proc: p, out: "", err: "", done: null, killed: false };
  p.stdout.setEncoding("utf8");
  p.stdout.on("data", (d) => (c.out += d));
  p.stderr.on("data", (d) => (c.err += d));
  c.done = new Promise((resolve) => p.on("close", (code, signal) => resolve({ code, signal })));
  return c;
}

/** Lines the child printed in full (a line cut by the kill does not count). */
function confirmed(c) {
  const ls = c.out.split("\n");
  ls.pop(); // unterminated remainder
  return ls.map((l) => {
    const [eid, child, seq, status] = l.split(" ");
    return { eid, child: Number(child), seq: Number(seq), status };
  });
}

/** Reads every segment of the main and quarantine files. */
function scan(file) {
  const q = file.replace(/\.jsonl$/, ".quarantine.jsonl");
  const segs = [...segments(file), ...segments(q)];
  const found = new Map(); // eid → count
  const keys = new Map(); // "child/seq" → count
  const bad = [];
  let total = 0;
  let blank = 0;
  let biggest = 0;
  for (const s of segs) {
    const text = fs.readFileSync(s, "utf8");
    biggest = Math.max(biggest, text.length);
    const ls = text.split("\n");
    if (ls.at(-1) === "") ls.pop(); // after the final newline
    else bad.push({ file: s, line: ls.pop(), unterminated: true }); // every segment must end with a newline, except after a kill mid-write
    for (const line of ls) {
      if (line === "") {
        blank++;
        continue;
      }
      total++;
      let e;
      try {
        e = JSON.parse(line);
      } catch {
        bad.push({ file: s, line });
        continue;
      }
      found.set(e.eid, (found.get(e.eid) ?? 0) + 1);
      const k = `${e.child}/${e.seq}`;
      keys.set(k, (keys.get(k) ?? 0) + 1);
    }
  }
  return { segs, found, keys, bad, total, blank, biggest };
}

test(`${WRITERS} processes x ${PER_WRITER} entries, 100 B - 256 KiB, rotation at 64 KiB: each entry exactly once`, { timeout: 900_000 }, async (t) => {
  const d = tmpdir("rec-stress-");
  const file = path.join(d, "rec.jsonl");
  const env = isolatedEnv(d, { AI_RECORDINGS_FILE: file, AI_RECORDINGS_MAX_BYTES: String(MAX_BYTES) });
  const started = Date.now();
  const kids = Array.from({ length: WRITERS }, (_, i) => startChild(env, i, PER_WRITER));
  for (const k of kids) {
    const r = await k.done;
    assert.equal(r.code, 0, `child ${k.id}: ${k.err}`);
  }
  const secs = (Date.now() - started) / 1000;
  const printed = kids.flatMap(confirmed);
  assert.equal(printed.length, WRITERS * PER_WRITER);
  assert.ok(printed.every((p) => p.status === "recorded"), "every append recorded");
  const { segs, found, keys, bad, total, blank } = scan(file);
  assert.ok(blank <= 8, `${blank} blank lines (only a rare race with a copy in progress may leave one)`);
  assert.deepEqual(bad.map((b) => b.line.slice(0, 80)), [], "every line parses");
  assert.equal(total, WRITERS * PER_WRITER, "no extra lines");
  assert.equal(found.size, WRITERS * PER_WRITER, "eids unique");
  for (const p of printed) assert.equal(found.get(p.eid), 1, `eid ${p.eid} of ${p.child}/${p.seq}`);
  for (let c = 0; c < WRITERS; c++) for (let s = 0; s < PER_WRITER; s++) assert.equal(keys.get(`${c}/${s}`), 1, `${c}/${s}`);
  assert.ok(segs.length > 100, `rotation happened (${segs.length} segments)`);
  assert.equal(fs.existsSync(file + ".lock"), false, "no lock left behind");
  t.diagnostic(`${WRITERS * PER_WRITER} entries in ${secs.toFixed(1)} s across ${segs.length} segments, ${blank} blank lines`);
});

test("writers killed with SIGKILL at random moments: lines parse, returned entries are all there", { timeout: 900_000 }, async (t) => {
  const d = tmpdir("rec-kill-");
  const file = path.join(d, "rec.jsonl");
  const env = isolatedEnv(d, { AI_RECORDINGS_FILE: file, AI_RECORDINGS_MAX_BYTES: String(MAX_BYTES) });
  const KILLS = Number(process.env.STRESS_KILLS || 40);
  let nextId = 0;
  const all = [];
  const live = new Set();
  const spawnOne = () => {
    const c = startChild(env, nextId++, PER_WRITER);
    all.push(c);
    live.add(c);
    c.done.then(() => live.delete(c));
  };
  for (let i = 0; i < WRITERS; i++) spawnOne();
  let kills = 0;
  while (kills < KILLS && live.size > 0) {
    await new Promise((r) => setTimeout(r, 20 + Math.random() * 180));
    const list = [...live];
    const victim = list[Math.floor(Math.random() * list.length)];
    if (!victim || victim.out.length === 0) continue; // let it start writing first
    victim.killed = true;
    victim.proc.kill("SIGKILL");
    kills++;
    await victim.done;
    spawnOne();
  }
  // Stop the rest too: the test is about what survives kills, not about finishing.
  for (const c of live) {
    c.killed = true;
    c.proc.kill("SIGKILL");
    kills++;
  }
  await Promise.all(all.map((c) => c.done));
  const printed = all.flatMap(confirmed);
  const { segs, found, bad, total, blank } = scan(file);
  // A SIGKILL can stop the kernel's copy of a large line part-way (Linux checks for fatal signals between
  // pages): that fragment must stay on its own line (the next append starts a fresh one), never glue on.
  // A writer whose check raced the kill can land right after such a fragment; it notices (the file grew by more
  // than its line) and writes its line again on a fresh line: the glued copy must then also exist cleanly.
  // The one exception is a writer killed itself between its write and that check (the final round of kills
  // stops several writers within microseconds): then the glued entry is the one its record() was still
  // running, never returned, and exists only behind the fragment.
  let glued = 0;
  let gluedUnreturned = 0;
  const byChild = new Map(all.map((c) => [c.id, c]));
  for (const b of bad) {
    assert.ok(b.line.startsWith('{"ts":"'), `unparsable line is not a torn entry: ${b.line.slice(0, 80)}`);
    const k = b.line.indexOf('{"ts":"', 1);
    if (k === -1) continue; // a fragment on a line of its own
    glued++;
    const tail = JSON.parse(b.line.slice(k)); // the entry after the fragment is complete...
    if (found.get(tail.eid) === 1) continue; // ...and also clean
    const c = byChild.get(tail.child);
    const inFlight = c !== undefined && c.killed && tail.seq === confirmed(c).length;
    assert.ok(inFlight, `glued entry ${tail.eid} (${tail.child}/${tail.seq}) was not written again cleanly, and its writer had not been killed during that record()`);
    gluedUnreturned++;
  }
  assert.ok(bad.length <= kills, `${bad.length} torn lines for ${kills} kills`);
  for (const p of printed) {
    assert.equal(p.status, "recorded");
    assert.equal(found.get(p.eid), 1, `returned entry ${p.child}/${p.seq} (${p.eid}) missing or duplicated`);
  }
  for (const [eid, n] of found) assert.equal(n, 1, `eid ${eid} appears ${n} times`);
  // Rotation still works after holders may have died holding the lock.
  const big = "x".repeat(MAX_BYTES);
  const r = appendLine(file, JSON.stringify({ big }) + "\n", { maxBytes: MAX_BYTES, statusFile: false });
  assert.equal(r.ok, true);
  const r2 = appendLine(file, '{"after":1}\n', { maxBytes: MAX_BYTES, statusFile: false });
  assert.equal(r2.rotated, true, "a stale lock from a killed writer did not block rotation");
  t.diagnostic(`${all.length} writers, ${kills} SIGKILLs, ${printed.length} confirmed entries, ${total} lines in ${segs.length} segments, ${bad.length} torn fragments (${glued} with an entry after them, ${gluedUnreturned} of those not re-written because their writer was killed in between), ${blank} blank lines`);
});
