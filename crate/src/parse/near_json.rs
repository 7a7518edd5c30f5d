//! A relaxed reader for object-like text that is not JSON: `{grade: F, confidence: high}`,
//! `{'note': 'x',}`, `{note: "two\nlines"}` with a raw newline, `key = value` pairs.
//!
//! It turns what it reads into valid JSON members. Values that are already valid JSON keep their bytes;
//! bare words become strings. It is used for the `{...}` tail of loose text and for input that starts with
//! `{` but is not valid JSON. Whatever it returns, the caller keeps the verbatim input beside it.

use super::strict_json::{self, string_token};

/// A member read by the relaxed reader: the key as text and the value as valid JSON text.
pub type Field = (String, String);

/// Nesting deeper than this is not read as relaxed input (it is then kept verbatim elsewhere).
const MAX_DEPTH: usize = 64;

/// Reads a relaxed object starting at `start` (which must be `{`). Returns the members and the offset
/// just past the closing `}`, or `None` when the text is not object-like.
pub fn object(text: &str, start: usize) -> Option<(Vec<Field>, usize)> {
    let mut p = Parser { text, b: text.as_bytes(), depth: 0 };
    let (fields, end) = p.object(start)?;
    Some((fields, end))
}

/// Renders relaxed members as one minified JSON object.
pub fn render(fields: &[Field]) -> String {
    let mut out = String::from("{");
    for (i, (k, v)) in fields.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        strict_json::encode_string(k, &mut out);
        out.push(':');
        out.push_str(v);
    }
    out.push('}');
    out
}

struct Parser<'a> {
    text: &'a str,
    b: &'a [u8],
    depth: usize,
}

