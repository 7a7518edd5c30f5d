// Hints when something fails: past entries of the same repository that match the failure (its command, the
// core's last failure block of its output, the files they name), added to what the model sees of that failure.
// Silent unless an entry clears rank.js's MIN_EVIDENCE with two of the failure's words (search.js HINT_WORDS); only
// the runners-up close to the best (hintCut); at most HINT_BYTES; an entry hinted once in a session is not hinted
// again.
// A hint never fails or delays the failure it is added to by more than a search: every error is swallowed.

import { envOf, settingsOf } from "../settings.js";
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

/** Which eids a session was already given, kept in the session memory (plugin/capture/memory.js) as
 *  `{ t: "hinted", eids }` events: in memory in the opencode plugin, a file per session in hook mode (one process
 *  per event; each hint is one appended line, so hooks that run at once lose nothing). */
export function seenIn(memory) {
  return {
    given(session) {
      const out = new Set();
      for (const e of memory.events(session)) if (e?.t === "hinted" && Array.isArray(e.eids)) for (const x of e.eids) out.add(x);
      return out;
    },
    add: (session, eids) => memory.append(session, { t: "hinted", eids }),
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
    const given = context.session ? context.seen.given(context.session) : null;
    const fresh = given ? shown.filter((h) => h.eid && !given.has(h.eid)) : shown;
    const text = formatHint(fresh.slice(0, 3), { budget: HINT_BYTES });
    if (!text) return "";
    if (context.session) {
      const now = fresh.slice(0, 3).flatMap((h) => [h.eid, ...h.corrects.map((c) => c.eid), ...h.correctedBy.map((c) => c.eid)]).filter(Boolean);
      context.seen.add(context.session, now);
    }
    return text;
  } catch {
    return "";
  }
}
