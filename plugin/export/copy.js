// The batched copy: rows go in with one COPY into a per-connection staging table, then one INSERT ... SELECT
// moves them into their table (the main table skips an eid it already holds). The stored line is the record;
// the jsonb and time columns are computed by the server from it.

import { COLUMNS } from "../columns.js";
import { fingerprintOfEntry } from "../read/episodes.js";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import copyStreams from "pg-copy-streams";

const STAGE = "recordings_incoming";
const STAGE_COLUMNS = ["eid", "reason", "line", ...COLUMNS, "fp", "segment", "offset"];
const TIME_RE = `'^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d(:\\d\\d(\\.\\d+)?)?(Z|[+-]\\d\\d:?\\d\\d)$'`;

/** Makes the staging table of this connection (temporary, emptied at each commit). */
export async function prepareStage(client) {
  const cols = STAGE_COLUMNS.map((c) => `"${c}" ${c === "offset" ? "bigint" : "text"}`).join(", ");
  await client.query(`CREATE TEMP TABLE IF NOT EXISTS ${STAGE} (${cols}) ON COMMIT DELETE ROWS`);
}

const ESC = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };
/** A value in COPY's text format. */
function field(v) {
  if (v === null || v === undefined) return "\\N";
  const s = typeof v === "string" ? v : String(v);
  return /[\\\n\r\t]/.test(s) ? s.replace(/[\\\n\r\t]/g, (c) => ESC[c]) : s;
}

/** One staging row of a read record: [eid, reason, line, ...columns, fp, segment, offset] (fp: the failure
 *  fingerprint of an automatic failure, derived by the core for lines written before it was stamped). */
export function stageRow(r, columns) {
  const e = r.entry;
  // The reader drops a "\r" before the "\n" (a hand-edited line); the stored line keeps it.
  const line = r.length === Buffer.byteLength(r.text) + 2 ? r.text + "\r" : r.text;
  const out = [typeof e.eid === "string" ? e.eid : null, typeof e.reason === "string" ? e.reason : null, line];
  for (const c of COLUMNS) out.push(columns[c]);
  out.push(fingerprintOfEntry(e, r.text), r.segment, r.offset);
  return out;
}

function copyText(rows) {
  const parts = [];
  for (const row of rows) parts.push(row.map(field).join("\t") + "\n");
  return parts;
}

function insertSql(quarantine, safe) {
  const table = quarantine ? "recordings_quarantine" : "recordings";
  const common = COLUMNS.map((c) => `"${c}"`).join(", ");
  const jsonb = safe ? "recordings_jsonb(line)" : "line::jsonb";
  const at = safe ? "recordings_time(ts)" : `CASE WHEN ts ~ ${TIME_RE} THEN ts::timestamptz END`;
  const cols = `eid, ${quarantine ? "reason, " : ""}line, entry, ${common}, fp, at, machine, host, file, segment, "offset"`;
  const sel = `eid, ${quarantine ? "reason, " : ""}line, ${jsonb}, ${common}, fp, ${at}, $1, $2, $3, segment, "offset"`;
  return `INSERT INTO ${table} (${cols}) SELECT ${sel} FROM ${STAGE}${quarantine ? "" : " ON CONFLICT (eid) DO NOTHING"}`;
}

/**
 * Copies staging rows into the main or quarantine table, inside the caller's transaction. Returns how many rows
 * went in (the main table skips eids it already has). A line the server's jsonb or timestamptz cannot take (a
 * \u0000 escape, a lone surrogate, a month 13) makes the batch go again through the forgiving functions, where
 * that row gets null there; its line is kept as it is.
 */
export async function copyRows(client, rows, { quarantine, machine, host, file }) {
  await pipeline(Readable.from(copyText(rows)), client.query(copyStreams.from(`COPY ${STAGE} (${STAGE_COLUMNS.map((c) => `"${c}"`).join(", ")}) FROM STDIN`)));
  const params = [machine, host, file];
  await client.query("SAVEPOINT recordings_batch");
  try {
    const r = await client.query(insertSql(quarantine, false), params);
    await client.query("RELEASE SAVEPOINT recordings_batch");
    return r.rowCount;
  } catch (e) {
    if (!String(e?.code ?? "").startsWith("22")) throw e;
    await client.query("ROLLBACK TO SAVEPOINT recordings_batch");
    const r = await client.query(insertSql(quarantine, true), params);
    return r.rowCount;
  }
}
