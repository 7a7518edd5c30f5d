// `record doctor`: where recordings go and why, writability tested without writing, the status
// record, counts, versions; exit 0 when healthy, 1 when something is wrong. Runs under node --test and bun test.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { doctor as doctorCommand, examine, probeAppend } from "../../plugin/cli/doctor.js";
import { appendLine, statusPath } from "../../plugin/writer/index.js";
import { tmpdir, ROOT, canDropPrivileges, spawnSync, RUNTIME } from "./helpers.js";
import { indexPath } from "../../plugin/paths.js";
import { missingDriver } from "../../plugin/recall/driver.js";

const PKG = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));

/** An environment of our own: HOME and XDG_STATE_HOME inside `dir`, no AI_RECORDINGS_* from outside. */
function envFor(dir, extra = {}) {
  return { HOME: path.join(dir, "home"), XDG_STATE_HOME: path.join(dir, "state"), ...extra };
}

async function doctor(args, env) {
  const out = [];
  const err = [];
  const code = await doctorCommand(args, {
    stdout: { write: (s) => (out.push(s), true) },
    stderr: { write: (s) => (err.push(s), true) },
    env,
    cwd: ROOT,
  });
  return { code, stdout: out.join(""), stderr: err.join("") };
}

function put(file, n) {
  const line = `{"ts":"2026-11-29T10:00:0${n % 10}.000Z","eid":"d${String(n).padStart(12, "0")}","n":${n}}\n`;
  assert.equal(appendLine(file, line, { sync: false, statusFile: false }).ok, true);
}

function snapshot(dir) {
  const out = {};
  const walk = (d) => {
    for (const name of fs.readdirSync(d)) {
      const p = path.join(d, name);
      const st = fs.lstatSync(p);
      if (st.isDirectory()) walk(p);
      else out[p] = `${st.size}:${st.mtimeMs}:${fs.readFileSync(p, "utf8")}`;
    }
  };
  walk(dir);
  return out;
}

function writeStatus(env, file, t) {
  const p = statusPath({ env });
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, JSON.stringify({ targets: { [file]: t } }));
}

test("healthy: says where and why, tests the append without writing, counts entries, exits 0", async () => {
  const dir = tmpdir();
  const file = path.join(dir, "rec", "r.jsonl");
  for (let n = 0; n < 3; n++) put(file, n);
  put(path.join(dir, "rec", "r.quarantine.jsonl"), 9);
  const env = envFor(dir, { AI_RECORDINGS_FILE: file });
  writeStatus(env, file, { lastSuccess: "2026-11-29T10:00:00.000Z", misses: 0 });
  const before = snapshot(dir);
  const r = await doctor([], env);
  assert.deepEqual(snapshot(dir), before, "doctor changed nothing on disk");
  assert.equal(r.code, 0, r.stdout);
  assert.match(r.stdout, new RegExp(`^  ${file.replace(/[.]/g, "\\.")}$`, "m"));
  assert.match(r.stdout, /from the environment variable AI_RECORDINGS_FILE/);
  assert.match(r.stdout, /can be appended to right now \(opened for appending and closed; nothing was written\)/);
  assert.match(r.stdout, /3 entries in 1 file/);
  assert.match(r.stdout, /1 quarantined entry in 1 file/);
  assert.match(r.stdout, /0 damaged lines/);
  assert.match(r.stdout, /No recording has been missed/);
  assert.match(r.stdout, new RegExp(`${PKG.name} ${PKG.version.replace(/\./g, "\\.")} \\(plugin and CLI\\)`));
  assert.match(r.stdout, /Healthy: recording works\./);
});

