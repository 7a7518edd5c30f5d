// A small history for the view's tests (Node and browser): two repositories, agent lessons with sentiment,
// a gate that fails three times and goes green, then comes back; a correction; a subagent's long brief;
// hostile entries; quarantined lines and one damaged line. Written straight to disk, dated against NOW.
import * as fs from "node:fs";
import * as path from "node:path";

export const NOW = Date.parse("2026-11-30T12:00:00.000Z");
export const FP = "g1_00112233445566aa";
export const FP2 = "g1_99887766554433bb";

const at = (minutesAgo) => new Date(NOW - minutesAgo * 60_000).toISOString();
/** Eids as the core makes them: 13 characters of lower-case Crockford base32. */
export const eid = (n) => `0000000000${n.toString(32).padStart(3, "0")}`.replace(/[ilou]/g, "x");

const stamps = (repo, session, capture) => ({
  pwd: `/home/u/src/${repo}`,
  repo,
  git_dir: `/home/u/src/${repo}/.git`,
  origin: `git@example.com:u/${repo}.git`,
  head: "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
  branch: "main",
  session,
  model: "anthropic/claude",
  agent: "build",
  capture,
});

/** The hostile payloads the page must keep inert: each is a member value somewhere below. */
export const HOSTILE = {
  script: '</script><script>window.__pwned = "script"</script>',
  img: '<img src=x onerror="window.__pwned=\'img\'">',
  link: 'javascript:window.__pwned="link"',
  separators: "line\u2028separator\u2029paragraph",
  lone: "half a pair: \ud800 and \udfff",
  comment: "<!-- <script>window.__pwned='comment'</script> -->",
  svg: "<svg onload=\"window.__pwned='svg'\"></svg>",
  attr: '"><script>window.__pwned="attr"</script>',
};

/** The entries, in append order. */
export function fixtureEntries() {
  const a = (n, ago, repo, session, capture, body) => ({ ts: at(ago), eid: eid(n), ...body, ...stamps(repo, session, capture) });
  const list = [
    a(1, 60 * 24 * 40, "widgets", "ses_old", "agent", { lesson: "an entry outside the 30 day window" }),
    a(2, 60 * 24 * 3, "widgets", "ses_a", "agent", { category: "tool lied", finding: "npm test printed ok but ran 0 suites", sentiment: { irritation: 0.7 } }),
    a(3, 60 * 24 * 3 - 5, "widgets", "ses_a", "auto", { trigger: "gate.failed", command: "cargo test", exit: 101, output_tail: "running 3 tests\nerror[E0308]: mismatched types\ntest result: FAILED", output_bytes: 60, fp: FP }),
    a(4, 60 * 24 * 3 - 9, "widgets", "ses_a", "auto", { trigger: "gate.failed", command: "cargo test", exit: 101, output_tail: "thread 'main' panicked at src/lib.rs:3", output_bytes: 40, fp: FP }),
    a(5, 60 * 24 * 3 - 12, "widgets", "ses_a", "auto", { trigger: "gate.failed", command: "cargo test", exit: 101, output_tail: "error[E0308]: mismatched types", output_bytes: 30, fp: FP }),
    a(6, 60 * 24 * 3 - 20, "widgets", "ses_a", "auto", { trigger: "gate.passed", command: "cargo test", resolves: [FP], failures: 3, first_eid: eid(3), first_ts: at(60 * 24 * 3 - 5), minutes: 15 }),
    a(7, 60 * 24 * 3 - 25, "widgets", "ses_a", "agent", { lesson: `mismatched types in ${FP} came from a stale generated file`, resolves: [FP], sentiment: { relief: 0.9 } }),
    a(8, 60 * 24 * 2, "widgets", "ses_b", "cli", { note: `correction to ${eid(2)}: npm test did run, the reporter hid it` }),
    a(9, 60 * 24 * 2 - 30, "widgets", "ses_b", "auto", { trigger: "gate.failed", command: "cargo test", exit: 101, output_tail: "error[E0308]: mismatched types again", output_bytes: 36, fp: FP }),
    a(10, 60 * 24 * 2 - 31, "gadgets", "ses_c", "auto", { trigger: "tool.failed", tool: "bash", error: "permission denied: cannot open /etc/shadow", fp: FP2 }),
    a(11, 60 * 24 * 2 - 40, "gadgets", "ses_c", "auto", {
      trigger: "subagent.completed",
      description: "review the parser",
      subagent_type: "general",
      prompt: "Read the parser and list every place that can panic.\n".repeat(40),
      result: "Found two: the unwrap in lexer.rs:40 and the index in parse.rs:12.\n".repeat(20),
      child_session: "ses_child",
    }),
    a(12, 60 * 24, "gadgets", "ses_d", "agent", { kind: "hostile", finding: HOSTILE.script, note: HOSTILE.img, url: HOSTILE.link, text: HOSTILE.separators, odd: HOSTILE.lone, c: HOSTILE.comment }),
    a(13, 60 * 12, "gadgets", "ses_d", "agent", { kind: "huge", note: "a 1 MiB field follows", blob: "x".repeat(1024 * 1024) }),
    a(14, 60, "gadgets", "ses_d", "mcp", { finding: "the mcp server answered in 3 ms", sentiment: "calm", numbers: [1.0, 2.50] }),
  ];
  // Stamps are recorded text too: the facets and the stamps line show these.
  Object.assign(list[11], { model: HOSTILE.svg, agent: HOSTILE.attr });
  return list;
}

