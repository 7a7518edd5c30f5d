// The warm hook helper (plugin/cli/hook-helper.js, hook-client.js): real `record hook` processes, a real helper
// process started by them, real signals. Each test has its own XDG_RUNTIME_DIR, so its own helper, and stops it.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { missingDriver } from "../../plugin/recall/driver.js";
import { spawn } from "node:child_process";
import { tmpdir, isolatedEnv, entries, gitRepo, spawnSync, RUNTIME, CLI, helpersUnder, helperListens, stopHelpers, until } from "./helpers.js";

const noSqlite = missingDriver() ?? false;

function setup(extra = {}) {
  const d = fs.realpathSync(tmpdir("rec-helper-"));
  const run = path.join(d, "run");
  fs.mkdirSync(run, { mode: 0o700 });
  const project = path.join(d, "project");
  gitRepo(project, "https://example.com/widget.git");
  const env = isolatedEnv(d, { XDG_RUNTIME_DIR: run, XDG_DATA_HOME: path.join(d, "data"), AI_RECORDINGS_FILE: path.join(d, "r.jsonl"), AI_RECORDINGS_DEBUG: "1", ...extra });
  return { d, run, project, env, file: env.AI_RECORDINGS_FILE };
}

const failure = (project, command, id, session = "s1") => ({
  session_id: session,
  cwd: project,
  transcript_path: path.join(project, "none.jsonl"),
  hook_event_name: "PostToolUseFailure",
  tool_name: "Bash",
  tool_input: { command },
  tool_use_id: id,
  error: "Exit code 1\n\nnot ok 1 - widget spinner test\n  Error: ENOENT fixture cache missing",
});
const passing = (project, command, id, session = "s1") => ({ ...failure(project, command, id, session), hook_event_name: "PostToolUse", error: undefined, tool_response: { stdout: "ok", stderr: "" } });

