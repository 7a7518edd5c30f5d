// Faults on real filesystems: each gives status "skipped" with a specific reason, damages nothing written
// before, is noted in the status record, and recording resumes once the fault is gone.
// Needs root for tmpfs mounts and for switching to an unprivileged user; each test says why when it skips.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { record } from "../../plugin/recorder.js";
import { closeKept, readStatus } from "../../plugin/writer/index.js";
import { tmpdir, isolatedEnv, runCli, lines, entries, canMount, mountTmpfs, canDropPrivileges } from "./helpers.js";

const MOUNT = canMount();
const NOBODY = canDropPrivileges();

function setup() {
  const d = fs.realpathSync(tmpdir("rec-fault-"));
  const statusFile = path.join(d, "status.json");
  return { d, statusFile, opts: (file, extra = {}) => ({ file, cwd: d, statusFile, sync: true, ...extra }) };
}

function missesFor(statusFile, file) {
  return readStatus({ statusFile })?.targets?.[file];
}

/** Asserts a skip with this code, an intact file, a status note, and a working next append. */
function assertFault({ file, opts, statusFile, code, before, heal }) {
  const r = record('{"during":"fault"}', opts);
  assert.equal(r.status, "skipped", JSON.stringify(r));
  assert.equal(r.eid, null);
  assert.match(r.reason, new RegExp(`^${code}: `));
  const note = missesFor(statusFile, r.file);
  assert.ok(note && note.misses >= 1, "noted in the status record");
  assert.equal(note.lastReason, r.reason);
  if (before !== undefined) assert.deepEqual(fs.readFileSync(before.file, "utf8"), before.text, "earlier entries intact");
  heal();
  const ok = record('{"after":"healed"}', opts);
  assert.equal(ok.status, "recorded", JSON.stringify(ok));
  assert.equal(entries(file).at(-1).after, "healed");
}

test("target is a directory: EISDIR", () => {
  const { d, statusFile, opts } = setup();
  const file = path.join(d, "rec.jsonl");
  fs.mkdirSync(file);
  assertFault({ file, opts: opts(file), statusFile, code: "EISDIR", heal: () => fs.rmdirSync(file) });
});

test("a parent of the target is a file: ENOTDIR", () => {
  const { d, statusFile, opts } = setup();
  const parent = path.join(d, "parent");
  fs.writeFileSync(parent, "i am a file\n");
  const file = path.join(parent, "rec.jsonl");
  assertFault({
    file,
    opts: opts(file),
    statusFile,
    code: "ENOTDIR",
    before: { file: parent, text: "i am a file\n" },
    heal: () => fs.unlinkSync(parent),
  });
});

test("target replaced by a symlink: ELOOP, never followed", () => {
  const { d, statusFile, opts } = setup();
  const file = path.join(d, "rec.jsonl");
  const victim = path.join(d, "victim.txt");
  fs.writeFileSync(victim, "do not append here\n");
  assert.equal(record('{"first":1}', opts(file)).status, "recorded");
  fs.renameSync(file, path.join(d, "moved.jsonl"));
  fs.symlinkSync(victim, file);
  assertFault({
    file,
    opts: opts(file),
    statusFile,
    code: "ELOOP",
    before: { file: victim, text: "do not append here\n" },
    heal: () => fs.unlinkSync(file),
  });
});

test("disk full via /dev/full: ENOSPC", () => {
  const { statusFile, opts } = setup();
  const r = record('{"x":1}', opts("/dev/full"));
  assert.deepEqual([r.status, r.reason], ["skipped", "ENOSPC: no space left on device"]);
  assert.equal(missesFor(statusFile, "/dev/full").lastReason, "ENOSPC: no space left on device");
});

test("file deleted or rotated underneath between appends: the next append starts a new file", () => {
  const { d, opts } = setup();
  const file = path.join(d, "rec.jsonl");
  record('{"n":1}', opts(file));
  fs.unlinkSync(file);
  assert.equal(record('{"n":2}', opts(file)).status, "recorded");
  fs.renameSync(file, path.join(d, "elsewhere.jsonl"));
  // The appends above form a burst, so the writer keeps its descriptor; how a kept descriptor notices a rename
  // (its ctime, or the path check) is tested under a clock seam in writer.test.js. Here: a fresh open.
  closeKept();
  assert.equal(record('{"n":3}', opts(file)).status, "recorded");
  assert.deepEqual(entries(file).map((e) => e.n), [3]);
  assert.deepEqual(entries(path.join(d, "elsewhere.jsonl")).map((e) => e.n), [2]);
});

