// The package as a user gets it: packed from a clean clone of this repository (prepack builds it), installed
// from the tarball into a fresh directory with a fresh HOME and a PATH that has node and npm but no cargo or
// rustc, then used from there: `record --json` in Node 22, Node 24, Bun and the machine's Node, the package's
// exports imported by name in Node and Bun, and a global install that its user may not write to recording
// twice (the code cache then lives in the user's cache directory).
//
// The clone shares this checkout's node_modules (for esbuild) and cargo target directory, so packing takes
// seconds here; on a fresh machine `npm pack` builds the same way.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { execFileSync } from "node:child_process";
import { ROOT, spawnSync, canDropPrivileges } from "../js/helpers.js";

const NODES = {
  "Node 22": path.join(ROOT, ".tools/node22/node_modules/.bin/node"),
  "Node 24": path.join(ROOT, ".tools/node24/node_modules/.bin/node"),
  Bun: path.join(ROOT, "node_modules/.bin/bun"),
  "the machine's Node": process.execPath,
};
const PKG = "opencode-recordings";
let work;
let tarball;
let tools; // a bin directory holding node and npm alone
let local; // a project with the tarball installed
let globalPrefix; // npm install -g --prefix

function sh(cmd, args, opts = {}) {
  return execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], ...opts });
}

/** A user's environment: fresh HOME and XDG dirs, PATH = node and npm, then the system dirs without cargo. */
function userEnv(home, extra = {}) {
  return {
    PATH: `${tools}:/usr/bin:/bin`,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, ".config"),
    XDG_CACHE_HOME: path.join(home, ".cache"),
    XDG_STATE_HOME: path.join(home, ".local/state"),
    npm_config_cache: path.join(os.homedir(), ".npm"), // the machine's npm cache: the dependencies without a download
    npm_config_update_notifier: "false",
    ...extra,
  };
}

before(() => {
  work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "pack-test-")));
  fs.chmodSync(work, 0o755);
  tools = path.join(work, "bin");
  fs.mkdirSync(tools);
  fs.symlinkSync(process.execPath, path.join(tools, "node"));
  fs.symlinkSync(fs.realpathSync(sh("sh", ["-c", "command -v npm"]).trim()), path.join(tools, "npm"));

  const clone = path.join(work, "clone");
  sh("git", ["clone", "-q", "--no-hardlinks", ROOT, clone]);
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(clone, "node_modules"));
  fs.symlinkSync(path.join(ROOT, ".tools"), path.join(clone, ".tools"));
  const env = { ...process.env, CARGO_TARGET_DIR: process.env.CARGO_TARGET_DIR ?? path.join(ROOT, "target") };
  const out = sh("npm", ["pack", "--json", "--pack-destination", work], { cwd: clone, env });
  const info = JSON.parse(out.slice(out.indexOf("[")))[0];
  tarball = path.join(work, info.filename);
  fs.writeFileSync(path.join(work, "files.json"), JSON.stringify(info.files.map((f) => f.path)));

  local = path.join(work, "project");
  fs.mkdirSync(local);
  fs.writeFileSync(path.join(local, "package.json"), '{"name": "user-project", "private": true}\n');
  const home = path.join(work, "home");
  sh("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", tarball], { cwd: local, env: userEnv(home) });
  globalPrefix = path.join(work, "global");
  sh("npm", ["install", "-g", "--prefix", globalPrefix, "--no-audit", "--no-fund", "--prefer-offline", tarball], { env: userEnv(home) });
});
after(() => {
  if (!work || process.env.KEEP_PACK) return;
  sh("chmod", ["-R", "u+w", work]);
  fs.rmSync(work, { recursive: true, force: true });
});

