//! The failure markers and the boilerplate lines of [`super::failure_block`], and the command wrappers of
//! [`super::command_key`], written out by hand. Each function matches exactly what a regular expression written
//! beside its test would (fingerprint/tests.rs holds them to it, case by case and on generated lines): regex-lite,
//! the core's engine, has no literal prefilter and runs its alternations a character at a time, and these run on
//! every line of every failing command's output, and on every start of a short-lived hook process.
//!
//! As in those expressions, "space" is ASCII whitespace (tab, line feed, vertical tab, form feed, carriage return,
//! space), a word byte is an ASCII letter, digit or `_`, and a word boundary is between a word byte and anything
//! else (a byte of a non-ASCII character included).

use crate::bytes::find_from;

/// Lines a CI runner prints when the job is over (Travis, GitHub Actions, GitLab).
const JOB_ENDS: [&str; 3] = ["Done. Your build exited with", "Post job cleanup.", "Cleaning up project directory"];

/// Where what a CI runner prints once the job is over begins: the earliest of the last occurrences of
/// [`JOB_ENDS`], or None. The whole output is read for them once, for the two bytes they are found by (`Y`, `j`:
/// rare in build output), sixteen bytes at a time in wasm (a search per marker read it three times over).
pub(super) fn job_end(output: &str) -> Option<usize> {
    let b = output.as_bytes();
    let anchors = JOB_ENDS.map(|m| m.bytes().position(|c| c == b'Y' || c == b'j').unwrap_or_default());
    let mut last: [Option<usize>; 3] = [None; 3];
    let mut check = |p: usize| {
        for (k, m) in JOB_ENDS.iter().enumerate() {
            if p >= anchors[k] && b[p - anchors[k]..].starts_with(m.as_bytes()) {
                last[k] = Some(p - anchors[k]);
            }
        }
    };
    let mut i = 0;
    while let Some(chunk) = b.get(i..i + 16) {
        let mut hits = y_or_j16(chunk);
        while hits != 0 {
            check(i + hits.trailing_zeros() as usize);
            hits &= hits - 1;
        }
        i += 16;
    }
    for (k, &c) in b[i..].iter().enumerate() {
        if c == b'Y' || c == b'j' {
            check(i + k);
        }
    }
    last.into_iter().flatten().min()
}

/// Bit k: byte k of the sixteen is `Y` or `j` (wasm simd128).
#[cfg(target_arch = "wasm32")]
#[target_feature(enable = "simd128")]
fn y_or_j16(chunk: &[u8]) -> u32 {
    use core::arch::wasm32::*;
    // SAFETY: the chunk holds 16 readable bytes; wasm loads need no alignment.
    let v = unsafe { v128_load(chunk.as_ptr().cast::<v128>()) };
    u32::from(u8x16_bitmask(v128_or(i8x16_eq(v, u8x16_splat(b'Y')), i8x16_eq(v, u8x16_splat(b'j')))))
}

#[cfg(not(target_arch = "wasm32"))]
fn y_or_j16(chunk: &[u8]) -> u32 {
    chunk.iter().enumerate().fold(0, |bits, (k, &c)| bits | (u32::from(c == b'Y' || c == b'j') << k))
}

/// Whether a line is one a test runner, compiler, linter or shell prints for a failure.
pub fn is_failure_line(line: &str) -> bool {
    // A shell's trace of the commands it runs (`set -x`) quotes them, whatever words they hold.
    let traced = line.trim_start();
    if traced.starts_with("+ ") || traced.starts_with("++") {
        return false;
    }
    let b = line.as_bytes();
    starts_like_failure(&b[space_run(b, 0)..]) || mentions_failure(b)
}

