//! Secret redaction: finds credentials in what agents record and replaces each with `[REDACTED:<rule-id>]`.
//!
//! # Contract
//! - **Pure and total.** No clock, filesystem or environment; no input panics. Bad user patterns become
//!   warnings from [`Redactor::new`], never failures.
//! - **Markers, not silence.** A secret becomes `[REDACTED:<rule-id>]`; each call also returns [`Hit`]s (path,
//!   rule, count — never the secret nor a hash of it). Entries carry [`RULESET_VERSION`] so old entries can be
//!   re-redacted when the rules improve.
//! - **Idempotent.** Redacting output again changes nothing: markers are skipped, never matched.
//! - **Byte identity.** [`Redactor::redact_json`] changes only the contents of JSON strings; a marker needs no
//!   escaping, and a redacted range always covers whole escapes.
//! - **Cheap start.** The built-in rules are hand-written matchers over bytes, not regexes: nothing is compiled
//!   when a `Redactor` is made, unless the user supplies patterns (those use `regex-lite`).
//!
//!
//! What each rule finds, one line per rule, and the filters that keep placeholders, code and prose out: docs/redaction.md.
//!
//! # Layout
//! - [`rule`]: the rule ids. `tokens`: vendor token shapes; `prefixes`: the table of vendors' documented token leads.
//!   `keys`: key names that announce a secret. `values`: the filters a candidate value must pass. `chars`: the byte
//!   helpers they share. `hashes`: password hashes in the crypt format, found by a pass of their own.
//! - `scan`: the one pass over text that applies them; `command`: passwords given to programs on their command line.
//! - `in_json`: the walk over a JSON value, which scans its strings; `echoes`: other copies of what was found;
//!   `hits`: what was found where, merged for the entry's `redacted` list; `user`: the caller's own patterns.

mod chars;
mod command;
mod echoes;
mod hashes;
mod hits;
mod in_json;
mod keys;
mod prefixes;
pub mod rule;
mod scan;
mod tokens;
mod user;
mod values;

use hits::Hits;
use keys::KeyCache;
use rule::push_marker;
use std::cell::RefCell;

pub use rule::{Rule, BUILTIN_RULES};

/// Version of the built-in rule set, written next to every redaction list. Bump when rules change.
pub const RULESET_VERSION: &str = "2026-12-02.3";

/// Redaction settings. `Default` is enabled with no extra patterns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RedactOptions {
    /// `false` turns redaction off entirely (every call returns `None`).
    pub enabled: bool,
    /// Extra patterns (`regex-lite` syntax); a match is redacted as `custom-<n>` (1-based). With a capture
    /// group, only group 1 is redacted.
    pub patterns: Vec<String>,
    /// Literals never redacted: a candidate secret equal to one of these stays.
    pub allow: Vec<String>,
    /// Patterns (`regex-lite`, searched within the candidate; anchor with `^…$` for a full match) whose
    /// matching candidates stay.
    pub allow_patterns: Vec<String>,
}

impl Default for RedactOptions {
    fn default() -> Self {
        RedactOptions { enabled: true, patterns: Vec::new(), allow: Vec::new(), allow_patterns: Vec::new() }
    }
}

/// One redaction: `start..end` (byte offsets into the scanned text, on character boundaries) becomes a marker of
/// `rule`. Every finder (scan, echoes, hashes, user patterns) reports in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// Where the redacted span starts.
    pub start: usize,
    /// Just past where it ends.
    pub end: usize,
    /// Which rule found it.
    pub rule: Rule,
}

/// What was redacted where: `path` is `$` for free text and for a JSON value itself, `$.env.API_KEY`,
/// `$.items[2]`, `$["odd key"]` inside one (relative to the value given). Keys in paths are written as in the
/// document (JSON-escaped); write the path through a JSON encoder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Where: a JSON path (see above).
    pub path: String,
    /// The rule's id.
    pub rule: String,
    /// How many secrets that rule replaced there.
    pub count: usize,
}

/// How many more passes [`Redactor::redact_text`] makes over its own result at most.
const MORE_PASSES: usize = 3;

