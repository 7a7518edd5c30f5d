// The recall index: derived from the files, caught up from the reader's cursor, each entry exactly once.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { spawn } from "node:child_process";
import { tmpdir, isolatedEnv, lines, RUNTIME } from "./helpers.js";
import { missingDriver, RecallUnavailable, loadDriver } from "../../plugin/recall/driver.js";
import { listSegments, quarantinePath, indexPath } from "../../plugin/paths.js";

const missing = missingDriver();
const skip = missing ?? false;
const CHILD = path.join(path.dirname(new URL(import.meta.url).pathname), "recall-child.js");

test("without a SQLite driver, recall says exactly what it needs", { skip: !missing && "this runtime has SQLite" }, async () => {
  await assert.rejects(loadDriver(), (e) => {
    assert.ok(e instanceof RecallUnavailable);
    assert.equal(e.code, "ENOSQLITE");
    assert.match(e.message, /^recall needs SQLite, which Node 20\.\d+\.\d+ does not have: run it with Node 22\.5 or later \(node:sqlite\) or Bun \(bun:sqlite\)\. Recording works as before\.$/);
    return true;
  });
});

test("the driver check by version", () => {
  assert.equal(missingDriver({ node: "22.5.0" }), null);
  assert.equal(missingDriver({ node: "24.1.0" }), null);
  assert.equal(missingDriver({ node: "22.4.1" }).includes("Node 22.4.1 does not have"), true);
  assert.equal(missingDriver({ node: "20.20.2" }).includes("Node 20.20.2"), true);
  assert.equal(missingDriver({ node: "20.20.2", bun: "1.3.14" }), null);
});

test("the driver's rows are plain objects keyed by column, in column order, on both drivers", { skip }, async () => {
  const open = await loadDriver();
  const db = open(":memory:");
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, note TEXT)");
  db.run("INSERT INTO t (name, note) VALUES (?, ?)", "widget", null);
  db.run("INSERT INTO t (name, note) VALUES (?, ?)", "billing", "flaky");
  const rows = db.all("SELECT id, name, note, length(name) AS n FROM t ORDER BY id");
  assert.deepEqual(rows.map((r) => ({ ...r })), [
    { id: 1, name: "widget", note: null, n: 6 },
    { id: 2, name: "billing", note: "flaky", n: 7 },
  ]);
  assert.deepEqual(Object.keys(rows[1]), ["id", "name", "note", "n"]);
  assert.equal(Object.getPrototypeOf(rows[0]), Object.prototype);
  assert.equal(db.get("SELECT name FROM t WHERE id = ?", 2).name, "billing");
  assert.equal(db.get("SELECT name FROM t WHERE id = ?", 9), undefined);
  assert.deepEqual(db.all("SELECT name FROM t WHERE id > ?", 9), []);
  assert.equal(Number(db.run("DELETE FROM t WHERE id = ?", 1).changes), 1);
  db.close();
});

function setup() {
  const dir = tmpdir("rec-recall-");
  const file = path.join(dir, "rec", "r.jsonl");
  const env = isolatedEnv(dir, { AI_RECORDINGS_FILE: file, AI_RECORDINGS_SYNC: "0", XDG_DATA_HOME: path.join(dir, "data") });
  return { dir, file, env };
}

