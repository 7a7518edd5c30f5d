// Failure episodes for the view: the gate and tool failures of one fingerprint (`fp`) folded into one run of
// red, closed by the green gate that names the fingerprint in its `resolves`. A failure of a fingerprint
// that was resolved before opens a new episode that is marked as a regression.

const FAILED = new Set(["gate.failed", "tool.failed"]);
const HEADS_KEPT = 8;
/** The first output line that names an error is a failure's head (what it says went wrong). */
const ERROR_LINE = /error|fail|panic|not found|cannot/i;

function headOf(e) {
  const text = typeof e.output_tail === "string" ? e.output_tail : typeof e.error === "string" ? e.error : "";
  const line = text.split("\n").find((l) => ERROR_LINE.test(l)) ?? text.split("\n").find((l) => l.trim()) ?? "";
  return line.trim().slice(0, 200);
}

/** Words that may name an episode: a fingerprint, or an eid (13 characters of lower-case Crockford base32). */
const NAMES = /\b(?:[a-z]\d_[0-9a-f]{16}|[0-9a-hjkmnp-tv-z]{13})\b/g;

const str = (v) => (typeof v === "string" ? v : null);

/** Folds failures by fingerprint: { episodes, byEid } (byEid: a failure's eid → its episode). `entries` are
 *  parsed entries in append order. A non-automatic entry that names an episode's fingerprint or one of its
 *  failures' eids is listed among its lessons. */
export function foldEpisodes(entries) {
  const episodes = [];
  const byEid = new Map();
  const open = new Map(); // fp → the episode still red
  const resolvedBefore = new Set();
  const byFp = new Map();
  for (const e of entries) {
    const fp = str(e.fp);
    if (FAILED.has(e.trigger) && fp) {
      let ep = open.get(fp);
      if (!ep) {
        ep = {
          id: `${fp}.${episodes.length}`,
          fp,
          repo: str(e.repo),
          session: str(e.session),
          command: str(e.command) ?? str(e.tool),
          count: 0,
          first_ts: str(e.ts),
          last_ts: null,
          first_eid: str(e.eid),
          last_eid: null,
          eids: [],
          heads: [],
          first_output: str(e.output_tail) ?? str(e.error),
          last_output: null,
          resolved: null,
          regressed: resolvedBefore.has(fp),
          lessons: [],
        };
        episodes.push(ep);
        open.set(fp, ep);
        byFp.set(fp, [...(byFp.get(fp) ?? []), ep]);
      }
      ep.count++;
      ep.last_ts = str(e.ts);
      ep.last_eid = str(e.eid);
      ep.last_output = str(e.output_tail) ?? str(e.error);
      if (ep.last_eid) {
        ep.eids.push(ep.last_eid);
        byEid.set(ep.last_eid, ep);
      }
      const head = headOf(e);
      if (head && !ep.heads.includes(head) && ep.heads.length < HEADS_KEPT) ep.heads.push(head);
      continue;
    }
    if (e.trigger === "gate.passed" && Array.isArray(e.resolves)) {
      for (const f of e.resolves) {
        const ep = open.get(f);
        if (!ep) continue;
        const t = Date.parse(str(e.ts) ?? "");
        const t0 = Date.parse(ep.first_ts ?? "");
        const minutes = typeof e.minutes === "number" ? e.minutes : Number.isNaN(t - t0) ? null : Math.round((t - t0) / 6000) / 10;
        ep.resolved = { eid: str(e.eid), ts: str(e.ts), minutes };
        open.delete(f);
        resolvedBefore.add(f);
      }
      continue;
    }
    if (e.capture !== "auto" && episodes.length && typeof e.eid === "string") {
      const text = JSON.stringify(e);
      for (const m of text.matchAll(NAMES)) {
        for (const ep of byFp.get(m[0]) ?? (byEid.has(m[0]) ? [byEid.get(m[0])] : [])) {
          if (!ep.lessons.includes(e.eid)) ep.lessons.push(e.eid);
        }
      }
    }
  }
  return { episodes, byEid };
}
