// Reading recordings back: every entry of a recordings file, in append order across its segments (archives in
// rotation order, then the live file), with a cursor to resume from that survives rotation and restarts.
// Contract: plugin/read.d.ts. This module never loads the wasm core: reading only needs node:fs.
//
// How the cursor works
// --------------------
// A recordings file is a family of segments: `<stem>.<UTC stamp>[.<n>].jsonl` archives, then the live file
// (see the writer's concurrency contract in writer.js). Rotation renames the live file, and a rename keeps the
// inode, so a segment is identified by (device, inode) before and after it is rotated, plus a fingerprint of
// its first bytes (they start with `ts` and `eid`, so no two segments begin alike) that catches a reused inode
// and finds a segment again after it was copied to another disk. The cursor holds, for every segment it has
// read from, that identity and the byte offset just past the last complete line it consumed.
//
// * Resuming seeks straight to those offsets: nothing before the cursor is read again (a stat per segment
//   and a 64-byte fingerprint read for segments that grew are all it costs).
// * Only complete lines are consumed. A last line without its "\n" may be a write still in progress (a large
//   write becomes visible page by page), so the reader stops before it and takes it next time. The one
//   exception is an archive that has not changed for `tailGraceMs`: no writer is in the middle of it any more,
//   so its unterminated tail is reported as damage and consumed.
// * A writer that opened the live file just before another rotated it appends its line to the new archive
//   (writer.js). The cursor keeps the offset of such a segment, so that late line is read once, later.
// * To keep the cursor short, archives that were read to the end and have not changed for `settleMs` are
//   folded into a "base": the last such archive's name, their count and their total size. On resume those
//   archives are only stat'ed: if their count or total size changed (an archive deleted, or grown by a write
//   that stalled for longer than `settleMs` between its open and its write), the reader says so in `notes`.
//
// Damage is reported, not hidden and never fatal: a complete line that is not a JSON object (torn by a crash,
// edited by hand, not UTF-8) is skipped and reported with its segment and byte offset; blank lines (which the
// writer may leave after a torn tail) are skipped silently.

import { closeQuietly, fs as nodeFs, path } from "./builtins.js";
import { resolveTarget as resolveFile, quarantinePath as quarantineFile, listSegments, isSegmentKey } from "./paths.js";
import { createHash } from "node:crypto";
import { readAt } from "./io.js";

/** Bytes of a segment's beginning that identify it (a core line starts `{"ts":"<24 chars>","eid":"<13>"`,
 *  49 bytes: 64 covers both stamps). */
export const FINGERPRINT_BYTES = 64;
/** An archive unchanged for this long is folded into the cursor's base once read to its end (1 minute: the
 *  writer's open-to-write window is microseconds, its stale-lock limit 10 s). */
export const DEFAULT_SETTLE_MS = 60_000;
/** An archive's unterminated last line is consumed as damage once the archive is unchanged for this long. */
export const DEFAULT_TAIL_GRACE_MS = 60_000;
/** Read size. Lines longer than this are gathered across reads (entries may be 16 MiB). */
const CHUNK_BYTES = 1024 * 1024;
const CURSOR_VERSION = "r1";

// ---------------------------------------------------------------------------------------------------------
// Where recordings are

// resolveTarget and quarantinePath under the names this module has always exported.
export { resolveFile, quarantineFile, listSegments };

// ---------------------------------------------------------------------------------------------------------
// Cursor

/** The error thrown for a cursor that cannot be used; `code` is "EBADCURSOR" or "EWRONGFILE". */
export class CursorError extends Error {
  constructor(code, message) {
    super(message);
    this.name = "CursorError";
    this.code = code;
  }
}

const b36 = (n) => n.toString(36);
function num36(s) {
  if (!/^[0-9a-z]+$/.test(s)) throw new CursorError("EBADCURSOR", `not a cursor (bad number "${s}")`);
  const n = Number.parseInt(s, 36);
  if (!Number.isSafeInteger(n)) throw new CursorError("EBADCURSOR", "not a cursor (number out of range)");
  return n;
}

