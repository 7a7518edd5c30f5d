// The wasm boundary, as seen from JS (plugin/core.js wraps the generated bindings in plugin/wasm/).
// The core is pure: it never reads the clock, the filesystem or the environment. Everything it stamps
// comes in through CoreContext and `now`. It never throws for any input: what it cannot keep faithfully
// in the main file comes back with target "quarantine".

/** Stamps gathered by the JS edge. Keys are written in this order after the supplied members; null,
 *  undefined and "" are skipped. A stamp whose key the caller supplied is not written (the caller's
 *  value stands). */
export interface CoreContext {
  /** How the entry was captured: "cli", "agent", "auto", "mcp". Written as `capture`. */
  capture: string;
  /** pwd, repo, git_dir, origin, head, branch, session, model, agent, and any other string stamps. */
  stamps?: Record<string, string | null | undefined>;
}

export interface CoreOptions {
  /** Secret redaction; on unless explicitly false. */
  redact?: boolean;
  /** Extra redaction patterns (regular expressions), each reported as rule `custom-<n>` (n counts from 1). */
  redactPatterns?: string[];
  /** Literals that are never redacted. */
  allow?: string[];
  /** Patterns (regular expressions) whose matches are never redacted. */
  allowPatterns?: string[];
}

/** Which file a line goes to: the recordings file, or the sibling `<stem>.quarantine.jsonl`. */
export type Target = "main" | "quarantine";

/** How the input was read (docs/schema.md, "Input styles"); "piece" and "marker" are the lines of an input over the
 *  size bound. */
export type Style = "json" | "json-value" | "loose" | "text" | "empty" | "quarantine" | "piece" | "marker";

/** Why a line went to quarantine: bytes that are not UTF-8, a JS string with a lone surrogate, text that starts
 *  like a JSON object but is not readable, an input over the size bound. */
export type ReasonCode = "not-utf8" | "lone-surrogate" | "not-json" | "oversized";

export interface CoreOutcome {
  /** One complete JSONL line, ending in "\n", to be written with a single write(). */
  line: string;
  /** "main": the recordings file; "quarantine": the sibling `<stem>.quarantine.jsonl`. */
  target: Target;
  /** The entry id written in the line (the caller's own `eid` if it supplied one). */
  eid: string;
  /** How the input was read. */
  style: Style;
  /** Why the entry went to quarantine, in words (absent for "main"); the line's `reason` member holds the same. */
  reason?: string;
  /** The kind of `reason`, to switch on (absent for "main", and on the lines plugin/core.js builds itself when the
   *  core failed: their reason starts with "core failed"). */
  reasonCode?: ReasonCode;
  /** Non-fatal remarks, e.g. "relaxed JSON repaired; verbatim input kept in raw". */
  warnings: string[];
  /** How many secrets were replaced by markers. */
  redactions: number;
  /** piece() only: how many of the bytes given, at their end, the line does not hold. They are held back so that no
   *  secret is split between two lines: the caller passes them again, first, in the next piece's bytes (plugin/core.js
   *  does). Absent when 0 (and always for the last piece). */
  held?: number;
  /** The failure fingerprint stamped on an automatic `gate.failed` / `tool.failed` line (`g1_` + 16 hex), else
   *  absent. */
  fp?: string;
}

/** A stored line's failure fingerprint and the lines that say why it failed (what the core stamps as `fp` and
 *  `failure`), for lines written before it did; undefined for any other line. plugin/core.js `fingerprintOf`
 *  wraps it (null instead of undefined, and when the core cannot run). */
export function fingerprint(line: string): { fp: string; failure: string[] } | undefined;

/** The last failure block of a failing command's output, trimmed: from its first failure line through the lines
 *  that explain its last one, CI runner and build tool boilerplate left out (the fingerprint's signature is its
 *  failure lines). plugin/core.js `failureBlockOf` wraps it (null when the core cannot run). */
export function failureBlock(text: string): string[];

export class Recorder {
  /** Compiles the options (redaction rules). Bad options never throw: they are reported in `warnings`. */
  constructor(options?: CoreOptions);
  readonly warnings: string[];
  /** Renders the context once; later calls of record() reuse it until the next setContext(). */
  setContext(context: CoreContext): void;
  /** Turns any input into one stamped line. `now` is milliseconds since the Unix epoch (Date.now()).
   *  A Uint8Array may hold bytes that are not UTF-8 (they are quarantined losslessly, base64). */
  record(input: string | Uint8Array, now: number): CoreOutcome;
  /** A fresh entry id (13 Crockford base32 characters), for an oversized input's pieces and marker. */
  newEid(now: number): string;
  /** For inputs over the size bound: one bounded piece of the input (after what the previous piece held back, see
   *  CoreOutcome.held), as a quarantine line that carries `eid`, `piece` (0-based index), `pieces` and `bytes` (the
   *  whole input's size). */
  piece(bytes: Uint8Array, now: number, eid: string, index: number, count: number, totalBytes: number): CoreOutcome;
  /** The main-file marker for an oversized input whose pieces went to quarantine under `eid`. */
  marker(now: number, eid: string, count: number, totalBytes: number): CoreOutcome;
}

/** Where the core's random bytes (entry ids) come from: `fill` must fill the whole array or throw. Without a
 *  source, or when it throws, the core uses `crypto.getRandomValues`. plugin/core.js sets /dev/urandom. */
export function setRandomSource(fill: (buf: Uint8Array) => void): void;
