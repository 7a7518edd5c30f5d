// `record doctor`: finds out why a recording that should exist does not. Looks, never touches: the writability
// test opens the file for appending and closes it without writing, and a missing file or directory is judged
// from its nearest existing parent instead of being created.
//
// examine() gathers the findings into a report object (also what `record doctor --json` prints);
// formatReport() says them in plain words. A "problem" makes the report unhealthy (exit 1); a "warning" is
// worth knowing but does not stop recording.

import { readOptionWarnings } from "../capture/option-warnings.js";
import { createRequire } from "node:module";
import { fs as nodeFs, path } from "../builtins.js";
import { packageInfo } from "../package-info.js";
import { RecordingsReader, quarantineFile, resolveFile } from "../read/index.js";
import { DEFAULT_MAX_BYTES, describeError, readStatus } from "../writer/index.js";
import { settingsOf } from "../settings.js";
import { exportStatusOf } from "../export/status.js";
import { indexPath, lockPath } from "../paths.js";
import { missingDriver } from "../recall/driver.js";
import { hintsOff } from "../recall/hints.js";
import { recallOff } from "../recall/service.js";
import { lastPullFailed, readTeamState, teamStatePath } from "../recall/team-state.js";
import { connectionOf } from "../export/connection.js";
import { UsageError } from "./args.js";
import { commandArgs } from "./prologue.js";
import { ioOf, usage } from "./output.js";

export const HELP = `record doctor - check where recordings go and whether recording works right now

Usage: record doctor [--file PATH] [--json]

Says where recordings go and why (--file, env AI_RECORDINGS_FILE or the default), whether that file can
be appended to right now (tested by opening it for append and closing it: nothing is written), the last
success and last failure with its reason and the count of misses (from the status record), how many
entries, quarantined entries and damaged lines the files hold, and the versions in use.

Exit status: 0 when healthy, 1 when something is wrong (each problem is explained), 2 for a usage error.

Options:
  --file PATH        the recordings file to check
  --json             print the findings as one JSON object
  -h, --help         show this help
`;

/** Below this much free space the next large entry may not fit (an entry may be 16 MiB). */
const LOW_SPACE_BYTES = 16 * 1024 * 1024;

const C = nodeFs.constants;

function runtime() {
  if (typeof globalThis.Bun !== "undefined") return `bun ${globalThis.Bun.version}`;
  return `node ${process.version}`;
}

/** Nearest existing ancestor of `p` (itself included): { path, stat } or null. */
function nearestExisting(fs, p) {
  let cur = p;
  for (;;) {
    try {
      return { path: cur, stat: fs.statSync(cur) };
    } catch {
      const up = path.dirname(cur);
      if (up === cur) return null;
      cur = up;
    }
  }
}

/**
 * Whether `file` can be appended to right now, without writing anything. Returns { ok, exists, reason,
 * detail }: an existing file is opened O_WRONLY|O_APPEND|O_NOFOLLOW (as the writer opens it) and closed; a
 * missing one is judged by its nearest existing parent, which must be a writable directory.
 */
