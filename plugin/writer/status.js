// The status record: a small JSON file that says, per target, when recording last worked and last failed and
// why. Recording never fails the host, so this is where a person or `record doctor` finds out that it did.

import { homedir, fs as nodeFs, path } from "../builtins.js";
import { makeDirs, replaceFile } from "../io.js";
import { envOf, placesOf } from "../settings.js";
import { userTmpDir } from "../paths.js";

/** How often a healthy process refreshes `lastSuccess` in the status record (failures are always noted). */
const STATUS_SUCCESS_EVERY_MS = 60_000;

/** Where the status record lives: option, else $XDG_STATE_HOME/opencode-recordings/status.json, else
 *  ~/.local/state/opencode-recordings/status.json. When that cannot be written, the tmpdir fallback
 *  <tmpdir>/opencode-recordings-<uid>/status.json is used. */
export function statusPath(options = {}) {
  if (typeof options.statusFile === "string") return options.statusFile;
  const env = envOf(options);
  if (env === statusFor.env) return statusFor.path;
  const base = placesOf(env, homedir).stateHome;
  const p = path.join(base, "opencode-recordings", "status.json");
  // Remembered for the process's frozen snapshot of process.env (settings.js envOf), which cannot change.
  if (Object.isFrozen(env)) statusFor = { env, path: p };
  return p;
}

let statusFor = { env: null, path: "" };

function fallbackStatusPath() {
  return path.join(userTmpDir(), "status.json");
}

/** Reads the status record ({ targets: { <file>: { lastSuccess, lastFailure, lastReason, misses } } }).
 *  Returns null when absent or unreadable. Never throws. */
export function readStatus(options = {}) {
  const fs = options.fs ?? nodeFs;
  for (const p of [statusPath(options), fallbackStatusPath()]) {
    try {
      return { path: p, ...JSON.parse(fs.readFileSync(p, "utf8")) };
    } catch {
      // try the next place
    }
  }
  return null;
}

function writeStatusAt(fs, p, target, ok, reason, nowMs) {
  let doc = {};
  try {
    doc = JSON.parse(fs.readFileSync(p, "utf8"));
    if (!doc || typeof doc !== "object" || Array.isArray(doc)) doc = {};
  } catch {
    doc = {};
  }
  if (!doc.targets || typeof doc.targets !== "object") doc.targets = {};
  const t = doc.targets[target] ?? { misses: 0 };
  const when = new Date(nowMs).toISOString();
  if (ok) {
    t.lastSuccess = when;
  } else {
    t.lastFailure = when;
    t.lastReason = reason;
    t.misses = (Number(t.misses) || 0) + 1;
  }
  doc.targets[target] = t;
  doc.updated = when;
  makeDirs(fs, path.dirname(p));
  // Aside and renamed over, so a concurrent reader never sees half a record. Concurrent writers may lose
  // each other's increments of `misses`: it is a hint for finding gaps, not an exact count.
  replaceFile(fs, p, JSON.stringify(doc, null, 1) + "\n");
}

function recentSuccessOnRecord(fs, p, target, nowMs) {
  try {
    const t = JSON.parse(fs.readFileSync(p, "utf8")).targets[target];
    const ok = Date.parse(t.lastSuccess);
    const bad = t.lastFailure ? Date.parse(t.lastFailure) : -Infinity;
    return nowMs - ok < STATUS_SUCCESS_EVERY_MS && ok >= bad && ok <= nowMs;
  } catch {
    return false;
  }
}

/** A place to remember when this writer last noted a success, per status path and target. */
export function createStatusNotes() {
  return new Map(); // status path → target → ms of our last success note
}

const defaultNotes = createStatusNotes();

/** Notes a success or failure for `target` in the status record. Successes are noted at most once a minute
 *  per `notes` (a writer's memory; and always right after a failure), so the record costs nothing on the hot
 *  path. options: { statusFile (false: none), fs, now, env }. */
export function noteStatus(target, ok, reason, options = {}, notes = defaultNotes) {
  if (options.statusFile === false) return;
  const fs = options.fs ?? nodeFs;
  const nowMs = (options.now ?? Date.now)();
  const p = statusPath(options);
  let mine = notes.get(p);
  if (mine === undefined) {
    if (notes.size >= 64) notes.clear();
    mine = new Map();
    notes.set(p, mine);
  }
  if (ok) {
    const last = mine.get(target);
    if (last !== undefined && nowMs - last < STATUS_SUCCESS_EVERY_MS) return;
    if (last === undefined && recentSuccessOnRecord(fs, p, target, nowMs)) {
      // Another process (e.g. the previous `record` run) noted a success moments ago: a read, not a rewrite.
      mine.set(target, nowMs);
      return;
    }
  }
  for (const where of [p, fallbackStatusPath()]) {
    try {
      writeStatusAt(fs, where, target, ok, reason, nowMs);
      if (ok) mine.set(target, nowMs);
      else mine.delete(target);
      return;
    } catch {
      // try the fallback, then give up silently: the status record must never break recording
    }
  }
}
