// record export under concurrency, against a real PostgreSQL server: four simulated machines (separate HOMEs,
// state directories and files) exporting into one database while their writers append and rotate, two
// exporters at once on one of them, and exporters SIGKILLed at random moments. Every line ends up in the
// database exactly once, in its machine's append order.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import pg from "pg";
import { startCluster } from "./pg-cluster.js";
import { assertSameLines, dbLines, exportIn, familyLines, machine, put } from "./export-helpers.js";
import { CLI, ROOT, RUNTIME, runProcess, spawn, xorshift32 } from "./helpers.js";
import { migrate } from "../../plugin/export/schema.js";

let cluster;
before(async () => {
  cluster = await startCluster();
});
after(() => cluster?.destroy());

const STRESS = path.join(ROOT, "tests", "js", "stress-child.js");

function writer(m, id, count) {
  const child = spawn(RUNTIME, [STRESS, String(id), String(count), String(id + 7)], { env: m.env, stdio: ["ignore", "ignore", "inherit"] });
  return new Promise((resolve) => child.on("close", (code) => resolve(code)));
}

/** Writer processes one after another (so the writing lasts across several export runs); resolves to the
 *  first non-zero exit status, else 0. */
async function writers(m, id, rounds, count) {
  for (let r = 0; r < rounds; r++) {
    const code = await writer(m, id * 100 + r, count);
    if (code !== 0) return code;
  }
  return 0;
}

function exportProcess(m, url, extra = []) {
  return runProcess(RUNTIME, [CLI, "export", "--to", url, ...extra], { env: m.env, timeoutMs: 120000 });
}

function machineId(m) {
  return fs.readFileSync(path.join(m.dir, "state", "opencode-recordings", "machine-id"), "utf8").trim();
}

test("four machines export into one database at once while their writers append and rotate", async (t) => {
  const db = await cluster.createDatabase();
  const url = cluster.url(db);
  const machines = [0, 1, 2, 3].map((i) => machine(`conc${i}`, { AI_RECORDINGS_MAX_BYTES: "65536" }));
  let writing = 0;
  const runs = [];
  const loop = async (m) => {
    // Exports over and over while the writer runs, then once more after it has finished.
    do {
      const r = await exportProcess(m, url, ["--batch", "25", "--quiet"]);
      runs.push(r);
      assert.equal(r.code, 0, r.stderr);
    } while (writing > 0);
    const r = await exportProcess(m, url, ["--quiet"]);
    assert.equal(r.code, 0, r.stderr);
  };
  const writes = machines.map((m, i) => {
    writing++;
    return writers(m, i, 8, 40).then((code) => {
      writing--;
      return code;
    });
  });
  // Machine 0 runs two exporters side by side.
  const exporters = [...machines.map(loop), loop(machines[0])];
  assert.deepEqual(await Promise.all(writes), [0, 0, 0, 0]);
  await Promise.all(exporters);
  t.diagnostic(`${runs.length} export runs while writing`);
  const ids = new Set();
  for (const m of machines) {
    const id = machineId(m);
    ids.add(id);
    const lines = familyLines(m.file);
    assert.equal(lines.length, 320);
    assert.ok(fs.readdirSync(path.dirname(m.file)).length > 3, "the file rotated");
    // Each line once. Not compared in order: a writer racing a rotation can append to the archive just made
    // after an export has moved on to the new live file; that line is exported in a later run.
    assertSameLines(assert, await dbLines(cluster, db, { machine: id }), lines, { ordered: false });
  }
  assert.equal(ids.size, 4, "each simulated machine has its own id");
  assert.equal((await cluster.query(`SELECT count(*)::int AS n, count(DISTINCT eid)::int AS d FROM recordings`, [], db)).rows[0].d, 1280);
});

test("SIGKILL at random moments: nothing lost, nothing twice", async (t) => {
  const db = await cluster.createDatabase();
  const url = cluster.url(db);
  const m = machine("kill", { AI_RECORDINGS_MAX_BYTES: "262144" });
  put(m, Array.from({ length: 4000 }, (_, i) => `{"i":${i},"pad":"${"y".repeat(i % 300)}"}`), { maxBytes: 262144 });
  const rand = xorshift32(21);
  const writing = writer(m, 9, 60);
  let killed = 0;
  for (let round = 0; round < 14; round++) {
    const child = spawn(RUNTIME, [CLI, "export", "--to", url, "--batch", "150", "--quiet"], { env: m.env, stdio: "ignore" });
    const done = new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal })));
    const timer = setTimeout(() => child.kill("SIGKILL"), Math.floor(rand() * 600));
    const r = await done;
    clearTimeout(timer);
    if (r.signal === "SIGKILL") killed++;
    else assert.equal(r.code, 0);
  }
  assert.equal(await writing, 0);

  // One kill for certain inside a transaction that has copied its rows: an uncommitted row with a later
  // entry's eid holds the exporter's INSERT until it is killed.
  put(m, Array.from({ length: 600 }, (_, i) => `{"late":${i}}`));
  const lines = familyLines(m.file);
  const holder = new pg.Client({ connectionString: url });
  await holder.connect();
  await migrate(holder);
  await holder.query("BEGIN");
  const target = JSON.parse(lines[lines.length - 1]).eid;
  await holder.query(`INSERT INTO recordings (eid, line, machine, file, segment, "offset") VALUES ($1, 'x', 'holder', 'x', 'x', 0)`, [target]);
  const child = spawn(RUNTIME, [CLI, "export", "--to", url, "--batch", "1000", "--quiet"], { env: m.env, stdio: "ignore" });
  const done = new Promise((resolve) => child.on("close", (code, signal) => resolve(signal)));
  for (let i = 0; ; i++) {
    const r = await cluster.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'record export' AND wait_event_type = 'Lock' AND datname = $1`, [db]);
    if (r.rows[0].n > 0) break;
    assert.ok(i < 600, "the exporter never blocked");
    await new Promise((res) => setTimeout(res, 50));
  }
  child.kill("SIGKILL");
  assert.equal(await done, "SIGKILL");
  await holder.query("ROLLBACK");
  await holder.end();
  killed++;

  const last = await exportIn(m, ["--to", url, "--json"]);
  assert.equal(last.code, 0, last.stderr);
  t.diagnostic(`${killed} exporters killed mid-run`);
  assertSameLines(assert, await dbLines(cluster, db), familyLines(m.file), { ordered: false });
  const pos = (await cluster.query(`SELECT entries FROM recordings_positions WHERE NOT quarantine`, [], db)).rows[0];
  assert.equal(Number(pos.entries), familyLines(m.file).length, "the position's count moved with its rows, no more");
});