test("disk full on a small tmpfs: ENOSPC, earlier lines intact, a torn tail stays on its own line, then resumes", (t) => {
  if (MOUNT) {
    t.skip(`no tmpfs: ${MOUNT}`);
    return;
  }
  const m = mountTmpfs("256k");
  try {
    const { statusFile, opts } = setup();
    const file = path.join(m.dir, "rec.jsonl");
    fs.writeFileSync(path.join(m.dir, "filler"), Buffer.alloc(100 * 1024));
    const o = opts(file);
    const ok = [];
    let skipped = null;
    for (let i = 0; i < 200 && !skipped; i++) {
      const r = record(JSON.stringify({ i, pad: "z".repeat(2500 + i * 37) }), o);
      if (r.status === "recorded") ok.push(r.eid);
      else skipped = r;
    }
    assert.ok(skipped, "the disk filled up");
    assert.equal(skipped.status, "skipped");
    assert.match(skipped.reason, /^ENOSPC: no space left on device/);
    assert.equal(missesFor(statusFile, file).lastReason, skipped.reason);
    fs.unlinkSync(path.join(m.dir, "filler"));
    const after = record('{"after":"space freed"}', o);
    assert.equal(after.status, "recorded");
    const all = lines(file);
    const parsed = all.map((l) => {
      try {
        return JSON.parse(l);
      } catch {
        return null;
      }
    });
    // Every entry whose append succeeded is there, whole; at most one torn fragment (the failed append),
    // on a line of its own, just before the entry written after the space came back.
    assert.deepEqual(parsed.filter(Boolean).map((e) => e.eid), [...ok, after.eid]);
    const bad = parsed.map((e, i) => (e ? -1 : i)).filter((i) => i >= 0);
    assert.ok(bad.length <= 1, `${bad.length} unparsable lines`);
    if (bad.length) {
      assert.equal(bad[0], all.length - 2);
      assert.ok(all[bad[0]].startsWith('{"ts":"'), "the fragment is the start of the failed entry");
    }
    t.diagnostic(`${ok.length} entries fit; torn fragment left by the failed append: ${bad.length ? "yes" : "no"}`);
  } finally {
    m.umount();
  }
});

test("read-only filesystem: EROFS, then recording resumes after remount rw", (t) => {
  if (MOUNT) {
    t.skip(`no tmpfs: ${MOUNT}`);
    return;
  }
  const m = mountTmpfs("1m");
  try {
    const { statusFile, opts } = setup();
    const file = path.join(m.dir, "rec.jsonl");
    assert.equal(record('{"before":1}', opts(file)).status, "recorded");
    const text = fs.readFileSync(file, "utf8");
    m.remount("ro");
    assertFault({ file, opts: opts(file), statusFile, code: "EROFS", before: { file, text }, heal: () => m.remount("rw") });
    // also when the file does not exist yet
    m.remount("ro");
    const r = record("x", opts(path.join(m.dir, "new", "rec.jsonl")));
    assert.match(r.reason, /^EROFS: /);
    m.remount("rw");
  } finally {
    m.umount();
  }
});

test("permission denied, as an unprivileged user (CLI): EACCES, exit 0, then resumes", (t) => {
  if (NOBODY) {
    t.skip(NOBODY);
    return;
  }
  const d = fs.realpathSync(tmpdir("rec-perm-"));
  fs.chmodSync(d, 0o755);
  const state = path.join(d, "state");
  fs.mkdirSync(state, { mode: 0o777 });
  fs.chmodSync(state, 0o777);
  const env = isolatedEnv(d, { XDG_STATE_HOME: state, HOME: state });
  // 1. an existing file owned by root, mode 0644: nobody may read it but not append
  const owned = path.join(d, "owned.jsonl");
  fs.writeFileSync(owned, '{"root":1}\n', { mode: 0o644 });
  const a = runCli(["--json", "--file", owned, "as nobody"], { env, user: "nobody" });
  assert.equal(a.code, 0, a.stderr);
  assert.deepEqual([a.json.status, a.json.reason], ["skipped", "EACCES: permission denied"]);
  assert.equal(fs.readFileSync(owned, "utf8"), '{"root":1}\n');
  // 2. a directory nobody may not create files in
  const locked = path.join(d, "locked");
  fs.mkdirSync(locked, { mode: 0o755 });
  const b = runCli(["--file", path.join(locked, "sub", "rec.jsonl"), "as nobody"], { env, user: "nobody" });
  assert.equal(b.code, 0);
  assert.match(b.stderr, /^record: not recorded \(EACCES: permission denied\): /);
  assert.equal(fs.readdirSync(locked).length, 0);
  // the status record (written by nobody) has the miss
  const s = JSON.parse(fs.readFileSync(path.join(state, "opencode-recordings", "status.json"), "utf8"));
  assert.equal(s.targets[path.join(locked, "sub", "rec.jsonl")].lastReason, "EACCES: permission denied");
  // 3. resumes where nobody may write
  const open = path.join(d, "open");
  fs.mkdirSync(open, { mode: 0o777 });
  fs.chmodSync(open, 0o777);
  const c = runCli(["--json", "--file", path.join(open, "rec.jsonl"), "as nobody"], { env, user: "nobody" });
  assert.equal(c.json.status, "recorded", c.stderr);
  assert.equal(fs.statSync(path.join(open, "rec.jsonl")).uid, 65534);
  assert.equal(fs.statSync(path.join(open, "rec.jsonl")).mode & 0o777, 0o600);
});
