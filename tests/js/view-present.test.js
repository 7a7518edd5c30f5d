// read/present.js's one-line helpers take a prefix of a long text; they must give exactly what collapsing the
// whole text gives (recall's lines, Markdown's headings and the view all print them).
import assert from "node:assert/strict";
import { test } from "node:test";
import { xorshift32 } from "./helpers.js";
import { firstLine, oneLine } from "../../plugin/read/present.js";

const wholeOneLine = (s, max) => {
  const t = s.replace(/\s+/g, " ").trim();
  return t.length > max ? t.slice(0, max - 1).trimEnd() + "…" : t;
};
const wholeFirstLine = (s, max) => {
  const t = s.split("\n").map((l) => l.trim()).find(Boolean) ?? "";
  return t.length > max ? t.slice(0, max - 1).trimEnd() + "…" : t;
};

test("oneLine and firstLine equal their whole-text definitions on random texts", () => {
  const random = xorshift32(26);
  const next = () => Math.floor(random() * 4294967296);
  const pieces = ["a", "bc", " ", "   ", "\n", "\t", "\r\n", "\u00a0", "\u2028", "\n\n  \n", "é", "😀", "x".repeat(50), " ".repeat(90)];
  let checked = 0;
  for (let i = 0; i < 5000; i++) {
    let s = "";
    for (let n = next() % 120; n > 0; n--) s += pieces[next() % pieces.length];
    for (const max of [1, 2, 40, 72, 160]) {
      assert.equal(oneLine(s, max), wholeOneLine(s, max), JSON.stringify([s, max]));
      assert.equal(firstLine(s, max), wholeFirstLine(s, max), JSON.stringify([s, max]));
      checked++;
    }
  }
  assert.equal(checked, 25000);
});
