// The `record` CLI as a real process (under the runtime running this suite): grammar, output, exit status,
// byte-identical round trips of every input style, modes, stamps in a real repository, streaming stdin.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { segments } from "../../plugin/writer/index.js";
import { missingDriver } from "../../plugin/recall/driver.js";
import { tmpdir, isolatedEnv, runCli, lines, entries, rawMembers, containsInOrder, git, gitRepo, spawnSync, RUNTIME, CLI, canDropPrivileges } from "./helpers.js";

const PLUGIN = path.dirname(CLI);

function setup(extraEnv = {}) {
  const d = fs.realpathSync(tmpdir("rec-cli-"));
  const file = path.join(d, "out", "rec.jsonl");
  return { d, file, q: path.join(d, "out", "rec.quarantine.jsonl"), env: isolatedEnv(d, { AI_RECORDINGS_FILE: file, ...extraEnv }) };
}

const JSON_INPUTS = [
  '{"note":"simple"}',
  '{ "note" : "spaced out" ,\n  "n" : 1.0 }',
  '{"dup":1,"dup":2,"num":1e5,"neg":-0.0,"big":123456789012345678901234567890}',
  '{"esc":"caf\\u00e9 \\/ \\" \\\\ \\n \\ud83d\\ude00","raw":"é 🙂"}',
  '{"sentiment":{"guilt":["skipped tests"],"relief":[]},"nested":{"a":[{"b":null}]}}',
  '{"sentiment":null,"ts":"2020-01-01T00:00:00Z","eid":"mine-0001","capture":"me"}',
  '{"deep":' + "[".repeat(300) + "]".repeat(300) + "}",
];

test("every JSON member round-trips byte-identically, as an argument and on stdin", () => {
  const { file, env } = setup();
  for (const input of JSON_INPUTS) {
    const a = runCli(["--json", input], { env });
    const b = runCli(["--json"], { env, input: input + "\n" });
    for (const r of [a, b]) {
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.json.status, "recorded", `${input}: ${r.stderr}`);
    }
  }
  const got = lines(file);
  assert.equal(got.length, JSON_INPUTS.length * 2);
  JSON_INPUTS.forEach((input, i) => {
    for (const line of [got[2 * i], got[2 * i + 1]]) {
      const members = rawMembers(line);
      assert.ok(containsInOrder(members, rawMembers(input)), `changed:\n in: ${input}\nout: ${line}`);
      JSON.parse(line);
    }
  });
  // A supplied ts/eid/capture stands, once.
  const own = rawMembers(got[10]);
  assert.deepEqual(own.filter(([k]) => ["ts", "eid", "capture"].includes(k)), [["ts", '"2020-01-01T00:00:00Z"'], ["eid", '"mine-0001"'], ["capture", '"me"']]);
});

test("loose and plain text keep the verbatim input in raw, argument and stdin alike", () => {
  const { file, env } = setup();
  const texts = [
    "category=bad judgement | finding: trusted a stale cache | result: wasted an hour {grade: F, confidence: high}",
    "I told the user the tests passed before running them. sentiment: guilt, relief",
    "Fixed the flaky test — it was a race 🙂",
    "tabs\tand \\ backslashes and \"quotes\" and ünïcödé",
  ];
  for (const t of texts) {
    assert.equal(runCli([t], { env }).code, 0);
    assert.equal(runCli(["-"], { env, input: t }).code, 0);
  }
  const got = entries(file);
  texts.forEach((t, i) => {
    assert.equal(got[2 * i].raw, t);
    assert.equal(got[2 * i + 1].raw, t);
  });
  assert.equal(got[0].category, "bad judgement");
});

test("quarantine: broken JSON and invalid UTF-8 are kept verbatim beside the target, exit 0", () => {
  const { file, q, env } = setup();
  const broken = '{"note": "unterminated';
  const r = runCli([broken], { env });
  assert.equal(r.code, 0);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /^record: kept in quarantine \(.+\): .*rec\.quarantine\.jsonl\n$/);
  const bytes = Buffer.from([0x6e, 0x6f, 0x74, 0x65, 0x20, 0xff, 0xc3, 0x28, 0x0a]);
  const r2 = runCli(["--json"], { env, input: bytes });
  assert.equal(r2.json.status, "quarantined");
  assert.equal(r2.json.file, q);
  const [e1, e2] = entries(q);
  assert.equal(e1.raw, broken);
  assert.ok(Buffer.from(e2.raw_b64, "base64").equals(bytes));
  assert.deepEqual(lines(file), []);
});

test("grammar: --, -, words joined, options before text, unknown options kept as text", () => {
  const { file, env } = setup();
  const cases = [
    [["--", "--json", "is", "text"], "--json is text", ""],
    [["--", "read"], "read", ""],
    [["several", "words", "--json", "joined"], "several words --json joined", ""],
    [["--frobnicate", "keep", "this"], "--frobnicate keep this", /unknown option --frobnicate/],
    [["--session", "s1", "--", "-x"], "-x", ""],
    [["--file=" + file, "eq form"], "eq form", ""],
  ];
  for (const [args, want, stderr] of cases) {
    const r = runCli(args, { env });
    assert.equal(r.code, 0, args.join(" "));
    assert.equal(r.stdout, "");
    if (stderr) assert.match(r.stderr, stderr);
    else assert.equal(r.stderr, "", args.join(" "));
    assert.equal(entries(file).at(-1).raw, want, args.join(" "));
  }
  assert.equal(entries(file)[4].session, "s1");
  // "-" and no TEXT read standard input; a lone unknown option with piped input records the input.
  for (const args of [["-"], [], ["--frobnicate"]]) {
    const r = runCli(args, { env, input: `from stdin ${args.join(" ")}` });
    assert.equal(r.code, 0);
    assert.equal(entries(file).at(-1).raw, `from stdin ${args.join(" ")}`);
  }
});

