// The page's filtering without a browser: a query's terms, facets with their live counts, the URL hash.
import assert from "node:assert/strict";
import * as path from "node:path";
import { test } from "node:test";
import { tmpdir } from "./helpers.js";
import { makePage, writeFixture } from "./view-fixture.js";
import { applyState, hashToState, haystackOf, matchRanges, stateToHash } from "../../plugin/view/client/match.js";

async function fixtureData() {
  const dir = tmpdir("view-match-");
  return (await makePage(["--file", writeFixture(dir)], { out: path.join(dir, "v.html") })).data;
}

test("a facet's counts leave its own choice out and apply every other filter and the query", async () => {
  const { entries } = await fixtureData();
  const hay = entries.map(haystackOf);
  const all = applyState(entries, hay, "", {});
  assert.equal(all.shown.length, 13);
  assert.deepEqual(Object.fromEntries(all.counts.capture), { auto: 7, agent: 4, cli: 1, mcp: 1 });
  const auto = applyState(entries, hay, "", { capture: new Set(["auto"]) });
  assert.equal(auto.shown.length, 7);
  assert.deepEqual(Object.fromEntries(auto.counts.capture), { auto: 7, agent: 4, cli: 1, mcp: 1 });
  assert.deepEqual(Object.fromEntries(auto.counts.repo), { widgets: 5, gadgets: 2 });
  const both = applyState(entries, hay, "", { capture: new Set(["auto", "cli"]), repo: new Set(["widgets"]) });
  assert.deepEqual(both.shown.map((i) => entries[i].capture).sort(), ["auto", "auto", "auto", "auto", "auto", "cli"]);
  assert.deepEqual(Object.fromEntries(both.counts.repo), { widgets: 6, gadgets: 2 });
  // Every term must occur, in any member; case does not matter.
  const q = applyState(entries, hay, "MISMATCHED cargo", {});
  assert.deepEqual(q.shown.map((i) => entries[i].eid).length, 3);
  assert.deepEqual(Object.fromEntries(q.counts.sentiment), { no: 3 });
  assert.equal(applyState(entries, hay, "mismatched nowhere-at-all", {}).shown.length, 0);
  // Only the fields asked for are counted; what shows is the same.
  const some = applyState(entries, hay, "", { capture: new Set(["auto"]) }, ["repo"]);
  assert.deepEqual(some.shown, auto.shown);
  assert.deepEqual(Object.fromEntries(some.counts.repo), { widgets: 5, gadgets: 2 });
  assert.equal(some.counts.capture.size, 0);
});

test("match ranges merge overlaps; the hash carries query, facets, selection and theme both ways", () => {
  assert.deepEqual(matchRanges("Cargo cargo test", ["cargo", "go t"]), [[0, 5], [6, 13]]);
  assert.deepEqual(matchRanges("abc", []), []);
  const state = { query: "a b&c=#", selected: { repo: new Set(["x y", "z"]), capture: new Set(["auto"]) }, sel: "0000000000003", theme: "dark" };
  const hash = stateToHash(state);
  assert.equal(hash, "#q=a+b%26c%3D%23&repo=x+y&repo=z&capture=auto&sel=0000000000003&theme=dark");
  assert.deepEqual(hashToState(hash), state);
  assert.deepEqual(hashToState("#theme=evil"), { query: "", selected: {}, sel: "", theme: "" });
  assert.equal(stateToHash({ query: "", selected: {}, sel: "", theme: "" }), "");
});
