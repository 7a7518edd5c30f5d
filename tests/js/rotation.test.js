// Size rotation in one process: naming, ordering, the lock protocol (busy, stale, crashed holder), races with
// a writer that opened before the rename, the quarantine file, and the threshold from options and env.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { appendLine, segments, quarantinePath } from "../../plugin/writer/index.js";
import { archiveStamp } from "../../plugin/paths.js";
import { record } from "../../plugin/recorder.js";
import { tmpdir, lines, spawnSync, RUNTIME } from "./helpers.js";

const quiet = { statusFile: false, sync: false };
const line = (i, pad = 40) => JSON.stringify({ i, pad: "x".repeat(pad) }) + "\n";

test("archive stamps are fixed-width UTC and sort in time order", () => {
  assert.equal(archiveStamp(0), "19700101T000000000Z");
  assert.equal(archiveStamp(Date.UTC(2026, 10, 29, 8, 5, 9, 7)), "20261129T080509007Z");
  const a = [Date.UTC(2026, 0, 2), Date.UTC(2025, 11, 31, 23, 59, 59, 999), Date.UTC(2026, 0, 1, 0, 0, 0, 1)];
  const names = a.map(archiveStamp);
  assert.deepEqual([...names].sort(), [...a].sort((x, y) => x - y).map(archiveStamp));
});

test("rotates before the file would pass maxBytes; archives keep every line; order is recoverable", () => {
  const d = tmpdir();
  const f = path.join(d, "rec.jsonl");
  let t = Date.UTC(2026, 10, 29, 12, 0, 0, 0);
  const opts = { ...quiet, maxBytes: 1024, now: () => t };
  const written = [];
  for (let i = 0; i < 100; i++) {
    const l = line(i);
    written.push(l.trimEnd());
    const r = appendLine(f, l, opts);
    assert.equal(r.ok, true);
    if (i % 40 === 0) t += 1; // several rotations share a millisecond: they get .1, .2 suffixes
  }
  const segs = segments(f);
  assert.ok(segs.length > 5, `only ${segs.length} segments`);
  assert.equal(segs.at(-1), f);
  assert.ok(segs.some((s) => /\.\d{8}T\d{9}Z\.1\.jsonl$/.test(s)), "a same-millisecond rotation got a .1 suffix");
  // Reading the segments in order gives back every line, in order.
  assert.deepEqual(segs.flatMap(lines), written);
  for (const s of segs) {
    assert.ok(fs.statSync(s).size <= 1024, `${s} is ${fs.statSync(s).size} bytes`);
    // archives are sealed read-only (writers keeping a descriptor see the mode change); the live file is 0600
    assert.equal(fs.statSync(s).mode & 0o777, s === f ? 0o600 : 0o400, s);
  }
  assert.equal(fs.existsSync(f + ".lock"), false, "the lock is released");
});

test("one line larger than maxBytes still goes in, alone in its segment", () => {
  const f = path.join(tmpdir(), "rec.jsonl");
  const opts = { ...quiet, maxBytes: 100 };
  appendLine(f, line(1, 10), opts);
  appendLine(f, line(2, 500), opts);
  appendLine(f, line(3, 10), opts);
  const segs = segments(f);
  assert.deepEqual(segs.map((s) => lines(s).map((l) => JSON.parse(l).i)), [[1], [2], [3]]);
});

test("the quarantine file rotates by the same rule and is not mixed into the main segments", () => {
  const d = tmpdir();
  const f = path.join(d, "rec.jsonl");
  const q = quarantinePath(f);
  for (let i = 0; i < 30; i++) {
    appendLine(f, line(i), { ...quiet, maxBytes: 300 });
    appendLine(q, line(1000 + i), { ...quiet, maxBytes: 300 });
  }
  const main = segments(f);
  const quar = segments(q);
  assert.ok(quar.length > 3);
  assert.ok(quar.every((s) => path.basename(s).startsWith("rec.quarantine.")));
  assert.ok(main.every((s) => !s.includes("quarantine")));
  assert.deepEqual(main.flatMap(lines).map((l) => JSON.parse(l).i), [...Array(30).keys()]);
  assert.deepEqual(quar.flatMap(lines).map((l) => JSON.parse(l).i), [...Array(30).keys()].map((i) => 1000 + i));
});

test("recorder: maxBytes from options and from env AI_RECORDINGS_MAX_BYTES", () => {
  for (const how of ["option", "env"]) {
    const d = tmpdir();
    const f = path.join(d, "rec.jsonl");
    const opts = { file: f, statusFile: false, sync: false, cwd: d };
    if (how === "option") opts.maxBytes = 2048;
    else opts.env = { AI_RECORDINGS_MAX_BYTES: "2048", HOME: d };
    for (let i = 0; i < 40; i++) assert.equal(record(JSON.stringify({ i, pad: "y".repeat(200) }), opts).status, "recorded");
    const segs = segments(f);
    assert.ok(segs.length >= 4, `${how}: ${segs.length} segments`);
    assert.deepEqual(segs.flatMap(lines).map((l) => JSON.parse(l).i), [...Array(40).keys()], how);
  }
});

