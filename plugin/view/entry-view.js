// One entry as the view shows it, from its stored line: the facet columns (columns.js), the title, label, gist
// and stamps line (read/present.js) and its members as shown. Pure and free of Node's modules, so the page's
// script runs the same code on the lines it embeds as Node does for the lines it must cut.

import { utf8Bytes } from "../capture/bound.js";
import { columnsOf } from "../columns.js";
import { rawMembers } from "../read/members.js";
import { gistOf, labelOf, leadMembers, stampsLine, titleOf } from "../read/present.js";

/** A member longer than this is shown cut (the page says how long it was and how to see all of it). */
export const FIELD_CHARS = 16 * 1024;

/** One member as shown: [key, text, json, bytes, cut] — a string as its text, anything else as its JSON as
 *  written; `bytes` is the UTF-8 size of the whole value. */
function memberOf([key, raw]) {
  let text = raw;
  let json = 1;
  if (raw.startsWith('"')) {
    try {
      text = JSON.parse(raw);
      json = 0;
    } catch {
      // shown as written
    }
  }
  const cut = text.length > FIELD_CHARS;
  return [key, cut ? text.slice(0, FIELD_CHARS) : text, json, utf8Bytes(text), cut ? 1 : 0];
}

/** The members an entry's body shows, in order (read/present.js's leadMembers), from its stored line. */
export function membersOf(line) {
  return leadMembers(rawMembers(line)).map(memberOf);
}

/** What the page groups, counts and filters an entry by: its eid, time, day and the facet columns
 *  (columns.js), each left out when the entry has none. */
export function columnsView(entry) {
  const cols = columnsOf(entry);
  const view = {};
  const put = (k, v) => {
    if (v !== null && v !== undefined && v !== "") view[k] = v;
  };
  put("eid", typeof entry.eid === "string" ? entry.eid : null);
  put("ts", cols.ts);
  put("day", cols.ts && /^\d{4}-\d\d-\d\d/.test(cols.ts) ? cols.ts.slice(0, 10) : "");
  for (const k of ["repo", "session", "capture", "trigger", "kind", "model", "agent"]) put(k, cols[k]);
  if (entry.sentiment !== undefined) view.sentiment = 1;
  put("fp", typeof entry.fp === "string" ? entry.fp : null);
  return view;
}

/** How an entry is shown (read/present.js): its label, title, gist and stamps line. */
export function presentView(entry) {
  return { label: labelOf(entry), title: titleOf(entry), gist: gistOf(entry), stamps: stampsLine(entry) };
}

/** An embedded entry's presentation, made from its line when first shown (a line embedded cut brings its
 *  own, made from the whole line). */
export function presented(e) {
  if (e.title === undefined) Object.assign(e, presentView(JSON.parse(e.line)));
  return e;
}

/** The members of an embedded entry (made when first shown). */
export function membersOfEmbedded(e) {
  return (e.members ??= membersOf(e.line));
}