function withTty(args, env) {
  // `script` gives the CLI a terminal on stdin, as when a person types `record --oops`.
  const cmd = [RUNTIME, CLI, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  const r = spawnSync("script", ["-qec", cmd, "/dev/null"], { env, encoding: "utf8", input: "" , timeout: 20000 });
  return { code: r.status, out: r.stdout };
}

test("pure usage errors without entry text exit 2 and write nothing", (t) => {
  if (spawnSync("script", ["-qec", "true", "/dev/null"]).status !== 0) {
    t.skip("`script` (util-linux) is not available to provide a terminal");
    return;
  }
  const { file, env } = setup();
  for (const args of [["--oops"], ["--file"]]) {
    const r = withTty(args, env);
    assert.equal(r.code, 2, `${args}: ${r.out}`);
    assert.match(r.out, /no entry text given/);
  }
  assert.equal(fs.existsSync(file), false);
});

test("--json prints exactly status, code, file, eid, reason; without it success is silent", () => {
  const { file, env } = setup();
  const r = runCli(["--json", "hello"], { env });
  assert.deepEqual(Object.keys(r.json), ["status", "code", "file", "eid", "reason"]);
  assert.deepEqual([r.json.status, r.json.code, r.json.file, r.json.reason], ["recorded", "recorded", file, null]);
  assert.equal(entries(file)[0].eid, r.json.eid);
  const quiet = runCli(["hello again"], { env });
  assert.deepEqual([quiet.code, quiet.stdout, quiet.stderr], [0, "", ""]);
});

test("not recorded: exit 0, one short stderr line; --json says skipped with the reason", () => {
  const { d, env } = setup();
  const dir = path.join(d, "is-a-dir");
  fs.mkdirSync(dir);
  const r = runCli(["--file", dir, "lost?"], { env });
  assert.equal(r.code, 0);
  assert.equal(r.stdout, "");
  assert.equal(r.stderr, `record: not recorded (EISDIR: target is a directory): ${dir}\n`);
  const j = runCli(["--json", "--file", dir, "lost?"], { env });
  assert.deepEqual(j.json, { status: "skipped", code: "EISDIR", file: dir, eid: null, reason: "EISDIR: target is a directory" });
});

test("--help documents options, env vars, target resolution and exit status", () => {
  const r = runCli(["--help"], { env: isolatedEnv(tmpdir()) });
  assert.equal(r.code, 0);
  for (const s of ["--file", "--session", "--model", "--agent", "--json", "-- TEXT", "AI_RECORDINGS_FILE", "AI_RECORDINGS_SESSION", "AI_RECORDINGS_MODEL", "AI_RECORDINGS_AGENT", "AI_RECORDINGS_MAX_BYTES", "AI_RECORDINGS_SYNC", "~/git/ai_recordings.jsonl", "quarantine", "Exit status", "0700", "0600"]) {
    assert.ok(r.stdout.includes(s), `help lacks ${s}`);
  }
});

test("session, model, agent: flags win over env", () => {
  const { file, env } = setup({ AI_RECORDINGS_SESSION: "s-env", AI_RECORDINGS_MODEL: "m-env", AI_RECORDINGS_AGENT: "a-env" });
  runCli(["x"], { env });
  runCli(["--session", "s", "--model", "m", "--agent", "a", "y"], { env });
  const [a, b] = entries(file);
  assert.deepEqual([a.session, a.model, a.agent, a.capture], ["s-env", "m-env", "a-env", "cli"]);
  assert.deepEqual([b.session, b.model, b.agent], ["s", "m", "a"]);
});

test("default target is ~/git/ai_recordings.jsonl, created with 0700 dirs and a 0600 file", () => {
  const d = fs.realpathSync(tmpdir("rec-cli-"));
  const env = isolatedEnv(d);
  const r = spawnSync(RUNTIME, [CLI, "--json", "to the default"], { env, encoding: "utf8" });
  const j = JSON.parse(r.stdout);
  const want = path.join(d, "home", "git", "ai_recordings.jsonl");
  assert.equal(j.file, want);
  assert.equal(fs.statSync(want).mode & 0o777, 0o600);
  assert.equal(fs.statSync(path.dirname(want)).mode & 0o777, 0o700);
  // every missing level is created private
  const deep = path.join(d, "a", "b", "c", "r.jsonl");
  runCli(["--file", deep, "deep"], { env });
  for (const p of ["a", "a/b", "a/b/c"]) assert.equal(fs.statSync(path.join(d, p)).mode & 0o777, 0o700, p);
  assert.equal(fs.statSync(deep).mode & 0o777, 0o600);
});

test("stamps in a real repository with a remote and a worktree", () => {
  const { d, file, env } = setup();
  const repo = gitRepo(path.join(d, "proj"), "https://github.com/acme/widgets.git");
  git(repo, "commit", "-q", "--allow-empty", "-m", "init");
  const wt = path.join(d, "proj-wt");
  git(repo, "worktree", "add", "-q", "-b", "topic", wt);
  git(wt, "commit", "-q", "--allow-empty", "-m", "on topic");
  fs.mkdirSync(path.join(wt, "sub"));
  runCli(["from main"], { env, cwd: repo });
  runCli(["from worktree"], { env, cwd: path.join(wt, "sub") });
  const [m, w] = entries(file);
  assert.deepEqual(
    [m.repo, m.git_dir, m.origin, m.head, m.branch, m.pwd],
    ["widgets", path.join(repo, ".git"), "https://github.com/acme/widgets.git", git(repo, "rev-parse", "HEAD"), "main", repo],
  );
  assert.deepEqual(
    [w.repo, w.git_dir, w.origin, w.head, w.branch, w.pwd],
    ["widgets", path.join(repo, ".git"), "https://github.com/acme/widgets.git", git(wt, "rev-parse", "HEAD"), "topic", path.join(wt, "sub")],
  );
  assert.notEqual(m.head, w.head);
  // stamp order after supplied members: capture, pwd, repo, git_dir, origin, head, branch
  const keys = rawMembers(lines(file)[1]).map(([k]) => k);
  assert.deepEqual(keys.slice(keys.indexOf("capture")), ["capture", "pwd", "repo", "git_dir", "origin", "head", "branch"]);
});

test("stdin over 16 MiB streams into pieces in bounded memory", (t) => {
  const { file, q, env } = setup();
  const chunk = Buffer.from("0123456789abcdef".repeat(4096)); // 64 KiB of text
  const timeOk = spawnSync("/usr/bin/time", ["-f", "%M", "true"]).status === 0;
  const cmd = timeOk ? "/usr/bin/time" : RUNTIME;
  const args = timeOk ? ["-f", "maxrss_kb=%M", RUNTIME, CLI, "--json"] : [CLI, "--json"];
  const rss = {};
  for (const mib of [24, 88]) {
    const size = mib * 1024 * 1024;
    const input = Buffer.concat(Array.from({ length: size / chunk.length }, () => chunk));
    const r = spawnSync(cmd, args, { env, input, maxBuffer: 1 << 20 });
    const out = JSON.parse(String(r.stdout).trim());
    assert.equal(out.status, "quarantined");
    const marker = entries(file).find((e) => e.eid === out.eid);
    assert.equal(Number(marker.bytes), size);
    const pieces = segments(q).flatMap(entries).filter((e) => e.eid === out.eid);
    assert.equal(pieces.length, Number(marker.pieces));
    assert.equal(pieces.reduce((n, p) => n + Buffer.byteLength(p.raw), 0), size);
    if (timeOk) rss[mib] = Number(/maxrss_kb=(\d+)/.exec(String(r.stderr))[1]);
  }
  if (timeOk) {
    t.diagnostic(`peak RSS: ${(rss[24] / 1024).toFixed(0)} MiB for 24 MiB of stdin, ${(rss[88] / 1024).toFixed(0)} MiB for 88 MiB`);
    // Bounded: 64 MiB more input must not mean (anywhere near) 64 MiB more memory. (Node's peak still rises
    // ~25 MiB from garbage awaiting collection, then levels off: ~105 MiB at 88 and at 200 MiB of input.)
    assert.ok(rss[88] - rss[24] < 40 * 1024, `peak RSS grew by ${rss[88] - rss[24]} KiB`);
  }
});

test("status record across CLI runs: a recent success is not rewritten; a failure and the recovery are noted", () => {
  const { d, file, env } = setup();
  const statusPath = path.join(d, "state", "opencode-recordings", "status.json");
  const read = () => JSON.parse(fs.readFileSync(statusPath, "utf8"));
  runCli(["one"], { env });
  const first = read();
  assert.ok(first.targets[file].lastSuccess);
  runCli(["two"], { env });
  assert.equal(read().updated, first.updated, "second success within a minute: no rewrite");
  fs.renameSync(file, file + ".moved");
  fs.mkdirSync(file);
  runCli(["three"], { env });
  const failed = read().targets[file];
  assert.deepEqual([failed.misses, failed.lastReason], [1, "EISDIR: target is a directory"]);
  fs.rmdirSync(file);
  runCli(["four"], { env });
  const healed = read().targets[file];
  assert.ok(Date.parse(healed.lastSuccess) >= Date.parse(healed.lastFailure), "the recovery is noted at once");
  assert.equal(healed.misses, 1);
});

test("subcommands run only when followed by their arguments; otherwise the words are an entry", () => {
  const { file, env } = setup();
  const recorded = [
    ["read", "the", "docs", "first"],
    ["doctor", "said", "all", "is", "well"],
    ["hook", "into", "the", "build"],
    ["show", "me", "the", "diff"],
    ["--", "read"],
    ["--", "doctor"],
  ];
  for (const args of recorded) {
    const r = runCli(args, { env });
    assert.equal(r.code, 0, args.join(" "));
    const want = args[0] === "--" ? args.slice(1).join(" ") : args.join(" ");
    assert.equal(entries(file).at(-1).raw, want);
  }
  const before = entries(file).length;
  for (const [args, code, out] of [
    [["read", "--help"], 0, /^record read - /],
    [["md", "--help"], 0, /^record md - /],
    [["doctor", "--help"], 0, /^record doctor - /],
    [["sessions", "--help"], 0, /^record sessions - /],
    [["show", "--help"], 0, /^record show - /],
    [["read"], 0, /"raw":"read"/],
  ]) {
    const r = runCli(args, { env });
    assert.equal(r.code, code, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stdout, out, args.join(" "));
  }
  assert.equal(entries(file).length, before, "running subcommands recorded nothing");
  const eid = entries(file).at(-1).eid;
  const shown = runCli(["show", eid], { env });
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /doctor/);
});