/// The markers a failure line starts with, after its indentation.
fn starts_like_failure(s: &[u8]) -> bool {
    let Some(&first) = s.first() else { return false };
    let word = |w: &[u8]| s.starts_with(w) && !is_word_at(s, w.len());
    let number = digits(s, 0);
    let hit = match first {
        // jest, vitest, go, pytest's summary, generic
        b'F' => [&b"FAIL"[..], b"FAILED", b"FAILURE", b"FATAL"].into_iter().any(word),
        // the same; pytest's explanation lines (`E`, two or more spaces, something)
        b'E' => word(b"ERROR") || (space_run(s, 1) >= 2 && 1 + space_run(s, 1) < s.len()),
        // go test
        b'-' => s.starts_with(b"--- FAIL:"),
        // Python
        b'T' => s.starts_with(b"Traceback (most recent call last)"),
        // TAP, node:test
        b'n' => s.starts_with(b"not ok ") && digits(s, 7) > 0,
        // eslint (`L:C  error  message`); numbered failures: mocha, rspec, phpunit, ExUnit
        b'0'..=b'9' => {
            eslint_at(s, number)
                || (s[number..].starts_with(b") ") && s.len() > number + 2 && !is_space_at(s, number + 2))
        }
        // Elixir's raised errors
        b'*' => s.starts_with(b"** (") && is_word_at(s, 4),
        // cargo test
        b't' => {
            s.len() > 16
                && s.starts_with(b"test ")
                && s.ends_with(b" ... FAILED")
                && !s[5..s.len() - 11].iter().any(|&c| is_space(c))
        }
        // vitest, jest, node:test, mocha-like reporters
        0xC3 | 0xE2 => ["✗", "✘", "×", "●", "✖"].iter().any(|m| s.starts_with(m.as_bytes()) && is_space_at(s, m.len())),
        _ => false,
    };
    hit || (matches!(first, b'a'..=b'z' | b'A'..=b'Z' | b'_') && exception_at_start(s))
}

/// eslint's `L:C  error  ` after a line number of `number` digits.
fn eslint_at(s: &[u8], number: usize) -> bool {
    if s.get(number) != Some(&b':') || digits(s, number + 1) == 0 {
        return false;
    }
    let at = number + 1 + digits(s, number + 1);
    let gap = space_run(s, at);
    gap > 0 && s[at + gap..].starts_with(b"error") && is_space_at(s, at + gap + 5)
}

/// An exception's name at the line's start, then `: ` or the line's end: `TypeError: …`,
/// `java.lang.IllegalStateException: …`, `Error` alone. The name is dotted lower-case packages, then an optional
/// capitalised word, then `Error` or `Exception`.
fn exception_at_start(s: &[u8]) -> bool {
    let mut p = 0;
    loop {
        for kw in [&b"Error"[..], b"Exception"] {
            if s.get(p) == Some(&b'E') && s[p..].starts_with(kw) && is_exception_prefix(&s[..p]) {
                let rest = &s[p + kw.len()..];
                if rest.first() == Some(&b':') && is_space_at(rest, 1) {
                    return true;
                }
                if rest.strip_prefix(b":").unwrap_or(rest).iter().all(|&c| is_space(c)) {
                    return true;
                }
            }
        }
        // The name holds only word bytes and dots: nothing past the first other byte can start the keyword.
        if p == s.len() || !(is_word(s[p]) || s[p] == b'.') {
            return false;
        }
        p += 1;
    }
}

/// Whether `pre` is `(?:[a-z_]\w*\.)*(?:[A-Z]\w*)?`: what may stand before `Error` or `Exception` in a name.
fn is_exception_prefix(pre: &[u8]) -> bool {
    if pre.is_empty() {
        return true;
    }
    let mut parts: Vec<&[u8]> = pre.split(|&c| c == b'.').collect();
    let last = parts.pop().unwrap_or_default();
    let packages = parts.iter().all(|p| matches!(p.first(), Some(b'a'..=b'z' | b'_')) && p.iter().all(|&c| is_word(c)));
    let class = last.is_empty() || (last[0].is_ascii_uppercase() && last.iter().all(|&c| is_word(c)));
    packages && class
}

