// The page's script: reads the embedded data, draws the sections (header.js, charts.js, episodes.js,
// facets.js, the timeline of entry.js's entries), keeps the view state (query, facets, selected entry, theme)
// in the URL hash, and answers the keys.

import { drawCharts } from "./charts.js";
import { el } from "./dom.js";
import { entryNode } from "./entry.js";
import { episodesNode } from "./episodes.js";
import { facetNodes } from "./facets.js";
import { headerNode, quarantineNode } from "./header.js";
import { FACETS, applyState, facetValue, hashToState, haystackOf, stateToHash, termsOf } from "./match.js";

const PAGE = 50;

// Marks for bench/view.js: data parsed, charts drawn, page ready.
const dataElement = document.getElementById("data");
const data = JSON.parse(dataElement.textContent);
dataElement.textContent = ""; // its text, as large as the page, is not needed once parsed
performance.mark("view:parsed");
const entries = data.entries;
// What the search looks in, made once, when first needed or when the page is idle after it is drawn.
let hay = null;
const haystacks = () => {
  if (!hay) {
    hay = entries.map(haystackOf);
    performance.mark("view:haystacks");
  }
  return hay;
};
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
  const theme = el("button", { type: "button", id: "theme" }, "light / dark");
  theme.addEventListener("click", () => {
    const dark = document.documentElement.dataset.theme ? document.documentElement.dataset.theme === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
    state.theme = dark ? "light" : "dark";
    applyTheme();
    writeHash();
  });
  const helpButton = el("button", { type: "button", id: "help-button" }, "?");
  helpButton.addEventListener("click", toggleHelp);
  return headerNode(data.meta, { search, theme, help: helpButton });
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

function drawFacets() {
  facetBox.replaceChildren(
    ...facetNodes(
      { counts: view.counts, selected: state.selected, varied, open: facetOpen },
      {
        choose(field, v, checked) {
          const chosen = (state.selected[field] ??= new Set());
          if (checked) chosen.add(v);
          else chosen.delete(v);
          update();
        },
        toggleAll(field) {
          if (facetOpen.has(field)) facetOpen.delete(field);
          else facetOpen.add(field);
          drawFacets();
        },
        clear() {
          state.selected = {};
          state.query = "";
          search.value = "";
          update();
        },
      },
    ),
  );
}

function drawEpisodes() {
  episodeBox.replaceChildren(episodesNode(data.episodes, state.selected.repo, { byEid, jump }));
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
  view = applyState(entries, state.query ? haystacks() : null, state.query, state.selected, [...varied]);
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
    quarantineNode(data.quarantine, data.meta),
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
