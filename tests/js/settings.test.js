// The one reader of AI_RECORDINGS_*: each kind of value as a table, and the problems doctor reports.
import { test } from "node:test";
import assert from "node:assert/strict";
import { settingsOf, envOf, refreshEnv } from "../../plugin/settings.js";
import { flag, list, positiveInt } from "../../plugin/values.js";

test("flag: the on and off words, anything else unset", () => {
  const cases = [
    ["0", false], ["false", false], ["no", false], ["off", false], ["none", false], [" OFF ", false],
    ["1", true], ["true", true], ["yes", true], ["on", true], ["On", true],
    ["", undefined], ["maybe", undefined], [undefined, undefined], [null, undefined],
    [true, true], [false, false],
  ];
  for (const [v, want] of cases) assert.equal(flag(v), want, JSON.stringify(v));
});

test("positiveInt: decimal digits or a positive number, nothing else", () => {
  const cases = [
    ["1024", 1024], [" 7 ", 7], [4096, 4096],
    ["0", undefined], ["-5", undefined], ["1e6", undefined], ["16MiB", undefined], ["12.5", undefined],
    ["", undefined], [undefined, undefined], [0, undefined], [1.5, undefined], [Number.MAX_SAFE_INTEGER + 2, undefined],
  ];
  for (const [v, want] of cases) assert.equal(positiveInt(v), want, JSON.stringify(v));
});

test("list: one item a line, trimmed, blank lines dropped; commas stay inside an item", () => {
  assert.deepEqual(list("a\n  b , c \n\n"), ["a", "b , c"]);
  assert.deepEqual(list(undefined), []);
  assert.deepEqual(list(""), []);
});

test("settingsOf: every variable, and the unusable ones named in problems", () => {
  const s = settingsOf({
    AI_RECORDINGS_FILE: "/x/r.jsonl",
    AI_RECORDINGS_SESSION: "ses_1",
    AI_RECORDINGS_MODEL: "p/m",
    AI_RECORDINGS_AGENT: "build",
    AI_RECORDINGS_MAX_BYTES: "1e6",
    AI_RECORDINGS_SYNC: "perhaps",
    AI_RECORDINGS_REDACT: "none",
    AI_RECORDINGS_REDACT_PATTERNS: "A\nB",
    AI_RECORDINGS_REDACT_ALLOW: "x",
    AI_RECORDINGS_AUTO: "gate, subagent",
    AI_RECORDINGS_GATE_PATTERNS: "just\\s+check",
    AI_RECORDINGS_DEBUG: "1",
  });
  assert.equal(s.file, "/x/r.jsonl");
  assert.equal(s.session, "ses_1");
  assert.equal(s.model, "p/m");
  assert.equal(s.agent, "build");
  assert.equal(s.maxBytes, undefined);
  assert.equal(s.sync, undefined);
  assert.equal(s.redact, false);
  assert.deepEqual(s.redactPatterns, ["A", "B"]);
  assert.deepEqual(s.allow, ["x"]);
  assert.deepEqual(s.allowPatterns, []);
  assert.deepEqual(s.auto, ["gate", "subagent"]);
  assert.deepEqual(s.gatePatterns, ["just\\s+check"]);
  assert.equal(s.debug, true);
  assert.equal(s.problems.length, 2);
  assert.match(s.problems[0], /AI_RECORDINGS_MAX_BYTES="1e6" is not a size in bytes/);
  assert.match(s.problems[1], /AI_RECORDINGS_SYNC="perhaps" is neither on/);
});

test("settingsOf: the hook helper's switch and idle time; an idle time that is no duration is named", () => {
  assert.deepEqual([settingsOf({}).hookHelper, settingsOf({}).hookHelperIdleMs], [undefined, undefined]);
  const on = settingsOf({ AI_RECORDINGS_HOOK_HELPER: "yes", AI_RECORDINGS_HOOK_HELPER_IDLE: "90s" });
  assert.deepEqual([on.hookHelper, on.hookHelperIdleMs, on.problems], [true, 90_000, []]);
  assert.equal(settingsOf({ AI_RECORDINGS_HOOK_HELPER: "0" }).hookHelper, false);
  for (const bad of ["soon", "0s", "15"]) {
    const s = settingsOf({ AI_RECORDINGS_HOOK_HELPER_IDLE: bad });
    assert.equal(s.hookHelperIdleMs, undefined, bad);
    assert.deepEqual(s.problems, [`AI_RECORDINGS_HOOK_HELPER_IDLE=${JSON.stringify(bad)} is not a duration above zero (90s, 15m, 1h): ignored`]);
  }
});

test("settingsOf: AI_RECORDINGS_AUTO off, on, all", () => {
  assert.equal(settingsOf({ AI_RECORDINGS_AUTO: "off" }).auto, false);
  assert.equal(settingsOf({ AI_RECORDINGS_AUTO: "on" }).auto, true);
  assert.equal(settingsOf({ AI_RECORDINGS_AUTO: "all" }).auto, true);
  assert.equal(settingsOf({}).auto, undefined);
});

