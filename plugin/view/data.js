// What the view page shows, gathered from the reader: the entries of the window as the page embeds them (each
// presented by read/present.js), the failure episodes, the chart series and the header's facts. Nothing here
// writes HTML; page.js embeds the result.

import { contentStrings } from "../columns.js";
import { listSegments } from "../paths.js";
import { foldEpisodes } from "../read/episodes.js";
import { makeFilter, parseTime } from "../read/filter.js";
import { RecordingsReader } from "../read/reader.js";
import { mentionedEids } from "../recall/row.js";
import { columnsView, membersOf, presentView } from "./entry-view.js";

export const DEFAULT_WINDOW = "30d";
export const DEFAULT_MAX_BYTES = 5_000_000;
/** An entry's stored line is embedded up to this many characters. */
export const LINE_CHARS = 64 * 1024;
/** Quarantined lines are counted; the newest of them are listed, each cut to a preview. */
const QUARANTINE_LISTED = 200;
const QUARANTINE_PREVIEW = 2000;
const TOP_FINGERPRINTS = 10;
const TOP_SERIES = 6;
const DAY_MS = 86_400_000;
/** An episode's first and last outputs are embedded up to their last this many characters. */
const EPISODE_OUTPUT_CHARS = 2000;
/** The output line that names what went wrong, for an episode without failure lines. */
const ERROR_LINE = /error|fail|panic|not found|cannot/i;

const str = (v) => (typeof v === "string" && v !== "" ? v : null);

function cut(text, max) {
  return text.length > max ? { text: text.slice(0, max), cut: true } : { text, cut: false };
}

/** A sentiment's numeric members ({ irritation: 0.7 }) and its words ("guilt, relief", ["relief"]). */
function sentimentOf(v) {
  const nums = {};
  const words = [];
  const word = (w) => {
    const t = w.trim().toLowerCase();
    if (t && t.length <= 40 && !words.includes(t)) words.push(t);
  };
  if (typeof v === "string") {
    v.split(/[,;/]/).forEach(word);
  } else if (Array.isArray(v)) {
    for (const x of v) if (typeof x === "string") word(x);
  } else if (v && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) if (typeof x === "number" && Number.isFinite(x)) nums[k] = x;
  }
  return { nums, words };
}

/** One entry as the page embeds it: what it is grouped and filtered by, and its stored line, which the page's
 *  script presents with entry-view.js when it shows it. A line too long to embed whole is cut, and its
 *  presentation and members are made here from the whole line. */
function present(r, n) {
  const line = cut(r.text, LINE_CHARS);
  const out = { n, ...columnsView(r.entry), line: line.text, line_bytes: r.length - 1 };
  if (line.cut) Object.assign(out, { line_cut: 1, ...presentView(r.entry), members: membersOf(r.text) });
  return out;
}

/** An episode as the page embeds it (read/episodes.js's, whose `repo` is where it ran): named by the repo of
 *  its first run, its outputs cut, its first failure line or error line as its `head`. */
function embeddedEpisode(ep, records, at) {
  const first = records[at.get(ep.first_eid)]?.entry ?? {};
  const out = (t) => (typeof t === "string" && t.length > EPISODE_OUTPUT_CHARS ? t.slice(-EPISODE_OUTPUT_CHARS) : t);
  const line = (ep.failure ?? [])[0] ?? (ep.first_output ?? "").split("\n").find((l) => ERROR_LINE.test(l)) ?? null;
  return { ...ep, repo: str(first.repo) ?? ep.repo, where: ep.repo, head: line ? line.trim().slice(0, 200) : null, first_output: out(ep.first_output), last_output: out(ep.last_output) };
}

