// Red to green: the failures of a gate still open in a session, and the moment the same command passes. A
// passing gate with an open failure calls for one `gate.passed` entry (which failures it resolves, how many runs
// failed, since when) and, after enough failures, one line asking the agent what fixed it. A passing gate with
// nothing open calls for nothing. State is the per-session memory (plugin/capture/memory.js), a parameter.
//
// Events kept per session: { t: "fail", key, fp, eid, ts } for each automatic gate failure written, and
// { t: "pass", key, fps, nudged } for each gate.passed written.

import { commandKey } from "./command.js";
import { gatePassedEntry } from "./entries.js";

/** Nudge only after this many failures of the command, unless the options say otherwise. */
export const NUDGE_AFTER = 2;

/** Remembers a gate failure that was written (`status` is record()'s answer: its eid and fp). */
export function noteFailure(memory, session, { command, workdir, cwd, status, now }) {
  if (!session || !memory || status?.status !== "recorded" || !status.eid) return;
  memory.append(session, { t: "fail", key: commandKey(command, workdir ?? cwd), fp: status.fp ?? null, eid: status.eid, ts: now });
}

/** The failures of `key` since it last passed, oldest first. */
export function openFailures(events, key) {
  let open = [];
  for (const e of events) {
    if (e?.key !== key) continue;
    if (e.t === "fail") open.push(e);
    else if (e.t === "pass") open = [];
  }
  return open;
}

/**
 * What a passing gate calls for: null (nothing was open), else { entry, nudge, event } — the gate.passed entry,
 * the line for the model or "" (fewer than `nudgeAfter` failures, nudges off, or every fingerprint was nudged
 * before in this session), and the event to append once the entry is written (`commit`). The command's key is
 * taken in `workdir` (the call's own, also written in the entry), else `cwd` (where the host runs it).
 */
export function planPass(memory, session, { command, workdir, cwd, now, call, nudges = true, nudgeAfter = NUDGE_AFTER }) {
  if (!session || !memory) return null;
  const events = memory.events(session);
  const key = commandKey(command, workdir ?? cwd);
  const open = openFailures(events, key);
  if (!open.length) return null;
  const fps = [...new Set(open.map((e) => e.fp).filter(Boolean))];
  const first = open[0];
  const minutes = typeof first.ts === "number" ? Math.max(0, Math.round((now - first.ts) / 60000)) : undefined;
  const entry = gatePassedEntry({
    command,
    resolves: fps,
    failures: open.length,
    first_eid: first.eid,
    first_ts: typeof first.ts === "number" ? new Date(first.ts).toISOString() : undefined,
    minutes,
    workdir: typeof workdir === "string" ? workdir : undefined,
    call,
  });
  const nudgedBefore = new Set(events.filter((e) => e.t === "pass").flatMap((e) => e.nudged ?? []));
  const fresh = fps.filter((fp) => !nudgedBefore.has(fp));
  const worth = nudges !== false && open.length >= nudgeAfter && (fps.length === 0 || fresh.length > 0);
  const nudge = worth ? nudgeText({ command, failures: open.length, minutes, eid: first.eid }) : "";
  return { entry, nudge, event: { t: "pass", key, fps, nudged: nudge ? fresh : [] } };
}

/** Remembers that the pass was written (so its failures are closed and its nudge is not repeated). */
export function commitPass(memory, session, plan) {
  if (plan && session && memory) memory.append(session, plan.event);
}

/** The one line added to what the model reads of the passing command. */
export function nudgeText({ command, failures, minutes, eid }) {
  const short = command.length > 60 ? `${command.slice(0, 57)}...` : command;
  const since = typeof minutes === "number" ? ` (first ${minutes} min ago)` : "";
  return `[recordings] ${short} passes now after ${failures} failures in this session${since}. If the fix taught something, record it, naming the failure: resolves: ${eid}.`;
}