/** Writes the fixture under `dir`: r.jsonl (with one damaged line) and r.quarantine.jsonl. Returns the file. */
export function writeFixture(dir, entries = fixtureEntries()) {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "r.jsonl");
  // Numbers as an agent may write them (JSON.stringify would print 1 and 2.5).
  const lines = entries.map((e) => JSON.stringify(e).replace('"numbers":[1,2.5]', '"numbers":[1.0, 2.50]'));
  lines.splice(3, 0, '{"torn": "not json');
  fs.writeFileSync(file, lines.join("\n") + "\n");
  const q = [
    { ts: at(100), eid: eid(20), reason: "oversized", raw: "<b>bold</b> " + "y".repeat(3000) },
    { ts: at(90), eid: eid(21), reason: "not-utf8", raw_b64: "//79" },
  ];
  fs.writeFileSync(path.join(dir, "r.quarantine.jsonl"), q.map((x) => JSON.stringify(x)).join("\n") + "\n");
  return file;
}

/** Runs `record view` in process on NOW's clock; returns { code, stdout, stderr, html, data } (html and data
 *  of the page written to `out`, when there is one). */
export async function makePage(args, { out, cwd = "/", env = { HOME: "/nonexistent-home" } } = {}) {
  const { view } = await import("../../plugin/cli/view.js");
  const so = [];
  const se = [];
  const io = { stdout: { write: (s) => so.push(s) }, stderr: { write: (s) => se.push(s) }, env, cwd, now: () => NOW };
  const code = await view([...args, ...(out ? ["-o", out] : [])], io);
  const html = out && fs.existsSync(out) ? fs.readFileSync(out, "utf8") : null;
  return { code, stdout: so.join(""), stderr: se.join(""), html, data: html ? await pageData(html) : null };
}

/** The JSON a page embeds, parsed, with its entries presented as the page's script presents them; `embedded`
 *  is each entry as it was embedded. */
export async function pageData(html) {
  const { presented } = await import("../../plugin/view/entry-view.js");
  const m = /<script type="application\/json" id="data">([^]*?)<\/script>/.exec(html);
  if (!m) return null;
  const data = JSON.parse(m[1]);
  data.embedded = JSON.parse(m[1]).entries;
  data.entries.forEach(presented);
  return data;
}
