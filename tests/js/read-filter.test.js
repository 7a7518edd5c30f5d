// The filters (plugin/read/filter.js): each filter alone and together over the fixture file through the reader,
// and the predicate, the time parser and kindsOf on their own.
import { test } from "node:test";
import assert from "node:assert/strict";
import { kindsOf, makeFilter, parseTime } from "../../plugin/read/filter.js";
import { ENTRIES, readAll } from "./read-helpers.js";

test("filters: session, repo, capture, kind (kind, trigger or category), since-time, eid", () => {
  const file = ENTRIES;
  const eids = (filter) => readAll(file, { filter }).records.map((r) => r.entry.eid.slice(0, 4));
  const table = [
    [{}, ["0f3k", "1a2b", "2hx8", "3trg", "4vq0", "5val", "6tic", "7emp"]],
    [{ session: "ses_02" }, ["2hx8", "3trg"]],
    [{ session: ["ses_01", "ses_03"] }, ["0f3k", "1a2b", "6tic", "7emp"]],
    [{ repo: "tools" }, ["2hx8", "3trg"]],
    [{ repo: "git@example.com:ana/shop.git" }, ["0f3k"]],
    [{ repo: "/home/ana/src/shop/.git" }, ["0f3k", "1a2b"]],
    [{ capture: "auto" }, ["3trg"]],
    [{ capture: ["mcp", "agent"] }, ["1a2b", "4vq0"]],
    [{ kind: "tool-error" }, ["3trg"]],
    [{ kind: "Bad Judgement" }, ["0f3k"]],
    // Duplicate keys: filters see the last one, as JSON.parse does (Markdown shows both).
    [{ kind: "Duplicate kind KEPT" }, ["6tic"]],
    [{ kind: "tool" }, []],
    [{ sinceTime: "2026-11-22T08:30:00Z" }, ["5val", "6tic", "7emp"]],
    [{ sinceTime: "2026-11-21", untilTime: "2026-11-22" }, ["2hx8", "3trg"]],
    [{ session: "ses_02", capture: "cli" }, ["2hx8"]],
    [{ eid: "4vq0" }, ["4vq0"]],
    [{ eid: "4vq" }, []],
  ];
  for (const [filter, want] of table) assert.deepEqual(eids(filter), want, JSON.stringify(filter));
  assert.equal(parseTime("2h", 10 * 3600e3), 8 * 3600e3);
  assert.ok(Number.isNaN(parseTime("yesterday-ish")));
});

test("no filter is no predicate; values may be one or a list, and lists match any of their values", () => {
  assert.equal(makeFilter(), null);
  assert.equal(makeFilter({ session: [] }), null);
  const one = makeFilter({ session: "a" });
  const list = makeFilter({ session: ["a", "b"] });
  assert.deepEqual([{ session: "a" }, { session: "b" }, { session: "c" }, {}].map(one), [true, false, false, false]);
  assert.deepEqual([{ session: "a" }, { session: "b" }, { session: "c" }, {}].map(list), [true, true, false, false]);
  // Values are compared as text, as they come from the command line.
  assert.equal(makeFilter({ capture: 1 })({ capture: "1" }), true);
});

test("kind matches kind, trigger or category in any case; kindsOf takes only strings", () => {
  assert.deepEqual(kindsOf({ kind: "a", trigger: "b", category: "c" }), ["a", "b", "c"]);
  assert.deepEqual(kindsOf({ kind: 1, trigger: null, category: ["x"] }), []);
  const f = makeFilter({ kind: ["TOOL-error", "lesson"] });
  assert.deepEqual([{ trigger: "tool-error" }, { category: "Lesson" }, { kind: "tool" }, {}].map(f), [true, true, false, false]);
});

test("eid matches exactly, or by a prefix of at least 4 characters", () => {
  const f = (eid) => makeFilter({ eid });
  assert.equal(f("abcd")({ eid: "abcdef0123456" }), true);
  assert.equal(f("abc")({ eid: "abcdef0123456" }), false);
  assert.equal(f("abc")({ eid: "abc" }), true);
  assert.equal(f("abcd")({ eid: 1234 }), false);
});

test("times: since is inclusive, until exclusive, ages count back from now, and an entry without a time never matches", () => {
  const now = Date.parse("2026-11-29T12:00:00.000Z");
  const f = makeFilter({ sinceTime: "2h", untilTime: Date.parse("2026-11-29T11:00:00.000Z") }, now);
  const at = (ts) => f({ ts });
  assert.equal(at("2026-11-29T10:00:00.000Z"), true);
  assert.equal(at("2026-11-29T09:59:59.999Z"), false);
  assert.equal(at("2026-11-29T11:00:00.000Z"), false);
  assert.equal(at("not a time"), false);
  assert.equal(f({ ts: 1764410400000 }), false);
  assert.equal(f({}), false);
  const table = [
    ["90s", now - 90e3],
    ["30m", now - 30 * 60e3],
    ["1.5h", now - 1.5 * 3600e3],
    ["7D", now - 7 * 86400e3],
    ["2 w", now - 2 * 604800e3],
    ["2026-11-29", Date.parse("2026-11-29")],
    [" 2026-11-29T08:00Z ", Date.parse("2026-11-29T08:00Z")],
  ];
  for (const [text, want] of table) assert.equal(parseTime(text, now), want, text);
  for (const bad of ["", "yesterday", "5y", "-2h"]) assert.ok(Number.isNaN(parseTime(bad, now)), bad);
});
