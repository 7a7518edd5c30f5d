// End-to-end: the packed package loaded BY NAME in the real opencode, as users install it: nothing but
// `"plugin": ["opencode-recordings"]` in the config. opencode 1.18.33 installs a named plugin into
// $XDG_CACHE_HOME/opencode/packages/<name>@latest/ and skips the install when node_modules/<name> is already
// there, so the test puts the tarball there with npm (offline) and opencode loads it from its own cache.
// The model records, a gate fails, and the recording instructions reach the model once (the mock keeps every
// system prompt it received), with and without the file also listed in `instructions`; and the same through
// `opencode plugin opencode-recordings`, opencode's own installer, which runs offline once the cache holds it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { execFileSync } from "node:child_process";
import { entries } from "../js/helpers.js";
import { startMock } from "./mock-llm.js";
import { makeSandbox, sandboxEnv, runOpencode, cleanup, warmUp, REPO, OPENCODE } from "./harness.js";

const PKG = "opencode-recordings";
const INSTRUCTIONS = fs.readFileSync(path.join(REPO, "instructions/recordings.md"), "utf8");
const HEAD = INSTRUCTIONS.split("\n")[0]; // "# Recordings: keep what you learn"
const ENV = { NPM_CONFIG_UPDATE_NOTIFIER: "false", NO_COLOR: "1" };
let mock;
let tarball;
let packDir;
const sandboxes = [];
const prompts = []; // the system prompt of every scripted (non-title) request

before(async () => {
  assert.ok(fs.existsSync(OPENCODE), `opencode binary missing at ${OPENCODE}: run npm install`);
  packDir = fs.mkdtempSync(path.join(os.tmpdir(), "ocrec-pack-"));
  // The checkout is built (test.sh builds first): pack it as it stands; tests/package/ packs a clean clone.
  const out = execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", packDir], { cwd: REPO, encoding: "utf8" });
  tarball = path.join(packDir, JSON.parse(out.slice(out.indexOf("[")))[0].filename);
  mock = await startMock();
});
after(async () => {
  await mock?.close();
  for (const d of sandboxes) cleanup(d);
  if (packDir) fs.rmSync(packDir, { recursive: true, force: true });
});

/** A sandbox whose opencode config names the plugin and nothing else of ours; the package sits in opencode's
 *  package cache as its own install would leave it. Recordings go to the default target under the fake HOME. */
function sandbox(config = {}) {
  const pkg = { "package.json": JSON.stringify({ name: "widget", private: true, scripts: { test: "echo 'not ok 1 - spins'; exit 1" } }) };
  const dirs = makeSandbox({ mockUrl: mock.url, pluginOptions: null, files: pkg, config: { plugin: [PKG], ...config } });
  sandboxes.push(dirs);
  const cache = path.join(dirs.cache, "opencode/packages", `${PKG}@latest`);
  fs.mkdirSync(cache, { recursive: true });
  fs.writeFileSync(path.join(cache, "package.json"), JSON.stringify({ dependencies: { [PKG]: `file:${tarball}` } }));
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--offline", "--install-links"], { cwd: cache, stdio: "ignore" });
  assert.ok(fs.existsSync(path.join(cache, "node_modules", PKG, "plugin/wasm/recordings_core_bg.wasm")));
  return { dirs, file: path.join(dirs.home, "git/ai_recordings.jsonl"), installed: path.join(cache, "node_modules", PKG) };
}

const SCRIPT = ({ n, system }) => {
  prompts.push(system);
  return [
    { tool: "record", args: { entry: "finding: loaded by name, recorded by the model" } },
    { tool: "bash", args: { command: "npm test", description: "Run the tests" } },
  ][n] ?? { text: "done" };
};

const timesIn = (text) => text.split(HEAD).length - 1;

async function scenario(dirs, file) {
  prompts.length = 0;
  mock.script = SCRIPT;
  warmUp(dirs);
  const run = await runOpencode(dirs, "run the tests and record what you learn", { env: ENV });
  assert.equal(run.code, 0, run.stderr.slice(-2000));
  const lines = entries(file);
  assert.deepEqual(lines.map((l) => [l.capture, l.trigger ?? null]), [["agent", null], ["auto", "gate.failed"]], JSON.stringify(lines, null, 1));
  assert.equal(lines[0].finding, "loaded by name, recorded by the model");
  assert.equal(lines[0].session, run.sessionID);
  assert.equal(lines[1].command, "npm test");
  assert.equal(prompts.length, 3, "three scripted requests");
  return prompts.slice();
}

test('"plugin": ["opencode-recordings"] alone: the tool, the capture, and the instructions in the system prompt', async () => {
  const { dirs, file } = sandbox();
  const seen = await scenario(dirs, file);
  for (const p of seen) assert.equal(timesIn(p), 1, "the instructions reach the model once per request");
  assert.ok(seen[0].includes("`record` tool"));
});

test("with the file also listed in `instructions`, the text still reaches the model once", async () => {
  const { dirs, file } = sandbox();
  const listed = path.join(dirs.cache, "opencode/packages", `${PKG}@latest/node_modules`, PKG, "instructions/recordings.md");
  const cfgFile = path.join(dirs.project, "opencode.json");
  const cfg = JSON.parse(fs.readFileSync(cfgFile, "utf8"));
  cfg.instructions = [listed];
  fs.writeFileSync(cfgFile, JSON.stringify(cfg, null, 2));
  const seen = await scenario(dirs, file);
  for (const p of seen) assert.equal(timesIn(p), 1);
  assert.ok(seen[0].includes(listed), "opencode included the listed file itself");
});

test("`instructions: false` keeps them out", async () => {
  const { dirs, file } = sandbox({ plugin: [[PKG, { instructions: false }]] });
  const seen = await scenario(dirs, file);
  for (const p of seen) assert.equal(timesIn(p), 0);
});

test("`opencode plugin opencode-recordings` (opencode's own installer, offline from its cache) wires it up", async () => {
  const { dirs, file } = sandbox({ plugin: [] });
  const r = execFileSync(OPENCODE, ["plugin", PKG], { cwd: dirs.project, env: sandboxEnv(dirs, ENV), encoding: "utf8", input: "", timeout: 120000 });
  assert.match(r, /Installed opencode-recordings/);
  const added = JSON.parse(fs.readFileSync(path.join(dirs.project, ".opencode/opencode.json"), "utf8"));
  assert.deepEqual(added.plugin, [PKG]);
  const seen = await scenario(dirs, file);
  for (const p of seen) assert.equal(timesIn(p), 1);
});
