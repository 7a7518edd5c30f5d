// `record export` after a session ends, when configured: started detached with its output discarded, so it
// never blocks or fails the session; it notes its outcome in the status record, where `record doctor` shows it.

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
    spawn ??= (await import("node:child_process")).spawn;
    const args = [CLI, "export", "--after-session", "--file", target];
    // Inside opencode, process.execPath is the opencode binary, which runs a script as Bun when asked to.
    const childEnv = process.versions.bun ? { ...env, BUN_BE_BUN: "1" } : env;
    const child = spawn(process.execPath, args, { cwd, env: childEnv, detached: true, stdio: "ignore" });
    child.on?.("error", (e) => noteExport(target, false, `could not start record export: ${e.code || e.message}`, { env }));
    child.unref?.();
  } catch (e) {
    noteExport(target ?? "(unknown file)", false, `could not start record export: ${e?.code || e?.message || e}`, { env });
  }
}
