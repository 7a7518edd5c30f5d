// record export against a real PostgreSQL server (a throwaway cluster, tests/js/pg-cluster.js): byte-identical
// lines, the common columns, quarantine, reruns, rotation, an older schema, bad credentials, a server stopped
// in the middle of a batch.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import pg from "pg";
import { startCluster } from "./pg-cluster.js";
import { assertSameLines, dbLines, exportIn, familyLines, machine, put } from "./export-helpers.js";
import { CLI, RUNTIME, runCli, runProcess, spawn } from "./helpers.js";
import { migrate } from "../../plugin/export/schema.js";
import { redactUrl } from "../../plugin/export/connection.js";

let cluster;
before(async () => {
  cluster = await startCluster();
});
after(() => cluster?.destroy());

const MIXED = [
  '{"note":"dup","note":"again","n":1.0,"e":1e5,"big":123456789012345678901234567890,"s":"caf\\u00e9 \\/"}',
  "category=bad judgement | finding: trusted a stale cache {grade: F}",
  "plain prose, a lesson learned — relieved",
  '{"kind":"lesson","repo":"caller-repo","session":"s-1","trigger":"gate.failed","huge":1e400}',
  '{"nul":"a\\u0000b","lone":"\\ud800"}',
  '{"note": "unterminated',
  Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
  "[1,2,3]",
  "",
];

