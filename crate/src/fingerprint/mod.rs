//! Failure fingerprints: which automatic failures are "the same failure again".
//!
//! An automatic `gate.failed` or `tool.failed` line is read back out of its stored, redacted members and reduced
//! to a repository, a normalised command, an exit status and a failure signature (the output's failure lines,
//! volatile values replaced by placeholders). Their hash, prefixed by the rule's version, is the `fp` member. The
//! core stamps it when it writes such a line, and readers ask the same function about lines written before it
//! existed, so both agree byte for byte. Changing what goes into the hash means a new [`VERSION`]: old lines keep
//! the group they had.

use crate::context::Stamps;
use crate::outcome::{Outcome, Target};
use crate::parse::strict_json::{self, encode_string};
use memchr::memmem;
use regex_lite::Regex;
use std::sync::OnceLock;

mod normalise;
pub use normalise::{normalise, paths};

/// The rule's version, the prefix of every fingerprint it makes.
pub const VERSION: &str = "g1";
/// At most this many failure lines make the signature (the first ones: what broke first is what the fix is about).
const SIGNATURE_LINES: usize = 5;
/// At most this many failure lines are compared for repeats (a log of a thousand identical errors stops here).
const MAX_CANDIDATES: usize = 64;
/// Lines of the output's end used when no line looks like a failure.
const TAIL_LINES: usize = 3;
/// A signature line kept for readers is cut to this many characters.
const LINE_CHARS: usize = 240;

/// What a failure's fingerprint is made of, as stored in the line.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Facts {
    /// git_dir, else origin, else pwd.
    pub repo: String,
    /// The command (gate.failed) or the tool's name (tool.failed).
    pub command: String,
    /// The exit status as its JSON token, or empty.
    pub exit: String,
    /// The output tail (gate.failed) or the error (tool.failed).
    pub output: String,
    /// The directory the command ran in: workdir, else pwd.
    pub workdir: String,
}

/// A failure's fingerprint and the lines that say why it failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fingerprint {
    /// `g1_` and 16 hex digits.
    pub fp: String,
    /// The failure lines as stored (trimmed and cut, not normalised): what readers show.
    pub failure: Vec<String>,
}

impl Fingerprint {
    /// The members to append to a line: `"fp":"…","failure":[…]`.
    pub fn members(&self) -> String {
        let mut out = String::with_capacity(64 + self.failure.iter().map(|l| l.len() + 3).sum::<usize>());
        out.push_str("\"fp\":");
        encode_string(&self.fp, &mut out);
        out.push_str(",\"failure\":[");
        for (i, l) in self.failure.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            encode_string(l, &mut out);
        }
        out.push(']');
        out
    }
}

/// Appends `fp` and `failure` to an automatic failure's line, read out of the line as it stands (redacted), and
/// notes the fingerprint in the outcome. Other lines are left as they are.
pub fn stamp(out: &mut Outcome) {
    if out.target == Target::Main {
        let f = of_line(&out.line);
        append(out, f);
    }
}

/// [`stamp`] for a line made from a JSON object's members: when the redaction pass changed nothing, the line holds
/// those members byte for byte and then the context's stamps (a supplied key suppresses its stamp), so they are
/// read from there instead of scanning the line again. `member(name)` is the input's first member of that name.
pub fn stamp_made<'a>(out: &mut Outcome, member: impl Fn(&str) -> Option<&'a str>, ctx: &'a Stamps) {
    if out.target != Target::Main {
        return;
    }
    let f = if out.redactions > 0 {
        of_line(&out.line)
    } else {
        of_members(&|name| member(name).or_else(|| ctx.value_token(name)))
    };
    append(out, f);
}

fn append(out: &mut Outcome, f: Option<Fingerprint>) {
    if let Some(f) = f {
        let end = out.line.trim_end().len() - 1; // the closing brace
        out.line.truncate(end);
        out.line.push(',');
        out.line.push_str(&f.members());
        out.line.push_str("}\n");
        out.fp = Some(f.fp);
    }
}

/// The fingerprint of a stored line, or None when the line is not an automatic failure (capture `auto`, trigger
/// `gate.failed` or `tool.failed`) or already carries an `fp` member. Never fails on any input.
pub fn of_line(line: &str) -> Option<Fingerprint> {
    let line = line.trim();
    // Cheap refusals first: this runs on every automatic line the core writes.
    if !line.contains("\"auto\"") || !line.contains(".failed\"") {
        return None;
    }
    let scanned = strict_json::scan(line).ok()?;
    let members = scanned.members.as_deref()?;
    of_members(&|name| members.iter().find(|m| key_is(scanned.key(m), name)).map(|m| scanned.value(m)))
}

