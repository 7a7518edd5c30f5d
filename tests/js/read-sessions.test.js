// Sessions (plugin/read/sessions.js): one summary per session, most recent first, from the fixture file and
// from a file made here; and `record sessions`.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { listSessions } from "../../plugin/read/sessions.js";
import { tmpdir } from "./helpers.js";
import { ENTRIES, run } from "./read-helpers.js";

test("listSessions over the fixture: counts, first and last time, repos, agents and models", () => {
  const r = listSessions({ file: ENTRIES });
  assert.deepEqual(r.damage, []);
  assert.deepEqual(
    r.sessions.map((s) => [s.session, s.entries, s.repos, s.agents, s.models]),
    [
      ["ses_03", 2, [], [], []],
      [null, 2, [], [], []],
      ["ses_02", 2, ["tools"], ["plan"], ["openai/gpt"]],
      ["ses_01", 2, ["shop"], ["build"], ["anthropic/claude-sonnet"]],
    ],
  );
  // Filters apply before grouping.
  assert.deepEqual(listSessions({ file: ENTRIES, filter: { capture: "cli" } }).sessions.map((s) => [s.session, s.entries]), [
    ["ses_03", 2],
    [null, 1],
    ["ses_02", 1],
    ["ses_01", 1],
  ]);
});

test("listSessions: a session's times come from its string ts only, non-string sessions group under null, no time sorts last", () => {
  const file = path.join(tmpdir(), "s.jsonl");
  const lines = [
    { session: "b", ts: "2026-11-02T00:00:00.000Z", repo: "r1", agent: "a", model: 3 },
    { session: "a", ts: "2026-11-03T00:00:00.000Z" },
    { session: "b", ts: "2026-11-01T00:00:00.000Z", repo: "r2" },
    { session: "b", ts: 5, repo: "r1" },
    { session: "c" },
    { session: 7, ts: "2026-10-01T00:00:00.000Z" },
  ];
  fs.writeFileSync(file, lines.map((l) => JSON.stringify(l) + "\n").join("") + "oops\n");
  const r = listSessions({ file });
  assert.deepEqual(r.sessions, [
    { session: "a", entries: 1, runs: 0, episodes: 0, first: "2026-11-03T00:00:00.000Z", last: "2026-11-03T00:00:00.000Z", repos: [], agents: [], models: [] },
    { session: "b", entries: 3, runs: 0, episodes: 0, first: "2026-11-01T00:00:00.000Z", last: "2026-11-02T00:00:00.000Z", repos: ["r1", "r2"], agents: ["a"], models: [] },
    { session: null, entries: 1, runs: 0, episodes: 0, first: "2026-10-01T00:00:00.000Z", last: "2026-10-01T00:00:00.000Z", repos: [], agents: [], models: [] },
    { session: "c", entries: 1, runs: 0, episodes: 0, first: null, last: null, repos: [], agents: [], models: [] },
  ]);
  assert.equal(r.damage.length, 1, "damage is reported, as by the reader");
  assert.equal(r.file, file);
});

test("record sessions: most recent first, with counts and first/last time", async () => {
  const file = ENTRIES;
  const r = await run("sessions", ["--json", "--file", file]);
  assert.equal(r.code, 0);
  const rows = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(
    rows.map((s) => [s.session, s.entries, s.first, s.last]),
    [
      ["ses_03", 2, "2026-11-22T09:00:00.000Z", "2026-11-22T09:10:00.000Z"],
      [null, 2, "2026-11-22T08:00:00.000Z", "2026-11-22T08:30:00.000Z"],
      ["ses_02", 2, "2026-11-21T14:02:00.500Z", "2026-11-21T14:05:12.250Z"],
      ["ses_01", 2, "2026-11-20T09:15:02.117Z", "2026-11-20T09:40:51.003Z"],
    ],
  );
  const text = await run("sessions", ["--file", file]);
  assert.match(text.stdout.split("\n")[1], /^ses_03\s+2\s+-\s+2026-11-22T09:00:00.000Z/);
});
