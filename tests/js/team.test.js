// Team memory against a real PostgreSQL server (a throwaway cluster, tests/js/pg-cluster.js): machines export,
// another pulls with `record sync`, and its recall finds their lessons marked as team rows — for its own
// repositories only unless --all-repos, its own rows not doubled, quarantined rows never, each row once after
// a pull killed mid-way, the same answers after the index is deleted, and from what was pulled while the
// database is down.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startCluster } from "./pg-cluster.js";
import { exportIn, machine, put } from "./export-helpers.js";
import { gitRepo, runCli, spawn } from "./helpers.js";
import { loadDriver, missingDriver } from "../../plugin/recall/driver.js";
import { sync } from "../../plugin/cli/sync.js";
import { recall } from "../../plugin/cli/recall.js";
import { indexPath } from "../../plugin/paths.js";
import { readTeamState, teamStatePath } from "../../plugin/recall/team-state.js";
import { repoKey } from "../../plugin/recall/team.js";

const skip = missingDriver() ?? false;
const SYNC = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..", "..", "plugin", "cli", "index.js");

let cluster;
before(async () => {
  if (!skip) cluster = await startCluster();
});
after(() => cluster?.destroy());

function sink() {
  let text = "";
  return { write: (s) => ((text += s), true), get text() { return text; } };
}

async function run(fn, m, args, cwd) {
  const stdout = sink();
  const stderr = sink();
  const code = await fn(args, { env: m.env, stdout, stderr, cwd: cwd ?? m.dir });
  let json = null;
  try {
    json = JSON.parse(stdout.text.trim().split("\n").pop());
  } catch {}
  return { code, stdout: stdout.text, stderr: stderr.text, json };
}

/** A machine with a clone of each `origins` entry under its directory; `clone(name)` is its path. */
function host(name, origins, extra = {}) {
  const m = machine(name, { AI_RECORDINGS_MACHINE: `machine-${name}`, XDG_DATA_HOME: "", ...extra });
  m.env.XDG_DATA_HOME = path.join(m.dir, "data");
  m.clones = {};
  for (const [repo, origin] of Object.entries(origins)) m.clones[repo] = gitRepo(path.join(m.dir, "src", repo), origin);
  return m;
}

const lesson = (m, text, repo, extra = {}) => put(m, [JSON.stringify({ kind: "lesson", lesson: text, ...extra })], { cwd: m.clones[repo] })[0].eid;

const jsonHits = (out) => out.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));