/// The markers a failure line may hold anywhere, found in one pass over its bytes: most lines hold none, and a
/// search per marker would read each line a dozen times.
fn mentions_failure(b: &[u8]) -> bool {
    // gradle's `> test FAILED`, per-test result columns
    let t = trim_end_spaces(b);
    if [&b"FAIL"[..], b"FAILED", b"ERROR"].iter().any(|w| t.ends_with(w) && !is_word_before(t, t.len() - w.len())) {
        return true;
    }
    let mut after_word = false;
    for (i, &c) in b.iter().enumerate() {
        let at_word = !after_word;
        let class = BYTE_CLASS[usize::from(c)];
        after_word = class & WORD != 0;
        // Most bytes are inside a word and start no marker: passed over at once.
        if class & ANYWHERE == 0 && !(at_word && class & WORD_START != 0) {
            continue;
        }
        let r = &b[i..];
        let hit = match c {
            // xunit, sbt, maven
            b'[' => [&b"[FAIL]"[..], b"[FAILED]", b"[ERROR]", b"[error]", b"[fail]"].iter().any(|w| r.starts_with(w)),
            // Rust, also inside a word
            b'p' => r.starts_with(b"panicked at"),
            _ if !at_word => false,
            // rustc, gcc, cargo, many CLIs (`error:`, `error[E0308]:`); tsc (`error TS2322:`); assertion messages
            b'e' => error_at(r) || (r.starts_with(b"expected") && !is_word_at(r, 8) && got_after(b, i + 8)),
            // assertion libraries
            b'a' => r.starts_with(b"aborted!") || assert_failed_at(b, i),
            b'A' => word_at(r, b"AssertionError"),
            b'F' => word_at(r, b"Failed asserting"),
            // gcc, git, cmake; missing commands, files, packages and names
            b'f' => word_at(r, b"fatal"),
            b'C' => [&b"CMake Error"[..], b"Could not find", b"Could NOT find", b"Cannot find module"]
                .iter()
                .any(|w| word_at(r, w)),
            b'c' => r.starts_with(b"command not found") || r.starts_with(b"core dumped"),
            b'N' => r.starts_with(b"No such file or directory") || word_at(r, b"No module named"),
            b'S' => r.starts_with(b"Segmentation fault"),
            b'n' => [&b"not installed"[..], b"not available", b"never defined"].iter().any(|w| word_at(r, w)),
            b'U' => word_at(r, b"Unable to locate package"),
            b'u' => [&b"undefined method"[..], b"undefined reference", b"undefined symbol", b"undefined variable"]
                .iter()
                .any(|w| word_at(r, w)),
            _ => false,
        };
        if hit {
            return true;
        }
    }
    false
}

/// What [`mentions_failure`] looks for at a byte: a word byte, the first byte of a marker that starts a word, of
/// one that may stand anywhere.
const WORD: u8 = 1;
const WORD_START: u8 = 2;
const ANYWHERE: u8 = 4;
static BYTE_CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        if b.is_ascii_alphanumeric() || b == b'_' {
            t[c] |= WORD;
        }
        c += 1;
    }
    let starts = b"eaAFfCcNSnUu";
    let mut k = 0;
    while k < starts.len() {
        t[starts[k] as usize] |= WORD_START;
        k += 1;
    }
    t[b'[' as usize] |= ANYWHERE;
    t[b'p' as usize] |= ANYWHERE;
    t
};

/// `error:`, `error[E…]:` or `error TS…:` at the start of `r`.
fn error_at(r: &[u8]) -> bool {
    let Some(r) = r.strip_prefix(b"error") else { return false };
    r.first() == Some(&b':')
        || (r.starts_with(b"[E") && digits(r, 2) > 0 && r[2 + digits(r, 2)..].starts_with(b"]:"))
        || (r.starts_with(b" TS") && digits(r, 3) > 0 && r.get(3 + digits(r, 3)) == Some(&b':'))
}

