// What a long-lived host process remembers between payloads: per-session facts (model, agent, parent), the
// keys of entries already written (a host may report one event several times), tool start times and
// permission replies. Bounded, so a long `opencode serve` does not grow without end.

import { boundedSet } from "./memory.js";

const MAX_SESSIONS = 512;
/** How many keys each of the state's other maps holds (capture/memory.js boundedSet drops the oldest). */
export const MAX_KEYS = 4096;

export function createState() {
  return {
    sessions: new Map(), // sessionID → { model, agent, parent }
    seen: new Map(), // dedupe key → true
    started: new Map(), // session\0callID → ms when the call started
    asked: new Map(), // permission request id → { key: session\0callID, permission }
    replies: new Map(), // session\0callID → { permission, reply }
  };
}

/** The record of session `id`, created on first use; null for an id that is not a non-empty string. */
export function sessionOf(state, id) {
  if (typeof id !== "string" || !id) return null;
  let s = state.sessions.get(id);
  if (!s) {
    s = {};
    boundedSet(state.sessions, id, s, MAX_SESSIONS);
  }
  return s;
}

/** What is known about a session: { model, agent, parent } (all possibly undefined). */
export function sessionInfo(state, id) {
  return state.sessions.get(id) ?? {};
}

/** True the first time a key is seen. */
export function firstTime(state, key) {
  if (state.seen.has(key)) return false;
  boundedSet(state.seen, key, true, MAX_KEYS);
  return true;
}