function run(args, env) {
  return new Promise((resolve, reject) => {
    const p = spawn(RUNTIME, [CHILD, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    p.stdout.on("data", (c) => (out += c));
    p.stderr.on("data", (c) => (err += c));
    p.on("error", reject);
    p.on("close", (code) => resolve({ code, out, err }));
  });
}

/** Every line of the main family, across its segments. */
function allLines(file) {
  return listSegments(file).flatMap((s) => lines(s.path)).filter((l) => l.trim());
}

async function index(env) {
  const { openIndex } = await import("../../plugin/recall/index.js");
  return openIndex({ env });
}

test("each entry exactly once while 4 writers append and rotate and catch-ups run", { skip, timeout: 120000 }, async () => {
  const { file, env } = setup();
  const wenv = { ...env, AI_RECORDINGS_MAX_BYTES: "16384" };
  const writers = [0, 1, 2, 3].map((c) => run(["write", String(c), "400"], wenv));
  const ix = await index(env);
  let rounds = 0;
  let done = false;
  const all = Promise.all(writers).then((r) => {
    done = true;
    return r;
  });
  // Catch up over and over while they write (and let two other processes catch up too).
  const others = [run(["catchup", "30"], env), run(["catchup", "30"], env)];
  while (!done) {
    ix.catchUp();
    rounds++;
    await new Promise((r) => setTimeout(r, 5));
  }
  for (const w of await all) assert.equal(w.code, 0, w.err);
  for (const o of await Promise.all(others)) assert.equal(o.code, 0, o.err);
  ix.catchUp();
  const stored = allLines(file);
  assert.equal(stored.length, 1600);
  assert.ok(listSegments(file).length > 5, "the writers rotated the file");
  const rows = ix.db.all("SELECT eid, line FROM entries ORDER BY id");
  assert.equal(rows.length, 1600);
  assert.deepEqual(new Set(rows.map((r) => r.line)), new Set(stored));
  assert.equal(new Set(rows.map((r) => r.eid)).size, 1600);
  // Every (writer, sequence number) once. (Not necessarily in order: a line a writer appends to a file that
  // was rotated just before is read, once, after lines of later segments.)
  const keys = rows.map((r) => JSON.parse(r.line)).map((e) => `${e.child}/${e.seq}`);
  assert.equal(new Set(keys).size, 1600);
  assert.ok(rounds > 1);
  ix.close();
});

test("two processes catching up at once index each entry once", { skip, timeout: 120000 }, async () => {
  const { file, env } = setup();
  const w = await run(["write", "0", "3000"], env);
  assert.equal(w.code, 0, w.err);
  const [a, b] = await Promise.all([run(["catchup", "1"], env), run(["catchup", "1"], env)]);
  assert.equal(a.code, 0, a.err);
  assert.equal(b.code, 0, b.err);
  const ra = JSON.parse(a.out);
  const rb = JSON.parse(b.out);
  assert.equal(ra.added + rb.added, 3000);
  assert.equal(ra.duplicates + rb.duplicates, 0);
  const ix = await index(env);
  assert.equal(ix.db.get("SELECT count(*) n FROM entries").n, 3000);
  assert.equal(ix.db.get("SELECT count(DISTINCT eid) n FROM entries").n, 3000);
  assert.deepEqual(ix.db.all("SELECT line FROM entries ORDER BY id").map((r) => r.line), allLines(file));
  ix.close();
});

test("a catch-up of several batches gives the connection its page cache back", { skip, timeout: 120000 }, async () => {
  const { env } = setup();
  const { BATCH } = await import("../../plugin/recall/build.js");
  const w = await run(["write", "0", String(BATCH + 100)], env);
  assert.equal(w.code, 0, w.err);
  const ix = await index(env);
  const before = ix.db.get("PRAGMA cache_size").cache_size;
  assert.equal(ix.catchUp().added, BATCH + 100);
  assert.equal(ix.db.get("PRAGMA cache_size").cache_size, before);
  ix.close();
});

test("a catch-up that finds nothing new writes nothing; the next entry moves the cursor", { skip }, async () => {
  const { dir, env } = setup();
  const w = await run(["write", "0", "3"], env);
  assert.equal(w.code, 0, w.err);
  const ix = await index(env);
  assert.equal(ix.catchUp().added, 3);
  const cursor = ix.db.get("SELECT value FROM meta WHERE key = 'cursor'").value;
  const changes = () => Number(ix.db.get("SELECT total_changes() AS n").n);
  const before = changes();
  assert.equal(ix.catchUp().added, 0);
  assert.equal(changes(), before, "no row was written");
  assert.equal((await run(["write", "3", "1"], env)).code, 0);
  assert.equal(ix.catchUp().added, 1);
  assert.notEqual(ix.db.get("SELECT value FROM meta WHERE key = 'cursor'").value, cursor);
  ix.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("a first build counts the common words at once; a catch-up of one batch leaves the counts to the searches", { skip, timeout: 120000 }, async () => {
  const { dir, file, env } = setup();
  const { BATCH } = await import("../../plugin/recall/build.js");
  const { COMMON_FLOOR } = await import("../../plugin/recall/counts.js");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const n = BATCH + 500;
  const line = (i) => JSON.stringify({ eid: `e${String(i).padStart(12, "0")}`, lesson: `deploys failing again ${i % 3 === 0 ? "flakiness" : "widget"}${i % 20 === 0 ? " rarely" : ""}` });
  fs.writeFileSync(file, Array.from({ length: n }, (_, i) => line(i)).join("\n") + "\n");
  const ix = await index(env);
  assert.equal(ix.catchUp().added, n);
  const df = new Map(ix.db.all("SELECT term, doc FROM df").map((r) => [r.term, Number(r.doc)]));
  // Every word in more than COMMON_FLOOR entries, with its exact count; "rare" (in a twentieth, under the floor) not.
  assert.equal(df.get("deploi"), n);
  assert.equal(df.get("flaki"), Math.ceil(n / 3));
  assert.equal(df.get("widget"), n - Math.ceil(n / 3));
  assert.ok(n / 20 <= COMMON_FLOOR && !df.has("rare"), "a word in fewer entries than the floor is not stored");
  // A small catch-up is left alone, however the counts stand.
  ix.db.exec("DELETE FROM df");
  fs.appendFileSync(file, Array.from({ length: 50 }, (_, i) => line(n + i)).join("\n") + "\n");
  assert.equal(ix.catchUp().added, 50);
  assert.equal(ix.db.get("SELECT count(*) AS n FROM df").n, 0);
  ix.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("damaged lines are skipped and reported, quarantined lines are not indexed", { skip }, async () => {
  const { file, env } = setup();
  const { record } = await import("../../plugin/recorder.js");
  assert.equal(record("lesson: the first good one", { env }).status, "recorded");
  fs.appendFileSync(file, '{"ts":"2026-01-01T00:00:00.000Z","eid":"torn\n');
  fs.appendFileSync(file, "not json at all\n");
  assert.equal(record('{"note": "unterminated', { env }).status, "quarantined");
  assert.equal(record("lesson: the second good one", { env }).status, "recorded");
  const ix = await index(env);
  const r = ix.catchUp();
  assert.equal(r.added, 2);
  assert.deepEqual(r.damaged.map((d) => d.reason), ["not valid JSON", "not valid JSON"]);
  assert.deepEqual(r.damaged.map((d) => d.segment), [file, file]);
  const indexed = ix.db.all("SELECT line FROM entries").map((x) => JSON.parse(x.line).lesson);
  assert.deepEqual(indexed, ["the first good one", "the second good one"]);
  assert.ok(lines(quarantinePath(file)).length === 1, "the quarantined entry is in the quarantine file");
  assert.equal(ix.db.get("SELECT count(*) n FROM fts WHERE fts MATCH ?", '"unterminated"').n, 0);
  // Caught up: nothing is read again, and the damage is not reported twice.
  assert.deepEqual(ix.catchUp(), { added: 0, duplicates: 0, damaged: [], notes: [], rebuilt: false });
  ix.close();
});

test("an eid supplied twice keeps its first entry; the index lives under XDG_DATA_HOME, private", { skip }, async () => {
  const { dir, file, env } = setup();
  const { record } = await import("../../plugin/recorder.js");
  record('{"eid": "same", "note": "first"}', { env });
  record('{"eid": "same", "note": "second"}', { env });
  const ix = await index(env);
  assert.deepEqual(ix.catchUp(), { added: 1, duplicates: 1, damaged: [], notes: [], rebuilt: false });
  assert.equal(JSON.parse(ix.db.get("SELECT line FROM entries WHERE eid = 'same'").line).note, "first");
  assert.equal(ix.path, indexPath(file, { env }));
  assert.ok(ix.path.startsWith(path.join(dir, "data", "opencode-recordings", "recall") + path.sep), ix.path);
  assert.equal(fs.statSync(ix.path).mode & 0o777, 0o600);
  assert.equal(fs.statSync(path.dirname(ix.path)).mode & 0o777, 0o700);
  ix.close();
});

test("deleting the index rebuilds the same rows; deleted segments make it start again", { skip }, async () => {
  const { file, env } = setup();
  const w = await run(["write", "0", "300"], { ...env, AI_RECORDINGS_MAX_BYTES: "8192" });
  assert.equal(w.code, 0, w.err);
  let ix = await index(env);
  ix.catchUp();
  const before = ix.db.all("SELECT eid, line, files, commands, git_dir, kind FROM entries ORDER BY id");
  const where = ix.path;
  ix.close();
  for (const s of ["", "-wal", "-shm"]) fs.rmSync(where + s, { force: true });
  ix = await index(env);
  assert.equal(ix.catchUp().added, 300);
  assert.deepEqual(ix.db.all("SELECT eid, line, files, commands, git_dir, kind FROM entries ORDER BY id"), before);
  // An archive removed by hand: the index no longer matches the files, so it is made again from them.
  const first = listSegments(file)[0];
  const lost = lines(first.path).length;
  fs.rmSync(first.path);
  const r = ix.catchUp();
  assert.equal(r.rebuilt, true);
  assert.equal(ix.db.get("SELECT count(*) n FROM entries").n, 300 - lost);
  ix.close();
});

test("an index damaged on disk (it is written without fsync) is made again from the files when a search meets it", { skip }, async () => {
  const { env } = setup();
  const w = await run(["write", "0", "60"], env);
  assert.equal(w.code, 0, w.err);
  const { createRecall } = await import("../../plugin/recall/service.js");
  const find = async () => {
    const service = createRecall({ env });
    try {
      return await service.find("flaky widget3 builds", { scope: "all" });
    } finally {
      await service.close();
    }
  };
  const before = await find();
  assert.ok(before.hits.length > 0);
  // The entries table's root page overwritten, as a crash mid-checkpoint could leave it: the file still opens.
  const ix = await index(env);
  const root = ix.db.get("SELECT rootpage FROM sqlite_master WHERE name = 'entries'").rootpage;
  const size = ix.db.get("PRAGMA page_size").page_size;
  const where = ix.path;
  ix.db.exec("PRAGMA wal_checkpoint(TRUNCATE)"); // every page in the file itself, none left in the WAL
  ix.close();
  const fd = fs.openSync(where, "r+");
  fs.writeSync(fd, Buffer.alloc(size, 0xa5), 0, size, (root - 1) * size);
  fs.closeSync(fd);
  const damaged = await index(env);
  assert.throws(() => damaged.db.get("SELECT sum(length(line)) n FROM entries"), /malformed/, "the damage is where a search reads");
  damaged.close();
  const after = await find();
  assert.equal(after.caught.added, 60, "made again from the files");
  assert.deepEqual(after.hits.map((h) => h.eid), before.hits.map((h) => h.eid));
});
