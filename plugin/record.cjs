#!/usr/bin/env node
// The `record` command (package.json "bin"): starts plugin/cli/index.js's code as fast as Node can, and the
// launcher that does it: how the command's bundles and their V8 code caches are found, compiled, run and renewed,
// which `record doctor` also asks about (it requires this file; main() runs only when this file is the script).
//
// This file is CommonJS because Node 20 starts an ES-module entry through its ESM loader, which costs several
// milliseconds before the first line runs; a CommonJS entry does not. The launcher is part of it rather than a
// module of its own because loading one more CommonJS file costs a hook process about half a millisecond. The
// subcommands that are not on the hot path (read, sessions, show, md, doctor, mcp) stay ES modules and are
// imported when used. Without the bundles (a checkout that was not built) the ES modules run as they are.
//
// Hooks run serially in the host's turn and an agent calls `record` mid-task, so the start of that process is the
// cost users feel. The CLI, hook mode, recall and the recording path are one CommonJS bundle,
// plugin/cli.bundle.cjs; hook mode's deciding part alone is a second, plugin/hook.bundle.cjs, because most hook
// calls (a passing command) write nothing and should not pay for compiling the rest, and what it loads to write an
// entry or look for a hint is another, plugin/hook-write.bundle.cjs, without the rest of the CLI; recall alone is
// plugin/recall.bundle.cjs, because an agent waits for its answer and it needs none of the recording path. All are
// built by scripts/build.sh with esbuild (not committed) and compiled with V8's code cache,
// plugin/<name>.bundle.cache (written by the build from training runs: the functions hooks that write nothing and
// that write an entry compile, and a recall's). A cache from another Node or V8 version is rejected by V8: the
// bundle is compiled as usual, and at exit the cache is written anew from that run. Where the install directory is
// not writable (a global install owned by root), the cache lives in the user's cache directory instead:
// $XDG_CACHE_HOME/opencode-recordings/ (else ~/.cache/...), one file per install and Node version, so the first run
// writes it and later runs use it.
// Bun runs the bundle with require(): it has no use for V8's cache. The launcher loads before any ES module, so
// it reads its two environment variables itself rather than through settings.js.
"use strict";

const fs = require("node:fs");
const path = require("node:path");

/** The bundle called `name` ("cli", "hook", "hook-write" or "recall") and its code cache beside it. */
const bundleFile = (name) => path.join(__dirname, `${name}.bundle.cjs`);
const besideFile = (name) => path.join(__dirname, `${name}.bundle.cache`);

/** Where the code cache of bundle `name` is read and written: beside the bundle when this directory is writable,
 *  else in the user's cache directory. */
function cacheFile(name) {
  if (canWrite()) return besideFile(name);
  const base = cacheHome(process.env, () => require("node:os").homedir());
  return path.join(base, "opencode-recordings", `${name}-${hash(__dirname)}-${process.version}.cache`);
}

/** $XDG_CACHE_HOME, else ~/.cache, relative values ignored: settings.js placesOf's rule, which this launcher
 *  cannot import (tests/js/settings.test.js holds the two to one rule). */
function cacheHome(env, homedir) {
  const abs = (v) => (typeof v === "string" && v.startsWith("/") ? v : undefined);
  return abs(env.XDG_CACHE_HOME) ?? path.join(abs(env.HOME) ?? homedir(), ".cache");
}

/** FNV-1a of a string, as 8 hex digits: tells installs apart in one cache directory without loading node:crypto. */
function hash(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, "0");
}

/** import() resolved against this file, for the bundle: code run by vm.Script has no dynamic-import loader. */
const importSibling = (spec) => import(spec);

/** Bundle `name` compiled as a script with the code cache, or null when there is no bundle: { script, cache },
 *  where `cache` says how the code cache went: "used", "missing" or "rejected" (another Node or V8, or a stale
 *  build). */
