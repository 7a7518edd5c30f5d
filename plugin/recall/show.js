// `record show EID` with what recall knows about the entry: the entries that correct it (they name its eid)
// and the ones it corrects. Nothing is edited: a correction is a later entry, shown beside the earlier one.

import { entryMarkdown } from "../read/index.js";
import { openIndex } from "./index.js";

/**
 * Markdown of the entries related to `eid` by a mention, under "Corrected by" / "Corrects" headings; "" when
 * there are none or recall cannot run here (show works without it). `options` = {file, env, cwd}.
 */
export async function relatedMarkdown(eid, options = {}) {
  let ix;
  try {
    ix = await openIndex(options);
  } catch {
    return "";
  }
  try {
    ix.catchUp();
    const by = ix.db.all("SELECT e.line FROM refs r JOIN entries e ON e.id = r.id WHERE r.eid = ? ORDER BY e.id", eid);
    const of = ix.db.all(
      "SELECT e.line FROM entries s JOIN refs r ON r.id = s.id JOIN entries e ON e.eid = r.eid WHERE s.eid = ? ORDER BY e.id",
      eid,
    );
    const part = (title, rows) => (rows.length ? `\n## ${title}\n\n${rows.map((r) => entryMarkdown(r.line, { heading: "###" })).join("\n")}` : "");
    return part("Corrected by", by) + part("Corrects", of);
  } finally {
    ix.close();
  }
}

/**
 * The team rows (pulled from the exported database by `record sync`) whose eid is `eid` or begins with it:
 * [{ eid, line, machine, host }], for `record show` of an entry that is in no file here. [] when there are
 * none or recall cannot run here. `options` = {file, env, cwd}.
 */
export async function teamEntries(eid, options = {}) {
  let ix;
  try {
    ix = await openIndex(options);
  } catch {
    return [];
  }
  try {
    // A prefix as a range of the eid index ("~" sorts after every eid character).
    return ix.db.all("SELECT eid, line, machine, host FROM entries WHERE eid >= ? AND eid < ? AND team_id IS NOT NULL ORDER BY eid LIMIT 6", eid, `${eid}~`);
  } finally {
    ix.close();
  }
}