export function probeAppend(file, { fs = nodeFs } = {}) {
  let st = null;
  try {
    st = fs.lstatSync(file);
  } catch (e) {
    if (e.code !== "ENOENT" && e.code !== "ENOTDIR") return { ok: false, exists: false, reason: describeError(e) };
    if (e.code === "ENOTDIR") {
      const near = nearestExisting(fs, path.dirname(file));
      return { ok: false, exists: false, reason: `ENOTDIR: ${near ? near.path : "a parent"} is a file, not a directory` };
    }
  }
  if (st) {
    if (st.isSymbolicLink()) return { ok: false, exists: true, reason: "ELOOP: the target is a symlink, which the writer does not follow; point at the real file" };
    if (st.isDirectory()) return { ok: false, exists: true, reason: "EISDIR: the target is a directory" };
    if (!st.isFile()) return { ok: false, exists: true, reason: "the target is not a regular file (a FIFO or device?)" };
    let fd;
    try {
      fd = fs.openSync(file, C.O_WRONLY | C.O_APPEND | (C.O_NOFOLLOW ?? 0) | (C.O_NONBLOCK ?? 0));
    } catch (e) {
      return { ok: false, exists: true, reason: describeError(e) };
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
    return { ok: true, exists: true, detail: "opened for appending and closed; nothing was written" };
  }
  const near = nearestExisting(fs, path.dirname(file));
  if (!near) return { ok: false, exists: false, reason: "ENOENT: no parent directory exists" };
  if (!near.stat.isDirectory()) {
    return { ok: false, exists: false, reason: `ENOTDIR: ${near.path} is a file, so the directory for recordings cannot be created` };
  }
  try {
    fs.accessSync(near.path, C.W_OK | C.X_OK);
  } catch (e) {
    return { ok: false, exists: false, reason: `${describeError(e)} (${near.path})` };
  }
  const made = near.path === path.dirname(file) ? "the file" : `the file and the directories below ${near.path}`;
  return { ok: true, exists: false, detail: `it does not exist yet; the first recording creates ${made}` };
}

function freeBytes(fs, p) {
  try {
    if (typeof fs.statfsSync !== "function") return null;
    const near = nearestExisting(fs, p);
    if (!near) return null;
    const s = fs.statfsSync(near.path);
    return Number(s.bavail) * Number(s.bsize);
  } catch {
    return null;
  }
}

function mib(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(1)} GiB`;
}

function scan(file, quarantine, env, now) {
  const reader = new RecordingsReader({ file, quarantine, env, now });
  let last = null;
  for (const r of reader.records()) last = r.entry;
  const s = reader.stats;
  return {
    segments: s.segments,
    bytes: s.bytes,
    entries: s.entries,
    damaged: reader.damage.length,
    damage: reader.damage.slice(0, 5).map((d) => `${d.segment} at byte ${d.offset}: ${d.reason}`),
    unfinished: reader.pending.map((p) => `${p.segment} at byte ${p.offset} (${p.length} bytes)`),
    notes: reader.notes,
    lastTs: last && typeof last.ts === "string" ? last.ts : null,
  };
}

function settings(env) {
  const s = settingsOf(env);
  return {
    maxBytes: s.maxBytes ?? DEFAULT_MAX_BYTES,
    maxBytesFrom: s.maxBytes !== undefined ? "env AI_RECORDINGS_MAX_BYTES" : env.AI_RECORDINGS_MAX_BYTES !== undefined ? "default (AI_RECORDINGS_MAX_BYTES is not a size in bytes)" : "default",
    sync: s.sync ?? true,
    syncFrom: s.sync !== undefined ? "env AI_RECORDINGS_SYNC" : "default",
  };
}

/**
 * Examines the recordings set-up. options: { file, env, cwd, now, fs, launcher } (launcher: see launcherState). Returns the report:
 * { healthy, problems[], warnings[], checks[{ level: "ok"|"warning"|"problem", text }], target, writable,
 *   status, counts: { main, quarantine }, settings, core, launcher: { bundle, cache, writable, path, hook, hookWrite, recall }, versions }.
 */
export async function examine(options = {}) {
  const fs = options.fs ?? nodeFs;
  const env = options.env ?? process.env;
  const now = options.now ?? Date.now;
  const checks = [];
  const say = (level, text) => checks.push({ level, text });

  // Where, and why. The writer's own rule when the recorder loads (it also loads the core, checked below).
  let target = resolveFile({ file: options.file, env, cwd: options.cwd });
  let core = { loaded: false, error: null };
  try {
    const rec = await import("../recorder.js");
    target = rec.resolveTarget({ file: options.file, env, cwd: options.cwd });
    const c = await import("../core.js");
    const err = c.coreLoadError();
    core = { loaded: err === null, error: err };
  } catch (e) {
    core = { loaded: false, error: String((e && e.message) || e) };
  }
  const why = {
    option: "given with --file",
    env: `from the environment variable AI_RECORDINGS_FILE (${env.AI_RECORDINGS_FILE})`,
    default: "the default (~/git/ai_recordings.jsonl), as neither --file nor AI_RECORDINGS_FILE is set",
  }[target.source];
  const qfile = quarantineFile(target.file);

  // Writable right now?
  const writable = probeAppend(target.file, { fs });
  if (writable.ok) say("ok", `The recordings file can be appended to right now (${writable.detail}).`);
  else say("problem", `The recordings file cannot be written: ${writable.reason}. Recordings are being lost.`);
  let qWritable = null;
  if (writable.ok) {
    qWritable = probeAppend(qfile, { fs });
    if (!qWritable.ok) say("problem", `The quarantine file ${qfile} cannot be written: ${qWritable.reason}.`);
  }
  const free = freeBytes(fs, path.dirname(target.file));
  if (free !== null && free < LOW_SPACE_BYTES) {
    say(free < 1024 * 1024 ? "problem" : "warning", `Only ${mib(free)} free on the disk holding the recordings.`);
  }
  for (const problem of settingsOf(env).problems) say("warning", `A setting is ignored: ${problem}.`);
  const lock = lockPath(target.file);
  try {
    const st = fs.statSync(lock);
    if (now() - st.mtimeMs > 60_000) {
      say("warning", `A rotation lock ${lock} from ${new Date(st.mtimeMs).toISOString()} is still there; the next rotation breaks it if its holder is gone.`);
    }
  } catch {
    // no lock: the usual case
  }

  // The core.
  if (core.loaded) say("ok", "The wasm core loads.");
  else {
    say("problem", `The wasm core does not load (${core.error}): entries still go to the quarantine file, unredacted. Run "npm run build".`);
  }

  // How the `record` command starts (plugin/record.cjs): from its bundle and code cache, or slower.
  const launcher = launcherState(options.launcher);
  if (launcher.error) say("warning", `Could not ask the record command how it starts: ${launcher.error}.`);
  else if (!launcher.bundle) {
    say("warning", 'The record command runs the ES modules: plugin/cli.bundle.cjs is missing. It works, but each call starts slower (BENCHMARKS.md); run "npm run build".');
  } else if (launcher.cache === "missing" || launcher.cache === "rejected") {
    const why = launcher.cache === "rejected" ? "rejected by this Node (another version built it)" : "missing";
    const next = launcher.writable
      ? "a new one is written when a record call (this one too) ends"
      : `it cannot be renewed: neither the install (${path.dirname(launcher.path)}) nor the user cache (${path.dirname(launcher.cacheFile)}) can be written; run "npm run build" as the install's owner, or make the cache directory writable`;
    say("warning", `The record command's code cache is ${why}; ${next}. Until then each call starts a few ms slower.`);
  } else {
    say("ok", `The record command starts from its bundle (code cache: ${launcher.cache}).`);
  }
  // The subcommands with a bundle of their own: [key in launcher, who, the calls that start from it].
  for (const [key, who, calls] of [
    ["hook", "Hook mode", "hook call"],
    ["hookWrite", "Hook mode's writing part", "hook call that writes an entry or looks for a hint"],
    ["recall", "Recall", "recall"],
  ]) {
    const own = launcher[key];
    if (launcher.error || !launcher.bundle) break;
    if (!own.bundle) {
      say("warning", `${who} starts from the whole CLI bundle: plugin/${own.name}.bundle.cjs is missing. It works, but each ${calls} starts slower (BENCHMARKS.md); run "npm run build".`);
    } else if (own.cache === "missing" || own.cache === "rejected") {
      const next = own.writable ? `a new one is written when a ${calls} ends` : "it cannot be renewed where it lives";
      say("warning", `${who}'s code cache is ${own.cache}; ${next}. Until then each ${calls} starts a few ms slower.`);
    }
  }

  // The status record.
  let status = null;
  const doc = readStatus({ env, fs });
  const t = doc && doc.targets && typeof doc.targets === "object" ? doc.targets[target.file] : null;
  if (t) {
    status = {
      path: doc.path,
      lastSuccess: t.lastSuccess ?? null,
      lastFailure: t.lastFailure ?? null,
      lastReason: t.lastReason ?? null,
      misses: Number(t.misses) || 0,
    };
    const failedLast = status.lastFailure && (!status.lastSuccess || status.lastFailure >= status.lastSuccess);
    if (failedLast) {
      say(
        "problem",
        `The last recording attempt failed (${status.lastFailure}: ${status.lastReason}); ${status.misses} recording(s) missed in all.`,
      );
    } else if (status.misses > 0) {
      say(
        "warning",
        `${status.misses} recording(s) were missed in the past, the last at ${status.lastFailure} (${status.lastReason}); recording has worked since (last success ${status.lastSuccess}).`,
      );
    } else {
      say("ok", `No recording has been missed (last success ${status.lastSuccess ?? "not noted"}).`);
    }
  } else {
    say("ok", `No status noted for this file yet (${doc ? doc.path : "no status record"}): nothing was recorded here, or nothing failed.`);
  }

  // What a host's options held that was ignored (the plugin notes it at start; its config is the host's).
  for (const [surface, noted] of Object.entries(readOptionWarnings({ env, fs }) ?? {})) {
    for (const w of noted?.warnings ?? []) say("warning", `The ${surface} ignored an option (${noted.at}): ${w}.`);
  }

  // `record export`'s last outcome for this file, when one was noted.
  const exported = exportStatusOf(target.file, { env, fs });
  if (exported?.lastFailure && (!exported.lastSuccess || exported.lastFailure >= exported.lastSuccess)) {
    say("problem", `The last record export failed (${exported.lastFailure}: ${exported.lastReason}).`);
  } else if (exported) say("ok", `The last record export succeeded (${exported.lastSuccess}).`);

  // What the files hold.
  const main = scan(target.file, false, env, now);
  const quarantine = scan(target.file, true, env, now);
  const damaged = main.damaged + quarantine.damaged;
  if (damaged) {
    say(
      "warning",
      `${damaged} damaged line(s) (torn by a crash or edited by hand) are skipped when reading, e.g. ${[...main.damage, ...quarantine.damage][0]}.`,
    );
  }
  for (const u of [...main.unfinished, ...quarantine.unfinished]) {
    say("warning", `A file ends in an unfinished line: ${u}. A write in progress, or torn by a crash; the next append starts on a fresh line.`);
  }
  for (const n of [...main.notes, ...quarantine.notes]) say("warning", n);
  if (quarantine.entries) {
    say("ok", `${quarantine.entries} entr${quarantine.entries === 1 ? "y is" : "ies are"} in the quarantine file (kept verbatim; see record read --quarantine).`);
  }

  const recall = recallState(target.file, env, fs);
  const team = teamState(recall.index, env, fs);
  if (team.on && team.sourceError) say("warning", `Team pulls are on (AI_RECORDINGS_TEAM) but have no database: ${team.sourceError}.`);
  const pullFailed = lastPullFailed(team.last);
  if (pullFailed) say("warning", `The last team pull failed (${pullFailed.at}: ${pullFailed.reason}); recall answers from the rows pulled before.`);

  const hookHelper = await helperState(env);

  const problems = checks.filter((c) => c.level === "problem").map((c) => c.text);
  const warnings = checks.filter((c) => c.level === "warning").map((c) => c.text);
  return {
    healthy: problems.length === 0,
    problems,
    warnings,
    checks,
    target: { file: target.file, source: target.source, why, quarantine: qfile },
    writable,
    quarantineWritable: qWritable,
    freeBytes: free,
    status,
    counts: { main, quarantine, damaged },
    settings: settings(env),
    core,
    launcher,
    recall,
    team,
    hookHelper,
    versions: { package: packageInfo(fs), runtime: runtime() },
  };
}

