// The `recall` tool, one definition for the opencode plugin and the MCP server: a `query` and an optional
// `scope`, answered with short lines (eid, day, kind, first line) inside a budget. Never throws: a recall
// that cannot run says why in its answer.

import { formatHits } from "./format.js";

export const RECALL_TOOL_DESCRIPTION = [
  "Search what was recorded before (lessons, findings, failures, corrections), written by you or other agents and",
  "people, verbatim, with when and where it was recorded. Call it before starting on something that may have been",
  "met before (a build, a test suite, a tool, an error you have not seen in this session), and after a failure, with",
  "the command and the error text. Answers one line per entry: eid, day, kind, first line; `record show EID`",
  "prints one in full. An entry listed with `corrected by` was corrected later: trust the correction.",
].join("\n");

export const RECALL_ARGS = {
  query: { type: "string", description: "What to look for: words, an error message, a command, file names. Taken as plain words." },
  scope: { type: "string", enum: ["repo", "all"], description: '"repo" (default): this repository only; "all": every repository, this one first.' },
};

/** The tool as an MCP server lists it (the same arguments; `query` alone is required). */
export const RECALL_MCP_TOOL = {
  name: "recall",
  title: "Recall past recordings",
  description: RECALL_TOOL_DESCRIPTION,
  inputSchema: { type: "object", properties: RECALL_ARGS, required: ["query"] },
  // Reads the recordings (and its own derived index); changes nothing a user keeps.
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

/** The most text one answer carries. */
export const TOOL_BYTES = 1536;

/**
 * Runs one recall for a tool call. `service` is createRecall's; `call` = { session, cwd }. Resolves to the
 * answer text.
 */
export async function runRecallTool(service, args, call = {}) {
  try {
    if (!service) return "recall unavailable: recall is switched off";
    const query = typeof args?.query === "string" ? args.query : args?.query == null ? "" : JSON.stringify(args.query);
    const scope = args?.scope === "all" ? "all" : "repo";
    const { hits, gitDir } = await service.find(query.trim() === "" ? null : query, { scope, session: call.session, cwd: call.cwd, limit: 8 });
    if (!hits.length) return query.trim() ? `nothing recorded matches (scope ${scope})` : "nothing recorded yet";
    return formatHits(hits, { budget: TOOL_BYTES, gitDir: scope === "all" ? gitDir : null, more: "narrow the query" }).trimEnd();
  } catch (e) {
    return `recall unavailable: ${e?.message ?? e}`;
  }
}