test("the recall section: switched off, not in this runtime, or where the index is and how big; never builds it", async () => {
  const dir = tmpdir();
  const file = path.join(dir, "rec", "r.jsonl");
  put(file, 1);
  const env = envFor(dir, { AI_RECORDINGS_FILE: file, XDG_DATA_HOME: path.join(dir, "data") });
  const index = indexPath(file, { env });
  const off = await doctor([], { ...env, AI_RECORDINGS_RECALL: "0" });
  assert.match(off.stdout, /^Recall\n  not in use: recall is switched off \(AI_RECORDINGS_RECALL=0\)\n/m);
  const r = await doctor(["--json"], env);
  const report = JSON.parse(r.stdout);
  assert.equal(report.recall.index, index);
  assert.equal(report.recall.bytes, null);
  assert.ok(!fs.existsSync(index), "doctor builds no index");
  const text = (await doctor([], env)).stdout;
  assert.ok(text.includes(`\n  index: ${index}\n  not built yet: the first recall or hint builds it from the files\n`), text);
  const missing = missingDriver();
  if (missing) {
    assert.equal(report.recall.state, "unavailable");
    assert.ok(text.includes(`\nRecall\n  not in use: ${missing}\n`), text);
    return;
  }
  assert.equal(report.recall.state, "ready");
  assert.match(text, /^Recall\n  works in this runtime; hints on failures are on$/m);
  const { openIndex } = await import("../../plugin/recall/index.js");
  const ix = await openIndex({ env });
  assert.equal(ix.catchUp().added, 1);
  ix.close();
  const built = await doctor([], { ...env, AI_RECORDINGS_HINTS: "0" });
  assert.match(built.stdout, /^  works in this runtime; hints are switched off \(AI_RECORDINGS_HINTS=0\)$/m);
  assert.match(built.stdout, /^  \d+\.\d KiB, last written 20\d\d-\d\d-\d\dT[\d:.]+Z; derived from the files/m);
  assert.equal(built.code, 0);
});

test("the source of the target: --file, env, default", async () => {
  const dir = tmpdir();
  const env = envFor(dir, { AI_RECORDINGS_FILE: path.join(dir, "env.jsonl") });
  const opt = await examine({ file: path.join(dir, "opt.jsonl"), env });
  assert.deepEqual([opt.target.source, opt.target.file], ["option", path.join(dir, "opt.jsonl")]);
  const fromEnv = await examine({ env });
  assert.deepEqual([fromEnv.target.source, fromEnv.target.file], ["env", path.join(dir, "env.jsonl")]);
  const def = await examine({ env: envFor(dir) });
  assert.deepEqual([def.target.source, def.target.file], ["default", path.join(dir, "home", "git", "ai_recordings.jsonl")]);
  assert.match(def.target.why, /the default/);
  // A missing file in a missing directory is fine: the first recording creates both. Nothing is created now.
  assert.equal(def.writable.ok, true);
  assert.match(def.writable.detail, /does not exist yet; the first recording creates the file and the directories below/);
  assert.equal(fs.existsSync(path.join(dir, "home")), false);
  assert.equal(def.healthy, true);
});

test("unwritable targets are problems: exit 1 with the reason", async () => {
  const dir = tmpdir();
  const asDir = path.join(dir, "is-a-dir.jsonl");
  fs.mkdirSync(asDir);
  const parentFile = path.join(dir, "plain");
  fs.writeFileSync(parentFile, "");
  const real = path.join(dir, "real.jsonl");
  fs.writeFileSync(real, "");
  const link = path.join(dir, "link.jsonl");
  fs.symlinkSync(real, link);
  const table = [
    [asDir, /EISDIR: the target is a directory/],
    [path.join(parentFile, "r.jsonl"), /ENOTDIR: .*plain is a file/],
    [path.join(parentFile, "sub", "r.jsonl"), /ENOTDIR: .*plain is a file/],
    [link, /ELOOP: the target is a symlink/],
  ];
  for (const [file, reason] of table) {
    const r = await doctor(["--file", file], envFor(dir));
    assert.equal(r.code, 1, file);
    assert.match(r.stdout, /PROBLEM The recordings file cannot be written/, file);
    assert.match(r.stdout, reason, file);
    assert.match(r.stdout, /1 problem found/, file);
  }
});

