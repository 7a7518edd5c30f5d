// Redaction through the built wasm core (plugin/core.js `Core`), against the fixtures shared with the Rust suite
// (tests/fixtures/redaction/): recall and false positives, byte identity of what was not redacted, quarantine,
// stamps, idempotence, the off switch and user options across the boundary.
//
// The Rust suite (crate/tests/redaction.rs) calls the redactor directly on text; this one goes through the whole
// core, where text input may first be read as loose `key: value` members and then redacted as JSON. So the two can
// disagree, and this one is the figure that matters for what lands in the file.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Core, coreLoadError } from "../../plugin/core.js";
import { rawMembers } from "./helpers.js";
import { redactionFixtures } from "../fixtures/redaction/fixtures.js";

const NOW = Date.UTC(2026, 10, 29, 10, 0, 0);


const POSITIVES = redactionFixtures("positives.jsonl");
const NEGATIVES = redactionFixtures("negatives.jsonl");

/** A Core with no stamps that could themselves be redacted: only the input decides what is redacted. */
function core(options) {
  const c = new Core(options);
  c.setContext({ capture: "cli", stamps: {} });
  return c;
}

const MARKER = /\[REDACTED:[a-z0-9-]+\]/g; // with g: for split and match only (test/exec would keep lastIndex)
const A_MARKER = /\[REDACTED:[a-z0-9-]+\]/;
const OWN = new Set(["ts", "eid", "capture", "redacted", "redaction_rules"]);

/** Whether `secret` can be read anywhere in the line: verbatim, JSON-escaped, or in the decoded entry. */
function leaks(line, secret) {
  if (line.includes(secret) || line.includes(JSON.stringify(secret).slice(1, -1))) return true;
  return JSON.stringify(JSON.parse(line)).includes(JSON.stringify(secret).slice(1, -1));
}

/** Whether `red` equals `orig` with some spans replaced by markers: the text between markers appears in `orig` in
 *  order, the first piece as a prefix and the last as a suffix. */
function onlyMarkersChanged(orig, red) {
  const pieces = red.split(MARKER);
  if (pieces.length === 1) return orig === red;
  if (!orig.startsWith(pieces[0]) || !orig.endsWith(pieces.at(-1))) return false;
  let at = pieces[0].length;
  for (const p of pieces.slice(1, -1)) {
    const j = orig.indexOf(p, at);
    if (j < 0) return false;
    at = j + p.length;
  }
  return orig.length - pieces.at(-1).length >= at;
}

/** The supplied members of a line (own keys and the redaction summary dropped), as raw [key, value] pairs. */
function supplied(line) {
  return rawMembers(line).filter(([k]) => !OWN.has(k));
}

function rate(n, d) {
  return `${((100 * n) / d).toFixed(1)}% (${n}/${d})`;
}

test("the core loaded", () => {
  assert.equal(coreLoadError(), null);
});

test("fixtures: every secret is in its input", () => {
  assert.ok(POSITIVES.length > 300 && NEGATIVES.length > 150, "fixtures present");
  for (const p of POSITIVES) assert.ok(p.input.includes(p.secret), `secret not in input: ${p.input}`);
});

test("positives: recall >= 99%, the secret is gone and the redacted list names the rule", () => {
  const c = core();
  const misses = [];
  let caught = 0;
  for (const p of POSITIVES) {
    const out = c.record(p.input, NOW);
    const entry = JSON.parse(out.line);
    const named = (entry.redacted ?? []).some((h) => h.rule === p.rule);
    if (leaks(out.line, p.secret)) misses.push(`LEAK [${p.rule}] ${JSON.stringify(p.input)} -> ${out.line.trim()}`);
    else if (!named) misses.push(`UNNAMED [${p.rule}] ${JSON.stringify(entry.redacted)} ${JSON.stringify(p.input)}`);
    else caught++;
    // The list says what, where and how often: never the secret.
    for (const h of entry.redacted ?? []) {
      assert.deepEqual(Object.keys(h), ["path", "rule", "count"]);
      assert.ok(h.count >= 1);
    }
    if (entry.redacted) {
      assert.equal(typeof entry.redaction_rules, "string", "the rule-set version is written with the list");
      assert.equal(out.redactions, entry.redacted.reduce((n, h) => n + h.count, 0), "redactions equals the list's counts");
    }
  }
  const recall = caught / POSITIVES.length;
  if (misses.length) console.log(`recall ${rate(caught, POSITIVES.length)} through the core; misses:\n  ${misses.join("\n  ")}`);
  assert.ok(recall >= 0.99, `recall ${rate(caught, POSITIVES.length)} < 99%:\n${misses.join("\n")}`);
});