/// `assert` or `assertion` as a word at `i` (a word start), then `failed` as a word later in its line.
fn assert_failed_at(b: &[u8], i: usize) -> bool {
    let r = &b[i..];
    if !r.starts_with(b"assert") {
        return false;
    }
    let end = if r[6..].starts_with(b"ion") && !is_word_at(r, 9) {
        i + 9
    } else if !is_word_at(r, 6) {
        i + 6
    } else {
        return false;
    };
    find_word(line_at(b, end), b"failed", end).is_some()
}

/// After an `expected` ending at `end`, later in its line: `but was`, `but got`, `got`, `to be`, `to equal`,
/// `to have`, `to contain`, as words.
fn got_after(b: &[u8], end: usize) -> bool {
    let line = line_at(b, end);
    [&b"but was"[..], b"but got", b"got", b"to be", b"to equal", b"to have", b"to contain"]
        .iter()
        .any(|w| find_word(line, w, end).is_some())
}

/// `b` up to the end of the line holding `i`.
fn line_at(b: &[u8], i: usize) -> &[u8] {
    &b[..b[i..].iter().position(|&c| c == b'\n').map_or(b.len(), |n| i + n)]
}

/// Whether `r` starts with `w` followed by a word boundary (`w` ends with a word byte).
fn word_at(r: &[u8], w: &[u8]) -> bool {
    r.starts_with(w) && !is_word_at(r, w.len())
}

/// Whether a line is CI runner or build tool boilerplate: it says only that a step ran, passed or failed, the same
/// in every failing build (exit statuses, make's and npm's wrappers, maven's and gradle's trailers, cache uploads,
/// tests that passed).
pub fn is_boilerplate(line: &str) -> bool {
    let b = line.as_bytes();
    boilerplate_start(&b[space_run(b, 0)..]) || boilerplate_end(b)
}

/// What boilerplate starts with, after its indentation.
fn boilerplate_start(s: &[u8]) -> bool {
    const PREFIXES: [&[u8]; 28] = [
        b"travis_fold",
        b"travis_time",
        b"travis_terminate",
        b"Done. Your build exited",
        b"ERROR: Job failed",
        b"##[group]",
        b"##[endgroup]",
        b"error Command failed with exit code",
        b"info Visit https://yarnpkg",
        b"FAILURE: Build failed with an exception",
        b"BUILD FAILED",
        b"* What went wrong:",
        b"* Try:",
        b"Execution failed for task",
        b"> There were failing tests",
        b"Run with --stacktrace",
        b"Run with --info",
        b"Run with --scan",
        b"error: test failed, to rerun",
        b"error: aborting due to",
        b"error: could not compile",
        b"store build cache",
        b"cache uploaded",
        b"changes detected",
        b"nothing changed",
        b"Done uploading artifacts",
        // tests that passed or were skipped: never why a run failed, and a long run prints thousands
        b"--- PASS:",
        b"--- SKIP:",
    ];
    let Some(&first) = s.first() else { return false };
    // (Each table is tried only on its entries' first byte: a call to compare bytes costs more in wasm.)
    if PREFIXES.iter().any(|p| p[0] == first && s.starts_with(p)) || s == b"PASS" {
        return true;
    }
    if s.starts_with(b"Exit code ") && digits(s, 10) > 0 {
        return true;
    }
    if let Some(r) = s.strip_prefix(b"make") {
        let n = digits(r, 1);
        let r = if r.first() == Some(&b'[') && n > 0 && r.get(1 + n) == Some(&b']') { &r[2 + n..] } else { r };
        if [&b": ***"[..], b": Entering directory", b": Leaving directory"].iter().any(|p| r.starts_with(p)) {
            return true;
        }
    }
    if let Some(r) = s.strip_prefix(b"npm ERR! ") {
        const NPM: [&[u8]; 9] = [
            b"code ELIFECYCLE",
            b"errno",
            b"Exit status",
            b"Failed at",
            b"Test failed",
            b"A complete log",
            b"This is probably",
            b"There is likely",
            b"Tell the author",
        ];
        let gap = space_run(r, 0);
        if NPM.iter().any(|p| r.first() == Some(&p[0]) && r.starts_with(p))
            || gap == r.len()
            || (gap > 0 && r[gap] == b'/')
            || npm_script(r)
        {
            return true;
        }
    }
    if let Some(r) = s.strip_prefix(b"[ERROR] ") {
        const MAVEN: [&[u8]; 8] = [
            b"Failed to execute goal",
            b"-> [Help",
            b"Re-run Maven",
            b"For more information",
            b"To see the full",
            b"After correcting",
            b"[Help",
            b"mvn <goals>",
        ];
        if MAVEN.iter().any(|p| r.first() == Some(&p[0]) && r.starts_with(p)) || r.iter().all(|&c| is_space(c)) {
            return true;
        }
    }
    if [&b"=== RUN"[..], b"=== PAUSE", b"=== CONT"].iter().any(|p| s.starts_with(p) && is_space_at(s, p.len())) {
        return true;
    }
    if ["✓", "✔"].iter().any(|m| s.starts_with(m.as_bytes()) && is_space_at(s, m.len())) {
        return true;
    }
    go_ok(s)
}

