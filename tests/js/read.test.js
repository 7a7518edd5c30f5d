// The reader (plugin/read/reader.js): the cursor across rotation and runs, partial lines, damage, missing and
// grown archives, copied families; `record read` in process and through the real CLI; and a live workload of 4
// real writer processes rotating at a small size while a reader polls. Runs under `node --test` and `bun test`.
// The same file is also the writer child of the live test (READ_TEST_CHILD=1), so the suite needs no extra script.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const HERE = fileURLToPath(import.meta.url);

if (process.env.READ_TEST_CHILD) {
  await writerChild();
} else {
  await suite();
}

/** Child: appends `count` entries {w, seq, pad} through the real recorder and writer, rotating at maxBytes.
 *  After the first half it says "half" and waits for a line on stdin, so the reader can be sure to read in the
 *  middle of the workload. */
async function writerChild() {
  const { record } = await import("../../plugin/recorder.js");
  const { xorshift32 } = await import("./helpers.js");
  const w = Number(process.env.READ_TEST_CHILD);
  const count = Number(process.env.READ_TEST_COUNT);
  const maxBytes = Number(process.env.READ_TEST_MAX_BYTES);
  const file = process.env.READ_TEST_FILE;
  const rand = xorshift32(w); // reproducible sizes
  let failed = 0;
  for (let seq = 0; seq < count; seq++) {
    if (seq === count / 2) {
      process.stdout.write("half\n");
      await new Promise((resolve) => process.stdin.once("data", resolve));
      process.stdin.pause();
    }
    const pad = "x".repeat(Math.floor(40 + rand() * 2400));
    const r = record(`{"w":${w},"seq":${seq},"pad":"${pad}"}`, { file, maxBytes, sync: false, statusFile: false, capture: "auto" });
    if (r.status !== "recorded") failed++;
  }
  process.stdout.write(JSON.stringify({ failed }) + "\n");
}

