// `record export` after a session ends, when configured, and `record sync` when recall finds a team pull due:
// started detached with their output discarded, so they never block or fail a session or a recall; each notes
// its outcome where `record doctor` shows it.

import { fileURLToPath } from "node:url";
import { noteExport } from "./status.js";
import { resolveTarget } from "../paths.js";

const CLI = fileURLToPath(new URL("../cli/index.js", import.meta.url));

/** Hook mode: whether a host's hook event ends a session or a turn (Claude Code and Codex `Stop`,
 *  Claude Code `SessionEnd`). */
export function endsSession(payload) {
  const e = payload?.hook_event_name;
  return e === "Stop" || e === "SessionEnd";
}

/** opencode: whether an event is the root session going idle (its turn is over; subagents' sessions have a
 *  parent). `parentOf(id)` answers from the plugin's per-session state. */
export function rootIdle(event, parentOf) {
  return event?.type === "session.idle" && typeof event.properties?.sessionID === "string" && !parentOf(event.properties.sessionID);
}

/**
 * Starts `record export --after-session [--file FILE]` detached from this process. Never throws: a failure to
 * start is noted in the status record. `spawn` is node:child_process's (a seam for tests).
 */
export async function startExport({ file, env, cwd, spawn } = {}) {
  env ??= process.env;
  let target = file;
  try {
    target = resolveTarget({ file, env, cwd }).file;
    await startDetached(["export", "--after-session", "--file", target], { env, cwd, spawn }, (e) =>
      noteExport(target, false, `could not start record export: ${e.code || e.message}`, { env }),
    );
  } catch (e) {
    noteExport(target ?? "(unknown file)", false, `could not start record export: ${e?.code || e?.message || e}`, { env });
  }
}

/** Starts `record sync --auto --file FILE` (a team pull, plugin/export/pull.js) detached, in `cwd` (whose
 *  repository it pulls for). Rejects when it cannot be started; the caller's recall goes on regardless. */
export async function startSync({ file, env, cwd, spawn } = {}) {
  env ??= process.env;
  const target = resolveTarget({ file, env, cwd }).file;
  await startDetached(["sync", "--auto", "--file", target], { env, cwd, spawn }, () => {});
}

/** Runs `record ARGS` detached, its output discarded; `onError` hears of a failure to start it. */
async function startDetached(args, { env, cwd, spawn }, onError) {
  spawn ??= (await import("node:child_process")).spawn;
  // Inside opencode, process.execPath is the opencode binary, which runs a script as Bun when asked to.
  const childEnv = process.versions.bun ? { ...env, BUN_BE_BUN: "1" } : env;
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env: childEnv, detached: true, stdio: "ignore" });
  child.on?.("error", onError);
  child.unref?.();
}
