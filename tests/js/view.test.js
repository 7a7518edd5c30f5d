// `record view` without a browser: the page for the fixture history holds exactly its entries, counts and
// episodes; every recorded string sits inert inside the JSON element; the size cap cuts where it says.
import assert from "node:assert/strict";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { isolatedEnv, runCli, tmpdir } from "./helpers.js";
import { FP, FP2, HOSTILE, NOW, eid, fixtureEntries, makePage, writeFixture } from "./view-fixture.js";
import { entryMarkdown } from "../../plugin/read/index.js";
import { titleOf } from "../../plugin/read/present.js";
import { LINE_CHARS } from "../../plugin/view/data.js";
import { FIELD_CHARS, membersOfEmbedded } from "../../plugin/view/entry-view.js";
import { loadAssets, pageHtml } from "../../plugin/view/page.js";

const pkg = JSON.parse(fs.readFileSync(new URL("../../package.json", import.meta.url), "utf8"));

function fixturePage(extra = []) {
  const dir = tmpdir("view-");
  const file = writeFixture(dir);
  return makePage(["--file", file, ...extra], { out: path.join(dir, "v.html") }).then((r) => ({ ...r, dir, file }));
}

test("the page holds the window's entries in day, repository, session order, with the header's counts", async () => {
  const { code, stdout, data, file, dir } = await fixturePage();
  assert.equal(code, 0);
  assert.equal(stdout, `${path.join(dir, "v.html")}\nfile://${path.join(dir, "v.html")}\n`);
  const m = data.meta;
  assert.equal(m.generated, new Date(NOW).toISOString());
  assert.equal(m.version, pkg.version);
  assert.deepEqual([m.total, m.shown, m.left_out, m.quarantined, m.damaged], [13, 13, 0, 2, 1]);
  assert.equal(m.file, file);
  assert.deepEqual(m.segments, [file]);
  assert.equal(m.window.from, new Date(NOW - 30 * 86_400_000).toISOString());
  // eid 1 is 40 days old: outside the default window. Newest day first; within 2026-11-28 gadgets before widgets.
  const order = [13, 14, 12, 10, 11, 8, 9, 2, 3, 4, 5, 6, 7].map(eid);
  assert.deepEqual(data.entries.map((e) => e.eid), order);
  assert.deepEqual(data.entries.map((e) => e.day).filter((d, i, a) => d !== a[i - 1]), ["2026-11-30", "2026-11-29", "2026-11-28", "2026-11-27"]);
  assert.deepEqual(data.quarantine.map((q) => q.eid), [eid(21), eid(20)]);
  assert.equal(data.quarantine[1].reason, "oversized");
});

test("titles, labels and gists come from read/present.js: the page's title is record show's heading", async () => {
  const { data, file } = await fixturePage();
  const lines = fs.readFileSync(file, "utf8").split("\n").filter((l) => l.startsWith("{") && l.endsWith("}"));
  const byEid = new Map(lines.map((l) => [JSON.parse(l).eid, l]));
  for (const e of data.entries) {
    const heading = entryMarkdown(byEid.get(e.eid)).split("\n", 1)[0];
    assert.equal(heading, `## ${e.title}`);
    assert.equal(e.line, byEid.get(e.eid).length > LINE_CHARS ? byEid.get(e.eid).slice(0, LINE_CHARS) : byEid.get(e.eid));
  }
  const lie = data.entries.find((e) => e.eid === eid(2));
  assert.equal(lie.title, "tool lied — npm test printed ok but ran 0 suites");
  assert.equal(lie.title, titleOf(fixtureEntries()[1]));
  assert.equal(lie.label, "tool lied");
  assert.equal(lie.kind, "tool lied");
  assert.deepEqual(membersOfEmbedded(lie).map((x) => x[0]), ["category", "finding", "sentiment"]);
  assert.deepEqual(membersOfEmbedded(lie)[2], ["sentiment", '{"irritation":0.7}', 1, 18, 0]);
  // A line kept whole is embedded with its facet columns but no title: the page presents it with the same code.
  assert.deepEqual(Object.keys(data.embedded.find((e) => e.eid === eid(8))), ["n", "eid", "ts", "day", "repo", "session", "capture", "model", "agent", "line", "line_bytes", "corrects"]);
  const gate = data.entries.find((e) => e.eid === eid(3));
  assert.equal(gate.gist, "cargo test (exit 101): error[E0308]: mismatched types");
  assert.equal(gate.label, "gate.failed");
  assert.match(gate.stamps, /^2026-11-27T12:05:00.000Z · widgets · branch main · head 4b825dc642cb · \/home\/u\/src\/widgets · capture auto · trigger gate.failed · session ses_a/);
  // A number stays as written (2.50, 1.0), not as JSON.parse would print it.
  assert.deepEqual(membersOfEmbedded(data.entries.find((e) => e.eid === eid(14))).find((x) => x[0] === "numbers"), ["numbers", "[1.0, 2.50]", 1, 11, 0]);
});