/// The fingerprint of a line whose member tokens `get(name)` gives (its first member of that name).
fn of_members<'a>(get: &dyn Fn(&str) -> Option<&'a str>) -> Option<Fingerprint> {
    let text = |name: &str| get(name).and_then(strict_json::decode_string).unwrap_or_default();
    if !get("trigger").is_some_and(|t| t.ends_with(".failed\"")) {
        return None;
    }
    if get("fp").is_some() || text("capture") != "auto" {
        return None;
    }
    let trigger = text("trigger");
    let (command, output) = match trigger.as_str() {
        "gate.failed" => (text("command"), text("output_tail")),
        "tool.failed" => (text("tool"), text("error")),
        _ => return None,
    };
    let repo = [text("git_dir"), text("origin"), text("pwd")].into_iter().find(|s| !s.is_empty()).unwrap_or_default();
    let workdir = Some(text("workdir")).filter(|s| !s.is_empty()).unwrap_or_else(|| text("pwd"));
    let exit = get("exit").map(str::to_owned).unwrap_or_default();
    Some(of_facts(&Facts { repo, command, exit, output, workdir }))
}

/// Whether a member's key token names `name` (escapes decoded only when the token has any).
fn key_is(token: &str, name: &str) -> bool {
    if token.contains('\\') {
        return strict_json::decode_string(token).as_deref() == Some(name);
    }
    token.len() == name.len() + 2 && &token[1..token.len() - 1] == name
}

/// The fingerprint of a failure's facts.
pub fn of_facts(f: &Facts) -> Fingerprint {
    let lines = signature_in(&f.output, &f.workdir);
    let mut h = Fnv::new();
    h.field(&f.repo);
    h.field(&command_key(&f.command, &f.workdir));
    h.field(&f.exit);
    for (_, normalised) in &lines {
        h.field(normalised);
    }
    let failure = lines.iter().map(|(l, _)| cut(l, LINE_CHARS).to_owned()).collect();
    Fingerprint { fp: format!("{VERSION}_{:016x}", h.0), failure }
}

/// The lines of `output` that say why it failed: lines with a failure marker (first [`SIGNATURE_LINES`], the same
/// line after normalisation kept once), else its last non-empty lines.
pub fn signature(output: &str) -> Vec<&str> {
    signature_in(output, "").into_iter().map(|(l, _)| l).collect()
}

/// The signature's lines (trimmed) with their normalised forms, `workdir` standing for the repository.
fn signature_in<'o>(output: &'o str, workdir: &str) -> Vec<(&'o str, String)> {
    let mut out: Vec<(&str, String)> = Vec::new();
    let mut candidates = 0;
    let marked = lines_mentioning(output);
    let mut at = 0;
    for raw in output.split('\n') {
        let start = at;
        at += raw.len() + 1;
        if out.len() == SIGNATURE_LINES || candidates == MAX_CANDIDATES {
            break;
        }
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let t = line.trim_start();
        if !(starts_like_failure(line, t) || (marked.binary_search(&start).is_ok() && mentions_failure(t))) {
            continue;
        }
        candidates += 1;
        // Hashed as far as it is kept: a line longer than that costs no more to fingerprint.
        let n = normalise(cut(line.trim(), LINE_CHARS), workdir);
        if !out.iter().any(|(_, seen)| *seen == n) {
            out.push((line.trim(), n));
        }
    }
    if out.is_empty() {
        let last: Vec<&str> = output.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        out = last[last.len().saturating_sub(TAIL_LINES)..]
            .iter()
            .map(|l| (*l, normalise(cut(l, LINE_CHARS), workdir)))
            .collect();
    }
    out
}

/// Whether a line is one a test runner, compiler or linter prints for a failure. Plain string tests, not a
/// regular expression: this runs on every line of a 7 KiB tail, and regex-lite's engine (chosen for the size of
/// the .wasm) is slow over a long alternation.
pub fn is_failure_line(line: &str) -> bool {
    let t = line.trim_start();
    starts_like_failure(line, t) || mentions_failure(t)
}

/// The start offsets of the lines that hold a word some failure marker needs anywhere in the line: one substring
/// search of the whole output per word, instead of a look at every line for each.
fn lines_mentioning(output: &str) -> Vec<usize> {
    static FINDERS: OnceLock<Vec<memmem::Finder<'static>>> = OnceLock::new();
    let finders = FINDERS.get_or_init(|| {
        ["rror", "panicked at", "assert", "xception:"].iter().map(|w| memmem::Finder::new(w.as_bytes())).collect()
    });
    let b = output.as_bytes();
    let mut starts: Vec<usize> = finders
        .iter()
        .flat_map(|f| f.find_iter(b).map(|i| memchr::memrchr(b'\n', &b[..i]).map_or(0, |n| n + 1)))
        .collect();
    starts.sort_unstable();
    starts.dedup();
    starts
}