/** Recall in this runtime for `file`: { state: "off" | "unavailable" | "ready", why, hintsOff (why hints are
 *  off, or null), index, bytes, written }. Decided by recall's own rules and a stat of the index: doctor
 *  neither opens nor builds it. */
function recallState(file, env, fs, versions = process.versions) {
  const off = recallOff({ env });
  const index = indexPath(file, { env });
  let st = null;
  try {
    st = fs.statSync(index);
  } catch {
    st = null;
  }
  const missing = missingDriver(versions);
  return {
    state: off ? "off" : missing ? "unavailable" : "ready",
    why: off ?? missing,
    hintsOff: hintsOff({ env }),
    index,
    bytes: st ? st.size : null,
    written: st ? new Date(st.mtimeMs).toISOString() : null,
  };
}

/** Team memory for the index at `index`: { on, source (the database URL, password redacted), sourceError,
 *  last (the team state file: last pull, rows pulled, last failure), state (its path) }. Reads that file only. */
function teamState(index, env, fs) {
  const on = settingsOf(env).team === true;
  let source = null;
  let sourceError = null;
  try {
    source = connectionOf({ env, flag: "--from" }).shown;
  } catch (e) {
    sourceError = e?.message ?? String(e);
  }
  return { on, source, sourceError, last: readTeamState(index, { fs }), state: teamStatePath(index) };
}

