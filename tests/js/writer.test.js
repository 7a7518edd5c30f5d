// The writer on its own: one line per append, modes, torn tails, short writes, sync variants, status record.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import * as writer from "../../plugin/writer/index.js";
import { createWriter, quarantinePath, readStatus, describeError, DEFAULT_MAX_BYTES, KEEP_OPEN_MS, PATH_CHECK_MS, VERIFY_MS, PENDING_MAX_BYTES } from "../../plugin/writer/index.js";
import { tmpdir, lines, openPaths } from "./helpers.js";
import { manualClock } from "./fake-clock.js";

const quiet = { statusFile: false };

/** A writer of this file's own (its kept descriptors and burst timing apart from any other suite's). */
const { appendLine, closeKept } = createWriter();

/** A writer on a clock the test moves (`clock.t`, ms) and timers it fires (`timers.fire()`). */
function clocked() {
  const { clock, now, timers } = manualClock();
  return { ...createWriter({ clock: now, timers }), clock, timers };
}

/** node:fs with some functions replaced (fault injection through the writer's `fs` seam). */
function fsWith(overrides) {
  return { ...fs, ...overrides };
}

/** The arguments of fs.writeSync as [bytes, offset, length], whether it was called (fd, string) — the writer
 *  hands strings to the runtime to encode — or (fd, buffer, offset, length). */
function asBytes(buf, off, len) {
  if (typeof buf === "string") {
    const b = Buffer.from(buf, "utf8");
    return [b, 0, b.length];
  }
  return [buf, off ?? 0, len ?? buf.length - (off ?? 0)];
}

test("appends complete lines and adds a missing final newline", () => {
  const f = path.join(tmpdir(), "r.jsonl");
  assert.equal(appendLine(f, '{"a":1}\n', quiet).ok, true);
  assert.equal(appendLine(f, '{"b":2}', quiet).ok, true);
  assert.equal(appendLine(f, Buffer.from('{"c":"é"}\n'), quiet).ok, true);
  assert.deepEqual(lines(f), ['{"a":1}', '{"b":2}', '{"c":"é"}']);
});

test("creates missing parents with 0700 and the file with 0600", () => {
  const old = process.umask(0o022);
  try {
    const d = tmpdir();
    const f = path.join(d, "a", "b", "r.jsonl");
    assert.equal(appendLine(f, "{}\n", quiet).ok, true);
    assert.equal(fs.statSync(f).mode & 0o777, 0o600);
    assert.equal(fs.statSync(path.join(d, "a")).mode & 0o777, 0o700);
    assert.equal(fs.statSync(path.join(d, "a", "b")).mode & 0o777, 0o700);
  } finally {
    process.umask(old);
  }
});

test("a torn last line (no final newline) is closed before the next entry", () => {
  const f = path.join(tmpdir(), "r.jsonl");
  fs.writeFileSync(f, '{"ok":1}\n{"torn":');
  const r = appendLine(f, '{"next":2}\n', quiet);
  assert.equal(r.ok, true);
  assert.match(r.warnings.join(), /torn/);
  assert.deepEqual(lines(f), ['{"ok":1}', '{"torn":', '{"next":2}']);
  // A clean file gets no extra newline.
  const r2 = appendLine(f, '{"n":3}\n', quiet);
  assert.equal(r2.warnings, undefined);
  assert.deepEqual(lines(f).slice(-2), ['{"next":2}', '{"n":3}']);
});

test("a line still being copied by another writer is waited for through an empty write, not taken for torn", () => {
  // The other writer's line is half there (no final newline yet); it finishes when the kernel lets our empty
  // write(2) take the inode lock. Taking the half line for a torn one would add a blank line and a warning.
  const f = path.join(tmpdir(), "r.jsonl");
  fs.writeFileSync(f, '{"ok":1}\n{"other":');
  const empties = [];
  const seam = fsWith({
    writeSync(fd, buf, off, len, ...rest) {
      if (len === 0) {
        empties.push(fd);
        fs.appendFileSync(f, '"writer"}\n'); // the copy in progress completes
        return 0;
      }
      return fs.writeSync(fd, buf, off, len, ...rest);
    },
  });
  const r = appendLine(f, '{"mine":2}\n', { ...quiet, fs: seam });
  assert.equal(r.ok, true);
  assert.equal(r.warnings, undefined);
  assert.equal(empties.length, 1);
  assert.deepEqual(lines(f), ['{"ok":1}', '{"other":"writer"}', '{"mine":2}']);
});

