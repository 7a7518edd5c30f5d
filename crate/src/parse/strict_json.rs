//! Strict JSON scanning that keeps the caller's bytes.
//!
//! The scanner never builds a tree and never re-serialises: it validates RFC 8259 grammar and copies the
//! input to a buffer with only the insignificant whitespace outside strings removed (a recording must be
//! one line). Strings, number spellings, escapes and duplicate keys pass through byte for byte. Nesting is
//! tracked with an explicit stack, so depth is bounded by memory, not by the call stack.

use crate::bytes::{quote_or_backslash, string_specials64, SIMPLE_ESCAPES};
use std::ops::Range;

/// A valid JSON text, minified, with the top-level members located when it is an object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scanned {
    /// The minified text.
    pub text: String,
    /// For a top-level object: each member's key (with its quotes, as written) and value, as ranges of `text`.
    /// `None` when the value is not an object.
    pub members: Option<Vec<Member>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    pub key: Range<usize>,
    pub value: Range<usize>,
}

impl Scanned {
    pub fn key(&self, m: &Member) -> &str {
        &self.text[m.key.clone()]
    }
    pub fn value(&self, m: &Member) -> &str {
        &self.text[m.value.clone()]
    }
}

/// Why a text is not valid JSON, with the byte offset where the scanner gave up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanError {
    pub offset: usize,
    pub what: &'static str,
}

impl std::fmt::Display for ScanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at byte {}", self.what, self.offset)
    }
}

/// Scans a whole text: one JSON value, optionally surrounded by whitespace.
pub fn scan(text: &str) -> Result<Scanned, ScanError> {
    let (scanned, end) = scan_prefix(text, 0)?;
    let rest = skip_ws(text.as_bytes(), end);
    if rest != text.len() {
        return Err(ScanError { offset: rest, what: "unexpected text after the JSON value" });
    }
    Ok(scanned)
}

/// Scans one JSON value starting at `start` (leading whitespace allowed) and returns it with the offset
/// just past it. Text after the value is not looked at.
pub fn scan_prefix(text: &str, start: usize) -> Result<(Scanned, usize), ScanError> {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len().saturating_sub(start));
    let mut stack: Vec<u8> = Vec::new();
    let mut members: Option<Vec<Member>> = None;
    let mut key_start = 0usize;
    let mut key_end = 0usize;
    let mut value_start = 0usize;
    let mut state = State::Value;
    let mut i = start;

    loop {
        i = skip_ws(b, i);
        match state {
            State::Value => {
                let Some(&c) = b.get(i) else { return Err(err(i, "unexpected end of input, a value was expected")) };
                match c {
                    b'{' | b'[' => {
                        if stack.is_empty() && c == b'{' {
                            members = Some(Vec::new());
                        }
                        stack.push(c);
                        out.push(c as char);
                        i = skip_ws(b, i + 1);
                        let close = if c == b'{' { b'}' } else { b']' };
                        if b.get(i) == Some(&close) {
                            stack.pop();
                            out.push(close as char);
                            i += 1;
                            state = State::After;
                        } else {
                            state = if c == b'{' { State::Key } else { State::Value };
                        }
                        continue;
                    }
                    b'"' => i = copy_string(text, i, &mut out)?,
                    b'-' | b'0'..=b'9' => i = copy_number(text, i, &mut out)?,
                    b't' => i = copy_literal(text, i, "true", &mut out)?,
                    b'f' => i = copy_literal(text, i, "false", &mut out)?,
                    b'n' => i = copy_literal(text, i, "null", &mut out)?,
                    _ => return Err(err(i, "a JSON value was expected")),
                }
                state = State::After;
            }
            State::After => {
                if stack.len() == 1 {
                    if let Some(ms) = members.as_mut() {
                        if value_start > 0 || key_end > 0 {
                            ms.push(Member { key: key_start..key_end, value: value_start..out.len() });
                            value_start = 0;
                            key_end = 0;
                        }
                    }
                }
                let Some(&top) = stack.last() else { break };
                match b.get(i) {
                    Some(b',') => {
                        out.push(',');
                        i += 1;
                        state = if top == b'{' { State::Key } else { State::Value };
                    }
                    Some(b'}') if top == b'{' => {
                        stack.pop();
                        out.push('}');
                        i += 1;
                    }
                    Some(b']') if top == b'[' => {
                        stack.pop();
                        out.push(']');
                        i += 1;
                    }
                    Some(_) => return Err(err(i, "expected ',' or a closing bracket")),
                    None => return Err(err(i, "unexpected end of input inside a container")),
                }
            }
            State::Key => {
                if b.get(i) != Some(&b'"') {
                    return Err(err(i, "expected a string key"));
                }
                let top_level = stack.len() == 1;
                let start_at = out.len();
                i = copy_string(text, i, &mut out)?;
                if top_level {
                    key_start = start_at;
                    key_end = out.len();
                }
                state = State::Colon;
            }
            State::Colon => {
                if b.get(i) != Some(&b':') {
                    return Err(err(i, "expected ':' after a key"));
                }
                out.push(':');
                i += 1;
                if stack.len() == 1 {
                    value_start = out.len();
                }
                state = State::Value;
            }
        }
    }
    Ok((Scanned { text: out, members }, i))
}

