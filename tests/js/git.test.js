// Git facts read from files, checked against real git: a repository with a remote, commits, a worktree,
// packed refs, detached HEAD, and the cache never serving a HEAD older than the millisecond of the call.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { createGitFacts, gitContext, originFromConfig, repoName, cleanRemote, clearGitCache } from "../../plugin/git.js";
import { tmpdir, git, gitRepo, openPaths } from "./helpers.js";
import { manualClock } from "./fake-clock.js";

/** A git-facts instance on a clock the test moves (`clock.t`, ms) and timers it fires (`fire()`). */
function facts() {
  const { clock, now, timers } = manualClock();
  const g = createGitFacts({ clock: now, timers });
  return { ...g, clock, timers };
}

function makeRepo() {
  const d = fs.realpathSync(tmpdir("rec-git-"));
  const main = gitRepo(path.join(d, "proj"), "git@github.com:acme/widgets.git");
  git(main, "commit", "-q", "--allow-empty", "-m", "one");
  const wt = path.join(d, "proj-feature");
  git(main, "worktree", "add", "-q", "-b", "feature", wt);
  fs.mkdirSync(path.join(main, "src", "deep"), { recursive: true });
  return { d, main, wt };
}

test("facts in the main worktree, a subdirectory, and a linked worktree match git", () => {
  const { main, wt } = makeRepo();
  const head = git(main, "rev-parse", "HEAD");
  const common = path.join(main, ".git");
  const want = { git_dir: common, repo: "widgets", origin: "git@github.com:acme/widgets.git", head, branch: "main" };
  assert.deepEqual(gitContext(main), want);
  assert.deepEqual(gitContext(path.join(main, "src", "deep")), want);
  assert.deepEqual(gitContext(wt), { ...want, branch: "feature" });
  // git's own view of the common dir agrees
  assert.equal(path.resolve(wt, git(wt, "rev-parse", "--git-common-dir")), common);
});

test("HEAD is never stale: commits, branch switches, packed refs, detached HEAD", () => {
  const { main, wt } = makeRepo();
  gitContext(main);
  gitContext(wt);
  for (let i = 0; i < 5; i++) {
    // Several commits within one timestamp tick: the cache must still notice each one.
    git(main, "commit", "-q", "--allow-empty", "-m", `c${i}`);
    assert.equal(gitContext(main).head, git(main, "rev-parse", "HEAD"), `commit ${i}`);
  }
  git(wt, "commit", "-q", "--allow-empty", "-m", "on feature");
  assert.equal(gitContext(wt).head, git(wt, "rev-parse", "HEAD"));
  assert.equal(gitContext(wt).branch, "feature");

  git(main, "pack-refs", "--all");
  assert.equal(gitContext(main).head, git(main, "rev-parse", "HEAD"), "after pack-refs");
  assert.equal(gitContext(wt).head, git(wt, "rev-parse", "HEAD"), "worktree after pack-refs");
  git(main, "commit", "-q", "--allow-empty", "-m", "after pack");
  assert.equal(gitContext(main).head, git(main, "rev-parse", "HEAD"), "new loose ref over a packed one");

  git(main, "checkout", "-q", "-b", "other");
  assert.equal(gitContext(main).branch, "other");
  git(main, "checkout", "-q", "--detach", "HEAD~1");
  const detached = gitContext(main);
  assert.equal(detached.head, git(main, "rev-parse", "HEAD"));
  assert.equal(detached.branch, undefined);
});

test("during a burst HEAD and the ref are held open and every change through them is still seen", { skip: !fs.existsSync("/proc/self/fd") }, () => {
  const { main } = makeRepo();
  const ref = path.join(main, ".git", "refs", "heads", "main");
  const head = path.join(main, ".git", "HEAD");
  const g = facts();
  // Each call a millisecond after the last: within a burst, and past the once-per-millisecond validation.
  const at = () => (g.clock.t++, g.gitContext(main));
  at(); // a lone call: nothing held
  assert.ok(!openPaths().includes(ref), "a lone call holds nothing");
  at(); // the second call within KEEP_MS: a burst
  assert.ok(openPaths().includes(ref) && openPaths().includes(head), "HEAD and the branch ref are held in a burst");

  // A commit replaces the ref by rename: the held one has no links left.
  git(main, "commit", "-q", "--allow-empty", "-m", "two");
  const two = git(main, "rev-parse", "HEAD");
  assert.equal(at().head, two);
  // Written in place (same inode), as a script or an editor may: size/mtime/ctime differ.
  const one = git(main, "rev-parse", "HEAD~1");
  at();
  fs.writeFileSync(ref, one + "\n");
  assert.equal(g.gitContext(main).head, two, "within the millisecond of the last check, its answer stands");
  assert.equal(at().head, one, "a ref rewritten in place, seen in the next millisecond");
  // Same size again: only the times tell. A coarse filesystem clock could give the rewrite the same mtime, so
  // it is set apart explicitly (git itself never writes in place: its updates are new inodes, seen at once).
  const { mtime } = fs.statSync(ref);
  fs.writeFileSync(ref, two + "\n");
  fs.utimesSync(ref, mtime, new Date(mtime.getTime() + 5000));
  assert.equal(at().head, two, "and back, same size");
  // An orphan checkout rewrites HEAD but no reflog and no ref.
  git(main, "checkout", "-q", "--orphan", "fresh");
  const orphan = at();
  assert.equal(orphan.branch, "fresh");
  assert.equal(orphan.head, undefined);
  git(main, "checkout", "-q", "main");
  assert.equal(at().branch, "main");
  assert.equal(at().head, two);

  g.clear();
  assert.ok(!openPaths().includes(ref) && !openPaths().includes(head), "clear() closes them");
});

