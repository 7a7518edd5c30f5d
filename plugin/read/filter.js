// Which entries a reader keeps: the filters of `record read`, `sessions` and `md`, as one predicate over
// parsed entries. The reader's cursor still moves past the entries a filter drops.

function asList(v) {
  if (v == null) return [];
  return (Array.isArray(v) ? v : [v]).map(String);
}

import { durationMs } from "../values.js";

/** Parses a time for --since-time: an RFC 3339 / ISO 8601 time or date, or an age such as "90s", "30m",
 *  "12h", "7d", "2w" (that long before `now`). Returns milliseconds since the epoch, or NaN. */
export function parseTime(text, now = Date.now()) {
  const s = String(text).trim();
  // An age; a bare number is not one here (it would read as milliseconds), so it falls to Date.parse.
  const age = /[a-z]\s*$/i.test(s) ? durationMs(s) : undefined;
  if (age !== undefined) return now - age;
  return Date.parse(s);
}

/** The kinds an entry answers to for --kind: its `kind`, `trigger` (automatic captures say what triggered
 *  them) and `category` members, when they are strings. */
export function kindsOf(entry) {
  const out = [];
  for (const k of ["kind", "trigger", "category"]) if (typeof entry[k] === "string") out.push(entry[k]);
  return out;
}

/**
 * A predicate over parsed entries, or null when nothing is filtered. Each filter may be one value or a list
 * (any of them matches); different filters must all match. session, capture: exact. repo: the entry's `repo`,
 * `origin` or `git_dir`. kind: see kindsOf, case-insensitive. eid: exact or a prefix of at least 4 characters.
 * sinceTime / untilTime: `ts` at or after / before that time (milliseconds, or text for parseTime); entries
 * whose `ts` is not a time do not match.
 */
export function makeFilter(filter = {}, now = Date.now()) {
  const sessions = asList(filter.session);
  const repos = asList(filter.repo);
  const captures = asList(filter.capture);
  const kinds = asList(filter.kind).map((k) => k.toLowerCase());
  const eids = asList(filter.eid);
  let since = filter.sinceTime;
  if (since != null && typeof since !== "number") since = parseTime(since, now);
  let until = filter.untilTime;
  if (until != null && typeof until !== "number") until = parseTime(until, now);
  const checks = [];
  if (sessions.length) checks.push((e) => sessions.includes(e.session));
  if (repos.length) checks.push((e) => repos.includes(e.repo) || repos.includes(e.origin) || repos.includes(e.git_dir));
  if (captures.length) checks.push((e) => captures.includes(e.capture));
  if (kinds.length) checks.push((e) => kindsOf(e).some((k) => kinds.includes(k.toLowerCase())));
  if (eids.length) {
    checks.push((e) => typeof e.eid === "string" && eids.some((x) => e.eid === x || (x.length >= 4 && e.eid.startsWith(x))));
  }
  if (since != null || until != null) {
    checks.push((e) => {
      const t = typeof e.ts === "string" ? Date.parse(e.ts) : NaN;
      if (Number.isNaN(t)) return false;
      return (since == null || t >= since) && (until == null || t < until);
    });
  }
  if (checks.length === 0) return null;
  return (e) => checks.every((c) => c(e));
}
