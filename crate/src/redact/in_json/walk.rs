//! The walk over a JSON value: strings are scanned (or, under a key that names a secret, redacted whole), arrays of
//! strings are also read as a command's arguments, and every replacement is located by its path.

use super::super::keys::{bare_key, classify_key, Family, KeyClass};
use super::super::rule::Rule;
use super::super::scan::{auth_credential, Resume};
use super::super::tokens::{twilio_sid_under, whole_token};
use super::super::values::{accept_value, Mode};
use super::super::Found;
use super::argv::{argv_spans, Args};
use super::decode::{raw_offset, read_string, Decoded, Read};
use std::rc::Rc;

/// A key as it appears in a path: its raw (escaped) text, or a redacted copy when the key itself held a secret.
enum KeySeg {
    Raw(usize, usize),
    Owned(String),
}

enum Frame {
    /// `named`: what a `"name"` (or `"key"`) member of this object named, when that names a secret: its `"value"`
    /// member is then that secret (`{"name": "X-Goog-Signature", "value": "…"}` in HAR files, container env lists).
    Obj {
        key: Option<KeySeg>,
        want_key: bool,
        named: Option<KeyClass>,
    },
    Arr {
        idx: usize,
    },
}

/// Whether a member key is one of the two halves of a name/value pair: `Some(true)` for `name`/`key`, `Some(false)`
/// for `value`.
fn pair_half(key: &[u8]) -> Option<bool> {
    match key {
        b"name" | b"Name" | b"key" | b"Key" => Some(true),
        b"value" | b"Value" => Some(false),
        _ => None,
    }
}

/// One replacement in the raw text: `start..end` becomes the marker for `rule`; `path` locates it.
pub struct Edit {
    pub start: usize,
    pub end: usize,
    pub rule: Rule,
    /// Shared by the edits of one string.
    pub path: Rc<str>,
}

/// Scans the raw content of a string whose escapes are all two bytes long, given the escaped bits (see
/// `scan::Scanner::run_raw`) and whether a `$` may stand in it: `Ok` when the decoded content is proven to hold
/// nothing to redact, else where the scan of the decoded content is to go on from (in raw offsets).
pub type ScanRaw<'a> = &'a dyn Fn(&str, &[u64], bool) -> Result<(), Resume>;

