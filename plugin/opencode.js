// The opencode plugin: host wiring only. Each hook hands its payload to a tested function in hosts/opencode.js.
//
// Enable it with `"plugin": ["<path or package>"]` or the tuple form
// `["<spec>", { file, maxBytes, redact, auto: { subagent, gate, tool, error, compacted, gatePatterns }, export,
// recall, hints, nudges, nudgeAfter, instructions }]`. The agent gets instructions/recordings.md in its system prompt unless
// `instructions` is false or opencode's own `instructions` list already put the file there (then it appears once).
// Every export of this module must be a plugin: opencode 1.18 calls each export and logs
// "Plugin export is not a function" for anything else, so helpers live elsewhere.
//
// Handlers do their work synchronously (async functions that never await): opencode does not await `event`,
// and a killed opencode runs no dispose, so each entry is written as its event arrives.

import { emit } from "./capture/record-tool.js";
import { resolveOptions } from "./capture/options.js";
import { noteOptionWarnings } from "./capture/option-warnings.js";
import { createState } from "./capture/state.js";
import { memoryStore } from "./capture/memory.js";
import * as hooks from "./hosts/opencode.js";
import { settingsOf } from "./settings.js";
import { addInstructions, readInstructions } from "./hosts/instructions.js";

export const AiRecordingsPlugin = async (input, options) => {
  const opts = resolveOptions(options, process.env);
  // What the options held that the plugin ignored, for `record doctor` (the config itself is opencode's).
  noteOptionWarnings("opencode plugin", opts.warnings);
  const state = createState();
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
  const guide = opts.instructions === false ? null : readInstructions();
  const cwd = input?.directory ?? process.cwd();
  // `export: true` (or AI_RECORDINGS_EXPORT_AFTER_SESSION): `record export` runs, detached, when a root session goes idle.
  const exportAfter = opts.export === true || (opts.export !== false && settingsOf(process.env).exportAfterSession === true);
  // Recall (a tool, and hints on failed bash calls); null if its modules cannot load, recording goes on.
  // What each session did (open failures, hints given): one store for red to green and the hints.
  const memory = memoryStore();
  const recall = await import("./recall/opencode.js")
    .then((m) => m.createOpencodeRecall({ file: opts.file, env: process.env, cwd, recall: opts.recall, hints: opts.hints, team: opts.team, memory }))
    .catch(() => null);
  const write = (sessionID, entry) => deps.record && emit(deps.record, opts, state, sessionID, entry, cwd);
  // A surprise payload must never become an exception in the host.
  const safe = (fn) => async (i, o) => {
    try {
      fn(i ?? {}, o);
    } catch {}
  };

  const after = safe((i, o) => hooks.handleToolAfter({ state, memory, opts, write, cwd }, i, o, Date.now()));

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
    "experimental.chat.system.transform": safe((i, o) => {
      if (guide) addInstructions(o?.system, guide);
    }),
    event: safe(({ event }) => {
      const hit = hooks.entryFromEvent(state, event, opts);
      if (hit) write(hit.session, hit.entry);
      if (exportAfter && event?.type === "session.idle") {
        import("./export/after.js").then((m) => m.rootIdle(event, (id) => state.sessions.get(id)?.parent) && m.startExport({ file: opts.file, cwd })).catch(() => {});
      }
    }),
  };
};