/** State: { family: "m"|"q", base: { key, count, bytes }, segs: [{ dev, ino, off, fpLen, fp }] }. */
function freshState(family) {
  return { family, base: { key: null, count: 0, bytes: 0 }, segs: [] };
}

function segPart(s) {
  return `${b36(s.dev)}-${b36(s.ino)}-${b36(s.off)}-${b36(s.fpLen)}-${s.fp}`;
}

function basePart(b) {
  return `${b.key ?? "0"}-${b36(b.count)}-${b36(b.bytes)}`;
}

/** The cursor as text: `r1.<family>.<base>.<segment>...`. Opaque to callers; the version prefix lets a
 *  later format read this one. */
export function encodeCursor(state) {
  return [CURSOR_VERSION, state.family, basePart(state.base), ...state.segs.map(segPart)].join(".");
}

/** Parses a cursor made by encodeCursor; throws CursorError. */
export function decodeCursor(text) {
  if (typeof text !== "string") throw new CursorError("EBADCURSOR", "not a cursor (not a string)");
  const parts = text.trim().split(".");
  if (parts[0] !== CURSOR_VERSION || parts.length < 3) {
    throw new CursorError("EBADCURSOR", `not a cursor made by this version of record (expected "${CURSOR_VERSION}.…")`);
  }
  if (parts[1] !== "m" && parts[1] !== "q") throw new CursorError("EBADCURSOR", "not a cursor (bad family)");
  const b = parts[2].split("-");
  if (b.length !== 3 || !(b[0] === "0" || isSegmentKey(b[0]))) {
    throw new CursorError("EBADCURSOR", "not a cursor (bad base)");
  }
  const state = freshState(parts[1]);
  state.base = { key: b[0] === "0" ? null : b[0], count: num36(b[1]), bytes: num36(b[2]) };
  for (const p of parts.slice(3)) {
    const f = p.split("-");
    if (f.length !== 5 || !/^[0-9a-f]{0,16}$/.test(f[4])) throw new CursorError("EBADCURSOR", "not a cursor (bad segment)");
    state.segs.push({ dev: num36(f[0]), ino: num36(f[1]), off: num36(f[2]), fpLen: num36(f[3]), fp: f[4] });
  }
  return state;
}

function fingerprintOf(bytes) {
  return createHash("sha1").update(bytes).digest("hex").slice(0, 16);
}


// ---------------------------------------------------------------------------------------------------------
// Filters

function asList(v) {
  if (v == null) return [];
  return (Array.isArray(v) ? v : [v]).map(String);
}

/** Parses a time for --since-time: an RFC 3339 / ISO 8601 time or date, or a age such as "90s", "30m",
 *  "12h", "7d", "2w" (that long before `now`). Returns milliseconds since the epoch, or NaN. */
export function parseTime(text, now = Date.now()) {
  const s = String(text).trim();
  const rel = /^(\d+(?:\.\d+)?)\s*(s|m|h|d|w)$/i.exec(s);
  if (rel) {
    const unit = { s: 1e3, m: 60e3, h: 3600e3, d: 86400e3, w: 604800e3 }[rel[2].toLowerCase()];
    return now - Number(rel[1]) * unit;
  }
  return Date.parse(s);
}

/** The kinds an entry answers to for --kind: its `kind`, `trigger` (automatic captures say what triggered
 *  them) and `category` members, when they are strings. */
export function kindsOf(entry) {
  const out = [];
  for (const k of ["kind", "trigger", "category"]) if (typeof entry[k] === "string") out.push(entry[k]);
  return out;
}

/**
 * A predicate over parsed entries. Each filter may be one value or a list (any of them matches); different
 * filters must all match. session, capture: exact. repo: the entry's `repo`, `origin` or `git_dir`. kind: see
 * kindsOf, case-insensitive. eid: exact or a prefix of at least 4 characters. sinceTime: `ts` at or after
 * that time (milliseconds, or text for parseTime); entries whose `ts` is not a time do not match.
 */