/** The warm hook helper of this install and runtime (plugin/cli/hook-client.js): { state: "off" |
 *  "unavailable" | "listening" | "none", socket }. Doctor connects to see whether one listens; it starts none. */
async function helperState(env) {
  if (settingsOf(env).hookHelper === false) return { state: "off", socket: null };
  try {
    const file = new URL("../record.cjs", import.meta.url);
    const { helperSocket, helperListening } = await import("./hook-client.js");
    const socket = helperSocket(createRequire(file)(file.pathname).launchInfo(), env);
    if (!socket) return { state: "unavailable", socket: null, why: "no socket path of at most 103 bytes, or Windows" };
    return { state: (await helperListening(socket)) ? "listening" : "none", socket };
  } catch (e) {
    return { state: "unavailable", socket: null, why: describeError(e) };
  }
}

/** How the record command starts (plugin/record.cjs launchState): { bundle, cache, writable, path, hook,
 *  hookWrite, recall } or { error }, the last three saying the same (and their `name`) of the bundles hook mode and
 *  recall start from. `asked`: the launcher's own answer when doctor runs under plugin/record.cjs, which alone
 *  knows how its compile went; otherwise the bundle is compiled to see (the other three always are: a doctor
 *  process loads none of them). */
function launcherState(asked) {
  const file = new URL("../record.cjs", import.meta.url);
  try {
    const launch = createRequire(file)(file.pathname);
    const own = (name) => ({ name, ...launch.launchState(null, name) });
    return { ...(asked ? asked() : launch.launchState()), hook: own("hook"), hookWrite: own("hook-write"), recall: own("recall"), path: file.pathname };
  } catch (e) {
    return { error: describeError(e), path: file.pathname };
  }
}