test("a lesson one machine exported reaches another's recall for the same repository, marked as a team row", { skip }, async () => {
  const db = await cluster.createDatabase();
  const url = cluster.url(db);
  const a = host("a", { widget: "git@example.com:Team/Widget.git" });
  const b = host("b", { billing: "https://example.com/team/billing.git" });
  const c = host("c", { widget: "https://deploy@example.com/team/widget", billing: "https://example.com/team/billing" });
  const compose = lesson(a, "the integration tests need `docker compose up db` first, else ECONNREFUSED on 5432", "widget");
  put(a, ['{"broken json quarantined on machine a: zebrafish', "x"], { cwd: a.clones.widget });
  const invoice = lesson(b, "invoice rounding tests need the zebrafish currency table loaded", "billing");
  const own = lesson(c, "the widget snapshot tests need TZ=UTC", "widget");
  for (const m of [a, b, c]) assert.equal((await exportIn(m, ["--to", url])).code, 0);
  assert.ok((await cluster.query("SELECT count(*)::int n FROM recordings_quarantine", [], db)).rows[0].n > 0, "machine a exported a quarantined line");

  // c works on widget only (its billing clone has nothing recorded and is not its working directory).
  const s = await run(sync, c, ["--from", url, "--json"], c.clones.widget);
  assert.equal(s.code, 0, s.stderr);
  assert.equal(s.json.added, 2, "a's two widget rows (its lesson and the prose x); nothing of b's repository, nothing of c's own");
  assert.deepEqual(s.json.repos, [repoKey("https://example.com/team/widget")]);
  assert.ok(!s.stdout.includes(cluster.password) && s.json.from.includes("[REDACTED]"));

  const r = await run(recall, c, ["docker compose integration tests"], c.clones.widget);
  assert.equal(r.code, 0, r.stderr);
  const first = r.stdout.split("\n")[0];
  assert.ok(first.startsWith(`${compose}  `), r.stdout);
  assert.ok(first.endsWith(`  team: ${os.hostname()}`), first);
  const j = jsonHits((await run(recall, c, ["docker compose integration tests", "--json"], c.clones.widget)).stdout);
  assert.equal(j[0].entry.eid, compose);
  assert.equal(j[0].machine, "machine-a");
  assert.equal(j[0].host, os.hostname());

  // record show finds a teammate's entry in the index (it is in no file of c's).
  const shown = runCli(["show", compose], { env: c.env, cwd: c.clones.widget });
  assert.equal(shown.code, 0, shown.stderr);
  assert.ok(shown.stdout.includes("docker compose up db"), shown.stdout);
  assert.ok(shown.stdout.includes(`_A teammate's entry: exported by ${os.hostname()} (machine machine-a), pulled by record sync; in no file here._`), shown.stdout);
  const line = runCli(["show", "--json", compose.slice(0, 6)], { env: c.env, cwd: c.clones.widget });
  assert.equal(JSON.parse(line.stdout).eid, compose);

  // Not for another repository: b's lesson is not in c's index, whatever the scope.
  const z = await run(recall, c, ["--scope", "all", "--json", "zebrafish"], c.clones.widget);
  assert.deepEqual(jsonHits(z.stdout).map((h) => h.entry.eid), [], "neither b's billing lesson nor a's quarantined line");

  // c's own row, exported too, is once in its index and not a team row.
  const mine = jsonHits((await run(recall, c, ["--json", "--scope", "all", "snapshot TZ"], c.clones.widget)).stdout);
  assert.deepEqual(mine.map((h) => [h.entry.eid, h.machine ?? null]), [[own, null]]);

  // --all-repos takes every repository's rows; the quarantined line still never comes.
  const all = await run(sync, c, ["--from", url, "--all-repos", "--json"], c.clones.widget);
  assert.equal(all.code, 0, all.stderr);
  assert.equal(all.json.added, 1);
  const z2 = jsonHits((await run(recall, c, ["--scope", "all", "--json", "zebrafish"], c.clones.widget)).stdout);
  assert.deepEqual(z2.map((h) => [h.entry.eid, h.machine]), [[invoice, "machine-b"]]);
  // From c's billing clone, scope repo finds b's lesson (same origin, spelled differently).
  const inBilling = jsonHits((await run(recall, c, ["--json", "invoice rounding"], c.clones.billing)).stdout);
  assert.deepEqual(inBilling.map((h) => h.entry.eid), [invoice]);

  // A second pull with nothing new adds nothing; --forget deletes the team rows only.
  const again = await run(sync, c, ["--from", url, "--all-repos", "--json"], c.clones.widget);
  assert.equal(again.json.added, 0);
  assert.equal(again.json.read, 0);
  const forget = await run(sync, c, ["--forget", "--json"], c.clones.widget);
  assert.equal(forget.json.forgotten, 3);
  const after = jsonHits((await run(recall, c, ["--json", "--scope", "all", "tests need"], c.clones.widget)).stdout);
  assert.deepEqual(after.map((h) => h.entry.eid), [own]);
});

test("a machine starting on another repository pulls that repository's earlier rows too", { skip }, async () => {
  const db = await cluster.createDatabase();
  const url = cluster.url(db);
  const a = host("a2", { one: "git@example.com:t/one.git", two: "git@example.com:t/two.git" });
  const c = host("c2", { one: "git@example.com:t/one.git", two: "git@example.com:t/two.git" });
  const first = lesson(a, "repository one needs the quokka flag", "one");
  const second = lesson(a, "repository two needs the quokka toggle", "two");
  assert.equal((await exportIn(a, ["--to", url])).code, 0);
  assert.equal((await run(sync, c, ["--from", url, "--json"], c.clones.one)).json.added, 1);
  // Later c works in two: rows of two exported before its position are pulled now, one's are not doubled.
  const s = await run(sync, c, ["--from", url, "--json"], c.clones.two);
  assert.equal(s.json.added, 1, s.stdout);
  assert.equal(s.json.alreadyThere, 1);
  const hits = jsonHits((await run(recall, c, ["--json", "--scope", "all", "quokka"], c.clones.two)).stdout);
  assert.deepEqual(hits.map((h) => h.entry.eid).sort(), [first, second].sort());
});