test("negatives: false positives <= 1%, and a clean entry is left as supplied", () => {
  const c = core();
  const fps = [];
  for (const n of NEGATIVES) {
    const out = c.record(n.input, NOW);
    const entry = JSON.parse(out.line);
    if (out.redactions > 0 || entry.redacted !== undefined || out.line.includes("[REDACTED:")) {
      fps.push(`FP (${n.why}) ${JSON.stringify(n.input)} -> ${JSON.stringify(entry.redacted)}`);
      continue;
    }
    assert.equal(entry.redaction_rules, undefined);
    if (n.mode === "json") {
      assert.deepEqual(supplied(out.line), rawMembers(n.input), `members changed: ${n.input}`);
    } else if ("raw" in entry) {
      assert.equal(entry.raw, n.input);
    }
  }
  const fpRate = fps.length / NEGATIVES.length;
  if (fps.length) console.log(`false positives ${rate(fps.length, NEGATIVES.length)} through the core:\n  ${fps.join("\n  ")}`);
  assert.ok(fpRate <= 0.01, `false positives ${rate(fps.length, NEGATIVES.length)} > 1%:\n${fps.join("\n")}`);
});

/** The held-out fixtures of `set` through the core: the positives whose secret is left, the negatives redacted. */
function heldOut(set) {
  const c = core();
  const positives = redactionFixtures(`${set}-positives.jsonl`);
  const negatives = redactionFixtures(`${set}-negatives.jsonl`);
  assert.ok(positives.length >= 100 && negatives.length >= 100, `${set} fixtures present`);
  const leaked = positives.filter((p) => leaks(c.record(p.input, NOW).line, p.secret));
  const flagged = negatives.filter((n) => c.record(n.input, NOW).redactions > 0);
  return { positives, negatives, leaked, flagged };
}

/** A held-out set whose misses are pinned: exactly these leak (by their secrets' first 12 characters), and at most 1%
 *  of its negatives are redacted. */
function onlyKnownMisses(set, known) {
  const { negatives, leaked, flagged } = heldOut(set);
  assert.deepEqual(leaked.map((p) => p.secret.slice(0, 12)).sort(), [...known].sort(), show(leaked));
  assert.ok(flagged.length / negatives.length <= 0.01, `false positives: ${rate(flagged.length, negatives.length)}\n${show(flagged)}`);
}

const show = (xs) => xs.map((x) => `[${x.rule ?? x.why}] ${JSON.stringify(x.input).slice(0, 300)}`).join("\n");

// The held-out sets (tests/fixtures/redaction/holdout.mjs, holdout2.mjs) were written by other sessions without
// looking at the rules. First runs: set 1, 229 of 230 secrets gone and 5 of 218 benign lines redacted (rule set
// 2026-11-29.1); set 2 (long tool output), 172 of 180 and 7 of 181 (2026-11-29.2). The rules were then changed for
// what they found (2026-11-29.3 and .4), so they are no longer blind, and stay here to keep those cases fixed. Their
// labels name one rule where two may apply, so only "the secret is gone" is asserted, not which rule said so.
test("held-out set 1: recall >= 99% and false positives <= 1% through the core", () => {
  const { positives, negatives, leaked, flagged } = heldOut("holdout");
  assert.ok(leaked.length / positives.length <= 0.01, `secrets left: ${rate(leaked.length, positives.length)}\n${show(leaked)}`);
  assert.ok(flagged.length / negatives.length <= 0.01, `false positives: ${rate(flagged.length, negatives.length)}\n${show(flagged)}`);
});

// Set 2's last miss, a Sequelize error object (`path: 'key', value: '…'`), went with rule set 2026-12-01.1 (a bare `key`
// with a value drawn at random). A new miss fails here.
const KNOWN_MISSES_2 = [];

test("held-out set 2 (long tool output): only the known misses, false positives <= 1%", () => {
  onlyKnownMisses("holdout2", KNOWN_MISSES_2);
});

