// Types of plugin/read/index.js: reading recordings back, for the `record` subcommands and for other programs
// (e.g. an extraction job that feeds a database and resumes where it stopped).
//
//   import { RecordingsReader } from "opencode-recordings/read";
//   const reader = new RecordingsReader({ since: savedCursor });
//   for (const r of reader.records()) store(r.entry, r.text);
//   save(reader.cursor); // resume from here next time: nothing repeated, nothing skipped

/** Where recordings go and why (the same rule as the recorder's resolveTarget). */
export interface Target {
  /** Absolute path of the main recordings file. */
  file: string;
  /** "option": the `file` option; "env": AI_RECORDINGS_FILE; "default": ~/git/ai_recordings.jsonl. */
  source: "option" | "env" | "default";
}

export interface TargetOptions {
  /** The recordings file; relative paths are taken from `cwd`, "~/" is the home directory. */
  file?: string;
  /** Environment to read AI_RECORDINGS_FILE and HOME from (default process.env). */
  env?: Record<string, string | undefined>;
  /** Base for a relative `file` (default process.cwd()). */
  cwd?: string;
}

export function resolveFile(options?: TargetOptions): Target;

/** `<stem>.quarantine.jsonl` beside a recordings file. */
export function quarantineFile(file: string): string;

/** One segment of a recordings file. */
export interface Segment {
  path: string;
  /** Sort key of an archive (rotation order); null for the live file. */
  key: string | null;
  archive: boolean;
}

/** Archives in rotation order, then the live file (if it exists). Never throws. */
export function listSegments(file: string, options?: { fs?: typeof import("node:fs") }): Segment[];

/**
 * Filters: each may be one value or a list (any of its values matches); different filters must all match.
 * An entry is what JSON.parse gives for its line, so for a duplicated key the last value counts.
 */
export interface Filter {
  /** `session` equals one of these. */
  session?: string | string[];
  /** `repo`, `origin` or `git_dir` equals one of these. */
  repo?: string | string[];
  /** `capture` equals one of these ("cli", "agent", "auto", "mcp"). */
  capture?: string | string[];
  /** `kind`, `trigger` or `category` equals one of these, ignoring case (see kindsOf). */
  kind?: string | string[];
  /** `eid` equals one of these, or starts with one of at least 4 characters. */
  eid?: string | string[];
  /** `ts` at or after this time: milliseconds since the epoch, an ISO time, or an age ("12h", "7d"). */
  sinceTime?: number | string;
  /** `ts` before this time (same forms). */
  untilTime?: number | string;
}

/** A parsed entry: whatever members the line holds. */
export type Entry = Record<string, unknown>;

export interface ReaderOptions extends TargetOptions {
  /** Read `<stem>.quarantine.jsonl` instead of the main file. Its cursors are not valid for the main file. */
  quarantine?: boolean;
  /** Resume after this cursor (from `cursor` or a record's `cursor`); null or "" reads from the beginning. */
  since?: string | null;
  /** Keep only matching entries (the cursor still moves past the others). */
  filter?: Filter | ((entry: Entry) => boolean);
  /** Clock (default Date.now): decides when an archive is quiet. */
  now?: () => number;
  /** An archive read to its end and unchanged this long is folded into the cursor's base (default 60000). */
  settleMs?: number;
  /** An archive's unterminated last line is consumed as damage once unchanged this long (default 60000). */
  tailGraceMs?: number;
  /** Called for each damaged line as it is found. */
  onDamage?: (damage: Damage) => void;
  /** node:fs or a stand-in (tests). */
  fs?: typeof import("node:fs");
}

export interface ReadRecord {
  /** The entry, parsed. */
  entry: Entry;
  /** The line exactly as stored, without its "\n" (every member byte for byte as written). */
  text: string;
  /** The segment file it was read from. */
  segment: string;
  /** Byte offset of the line in that segment. */
  offset: number;
  /** Bytes of the line, with its "\n". */
  length: number;
  /** Where to resume to read what comes after this entry. */
  cursor: string;
}

export type DamageReason = "not valid JSON" | "not valid UTF-8" | "not a JSON object" | "unterminated last line (torn by a crash?)";

