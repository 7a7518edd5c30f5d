// The one entry point every surface (CLI, opencode plugin, MCP server, hook mode) calls to record.
// It gathers the context, calls the wasm core once, writes the bytes it got back, and never throws.
import type { CoreOptions } from "./core.js";

export interface RecordOptions {
  /** Target file. Resolution: this option, else env AI_RECORDINGS_FILE, else ~/git/ai_recordings.jsonl. */
  file?: string;
  /** How it was captured: "cli" (default), "agent", "auto", "mcp". */
  capture?: string;
  /** Directory stamped as `pwd` and searched for the git facts; default process.cwd(). */
  cwd?: string;
  /** Stamps; each falls back to env AI_RECORDINGS_SESSION / _MODEL / _AGENT when absent. */
  session?: string;
  model?: string;
  agent?: string;
  /** More string stamps, written after the standard ones (e.g. client for MCP). */
  stamps?: Record<string, string | null | undefined>;
  /** Rotation threshold in bytes; env AI_RECORDINGS_MAX_BYTES; default 16 MiB. */
  maxBytes?: number;
  /** Redaction: false turns it off; an object adds patterns and allow-lists (see CoreOptions). */
  redact?: boolean | CoreOptions;
  /** Seams for tests. */
  env?: Record<string, string | undefined>;
  now?: () => number;
}

export interface RecordStatus {
  /** recorded: in the main file; quarantined: in <stem>.quarantine.jsonl; skipped: nothing written. */
  status: "recorded" | "quarantined" | "skipped";
  /** The file the line went to (or would have gone to, when skipped). */
  file: string;
  eid: string | null;
  /** Why it was quarantined or skipped, in a few words with the OS error code (e.g. "EACCES: permission denied"). */
  reason?: string;
  warnings?: string[];
}

export function record(input: string | Uint8Array, options?: RecordOptions): RecordStatus;

/** Where recordings go and why. */
export function resolveTarget(options?: RecordOptions): { file: string; source: "option" | "env" | "default" };