/** The report in plain words. */
export function formatReport(r) {
  const L = [];
  const pkg = r.versions.package;
  L.push(`record doctor: ${pkg.name} ${pkg.version} (plugin and CLI) on ${r.versions.runtime}`);
  L.push("");
  L.push("Where recordings go");
  L.push(`  ${r.target.file}`);
  L.push(`  ${r.target.why}`);
  L.push(`  quarantine: ${r.target.quarantine}`);
  const s = r.settings;
  L.push(
    `  rotation past ${mib(s.maxBytes)} (${s.maxBytesFrom}); ${s.sync ? "fdatasync after each append" : "no fdatasync after appends"} (${s.syncFrom})`,
  );
  if (r.status) L.push(`  status record: ${r.status.path}`);
  L.push("");
  L.push("Contents");
  const m = r.counts.main;
  const q = r.counts.quarantine;
  const files = (n) => `${n} file${n === 1 ? "" : "s"}`;
  L.push(`  ${m.entries} entr${m.entries === 1 ? "y" : "ies"} in ${files(m.segments)} (${mib(m.bytes)})${m.lastTs ? `, the last at ${m.lastTs}` : ""}`);
  L.push(`  ${q.entries} quarantined entr${q.entries === 1 ? "y" : "ies"} in ${files(q.segments)}`);
  L.push(`  ${r.counts.damaged} damaged line${r.counts.damaged === 1 ? "" : "s"}`);
  if (r.status) {
    L.push(`  last success: ${r.status.lastSuccess ?? "none noted"}`);
    L.push(`  last failure: ${r.status.lastFailure ? `${r.status.lastFailure} (${r.status.lastReason})` : "none"}`);
    L.push(`  missed recordings: ${r.status.misses}`);
  }
  L.push("");
  L.push("Recall");
  const rc = r.recall;
  if (rc.state === "ready") L.push(`  works in this runtime; ${rc.hintsOff ?? "hints on failures are on"}`);
  else L.push(`  not in use: ${rc.why}`);
  L.push(`  index: ${rc.index}`);
  L.push(
    rc.bytes === null
      ? "  not built yet: the first recall or hint builds it from the files"
      : `  ${mib(rc.bytes)}, last written ${rc.written}; derived from the files, so it may be deleted at any time (the next recall rebuilds it)`,
  );
  L.push("");
  L.push("Team memory");
  const t = r.team;
  L.push(t.on ? "  on (AI_RECORDINGS_TEAM): recall pulls teammates' exported rows in the background now and then" : "  automatic pulls off (AI_RECORDINGS_TEAM is not set); record sync pulls when asked");
  L.push(`  source: ${t.source ?? `none (${t.sourceError})`}`);
  const last = t.last;
  if (!last) L.push("  no pull tried yet");
  else {
    L.push(`  last pull: ${last.lastSuccess ?? "none succeeded"}${last.lastSuccess ? `, ${last.lastAdded ?? 0} row(s) added; ${last.teamRows ?? 0} team row(s) in the index` : ""}`);
    L.push(`  last failure: ${lastPullFailed(last) ? `${last.lastFailure} (${last.lastReason})` : "none since the last pull"}`);
  }
  L.push("");
  L.push("Hook helper");
  const hh = r.hookHelper;
  if (hh.state === "off") L.push("  off (AI_RECORDINGS_HOOK_HELPER=0): every hook process does its own work");
  else if (hh.state === "unavailable") L.push(`  not available here (${hh.why}): every hook process does its own work`);
  else {
    L.push(
      hh.state === "listening"
        ? "  listening: hooks that record an entry or look for a hint hand the event to it"
        : "  none running: the next hook that records an entry or looks for a hint starts one",
    );
    L.push(`  socket: ${hh.socket}`);
  }
  L.push("");
  L.push("Checks");
  const tag = { ok: "ok      ", warning: "warning ", problem: "PROBLEM " };
  for (const c of r.checks) L.push(`  ${tag[c.level]}${c.text}`);
  L.push("");
  if (r.healthy) {
    L.push(r.warnings.length ? `Healthy, with ${r.warnings.length} warning(s) above.` : "Healthy: recording works.");
  } else {
    L.push(`${r.problems.length} problem${r.problems.length === 1 ? "" : "s"} found: recording is not working as it should (see PROBLEM above).`);
  }
  return L.join("\n") + "\n";
}

/** record doctor */
export async function doctor(argv, io0) {
  const io = ioOf(io0);
  let opts;
  try {
    opts = commandArgs(HELP, argv, { "--file": { key: "file" } }, io);
    if (!opts) return 0;
  } catch (e) {
    if (e instanceof UsageError) return usage(io.stderr, "doctor", e);
    throw e;
  }
  const report = await examine({ file: opts.file, env: io.env, cwd: io.cwd, now: io.now, launcher: io0?.launcher });
  io.stdout.write(opts.json ? JSON.stringify(report, null, 1) + "\n" : formatReport(report));
  return report.healthy ? 0 : 1;
}
