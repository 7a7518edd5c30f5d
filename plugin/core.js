// Loads the wasm core (plugin/wasm/, built by scripts/build.sh) synchronously on first use and wraps its
// Recorder so that no call can lose an input or throw into the host:
//  * a trap (WebAssembly.RuntimeError: a Rust panic under panic=abort, or running out of memory) resets the
//    whole instance with the generated __wbg_reset_state() (wasm-bindgen --experimental-reset-state-function),
//    rebuilds the Recorder and retries once;
//  * if that fails too, or the .wasm could not be read or compiled, a quarantine line is built here in JS, with
//    the input kept verbatim (raw) or, for bytes, losslessly (raw_b64), so the input is never lost. That line is
//    NOT redacted (redaction lives only in the core) and says so with "unredacted": true;
//  * wasm linear memory never shrinks (a large entry can grow it to several times its size), so after an input
//    larger than RESET_AFTER_BYTES, or once memory passes RESET_ABOVE_MEMORY, the instance is reset.
// The contract of the generated Recorder is plugin/core.d.ts.

import { fs } from "./builtins.js";
import { readFully } from "./io.js";
import { readCoreWasm } from "./core-wasm.js";
import * as glue from "./wasm/recordings_core.js";

/** Inputs above this reset the instance after use (8 MiB: a typical entry is ~1 KiB; the core's peak memory is
 *  a small multiple of the input). */
export const RESET_AFTER_BYTES = 8 * 1024 * 1024;
/** Memory above this after any call resets the instance (bounds what many medium inputs can leave behind). */
export const RESET_ABOVE_MEMORY = 256 * 1024 * 1024;

let gen = null; // the generated bindings, once the instance is up
let exportsOf = null; // the instance's exports (for memory size)
let loadError = null;
let loadTried = false;
let generation = 0; // bumped by every reset; wrappers rebuild their Recorder when it changes

/** The core's random bytes (entry ids), read from /dev/urandom. Throwing (no such device, e.g. on Windows)
 *  makes the core use crypto.getRandomValues, whose first call in a Node process loads WebCrypto and the
 *  streams stack: more than a one-entry CLI or hook process spends on anything else. */
function urandom(buf) {
  const fd = fs.openSync("/dev/urandom", "r");
  try {
    if (readFully(fs, fd, buf, 0, buf.length, null) < buf.length) throw new Error("short read from /dev/urandom");
  } finally {
    fs.closeSync(fd);
  }
}

/** Reads, compiles and instantiates the .wasm, once, on first use (not at import: a process that records
 *  nothing never pays for the compile), or instantiates `compiled` (a WebAssembly.Module of it). Returns the
 *  bindings, or null when the core cannot load. */
function loadCore(compiled = null) {
  if (loadTried) return gen;
  loadTried = true;
  try {
    exportsOf = glue.initSync({ module: compiled ?? readCoreWasm() });
    glue.setRandomSource(urandom);
    gen = glue;
  } catch (e) {
    gen = null;
    loadError = e;
  }
  return gen;
}

/** Loads the core from a module compiled ahead (core-wasm.js compileCoreWasm) unless it is loaded already; with
 *  null, as on first use. Returns whether the core is up. */
export function loadCoreFrom(compiled) {
  return loadCore(compiled instanceof WebAssembly.Module ? compiled : null) !== null;
}

/** Why the core is unavailable, or null when it loaded (loading it first if nothing has yet). */
export function coreLoadError() {
  loadCore();
  return loadError ? String(loadError && loadError.message ? loadError.message : loadError) : null;
}

/** The failure fingerprint of a stored line (crate/src/fingerprint/): { fp, failure } for an automatic failure
 *  written before the core stamped one, else null — also when the core cannot run (never throws). */
export function fingerprintOf(line) {
  if (typeof line !== "string" || !loadCore()) return null;
  try {
    return gen.fingerprint(line) ?? null;
  } catch {
    resetCore();
    return null;
  }
}

/** The last failure block of a failing command's output (crate/src/fingerprint/: the lines the fingerprint's
 *  signature is taken from, with the lines that explain them), or null when the core cannot run (never throws). */
