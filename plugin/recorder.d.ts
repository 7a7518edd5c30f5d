// The one entry point every surface (CLI, opencode plugin, MCP server, hook mode) calls to record.
// It gathers the context, calls the wasm core once, writes the bytes it got back, and never throws.

export interface RedactOptions {
  /** false turns redaction off (same as `redact: false`). */
  enabled?: boolean;
  /** Extra regular expressions to redact. */
  patterns?: string[];
  /** Literals never redacted. */
  allow?: string[];
  /** Regular expressions; a candidate secret they match is never redacted. */
  allowPatterns?: string[];
}

export interface RecordOptions {
  /** Target file. Resolution: this option, else env AI_RECORDINGS_FILE, else ~/git/ai_recordings.jsonl ("~/" is
   *  the home directory; relative paths are taken from `cwd`). */
  file?: string;
  /** How it was captured: "cli" (default), "agent", "auto", "mcp". */
  capture?: string;
  /** Directory stamped as `pwd` and searched for the git facts (read from .git files, cached, HEAD re-validated on
   *  every call); relative `file` paths resolve against it. Default process.cwd(). */
  cwd?: string;
  /** Stamps; each falls back to env AI_RECORDINGS_SESSION / _MODEL / _AGENT when absent. */
  session?: string;
  model?: string;
  agent?: string;
  /** More string stamps, written after the standard ones (e.g. client for MCP). */
  stamps?: Record<string, string | null | undefined>;
  /** Rotation threshold in bytes; env AI_RECORDINGS_MAX_BYTES; default 16 MiB. */
  maxBytes?: number;
  /** Redaction, on by default: false turns it off; an object adds user patterns (each reported as rule
   *  `custom-<n>`; group 1 only when the pattern has a group), allowed literals and allowed patterns. Lists not
   *  given come from env AI_RECORDINGS_REDACT_PATTERNS / _REDACT_ALLOW / _REDACT_ALLOW_PATTERNS (one per
   *  line); env AI_RECORDINGS_REDACT=0 (or false/no/off) turns it off when this option is absent. */
  redact?: boolean | RedactOptions;
  /** fdatasync after each append; env AI_RECORDINGS_SYNC=0 turns it off; default true (see docs/writer.md). */
  sync?: boolean;
  /** Where the status record (last success, last failure + reason, misses) goes; false for none. Default
   *  $XDG_STATE_HOME/opencode-recordings/status.json, else ~/.local/state/..., else a tmpdir fallback. */
  statusFile?: string | false;
  /** The environment to read the AI_RECORDINGS_* settings, HOME and XDG_STATE_HOME from. Default: a copy of
   *  `process.env` taken once per process, at the first call (see `refreshEnv`). Also a seam for tests. */
  env?: Record<string, string | undefined>;
  now?: () => number;
  /** The node:fs functions the writer uses (fault injection). */
  fs?: typeof import("node:fs");
}

/** Why an append failed: the OS error (see `reason` for it in words), SHORT for a write that stopped without
 *  one, EOTHER for any other error. */
export type WriteErrorCode =
  | "EACCES" | "EPERM" | "EROFS" | "ENOSPC" | "EDQUOT" | "EISDIR" | "ENOTDIR" | "ELOOP" | "ENOENT" | "EIO"
  | "EFBIG" | "ENXIO" | "EAGAIN" | "ENAMETOOLONG" | "EMFILE" | "ENFILE" | "EBADF" | "ESTALE" | "SHORT" | "EOTHER";

/** What happened, closed, for callers to switch on (never parse `reason`):
 *  - "recorded": in the main file;
 *  - "quarantined": kept verbatim in the quarantine file (the core could not keep it faithfully);
 *  - "oversized": over the size bound, kept in pieces in the quarantine file, with a marker in the main file;
 *  - "core-failed": the core could not run; kept whole, unredacted, in the quarantine file;
 *  - a WriteErrorCode: nothing was written, the file could not be;
 *  - "EINTERNAL": nothing was written, the recorder met an error it did not expect. */
export type RecordCode = "recorded" | "quarantined" | "oversized" | "core-failed" | WriteErrorCode | "EINTERNAL";

export interface RecordStatus {
  /** recorded: in the main file; quarantined: in <stem>.quarantine.jsonl; skipped: nothing written. */
  status: "recorded" | "quarantined" | "skipped";
  /** The closed code of what happened. */
  code: RecordCode;
  /** The file the line went to (or would have gone to, when skipped). */
  file: string;
  eid: string | null;
  /** The failure fingerprint the core stamped on an automatic failure's line (see docs/schema.md). */
  fp?: string;
  /** Why it was quarantined or skipped, in a few words with the OS error code (e.g. "EACCES: permission denied"). */
  reason?: string;
  warnings?: string[];
  /** Problems with the options themselves (e.g. a redaction pattern that does not compile and was ignored). */
  optionWarnings?: string[];
}

export function record(input: string | Uint8Array, options?: RecordOptions): RecordStatus;

/** A source of bytes read piece by piece (oversized inputs are never held whole by the core). */
export interface ByteSource {
  size: number;
  read(offset: number, length: number): Uint8Array;
}

/** Records a source of any size: over 16 MiB it goes to quarantine in ~1 MiB pieces under one eid, plus one
 *  `oversized` marker line in the main file (status "quarantined"). */
export function recordSource(source: ByteSource, options?: RecordOptions): RecordStatus;

/** Records everything readable from a file descriptor (stdin: 0) in bounded memory (spooled to a private
 *  temporary file past 16 MiB). */
export function recordFd(fd: number, options?: RecordOptions): RecordStatus;

export function bufferSource(bytes: Uint8Array): ByteSource;
export function fdSource(fd: number, size: number): ByteSource;

/** Inputs larger than this (bytes, UTF-8) are recorded in pieces. */
export const SPLIT_ABOVE_BYTES: number;
/** The size of one piece. */
export const PIECE_BYTES: number;

/** Makes the next call read `process.env` again. The settings the recorder takes from the environment are read
 *  once per process; a process that changes its own environment afterwards, and wants the change to apply,
 *  calls this. */
export function refreshEnv(): void;

/** Where recordings go and why. */
export function resolveTarget(options?: RecordOptions): { file: string; source: "option" | "env" | "default" };
