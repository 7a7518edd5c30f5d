// Catching the index up with the recordings files, through the reader's cursor.
//
// Exactly once: each batch is one SQLite transaction that reads the stored cursor, reads the entries after it
// and stores the new cursor with their rows, so a crash or a second process catching up at the same time can
// neither skip nor repeat an entry (the second waits for the write lock, then starts from the first one's
// cursor). The reader's cursor survives rotation and many writers (plugin/read/reader.js). An eid already in the
// index (a caller who supplied the same `eid` twice) keeps its first entry. Damaged lines are skipped and
// reported; the quarantine file is never read. The recordings files are only ever read.

import { CursorError, RecordingsReader } from "../read/index.js";
import { ENTRY_COLUMNS, bindMarks, bulkCache, clear, getMeta, setMeta, transaction } from "./schema.js";
import { rowOf } from "./row.js";
import { indexTotal, outdatesCounts, refreshCounts } from "./counts.js";

/** Entries per transaction: large enough that commits are a small part of a first build, small enough that
 *  a concurrent recall waits at most a fraction of a second for the lock. */
export const BATCH = 2000;

const INSERT_ENTRY = `INSERT OR IGNORE INTO entries (${ENTRY_COLUMNS.join(", ")}) VALUES (${bindMarks(ENTRY_COLUMNS.length)})`;
const TEAM_COLUMNS = [...ENTRY_COLUMNS, "machine", "host", "team_id", "team_key"];
const INSERT_TEAM = `INSERT OR IGNORE INTO entries (${TEAM_COLUMNS.join(", ")}) VALUES (${bindMarks(TEAM_COLUMNS.length)})`;

/**
 * Brings the index up to date with `file`. Options: env, cwd, now, fs (for the reader); onProgress({entries,
 * bytes}) after each batch. Returns { added, duplicates, damaged: [Damage], notes, rebuilt }.
 */
export function catchUp(db, file, options = {}) {
  const out = { added: 0, duplicates: 0, damaged: [], notes: [], rebuilt: false };
  const progress = { bytes: 0 };
  let restore = null; // a catch-up past its first batch is a bulk write: the larger page cache until it ends
  let before = 0;
  try {
    for (let round = 0; ; round++) {
      if (round === 1) {
        restore = bulkCache(db);
        before = indexTotal(db) - out.added;
      }
      const done = catchUpBatch(db, file, options, out, progress);
      options.onProgress?.({ entries: out.added, bytes: progress.bytes });
      if (!done) continue;
      // A bulk catch-up that outdated every word count (a first build) counts the common words anew at once.
      if (restore && outdatesCounts(before, indexTotal(db))) refreshCounts(db);
      return out;
    }
  } finally {
    restore?.();
  }
}

/** One batch of catchUp in one transaction; true when the files are read to their end. */
function catchUpBatch(db, file, options, out, progress) {
  return transaction(db, () => {
    if (getMeta(db, "file") !== file) {
      // A new index, or one whose file family changed: everything in it is from elsewhere.
      if (getMeta(db, "file") !== null) out.rebuilt = true;
      clear(db);
      setMeta(db, "file", file);
    }
    const since = getMeta(db, "cursor");
    const reader = readerFrom(db, file, since, options, out);
    let n = 0;
    let last = null;
    for (const r of reader.records()) {
      if (insert(db, r)) out.added++;
      else out.duplicates++;
      progress.bytes += r.length;
      last = r.cursor;
      if (++n >= BATCH) break;
    }
    let done = n < BATCH;
    out.damaged.push(...reader.damage);
    for (const note of reader.notes) if (!out.notes.includes(note)) out.notes.push(note);
    if (done && gone(reader.notes) && !out.rebuilt) {
      // Segments read before are gone: the files changed under the index, so it is made again from them.
      clear(db);
      setMeta(db, "file", file);
      out.rebuilt = true;
      out.added = 0;
      done = false;
    } else {
      // Unchanged, the cursor is not written again: a catch-up that found nothing then writes nothing, and
      // closing the index has no log to fold back into it.
      const cursor = done ? reader.cursor : last;
      if (cursor !== since) setMeta(db, "cursor", cursor);
    }
    if (n) forgetAbsentWords(db);
    return done;
  });
}

function gone(notes) {
  return notes.some((n) => /are gone|are missing/.test(n));
}

function readerFrom(db, file, since, options, out) {
  const base = { file, env: options.env, cwd: options.cwd, now: options.now, fs: options.fs };
  try {
    return new RecordingsReader({ ...base, since });
  } catch (e) {
    if (!(e instanceof CursorError)) throw e;
    // A cursor this reader cannot use (another version wrote it): start again from the files.
    clear(db);
    setMeta(db, "file", file);
    out.rebuilt = true;
    return new RecordingsReader({ ...base, since: null });
  }
}

function insert(db, r) {
  return insertEntry(db, rowOf(r.entry, r.text));
}

/** Drops the cached counts of words no entry held: new entries may hold them now, and a word counted absent
 *  is left out of every match (other counts may stay until the index grows by a tenth: they only weigh). */
export function forgetAbsentWords(db) {
  db.exec("DELETE FROM df WHERE doc = 0");
}

/** Adds one row (rowOf's) with its FTS text and the eids it mentions; `team` = [machine, host, team_id,
 *  team_key] for a row pulled from the exported database. False when its eid (or team id) is there already. */
export function insertEntry(db, row, team = null) {
  const res = team ? db.run(INSERT_TEAM, ...row.values, ...team) : db.run(INSERT_ENTRY, ...row.values);
  if (Number(res.changes) === 0) return false;
  const id = Number(res.lastInsertRowid);
  db.run("INSERT INTO fts (rowid, body, names) VALUES (?, ?, ?)", id, row.body, row.names);
  for (const eid of row.refs) db.run("INSERT INTO refs (id, eid) VALUES (?, ?)", id, eid);
  return true;
}