/// The markers a failure line starts with (`t` is `line` without its indentation).
fn starts_like_failure(line: &str, t: &str) -> bool {
    // Every marker below starts with one of these bytes (✗ ✘ ● start 0xE2, × 0xC3): most lines of a build's
    // output are refused here, before a dozen comparisons each.
    if !matches!(t.as_bytes().first(), Some(b'F' | b'E' | b'-' | b'n' | b'T' | b't' | 0xC3 | 0xE2)) {
        return false;
    }
    let word_at = |prefix: &str| {
        t.starts_with(prefix) && !t[prefix.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
    };
    // jest, vitest, go, pytest's summary and many tools start a failure line with one of these words.
    if ["FAIL", "FAILED", "FAILURE", "ERROR"].iter().any(|w| word_at(w)) {
        return true;
    }
    // go test, TAP and node:test, Python, and the reporters that mark a failed test with a cross or a bullet.
    if t.starts_with("--- FAIL:")
        || t.starts_with("Traceback (most recent call last)")
        || (t.starts_with("not ok ") && t[7..].starts_with(|c: char| c.is_ascii_digit()))
    {
        return true;
    }
    if ["✗ ", "✘ ", "× ", "● "].iter().any(|m| t.starts_with(m)) {
        return true;
    }
    // pytest's explanation lines: "E" then at least two spaces, at the very start of the line.
    if line.starts_with("E  ") && line[1..].trim_start().chars().next().is_some() {
        return true;
    }
    // cargo test's per-test verdict.
    if t.starts_with("test ") && t.trim_end().ends_with(" ... FAILED") {
        return true;
    }
    false
}

/// The markers a failure line holds anywhere (`t` is the line without its indentation).
fn mentions_failure(t: &str) -> bool {
    // eslint: "L:C  error  message  rule".
    if t.starts_with(|c: char| c.is_ascii_digit()) && t.contains("  error  ") {
        return true;
    }
    // rustc, gcc, cargo and many CLIs ("error:", "error[E0308]:"), tsc ("error TS2322:"), Rust panics and assertion
    // failures, found in one pass over the bytes (a substring search per marker cost more than the rest).
    let b = t.as_bytes();
    for i in 0..b.len() {
        let rest = &b[i..];
        let hit = match b[i] {
            b'e' => {
                (rest.starts_with(b"error:") && (i == 0 || !is_word_byte(b[i - 1])))
                    || rest.starts_with(b"error[E")
                    || rest.starts_with(b"error TS")
            }
            b'p' => rest.starts_with(b"panicked at"),
            b'A' => rest.starts_with(b"AssertionError"),
            b'a' => rest.starts_with(b"assert") && t[i..].contains(" failed"),
            _ => false,
        };
        if hit {
            return true;
        }
    }
    // Exceptions named at the start of a line ("TypeError: ...", "java.lang.IllegalStateException: ...").
    let head = t.split_whitespace().next().unwrap_or("");
    (head.ends_with("Error:") || head.ends_with("Exception:")) && head.len() > 6
}

fn is_word_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// A command line as "the same command": whitespace collapsed, leading `VAR=value` assignments and
/// `time`/`timeout N`/`env` wrappers removed, the working directory and home prefixes and temporary paths
/// replaced. The JS edge's command identity (`plugin/capture/command.js`) follows the same rule; a shared table
/// of cases (`tests/fixtures/commands.json`) holds both to it.
pub fn command_key(command: &str, workdir: &str) -> String {
    static WRAPPERS: OnceLock<Regex> = OnceLock::new();
    let wrappers = WRAPPERS.get_or_init(|| {
        Regex::new(r#"^(?:[A-Za-z_][A-Za-z0-9_]*=(?:"[^"]*"|'[^']*'|\S*)\s+|(?:time|env|nice|nohup|command)\s+|timeout(?:\s+-\S+)*\s+\S+\s+)"#)
            .expect("the wrapper pattern compiles")
    });
    let mut s = command.split_whitespace().collect::<Vec<_>>().join(" ");
    loop {
        let stripped = wrappers.replace(&s, "").into_owned();
        if stripped == s {
            break;
        }
        s = stripped;
    }
    paths(&s, workdir)
}

fn cut(s: &str, max_chars: usize) -> &str {
    match s.char_indices().nth(max_chars) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// 64-bit FNV-1a: stable across platforms and versions of Rust (std's hasher promises neither), and enough bits
/// to keep a repository's failures apart. Each field ends with a byte no text holds.
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn field(&mut self, s: &str) {
        for b in s.bytes().chain(std::iter::once(0xff)) {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests;