export function makeFilter(filter = {}, now = Date.now()) {
  const sessions = asList(filter.session);
  const repos = asList(filter.repo);
  const captures = asList(filter.capture);
  const kinds = asList(filter.kind).map((k) => k.toLowerCase());
  const eids = asList(filter.eid);
  let since = filter.sinceTime;
  if (since != null && typeof since !== "number") since = parseTime(since, now);
  let until = filter.untilTime;
  if (until != null && typeof until !== "number") until = parseTime(until, now);
  const checks = [];
  if (sessions.length) checks.push((e) => sessions.includes(e.session));
  if (repos.length) checks.push((e) => repos.includes(e.repo) || repos.includes(e.origin) || repos.includes(e.git_dir));
  if (captures.length) checks.push((e) => captures.includes(e.capture));
  if (kinds.length) checks.push((e) => kindsOf(e).some((k) => kinds.includes(k.toLowerCase())));
  if (eids.length) {
    checks.push((e) => typeof e.eid === "string" && eids.some((x) => e.eid === x || (x.length >= 4 && e.eid.startsWith(x))));
  }
  if (since != null || until != null) {
    checks.push((e) => {
      const t = typeof e.ts === "string" ? Date.parse(e.ts) : NaN;
      if (Number.isNaN(t)) return false;
      return (since == null || t >= since) && (until == null || t < until);
    });
  }
  if (checks.length === 0) return null;
  return (e) => checks.every((c) => c(e));
}

// ---------------------------------------------------------------------------------------------------------
// The reader

const utf8Strict = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads the entries of a recordings file (or its quarantine file) after a cursor. Iterate `records()` (once);
 * afterwards `cursor` is where to resume, `damage` lists the skipped lines and `notes` anything else worth
 * telling (segments gone, unreadable, shrunk). Never throws while reading; the constructor throws CursorError
 * for a bad `since`.
 */
export class RecordingsReader {
  constructor(options = {}) {
    this.fs = options.fs ?? nodeFs;
    this.now = options.now ?? Date.now;
    this.settleMs = options.settleMs ?? DEFAULT_SETTLE_MS;
    this.tailGraceMs = options.tailGraceMs ?? DEFAULT_TAIL_GRACE_MS;
    const target = resolveFile(options);
    this.main = target.file;
    this.source = target.source;
    this.quarantine = Boolean(options.quarantine);
    this.file = this.quarantine ? quarantineFile(this.main) : this.main;
    const family = this.quarantine ? "q" : "m";
    if (options.since != null && options.since !== "") {
      this.state = decodeCursor(options.since);
      if (this.state.family !== family) {
        throw new CursorError(
          "EWRONGFILE",
          this.state.family === "q" ? "this cursor is for the quarantine file: add --quarantine" : "this cursor is for the main file, not the quarantine file",
        );
      }
    } else {
      this.state = freshState(family);
    }
    this.filter = typeof options.filter === "function" ? options.filter : makeFilter(options.filter ?? {}, this.now());
    this.onDamage = options.onDamage;
    this.damage = [];
    this.notes = [];
    this.pending = []; // unterminated last lines left unread: { segment, offset, length, archive }
    this.unreadable = false;
    this.stats = { segments: 0, bytes: 0, lines: 0, entries: 0, matched: 0, damaged: 0 };
    this.started = false;
  }

  /** Where to resume after everything read so far. */
  get cursor() {
    return encodeCursor(this.state);
  }

