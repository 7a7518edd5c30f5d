// Shared by the export suites: recording into a scratch file, running `record export` in this process or as a
// child, and reading back what the database holds.
import * as fs from "node:fs";
import * as path from "node:path";
import { record } from "../../plugin/recorder.js";
import { exportCmd } from "../../plugin/cli/export.js";
import { listSegments, quarantinePath } from "../../plugin/paths.js";
import { isolatedEnv, tmpdir } from "./helpers.js";

/** A simulated machine: its own HOME, state directory and recordings file. */
export function machine(name = "m", extra = {}) {
  const dir = tmpdir(`rec-exp-${name}-`);
  const file = path.join(dir, "home", "git", "ai_recordings.jsonl");
  const env = isolatedEnv(dir, { AI_RECORDINGS_FILE: file, AI_RECORDINGS_SYNC: "0", ...extra });
  return { dir, file, env };
}

/** Records each input into the machine's file (in this process); returns the results. */
export function put(m, inputs, options = {}) {
  return inputs.map((t) => record(t, { file: m.file, env: m.env, sync: false, statusFile: false, ...options }));
}

function sink() {
  let text = "";
  return { write: (s) => ((text += s), true), get text() { return text; } };
}

/** Runs `record export ARGS` in this process: { code, stdout, stderr, json }. */
export async function exportIn(m, args) {
  const stdout = sink();
  const stderr = sink();
  const code = await exportCmd(args, { env: m.env, stdout, stderr, cwd: m.dir });
  let json = null;
  try {
    json = JSON.parse(stdout.text.trim().split("\n").pop());
  } catch {
    json = null;
  }
  return { code, stdout: stdout.text, stderr: stderr.text, json };
}

/** Every line of a file family (archives in rotation order, then the live file), as stored. */
export function familyLines(file, { quarantine = false } = {}) {
  const out = [];
  for (const seg of listSegments(quarantine ? quarantinePath(file) : file)) {
    const text = fs.readFileSync(seg.path, "utf8");
    for (const l of text.split("\n")) if (l !== "") out.push(l);
  }
  return out;
}

/** The lines the database holds for a machine id, in insertion order. */
export async function dbLines(cluster, db, { machine, quarantine = false } = {}) {
  const table = quarantine ? "recordings_quarantine" : "recordings";
  const r = machine
    ? await cluster.query(`SELECT line FROM ${table} WHERE machine = $1 ORDER BY id`, [machine], db)
    : await cluster.query(`SELECT line FROM ${table} ORDER BY id`, [], db);
  return r.rows.map((x) => x.line);
}

/** Compares what the database holds with the file's lines, compactly: the same lines, each once, in the same
 *  order (`ordered: false`: in any order). On a mismatch the message names the eids missing, doubled or out of place rather than dumping lines. */
export function assertSameLines(assert, got, want, { what = "lines", ordered = true } = {}) {
  if (ordered && got.length === want.length && got.every((l, i) => l === want[i])) return;
  if (!ordered && got.length === want.length) {
    const a = [...got].sort();
    const b = [...want].sort();
    if (a.every((l, i) => l === b[i])) return;
  }
  const eid = (l) => {
    try {
      return JSON.parse(l).eid ?? l.slice(0, 60);
    } catch {
      return l.slice(0, 60);
    }
  };
  const counts = new Map();
  for (const l of got) counts.set(l, (counts.get(l) ?? 0) + 1);
  const missing = want.filter((l) => !counts.has(l)).map(eid);
  const doubled = [...counts].filter(([, n]) => n > 1).map(([l]) => eid(l));
  const extra = got.filter((l) => !want.includes(l)).map(eid);
  const firstDiff = got.findIndex((l, i) => l !== want[i]);
  assert.fail(`${what}: ${got.length} in the database, ${want.length} in the files; missing ${JSON.stringify(missing.slice(0, 10))}, doubled ${JSON.stringify(doubled.slice(0, 10))}, not in the files ${JSON.stringify(extra.slice(0, 10))}, first difference at ${firstDiff} (${firstDiff >= 0 ? eid(got[firstDiff]) : "-"} vs ${firstDiff >= 0 && firstDiff < want.length ? eid(want[firstDiff]) : "-"})`);
}
