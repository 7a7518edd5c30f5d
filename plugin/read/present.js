// How an entry presents itself to a person: its title, its label, its gist, its lead members and its stamps.
// `record show`/`record md` (markdown.js), recall's short lines (recall/format.js), the text the derived
// stores index (columns.js) and `record view` all take these rules from here, so no reader of recordings
// has an idea of its own of what an entry is called. Each function takes a parsed entry (or, for markdown,
// an object of the first value of each member) and never throws.

/** Members that are stamps about where and how an entry was made, not what it says: left out of its text. */
export const STAMPS = new Set([
  "ts", "capture", "trigger", "kind", "session", "model", "agent", "repo", "origin", "git_dir", "head", "branch",
  "eid", "pwd", "client", "parent_session", "redacted", "redaction_rules", "raw_b64", "raw_encoding", "call",
  "child_session", "subagent_transcript",
]);
/** Stamps shown in an entry's heading lines rather than among its members. `kind` is a lead member instead, and
 *  the links to a host's own records (parent and child session, call, transcript) are shown as members. */
export const HEADING_STAMPS = new Set([
  "ts", "eid", "capture", "trigger", "pwd", "repo", "git_dir", "origin", "head", "branch", "session", "model", "agent",
  "client", "redacted", "redaction_rules",
]);
/** Where an entry was recorded and how, in the order they are shown. */
export const WHERE_STAMPS = ["repo", "branch", "head", "pwd"];
export const HOW_STAMPS = ["capture", "trigger", "session", "model", "agent", "client"];
/** Body members shown first, in this order, when present (the rest follow in the entry's order). */
export const LEAD_KEYS = ["category", "kind", "finding", "result", "lesson", "note", "sentiment"];

/** A title is "<label> — <text>": the label from the first of these that is a non-blank string (the agent's
 *  own word for what it records comes first)... */
const TITLE_LABEL_KEYS = ["category", "kind", "trigger"];
/** ...the text from the first of these. */
const TITLE_TEXT_KEYS = ["title", "summary", "finding", "lesson", "note", "raw"];
/** A label names the kind of entry in one word: what the recorder or host says first, then the agent's word. */
const LABEL_KEYS = ["kind", "trigger", "category", "capture"];
/** The member whose first line stands for an entry, first that is a non-empty string. */
const GIST_KEYS = ["lesson", "finding", "note", "summary", "title", "message", "error", "result", "description", "raw", "value"];
const GIST_CHARS = 160;
/** A commit hash is shown by its first characters. */
const HEAD_CHARS = 12;

const isText = (v) => typeof v === "string" && v.trim() !== "";

/** Whitespace runs as one space, cut to `max` characters with an ellipsis. */
export function oneLine(s, max) {
  const text = String(s);
  // A long text is collapsed from a prefix that is long enough: the same result without scanning all of it.
  const prefix = text.length > 2 * max + 64 ? collapse(text.slice(0, 2 * max + 64)) : null;
  const t = prefix !== null && prefix.length > max ? prefix : collapse(text);
  return t.length > max ? t.slice(0, max - 1).trimEnd() + "…" : t;
}

function collapse(s) {
  return s.replace(/\s+/g, " ").trim();
}

/** The first non-blank line, trimmed and cut to `max` characters with an ellipsis. */
export function firstLine(s, max = GIST_CHARS) {
  const text = String(s);
  let t = "";
  for (let at = 0; at <= text.length; ) {
    let nl = text.indexOf("\n", at);
    if (nl < 0) nl = text.length;
    t = text.slice(at, nl).trim();
    if (t) break;
    at = nl + 1;
  }
  return t.length > max ? t.slice(0, max - 1).trimEnd() + "…" : t;
}

function firstOf(entry, keys) {
  for (const k of keys) if (isText(entry[k])) return entry[k];
  return "";
}

/** The title of an entry's heading: "<label> — <text>", either alone when the other is missing, or "(no text)". */
export function titleOf(entry) {
  const tl = firstOf(entry, TITLE_LABEL_KEYS);
  const tt = firstOf(entry, TITLE_TEXT_KEYS);
  return [tl && oneLine(tl, 40), tt && oneLine(tt, 72)].filter(Boolean).join(" — ") || "(no text)";
}

/** The kind of entry in one word: its kind, trigger, category or capture, else "entry". */
export function labelOf(entry) {
  for (const k of LABEL_KEYS) if (typeof entry[k] === "string" && entry[k]) return entry[k];
  return "entry";
}

/** What an entry says, in one line: its lesson (or finding, note, ...); an automatic failure's command and
 *  the first line of its output that names an error. */
export function gistOf(entry) {
  for (const k of GIST_KEYS) if (isText(entry[k])) return firstLine(entry[k]);
  if (typeof entry.command === "string") {
    const out = typeof entry.output_tail === "string" ? entry.output_tail.split("\n") : [];
    const err = out.find((l) => /error|fail|panic|not found|cannot/i.test(l)) ?? "";
    return firstLine(`${firstLine(entry.command, 80)}${entry.exit !== undefined ? ` (exit ${entry.exit})` : ""}${err ? `: ${err.trim()}` : ""}`);
  }
  return "(no text)";
}

/** Where and how an entry was recorded: { where: [[key, value]], how: [[key, value]] }, string stamps only,
 *  the head shortened. */
export function stampsOf(entry) {
  const pick = (keys) =>
    keys.filter((k) => typeof entry[k] === "string" && entry[k] !== "").map((k) => [k, k === "head" && entry[k].length > HEAD_CHARS ? entry[k].slice(0, HEAD_CHARS) : entry[k]]);
  return { where: pick(WHERE_STAMPS), how: pick(HOW_STAMPS) };
}

/** An entry's stamps on one line: its time, then where and how, separated by " · ". */
export function stampsLine(entry) {
  const { where, how } = stampsOf(entry);
  const parts = typeof entry.ts === "string" && entry.ts ? [entry.ts] : [];
  for (const [k, v] of [...where, ...how]) parts.push(k === "repo" || k === "pwd" ? v : `${k} ${v}`);
  return parts.join(" · ");
}

/** The members an entry's body shows, in order: the lead members first, then the rest as they came; stamps
 *  left out, and `raw` (the verbatim input kept beside what was read out of text) only when nothing else is
 *  said. `members` are [key, value] pairs (duplicates allowed). */
export function leadMembers(members) {
  const body = members.filter(([k]) => !HEADING_STAMPS.has(k));
  const hasContent = body.some(([k]) => k !== "raw");
  const shown = body.filter(([k]) => k !== "raw" || !hasContent);
  return [...LEAD_KEYS.flatMap((k) => shown.filter(([key]) => key === k)), ...shown.filter(([k]) => !LEAD_KEYS.includes(k))];
}

const HTML_ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text made safe to place in HTML text or a quoted attribute. */
export function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}
