// The one entry point every surface (CLI, opencode plugin, MCP server, hook mode) calls to record: resolve the
// target, gather the context, call the wasm core once, write the bytes it returned. Never throws.
// Contract: plugin/recorder.d.ts.

import { boundedSet } from "./capture/memory.js";
import { closeQuietly, fs as nodeFs, os, path } from "./builtins.js";
import { Core, newEid } from "./core.js";
import { readFully, readToEnd, writeFully } from "./io.js";
import { gitContext } from "./git.js";
import { appendLine, skipped } from "./writer/index.js";
import { quarantinePath, resolver, resolveTarget } from "./paths.js";
import { envOf, refreshEnv, settingsOf } from "./settings.js";

export { refreshEnv, resolveTarget };

/** Inputs above this are not given to the core whole: they go to quarantine in pieces (entries up to 16 MiB go
 *  through normally). */
export const SPLIT_ABOVE_BYTES = 16 * 1024 * 1024;
/** Size of one piece of an oversized input (bounded memory in the core: a piece and its line). */
export const PIECE_BYTES = 1024 * 1024;

const resolveCwd = resolver();
const cores = new Map(); // options key → { core, last: the context inputs it was last set with }
const MAX_CORES = 16;

/** The core's redaction options, from `options.redact` (false | true | {patterns, allow, allowPatterns}),
 *  else env: AI_RECORDINGS_REDACT=0 turns it off; AI_RECORDINGS_REDACT_PATTERNS, _REDACT_ALLOW and
 *  _REDACT_ALLOW_PATTERNS add newline-separated patterns, allowed literals and allowed patterns. */
function coreOptions(redact, env) {
  const s = settingsOf(env);
  const off =
    redact === false ||
    (redact && typeof redact === "object" && redact.enabled === false) ||
    (redact === undefined && s.redact === false);
  if (off) return { redact: false };
  const given = redact && typeof redact === "object" ? redact : {};
  const out = {
    redactPatterns: given.patterns ?? given.redactPatterns ?? s.redactPatterns,
    allow: given.allow ?? s.allow,
    allowPatterns: given.allowPatterns ?? s.allowPatterns,
  };
  if (!out.redactPatterns.length && !out.allow.length && !out.allowPatterns.length) return undefined;
  return out;
}

const envKeys = new WeakMap(); // settings (settings.js settingsOf) → the part of a core's key they give

/** The core for these options. Keyed on the redaction option and the redaction settings as settings.js read
 *  them (kept per settings object, so a repeated call with one environment builds nothing); the core's options
 *  are derived only when a new core is made. */
function coreFor(options) {
  const env = envOf(options);
  const s = settingsOf(env);
  let fromEnv = envKeys.get(s);
  if (fromEnv === undefined) {
    fromEnv = JSON.stringify([s.redact ?? null, s.redactPatterns, s.allow, s.allowPatterns]);
    envKeys.set(s, fromEnv);
  }
  const r = options.redact;
  const key = `${r === undefined ? "" : JSON.stringify(r)}\0${fromEnv}`;
  let slot = cores.get(key);
  if (!slot) {
    slot = { core: new Core(coreOptions(r, env)), last: null };
    boundedSet(cores, key, slot, MAX_CORES);
  }
  return slot;
}

/** The core's context for `inputs` (what prepare() compares): the stamps in the order the core writes them. */
function contextFor({ git, cwd, session, model, agent, capture, stamps: extra }) {
  const stamps = {
    pwd: cwd,
    repo: git.repo,
    git_dir: git.git_dir,
    origin: git.origin,
    head: git.head,
    branch: git.branch,
    session,
    model,
    agent,
  };
  for (const [k, v] of Object.entries(extra ?? {})) {
    if (!(k in stamps) || stamps[k] == null || stamps[k] === "") stamps[k] = v;
  }
  for (const k of Object.keys(stamps)) if (stamps[k] == null || stamps[k] === "") delete stamps[k];
  return { capture, stamps };
}

function shallowEqual(a, b) {
  if (a === b) return true;
  if (!a || !b) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (a[k] !== b[k]) return false;
  return true;
}

/** The core for these options, with its context set for this call. setContext() runs only when an input to the
 *  context changed: the git facts are the same object while nothing changed (git.js), the rest compares as
 *  plain values, so the common repeated call costs a few comparisons. */