function hook(env, payload, cwd) {
  const r = spawnSync(RUNTIME, [CLI, "hook", "claude-code"], { env, cwd, input: JSON.stringify(payload), encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /internal error/);
  return r;
}

/** Whether the helper of `run` (the test's XDG_RUNTIME_DIR) listens. */
const listening = (run) => helperListens(path.join(run, "opencode-recordings"));

/** The entries of `file` and the hook outputs `texts` without what differs between two runs in two directories
 *  (`dir`): times, eids (as their places in the file), the directory, and fingerprints (of commands run there,
 *  as the order they first appear in). */
function comparable(file, texts, dir) {
  const all = entries(file);
  const eids = all.map((e) => e.eid);
  const fps = [];
  const mask = (s) =>
    eids
      .reduce((t, eid, i) => t.split(eid).join(`<entry ${i}>`), s)
      .split(dir)
      .join("<dir>")
      .replace(/g1_[0-9a-f]{16}/g, (fp) => `<fp ${fps.includes(fp) ? fps.indexOf(fp) : fps.push(fp) - 1}>`);
  const kept = all.map(({ ts, eid, first_ts, ...rest }) => JSON.parse(mask(JSON.stringify(rest))));
  return { entries: kept, texts: texts.map(mask) };
}

test("events that record or hint run in the helper the first such hook starts, with the same outcome", { skip: noSqlite }, async () => {
  const runs = {};
  for (const mode of ["1", "0"]) {
    const { d, run, project, env, file } = setup({ AI_RECORDINGS_HOOK_HELPER: mode });
    try {
      const lesson = spawnSync(RUNTIME, [CLI, "the widget spinner test fails when the fixture cache is missing: run make fixtures first"], { env, cwd: project, encoding: "utf8" });
      assert.equal(lesson.status, 0, lesson.stderr);
      const texts = [];
      const stderrs = [];
      const step = (payload) => {
        const r = hook(env, payload, project);
        texts.push(r.stdout);
        stderrs.push(r.stderr);
      };
      step(failure(project, "npm test", "a"));
      if (mode === "1") await until(() => listening(run), "the helper to listen");
      else assert.equal(fs.existsSync(path.join(run, "opencode-recordings")), false, "no helper with AI_RECORDINGS_HOOK_HELPER=0");
      step(failure(project, "npm test", "b"));
      step(failure(project, "./ci/run.sh", "c", "s2")); // not a gate: a hint only, in another session
      step(passing(project, "npm test", "d")); // green after two failures: the entry and the line asking what fixed it
      step(passing(project, "ls", "e")); // a passing command that is no gate: nothing at all
      runs[mode] = { ...comparable(file, texts, d), stderrs };
      if (mode === "1") {
        assert.match(stderrs[0], /did not take the event \(no helper\): working here/);
        for (const i of [1, 2, 3]) assert.match(stderrs[i], /the event ran in the warm helper/, `step ${i}`);
        assert.doesNotMatch(stderrs[4], /warm helper/, "a hook that needs nothing does not ask the helper");
        assert.equal(helpersUnder(run).length, 1, "one helper");
      } else {
        for (const s of stderrs) assert.doesNotMatch(s, /warm helper/);
      }
    } finally {
      stopHelpers(run);
    }
  }
  assert.deepEqual(runs["1"].entries, runs["0"].entries);
  assert.deepEqual(runs["1"].texts, runs["0"].texts);
  // The outcomes themselves: a hint for the first failure and for the other session, the line on turning green.
  const [first, second, other, green, none] = runs["1"].texts;
  assert.match(JSON.parse(first).hookSpecificOutput.additionalContext, /<entry 0> .* run make fixtures first/);
  assert.equal(second, "", "the session was given that lesson already");
  assert.match(JSON.parse(other).hookSpecificOutput.additionalContext, /run make fixtures first/);
  assert.match(JSON.parse(green).hookSpecificOutput.additionalContext, /npm test passes now after 2 failures/);
  assert.equal(none, "");
  assert.deepEqual(runs["1"].entries.map((e) => e.trigger), [undefined, "gate.failed", "gate.failed", "gate.passed"]);
});

test("each event runs with its own process's environment, directory and arguments", async () => {
  const { d, run, project, env, file } = setup({ AI_RECORDINGS_HINTS: "0" });
  try {
    hook(env, failure(project, "npm test", "a"), project);
    await until(() => listening(run), "the helper to listen");
    const other = path.join(d, "other.jsonl");
    const byEnv = hook({ ...env, AI_RECORDINGS_FILE: other, AI_RECORDINGS_SESSION: "from-env" }, { ...failure(project, "npm test", "b"), session_id: undefined }, project);
    assert.match(byEnv.stderr, /the event ran in the warm helper/);
    // An event without a cwd of its own: a relative --file and the entry's pwd are the hook process's directory.
    const byFlag = spawnSync(RUNTIME, [CLI, "hook", "claude-code", "--file", "flag.jsonl"], { env, cwd: d, input: JSON.stringify({ ...failure(project, "make test", "c"), cwd: undefined }), encoding: "utf8" });
    assert.match(byFlag.stderr, /the event ran in the warm helper/);
    assert.deepEqual(entries(file).map((e) => e.command), ["npm test"]);
    assert.deepEqual(entries(other).map((e) => [e.command, e.session]), [["npm test", "from-env"]]);
    assert.deepEqual(entries(path.join(d, "flag.jsonl")).map((e) => [e.command, e.pwd]), [["make test", d]]);
  } finally {
    stopHelpers(run);
  }
});

test("a helper killed or stopped: the event is done by its hook process, once, and a new helper is started", async () => {
  const { run, project, env, file } = setup({ AI_RECORDINGS_HINTS: "0" });
  try {
    hook(env, failure(project, "npm test", "a"), project);
    await until(() => listening(run), "the helper to listen");
    const [first] = helpersUnder(run);
    process.kill(first.pid, "SIGKILL");
    await until(() => helpersUnder(run).length === 0, "the helper to die");
    const refused = hook(env, failure(project, "npm test", "b"), project);
    assert.match(refused.stderr, /did not take the event \(ECONNREFUSED\): working here/);
    assert.match(refused.stderr, /record hook: recorded /);
    await until(() => listening(run) && helpersUnder(run)[0].pid !== first.pid, "a new helper to listen");
    const [second] = helpersUnder(run);
    // Stopped: it cannot take the event in time, so the hook process does it, retires that helper's socket and
    // starts another; resumed, the stopped one finds the event too old and its socket gone, and leaves.
    process.kill(second.pid, "SIGSTOP");
    const stopped = hook(env, failure(project, "npm test", "c"), project);
    assert.match(stopped.stderr, /did not take the event within 1000 ms\): working here/);
    assert.match(stopped.stderr, /record hook: recorded /);
    await until(() => listening(run) && helpersUnder(run).some((h) => h.pid !== second.pid), "a third helper to listen");
    process.kill(second.pid, "SIGCONT");
    await until(() => !helpersUnder(run).some((h) => h.pid === second.pid), "the resumed helper to leave");
    const after = hook(env, failure(project, "npm test", "d"), project);
    assert.match(after.stderr, /the event ran in the warm helper/);
    assert.deepEqual(
      entries(file).map((e) => [e.trigger, e.call]),
      [["gate.failed", "a"], ["gate.failed", "b"], ["gate.failed", "c"], ["gate.failed", "d"]],
      "each of the four failures once",
    );
  } finally {
    stopHelpers(run);
  }
});

