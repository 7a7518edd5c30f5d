// `record init codex`: the MCP server in $CODEX_HOME/config.toml and hook mode for PostToolUse and SubagentStop
// in $CODEX_HOME/hooks.json (Codex reads both only from there, so --global changes nothing), then the trust step:
// Codex runs no hook until the user has approved it.

import { parseToml, setTable } from "./toml.js";
import { parseConfig } from "./jsonc.js";
import { addHooks } from "./hook-entries.js";
import { said } from "./claude-code.js";

const EVENTS = { PostToolUse: "*", SubagentStop: "*" };
export const HOOK_COMMAND = "record hook codex";
// Codex starts MCP servers with a reduced environment: the target's variable is passed through by name.
export const SERVER = { command: "record", args: ["mcp"], env_vars: ["AI_RECORDINGS_FILE"] };

export const TRUST_STEP = `Codex runs a hook only once you have trusted it: start \`codex\` once, interactively, and approve the
recording hooks when it says hooks need review (or later under /hooks). Until then \`codex exec\` skips them
(for unattended runs whose hooks you vet yourself: \`codex exec --dangerously-bypass-hook-trust\`).`;

export function plan({ places }) {
  const config = `${places.codexHome}/config.toml`;
  const hooks = `${places.codexHome}/hooks.json`;
  return [
    { file: config, empty: "", edit: (text) => serverOf(text, config) },
    { file: hooks, empty: "{}\n", edit: (text) => hooksOf(text, hooks) },
  ];
}

async function serverOf(text, file) {
  const doc = await parseToml(text, file);
  if (doc?.mcp_servers?.recordings !== undefined) return { text, said: ["[mcp_servers.recordings] is already there (left as it is)"] };
  return { text: await setTable(text, "mcp_servers.recordings", SERVER), said: ["[mcp_servers.recordings] gets `record mcp`"] };
}

function hooksOf(text, file) {
  const r = addHooks(text, parseConfig(text, file), file, EVENTS, "codex", HOOK_COMMAND);
  return { text: r.text, said: said(r) };
}