test("failures fold into episodes by fingerprint: count, runs, heads, the green gate, the lesson, the regression", async () => {
  const { data } = await fixturePage();
  const eps = data.episodes;
  assert.equal(eps.length, 3);
  const [first, again, tool] = eps;
  assert.equal(first.fp, FP);
  assert.deepEqual(first.eids, [eid(3), eid(4), eid(5)]);
  assert.equal(first.count, 3);
  // Folded by read/episodes.js: heads are the git heads of its runs; the page adds the repo's name and the line
  // that says what failed.
  assert.deepEqual(first.heads, ["4b825dc642cb6eb9a060e54bf8d69288fbee4904"]);
  assert.deepEqual([first.repo, first.where, first.head], ["widgets", "/home/u/src/widgets/.git", "error[E0308]: mismatched types"]);
  assert.equal(first.id, `${FP}:${eid(3)}`);
  assert.deepEqual(first.resolved, { eid: eid(6), ts: new Date(NOW - (60 * 24 * 3 - 20) * 60_000).toISOString(), minutes: 15 });
  assert.deepEqual(first.lessons, [eid(7)]);
  assert.equal(first.regressed, false);
  assert.equal(again.fp, FP);
  assert.deepEqual([again.count, again.regressed, again.resolved], [1, true, null]);
  assert.deepEqual([tool.fp, tool.command, tool.repo, tool.count], [FP2, "bash", "gadgets", 1]);
  // Runs, the green gate and the lesson all point at their episode.
  for (const [i, ep] of [[3, first], [4, first], [6, first], [7, first], [9, again], [10, tool]]) assert.equal(data.entries.find((e) => e.eid === eid(i)).episode, ep.id);
  const rows = Object.fromEntries(data.charts.repos.map((r) => [r.repo, r]));
  assert.deepEqual(rows.widgets, { repo: "widgets", episodes: 2, failures: 4, resolved: 1, regressed: 1, median_minutes: 15 });
  assert.deepEqual(data.charts.fingerprints.map((f) => [f.fp, f.failures, f.episodes]), [[FP, 4, 2], [FP2, 1, 1]]);
});

test("charts count every entry of the window by day; a correction shows beside what it corrects", async () => {
  const { data } = await fixturePage();
  const c = data.charts;
  assert.equal(c.days.length, 31);
  const total = (name, list) => list.find((s) => s.name === name).values.reduce((a, b) => a + b, 0);
  assert.deepEqual(["auto", "agent", "cli", "mcp"].map((n) => total(n, c.captures)), [7, 4, 1, 1]);
  assert.equal(total("gate.failed", c.triggers), 4);
  assert.equal(c.felt.reduce((a, b) => a + b, 0), 3);
  assert.deepEqual(c.sentiment.map((s) => s.name).sort(), ["irritation", "relief"]);
  assert.deepEqual(c.sentiment_words.map((s) => [s.name, s.values.reduce((a, b) => a + b, 0)]), [["calm", 1]]);
  const byEid = new Map(data.entries.map((e) => [e.eid, e]));
  assert.deepEqual(byEid.get(eid(8)).corrects, [eid(2)]);
  assert.deepEqual(byEid.get(eid(2)).corrected_by, [eid(8)]);
  // The green gate names its first failure's eid: a fact, not a correction.
  assert.equal(byEid.get(eid(3)).corrected_by, undefined);
  assert.equal(byEid.get(eid(6)).corrects, undefined);
});

test("hostile text stays inside the JSON element: no '<', U+2028 or U+2029 there, and it reads back exactly", async () => {
  const { html, data } = await fixturePage();
  const block = /<script type="application\/json" id="data">([^]*?)<\/script>/.exec(html)[1];
  assert.equal(/[<\u2028\u2029]/.test(block), false);
  // Every '<' of the page is the template's own: the data adds none.
  const assets = loadAssets();
  assert.equal(html.split("<").length, pageHtml(assets, "").split("<").length);
  assert.equal(html.split("<script").length - 1, 2);
  const hostile = data.entries.find((e) => e.eid === eid(12));
  const value = (k) => membersOfEmbedded(hostile).find((x) => x[0] === k)[1];
  assert.equal(hostile.title, titleOf({ kind: "hostile", finding: HOSTILE.script }));
  assert.equal(value("finding"), HOSTILE.script);
  assert.equal(value("note"), HOSTILE.img);
  assert.equal(value("url"), HOSTILE.link);
  assert.equal(value("text"), HOSTILE.separators);
  assert.equal(value("odd"), HOSTILE.lone);
  assert.equal(value("c"), HOSTILE.comment);
});