#[derive(Clone, Copy)]
enum State {
    Value,
    After,
    Key,
    Colon,
}

fn err(offset: usize, what: &'static str) -> ScanError {
    ScanError { offset, what }
}

pub(crate) fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = b.get(i) {
        i += 1;
    }
    i
}

/// Copies a string token (starting at its opening quote) verbatim and returns the offset past it.
fn copy_string(text: &str, start: usize, out: &mut String) -> Result<usize, ScanError> {
    let end = string_end(text.as_bytes(), start)?;
    out.push_str(&text[start..end]);
    Ok(end)
}

/// Validates a string token and returns the offset just past its closing quote. The bytes that need a look (`"`,
/// `\\`, control characters) are found 64 at a time; between them, nothing is read.
#[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128"))]
pub(crate) fn string_end(b: &[u8], start: usize) -> Result<usize, ScanError> {
    let mut base = start + 1;
    while base < b.len() {
        let mut m = string_specials64(b, base);
        while m != 0 {
            let i = base + m.trailing_zeros() as usize;
            let next = match b[i] {
                b'"' => return Ok(i + 1),
                b'\\' => match b.get(i + 1) {
                    Some(&e) if SIMPLE_ESCAPES[usize::from(e)] != 0 => i + 2,
                    Some(b'u') => {
                        let hex = b.get(i + 2..i + 6).ok_or_else(|| err(i, "unterminated \\u escape"))?;
                        if !hex.iter().all(u8::is_ascii_hexdigit) {
                            return Err(err(i, "invalid \\u escape"));
                        }
                        i + 6
                    }
                    _ => return Err(err(i, "invalid escape in string")),
                },
                _ => return Err(err(i, "control character inside a string")),
            };
            // The escape's own bytes (an escaped `"` or `\\`) are passed over with it.
            if next - base >= 64 {
                base = next;
                m = string_specials64(b, base);
            } else {
                m &= !0u64 << (next - base);
            }
        }
        base += 64;
    }
    Err(err(b.len(), "unterminated string"))
}

fn copy_number(text: &str, start: usize, out: &mut String) -> Result<usize, ScanError> {
    let b = text.as_bytes();
    let mut i = start;
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => i = digits(b, i),
        _ => return Err(err(i, "invalid number")),
    }
    if b.get(i) == Some(&b'.') {
        let j = digits(b, i + 1);
        if j == i + 1 {
            return Err(err(i, "invalid number: digits expected after '.'"));
        }
        i = j;
    }
    if let Some(b'e' | b'E') = b.get(i) {
        i += 1;
        if let Some(b'+' | b'-') = b.get(i) {
            i += 1;
        }
        let j = digits(b, i);
        if j == i {
            return Err(err(i, "invalid number: digits expected in exponent"));
        }
        i = j;
    }
    out.push_str(&text[start..i]);
    Ok(i)
}

fn digits(b: &[u8], mut i: usize) -> usize {
    while let Some(b'0'..=b'9') = b.get(i) {
        i += 1;
    }
    i
}

fn copy_literal(text: &str, start: usize, lit: &'static str, out: &mut String) -> Result<usize, ScanError> {
    if text.as_bytes().get(start..start + lit.len()) == Some(lit.as_bytes()) {
        out.push_str(lit);
        Ok(start + lit.len())
    } else {
        Err(err(start, "invalid literal"))
    }
}

/// Decodes a JSON string token (with its quotes) to its text. `None` if it is not a valid token or holds a
/// lone surrogate escape (a string with one has no UTF-8 text).
pub fn decode_string(token: &str) -> Option<String> {
    if !token.contains('\\') {
        return token.strip_prefix('"')?.strip_suffix('"').map(str::to_owned);
    }
    let token = token.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\r'));
    let b = token.as_bytes();
    if b.first() != Some(&b'"') || string_end(b, 0).ok()? != b.len() {
        return None;
    }
    decode_checked(token)
}