test("the tarball holds what a user needs, built, and nothing that needs building", () => {
  const files = JSON.parse(fs.readFileSync(path.join(work, "files.json"), "utf8"));
  for (const f of ["LICENSE", "README.md", "package.json", "instructions/recordings.md", "docs/hosts.md", "docs/schema.md",
    "plugin/opencode.js", "plugin/record.cjs", "plugin/cli.bundle.cjs", "plugin/hook.bundle.cjs", "plugin/hook-write.bundle.cjs", "plugin/recall.bundle.cjs", "plugin/wasm/recordings_core_bg.wasm",
    "plugin/wasm/recordings_core.js", "plugin/recorder.d.ts", "plugin/read/index.d.ts", "plugin/core.d.ts", "plugin/cli/init.js",
    "docs/writer.md", "docs/recall.md", "docs/export.md"]) {
    assert.ok(files.includes(f), `${f} is in the package`);
  }
  for (const f of files) assert.doesNotMatch(f, /^(crate|tests|bench|scripts|target)\/|\.rs$|\.bundle\.cache$/, f);
  const manifest = JSON.parse(fs.readFileSync(path.join(local, "node_modules", PKG, "package.json"), "utf8"));
  assert.equal(manifest.license, "MIT");
  assert.equal(manifest.exports["./server"], "./plugin/opencode.js", "opencode loads a package by its server entry");
  for (const s of ["preinstall", "install", "postinstall"]) assert.equal(manifest.scripts?.[s], undefined, `no ${s} script`);
  assert.equal(sh("sh", ["-c", "command -v cargo rustc || true"], { env: userEnv(work) }).trim(), "", "no Rust on the user's PATH");
});

for (const [name, runtime] of Object.entries(NODES)) {
  test(`record --json records from the installed package in ${name}`, { skip: !fs.existsSync(runtime) && `${runtime} missing: bash scripts/setup.sh` }, () => {
    const home = fs.mkdtempSync(path.join(work, "home-"));
    const file = path.join(home, "r.jsonl");
    const bin = path.join(local, "node_modules", PKG, "plugin/record.cjs");
    const r = spawnSync(runtime, [bin, "--json", "--file", file, `{"note":"installed, ${name}"}`], { cwd: home, env: userEnv(home), encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).status, "recorded", r.stdout);
    const line = JSON.parse(fs.readFileSync(file, "utf8"));
    assert.equal(line.note, `installed, ${name}`);
    assert.equal(line.capture, "cli");
    // The page is built into the package: record view works with no Rust, no build and no network.
    const page = path.join(home, "view.html");
    const v = spawnSync(runtime, [bin, "view", "--all", "--file", file, "-o", page], { cwd: home, env: userEnv(home), encoding: "utf8" });
    assert.equal(v.status, 0, v.stderr);
    const html = fs.readFileSync(page, "utf8");
    assert.match(html, /Content-Security-Policy/);
    assert.ok(html.includes(`installed, ${name}`), "the entry is on the page");
  });
}

const IMPORT = `const m = await import("${PKG}"); const s = await import("${PKG}/server");
const r = await import("${PKG}/recorder"); const d = await import("${PKG}/read");
console.log(JSON.stringify([typeof m.AiRecordingsPlugin, s.AiRecordingsPlugin === m.AiRecordingsPlugin, typeof r.record, typeof d.RecordingsReader]));`;
for (const name of ["the machine's Node", "Bun"]) {
  test(`import("${PKG}") and its other exports load in ${name}`, () => {
    const script = path.join(local, "load.mjs");
    fs.writeFileSync(script, IMPORT);
    const r = spawnSync(NODES[name], [script], { cwd: local, env: userEnv(path.join(work, "home")), encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), ["function", true, "function", "function"]);
  });
}

test("a global install its user cannot write to records, twice, with the code cache in the user's cache dir", { skip: canDropPrivileges() ?? false }, () => {
  const home = path.join(work, "nobody-home");
  fs.mkdirSync(home, { mode: 0o777 });
  fs.chmodSync(home, 0o777);
  sh("chmod", ["-R", "a-w", globalPrefix]);
  const file = path.join(home, "r.jsonl");
  const run = (note) => {
    const env = userEnv(home, { AI_RECORDINGS_DEBUG: "1" });
    const args = ["--reuid=nobody", "--regid=nogroup", "--clear-groups", path.join(globalPrefix, "bin/record"), "--json", "--file", file, note];
    const r = spawnSync("setpriv", args, { cwd: home, env, encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).status, "recorded", r.stdout);
    return r.stderr;
  };
  assert.match(run("first"), /code cache missing: .*nobody-home\/\.cache\/opencode-recordings\/cli-/);
  assert.doesNotMatch(run("second"), /code cache/, "the second run starts from the cache the first wrote");
  assert.deepEqual(fs.readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l).note), ["first", "second"]);
  const dir = path.join(globalPrefix, "lib/node_modules", PKG, "plugin");
  assert.deepEqual(fs.readdirSync(dir).filter((f) => f.includes("cache")), [], "nothing written into the install");
});