/// A configured redactor. Cheap to build (nothing is compiled unless user patterns are given); its configuration
/// never changes.
pub struct Redactor {
    enabled: bool,
    allow: Vec<String>,
    allow_re: Vec<(u16, regex_lite::Regex)>,
    custom: Vec<(u16, regex_lite::Regex)>,
    /// What `classify_key` said of the keys met so far, kept from call to call: entries repeat their keys (`tool`,
    /// `output`, `exit_code`, the keys of the log lines they quote), and a fresh cache for each call made every key
    /// a miss again (on a 1 KiB entry, a fifth of the core's redaction time; wasm profile). The answers depend on
    /// the key's bytes alone, so what the cache holds changes speed, never results. Not shared between threads
    /// (the wasm core has one).
    keys: RefCell<KeyCache>,
    /// The buffers JSON strings are decoded into, kept from call to call (up to 64 KiB each): allocating and growing
    /// them was a tenth of the redaction of a 1 KiB entry holding secrets (wasm profile).
    decoded: RefCell<in_json::Decoded>,
}

impl Redactor {
    /// Builds a redactor. Bad user patterns are skipped and reported in the warnings; this never fails.
    pub fn new(opts: &RedactOptions) -> (Redactor, Vec<String>) {
        let mut warnings = Vec::new();
        let (custom, allow_re) = if opts.enabled {
            (
                user::compile("redaction pattern", &opts.patterns, &mut warnings),
                user::compile("allow pattern", &opts.allow_patterns, &mut warnings),
            )
        } else {
            (Vec::new(), Vec::new())
        };
        let allow = opts.allow.iter().filter(|a| !a.is_empty()).cloned().collect();
        let (keys, decoded) = (RefCell::default(), RefCell::default());
        (Redactor { enabled: opts.enabled, allow, allow_re, custom, keys, decoded }, warnings)
    }

    /// Redacts free text (a decoded string). Returns `None` when nothing matched (the fast, common case).
    /// Hits have path `$`.
    pub fn redact_text(&self, text: &str) -> Option<(String, Vec<Hit>)> {
        let spans = self.spans(text);
        if spans.is_empty() {
            return None;
        }
        let (mut out, mut hits) = apply(text, &spans);
        // A marker can leave text another rule reads anew (a label now followed by a marker and a rest): a pass
        // over the result, until it finds nothing, keeps redacting idempotent. Text without secrets never pays it.
        for _ in 0..MORE_PASSES {
            let more = self.spans(&out);
            if more.is_empty() {
                break;
            }
            let (next, found) = apply(&out, &more);
            out = next;
            for h in found {
                match hits.iter_mut().find(|x| x.path == h.path && x.rule == h.rule) {
                    Some(x) => x.count += h.count,
                    None => hits.push(h),
                }
            }
        }
        Some((out, hits))
    }

    /// What [`redact_text`](Self::redact_text) replaces in `text`, in order: for a caller that decides where the text
    /// ends before redacting it (pieces of an oversized input).
    pub(crate) fn spans(&self, text: &str) -> Vec<Found> {
        if !self.enabled || text.is_empty() {
            return Vec::new();
        }
        self.with_keys(|keys| self.find(text, keys, scan::Resume::START))
    }

    /// Whether redaction is on.
    pub(crate) fn enabled(&self) -> bool {
        self.enabled
    }

    /// Redacts a valid, minified JSON value given as raw text (one top-level member's value, or a whole
    /// document). Only the contents of JSON strings change; a string whose key names a secret is redacted
    /// whole. Nesting is walked iteratively. Hits carry the path relative to the value (`$.env.API_KEY`).
    pub fn redact_json(&self, raw: &str) -> Option<(String, Vec<Hit>)> {
        self.redact_json_inner(raw, None, true, 0)
    }

    /// [`redact_json`](Self::redact_json) whose result has room for `room` more bytes (what the caller appends
    /// to it next), so that appending does not copy it again.
    pub fn redact_json_with_room(&self, raw: &str, room: usize) -> Option<(String, Vec<Hit>)> {
        self.redact_json_inner(raw, None, true, room)
    }

    /// Like [`redact_json`](Self::redact_json) for the value of a member whose key the caller holds apart: a
    /// string value is redacted whole when `key` names a secret (an `Authorization` value keeps its scheme).
    pub fn redact_json_member(&self, key: &str, raw: &str) -> Option<(String, Vec<Hit>)> {
        self.redact_json_inner(raw, Some(key), true, 0)
    }

    /// [`redact_json`](Self::redact_json) decoding every string with escapes before scanning it, never scanning
    /// one raw: the reference the raw scan is tested against.
    #[cfg(test)]
    fn redact_json_decoded(&self, raw: &str, key: Option<&str>) -> Option<(String, Vec<Hit>)> {
        self.redact_json_inner(raw, key, false, 0)
    }

    /// Whether a member key names a secret (`password`, `api_key`, `clientSecret`, `Authorization`, …; not
    /// `public_key`, `token_count`, `max_tokens`, `secret_name`). Always `false` when disabled.
    pub fn secret_key(&self, key: &str) -> bool {
        self.enabled && keys::names_secret(key.as_bytes())
    }