function prepare(options) {
  const env = envOf(options);
  const slot = coreFor(options);
  const cwd = resolveCwd(options.cwd ?? process.cwd());
  const git = gitContext(cwd, { now: options.now });
  const s = settingsOf(env);
  const session = options.session ?? s.session;
  const model = options.model ?? s.model;
  const agent = options.agent ?? s.agent;
  const capture = options.capture || "cli";
  const last = slot.last;
  if (
    !last ||
    last.git !== git ||
    last.cwd !== cwd ||
    last.session !== session ||
    last.model !== model ||
    last.agent !== agent ||
    last.capture !== capture ||
    !shallowEqual(last.stamps, options.stamps)
  ) {
    slot.last = { git, cwd, session, model, agent, capture, stamps: options.stamps ? { ...options.stamps } : undefined };
    slot.core.setContext(contextFor(slot.last));
  }
  return slot.core;
}

function writerOptions(options) {
  const out = { env: options.env, now: options.now };
  if (options.maxBytes !== undefined) out.maxBytes = options.maxBytes;
  if (options.sync !== undefined) out.sync = options.sync;
  if (options.statusFile !== undefined) out.statusFile = options.statusFile;
  if (options.fs !== undefined) out.fs = options.fs;
  return out;
}

function byteLength(input) {
  if (typeof input === "string") return Buffer.byteLength(input, "utf8");
  return input.byteLength;
}

function safeTarget(options) {
  try {
    return resolveTarget(options).file;
  } catch {
    return path.join(os.homedir(), "git", "ai_recordings.jsonl");
  }
}

/** Records one input (string or bytes). Never throws; see RecordStatus in recorder.d.ts. */
export function record(input, options = {}) {
  let file = "";
  try {
    options = options ?? {};
    file = resolveTarget(options).file;
    if (input == null) input = "";
    if (typeof input !== "string" && !(input instanceof Uint8Array)) input = String(input);
    // A string's UTF-8 size is at most 3 bytes per UTF-16 unit: only measure when it could be oversized.
    const big = (typeof input === "string" ? input.length * 3 : input.byteLength) > SPLIT_ABOVE_BYTES;
    if (big && byteLength(input) > SPLIT_ABOVE_BYTES) {
      const bytes = typeof input === "string" ? Buffer.from(input, "utf8") : input;
      return recordSource(bufferSource(bytes), options);
    }
    const core = prepare(options);
    const now = (options.now ?? Date.now)();
    const outcome = core.record(input, now);
    const status = writeOutcome(outcome, file, options, []);
    if (core.warnings.length) status.optionWarnings = [...core.warnings];
    return status;
  } catch (e) {
    return internalFailure(file || safeTarget(options), e);
  }
}

/** What record() returns when something it did not expect threw: nothing was written. */
function internalFailure(file, e) {
  return skipped("EINTERNAL", file, `EINTERNAL: ${e && e.message ? e.message : e}`);
}

function writeOutcome(outcome, file, options, extraWarnings) {
  const toQuarantine = outcome.target === "quarantine";
  const dest = toQuarantine ? quarantinePath(file) : file;
  const w = appendLine(dest, outcome.line, writerOptions(options));
  const warnings = [...(outcome.warnings ?? []), ...extraWarnings, ...(w.warnings ?? [])];
  const status = w.ok
    ? { status: toQuarantine ? "quarantined" : "recorded", code: toQuarantine ? (outcome.fallback ? "core-failed" : "quarantined") : "recorded", file: dest, eid: outcome.eid }
    : skipped(w.code, dest, w.reason);
  if (w.ok && toQuarantine) status.reason = outcome.reason ?? "quarantined by the core";
  if (w.ok && outcome.fp) status.fp = outcome.fp;
  if (warnings.length) status.warnings = warnings;
  return status;
}

// ---------------------------------------------------------------------------------------------------------
// Oversized inputs: pieces in quarantine, one marker in the main file.

/** A byte source over a buffer: { size, read(offset, length) → Uint8Array }. */
export function bufferSource(bytes) {
  return { size: bytes.byteLength, read: (off, len) => bytes.subarray(off, Math.min(off + len, bytes.byteLength)) };
}

/** A byte source over an open file descriptor (read with pread, never loaded whole). The returned bytes are
 *  valid until the next read (one buffer is reused, so garbage does not pile up between collections). */
export function fdSource(fd, size, fs = nodeFs) {
  let scratch = Buffer.alloc(0);
  return {
    size,
    read(off, len) {
      const n = Math.max(0, Math.min(len, size - off));
      if (scratch.length < n) scratch = Buffer.allocUnsafe(Math.max(n, PIECE_BYTES + 4));
      return scratch.subarray(0, readFully(fs, fd, scratch, 0, n, off));
    },
  };
}

/** Cut points near every PIECE_BYTES, moved back to the start of a UTF-8 character so that a piece of valid
 *  text stays readable text in its line (a byte-exact split would turn it into base64). */