test("without a loadable core the entry is still kept, whole, in quarantine (JS fallback line)", () => {
  const { d, env } = setup();
  // A copy of the `record` command (launcher and bundle) with no wasm/ beside it: the core cannot load.
  const plugin = path.join(d, "plugin-without-wasm");
  fs.mkdirSync(plugin);
  for (const f of ["record.cjs", "cli.bundle.cjs", "cli.bundle.cache"]) {
    fs.copyFileSync(path.join(PLUGIN, f), path.join(plugin, f));
  }
  const file = path.join(d, "nocore.jsonl");
  const text = '{"note": "kept even so", "n": 1.0}';
  const r = spawnSync(RUNTIME, [path.join(plugin, "record.cjs"), "--json", "--file", file, text], { env, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.status, "quarantined");
  assert.equal(out.code, "core-failed");
  assert.match(out.reason, /^core failed: .*core unavailable/);
  const [e] = entries(path.join(d, "nocore.quarantine.jsonl"));
  assert.equal(e.raw, text);
  assert.equal(e.eid, out.eid);
  assert.equal(e.unredacted, true);
  assert.equal(e.capture, "cli");
});

test("an edge that cannot even load still tells the caller: skipped with the reason, exit 0", () => {
  const { d, env } = setup();
  // A broken install: the launcher alone, with neither the bundle nor the ES modules beside it.
  const plugin = path.join(d, "plugin-broken");
  fs.mkdirSync(plugin);
  fs.copyFileSync(path.join(PLUGIN, "record.cjs"), path.join(plugin, "record.cjs"));
  const file = path.join(d, "broken.jsonl");
  const r = spawnSync(RUNTIME, [path.join(plugin, "record.cjs"), "--json", "--file", file, "lost?"], { env, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.status, "skipped");
  assert.match(out.reason, /^EINTERNAL: the record command cannot load: .*cli\/index\.js/);
  assert.match(r.stderr, /record: not recorded: EINTERNAL/);
  assert.equal(fs.existsSync(file), false);
});

/** A copy of plugin/ (wasm included) in which `change(dir)` then breaks or removes parts of the launch path.
 *  The package's dependencies sit beside it, as in an install (the ES modules import them). */
function pluginCopy(d, name, change) {
  const plugin = path.join(d, name);
  fs.cpSync(PLUGIN, plugin, { recursive: true });
  if (!fs.existsSync(path.join(d, "node_modules"))) fs.symlinkSync(path.join(PLUGIN, "..", "node_modules"), path.join(d, "node_modules"));
  change(plugin);
  return plugin;
}

test("the launcher: without the bundle, or with a damaged one, the ES modules record the same entry", () => {
  const { d, env } = setup();
  const variants = {
    "no bundle": (p) => fs.rmSync(path.join(p, "cli.bundle.cjs")),
    "damaged bundle": (p) => fs.writeFileSync(path.join(p, "cli.bundle.cjs"), "this is { not JavaScript"),
    "bundle that throws": (p) => fs.writeFileSync(path.join(p, "cli.bundle.cjs"), 'throw new Error("half-written");'),
  };
  for (const [name, change] of Object.entries(variants)) {
    const plugin = pluginCopy(d, name.replace(/ /g, "-"), change);
    const file = path.join(d, `${name.replace(/ /g, "-")}.jsonl`);
    const r = spawnSync(RUNTIME, [path.join(plugin, "record.cjs"), "--json", "--file", file, `{"note":"${name}"}`], { env, encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).status, "recorded", name);
    assert.deepEqual(entries(file).map((e) => [e.note, e.capture]), [[name, "cli"]], name);
  }
});

test("record hook decides from hook mode's own bundle, and loads the CLI bundle only to write", () => {
  const { d, env } = setup();
  const project = path.join(d, "project");
  gitRepo(project, "https://example.com/widget.git");
  const hookEnv = { ...env, XDG_STATE_HOME: path.join(d, "state"), AI_RECORDINGS_HINTS: "0", AI_RECORDINGS_DEBUG: "1" };
  const base = { cwd: project, tool_name: "Bash", transcript_path: path.join(d, "none.jsonl"), tool_input: { command: "npm test" } };
  const failed = (session, n) => ({ ...base, session_id: session, hook_event_name: "PostToolUseFailure", tool_use_id: `f${n}`, error: `Exit code 1\n\nnot ok ${n} - widget spins` });
  const passed = (session) => ({ ...base, session_id: session, hook_event_name: "PostToolUse", tool_use_id: "p", tool_response: { stdout: "ok", stderr: "" } });
  const hook = (plugin, file, payload) => {
    const r = spawnSync(RUNTIME, [path.join(plugin, "record.cjs"), "hook", "claude-code"], { env: { ...hookEnv, AI_RECORDINGS_FILE: file }, input: JSON.stringify(payload), encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /internal error|not recorded/);
    return r;
  };
  // Neither the CLI bundle nor the ES modules' entry can run here: a passing command is decided all the same.
  const alone = pluginCopy(d, "hook-bundle-alone", (p) => {
    fs.writeFileSync(path.join(p, "cli.bundle.cjs"), 'throw new Error("the CLI bundle was loaded");');
    fs.rmSync(path.join(p, "cli", "index.js"));
  });
  const r = hook(alone, path.join(d, "alone.jsonl"), passed("s0"));
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /record hook: nothing to record/);
  assert.equal(fs.existsSync(path.join(d, "alone.jsonl")), false);
  // Red twice then green, as installed; then with hook mode's bundle gone or damaged (the CLI bundle runs hook mode);
  // with its writing part gone or damaged (the CLI bundle's modules write); with the CLI unusable (not needed).
  const variants = {
    "as built": PLUGIN,
    "no hook bundle": pluginCopy(d, "no-hook-bundle", (p) => fs.rmSync(path.join(p, "hook.bundle.cjs"))),
    "damaged hook bundle": pluginCopy(d, "damaged-hook-bundle", (p) => fs.writeFileSync(path.join(p, "hook.bundle.cjs"), "this is { not JavaScript")),
    "no hook-write bundle": pluginCopy(d, "no-hook-write-bundle", (p) => fs.rmSync(path.join(p, "hook-write.bundle.cjs"))),
    "damaged hook-write bundle": pluginCopy(d, "damaged-hook-write-bundle", (p) => fs.writeFileSync(path.join(p, "hook-write.bundle.cjs"), "this is { not JavaScript")),
    "CLI unusable": pluginCopy(d, "hook-without-cli", (p) => {
      fs.writeFileSync(path.join(p, "cli.bundle.cjs"), 'throw new Error("the CLI bundle was loaded");');
      fs.rmSync(path.join(p, "cli", "index.js"));
    }),
  };
  for (const [name, plugin] of Object.entries(variants)) {
    const file = path.join(d, `${name.replace(/ /g, "-")}.jsonl`);
    const session = `s-${name}`;
    for (const n of [1, 2]) assert.equal(hook(plugin, file, failed(session, n)).stdout, "", name);
    const green = hook(plugin, file, passed(session));
    assert.match(JSON.parse(green.stdout).hookSpecificOutput.additionalContext, /npm test passes now after 2 failures/, name);
    assert.equal(hook(plugin, file, passed(session)).stdout, "", `${name}: nothing open any more`);
    assert.deepEqual(entries(file).map((e) => [e.trigger, e.client]), [["gate.failed", "claude-code"], ["gate.failed", "claude-code"], ["gate.passed", "claude-code"]], name);
  }
});

test("record recall answers from its own bundle; without it, damaged, or alone, the answer is the same", { skip: missingDriver() ?? false }, () => {
  const { d, env } = setup();
  const project = path.join(d, "project");
  gitRepo(project, "https://example.com/widget.git");
  const file = path.join(d, "r.jsonl");
  const e = { ...env, AI_RECORDINGS_FILE: file, XDG_DATA_HOME: path.join(d, "data") };
  const record = (plugin, args) => spawnSync(RUNTIME, [path.join(plugin, "record.cjs"), ...args], { env: e, cwd: project, encoding: "utf8" });
  assert.equal(record(PLUGIN, ["the integration tests need the database container up first"]).status, 0);
  // After "--" the words are text, "recall" first or not (Bun hands the launcher its argv without that "--").
  assert.equal(record(PLUGIN, ["--", "recall", "the", "flaky", "spinner", "test"]).status, 0);
  assert.deepEqual(entries(file).map((x) => x.note), ["the integration tests need the database container up first", "recall the flaky spinner test"]);
  const variants = {
    "as built": PLUGIN,
    "no recall bundle": pluginCopy(d, "no-recall-bundle", (p) => fs.rmSync(path.join(p, "recall.bundle.cjs"))),
    "damaged recall bundle": pluginCopy(d, "damaged-recall-bundle", (p) => fs.writeFileSync(path.join(p, "recall.bundle.cjs"), "this is { not JavaScript")),
    // Neither the CLI bundle nor the ES modules' entry can run: recall does not need them.
    "recall bundle alone": pluginCopy(d, "recall-bundle-alone", (p) => {
      fs.writeFileSync(path.join(p, "cli.bundle.cjs"), 'throw new Error("the CLI bundle was loaded");');
      fs.rmSync(path.join(p, "cli", "index.js"));
    }),
  };
  const answers = Object.entries(variants).map(([name, plugin]) => {
    const r = record(plugin, ["recall", "database", "container", "integration"]);
    assert.equal(r.status, 0, `${name}: ${r.stderr}`);
    assert.match(r.stdout, /the integration tests need the database container up first/, name);
    const json = record(plugin, ["recall", "--json", "flaky spinner"]);
    assert.equal(json.status, 0, `${name}: ${json.stderr}`);
    const bad = record(plugin, ["recall", "--limit", "0", "x"]);
    return [name, r.stdout, JSON.parse(json.stdout.trim().split("\n")[0]).entry.note, bad.status, bad.stderr];
  });
  for (const a of answers.slice(1)) assert.deepEqual(a.slice(1), answers[0].slice(1), `${a[0]} answers as the bundle does`);
  assert.equal(answers[0][2], "recall the flaky spinner test");
  assert.equal(answers[0][3], 2);
});

test("record hook on a failing gate: the core compiled ahead loads; a damaged .wasm still keeps the entry", () => {
  const { d, env } = setup();
  const project = path.join(d, "project");
  gitRepo(project, "https://example.com/widget.git");
  const payload = { cwd: project, tool_name: "Bash", transcript_path: path.join(d, "none.jsonl"), tool_input: { command: "npm test" }, session_id: "s", hook_event_name: "PostToolUseFailure", tool_use_id: "f1", error: "Exit code 1\n\nnot ok 1 - widget spins" };
  const hook = (plugin, file) =>
    spawnSync(RUNTIME, [path.join(plugin, "record.cjs"), "hook", "claude-code"], { env: { ...env, XDG_STATE_HOME: path.join(d, "state"), AI_RECORDINGS_HINTS: "0", AI_RECORDINGS_FILE: file, AI_RECORDINGS_DEBUG: "1" }, input: JSON.stringify(payload), encoding: "utf8" });
  const ok = hook(PLUGIN, path.join(d, "ok.jsonl"));
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stderr, /record hook: recorded /);
  assert.deepEqual(entries(path.join(d, "ok.jsonl")).map((e) => [e.trigger, typeof e.fp]), [["gate.failed", "string"]]);
  // Half a module: WebAssembly.compile rejects ahead, the core's own load fails too, and the JS fallback keeps it.
  const damaged = pluginCopy(d, "damaged-wasm", (p) => {
    const wasm = path.join(p, "wasm", "recordings_core_bg.wasm");
    fs.writeFileSync(wasm, fs.readFileSync(wasm).subarray(0, 4096));
  });
  const file = path.join(d, "damaged.jsonl");
  const r = hook(damaged, file);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /record hook: quarantined /);
  const [kept] = entries(path.join(d, "damaged.quarantine.jsonl"));
  assert.equal(kept.unredacted, true);
  assert.match(kept.raw, /widget spins/);
});

