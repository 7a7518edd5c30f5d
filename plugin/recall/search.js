// Finding past entries: the candidates FTS5 ranks by BM25, scored by rank.js, cut at a threshold, each shown
// with the entries that correct it or that it corrects (an entry that names another's eid).

import { parseQuery, matchExpression } from "./query.js";
import { PLACEHOLDERS, bindMarks } from "./schema.js";
import { commonAt, documentCounts } from "./counts.js";
import { COLUMN_WEIGHTS, MIN_EVIDENCE, MIN_RELEVANCE, boost, ideal, idf, maxBoost, shared } from "./rank.js";

/** Candidates read from FTS5 before scoring: the boosts reorder within them, they do not reach past them. */
const CANDIDATES = 200;

// What scoring reads of a candidate (COLS adds the stored line, which only the hits shown need).
const SCORED = "e.id, e.eid, e.git_dir, e.session, e.capture, e.t, e.files, e.commands, e.kind, e.trigger, e.ts, e.repo, e.machine, e.host, e.team_key, e.fp";
const COLS = `${SCORED}, e.line`;
// The entries that name a hit's eid, and the entries whose eid the hit names.
const CORRECTED_BY = `SELECT ${COLS} FROM refs r JOIN entries e ON e.id = r.id WHERE r.eid = ? ORDER BY e.id`;
const CORRECTS = `SELECT ${COLS} FROM refs r JOIN entries e ON e.eid = r.eid WHERE r.id = ? ORDER BY e.id`;

/** At most this many words (the rarest) go into the scored match. */
export const MATCH_WORDS = 16;
/** A hint's scored words, the rarest first, stop before their entries together pass this many (the rarest word
 *  always goes in): each further word is commoner, so it weighs less in a hint's units (a word in one entry), and
 *  the match scores every entry it is in. A failure has many words; its rare ones are its evidence. */
export const HINT_POSTINGS = 500;
/** A hint needs at least this many of the failure's words in what the entry says, or files both name: one shared
 *  word, however rare or often repeated, is as often chance as it is the same failure. */
export const HINT_WORDS = 2;
/** When every word is common: the newest entries holding all of them, this many at most. */
const COMMON_CANDIDATES = 400;

/** What to match: { rare: [{w, n}] } to score with BM25 — the found words that are not common, the rarest
 *  first, while their document counts add up to at most `postings` — or { all: [words] } when every found word
 *  is common, or null when none is found. */
export function matchOf(words, counts, total, postings = Infinity) {
  const found = words.map((w, i) => ({ w, n: counts[i] })).filter((x) => x.n > 0);
  const common = commonAt(total);
  const rare = found.filter((x) => x.n <= common).sort((a, b) => a.n - b.n).slice(0, MATCH_WORDS);
  let sum = 0;
  const within = rare.filter((x, i) => (sum += x.n) <= postings || i === 0);
  if (within.length) return { rare: within };
  if (!found.length) return null;
  return { all: found.slice(0, MATCH_WORDS).map((x) => x.w) };
}

/** How many of `words` each of the entries `ids` holds in what it says: { id → count }. */
function sharedWords(db, words, ids) {
  const n = new Map();
  if (!ids.length) return n;
  const marks = bindMarks(ids.length);
  for (const w of words) {
    for (const r of db.all(`SELECT rowid AS id FROM fts WHERE fts MATCH ? AND rowid IN (${marks})`, `body : "${w}"`, ...ids)) n.set(r.id, (n.get(r.id) ?? 0) + 1);
  }
  return n;
}

/** How many entries hold the failure a session's hint is about: the runs of the session's newest automatic
 *  capture (the entries of its fingerprint), 0 when the session has none. */
function runsOf(db, session) {
  const capture = session ? db.get("SELECT fp FROM entries WHERE session = ? AND capture = 'auto' ORDER BY id DESC LIMIT 1", session) : null;
  if (!capture) return 0;
  return capture.fp ? Number(db.get("SELECT count(*) AS n FROM entries WHERE fp = ?", capture.fp)?.n ?? 1) : 1;
}

/** The conditions on entries (alias e) for a search's options: written entries only (`written`), the scope's
 *  repository (this machine's entries of its git dir, and team rows of its repository key), the current
 *  session left out. */
function filters(options, written) {
  const where = written ? ["e.capture IS NOT 'auto'"] : [];
  const params = [];
  if ((options.scope ?? "repo") === "repo" && options.gitDir) {
    if (options.repoKey) {
      where.push("(e.git_dir = ? OR e.team_key = ?)");
      params.push(options.gitDir, options.repoKey);
    } else {
      where.push("e.git_dir = ?");
      params.push(options.gitDir);
    }
  }
  if (options.session && !options.includeSession) {
    where.push("e.session IS NOT ?");
    params.push(options.session);
  }
  return { where, params };
}

function lines(v) {
  return typeof v === "string" && v ? v.split("\n") : [];
}

/** A row read for this search as a hit, in place (a copy of each of up to CANDIDATES rows cost more than the
 *  scoring of them). */
function hitOf(r) {
  r.files = lines(r.files);
  r.commands = lines(r.commands);
  return r;
}

/**
 * Ranks entries for `text` (or a query made by query.js). Options: scope "repo" (default; entries whose git_dir is `gitDir`,
 * and team rows whose repository key is `repoKey`) or "all"; gitDir; repoKey; session (the current one, left out unless includeSession); limit (default 10); now; mode "recall"
 * (cut at MIN_RELEVANCE) or "hint" (cut at MIN_EVIDENCE); min (another cut); memo (countMemo's, kept by a held
 * index). Returns { hits, words } where
 * each hit is { eid, line, score, corrects: [hit], correctedBy: [hit], ... } best first.
 */
