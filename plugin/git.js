// Git facts for a directory, read from the repository's files: no `git` process (tens of milliseconds each)
// on the recording path. Everything here is best-effort and never throws: a fact that cannot be read is
// simply absent.
//
// Layout read (https://git-scm.com/docs/gitrepository-layout):
//   <worktree>/.git            a directory (main worktree) or a file "gitdir: <path>" (linked worktree, submodule)
//   <gitdir>/commondir         in a linked worktree: the path of the shared ("common") git dir
//   <gitdir>/HEAD              per worktree: "ref: refs/heads/<branch>" or a detached sha
//   <common>/refs/..., <common>/packed-refs   branch tips (loose ref first, then packed)
//   <common>/config            [remote "origin"] url = ...
//
// Cache: the repository layout (where .git is, the common dir, origin, repo name) is cached per directory and
// re-checked with a stat of the config file at most once a second (an edited origin shows up within 1 s); HEAD
// and the branch tip are re-validated with a stat of HEAD and of the ref file (or packed-refs), comparing inode,
// size, mtime and ctime in place (no allocation on that path). Git replaces refs by rename, so every update gives
// a new inode even within one timestamp tick. The validation runs once per millisecond of the real clock (the
// resolution of an entry's `ts`): the first call of a millisecond stats, the others in that millisecond reuse
// its answer. So `head` and `branch` are those of some instant in the millisecond of the call, never older: a
// burst of entries pays the stats once a millisecond, not per entry. A git command this process runs between two
// calls takes longer than a millisecond, so it is always seen; a commit by another process landing within the
// millisecond of a call races with it either way.
//
// Held descriptors: during a burst (a call for the same directory less than KEEP_MS before), the files those
// stats watch are held open read-only and validated with fstat(2) instead: no path lookup, half the cost of a
// stat. A held file that git replaced (rename over it) or deleted has no links left (nlink 0); one written
// in place changes size, mtime or ctime; either sends the call back to path stats and a fresh read. Git never
// renames HEAD or a ref file away to another name (it writes the new file under a lock name and renames that
// over the old one, or unlinks it), so "still linked" means "still at its path". A watched path that does not
// exist (a loose ref not written yet) is stat'ed by path every call. Descriptors live in a pool (fdpool.js):
// closed after KEEP_MS without a call, by clear(), and at exit (O_CLOEXEC: never inherited).
//
// createGitFacts({ fs, clock }) makes an instance with its own cache, pool and clock; gitContext() and
// clearGitCache() use a default one.

import { boundedSet } from "./capture/memory.js";
import { closeQuietly, fs as nodeFs, path } from "./builtins.js";
import { createFdPool } from "./fdpool.js";
import { resolver } from "./paths.js";

const NEGATIVE_TTL_MS = 1000; // "not in a repository" is re-checked after this long (git init may follow)
// The config (origin) is re-checked at most this often; HEAD and the branch tip once per millisecond.
const CONFIG_CHECK_MS = 1000;
const EMPTY = Object.freeze({});
const MAX_CACHE = 256;
/** Descriptors are held while calls for a directory come this close together, and closed after this long idle. */
const KEEP_MS = 1000;
/** At most this many directories hold descriptors (least recently used released first). */
const MAX_HOLDING = 8;

function statKey(fs, p) {
  try {
    // throwIfNoEntry: a missing loose ref is the common case after `git pack-refs`; building an Error for it
    // on every call would cost more than the stat.
    // Numbers, not a formatted string: formatting doubled the cost of a call.
    const st = fs.statSync(p, { throwIfNoEntry: false });
    return st ? [st.ino, st.size, st.mtimeMs, st.ctimeMs] : MISSING;
  } catch {
    return MISSING;
  }
}

const MISSING = [-1, -1, -1, -1];

