// Finding past entries: the candidates FTS5 ranks by BM25, scored by rank.js, cut at a threshold, each shown
// with the entries that correct it or that it corrects (an entry that names another's eid).

import { parseQuery, matchExpression } from "./query.js";
import { PLACEHOLDERS } from "./schema.js";
import { COLUMN_WEIGHTS, MIN_EVIDENCE, MIN_RELEVANCE, boost, ideal, idf } from "./rank.js";

/** Candidates read from FTS5 before scoring: the boosts reorder within them, they do not reach past them. */
const CANDIDATES = 200;

const COLS = "e.id, e.eid, e.line, e.git_dir, e.session, e.capture, e.t, e.files, e.commands, e.kind, e.trigger, e.ts, e.repo";
// The entries that name a hit's eid, and the entries whose eid the hit names.
const CORRECTED_BY = `SELECT ${COLS} FROM refs r JOIN entries e ON e.id = r.id WHERE r.eid = ? ORDER BY e.id`;
const CORRECTS = `SELECT ${COLS} FROM refs r JOIN entries e ON e.eid = r.eid WHERE r.id = ? ORDER BY e.id`;

/** Document counts of the words, as FTS5 stems them (the query's words go through the same tokenizer in a
 *  scratch table, so "failing" is counted as "fail"). Returns { total, counts } in the words' order. */
function documentCounts(db, words) {
  db.exec(
    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.q USING fts5 (x, tokenize='porter unicode61');" +
      "CREATE VIRTUAL TABLE IF NOT EXISTS temp.qv USING fts5vocab (temp, q, instance);",
  );
  db.exec("DELETE FROM temp.q");
  db.run("INSERT INTO temp.q (rowid, x) VALUES (1, ?)", words.join(" "));
  const stems = new Array(words.length).fill(null);
  for (const r of db.all("SELECT term, offset FROM temp.qv")) if (r.offset < stems.length) stems[r.offset] = r.term;
  const total = Number(db.get("SELECT max(id) n FROM entries")?.n ?? 0) + PLACEHOLDERS;
  const counts = stems.map((s) => (s === null ? 0 : Number(db.get("SELECT doc FROM vocab WHERE term = ?", s)?.doc ?? 0)));
  return { total, counts };
}

function lines(v) {
  return typeof v === "string" && v ? v.split("\n") : [];
}

function hitOf(r) {
  return { ...r, files: lines(r.files), commands: lines(r.commands) };
}

/**
 * Ranks entries for `text` (or a query made by query.js). Options: scope "repo" (default; entries whose git_dir is `gitDir`) or "all";
 * gitDir; session (the current one, left out unless includeSession); limit (default 10); now; mode "recall"
 * (cut at MIN_RELEVANCE) or "hint" (cut at MIN_EVIDENCE); min (another cut). Returns { hits, words } where
 * each hit is { eid, line, score, corrects: [hit], correctedBy: [hit], ... } best first.
 */
export function search(db, text, options = {}) {
  const q = typeof text === "object" && text !== null ? text : parseQuery(text);
  const mode = options.mode ?? "recall";
  const limit = options.limit ?? 10;
  const now = options.now ?? Date.now();
  const context = { gitDir: options.gitDir ?? null, now };
  if (!q.words.length) return { hits: [], words: q.words };
  const { total, counts } = documentCounts(db, q.words);
  if (total === PLACEHOLDERS) return { hits: [], words: q.words };
  const unit = mode === "hint" ? idf(total, 1) : ideal(total, counts);
  const min = options.min ?? (mode === "hint" ? MIN_EVIDENCE : MIN_RELEVANCE);
  // A hint matches what entries say (not the names they share, which only boost), and only entries someone
  // wrote: an automatic capture of the same failure is evidence, not advice.
  const hint = mode === "hint";
  const where = ["fts MATCH ?"];
  const params = [hint ? `body : (${matchExpression(q.words)})` : matchExpression(q.words)];
  if (hint) where.push("e.capture IS NOT 'auto'");
  if ((options.scope ?? "repo") === "repo" && context.gitDir) {
    where.push("e.git_dir = ?");
    params.push(context.gitDir);
  }
  if (options.session && !options.includeSession) {
    where.push("e.session IS NOT ?");
    params.push(options.session);
  }
  const rows = db.all(
    `SELECT ${COLS}, bm25(fts, ${COLUMN_WEIGHTS.join(", ")}) AS bm FROM fts JOIN entries e ON e.id = fts.rowid ` +
      `WHERE ${where.join(" AND ")} ORDER BY bm LIMIT ${CANDIDATES}`,
    ...params,
  );
  const scored = rows
    .map((r) => {
      const hit = hitOf(r);
      hit.text = -r.bm / unit;
      hit.score = hit.text * boost(hit, q, context);
      return hit;
    })
    .filter((h) => h.score >= min)
    .sort((a, b) => b.score - a.score || b.id - a.id);
  const shown = new Set();
  const hits = [];
  for (const h of scored) {
    if (shown.has(h.id)) continue;
    shown.add(h.id);
    hits.push(attach(db, h, shown, options));
    if (hits.length >= limit) break;
  }
  return { hits, words: q.words };
}

/** Adds to a hit the entries that correct it and that it corrects, each shown once in a result. */
function attach(db, h, shown, options) {
  h.correctedBy = related(db, CORRECTED_BY, h.eid, shown, options);
  h.corrects = related(db, CORRECTS, h.id, shown, options);
  return h;
}

function related(db, sql, key, shown, options) {
  if (key === null || key === undefined) return [];
  const out = [];
  for (const r of db.all(sql, key)) {
    if (shown.has(r.id)) continue;
    if (options.session && !options.includeSession && r.session === options.session) continue;
    shown.add(r.id);
    out.push(hitOf(r));
  }
  return out;
}


/** Without a query: the newest entries someone wrote (not automatic captures) in the scope, with their
 *  corrections, newest first. Same options as search; score is 0. */
export function recent(db, _query, options = {}) {
  const where = ["e.capture IS NOT 'auto'"];
  const params = [];
  if ((options.scope ?? "repo") === "repo" && options.gitDir) {
    where.push("e.git_dir = ?");
    params.push(options.gitDir);
  }
  if (options.session && !options.includeSession) {
    where.push("e.session IS NOT ?");
    params.push(options.session);
  }
  const limit = options.limit ?? 10;
  // Read a few more than asked: entries shown under a correction do not count as hits of their own.
  const rows = db.all(`SELECT ${COLS} FROM entries e WHERE ${where.join(" AND ")} ORDER BY e.id DESC LIMIT ?`, ...params, limit * 2);
  const shown = new Set();
  const hits = [];
  for (const r of rows) {
    if (shown.has(r.id) || hits.length >= limit) continue;
    shown.add(r.id);
    const h = hitOf(r);
    h.score = 0;
    hits.push(attach(db, h, shown, options));
  }
  return {
    hits,
    words: [],
  };
}
