// The reader: every entry of a recordings file (or its quarantine file) after a cursor, in append order across
// its segments — archives in rotation order, then the live file — while other processes append and rotate.
// It only needs node:fs; the wasm core is never loaded. How the cursor stays exact: docs/reading.md.
//
// Damage is reported, never hidden and never fatal: a complete line that is not a JSON object (torn by a
// crash, edited by hand, not UTF-8) is skipped and reported with its segment and byte offset; blank lines
// (which the writer may leave after a torn tail) are skipped silently.

import { closeQuietly, fs as nodeFs } from "../builtins.js";
import { readAt } from "../io.js";
import { listSegments, quarantinePath, resolveTarget } from "../paths.js";
import { CursorError, FINGERPRINT_BYTES, cursorsAt, decodeCursor, encodeCursor, fingerprintOf, freshState } from "./cursor.js";
import { makeFilter } from "./filter.js";

/** An archive read to its end and unchanged this long is folded into the cursor's base: far longer than a
 *  writer stays between its open and its write, and than the writer's stale-lock limit. */
export const DEFAULT_SETTLE_MS = 60_000;
/** An archive's unterminated last line is consumed as damage once the archive is unchanged for this long. */
export const DEFAULT_TAIL_GRACE_MS = 60_000;
/** Read size. Lines longer than this are gathered across reads (entries may be 16 MiB). */
const CHUNK_BYTES = 1024 * 1024;
/** Rotations seen while reading that the reader goes round again for, before it lets the next call catch up. */
const PASSES = 4;

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
    const target = resolveTarget(options);
    this.main = target.file;
    this.source = target.source;
    this.quarantine = Boolean(options.quarantine);
    this.file = this.quarantine ? quarantinePath(this.main) : this.main;
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

  /** The (dev, inode) of each listed segment ("gone" when it vanished), to see whether a rotation happened. */
  #identities(list) {
    return list.map((s) => {
      try {
        const st = this.fs.statSync(s.path);
        return `${st.dev}:${st.ino}`;
      } catch {
        return "gone";
      }
    });
  }

  /** The listing's identities as one string, to compare two listings. */
  #signature(list, ids = this.#identities(list)) {
    return list.map((s, i) => `${s.key ?? "live"}=${ids[i]}`).join(",");
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
    for (let pass = 0; pass < PASSES; pass++) {
      const list = listSegments(this.file, { fs: this.fs });
      const ids = this.#identities(list);
      const before = this.#signature(list, ids);
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
        yield* this.#readSegment(seg, ids[i], i === list.length - 1, prefixSettled, seenThisPass, (settled) => {
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

  *#readSegment(seg, listedAs, isLast, prefixSettled, seenThisPass, reportSettled) {
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
      // The live path names another file than when it was listed: it was rotated meanwhile, and archives this
      // listing does not hold come before the new file. The next pass reads them, then it, in append order.
      if (!seg.archive && listedAs !== `${st.dev}:${st.ino}`) {
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
      const cursorAt = cursorsAt(this.state, rec);

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
