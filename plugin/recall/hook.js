// The recall hint in hook mode (`record hook claude-code`): for a PostToolUseFailure, past entries of the
// repository that match the failure, printed as the hook output Claude Code reads — exactly one JSON object,
// {"hookSpecificOutput": {"hookEventName": "PostToolUseFailure", "additionalContext": HINT}}, or nothing.
// Which eids a session was given is kept in the state directory, since every hook is a new process.

import { missingDriver } from "./driver.js";

/** The hook output for `payload` (a Claude Code PostToolUseFailure), or "" (no hint, or hints are off, or no
 *  SQLite in this runtime). `options` = { env, file }. Never throws. */
export async function claudeHint(payload, options = {}) {
  return (await openClaudeHint(payload, options)).text();
}

/** The part of claudeHint that does not need the entry the hook records: recall's modules loaded and the index
 *  opened, so hook mode can do it while the core compiles. Resolves to { text() }: the hook output, or "" (the
 *  index caught up with what the hook recorded meanwhile, then searched, then closed). Never rejects. */
export async function openClaudeHint(payload, options = {}) {
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
    const session = typeof payload.session_id === "string" ? payload.session_id : null;
    const cwd = typeof payload.cwd === "string" ? payload.cwd : undefined;
    const service = createRecall({ file: options.file, env: options.env, cwd });
    await service.open();
    const command = typeof payload.tool_input?.command === "string" ? payload.tool_input.command : "";
    const error = typeof payload.error === "string" ? payload.error : "";
    return {
      async text() {
        try {
          const text = await hintFor({ command, error }, { service, seen: seenIn(fileStore({ dir: sessionMemoryDir({ env: options.env }) })), session, cwd });
          if (!text) return "";
          return JSON.stringify({ hookSpecificOutput: { hookEventName: "PostToolUseFailure", additionalContext: text } }) + "\n";
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
