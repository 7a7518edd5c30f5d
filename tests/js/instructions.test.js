// The recording instructions reach the agent through opencode's system-prompt transform, once.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { addInstructions, readInstructions, INSTRUCTIONS_URL } from "../../plugin/hosts/instructions.js";
import { AiRecordingsPlugin } from "../../plugin/opencode.js";

const TEXT = fs.readFileSync(INSTRUCTIONS_URL, "utf8").trim();
const HEAD = TEXT.split("\n")[0];
const count = (system) => system.join("\n").split(HEAD).length - 1;

test("the shipped instructions file is read", () => {
  assert.equal(readInstructions(), TEXT);
  assert.match(TEXT, /`record` tool/);
  assert.equal(readInstructions(() => { throw new Error("ENOENT"); }), null);
  assert.equal(readInstructions(() => "  \n"), null);
});

test("added once to a prompt that lacks it, never twice", () => {
  const system = ["You are opencode."];
  assert.equal(addInstructions(system, TEXT), true);
  assert.deepEqual(system, ["You are opencode.", TEXT]);
  assert.equal(addInstructions(system, TEXT), false);
  assert.equal(count(system), 1);
});

test("not added when the prompt already holds the file, however re-wrapped", () => {
  // opencode's own `instructions` list puts the file inside one big part, with its own header.
  const listed = ["You are opencode.\nInstructions from: /p/instructions/recordings.md\n" + TEXT.replace(/\n/g, "\n  ") + "\n"];
  assert.equal(addInstructions(listed, TEXT), false);
  assert.equal(listed.length, 1);
});

const CASES = [
  [undefined, false],
  [null, false],
  ["a string", false],
  [[1, 2], true],
];
test("a system that is not an array is left alone; other parts are ignored", () => {
  for (const [system, added] of CASES) assert.equal(addInstructions(system, TEXT), added, JSON.stringify(system));
  assert.equal(addInstructions(["x"], ""), false);
});

async function transformed(options) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "instr-test-"));
  try {
    const hooks = await AiRecordingsPlugin({ directory: dir }, { file: path.join(dir, "r.jsonl"), ...options });
    const output = { system: ["You are opencode."] };
    await hooks["experimental.chat.system.transform"]({ sessionID: "ses_1", model: { id: "m" } }, output);
    return output.system;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test("the plugin's transform adds them, and `instructions: false` turns that off", async () => {
  assert.equal(count(await transformed({})), 1);
  assert.deepEqual(await transformed({ instructions: false }), ["You are opencode."]);
});

test("a surprise payload is no exception in the host", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "instr-test-"));
  const hooks = await AiRecordingsPlugin({ directory: dir }, { file: path.join(dir, "r.jsonl") });
  const t = hooks["experimental.chat.system.transform"];
  await assert.doesNotReject(t(undefined, undefined));
  const odd = { system: "not an array" };
  await assert.doesNotReject(t({}, odd));
  assert.equal(odd.system, "not an array");
  fs.rmSync(dir, { recursive: true, force: true });
});
