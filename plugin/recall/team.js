// Team rows in the recall index: entries other machines exported to the shared PostgreSQL database, pulled
// into this machine's derived index (plugin/export/pull.js reads them) and found by recall beside its own.
// The stored line is kept unchanged, with the machine and host that exported it and its id in the database.
//
// Exactly once: a batch of rows goes in with the position reached (the database's `recordings.id`) in one
// SQLite transaction, as the file cursor does; a row whose database id or eid the index holds is skipped.
// The position is kept with the repositories it was pulled for: when this machine starts on another one, the
// next pull reads from the start again (what is there already is skipped), so nothing of it is missed.

import { getMeta, setMeta, transaction } from "./schema.js";
import { forgetAbsentWords, insertEntry } from "./build.js";
import { rowOf } from "./row.js";

/** The key standing for every repository (`record sync --all-repos`). */
export const ALL_REPOS = "*";

/** The key two clones of one repository share: its origin without scheme, user, port, trailing "/" and ".git",
 *  lower-cased ("git@github.com:Org/X.git" and "https://github.com/org/x" → "github.com/org/x"); without an
 *  origin, "name:" and its name; null when neither is known. */
export function repoKey(origin, repo) {
  if (typeof origin === "string" && origin.trim()) {
    const s = origin
      .trim()
      .toLowerCase()
      .replace(/^[a-z][a-z0-9+.-]*:\/\//, "")
      .replace(/^[^@/]*@/, "")
      .replace(/^([^/:]+):\d*\/?/, "$1/")
      .replace(/\/+$/, "")
      .replace(/\.git$/, "")
      .replace(/\/+$/, "");
    if (s) return s;
  }
  return typeof repo === "string" && repo ? `name:${repo}` : null;
}

// This machine's repositories, one index step each (a DISTINCT would read every entry): the distinct origins,
// then the distinct names of entries without one.
const NEXT_ORIGIN = "SELECT origin FROM entries INDEXED BY entries_repos WHERE team_id IS NULL AND origin > ? ORDER BY origin LIMIT 1";
const NEXT_NAME = (origin) =>
  `SELECT repo FROM entries INDEXED BY entries_repos WHERE team_id IS NULL AND origin ${origin} AND repo > ? ORDER BY repo LIMIT 1`;

/** The repositories this machine works on: the keys of its own entries' repositories, and `also` (the working
 *  directory's). Sorted, without nulls. */
export function ownKeys(db, also = []) {
  const keys = new Set(also.filter(Boolean));
  const add = (k) => k && keys.add(k);
  for (let r = db.get(NEXT_ORIGIN, ""); r; r = db.get(NEXT_ORIGIN, r.origin)) add(repoKey(r.origin, null));
  for (const origin of ["IS NULL", "= ''"]) {
    const sql = NEXT_NAME(origin);
    for (let r = db.get(sql, ""); r; r = db.get(sql, r.repo)) add(repoKey(null, r.repo));
  }
  return [...keys].sort();
}

/** The stored pull position: { position (the last database id taken into account), keys } or null. */
export function teamPosition(db) {
  const v = getMeta(db, "team");
  if (v === null) return null;
  try {
    const p = JSON.parse(v);
    return Number.isSafeInteger(p.position) && Array.isArray(p.keys) ? p : null;
  } catch {
    return null;
  }
}

const covers = (keys, wanted) => keys.includes(ALL_REPOS) || wanted.every((k) => keys.includes(k));

/** Where the next pull for `wanted` keys starts: { from, keys }. From the stored position when it was pulled
 *  for every wanted repository; else from the start, for those and the ones pulled for before. */
export function pullPlan(db, wanted) {
  const at = teamPosition(db);
  if (at && covers(at.keys, wanted)) return { from: at.position, keys: at.keys };
  const keys = wanted.includes(ALL_REPOS) ? [ALL_REPOS] : [...new Set([...(at?.keys ?? []), ...wanted])].sort();
  return { from: 0, keys };
}

const samePlan = (a, b) => a !== null && a.position === b.from && a.keys.length === b.keys.length && a.keys.every((k, i) => k === b.keys[i]);

/**
 * Adds one batch of database rows ({ id, line, machine, host, origin, repo }, ids ascending) pulled after
 * `plan.from` up to `to`, in one transaction that also stores `to` as the position. Only the rows of the
 * plan's repositories are kept. Returns { added, skipped, stale }: `stale` when the stored position is no
 * longer the plan's (another process pulled, or the index was made again): nothing was added, plan again.
 */
export function addTeamRows(db, rows, plan, to) {
  const all = plan.keys.includes(ALL_REPOS);
  return transaction(db, () => {
    const at = teamPosition(db);
    const restart = plan.from === 0 && (at === null || !covers(at.keys, plan.keys));
    if (!restart && !samePlan(at, plan)) return { added: 0, skipped: 0, stale: true };
    let added = 0;
    let skipped = 0;
    const keyOf = new Map(); // a batch holds few repositories
    for (const r of rows) {
      const pair = `${r.origin ?? ""}\n${r.repo ?? ""}`;
      let key = keyOf.get(pair);
      if (key === undefined) keyOf.set(pair, (key = repoKey(r.origin, r.repo)));
      const entry = all || plan.keys.includes(key) ? parse(r.line) : null;
      if (entry === null) continue;
      if (insertEntry(db, rowOf(entry, r.line), [r.machine, r.host ?? null, Number(r.id), key])) added++;
      else skipped++;
    }
    setMeta(db, "team", JSON.stringify({ position: to, keys: plan.keys }));
    if (added) forgetAbsentWords(db);
    return { added, skipped, stale: false };
  });
}

function parse(line) {
  try {
    const v = JSON.parse(line);
    return v && typeof v === "object" && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

/** How many team rows the index holds. */
export function teamRows(db) {
  return Number(db.get("SELECT count(*) n FROM entries WHERE team_id IS NOT NULL")?.n ?? 0);
}

/** Deletes every team row and the position (the recordings files' rows stay). Returns how many went. */
export function forgetTeam(db) {
  return transaction(db, () => {
    const n = teamRows(db);
    db.exec("DELETE FROM refs WHERE id IN (SELECT id FROM entries WHERE team_id IS NOT NULL)");
    // The FTS table is contentless: a row is deleted by giving back what was indexed for it.
    for (const r of db.all("SELECT id, line FROM entries WHERE team_id IS NOT NULL")) {
      const row = rowOf(parse(r.line) ?? {}, r.line);
      db.run("INSERT INTO fts (fts, rowid, body, names) VALUES ('delete', ?, ?, ?)", r.id, row.body, row.names);
    }
    db.exec("DELETE FROM entries WHERE team_id IS NOT NULL");
    db.run("DELETE FROM meta WHERE key = 'team'");
    db.exec("DELETE FROM df");
    return n;
  });
}