test("the default instance holds in a burst and clearGitCache() closes what it holds", { skip: !fs.existsSync("/proc/self/fd") }, () => {
  const { main } = makeRepo();
  const ref = path.join(main, ".git", "refs", "heads", "main");
  clearGitCache();
  gitContext(main);
  gitContext(main);
  assert.ok(openPaths().includes(ref), "held in a burst");
  const other = facts();
  other.gitContext(main);
  other.gitContext(main);
  other.clear(); // another instance's clear leaves the default's descriptors alone
  assert.ok(openPaths().includes(ref), "still held by the default instance");
  assert.equal(gitContext(main).head, git(main, "rev-parse", "HEAD"));
  clearGitCache();
  assert.ok(!openPaths().includes(ref), "clearGitCache closes them");
});

test("held git files are closed after a quiet second (unref'd timer), and a new burst holds them again", { skip: !fs.existsSync("/proc/self/fd") }, () => {
  const { main } = makeRepo();
  const ref = path.join(main, ".git", "refs", "heads", "main");
  const g = facts();
  g.gitContext(main);
  g.clock.t++;
  g.gitContext(main);
  assert.ok(openPaths().includes(ref), "held in a burst");
  assert.equal(typeof g.timers.pending, "function", "an idle sweep is scheduled");
  assert.ok(g.timers.unrefs >= 1, "its timer is unref'd");
  g.clock.t += 500;
  g.timers.fire(); // not idle long enough yet
  assert.ok(openPaths().includes(ref), "still held after half a second");
  g.clock.t += 1300;
  g.timers.fire();
  assert.ok(!openPaths().includes(ref), "closed after a quiet second");
  assert.equal(g.timers.pending, null, "nothing held, no sweep scheduled");
  g.clock.t += 5000;
  assert.equal(g.gitContext(main).head, git(main, "rev-parse", "HEAD"), "facts still served, by path stats");
  g.clock.t++;
  g.gitContext(main);
  assert.ok(openPaths().includes(ref), "held again in the next burst");
  g.clear();
});

test("an unborn branch has a branch but no head, until the first commit", () => {
  const d = fs.realpathSync(tmpdir("rec-git-"));
  git(d, "init", "-q");
  assert.deepEqual(gitContext(d), { git_dir: path.join(d, ".git"), repo: path.basename(d), branch: "main" });
  git(d, "commit", "-q", "--allow-empty", "-m", "first");
  assert.equal(gitContext(d).head, git(d, "rev-parse", "HEAD"));
});

test("an origin added or changed later is picked up within a second (config is re-checked)", () => {
  const d = fs.realpathSync(tmpdir("rec-git-"));
  let t = 1_000_000;
  const now = () => t;
  git(d, "init", "-q");
  assert.equal(gitContext(d, { now }).origin, undefined);
  git(d, "remote", "add", "origin", "https://example.com/team/thing.git");
  t += 1000;
  assert.equal(gitContext(d, { now }).origin, "https://example.com/team/thing.git");
  assert.equal(gitContext(d, { now }).repo, "thing");
});

test("the same frozen object comes back while nothing changed", () => {
  const { main } = makeRepo();
  const a = gitContext(main);
  assert.equal(gitContext(main), a);
  assert.ok(Object.isFrozen(a));
  git(main, "commit", "-q", "--allow-empty", "-m", "two");
  assert.notEqual(gitContext(main), a);
});

test("outside a repository: no facts, no throw; a repository created later is found", () => {
  const d = fs.realpathSync(tmpdir("rec-nogit-"));
  clearGitCache();
  assert.deepEqual(gitContext(d), {});
  assert.deepEqual(gitContext(path.join(d, "does", "not", "exist")), {});
  git(d, "init", "-q");
  let t = Date.now() + 5000; // past the short negative cache
  assert.equal(gitContext(d, { now: () => t }).git_dir, path.join(d, ".git"));
});

test("a broken .git never throws", () => {
  const d = fs.realpathSync(tmpdir("rec-git-"));
  fs.writeFileSync(path.join(d, ".git"), "gitdir: /nowhere/at/all\n");
  assert.deepEqual(gitContext(d), {});
  const e = fs.realpathSync(tmpdir("rec-git-"));
  fs.mkdirSync(path.join(e, ".git"));
  fs.writeFileSync(path.join(e, ".git", "HEAD"), "garbage");
  assert.deepEqual(gitContext(e), { git_dir: path.join(e, ".git"), repo: path.basename(e) });
});