export function search(db, text, options = {}) {
  const q = typeof text === "object" && text !== null ? text : parseQuery(text);
  const mode = options.mode ?? "recall";
  const limit = options.limit ?? 10;
  const now = options.now ?? Date.now();
  const context = { gitDir: options.gitDir ?? null, repoKey: options.repoKey ?? null, now, hint: mode === "hint" };
  if (!q.words.length) return { hits: [], words: q.words };
  const { total, counts } = documentCounts(db, q.words, options.memo);
  if (total === PLACEHOLDERS) return { hits: [], words: q.words };
  const min = options.min ?? (mode === "hint" ? MIN_EVIDENCE : MIN_RELEVANCE);
  const hint = mode === "hint";
  const match = matchOf(q.words, counts, total, hint ? HINT_POSTINGS : Infinity);
  // A hint's evidence is rare words shared (its unit is one): a failure whose every word is common has none.
  if (match === null || (hint && !match.rare)) return { hits: [], words: q.words };
  // A hint matches what entries say (not the names they share, which only boost), and only entries someone
  // wrote: an automatic capture of the same failure is evidence, not advice.
  const { where, params } = filters(options, hint);
  const expr = match.rare ? matchExpression(match.rare.map((x) => x.w)) : match.all.map((w) => `"${w}"`).join(" AND ");
  params.unshift(hint ? `body : (${expr})` : expr);
  // The scale of the text score: the best the scored words could reach (recall), one rare word (hint).
  // A hint's unit is a word in one entry beside the failure's own runs: a failing gate is captured just before its
  // hint is searched, and each earlier run of it (the same fingerprint) holds its words too. (At least 1: past a
  // quarter of the index a word's IDF tends to zero, and a unit that small would make any shared word a hint.)
  const unit = hint ? Math.max(1, idf(total, 1 + runsOf(db, options.session))) : match.rare ? ideal(total, match.rare.map((x) => x.n)) : 1;
  // CROSS JOIN keeps FTS as the outer loop: given a plain JOIN, SQLite may walk the repository's entries by
  // their git_dir index and run the match once per entry (seconds on a large index, against milliseconds). The
  // filters are read from entries_scope (schema.js), which SQLite would not pick over the rowid itself.
  const join = where.length ? `CROSS JOIN entries e INDEXED BY entries_scope ON e.id = f.rowid WHERE ${where.join(" AND ")} ` : "WHERE f.rowid > 0 ";
  // Rank on the FTS table alone, joining only what the filters need; the lines are read for the top ones. A
  // match whose BM25 cannot reach the cut with the largest boost is dropped before its filters are looked up
  // (the bound's margin only keeps a rounding's worth more). When every word is common, each candidate holds all
  // of them: the newest are taken, each covering the query.
  const ranked = match.rare
    ? db.all(
        `SELECT f.rowid AS id, f.bm FROM (SELECT rowid, bm25(fts, ${COLUMN_WEIGHTS.join(", ")}) AS bm FROM fts WHERE fts MATCH ?) f ` +
          `${join}AND f.bm <= ? ORDER BY f.bm LIMIT ${CANDIDATES}`,
        ...params,
        min > 0 ? (-min * unit * (1 - 1e-9)) / maxBoost(q, context) : 0,
      )
    : db.all(`SELECT f.rowid AS id, NULL AS bm FROM (SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY rowid DESC LIMIT ${COMMON_CANDIDATES}) f ${join}LIMIT ${CANDIDATES}`, ...params);
  const bm = new Map(ranked.map((r) => [r.id, r.bm]));
  const rows = ranked.length ? db.all(`SELECT ${SCORED} FROM entries e WHERE e.id IN (${bindMarks(ranked.length)})`, ...ranked.map((r) => r.id)) : [];
  for (const r of rows) r.bm = bm.get(r.id);
  let scored = rows
    .map((r) => {
      const hit = hitOf(r);
      hit.text = r.bm === null ? 1 : -r.bm / unit;
      hit.score = hit.text * boost(hit, q, context);
      return hit;
    })
    .filter((h) => h.score >= min)
    .sort((a, b) => b.score - a.score || b.id - a.id);
  if (hint) {
    const n = sharedWords(db, match.rare.map((x) => x.w), scored.map((h) => h.id));
    scored = scored.filter((h) => (n.get(h.id) ?? 0) + shared(q.files, h.files) >= HINT_WORDS);
  }
  const shown = new Set();
  const folded = new Set(); // fingerprints shown: the runs of one failure are one hit, with their count
  const hits = [];
  for (const h of scored) {
    if (shown.has(h.id) || (h.fp && folded.has(h.fp))) continue;
    shown.add(h.id);
    if (h.fp) {
      folded.add(h.fp);
      h.runs = db.get("SELECT count(*) AS n FROM entries WHERE fp = ?", h.fp)?.n ?? 1;
    }
    hits.push(attach(db, h, shown, options));
    if (hits.length >= limit) break;
  }
  withLines(db, hits);
  return { hits, words: q.words };
}

/** Reads the stored lines of `hits` (scoring never needs them: of up to CANDIDATES rows, only these are shown). */
function withLines(db, hits) {
  if (!hits.length) return;
  const rows = db.all(`SELECT id, line FROM entries WHERE id IN (${bindMarks(hits.length)})`, ...hits.map((h) => h.id));
  const line = new Map(rows.map((r) => [r.id, r.line]));
  for (const h of hits) h.line = line.get(h.id);
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
  const { where, params } = filters(options, true);
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
