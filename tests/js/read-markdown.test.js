// Markdown of entries (plugin/read/markdown.js): the title, the heading lines, how each kind of value is shown,
// and golden files of `record md` and `record show` over the fixture file.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { entriesMarkdown, entryMarkdown } from "../../plugin/read/markdown.js";
import { ENTRIES, golden, run } from "./read-helpers.js";

const line = (members) => JSON.stringify(members);

test("the title: a label from category, kind or trigger, a text from title, summary, finding, lesson, note or raw", () => {
  const title = (text) => entryMarkdown(text).split("\n")[0];
  assert.equal(title(line({ kind: "lesson", lesson: "keep  it\n short" })), "## lesson — keep it short");
  assert.equal(title(line({ trigger: "tool-error", category: "bug", summary: "s", title: "t" })), "## bug — t");
  assert.equal(title(line({ note: "only a note" })), "## only a note");
  assert.equal(title(line({ kind: "  ", n: 1 })), "## (no text)");
  assert.equal(title("{}"), "## (no text)");
  const long = title(line({ category: "c".repeat(50), note: "word ".repeat(30) }));
  // Cut at 40 and 72 characters, whitespace first folded to one space.
  assert.equal(long, `## ${"c".repeat(39)}… — ${"word ".repeat(14)}w…`);
  assert.equal(entryMarkdown(line({ note: "x" }), { heading: "###" }).split("\n")[0], "### x");
});

test("heading lines: when, where and how, from the stamps; the stamps stay out of the body", () => {
  const text = line({
    ts: "2026-11-29T10:00:00.000Z", eid: "abcdefghijklm", note: "n", capture: "cli", trigger: "t", session: "s1",
    model: "m", agent: "build", client: "x", repo: "r", branch: "b", head: "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
    pwd: "/p", git_dir: "/p/.git", origin: "o",
  });
  assert.equal(
    entryMarkdown(text),
    [
      "## t — n",
      "",
      "- **When:** 2026-11-29T10:00:00.000Z · eid `abcdefghijklm`",
      "- **Where:** repo `r`, branch `b`, head `4b825dc642cb`, in `/p`",
      "- **How:** capture `cli`, trigger `t`, session `s1`, model `m`, agent `build`, client `x`",
      "- **Note:** n",
      "",
    ].join("\n"),
  );
  assert.equal(entryMarkdown(line({ note: "n" })).split("\n")[2], "- **When:** time unknown");
});

test("values: strings as text, multi-line strings quoted, other JSON exactly as written, long JSON fenced", () => {
  const big = `{"k":"${"v".repeat(90)}"}`;
  const text = `{"sentiment":{"a" : [1,2]},"note":"has \`ticks\`","n":1.50,"empty":"","my_key":"two\\nlines","big":${big},"category":"c"}`;
  JSON.parse(text); // a line the reader would accept
  assert.equal(
    entryMarkdown(text),
    [
      "## c — has `ticks`",
      "",
      "- **When:** time unknown",
      "- **Category:** c",
      "- **Note:** has `ticks`",
      '- **Sentiment:** `{"a" : [1,2]}`',
      "- **N:** `1.50`",
      '- **Empty:** `""`',
      "",
      "**My key:**",
      "",
      "> two",
      "> lines",
      "",
      "**Big:**",
      "",
      "```json",
      big,
      "```",
      "",
    ].join("\n"),
  );
  // A code span longer than any run of backticks inside it, padded when it starts or ends with one.
  assert.match(entryMarkdown(line({ n: 1, v: ["`a``"] })), /- \*\*V:\*\* ```\["`a``"\]```\n/);
  assert.match(entryMarkdown(line({ repo: "`r`" })), /- \*\*Where:\*\* repo `` `r` ``\n/);
});

test("raw is shown only when nothing else was read; redaction is said once, with its rules", () => {
  assert.match(entryMarkdown(line({ raw: "only raw" })), /- \*\*Raw:\*\* only raw\n$/);
  assert.doesNotMatch(entryMarkdown(line({ raw: "kept", note: "x" })), /Raw/);
  const red = entryMarkdown(line({ note: "x", redacted: { n: 1 }, redaction_rules: "r7" }));
  assert.match(red, /\n\n_Secrets were redacted \(rules `r7`\)\._\n$/);
  assert.doesNotMatch(red, /Redacted:/);
  assert.match(entryMarkdown(line({ note: "x", redacted: true })), /rules `\?`/);
});

test("several entries under one title", () => {
  const a = line({ note: "a" });
  assert.equal(entriesMarkdown([]), "# 0 recordings\n");
  assert.equal(entriesMarkdown([a]), `# 1 recording\n\n${entryMarkdown(a)}`);
  assert.equal(entriesMarkdown([a, { text: "{}" }], { title: "T" }), `# T\n\n${entryMarkdown(a)}\n${entryMarkdown("{}")}`);
});

test("golden Markdown: record md of the fixture file", async () => {
  const r = await run("md", ["--file", ENTRIES]);
  assert.equal(r.code, 0);
  golden("entries.md", r.stdout);
  // A sentiment written as JSON appears exactly as written (1.0 stays 1.0, the spacing stays).
  assert.match(r.stdout, /\*\*Sentiment:\*\* `\{"felt":\["guilt","relief"\],"intensity":1\.0\}`/);
  assert.match(r.stdout, /\*\*Sentiment:\*\* `\{"fixed": true\}`/);
});

test("golden Markdown: record show EID (by prefix), and a filtered md range", async () => {
  const file = ENTRIES;
  const one = await run("show", ["--file", file, "1a2b3c"]);
  assert.equal(one.code, 0);
  golden("show-1a2b3c4d5e6f7.md", one.stdout);
  const range = await run("md", ["--file", file, "--session", "ses_02", "--title", "Session ses_02"]);
  golden("md-session-ses_02.md", range.stdout);
  const missing = await run("show", ["--file", file, "zzzzzzzz"]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /no entry with eid zzzzzzzz/);
  const raw = await run("show", ["--json", "--file", file, "5val0array0js"]);
  assert.equal(raw.stdout, fs.readFileSync(file, "utf8").split("\n")[5] + "\n");
});
