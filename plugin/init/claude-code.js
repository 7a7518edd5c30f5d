// `record init claude-code`: hook mode for the two events it records from (PostToolUseFailure, SubagentStop)
// and the MCP server. Project scope: .claude/settings.json and .mcp.json in the working directory; with
// --global: settings.json in Claude Code's config directory and the user's mcpServers in its .claude.json.

import { parseConfig, setAt, valueAt } from "./jsonc.js";
import { addHooks } from "./hook-entries.js";

// PostToolUse only for Bash: a passing gate that failed before is the red-to-green moment; hook mode starts on
// every successful Bash call for it, and decides before it loads the core.
const EVENTS = { PostToolUseFailure: "*", SubagentStop: "*", PostToolUse: "Bash" };
export const HOOK_COMMAND = "record hook claude-code";
export const SERVER = { type: "stdio", command: "record", args: ["mcp"] };

export function plan({ places, cwd, global }) {
  const settings = global ? `${places.claudeConfigDir}/settings.json` : `${cwd}/.claude/settings.json`;
  const servers = global ? places.claudeUserFile : `${cwd}/.mcp.json`;
  return [
    { file: settings, empty: "{}\n", edit: (text) => hooksOf(text, settings) },
    { file: servers, empty: "{}\n", edit: (text) => serverOf(text, servers) },
  ];
}

function hooksOf(text, file) {
  const r = addHooks(text, parseConfig(text, file), file, EVENTS, "claude-code", HOOK_COMMAND);
  return { text: r.text, said: said(r) };
}

/** Adds mcpServers.recordings unless a server of that name exists (a user's own settings for it are kept). */
export function addServer(text, file, key, server) {
  const root = parseConfig(text, file);
  if (valueAt(root, [key, "recordings"]) !== undefined) return { text, said: [`${key}.recordings is already there (left as it is)`] };
  return { text: setAt(text, [key, "recordings"], server), said: [`${key}.recordings gets \`${[server.command, ...server.args].join(" ")}\``] };
}

const serverOf = (text, file) => addServer(text, file, "mcpServers", SERVER);

export function said({ added, present }) {
  return [...added.map((e) => `hooks.${e} gets the recording hook`), ...present.map((e) => `hooks.${e} already runs it`)];
}
