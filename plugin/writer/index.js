// The append-only writer: puts one complete line at the end of a JSONL file, rotates by size, never throws.
//
// Contract (the full one, with its reasons, is docs/writer.md):
// * Any number of processes may append to one file at once. Each entry is one write(2) of one complete line on
//   an O_APPEND descriptor, so lines never interleave on a local filesystem (not over NFS).
// * A torn line left by a crash never glues two entries together: the writer starts on a fresh line after one,
//   and writes its line again when it lands right behind another writer's fragment.
// * Rotation: when an append would take a non-empty file past maxBytes, one writer (holding `<file>.lock`)
//   renames it to a read-only archive `<stem>.<UTC stamp>[.<n>].jsonl`; archives are never edited or deleted.
//   Lines racing the rename land complete in the archive, where readers find them.
// * During a burst a writer keeps its descriptor (at most 8, each closed after 1 s idle, at exit, or by
//   closeKept()) and checks it by reads, fstat or lstat before each use; lines that reach a file deleted
//   meanwhile are written again to the path.
// * fdatasync after each append unless `sync: false` or AI_RECORDINGS_SYNC=0. The final path component is
//   opened with O_NOFOLLOW; new files get mode 0600, new directories 0700.
// * Never throws: a failure comes back as { ok: false, reason: "<CODE>: <plain words>", code } and is noted in
//   the status record.

import { fs as nodeFs } from "../builtins.js";
import { createFdPool } from "../fdpool.js";
import { listSegments, quarantinePath } from "../paths.js";
import { appendInner } from "./append.js";
import { describeError } from "./errors.js";
import { KEEP_OPEN_MS, MAX_KEPT, retire } from "./kept.js";
import { createStatusNotes, noteStatus } from "./status.js";

export { DEFAULT_MAX_BYTES } from "./append.js";
export { WRITE_ERROR_CODES, closedCode, describeError, skipped } from "./errors.js";
export { KEEP_OPEN_MS, PATH_CHECK_MS, PENDING_MAX_BYTES, VERIFY_MS } from "./kept.js";
export { DEFAULT_STALE_LOCK_MS } from "./rotate.js";
export { noteStatus, readStatus, statusPath } from "./status.js";
export { quarantinePath };

/**
 * A writer with its own kept descriptors, memory of where its last appends ended, burst timing and status
 * notes. Every option is a default for the calls' options (below), except:
 *  - clock: () => ms for burst timing, the kept descriptors' checks and idle sweep, and the default `now`
 *  - timers: { setTimeout, clearTimeout } for the idle sweep (default the global ones)
 * Returns { appendLine, closeKept }.
 */
export function createWriter({ fs, clock = Date.now, timers, maxBytes, sync, statusFile, env } = {}) {
  const defaults = {};
  for (const [k, v] of Object.entries({ fs, now: clock === Date.now ? undefined : clock, maxBytes, sync, statusFile, env })) {
    if (v !== undefined) defaults[k] = v;
  }
  const withDefaults = Object.keys(defaults).length > 0;
  const baseFs = fs ?? nodeFs;
  const w = {
    clock,
    spareJobs: [], // finished appends' job objects, reused (append.js)
    lastEnds: new Map(), // file → { ino, dev, end, at }: where our last append left it, and when
    notes: createStatusNotes(),
    append: null,
    pool: null,
  };
  w.pool = createFdPool({
    idleMs: KEEP_OPEN_MS,
    max: MAX_KEPT,
    usedAt: (h) => h.used,
    // Lines held since the last check are checked once more before the descriptor closes (kept.js retire).
    release: (file, h, callFs) => retire(w.append, callFs ?? h.opts.fs ?? baseFs, file, h),
    clock,
    timers,
  });

  /**
   * Appends one line (string or bytes; a missing final "\n" is added) to `file`.
   * options: { maxBytes, sync, now, fs, env, statusFile, staleLockMs }
   *  - maxBytes: rotation threshold (default env AI_RECORDINGS_MAX_BYTES, else 16 MiB)
   *  - sync: fdatasync after the write (default true; env AI_RECORDINGS_SYNC=0 turns it off)
   *  - now: clock for archive names and the status record (default Date.now)
   *  - fs: the node:fs functions to use (a seam for fault tests)
   *  - statusFile: path of the status record, or false for none
   * Returns { ok: true, file, bytes, rotated, warnings } or { ok: false, file, reason, code }.
   */
  function appendLine(file, line, options = {}) {
    const o = withDefaults ? merged(defaults, options) : options;
    const warnings = [];
    let result;
    try {
      result = appendInner(w, o.fs ?? nodeFs, file, line, o, warnings);
    } catch (e) {
      result = { ok: false, file, reason: describeError(e), code: (e && e.code) || "EUNKNOWN" };
      // After a failure the next append starts cold: no tail shortcut, and its descriptor is not kept.
      w.lastEnds.delete(file);
    }
    if (warnings.length) result.warnings = warnings;
    try {
      noteStatus(file, result.ok, result.reason, o, w.notes);
    } catch {
      // the status record must never break recording
    }
    return result;
  }
  w.append = appendLine;

  /** Closes every kept descriptor now (e.g. before unmounting the filesystem the recordings live on). */
  function closeKept() {
    w.pool.closeAll();
  }

  return { appendLine, closeKept };
}

/** The instance's defaults under the call's options (an option given as undefined keeps the default). */
function merged(defaults, options) {
  const o = { ...defaults };
  for (const k in options) if (options[k] !== undefined) o[k] = options[k];
  return o;
}

const defaultWriter = createWriter();

/** appendLine of the default writer (see createWriter). */
export function appendLine(file, line, options) {
  return defaultWriter.appendLine(file, line, options);
}

/** Closes every descriptor the default writer keeps. */
export function closeKept() {
  defaultWriter.closeKept();
}

/** The segment paths of a recordings file, oldest first: archives in rotation order, then the live file. */
export function segments(file, { fs = nodeFs } = {}) {
  return listSegments(file, { fs }).map((s) => s.path);
}
