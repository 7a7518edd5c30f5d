// The opencode plugin: host wiring only. Each hook hands its payload to a tested function in hooks.js.
//
// Enable it with `"plugin": ["<path or package>"]` or the tuple form
// `["<spec>", { file, maxBytes, redact, auto: { subagent, gate, tool, error, compacted, gatePatterns },
// instructions }]`. The agent gets instructions/recordings.md in its system prompt unless `instructions` is
// false or opencode's own `instructions` list already put the file there (then it appears once).
// Every export of this module must be a plugin: opencode 1.18 calls each export and logs
// "Plugin export is not a function" for anything else, so helpers live in hooks.js.
//
// Handlers do their work synchronously (async functions that never await): opencode does not await `event`,
// and a killed opencode runs no dispose, so each entry is written as its event arrives.

import * as hooks from "./hooks.js";
import { addInstructions, readInstructions } from "./instructions.js";

export const AiRecordingsPlugin = async (input, options) => {
  const opts = hooks.resolveOptions(options, process.env);
  const state = hooks.createState();
  const deps = { opts, state, record: null, loadError: null };
  let target = null;
  try {
    // The recorder loads the wasm core; if that fails the session must go on, with the tool saying why.
    const recorder = await import("./recorder.js");
    deps.record = recorder.record;
    try {
      target = recorder.resolveTarget({ file: opts.file }).file;
    } catch {}
  } catch (e) {
    deps.loadError = e?.message ?? String(e);
  }
  const guide = options?.instructions === false ? null : readInstructions();
  const cwd = input?.directory ?? process.cwd();
  const write = (sessionID, entry) => deps.record && hooks.emit(deps.record, opts, state, sessionID, entry, cwd);
  // A surprise payload must never become an exception in the host.
  const safe = (fn) => async (i, o) => {
    try {
      fn(i ?? {}, o);
    } catch {}
  };

  return {
    tool: { record: hooks.recordTool(deps) },

    "chat.params": safe((i) => hooks.learnChatParams(state, i)),
    "chat.message": safe((i, o) => hooks.learnChatMessage(state, i, o)),
    "tool.execute.before": safe((i) => hooks.noteToolStart(state, i, Date.now())),
    "tool.execute.after": safe((i, o) => {
      const entry = hooks.entryFromToolAfter(state, i, o, opts, Date.now());
      if (entry) write(i.sessionID, entry);
    }),
    "shell.env": safe((i, o) => {
      if (o && typeof o === "object") o.env = Object.assign(o.env ?? {}, hooks.shellEnv(state, i, target));
    }),
    "experimental.chat.system.transform": safe((i, o) => {
      if (guide) addInstructions(o?.system, guide);
    }),
    event: safe(({ event }) => {
      const hit = hooks.entryFromEvent(state, event, opts);
      if (hit) write(hit.session, hit.entry);
    }),
  };
};