test("a live lock holder makes others append to the current file instead of waiting", () => {
  const f = path.join(tmpdir(), "rec.jsonl");
  fs.writeFileSync(f, line(0, 200));
  // A lock held by a live process (this test runner's parent) that is fresh: not stale.
  fs.writeFileSync(f + ".lock", JSON.stringify({ pid: process.ppid || 1, host: os.hostname(), t: Date.now() }));
  const r = appendLine(f, line(1), { ...quiet, maxBytes: 100 });
  assert.equal(r.ok, true);
  assert.equal(r.rotated, false);
  assert.deepEqual(segments(f), [f]);
  assert.equal(lines(f).length, 2);
  fs.unlinkSync(f + ".lock");
  assert.equal(appendLine(f, line(2), { ...quiet, maxBytes: 100 }).rotated, true);
});

function deadPid() {
  const r = spawnSync(RUNTIME, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(r.stdout);
}

test("stale locks are broken: dead holder, old holder, empty lock from a crash", () => {
  const cases = [
    ["dead pid", (lock) => fs.writeFileSync(lock, JSON.stringify({ pid: deadPid(), host: os.hostname(), t: Date.now() }))],
    ["older than staleLockMs", (lock) => fs.writeFileSync(lock, JSON.stringify({ pid: process.ppid || 1, host: "elsewhere", t: Date.now() - 60_000 }))],
    [
      "empty, a second old",
      (lock) => {
        fs.writeFileSync(lock, "");
        const old = new Date(Date.now() - 5000);
        fs.utimesSync(lock, old, old);
      },
    ],
  ];
  for (const [name, makeLock] of cases) {
    const f = path.join(tmpdir(), "rec.jsonl");
    fs.writeFileSync(f, line(0, 200));
    makeLock(f + ".lock");
    const r = appendLine(f, line(1), { ...quiet, maxBytes: 100 });
    assert.equal(r.rotated, true, name);
    assert.equal(fs.existsSync(f + ".lock"), false, `${name}: lock removed`);
    assert.equal(segments(f).length, 2, name);
    assert.deepEqual(fs.readdirSync(path.dirname(f)).filter((n) => n.includes(".stale.")), [], `${name}: no leftovers`);
  }
  // A fresh empty lock (holder between create and write) is respected.
  const f = path.join(tmpdir(), "rec.jsonl");
  fs.writeFileSync(f, line(0, 200));
  fs.writeFileSync(f + ".lock", "");
  assert.equal(appendLine(f, line(1), { ...quiet, maxBytes: 100 }).rotated, false);
});

test("a writer that opened the file just before another rotated it appends a whole line that readers find", () => {
  const d = tmpdir();
  const f = path.join(d, "rec.jsonl");
  fs.writeFileSync(f, line(0));
  let raced = false;
  const seam = {
    ...fs,
    writeSync: (fd, ...rest) => {
      if (!raced) {
        raced = true;
        // Another process rotates between our open and our write.
        assert.equal(appendLine(f, line(1, 200), { ...quiet, maxBytes: 100 }).rotated, true);
      }
      return fs.writeSync(fd, ...rest);
    },
  };
  const r = appendLine(f, line(2), { ...quiet, maxBytes: 1 << 20, fs: seam });
  assert.equal(r.ok, true);
  const all = segments(f).flatMap(lines).map((l) => JSON.parse(l).i).sort();
  assert.deepEqual(all, [0, 1, 2]);
});

test("two rotators racing for one file: only the one holding the lock renames, no empty archives", () => {
  const d = tmpdir();
  const f = path.join(d, "rec.jsonl");
  fs.writeFileSync(f, line(0, 300));
  let inner = true;
  const seam = {
    ...fs,
    linkSync: (from, to) => {
      // Just as our writer takes the lock, a second writer (same size view) tries to rotate too.
      const r = fs.linkSync(from, to);
      if (inner && to === f + ".lock") {
        inner = false;
        const other = appendLine(f, line(1), { ...quiet, maxBytes: 100 });
        assert.equal(other.rotated, false, "the second writer saw the lock and did not rotate");
      }
      return r;
    },
  };
  assert.equal(appendLine(f, line(2), { ...quiet, maxBytes: 100, fs: seam }).rotated, true);
  const segs = segments(f);
  assert.equal(segs.length, 2);
  for (const s of segs) assert.ok(fs.statSync(s).size > 0, `${s} is empty`);
  assert.deepEqual(segs.flatMap(lines).map((l) => JSON.parse(l).i).sort(), [0, 1, 2]);
});

test("a failed rotation keeps appending to the old file with a warning", () => {
  const f = path.join(tmpdir(), "rec.jsonl");
  fs.writeFileSync(f, line(0, 200));
  const seam = {
    ...fs,
    renameSync: () => {
      throw Object.assign(new Error("no"), { code: "EPERM" });
    },
  };
  const r = appendLine(f, line(1), { ...quiet, maxBytes: 100, fs: seam });
  assert.equal(r.ok, true);
  assert.match(r.warnings.join(), /rotation failed.*EPERM/);
  assert.equal(lines(f).length, 2);
  assert.equal(fs.existsSync(f + ".lock"), false);
});

test("the lock never exists without its holder's pid in it, and no lock litter is left", () => {
  const d = tmpdir();
  const f = path.join(d, "rec.jsonl");
  fs.writeFileSync(f, line(0, 200));
  let seen = null;
  const seam = {
    ...fs,
    renameSync: (a, b) => {
      if (a === f) seen = fs.readFileSync(f + ".lock", "utf8"); // inside the critical section
      return fs.renameSync(a, b);
    },
  };
  assert.equal(appendLine(f, line(1), { ...quiet, maxBytes: 100, fs: seam }).rotated, true);
  assert.equal(JSON.parse(seen).pid, process.pid);
  assert.deepEqual(fs.readdirSync(d).filter((n) => n.includes(".lock")), []);
});