function sameKeys(a, b) {
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function readText(fs, p) {
  try {
    return fs.readFileSync(p, "utf8");
  } catch {
    return null;
  }
}

/** Finds the git dir for `dir`: walks up to the first `.git` (directory or `gitdir:` file). */
function discover(fs, dir) {
  let cur = path.resolve(dir);
  for (let i = 0; i < 256; i++) {
    const dotgit = path.join(cur, ".git");
    let st = null;
    try {
      st = fs.statSync(dotgit);
    } catch {
      st = null;
    }
    if (st) {
      let gitDir = null;
      if (st.isDirectory()) gitDir = dotgit;
      else if (st.isFile()) {
        const m = /^gitdir:\s*(.+?)\s*$/m.exec(readText(fs, dotgit) ?? "");
        if (m) gitDir = path.resolve(cur, m[1]);
      }
      if (gitDir && isFile(fs, path.join(gitDir, "HEAD"))) {
        const cd = readText(fs, path.join(gitDir, "commondir"));
        const common = cd ? path.resolve(gitDir, cd.trim()) : gitDir;
        return { worktree: cur, gitDir, headPath: path.join(gitDir, "HEAD"), common: realpath(fs, common) };
      }
    }
    const up = path.dirname(cur);
    if (up === cur) return null;
    cur = up;
  }
  return null;
}

function isFile(fs, p) {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

function realpath(fs, p) {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

/** The url of [remote "origin"] in a git config file's text (the first one; no includes). */
export function originFromConfig(text) {
  if (!text) return undefined;
  let inOrigin = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith("#") || line.startsWith(";")) continue;
    const sec = /^\[\s*([^\s\]"]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
    if (sec) {
      inOrigin = sec[1].toLowerCase() === "remote" && sec[2] === "origin";
      // a section header may be followed by a key on the same line
      const rest = line.slice(sec[0].length).trim();
      if (!inOrigin || !rest) continue;
      const v = keyValue(rest, "url");
      if (v) return v;
      continue;
    }
    if (inOrigin) {
      const v = keyValue(line, "url");
      if (v) return v;
    }
  }
  return undefined;
}

function keyValue(line, key) {
  const m = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(line);
  if (!m || m[1].toLowerCase() !== key) return undefined;
  let v = m[2];
  let out = "";
  let quoted = false;
  for (let i = 0; i < v.length; i++) {
    const c = v[i];
    if (c === '"') quoted = !quoted;
    else if (c === "\\" && i + 1 < v.length) {
      const n = v[++i];
      out += n === "n" ? "\n" : n === "t" ? "\t" : n;
    } else if (!quoted && (c === "#" || c === ";")) break;
    else out += c;
  }
  out = out.trim();
  return out || undefined;
}

/** Drops credentials from an http(s) remote URL ("https://user:token@host/x" → "https://host/x"), so a token
 *  kept in the remote never reaches a recording through the `origin` stamp. */
export function cleanRemote(url) {
  if (!url) return url;
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/i, (all, scheme) =>
    /^(https?|ftps?):/i.test(scheme) ? scheme : all,
  );
}

/** Repository name: the origin URL's last path segment without ".git", else the main worktree's folder. */
export function repoName(origin, common) {
  if (origin) {
    const trimmed = origin.replace(/[\/\\]+$/, "");
    const seg = trimmed.split(/[\/\\:]/).pop();
    const name = seg ? seg.replace(/\.git$/i, "") : "";
    if (name) return name;
  }
  if (!common) return undefined;
  const base = path.basename(common);
  if (base === ".git") return path.basename(path.dirname(common)) || undefined;
  return base.replace(/\.git$/i, "") || undefined; // a bare repository
}

function readRef(fs, layout, ref, depth = 0) {
  // Loose refs of branches live in the common dir; per-worktree refs (refs/bisect, refs/worktree) in gitDir.
  for (const base of [layout.common, layout.gitDir]) {
    const p = path.join(base, ref);
    const text = readText(fs, p);
    if (text !== null) {
      const t = text.trim();
      if (t.startsWith("ref:")) return depth < 5 ? readRef(fs, layout, t.slice(4).trim(), depth + 1) : {};
      return { sha: /^[0-9a-f]{40,64}$/.test(t) ? t : undefined, keyPath: p };
    }
  }
  const packed = path.join(layout.common, "packed-refs");
  const text = readText(fs, packed);
  if (text) {
    for (const line of text.split("\n")) {
      if (line.length > 41 && line.endsWith(" " + ref) && line[0] !== "#" && line[0] !== "^") {
        const sha = line.slice(0, line.indexOf(" "));
        if (/^[0-9a-f]{40,64}$/.test(sha)) return { sha, keyPath: packed };
      }
    }
  }
  return { keyPath: packed }; // unborn branch: watch packed-refs (and HEAD) for the first commit
}

function readHead(fs, layout) {
  const text = (readText(fs, layout.headPath) ?? "").trim();
  if (text.startsWith("ref:")) {
    const ref = text.slice(4).trim();
    const branch = ref.startsWith("refs/heads/") ? ref.slice("refs/heads/".length) : undefined;
    const r = readRef(fs, layout, ref);
    // The loose ref may appear later (first commit after packing) even if we fell back to packed-refs.
    const loose = path.join(layout.common, ref);
    return { branch, head: r.sha, watch: r.keyPath === loose ? [loose] : [r.keyPath, loose].filter(Boolean) };
  }
  if (/^[0-9a-f]{40,64}$/.test(text)) return { head: text, watch: [] }; // detached HEAD
  return { watch: [] };
}

/** The paths whose stats validate the cached HEAD facts: HEAD itself, then the ref files it resolves through. */
function watchList(layout, watch) {
  return [layout.headPath, ...watch];
}

/** Stat keys of `paths`, flat: [ino, size, mtimeMs, ctimeMs] per path (MISSING for a path that is absent). */
function keysOf(fs, paths) {
  const out = [];
  for (const p of paths) out.push(...statKey(fs, p));
  return out;
}

/** Whether every path in `paths` still has the stat key recorded in `keys` (compared in place, no allocation:
 *  this runs on every call). Returns -1 when the first path (HEAD) is gone. `fds` (held descriptors, -1 where
 *  none) are checked with fstat; any held file that lost its last link fails the whole check. */
function unchanged(fs, paths, keys, fds) {
  for (let i = 0, j = 0; i < paths.length; i++, j += 4) {
    let st;
    const fd = fds === null ? -1 : fds[i];
    try {
      st = fd >= 0 ? fs.fstatSync(fd) : fs.statSync(paths[i], NO_THROW);
    } catch {
      st = undefined;
    }
    if (fd >= 0 && (st === undefined || st.nlink === 0)) return 0;
    if (st === undefined) {
      if (i === 0) return -1;
      if (keys[j] !== -1) return 0;
      continue;
    }
    if (st.ino !== keys[j] || st.size !== keys[j + 1] || st.mtimeMs !== keys[j + 2] || st.ctimeMs !== keys[j + 3]) return 0;
  }
  return 1;
}

const NO_THROW = Object.freeze({ throwIfNoEntry: false });

/**
 * A git-facts instance: its own cache of repositories, pool of held descriptors and clock.
 * options: { fs (default node:fs), clock (default Date.now: the validation tick, the held descriptors' idle
 * time, and the negative cache unless a call passes `now`), timers (default the global ones) }.
 */
export function createGitFacts({ fs: baseFs = nodeFs, clock = Date.now, timers = globalThis } = {}) {
  const cache = new Map(); // dir → entry
  const resolveDir = resolver();
  // Entries holding descriptors of their watched files, least recently held first.
  const pool = createFdPool({
    idleMs: KEEP_MS,
    max: MAX_HOLDING,
    usedAt: (entry) => entry.usedAt,
    release: (entry) => closeHeld(entry),
    clock,
    timers,
  });

  function release(entry) {
    if (entry && entry.fds !== null) pool.drop(entry);
  }

  function remember(key, entry) {
    boundedSet(cache, key, entry, MAX_CACHE, release);
  }

  /** Opens the watched files of `entry` read-only, keeping each descriptor only if it is the very file its key
   *  was taken from (same inode, size and times), so a change between the key and the open is still seen. */
  function hold(fs, entry) {
    const keys = entry.headKey;
    if (typeof fs.openSync !== "function" || keys.length !== entry.watchPaths.length * 4) return;
    entry.fds = entry.watchPaths.map((p, i) => heldFd(fs, p, keys, i * 4));
    entry.fs = fs;
    pool.put(entry, entry);
  }

  /**
   * Git facts for `dir`: { git_dir, repo, origin, head, branch } (absent keys when unknown), or {} outside a
   * repository. The result is frozen and is the same object as long as nothing changed. `git_dir` is the
   * absolute common git dir, the same for every worktree of one repository.
   * options.fs overrides the instance's fs; options.now the clock of the negative cache and the idle times.
   */
  function gitContext(dir, options = {}) {
    const fs = options.fs ?? baseFs;
    const now = (options.now ?? clock)();
    try {
      const key = resolveDir(dir || ".");
      let entry = cache.get(key);
      if (entry && !entry.layout) {
        if (now - entry.at < NEGATIVE_TTL_MS) return EMPTY;
        entry = undefined;
      }
      if (entry && now - entry.configCheckedAt >= CONFIG_CHECK_MS) {
        // Re-discover if the config changed (origin edited, repository re-initialised).
        const cfg = statKey(fs, entry.configPath);
        if (!sameKeys(cfg, entry.configKey)) entry = undefined;
        else entry.configCheckedAt = now;
      }
      const fresh = !entry;
      if (!entry) {
        const layout = discover(fs, key);
        if (!layout) {
          remember(key, { at: now, layout: null });
          return EMPTY;
        }
        entry = newEntry(fs, layout, now);
        remember(key, entry);
      }
      const burst = now - entry.usedAt < KEEP_MS && now >= entry.usedAt;
      entry.usedAt = now;
      const before = entry.headFacts;
      // Validated already in this millisecond of the instance's clock (not options.now, a seam that may stand
      // still): a burst of calls pays the stats once per millisecond.
      const tick = clock();
      if (entry.headFacts && entry.validAt === tick && entry.out) return entry.out;
      if (entry.headFacts) {
        const u = unchanged(fs, entry.watchPaths, entry.headKey, entry.fds);
        if (u === 1) entry.validAt = tick;
        if (u === -1) {
          // HEAD is gone: the repository moved or was deleted; look again next time.
          release(entry);
          cache.delete(key);
          return EMPTY;
        }
        if (u === 0) {
          release(entry);
          entry.headFacts = null;
        }
      }
      if (!entry.headFacts) readFacts(fs, entry, fresh, before);
      if (burst && entry.fds === null) hold(fs, entry);
      if (!entry.out) entry.out = factsOut(entry);
      return entry.out;
    } catch {
      return EMPTY;
    }
  }

  /** Forgets every cached repository and closes the descriptors held for them (tests; before unmounting). */
  function clear() {
    pool.closeAll();
    cache.clear();
  }

  return { gitContext, clear };
}

/** A cache entry for a repository just discovered: its layout, origin and name; HEAD not read yet. */
function newEntry(fs, layout, now) {
  const configPath = path.join(layout.common, "config");
  const configKey = statKey(fs, configPath);
  const origin = cleanRemote(originFromConfig(readText(fs, configPath)));
  return {
    at: now,
    layout,
    configPath,
    configKey,
    configCheckedAt: now,
    out: null,
    base: { git_dir: layout.common, repo: repoName(origin, layout.common), origin },
    watchPaths: null,
    headKey: null,
    headFacts: null,
    fds: null, // held descriptors of watchPaths (-1 where none), or null
    usedAt: -Infinity,
    validAt: -1, // the clock reading at which the keys last matched (HEAD and the tip then, to the millisecond)
  };
}

/** Reads HEAD and the branch tip into `entry` (whose facts are unknown or stale); `before` are the facts it had. */
function readFacts(fs, entry, fresh, before) {
  if (fresh) {
    // The first call for this directory (often the only one: a `record` or hook process) reads the facts once
    // and records no key: a next call, if any, matches no key and reads them again, keyed as below.
    entry.headFacts = readHead(fs, entry.layout);
    entry.watchPaths = watchList(entry.layout, entry.headFacts.watch);
    entry.headKey = [];
    entry.out = null;
    return;
  }
  // Read the key before the facts: a change in between makes the next call read again (never stale).
  const first = readHead(fs, entry.layout);
  const paths = watchList(entry.layout, first.watch);
  const keys = keysOf(fs, paths);
  entry.headFacts = readHead(fs, entry.layout);
  entry.watchPaths = watchList(entry.layout, entry.headFacts.watch);
  // HEAD moved to another ref between the two reads: these facts are not covered by the keys; read again next
  // call (an empty key never matches).
  entry.headKey = entry.watchPaths.join("\0") === paths.join("\0") ? keys : [];
  // Same facts as before (e.g. the keyed read after a first, unkeyed one): the same object comes back.
  const read = entry.headFacts;
  if (!before || before.head !== read.head || before.branch !== read.branch) entry.out = null;
}

/** The facts of `entry` as one frozen object: the same object until something changes, so callers can compare
 *  by identity. */
function factsOut(entry) {
  const out = {};
  for (const [k, v] of Object.entries(entry.base)) if (v) out[k] = v;
  if (entry.headFacts.head) out.head = entry.headFacts.head;
  if (entry.headFacts.branch) out.branch = entry.headFacts.branch;
  return Object.freeze(out);
}

/** A read-only descriptor of `p` if it is the very file whose key sits at keys[j..j+4], else -1 (stat'ed by path). */
function heldFd(fs, p, keys, j) {
  if (keys[j] === -1) return -1; // absent: stat'ed by path
  let fd = -1;
  try {
    fd = fs.openSync(p, "r");
    const st = fs.fstatSync(fd);
    if (st.ino === keys[j] && st.size === keys[j + 1] && st.mtimeMs === keys[j + 2] && st.ctimeMs === keys[j + 3]) {
      return fd;
    }
  } catch {
    // unreadable or gone: stat'ed by path
  }
  if (fd >= 0) closeQuietly(fs, fd);
  return -1;
}

function closeHeld(entry) {
  for (const fd of entry.fds) if (fd >= 0) closeQuietly(entry.fs, fd);
  entry.fds = null;
}

const defaultFacts = createGitFacts();

/** Git facts for `dir` from the default instance (see createGitFacts). */
export function gitContext(dir, options) {
  return defaultFacts.gitContext(dir, options);
}

/** Forgets every repository the default instance cached and closes the descriptors it holds. */
export function clearGitCache() {
  defaultFacts.clear();
}