test("settingsOf remembers a frozen environment, reads a live one afresh", () => {
  const frozen = Object.freeze({ AI_RECORDINGS_FILE: "/a" });
  assert.equal(settingsOf(frozen), settingsOf(frozen));
  const live = { AI_RECORDINGS_FILE: "/a" };
  assert.equal(settingsOf(live).file, "/a");
  live.AI_RECORDINGS_FILE = "/b";
  assert.equal(settingsOf(live).file, "/b");
});

test("envOf: options.env when given, else one snapshot until refreshEnv()", () => {
  const given = { A: "1" };
  assert.equal(envOf({ env: given }), given);
  const a = envOf({});
  assert.equal(envOf({}), a);
  assert.ok(Object.isFrozen(a));
  refreshEnv();
  assert.notEqual(envOf({}), a);
});

test("the launcher's switch reads on exactly where the settings' flag does", async () => {
  const { createRequire } = await import("node:module");
  const { isOn } = createRequire(import.meta.url)("../../plugin/record.cjs");
  for (const v of ["1", "true", "TRUE", "yes", "on", " on ", "0", "false", "off", "no", "none", "", "2", "enabled", undefined]) {
    assert.equal(isOn(v), flag(v) === true, JSON.stringify(v));
  }
});

test("one parser per kind of value: sizes, durations, counts", async () => {
  const { byteSize, durationMs, wholeNumber } = await import("../../plugin/values.js");
  for (const [v, n] of [[4096, 4096], ["4096", 4096], ["16k", 16384], ["16KiB", 16384], ["1.5M", 1572864], ["2G", 2 * 1024 ** 3], [" 8 kb ", 8192]]) assert.equal(byteSize(v), n, String(v));
  for (const v of ["16x", "-1", "0", 0, "", "k", "1e3", null, undefined, 1.5]) assert.equal(byteSize(v), undefined, String(v));
  for (const [v, n] of [["500ms", 500], ["90s", 90e3], ["30m", 1800e3], ["12h", 43200e3], ["7d", 604800e3], ["2w", 1209600e3], [250, 250]]) assert.equal(durationMs(v), n, String(v));
  for (const v of ["7", "7y", "", "d", -1]) assert.equal(durationMs(v), undefined, String(v));
  for (const [v, n] of [["0", 0], [3, 3], ["12", 12]]) assert.equal(wholeNumber(v), n);
  for (const v of ["-1", "1.5", "x", 1.5]) assert.equal(wholeNumber(v), undefined, String(v));
  assert.equal(settingsOf({ AI_RECORDINGS_MAX_BYTES: "16k" }).maxBytes, 16384, "sizes read alike in the environment");
});

test("one rule for HOME and the XDG directories; the launcher's cache directory follows it", async () => {
  const { placesOf } = await import("../../plugin/settings.js");
  const { createRequire } = await import("node:module");
  const { cacheHome } = createRequire(import.meta.url)("../../plugin/record.cjs");
  const homedir = () => "/account";
  for (const env of [{}, { HOME: "/h" }, { HOME: "rel" }, { HOME: "/h", XDG_CACHE_HOME: "/c" }, { XDG_CACHE_HOME: "c" }, { HOME: "" }]) {
    assert.equal(cacheHome(env, homedir), placesOf(env, homedir).cacheHome, JSON.stringify(env));
  }
  const p = placesOf({ HOME: "/h", XDG_STATE_HOME: "/s", XDG_DATA_HOME: "rel" }, homedir);
  assert.deepEqual([p.stateHome, p.dataHome], ["/s", "/h/.local/share"]);
  const { sessionMemoryDir, indexPath, resolveTarget } = await import("../../plugin/paths.js");
  const { statusPath } = await import("../../plugin/writer/status.js");
  const env = { HOME: "/h", XDG_STATE_HOME: "state-is-relative" };
  assert.equal(sessionMemoryDir({ env }), "/h/.local/state/opencode-recordings/sessions");
  assert.equal(statusPath({ env }), "/h/.local/state/opencode-recordings/status.json");
  assert.match(indexPath("/x/r.jsonl", { env }), /^\/h\/\.local\/share\/opencode-recordings\/recall\//);
  assert.equal(resolveTarget({ env }).file, "/h/git/ai_recordings.jsonl");
  // XDG_RUNTIME_DIR has no default: without an absolute one the hook helper's socket is in the user's temp dir.
  const { helperSocketPath, userTmpDir } = await import("../../plugin/paths.js");
  assert.equal(placesOf({ XDG_RUNTIME_DIR: "/run/user/7" }, homedir).runtimeDir, "/run/user/7");
  assert.equal(helperSocketPath("k1", { env: { XDG_RUNTIME_DIR: "/run/user/7" } }), "/run/user/7/opencode-recordings/hook-k1.sock");
  for (const run of [undefined, "run-relative"]) assert.equal(helperSocketPath("k1", { env: { XDG_RUNTIME_DIR: run } }), `${userTmpDir()}/hook-k1.sock`);
});
