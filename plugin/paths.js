// Where recordings live: the target file and its siblings. One home for these rules, shared by the writer,
// the recorder and the reader; it loads no wasm, so reading never pays for the core.

import { fs as nodeFs, os, path } from "./builtins.js";

let snapshot = null;

/** The environment the recording path reads (AI_RECORDINGS_*, HOME, XDG_STATE_HOME): `options.env` when given,
 *  else a copy of `process.env` taken once per process, at the first call. Reading `process.env` costs ~0.15 us
 *  a variable in Node (each read calls into C++), and one call read a dozen: a tenth of a small entry's cost.
 *  A process that changes its own environment afterwards calls `refreshEnv()`. */
export function envOf(options) {
  return options.env ?? (snapshot ??= Object.freeze({ ...process.env }));
}

/** Forgets the snapshot of `process.env`, so the next call reads it again. */
export function refreshEnv() {
  snapshot = null;
}

/** A path.resolve(base, p) that remembers its last answer, for one call site on the recording path: path.resolve
 *  cost ~0.2 us a call in Bun, and an entry made three (~4% of a 1 KiB entry). Only answers that cannot depend on
 *  the process's working directory are remembered: an absolute base or p. */
export function resolver() {
  let lastBase = null;
  let lastP = null;
  let last = "";
  return (base, p = "") => {
    if (base === lastBase && p === lastP) return last;
    const out = path.resolve(base, p);
    if (path.isAbsolute(base) || path.isAbsolute(p)) {
      lastBase = base;
      lastP = p;
      last = out;
    }
    return out;
  };
}

const resolveTargetPath = resolver();

function expandHome(p, env) {
  if (p === "~" || p.startsWith("~/")) return path.join(env.HOME || os.homedir(), p.slice(1));
  return p;
}

/** Where recordings go and why: options.file, else env AI_RECORDINGS_FILE, else ~/git/ai_recordings.jsonl.
 *  Relative paths are taken from options.cwd (default the process's working directory); "~/" is the home. */
export function resolveTarget(options = {}) {
  const env = envOf(options);
  const base = options.cwd ?? process.cwd();
  if (typeof options.file === "string" && options.file !== "") {
    return { file: resolveTargetPath(base, expandHome(options.file, env)), source: "option" };
  }
  if (env.AI_RECORDINGS_FILE) {
    return { file: resolveTargetPath(base, expandHome(env.AI_RECORDINGS_FILE, env)), source: "env" };
  }
  return { file: path.join(env.HOME || os.homedir(), "git", "ai_recordings.jsonl"), source: "default" };
}

/** Splits a recordings path into the stem and extension used for its siblings ("a/x.jsonl" → "a/x", ".jsonl"). */
export function stemOf(file) {
  const ext = path.extname(file);
  return ext ? { stem: file.slice(0, -ext.length), ext } : { stem: file, ext: ".jsonl" };
}

/** The sibling that holds what cannot be kept faithfully in the main file: `<stem>.quarantine.jsonl`. */
export function quarantinePath(file) {
  return stemOf(file).stem + ".quarantine.jsonl";
}

function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The segments of a recordings file, oldest first: archives `<stem>.<yyyymmddThhmmssmmmZ>[.<n>]<ext>` in
 * rotation order, then the live file if it exists. Each is { path, key, archive }: `key` sorts archives in
 * rotation order (null for the live file). Never throws.
 */
export function listSegments(file, { fs = nodeFs } = {}) {
  const { stem, ext } = stemOf(file);
  const dir = path.dirname(file);
  const re = new RegExp(`^${escapeRe(path.basename(stem))}\\.(\\d{8}T\\d{9}Z)(?:\\.(\\d+))?${escapeRe(ext)}$`);
  let names = [];
  try {
    names = fs.readdirSync(dir);
  } catch {
    names = [];
  }
  const out = [];
  for (const name of names) {
    const m = re.exec(name);
    // The key pads the collision suffix, so plain string order is rotation order.
    if (m) out.push({ path: path.join(dir, name), key: `${m[1]}_${(m[2] ?? "0").padStart(6, "0")}`, archive: true });
  }
  out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  try {
    fs.lstatSync(file);
    out.push({ path: file, key: null, archive: false });
  } catch {
    // no live file (yet)
  }
  return out;
}