/** `<`, U+2028 and U+2029 escaped, so JSON text can sit inside a <script> element whatever it holds. */
export function scriptSafeJson(json) {
  return json.replace(/[<\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function bump(map, key, i, days) {
  let a = map.get(key);
  if (!a) map.set(key, (a = new Array(days).fill(0)));
  a[i]++;
}

function topSeries(map, limit) {
  const sum = (a) => a.reduce((x, y) => x + y, 0);
  return [...map.entries()].sort((a, b) => sum(b[1]) - sum(a[1])).slice(0, limit).map(([name, values]) => ({ name, values }));
}

function median(xs) {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The chart series, over every entry of the window (also those the size cap left off the page). */
function chartsOf(entries, episodes, fromMs, nowMs) {
  let first = Infinity;
  let last = nowMs;
  for (const e of entries) {
    const t = Date.parse(typeof e.ts === "string" ? e.ts : "");
    if (t < first) first = t;
    if (t > last) last = t;
  }
  const start = Math.floor((fromMs ?? (first === Infinity ? nowMs : first)) / DAY_MS) * DAY_MS;
  const end = Math.floor(last / DAY_MS) * DAY_MS;
  const count = Math.max(1, Math.round((end - start) / DAY_MS) + 1);
  const days = Array.from({ length: count }, (_, i) => (start + i * DAY_MS) / 1000);
  const dayOf = (ts) => {
    const t = Date.parse(typeof ts === "string" ? ts : "");
    if (Number.isNaN(t)) return -1;
    const i = Math.floor((t - start) / DAY_MS);
    return i >= 0 && i < count ? i : -1;
  };
  const captures = new Map();
  const triggers = new Map();
  const feelings = new Map(); // key → { sum, n } per day
  const words = new Map(); // sentiment word → entries per day
  const felt = new Array(count).fill(0);
  for (const e of entries) {
    const i = dayOf(e.ts);
    if (i < 0) continue;
    bump(captures, typeof e.capture === "string" ? e.capture : "(none)", i, count);
    if (typeof e.trigger === "string") bump(triggers, e.trigger, i, count);
    if (e.sentiment === undefined) continue;
    felt[i]++;
    const said = sentimentOf(e.sentiment);
    for (const w of said.words) bump(words, w, i, count);
    for (const [k, v] of Object.entries(said.nums)) {
      let f = feelings.get(k);
      if (!f) feelings.set(k, (f = { sum: new Array(count).fill(0), n: new Array(count).fill(0) }));
      f.sum[i] += v;
      f.n[i]++;
    }
  }
  const sentiment = [...feelings.entries()]
    .sort((a, b) => b[1].n.reduce((x, y) => x + y, 0) - a[1].n.reduce((x, y) => x + y, 0))
    .slice(0, TOP_SERIES)
    .map(([name, f]) => ({ name, values: f.sum.map((s, i) => (f.n[i] ? Math.round((s / f.n[i]) * 1000) / 1000 : null)) }));
  const repos = new Map();
  for (const ep of episodes) {
    const name = ep.repo ?? "(no repo)";
    let r = repos.get(name);
    if (!r) repos.set(name, (r = { repo: name, episodes: 0, failures: 0, resolved: 0, regressed: 0, minutes: [], byDay: new Map() }));
    r.episodes++;
    r.failures += ep.count;
    if (ep.regressed) r.regressed++;
    if (ep.resolved && typeof ep.resolved.minutes === "number") {
      r.resolved++;
      r.minutes.push(ep.resolved.minutes);
      const i = dayOf(ep.resolved.ts);
      if (i >= 0) r.byDay.set(i, [...(r.byDay.get(i) ?? []), ep.resolved.minutes]);
    }
  }
  const repoRows = [...repos.values()].sort((a, b) => b.failures - a.failures);
  const toGreen = repoRows.slice(0, TOP_SERIES).map((r) => ({ name: r.repo, values: days.map((_, i) => median(r.byDay.get(i) ?? [])) }));
  const fps = new Map();
  for (const ep of episodes) {
    let f = fps.get(ep.fp);
    if (!f) fps.set(ep.fp, (f = { fp: ep.fp, failures: 0, episodes: 0, repo: ep.repo, command: ep.command, head: ep.head }));
    f.failures += ep.count;
    f.episodes++;
  }
  return {
    days,
    captures: topSeries(captures, TOP_SERIES),
    triggers: topSeries(triggers, TOP_SERIES),
    sentiment,
    sentiment_words: topSeries(words, TOP_SERIES),
    felt,
    to_green: toGreen,
    repos: repoRows.map(({ byDay, minutes, ...r }) => ({ ...r, median_minutes: median(minutes) })),
    fingerprints: [...fps.values()].sort((a, b) => b.failures - a.failures).slice(0, TOP_FINGERPRINTS),
  };
}

/** Display order: days newest first; within a day by repository, then sessions latest first, each session's
 *  entries in append order. `list` holds { x, v } (the embedded entry and its view). */
function displayOrder(list) {
  const group = ({ v }) => `${v.day}\u0000${v.repo ?? ""}\u0000${v.session ?? ""}`;
  const last = new Map();
  for (const it of list) last.set(group(it), Math.max(last.get(group(it)) ?? -1, it.x.n));
  const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  return list
    .sort((a, b) => cmp(b.v.day, a.v.day) || cmp(a.v.repo ?? "", b.v.repo ?? "") || last.get(group(b)) - last.get(group(a)) || a.x.n - b.x.n)
    .map((it) => it.x);
}

/** Corrections: an entry that names an earlier entry's eid corrects (or extends) it; both carry the link.
 *  Automatic entries cite eids as facts (a green gate names its first failure), so they correct nothing.
 *  Over every record of the window, so a link to an entry the cap left off is still shown. */
function correctionsOf(records) {
  const at = new Map();
  records.forEach((r, i) => typeof r.entry.eid === "string" && r.entry.eid && at.set(r.entry.eid, i));
  const links = new Map(); // index → { corrects, corrected_by }
  const of = (i) => links.get(i) ?? links.set(i, {}).get(i);
  records.forEach((r, i) => {
    if (r.entry.capture === "auto") return;
    const own = typeof r.entry.eid === "string" ? r.entry.eid : null;
    for (const eid of mentionedEids(contentStrings(r.entry).join("\n"), own)) {
      const j = at.get(eid);
      if (j === undefined || j >= i) continue;
      (of(i).corrects ??= []).push(eid);
      if (own) (of(j).corrected_by ??= []).push(own);
    }
  });
  return links;
}

/**
 * The page's data: { meta, entries, episodes, charts, quarantine } with `entries` already in the page's order.
 * Options: file, env, cwd, now (clock), filter ({ repo, gitDir, session }), since (an age or time, default
 * 30d), maxBytes (the page's cap), reserve (bytes of the page besides its data), version.
 */
export function viewData(options = {}) {
  const now = options.now ?? Date.now;
  const nowMs = now();
  const since = options.since ?? DEFAULT_WINDOW;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const f = options.filter ?? {};
  const repos = f.repo ?? [];
  const sessions = f.session ?? [];
  const fromMs = since === "all" ? null : parseTime(since, nowMs);
  // The reader's own filter rules (read/filter.js), and the repository of the working directory by git dir.
  const byFilter = makeFilter({ repo: repos, session: sessions, ...(fromMs === null ? {} : { sinceTime: fromMs }) }, nowMs);
  const keep = (e) => (!f.gitDir || e.git_dir === f.gitDir) && (!byFilter || byFilter(e));
  // A quarantined line may lack the stamps the filters look at: it is judged by the stamps it has, a missing
  // one taken to match.
  const keepQuarantined = (e) => {
    const unplaced = e.repo === undefined && e.origin === undefined && e.git_dir === undefined;
    return keep({
      ...e,
      ...(unplaced ? { repo: repos[0], git_dir: f.gitDir } : {}),
      ...(e.session === undefined ? { session: sessions[0] } : {}),
      ...(typeof e.ts === "string" ? {} : { ts: new Date(nowMs).toISOString() }),
    });
  };
  const common = { file: options.file, env: options.env, cwd: options.cwd, now };
  const reader = new RecordingsReader({ ...common, filter: keep });
  const records = [...reader.records()];
  const { episodes, byEid } = foldEpisodes(records);
  const q = new RecordingsReader({ ...common, quarantine: true, filter: keepQuarantined });
  let quarantined = 0;
  const qlist = [];
  for (const r of q.records()) {
    quarantined++;
    qlist.push({ eid: str(r.entry.eid), ts: str(r.entry.ts), reason: str(r.entry.reason) ?? str(r.entry.quarantine_reason), bytes: r.length - 1, preview: r.text.slice(0, QUARANTINE_PREVIEW) });
    if (qlist.length > QUARANTINE_LISTED) qlist.shift();
  }
  const at = new Map(records.map((r, i) => [r.entry.eid, i]));
  const shownEpisodes = episodes.map((ep) => embeddedEpisode(ep, records, at));
  const charts = chartsOf(records.map((r) => r.entry), shownEpisodes, fromMs, nowMs);
  const meta = {
    generated: new Date(nowMs).toISOString(),
    version: options.version ?? null,
    file: reader.main,
    segments: listSegments(reader.main).map((s) => s.path),
    quarantine_file: q.file,
    window: { since, from: fromMs === null ? null : new Date(fromMs).toISOString() },
    filter: { repo: repos, git_dir: f.gitDir ?? null, session: sessions },
    total: records.length,
    shown: 0,
    left_out: 0,
    left_out_until: null,
    max_bytes: maxBytes,
    damaged: reader.damage.length + q.damage.length,
    quarantined,
  };
  const rest = {
    episodes: shownEpisodes,
    charts,
    quarantine: qlist.reverse(),
  };
  // The cap: the newest entries that fit beside everything else; the page states where it cut.
  const fixed = Buffer.byteLength(scriptSafeJson(JSON.stringify({ meta, ...rest, entries: [] })), "utf8") + 200;
  let budget = maxBytes - (options.reserve ?? 0) - fixed;
  const links = correctionsOf(records);
  const kept = [];
  for (let i = records.length - 1; i >= 0; i--) {
    const x = present(records[i], i);
    const ep = typeof records[i].entry.eid === "string" ? byEid.get(records[i].entry.eid) : undefined;
    if (ep) x.episode = ep.id;
    Object.assign(x, links.get(i));
    const size = Buffer.byteLength(scriptSafeJson(JSON.stringify(x)), "utf8") + 1;
    if (size > budget) {
      meta.left_out = i + 1;
      meta.left_out_until = str(records[i].entry.ts);
      break;
    }
    budget -= size;
    kept.push({ x, v: { day: x.day ?? "", repo: x.repo ?? null, session: x.session ?? null } });
  }
  meta.shown = kept.length;
  return { meta, entries: displayOrder(kept), ...rest };
}
