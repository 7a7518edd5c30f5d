// Team rows in the recall index without a database: the repository key two clones share, the ranking of a
// teammate's entry against this machine's, the stored position and its repositories, forgetting team rows, and
// the automatic pull a recall starts (through the spawn seam: started detached, at most once per interval).
import { test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { gitRepo, isolatedEnv, tmpdir } from "./helpers.js";
import { missingDriver } from "../../plugin/recall/driver.js";
import { record } from "../../plugin/recorder.js";
import { ALL_REPOS, addTeamRows, forgetTeam, pullPlan, repoKey, teamPosition, teamRows } from "../../plugin/recall/team.js";
import { AUTO_PULL_MS, readTeamState } from "../../plugin/recall/team-state.js";
import { BOOSTS } from "../../plugin/recall/rank.js";

const skip = missingDriver() ?? false;

test("the repository key: the same for every spelling of one origin, the name without one", () => {
  const widget = "example.com/acme/widget";
  for (const o of [
    "git@example.com:acme/widget.git",
    "git@example.com:Acme/Widget",
    "https://example.com/acme/widget.git",
    "https://example.com/acme/widget/",
    "ssh://git@example.com:22/acme/widget.git",
    "ssh://git@example.com/acme/widget",
    "git://example.com/acme/widget.git",
  ]) {
    assert.equal(repoKey(o, "whatever"), widget, o);
  }
  assert.notEqual(repoKey("git@example.com:acme/widget-two.git"), widget);
  assert.notEqual(repoKey("git@example.org:acme/widget.git"), widget);
  assert.equal(repoKey("/srv/git/widget.git"), "/srv/git/widget");
  assert.equal(repoKey(undefined, "widget"), "name:widget");
  assert.equal(repoKey("", "widget"), "name:widget");
  assert.equal(repoKey(null, null), null);
});

function world() {
  const dir = tmpdir("rec-team-ix-");
  const file = path.join(dir, "r.jsonl");
  const env = isolatedEnv(dir, { AI_RECORDINGS_FILE: file, AI_RECORDINGS_SYNC: "0", XDG_DATA_HOME: path.join(dir, "data") });
  const widget = gitRepo(path.join(dir, "widget"), "git@example.com:acme/widget.git");
  const other = gitRepo(path.join(dir, "other"), "git@example.com:acme/other.git");
  return { dir, file, env, widget, other };
}

let nextId = 1;
const teamRow = (o, extra = {}) => ({ id: String(nextId++), machine: "mate-1", host: "mate-laptop", repo: "widget", origin: "https://example.com/acme/widget", ...extra, line: JSON.stringify(o) });

async function open(w) {
  const { openIndex } = await import("../../plugin/recall/index.js");
  const ix = await openIndex({ file: w.file, env: w.env });
  ix.catchUp();
  return ix;
}

test("a teammate's entry ranks just below this machine's equal one, above another repository's", { skip }, async () => {
  const w = world();
  const lesson = "the quetzal integration tests need the broker started first";
  const mine = record(JSON.stringify({ kind: "lesson", lesson }), { env: w.env, cwd: w.widget, session: "s1" }).eid;
  const elsewhere = record(JSON.stringify({ kind: "lesson", lesson }), { env: w.env, cwd: w.other, session: "s2" }).eid;
  const ix = await open(w);
  const plan = pullPlan(ix.db, [repoKey("git@example.com:acme/widget.git")]);
  const got = addTeamRows(ix.db, [teamRow({ eid: "0000000000mat", kind: "lesson", lesson, capture: "agent", ts: new Date().toISOString() })], plan, nextId);
  assert.deepEqual(got, { added: 1, skipped: 0, stale: false });
  ix.close();
  const { createRecall } = await import("../../plugin/recall/service.js");
  const service = createRecall({ file: w.file, env: w.env });
  const all = await service.find("quetzal integration broker", { cwd: w.widget, scope: "all" });
  assert.deepEqual(all.hits.map((h) => h.eid), [mine, "0000000000mat", elsewhere]);
  assert.ok(all.hits[1].score < all.hits[0].score && all.hits[1].score > all.hits[0].score * 0.9);
  const repo = await service.find("quetzal integration broker", { cwd: w.widget });
  assert.deepEqual(repo.hits.map((h) => h.eid), [mine, "0000000000mat"], "scope repo: own and team rows of this repository");
  const there = await service.find("quetzal integration broker", { cwd: w.other });
  assert.deepEqual(there.hits.map((h) => h.eid), [elsewhere], "not the team row of another repository");
  await service.close();
});

test("in a hint a teammate's lesson counts as one's own, only ordered after it", { skip }, async () => {
  const w = world();
  // One rare word and the file both name: a hint's evidence at the bar's edge, where a lesser share would drop it.
  const lesson = "ENOENT for fixtures/quokka-golden.json in npm test after a fresh clone: npm run fixtures makes them";
  const failure = { command: "npm test", output: "Error: ENOENT: no such file or directory, open 'fixtures/quokka-golden.json'" };
  const mine = record(JSON.stringify({ kind: "lesson", lesson }), { env: w.env, cwd: w.widget, session: "s1" }).eid;
  const ix = await open(w);
  const plan = pullPlan(ix.db, [repoKey("git@example.com:acme/widget.git")]);
  addTeamRows(ix.db, [teamRow({ eid: "0000000000qka", kind: "lesson", lesson, capture: "agent", ts: new Date().toISOString() })], plan, nextId);
  ix.close();
  const { createRecall, repoOf } = await import("../../plugin/recall/service.js");
  const { search } = await import("../../plugin/recall/search.js");
  const { failureQuery } = await import("../../plugin/recall/query.js");
  const repo = repoOf(w.widget);
  const ix2 = await open(w);
  // Scored without the bar (a young index's IDFs are not an old one's): what matters is the share.
  const { hits } = search(ix2.db, failureQuery(failure), { mode: "hint", min: 0, gitDir: repo.gitDir, repoKey: repo.key });
  ix2.close();
  assert.deepEqual(hits.map((h) => h.eid), [mine, "0000000000qka"], "this machine's first");
  const share = hits[1].score / hits[0].score;
  assert.ok(share < 1 && share > BOOSTS.hintTeammate - 1e-6, `a hint's share ${share}`);
  const service = createRecall({ file: w.file, env: w.env });
  const recall = await service.find("ENOENT quokka golden fixtures", { cwd: w.widget });
  // (1e-6: the two were written a few milliseconds apart, and recency counts those too.)
  assert.ok(recall.hits[1].score < recall.hits[0].score * (BOOSTS.teammate + 1e-6), "a recall keeps the teammate's share");
  await service.close();
});

test("the position goes with the rows; an eid already there is skipped; a stale plan adds nothing", { skip }, async () => {
  const w = world();
  const own = record(JSON.stringify({ kind: "lesson", lesson: "own lesson about the kiwi" }), { env: w.env, cwd: w.widget }).eid;
  const ix = await open(w);
  const key = repoKey("git@example.com:acme/widget.git");
  const plan = pullPlan(ix.db, [key]);
  assert.deepEqual(plan, { from: 0, keys: [key] });
  const rows = [
    teamRow({ eid: own, lesson: "the same eid exported from a copy" }),
    teamRow({ lesson: "a teammate's kiwi lesson without an eid" }),
    teamRow({ lesson: "a lesson of another repository" }, { origin: "git@example.com:acme/other.git" }),
  ];
  const to = Number(rows[2].id) + 5;
  assert.deepEqual(addTeamRows(ix.db, rows, plan, to), { added: 1, skipped: 1, stale: false });
  assert.deepEqual(teamPosition(ix.db), { position: to, keys: [key] });
  assert.equal(teamRows(ix.db), 1);
  // The same batch again under the old plan: the position moved, so nothing is added.
  assert.deepEqual(addTeamRows(ix.db, rows, plan, to), { added: 0, skipped: 0, stale: true });
  // The next plan resumes from the stored position; a new repository starts from 0 again with both keys.
  assert.deepEqual(pullPlan(ix.db, [key]), { from: to, keys: [key] });
  const other = repoKey("git@example.com:acme/other.git");
  const wider = pullPlan(ix.db, [key, other]);
  assert.deepEqual(wider, { from: 0, keys: [key, other].sort() });
  assert.deepEqual(addTeamRows(ix.db, rows, wider, to), { added: 1, skipped: 2, stale: false }, "only the other repository's row is new");
  assert.deepEqual(pullPlan(ix.db, [ALL_REPOS]), { from: 0, keys: [ALL_REPOS] });
  assert.equal(forgetTeam(ix.db), 2);
  assert.equal(teamRows(ix.db), 0);
  assert.equal(teamPosition(ix.db), null);
  const left = ix.db.all("SELECT eid FROM entries").map((r) => r.eid);
  assert.deepEqual(left, [own]);
  // The FTS rows went with them: a word only the team rows had finds nothing now.
  assert.equal(ix.db.get("SELECT count(*) n FROM fts WHERE fts MATCH 'teammate'").n, 0);
  ix.close();
});

test("with team pulls on, a recall starts one detached record sync per interval and does not wait for it", { skip }, async () => {
  const w = world();
  record("lesson: the heron cache needs clearing", { env: w.env, cwd: w.widget });
  const started = [];
  const spawn = (cmd, args, opts) => {
    started.push({ cmd, args, opts });
    return { on() {}, unref() {} };
  };
  const { createRecall } = await import("../../plugin/recall/service.js");
  const off = createRecall({ file: w.file, env: w.env, spawn });
  await off.find("heron", { cwd: w.widget });
  assert.equal(started.length, 0, "off unless AI_RECORDINGS_TEAM=1 or team: true");
  await off.close();
  const service = createRecall({ file: w.file, env: w.env, spawn, team: true });
  const t0 = Date.parse("2026-12-02T10:00:00Z");
  const r = await service.find("heron", { cwd: w.widget, now: t0 });
  assert.equal(r.hits.length, 1, "the answer comes from the index as it is");
  assert.equal(started.length, 1);
  assert.equal(started[0].cmd, process.execPath);
  assert.deepEqual(started[0].args.slice(1), ["sync", "--auto", "--file", w.file]);
  assert.match(started[0].args[0], /plugin\/cli\/index\.js$/);
  assert.equal(started[0].opts.detached, true);
  assert.equal(started[0].opts.stdio, "ignore");
  assert.equal(started[0].opts.cwd, w.widget);
  await service.hint({ command: "npm test", output: "Error: heron cache stale" }, { cwd: w.widget, now: t0 + 30_000 });
  assert.equal(started.length, 1, "within the interval (an index without a position yet: within a minute), none more");
  await service.find("heron", { cwd: w.widget, now: t0 + AUTO_PULL_MS });
  assert.equal(started.length, 2);
  const { indexPath } = await import("../../plugin/paths.js");
  assert.equal(readTeamState(indexPath(w.file, { env: w.env })).lastAttempt, new Date(t0 + AUTO_PULL_MS).toISOString());
  await service.close();
});

test("a word first counted absent is found as soon as a new entry, own or pulled, holds it", { skip }, async () => {
  const w = world();
  record("lesson: the build needs the cache warmed", { env: w.env, cwd: w.widget });
  const { createRecall } = await import("../../plugin/recall/service.js");
  const service = createRecall({ file: w.file, env: w.env });
  assert.deepEqual((await service.find("pangolin", { cwd: w.widget })).hits, [], "counted absent (and the count kept)");
  const own = record("lesson: the pangolin fixture must be regenerated", { env: w.env, cwd: w.widget }).eid;
  assert.deepEqual((await service.find("pangolin", { cwd: w.widget })).hits.map((h) => h.eid), [own]);
  assert.deepEqual((await service.find("okapi", { cwd: w.widget })).hits, []);
  await service.close();
  const ix = await open(w);
  const key = repoKey("git@example.com:acme/widget.git");
  assert.equal(addTeamRows(ix.db, [teamRow({ eid: "0000000000oka", lesson: "the okapi service needs a token" })], pullPlan(ix.db, [key]), nextId).added, 1);
  ix.close();
  const again = createRecall({ file: w.file, env: w.env });
  assert.deepEqual((await again.find("okapi", { cwd: w.widget })).hits.map((h) => h.eid), ["0000000000oka"]);
  await again.close();
});
