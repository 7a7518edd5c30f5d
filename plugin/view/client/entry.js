// One entry of the timeline: its label, title and stamps line, its gist, its episode and corrections, its
// members (long ones folded with their size) and its stored line with the eid and `record show EID`.

import { membersOfEmbedded, presented } from "../entry-view.js";
import { bytes, el, marked } from "./dom.js";

/** Members folded even when short: what a subagent was asked and answered, and captured output. */
const FOLDED = new Set(["prompt", "result", "output_tail", "output", "args", "error", "transcript"]);
const LONG_CHARS = 280;
/** Captures styled by name (a class is never made from any other recorded text). */
const CAPTURES = new Set(["cli", "agent", "auto", "mcp"]);
const LONG_LINES = 4;

function isLong(key, text) {
  return FOLDED.has(key) || text.length > LONG_CHARS || text.split("\n", LONG_LINES + 1).length > LONG_LINES;
}

function memberNode(e, [key, text, json, size, cut], terms) {
  const body = el("pre", { className: json ? "value json" : "value" }, marked(text, terms));
  const note = cut ? el("p", { className: "cut" }, `cut here: ${bytes(size)} in all; record show ${e.eid ?? "EID"} prints it whole`) : null;
  if (!isLong(key, text)) return el("div", { className: "member" }, el("span", { className: "key" }, key), body, note);
  return el("details", { className: "member long" }, el("summary", null, el("span", { className: "key" }, key), ` ${bytes(size)}`), body, note);
}

function ref(ctx, eid, how) {
  const target = ctx.byEid.get(eid);
  const a = el("button", { type: "button", className: "ref" }, eid);
  a.addEventListener("click", () => ctx.jump(eid));
  return el("div", { className: `related ${how.replace(/\s/g, "-")}` }, `${how} `, a, target ? el("span", { className: "gist" }, ` ${presented(target).title}`) : " (not on this page)");
}

function copyButton(text) {
  const b = el("button", { type: "button", className: "copy" }, "copy");
  b.addEventListener("click", () => {
    const done = () => (b.textContent = "copied");
    try {
      navigator.clipboard.writeText(text).then(done, () => selectText(b.previousSibling));
    } catch {
      selectText(b.previousSibling);
    }
  });
  return b;
}

function selectText(node) {
  const r = document.createRange();
  r.selectNodeContents(node);
  const s = getSelection();
  s.removeAllRanges();
  s.addRange(r);
}

/** The element for entry `e`. ctx: { terms, byEid, episodes (id → episode), jump(eid), showEpisode(id) }. */
export function entryNode(e0, i, ctx) {
  const { terms } = ctx;
  const e = presented(e0);
  const head = el("div", { className: "head" }, el("span", { className: `label cap-${CAPTURES.has(e.capture) ? e.capture : "other"}` }, e.label), el("span", { className: "title" }, marked(e.title, terms)));
  const node = el("article", { className: "entry", tabIndex: -1, data: { i: String(i) } }, head, el("div", { className: "stamps" }, marked(e.stamps, terms)));
  if (e.gist && e.gist !== "(no text)") node.append(el("p", { className: "gist" }, marked(e.gist, terms)));
  const ep = e.episode ? ctx.episodes.get(e.episode) : null;
  if (ep) {
    const b = el("button", { type: "button", className: "ref" }, `episode: ${ep.count} failure${ep.count === 1 ? "" : "s"}, ${ep.resolved ? `green after ${ep.resolved.minutes ?? "?"} min` : "still red"}${ep.regressed ? ", came back" : ""}`);
    b.addEventListener("click", () => ctx.showEpisode(ep.id));
    node.append(el("div", { className: "related ep" }, b));
  }
  for (const c of e.corrects ?? []) node.append(ref(ctx, c, "corrects"));
  for (const c of e.corrected_by ?? []) node.append(ref(ctx, c, "corrected by"));
  const members = el("details", { className: "members" }, el("summary", null, "members"));
  members.addEventListener("toggle", () => {
    if (members.open && members.children.length === 1) for (const m of membersOfEmbedded(e)) members.append(memberNode(e, m, terms));
  });
  const show = `record show ${e.eid ?? ""}`.trim();
  const line = el("details", { className: "line" }, el("summary", null, `stored line · ${bytes(e.line_bytes)}${e.eid ? ` · eid ${e.eid}` : ""}`));
  line.addEventListener("toggle", () => {
    if (!line.open || line.children.length > 1) return;
    line.append(el("pre", { className: "value json" }, e.line));
    if (e.line_cut) line.append(el("p", { className: "cut" }, `cut here: ${bytes(e.line_bytes)} in all`));
    if (e.eid) line.append(el("div", { className: "show" }, el("code", null, show), copyButton(show)));
  });
  node.append(members, line);
  // A match only inside the members is shown open, so the highlight can be seen.
  const low = `${e.title}\n${e.gist}\n${e.stamps}`.toLowerCase();
  if (terms.length && terms.some((t) => !low.includes(t))) members.open = true;
  return node;
}
