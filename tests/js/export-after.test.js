// record export run the ways docs/export.md says: after a session (hook mode's Stop event, the opencode
// plugin's root session going idle), detached, with a failure noted where record doctor shows it; and the
// documented cron and systemd lines, taken from the document and run.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { startCluster } from "./pg-cluster.js";
import { assertSameLines, dbLines, familyLines, machine, put } from "./export-helpers.js";
import { CLI, ROOT, RUNTIME, runCli, runProcess, tmpdir } from "./helpers.js";
import { rootIdle } from "../../plugin/export/after.js";

let cluster;
before(async () => {
  cluster = await startCluster();
});
after(() => cluster?.destroy());

const DOC = fs.readFileSync(path.join(ROOT, "docs", "export.md"), "utf8");
const DOC_URL = "postgres://recorder:PASSWORD@db.example:5432/recordings";

function snippet(name) {
  const m = new RegExp(`<!-- snippet: ${name} -->\\n\`\`\`\\w*\\n([\\s\\S]*?)\`\`\``).exec(DOC);
  assert.ok(m, `docs/export.md has the ${name} snippet`);
  return m[1];
}

/** Polls `check` (async, truthy when done) every 100 ms for up to `ms`; returns its last value. */
async function eventually(check, ms = 30000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const count = async (db) => (await cluster.query(`SELECT to_regclass('recordings') IS NOT NULL AS t`, [], db)).rows[0].t && (await cluster.query(`SELECT count(*)::int AS n FROM recordings`, [], db)).rows[0].n;

function statusText(m) {
  try {
    return fs.readFileSync(path.join(m.dir, "state", "opencode-recordings", "status.json"), "utf8");
  } catch {
    return "";
  }
}

test("hook mode: a Stop event starts a detached export; the hook itself prints nothing and exits 0", async () => {
  const db = await cluster.createDatabase();
  const m = machine("hook", { AI_RECORDINGS_EXPORT_AFTER_SESSION: "1", AI_RECORDINGS_EXPORT_URL: cluster.url(db) });
  put(m, ["a lesson", '{"kind":"lesson","note":"two"}']);
  for (const host of ["claude-code", "codex"]) {
    const r = runCli(["hook", host], { env: m.env, input: JSON.stringify({ hook_event_name: "Stop", session_id: `s-${host}`, cwd: m.dir }) });
    assert.equal(r.code, 0);
    assert.equal(r.stdout, "");
    assert.equal(r.stderr, "");
  }
  assert.equal(await eventually(async () => (await count(db)) === 2), true);
  assertSameLines(assert, await dbLines(cluster, db), familyLines(m.file));
  assert.ok(await eventually(() => /"lastSuccess"/.test(statusText(m)) && statusText(m).includes("(export)")));

});

test("a failing export after a session lands in the status record and record doctor shows it, without the password", async () => {
  const db = await cluster.createDatabase();
  const wrong = "n0t-the-pw-51f3";
  const m = machine("hookfail", { AI_RECORDINGS_EXPORT_AFTER_SESSION: "1", AI_RECORDINGS_EXPORT_URL: cluster.url(db, wrong) });
  put(m, ["an entry"]);
  const r = runCli(["hook", "claude-code"], { env: m.env, input: JSON.stringify({ hook_event_name: "SessionEnd", session_id: "s" }) });
  assert.equal(r.code, 0);
  assert.equal(r.stdout + r.stderr, "");
  assert.ok(await eventually(() => /password authentication failed/.test(statusText(m))), statusText(m));
  assert.ok(!statusText(m).includes(wrong));
  const doctor = runCli(["doctor"], { env: m.env });
  assert.equal(doctor.code, 1);
  assert.match(doctor.stdout, /The last record export failed \(.*export to postgres:\/\/recorder:\[REDACTED\]@127\.0\.0\.1:\d+\/\w+ failed: password authentication failed/);
  assert.ok(!doctor.stdout.includes(wrong));
});

test("opencode plugin: export: true starts an export when the root session goes idle", async () => {
  const db = await cluster.createDatabase();
  const m = machine("plugin");
  put(m, ["from opencode"]);
  const saved = { ...process.env };
  Object.assign(process.env, m.env, { AI_RECORDINGS_EXPORT_URL: cluster.url(db) });
  try {
    const { AiRecordingsPlugin } = await import("../../plugin/opencode.js");
    const hooks = await AiRecordingsPlugin({ directory: m.dir }, { file: m.file, export: true, auto: false });
    await hooks.event({ event: { type: "session.created", properties: { info: { id: "child", parentID: "root" } } } });
    await hooks.event({ event: { type: "session.idle", properties: { sessionID: "root" } } });
    assert.equal(await eventually(async () => (await count(db)) === 1), true);
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
  assertSameLines(assert, await dbLines(cluster, db), familyLines(m.file));
  // Only a root session's idle counts: a subagent's session has a parent.
  const parents = new Map([["child", "root"]]);
  assert.equal(rootIdle({ type: "session.idle", properties: { sessionID: "child" } }, (id) => parents.get(id)), false);
  assert.equal(rootIdle({ type: "session.idle", properties: { sessionID: "root" } }, (id) => parents.get(id)), true);
  assert.equal(rootIdle({ type: "session.error", properties: { sessionID: "root" } }, (id) => parents.get(id)), false);
});

/** A PATH with `record` on it, as an npm install gives. */
function pathWithRecord() {
  const bin = tmpdir("rec-bin-");
  fs.symlinkSync(CLI, path.join(bin, "record"));
  return `${bin}:${path.dirname(RUNTIME)}:${process.env.PATH}`;
}

test("the documented cron line runs as written", async () => {
  const db = await cluster.createDatabase();
  const line = snippet("cron").trim();
  const fields = line.split(/\s+/);
  assert.deepEqual(fields.slice(0, 5), ["*/10", "*", "*", "*", "*"]);
  const command = line.replace(/^(\S+\s+){5}/, "").replace(DOC_URL, cluster.url(db));
  assert.notEqual(command, line.replace(/^(\S+\s+){5}/, ""), "the command holds the documented URL");
  const m = machine("cron");
  put(m, ["one", "two", "three"]);
  const r = await runProcess("sh", ["-c", command], { env: { ...m.env, PATH: pathWithRecord() } });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout + r.stderr, "", "--quiet: nothing for cron to mail");
  assertSameLines(assert, await dbLines(cluster, db), familyLines(m.file));
});

test("the documented systemd service runs as written, with its EnvironmentFile", async () => {
  const db = await cluster.createDatabase();
  const unit = snippet("systemd-service");
  const timer = snippet("systemd-timer");
  assert.match(timer, /^OnUnitActiveSec=10min$/m);
  const m = machine("systemd");
  put(m, ["one", '{"two":2}']);
  const home = m.env.HOME;
  const envFile = /^EnvironmentFile=(.*)$/m.exec(unit)[1].replace("%h", home);
  fs.mkdirSync(path.dirname(envFile), { recursive: true });
  fs.writeFileSync(envFile, `AI_RECORDINGS_EXPORT_URL=${cluster.url(db)}\n`, { mode: 0o600 });
  const env = { ...m.env, PATH: pathWithRecord() };
  for (const l of fs.readFileSync(envFile, "utf8").split("\n")) {
    const eq = l.indexOf("=");
    if (eq > 0) env[l.slice(0, eq)] = l.slice(eq + 1);
  }
  const [cmd, ...args] = /^ExecStart=(.*)$/m.exec(unit)[1].split(/\s+/);
  const r = await runProcess(cmd, args, { env });
  assert.equal(r.code, 0, r.stderr);
  assertSameLines(assert, await dbLines(cluster, db), familyLines(m.file));
});