/// A string token's value (`"` to `"`, nothing around it) with its escapes decoded, the rest of the token taken
/// as checked: for tokens this crate scanned or made, where checking again would read them whole a second time.
/// None for a token of another shape or a bad escape.
pub fn decode_checked(token: &str) -> Option<String> {
    let b = token.as_bytes();
    if b.len() < 2 || b[0] != b'"' || b[b.len() - 1] != b'"' {
        return None;
    }
    let end = b.len() - 1;
    let mut out = String::with_capacity(end - 1);
    let mut i = 1;
    while i < end {
        let j = quote_or_backslash(&b[..end], i);
        out.push_str(&token[i..j]);
        if j == end {
            break;
        }
        if b[j] != b'\\' || j + 1 == end {
            return None;
        }
        if b[j + 1] != b'u' {
            match SIMPLE_ESCAPES[usize::from(b[j + 1])] {
                0 => return None,
                c => out.push(char::from(c)),
            }
            i = j + 2;
            continue;
        }
        let hi = hex4(b, j + 2)?;
        // A surrogate that is not the first half of a pair is no character: `char::from_u32` refuses it.
        let (cp, len) = match hi {
            0xD800..=0xDBFF if b.get(j + 6..j + 8) == Some(b"\\u") => match hex4(b, j + 8)? {
                lo @ 0xDC00..=0xDFFF => (0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00), 12),
                _ => return None,
            },
            _ => (hi, 6),
        };
        out.push(char::from_u32(cp)?);
        i = j + len;
    }
    Some(out)
}

/// The value of the four hex digits at `i`, if there are four.
pub fn hex4(b: &[u8], i: usize) -> Option<u32> {
    let s = b.get(i..i + 4)?;
    let mut v = 0u32;
    for &c in s {
        v = v * 16 + (c as char).to_digit(16)?;
    }
    Some(v)
}

/// Encodes text as a JSON string token. Escapes `"`, `\\` and control characters, and U+2028/U+2029 so
/// the line is also valid JavaScript. Works on bytes: every byte that needs attention is ASCII or the
/// lead byte 0xE2, so multi-byte characters are copied in runs.
pub fn encode_string(s: &str, out: &mut String) {
    out.push('"');
    let b = s.as_bytes();
    let mut last = 0;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let esc: Option<&str> = match c {
            b'"' => Some("\\\""),
            b'\\' => Some("\\\\"),
            b'\n' => Some("\\n"),
            b'\r' => Some("\\r"),
            b'\t' => Some("\\t"),
            0x08 => Some("\\b"),
            0x0c => Some("\\f"),
            0x00..=0x1f => None,
            0xE2 if b.get(i + 1) == Some(&0x80) && matches!(b.get(i + 2), Some(0xA8 | 0xA9)) => None,
            _ => {
                i += 1;
                continue;
            }
        };
        out.push_str(&s[last..i]);
        let width = if c == 0xE2 { 3 } else { 1 };
        match esc {
            Some(e) => out.push_str(e),
            None => {
                use std::fmt::Write;
                let code = if c == 0xE2 { 0x2028 + u32::from(b[i + 2] - 0xA8) } else { u32::from(c) };
                let _ = write!(out, "\\u{code:04x}");
            }
        }
        i += width;
        last = i;
    }
    out.push_str(&s[last..]);
    out.push('"');
}

