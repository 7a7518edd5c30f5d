// Where recordings live: the target file and its siblings (quarantine, archives, lock). Their names are made
// and parsed here only, for the writer, the recorder, the reader and doctor; it loads no wasm.

import { homedir, fs as nodeFs, os, path } from "./builtins.js";
import { envOf, placesOf, settingsOf } from "./settings.js";

/** A path.resolve(base, p) that remembers its last answer, for one call site on the recording path (an entry
 *  resolves three paths, a visible share of its cost in Bun). Only answers that cannot depend on the process's
 *  working directory are remembered: an absolute base or p. */
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
  if (p === "~" || p.startsWith("~/")) return path.join(placesOf(env, homedir).home, p.slice(1));
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
  const fromEnv = settingsOf(env).file;
  if (fromEnv !== undefined) {
    return { file: resolveTargetPath(base, expandHome(fromEnv, env)), source: "env" };
  }
  return { file: path.join(placesOf(env, homedir).home, "git", "ai_recordings.jsonl"), source: "default" };
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

/** A 53-bit hash of a string as 11 base-36 digits (cyrb53): enough to tell file families apart in one name. */
export function shortHash(s) {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36).padStart(11, "0");
}

/** The recall index of a recordings file family (derived, rebuilt from the files at will):
 *  `$XDG_DATA_HOME/opencode-recordings/recall/<stem>-<hash of the main file's path>.sqlite`, XDG_DATA_HOME
 *  defaulting to ~/.local/share; AI_RECORDINGS_INDEX_DIR replaces the directory. One per family, so two
 *  recordings files never share an index and every worktree of a user shares the one of its file. */
export function indexPath(file, options = {}) {
  const env = envOf(options);
  const dir =
    settingsOf(env).indexDir ??
    path.join(placesOf(env, homedir).dataHome, "opencode-recordings", "recall");
  const name = path.basename(stemOf(file).stem).replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 64);
  return path.join(path.resolve(dir), `${name}-${shortHash(path.resolve(file))}.sqlite`);
}

/** Hook mode's per-session memory (plugin/capture/memory.js fileStore: open failures, hints given):
 *  `$XDG_STATE_HOME/opencode-recordings/sessions` (XDG_STATE_HOME defaulting to ~/.local/state). */
export function sessionMemoryDir(options = {}) {
  const env = envOf(options);
  const state = placesOf(env, homedir).stateHome;
  return path.join(state, "opencode-recordings", "sessions");
}

/** This user's directory in the system's temporary directory, `<tmpdir>/opencode-recordings-<uid>`: where the
 *  status record goes when its own place cannot be written, and the hook helper's socket when there is no
 *  XDG_RUNTIME_DIR. */
export function userTmpDir() {
  let uid = "user";
  try {
    uid = String(process.getuid?.() ?? os.userInfo().username);
  } catch {
    // keep "user"
  }
  return path.join(os.tmpdir(), `opencode-recordings-${uid}`);
}

/** The socket of the warm hook helper of one install and runtime (`key`, plugin/cli/hook-client.js):
 *  `$XDG_RUNTIME_DIR/opencode-recordings/hook-<key>.sock`, else `hook-<key>.sock` in userTmpDir(). The
 *  directory is the user's alone (hook-client.js checks it before use). */
export function helperSocketPath(key, options = {}) {
  const run = placesOf(envOf(options), homedir).runtimeDir;
  const dir = run ? path.join(run, "opencode-recordings") : userTmpDir();
  return path.join(dir, `hook-${key}.sock`);
}

/** The rotation lock beside a recordings file. */
export function lockPath(file) {
  return file + ".lock";
}

/** yyyymmddThhmmssmmmZ (UTC): fixed width, so archive names sort by time. */
export function archiveStamp(ms) {
  const d = new Date(ms);
  const p = (n, w = 2) => String(n).padStart(w, "0");
  return (
    `${p(d.getUTCFullYear(), 4)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}T` +
    `${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}${p(d.getUTCMilliseconds(), 3)}Z`
  );
}

/** The archive a rotation at `ms` makes of `file`: `<stem>.<stamp><ext>`, or `<stem>.<stamp>.<n><ext>` for the
 *  n-th collision within one millisecond. */
export function archiveName(file, ms, n = 0) {
  const { stem, ext } = stemOf(file);
  return `${stem}.${archiveStamp(ms)}${n > 0 ? `.${n}` : ""}${ext}`;
}

/** A segment's sort key: the stamp and the zero-padded collision number, so string order is rotation order. */
function segmentKey(stamp, n) {
  return `${stamp}_${String(n).padStart(6, "0")}`;
}

const SEGMENT_KEY = /^\d{8}T\d{9}Z_\d{6}$/;

/** Whether `key` is an archive's sort key as listSegments makes it (a cursor carries one). */
export function isSegmentKey(key) {
  return typeof key === "string" && SEGMENT_KEY.test(key);
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
    if (m) out.push({ path: path.join(dir, name), key: segmentKey(m[1], Number(m[2] ?? 0)), archive: true });
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
