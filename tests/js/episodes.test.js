// Failure episodes folded at read time (plugin/read/episodes.js), over lines the real core writes: repeated runs of
// one failure, a sibling failure under the same command, red-green-red, lines written before `fp` existed, runs
// without a session, and the lessons that name a failure.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { episodeState, foldEpisodes } from "../../plugin/read/episodes.js";
import { listSessions } from "../../plugin/read/sessions.js";
import { runCli } from "./helpers.js";
import { record } from "../../plugin/recorder.js";
import { entries, gitRepo, lines, tmpdir } from "./helpers.js";

const T0 = Date.parse("2026-12-02T10:00:00Z");
const MIN = 60_000;

/** A history written through the real recorder: `steps` are [minute, entry, options] with capture "auto" unless said. */
function history(steps, at) {
  const d = at?.d ?? tmpdir("rec-episodes-");
  const project = at?.project ?? gitRepo(path.join(d, "p"), "https://example.com/acme/widget.git");
  const file = path.join(d, "rec.jsonl");
  const eids = [];
  for (const [minute, entry, opts = {}] of steps) {
    const st = record(JSON.stringify(entry), { file, capture: "auto", cwd: project, session: "s1", env: { HOME: d }, statusFile: false, now: () => T0 + minute * MIN, ...opts });
    assert.equal(st.status, "recorded", st.reason);
    eids.push(st.eid);
  }
  return { file, eids, project, d };
}

const red = (n, test = "one") => ({ trigger: "gate.failed", head: n % 2 ? "c0ffee1" : "c0ffee2", command: "cargo test", exit: 101, output_tail: `test a::${test} ... FAILED\nthread 'a::${test}' panicked at src/a.rs:${n}:5:\nin /tmp/run-${n}/x after 0.${n}s\n`, output_bytes: 99 });
const green = (fps, failures, firstEid) => ({ trigger: "gate.passed", command: "cargo test", resolves: fps, failures, first_eid: firstEid, minutes: 14 });

test("ten red runs of one test are one episode of ten", () => {
  const { file, eids } = history(Array.from({ length: 10 }, (_, i) => [i, red(i + 1)]));
  const { episodes, byEid } = foldEpisodes(entries(file));
  assert.equal(episodes.length, 1);
  const ep = episodes[0];
  assert.equal(ep.count, 10);
  assert.deepEqual(ep.eids, eids);
  assert.equal(ep.first_eid, eids[0]);
  assert.equal(ep.last_eid, eids[9]);
  assert.equal(ep.first_ts, "2026-12-02T10:00:00.000Z");
  assert.equal(ep.last_ts, "2026-12-02T10:09:00.000Z");
  assert.match(ep.first_output, /src\/a\.rs:1:5/);
  assert.match(ep.last_output, /src\/a\.rs:10:5/);
  assert.deepEqual(ep.failure, ["test a::one ... FAILED", "thread 'a::one' panicked at src/a.rs:1:5:"]);
  assert.equal(ep.command, "cargo test");
  assert.deepEqual(ep.heads, ["c0ffee1", "c0ffee2"], "the distinct heads, in order");
  assert.equal(episodeState(ep), "ongoing");
  assert.equal(byEid.get(eids[4]), ep);
  const [s] = listSessions({ file }).sessions;
  assert.deepEqual([s.session, s.entries, s.runs, s.episodes], ["s1", 10, 10, 1]);
});