  #note(text) {
    if (!this.notes.includes(text)) this.notes.push(text);
  }

  #damage(d) {
    this.damage.push(d);
    this.stats.damaged++;
    if (this.onDamage) {
      try {
        this.onDamage(d);
      } catch {
        // a reporter's failure is not the reader's
      }
    }
  }

  /** Identities of the listing, to see whether a rotation happened while we read. */
  #signature(list) {
    const parts = [];
    for (const s of list) {
      let id = "?";
      try {
        const st = this.fs.statSync(s.path);
        id = `${st.dev}:${st.ino}`;
      } catch {
        id = "gone";
      }
      parts.push(`${s.key ?? "live"}=${id}`);
    }
    return parts.join(",");
  }

  /**
   * Yields { entry, text, segment, offset, length, cursor } for each entry after the cursor that passes the
   * filter, in append order. `text` is the line exactly as stored (without its "\n"); `cursor` is where to
   * resume after this entry.
   */
  *records() {
    if (this.started) throw new Error("records() can be iterated once per reader");
    this.started = true;
    const state = this.state;
    const claimed = new Set(); // cursor segs matched to a segment in some pass
    const startBase = { ...state.base }; // folding during the first pass moves state.base on
    for (let pass = 0; pass < 4; pass++) {
      const list = listSegments(this.file, { fs: this.fs });
      const before = this.#signature(list);
      const seenThisPass = new Set();
      this.pending = [];
      let baseCount = 0;
      let baseBytes = 0;
      let prefixSettled = true; // every archive so far is folded into the base
      for (let i = 0; i < list.length; i++) {
        const seg = list[i];
        if (seg.archive && state.base.key !== null && seg.key <= state.base.key) {
          if (pass === 0 && startBase.key !== null && seg.key <= startBase.key) {
            baseCount++;
            try {
              baseBytes += this.fs.statSync(seg.path).size;
            } catch {
              // counted as missing below
            }
          }
          continue;
        }
        yield* this.#readSegment(seg, i === list.length - 1, prefixSettled, seenThisPass, (settled) => {
          if (!settled) prefixSettled = false;
        });
      }
      if (pass === 0 && startBase.key !== null) this.#checkBase(startBase, baseCount, baseBytes);
      for (const s of seenThisPass) claimed.add(s);
      const after = this.#signature(listSegments(this.file, { fs: this.fs }));
      if (after === before && !this.unreadable) {
        // A stable listing: cursor segments that matched nothing are gone (deleted, or moved away).
        const gone = state.segs.filter((s) => !claimed.has(s));
        if (gone.length) {
          this.#note(
            `${gone.length} segment(s) the cursor had read from are gone (deleted or moved away); ` +
              `entries appended to them after the cursor cannot be read`,
          );
          state.segs = state.segs.filter((s) => claimed.has(s));
        }
        break;
      }
      // A rotation happened while we read: go round again so nothing renamed under us is left behind.
    }
  }

  #checkBase(b, count, bytes) {
    if (count < b.count) {
      this.#note(`${b.count - count} archive(s) read before the cursor are missing (deleted or moved away)`);
    } else if (bytes > b.bytes && count === b.count) {
      this.#note(
        `archives read before the cursor grew by ${bytes - b.bytes} bytes after they were read ` +
          `(a write that stalled for over ${Math.round(this.settleMs / 1000)} s); those lines were not read again`,
      );
    } else if (bytes < b.bytes) {
      this.#note(`archives read before the cursor shrank by ${b.bytes - bytes} bytes (edited by hand?)`);
    }
  }

  /** Finds the cursor's record for an open segment, or null (a segment never read from). */
  #match(fd, st, seenThisPass) {
    const segs = this.state.segs;
    const heads = new Map(); // fingerprint length → fingerprint of this segment's beginning
    const headOf = (len) => {
      if (!heads.has(len)) heads.set(len, st.size >= len ? fingerprintOf(readAt(this.fs, fd, len, 0)) : null);
      return heads.get(len);
    };
    for (const s of segs) {
      if (s.dev === st.dev && s.ino === st.ino) {
        if (s.off === 0) return s;
        if (headOf(s.fpLen) === s.fp) return s;
        // Same inode, different beginning: the inode was reused by a new file. Forget the old record.
        this.state.segs = segs.filter((x) => x !== s);
        return null;
      }
    }
    // Not by inode: maybe the same segment copied elsewhere (a restored backup): match by fingerprint.
    for (const s of this.state.segs) {
      if (s.off === 0 || st.size < s.fpLen || seenThisPass.has(s)) continue;
      if (headOf(s.fpLen) === s.fp) {
        s.dev = st.dev;
        s.ino = st.ino;
        return s;
      }
    }
    return null;
  }

  *#readSegment(seg, isLast, prefixSettled, seenThisPass, reportSettled) {
    const fs = this.fs;
    let fd;
    try {
      fd = fs.openSync(seg.path, "r");
    } catch (e) {
      if (e && e.code !== "ENOENT") {
        this.#note(`cannot read ${seg.path}: ${(e && e.code) || e}`);
        this.unreadable = true;
      }
      reportSettled(false);
      return;
    }
    try {
      const st = fs.fstatSync(fd);
      if (!st.isFile()) {
        this.#note(`${seg.path} is not a regular file; not read`);
        reportSettled(false);
        return;
      }
      this.stats.segments++;
      let rec = this.#match(fd, st, seenThisPass);
      if (rec && seenThisPass.has(rec)) {
        reportSettled(false);
        return; // the same inode listed twice (a rename between readdir and open): read once
      }
      let start = rec ? rec.off : 0;
      if (rec && st.size < start) {
        this.#note(`${seg.path} is shorter than where the cursor left it (${st.size} < ${start} bytes): edited by hand? read from its start`);
        start = 0;
        rec.off = 0;
      }
      // A segment enters the cursor once a line of it is consumed (an empty one would add nothing).
      if (!rec) rec = { dev: st.dev, ino: st.ino, off: 0, fpLen: 0, fp: "" };
      seenThisPass.add(rec);
      const quiet = this.now() - st.mtimeMs >= this.tailGraceMs;
      const consumeTail = seg.archive && !isLast && quiet;
      // Cursor text around this segment's part, so each entry's cursor is one concatenation.
      let pre = null;
      let post = "";
      const cursorAt = (off) => {
        if (pre === null) {
          const idx = this.state.segs.indexOf(rec);
          pre = encodeCursor({ ...this.state, segs: this.state.segs.slice(0, idx) });
          post = this.state.segs.slice(idx + 1).map((s) => "." + segPart(s)).join("");
        }
        return `${pre}.${b36(rec.dev)}-${b36(rec.ino)}-${b36(off)}-${b36(rec.fpLen)}-${rec.fp}${post}`;
      };

      let pos = start; // next byte to read
      let lineStart = start;
      let carry = null; // bytes of an unfinished line from earlier reads
      const end = st.size;
      while (pos < end) {
        const want = Math.min(CHUNK_BYTES, end - pos);
        const chunk = readAt(fs, fd, want, pos);
        if (chunk.length === 0) break;
        pos += chunk.length;
        this.stats.bytes += chunk.length;
        let buf = carry ? Buffer.concat([carry, chunk]) : chunk;
        carry = null;
        let from = 0;
        for (;;) {
          const nl = buf.indexOf(10, from);
          if (nl < 0) break;
          const r = this.#line(buf, from, nl, seg.path, lineStart);
          lineStart += nl + 1 - from;
          from = nl + 1;
          this.#advance(rec, fd, lineStart);
          if (r) {
            r.cursor = cursorAt(lineStart);
            yield r;
          }
        }
        if (from < buf.length) carry = Buffer.from(buf.subarray(from)); // copy: `chunk` may be reused
      }
      if (carry && carry.length) {
        if (consumeTail) {
          this.#damage({ segment: seg.path, offset: lineStart, length: carry.length, reason: "unterminated last line (torn by a crash?)", preview: preview(carry) });
          lineStart += carry.length;
          this.#advance(rec, fd, lineStart);
        } else {
          // A write in progress, or a line torn by a crash that the next append will end with "\n":
          // not consumed, so it is read (or reported) once it is complete.
          this.pending.push({ segment: seg.path, offset: lineStart, length: carry.length, archive: seg.archive });
        }
      }
      // Fold a fully read, quiet archive into the base when all archives before it are folded too.
      const settled =
        seg.archive && prefixSettled && rec.off === st.size && this.now() - st.mtimeMs >= this.settleMs && !isLast;
      if (settled) {
        this.state.base = { key: seg.key, count: this.state.base.count + 1, bytes: this.state.base.bytes + st.size };
        this.state.segs = this.state.segs.filter((s) => s !== rec);
        // Do not "forget" it this pass: it is accounted for by the base.
        seenThisPass.delete(rec);
      }
      reportSettled(settled);
    } catch (e) {
      this.#note(`reading ${seg.path} failed: ${(e && e.code) || (e && e.message) || e}`);
      this.unreadable = true;
      reportSettled(false);
    } finally {
      closeQuietly(fs, fd);
    }
  }

  /** Moves a segment's record past a consumed line; takes the fingerprint once the first line is in. */
  #advance(rec, fd, off) {
    if (rec.fpLen === 0 && off > 0) {
      const head = readAt(this.fs, fd, Math.min(FINGERPRINT_BYTES, off), 0);
      rec.fpLen = head.length;
      rec.fp = fingerprintOf(head);
      if (!this.state.segs.includes(rec)) this.state.segs.push(rec);
    }
    rec.off = off;
  }

  /** One complete line (bytes [from, nl) of buf, at `offset` in its segment): a record, or null. */
  #line(buf, from, nl, segment, offset) {
    let end = nl;
    if (end > from && buf[end - 1] === 13) end--; // tolerate CRLF from a hand edit
    let blank = true;
    for (let i = from; i < end; i++) {
      const c = buf[i];
      if (c !== 32 && c !== 9 && c !== 13) {
        blank = false;
        break;
      }
    }
    if (blank) return null;
    this.stats.lines++;
    let text = buf.toString("utf8", from, end);
    if (text.includes("\uFFFD")) {
      try {
        text = utf8Strict.decode(buf.subarray(from, end));
      } catch {
        this.#damage({ segment, offset, length: nl - from, reason: "not valid UTF-8", preview: preview(buf.subarray(from, end)) });
        return null;
      }
    }
    let entry;
    try {
      entry = JSON.parse(text);
    } catch {
      this.#damage({ segment, offset, length: nl - from, reason: "not valid JSON", preview: preview(text) });
      return null;
    }
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) {
      this.#damage({ segment, offset, length: nl - from, reason: "not a JSON object", preview: preview(text) });
      return null;
    }
    this.stats.entries++;
    if (this.filter && !this.filter(entry)) return null;
    this.stats.matched++;
    return { entry, text, segment, offset, length: nl + 1 - from, cursor: "" };
  }
}


