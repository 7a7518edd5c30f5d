// Regenerates tests/fixtures/opencode/*.jsonl: runs the real opencode with a plugin that logs every hook call
// (input and output) and every event, for a few scripted scenarios. Run: node tests/e2e/capture.js [scenario]
// The raw logs are large; the unit tests read the payloads they need from them by hook and type.
import * as fs from "node:fs";
import * as path from "node:path";
import { startMock } from "./mock-llm.js";
import { makeSandbox, runOpencode, cleanup, REPO } from "./harness.js";

const LOG_PLUGIN = `import * as fs from "node:fs";
const out = process.env.CAPTURE_FILE;
function safe(v) {
  const seen = new WeakSet();
  return JSON.stringify(v, (k, x) => {
    if (typeof x === "function") return "[function]";
    if (k === "options" && x && typeof x === "object" && "apiKey" in x) return { apiKey: "[scrubbed]" };
    if (x && typeof x === "object") { if (seen.has(x)) return "[circular]"; seen.add(x); }
    return x;
  });
}
function log(hook, input, output) { fs.appendFileSync(out, safe({ hook, input, output }) + "\\n"); }
export const LogPlugin = async () => {
  const names = ["chat.message", "chat.params", "tool.execute.before", "tool.execute.after", "shell.env",
    "experimental.session.compacting", "experimental.compaction.autocontinue"];
  const hooks = { event: async ({ event }) => log("event", event, null) };
  for (const n of names) hooks[n] = async (input, output) => log(n, input, output);
  return hooks;
};
`;

const NOISE = new Set(["plugin.added", "catalog.updated", "reference.updated", "integration.updated", "message.part.delta"]);

const scenarios = {
  "gate-failed": {
    files: { "package.json": JSON.stringify({ name: "p", scripts: { test: "echo 'not ok 1 - adds'; exit 1" } }) },
    script: ({ n }) => (n === 0 ? { tool: "bash", args: { command: "npm test", description: "Run tests" } } : { text: "tests fail" }),
  },
  subagent: {
    script: ({ n, tools }) =>
      tools.includes("task")
        ? n === 0
          ? { tool: "task", args: { description: "Count files", prompt: "Count the files in the project and report the number.", subagent_type: "general" } }
          : { text: "the subagent says 3" }
        : { text: "There are 3 files." },
  },
  "tool-error": {
    script: ({ n }) => (n === 0 ? { tool: "read", args: { filePath: "does/not/exist.txt" } } : { text: "no such file" }),
  },
  // `opencode run` auto-rejects permission asks: the bash call ends as an error part, with no tool.execute.after.
  "permission-rejected": {
    config: { permission: { bash: "ask" } },
    script: ({ n }) => (n === 0 ? { tool: "bash", args: { command: "echo hi", description: "Say hi" } } : { text: "rejected" }),
  },
  "api-error": { script: () => ({ status: 400, message: "mock: unsupported parameter" }) },
  // A 400 whose message reads as a context overflow makes opencode compact the session, then continue.
  // The compaction request is the one that offers no tools.
  compaction: {
    script: ({ n, tools }) => {
      if (!tools.length) return { text: "Summary: the user asked for the thing." };
      return n === 0 ? { status: 400, message: "mock: context length exceeded" } : { text: "continued after compaction" };
    },
  },
};

const only = process.argv[2];
const mock = await startMock();
for (const [name, sc] of Object.entries(scenarios)) {
  if (only && name !== only) continue;
  const dirs = makeSandbox({ mockUrl: mock.url, pluginOptions: null, files: sc.files, config: sc.config, extraPlugins: { "log.js": LOG_PLUGIN } });
  const raw = path.join(dirs.root, "capture.jsonl");
  mock.script = sc.script;
  const r = await runOpencode(dirs, "please do the thing", { env: { CAPTURE_FILE: raw } });
  const kept = fs.readFileSync(raw, "utf8").split("\n").filter((l) => {
    if (!l) return false;
    const o = JSON.parse(l);
    return !(o.hook === "event" && NOISE.has(o.input?.type));
  });
  const out = path.join(REPO, "tests/fixtures/opencode", `${name}.jsonl`);
  fs.writeFileSync(out, kept.join("\n") + "\n");
  console.log(`${name}: exit ${r.code} in ${r.ms} ms, ${kept.length} lines → ${path.relative(REPO, out)}`);
  cleanup(dirs);
}
await mock.close();