async function suite() {
  const read = await import("../../plugin/read/index.js");
  const { tmpdir, RUNTIME, isolatedEnv, runCli } = await import("./helpers.js");
  const { writerOf, ns, range, run } = await import("./read-helpers.js");
  const { put, tick } = writerOf();
  // Clocks for the reader: long before any file here was written (nothing is quiet yet), and long after (every
  // archive is quiet), so what is folded or consumed never depends on how fast the test runs.
  const FRESH = () => Date.parse("2000-01-01T00:00:00Z");
  const QUIET = () => Date.parse("2100-01-01T00:00:00Z");
  const readAll = (file, opts = {}) => read.readRecordings({ file, now: FRESH, ...opts });

  test("the package's ./read export is plugin/read/index.js, with the reading API's names", async () => {
    const byName = await import("opencode-recordings/read");
    assert.equal(byName.RecordingsReader, read.RecordingsReader);
    assert.deepEqual(Object.keys(byName).sort(), [
      "CursorError", "DEFAULT_SETTLE_MS", "DEFAULT_TAIL_GRACE_MS", "EPISODE_GAP_MS", "FINGERPRINT_BYTES", "RecordingsReader",
      "decodeCursor", "encodeCursor", "entriesMarkdown", "entryMarkdown", "episodeState", "findEntries", "fingerprintOfEntry",
      "foldEpisodes", "kindsOf", "listSegments",
      "listSessions", "makeFilter", "parseTime", "quarantineFile", "rawMembers", "readRecordings", "resolveFile",
    ]);
  });

  test("an empty file and a missing file read as nothing, and their cursors resume", () => {
    const dir = tmpdir();
    const file = path.join(dir, "r.jsonl");
    const missing = readAll(file);
    assert.deepEqual(missing.records, []);
    assert.deepEqual(missing.damage, []);
    fs.writeFileSync(file, "");
    const empty = readAll(file);
    assert.deepEqual(empty.records, []);
    put(file, 1);
    assert.deepEqual(ns(readAll(file, { since: missing.cursor }).records), [1]);
    assert.deepEqual(ns(readAll(file, { since: empty.cursor }).records), [1]);
  });

  test("resuming from each entry's cursor gives exactly the entries after it, across rotations", () => {
    const dir = tmpdir();
    const file = path.join(dir, "r.jsonl");
    for (let n = 0; n < 40; n++) put(file, n, { maxBytes: 300 });
    assert.ok(read.listSegments(file).length > 5, "several segments");
    const all = readAll(file);
    assert.deepEqual(ns(all.records), range(0, 40));
    all.records.forEach((r, i) => {
      assert.deepEqual(ns(readAll(file, { since: r.cursor }).records), range(i + 1, 40), `after entry ${i}`);
    });
    assert.deepEqual(readAll(file, { since: all.cursor }).records, []);
  });

  test("the cursor survives rotation: the rotated file is found by its inode, and late lines in an archive are read once", () => {
    const dir = tmpdir();
    const file = path.join(dir, "r.jsonl");
    for (let n = 0; n < 3; n++) put(file, n);
    const first = readAll(file);
    // Rotate: the next appends push the live file past maxBytes, so it is renamed to an archive.
    for (let n = 3; n < 6; n++) put(file, n, { maxBytes: 200 });
    const archives = read.listSegments(file).filter((s) => s.archive);
    assert.ok(archives.length >= 1);
    const second = readAll(file, { since: first.cursor });
    assert.deepEqual(ns(second.records), [3, 4, 5]);
    // A writer that opened the file just before the rename appends to the archive afterwards.
    fs.appendFileSync(archives[0].path, `{"ts":"${new Date(tick()).toISOString()}","eid":"late000000000","n":99}\n`);
    put(file, 6, { maxBytes: 1 << 30 });
    const third = readAll(file, { since: second.cursor });
    assert.deepEqual(ns(third.records).sort((a, b) => a - b), [6, 99]);
    assert.deepEqual(readAll(file, { since: third.cursor }).records, []);
  });

  test("a partial last line is not consumed until its newline arrives", () => {
    const dir = tmpdir();
    const file = path.join(dir, "r.jsonl");
    put(file, 1);
    const line = `{"ts":"${new Date(tick()).toISOString()}","eid":"partial000000","n":2}\n`;
    fs.appendFileSync(file, line.slice(0, 20));
    const a = readAll(file);
    assert.deepEqual(ns(a.records), [1]);
    assert.deepEqual(a.damage, []);
    fs.appendFileSync(file, line.slice(20));
    const b = readAll(file, { since: a.cursor });
    assert.deepEqual(ns(b.records), [2]);
    assert.deepEqual(b.damage, []);
  });

  test("damaged lines in the middle and at the end of segments are reported with segment and offset, and skipped", () => {
    const dir = tmpdir();
    const file = path.join(dir, "r.jsonl");
    put(file, 1);
    const mid = fs.statSync(file).size;
    fs.appendFileSync(file, '{"ts":"2026-11-29T10:00:00.000Z","eid":"torn\n'); // torn, then ended by a later writer
    put(file, 2);
    const bad = fs.statSync(file).size;
    fs.appendFileSync(file, Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a])); // {"a":"\xff\xfe"}
    fs.appendFileSync(file, "[1,2]\n\n   \n");
    put(file, 3);
    const endOfSegment = fs.statSync(file).size;
    fs.appendFileSync(file, "not json at the end\n");
    const r = readAll(file);
    assert.deepEqual(ns(r.records), [1, 2, 3]);
    assert.deepEqual(
      r.damage.map((d) => [path.basename(d.segment), d.offset, d.reason]),
      [
        ["r.jsonl", mid, "not valid JSON"],
        ["r.jsonl", bad, "not valid UTF-8"],
        ["r.jsonl", bad + 11, "not a JSON object"],
        ["r.jsonl", endOfSegment, "not valid JSON"],
      ],
    );
    // Reported once: resuming after them does not report them again.
    assert.deepEqual(readAll(file, { since: r.cursor }).damage, []);
  });

  test("an archive ending in an unterminated line: left alone while it may be a write in progress, reported once quiet", () => {
    const dir = tmpdir();
    const file = path.join(dir, "r.jsonl");
    const archive = path.join(dir, "r.20261129T100000000Z.jsonl");
    fs.writeFileSync(archive, `{"ts":"2026-11-29T10:00:00.000Z","eid":"a00000000000a","n":1}\n{"ts":"2026-11-29T10:00:0`);
    put(file, 2);
    const busy = readAll(file);
    assert.deepEqual(ns(busy.records), [1, 2]);
    assert.deepEqual(busy.damage, []);
    const quiet = readAll(file, { since: busy.cursor, now: QUIET });
    assert.deepEqual(quiet.records, []);
    assert.equal(quiet.damage.length, 1);
    assert.equal(quiet.damage[0].segment, archive);
    assert.equal(quiet.damage[0].reason, "unterminated last line (torn by a crash?)");
    assert.deepEqual(readAll(file, { since: quiet.cursor, now: QUIET }).damage, []);
  });

  test("a missing archive: the rest is read, and the gap is noted when the cursor had read from it", () => {
    const dir = tmpdir();
    const file = path.join(dir, "r.jsonl");
    for (let n = 0; n < 30; n++) put(file, n, { maxBytes: 250 });
    const archives = read.listSegments(file).filter((s) => s.archive);
    assert.ok(archives.length >= 3);
    const before = readAll(file);
    fs.rmSync(archives[1].path); // deleted by hand, or by a retention policy
    const all = readAll(file);
    assert.ok(all.records.length < 30 && all.records.length > 0);
    assert.deepEqual(all.damage, []);
    put(file, 30);
    const after = readAll(file, { since: before.cursor });
    assert.deepEqual(ns(after.records), [30]);
    assert.match(after.notes.join("\n"), /gone/);
    // The same gap when the archive had been folded into the cursor's base.
    const dir2 = tmpdir();
    const file2 = path.join(dir2, "r.jsonl");
    for (let n = 0; n < 30; n++) put(file2, n, { maxBytes: 250 });
    const folded = readAll(file2, { now: QUIET });
    assert.match(folded.cursor, /^r1\.m\.\d{8}T\d{9}Z_\d{6}-/, "quiet archives are folded into the base");
    fs.rmSync(read.listSegments(file2).filter((s) => s.archive)[0].path);
    const gap = readAll(file2, { since: folded.cursor, now: QUIET });
    assert.deepEqual(gap.records, []);
    assert.match(gap.notes.join("\n"), /1 archive\(s\) read before the cursor are missing/);
  });

  test("folded archives that grow after reading are noticed, never silently skipped", () => {
    const dir = tmpdir();
    const file = path.join(dir, "r.jsonl");
    for (let n = 0; n < 20; n++) put(file, n, { maxBytes: 250 });
    const r = readAll(file, { now: QUIET });
    const first = read.listSegments(file)[0];
    fs.appendFileSync(first.path, `{"n":100}\n`);
    const again = readAll(file, { since: r.cursor, now: QUIET });
    assert.match(again.notes.join("\n"), /grew by 10 bytes/);
  });

  test("a family copied elsewhere (new inodes) resumes by fingerprint; a reused inode does not fool it", () => {
    const dir = tmpdir();
    const file = path.join(dir, "r.jsonl");
    for (let n = 0; n < 12; n++) put(file, n, { maxBytes: 300 });
    const r = readAll(file);
    const copy = tmpdir();
    for (const s of read.listSegments(file)) fs.copyFileSync(s.path, path.join(copy, path.basename(s.path)));
    const file2 = path.join(copy, "r.jsonl");
    put(file2, 12);
    assert.deepEqual(ns(readAll(file2, { since: r.cursor }).records), [12]);
    // Same inode, other content: a cursor for a file that was replaced in place reads the new content whole.
    const dir3 = tmpdir();
    const file3 = path.join(dir3, "r.jsonl");
    put(file3, 1);
    const c = readAll(file3).cursor;
    const fd = fs.openSync(file3, "r+");
    fs.ftruncateSync(fd, 0);
    fs.writeSync(fd, `{"ts":"2026-11-29T11:00:00.000Z","eid":"other0000000x","n":7}\n{"ts":"2026-11-29T11:00:00.000Z","eid":"other0000000y","n":8}\n`);
    fs.closeSync(fd);
    assert.deepEqual(ns(readAll(file3, { since: c }).records), [7, 8]);
  });

  test("record read --json: each entry exactly as stored, with its cursor, and a last line to resume from", async () => {
    const dir = tmpdir();
    const file = path.join(dir, "r.jsonl");
    put(file, 1, { extra: ',"x":1.0,"s":"caf\\u00e9 \\/","x":2' });
    put(file, 2);
    const r = await run("read", ["--json", "--file", file]);
    assert.equal(r.code, 0);
    const lines = r.stdout.trim().split("\n");
    assert.equal(lines.length, 3);
    const stored = fs.readFileSync(file, "utf8").split("\n");
    assert.equal(lines[0], `{"cursor":"${JSON.parse(lines[0]).cursor}","entry":${stored[0]}}`, "entry bytes untouched");
    const end = JSON.parse(lines[2]);
    assert.deepEqual(Object.keys(end), ["cursor"]);
    const resumed = await run("read", ["--file", file, "--since", JSON.parse(lines[0]).cursor]);
    assert.equal(resumed.stdout, stored[1] + "\n");
    assert.equal((await run("read", ["--file", file, "--since", end.cursor])).stdout, "");
    // --limit resumes right after the last entry printed.
    const one = await run("read", ["--json", "--limit", "1", "--file", file]);
    const c = JSON.parse(one.stdout.trim().split("\n").pop()).cursor;
    assert.equal((await run("read", ["--file", file, "--since", c])).stdout, stored[1] + "\n");
  });

  test("record read --cursor-file prints only what is new on each run", async () => {
    const dir = tmpdir();
    const file = path.join(dir, "r.jsonl");
    const cf = path.join(dir, "cursor");
    put(file, 1);
    const a = await run("read", ["--file", file, "--cursor-file", cf]);
    assert.equal(a.stdout.split("\n").filter(Boolean).length, 1);
    assert.equal((await run("read", ["--file", file, "--cursor-file", cf])).stdout, "");
    put(file, 2, { maxBytes: 100 }); // rotates
    put(file, 3, { maxBytes: 100 });
    const c = await run("read", ["--file", file, "--cursor-file", cf]);
    assert.deepEqual(c.stdout.trim().split("\n").map((l) => JSON.parse(l).n), [2, 3]);
  });

  test("record read reports damage on stderr and exits 0; usage errors exit 2", async () => {
    const dir = tmpdir();
    const file = path.join(dir, "r.jsonl");
    put(file, 1);
    fs.appendFileSync(file, "oops\n");
    put(file, 2);
    const r = await run("read", ["--file", file]);
    assert.equal(r.code, 0);
    assert.equal(r.stdout.split("\n").filter(Boolean).length, 2);
    assert.match(r.stderr, /skipped a damaged line \(not valid JSON\) in .*r\.jsonl at byte \d+: oops/);
    assert.match(r.stderr, /1 damaged line\(s\) in 1 file\(s\) were skipped/);
    assert.equal((await run("read", ["--bogus"])).code, 2);
    assert.equal((await run("read", ["--since", "nonsense", "--file", file])).code, 2);
    assert.equal((await run("read", ["--since-time", "whenever", "--file", file])).code, 2);
    assert.equal((await run("read", ["--quarantine", "--file", file])).code, 0);
  });

  test("record read uses AI_RECORDINGS_FILE, and --quarantine reads the quarantine sibling", async () => {
    const dir = tmpdir();
    const file = path.join(dir, "r.jsonl");
    put(file, 1);
    put(read.quarantineFile(file), 2);
    assert.deepEqual(JSON.parse((await run("read", [], { env: { AI_RECORDINGS_FILE: file } })).stdout).n, 1);
    assert.deepEqual(JSON.parse((await run("read", ["--quarantine"], { env: { AI_RECORDINGS_FILE: file } })).stdout).n, 2);
  });

  test("through the real record CLI: read --json and resume, md, doctor", () => {
    const help = runCli(["read", "--help"], { env: isolatedEnv(tmpdir()) });
    assert.match(help.stdout, /^record read - /, "record read --help reaches the read subcommand");
    const dir = tmpdir();
    const file = path.join(dir, "r.jsonl");
    const env = isolatedEnv(dir, { AI_RECORDINGS_FILE: file, AI_RECORDINGS_MAX_BYTES: "400", AI_RECORDINGS_SYNC: "0" });
    for (let i = 0; i < 4; i++) assert.equal(runCli([`note ${i}`], { env }).code, 0);
    const a = runCli(["read", "--json"], { env });
    assert.equal(a.code, 0, a.stderr);
    const lines = a.stdout.trim().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(lines.slice(0, -1).map((l) => l.entry.note), ["note 0", "note 1", "note 2", "note 3"]);
    assert.ok(read.listSegments(file).length > 1, "rotated");
    runCli(["note 4"], { env });
    const b = runCli(["read", "--since", a.json.cursor], { env });
    assert.deepEqual(b.stdout.trim().split("\n").map((l) => JSON.parse(l).note), ["note 4"]);
    assert.match(runCli(["md", "--last", "1"], { env }).stdout, /^# 1 recording\n\n## note 4\n/);
    assert.equal(runCli(["doctor"], { env }).code, 0);
    // A subcommand name after "--" is recorded literally, not run.
    runCli(["--", "read"], { env });
    assert.equal(runCli(["read", "--since", a.json.cursor], { env }).json.note, "read");
  });


  test("live workload: 4 writer processes append and rotate while a reader polls with its cursor; every entry exactly once", async () => {
    const dir = tmpdir();
    const file = path.join(dir, "live.jsonl");
    const WRITERS = 4;
    const COUNT = 2 * Math.ceil(Number(process.env.READ_TEST_ENTRIES || 300) / 2);
    const MAX_BYTES = 8 * 1024;
    const env = isolatedEnv(dir, { READ_TEST_FILE: file, READ_TEST_COUNT: String(COUNT), READ_TEST_MAX_BYTES: String(MAX_BYTES) });
    const children = [];
    for (let w = 0; w < WRITERS; w++) {
      const p = spawn(RUNTIME, [HERE], { env: { ...env, READ_TEST_CHILD: String(w) }, stdio: ["pipe", "pipe", "pipe"] });
      const c = { p, out: "", err: "" };
      c.half = new Promise((resolve) => {
        p.stdout.on("data", (d) => {
          c.out += d;
          if (c.out.startsWith("half\n")) resolve();
        });
      });
      p.stderr.on("data", (d) => (c.err += d));
      c.done = new Promise((resolve) => p.on("close", (code) => resolve(code)));
      children.push(c);
    }
    let running = WRITERS;
    for (const c of children) c.done.then(() => running--);
    const seen = new Map();
    let cursor = null;
    let partial = 0;
    let seed = 12345;
    const rnd = (n) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16) % n;
    const poll = () => {
      const reader = new read.RecordingsReader({ file, since: cursor });
      // Take a random number of entries, then resume from the last one's own cursor (not the end), so that
      // per-entry cursors are exercised in the middle of segments and across rotations.
      const take = rnd(4) === 0 ? Infinity : 1 + rnd(6);
      let taken = 0;
      let last = null;
      for (const r of reader.records()) {
        const key = `${r.entry.w}/${r.entry.seq}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
        last = r.cursor;
        if (++taken >= take) break;
      }
      assert.deepEqual(reader.damage, []);
      if (taken >= take && last) {
        partial++;
        cursor = last;
      } else cursor = reader.cursor;
      return taken;
    };
    // Poll while the first halves are written; once every writer waits, catch up in small steps: the reader has
    // then read the middle of a rotating family, and the writers go on appending after its cursor.
    let halves = 0;
    for (const c of children) c.half.then(() => halves++);
    while (halves < WRITERS) {
      poll();
      await new Promise((resolve) => setImmediate(resolve));
    }
    while (poll() > 0);
    assert.equal(seen.size, (WRITERS * COUNT) / 2, "the first halves, read while the writers wait");
    assert.ok(partial > 0, "resumed from per-entry cursors");
    const segsAtHalf = read.listSegments(file).length;
    assert.ok(segsAtHalf > 10, `rotated many times by then (${segsAtHalf} segments)`);
    for (const c of children) c.p.stdin.end("go\n");
    while (running > 0) {
      poll();
      await new Promise((resolve) => setImmediate(resolve));
    }
    while (poll() > 0);
    for (const c of children) {
      assert.equal(await c.done, 0, c.err);
      assert.deepEqual(JSON.parse(c.out.trim().split("\n").pop()), { failed: 0 });
    }
    const dup = [...seen].filter(([, n]) => n !== 1);
    assert.deepEqual(dup, [], "no entry read twice");
    assert.equal(seen.size, WRITERS * COUNT, "every entry read");
    const segs = read.listSegments(file).length;
    assert.ok(segs > 20, `rotated many times (${segs} segments)`);
  });
}