/// Walks `raw` and returns the edits, in order. `parent_key` is the key of the member `raw` is the value of, when
/// the caller holds them apart. `scan` finds spans in decoded text (built-in rules, user patterns, allow lists),
/// from the start of the text or from where a raw scan gave up; `scan_raw`, when given, can prove a long string
/// clean without decoding it (only when `scan` runs the built-in rules alone); `allowed` is the allow list, for
/// whole-value redactions.
/// `dec`: the buffers strings are decoded into, which the caller may keep from one walk to the next (see
/// [`Decoded::trim`]).
pub fn walk(
    raw: &str,
    parent_key: Option<&str>,
    scan: &dyn Fn(&str, Resume) -> Vec<Found>,
    scan_raw: Option<ScanRaw>,
    allowed: &dyn Fn(&str) -> bool,
    dec: &mut Decoded,
) -> Vec<Edit> {
    let b = raw.as_bytes();
    let n = b.len();
    let mut stack: Vec<Frame> = Vec::new();
    // The arguments read so far of the innermost array opened last, and its depth in `stack` (an array in which
    // another one was opened is no longer read as arguments: what follows the inner one is not its next argument).
    let mut args = Args::default();
    let mut args_depth = 0;
    let mut edits: Vec<Edit> = Vec::new();
    let mut i = 0;
    while i < n {
        match b[i] {
            b'"' => {
                let is_key = matches!(stack.last(), Some(Frame::Obj { want_key: true, .. }));
                // The key this string is the value of (raw, or the redacted copy of a key that held a secret).
                let member_key: Option<&[u8]> = if is_key {
                    None
                } else {
                    match stack.last() {
                        Some(Frame::Obj { key: Some(KeySeg::Raw(ks, ke)), .. }) => Some(&b[*ks..*ke]),
                        Some(Frame::Obj { key: Some(KeySeg::Owned(k)), .. }) => Some(k.as_bytes()),
                        Some(_) => None,
                        None => parent_key.map(str::as_bytes),
                    }
                };
                let half = member_key.and_then(pair_half);
                let named = match stack.last() {
                    Some(Frame::Obj { named, .. }) if half == Some(false) => *named,
                    _ => None,
                };
                let kc = member_key.and_then(|k| classify_key(k).or_else(|| bare_key(k))).or(named);
                // A value redacted whole needs the decoded text; the others may be proven clean undecoded.
                let scan_raw = if kc.is_none() { scan_raw } else { None };
                // One pass finds the end and, when there are escapes, decodes; otherwise the raw content is the text.
                let (cs, ce, next, read) = read_string(raw, i, dec, scan_raw);
                let has_escape = matches!(read, Read::Decoded(_));
                let text: &str = if has_escape { dec.text() } else { &raw[cs..ce] };
                let mut spans = match kc.and_then(|kc| whole_value(text, kc, allowed)) {
                    Some(f) => vec![f],
                    None if member_key.is_some_and(|k| twilio_sid_under(k, text.as_bytes())) && !allowed(text) => {
                        vec![Found { start: 0, end: text.len(), rule: Rule::TwilioKey }]
                    }
                    None => match read {
                        Read::Clean => Vec::new(),
                        Read::Decoded(from) => scan(text, from),
                        Read::Plain => scan(text, Resume::START),
                    },
                };
                if matches!(stack.last(), Some(Frame::Arr { .. })) && stack.len() == args_depth {
                    // An element of a command's arguments: read with the program and the arguments before it.
                    if args.near_option(b, cs, ce) {
                        argv_spans(b, cs, ce, &args, scan, &mut spans);
                    }
                    args.push(cs, ce);
                }
                let mut seg = if is_key { Some(KeySeg::Raw(cs, ce)) } else { None };
                if !spans.is_empty() {
                    let at = |d: usize| cs + if has_escape { raw_offset(&dec.escs, d) } else { d };
                    let ranges: Vec<(usize, usize)> = spans.iter().map(|f| (at(f.start), at(f.end))).collect();
                    if is_key {
                        seg = Some(KeySeg::Owned(redacted_copy(raw, cs, ce, &spans, &ranges)));
                    }
                    let path: Rc<str> = path_of(raw, &stack, seg.as_ref()).into();
                    for (f, &(start, end)) in spans.iter().zip(&ranges) {
                        edits.push(Edit { start, end, rule: f.rule, path: Rc::clone(&path) });
                    }
                }
                if half == Some(true) {
                    if let Some(Frame::Obj { named, .. }) = stack.last_mut() {
                        *named = classify_key(text.as_bytes());
                    }
                }
                if let (Some(seg), Some(Frame::Obj { key, want_key, .. })) = (seg, stack.last_mut()) {
                    *key = Some(seg);
                    *want_key = false;
                }
                i = next;
            }
            b'{' => {
                stack.push(Frame::Obj { key: None, want_key: true, named: None });
                i += 1;
            }
            b'[' => {
                stack.push(Frame::Arr { idx: 0 });
                args = Args::default();
                args_depth = stack.len();
                i += 1;
            }
            b'}' | b']' => {
                stack.pop();
                i += 1;
            }
            b',' => {
                match stack.last_mut() {
                    Some(Frame::Arr { idx }) => *idx += 1,
                    Some(Frame::Obj { key, want_key, .. }) => {
                        *key = None;
                        *want_key = true;
                    }
                    None => {}
                }
                i += 1;
            }
            b':' => {
                if let Some(Frame::Obj { want_key, .. }) = stack.last_mut() {
                    *want_key = false;
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    edits
}

/// A string value under a key that names a secret is redacted whole — except an `Authorization` value, whose
/// scheme stays, and values that are placeholders, messages, or PEM blocks (left to the PEM rule, which keeps
/// the armour lines).
fn whole_value(text: &str, kc: KeyClass, allowed: &dyn Fn(&str) -> bool) -> Option<Found> {
    let v = text.as_bytes();
    let found = if kc.family == Family::Authorization {
        let (s, e) = auth_credential(v, 0)?;
        Found { start: s, end: e, rule: whole_token(&v[s..e]).unwrap_or(kc.rule) }
    } else {
        if v.starts_with(b"-----BEGIN") {
            return None;
        }
        let rule = match whole_token(v) {
            Some(r) => r,
            None if accept_value(v, Mode::Literal, kc.family) => kc.rule,
            None => return None,
        };
        Found { start: 0, end: v.len(), rule }
    };
    (!allowed(&text[found.start..found.end])).then_some(found)
}

/// The raw content `cs..ce` with the spans (decoded offsets) replaced by markers; used for a path segment.
fn redacted_copy(raw: &str, cs: usize, ce: usize, spans: &[Found], ranges: &[(usize, usize)]) -> String {
    let mut out = String::new();
    let mut last = cs;
    for (f, &(s, e)) in spans.iter().zip(ranges) {
        out.push_str(raw.get(last..s).unwrap_or(""));
        super::super::rule::push_marker(&mut out, f.rule);
        last = e;
    }
    out.push_str(raw.get(last..ce).unwrap_or(""));
    out
}

/// `$`, `$.env.API_KEY`, `$.items[3]`, `$["a b"]` — built only when something was redacted. Keys are written as
/// they are in the document (JSON-escaped), with any secret inside them already replaced by its marker.
fn path_of(raw: &str, stack: &[Frame], leaf: Option<&KeySeg>) -> String {
    let mut p = String::from("$");
    let leaf = leaf.map(|k| Frame::Obj { key: Some(borrow_seg(k)), want_key: false, named: None });
    for f in stack.iter().chain(leaf.iter()) {
        match f {
            Frame::Arr { idx } => {
                p.push('[');
                p.push_str(&idx.to_string());
                p.push(']');
            }
            Frame::Obj { key: Some(k), .. } => {
                let k: &str = match k {
                    KeySeg::Raw(s, e) => raw.get(*s..*e).unwrap_or(""),
                    KeySeg::Owned(s) => s,
                };
                let plain = !k.is_empty()
                    && k.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-' || c == b'$');
                if plain {
                    p.push('.');
                    p.push_str(k);
                } else {
                    p.push_str("[\"");
                    p.push_str(k);
                    p.push_str("\"]");
                }
            }
            Frame::Obj { key: None, .. } => {}
        }
    }
    p
}

fn borrow_seg(k: &KeySeg) -> KeySeg {
    match k {
        KeySeg::Raw(s, e) => KeySeg::Raw(*s, *e),
        KeySeg::Owned(s) => KeySeg::Owned(s.clone()),
    }
}