test("the launcher's code cache: used as built; a rejected or missing one is said (debug), changes nothing, and is renewed", { skip: !!process.versions.bun }, () => {
  const { d, env } = setup();
  const debugEnv = { ...env, AI_RECORDINGS_DEBUG: "1" };
  const run = (plugin, note) => {
    const file = path.join(d, "cache.jsonl");
    const r = spawnSync(RUNTIME, [path.join(plugin, "record.cjs"), "--json", "--file", file, `{"note":"${note}"}`], { env: debugEnv, encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).status, "recorded", note);
    assert.equal(entries(file).at(-1).note, note);
    return r.stderr;
  };
  // As built (scripts/build.sh trains it with this Node): accepted, so nothing is said and nothing rewritten.
  const built = fs.statSync(path.join(PLUGIN, "cli.bundle.cache")).mtimeMs;
  assert.doesNotMatch(run(PLUGIN, "built"), /code cache/);
  assert.equal(fs.statSync(path.join(PLUGIN, "cli.bundle.cache")).mtimeMs, built);
  // Rejected (as after a Node upgrade) or missing: said, recorded all the same, and written anew at exit, so the
  // next run uses it.
  const garbage = pluginCopy(d, "garbage-cache", (p) => fs.writeFileSync(path.join(p, "cli.bundle.cache"), Buffer.alloc(4096, 7)));
  assert.match(run(garbage, "garbage"), /record: code cache rejected/);
  assert.notDeepEqual(fs.readFileSync(path.join(garbage, "cli.bundle.cache")), Buffer.alloc(4096, 7));
  assert.doesNotMatch(run(garbage, "garbage, renewed"), /code cache/);
  const missing = pluginCopy(d, "no-cache", (p) => fs.rmSync(path.join(p, "cli.bundle.cache")));
  assert.match(run(missing, "missing"), /record: code cache missing/);
  assert.doesNotMatch(run(missing, "missing, renewed"), /code cache/);
  assert.deepEqual(fs.readdirSync(missing).filter((f) => f.endsWith(".tmp")), []);
  // An install this user may not write to (owned by root, run as nobody): the cache goes to the user's cache
  // directory instead, and the next run uses it; nothing is written beside the bundle. (Needs root, to switch
  // users.)
  if (!canDropPrivileges()) {
    fs.chmodSync(d, 0o755);
    const ro = pluginCopy(d, "read-only", (p) => fs.rmSync(path.join(p, "cli.bundle.cache")));
    const open = path.join(d, "open");
    fs.mkdirSync(open, { mode: 0o777 });
    fs.chmodSync(open, 0o777);
    const file = path.join(open, "ro.jsonl");
    const xdg = path.join(open, "cache");
    const asNobody = (note) => {
      const args = ["--reuid=nobody", "--regid=nogroup", "--clear-groups", RUNTIME, path.join(ro, "record.cjs"), "--json", "--file", file, `{"note":"${note}"}`];
      const r = spawnSync("setpriv", args, { env: { ...debugEnv, XDG_CACHE_HOME: xdg }, encoding: "utf8" });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(JSON.parse(r.stdout).status, "recorded");
      return r.stderr;
    };
    assert.match(asNobody("read-only"), new RegExp(`record: code cache missing: ${xdg}/opencode-recordings/cli-[0-9a-f]{8}-v[\\d.]+\\.cache`));
    assert.equal(fs.readdirSync(path.join(xdg, "opencode-recordings")).filter((f) => f.endsWith(".cache")).length, 1);
    assert.doesNotMatch(asNobody("read-only, cached"), /code cache/);
    assert.deepEqual(fs.readdirSync(ro).filter((f) => f.startsWith("cli.bundle.cache")), []);
    assert.deepEqual(entries(file).map((e) => e.note), ["read-only", "read-only, cached"]);
  }
});