test("every line goes in byte for byte, once; quarantine to its own table; a rerun adds nothing", async () => {
  const db = await cluster.createDatabase();
  const m = machine("mixed");
  put(m, MIXED, { session: "sess-a", model: "p/m", agent: "build" });
  fs.appendFileSync(m.file, '{"hand":"edited","ts":"2026-13-45T99:00:00Z"}\r\n');
  const url = cluster.url(db);
  const r = await exportIn(m, ["--to", url, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const main = familyLines(m.file);
  const quarantine = familyLines(m.file, { quarantine: true });
  assert.ok(quarantine.length >= 2, "broken JSON and bad UTF-8 were quarantined");
  assert.equal(r.json.entries, main.length);
  assert.equal(r.json.quarantined, quarantine.length);
  assertSameLines(assert, await dbLines(cluster, db), main);
  assertSameLines(assert, await dbLines(cluster, db, { quarantine: true }), quarantine);

  // jsonb where the server can hold it; the line always.
  const rows = (await cluster.query(`SELECT eid, line, entry, kind, repo, session, model, agent, trigger, capture, at, ts, machine, host, file, "offset" FROM recordings ORDER BY id`, [], db)).rows;
  for (const row of rows) {
    const e = JSON.parse(row.line);
    assert.equal(row.eid, typeof e.eid === "string" ? e.eid : null);
    if (!row.line.includes("\\u0000")) assert.notEqual(row.entry, null, row.line);
    assert.equal(row.machine, r.json.machine);
    assert.equal(row.file, m.file);
  }
  const nul = rows.find((x) => x.line.includes("\\u0000"));
  assert.equal(nul.entry, null, "PostgreSQL's jsonb cannot hold \\u0000: null there, line kept");
  const loose = rows.find((x) => x.line.includes("stale cache"));
  assert.equal(loose.kind, "bad judgement", "kind falls back to category");
  assert.equal(loose.session, "sess-a");
  assert.equal(loose.model, "p/m");
  assert.equal(loose.capture, "cli");
  assert.ok(loose.at instanceof Date && Math.abs(loose.at - Date.parse(loose.ts)) === 0);
  const caller = rows.find((x) => x.line.includes("caller-repo"));
  assert.equal(caller.repo, "caller-repo");
  assert.equal(caller.trigger, "gate.failed");
  const hand = rows.find((x) => x.line.includes("hand"));
  assert.equal(hand.at, null, "a ts that is not a time leaves at null");
  assert.equal(hand.line, '{"hand":"edited","ts":"2026-13-45T99:00:00Z"}\r', "the stored line keeps its \\r");
  const dup = rows.find((x) => x.line.includes('"dup"'));
  assert.equal(dup.entry.note, "again");
  const q = (await cluster.query(`SELECT reason, entry FROM recordings_quarantine ORDER BY id`, [], db)).rows;
  assert.ok(q.every((x) => typeof x.reason === "string" && x.entry !== null));

  const again = await exportIn(m, ["--to", url, "--json"]);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.json.entries, 0);
  assert.equal(again.json.quarantined, 0);
  put(m, ["one more", '{"and":"another"}']);
  const third = await exportIn(m, ["--to", url, "--json"]);
  assert.equal(third.json.entries, 2);
  assertSameLines(assert, await dbLines(cluster, db), familyLines(m.file));
  const pos = (await cluster.query(`SELECT quarantine, entries FROM recordings_positions ORDER BY quarantine`, [], db)).rows;
  assert.deepEqual(pos.map((p) => Number(p.entries)), [familyLines(m.file).length, quarantine.length]);
});

test("exactly once across rotation: exports between appends while the file rotates", async () => {
  const db = await cluster.createDatabase();
  const m = machine("rot");
  const url = cluster.url(db);
  let n = 0;
  for (let round = 0; round < 8; round++) {
    put(m, Array.from({ length: 40 }, () => `{"round":${round},"n":${n++},"pad":"${"x".repeat(200)}"}`), { maxBytes: 4096 });
    const r = await exportIn(m, ["--to", url, "--batch", "7"]);
    assert.equal(r.code, 0, r.stderr);
  }
  const all = familyLines(m.file);
  assert.equal(all.length, n);
  assert.ok(fs.readdirSync(`${m.dir}/home/git`).length > 10, "the file rotated many times");
  assertSameLines(assert, await dbLines(cluster, db), all);
});

test("an older schema is migrated, its rows kept and completed", async () => {
  const db = await cluster.createDatabase();
  const c = new pg.Client({ connectionString: cluster.url(db) });
  await c.connect();
  assert.deepEqual((await migrate(c, { to: 1 })).applied, [1]);
  await c.query(
    `INSERT INTO recordings (eid, line, entry, ts, machine, file, segment, "offset") VALUES ('old1', $1::text, $1::jsonb, '2026-01-02T03:04:05.006Z', 'old-machine', '/old', '/old', 0)`,
    ['{"ts":"2026-01-02T03:04:05.006Z","eid":"old1"}'],
  );
  // A row whose line stored a failure fingerprint: version 3 fills the fp column from it.
  await c.query(
    `INSERT INTO recordings (eid, line, entry, machine, file, segment, "offset") VALUES ('old2', $1::text, $1::jsonb, 'old-machine', '/old', '/old', 1)`,
    ['{"eid":"old2","trigger":"gate.failed","capture":"auto","fp":"g1_00000000000000aa"}'],
  );
  await c.end();
  const m = machine("mig");
  put(m, ["after the migration"]);
  const r = await exportIn(m, ["--to", cluster.url(db), "--json"]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.json.migrated, [2, 3]);
  const old = (await cluster.query(`SELECT at FROM recordings WHERE eid = 'old1'`, [], db)).rows[0];
  assert.equal(old.at.toISOString(), "2026-01-02T03:04:05.006Z");
  assert.deepEqual((await cluster.query(`SELECT version FROM recordings_schema ORDER BY version`, [], db)).rows.map((x) => x.version), [1, 2, 3]);
  assert.equal((await cluster.query(`SELECT count(*)::int AS n FROM recordings`, [], db)).rows[0].n, 3);
  assert.deepEqual((await cluster.query(`SELECT eid, fp FROM recordings WHERE eid LIKE 'old%' ORDER BY eid`, [], db)).rows, [{ eid: "old1", fp: null }, { eid: "old2", fp: "g1_00000000000000aa" }]);

  // A database migrated by a newer record is left alone, with a clear message.
  await cluster.query(`INSERT INTO recordings_schema (version, about) VALUES (99, 'from the future')`, [], db);
  const newer = await exportIn(m, ["--to", cluster.url(db)]);
  assert.equal(newer.code, 1);
  assert.match(newer.stderr, /schema is version 99, newer than this record knows \(3\)/);
});

test("a wrong password gets a clear error that never shows it, in messages, status record or doctor", async () => {
  const db = await cluster.createDatabase();
  const m = machine("badpw");
  put(m, ["something to export"]);
  const wrong = "Wr0ng-pass-9f8e7d6c";
  for (const [args, env] of [
    [["--to", cluster.url(db, wrong)], {}],
    [["--to", cluster.url(db, wrong).replace(`:${wrong}@`, "@") + `?password=${wrong}`], {}],
    [[], { AI_RECORDINGS_EXPORT_URL: cluster.url(db, wrong) }],
    [[], { PGHOST: "127.0.0.1", PGPORT: String(cluster.port), PGUSER: cluster.user, PGDATABASE: db, PGPASSWORD: wrong }],
  ]) {
    const mm = { ...m, env: { ...m.env, ...env } };
    const r = await exportIn(mm, [...args, "--json"]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /password authentication failed for user "recorder"/);
    assert.ok(!r.stderr.includes(wrong) && !r.stdout.includes(wrong), r.stderr);
    // As a child process too (the CLI's own paths).
    const cli = runCli(["export", ...args], { env: mm.env });
    assert.equal(cli.code, 1, cli.stderr);
    assert.match(cli.stderr, /password authentication failed/);
    assert.ok(!cli.stderr.includes(wrong) && !cli.stdout.includes(wrong));
  }
  const status = fs.readFileSync(`${m.dir}/state/opencode-recordings/status.json`, "utf8");
  assert.match(status, /password authentication failed/);
  assert.ok(!status.includes(wrong));
  const doctor = runCli(["doctor"], { env: m.env });
  assert.notEqual(doctor.code, 0);
  assert.match(doctor.stdout + doctor.stderr, /The last record export failed .*password authentication failed/);
  assert.ok(!(doctor.stdout + doctor.stderr).includes(wrong));
  for (const f of [m.file, `${m.dir}/home/git/ai_recordings.quarantine.jsonl`]) {
    if (fs.existsSync(f)) assert.ok(!fs.readFileSync(f, "utf8").includes(wrong));
  }
  assert.equal((await cluster.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'recordings'`, [], db)).rows[0].n, 0);

  // Not a URL, or another scheme: said so, without quoting it.
  const notUrl = await exportIn(m, ["--to", `host=x password=${wrong}`]);
  assert.equal(notUrl.code, 1);
  assert.match(notUrl.stderr, /not a URL/);
  assert.ok(!notUrl.stderr.includes(wrong));
  const scheme = await exportIn(m, ["--to", `mysql://u:${wrong}@h/db`]);
  assert.match(scheme.stderr, /must start with postgres:\/\//);
  assert.ok(!scheme.stderr.includes(wrong));
  const usage = await exportIn(m, ["--to", `postgres://u:${wrong}@h/db`, "extra"]);
  assert.equal(usage.code, 2);
  assert.ok(!usage.stderr.includes(wrong));
  assert.equal(redactUrl(`postgres://u:${wrong}@h:5/db?sslmode=require&password=${wrong}`), "postgres://u:[REDACTED]@h:5/db?sslmode=require&password=[REDACTED]");
});

/** Resolves once a `record export` session waits on a lock (pg_stat_activity). */
async function waitForExporterBlocked(db) {
  for (let i = 0; i < 600; i++) {
    const r = await cluster.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'record export' AND wait_event_type = 'Lock' AND datname = $1`, [db]);
    if (r.rows[0].n > 0) return;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error("the exporter never blocked");
}

test("the server stopped in the middle of a batch: the export fails cleanly, a later run resumes exactly once", async () => {
  const db = await cluster.createDatabase();
  const m = machine("stop");
  const res = put(m, Array.from({ length: 3000 }, (_, i) => `{"i":${i}}`));
  // An uncommitted row holding the eid of entry 1500 makes the exporter's second batch wait after its COPY,
  // inside its transaction, until the server goes away.
  const holder = new pg.Client({ connectionString: cluster.url(db) });
  await holder.connect();
  await migrate(holder);
  holder.on("error", () => {});
  await holder.query("BEGIN");
  await holder.query(`INSERT INTO recordings (eid, line, machine, file, segment, "offset") VALUES ($1, 'x', 'holder', 'x', 'x', 0)`, [res[1500].eid]);
  const child = spawn(RUNTIME, [CLI, "export", "--to", cluster.url(db), "--batch", "1000"], { env: m.env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise((res2) => child.on("close", (code) => res2(code)));
  await waitForExporterBlocked(db);
  cluster.stop("fast");
  assert.equal(await exited, 1);
  assert.match(stderr, /record export: export to postgres:\/\/recorder:\[REDACTED\]@127\.0\.0\.1:\d+\/\w+ failed: .*(shutting down|connection to the server was lost|terminat)/i);
  assert.match(stderr, /the next run resumes/);
  assert.ok(!stderr.includes(cluster.password));
  cluster.start();
  await holder.end().catch(() => {});
  assert.equal((await cluster.query(`SELECT count(*)::int AS n FROM recordings`, [], db)).rows[0].n, 1000, "the first batch was committed, the second not");
  const r = await exportIn(m, ["--to", cluster.url(db), "--json"]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.json.entries, 2000);
  assertSameLines(assert, await dbLines(cluster, db), familyLines(m.file));
});

test("progress on a terminal for a backlog; --help; usage errors", async () => {
  const db = await cluster.createDatabase();
  const m = machine("prog");
  put(m, Array.from({ length: 400 }, (_, i) => `{"i":${i}}`));
  const { exportCmd } = await import("../../plugin/cli/export.js");
  let err = "";
  let out = "";
  const tty = { isTTY: true, write: (s) => ((err += s), true) };
  const code = await exportCmd(["--to", cluster.url(db), "--batch", "50"], { env: m.env, stdout: { write: (s) => ((out += s), true) }, stderr: tty, cwd: m.dir });
  assert.equal(code, 0);
  assert.match(err, /\rrecord export: main: \d+ entries \(\d+\.\d MiB read\)/);
  assert.match(out, /record export: 400 new entries and 0 quarantined lines exported from .* to postgres:\/\/recorder:\[REDACTED\]@/);
  const help = runCli(["export", "--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /record export - copy recordings into a PostgreSQL database/);
  const bad = await exportIn(m, ["--batch", "0"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--batch needs a positive whole number/);
  const none = await exportIn(m, []);
  assert.equal(none.code, 1);
  assert.match(none.stderr, /no database: give --to/);
});
