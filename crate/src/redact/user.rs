//! User-supplied patterns (`RedactOptions::patterns`, `allow_patterns`), compiled with `regex-lite` only when
//! some are given, so the default start-up compiles nothing. `regex-lite` never backtracks exponentially, but
//! it is slow, so every extra pattern costs a full pass per value.

use super::rule::Rule;
use super::Found;
use regex_lite::Regex;

/// Longest pattern accepted; longer ones are ignored with a warning.
const MAX_PATTERN: usize = 4096;

/// Compiles `patterns`; a bad one is skipped with a warning naming it by position, never an error.
pub fn compile(what: &str, patterns: &[String], warnings: &mut Vec<String>) -> Vec<(u16, Regex)> {
    let mut out = Vec::new();
    for (i, p) in patterns.iter().enumerate() {
        let n = i + 1;
        if n > u16::MAX as usize {
            warnings.push(format!("{what} {n} and later ignored: too many patterns"));
            break;
        }
        if p.is_empty() || p.len() > MAX_PATTERN {
            warnings.push(format!("{what} {n} ignored: empty or longer than {MAX_PATTERN} bytes"));
            continue;
        }
        match Regex::new(p) {
            Ok(re) => out.push((n as u16, re)),
            Err(e) => warnings.push(format!("{what} {n} ignored: {}", first_line(&e.to_string()))),
        }
    }
    out
}

fn first_line(s: &str) -> &str {
    s.lines().find(|l| !l.trim().is_empty()).unwrap_or(s)
}

/// Adds the matches of the user's patterns to `found` (sorted, disjoint). A pattern with a capture group
/// redacts group 1 only (`session=(\w+)`). Matches touching a marker already in the text are ignored (markers
/// never trigger rules); matches overlapping built-in spans are merged into them, so nothing matched survives.
pub fn apply(
    custom: &[(u16, Regex)],
    text: &str,
    found: &mut Vec<Found>,
    markers: &[(usize, usize)],
    allowed: &dyn Fn(&str) -> bool,
) {
    let before = found.len();
    for (n, re) in custom {
        for caps in re.captures_iter(text) {
            let Some(m) = caps.get(1).or_else(|| caps.get(0)) else {
                continue;
            };
            let (s, e) = (m.start(), m.end());
            if s >= e || markers.iter().any(|&(ms, me)| s < me && ms < e) || allowed(m.as_str()) {
                continue;
            }
            found.push(Found { start: s, end: e, rule: Rule::Custom(*n) });
        }
    }
    if found.len() == before {
        return;
    }
    found.sort_by_key(|f| (f.start, matches!(f.rule, Rule::Custom(_))));
    let mut merged: Vec<Found> = Vec::with_capacity(found.len());
    for f in found.drain(..) {
        match merged.last_mut() {
            Some(last) if f.start < last.end => last.end = last.end.max(f.end),
            _ => merged.push(f),
        }
    }
    *found = merged;
}
