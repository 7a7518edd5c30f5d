// The plugin's options (plugin/capture/options.js) and the flags that set record() options (cli/entry-flags.js): one table of keys and the kind of value each takes; an
// unknown key or a value of another kind is named and ignored, never thrown; the plugin notes what it ignored
// where `record doctor` shows it.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { PLUGIN_OPTIONS, resolveOptions } from "../../plugin/capture/options.js";
import { noteOptionWarnings, readOptionWarnings } from "../../plugin/capture/option-warnings.js";
import { AiRecordingsPlugin } from "../../plugin/opencode.js";
import { refreshEnv } from "../../plugin/settings.js";
import { ENTRY_FLAGS, entryOptions, flagSpec } from "../../plugin/cli/entry-flags.js";
import { HELP } from "../../plugin/cli/record.js";
import { parseMcpArgs } from "../../plugin/cli/mcp.js";
import { parseArgs } from "../../plugin/cli/args.js";
import * as fs from "node:fs";
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

test("the flags that set record() options: one table, each flag onto a RecordOptions key, all in record --help", () => {
  const declared = fs.readFileSync(new URL("../../plugin/recorder.d.ts", import.meta.url), "utf8");
  const optionsBlock = declared.slice(declared.indexOf("export interface RecordOptions"), declared.indexOf("}\n", declared.indexOf("export interface RecordOptions")));
  for (const [name, f] of Object.entries(ENTRY_FLAGS)) {
    const top = f.key.split(".")[0];
    assert.match(optionsBlock, new RegExp(`\\n  ${top}\\?:`), `${name} sets ${top}, a RecordOptions key`);
  }
  // record --help lists exactly these flags, plus its own --json and --help.
  const options = HELP.slice(HELP.indexOf("\nOptions:\n"), HELP.indexOf("\nTarget"));
  const listed = [...options.matchAll(/^ {2}(?:-h, )?(--[a-z-]+)/gm)].map((m) => m[1]);
  assert.deepEqual(listed.sort(), [...Object.keys(ENTRY_FLAGS), "--json", "--help"].sort());
});

test("a flag value of the wrong kind is named and left out; --no-redact wins over the redaction lists", () => {
  const parse = (argv) => {
    const warnings = [];
    return { options: entryOptions(parseArgs(argv, flagSpec(), "lenient").values, warnings), warnings };
  };
  assert.deepEqual(parse(["--file", "/x.jsonl", "--allow", "abc", "--allow", "def", "--redact-pattern", "k=(\\w+)"]), {
    options: { file: "/x.jsonl", redact: { allow: ["abc", "def"], patterns: ["k=(\\w+)"] } },
    warnings: [],
  });
  assert.deepEqual(parse(["--file=", "--session", "s1", "--allow="]), {
    options: { session: "s1" },
    warnings: ['--file "" is not a string: ignored', '--allow "" is not a string: ignored'],
  });
  assert.deepEqual(parse(["--no-redact", "--allow", "abc"]).options, { redact: false });
  // The MCP server takes the stamp flags and the target, and says what it ignored.
  assert.deepEqual(parseMcpArgs(["--file=", "--agent", "a", "--allow", "x"]), {
    options: { agent: "a" },
    warnings: ["unknown argument --allow (ignored)", "unknown argument x (ignored)", '--file "" is not a string: ignored'],
  });
});

test("record --file with an empty value still records, to the usual target, and says what it ignored", () => {
  const d = tmpdir("rec-flags-");
  const file = path.join(d, "env.jsonl");
  const env = isolatedEnv(d, { AI_RECORDINGS_FILE: file });
  const r = runCli(["--file=", "--json", "kept anyway"], { env });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.json.file, file);
  assert.match(r.stderr, /^record: option ignored: --file "" is not a string: ignored$/m);
  assert.match(fs.readFileSync(file, "utf8"), /kept anyway/);
});