function compileBundle(name, cache = cacheFile(name)) {
  let source;
  try {
    source = fs.readFileSync(bundleFile(name), "utf8");
  } catch {
    return null;
  }
  const vm = require("node:vm");
  let cachedData;
  try {
    cachedData = fs.readFileSync(cache);
  } catch {
    cachedData = undefined;
  }
  // As Node's own CommonJS wrapper does: a leading "#!" line (esbuild keeps the entry's) is not JavaScript.
  if (source.startsWith("#!")) source = "//" + source.slice(2);
  const wrapped = `(function (exports, require, module, __filename, __dirname, __recordImport, __recordRequire) {${source}\n})`;
  const script = new vm.Script(wrapped, { filename: bundleFile(name), cachedData });
  return { script, file: cache, cache: !cachedData ? "missing" : script.cachedDataRejected ? "rejected" : "used" };
}

const BUN_CACHE = "not used (Bun)";

/** How this install's `record` starts from bundle `name`, for `record doctor`: { bundle: bool, cache: "used" |
 *  "missing" | "rejected" | "not used (Bun)", cacheFile, writable: whether a new cache can be written there }.
 *  `loaded` is what this process's launcher found (loadBundle's `found`): V8 would answer a second compile of the
 *  same source from memory, so only the first says how the cache went. Without it the bundle is compiled to see
 *  (a few ms; nothing runs). */
function launchState(loaded = null, name = "cli") {
  const file = cacheFile(name);
  const writable = file === besideFile(name) || canCreate(path.dirname(file));
  if (loaded) return { ...loaded, cacheFile: file, writable };
  if (process.versions.bun) return { bundle: fs.existsSync(bundleFile(name)), cache: BUN_CACHE, cacheFile: file, writable };
  const c = compileBundle(name, file);
  return { bundle: c !== null, cache: c ? c.cache : "missing", cacheFile: file, writable };
}

/** Whether `dir` is, or could be made, a directory this user writes to. */
function canCreate(dir) {
  for (let d = dir; ; d = path.dirname(d)) {
    try {
      fs.accessSync(d, fs.constants.W_OK);
      return true;
    } catch (e) {
      if (e.code !== "ENOENT" || path.dirname(d) === d) return false;
    }
  }
}

