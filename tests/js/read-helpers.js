// What the read suites share: entries appended through the real writer on a fixed clock, the subcommands run
// in process, and golden files (UPDATE_GOLDEN=1 rewrites them).
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { ROOT } from "./helpers.js";
import { readRecordings } from "../../plugin/read/index.js";
import { read } from "../../plugin/cli/read.js";
import { sessions } from "../../plugin/cli/sessions.js";
import { show } from "../../plugin/cli/show.js";
import { md } from "../../plugin/cli/md.js";

const COMMANDS = { read, sessions, show, md };
import { appendLine } from "../../plugin/writer/index.js";

export const FIXTURES = path.join(ROOT, "tests", "fixtures", "read");
export const ENTRIES = path.join(FIXTURES, "entries.jsonl");

/** A writer of numbered entries `{ts, eid, n}` on its own clock, which moves 7 ms per entry. */
export function writerOf(start = Date.parse("2026-11-29T10:00:00.000Z")) {
  let clock = start;
  const tick = () => (clock += 7);
  /** Appends entry `n` through the real writer (rotation at maxBytes). */
  const put = (file, n, { maxBytes = 1 << 30, extra = "" } = {}) => {
    const line = `{"ts":"${new Date(tick()).toISOString()}","eid":"e${String(n).padStart(12, "0")}","n":${n}${extra}}\n`;
    const r = appendLine(file, line, { maxBytes, sync: false, statusFile: false, now: () => clock });
    assert.equal(r.ok, true, r.reason);
    return r;
  };
  return { put, tick };
}

export const ns = (records) => records.map((r) => r.entry.n);
export const readAll = (file, opts = {}) => readRecordings({ file, ...opts });
export const range = (a, b) => Array.from({ length: b - a }, (_, i) => a + i);

/** Runs a reading subcommand in process; returns { code, stdout, stderr }. */
export async function run(cmd, args, { env = {}, cwd = ROOT } = {}) {
  const out = [];
  const err = [];
  const code = await COMMANDS[cmd](args, {
    stdout: { write: (s) => (out.push(s), true) },
    stderr: { write: (s) => (err.push(s), true) },
    env: { HOME: "/nonexistent-home", ...env },
    cwd,
  });
  return { code, stdout: out.join(""), stderr: err.join("") };
}

export function golden(name, actual) {
  const p = path.join(FIXTURES, name);
  if (process.env.UPDATE_GOLDEN) fs.writeFileSync(p, actual);
  assert.equal(actual, fs.readFileSync(p, "utf8"), `${name} (UPDATE_GOLDEN=1 rewrites it)`);
}
