// The plugin's options (plugin/capture/options.js): one table of keys and the kind of value each takes; an
// unknown key or a value of another kind is named and ignored, never thrown; the plugin notes what it ignored
// where `record doctor` shows it.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { PLUGIN_OPTIONS, resolveOptions } from "../../plugin/capture/options.js";
import { noteOptionWarnings, readOptionWarnings } from "../../plugin/capture/option-warnings.js";
import { AiRecordingsPlugin } from "../../plugin/opencode.js";
import { refreshEnv } from "../../plugin/settings.js";
import { runCli, tmpdir, isolatedEnv } from "./helpers.js";

test("known options of the right kind are taken, with nothing to say", () => {
  const o = resolveOptions({ file: "/x.jsonl", maxBytes: "16M", redact: false, auto: { gate: false, gatePatterns: ["just check"] }, recall: true, hints: false, team: false, nudges: true, nudgeAfter: 3, instructions: false, export: false }, {});
  assert.deepEqual(o.warnings, []);
  assert.equal(o.file, "/x.jsonl");
  assert.equal(o.maxBytes, 16 * 1024 * 1024);
  assert.equal(o.redact, false);
  assert.equal(o.auto.gate, false);
  assert.equal(o.nudgeAfter, 3);
  assert.deepEqual([o.recall, o.hints, o.instructions, o.export], [true, false, false, false]);
});

test("an unknown key and a value of the wrong kind are named and ignored", () => {
  const o = resolveOptions({ fiel: "/typo.jsonl", maxBytes: "lots", redact: "off", recall: "no", auto: { gat: false, gate: "no" }, nudgeAfter: 0 }, {});
  assert.equal(o.file, undefined);
  assert.equal(o.maxBytes, undefined);
  assert.equal(o.redact, undefined, "redaction stays on");
  assert.equal(o.recall, undefined);
  assert.equal(o.auto.gate, true, "a gate switch that is not a boolean leaves the gate on");
  const said = o.warnings.join("\n");
  for (const bit of ["option fiel is not one the plugin knows (file, maxBytes,", 'option maxBytes="lots" is not a size', 'option redact="off" is not a boolean or object', 'option recall="no" is not a boolean', "option auto.gat is not one the plugin knows", 'option auto.gate="no" is not a boolean', "option nudgeAfter=0 is not a positive integer"]) {
    assert.ok(said.includes(bit), `${bit}\n---\n${said}`);
  }
  assert.equal(o.warnings.length, 7);
  assert.deepEqual(Object.keys(PLUGIN_OPTIONS).sort(), ["auto", "export", "file", "hints", "instructions", "maxBytes", "nudgeAfter", "nudges", "recall", "redact", "team"]);
});

test("the plugin notes what it ignored, and record doctor shows it by name", async () => {
  const d = tmpdir("rec-options-");
  const env = isolatedEnv(d, { AI_RECORDINGS_FILE: path.join(d, "r.jsonl") });
  const saved = { ...process.env };
  Object.assign(process.env, { XDG_STATE_HOME: env.XDG_STATE_HOME, HOME: env.HOME });
  // The recorder reads the environment once per process (Bun runs every test file in one): read it again.
  refreshEnv();
  try {
    const hooks = await AiRecordingsPlugin({ directory: d }, { file: path.join(d, "r.jsonl"), hint: false });
    assert.ok(hooks.tool.record, "the plugin still starts");
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
    refreshEnv();
  }
  const noted = readOptionWarnings({ env });
  assert.match(noted["opencode plugin"].warnings[0], /^option hint is not one the plugin knows/);
  const r = runCli(["doctor"], { env });
  assert.match(r.stdout, /The opencode plugin ignored an option \([^)]+\): option hint is not one the plugin knows/);
  // Options that are all right again clear the note.
  noteOptionWarnings("opencode plugin", [], { env });
  assert.equal(readOptionWarnings({ env })["opencode plugin"], undefined);
});