test("origin from config text", () => {
  const cases = [
    ['[remote "origin"]\n\turl = git@github.com:a/b.git\n', "git@github.com:a/b.git"],
    ['[core]\n\tbare = false\n[remote "upstream"]\n\turl = x\n[remote "origin"]\n\tfetch = +refs/*\n\turl = https://h/a/b\n', "https://h/a/b"],
    ['[remote "origin"]\n  URL = "https://h/with space/b.git" # comment\n', "https://h/with space/b.git"],
    ['[remote "origin"] url = ssh://h/x.git\n', "ssh://h/x.git"],
    ['[remote "other"]\n\turl = x\n', undefined],
    ["", undefined],
  ];
  for (const [text, want] of cases) assert.equal(originFromConfig(text), want, text);
});

test("repository names", () => {
  const cases = [
    ["git@github.com:acme/widgets.git", "/x/.git", "widgets"],
    ["https://github.com/acme/widgets", "/x/.git", "widgets"],
    ["https://github.com/acme/widgets/", "/x/.git", "widgets"],
    ["ssh://git@host:22/srv/repo.git", "/x/.git", "repo"],
    ["/local/path/mirror.git", "/x/.git", "mirror"],
    [undefined, "/home/u/proj/.git", "proj"],
    [undefined, "/srv/bare-thing.git", "bare-thing"],
  ];
  for (const [origin, common, want] of cases) assert.equal(repoName(origin, common), want, `${origin} ${common}`);
});

test("credentials in an http remote never reach the stamps", () => {
  assert.equal(cleanRemote("https://user:ghp_secret@github.com/a/b.git"), "https://github.com/a/b.git");
  assert.equal(cleanRemote("https://ghp_token@github.com/a/b.git"), "https://github.com/a/b.git");
  assert.equal(cleanRemote("git@github.com:a/b.git"), "git@github.com:a/b.git");
  assert.equal(cleanRemote("ssh://git@host/x.git"), "ssh://git@host/x.git");
});

test("a burst checks HEAD and the tip once per millisecond, and the next millisecond sees a change", () => {
  const { main } = makeRepo();
  const g = facts();
  let stats = 0;
  const seam = {
    ...fs,
    statSync: (...a) => (stats++, fs.statSync(...a)),
    fstatSync: (...a) => (stats++, fs.fstatSync(...a)),
  };
  g.gitContext(main, { fs: seam });
  g.clock.t++;
  g.gitContext(main, { fs: seam }); // the keyed read (see gitContext): from here on the facts are validated
  stats = 0;
  const N = 3000;
  const PER_MS = 10; // calls in each millisecond of the clock
  const start = g.clock.t + 1;
  for (let i = 0; i < N; i++) {
    g.clock.t = start + Math.floor(i / PER_MS);
    assert.equal(g.gitContext(main, { fs: seam }).branch, "main");
  }
  const ticks = N / PER_MS;
  // At most the watched files (HEAD, the ref, packed-refs) once per tick, plus opening the held descriptors and
  // a config check: without the per-millisecond check this is at least 2 * N.
  assert.ok(stats >= ticks, `every millisecond validated (${stats} stats over ${ticks} ms)`);
  assert.ok(stats <= 3 * (ticks + 1) + 4, `${stats} stats for ${N} calls over ${ticks} ms`);
  // git itself takes longer than a millisecond; a write by hand does not. Within the millisecond the answer of
  // its check stands; once the clock has moved on, the change is seen.
  fs.writeFileSync(path.join(main, ".git", "HEAD"), "ref: refs/heads/feature\n");
  assert.equal(g.gitContext(main, { fs: seam }).branch, "main");
  g.clock.t++;
  assert.equal(g.gitContext(main, { fs: seam }).branch, "feature");
  assert.equal(g.gitContext(main, { fs: seam }).head, git(main, "rev-parse", "feature"));
});

test("HEAD moving to another branch while the facts are read is never served stale", () => {
  const { main } = makeRepo();
  clearGitCache();
  let once = true;
  const seam = {
    ...fs,
    readFileSync: (p, ...rest) => {
      const text = fs.readFileSync(p, ...rest);
      if (once && p === path.join(main, ".git", "HEAD")) {
        once = false; // right after the first read of HEAD: switch branch and commit there
        git(main, "checkout", "-q", "-b", "moved");
        git(main, "commit", "-q", "--allow-empty", "-m", "on moved");
      }
      return text;
    },
  };
  gitContext(main, { fs: seam });
  git(main, "commit", "-q", "--allow-empty", "-m", "again on moved");
  const now = gitContext(main, { fs: seam });
  assert.equal(now.branch, "moved");
  assert.equal(now.head, git(main, "rev-parse", "HEAD"));
});