// Set 3 (passwords on command lines, ~80 tools) was written blind against rule set 2026-11-29.6: 57 of 118 secrets
// gone (48.3%) and 2 of 115 benign lines redacted. Rule set 2026-11-29.7 generalised the rule (a password option
// right after a user option, clusters, `echo … | sudo -S`, Windows `/p:`, variables in earlier words) and added the
// placeholders it found: 96 of 118 (81.4%), none of the 115. Rule set 2026-11-30.1 reads PowerShell's
// `ConvertTo-SecureString "…" -AsPlainText` (97). What is left is each tool's own positional form (`rabbitmqctl
// add_user NAME PASS`, `sqlplus user/PASS@db`, `db2 … using PASS`, `nmcli … password PASS` with a value shorter than
// 15 word characters, `echo user:PASS | chpasswd`, `expect … send`, `net use … PASS /user:…`, `schtasks /RP PASS`, …),
// listed here by the secrets' first 12 characters: a new miss fails, and so does fixing one of these (then take it off
// the list).
const KNOWN_MISSES_3 = [
  "Dragon2019@", "GYrNSdtuDUhW", "Glacier5751!", "Harborautumn", "LsfKZXpY_Rhu", "PwaDWut2gMF", "Qy4stojREoM8",
  "Saturn2026@", "UNvp2QxaZB7X", "XZ@ox2@w%Ddp", "b9bCSjK757FZ", "bU6x_JrFzZ_", "chqqJmUEKtJB", "eLsoU~2BnX9p", "falcon-542-v",
  "g3S^pvx55^%4", "kGtxPDSehwYK", "lantern.falc", "purple-lante", "spring_608_c", "uWZCDJF2Dg=t",
];

test("held-out set 3 (command lines): only the known misses, false positives <= 1%", () => {
  onlyKnownMisses("holdout3", KNOWN_MISSES_3);
});

// Set 4 (config and credential files, source code, vendor tokens beyond the issue's list) was written blind against
// rule set 2026-11-29.9: 127 of 159 secrets gone (79.9%) and 8 of 150 benign texts redacted (5.3%). Rule set
// 2026-11-30.1 added nine vendor tokens, base64 PEM keys, typed declarations, ODBC `PWD=`, a name and a value as a
// call's literals, SQL `IDENTIFIED BY`/`PASSWORD`, login calls, `ConvertTo-SecureString`, random letters as a
// value, and left alone what it found benign: 149 of 159 (93.7%), none of the 150. Rule set 2026-11-30.2 reads
// `password <value>` and `requirepass <value>` (`.netrc`, `redis.conf`) for values of 15 word characters or more:
// 151 of 159 (95.0%). What is left: such lines with shorter or symbol-broken values (a `.netrc` one-liner),
// `.pgpass` and postfix `sasl_passwd` lines, literals of symbols too short to be read as a word (`'rDnVGt!a16~3…'`
// in a login call, WordPress salts), `algoliasearch('APPID', 'KEY')`, and an `appid=` query parameter (an id to
// most APIs).
const KNOWN_MISSES_4 = [
  "0%cFG2cjtuQ_", "8aa3e54983d6", "9070d61c179c", "Juniper-coba", "KlbWZX!^81fH", "M$^Edp=y>$|^", "Yn5QXI7Nfz1c",
  "rDnVGt!a16~3",
];

test("held-out set 4 (config files, code, vendor tokens): only the known misses, false positives <= 1%", () => {
  onlyKnownMisses("holdout4", KNOWN_MISSES_4);
});

// The fixtures of the general rules of rule set 2026-12-01.1 (labels of several words, vendors' names, a bare `key`
// with a value drawn at random, tokens led by what they are, vendors' tokens in credential files, a label with no
// operator before a quoted literal, the other half of a two-part credential), written with those
// rules: every secret goes, under the fixture's rule, and no negative is redacted.
test("general rules: every positive redacted under its rule, no negative redacted", () => {
  const c = core();
  const positives = redactionFixtures("general-positives.jsonl");
  const negatives = redactionFixtures("general-negatives.jsonl");
  assert.ok(positives.length > 80 && negatives.length > 50, "fixtures present");
  const missed = [];
  for (const p of positives) {
    assert.ok(p.input.includes(p.secret), `secret not in input: ${p.input}`);
    const out = c.record(p.input, NOW);
    const named = (JSON.parse(out.line).redacted ?? []).some((h) => h.rule === p.rule);
    if (leaks(out.line, p.secret) || !named) missed.push(`[${p.rule}] ${JSON.stringify(p.input)} -> ${out.line.trim()}`);
  }
  assert.deepEqual(missed, []);
  const flagged = negatives.filter((n) => c.record(n.input, NOW).redactions > 0);
  assert.deepEqual(flagged.map((n) => n.input), []);
});