export function failureBlockOf(text) {
  if (typeof text !== "string" || !loadCore()) return null;
  try {
    return gen.failureBlock(text);
  } catch {
    resetCore();
    return null;
  }
}

/** Resets the wasm instance (all Recorders are rebuilt lazily). Returns false if that failed. */
export function resetCore() {
  if (!gen) return false;
  try {
    gen.__wbg_reset_state();
    generation++;
    exportsOf = gen.initSync({ module: undefined }); // already initialised: returns the new instance's exports
    gen.setRandomSource(urandom);
    return true;
  } catch (e) {
    loadError = e;
    gen = null;
    return false;
  }
}

function memoryBytes() {
  try {
    const mem = exportsOf && exportsOf.memory;
    return mem ? mem.buffer.byteLength : 0;
  } catch {
    return 0;
  }
}

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/** An entry id in the core's format (13 Crockford base32 characters from 64 random bits, crate/src/stamp.rs),
 *  for the lines built here while the core is down. */
export function newEid() {
  const b = new Uint8Array(8);
  globalThis.crypto.getRandomValues(b);
  let n = 0n;
  for (const x of b) n = (n << 8n) | BigInt(x);
  let out = "";
  for (let i = 0; i < 13; i++) {
    out = ALPHABET[Number(n & 31n)] + out;
    n >>= 5n;
  }
  return out;
}

function describe(e) {
  const name = e && e.name ? e.name : "Error";
  const msg = e && e.message ? e.message : String(e);
  return `${name}: ${msg}`.slice(0, 300);
}