/// npm's `pkg@1.0.0 script: ` line: a word holding `@` inside it, one space, a word ending in `:`, one space.
fn npm_script(r: &[u8]) -> bool {
    let first = non_space_run(r, 0);
    let at_inside = first > 2 && r[1..first - 1].contains(&b'@');
    if !at_inside || r.get(first) != Some(&b' ') {
        return false;
    }
    let second = non_space_run(r, first + 1);
    second >= 2 && r[first + second] == b':' && r.get(first + 1 + second) == Some(&b' ')
}

/// go test's passing package: `ok`, spaces, the package, spaces, a duration in `s` or `ms` (maybe in brackets).
fn go_ok(s: &[u8]) -> bool {
    if !s.starts_with(b"ok") {
        return false;
    }
    let gap = space_run(s, 2);
    let name = non_space_run(s, 2 + gap);
    let mut j = 2 + gap + name;
    let gap2 = space_run(s, j);
    if gap == 0 || name == 0 || gap2 == 0 {
        return false;
    }
    j += gap2;
    if s.get(j) == Some(&b'(') {
        j += 1;
    }
    let n = s[j..].iter().take_while(|c| c.is_ascii_digit() || **c == b'.').count();
    n > 0 && (s[j + n..].starts_with(b"s") || s[j + n..].starts_with(b"ms"))
}

/// What boilerplate may end with: an exit status, a passing test's verdict.
fn boilerplate_end(b: &[u8]) -> bool {
    if find_from(b, b"Process completed with exit code", 0).is_some() {
        return true;
    }
    // `exited with [code |status ][-]N[.]` at the end, read backwards.
    let t = trim_end_spaces(b);
    let t = t.strip_suffix(b".").unwrap_or(t);
    let n = t.iter().rev().take_while(|c| c.is_ascii_digit()).count();
    let t = &t[..t.len() - n];
    let t = t.strip_suffix(b"-").unwrap_or(t);
    let exited = [&b"exited with "[..], b"exited with code ", b"exited with status "]
        .iter()
        .any(|w| t.ends_with(w) && !is_word_before(t, t.len() - w.len()));
    if n > 0 && exited {
        return true;
    }
    // `name ... ok`
    let t = trim_end_spaces(b);
    [&b"ok"[..], b"passed", b"skipped"].iter().any(|w| {
        let Some(before) = t.strip_suffix(*w) else { return false };
        let dots = trim_end_spaces(before);
        dots.len() < before.len() && dots.len() >= 4 && dots.ends_with(b"...") && is_space(dots[dots.len() - 4])
    })
}

