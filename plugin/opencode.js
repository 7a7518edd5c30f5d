// The opencode plugin: host wiring only. Each hook hands its payload to a tested function in hooks.js.
//
// Enable it with `"plugin": ["<path or package>"]` or the tuple form
// `["<spec>", { file, maxBytes, redact, auto: { subagent, gate, tool, error, compacted, gatePatterns }, recall, hints }]`.
// Every export of this module must be a plugin: opencode 1.18 calls each export and logs
// "Plugin export is not a function" for anything else, so helpers live in hooks.js.
//
// Handlers do their work synchronously (async functions that never await): opencode does not await `event`,
// and a killed opencode runs no dispose, so each entry is written as its event arrives.

import * as hooks from "./hooks.js";

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
  const cwd = input?.directory ?? process.cwd();
  // Recall (a tool, and hints on failed bash calls); null if its modules cannot load, recording goes on.
  const recall = await import("./recall/opencode.js")
    .then((m) => m.createOpencodeRecall({ file: opts.file, env: process.env, cwd, recall: options?.recall, hints: options?.hints }))
    .catch(() => null);
  const write = (sessionID, entry) => deps.record && hooks.emit(deps.record, opts, state, sessionID, entry, cwd);
  // A surprise payload must never become an exception in the host.
  const safe = (fn) => async (i, o) => {
    try {
      fn(i ?? {}, o);
    } catch {}
  };

  const after = safe((i, o) => {
    const entry = hooks.entryFromToolAfter(state, i, o, opts, Date.now());
    if (entry) write(i.sessionID, entry);
  });

  return {
    tool: { record: hooks.recordTool(deps), ...(recall?.tool ? { recall: recall.tool } : {}) },

    "chat.params": safe((i) => hooks.learnChatParams(state, i)),
    "chat.message": safe((i, o) => hooks.learnChatMessage(state, i, o)),
    "tool.execute.before": safe((i) => hooks.noteToolStart(state, i, Date.now())),
    "tool.execute.after": async (i, o) => {
      await after(i, o);
      await recall?.afterTool(i ?? {}, o).catch(() => {}); // awaited: the hint must be in the output before opencode uses it
    },
    "shell.env": safe((i, o) => {
      if (o && typeof o === "object") o.env = Object.assign(o.env ?? {}, hooks.shellEnv(state, i, target));
    }),
    event: safe(({ event }) => {
      const hit = hooks.entryFromEvent(state, event, opts);
      if (hit) write(hit.session, hit.entry);
    }),
  };
};
