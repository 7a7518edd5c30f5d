// Team rows out of the exported database into the local recall index (plugin/recall/team.js keeps them):
// the rows other machines exported after the index's stored position, batch by batch.
//
// `recordings.id` comes from a sequence, taken when a row is inserted, not when it commits: an export batch
// still in flight can hold ids below rows that are already visible. So a pull first takes the table in SHARE
// mode for a moment, which waits for the export batches in flight to commit (and holds off new ones), and
// reads the largest id then: every id up to that head is settled, and the position never passes a row that
// is yet to appear. That moment is also the whole cost of a pull that finds nothing new: one round trip.
//
// Each batch is asked for within a window of ids as well as by LIMIT: a table no ANALYZE has seen yet (one
// just exported into) gets a plan that reads and sorts every row after the position for each batch. The window
// keeps that to about a batch's rows; it widens while windows come back thin (gaps in the ids, or mostly this
// machine's own rows) and narrows again when one fills its batch.

import { addTeamRows, pullPlan } from "../recall/team.js";
import { bulkCache } from "../recall/schema.js";

export const PULL_BATCH = 5000;
/** How long a pull waits for export batches in flight before giving up (it tries again next time). */
const LOCK_WAIT = "5s";

const HEAD_SQL = `BEGIN; SET LOCAL lock_timeout = '${LOCK_WAIT}'; LOCK TABLE recordings IN SHARE MODE; SELECT coalesce(max(id), 0)::text AS head FROM recordings; COMMIT`;
const ROWS_SQL = `SELECT id::text AS id, line, machine, host, origin, repo FROM recordings WHERE id > $1 AND id <= $2 AND machine IS DISTINCT FROM $3 ORDER BY recordings.id LIMIT $4`;

/** The largest settled id of `recordings` (0 when empty), or null when nothing was ever exported there. */
export async function headOf(client) {
  try {
    const results = await client.query(HEAD_SQL);
    return Number(results.find((r) => r.command === "SELECT").rows[0].head);
  } catch (e) {
    await client.query("ROLLBACK").catch(() => {});
    if (e?.code === "42P01") return null; // no recordings table: no export reached this database yet
    throw e;
  }
}

/**
 * Pulls into the index `db` the rows of other machines than `machine` exported since its stored position, for
 * the repository keys `keys` (or ALL_REPOS). Options: batch, onProgress({ read, added }). Returns { head,
 * read, added, skipped, from, position }: rows read from the database, added to the index, skipped (eid or
 * id already there).
 */
export async function pullTeam(client, db, { machine, keys, batch = PULL_BATCH, onProgress } = {}) {
  const out = { head: null, read: 0, added: 0, skipped: 0, from: null, position: null };
  out.head = await headOf(client);
  let plan = pullPlan(db, keys);
  out.from = plan.from;
  if (out.head === null) return { ...out, position: plan.from };
  // The next batch is asked for before this one is written, so the database reads and sends it meanwhile; a
  // rejection is handled where the batch is awaited (the no-op catch only keeps it from counting as unhandled).
  let span = batch;
  const ask = (from) => {
    const upto = Math.min(out.head, from + span);
    const q = client.query(ROWS_SQL, [from, upto, machine, batch]).then((r) => ({ rows: r.rows, upto }));
    q.catch(() => {});
    return q;
  };
  let next = plan.from < out.head ? ask(plan.from) : null;
  const restore = next ? bulkCache(db) : null;
  try {
    for (let stale = 0; plan.from < out.head; ) {
      const r = await next;
      const full = r.rows.length >= batch;
      const to = full ? Number(r.rows[r.rows.length - 1].id) : r.upto;
      if (full) span = Math.max(batch, Math.floor(span / 2));
      else if (r.rows.length < batch / 2) span = Math.min(span * 2, out.head);
      next = to < out.head ? ask(to) : null;
      const got = addTeamRows(db, r.rows, plan, to);
      if (got.stale) {
        // Another process moved the position (or the index was made again): go on from where it is now.
        if (++stale > 100) throw new Error("the recall index's team position keeps changing under this pull");
        await next?.catch(() => {});
        plan = pullPlan(db, keys);
        next = plan.from < out.head ? ask(plan.from) : null;
        continue;
      }
      out.read += r.rows.length;
      out.added += got.added;
      out.skipped += got.skipped;
      plan = { from: to, keys: plan.keys };
      onProgress?.({ read: out.read, added: out.added });
    }
  } finally {
    restore?.();
  }
  out.position = plan.from;
  return out;
}