test("supplied members other than the redacted values stay byte-identical", () => {
  const c = core();
  let checked = 0;
  for (const p of POSITIVES.filter((p) => p.mode === "json")) {
    const out = c.record(p.input, NOW);
    assert.equal(out.style, "json", p.input);
    const before = rawMembers(p.input);
    const after = supplied(out.line);
    assert.deepEqual(after.map(([k]) => k), before.map(([k]) => k), "same keys, same order");
    for (let i = 0; i < before.length; i++) {
      const [k, v] = before[i];
      const w = after[i][1];
      if (w === v) continue;
      assert.match(w, A_MARKER, `member ${k} changed without a marker`);
      assert.ok(onlyMarkersChanged(v, w), `member ${k}: more than the secret changed:\n  ${v}\n  ${w}`);
    }
    checked++;
  }
  assert.ok(checked >= 40, `json positives checked: ${checked}`);
  // Text input: the verbatim `raw` keeps everything but the markers.
  for (const p of POSITIVES.filter((p) => p.mode !== "json")) {
    const entry = JSON.parse(c.record(p.input, NOW).line);
    if (typeof entry.raw === "string") assert.ok(onlyMarkersChanged(p.input, entry.raw), `raw: ${p.input} -> ${entry.raw}`);
  }
});

test("a supplied value with escapes keeps them byte for byte around a redaction", () => {
  const c = core();
  const key = "AK" + "IA" + "Z7QK4M2XW9PL3RT6";
  const input = `{"a":"caf\\u00e9 \\/ \\"q\\"","n":1.0,"env":{"AWS_ACCESS_KEY_ID":"${key}","PATH":"\\/usr\\/bin"},"e":1e5}`;
  const out = c.record(input, NOW);
  assert.ok(!out.line.includes(key));
  const got = supplied(out.line);
  assert.deepEqual(got, [
    ["a", '"caf\\u00e9 \\/ \\"q\\""'],
    ["n", "1.0"],
    ["env", '{"AWS_ACCESS_KEY_ID":"[REDACTED:aws-access-key-id]","PATH":"\\/usr\\/bin"}'],
    ["e", "1e5"],
  ]);
  assert.deepEqual(JSON.parse(out.line).redacted, [{ path: "$.env.AWS_ACCESS_KEY_ID", rule: "aws-access-key-id", count: 1 }]);
});

const GH = "gh" + "p_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";

test("quarantine: broken JSON holding a secret is redacted", () => {
  const c = core();
  const out = c.record(`{"note": "deploy failed", "token": "${GH}", "oops`, NOW);
  assert.equal(out.target, "quarantine");
  assert.equal(out.style, "quarantine");
  assert.equal(out.reasonCode, "not-json");
  assert.equal(JSON.parse(out.line).reason, out.reason);
  assert.ok(!leaks(out.line, GH), out.line);
  const entry = JSON.parse(out.line);
  assert.match(entry.raw, /\[REDACTED:github-token\]/);
  assert.ok(entry.redacted.some((h) => h.path === "$.raw" && h.rule === "github-token"), JSON.stringify(entry.redacted));
  assert.ok(onlyMarkersChanged(`{"note": "deploy failed", "token": "${GH}", "oops`, entry.raw));
});

test("quarantine: non-UTF-8 bytes holding a secret: the base64 decodes without the secret", () => {
  const c = core();
  const bytes = Buffer.concat([Buffer.from("log: "), Buffer.from([0xff, 0xfe]), Buffer.from(` token ${GH} done`)]);
  const out = c.record(new Uint8Array(bytes), NOW);
  assert.equal(out.target, "quarantine");
  assert.equal(out.reasonCode, "not-utf8");
  const entry = JSON.parse(out.line);
  const decoded = Buffer.from(entry.raw_b64, "base64");
  assert.ok(!decoded.includes(GH), "secret gone from the bytes");
  assert.ok(!leaks(out.line, GH));
  assert.ok(decoded.includes("[REDACTED:github-token]"));
  // everything else byte for byte, invalid bytes included
  assert.deepEqual(decoded, Buffer.concat([Buffer.from("log: "), Buffer.from([0xff, 0xfe]), Buffer.from(" token [REDACTED:github-token] done")]));
  assert.ok(out.redactions >= 1);
});