function preview(x) {
  const s = typeof x === "string" ? x : Buffer.from(x).toString("utf8");
  return s.length > 80 ? s.slice(0, 80) + "…" : s;
}

/** Reads everything after `options.since` into memory: { records, cursor, damage, notes, stats }. */
export function readRecordings(options = {}) {
  const reader = new RecordingsReader(options);
  const records = [];
  const limit = options.limit ?? Infinity;
  for (const r of reader.records()) {
    records.push(r);
    if (records.length >= limit) break;
  }
  // With a limit, resume after the last record returned, not after everything scanned.
  const cursor = records.length >= limit && records.length > 0 ? records[records.length - 1].cursor : reader.cursor;
  return { records, cursor, damage: reader.damage, notes: reader.notes, stats: reader.stats, file: reader.file };
}

// ---------------------------------------------------------------------------------------------------------
// Sessions

/** Sessions seen, most recent first: [{ session, entries, first, last, repos, agents, models }]. Entries
 *  without a session are grouped under session null. Options as for RecordingsReader (filters apply). */
export function listSessions(options = {}) {
  const reader = new RecordingsReader(options);
  const by = new Map();
  for (const r of reader.records()) {
    const e = r.entry;
    const key = typeof e.session === "string" ? e.session : null;
    let s = by.get(key);
    if (!s) {
      s = { session: key, entries: 0, first: null, last: null, repos: [], agents: [], models: [] };
      by.set(key, s);
    }
    s.entries++;
    if (typeof e.ts === "string") {
      if (s.first === null || e.ts < s.first) s.first = e.ts;
      if (s.last === null || e.ts > s.last) s.last = e.ts;
    }
    for (const [k, list] of [["repo", s.repos], ["agent", s.agents], ["model", s.models]]) {
      if (typeof e[k] === "string" && !list.includes(e[k])) list.push(e[k]);
    }
  }
  const sessions = [...by.values()].sort((a, b) => {
    const x = a.last ?? "";
    const y = b.last ?? "";
    return x < y ? 1 : x > y ? -1 : 0;
  });
  return { sessions, damage: reader.damage, notes: reader.notes, stats: reader.stats, file: reader.file };
}

