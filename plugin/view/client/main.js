// The page's script: reads the embedded data, then draws the header, charts, episodes, facets, timeline and
// quarantine list, and keeps the view state (query, facets, selected entry, theme) in the URL hash.

import { drawCharts } from "./charts.js";
import { bytes, el } from "./dom.js";
import { presented } from "../entry-view.js";
import { entryNode } from "./entry.js";
import { FACETS, applyState, facetValue, hashToState, haystackOf, stateToHash, termsOf } from "./match.js";

const PAGE = 50;
const FACET_SHOWN = 8;

// Marks for bench/view.js: data parsed, charts drawn, page ready.
const data = JSON.parse(document.getElementById("data").textContent);
performance.mark("view:parsed");
const entries = data.entries;
// What the search looks in, made once, when first needed or when the page is idle after it is drawn.
let hay = null;
const haystacks = () => (hay ??= entries.map(haystackOf));
const byEid = new Map(entries.filter((e) => e.eid).map((e) => [e.eid, e]));
const episodes = new Map(data.episodes.map((ep) => [ep.id, ep]));
const indexOfEid = new Map(entries.map((e, i) => [e.eid, i]));

let state = hashToState(location.hash);
let view = { shown: [], counts: {} };
let rendered = 0;
let cursor = -1; // position in view.shown of the selected entry
const facetOpen = new Set();
// A facet is listed when the page's entries hold more than one value of it.
const varied = new Set(FACETS.map(([f]) => f).filter((f) => new Set(entries.map((e) => facetValue(e, f))).size > 1));

const app = document.getElementById("app");
const search = el("input", { type: "search", id: "q", placeholder: "Search every entry (/)", autocomplete: "off", spellcheck: false });
const status = el("p", { id: "status", className: "status" });
const facetBox = el("nav", { id: "facets", ariaLabel: "Facets" });
const timeline = el("div", { id: "timeline" });
const more = el("button", { type: "button", id: "more", hidden: true });
const chartBox = el("div", { id: "charts", className: "charts" });
const episodeBox = el("div", { id: "episodes" });
const help = el(
  "div",
  { id: "help", className: "help", hidden: true, role: "dialog", ariaLabel: "Keyboard" },
  el("h2", null, "Keyboard"),
  el("dl", null, [["/", "search"], ["j / k", "next / previous entry"], ["o", "open or close the selected entry"], ["Esc", "leave the search box, close this"], ["?", "this help"]].map(([k, v]) => [el("dt", null, el("kbd", null, k)), el("dd", null, v)])),
);

function header() {
  const m = data.meta;
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
  const theme = el("button", { type: "button", id: "theme" }, "light / dark");
  theme.addEventListener("click", () => {
    const dark = document.documentElement.dataset.theme ? document.documentElement.dataset.theme === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
    state.theme = dark ? "light" : "dark";
    applyTheme();
    writeHash();
  });
  const helpButton = el("button", { type: "button", id: "help-button" }, "?");
  helpButton.addEventListener("click", toggleHelp);
  const cut = m.left_out
    ? el("p", { className: "cutnote", id: "cutnote" }, `${m.left_out} older entries${m.left_out_until ? ` (up to ${m.left_out_until})` : ""} are not on this page: it is capped at ${bytes(m.max_bytes)} (record view --max-bytes). The charts and episodes count them.`)
    : null;
  return el("header", null, el("div", { className: "bar" }, el("h1", null, "Recordings"), search, theme, helpButton), el("p", { className: "facts", id: "facts" }, facts.join(" · ")), files, cut);
}

function applyTheme() {
  if (state.theme) document.documentElement.dataset.theme = state.theme;
  else delete document.documentElement.dataset.theme;
  if (chartsDrawn) drawCharts(chartBox, data.charts);
}

let chartsDrawn = false;
const chartSection = el("details", { className: "section", id: "charts-section", open: innerWidth > 700 }, el("summary", null, el("h2", null, "Charts")), chartBox);
chartSection.addEventListener("toggle", () => {
  if (chartSection.open && !chartsDrawn) {
    chartsDrawn = true;
    drawCharts(chartBox, data.charts);
  }
});