test("quarantine: a string with a lone surrogate holding a secret: the UTF-16 base64 decodes without it", () => {
  const c = core();
  const out = c.record(`lone \ud800 then ${GH} end`, NOW);
  assert.equal(out.target, "quarantine");
  assert.equal(out.reasonCode, "lone-surrogate");
  const entry = JSON.parse(out.line);
  const decoded = Buffer.from(entry.raw_b64, "base64").toString("utf16le");
  assert.ok(!decoded.includes(GH));
  assert.ok(!leaks(out.line, GH));
  assert.equal(decoded, "lone \ud800 then [REDACTED:github-token] end");
});

// Regression (an entry that was redacted names what and under which rule set): a quarantined
// input kept as base64 is redacted, but the line carries neither `redacted` nor `redaction_rules`, and
// `redactions` disagrees with the (absent) list.
test("a redacted base64 quarantine entry carries the redacted list and the rule-set version", () => {
  const c = core();
  const bytes = Buffer.concat([Buffer.from("log: "), Buffer.from([0xff]), Buffer.from(` ${GH}`)]);
  for (const input of [new Uint8Array(bytes), `lone \ud800 then ${GH}`]) {
    const out = c.record(input, NOW);
    const entry = JSON.parse(out.line);
    assert.ok(Array.isArray(entry.redacted), `no redacted list: ${out.line}`);
    assert.ok(entry.redacted.some((h) => h.rule === "github-token"));
    assert.equal(typeof entry.redaction_rules, "string");
    assert.equal(out.redactions, entry.redacted.reduce((n, h) => n + h.count, 0));
  }
});

test("stamps are redacted too: an origin URL with credentials", () => {
  const c = new Core();
  const origin = "https://deploy-bot:Xq7vR2mKp9sLw4Zt@git.example.org/team/app.git";
  c.setContext({ capture: "cli", stamps: { pwd: "/w", origin } });
  const out = c.record('{"note":"hello"}', NOW);
  const entry = JSON.parse(out.line);
  assert.ok(!leaks(out.line, "Xq7vR2mKp9sLw4Zt"));
  assert.equal(entry.origin, "https://deploy-bot:[REDACTED:url-credentials]@git.example.org/team/app.git");
  assert.deepEqual(entry.redacted, [{ path: "$.origin", rule: "url-credentials", count: 1 }]);
  assert.equal(entry.note, "hello");
  assert.equal(entry.pwd, "/w");
});

test("idempotent: recording a redacted line's content again changes nothing", () => {
  const c = core();
  let jsonChecked = 0;
  for (const p of [...POSITIVES, ...NEGATIVES]) {
    const first = c.record(p.input, NOW);
    // Same style again: a JSON entry's members re-recorded as JSON. (Fields read out of text are not
    // JSON literals — text is redacted as text — so they are checked through `raw` below instead.)
    if (first.style === "json") {
      jsonChecked++;
      const members = supplied(first.line);
      const again = `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`;
      const second = c.record(again, NOW);
      assert.equal(second.redactions, 0, `second pass redacted: ${again} -> ${second.line}`);
      assert.deepEqual(supplied(second.line), members);
      assert.deepEqual(second.line.match(MARKER) ?? [], again.match(MARKER) ?? [], "same markers");
    }
    // and the redacted text itself, recorded as text
    const raw = JSON.parse(first.line).raw;
    if (typeof raw === "string" && raw.includes("[REDACTED:")) {
      const third = c.record(raw, NOW);
      assert.equal(third.redactions, 0, `text second pass: ${raw} -> ${third.line}`);
      assert.deepEqual(third.line.match(MARKER).filter((m, i, a) => a.indexOf(m) === i).sort(), raw.match(MARKER).filter((m, i, a) => a.indexOf(m) === i).sort());
    }
  }
  assert.ok(jsonChecked > 10, `only ${jsonChecked} JSON fixtures were re-recorded`);
});

