// The recall tool in `record mcp`: the shared definition (tool.js) with the server's settings. The current
// session is AI_RECORDINGS_SESSION when the host sets one; the working directory is the server's.

import { settingsOf, envOf } from "../settings.js";
import { createRecall, recallOff } from "./service.js";
import { RECALL_MCP_TOOL, runRecallTool } from "./tool.js";
import { missingDriver } from "./driver.js";

/** `settings` = { options (the server's record options: file, session), env, cwd }. The tool is listed only
 *  where it can answer: not when switched off, nor on a runtime without SQLite (Node before 22.5), where a
 *  tool that only ever says so would cost the model a call. */
export function createMcpRecall(settings = {}) {
  const env = envOf({ env: settings.env });
  if (recallOff({ env }) || missingDriver()) return { tools: [], handles: () => false, call: async () => "" };
  const service = createRecall({ file: settings.options?.file, env, cwd: settings.cwd, held: true });
  const session = settings.options?.session ?? settingsOf(env).session;
  return {
    tools: [RECALL_MCP_TOOL],
    handles: (name) => name === RECALL_MCP_TOOL.name,
    call: (args) => runRecallTool(service, args, { session, cwd: settings.cwd }),
  };
}
