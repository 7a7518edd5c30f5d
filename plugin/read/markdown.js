// Markdown of entries, for `record show` and `record md`: built from each line as stored, so every value
// reads as it was recorded (see members.js).

import { rawMembers } from "./members.js";

/** Stamps shown in the heading lines of an entry, not in its body. */
const STAMP_KEYS = new Set(["ts", "eid", "capture", "trigger", "pwd", "repo", "git_dir", "origin", "head", "branch", "session", "model", "agent", "client", "redacted", "redaction_rules"]);
/** Body members shown first, in this order, when present (the rest follow in the entry's order). */
const LEAD_KEYS = ["category", "kind", "finding", "result", "lesson", "note", "sentiment"];
/** A title is "<label> — <text>": the label from the first of these that is a string... */
const TITLE_LABEL_KEYS = ["category", "kind", "trigger"];
/** ...the text from the first of these. */
const TITLE_TEXT_KEYS = ["title", "summary", "finding", "lesson", "note", "raw"];

function code(s) {
  const t = String(s).replace(/\n/g, " ");
  let fence = "`";
  while (t.includes(fence)) fence += "`";
  const pad = t.startsWith("`") || t.endsWith("`") ? " " : "";
  return `${fence}${pad}${t}${pad}${fence}`;
}

function label(key) {
  const k = key.replace(/_/g, " ");
  return k.charAt(0).toUpperCase() + k.slice(1);
}

function oneLine(s, max) {
  const t = s.replace(/\s+/g, " ").trim();
  return t.length > max ? t.slice(0, max - 1).trimEnd() + "…" : t;
}

/** A member's value for Markdown: strings as their text, anything else as its JSON exactly as written. */
function valueMarkdown(raw) {
  if (raw === '""') return { block: false, text: code(raw) };
  if (raw.startsWith('"')) {
    let s;
    try {
      s = JSON.parse(raw);
    } catch {
      s = raw;
    }
    if (s.includes("\n")) return { block: true, text: s };
    return { block: false, text: s };
  }
  if (raw.length > 80 || raw.includes("\n")) return { block: true, text: raw, json: true };
  return { block: false, text: code(raw) };
}

function indentBlock(text, json) {
  if (json) {
    let fence = "```";
    while (text.includes(fence)) fence += "`";
    return `${fence}json\n${text}\n${fence}`;
  }
  return text
    .split("\n")
    .map((l) => (l === "" ? ">" : `> ${l}`))
    .join("\n");
}

/**
 * Markdown for one entry, from its line as stored (so every value is shown as written): a heading with a
 * title and the time, where it was recorded (repo, branch, head, pwd), how (capture, trigger, session, model,
 * agent), then its members — category, finding, result, lesson, note, sentiment first — with strings as text
 * and everything else as its JSON exactly as written. `raw` (the verbatim input kept beside what was read out
 * of text) is shown only when nothing else was.
 */
export function entryMarkdown(text, { heading = "##" } = {}) {
  const members = rawMembers(text);
  const get = (k) => {
    for (const [key, raw] of members) if (key === k) return raw;
    return undefined;
  };
  const str = (k) => {
    const raw = get(k);
    if (raw === undefined || !raw.startsWith('"')) return undefined;
    try {
      return JSON.parse(raw);
    } catch {
      return undefined;
    }
  };
  const firstOf = (keys) => {
    for (const k of keys) {
      const v = str(k);
      if (v && v.trim()) return v;
    }
    return "";
  };
  const tl = firstOf(TITLE_LABEL_KEYS);
  const tt = firstOf(TITLE_TEXT_KEYS);
  const title = [tl && oneLine(tl, 40), tt && oneLine(tt, 72)].filter(Boolean).join(" — ") || "(no text)";
  const ts = str("ts");
  const lines = [`${heading} ${title}`, ""];
  const when = ts ? ts : "time unknown";
  const eid = str("eid");
  lines.push(`- **When:** ${when}${eid ? ` · eid ${code(eid)}` : ""}`);
  const where = [];
  const repo = str("repo");
  const branch = str("branch");
  const head = str("head");
  const pwd = str("pwd");
  if (repo) where.push(`repo ${code(repo)}`);
  if (branch) where.push(`branch ${code(branch)}`);
  if (head) where.push(`head ${code(head.length > 12 ? head.slice(0, 12) : head)}`);
  if (pwd) where.push(`in ${code(pwd)}`);
  if (where.length) lines.push(`- **Where:** ${where.join(", ")}`);
  const how = [];
  for (const k of ["capture", "trigger", "session", "model", "agent", "client"]) {
    const v = str(k);
    if (v) how.push(`${k} ${code(v)}`);
  }
  if (how.length) lines.push(`- **How:** ${how.join(", ")}`);
  const body = members.filter(([k]) => !STAMP_KEYS.has(k));
  const hasContent = body.some(([k]) => k !== "raw");
  const shown = body.filter(([k]) => k !== "raw" || !hasContent);
  const ordered = [
    ...LEAD_KEYS.flatMap((k) => shown.filter(([key]) => key === k)),
    ...shown.filter(([k]) => !LEAD_KEYS.includes(k)),
  ];
  const blocks = [];
  const items = [];
  for (const [k, raw] of ordered) {
    const v = valueMarkdown(raw);
    if (v.block) blocks.push(`**${label(k)}:**\n\n${indentBlock(v.text, v.json)}`);
    else items.push(`- **${label(k)}:** ${v.text}`);
  }
  lines.push(...items);
  if (blocks.length) lines.push("", blocks.join("\n\n"));
  const redacted = get("redacted");
  if (redacted !== undefined) lines.push("", `_Secrets were redacted (rules ${code(str("redaction_rules") ?? "?")})._`);
  return lines.join("\n") + "\n";
}

/** Markdown for several entries (records from the reader, line texts, or items whose `markdown` is made
 *  already, such as a folded episode), under one title; `count` is how many recordings the title names. */
export function entriesMarkdown(items, { title, count = items.length } = {}) {
  const parts = [];
  parts.push(`# ${title ?? `${count} recording${count === 1 ? "" : "s"}`}\n`);
  for (const x of items) parts.push(typeof x === "string" ? entryMarkdown(x, { heading: "##" }) : (x.markdown ?? entryMarkdown(x.text, { heading: "##" })));
  return parts.join("\n");
}