/** The database ids of the team rows in m's index, ascending (read with recall's own driver: node:sqlite or
 *  bun:sqlite). */
async function teamIds(m) {
  const file = indexPath(m.file, { env: m.env });
  if (!fs.existsSync(file)) return [];
  const d = (await loadDriver())(file);
  try {
    return d.all("SELECT team_id FROM entries WHERE team_id IS NOT NULL ORDER BY team_id").map((r) => Number(r.team_id));
  } catch {
    return [];
  } finally {
    d.close();
  }
}

test("a pull killed mid-way and run again adds each row once", { skip }, async () => {
  const db = await cluster.createDatabase();
  const url = cluster.url(db);
  const a = host("a3", { w: "git@example.com:t/w.git" });
  const c = host("c3", { w: "git@example.com:t/w.git" });
  const N = 4000;
  put(a, Array.from({ length: N }, (_, i) => JSON.stringify({ kind: "lesson", lesson: `lesson number ${i} about the wombat ${i % 97}` })), { cwd: a.clones.w });
  assert.equal((await exportIn(a, ["--to", url])).code, 0);
  const child = spawn(process.execPath, [SYNC, "sync", "--from", url, "--batch", "40", "--quiet"], { cwd: c.clones.w, env: c.env, stdio: "ignore" });
  let seen = 0;
  while (seen === 0) {
    await new Promise((r) => setTimeout(r, 5));
    seen = (await teamIds(c)).length;
    if (child.exitCode !== null) break;
  }
  const exited = child.exitCode !== null ? Promise.resolve() : new Promise((r) => child.once("exit", r));
  child.kill("SIGKILL");
  await exited;
  const atKill = (await teamIds(c)).length;
  assert.ok(atKill > 0 && atKill < N, `killed mid-way (${atKill} of ${N} rows were in)`);
  const s = await run(sync, c, ["--from", url, "--json"], c.clones.w);
  assert.equal(s.code, 0, s.stderr);
  const ids = await teamIds(c);
  assert.equal(ids.length, N, JSON.stringify(s.json));
  assert.equal(new Set(ids).size, N);
  const inDb = (await cluster.query("SELECT id::int FROM recordings ORDER BY id", [], db)).rows.map((r) => r.id);
  assert.deepEqual(ids, inDb);
  assert.equal(s.json.added, N - atKill, "the rerun added only what the killed pull had not committed");
});

test("an export batch in flight is not passed over: its rows come with the next pull", { skip }, async () => {
  const db = await cluster.createDatabase();
  const url = cluster.url(db);
  const a = host("a5", { w: "git@example.com:t/w.git" });
  const c = host("c5", { w: "git@example.com:t/w.git" });
  lesson(a, "the first pelican lesson", "w");
  assert.equal((await exportIn(a, ["--to", url])).code, 0);
  // A transaction that took an id and has not committed, then a later row committed by another session.
  const pg = (await import("pg")).default;
  const slow = new pg.Client({ connectionString: url });
  await slow.connect();
  await slow.query("BEGIN");
  const row = (l, m) => `INSERT INTO recordings (eid, line, machine, file, segment, "offset", origin) VALUES (NULL, '${l}', '${m}', 'f', 's', 0, 'git@example.com:t/w.git')`;
  await slow.query(row('{"lesson":"the in-flight pelican lesson"}', "machine-slow"));
  await cluster.query(row('{"lesson":"the later pelican lesson"}', "machine-fast"), [], db);
  const pulling = run(sync, c, ["--from", url, "--json"], c.clones.w);
  // The pull waits for the batch in flight to commit rather than moving past its id.
  await new Promise((r) => setTimeout(r, 300));
  await slow.query("COMMIT");
  await slow.end();
  const s = await pulling;
  assert.equal(s.code, 0, s.stderr);
  const hits = jsonHits((await run(recall, c, ["--json", "pelican lesson"], c.clones.w)).stdout).map((h) => h.entry.lesson).sort();
  assert.deepEqual(hits, ["the first pelican lesson", "the in-flight pelican lesson", "the later pelican lesson"]);
});

