// Sessions seen in a recordings file: one summary per `session` member, most recent first, for
// `record sessions`.

import { foldEpisodes } from "./episodes.js";
import { RecordingsReader } from "./reader.js";

/** Sessions seen, most recent first: [{ session, entries, runs, episodes, first, last, repos, agents, models }]:
 *  `runs` of them automatic failures, which fold into `episodes` (plugin/read/episodes.js). Entries without a
 *  session are grouped under session null. Options as for RecordingsReader (filters apply). */
export function listSessions(options = {}) {
  const reader = new RecordingsReader(options);
  const by = new Map();
  const recs = [];
  for (const r of reader.records()) {
    recs.push({ entry: r.entry, text: r.text });
    const e = r.entry;
    const key = typeof e.session === "string" ? e.session : null;
    let s = by.get(key);
    if (!s) {
      s = { session: key, entries: 0, runs: 0, episodes: 0, first: null, last: null, repos: [], agents: [], models: [] };
      by.set(key, s);
    }
    s.entries++;
    if (typeof e.ts === "string") {
      if (s.first === null || e.ts < s.first) s.first = e.ts;
      if (s.last === null || e.ts > s.last) s.last = e.ts;
    }
    for (const [k, list] of [["repo", s.repos], ["agent", s.agents], ["model", s.models]]) {
      if (typeof e[k] === "string" && !list.includes(e[k])) list.push(e[k]);
    }
  }
  for (const ep of foldEpisodes(recs).episodes) {
    const s = by.get(ep.session);
    if (!s) continue;
    s.runs += ep.count;
    s.episodes++;
  }
  const sessions = [...by.values()].sort((a, b) => {
    const x = a.last ?? "";
    const y = b.last ?? "";
    return x < y ? 1 : x > y ? -1 : 0;
  });
  return { sessions, damage: reader.damage, notes: reader.notes, stats: reader.stats, file: reader.file };
}
