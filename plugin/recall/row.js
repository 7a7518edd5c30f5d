// One entry as the index keeps it: what it says (for FTS5), the names it contains, the eids it mentions.
// Pure: a parsed entry and its stored line in, a row out.

import { columnsOf, contentStrings, namesOf } from "../columns.js";
import { fingerprintOfEntry } from "../read/episodes.js";

/** What of an entry's text is indexed. Automatic entries keep at most ~8 KiB of output; an agent's note is
 *  rarely longer. Past this the words are still in the stored line, only not searchable. */
export const MAX_BODY_CHARS = 32 * 1024;

/** An eid as the core makes it: 13 characters of lower-case Crockford base32. */
export const EID_WORD = /\b[0-9a-hjkmnp-tv-z]{13}\b/g;

/** The eids a text mentions (other than `own`). */
export function mentionedEids(text, own) {
  const out = [];
  for (const m of text.matchAll(EID_WORD)) if (m[0] !== own && !out.includes(m[0])) out.push(m[0]);
  return out;
}

/** { values (in ENTRY_COLUMNS order), body, names, refs } for one entry. */
export function rowOf(entry, line) {
  const cols = columnsOf(entry);
  const eid = typeof entry.eid === "string" && entry.eid ? entry.eid : null;
  const strings = contentStrings(entry);
  const { files, commands } = namesOf(entry, strings);
  let body = strings.join("\n");
  if (body.length > MAX_BODY_CHARS) body = body.slice(0, MAX_BODY_CHARS);
  const t = cols.ts ? Date.parse(cols.ts) : NaN;
  const names = [...files, ...commands, cols.kind, cols.trigger].filter(Boolean).join("\n");
  return {
    eid,
    values: [eid, line, ...Object.values(cols), fingerprintOfEntry(entry, line), files.join("\n") || null, commands.join("\n") || null, Number.isNaN(t) ? null : t],
    body,
    names,
    refs: mentionedEids(body, eid),
  };
}