test("the index deleted: rebuilt from the files and the database with the same answers", { skip }, async () => {
  const db = await cluster.createDatabase();
  const url = cluster.url(db);
  const a = host("a4", { w: "git@example.com:t/w.git" });
  const c = host("c4", { w: "git@example.com:t/w.git" });
  lesson(a, "flaky platypus test: run it with --test-concurrency=1", "w");
  lesson(a, "the platypus fixture needs the en_US locale", "w");
  lesson(c, "platypus builds need node 22", "w");
  assert.equal((await exportIn(a, ["--to", url])).code, 0);
  assert.equal((await run(sync, c, ["--from", url])).code, 0);
  const ask = async () => (await run(recall, c, ["--json", "platypus test locale"], c.clones.w)).stdout;
  const before = await ask();
  assert.equal(jsonHits(before).length, 3);
  const index = indexPath(c.file, { env: c.env });
  for (const f of fs.readdirSync(path.dirname(index))) fs.rmSync(path.join(path.dirname(index), f));
  assert.equal((await run(sync, c, ["--from", url], c.clones.w)).code, 0);
  assert.equal(await ask(), before);
});

test("the database down: recall answers from what was pulled and says once why the team source was not reached", { skip }, async () => {
  const own = await startCluster();
  try {
    const url = own.url("postgres");
    const a = host("a6", { w: "git@example.com:t/w.git" });
    const c = host("c6", { w: "git@example.com:t/w.git" }, { AI_RECORDINGS_TEAM: "1" });
    c.env.AI_RECORDINGS_EXPORT_URL = url;
    const eid = lesson(a, "the narwhal service needs REDIS_URL set before the tests", "w");
    assert.equal((await exportIn(a, ["--to", url])).code, 0);
    assert.equal((await run(sync, c, [], c.clones.w)).code, 0);
    own.stop("fast");
    const s = await run(sync, c, [], c.clones.w);
    assert.equal(s.code, 1);
    assert.match(s.stderr, /^record sync: pull from postgres:\/\/recorder:\[REDACTED\]@127\.0\.0\.1:\d+\/postgres failed: the server refused the connection/);
    assert.ok(!s.stderr.includes(own.password));
    const r = await run(recall, c, ["narwhal tests"], c.clones.w);
    assert.equal(r.code, 0);
    assert.ok(r.stdout.startsWith(`${eid}  `) && r.stdout.includes("team: "), r.stdout);
    const said = r.stderr.split("\n").filter((l) => l.includes("was not reached"));
    assert.equal(said.length, 1, r.stderr);
    assert.match(said[0], /^record recall: the team source postgres:\/\/recorder:\[REDACTED\]@127\.0\.0\.1:\d+\/postgres was not reached \(.*the server refused the connection.*\); teammates' entries are as pulled at \d{4}-/);
    // The doctor shows the source, the last pull and the failure.
    const doc = runCli(["doctor", "--json"], { env: c.env });
    const team = JSON.parse(doc.stdout).team;
    assert.equal(team.on, true);
    assert.match(team.source, /\[REDACTED\]/);
    assert.equal(team.last.teamRows, 1);
    assert.match(team.last.lastReason, /refused the connection/);
    assert.ok(!doc.stdout.includes(own.password));
    const text = runCli(["doctor"], { env: c.env }).stdout;
    assert.match(text, /\nTeam memory\n  on \(AI_RECORDINGS_TEAM\)[^\n]*\n  source: postgres:\/\/recorder:\[REDACTED\]@[^\n]*\n  last pull: [^\n]*, 1 row\(s\) added; 1 team row\(s\) in the index\n  last failure: [^\n]*refused the connection/);
  } finally {
    own.destroy();
  }
});

test("with AI_RECORDINGS_TEAM=1 a recall starts the pull in the background, and the next finds what it pulled", { skip }, async () => {
  const db = await cluster.createDatabase();
  const url = cluster.url(db);
  const a = host("a7", { w: "git@example.com:t/w.git" });
  const c = host("c7", { w: "git@example.com:t/w.git" }, { AI_RECORDINGS_TEAM: "1" });
  c.env.AI_RECORDINGS_EXPORT_URL = url;
  const eid = lesson(a, "the axolotl migration must run before the seed script", "w");
  assert.equal((await exportIn(a, ["--to", url])).code, 0);
  const first = runCli(["recall", "axolotl migration"], { env: c.env, cwd: c.clones.w });
  assert.equal(first.code, 0, first.stderr);
  const index = indexPath(c.file, { env: c.env });
  let state = null;
  for (let i = 0; i < 400 && !state?.lastSuccess; i++) {
    await new Promise((r) => setTimeout(r, 25));
    state = readTeamState(index);
  }
  assert.ok(state?.lastSuccess, `the background pull finished: ${JSON.stringify(state)}`);
  assert.equal(state.teamRows, 1);
  const next = runCli(["recall", "axolotl migration"], { env: c.env, cwd: c.clones.w });
  assert.ok(next.stdout.startsWith(`${eid}  `), next.stdout);
  // Within the interval, no second pull is started.
  const attempt = readTeamState(index).lastAttempt;
  runCli(["recall", "axolotl"], { env: c.env, cwd: c.clones.w });
  assert.equal(readTeamState(index).lastAttempt, attempt);
  assert.ok(fs.existsSync(teamStatePath(index)));
});

/** `record sync --batch 10 --json` for machine `m` from `url`, counting the queries it sends: { sent, json }. */
async function countedPull(m, url) {
  const pg = (await import("pg")).default;
  let sent = 0;
  class Counting extends pg.Client {
    query(...args) {
      sent++;
      return super.query(...args);
    }
  }
  const stdout = sink();
  const code = await sync(["--from", url, "--batch", "10", "--json"], { env: m.env, stdout, stderr: sink(), cwd: m.clones.w, Client: Counting });
  assert.equal(code, 0);
  return { sent, json: JSON.parse(stdout.text) };
}

/** A fresh database and two machines with a clone of one repository: `a` exports, `c` pulls. */
async function twoMachines(tag) {
  const db = await cluster.createDatabase();
  const origin = { w: "git@example.com:t/w.git" };
  return { db, url: cluster.url(db), a: host(`a${tag}`, origin), c: host(`c${tag}`, origin) };
}

test("a pull with nothing new sends one query; one with new rows a query per batch besides", { skip }, async () => {
  const { url, a, c } = await twoMachines("8");
  put(a, Array.from({ length: 25 }, (_, i) => `lesson ${i}: the ibis cache`), { cwd: a.clones.w });
  assert.equal((await exportIn(a, ["--to", url])).code, 0);
  const first = await countedPull(c, url);
  assert.equal(first.json.added, 25);
  assert.equal(first.sent, 1 + 3, "the head, then three batches of at most 10");
  const idle = await countedPull(c, url);
  assert.equal(idle.json.added, 0);
  assert.equal(idle.sent, 1);
});

test("ids with a wide gap and this machine's own rows between: every teammate row comes once, in few queries", { skip }, async () => {
  const { db, url, a, c } = await twoMachines("9");
  put(a, Array.from({ length: 12 }, (_, i) => `lesson ${i}: the heron queue`), { cwd: a.clones.w });
  assert.equal((await exportIn(a, ["--to", url])).code, 0);
  // This machine's own rows, then a jump of the sequence far past a batch's window, then more teammate rows.
  put(c, Array.from({ length: 30 }, (_, i) => `own ${i}: the heron queue`), { cwd: c.clones.w });
  assert.equal((await exportIn(c, ["--to", url])).code, 0);
  await cluster.query("SELECT setval(pg_get_serial_sequence('recordings', 'id'), (SELECT max(id) FROM recordings) + 100000)", [], db);
  put(a, Array.from({ length: 13 }, (_, i) => `lesson ${12 + i}: the heron queue`), { cwd: a.clones.w });
  assert.equal((await exportIn(a, ["--to", url])).code, 0);
  const { sent, json: out } = await countedPull(c, url);
  assert.equal(out.added, 25);
  assert.equal(out.alreadyThere, 0);
  const head = Number((await cluster.query("SELECT max(id) n FROM recordings", [], db)).rows[0].n);
  assert.equal(out.position, head);
  // Windows widen across the gap: a few dozen queries, not one per 10 ids of it (10,000).
  assert.ok(sent < 40, `${sent} queries`);
  const ix = (await loadDriver())(indexPath(c.file, { env: c.env }));
  try {
    assert.equal(Number(ix.get("SELECT count(*) n FROM entries WHERE team_id IS NOT NULL").n), 25);
    assert.equal(Number(ix.get("SELECT count(DISTINCT eid) n FROM entries WHERE team_id IS NOT NULL").n), 25);
  } finally {
    ix.close();
  }
});