test("record read --fold and record md show the runs as one item; --json keeps every line", () => {
  const { file, eids } = history([[0, red(1)], [1, red(2)], [2, { note: "between" }, { capture: "agent" }], [3, red(3)]]);
  const folded = runCli(["read", "--fold", "--file", file]);
  assert.equal(folded.code, 0, folded.stderr);
  const out = folded.stdout.trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(out.length, 2, "one episode where the first run was, then the note");
  assert.deepEqual(out[0].episode.eids, [eids[0], eids[1], eids[3]]);
  assert.equal(out[1].note, "between");
  const json = runCli(["read", "--fold", "--json", "--file", file]).stdout.trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(json.filter((l) => l.entry).length, 4, "every line is still there");
  assert.deepEqual(json.filter((l) => l.entry).map((l) => l.episode ?? null), [out[0].episode.id, out[0].episode.id, null, out[0].episode.id]);
  assert.equal(json.at(-2).episode.count, 3);
  assert.ok(json.at(-1).cursor);
  const md = runCli(["md", "--file", file]).stdout;
  assert.match(md, /^# 4 recordings/);
  assert.equal((md.match(/^## gate\.failed ×3 — cargo test \(ongoing\)$/gm) ?? []).length, 1, md);
  assert.doesNotMatch(md, /^## gate\.failed — /m);
  const every = runCli(["md", "--no-fold", "--file", file]).stdout;
  assert.equal((every.match(/^## gate\.failed/gm) ?? []).length, 3);
});

test("a second failing test under the same command is a sibling episode", () => {
  const { file } = history([[0, red(1)], [1, red(1, "two")], [2, red(2)]]);
  const { episodes } = foldEpisodes(entries(file));
  assert.deepEqual(episodes.map((e) => e.count), [2, 1]);
  assert.notEqual(episodes[0].fp, episodes[1].fp);
});

test("red, green, red: resolved, then regressed; the lesson that names it is attached", () => {
  const first = history([[0, red(1)], [3, red(2)]]);
  const fp = entries(first.file)[0].fp;
  const rest = history([[14, green([fp], 2, first.eids[0])], [20, red(3)]], first);
  const all = { ...first, eids: [...first.eids, ...rest.eids] };
  const recs = entries(all.file);
  // The agent's lesson, as the nudge asks: recorded by the agent, naming the first failure.
  const lesson = record(JSON.stringify({ lesson: "the date parser needs UTC", resolves: all.eids[0] }), { file: all.file, capture: "agent", cwd: all.project, session: "s1", env: {}, statusFile: false });
  const { episodes } = foldEpisodes([...recs, ...entries(all.file).slice(-1)]);
  assert.equal(episodes.length, 2);
  const [a, b] = episodes;
  assert.equal(episodeState(a), "resolved");
  assert.deepEqual(a.resolved, { eid: all.eids[2], ts: "2026-12-02T10:14:00.000Z", minutes: 14 });
  assert.deepEqual(a.lessons, [lesson.eid]);
  assert.equal(b.fp, a.fp);
  assert.equal(b.count, 1);
  assert.equal(b.regressed, true);
  assert.equal(episodeState(b), "regressed");
});

test("lines written before fp existed fold with the new ones; another version's fp keeps its own group", () => {
  const { file } = history([[0, red(1)], [1, red(2)]]);
  const [raw0, raw1] = lines(file);
  const withFp = JSON.parse(raw1);
  // The same failure as the core stored it before it stamped fp: the members up to the fingerprint.
  const old = raw0.slice(0, raw0.indexOf(',"fp":')) + "}";
  const oldEntry = JSON.parse(old);
  assert.equal(oldEntry.fp, undefined);
  const folded = foldEpisodes([{ entry: oldEntry, text: old }, { entry: withFp, text: raw1 }]);
  assert.equal(folded.episodes.length, 1);
  assert.equal(folded.episodes[0].count, 2);
  // Without the text, the entry serialised gives the same fingerprint.
  assert.equal(foldEpisodes([oldEntry, withFp]).episodes.length, 1);
  const other = { ...withFp, eid: "other", fp: "g0_0000000000000001" };
  assert.deepEqual(foldEpisodes([oldEntry, other, withFp]).episodes.map((e) => e.count), [2, 1]);
});

test("runs without a session fold by repository while they come within the gap", () => {
  const { file } = history([[0, red(1)], [30, red(2)], [60 * 24, red(3)]].map(([m, e]) => [m, e, { session: undefined, env: { AI_RECORDINGS_SESSION: "" } }]));
  const recs = entries(file);
  assert.equal(recs[0].session, undefined);
  assert.deepEqual(foldEpisodes(recs).episodes.map((e) => e.count), [2, 1]);
  assert.deepEqual(foldEpisodes(recs, { gapMs: 2 * 24 * 3600e3 }).episodes.map((e) => e.count), [3]);
});

test("entries that are not automatic failures are never folded", () => {
  const manual = { trigger: "gate.failed", capture: "cli", command: "cargo test", output_tail: "FAILED" };
  assert.deepEqual(foldEpisodes([manual, { note: "hi" }, null, 42]).episodes, []);
});