impl Parser<'_> {
    fn ws(&self, mut i: usize) -> usize {
        while i < self.b.len() {
            let rest = &self.text[i..];
            match rest.chars().next() {
                Some(c) if c.is_whitespace() => i += c.len_utf8(),
                _ => break,
            }
        }
        i
    }

    fn object(&mut self, start: usize) -> Option<(Vec<Field>, usize)> {
        if self.b.get(start) != Some(&b'{') || self.depth >= MAX_DEPTH {
            return None;
        }
        self.depth += 1;
        let mut fields = Vec::new();
        let mut i = self.ws(start + 1);
        loop {
            match self.b.get(i)? {
                b'}' => {
                    self.depth -= 1;
                    return Some((fields, i + 1));
                }
                b',' | b';' => {
                    i = self.ws(i + 1);
                    continue;
                }
                _ => {}
            }
            let (key, after_key) = self.key(i)?;
            i = self.ws(after_key);
            match self.b.get(i)? {
                b':' | b'=' => i = self.ws(i + 1),
                _ => return None,
            }
            let (value, after_value) = self.value(i, b'}')?;
            fields.push((key, value));
            i = self.ws(after_value);
            match self.b.get(i)? {
                b',' | b';' => i = self.ws(i + 1),
                b'}' => {}
                _ => return None,
            }
        }
    }

    fn array(&mut self, start: usize) -> Option<(String, usize)> {
        if self.depth >= MAX_DEPTH {
            return None;
        }
        self.depth += 1;
        let mut out = String::from("[");
        let mut i = self.ws(start + 1);
        let mut first = true;
        loop {
            match self.b.get(i)? {
                b']' => {
                    out.push(']');
                    self.depth -= 1;
                    return Some((out, i + 1));
                }
                b',' => {
                    i = self.ws(i + 1);
                    continue;
                }
                _ => {}
            }
            let (value, after) = self.value(i, b']')?;
            if !first {
                out.push(',');
            }
            first = false;
            out.push_str(&value);
            i = self.ws(after);
            match self.b.get(i)? {
                b',' => i = self.ws(i + 1),
                b']' => {}
                _ => return None,
            }
        }
    }

    fn key(&self, i: usize) -> Option<(String, usize)> {
        match self.b.get(i)? {
            b'"' | b'\'' => self.quoted(i),
            _ => {
                let end = self.bare_end(i, b":=,}{[]\n");
                let key = self.text[i..end].trim();
                if key.is_empty() {
                    return None;
                }
                Some((key.to_owned(), end))
            }
        }
    }

    /// A value ends at `,` or at the closing bracket of its container.
    fn value(&mut self, i: usize, close: u8) -> Option<(String, usize)> {
        // Strict JSON keeps its bytes when it ends where a relaxed value may end.
        if let Ok((scanned, end)) = strict_json::scan_prefix(self.text, i) {
            let next = self.ws(end);
            if matches!(self.b.get(next), Some(b',' | b';')) || self.b.get(next) == Some(&close) {
                return Some((scanned.text, end));
            }
        }
        match self.b.get(i)? {
            b'{' => {
                let (fields, end) = self.object(i)?;
                Some((render(&fields), end))
            }
            b'[' => self.array(i),
            b'"' | b'\'' => {
                let (s, end) = self.quoted(i)?;
                Some((string_token(&s), end))
            }
            _ => {
                let end = self.bare_end(i, &[b',', b';', close]);
                let word = self.text[i..end].trim();
                if word.is_empty() {
                    return None;
                }
                Some((string_token(word), end))
            }
        }
    }

    fn bare_end(&self, mut i: usize, stops: &[u8]) -> usize {
        while let Some(c) = self.b.get(i) {
            if stops.contains(c) {
                break;
            }
            i += 1;
        }
        // Stops are ASCII, so `i` is on a character boundary.
        i
    }

    /// A single- or double-quoted string read leniently: raw control characters are allowed, unknown
    /// escapes are kept as written.
    fn quoted(&self, start: usize) -> Option<(String, usize)> {
        let q = self.b[start];
        if q == b'"' {
            if let Ok(end) = strict_json::string_end(self.b, start) {
                if let Some(s) = strict_json::decode_string(&self.text[start..end]) {
                    return Some((s, end));
                }
            }
        }
        let mut out = String::new();
        let mut chars = self.text[start + 1..].char_indices();
        while let Some((off, c)) = chars.next() {
            match c {
                c if c as u32 == q as u32 => return Some((out, start + 1 + off + 1)),
                '\\' => match chars.next() {
                    Some((_, 'n')) => out.push('\n'),
                    Some((_, 't')) => out.push('\t'),
                    Some((_, 'r')) => out.push('\r'),
                    Some((_, e @ ('"' | '\'' | '\\' | '/'))) => out.push(e),
                    Some((_, other)) => {
                        out.push('\\');
                        out.push(other);
                    }
                    None => return None,
                },
                c => out.push(c),
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// (input, rendered object)
    const CASES: &[(&str, &str)] = &[
        ("{grade: F, confidence: high}", r#"{"grade":"F","confidence":"high"}"#),
        ("{'note': 'it is', n: 1.50,}", r#"{"note":"it is","n":1.50}"#),
        ("{a: [1, two, \"3\"], b: {c: d}}", r#"{"a":[1,"two","3"],"b":{"c":"d"}}"#),
        ("{note: \"two\nlines\"}", r#"{"note":"two\nlines"}"#),
        ("{ \"ok\": true ; x = y }", r#"{"ok":true,"x":"y"}"#),
        ("{sentiment: {guilt: [1, 2]}, fixed: true}", r#"{"sentiment":{"guilt":[1,2]},"fixed":true}"#),
        ("{}", "{}"),
        ("{grade: A+ with a comment}", r#"{"grade":"A+ with a comment"}"#),
    ];

    #[test]
    fn relaxed_objects_render_as_json() {
        for (input, want) in CASES {
            let (fields, end) = object(input, 0).unwrap_or_else(|| panic!("not read: {input:?}"));
            assert_eq!(render(&fields), *want, "{input:?}");
            assert_eq!(end, input.len(), "{input:?}");
            assert!(strict_json::scan(&render(&fields)).is_ok());
        }
    }

    #[test]
    fn not_object_like() {
        for input in ["{\"note\": \"unterminated", "{", "{a}", "{a: 1", "{: 1}", "x"] {
            assert!(object(input, 0).is_none(), "{input:?}");
        }
    }

    #[test]
    fn deep_relaxed_nesting_is_refused_not_overflowed() {
        let text = format!("{}{}", "{a:".repeat(10_000), "}".repeat(10_000));
        assert!(object(&text, 0).is_none());
    }
}
