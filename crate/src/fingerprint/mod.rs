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
mod markers;
mod normalise;
pub use markers::{is_boilerplate, is_failure_line};
pub use normalise::{normalise, paths};

/// The rule's version, the prefix of every fingerprint it makes.
pub const VERSION: &str = "g1";
/// At most this many failure lines make the signature (the first ones of the last failure block).
const SIGNATURE_LINES: usize = 5;
/// Lines after a block's last failure line that belong to it (what explains it: a stack, a diff, a name).
const CONTEXT_LINES: usize = 4;
/// A block of fewer failure lines than this reaches back this many lines for the block before it.
const SUMMARY_LINES: usize = 3;
const SUMMARY_REACH: usize = 40;
/// A failure block is cut to this many lines (the first ones).
const BLOCK_LINES: usize = 16;
/// Failure lines with fewer than this many other lines between them (boilerplate not counted) are one block.
const BLOCK_GAP: usize = 8;
/// Lines of the output's end used when no line looks like a failure.
const TAIL_LINES: usize = 3;
/// Markers are looked for in this many characters of a line (a minified bundle's line can be megabytes).
const MATCH_CHARS: usize = 400;
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
    let text = |name: &str| get(name).and_then(decoded).unwrap_or_default();
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

/// A member's string token decoded: every token here is one the scanner checked or the context made, so it is
/// not checked again ([`strict_json::decode_checked`]); any other shape as [`strict_json::decode_string`] takes it.
fn decoded(token: &str) -> Option<String> {
    strict_json::decode_checked(token).or_else(|| strict_json::decode_string(token))
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

/// The lines of `output` that say why it failed: the failure lines of its [`failure_block`] (the first
/// [`SIGNATURE_LINES`], the same line after normalisation kept once); else, when no line has a failure marker,
/// the block's lines (the output's last lines).
pub fn signature(output: &str) -> Vec<&str> {
    signature_in(output, "").into_iter().map(|(l, _)| l).collect()
}

/// The signature's lines with their normalised forms (hashed as far as they are kept), `workdir` standing for
/// the repository.
fn signature_in<'o>(output: &'o str, workdir: &str) -> Vec<(&'o str, String)> {
    let block = failure_block(output);
    let mut out: Vec<(&str, String)> = Vec::new();
    for &l in block.iter().filter(|l| is_failure_line(cut(l, MATCH_CHARS))) {
        if out.len() == SIGNATURE_LINES {
            break;
        }
        let n = normalise(cut(l, LINE_CHARS), workdir);
        if !out.iter().any(|(_, seen)| *seen == n) {
            out.push((l, n));
        }
    }
    if out.is_empty() {
        return block.into_iter().map(|l| (l, normalise(cut(l, LINE_CHARS), workdir))).collect();
    }
    out
}

/// The last failure block of `output`, trimmed: from its first failure line through the lines that explain
/// its last one (a stack, a diff, the test's name), at most [`BLOCK_LINES`], with CI runner and build tool
/// boilerplate left out. Without a failure line: the last [`TAIL_LINES`] lines that are not boilerplate (else the
/// last lines). Why the last block: in a long log, what came first is often a warning or an earlier, tolerated
/// step; what ended the run is what the fix is about, and the boilerplate after it says only that it failed.
pub fn failure_block(output: &str) -> Vec<&str> {
    // What a CI runner prints once the job is over (its own scripts' complaints included) is not the build's.
    let output = markers::job_end(output).map_or(output, |end| &output[..end]);
    // Read from the end: the last block is usually near it, so most of a long output is never matched.
    let mut after: Vec<&str> = Vec::new(); // lines after the last failure line, newest first
    let mut block: Vec<&str> = Vec::new(); // from the last failure line back, newest first
    let mut since = 0; // lines kept since the block's earliest failure line
    let mut marks = 0; // failure lines in the block
    let mut fold: Option<&str> = None; // inside a runner's section that only follows the failure
    for line in output.lines().rev() {
        let l = line.trim();
        if let Some(name) = fold {
            if l.strip_prefix("travis_fold:start:") == Some(name) {
                fold = None;
            }
            continue;
        }
        // (The first byte is tested first: it spares wasm a call to compare bytes on every line.)
        let section_end = if l.starts_with('t') { l.strip_prefix("travis_fold:end:") } else { None };
        if let Some(name) = section_end.filter(|n| after_failure_section(n)) {
            fold = Some(name);
            continue;
        }
        if l.chars().all(|c| c.is_ascii_punctuation() || c.is_whitespace()) || is_boilerplate(cut(l, MATCH_CHARS)) {
            continue;
        }
        // A CI runner's or a traced shell's `$ command` / `+ command` starts a step: a block ends there.
        if !block.is_empty() && (l.starts_with("$ ") || l.starts_with("+ ")) {
            break;
        }
        if is_failure_line(cut(line, MATCH_CHARS)) {
            since = 0; // the lines kept since the later failure line are inside the block
            marks += 1;
            block.push(l);
        } else if block.is_empty() {
            after.push(l);
        } else {
            since += 1;
            block.push(l);
            // A block of a line or two is often only a summary (`:test FAILED`, `One or more errors occurred`):
            // then the block before it, if one is near, says which.
            let reach = if marks < SUMMARY_LINES { SUMMARY_REACH } else { BLOCK_GAP };
            if since >= reach {
                break;
            }
        }
    }
    if block.is_empty() {
        if after.is_empty() {
            after = output.lines().rev().map(str::trim).filter(|l| !l.is_empty()).take(TAIL_LINES).collect();
        }
        after.truncate(TAIL_LINES);
        after.reverse();
        return after;
    }
    block.truncate(block.len() - since); // the lines before the earliest failure line are not
    block.reverse();
    let context = after.len().min(CONTEXT_LINES);
    block.extend(after[after.len() - context..].iter().rev());
    block.truncate(BLOCK_LINES);
    block
}

/// Whether a CI runner's section of this name runs after the build failed (cache uploads, after-failure dumps):
/// what it prints is not why the build failed.
fn after_failure_section(name: &str) -> bool {
    ["cache", "after_failure", "after_script", "after_success"].iter().any(|p| name.starts_with(p))
}

/// A command line as "the same command": whitespace collapsed, leading `VAR=value` assignments and
/// `time`/`timeout N`/`env` wrappers removed, the working directory and home prefixes and temporary paths
/// replaced. The JS edge's command identity (`plugin/capture/command.js`) follows the same rule; a shared table
/// of cases (`tests/fixtures/commands.json`) holds both to it.
pub fn command_key(command: &str, workdir: &str) -> String {
    let joined = command.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut s = joined.as_str();
    while let Some(end) = markers::wrapper(s.as_bytes()) {
        s = &s[end..];
    }
    paths(s, workdir)
}

fn cut(s: &str, max_chars: usize) -> &str {
    if s.len() <= max_chars {
        return s; // no more characters than bytes
    }
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
