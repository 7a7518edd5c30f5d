// Markdown of entries, for `record show` and `record md`: built from each line as stored, so every value
// reads as it was recorded (see members.js).

import { rawMembers } from "./members.js";
import { leadMembers, stampsOf, titleOf } from "./present.js";

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
  // The first value of each member, as text when it is a string (what this entry's heading is made from).
  const strings = Object.create(null);
  for (const [key, raw] of members) {
    if (key in strings) continue;
    strings[key] = undefined;
    if (raw.startsWith('"')) {
      try {
        strings[key] = JSON.parse(raw);
      } catch {
        // shown as written below
      }
    }
  }
  const str = (k) => strings[k];
  const lines = [`${heading} ${titleOf(strings)}`, ""];
  const ts = str("ts");
  const when = ts ? ts : "time unknown";
  const eid = str("eid");
  lines.push(`- **When:** ${when}${eid ? ` · eid ${code(eid)}` : ""}`);
  const { where, how } = stampsOf(strings);
  const place = where.map(([k, v]) => (k === "pwd" ? `in ${code(v)}` : `${k} ${code(v)}`));
  if (place.length) lines.push(`- **Where:** ${place.join(", ")}`);
  if (how.length) lines.push(`- **How:** ${how.map(([k, v]) => `${k} ${code(v)}`).join(", ")}`);
  const blocks = [];
  const items = [];
  for (const [k, raw] of leadMembers(members)) {
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
