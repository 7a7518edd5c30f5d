// Every query of docs/sql-cookbook.md, taken from the document and run against exported entries of the shapes
// the recorder writes, with the rows each must give.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { startCluster } from "./pg-cluster.js";
import { exportIn, machine, put } from "./export-helpers.js";
import { ROOT } from "./helpers.js";

const DOC = fs.readFileSync(path.join(ROOT, "docs", "sql-cookbook.md"), "utf8");
const QUERIES = Object.fromEntries([...DOC.matchAll(/<!-- query: ([\w-]+) -->\n```sql\n([\s\S]*?)```/g)].map((m) => [m[1], m[2]]));

let cluster;
let db;
const ids = {};
before(async () => {
  cluster = await startCluster();
  db = await cluster.createDatabase();
  const m = machine("cook");
  const e = (o) => JSON.stringify(o);
  const day = (d, h = "10") => `2026-11-${d}T${h}:00:00.000Z`;
  const rows = [
    e({ ts: day(20), kind: "lesson", repo: "alpha", note: "pin the toolchain" }),
    e({ ts: day(21), category: "Lesson", repo: "alpha", note: "read the lock file" }),
    e({ ts: day(22), repo: "beta", finding: "grep -c counts lines", sentiment: "annoyed" }),
    e({ ts: day(22, "11"), repo: "beta", note: "not a lesson", sentiment: "annoyed" }),
    e({ ts: day(23), repo: "beta", note: "relief", sentiment: ["relief", 0.8] }),
    e({ ts: day(20), trigger: "gate.failed", repo: "alpha", session: "s1", command: "npm test", exit: 1 }),
    e({ ts: day(21), trigger: "gate.failed", repo: "alpha", session: "s2", command: "npm test", exit: 1 }),
    e({ ts: day(21, "12"), trigger: "gate.failed", repo: "alpha", session: "s2", command: "npm test", exit: 1 }),
    e({ ts: day(21), trigger: "gate.failed", repo: "alpha", session: "s2", command: "cargo clippy", exit: 101 }),
    e({ ts: day(22), trigger: "subagent.completed", session: "s3", description: "Rename the config loader", prompt: "Rename loadConfig to readConfig across the package and update its tests", result: "Renamed loadConfig to readConfig in 4 files; tests updated and passing." }),
    e({ ts: day(22), trigger: "subagent.completed", session: "s3", description: "Fix the flaky upload test", prompt: "Find why the upload test fails one run in ten and fix it", result: "I refactored the logging module and added colours to the output." }),
  ];
  const out = put(m, rows);
  out.forEach((r, i) => (ids[i] = r.eid));
  put(m, ["category=bad judgement | finding: trusted a stale cache {grade: F}"], { cwd: m.dir });
  // Automatic failures, fingerprinted by the core: three runs of one, one of another, then green for the first.
  const auto = { capture: "auto", session: "s9", cwd: m.dir };
  const red = (h, test, n) => e({ ts: day(24, h), trigger: "gate.failed", command: "cargo test", exit: 101, output_tail: `test a::${test} ... FAILED\nthread panicked at src/a.rs:${n}:5:\n` });
  const runs = put(m, [red("11", "one", 1), red("12", "one", 2), red("13", "one", 3), red("14", "two", 1)], auto);
  ids.fpA = runs[0].fp;
  ids.fpB = runs[3].fp;
  ids.firstA = runs[0].eid;
  put(m, [e({ ts: day(24, "15"), trigger: "gate.passed", command: "cargo test", resolves: [ids.fpA], failures: 3 })], auto);
  const r = await exportIn(m, ["--to", cluster.url(db)]);
  assert.equal(r.code, 0, r.stderr);
});
after(() => cluster?.destroy());

const run = async (name) => {
  assert.ok(QUERIES[name], `docs/sql-cookbook.md has the ${name} query`);
  return (await cluster.query(QUERIES[name], [], db)).rows;
};

test("the cookbook's queries are all covered here", () => {
  assert.deepEqual(Object.keys(QUERIES).sort(), ["failure-episodes", "full-text", "lessons-per-repo", "recurring-gate-failures", "sentiment-over-time", "subagent-drift"]);
});

test("lessons per repository", async () => {
  const rows = await run("lessons-per-repo");
  assert.deepEqual(rows.map((r) => [r.repo, Number(r.lessons)]), [["alpha", 2], ["beta", 1], [null, 1]]);
  assert.equal(rows[0].latest.toISOString(), "2026-11-21T10:00:00.000Z");
});

test("gate failures that recur", async () => {
  const rows = await run("recurring-gate-failures");
  assert.deepEqual(rows.map((r) => [r.repo, r.command, Number(r.failures), Number(r.sessions)]), [["alpha", "npm test", 3, 2]]);
  assert.equal(rows[0].first.toISOString(), "2026-11-20T10:00:00.000Z");
  assert.equal(rows[0].last.toISOString(), "2026-11-21T12:00:00.000Z");
});

test("failure episodes and their time to green", async () => {
  assert.match(ids.fpA, /^g1_[0-9a-f]{16}$/);
  assert.notEqual(ids.fpA, ids.fpB);
  const rows = await run("failure-episodes");
  assert.deepEqual(
    rows.map((r) => [r.session, r.fp, Number(r.runs), r.first_eid === ids.firstA, r.resolved_at?.toISOString() ?? null, r.minutes_to_green === null ? null : Number(r.minutes_to_green)]),
    [
      ["s9", ids.fpA, 3, true, "2026-11-24T15:00:00.000Z", 240],
      ["s9", ids.fpB, 1, false, null, null],
    ],
  );
});

test("subagents whose result drifted from their brief", async () => {
  const rows = await run("subagent-drift");
  assert.deepEqual(rows.map((r) => [r.eid, r.brief]), [[ids[10], "Fix the flaky upload test"]]);
  assert.ok(Number(rows[0].overlap) < 0.25);
});

test("sentiment over time", async () => {
  const rows = await run("sentiment-over-time");
  assert.deepEqual(
    rows.map((r) => [r.day.toISOString().slice(0, 10), r.sentiment, Number(r.entries)]),
    [["2026-11-22", "annoyed", 2], ["2026-11-23", '["relief", 0.8]', 1]],
  );
});

test("full text over the lines", async () => {
  const rows = await run("full-text");
  assert.equal(rows.length, 1);
  assert.equal(rows[0].repo, null);
});