test("the page allows only its own script and style, by hash, and nothing from anywhere", async () => {
  const { html } = await fixturePage();
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)[1];
  const script = /<script>([^]*?)<\/script>\n<\/body>/.exec(html)[1];
  const style = /<style>([^]*?)<\/style>/.exec(html)[1];
  const hash = (s) => `'sha256-${crypto.createHash("sha256").update(s).digest("base64")}'`;
  const dirs = Object.fromEntries(csp.split("; ").map((d) => [d.split(" ")[0], d.split(" ").slice(1).join(" ")]));
  assert.equal(dirs["default-src"], "'none'");
  assert.equal(dirs["script-src"], hash(script));
  assert.equal(dirs["style-src"], hash(style));
  for (const d of ["img-src", "font-src", "connect-src", "base-uri", "form-action", "object-src"]) assert.equal(dirs[d], "'none'", d);
  assert.equal(/unsafe-|https?:|data:|blob:/.test(csp), false);
  // No URL the browser would fetch anywhere in the page's markup.
  assert.equal(/\b(?:src|href)\s*=/.test(pageHtml({ script: "", style: "" }, "")), false);
  assert.ok(html.indexOf("Content-Security-Policy") < html.indexOf("<style>"));
});

test("a 1 MiB member and its line are embedded cut, with their full sizes", async () => {
  const { data, html } = await fixturePage();
  const huge = data.entries.find((e) => e.eid === eid(13));
  const blob = huge.members.find((x) => x[0] === "blob");
  assert.deepEqual([blob[1].length, blob[2], blob[3], blob[4]], [FIELD_CHARS, 0, 1024 * 1024, 1]);
  assert.equal(huge.line.length, LINE_CHARS);
  assert.equal(huge.line_cut, 1);
  assert.ok(huge.line_bytes > 1024 * 1024);
  assert.ok(html.length < 400 * 1024, `page is ${html.length} bytes`);
});

test("the size cap keeps the newest entries that fit and the page says how many older ones it left off", async () => {
  const dir = tmpdir("view-cap-");
  const many = Array.from({ length: 600 }, (_, i) => ({
    ts: new Date(NOW - (600 - i) * 60_000).toISOString(),
    eid: `1${String(i).padStart(12, "0")}`,
    note: `entry ${i} `.repeat(60),
    repo: "big",
    capture: "cli",
  }));
  const file = writeFixture(dir, many);
  const cap = 256 * 1024;
  const out = path.join(dir, "v.html");
  const r = await makePage(["--file", file, "--max-bytes", "256K", "--json"], { out });
  assert.equal(r.code, 0);
  const bytes = fs.statSync(out).size;
  assert.ok(bytes <= cap, `${bytes} > ${cap}`);
  // ...and it cuts within about one entry of the cap, not far below it.
  assert.ok(bytes > cap - 4096, `${bytes} is far below ${cap}`);
  const m = r.data.meta;
  assert.equal(m.total, 600);
  assert.ok(m.shown > 50 && m.shown < 600, `shown ${m.shown}`);
  assert.equal(m.shown + m.left_out, 600);
  assert.equal(m.max_bytes, cap);
  // Exactly the newest `shown` entries are on the page; the newest one left off is where it cut.
  assert.deepEqual(r.data.entries.map((e) => e.eid).sort(), many.slice(600 - m.shown).map((e) => e.eid).sort());
  assert.equal(m.left_out_until, many[599 - m.shown].ts);
  assert.deepEqual(JSON.parse(r.stdout), { file: out, url: `file://${out}`, shown: m.shown, total: 600, left_out: m.left_out, quarantined: 2, bytes });
  // With room for all, nothing is left off.
  const all = await makePage(["--file", file, "--max-bytes", "5M"], { out });
  assert.deepEqual([all.data.meta.shown, all.data.meta.left_out], [600, 0]);
});

