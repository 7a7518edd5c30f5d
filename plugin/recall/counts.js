// How many entries hold each word of a search (its IDF, and whether it is common): counted in the index,
// kept in its df table and, for an index held open, in memory. A search reads its words' counts here first.

import { BUSY_MS, PLACEHOLDERS, transaction } from "./schema.js";

/** A word in more than this share of the entries (and in more than COMMON_FLOOR) is left out of the scored
 *  match: its IDF is small, and scoring it would mean scoring most of the index. */
export const COMMON_SHARE = 0.02;
export const COMMON_FLOOR = 200;

/** What a held index (service.js `held`) keeps between searches: each word's stem, and each stem's document count
 *  with the index size it was taken at. A count holds as the df table's do (until the index grows by a tenth; a
 *  word counted absent, until anything is added); the memo is emptied when the index shrinks (made again) or when
 *  it holds `max` words. */
export function countMemo(max = 20_000) {
  return { stems: new Map(), counts: new Map(), total: 0, max };
}

/** A count holds until the index has grown by this factor (the df table's rule, and the memo's). */
const GROWTH = 1.1;
/** Whether a count taken at index size `then` still holds at `now`. */
const heldSince = (then, now) => now <= then * GROWTH;
const stillValid = (c, total) => (c.doc === 0 ? total === c.total : heldSince(c.total, total));

/** The words' stems as FTS5 makes them: the words through the same tokenizer in a scratch table, the n-th token
 *  taken for the n-th word. Words in `memo` are not tokenized again. */
function stemsOf(db, words, memo) {
  const todo = memo ? words.filter((w) => !memo.stems.has(w)) : words;
  const found = new Array(todo.length).fill(null);
  if (todo.length) {
    db.exec(
      "CREATE VIRTUAL TABLE IF NOT EXISTS temp.q USING fts5 (x, tokenize='porter unicode61');" +
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.qv USING fts5vocab (temp, q, instance);",
    );
    db.exec("DELETE FROM temp.q");
    db.run("INSERT INTO temp.q (rowid, x) VALUES (1, ?)", todo.join(" "));
    for (const r of db.all("SELECT term, offset FROM temp.qv")) if (r.offset < found.length) found[r.offset] = r.term;
    if (!memo) return found;
    todo.forEach((w, i) => memo.stems.set(w, found[i]));
  }
  return words.map((w) => memo.stems.get(w));
}

/** The entries FTS5 weighs words against: the rows, and the placeholders (schema.js). */
export function indexTotal(db) {
  return Number(db.get("SELECT max(id) n FROM entries")?.n ?? 0) + PLACEHOLDERS;
}

/** The common bound for an index of `total` entries: a word in more entries than this is common (matchOf). */
export const commonAt = (total) => Math.max(COMMON_FLOOR, total * COMMON_SHARE);

/** How many entries hold `word`, counted up to `cap`: past the common bound a count only says "common", and
 *  counting every entry of a word most entries hold (FTS5's vocab table reads its whole list) takes a fresh
 *  process milliseconds per word. */
function countUpTo(db, word, cap) {
  return Number(db.get("SELECT count(*) AS n FROM (SELECT rowid FROM fts WHERE fts MATCH ? LIMIT ?)", `"${word}"`, cap)?.n ?? 0);
}

/** Document counts of the words, as FTS5 stems them (stemsOf: "failing" is counted as "fail"). Counts come
 *  from `memo` (a held index's), else from the df table while the index has not grown by a tenth since they
 *  were taken, else from the index (stored back, when more than COMMON_FLOOR and the index can be written).
 *  A count stops just past the common bound the index may reach while the count holds: that still reads as
 *  common, and counting on costs every entry the word is in. Returns { total, stems, counts } in the words' order. */
export function documentCounts(db, words, memo = null) {
  const total = indexTotal(db);
  if (memo && (total < memo.total || memo.counts.size + words.length > memo.max)) {
    memo.stems.clear();
    memo.counts.clear();
  }
  if (memo) memo.total = total;
  const stems = stemsOf(db, words, memo);
  const fresh = [];
  const cap = Math.floor(commonAt(total * GROWTH)) + 1;
  const counts = stems.map((s, i) => {
    if (s === null) return 0;
    const held = memo?.counts.get(s);
    if (held && stillValid(held, total)) return held.doc;
    const cached = db.get("SELECT doc, total FROM df WHERE term = ?", s);
    let count;
    if (cached && heldSince(cached.total, total)) count = { doc: Number(cached.doc), total: cached.total };
    else {
      count = { doc: countUpTo(db, words[i], cap), total };
      // A count of a few entries is read again faster than it is stored: a write (and the WAL checkpoint it may
      // start) in the middle of a failing command's hint costs more than the count it saves.
      if (count.doc > COMMON_FLOOR) fresh.push([s, count.doc]);
    }
    memo?.counts.set(s, count);
    return count.doc;
  });
  if (fresh.length) remember(db, fresh, total);
  return { total, stems, counts };
}

/** Stores counts in df without waiting: when another process is writing the index, they are counted again
 *  next time rather than holding up this search. */
function remember(db, fresh, total) {
  try {
    db.exec("PRAGMA busy_timeout = 0");
    transaction(db, () => {
      for (const [term, doc] of fresh) {
        db.run("INSERT INTO df (term, doc, total) VALUES (?, ?, ?) ON CONFLICT (term) DO UPDATE SET doc = excluded.doc, total = excluded.total", term, doc, total);
      }
    });
  } catch {
    // busy, or the write failed (rolled back): not stored
  } finally {
    db.exec(`PRAGMA busy_timeout = ${BUSY_MS}`);
  }
}

/** Counts every word in more than COMMON_FLOOR entries in one pass over FTS5's vocab table (a few tenths of a
 *  second per 100,000 entries), replacing df: for a catch-up that added a tenth of the index or more, after which
 *  every count taken before is out of date, so that the searches after it count no common word one by one. */
export function refreshCounts(db) {
  try {
    const total = indexTotal(db);
    transaction(db, () => {
      db.exec("DELETE FROM df");
      db.run("INSERT INTO df (term, doc, total) SELECT term, doc, ? FROM vocab WHERE doc > ?", total, COMMON_FLOOR);
    });
  } catch {
    // not refreshed: df stays as it was, and the searches count what it lacks, as before
  }
}

/** Whether a catch-up that took the index from `before` to `after` entries outdated every count (see heldSince). */
export const outdatesCounts = (before, after) => !heldSince(before, after);