/// How much of `s` a leading `VAR=value`, `time`/`env`/`nice`/`nohup`/`command` or `timeout [-OPT]… N` wrapper
/// and the spaces after it take, or None when `s` does not start with one.
pub(super) fn wrapper(s: &[u8]) -> Option<usize> {
    let spaces_after = |at: usize| Some(space_run(s, at)).filter(|&n| n > 0).map(|n| at + n);
    // VAR=value: the value quoted, else one word.
    if matches!(s.first(), Some(c) if c.is_ascii_alphabetic() || *c == b'_') {
        let name = 1 + s[1..].iter().take_while(|&&c| is_word(c)).count();
        if s.get(name) == Some(&b'=') {
            let v = name + 1;
            for q in [b'"', b'\''] {
                if s.get(v) == Some(&q) {
                    if let Some(close) = s[v + 1..].iter().position(|&c| c == q) {
                        if let Some(end) = spaces_after(v + 1 + close + 1) {
                            return Some(end);
                        }
                    }
                }
            }
            if let Some(end) = spaces_after(v + non_space_run(s, v)) {
                return Some(end);
            }
        }
    }
    for w in [&b"time"[..], b"env", b"nice", b"nohup", b"command"] {
        if s.starts_with(w) {
            if let Some(end) = spaces_after(w.len()) {
                return Some(end);
            }
        }
    }
    // timeout, its options (words starting with `-`), its duration: the most options that leave a duration.
    if !s.starts_with(b"timeout") {
        return None;
    }
    let mut words = Vec::new(); // (start, end) of each word after `timeout`
    let mut at = 7;
    loop {
        let gap = space_run(s, at);
        let n = non_space_run(s, at + gap);
        if gap == 0 || n == 0 {
            break;
        }
        words.push((at + gap, at + gap + n));
        at += gap + n;
    }
    let options = words.iter().take_while(|(a, e)| s[*a] == b'-' && e - a >= 2).count();
    (0..=options).rev().find_map(|k| words.get(k).and_then(|&(_, end)| spaces_after(end)))
}

fn is_space(c: u8) -> bool {
    matches!(c, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ')
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn is_space_at(s: &[u8], i: usize) -> bool {
    s.get(i).is_some_and(|&c| is_space(c))
}

fn is_word_at(s: &[u8], i: usize) -> bool {
    s.get(i).is_some_and(|&c| is_word(c))
}

fn is_word_before(s: &[u8], i: usize) -> bool {
    i > 0 && is_word(s[i - 1])
}

fn digits(s: &[u8], i: usize) -> usize {
    s.get(i..).map_or(0, |r| r.iter().take_while(|c| c.is_ascii_digit()).count())
}

fn space_run(s: &[u8], i: usize) -> usize {
    s.get(i..).map_or(0, |r| r.iter().take_while(|&&c| is_space(c)).count())
}

fn non_space_run(s: &[u8], i: usize) -> usize {
    s.get(i..).map_or(0, |r| r.iter().take_while(|&&c| !is_space(c)).count())
}

fn trim_end_spaces(s: &[u8]) -> &[u8] {
    let n = s.iter().rev().take_while(|&&c| is_space(c)).count();
    &s[..s.len() - n]
}

/// The first occurrence at or after `from` with a word boundary before it (`needle` starts with a word byte).
fn find_starting_word(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    let mut from = from;
    while let Some(i) = find_from(hay, needle, from) {
        if !is_word_before(hay, i) {
            return Some(i);
        }
        from = i + 1;
    }
    None
}

/// The first occurrence at or after `from` that is a whole word or words (`needle` starts and ends with a word
/// byte).
fn find_word(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    let mut from = from;
    while let Some(i) = find_starting_word(hay, needle, from) {
        if !is_word_at(hay, i + needle.len()) {
            return Some(i);
        }
        from = i + 1;
    }
    None
}