test("--repo, --session and --since choose the entries; bad options are usage errors", async () => {
  const dir = tmpdir("view-opt-");
  const file = writeFixture(dir);
  const out = path.join(dir, "v.html");
  const widgets = await makePage(["--file", file, "--repo", "widgets"], { out });
  assert.deepEqual(widgets.data.entries.map((e) => e.repo).filter((x, i, a) => a.indexOf(x) === i), ["widgets"]);
  assert.equal(widgets.data.meta.total, 8);
  const ses = await makePage(["--file", file, "--session", "ses_d", "--session", "ses_c"], { out });
  assert.deepEqual(ses.data.entries.map((e) => e.eid).sort(), [10, 11, 12, 13, 14].map(eid));
  const all = await makePage(["--file", file, "--since", "all"], { out });
  assert.equal(all.data.meta.total, 14);
  const day = await makePage(["--file", file, "--since", "2026-11-29"], { out });
  assert.deepEqual(day.data.entries.map((e) => e.eid).sort(), [12, 13, 14].map(eid));
  for (const bad of [["--since", "soon"], ["--all", "--repo", "x"], ["--max-bytes", "lots"], ["--max-bytes", "1K"], ["extra"]]) {
    const r = await makePage(["--file", file, ...bad], { out: path.join(dir, "never.html") });
    assert.equal(r.code, 2, bad.join(" "));
    assert.match(r.stderr, /^record view: .*See record view --help\.\n$/);
    assert.equal(fs.existsSync(path.join(dir, "never.html")), false);
  }
});

test("without -o the page goes beside the recordings file, readable by its owner only", async () => {
  const dir = tmpdir("view-def-");
  const file = writeFixture(dir);
  const r = await makePage(["--file", file]);
  assert.equal(r.code, 0);
  const out = path.join(dir, "r.view.html");
  assert.equal(r.stdout.split("\n")[0], out);
  assert.equal(fs.statSync(out).mode & 0o777, 0o600);
  // Nothing recorded yet: the page (empty) still goes where the recordings will be.
  const none = await makePage(["--file", path.join(dir, "new", "r.jsonl")]);
  assert.equal(none.code, 0, none.stderr);
  assert.equal(none.stdout.split("\n")[0], path.join(dir, "new", "r.view.html"));
  assert.match(none.stderr, /^record view: 0 of 0 entries of every repository; 0 quarantined\n$/);
});

test("by default the page shows the working directory's repository; quarantined lines without stamps count", async () => {
  const dir = tmpdir("view-repo-");
  const repo = path.join(dir, "widgets");
  fs.mkdirSync(repo);
  const git = spawnSync("git", ["init", "-q", repo]);
  assert.equal(git.status, 0, String(git.stderr));
  const gitDir = fs.realpathSync(path.join(repo, ".git"));
  const entries = fixtureEntries().map((e) => (e.repo === "widgets" ? { ...e, git_dir: gitDir } : e));
  const file = writeFixture(dir, entries);
  const out = path.join(dir, "v.html");
  const here = await makePage(["--file", file], { out, cwd: repo });
  assert.equal(here.code, 0);
  assert.equal(here.data.meta.filter.git_dir, gitDir);
  assert.deepEqual([...new Set(here.data.entries.map((e) => e.repo))], ["widgets"]);
  assert.equal(here.data.meta.total, 8);
  assert.equal(here.data.meta.quarantined, 2);
  assert.match(here.stderr, new RegExp(`^record view: 8 of 8 entries of the repository at ${gitDir} \\(--all for every one\\); 2 quarantined\\n$`));
  const all = await makePage(["--file", file, "--all"], { out, cwd: repo });
  assert.equal(all.data.meta.total, 13);
});

test("`record view` is a subcommand of the record command, through its launcher", () => {
  const dir = tmpdir("view-cli-");
  const file = writeFixture(dir);
  const out = path.join(dir, "page.html");
  const r = runCli(["view", "--file", file, "-o", out, "--all", "--since", "all", "--json"], { env: isolatedEnv(dir), cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.json, { file: out, url: `file://${out}`, shown: 14, total: 14, left_out: 0, quarantined: 2, bytes: fs.statSync(out).size });
  const help = runCli(["view", "--help"], { env: isolatedEnv(dir), cwd: dir });
  assert.match(help.stdout, /^record view - the recordings as one offline HTML page/);
  assert.match(runCli(["--help"], { env: isolatedEnv(dir), cwd: dir }).stdout, /\n {2}view {7}the recordings as one offline HTML page/);
  // --open with no opener on PATH: the page is still written, and the URL is given to open by hand.
  const open = runCli(["view", "--file", file, "-o", out, "--open"], { env: isolatedEnv(dir, { PATH: dir }), cwd: dir });
  assert.equal(open.code, 0);
  assert.ok(open.stderr.endsWith(`record view: could not start a browser (xdg-open: ENOENT); open file://${out}\n`), open.stderr);
});