/** A complete line that is not a JSON object: skipped and reported. */
export interface Damage {
  segment: string;
  offset: number;
  length: number;
  /** Why the line was skipped: the last one only for an archive's tail once it is quiet (see tailGraceMs). */
  reason: DamageReason;
  /** The line's beginning (at most 80 characters). */
  preview: string;
}

/** An unterminated last line left unread (a write in progress, or torn by a crash). */
export interface Pending {
  segment: string;
  offset: number;
  length: number;
  archive: boolean;
}

export interface ReadStats {
  /** Segments opened. */
  segments: number;
  /** Bytes read (resuming reads only what lies after the cursor). */
  bytes: number;
  /** Non-blank complete lines seen. */
  lines: number;
  /** Lines that were entries (JSON objects). */
  entries: number;
  /** Entries that passed the filter. */
  matched: number;
  /** Damaged lines. */
  damaged: number;
}

/** Thrown by the constructor for a cursor that cannot be used. */
export class CursorError extends Error {
  /** "EBADCURSOR": not a cursor of this format; "EWRONGFILE": a main-file cursor for the quarantine file or
   *  the other way round. */
  code: "EBADCURSOR" | "EWRONGFILE";
}

/**
 * Reads entries after a cursor, in append order across segments (archives, then the live file). Resuming
 * never repeats or skips an entry, even while other processes append and rotate. Reading never throws;
 * problems end up in `damage`, `pending` and `notes`.
 */
export class RecordingsReader {
  constructor(options?: ReaderOptions);
  /** The main recordings file. */
  readonly main: string;
  /** The file family being read (main or quarantine). */
  readonly file: string;
  readonly source: Target["source"];
  /** Iterate once. */
  records(): Generator<ReadRecord, void, undefined>;
  /** Where to resume after everything iterated so far. */
  readonly cursor: string;
  readonly damage: Damage[];
  readonly pending: Pending[];
  /** Plain-language notes: segments gone or unreadable, archives that changed after they were read. */
  readonly notes: string[];
  readonly stats: ReadStats;
}

export interface ReadResult {
  records: ReadRecord[];
  cursor: string;
  damage: Damage[];
  notes: string[];
  stats: ReadStats;
  file: string;
}

/** Reads everything after `since` into memory. With `limit`, `cursor` points just after the last record. */
export function readRecordings(options?: ReaderOptions & { limit?: number }): ReadResult;

export interface SessionSummary {
  /** null for entries without a session. */
  session: string | null;
  entries: number;
  /** Earliest and latest `ts` (RFC 3339 text), or null. */
  first: string | null;
  last: string | null;
  repos: string[];
  agents: string[];
  models: string[];
}

/** Sessions seen, most recent first. */
export function listSessions(options?: ReaderOptions): {
  sessions: SessionSummary[];
  damage: Damage[];
  notes: string[];
  stats: ReadStats;
  file: string;
};

/** The entries with this eid (exact, or a prefix of at least 4 characters): main file, then quarantine. */
export function findEntries(
  eid: string,
  options?: TargetOptions,
): { records: Array<ReadRecord & { quarantine: boolean }>; ambiguous: boolean };

/** Markdown of one entry from its stored line: what, when, where, how; non-string values exactly as written. */
export function entryMarkdown(text: string, options?: { heading?: string }): string;

/** Markdown of several entries under one title (default "N recordings"). */
export function entriesMarkdown(items: Array<string | { text: string }>, options?: { title?: string }): string;

/** The top-level members of a JSON object text, in order and with duplicates, values as exact source text. */
export function rawMembers(text: string): Array<[string, string]>;

/** A predicate for a Filter, or null when it filters nothing. */
export function makeFilter(filter?: Filter, now?: number): ((entry: Entry) => boolean) | null;

/** The values --kind matches: the entry's `kind`, `trigger` and `category`, when strings. */
export function kindsOf(entry: Entry): string[];

/** An ISO time or an age ("90s", "30m", "12h", "7d", "2w" before `now`) in milliseconds; NaN if neither. */
export function parseTime(text: string, now?: number): number;

/** Cursor text (opaque; versioned "r1."). Exposed for tools that store cursors. */
export function encodeCursor(state: unknown): string;
export function decodeCursor(text: string): unknown;

export const FINGERPRINT_BYTES: number;
export const DEFAULT_SETTLE_MS: number;
export const DEFAULT_TAIL_GRACE_MS: number;