function episodeNode(ep) {
  const when = ep.first_ts === ep.last_ts ? ep.first_ts : `${ep.first_ts} → ${ep.last_ts}`;
  const res = ep.resolved ? `green after ${ep.resolved.minutes ?? "?"} min (${ep.resolved.eid ?? "?"})` : "still red";
  const runs = el(
    "ol",
    { className: "runs" },
    ep.eids.map((eid) => {
      const b = el("button", { type: "button", className: "ref" }, eid);
      b.addEventListener("click", () => jump(eid));
      const e = byEid.get(eid);
      return el("li", null, b, e ? ` ${e.ts ?? ""} ${presented(e).gist}` : " (not on this page)");
    }),
  );
  const lessons = ep.lessons.map((eid) => {
    const b = el("button", { type: "button", className: "ref" }, eid);
    b.addEventListener("click", () => jump(eid));
    const e = byEid.get(eid);
    return el("li", null, "lesson ", b, e ? ` ${presented(e).gist}` : "");
  });
  return el(
    "details",
    { className: `episode ${ep.resolved ? "green" : "red"}${ep.regressed ? " regressed" : ""}`, id: `ep-${ep.id}` },
    el("summary", null, el("span", { className: "count" }, `${ep.count}×`), ` ${ep.command ?? ep.fp}`, el("span", { className: "stamps" }, ` · ${ep.repo ?? "(no repo)"} · ${when} · ${res}${ep.regressed ? " · came back after a fix" : ""}`)),
    el("p", { className: "fp" }, `fingerprint ${ep.fp}${ep.session ? ` · session ${ep.session}` : ""}${ep.heads.length ? ` · at ${ep.heads.map((h) => h.slice(0, 12)).join(", ")}` : ""}`),
    ep.failure?.length || ep.head ? el("ul", { className: "heads" }, (ep.failure?.length ? ep.failure : [ep.head]).map((h) => el("li", null, h))) : null,
    ep.last_output ? el("details", { className: "member long" }, el("summary", null, "last output"), el("pre", { className: "value" }, ep.last_output)) : null,
    lessons.length ? el("ul", { className: "lessons" }, lessons) : el("p", { className: "note" }, "no lesson names it yet"),
    runs,
  );
}

function drawEpisodes() {
  const repos = state.selected.repo;
  const list = data.episodes.filter((ep) => !repos || !repos.size || repos.has(ep.repo ?? "(none)"));
  episodeBox.replaceChildren(list.length ? el("div", null, list.slice().reverse().map(episodeNode)) : el("p", { className: "empty" }, "no failure episodes"));
}

function drawFacets() {
  const groups = FACETS.map(([field, heading]) => {
    const counts = view.counts[field];
    const chosen = state.selected[field] ?? new Set();
    const values = [...new Set([...counts.keys(), ...chosen])].sort((a, b) => (counts.get(b) ?? 0) - (counts.get(a) ?? 0) || (a < b ? -1 : 1));
    if (!varied.has(field)) return null;
    const all = facetOpen.has(field);
    const items = (all ? values : values.slice(0, FACET_SHOWN)).map((v) => {
      const box = el("input", { type: "checkbox", checked: chosen.has(v), data: { field } });
      box.value = v;
      box.addEventListener("change", () => {
        const s = (state.selected[field] ??= new Set());
        if (box.checked) s.add(v);
        else s.delete(v);
        update();
      });
      return el("li", null, el("label", null, box, el("span", { className: "v" }, v), el("span", { className: "n" }, String(counts.get(v) ?? 0))));
    });
    const toggle = values.length > FACET_SHOWN ? el("button", { type: "button", className: "all" }, all ? "fewer" : `all ${values.length}`) : null;
    toggle?.addEventListener("click", () => {
      if (all) facetOpen.delete(field);
      else facetOpen.add(field);
      drawFacets();
    });
    return el("fieldset", { className: "facet", data: { field } }, el("legend", null, heading), el("ul", null, items), toggle);
  });
  const clear = el("button", { type: "button", id: "clear" }, "clear filters");
  clear.addEventListener("click", () => {
    state.selected = {};
    state.query = "";
    search.value = "";
    update();
  });
  facetBox.replaceChildren(...groups.filter(Boolean), clear);
}

function renderMore(upTo = rendered + PAGE) {
  const terms = termsOf(state.query);
  const ctx = { terms, byEid, episodes, jump, showEpisode };
  const frag = document.createDocumentFragment();
  const end = Math.min(view.shown.length, upTo);
  let prev = rendered > 0 ? entries[view.shown[rendered - 1]] : null;
  for (let k = rendered; k < end; k++) {
    const i = view.shown[k];
    const e = entries[i];
    if (!prev || prev.day !== e.day) frag.append(el("h3", { className: "day" }, e.day || "(no date)"));
    if (!prev || prev.day !== e.day || prev.repo !== e.repo) frag.append(el("h4", { className: "repo" }, e.repo ?? "(no repository)"));
    if (!prev || prev.day !== e.day || prev.repo !== e.repo || prev.session !== e.session) frag.append(el("h5", { className: "session" }, `session ${e.session ?? "(none)"}`));
    frag.append(entryNode(e, i, ctx));
    prev = e;
  }
  timeline.append(frag);
  rendered = end;
  more.hidden = rendered >= view.shown.length;
  more.textContent = `show ${Math.min(PAGE, view.shown.length - rendered)} more (${view.shown.length - rendered} left)`;
}

function update({ keepSel = false, typing = false } = {}) {
  view = applyState(entries, state.query ? haystacks() : null, state.query, state.selected);
  status.textContent = `${view.shown.length} of ${entries.length} entries on this page match`;
  timeline.replaceChildren();
  rendered = 0;
  renderMore();
  drawFacets();
  drawEpisodes();
  cursor = -1;
  if (keepSel && state.sel) select(view.shown.indexOf(indexOfEid.get(state.sel) ?? -1), false);
  else state.sel = "";
  writeHash({ later: typing });
}

let hashTimer = 0;