pub fn string_token(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    encode_string(s, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// `decode_string` against serde_json's reading of the same token (what it used before): the same text, or
    /// `None` where serde_json fails, on tokens glued from escapes, surrogate halves, quotes and text.
    #[test]
    fn decode_string_reads_as_serde_json_does() {
        const PIECES: &[&str] = &[
            "a",
            "é",
            "日",
            "\\n",
            "\\\"",
            "\\\\",
            "\\/",
            "\\b",
            "\\u0041",
            "\\u00e9",
            "\\ud83d",
            "\\ude00",
            "\\ud83d\\ude00",
            "\\uDBFF\\uDFFF",
            "\\u0000",
            "\\uZZZZ",
            "\\u12",
            "\\x",
            "\"",
            " ",
            "\t",
            "\u{1}",
            "\\",
        ];
        let mut state = 0x5eed_cafe_u32;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state
        };
        for _ in 0..20_000 {
            let mut token = String::from(if next() % 9 == 0 { " \"" } else { "\"" });
            for _ in 0..next() % 8 {
                token.push_str(PIECES[next() as usize % PIECES.len()]);
            }
            token.push_str(["\"", "\" ", "", "\"x", "\\\""][next() as usize % 5]);
            let want = if token.contains('\\') {
                serde_json::from_str::<String>(&token).ok()
            } else {
                token.strip_prefix('"').and_then(|t| t.strip_suffix('"')).map(str::to_owned)
            };
            assert_eq!(decode_string(&token), want, "{token:?}");
            // Decoding without the check agrees on every token the check passes, and never invents a value for a
            // bad escape.
            let plain = token.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\r'));
            if string_end(plain.as_bytes(), 0).ok() == Some(plain.len()) && plain.starts_with('"') {
                assert_eq!(decode_checked(plain), decode_string(plain), "{token:?}");
            } else if plain.contains("\\x") && !plain.contains("\\\\") {
                assert_eq!(decode_checked(plain), None, "{token:?}");
            }
        }
    }

    /// (input, minified output)
    const VALID: &[(&str, &str)] = &[
        ("{}", "{}"),
        ("{ }", "{}"),
        ("[]", "[]"),
        ("  {\"a\" : 1 }  ", "{\"a\":1}"),
        (
            "{\"a\":1.0,\"b\":1e5,\"c\":123456789012345678901234567890}",
            "{\"a\":1.0,\"b\":1e5,\"c\":123456789012345678901234567890}",
        ),
        ("{\"a\":\"\\u00e9\\/ x\"}", "{\"a\":\"\\u00e9\\/ x\"}"),
        ("{\"a\":1,\"a\":2}", "{\"a\":1,\"a\":2}"),
        (
            "{\n  \"s\": {\"x\": [1, 2, {\"y\": null}]},\n  \"t\": true\n}",
            "{\"s\":{\"x\":[1,2,{\"y\":null}]},\"t\":true}",
        ),
        ("\"just a string\"", "\"just a string\""),
        ("-0.5E-3", "-0.5E-3"),
        ("{\"k\":\"lone \\ud800 escape\"}", "{\"k\":\"lone \\ud800 escape\"}"),
        ("{\"é\":\"ü ✓\"}", "{\"é\":\"ü ✓\"}"),
    ];

    const INVALID: &[&str] = &[
        "",
        "{",
        "{\"note\": \"unterminated",
        "{\"a\" 1}",
        "{\"a\":1,}",
        "[1,]",
        "{a:1}",
        "{\"a\":01}",
        "{\"a\":1.}",
        "{\"a\":\"x\ny\"}",
        "{\"a\":\"\\x\"}",
        "{\"a\":tru}",
        "{} {}",
        "[1}",
        "{\"a\":1]",
    ];

    #[test]
    fn valid_texts_minify_verbatim() {
        for (input, want) in VALID {
            let got = scan(input).unwrap_or_else(|e| panic!("{input:?}: {e}"));
            assert_eq!(got.text, *want, "input {input:?}");
        }
    }

    #[test]
    fn invalid_texts_are_errors() {
        for input in INVALID {
            assert!(scan(input).is_err(), "accepted {input:?}");
        }
    }

    #[test]
    fn members_are_located_in_order_with_duplicates() {
        let s = scan("{ \"b\" : [1, {\"x\":2}], \"a\":\"v\", \"b\": 3 }").unwrap();
        let ms = s.members.as_ref().unwrap();
        let pairs: Vec<(&str, &str)> = ms.iter().map(|m| (s.key(m), s.value(m))).collect();
        assert_eq!(pairs, vec![("\"b\"", "[1,{\"x\":2}]"), ("\"a\"", "\"v\""), ("\"b\"", "3")]);
        assert!(scan("[1,2]").unwrap().members.is_none());
        assert_eq!(scan("{}").unwrap().members, Some(vec![]));
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let depth = 200_000;
        let text = format!("{{\"d\":{}{}}}", "[".repeat(depth), "]".repeat(depth));
        let s = scan(&text).unwrap();
        assert_eq!(s.members.unwrap().len(), 1);
    }

    #[test]
    fn encode_then_decode_round_trips() {
        for s in ["", "plain", "quote \" back \\ nl \n tab \t", "\u{1}\u{1f}", "é ✓ 😅", "\u{2028}"] {
            let tok = string_token(s);
            assert!(scan(&tok).is_ok(), "{tok}");
            assert_eq!(decode_string(&tok).as_deref(), Some(s));
        }
        assert_eq!(string_token("a\u{2028}b\u{2029}\u{1}é\"\\"), r#""a\u2028b\u2029\u0001é\"\\""#);
    }
}
