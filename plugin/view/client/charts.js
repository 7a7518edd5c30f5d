// The charts, drawn by uPlot from the series data.js computed over the whole window; colours come from the
// page's CSS variables so both themes read. The fingerprints and the repositories are tables, not plots.

import uPlot from "uplot";
import { el } from "./dom.js";

const PALETTE = ["--c1", "--c2", "--c3", "--c4", "--c5", "--c6"];

function colours() {
  const css = getComputedStyle(document.documentElement);
  return { fg: css.getPropertyValue("--fg").trim(), grid: css.getPropertyValue("--grid").trim(), series: PALETTE.map((v) => css.getPropertyValue(v).trim()) };
}

/** Stacked bars: each series drawn at its running total, tallest first, so each shows as its own band; the
 *  legend still reads each series' own value. */
function stacked(series) {
  const totals = [];
  let run = series[0].values.map(() => 0);
  series.forEach((s, k) => {
    run = run.map((x, i) => x + (s.values[i] ?? 0));
    totals.push({ name: s.name, values: run.map((x) => (x === 0 ? null : x)), own: s.values, k });
  });
  return totals.reverse();
}

function plot(box, title, days, series0, { points = false, bars = false, unit = "", fromZero = bars } = {}) {
  const series = bars && series0.length ? stacked(series0) : series0;
  const c = colours();
  const wrap = el("figure", { className: "chart" }, el("figcaption", null, title));
  box.append(wrap);
  if (!series.length) {
    wrap.append(el("p", { className: "empty" }, "nothing in this window"));
    return null;
  }
  const width = Math.max(260, Math.min(wrap.clientWidth || 560, 900));
  const opts = {
    width,
    height: 180,
    legend: { show: true },
    cursor: { drag: { x: false, y: false } },
    // Counts and minutes start at zero; a sentiment's scale is its own.
    scales: { x: { time: true }, ...(fromZero ? { y: { range: (u, min, max) => [0, Math.max(1, max) * 1.05] } } : {}) },
    axes: [
      { stroke: c.fg, grid: { stroke: c.grid }, ticks: { stroke: c.grid } },
      { stroke: c.fg, grid: { stroke: c.grid }, ticks: { stroke: c.grid }, label: unit || undefined, size: 50 },
    ],
    series: [
      {},
      ...series.map((s, j) => ({
        label: s.name,
        stroke: c.series[(s.k ?? j) % c.series.length],
        fill: bars ? c.series[(s.k ?? j) % c.series.length] : undefined,
        width: points ? 0 : 1.5,
        spanGaps: !points,
        points: { show: points, size: 7 },
        paths: bars ? uPlot.paths.bars({ size: [0.8, 40] }) : undefined,
        value: s.own ? (u, v, si, di) => (di === null || di === undefined ? "--" : String(s.own[di])) : undefined,
      })),
    ],
  };
  return new uPlot(opts, [days, ...series.map((s) => s.values)], wrap);
}

function table(box, title, head, rows) {
  const t = el("table", null, el("thead", null, el("tr", null, head.map((h) => el("th", null, h)))), el("tbody", null, rows.map((r) => el("tr", null, r.map((x) => el("td", null, x))))));
  box.append(el("figure", { className: "chart table" }, el("figcaption", null, title), rows.length ? t : el("p", { className: "empty" }, "none in this window")));
}

/** Draws every chart into `box` (emptied first). Returns the uPlot instances. */
export function drawCharts(box, charts) {
  box.replaceChildren();
  const { days } = charts;
  const made = [
    plot(box, "Entries per day by capture", days, charts.captures, { bars: true }),
    plot(box, "Automatic entries per day by trigger", days, charts.triggers, { bars: true }),
    plot(box, "Failure episodes: minutes to green (median per day) by repository", days, charts.to_green, { points: true, unit: "minutes", fromZero: true }),
    plot(box, "Sentiment over time (daily mean of numeric values)", days, charts.sentiment, { points: true }),
    plot(box, "Sentiment words per day", days, charts.sentiment_words, { bars: true }),
  ];
  const max = Math.max(1, ...charts.fingerprints.map((f) => f.failures));
  table(
    box,
    "Most frequent failure fingerprints",
    ["fingerprint", "failures", "episodes", "repository", "command", "head"],
    charts.fingerprints.map((f) => {
      const bar = el("span", { className: "bar" });
      bar.style.width = `${Math.round((f.failures / max) * 100)}%`;
      return [f.fp, el("span", { className: "count" }, bar, String(f.failures)), String(f.episodes), f.repo ?? "", f.command ?? "", f.head ?? ""];
    }),
  );
  table(
    box,
    "Gate failures by repository",
    ["repository", "failures", "episodes", "green", "came back", "median minutes to green"],
    charts.repos.map((r) => [r.repo, String(r.failures), String(r.episodes), String(r.resolved), String(r.regressed), r.median_minutes === null ? "" : String(r.median_minutes)]),
  );
  box.append(el("p", { className: "note" }, `${charts.felt.reduce((a, b) => a + b, 0)} entries in this window carry a sentiment.`));
  return made.filter(Boolean);
}