/** Whether the install's plugin/ directory can be written: where the code cache lives when it can. */
function canWrite() {
  try {
    fs.accessSync(__dirname, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** A switch that is on: the true spellings of plugin/values.js `flag`, which CommonJS loaded before the bundle
 *  cannot import (tests/js/settings.test.js holds the two to one rule). */
function isOn(value) {
  return /^\s*(1|true|yes|on)\s*$/i.test(value ?? "");
}

/** Runs bundle `name` ("cli", "hook", "hook-write" or "recall"): { exports, found } (found: what launchState
 *  reports, { bundle, cache }), or null when there is no bundle. Writes the code cache at exit when the build
 *  asks for it (env AI_RECORDINGS_CODE_CACHE_OUT=<directory>: <name>.bundle.cache in it), and when the cache was
 *  missing or rejected (after a Node upgrade, say) and this directory is writable: then it holds what this run
 *  compiled, for the next runs. Says on stderr when the cache was missing or rejected (AI_RECORDINGS_DEBUG=1). */
function loadBundle(name = "cli") {
  const bundle = bundleFile(name);
  if (process.versions.bun) {
    if (!fs.existsSync(bundle)) return null;
    return { exports: require(bundle), found: { bundle: true, cache: BUN_CACHE } };
  }
  const c = compileBundle(name);
  if (!c) return null;
  const { script, cache, file } = c;
  if (cache !== "used" && isOn(process.env.AI_RECORDINGS_DEBUG)) {
    const why = cache === "rejected" ? "rejected (another Node or V8, or a stale build)" : "missing";
    process.stderr.write(`record: code cache ${why}: ${file}\n`);
  }
  const mod = { exports: {} };
  script.runInThisContext()(mod.exports, require, mod, bundle, __dirname, importSibling, require);
  const out = process.env.AI_RECORDINGS_CODE_CACHE_OUT;
  if (out) process.once("exit", () => fs.writeFileSync(path.join(out, `${name}.bundle.cache`), script.createCachedData()));
  else if (cache !== "used") process.once("exit", () => renewCache(script, file));
  return { exports: mod.exports, found: { bundle: true, cache } };
}

/** Replaces the code cache with what this run compiled: written aside and renamed into place, so a concurrent
 *  run reads the old cache or the new one, never half of one. Best effort: where neither place can be written
 *  (no home, a read-only cache directory) there is none, and each run compiles as without one. */
function renewCache(script, file) {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    if (path.dirname(file) !== __dirname) fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(tmp, script.createCachedData());
    fs.renameSync(tmp, file);
  } catch {
    try {
      fs.unlinkSync(tmp);
    } catch {
      // nothing was written
    }
  }
}

/** The last resort when neither the bundle nor the ES modules load (a broken install): say so, exit 0. */
function cannotLoad(e) {
  const reason = `EINTERNAL: the record command cannot load: ${e && e.message ? e.message : e}`;
  try {
    process.stderr.write(`record: not recorded: ${reason}\n`);
    if (process.argv.includes("--json")) {
      process.stdout.write(JSON.stringify({ status: "skipped", code: "EINTERNAL", file: null, eid: null, reason }) + "\n");
    }
  } catch {
    // nothing more to do
  }
  process.exitCode = 0;
}

/** The CLI bundle's exports (plugin/cli/index.js), or the ES modules' when there is no bundle: { exports, found }
 *  (found: how the launch went, for doctor; null without a bundle). */
function loadCli() {
  const loaded = usableBundle("cli"); // else the ES modules below
  return loaded ? { exports: Promise.resolve(loaded.exports), found: loaded.found } : { exports: import("./cli/index.js"), found: null };
}

/** `record hook HOST` from hook mode's own bundle (plugin/cli/hook-entry.js), which loads the hook-write bundle
 *  only when the event calls for an entry or a hint. Resolves to false when the words are not a hook call, or when
 *  there is no usable hook bundle: then the CLI runs them. */
function runHookBundle() {
  const hook = ownBundle("hook");
  if (!hook) return Promise.resolve(false);
  let writing = null;
  return hook.exports.runHookCommand(() => (writing ??= loadHookWrite()).exports, launchInfo());
}

/** This launcher and the files a hook process's code comes from, for the warm hook helper
 *  (plugin/cli/hook-client.js): it runs `record hook --serve` with the script, and is known by the files. */
function launchInfo() {
  const files = [__filename, ...["hook", "hook-write", "cli"].map(bundleFile), path.join(__dirname, "wasm", "recordings_core_bg.wasm")];
  return { script: __filename, files };
}

/** What hook mode writes and hints with (plugin/cli/hook-write.js): its bundle, plugin/hook-write.bundle.cjs,
 *  else the CLI bundle, which holds the same modules. { exports: a promise of them }. */
function loadHookWrite() {
  const loaded = usableBundle("hook-write");
  return loaded ? { exports: Promise.resolve(loaded.exports) } : loadCli();
}

/** `record recall ...` from recall's own bundle (plugin/cli/recall-entry.js). Resolves to false when the words
 *  are not a recall, or when there is no usable recall bundle: then the CLI runs them. */
function runRecallBundle() {
  const recall = ownBundle("recall");
  return recall ? recall.exports.runRecallCommand() : Promise.resolve(false);
}

/** Bundle `name` when this process's first word is `name`, else null; null too when it is missing or damaged
 *  (the CLI bundle runs that subcommand as well). */
function ownBundle(name) {
  return process.argv[2] === name ? usableBundle(name) : null;
}

/** loadBundle(name), or null when the bundle is missing or damaged (it throws while it loads): the caller then
 *  runs the code another way. */
function usableBundle(name) {
  try {
    return loadBundle(name);
  } catch {
    return null;
  }
}

function main() {
  (process.argv[2] === "recall" ? runRecallBundle() : runHookBundle())
    .then((done) => {
      if (done) return true;
      const cli = loadCli();
      // doctor asks how this process started: what loadBundle found, not a second compile V8 would answer from memory.
      const launcher = () => launchState(cli.found);
      return cli.exports.then((m) => m.runCli({ launcher }));
    })
    .then((exitNow) => {
      if (exitNow) process.exit(); // see runCli in cli/index.js
    })
    .catch(cannotLoad);
}

module.exports = { loadBundle, launchState, launchInfo, isOn, cacheHome };

if (require.main === module) main();
