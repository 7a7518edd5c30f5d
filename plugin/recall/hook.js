// The recall hint in hook mode (`record hook claude-code`, `record hook codex`): for a failed command, past
// entries of the repository that match the failure, printed as the hook output the host reads — exactly one JSON
// object, {"hookSpecificOutput": {"hookEventName": EVENT, "additionalContext": HINT}}, or nothing. Which eids a
// session was given is kept in the state directory, since every hook is a new process.

import { missingDriver } from "./driver.js";

/**
 * The recall hint for a failed command in hook mode, its index opened: `failure` = { event (the hook event whose
 * output carries it: "PostToolUseFailure" for Claude Code, "PostToolUse" for Codex), session, cwd, command, error,
 * output }; `options` = { env, file }. The part of a hint that does not need the entry the hook records (recall's
 * modules loaded, the index opened), so hook mode can do it while the core compiles. Resolves to { text() }: the
 * hook output, or "" (no hint, hints off, or no SQLite in this runtime; the index caught up with what the hook
 * recorded meanwhile, then searched, then closed). Never rejects.
 */
export async function openHint(failure, options = {}) {
  const none = { text: async () => "" };
  try {
    // Checked before loading the rest: on a runtime without SQLite a failing hook pays for nothing more.
    if (missingDriver()) return none;
    const [{ createRecall }, { seenIn, hintFor, hintsOff }, { fileStore }, { sessionMemoryDir }] = await Promise.all([
      import("./service.js"),
      import("./hints.js"),
      import("../capture/memory.js"),
      import("../paths.js"),
    ]);
    if (hintsOff({ env: options.env })) return none;
    const { event, session = null, cwd, command = "", error, output } = failure;
    const service = createRecall({ file: options.file, env: options.env, cwd });
    await service.open();
    return {
      async text() {
        try {
          const text = await hintFor({ command, error, output }, { service, seen: seenIn(fileStore({ dir: sessionMemoryDir({ env: options.env }) })), session, cwd });
          if (!text) return "";
          return JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: text } }) + "\n";
        } catch {
          return "";
        } finally {
          await service.close().catch(() => {});
        }
      },
    };
  } catch {
    return none;
  }
}