// ---------------------------------------------------------------------------------------------------------
// Markdown

/**
 * The top-level members of one JSON object text, in order and with duplicates, each value as its exact
 * source text: [[key, rawValue], ...]. The text must be valid JSON (a line the reader accepted).
 */
export function rawMembers(text) {
  const out = [];
  let i = 0;
  const n = text.length;
  const ws = () => {
    while (i < n && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
  };
  const skipString = () => {
    i++;
    while (i < n && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
  };
  ws();
  if (text[i] !== "{") return out;
  i++;
  for (;;) {
    ws();
    if (i >= n || text[i] === "}") break;
    const ks = i;
    skipString();
    const key = JSON.parse(text.slice(ks, i));
    ws();
    i++; // ':'
    ws();
    const vs = i;
    let depth = 0;
    while (i < n) {
      const c = text[i];
      if (c === '"') {
        skipString();
        if (depth === 0) break;
        continue;
      }
      if (c === "{" || c === "[") depth++;
      else if (c === "}" || c === "]") {
        if (depth === 0) break;
        depth--;
        if (depth === 0) {
          i++;
          break;
        }
      } else if (c === "," && depth === 0) break;
      i++;
    }
    let ve = i;
    while (ve > vs && " \t\r\n".includes(text[ve - 1])) ve--;
    out.push([key, text.slice(vs, ve)]);
    ws();
    if (text[i] === ",") i++;
  }
  return out;
}

/** Stamps shown in the heading lines of an entry, not in its body. */
const STAMP_KEYS = new Set(["ts", "eid", "capture", "trigger", "pwd", "repo", "git_dir", "origin", "head", "branch", "session", "model", "agent", "client", "redacted", "redaction_rules"]);
/** Body members shown first, in this order, when present (the rest follow in the entry's order). */
const LEAD_KEYS = ["category", "kind", "finding", "result", "lesson", "note", "sentiment"];
/** A title is "<label> — <text>": the label from the first of these that is a string... */
const TITLE_LABEL_KEYS = ["category", "kind", "trigger"];
/** ...the text from the first of these. */
const TITLE_TEXT_KEYS = ["title", "summary", "finding", "lesson", "note", "raw"];

function code(s) {
  const t = String(s).replace(/\n/g, " ");
  let fence = "`";
  while (t.includes(fence)) fence += "`";
  const pad = t.startsWith("`") || t.endsWith("`") ? " " : "";
  return `${fence}${pad}${t}${pad}${fence}`;
}

function label(key) {
  const k = key.replace(/_/g, " ");
  return k.charAt(0).toUpperCase() + k.slice(1);
}

function oneLine(s, max) {
  const t = s.replace(/\s+/g, " ").trim();
  return t.length > max ? t.slice(0, max - 1).trimEnd() + "…" : t;
}

/** A member's value for Markdown: strings as their text, anything else as its JSON exactly as written. */
function valueMarkdown(raw) {
  if (raw === '""') return { block: false, text: code(raw) };
  if (raw.startsWith('"')) {
    let s;
    try {
      s = JSON.parse(raw);
    } catch {
      s = raw;
    }
    if (s.includes("\n")) return { block: true, text: s };
    return { block: false, text: s };
  }
  if (raw.length > 80 || raw.includes("\n")) return { block: true, text: raw, json: true };
  return { block: false, text: code(raw) };
}

function indentBlock(text, json) {
  if (json) {
    let fence = "```";
    while (text.includes(fence)) fence += "`";
    return `${fence}json\n${text}\n${fence}`;
  }
  return text
    .split("\n")
    .map((l) => (l === "" ? ">" : `> ${l}`))
    .join("\n");
}

/**
 * Markdown for one entry, from its line as stored (so every value is shown as written): a heading with a
 * title and the time, where it was recorded (repo, branch, head, pwd), how (capture, trigger, session, model,
 * agent), then its members — category, finding, result, lesson, note, sentiment first — with strings as text
 * and everything else as its JSON exactly as written. `raw` (the verbatim input kept beside what was read out
 * of text) is shown only when nothing else was.
 */
export function entryMarkdown(text, { heading = "##" } = {}) {
  const members = rawMembers(text);
  const get = (k) => {
    for (const [key, raw] of members) if (key === k) return raw;
    return undefined;
  };
  const str = (k) => {
    const raw = get(k);
    if (raw === undefined || !raw.startsWith('"')) return undefined;
    try {
      return JSON.parse(raw);
    } catch {
      return undefined;
    }
  };
  const firstOf = (keys) => {
    for (const k of keys) {
      const v = str(k);
      if (v && v.trim()) return v;
    }
    return "";
  };
  const tl = firstOf(TITLE_LABEL_KEYS);
  const tt = firstOf(TITLE_TEXT_KEYS);
  const title = [tl && oneLine(tl, 40), tt && oneLine(tt, 72)].filter(Boolean).join(" — ") || "(no text)";
  const ts = str("ts");
  const lines = [`${heading} ${title}`, ""];
  const when = ts ? ts : "time unknown";
  const eid = str("eid");
  lines.push(`- **When:** ${when}${eid ? ` · eid ${code(eid)}` : ""}`);
  const where = [];
  const repo = str("repo");
  const branch = str("branch");
  const head = str("head");
  const pwd = str("pwd");
  if (repo) where.push(`repo ${code(repo)}`);
  if (branch) where.push(`branch ${code(branch)}`);
  if (head) where.push(`head ${code(head.length > 12 ? head.slice(0, 12) : head)}`);
  if (pwd) where.push(`in ${code(pwd)}`);
  if (where.length) lines.push(`- **Where:** ${where.join(", ")}`);
  const how = [];
  for (const k of ["capture", "trigger", "session", "model", "agent", "client"]) {
    const v = str(k);
    if (v) how.push(`${k} ${code(v)}`);
  }
  if (how.length) lines.push(`- **How:** ${how.join(", ")}`);
  const body = members.filter(([k]) => !STAMP_KEYS.has(k));
  const hasContent = body.some(([k]) => k !== "raw");
  const shown = body.filter(([k]) => k !== "raw" || !hasContent);
  const ordered = [
    ...LEAD_KEYS.flatMap((k) => shown.filter(([key]) => key === k)),
    ...shown.filter(([k]) => !LEAD_KEYS.includes(k)),
  ];
  const blocks = [];
  const items = [];
  for (const [k, raw] of ordered) {
    const v = valueMarkdown(raw);
    if (v.block) blocks.push(`**${label(k)}:**\n\n${indentBlock(v.text, v.json)}`);
    else items.push(`- **${label(k)}:** ${v.text}`);
  }
  lines.push(...items);
  if (blocks.length) lines.push("", blocks.join("\n\n"));
  const redacted = get("redacted");
  if (redacted !== undefined) lines.push("", `_Secrets were redacted (rules ${code(str("redaction_rules") ?? "?")})._`);
  return lines.join("\n") + "\n";
}

/** Markdown for several entries (records from the reader, or line texts), under one title. */
export function entriesMarkdown(items, { title } = {}) {
  const texts = items.map((x) => (typeof x === "string" ? x : x.text));
  const parts = [];
  const n = texts.length;
  parts.push(`# ${title ?? `${n} recording${n === 1 ? "" : "s"}`}\n`);
  for (const t of texts) parts.push(entryMarkdown(t, { heading: "##" }));
  return parts.join("\n");
}

/** The entries with this eid (exact, or a prefix of at least 4 characters): main file first, then the
 *  quarantine file. Returns { records, ambiguous } (ambiguous: more than one eid matched a prefix). */
export function findEntries(eid, options = {}) {
  const out = [];
  for (const quarantine of [false, true]) {
    const reader = new RecordingsReader({ ...options, since: null, quarantine, filter: { eid } });
    for (const r of reader.records()) out.push({ ...r, quarantine });
  }
  const eids = new Set(out.map((r) => r.entry.eid));
  return { records: out, ambiguous: eids.size > 1 };
}
