// Codex's hook payloads (shapes captured from the real CLI into tests/fixtures/hosts/codex/): PostToolUse fires
// for failures too, with no exit status; the status is in the session transcript, in the `item_completed` line
// of the call. A finished subagent arrives as SubagentStop; its brief is in the parent transcript.

import { findFromEnd } from "./transcript.js";

const str = (v) => (typeof v === "string" && v !== "" ? v : undefined);

/** Codex: the `item_completed` item for a tool call, from the session transcript (null when not found). */
export function codexItem(transcriptPath, toolUseId) {
  if (!str(toolUseId)) return null;
  const hit = findFromEnd(
    transcriptPath,
    toolUseId,
    (o) => o?.payload?.type === "item_completed" && o.payload.item?.id === toolUseId,
  );
  return hit?.payload?.item ?? null;
}

/** The brief of a Codex subagent: the parent transcript's spawn_agent item whose receivers include the
 *  agent, else the subagent transcript's first user message. */
export function codexBrief(payload) {
  const id = str(payload.agent_id);
  const brief = {};
  if (id) {
    const hit = findFromEnd(payload.transcript_path, id, (o) => {
      const it = o?.payload?.item;
      return o?.payload?.type === "item_completed" && it?.type === "CollabAgentToolCall" && it.tool === "spawn_agent" && Array.isArray(it.receiver_thread_ids) && it.receiver_thread_ids.includes(id);
    });
    const it = hit?.payload?.item;
    if (it) {
      brief.prompt = str(it.prompt);
      brief.call = str(it.id);
      brief.model = str(it.model);
      brief.nickname = str(it.receiver_agents?.find((a) => a?.thread_id === id)?.agent_nickname);
    }
  }
  if (!brief.prompt && str(payload.agent_transcript_path)) {
    const hit = findFromEnd(payload.agent_transcript_path, "UserMessage", (o) => o?.payload?.item?.type === "UserMessage");
    const text = hit?.payload?.item?.content?.filter((c) => c?.type === "text").map((c) => c.text).join("\n");
    if (text) brief.prompt = text;
  }
  return brief;
}

/**
 * What a Codex PostToolUse payload says happened, from its transcript item: { exit, output } for a command that
 * ran, { error } for a call that failed otherwise, or null (no item: the outcome is unknown, not a failure).
 */
export function codexOutcome(event, payload, tool) {
  if (event !== "PostToolUse") return null;
  const item = codexItem(payload.transcript_path, str(payload.tool_use_id));
  if (!item) return null;
  const output = typeof payload.tool_response === "string" ? payload.tool_response : item.aggregated_output;
  if (tool === "Bash" && typeof item.exit_code === "number") return { exit: item.exit_code, output };
  if (item.status === "failed" || item.status === "declined" || item.error) {
    return { error: item.error?.message ?? item.error ?? output ?? payload.tool_response ?? item.status };
  }
  return null;
}