test("markers never trigger rules, even next to key names", () => {
  const c = core();
  for (const t of ["password=[REDACTED:secret-assignment]", '{"token":"[REDACTED:github-token]"}', "Authorization: Bearer [REDACTED:bearer-token]", "postgres://u:[REDACTED:url-credentials]@db/x"]) {
    const out = c.record(t, NOW);
    assert.equal(out.redactions, 0, `${t} -> ${out.line}`);
  }
});

test("redact: false leaves every secret in place (the off switch really ran)", () => {
  const off = core({ redact: false });
  const on = core({ redact: true });
  for (const p of POSITIVES) {
    const out = off.record(p.input, NOW);
    assert.equal(out.redactions, 0);
    const entry = JSON.parse(out.line);
    assert.equal(entry.redacted, undefined);
    assert.ok(leaks(out.line, p.secret), `secret missing with redaction off: ${p.input}`);
  }
  // the same input, the same Core class, on: gone
  assert.ok(!leaks(on.record(`token ${GH}`, NOW).line, GH));
  assert.ok(leaks(off.record(`token ${GH}`, NOW).line, GH));
  // stamps too
  const c = new Core({ redact: false });
  c.setContext({ capture: "cli", stamps: { origin: "https://u:Xq7vR2mKp9sLw4Zt@h/x" } });
  assert.equal(JSON.parse(c.record("x", NOW).line).origin, "https://u:Xq7vR2mKp9sLw4Zt@h/x");
});

test("user patterns: redactPatterns across the boundary, numbered from 1, group 1 only when present", () => {
  const c = core({ redactPatterns: ["ACME-[0-9]{6}", "ticket=(T[0-9]{5})"] });
  assert.deepEqual(c.record("x", NOW).warnings, []);
  const out = c.record("see ACME-123456 and ticket=T12345 now", NOW);
  const entry = JSON.parse(out.line);
  assert.equal(entry.raw, "see [REDACTED:custom-1] and ticket=[REDACTED:custom-2] now");
  assert.deepEqual([...new Set(entry.redacted.map((h) => h.rule))].sort(), ["custom-1", "custom-2"]);
  // built-ins still run alongside
  assert.ok(!leaks(c.record(`ACME-654321 ${GH}`, NOW).line, GH));
  // inside JSON members too
  const j = c.record('{"id":"ACME-999999","ok":true}', NOW);
  assert.deepEqual(supplied(j.line), [["id", '"[REDACTED:custom-1]"'], ["ok", "true"]]);
});

test("allow and allowPatterns keep matching candidates; other secrets are still redacted", () => {
  const kept = "AK" + "IA" + "Z7QK4M2XW9PL3RT6";
  const other = "AK" + "IA" + "Q3WE5RT7YU9IO1PA";
  const lit = core({ allow: [kept] });
  const a = lit.record(`keys ${kept} and ${other}`, NOW);
  assert.ok(a.line.includes(kept), a.line);
  assert.ok(!leaks(a.line, other));
  const pat = core({ allowPatterns: ["^AKIAZ7"] });
  const b = pat.record(`keys ${kept} and ${other}`, NOW);
  assert.ok(b.line.includes(kept), b.line);
  assert.ok(!leaks(b.line, other));
  // without them, both go
  const none = core().record(`keys ${kept} and ${other}`, NOW);
  assert.ok(!leaks(none.line, kept) && !leaks(none.line, other));
});

test("a bad pattern gives a warning, not a throw; the good ones still work", () => {
  let c;
  assert.doesNotThrow(() => {
    c = core({ redactPatterns: ["foo(", "ACME-[0-9]{6}"], allowPatterns: ["[unclosed"] });
  });
  const out = c.record("id ACME-123456 and " + GH, NOW);
  assert.ok(c.warnings.some((w) => /redaction pattern 1/.test(w)), JSON.stringify(c.warnings));
  assert.ok(c.warnings.some((w) => /allow pattern 1/.test(w)), JSON.stringify(c.warnings));
  const entry = JSON.parse(out.line);
  assert.ok(entry.raw.includes("[REDACTED:custom-2]"), "the second pattern keeps its number");
  assert.ok(!leaks(out.line, GH));
  // options of the wrong type: a warning and defaults (redaction on), never a throw
  let d;
  assert.doesNotThrow(() => {
    d = core({ redactPatterns: "not-a-list" });
  });
  const o2 = d.record(`token ${GH}`, NOW);
  assert.ok(d.warnings.length > 0);
  assert.ok(!leaks(o2.line, GH));
});
