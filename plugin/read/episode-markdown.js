// Markdown of one failure episode (plugin/read/episodes.js) for `record md`: its runs as one item — how many,
// from when to when, at which heads, the lines that say why it failed, how it ended, the lessons that name it,
// the first and the last output — with every run's eid so each line can still be looked up.

const code = (s) => {
  const t = String(s).replace(/\n/g, " ");
  let fence = "`";
  while (t.includes(fence)) fence += "`";
  return `${fence}${t.startsWith("`") || t.endsWith("`") ? ` ${t} ` : t}${fence}`;
};

const quote = (text) =>
  text
    .replace(/\n+$/, "")
    .split("\n")
    .map((l) => (l === "" ? ">" : `> ${l}`))
    .join("\n");

/** A one-line gist of an entry, for naming a lesson: its lesson, finding, note or title, cut to 100. */
function gist(entry) {
  for (const k of ["lesson", "finding", "title", "summary", "note"]) {
    const v = entry?.[k];
    if (typeof v === "string" && v.trim()) {
      const t = v.replace(/\s+/g, " ").trim();
      return t.length > 100 ? `${t.slice(0, 99)}…` : t;
    }
  }
  return "";
}

/** Markdown for one episode; `entryOf(eid)` finds an entry (for its lessons' text). */
export function episodeMarkdown(ep, { heading = "##", entryOf = () => undefined, state = "" } = {}) {
  const what = ep.command ? ` — ${ep.command.replace(/\s+/g, " ").slice(0, 72)}` : "";
  const lines = [`${heading} ${ep.trigger ?? "failure"} ×${ep.count}${what}${state ? ` (${state})` : ""}`, ""];
  const span = ep.first_ts === ep.last_ts ? `${ep.first_ts ?? "time unknown"}` : `${ep.first_ts ?? "?"} → ${ep.last_ts ?? "?"}`;
  lines.push(`- **When:** ${span} · ${ep.count} run${ep.count === 1 ? "" : "s"} · fingerprint ${code(ep.fp)}`);
  const where = [];
  if (ep.repo) where.push(`repo ${code(ep.repo)}`);
  if (ep.session) where.push(`session ${code(ep.session)}`);
  if (where.length) lines.push(`- **Where:** ${where.join(", ")}`);
  if (ep.heads.length) lines.push(`- **Heads:** ${ep.heads.map((h) => code(h.slice(0, 12))).join(", ")}`);
  if (ep.resolved) {
    const after = typeof ep.resolved.minutes === "number" ? `${ep.resolved.minutes} min after the first run` : "resolved";
    lines.push(`- **Resolved:** ${after}, at ${ep.resolved.ts ?? "?"} · eid ${code(ep.resolved.eid ?? "?")}`);
  } else if (ep.regressed) lines.push("- **Regressed:** failing again after it was resolved before");
  for (const eid of ep.lessons) {
    const text = gist(entryOf(eid));
    lines.push(`- **Lesson:** ${text ? `${text} · ` : ""}eid ${code(eid)}`);
  }
  lines.push(`- **Runs:** ${ep.eids.map(code).join(", ")}`);
  const blocks = [];
  if (ep.failure.length) blocks.push(`**Failure:**\n\n${quote(ep.failure.join("\n"))}`);
  if (ep.first_output) blocks.push(`**${ep.count > 1 ? "First output" : "Output"}:**\n\n${quote(ep.first_output)}`);
  if (ep.count > 1 && ep.last_output && ep.last_output !== ep.first_output) blocks.push(`**Last output:**\n\n${quote(ep.last_output)}`);
  if (blocks.length) lines.push("", blocks.join("\n\n"));
  return lines.join("\n") + "\n";
}
