#!/usr/bin/env node
// The `record` command (package.json "bin"): starts plugin/cli/index.js's code as fast as Node can.
//
// Hooks run serially in the host's turn and an agent calls `record` mid-task, so the start of this process is
// the cost users feel. Two things make it cheaper than `node plugin/cli/index.js`, measured in BENCHMARKS.md:
//  * this file is CommonJS: Node 20 starts an ES-module entry through its ESM loader, which costs several
//    milliseconds before the first line runs; a CommonJS entry does not;
//  * the CLI, hook mode and the recording path are one CommonJS bundle, plugin/cli.bundle.cjs (built by
//    scripts/build.sh with esbuild, not committed), compiled with V8's code cache plugin/cli.bundle.cache
//    (written by the build from a training run: the functions a hook that writes an entry compiles). A cache
//    from another Node or V8 version is rejected by V8: the bundle is compiled as usual, and at exit the cache is
//    written anew from that run (when the directory is writable).
// The subcommands that are not on the hot path (read, sessions, show, md, doctor, mcp) stay ES modules and are
// imported when used. Without the bundle (a checkout that was not built) the ES modules run as they are.
// Bun runs the bundle with require(): it has no use for V8's cache.
"use strict";

const fs = require("node:fs");
const path = require("node:path");

const BUNDLE = path.join(__dirname, "cli.bundle.cjs");
const CACHE = path.join(__dirname, "cli.bundle.cache");

/** import() resolved against this file, for the bundle: code run by vm.Script has no dynamic-import loader. */
const importSibling = (spec) => import(spec);

/** The bundle compiled as a script with the code cache, or null when there is no bundle: { script, cache }, where
 *  `cache` says how the code cache went: "used", "missing" or "rejected" (another Node or V8, or a stale build). */
function compileBundle() {
  let source;
  try {
    source = fs.readFileSync(BUNDLE, "utf8");
  } catch {
    return null;
  }
  const vm = require("node:vm");
  let cachedData;
  try {
    cachedData = fs.readFileSync(CACHE);
  } catch {
    cachedData = undefined;
  }
  // As Node's own CommonJS wrapper does: a leading "#!" line (esbuild keeps the entry's) is not JavaScript.
  if (source.startsWith("#!")) source = "//" + source.slice(2);
  const wrapped = `(function (exports, require, module, __filename, __dirname, __recordImport) {${source}\n})`;
  const script = new vm.Script(wrapped, { filename: BUNDLE, cachedData });
  return { script, cache: !cachedData ? "missing" : script.cachedDataRejected ? "rejected" : "used" };
}

const BUN_CACHE = "not used (Bun)";

/** How this install's `record` starts, for `record doctor`: { bundle: bool, cache: "used" | "missing" |
 *  "rejected" | "not used (Bun)", writable: whether a new cache can be written here }. What this process's
 *  launcher found, when it ran; otherwise the bundle is compiled to see (a few ms; nothing runs). */
function launchState() {
  const writable = canWrite();
  if (loaded) return { ...loaded, writable };
  if (process.versions.bun) return { bundle: fs.existsSync(BUNDLE), cache: BUN_CACHE, writable };
  const c = compileBundle();
  return { bundle: c !== null, cache: c ? c.cache : "missing", writable };
}

/** What loadBundle() found in this process (V8 would answer a second compile of the same source from memory,
 *  so launchState() reports the first). */
let loaded = null;

function canWrite() {
  try {
    fs.accessSync(__dirname, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** The bundle's exports, or null when there is no bundle. Writes the code cache at exit when the build asks
 *  for it (env AI_RECORDINGS_CODE_CACHE_OUT=<path>), and when the cache was missing or rejected (after a Node
 *  upgrade, say) and this directory is writable: then it holds what this run compiled, for the next runs. Says
 *  on stderr when the cache was missing or rejected (AI_RECORDINGS_DEBUG=1). */
function loadBundle() {
  if (process.versions.bun) {
    if (!fs.existsSync(BUNDLE)) return null;
    loaded = { bundle: true, cache: BUN_CACHE };
    return require(BUNDLE);
  }
  const c = compileBundle();
  if (!c) return null;
  const { script, cache } = c;
  loaded = { bundle: true, cache };
  if (cache !== "used" && process.env.AI_RECORDINGS_DEBUG === "1") {
    const why = cache === "rejected" ? "rejected (another Node or V8, or a stale build)" : "missing";
    process.stderr.write(`record: code cache ${why}: ${CACHE}\n`);
  }
  const mod = { exports: {} };
  script.runInThisContext()(mod.exports, require, mod, BUNDLE, __dirname, importSibling);
  const out = process.env.AI_RECORDINGS_CODE_CACHE_OUT;
  if (out) process.once("exit", () => fs.writeFileSync(out, script.createCachedData()));
  else if (cache !== "used") process.once("exit", () => renewCache(script));
  return mod.exports;
}

/** Replaces the code cache with what this run compiled: written aside and renamed into place, so a concurrent
 *  run reads the old cache or the new one, never half of one. Best effort: a read-only install keeps none. */
function renewCache(script) {
  const tmp = `${CACHE}.${process.pid}.tmp`;
  if (!canWrite()) return;
  try {
    fs.writeFileSync(tmp, script.createCachedData());
    fs.renameSync(tmp, CACHE);
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
      process.stdout.write(JSON.stringify({ status: "skipped", file: null, eid: null, reason }) + "\n");
    }
  } catch {
    // nothing more to do
  }
  process.exitCode = 0;
}

function main() {
  let cli = null;
  try {
    cli = loadBundle();
  } catch {
    cli = null; // a damaged bundle: the ES modules below
  }
  (cli ? Promise.resolve(cli) : import("./cli/index.js"))
    .then((m) => m.runCli())
    .then((exitNow) => {
      if (exitNow) process.exit(); // see runCli in cli/index.js
    })
    .catch(cannotLoad);
}

// Run as the command; required (by plugin/cli/doctor.js), it only answers questions.
if (require.main === module) main();
module.exports = { launchState };
