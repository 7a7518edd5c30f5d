// Recall inside the opencode plugin: the `recall` tool and the hint added to a failed bash call's output.
// opencode.js wires these to the host; the work is in service.js, tool.js and hints.js.

import { createRecall, recallOff } from "./service.js";
import { RECALL_ARGS, RECALL_TOOL_DESCRIPTION, runRecallTool } from "./tool.js";
import { hintFor, hintsOff, seenIn } from "./hints.js";
import { memoryStore } from "../capture/memory.js";

/**
 * `settings` = { file, env, cwd, recall, hints, team, memory } (the plugin's `recall` and `hints` options: false
 * switches each off; `team`: true pulls teammates' rows; `memory`: the session memory, plugin/capture/memory.js,
 * the hints given are kept in). Returns { tool (null when recall is off), afterTool(input, output) }.
 */
export function createOpencodeRecall(settings = {}) {
  const env = settings.env ?? process.env;
  if (recallOff({ recall: settings.recall, env })) return { tool: null, afterTool: async () => "" };
  const service = createRecall({ file: settings.file, env, cwd: settings.cwd, team: settings.team, held: true });
  const hints = !hintsOff({ hints: settings.hints, env });
  // The plugin's one session memory when it hands it over (red to green keeps its events there too).
  const seen = seenIn(settings.memory ?? memoryStore());
  return {
    tool: {
      description: RECALL_TOOL_DESCRIPTION,
      args: RECALL_ARGS,
      execute: (args, ctx) => runRecallTool(service, args, { session: ctx?.sessionID, cwd: ctx?.directory ?? settings.cwd }),
    },
    /** tool.execute.after: a bash call that exited non-zero gets the hint appended to its output (what the
     *  model reads of it). Resolves to the hint added, or "". */
    async afterTool(input, output) {
      if (!hints || input?.tool !== "bash" || !output || typeof output.output !== "string") return "";
      const exit = output.metadata?.exit;
      if (typeof exit !== "number" || exit === 0) return "";
      const text = await hintFor(
        { command: input.args?.command, output: output.output },
        { service, seen, session: input.sessionID, cwd: input.args?.workdir ?? settings.cwd },
      );
      if (text) output.output = `${output.output}\n\n${text}`;
      return text;
    },
  };
}