test("eight hooks at once through one helper: every event once, each with its own outcome", async () => {
  const { run, project, env, file } = setup({ AI_RECORDINGS_HINTS: "0" });
  try {
    hook(env, failure(project, "npm test", "first"), project);
    await until(() => listening(run), "the helper to listen");
    const ids = ["p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7"];
    const results = await Promise.all(
      ids.map(
        (id) =>
          new Promise((resolve) => {
            const child = spawn(RUNTIME, [CLI, "hook", "claude-code"], { env, cwd: project });
            let stderr = "";
            child.stderr.on("data", (c) => (stderr += c));
            child.on("close", (code) => resolve({ code, stderr }));
            child.stdin.end(JSON.stringify(failure(project, "npm test", id, `session-${id}`)));
          }),
      ),
    );
    for (const r of results) {
      assert.equal(r.code, 0);
      assert.match(r.stderr, /record hook: recorded /);
    }
    const calls = entries(file).map((e) => e.call);
    assert.deepEqual([...calls].sort(), ["first", ...ids].sort());
    assert.deepEqual(entries(file).slice(1).map((e) => e.session).sort(), ids.map((id) => `session-${id}`).sort());
  } finally {
    stopHelpers(run);
  }
});

test("the helper exits when idle, when its socket is removed, and when the install changes under it", async () => {
  const { d, run, project, env } = setup({ AI_RECORDINGS_HINTS: "0", AI_RECORDINGS_HOOK_HELPER_IDLE: "1s" });
  try {
    const dir = path.join(run, "opencode-recordings");
    hook(env, failure(project, "npm test", "a"), project);
    await until(() => listening(run), "the helper to listen");
    await until(() => helpersUnder(run).length === 0, "the idle helper to exit");
    assert.deepEqual(fs.readdirSync(dir), [], "it removes its socket");
    // Removed socket: a helper with a long idle time goes when its socket does.
    const longer = { ...env, AI_RECORDINGS_HOOK_HELPER_IDLE: "1h" };
    hook(longer, failure(project, "npm test", "b"), project);
    await until(() => listening(run), "the helper to listen");
    for (const n of fs.readdirSync(dir)) fs.rmSync(path.join(dir, n));
    await until(() => helpersUnder(run).length === 0, "the helper whose socket was removed to exit");
    // An install whose files change (a rebuild, a reinstall): hooks look for a helper of the new files, and the
    // old one leaves.
    const plugin = path.join(d, "plugin");
    fs.cpSync(path.dirname(CLI), plugin, { recursive: true });
    fs.symlinkSync(path.join(path.dirname(CLI), "..", "node_modules"), path.join(d, "node_modules"));
    const copied = (payload) => spawnSync(RUNTIME, [path.join(plugin, "record.cjs"), "hook", "claude-code"], { env: longer, cwd: project, input: JSON.stringify(payload), encoding: "utf8" });
    copied(failure(project, "npm test", "c"));
    await until(() => listening(run), "the copy's helper to listen");
    const before = fs.readdirSync(dir).filter((n) => n.endsWith(".sock"));
    const bundle = path.join(plugin, "hook-write.bundle.cjs");
    fs.writeFileSync(bundle, fs.readFileSync(bundle)); // same bytes, a new write
    await until(() => helpersUnder(run).length === 0, "the helper of the old files to exit");
    assert.deepEqual(fs.readdirSync(dir).filter((n) => before.includes(n)), [], "and to remove its socket");
    const again = copied(failure(project, "npm test", "d"));
    assert.match(again.stderr, /no helper\): working here/);
  } finally {
    stopHelpers(run);
  }
});

test("no helper where the socket's directory is not this user's alone, nor with AI_RECORDINGS_HOOK_HELPER=0", async () => {
  const { run, project, env, file } = setup({ AI_RECORDINGS_HINTS: "0" });
  try {
    const dir = path.join(run, "opencode-recordings");
    fs.mkdirSync(dir, { mode: 0o755 });
    fs.chmodSync(dir, 0o755);
    for (const id of ["a", "b"]) assert.match(hook(env, failure(project, "npm test", id), project).stderr, /record hook: recorded /);
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(helpersUnder(run), []);
    assert.deepEqual(fs.readdirSync(dir), []);
    fs.chmodSync(dir, 0o700);
    const off = { ...env, AI_RECORDINGS_HOOK_HELPER: "0" };
    hook(off, failure(project, "npm test", "c"), project);
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(helpersUnder(run), []);
    assert.equal(entries(file).length, 3);
  } finally {
    stopHelpers(run);
  }
});

test("record doctor says whether the helper is off, not running, or listening", async () => {
  const { run, project, env } = setup({ AI_RECORDINGS_HINTS: "0" });
  const doctor = (e) => spawnSync(RUNTIME, [CLI, "doctor"], { env: e, cwd: project, encoding: "utf8" }).stdout;
  try {
    assert.match(doctor({ ...env, AI_RECORDINGS_HOOK_HELPER: "0" }), /Hook helper\n {2}off \(AI_RECORDINGS_HOOK_HELPER=0\)/);
    assert.match(doctor(env), /Hook helper\n {2}none running: the next hook that records an entry or looks for a hint starts one\n {2}socket: .*opencode-recordings\/hook-\w+\.sock/);
    hook(env, failure(project, "npm test", "a"), project);
    await until(() => listening(run), "the helper to listen");
    assert.match(doctor(env), /Hook helper\n {2}listening: hooks that record an entry or look for a hint hand the event to it/);
  } finally {
    stopHelpers(run);
  }
});