function base64(bytes) {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

// Keys of a fallback line that a stamp never takes.
const OWN_KEYS = ["ts", "eid", "reason", "raw", "raw_b64", "raw_encoding", "unredacted", "capture"];

/** A line built here when the core cannot build it: `members` ([key, value] pairs) in order, then the core's
 *  own tail (capture, then the context's stamps, in the core's order; a stamp never repeats a member). */
function fallbackLine(members, context) {
  const parts = members.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
  const taken = new Set([...OWN_KEYS, ...members.map(([k]) => k)]);
  if (context?.capture) parts.push(`"capture":${JSON.stringify(String(context.capture))}`);
  for (const [k, v] of Object.entries(context?.stamps ?? {})) {
    if (typeof v === "string" && v !== "" && !taken.has(k)) parts.push(`${JSON.stringify(k)}:${JSON.stringify(v)}`);
  }
  return `{${parts.join(",")}}\n`;
}

function isoTime(now) {
  return new Date(Number.isFinite(now) ? now : Date.now()).toISOString();
}

/** The quarantine line written when the core cannot produce one: the input kept whole, marked unredacted. */
export function fallbackOutcome(input, now, reason, context, { eid = newEid(), extra = [] } = {}) {
  const members = [["ts", isoTime(now)], ["eid", eid], ...extra, ["reason", reason]];
  if (input instanceof Uint8Array) members.push(["raw_b64", base64(input)], ["raw_encoding", "bytes"]);
  // JSON.stringify escapes lone surrogates (\udxxx), so even those survive and the line stays valid UTF-8.
  else members.push(["raw", typeof input === "string" ? input : String(input)]);
  members.push(["unredacted", true]);
  return {
    line: fallbackLine(members, context),
    target: "quarantine",
    eid,
    style: "quarantine",
    reason,
    warnings: [reason],
    redactions: 0,
    fallback: true,
  };
}

/** The main-file marker of an oversized input, built when the core cannot build it (the core's own layout). */
export function fallbackMarker(now, eid, count, totalBytes, context, warning) {
  const members = [
    ["ts", isoTime(now)],
    ["eid", eid],
    ["oversized", true],
    ["bytes", totalBytes],
    ["pieces", count],
    ["note", "input over the size bound; its pieces are in the quarantine file under this eid"],
  ];
  return { line: fallbackLine(members, context), target: "main", eid, style: "marker", warnings: [warning], redactions: 0, fallback: true };
}

function concatBytes(a, b) {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}

function sizeOf(input) {
  // UTF-16 units: the UTF-8 size of mostly-ASCII text, without encoding it. (Text of 3-byte characters is
  // undercounted up to 3x; RESET_ABOVE_MEMORY still bounds what it leaves behind.)
  if (typeof input === "string") return input.length;
  if (input && typeof input.byteLength === "number") return input.byteLength;
  return 0;
}

/**
 * One core Recorder (per set of options) that survives traps. Methods mirror plugin/core.d.ts and never throw.
 */
export class Core {
  constructor(options) {
    this.options = options ?? undefined;
    this.context = null;
    this.inner = null;
    this.innerGeneration = -1;
    this.warnings = [];
    this.held = null; // { eid, next, bytes }: see piece()
  }

  /** The live generated Recorder, rebuilt after a reset. Throws only if the core is unavailable. */
  #recorder() {
    if (!loadCore()) throw new Error(`core unavailable: ${coreLoadError()}`);
    if (!this.inner || this.innerGeneration !== generation) {
      this.inner = new gen.Recorder(this.options);
      this.innerGeneration = generation;
      try {
        this.warnings = this.inner.warnings ?? [];
      } catch {
        this.warnings = [];
      }
      if (this.context) this.inner.setContext(this.context);
    }
    return this.inner;
  }

  /** Runs fn(recorder); on a trap resets the instance and retries once; returns { value } or { error }. */
  #guard(fn, bytes) {
    let result;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        result = { value: fn(this.#recorder()) };
        break;
      } catch (e) {
        result = { error: e };
        const trapped = e instanceof WebAssembly.RuntimeError || (e && e.name === "RuntimeError");
        // A trap leaves the instance poisoned: reset it. Any other error (a bug reported as a JS Error)
        // would only repeat, so it is not retried.
        if (!trapped || !resetCore()) break;
      }
    }
    if (bytes > RESET_AFTER_BYTES || memoryBytes() > RESET_ABOVE_MEMORY) resetCore();
    return result;
  }

  setContext(context) {
    this.context = context;
    if (!loadCore()) return;
    // Applied lazily to a rebuilt Recorder too (see #recorder).
    this.#guard((r) => r.setContext(context), 0);
  }

  record(input, now) {
    const r = this.#guard((rec) => rec.record(input, now), sizeOf(input));
    if (r.value && typeof r.value.line === "string") return r.value;
    return fallbackOutcome(input, now, `core failed: ${describe(r.error ?? new Error("no line returned"))}`, this.context);
  }

  /** An entry id from the core's random pool; the JS one (same format) only while the core is down. */
  newEid(now) {
    const r = this.#guard((rec) => rec.newEid(now), 0);
    return typeof r.value === "string" ? r.value : newEid();
  }

  piece(chunk, now, eid, index, count, totalBytes) {
    // What the previous piece held back (CoreOutcome.held) goes first; the held bytes are copied, as the caller may
    // reuse the chunk's buffer.
    const held = this.held && this.held.eid === eid && this.held.next === index ? this.held.bytes : null;
    this.held = null;
    const bytes = held ? concatBytes(held, chunk) : chunk;
    const r = this.#guard((rec) => rec.piece(bytes, now, eid, index, count, totalBytes), bytes.byteLength);
    if (r.value && typeof r.value.line === "string") {
      if (r.value.held) this.held = { eid, next: index + 1, bytes: Uint8Array.prototype.slice.call(bytes, bytes.byteLength - r.value.held) };
      return r.value;
    }
    return fallbackOutcome(bytes, now, `core failed: ${describe(r.error)}`, this.context, {
      eid,
      extra: [["piece", index], ["pieces", count], ["bytes", totalBytes]],
    });
  }

  marker(now, eid, count, totalBytes) {
    const r = this.#guard((rec) => rec.marker(now, eid, count, totalBytes), 0);
    if (r.value && typeof r.value.line === "string") return r.value;
    return fallbackMarker(now, eid, count, totalBytes, this.context, `core failed: ${describe(r.error)}`);
  }
}
