// How the `record` command's CLI bundle and its V8 code cache are found, compiled, run and renewed: what
// plugin/record.cjs (the command) starts with, and what `record doctor` asks about.
//
// Hooks run serially in the host's turn and an agent calls `record` mid-task, so the start of that process is
// the cost users feel. The CLI, hook mode, recall and the recording path are one CommonJS bundle,
// plugin/cli.bundle.cjs (built by scripts/build.sh with esbuild, not committed), compiled with V8's code cache
// plugin/cli.bundle.cache (written by the build from a training run: the functions a hook that writes an entry
// compiles). A cache from another Node or V8 version is rejected by V8: the bundle is compiled as usual, and at
// exit the cache is written anew from that run. Where the install directory is not writable (a global install
// owned by root), the cache lives in the user's cache directory instead: $XDG_CACHE_HOME/opencode-recordings/
// (else ~/.cache/...), one file per install and Node version, so the first run writes it and later runs use it.
// Bun runs the bundle with require(): it has no use for V8's cache. This file is CommonJS and loads before any
// ES module, so it reads its two environment variables itself rather than through settings.js.
"use strict";

const fs = require("node:fs");
const path = require("node:path");

const BUNDLE = path.join(__dirname, "cli.bundle.cjs");
const BESIDE = path.join(__dirname, "cli.bundle.cache");

/** Where the code cache is read and written: beside the bundle when this directory is writable, else in the
 *  user's cache directory. */
function cacheFile() {
  if (canWrite()) return BESIDE;
  const base = cacheHome(process.env, () => require("node:os").homedir());
  return path.join(base, "opencode-recordings", `cli-${hash(__dirname)}-${process.version}.cache`);
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

/** The bundle compiled as a script with the code cache, or null when there is no bundle: { script, cache }, where
 *  `cache` says how the code cache went: "used", "missing" or "rejected" (another Node or V8, or a stale build). */
function compileBundle(cache = cacheFile()) {
  let source;
  try {
    source = fs.readFileSync(BUNDLE, "utf8");
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
  const script = new vm.Script(wrapped, { filename: BUNDLE, cachedData });
  return { script, file: cache, cache: !cachedData ? "missing" : script.cachedDataRejected ? "rejected" : "used" };
}

const BUN_CACHE = "not used (Bun)";

/** How this install's `record` starts, for `record doctor`: { bundle: bool, cache: "used" | "missing" |
 *  "rejected" | "not used (Bun)", cacheFile, writable: whether a new cache can be written there }. `loaded` is
 *  what this process's launcher found (loadBundle's `found`): V8 would answer a second compile of the same source
 *  from memory, so only the first says how the cache went. Without it the bundle is compiled to see (a few ms;
 *  nothing runs). */
function launchState(loaded = null) {
  const file = cacheFile();
  const writable = file === BESIDE || canCreate(path.dirname(file));
  if (loaded) return { ...loaded, cacheFile: file, writable };
  if (process.versions.bun) return { bundle: fs.existsSync(BUNDLE), cache: BUN_CACHE, cacheFile: file, writable };
  const c = compileBundle(file);
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

/** Runs the bundle: { exports, found } (found: what launchState reports, { bundle, cache }), or null when there
 *  is no bundle. Writes the code cache at exit when the build asks for it (env AI_RECORDINGS_CODE_CACHE_OUT=<path>),
 *  and when the cache was missing or rejected (after a Node upgrade, say) and this directory is writable: then it
 *  holds what this run compiled, for the next runs. Says on stderr when the cache was missing or rejected
 *  (AI_RECORDINGS_DEBUG=1). */
function loadBundle() {
  if (process.versions.bun) {
    if (!fs.existsSync(BUNDLE)) return null;
    return { exports: require(BUNDLE), found: { bundle: true, cache: BUN_CACHE } };
  }
  const c = compileBundle();
  if (!c) return null;
  const { script, cache, file } = c;
  if (cache !== "used" && isOn(process.env.AI_RECORDINGS_DEBUG)) {
    const why = cache === "rejected" ? "rejected (another Node or V8, or a stale build)" : "missing";
    process.stderr.write(`record: code cache ${why}: ${file}\n`);
  }
  const mod = { exports: {} };
  script.runInThisContext()(mod.exports, require, mod, BUNDLE, __dirname, importSibling, require);
  const out = process.env.AI_RECORDINGS_CODE_CACHE_OUT;
  if (out) process.once("exit", () => fs.writeFileSync(out, script.createCachedData()));
  else if (cache !== "used") process.once("exit", () => renewCache(script, file));
  return { exports: mod.exports, found: { bundle: true, cache } };
}

/** Replaces the code cache with what this run compiled: written aside and renamed into place, so a concurrent
 *  run reads the old cache or the new one, never half of one. Best effort: where neither place can be written
 *  (no home, a read-only cache directory) there is none, and each run compiles as without one. */
function renewCache(script, file) {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    if (file !== BESIDE) fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
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

module.exports = { loadBundle, launchState, isOn, cacheHome };