function cutPoints(source) {
  const cuts = [0];
  let at = 0;
  while (at + PIECE_BYTES < source.size) {
    let cut = at + PIECE_BYTES;
    const tail = source.read(cut - 3, 4); // bytes cut-3 .. cut
    // tail[3] is the first byte of the next piece; step back over continuation bytes (10xxxxxx).
    let back = 0;
    while (back < 3 && tail.length === 4 && (tail[3 - back] & 0xc0) === 0x80) back++;
    if (back === 3 && (tail[0] & 0xc0) === 0x80) back = 0; // not UTF-8 anyway: cut where we are
    cut -= back;
    cuts.push(cut);
    at = cut;
  }
  cuts.push(source.size);
  return cuts;
}

/** Records a source of any size in bounded memory: `pieces` quarantine lines under one eid, then a marker line
 *  in the main file. Never throws. */
export function recordSource(source, options = {}) {
  let file = "";
  try {
    options = options ?? {};
    file = resolveTarget(options).file;
    if (source.size <= SPLIT_ABOVE_BYTES) {
      return record(source.read(0, source.size), options);
    }
    const core = prepare(options);
    const now = (options.now ?? Date.now)();
    const cuts = cutPoints(source);
    const count = cuts.length - 1;
    const eid = core.newEid(now);
    const qfile = quarantinePath(file);
    const wopts = writerOptions(options);
    const warnings = [];
    for (let i = 0; i < count; i++) {
      const chunk = source.read(cuts[i], cuts[i + 1] - cuts[i]);
      const out = core.piece(chunk, now, eid, i, count, source.size);
      const w = appendLine(qfile, out.line, wopts);
      if (w.warnings) warnings.push(...w.warnings);
      if (!w.ok) {
        const reason = i === 0 ? w.reason : `${w.reason} (after ${i} of ${count} pieces were written under eid ${eid})`;
        return skipped(w.code, qfile, reason, warnings);
      }
    }
    const marker = core.marker(now, eid, count, source.size);
    const w = appendLine(file, marker.line, wopts);
    if (w.warnings) warnings.push(...w.warnings);
    const reason = `input of ${source.size} bytes is over the ${SPLIT_ABOVE_BYTES}-byte bound: kept in ${count} pieces in the quarantine file`;
    if (!w.ok) {
      return { status: "quarantined", code: "oversized", file: qfile, eid, reason: `${reason}; the main-file marker was not written: ${w.reason}`, warnings };
    }
    const status = { status: "quarantined", code: "oversized", file: qfile, eid, reason };
    if (warnings.length) status.warnings = warnings;
    return status;
  } catch (e) {
    return internalFailure(file || safeTarget(options), e);
  }
}

/**
 * Records everything readable from `fd` (standard input for the CLI) in bounded memory: up to
 * SPLIT_ABOVE_BYTES is kept in memory; beyond that the input is spooled to a private temporary file and recorded
 * in pieces. Never throws.
 */
export function recordFd(fd, options = {}) {
  const fs = options.fs ?? nodeFs;
  const chunks = [];
  let total = 0;
  let spool = null; // { path, fd }
  try {
    // `record -` waits for its input as long as it takes (io.js readToEnd: one rule for a non-blocking stdin).
    readToEnd(fs, fd, (bytes) => {
      total += bytes.length;
      if (!spool && total > SPLIT_ABOVE_BYTES) {
        const p = path.join(os.tmpdir(), `record-stdin-${process.pid}-${newEid()}.spool`);
        spool = { path: p, fd: fs.openSync(p, "wx+", 0o600) };
        for (const c of chunks) writeFully(fs, spool.fd, c);
        chunks.length = 0;
      }
      if (spool) writeFully(fs, spool.fd, bytes);
      else chunks.push(Buffer.from(bytes));
    });
    if (!spool) return record(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total), options);
    return recordSource(fdSource(spool.fd, total, fs), options);
  } catch (e) {
    // Reading (or spooling) failed part-way: record what arrived, and say so.
    const why = `reading the input failed after ${total} bytes: ${(e && e.code) || e}`;
    let r = null;
    try {
      if (spool) r = recordSource(fdSource(spool.fd, fs.fstatSync(spool.fd).size, fs), options);
      else if (total > 0) r = record(Buffer.concat(chunks), options);
    } catch {
      r = null;
    }
    if (r && r.status !== "skipped") {
      r.warnings = [...(r.warnings ?? []), why];
      return r;
    }
    return skipped((e && e.code) || "EIO", safeTarget(options), `${(e && e.code) || "EIO"}: ${why}`);
  } finally {
    if (spool) {
      closeQuietly(fs, spool.fd);
      try {
        fs.unlinkSync(spool.path);
      } catch {
        // ignore
      }
    }
  }
}
