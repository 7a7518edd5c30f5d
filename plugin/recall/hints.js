// Hints when something fails: past entries of the same repository that match the failure (its command, the
// core's last failure block of its output, the files they name), added to what the model sees of that failure.
// Silent unless an entry clears rank.js's MIN_EVIDENCE; only the runners-up close to the best (hintCut); at most
// HINT_BYTES; an entry hinted once in a session is not hinted again.
// A hint never fails or delays the failure it is added to by more than a search: every error is swallowed.

import { fs as nodeFs, path } from "../builtins.js";
import { envOf, settingsOf } from "../settings.js";
import { hintedPath } from "../paths.js";
import { formatHint } from "./format.js";
import { recallOff } from "./service.js";
import { hintCut } from "./rank.js";

/** The most a hint adds to a failure's output (about 1 KiB: a few lines, never a wall of text). */
export const HINT_BYTES = 1024;

/** Why hints are off for these options ({hints, recall, env}), or null. */
export function hintsOff(options = {}) {
  if (options.hints === false) return "hints are switched off (the hints option is false)";
  if (settingsOf(envOf(options)).hints === false) return "hints are switched off (AI_RECORDINGS_HINTS=0)";
  return recallOff(options);
}

/** Which eids each session was already given, in memory (one long-lived process: the opencode plugin). */
export function memorySeen(max = 512) {
  const sessions = new Map();
  return {
    has: (session, eid) => sessions.get(session)?.has(eid) ?? false,
    add(session, eids) {
      if (!sessions.has(session)) {
        sessions.set(session, new Set());
        if (sessions.size > max) sessions.delete(sessions.keys().next().value);
      }
      for (const e of eids) sessions.get(session).add(e);
    },
  };
}

/** Which eids each session was already given, in a small file per session under the state directory (hook
 *  mode runs one process per event). Appends one line per hint, so concurrent hooks lose nothing. */
export function fileSeen(options = {}) {
  const fs = options.fs ?? nodeFs;
  const read = (session) => {
    try {
      return new Set(fs.readFileSync(hintedPath(session, options), "utf8").split(/\s+/).filter(Boolean));
    } catch {
      return new Set();
    }
  };
  return {
    has: (session, eid) => read(session).has(eid),
    add(session, eids) {
      const p = hintedPath(session, options);
      fs.mkdirSync(path.dirname(p), { recursive: true, mode: 0o700 });
      fs.appendFileSync(p, eids.join(" ") + "\n", { mode: 0o600 });
    },
  };
}

/**
 * The hint for a failure, or "" (nothing matched, or hints are off, or recall cannot run here). `failure` =
 * { command, output, error }; `context` = { service (createRecall), seen, session, cwd, now }.
 */
export async function hintFor(failure, context) {
  try {
    const { hits } = await context.service.hint(failure, { session: context.session, cwd: context.cwd, now: context.now, limit: 6 });
    const shown = hintCut(hits);
    const fresh = context.session ? shown.filter((h) => h.eid && !context.seen.has(context.session, h.eid)) : shown;
    const text = formatHint(fresh.slice(0, 3), { budget: HINT_BYTES });
    if (!text) return "";
    if (context.session) {
      const given = fresh.slice(0, 3).flatMap((h) => [h.eid, ...h.corrects.map((c) => c.eid), ...h.correctedBy.map((c) => c.eid)]).filter(Boolean);
      context.seen.add(context.session, given);
    }
    return text;
  } catch {
    return "";
  }
}
