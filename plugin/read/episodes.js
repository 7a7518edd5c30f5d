// Failure episodes: the automatic failures of one fingerprint folded into one item at read time. Every line stays
// as it is in the file; an episode is a view of them, with how many runs failed, when, at which heads, how it
// ended (the `gate.passed` that resolved it) and the lessons that name it.
//
// An episode is the runs with the same `fp` in the same session; runs without a session join the open episode
// of their fingerprint and repository when they come within `gapMs` of its last run. A `gate.passed` that lists
// the fingerprint ends the episodes it resolves; the same fingerprint failing after that opens a new episode
// that is marked `regressed`. Lines written before the core stamped `fp` are fingerprinted by the same function
// now (plugin/core.js fingerprintOf), so old and new runs of one failure fold together.

import { fingerprintOf } from "../core.js";

/** Runs without a session are one episode while each comes within this long of the one before. */
export const EPISODE_GAP_MS = 6 * 3600 * 1000;

const FAILED = new Set(["gate.failed", "tool.failed"]);

/** The fingerprint of an automatic failure: its `fp` member, else what the core derives from its stored line
 *  (`text`, else the entry serialised); null for anything else. */
export function fingerprintOfEntry(entry, text) {
  if (!entry || typeof entry !== "object" || entry.capture !== "auto" || !FAILED.has(entry.trigger)) return null;
  if (typeof entry.fp === "string") return entry.fp;
  return fingerprintOf(typeof text === "string" ? text : JSON.stringify(entry))?.fp ?? null;
}

const list = (v) => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]).filter((x) => typeof x === "string");
const ms = (ts) => (typeof ts === "string" ? Date.parse(ts) : NaN);
const outputOf = (e) => (typeof e.output_tail === "string" ? e.output_tail : typeof e.error === "string" ? e.error : "");

/**
 * Folds `items` (entries in append order, or reader records `{ entry, text }`) into failure episodes:
 * { episodes, byEid }. Each episode: { id, fp, repo, session, command, count, first_ts, last_ts, first_eid,
 * last_eid, eids, heads, failure, first_output, last_output, resolved: null | { eid, ts, minutes },
 * regressed, lessons } — `heads` the distinct git heads of its runs, `failure` the first run's failure lines,
 * `lessons` the eids of entries whose `resolves` names one of its runs or its fingerprint. `byEid` maps each
 * run's eid (and each resolving or lesson eid) to its episode.
 */
export function foldEpisodes(items, { gapMs = EPISODE_GAP_MS } = {}) {
  const episodes = [];
  const byEid = new Map();
  const open = new Map(); // session-or-repo key + fp → the episode still open
  const resolvedFps = new Set(); // fingerprints some gate.passed resolved before
  const pending = []; // entries that may be lessons, linked once every episode is known
  for (const item of items ?? []) {
    const entry = item && typeof item === "object" && "entry" in item ? item.entry : item;
    const text = item && typeof item === "object" && "entry" in item ? item.text : undefined;
    if (!entry || typeof entry !== "object") continue;
    if (entry.trigger === "gate.passed" && entry.capture === "auto") {
      for (const fp of list(entry.resolves)) {
        for (const [key, ep] of open) {
          if (ep.fp !== fp || (typeof entry.session === "string" ? ep.session !== entry.session : ep.repo !== repoOf(entry))) continue;
          ep.resolved = { eid: entry.eid ?? null, ts: entry.ts ?? null, minutes: typeof entry.minutes === "number" ? entry.minutes : minutesBetween(ep.first_ts, entry.ts) };
          if (typeof entry.eid === "string") byEid.set(entry.eid, ep);
          open.delete(key);
        }
        resolvedFps.add(fp);
      }
      continue;
    }
    const fp = fingerprintOfEntry(entry, text);
    if (!fp) {
      if (entry.capture !== "auto" && list(entry.resolves).length) pending.push(entry);
      continue;
    }
    const session = typeof entry.session === "string" ? entry.session : null;
    const repo = repoOf(entry);
    const key = `${session === null ? `repo\0${repo}` : `session\0${session}`}\0${fp}`;
    let ep = open.get(key);
    if (ep && session === null && ms(entry.ts) - ms(ep.last_ts) > gapMs) ep = undefined;
    if (!ep) {
      ep = {
        id: `${fp}:${entry.eid ?? episodes.length}`,
        fp,
        repo,
        session,
        command: typeof entry.command === "string" ? entry.command : typeof entry.tool === "string" ? entry.tool : null,
        trigger: entry.trigger,
        count: 0,
        first_ts: entry.ts ?? null,
        last_ts: entry.ts ?? null,
        first_eid: entry.eid ?? null,
        last_eid: entry.eid ?? null,
        eids: [],
        heads: [],
        failure: list(entry.failure),
        first_output: outputOf(entry),
        last_output: outputOf(entry),
        resolved: null,
        regressed: resolvedFps.has(fp),
        lessons: [],
      };
      episodes.push(ep);
      open.set(key, ep);
    }
    ep.count++;
    ep.last_ts = entry.ts ?? ep.last_ts;
    ep.last_eid = entry.eid ?? ep.last_eid;
    ep.last_output = outputOf(entry);
    if (typeof entry.eid === "string") {
      ep.eids.push(entry.eid);
      byEid.set(entry.eid, ep);
    }
    if (typeof entry.head === "string" && !ep.heads.includes(entry.head)) ep.heads.push(entry.head);
  }
  for (const entry of pending) {
    const names = list(entry.resolves);
    for (const ep of episodes) {
      if (!names.some((n) => n === ep.fp || ep.eids.includes(n) || n === ep.resolved?.eid)) continue;
      if (typeof entry.eid === "string" && !ep.lessons.includes(entry.eid)) {
        ep.lessons.push(entry.eid);
        if (!byEid.has(entry.eid)) byEid.set(entry.eid, ep);
      }
    }
  }
  return { episodes, byEid };
}

/** Where an entry was made, for grouping: git_dir, else origin, else pwd (the fingerprint's own order). */
function repoOf(e) {
  for (const k of ["git_dir", "origin", "pwd"]) if (typeof e[k] === "string" && e[k]) return e[k];
  return null;
}

function minutesBetween(a, b) {
  const d = ms(b) - ms(a);
  return Number.isFinite(d) ? Math.max(0, Math.round(d / 60000)) : null;
}

/** An episode's state: "resolved", "regressed" (failing again after an earlier resolution), "ongoing" (more
 *  than one run, not resolved) or "new". */
export function episodeState(ep) {
  if (ep.resolved) return "resolved";
  if (ep.regressed) return "regressed";
  return ep.count > 1 ? "ongoing" : "new";
}
