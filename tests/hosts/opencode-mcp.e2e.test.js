// The MCP server with the real opencode (1.18.33) as its MCP client: the `mcp` block from docs/hosts.md, the
// plugin not loaded, the model calling the server's tool. Reuses the opencode sandbox and mock LLM of
// tests/e2e/.
import { test } from "node:test";
import { entries } from "../js/helpers.js";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { makeSandbox, runOpencode, cleanup, OPENCODE } from "../e2e/harness.js";
import { startMock } from "../e2e/mock-llm.js";
import { docSnippet, recordShim } from "./harness.js";

test("opencode as the MCP client: the record tool is offered, called, and stamped capture mcp with opencode's client info", { skip: !fs.existsSync(OPENCODE) && "opencode not installed" }, async () => {
  let offered = [];
  const mock = await startMock((ctx) => {
    if (ctx.n === 0) {
      offered = ctx.tools;
      const name = ctx.tools.find((t) => /record/.test(t)) ?? "recordings_record";
      return { tool: name, args: { entry: '{"note":"opencode through MCP","sentiment":{"fixed":true}}' } };
    }
    return { text: "done" };
  });
  let dirs;
  try {
    dirs = makeSandbox({ mockUrl: mock.url, pluginOptions: null });
    const file = path.join(dirs.root, "out", "rec.jsonl");
    // The `mcp` block exactly as docs/hosts.md shows it, merged into the sandbox's config.
    const cfgPath = path.join(dirs.project, "opencode.json");
    const cfg = JSON.parse(fs.readFileSync(cfgPath, "utf8"));
    cfg.mcp = JSON.parse(docSnippet("opencode-mcp")).mcp;
    fs.writeFileSync(cfgPath, JSON.stringify(cfg, null, 2));
    const env = { PATH: `${recordShim(dirs.root)}:${process.env.PATH}`, AI_RECORDINGS_FILE: file };

    const r = await runOpencode(dirs, "record something", { env, timeoutMs: 90000 });
    assert.equal(r.code, 0, r.stderr.slice(-3000));
    assert.ok(offered.includes("recordings_record"), `tools offered: ${offered.join(", ")}`);
    const lines = entries(file);
    assert.equal(lines.length, 1, JSON.stringify(lines));
    const [e] = lines;
    assert.equal(e.note, "opencode through MCP");
    assert.deepEqual(e.sentiment, { fixed: true });
    assert.equal(e.capture, "mcp");
    assert.match(e.client, /^opencode\b/);
    assert.equal(e.pwd, dirs.project);
    const toolUse = r.events.find((ev) => ev.type === "tool_use");
    assert.match(JSON.stringify(toolUse), new RegExp(`recorded ${e.eid} `));
  } finally {
    await mock.close();
    if (dirs) cleanup(dirs);
  }
});
