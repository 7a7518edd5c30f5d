// End-to-end: red to green inside the real opencode (pinned opencode-ai), offline, driven by the scripted mock LLM.
// `npm test` fails twice, the model fixes it and runs it again: the plugin writes gate.passed and the model reads,
// in the passing call's result, one line asking what fixed it. A gate that never failed gets no line. Run:
// tests/e2e/run.sh.

import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { entries } from "../js/helpers.js";
import { E2E_ENV, makeSandbox, runOpencode, useMockLlm } from "./harness.js";

const e2e = useMockLlm();
const GATE = 'if (require("fs").existsSync("fixed")) { console.log("ok 1 - spins"); process.exit(0); }\nconsole.error("not ok 1 - spins");\nprocess.exit(1);\n';
const NUDGE = "[recordings] npm test passes now after 2 failures in this session";

function sandbox(pluginOptions = {}) {
  const dirs = makeSandbox({
    mockUrl: e2e.mock.url,
    files: { "package.json": JSON.stringify({ name: "widget", private: true, scripts: { test: "node gate.js" } }), "gate.js": GATE },
  });
  e2e.sandboxes.push(dirs);
  const file = path.join(dirs.root, "rec.jsonl");
  const cfgPath = path.join(dirs.project, "opencode.json");
  const cfg = JSON.parse(fs.readFileSync(cfgPath, "utf8"));
  cfg.plugin = [[cfg.plugin[0][0], { file, hints: false, ...pluginOptions }]];
  fs.writeFileSync(cfgPath, JSON.stringify(cfg, null, 2));
  return { dirs, file };
}

/** Plays bash `commands` in order, keeping each request the model received. */
function script(commands, bodies) {
  return ({ n, body }) => {
    bodies[n] = body;
    return n < commands.length ? { tool: "bash", args: { command: commands[n], description: "step" } } : { text: "done" };
  };
}

const toolResults = (body) => (body?.messages ?? []).filter((m) => m.role === "tool").map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));

test("a gate that turns green writes gate.passed and the model is asked once what fixed it", async () => {
  const { dirs, file } = sandbox();
  const bodies = [];
  e2e.mock.script = script(["npm test", "npm test", "touch fixed", "npm test", "npm test"], bodies);
  const run = await runOpencode(dirs, "fix the widget", { env: E2E_ENV });
  assert.equal(run.code, 0, run.stderr.slice(-2000));
  const lines = entries(file);
  assert.deepEqual(lines.map((e) => e.trigger), ["gate.failed", "gate.failed", "gate.passed"]);
  assert.equal(lines[0].fp, lines[1].fp);
  assert.deepEqual(lines[2].resolves, [lines[0].fp]);
  assert.equal(lines[2].first_eid, lines[0].eid);
  assert.equal(lines[2].session, run.sessionID);
  const before = toolResults(bodies[3]).join("\n");
  assert.ok(!before.includes("passes now"), "no line before the gate passed");
  const after = toolResults(bodies[4]);
  assert.ok(after.at(-1).includes(NUDGE), after.at(-1));
  assert.ok(after.at(-1).includes(lines[0].eid), "the line names the failure");
  const last = toolResults(bodies[5]);
  assert.equal(last.join("\n").split(NUDGE).length, 2, "passing again adds no second line");
});

test("a gate that never failed gets no line; nudges: false records the resolution without one", async () => {
  const clean = sandbox();
  fs.writeFileSync(path.join(clean.dirs.project, "fixed"), "");
  const bodies = [];
  e2e.mock.script = script(["npm test", "npm test"], bodies);
  const run = await runOpencode(clean.dirs, "test", { env: E2E_ENV });
  assert.equal(run.code, 0, run.stderr.slice(-2000));
  // (Only the tool results: the instructions in the system prompt quote such a line.)
  assert.ok(!bodies.flatMap(toolResults).join("\n").includes("passes now"), "no line for a gate that never failed");
  assert.equal(fs.existsSync(clean.file), false, "nothing recorded");

  const off = sandbox({ nudges: false });
  const offBodies = [];
  e2e.mock.script = script(["npm test", "npm test", "touch fixed", "npm test"], offBodies);
  const run2 = await runOpencode(off.dirs, "fix", { env: E2E_ENV });
  assert.equal(run2.code, 0, run2.stderr.slice(-2000));
  assert.ok(!offBodies.flatMap(toolResults).join("\n").includes("passes now"));
  assert.deepEqual(entries(off.file).map((e) => e.trigger), ["gate.failed", "gate.failed", "gate.passed"]);
});