test("record doctor says how the record command starts: bundle and cache used, rejected, missing, no bundle", { skip: !!process.versions.bun }, () => {
  const { d, env } = setup();
  const doctor = (plugin) => {
    const r = spawnSync(RUNTIME, [path.join(plugin, "record.cjs"), "doctor", "--json"], { env, encoding: "utf8" });
    return JSON.parse(r.stdout);
  };
  const built = doctor(PLUGIN);
  assert.deepEqual([built.launcher.bundle, built.launcher.cache], [true, "used"]);
  assert.ok(built.checks.some((c) => c.level === "ok" && /starts from its bundle \(code cache: used\)/.test(c.text)));
  assert.deepEqual([built.launcher.hook.bundle, built.launcher.hook.cache], [true, "used"], "hook mode's bundle, as built");
  assert.deepEqual([built.launcher.hookWrite.bundle, built.launcher.hookWrite.cache], [true, "used"], "hook mode's writing part, as built");
  assert.deepEqual([built.launcher.recall.bundle, built.launcher.recall.cache], [true, "used"], "recall's bundle, as built");
  assert.equal(built.warnings.some((w) => /Hook mode|Recall/.test(w)), false);
  // A rejected cache is said, with what happens next: the launcher of that very call renews it, so the next
  // doctor finds it used.
  const garbage = pluginCopy(d, "doctor-garbage", (p) => fs.writeFileSync(path.join(p, "cli.bundle.cache"), Buffer.alloc(512, 1)));
  const g = doctor(garbage);
  assert.equal(g.launcher.cache, "rejected");
  assert.ok(g.warnings.some((w) => /code cache is rejected by this Node .*a new one is written when a record call/.test(w)), g.warnings.join("\n"));
  assert.equal(doctor(garbage).launcher.cache, "used");
  // Asked without the launcher (the ES modules), doctor compiles the bundle itself to see (and renews nothing).
  const viaModules = (plugin) => JSON.parse(spawnSync(RUNTIME, [path.join(plugin, "cli", "index.js"), "doctor", "--json"], { env, encoding: "utf8" }).stdout);
  assert.equal(viaModules(garbage).launcher.cache, "used");
  const garbage2 = pluginCopy(d, "doctor-garbage-2", (p) => fs.writeFileSync(path.join(p, "cli.bundle.cache"), Buffer.alloc(512, 2)));
  assert.equal(viaModules(garbage2).launcher.cache, "rejected");
  assert.deepEqual(fs.readFileSync(path.join(garbage2, "cli.bundle.cache")), Buffer.alloc(512, 2));
  const noBundle = pluginCopy(d, "doctor-no-bundle", (p) => fs.rmSync(path.join(p, "cli.bundle.cjs")));
  const n = doctor(noBundle);
  assert.equal(n.launcher.bundle, false);
  assert.ok(n.warnings.some((w) => /runs the ES modules: plugin\/cli\.bundle\.cjs is missing/.test(w)));
  const noHook = doctor(pluginCopy(d, "doctor-no-hook-bundle", (p) => fs.rmSync(path.join(p, "hook.bundle.cjs"))));
  assert.ok(noHook.warnings.some((w) => /Hook mode starts from the whole CLI bundle: plugin\/hook\.bundle\.cjs is missing/.test(w)), noHook.warnings.join("\n"));
  const hookGarbage = doctor(pluginCopy(d, "doctor-hook-garbage", (p) => fs.writeFileSync(path.join(p, "hook.bundle.cache"), Buffer.alloc(512, 3))));
  assert.equal(hookGarbage.launcher.hook.cache, "rejected");
  assert.ok(hookGarbage.warnings.some((w) => /Hook mode's code cache is rejected; a new one is written when a hook call ends/.test(w)), hookGarbage.warnings.join("\n"));
  const noWrite = doctor(pluginCopy(d, "doctor-no-hook-write-bundle", (p) => fs.rmSync(path.join(p, "hook-write.bundle.cjs"))));
  assert.ok(noWrite.warnings.some((w) => /Hook mode's writing part starts from the whole CLI bundle: plugin\/hook-write\.bundle\.cjs is missing/.test(w)), noWrite.warnings.join("\n"));
  const noRecall = doctor(pluginCopy(d, "doctor-no-recall-bundle", (p) => fs.rmSync(path.join(p, "recall.bundle.cjs"))));
  assert.ok(noRecall.warnings.some((w) => /Recall starts from the whole CLI bundle: plugin\/recall\.bundle\.cjs is missing/.test(w)), noRecall.warnings.join("\n"));
  const recallGarbage = doctor(pluginCopy(d, "doctor-recall-garbage", (p) => fs.writeFileSync(path.join(p, "recall.bundle.cache"), Buffer.alloc(512, 4))));
  assert.equal(recallGarbage.launcher.recall.cache, "rejected");
  assert.ok(recallGarbage.warnings.some((w) => /Recall's code cache is rejected; a new one is written when a recall ends/.test(w)), recallGarbage.warnings.join("\n"));
  // None is a problem: recording works.
  assert.equal(noHook.problems.some((p) => /code cache|bundle/.test(p)), false);
  assert.equal(noRecall.problems.some((p) => /code cache|bundle/.test(p)), false);
  assert.equal(g.problems.some((p) => /code cache|bundle/.test(p)), false);
  assert.equal(n.problems.some((p) => /code cache|bundle/.test(p)), false);
});

test("`node plugin/cli/index.js` (the ES modules, unbundled) is the same command", () => {
  const { file, q, env } = setup();
  const r = spawnSync(RUNTIME, [path.join(PLUGIN, "cli", "index.js"), "--json", '{"note":"via the ES modules"}'], { env, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).status, "recorded");
  const hook = spawnSync(RUNTIME, [path.join(PLUGIN, "cli", "index.js"), "hook", "claude-code"], { env, encoding: "utf8", input: '{"hook_event_name": "PostToolUse", broken' });
  assert.equal(hook.status, 0, hook.stderr);
  assert.equal(hook.stdout, "");
  assert.deepEqual(entries(file).map((e) => e.note), ["via the ES modules"]);
  assert.equal(lines(q).length, 1); // the broken payload, kept verbatim
});

test("a one-entry CLI process loads neither WebCrypto nor the streams stack (Node)", { skip: !!process.versions.bun }, () => {
  // The cold-start cost of `record`: entry ids come from /dev/urandom
  // through the JS edge, and node:fs is taken through require(), so Node's lazy crypto and stream modules stay
  // unloaded. A preload script reports what was loaded when the process exits.
  const { d, file, env } = setup();
  const probe = path.join(d, "probe.cjs");
  fs.writeFileSync(probe, 'process.on("exit", () => require("fs").writeSync(2, "LOADED " + process.moduleLoadList.join(",") + "\\n"));\n');
  // As an argument with --json (the answer goes to stdout), and on piped standard input.
  for (const [args, input] of [[["--json", '{"note":"cold"}'], undefined], [[], '{"note":"cold, stdin"}']]) {
    const r = spawnSync(process.execPath, ["--require", probe, CLI, ...args], { env, encoding: "utf8", input });
    assert.equal(r.status, 0, r.stderr);
    const loaded = r.stderr.split("LOADED ")[1].split(",");
    assert.ok(loaded.length > 20, "the probe saw the module list");
    assert.deepEqual(loaded.filter((m) => /crypto|internal\/streams\/readable|perf_hooks/.test(m)), [], args.join(" "));
  }
  assert.deepEqual(entries(file).map((e) => e.note), ["cold", "cold, stdin"]);
  // and the id is still a 13-character base32 id (uniqueness: recorder.test.js)
  assert.match(entries(file)[0].eid, /^[0-9a-hjkmnp-tv-z]{13}$/);
});

test("record --help lists exactly the subcommands the command runs, each with its own --help", async () => {
  const { SUBCOMMANDS } = await import("../../plugin/cli/index.js");
  const { HELP } = await import("../../plugin/cli/record.js");
  const section = HELP.slice(HELP.indexOf("Subcommands (each has --help):"), HELP.indexOf("A subcommand runs only when"));
  const listed = [...section.matchAll(/^ {2}([a-z]+)\b/gm)].map((m) => m[1]);
  assert.deepEqual([...listed].sort(), Object.keys(SUBCOMMANDS).sort());
  for (const name of Object.keys(SUBCOMMANDS).filter((n) => n !== "hook" && n !== "mcp")) {
    const r = runCli([name, "--help"]);
    assert.equal(r.code, 0, `${name} --help: ${r.stderr}`);
    assert.match(r.stdout, new RegExp(`^record ${name}\\b`), `${name} --help starts with its name`);
  }
});

test("the launcher's bundles are ASCII, so reading them as UTF-8 takes V8's fast path", () => {
  for (const name of ["cli.bundle.cjs", "hook.bundle.cjs", "hook-write.bundle.cjs", "recall.bundle.cjs"]) {
    const bytes = fs.readFileSync(path.join(PLUGIN, name));
    const at = bytes.findIndex((b) => b > 0x7f);
    assert.equal(at, -1, `${name}: a byte over 0x7f at ${at}: …${bytes.subarray(Math.max(0, at - 40), at + 10).toString("latin1")}`);
  }
});