/** Puts the state in the URL's hash; `later` waits for a pause in typing (each write costs a few ms). */
function writeHash({ later = false } = {}) {
  clearTimeout(hashTimer);
  if (later) {
    hashTimer = setTimeout(writeHash, 250);
    return;
  }
  const h = stateToHash(state);
  if (h === location.hash || (h === "" && location.hash === "")) return;
  try {
    history.replaceState(null, "", h || location.pathname);
  } catch {
    location.hash = h;
  }
}

function nodeAt(pos) {
  return timeline.querySelector(`article.entry[data-i="${view.shown[pos]}"]`);
}

function select(pos, scroll = true) {
  if (pos < 0 || pos >= view.shown.length) return;
  if (pos >= rendered) renderMore(pos + PAGE);
  nodeAt(cursor)?.classList.remove("selected");
  cursor = pos;
  const node = nodeAt(pos);
  node.classList.add("selected");
  node.focus({ preventScroll: true });
  if (scroll) node.scrollIntoView({ block: "nearest" });
  state.sel = entries[view.shown[pos]].eid ?? "";
  writeHash();
}

function jump(eid) {
  if (!indexOfEid.has(eid)) return;
  let pos = view.shown.indexOf(indexOfEid.get(eid));
  if (pos < 0) {
    state.selected = {};
    state.query = "";
    search.value = "";
    update();
    pos = view.shown.indexOf(indexOfEid.get(eid));
  }
  select(pos);
}

function showEpisode(id) {
  const node = document.getElementById(`ep-${id}`);
  if (!node) return;
  node.closest("details.section").open = true;
  node.open = true;
  node.scrollIntoView({ block: "start" });
}

function toggleHelp() {
  help.hidden = !help.hidden;
}

function quarantineSection() {
  const q = data.quarantine;
  const m = data.meta;
  return el(
    "details",
    { className: "section", id: "quarantine" },
    el("summary", null, el("h2", null, `Quarantine (${m.quarantined})`)),
    el("p", { className: "note" }, `Lines that could not be kept in the main file, from ${m.quarantine_file}; ${q.length < m.quarantined ? `the newest ${q.length} listed` : "all listed"}, each up to 2000 characters.`),
    el("ol", null, q.map((x) => el("li", null, el("div", { className: "stamps" }, [x.ts ?? "time unknown", x.eid ? `eid ${x.eid}` : null, x.reason, bytes(x.bytes)].filter(Boolean).join(" · ")), el("pre", { className: "value json" }, x.preview)))),
  );
}

function onKey(ev) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const typing = ev.target instanceof HTMLInputElement || ev.target instanceof HTMLTextAreaElement;
  if (ev.key === "Escape") {
    if (!help.hidden) help.hidden = true;
    else if (typing) ev.target.blur();
    return;
  }
  if (typing) return;
  if (ev.key === "/") {
    ev.preventDefault();
    search.focus();
    search.select();
  } else if (ev.key === "j") select(cursor + 1);
  else if (ev.key === "k") select(cursor <= 0 ? 0 : cursor - 1);
  else if (ev.key === "o") {
    const node = nodeAt(cursor);
    const d = node?.querySelector("details.members");
    if (d) d.open = !d.open;
  } else if (ev.key === "?") toggleHelp();
}

function boot() {
  document.title = `Recordings · ${data.meta.shown} entries`;
  app.append(
    header(),
    help,
    chartSection,
    el("details", { className: "section", id: "episodes-section", open: data.episodes.length > 0 }, el("summary", null, el("h2", null, `Failure episodes (${data.episodes.length})`)), episodeBox),
    el("div", { className: "main" }, el("details", { className: "facets-wrap", open: innerWidth > 700 }, el("summary", null, "Filters"), facetBox), el("section", { className: "list" }, el("h2", null, "Timeline"), status, timeline, more)),
    quarantineSection(),
  );
  search.value = state.query;
  let timer = 0;
  search.addEventListener("input", () => {
    clearTimeout(timer);
    state.query = search.value;
    performance.mark("view:input");
    timer = setTimeout(() => {
      update({ typing: true });
      void timeline.offsetHeight; // lay the new list out, so the measure below includes it
      // From the keystroke to the list drawn anew (bench/view.js reads it).
      performance.measure("view:search", "view:input");
    }, 0);
  });
  more.addEventListener("click", () => renderMore());
  if ("IntersectionObserver" in window) new IntersectionObserver((xs) => xs.some((x) => x.isIntersecting) && !more.hidden && renderMore()).observe(more);
  document.addEventListener("keydown", onKey);
  addEventListener("hashchange", () => {
    if (location.hash === stateToHash(state)) return;
    state = hashToState(location.hash);
    search.value = state.query;
    applyTheme();
    update({ keepSel: true });
  });
  applyTheme();
  chartsDrawn = chartSection.open;
  if (chartsDrawn) drawCharts(chartBox, data.charts);
  performance.mark("view:charts");
  update({ keepSel: true });
  if (state.sel && cursor >= 0) nodeAt(cursor)?.scrollIntoView({ block: "center" });
  document.documentElement.dataset.ready = "1";
  performance.mark("view:ready");
  if ("requestIdleCallback" in window) requestIdleCallback(() => haystacks());
}

boot();
