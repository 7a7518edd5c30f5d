// Redaction is configurable from the CLI and the environment — extra patterns, allowed literals and
// patterns, and an explicit off switch — and a pattern that does not compile is reported, never fatal.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { tmpdir, isolatedEnv, runCli, entries } from "./helpers.js";

// Built from pieces so the file itself does not look like a leaked key.
const AWS_ID = ["AKIA", "QX7R2MKP9SLW4ZTB"].join("");
const TICKET = "ACME-123456";

function setup(extra = {}) {
  const dir = tmpdir();
  const file = path.join(dir, "r.jsonl");
  return { file, env: isolatedEnv(dir, { AI_RECORDINGS_FILE: file, AI_RECORDINGS_SYNC: "0", ...extra }) };
}

test("--redact-pattern adds a rule, --allow-pattern spares a match, both repeatable", () => {
  const { file, env } = setup();
  const r = runCli(["--redact-pattern", "ACME-[0-9]{6}", "--redact-pattern=BETA-[0-9]+", "--allow-pattern", `^${AWS_ID}$`, `ticket ${TICKET} BETA-7 key ${AWS_ID}`], { env });
  assert.equal(r.code, 0, r.stderr);
  const [e] = entries(file);
  assert.equal(e.note, `ticket [REDACTED:custom-1] [REDACTED:custom-2] key ${AWS_ID}`);
  assert.deepEqual(e.redacted.map((h) => h.rule).sort(), ["custom-1", "custom-2"]);
});

test("--allow keeps a literal that a built-in rule would redact", () => {
  const { file, env } = setup();
  runCli([`key ${AWS_ID}`], { env });
  runCli(["--allow", AWS_ID, `key ${AWS_ID}`], { env });
  const [redacted, allowed] = entries(file);
  assert.equal(redacted.note, "key [REDACTED:aws-access-key-id]");
  assert.equal(allowed.note, `key ${AWS_ID}`);
  assert.equal(allowed.redacted, undefined);
});

test("--no-redact and AI_RECORDINGS_REDACT=0 keep secrets as written", () => {
  const a = setup();
  runCli(["--no-redact", `key ${AWS_ID}`], { env: a.env });
  assert.equal(entries(a.file)[0].note, `key ${AWS_ID}`);
  const b = setup({ AI_RECORDINGS_REDACT: "0" });
  runCli([`key ${AWS_ID}`], { env: b.env });
  assert.equal(entries(b.file)[0].note, `key ${AWS_ID}`);
});

test("every off word of AI_RECORDINGS_REDACT turns redaction off for record TEXT, as for the plugin", () => {
  // "none" once turned it off in the plugin, hook mode and MCP but not for `record TEXT`.
  for (const word of ["none", "off", "false", "no", "0", "OFF"]) {
    const { file, env } = setup({ AI_RECORDINGS_REDACT: word });
    runCli([`key ${AWS_ID}`], { env });
    assert.equal(entries(file)[0].note, `key ${AWS_ID}`, `AI_RECORDINGS_REDACT=${word}`);
  }
});

test("env lists apply when no flag is given (one entry per line)", () => {
  const { file, env } = setup({ AI_RECORDINGS_REDACT_PATTERNS: "ACME-[0-9]{6}\nBETA-[0-9]+", AI_RECORDINGS_REDACT_ALLOW: AWS_ID });
  runCli([`${TICKET} BETA-9 ${AWS_ID}`], { env });
  assert.equal(entries(file)[0].note, `[REDACTED:custom-1] [REDACTED:custom-2] ${AWS_ID}`);
});

test("a pattern that does not compile is reported on stderr and the entry is still recorded", () => {
  const { file, env } = setup();
  const r = runCli(["--json", "--redact-pattern", "(", `key ${AWS_ID}`], { env });
  assert.equal(r.code, 0);
  assert.equal(r.json.status, "recorded");
  assert.match(r.stderr, /record: option ignored: redaction pattern 1 ignored/);
  assert.equal(entries(file)[0].note, "key [REDACTED:aws-access-key-id]");
});
