// The page's header (when and from what it was made, what it shows of what, the window, the quarantine count,
// where the size cap cut) and the quarantine section.

import { bytes, el } from "./dom.js";

/** The header, with the search box and the theme and help buttons the page made. */
export function headerNode(m, { search, theme, help }) {
  const facts = [
    `made ${m.generated}${m.version ? ` by opencode-recordings ${m.version}` : ""}`,
    `${m.shown} of ${m.total} entries shown`,
    m.window.from ? `window: since ${m.window.from} (${m.window.since})` : "window: everything",
    m.filter.repo.length ? `repository ${m.filter.repo.join(", ")}` : m.filter.git_dir ? `repository at ${m.filter.git_dir}` : "every repository",
    m.filter.session.length ? `session ${m.filter.session.join(", ")}` : null,
    `${m.quarantined} quarantined`,
    m.damaged ? `${m.damaged} damaged line${m.damaged === 1 ? "" : "s"} skipped` : null,
  ].filter(Boolean);
  const files = el("details", { className: "files" }, el("summary", null, `from ${m.file}`), el("ul", null, [...m.segments, m.quarantine_file].map((f) => el("li", null, f))));
  const cut = m.left_out
    ? el("p", { className: "cutnote", id: "cutnote" }, `${m.left_out} older entries${m.left_out_until ? ` (up to ${m.left_out_until})` : ""} are not on this page: it is capped at ${bytes(m.max_bytes)} (record view --max-bytes). The charts and episodes count them.`)
    : null;
  return el("header", null, el("div", { className: "bar" }, el("h1", null, "Recordings"), search, theme, help), el("p", { className: "facts", id: "facts" }, facts.join(" · ")), files, cut);
}

/** The quarantined lines: counted, the newest listed, never mixed into the timeline. */
export function quarantineNode(q, m) {
  return el(
    "details",
    { className: "section", id: "quarantine" },
    el("summary", null, el("h2", null, `Quarantine (${m.quarantined})`)),
    el("p", { className: "note" }, `Lines that could not be kept in the main file, from ${m.quarantine_file}; ${q.length < m.quarantined ? `the newest ${q.length} listed` : "all listed"}, each up to 2000 characters.`),
    el("ol", null, q.map((x) => el("li", null, el("div", { className: "stamps" }, [x.ts ?? "time unknown", x.eid ? `eid ${x.eid}` : null, x.reason, bytes(x.bytes)].filter(Boolean).join(" · ")), el("pre", { className: "value json" }, x.preview)))),
  );
}
