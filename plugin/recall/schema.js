// The recall index's tables. The index is derived: every row comes from a line of the recordings files, and
// deleting the file loses nothing (the next recall rebuilds it). One table shape with the exported database:
// the common columns of plugin/columns.js beside each entry's exact line.
//
//   entries  one row per entry: its eid (unique), its line exactly as stored, the common columns, the failure
//            fingerprint of an automatic failure (fp, plugin/read/episodes.js), the files
//            and commands it names (one per line), its time in milliseconds (for recency); a team row (pulled
//            from the exported database, team.js) also its machine and host, its id there and its repo key;
//            entries_scope holds what a search's filters read (search.js), so a match's candidates are checked
//            in a small index rather than in the rows, about a kilobyte each, read from disk in a fresh process
//   fts      FTS5 over what the entry says and the names it contains; contentless (the line is in entries)
//   vocab    how many entries each term occurs in (counts.js reads it for every common word at once)
//   refs     eid-like words an entry contains: an entry that names an earlier one's eid corrects or extends it
//   meta     the reader's cursor (where catching up resumes), the recordings file the index is of, and the
//            position reached in the exported database with the repositories pulled for

import { COLUMNS } from "../columns.js";

/** Bumped when the tables change; an index of another version is rebuilt from the files. */
export const SCHEMA_VERSION = 5;

export const ENTRY_COLUMNS = ["eid", "line", ...COLUMNS, "fp", "files", "commands", "t"];

const DDL = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS entries (
  id INTEGER PRIMARY KEY,
  eid TEXT UNIQUE,
  line TEXT NOT NULL,
  ${COLUMNS.map((c) => `${c} TEXT`).join(",\n  ")},
  fp TEXT,
  files TEXT,
  commands TEXT,
  t INTEGER,
  machine TEXT,
  host TEXT,
  team_id INTEGER UNIQUE,
  team_key TEXT
);
CREATE INDEX IF NOT EXISTS entries_git_dir ON entries (git_dir);
CREATE INDEX IF NOT EXISTS entries_team_key ON entries (team_key) WHERE team_key IS NOT NULL;
CREATE INDEX IF NOT EXISTS entries_repos ON entries (origin, repo) WHERE team_id IS NULL;
CREATE INDEX IF NOT EXISTS entries_session ON entries (session);
CREATE INDEX IF NOT EXISTS entries_fp ON entries (fp);
CREATE INDEX IF NOT EXISTS entries_scope ON entries (id, capture, git_dir, team_key, session);
CREATE TABLE IF NOT EXISTS refs (id INTEGER NOT NULL, eid TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS refs_eid ON refs (eid);
CREATE INDEX IF NOT EXISTS refs_id ON refs (id);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5 (body, names, content='', tokenize='porter unicode61');
CREATE TABLE IF NOT EXISTS df (term TEXT PRIMARY KEY, doc INTEGER NOT NULL, total INTEGER NOT NULL) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS vocab USING fts5vocab (fts, row);
`;

/** Placeholder rows in fts (negative rowids, no entry): FTS5's IDF, log((N - n + 0.5) / (n + 0.5)), is zero
 *  for a word in half the entries, which in a young index of a few entries is every word. These rows hold one
 *  word no query keeps (query.js drops it), at about an agent note's length, so a young index ranks like an
 *  older one and an old one is unchanged. */
export const PLACEHOLDERS = 64;
export const PLACEHOLDER_WORD = "zzrecallplaceholderzz";

function addPlaceholders(db) {
  const body = Array(24).fill(PLACEHOLDER_WORD).join(" ");
  for (let i = 1; i <= PLACEHOLDERS; i++) db.run("INSERT INTO fts (rowid, body, names) VALUES (?, ?, '')", -i, body);
}

/** `?, ?, …` for `n` bound values: an insert's VALUES, or an `IN (…)` list. */
export const bindMarks = (n) => Array(n).fill("?").join(", ");

/** How long a process waits for another's write transaction (a catch-up batch takes well under a second). */
export const BUSY_MS = 30_000;

const isBusy = (e) => e?.errno === 5 || e?.errcode === 5 || /database is locked|SQLITE_BUSY/.test(e?.message ?? "");

/** Runs `step` again while SQLite answers busy, for up to BUSY_MS. Switching a new file to WAL needs the
 *  file to itself, and SQLite answers busy at once there, without waiting out the busy timeout, when a
 *  second process is opening the same new index. */
function whileBusy(step, { waitMs = BUSY_MS, pauseMs = 10 } = {}) {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      return step();
    } catch (e) {
      if (!isBusy(e) || Date.now() >= until) throw e;
      Atomics.wait(pause, 0, 0, pauseMs);
    }
  }
}

/** Prepares an open database: WAL (readers never wait for a catching-up writer), no fsync (the index is
 *  derived: a machine that crashes mid-write can damage it, and a damaged index is made again from the files —
 *  index.js — while each fsync of a commit and of the checkpoint at close cost a hook process milliseconds), a
 *  busy timeout (two processes catching up at once take turns), and the tables. Returns false when the file
 *  holds an index of another version (the caller starts it afresh). */
export function prepare(db) {
  db.exec(`PRAGMA busy_timeout = ${BUSY_MS}`);
  whileBusy(() => db.exec("PRAGMA journal_mode = WAL"));
  db.exec("PRAGMA synchronous = OFF");
  const version = db.get("PRAGMA user_version")?.user_version ?? 0;
  if (version !== 0 && version !== SCHEMA_VERSION) return false;
  if (version === 0) {
    db.exec("BEGIN IMMEDIATE");
    try {
      if ((db.get("PRAGMA user_version")?.user_version ?? 0) === 0) {
        db.exec(DDL);
        addPlaceholders(db);
        db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
      }
      db.exec("COMMIT");
    } catch (e) {
      db.exec("ROLLBACK");
      throw e;
    }
  }
  return true;
}

/** SQLite's page cache (KiB) while many batches are written: past the default 2 MiB, each insert into the
 *  entries' indexes of a large index reads its pages back from the OS. Taken as pages are used. */
export const BULK_CACHE_KIB = 64 * 1024;

/** Raises this connection's page cache for a bulk write; returns the function that puts it back. Putting it
 *  back never throws: it runs in a `finally`, where it must not replace the error that ended the write. */
export function bulkCache(db) {
  const before = db.get("PRAGMA cache_size")?.cache_size;
  db.exec(`PRAGMA cache_size = -${BULK_CACHE_KIB}`);
  return () => {
    try {
      if (Number.isInteger(before)) db.exec(`PRAGMA cache_size = ${before}`);
    } catch {}
  };
}

/** Runs `fn` in one write transaction (BEGIN IMMEDIATE: a second writer waits for the first), committed when
 *  it returns, rolled back when it throws. Returns what `fn` returns. */
export function transaction(db, fn) {
  db.exec("BEGIN IMMEDIATE");
  try {
    const out = fn();
    db.exec("COMMIT");
    return out;
  } catch (e) {
    try {
      db.exec("ROLLBACK");
    } catch {}
    throw e;
  }
}

export function getMeta(db, key) {
  return db.get("SELECT value FROM meta WHERE key = ?", key)?.value ?? null;
}

export function setMeta(db, key, value) {
  db.run("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, value);
}

/** Empties every table (inside the caller's transaction): the index starts again from the files. */
export function clear(db) {
  db.exec("DELETE FROM entries; DELETE FROM refs; DELETE FROM meta; DELETE FROM df;");
  db.exec("INSERT INTO fts (fts) VALUES ('delete-all')");
  addPlaceholders(db);
}