test("an empty write returns only once another process's write in progress is done (the kernel's inode lock)", async () => {
  // What endsClean relies on, on this machine's real filesystem: a child writes 256 MiB in one write(2); an
  // empty write issued meanwhile returns after it, when the file has its full size.
  const f = path.join(tmpdir(), "big");
  fs.writeFileSync(f, "");
  const { spawn } = await import("node:child_process");
  const size = 256 << 20;
  const child = spawn(process.execPath, ["-e", `const fs=require("fs");const b=Buffer.alloc(${size},97);const fd=fs.openSync(${JSON.stringify(f)},"a");process.stdout.write("go\\n");fs.writeSync(fd,b);`], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise((resolve) => child.stdout.once("data", resolve));
  const fd = fs.openSync(f, "a");
  try {
    let before = 0;
    while ((before = fs.fstatSync(fd).size) === 0) await new Promise((r) => setImmediate(r)); // the copy began
    fs.writeSync(fd, Buffer.alloc(0), 0, 0);
    const after = fs.fstatSync(fd).size;
    assert.ok(before < size, `the copy was still running when we looked (${before} of ${size} bytes)`);
    assert.equal(after, size, "the empty write returned before the copy in progress was done");
  } finally {
    fs.closeSync(fd);
    await new Promise((r) => (child.exitCode === null ? child.once("exit", r) : r()));
    fs.rmSync(f, { force: true });
  }
});

test("short writes are continued until the whole line is written", () => {
  const f = path.join(tmpdir(), "r.jsonl");
  let calls = 0;
  const seam = fsWith({
    writeSync: (fd, ...args) => {
      calls++;
      const [buf, off, len] = asBytes(...args);
      return fs.writeSync(fd, buf, off, Math.min(len, 7)); // the kernel takes at most 7 bytes per call
    },
  });
  // Multi-byte characters: the writer continues a string line at a byte offset, possibly inside a character.
  const line = JSON.stringify({ note: "x".repeat(100) + "é😀 done" }) + "\n";
  assert.equal(appendLine(f, line, { ...quiet, fs: seam }).ok, true);
  assert.ok(calls >= Math.ceil(Buffer.byteLength(line) / 7), `writeSync called ${calls} times`);
  assert.equal(fs.readFileSync(f, "utf8"), line);
});

test("a write that stops short fails with a reason and leaves the file ending in a newline", () => {
  const f = path.join(tmpdir(), "r.jsonl");
  fs.writeFileSync(f, '{"before":1}\n');
  let first = true;
  const seam = fsWith({
    writeSync: (fd, ...args) => {
      const [buf, off, len] = asBytes(...args);
      if (first) {
        first = false;
        return fs.writeSync(fd, buf, off, 5); // part of the line reaches the file...
      }
      if (len === 1) return fs.writeSync(fd, buf, off, len); // ...the closing newline still fits
      return 0; // ...then nothing more is accepted
    },
  });
  const r = appendLine(f, '{"entry":"long enough"}\n', { ...quiet, fs: seam });
  assert.equal(r.ok, false);
  assert.match(r.reason, /^SHORT: short write/);
  assert.deepEqual(lines(f), ['{"before":1}', '{"ent']);
  assert.equal(appendLine(f, '{"after":2}\n', quiet).ok, true);
  assert.deepEqual(lines(f).at(-1), '{"after":2}');
});

test("fdatasync runs after each append by default; sync:false and AI_RECORDINGS_SYNC=0 turn it off", () => {
  const f = path.join(tmpdir(), "r.jsonl");
  let syncs = 0;
  const seam = fsWith({
    fdatasyncSync: (fd) => {
      syncs++;
      return fs.fdatasyncSync(fd);
    },
  });
  for (const [opts, want] of [
    [{}, 1],
    [{ sync: true }, 1],
    [{ sync: false }, 0],
    [{ env: { AI_RECORDINGS_SYNC: "0" } }, 0],
    [{ env: { AI_RECORDINGS_SYNC: "1" } }, 1],
  ]) {
    syncs = 0;
    assert.equal(appendLine(f, "{}\n", { ...quiet, fs: seam, ...opts }).ok, true);
    assert.equal(syncs, want, JSON.stringify(opts));
  }
});

test("a file deleted between open and write gets the line again in a new file", () => {
  const f = path.join(tmpdir(), "r.jsonl");
  fs.writeFileSync(f, '{"old":1}\n');
  let once = true;
  const seam = fsWith({
    writeSync: (fd, ...rest) => {
      if (once) {
        once = false;
        fs.unlinkSync(f); // deleted underneath, after our open
      }
      return fs.writeSync(fd, ...rest);
    },
  });
  const r = appendLine(f, '{"new":2}\n', { ...quiet, fs: seam });
  assert.equal(r.ok, true);
  assert.match(r.warnings.join(), /deleted/);
  assert.deepEqual(lines(f), ['{"new":2}']);
});

test("failures never throw: odd errors from fs come back as reasons", () => {
  const f = path.join(tmpdir(), "r.jsonl");
  const seam = fsWith({
    openSync: () => {
      throw "a string, not an Error"; // eslint-disable-line no-throw-literal
    },
  });
  const r = appendLine(f, "{}\n", { ...quiet, fs: seam });
  assert.equal(r.ok, false);
  assert.match(r.reason, /^EUNKNOWN: /);
  const r2 = appendLine(f, "{}\n", { ...quiet, fs: fsWith({ fstatSync: () => { const e = new Error("io"); e.code = "EIO"; throw e; } }) });
  assert.equal(r2.reason, "EIO: input/output error");
});

test("describeError gives CODE: plain words", () => {
  const cases = [
    ["EACCES", "EACCES: permission denied"],
    ["EROFS", "EROFS: read-only filesystem"],
    ["ENOSPC", "ENOSPC: no space left on device"],
    ["EISDIR", "EISDIR: target is a directory"],
    ["ENOTDIR", "ENOTDIR: a parent of the target is not a directory"],
    ["ELOOP", "ELOOP: target is a symlink (not followed; point at the real file)"],
  ];
  for (const [code, want] of cases) assert.equal(describeError(Object.assign(new Error("x"), { code })), want);
});

test("the status record notes failures with reason and count, and the next success", () => {
  const d = tmpdir();
  const statusFile = path.join(d, "state", "status.json");
  const target = path.join(d, "dir-target");
  fs.mkdirSync(target);
  let t = 1_000_000;
  const opts = { statusFile, now: () => t };
  assert.equal(appendLine(target, "{}\n", opts).ok, false);
  t += 10;
  assert.equal(appendLine(target, "{}\n", opts).ok, false);
  let s = readStatus({ statusFile }).targets[target];
  assert.equal(s.misses, 2);
  assert.equal(s.lastReason, "EISDIR: target is a directory");
  assert.equal(s.lastFailure, new Date(1_000_010).toISOString());
  assert.equal(fs.statSync(statusFile).mode & 0o777, 0o600);
  // Healthy again: the first success after a failure is noted at once.
  fs.rmdirSync(target);
  t += 10;
  assert.equal(appendLine(target, "{}\n", opts).ok, true);
  s = readStatus({ statusFile }).targets[target];
  assert.equal(s.lastSuccess, new Date(1_000_020).toISOString());
  assert.equal(s.misses, 2);
});

test("an unwritable status record never breaks an append", () => {
  const d = tmpdir();
  const blocker = path.join(d, "file");
  fs.writeFileSync(blocker, "");
  const f = path.join(d, "r.jsonl");
  const r = appendLine(f, "{}\n", { statusFile: path.join(blocker, "status.json") });
  assert.equal(r.ok, true);
  assert.deepEqual(lines(f), ["{}"]);
});

test("the status record defaults under XDG_STATE_HOME", () => {
  const d = tmpdir();
  const target = path.join(d, "x");
  fs.mkdirSync(target);
  appendLine(target, "{}\n", { env: { XDG_STATE_HOME: path.join(d, "xdg") } });
  const s = JSON.parse(fs.readFileSync(path.join(d, "xdg", "opencode-recordings", "status.json"), "utf8"));
  assert.equal(s.targets[target].misses, 1);
});

test("quarantine sibling names", () => {
  assert.equal(quarantinePath("/a/ai_recordings.jsonl"), "/a/ai_recordings.quarantine.jsonl");
  assert.equal(quarantinePath("/a/notes"), "/a/notes.quarantine.jsonl");
  assert.equal(quarantinePath("/a/x.log"), "/a/x.quarantine.jsonl");
  assert.equal(DEFAULT_MAX_BYTES, 16 * 1024 * 1024);
});

test("a line that lands right after another writer's torn fragment is written again on a fresh line", () => {
  // A lone append (fstat before and after), and one in a burst (a kept descriptor checked by reads alone).
  for (const burst of [false, true]) {
    for (const [intruder, glued] of [
      ['{"ts":"torn-by-a-kill', true], // a fragment: ours is glued to it
      ['{"other":"complete"}\n', false], // a complete line: nothing to repair
    ]) {
      const f = path.join(tmpdir(), "r.jsonl");
      fs.writeFileSync(f, '{"first":1}\n');
      const before = burst ? ['{"warm":1}', '{"warm":2}'] : [];
      for (const w of before) appendLine(f, w + "\n", quiet);
      let once = true;
      let fstats = 0;
      const seam = fsWith({
        writeSync: (fd, ...rest) => {
          if (once) {
            once = false;
            fs.appendFileSync(f, intruder); // after our tail check, before our write
          }
          return fs.writeSync(fd, ...rest);
        },
        fstatSync: (...a) => {
          fstats++;
          return fs.fstatSync(...a);
        },
      });
      const line = '{"ts":"2026-01-01T00:00:00.000Z","eid":"0123456789abc","n":2}\n';
      const r = appendLine(f, line, { ...quiet, fs: seam });
      assert.equal(r.ok, true);
      if (glued) {
        assert.match(r.warnings.join(), /torn line ended just before ours/);
        assert.deepEqual(lines(f), ['{"first":1}', ...before, '{"ts":"torn-by-a-kill' + line.trimEnd(), line.trimEnd()]);
      } else {
        assert.equal(r.warnings, undefined);
        assert.deepEqual(lines(f), ['{"first":1}', ...before, '{"other":"complete"}', line.trimEnd()]);
        if (burst) assert.equal(fstats, 0, "a burst's append checked by reads, not fstat");
      }
      closeKept();
    }
  }
});

test("in a burst, a torn tail left since our last append still starts our line on a fresh line", () => {
  const f = path.join(tmpdir(), "r.jsonl");
  appendLine(f, '{"n":1}\n', quiet);
  appendLine(f, '{"n":2}\n', quiet); // kept
  appendLine(f, '{"n":3}\n', quiet); // checked by reads
  fs.appendFileSync(f, '{"torn":'); // another writer, killed mid-line
  const r = appendLine(f, '{"n":4}\n', quiet);
  assert.equal(r.ok, true);
  assert.match(r.warnings.join(), /torn line/);
  assert.deepEqual(lines(f), ['{"n":1}', '{"n":2}', '{"n":3}', '{"torn":', '{"n":4}']);
  assert.equal(appendLine(f, '{"n":5}\n', quiet).warnings, undefined);
  assert.equal(lines(f).at(-1), '{"n":5}');
  closeKept();
});

// ---------------------------------------------------------------------------------------------------------
// Kept descriptors: a burst of appends keeps the O_APPEND descriptor, re-validated by one lstat of the path.

/** Descriptors of this process that point at `target` (Linux /proc; null where there is none). */
function openFdsTo(target) {
  const held = openPaths();
  return held === null ? null : held.filter((p) => p.startsWith(target)).length;
}

function countingFs() {
  const seam = fsWith({
    openSync: (...a) => {
      seam.opens++;
      return fs.openSync(...a);
    },
    lstatSync: (...a) => {
      seam.lstats++;
      return fs.lstatSync(...a);
    },
  });
  seam.opens = 0;
  seam.lstats = 0;
  return seam;
}

test("a lone append holds no descriptor; a burst keeps one, and closeKept() releases it", () => {
  const f = path.join(tmpdir(), "r.jsonl");
  const seam = countingFs();
  assert.equal(appendLine(f, '{"n":1}\n', { ...quiet, fs: seam }).ok, true);
  if (openFdsTo(f) !== null) assert.equal(openFdsTo(f), 0, "nothing open after a lone append");
  for (let i = 2; i <= 5; i++) assert.equal(appendLine(f, `{"n":${i}}\n`, { ...quiet, fs: seam }).ok, true);
  assert.equal(seam.opens, 2, "opened for the lone append and once for the burst");
  if (openFdsTo(f) !== null) assert.equal(openFdsTo(f), 1, "one kept descriptor");
  closeKept();
  if (openFdsTo(f) !== null) assert.equal(openFdsTo(f), 0);
  assert.deepEqual(lines(f).map((l) => JSON.parse(l).n), [1, 2, 3, 4, 5]);
});

test("a kept descriptor is closed after a quiet second (unref'd timer), its held lines checked first", () => {
  const f = path.join(tmpdir(), "r.jsonl");
  const w = clocked();
  w.appendLine(f, "{}\n", quiet);
  w.appendLine(f, "{}\n", quiet);
  // deleted, then one more line through the kept descriptor (checked by reads): the timer's check finds the
  // deletion and writes the line again to the path
  fs.unlinkSync(f);
  assert.equal(w.appendLine(f, '{"last":1}\n', quiet).ok, true);
  if (openFdsTo(f) !== null) assert.equal(openFdsTo(f), 1);
  assert.equal(typeof w.timers.pending, "function", "an idle sweep is scheduled");
  assert.ok(w.timers.unrefs >= 1, "its timer is unref'd");
  w.clock.t += KEEP_OPEN_MS / 2;
  w.timers.fire(); // not idle long enough: kept, the sweep scheduled again
  assert.equal(fs.existsSync(f), false, "nothing written again yet");
  if (openFdsTo(f) !== null) assert.equal(openFdsTo(f), 1);
  w.clock.t += KEEP_OPEN_MS;
  w.timers.fire();
  assert.deepEqual(lines(f), ['{"last":1}']);
  if (openFdsTo(f) !== null) assert.equal(openFdsTo(f), 0);
  assert.equal(w.timers.pending, null, "nothing kept, no sweep scheduled");
});

test("the module's appendLine and closeKept serve one default writer", () => {
  const f = path.join(tmpdir(), "r.jsonl");
  const seam = countingFs();
  for (let i = 1; i <= 4; i++) assert.equal(writer.appendLine(f, `{"n":${i}}\n`, { ...quiet, fs: seam }).ok, true);
  assert.equal(seam.opens, 2, "opened for the lone append and once for the burst");
  if (openFdsTo(f) !== null) assert.equal(openFdsTo(f), 1, "one kept descriptor");
  closeKept(); // another writer's closeKept leaves the default writer's descriptor alone
  if (openFdsTo(f) !== null) assert.equal(openFdsTo(f), 1);
  writer.closeKept();
  if (openFdsTo(f) !== null) assert.equal(openFdsTo(f), 0);
  assert.deepEqual(lines(f).map((l) => JSON.parse(l).n), [1, 2, 3, 4]);
});

test("a kept descriptor notices the file renamed, deleted, replaced, chmod'ed or replaced by a symlink", () => {
  const d = tmpdir();
  const f = path.join(d, "r.jsonl");
  const { appendLine, clock } = clocked();
  // Past the window in which a kept descriptor is used without an fstat (VERIFY_MS), and past the path check's.
  const pastVerify = () => (clock.t += VERIFY_MS + 5);
  const pastPathCheck = () => (clock.t += PATH_CHECK_MS + 10);
  const burst = () => {
    appendLine(f, '{"warm":1}\n', quiet);
    appendLine(f, '{"warm":2}\n', quiet);
  };
  const all = () => fs.readdirSync(d).filter((n) => n.endsWith(".jsonl")).flatMap((n) => lines(path.join(d, n)));
  // renamed away and sealed, as another process's rotation does: within VERIFY_MS of the last check a line may
  // still go to the archive (complete there, where readers find it); the fstat after that shows the seal and
  // the next line goes to the new file at the path, without a path lookup
  burst();
  fs.renameSync(f, path.join(d, "archive.jsonl"));
  fs.chmodSync(path.join(d, "archive.jsonl"), 0o400);
  assert.equal(appendLine(f, '{"after":"rotation","n":1}\n', quiet).ok, true);
  pastVerify();
  let seam = countingFs();
  assert.equal(appendLine(f, '{"after":"rotation","n":2}\n', { ...quiet, fs: seam }).ok, true);
  assert.equal(lines(f).at(-1), '{"after":"rotation","n":2}');
  assert.equal(seam.opens, 1, "reopened");
  assert.equal(seam.lstats, 0, "told by the seal, not by the path (the path check is not due)");
  assert.equal(all().filter((l) => l.includes('"rotation"')).length, 2, "each line once, archive or new file");
  // renamed away by anything else (mv): the rename moves the file's ctime but not its size, which sends the next
  // checked append to the path — where timestamps are fine-grained enough to show it (Linux 6.13+ on ext4, xfs,
  // btrfs, tmpfs); elsewhere lines may still reach the renamed file until the next path check, at most
  // PATH_CHECK_MS later. None is lost either way, and after that they go to the path.
  burst();
  fs.renameSync(f, path.join(d, "moved-away.jsonl"));
  assert.equal(appendLine(f, '{"after":"mv","n":1}\n', quiet).ok, true);
  pastPathCheck();
  assert.equal(appendLine(f, '{"after":"mv","n":2}\n', quiet).ok, true);
  assert.equal(lines(f).at(-1), '{"after":"mv","n":2}');
  assert.equal([...lines(f), ...lines(path.join(d, "moved-away.jsonl"))].filter((l) => l.includes('"mv"')).length, 2);
  // deleted: a line appended to the unlinked file before the check is written again to the new file, ahead of
  // the line that found out. So are the lines appended since the previous check, which may have gone before the
  // deletion: the writer cannot tell (here the burst's two lines)
  const warm = ['{"warm":1}', '{"warm":2}'];
  burst();
  fs.unlinkSync(f);
  assert.equal(appendLine(f, '{"after":"delete","n":1}\n', quiet).ok, true);
  pastVerify();
  const found = appendLine(f, '{"after":"delete","n":2}\n', quiet);
  assert.equal(found.ok, true);
  assert.match(found.warnings.join(), /deleted during a burst of appends; wrote the \d line\(s\) appended since the last check again/);
  const resent = (got, tail) => {
    assert.deepEqual(got.slice(-tail.length), tail);
    assert.ok(got.slice(0, -tail.length).every((l) => warm.includes(l)), got.join("\n"));
  };
  resent(lines(f), ['{"after":"delete","n":1}', '{"after":"delete","n":2}']);
  // replaced by another file (the old one unlinked by the rename): the same
  burst();
  fs.writeFileSync(path.join(d, "other"), '{"other":1}\n');
  fs.renameSync(path.join(d, "other"), f);
  assert.equal(appendLine(f, '{"after":"replace","n":1}\n', quiet).ok, true);
  pastVerify();
  assert.equal(appendLine(f, '{"after":"replace","n":2}\n', quiet).ok, true);
  assert.equal(lines(f)[0], '{"other":1}');
  resent(lines(f).slice(1), ['{"after":"replace","n":1}', '{"after":"replace","n":2}']);
  // chmod: reopened once a check sees it (a fresh open decides)
  burst();
  fs.chmodSync(f, 0o640);
  pastVerify();
  seam = countingFs();
  assert.equal(appendLine(f, "{}\n", { ...quiet, fs: seam }).ok, true);
  assert.equal(seam.opens, 1, "reopened after chmod");
  assert.equal(appendLine(f, "{}\n", { ...quiet, fs: seam }).ok, true);
  assert.equal(seam.opens, 1, "kept again");
  // replaced by a symlink: refused (ELOOP) once the path is looked at, the victim never touched
  burst();
  const victim = path.join(d, "victim.txt");
  fs.writeFileSync(victim, "keep out\n");
  fs.renameSync(f, path.join(d, "moved.jsonl"));
  fs.symlinkSync(victim, f);
  appendLine(f, '{"x":1}\n', quiet); // to the moved file (still our descriptor) or refused: never the victim
  assert.equal(fs.readFileSync(victim, "utf8"), "keep out\n");
  pastPathCheck();
  const r = appendLine(f, '{"x":2}\n', quiet);
  assert.equal(r.ok, false);
  assert.match(r.reason, /^ELOOP: /);
  assert.equal(fs.readFileSync(victim, "utf8"), "keep out\n");
});

test("lines appended to a file deleted under a burst are written again: by closeKept(), at exit, past the byte bound", () => {
  const d = tmpdir();
  const f = path.join(d, "r.jsonl");
  // closeKept(), as the idle timer and the exit hook do
  appendLine(f, '{"n":1}\n', quiet);
  appendLine(f, '{"n":2}\n', quiet);
  fs.unlinkSync(f);
  for (let i = 3; i <= 5; i++) assert.equal(appendLine(f, `{"n":${i}}\n`, quiet).ok, true);
  closeKept();
  assert.deepEqual(lines(f).map((l) => JSON.parse(l).n), [3, 4, 5]);
  // more than PENDING_MAX_BYTES of lines: a check runs before the bound is passed, so at most that much waits
  const big = "x".repeat(1000);
  appendLine(f, '{"n":6}\n', quiet);
  fs.unlinkSync(f);
  const count = Math.ceil((3 * PENDING_MAX_BYTES) / 1024);
  for (let i = 0; i < count; i++) assert.equal(appendLine(f, `{"i":${i},"pad":"${big}"}\n`, quiet).ok, true);
  assert.ok(lines(f).length >= count - Math.ceil(PENDING_MAX_BYTES / 1024), "written again without waiting for the end");
  closeKept();
  assert.deepEqual(lines(f).map((l) => JSON.parse(l).i).filter((i) => i !== undefined), Array.from({ length: count }, (_, i) => i));
  // a process that exits right after such appends (its exit hook checks the kept descriptors)
  const g = path.join(d, "exit.jsonl");
  const script = `
    import * as fs from "node:fs";
    import { appendLine } from ${JSON.stringify(new URL("../../plugin/writer/index.js", import.meta.url).href)};
    const f = ${JSON.stringify(g)};
    appendLine(f, '{"n":1}\\n', { statusFile: false });
    appendLine(f, '{"n":2}\\n', { statusFile: false });
    fs.unlinkSync(f);
    appendLine(f, '{"n":3}\\n', { statusFile: false });
  `;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(lines(g), ['{"n":3}']);
});

test("an error on a kept descriptor closes it and retries once with a fresh open", () => {
  const f = path.join(tmpdir(), "r.jsonl");
  appendLine(f, '{"n":1}\n', quiet);
  appendLine(f, '{"n":2}\n', quiet); // now kept
  // the kept descriptor fails once (EBADF); the retry through a fresh open succeeds, the line once
  let fail = 1;
  const seam = countingFs();
  seam.writeSync = (...a) => {
    if (fail-- > 0) throw Object.assign(new Error("bad fd"), { code: "EBADF" });
    return fs.writeSync(...a);
  };
  assert.equal(appendLine(f, '{"n":3}\n', { ...quiet, fs: seam }).ok, true);
  assert.equal(seam.opens, 1);
  assert.deepEqual(lines(f).map((l) => JSON.parse(l).n), [1, 2, 3]);
  // a fault that persists gives the fresh open's status, and nothing stays open
  appendLine(f, '{"n":4}\n', quiet);
  const full = fsWith({ writeSync: () => { throw Object.assign(new Error("full"), { code: "ENOSPC" }); } });
  const r = appendLine(f, '{"n":5}\n', { ...quiet, fs: full });
  assert.equal(r.reason, "ENOSPC: no space left on device");
  if (openFdsTo(f) !== null) assert.equal(openFdsTo(f), 0);
  assert.deepEqual(lines(f).map((l) => JSON.parse(l).n), [1, 2, 3, 4]);
});

test("rotating in a burst: the renamed file's descriptor is closed, lines go to the new file", () => {
  const d = tmpdir();
  const f = path.join(d, "r.jsonl");
  for (let i = 0; i < 40; i++) assert.equal(appendLine(f, JSON.stringify({ i, pad: "p".repeat(60) }) + "\n", { ...quiet, sync: false, maxBytes: 500 }).ok, true);
  const archives = fs.readdirSync(d).filter((n) => n !== "r.jsonl").map((n) => path.join(d, n));
  assert.ok(archives.length >= 5);
  if (openFdsTo(d) !== null) assert.equal(openFdsTo(d), 1, "only the live file's descriptor is kept");
  for (const a of archives) assert.ok(fs.statSync(a).size <= 500);
  closeKept();
});