    /// `raw_scan`: whether long strings with escapes may be proven clean without decoding them (see
    /// `scan::Scanner::run_raw`); `false` only in tests, as the reference. `room`: spare capacity for the result.
    fn redact_json_inner(
        &self,
        raw: &str,
        key: Option<&str>,
        raw_scan: bool,
        room: usize,
    ) -> Option<(String, Vec<Hit>)> {
        if !self.enabled || raw.is_empty() {
            return None;
        }
        let find = |t: &str, from: scan::Resume| self.with_keys(|keys| self.find(t, keys, from));
        let allowed = |s: &str| self.allowed(s);
        // User patterns run on decoded text: with any, every string is decoded.
        let clean_raw = |content: &str, esc: &[u64], dollar: bool| {
            if dollar && hashes::may_hold_hash(content.as_bytes()) {
                return Err(scan::Resume::START); // (found by a pass of their own over the decoded text)
            }
            self.with_keys(|keys| scan::Scanner::new_raw(content, esc, &allowed, keys).run_raw())
        };
        let scan_raw: Option<in_json::ScanRaw> =
            if raw_scan && self.custom.is_empty() { Some(&clean_raw) } else { None };
        let edits = kept(&self.decoded, |dec| {
            let edits = in_json::walk(raw, key, &find, scan_raw, &allowed, dec);
            dec.trim();
            edits
        });
        if edits.is_empty() {
            return None;
        }
        let mut out = String::with_capacity(raw.len() + 24 * edits.len() + room);
        let mut hits = Hits::default();
        let mut last = 0;
        for e in &edits {
            if e.start < last || e.end < e.start {
                continue;
            }
            let Some(before) = raw.get(last..e.start) else { continue };
            out.push_str(before);
            push_marker(&mut out, e.rule);
            hits.add(&e.path, e.rule);
            last = e.end;
        }
        out.push_str(raw.get(last..).unwrap_or(""));
        Some((out, hits.into_vec()))
    }

    /// Runs `f` with the key cache.
    fn with_keys<T>(&self, f: impl FnOnce(&mut KeyCache) -> T) -> T {
        kept(&self.keys, f)
    }

    fn allowed(&self, s: &str) -> bool {
        self.allow.iter().any(|a| a == s) || self.allow_re.iter().any(|(_, r)| r.is_match(s))
    }

    /// Spans to redact in decoded text: built-in rules, then user patterns merged in. The built-in rules are looked
    /// for from `from`: the start, or where a raw scan of the text gave up (see `scan::Scanner::run_raw`).
    fn find(&self, text: &str, keys: &mut KeyCache, from: scan::Resume) -> Vec<Found> {
        let allowed = |s: &str| self.allowed(s);
        let mut sc = scan::Scanner::new(text, &allowed, keys);
        if from == scan::Resume::START {
            sc.run();
        } else {
            sc.run_from(from);
        }
        let mut found = std::mem::take(&mut sc.out);
        hashes::add(text, &mut found, &allowed);
        if !self.custom.is_empty() {
            user::apply(&self.custom, text, &mut found, &sc.markers, &allowed);
        }
        if !found.is_empty() {
            echoes::add(text, &mut found);
        }
        found
    }
}

/// `text` with `spans` (sorted; one that overlaps an earlier one is passed over) replaced by markers, and the hits (path
/// `$`).
pub(crate) fn apply(text: &str, spans: &[Found]) -> (String, Vec<Hit>) {
    let mut out = String::with_capacity(text.len() + 24 * spans.len());
    let mut hits = Hits::default();
    let mut last = 0;
    for f in spans {
        if f.start < last {
            continue;
        }
        out.push_str(text.get(last..f.start).unwrap_or(""));
        push_marker(&mut out, f.rule);
        hits.add("$", f.rule);
        last = f.end;
    }
    out.push_str(text.get(last..).unwrap_or(""));
    (out, hits.into_vec())
}

/// Runs `f` with what a redactor keeps from call to call in `cell` (its key cache, its decoding buffers). The calls
/// that use one never nest; were one to, it would get a fresh one rather than a panic.
fn kept<K: Default, T>(cell: &RefCell<K>, f: impl FnOnce(&mut K) -> T) -> T {
    match cell.try_borrow_mut() {
        Ok(mut k) => f(&mut k),
        Err(_) => f(&mut K::default()),
    }
}

#[cfg(test)]
mod differential;
#[cfg(test)]
pub(crate) mod tests;
