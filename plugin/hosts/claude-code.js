// Claude Code's hook payloads (shapes captured from the real CLI into tests/fixtures/hosts/claude-code/): a
// failed call arrives as PostToolUseFailure, a finished subagent as SubagentStop. What differs from Codex is
// where the exit status, the subagent's brief and the model are found.

import { findFromEnd, firstLine, readJson } from "./transcript.js";

const str = (v) => (typeof v === "string" && v !== "" ? v : undefined);

/** Claude Code's `error` for a failed Bash call: "Exit code 3\n\n<stdout+stderr>". null when it has none
 *  (interrupted, timed out, refused: the command did not finish with a status). */
export function parseClaudeBashError(error) {
  if (typeof error !== "string") return null;
  const m = /^Exit code (\d+)(?:\r?\n\r?\n?|$)/.exec(error);
  if (!m) return null;
  return { exit: Number(m[1]), output: error.slice(m[0].length) };
}

/** Claude Code: the model of the session's latest assistant message in its transcript. */
export function claudeModel(transcriptPath) {
  const hit = findFromEnd(transcriptPath, '"assistant"', (o) => o?.type === "assistant" && typeof o.message?.model === "string", { maxBytes: 2 * 1024 * 1024 });
  return hit?.message?.model;
}

/** The first user message's text in a Claude subagent transcript (its brief's prompt) and when it started. */
function claudeSubagentStart(agentTranscript) {
  const first = firstLine(agentTranscript);
  if (!first || first.type !== "user") return {};
  const c = first.message?.content;
  let prompt;
  if (typeof c === "string") prompt = c;
  else if (Array.isArray(c)) prompt = c.filter((b) => b?.type === "text").map((b) => b.text).join("\n") || undefined;
  const t = Date.parse(first.timestamp);
  return { prompt, started: Number.isFinite(t) ? t : undefined };
}

/**
 * The brief of a Claude Code subagent: `agent-<id>.meta.json` beside its transcript gives agentType,
 * description, toolUseId and model; the transcript's first line gives the prompt. When the meta file is
 * missing, the parent transcript's Agent/Task tool_use with the same prompt is used.
 */
export function claudeBrief(payload) {
  const agentTranscript = str(payload.agent_transcript_path);
  const brief = {};
  if (agentTranscript) {
    const meta = readJson(agentTranscript.replace(/\.jsonl$/, ".meta.json"));
    if (meta) {
      brief.description = str(meta.description);
      brief.subagent_type = str(meta.agentType);
      brief.call = str(meta.toolUseId);
      brief.model = str(meta.model);
    }
    Object.assign(brief, claudeSubagentStart(agentTranscript));
  }
  if ((!brief.description || !brief.prompt) && (brief.call || brief.prompt)) {
    const hit = findFromEnd(payload.transcript_path, brief.call ?? '"tool_use"', (o) =>
      o?.type === "assistant" && Array.isArray(o.message?.content) && o.message.content.some((b) => isBriefCall(b, brief)),
    );
    const block = hit?.message?.content?.find((b) => isBriefCall(b, brief));
    if (block) {
      brief.description ??= str(block.input?.description);
      brief.prompt ??= str(block.input?.prompt);
      brief.subagent_type ??= str(block.input?.subagent_type);
      brief.call ??= str(block.id);
    }
  }
  return brief;
}

function isBriefCall(b, brief) {
  if (b?.type !== "tool_use") return false;
  if (brief.call) return b.id === brief.call;
  return (b.name === "Agent" || b.name === "Task") && b.input?.prompt === brief.prompt;
}

/**
 * What a Claude Code PostToolUse / PostToolUseFailure payload says happened: { exit, output } for a command that
 * ran, { error, interrupted } for a call that failed otherwise, or null (Claude reports failures only through
 * PostToolUseFailure; the exit code exists only inside `error`).
 */
export function claudeOutcome(event, payload, tool) {
  // A successful Bash fires PostToolUse: exit 0, for the red-to-green check.
  if (event === "PostToolUse") return tool === "Bash" ? { exit: 0, output: typeof payload.tool_response?.stdout === "string" ? payload.tool_response.stdout : "" } : null;
  if (event !== "PostToolUseFailure") return null;
  const parsed = tool === "Bash" ? parseClaudeBashError(payload.error) : null;
  return parsed ?? { error: payload.error ?? "failed", interrupted: payload.is_interrupt === true };
}
