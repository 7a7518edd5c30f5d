// The failure episodes section: one folded item per episode (read/episodes.js, as data.js embeds them) with
// its count, first and last run, failure lines, heads, resolution and lessons, open to every run.

import { presented } from "../entry-view.js";
import { el } from "./dom.js";

function ref(eid, jump) {
  const b = el("button", { type: "button", className: "ref" }, eid);
  b.addEventListener("click", () => jump(eid));
  return b;
}

function episodeNode(ep, { byEid, jump }) {
  const when = ep.first_ts === ep.last_ts ? ep.first_ts : `${ep.first_ts} → ${ep.last_ts}`;
  const res = ep.resolved ? `green after ${ep.resolved.minutes ?? "?"} min (${ep.resolved.eid ?? "?"})` : "still red";
  const runs = ep.eids.map((eid) => {
    const e = byEid.get(eid);
    return el("li", null, ref(eid, jump), e ? ` ${e.ts ?? ""} ${presented(e).gist}` : " (not on this page)");
  });
  const lessons = ep.lessons.map((eid) => {
    const e = byEid.get(eid);
    return el("li", null, "lesson ", ref(eid, jump), e ? ` ${presented(e).gist}` : "");
  });
  const failure = ep.failure?.length ? ep.failure : ep.head ? [ep.head] : [];
  return el(
    "details",
    { className: `episode ${ep.resolved ? "green" : "red"}${ep.regressed ? " regressed" : ""}`, id: `ep-${ep.id}` },
    el("summary", null, el("span", { className: "count" }, `${ep.count}×`), ` ${ep.command ?? ep.fp}`, el("span", { className: "stamps" }, ` · ${ep.repo ?? "(no repo)"} · ${when} · ${res}${ep.regressed ? " · came back after a fix" : ""}`)),
    el("p", { className: "fp" }, `fingerprint ${ep.fp}${ep.session ? ` · session ${ep.session}` : ""}${ep.heads.length ? ` · at ${ep.heads.map((h) => h.slice(0, 12)).join(", ")}` : ""}`),
    failure.length ? el("ul", { className: "heads" }, failure.map((h) => el("li", null, h))) : null,
    ep.last_output ? el("details", { className: "member long" }, el("summary", null, "last output"), el("pre", { className: "value" }, ep.last_output)) : null,
    lessons.length ? el("ul", { className: "lessons" }, lessons) : el("p", { className: "note" }, "no lesson names it yet"),
    el("ol", { className: "runs" }, runs),
  );
}

/** The episodes of the chosen repositories (all when none is chosen), newest first. ctx: { byEid, jump }. */
export function episodesNode(episodes, repos, ctx) {
  const list = episodes.filter((ep) => !repos || !repos.size || repos.has(ep.repo ?? "(none)"));
  return list.length ? el("div", null, list.slice().reverse().map((ep) => episodeNode(ep, ctx))) : el("p", { className: "empty" }, "no failure episodes");
}
