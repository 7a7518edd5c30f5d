// What the last team pulls did, for `record doctor` and for recall's "the team source was not reached": a small
// JSON file beside the index (`<index>-team.json`, so deleting `*.sqlite*` removes it with the index), written
// by `record sync` only; it holds the source's URL with the password redacted. When a pull was last tried, for
// deciding when the next automatic one is due, is a file of its own (`<index>-team.attempt`), so a recall
// noting an attempt never races a pull noting its outcome.
//
// The automatic pull is a detached `record sync --auto`, started at most once per AUTO_PULL_MS by a recall or
// hint: the search never waits for the network, it answers from what was pulled before.

import { fs as nodeFs, importSibling, path } from "../builtins.js";
import { getMeta } from "./schema.js";

/** The least time between two automatic pulls of one index. */
export const AUTO_PULL_MS = 5 * 60_000;

/** Where the team state of the index at `indexFile` lives. */
export function teamStatePath(indexFile) {
  return `${indexFile}-team.json`;
}

function attemptPath(indexFile) {
  return `${indexFile}-team.attempt`;
}

function readText(fs, file) {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

/** The state ({ source, lastAttempt, lastSuccess, lastFailure, lastReason, lastAdded, teamRows, position }; times
 *  ISO strings) or null when no pull was tried. */
export function readTeamState(indexFile, { fs = nodeFs } = {}) {
  let v = null;
  try {
    v = JSON.parse(readText(fs, teamStatePath(indexFile)) ?? "null");
  } catch {
    v = null;
  }
  const attempt = readText(fs, attemptPath(indexFile))?.trim() || null;
  if ((!v || typeof v !== "object") && !attempt) return null;
  return { ...(v && typeof v === "object" ? v : {}), lastAttempt: attempt };
}

/** Notes that a pull is being tried at `now` (ms). Never throws. */
export function noteAttempt(indexFile, now, { fs = nodeFs } = {}) {
  try {
    fs.writeFileSync(attemptPath(indexFile), new Date(now).toISOString() + "\n", { mode: 0o600 });
  } catch {
    // not noted: the next recall may start another pull, which adds nothing twice
  }
}

/** Merges `patch` into the state, replacing the file whole (a reader sees the old or the new one). Never
 *  throws: the state is a hint, the rows and their position are in the index. */
export function noteTeamState(indexFile, patch, { fs = nodeFs } = {}) {
  const file = teamStatePath(indexFile);
  try {
    const { lastAttempt, ...kept } = readTeamState(indexFile, { fs }) ?? {};
    const next = { ...kept, ...patch };
    const tmp = `${file}.${process.pid}.tmp`;
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(tmp, JSON.stringify(next) + "\n", { mode: 0o600 });
    fs.renameSync(tmp, file);
  } catch {
    // not noted
  }
}

/** Whether the last pull attempt failed: { at, reason } of that failure, else null. */
export function lastPullFailed(state) {
  if (!state?.lastFailure) return null;
  if (state.lastSuccess && state.lastSuccess > state.lastFailure) return null;
  return { at: state.lastFailure, reason: state.lastReason ?? "unknown" };
}

/** Whether an automatic pull is due for the open index `ix` ({ db, path }) at `now` (ms): none was tried for
 *  AUTO_PULL_MS, or the index has no position yet (new or made again) and none was tried in the last minute. */
export function autoPullDue(ix, state, now, interval = AUTO_PULL_MS) {
  const last = state?.lastAttempt ? Date.parse(state.lastAttempt) : NaN;
  if (Number.isNaN(last) || now - last >= interval || now < last) return true;
  return getMeta(ix.db, "team") === null && now - last >= Math.min(interval, 60_000);
}

/**
 * Starts a detached `record sync --auto` for the index `ix` when one is due, noting the attempt first so
 * concurrent recalls start one between them (two at once would still add each row once). Resolves to whether
 * one was started; never rejects. options: { state (readTeamState's, when read already), env, cwd, now, spawn,
 * interval }.
 */
export async function startAutoPull(ix, options = {}) {
  try {
    const now = options.now ?? Date.now();
    const state = options.state !== undefined ? options.state : readTeamState(ix.path);
    if (!autoPullDue(ix, state, now, options.interval)) return false;
    noteAttempt(ix.path, now);
    const { startSync } = await importSibling("./export/after.js");
    await startSync({ file: ix.file, env: options.env, cwd: options.cwd, spawn: options.spawn });
    return true;
  } catch {
    return false;
  }
}
