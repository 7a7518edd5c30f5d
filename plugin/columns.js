// The columns a derived store (the local recall index, an exported database) keeps beside each entry's exact
// line, so that one table shape serves both. The line is the record; these are only for querying.

/** The common string columns, in table order. Each is the entry's member of that name when it is a string. */
export const COLUMNS = ["ts", "capture", "trigger", "kind", "session", "model", "agent", "repo", "origin", "git_dir", "head", "branch"];

/** The common columns of a parsed entry: each a string or null. `kind` falls back to `category`, the other
 *  name agents use for what kind of observation an entry is. */
export function columnsOf(entry) {
  const out = {};
  for (const c of COLUMNS) out[c] = typeof entry?.[c] === "string" ? entry[c] : null;
  if (out.kind === null && typeof entry?.category === "string") out.kind = entry.category;
  return out;
}
