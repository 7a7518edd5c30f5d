// Per-session memory for capture: what a session already did (the failures still open, the hints it was given),
// as a list of small events per session. Two stores with one interface, handed to the planners as a parameter:
//  * memoryStore: in memory, for one long-lived process (the opencode plugin);
//  * fileStore: a file per session under the state directory, for hook mode, which runs one process per event.
//    Each event is one appended line (O_APPEND), so hooks that run at once lose nothing; files untouched for
//    longer than `ttlMs` are removed when a new session's file is made (at most once every `sweepMs`).
//
// Interface: events(session) → the session's events, oldest first; append(session, event) → undefined. Neither
// throws: memory is a convenience, and a session without it only loses a grouping or a repeated hint.

import { fs as nodeFs, path } from "../builtins.js";

/** Sets `key` as the newest member of `map`, dropping the oldest past `max` (handed to `onDrop` first): every
 *  bounded cache's one rule. */
export function boundedSet(map, key, value, max, onDrop) {
  if (map.has(key)) map.delete(key);
  map.set(key, value);
  if (map.size > max) {
    const oldest = map.keys().next().value;
    onDrop?.(map.get(oldest));
    map.delete(oldest);
  }
}

/** A session id as a file name: safe characters kept, anything else replaced, cut to 128. */
export function sessionFileName(session) {
  return String(session).replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 128) || "_";
}

/** In-memory events for at most `maxSessions` sessions (the least recently used goes), `maxEvents` each. */
export function memoryStore({ maxSessions = 512, maxEvents = 1024 } = {}) {
  const sessions = new Map();
  return {
    events: (session) => sessions.get(session) ?? [],
    append(session, event) {
      const list = sessions.get(session) ?? [];
      list.push(event);
      if (list.length > maxEvents) list.splice(0, list.length - maxEvents);
      boundedSet(sessions, session, list, maxSessions);
    },
  };
}

/** Events in `dir/<session>.jsonl`. A line that is not JSON (a torn write) is skipped. Files untouched for `ttlMs`
 *  are removed when a new session's file is made, at most once every `sweepMs` (a marker file's time says when
 *  it last ran): a hook process pays one stat for that, not one per session file. */
export function fileStore({ dir, fs = nodeFs, now = Date.now, ttlMs = 7 * 24 * 3600 * 1000, sweepMs = 3600 * 1000 } = {}) {
  const file = (session) => path.join(dir, `${sessionFileName(session)}.jsonl`);
  const marker = path.join(dir, ".swept");
  const sweep = () => {
    try {
      const t = now();
      try {
        if (t - fs.statSync(marker).mtimeMs < sweepMs) return;
      } catch {}
      fs.writeFileSync(marker, "");
      fs.utimesSync(marker, new Date(t), new Date(t));
      const cutoff = t - ttlMs;
      for (const name of fs.readdirSync(dir)) {
        const p = path.join(dir, name);
        if (name.endsWith(".jsonl") && fs.statSync(p).mtimeMs < cutoff) fs.rmSync(p, { force: true });
      }
    } catch {}
  };
  return {
    events(session) {
      let text;
      try {
        text = fs.readFileSync(file(session), "utf8");
      } catch {
        return [];
      }
      const out = [];
      for (const line of text.split("\n")) {
        if (!line) continue;
        try {
          out.push(JSON.parse(line));
        } catch {}
      }
      return out;
    },
    append(session, event) {
      try {
        const p = file(session);
        const fresh = !fs.existsSync(p);
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        fs.appendFileSync(p, JSON.stringify(event) + "\n", { mode: 0o600 });
        if (fresh) sweep();
      } catch {}
    },
  };
}