test("a read-only file, and a directory the user may not write, as an unprivileged user", (t) => {
  const why = canDropPrivileges();
  if (why) return t.skip(why);
  const dir = tmpdir();
  fs.chmodSync(dir, 0o755);
  const ro = path.join(dir, "ro.jsonl");
  fs.writeFileSync(ro, "");
  fs.chmodSync(ro, 0o444);
  const locked = path.join(dir, "locked");
  fs.mkdirSync(locked, { mode: 0o755 });
  const script = `import("${path.join(ROOT, "plugin", "cli", "doctor.js")}").then((m) => {
    for (const f of process.argv.slice(1)) console.log(JSON.stringify(m.probeAppend(f)));
  })`;
  const r = spawnSync("setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", RUNTIME, "-e", script, ro, path.join(locked, "new", "r.jsonl")], {
    encoding: "utf8",
  });
  const [a, b] = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(a.ok, false);
  assert.match(a.reason, /^EACCES/);
  assert.equal(b.ok, false);
  assert.match(b.reason, /^EACCES/);
  assert.equal(fs.existsSync(path.join(locked, "new")), false);
});

test("the status record: an unresolved failure is a problem, a past one a warning, with reason and misses", async () => {
  const dir = tmpdir();
  const file = path.join(dir, "r.jsonl");
  put(file, 1);
  const env = envFor(dir, { AI_RECORDINGS_FILE: file });
  writeStatus(env, file, {
    lastSuccess: "2026-11-29T09:00:00.000Z",
    lastFailure: "2026-11-29T09:30:00.000Z",
    lastReason: "ENOSPC: no space left on device",
    misses: 3,
  });
  const failing = await doctor([], env);
  assert.equal(failing.code, 1);
  assert.match(failing.stdout, /PROBLEM The last recording attempt failed \(2026-11-29T09:30:00.000Z: ENOSPC: no space left on device\); 3 recording\(s\) missed/);
  assert.match(failing.stdout, /missed recordings: 3/);
  writeStatus(env, file, {
    lastSuccess: "2026-11-29T10:00:00.000Z",
    lastFailure: "2026-11-29T09:30:00.000Z",
    lastReason: "ENOSPC: no space left on device",
    misses: 3,
  });
  const recovered = await doctor([], env);
  assert.equal(recovered.code, 0);
  assert.match(recovered.stdout, /warning 3 recording\(s\) were missed in the past, the last at 2026-11-29T09:30:00.000Z \(ENOSPC/);
  // Real failures noted by the writer itself are found the same way.
  const dir2 = tmpdir();
  const target = path.join(dir2, "sub");
  fs.mkdirSync(target);
  const env2 = envFor(dir2, { AI_RECORDINGS_FILE: target });
  assert.equal(appendLine(target, "{}\n", { env: env2, sync: false }).ok, false);
  const real = await examine({ env: env2 });
  assert.equal(real.healthy, false);
  assert.equal(real.status.misses, 1);
  assert.match(real.status.lastReason, /^EISDIR/);
});

test("damaged lines and unfinished tails are counted and reported as warnings", async () => {
  const dir = tmpdir();
  const file = path.join(dir, "r.jsonl");
  put(file, 1);
  fs.appendFileSync(file, "torn{\n");
  put(file, 2);
  fs.appendFileSync(file, '{"ts":"2026');
  const r = await doctor(["--json", "--file", file], envFor(dir));
  assert.equal(r.code, 0);
  const rep = JSON.parse(r.stdout);
  assert.equal(rep.counts.main.entries, 2);
  assert.equal(rep.counts.damaged, 1);
  assert.equal(rep.counts.main.unfinished.length, 1);
  assert.match(rep.warnings.join("\n"), /1 damaged line\(s\).*at byte \d+: not valid JSON/);
  assert.match(rep.warnings.join("\n"), /ends in an unfinished line/);
  assert.equal(rep.versions.package.version, PKG.version);
  assert.equal(rep.core.loaded, true);
});

test("probeAppend never creates or changes anything", () => {
  const dir = tmpdir();
  const file = path.join(dir, "a", "b", "r.jsonl");
  assert.equal(probeAppend(file).ok, true);
  assert.equal(fs.existsSync(path.join(dir, "a")), false);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, "x\n");
  const st = fs.statSync(file);
  assert.equal(probeAppend(file).ok, true);
  assert.equal(fs.readFileSync(file, "utf8"), "x\n");
  assert.equal(fs.statSync(file).mtimeMs, st.mtimeMs);
});

test("record doctor --help and usage errors", async () => {
  const dir = tmpdir();
  assert.match((await doctor(["--help"], envFor(dir))).stdout, /exit status: 0 when healthy/i);
  const bad = await doctor(["--nope"], envFor(dir));
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /unknown option --nope/);
});
