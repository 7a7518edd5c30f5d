//! Lines for the quarantine file: what cannot be kept faithfully in the main file is kept there verbatim and
//! recoverable (a JSON string, or base64 of the bytes or UTF-16 code units with a lossy preview), redacted.

use crate::b64;
use crate::context::Stamps;
use crate::line::Line;
use crate::outcome::{Outcome, Reason, Style, Target};
use crate::parse::strict_json::string_token;
use crate::redact::{Hit, Redactor};

/// Longest lossy preview kept beside base64 bytes in quarantine.
const PREVIEW_BYTES: usize = 2048;

/// What quarantine keeps of the input.
pub enum Raw<'a> {
    /// Valid UTF-8 that could not be read as an entry: kept as a JSON string (exact round trip).
    Text(&'a str),
    /// Valid UTF-8 already redacted (the piece of an oversized input, redacted with the bytes after it in view), and
    /// what was redacted in it (path `$`).
    Redacted { text: &'a str, hits: Vec<Hit> },
    /// Bytes that are not valid UTF-8: base64 plus a lossy preview.
    Bytes { bytes: &'a [u8], encoding: &'static str },
    /// UTF-16 code units with a lone surrogate: base64 of UTF-16LE plus a lossy preview.
    Utf16(&'a [u16]),
}

pub fn quarantine(
    reason: Reason,
    raw: Raw<'_>,
    now: f64,
    random: [u8; 8],
    ctx: &Stamps,
    redactor: &Redactor,
    extra: &[(String, String)],
) -> Outcome {
    quarantine_with(&reason, raw, now, None, random, ctx, redactor, extra)
}

#[allow(clippy::too_many_arguments)]
pub fn quarantine_with(
    reason: &Reason,
    raw: Raw<'_>,
    now: f64,
    eid: Option<&str>,
    random: [u8; 8],
    ctx: &Stamps,
    redactor: &Redactor,
    extra: &[(String, String)],
) -> Outcome {
    let mut line = Line::new(&[]);
    line.head(now, eid, random);
    for (k, v) in extra {
        line.member(k, v);
    }
    line.member("reason", &string_token(&reason.to_string()));
    match raw {
        Raw::Text(t) => line.member("raw", &string_token(t)),
        Raw::Redacted { text, hits } => {
            line.note_hits("$.raw", hits);
            line.member("raw", &string_token(text));
            line.redacted_already();
        }
        Raw::Bytes { bytes, encoding } => {
            let (clean, n) = redact_bytes(bytes, redactor);
            line.note_hits("$.raw_b64", n);
            line.member("raw_b64", &string_token(&b64::encode(&clean)));
            line.member("raw_encoding", &string_token(encoding));
            line.member("preview", &string_token(&preview(&String::from_utf8_lossy(&clean))));
        }
        Raw::Utf16(units) => {
            let (clean, n) = redact_utf16(units, redactor);
            line.note_hits("$.raw_b64", n);
            let bytes: Vec<u8> = clean.iter().flat_map(|u| u.to_le_bytes()).collect();
            line.member("raw_b64", &string_token(&b64::encode(&bytes)));
            line.member("raw_encoding", &string_token("utf-16le"));
            line.member("preview", &string_token(&preview(&String::from_utf16_lossy(&clean))));
        }
    }
    line.finish(Target::Quarantine, Style::Quarantine, Some(reason.clone()), Vec::new(), ctx, redactor)
}

fn preview(s: &str) -> String {
    if s.len() <= PREVIEW_BYTES {
        return s.to_owned();
    }
    let mut end = PREVIEW_BYTES;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}

/// Redacts the valid UTF-8 runs of bytes that are not UTF-8 as a whole, leaving the bad bytes in place.
fn redact_bytes(bytes: &[u8], redactor: &Redactor) -> (Vec<u8>, Vec<Hit>) {
    let mut out = Vec::with_capacity(bytes.len());
    let mut n = Vec::new();
    for chunk in bytes.utf8_chunks() {
        match redactor.redact_text(chunk.valid()) {
            Some((clean, hits)) => {
                n.extend(hits);
                out.extend_from_slice(clean.as_bytes());
            }
            None => out.extend_from_slice(chunk.valid().as_bytes()),
        }
        out.extend_from_slice(chunk.invalid());
    }
    (out, n)
}

/// Redacts the well-formed runs of UTF-16 with lone surrogates, leaving the surrogates in place.
fn redact_utf16(units: &[u16], redactor: &Redactor) -> (Vec<u16>, Vec<Hit>) {
    let mut out = Vec::with_capacity(units.len());
    let mut n = Vec::new();
    let mut run = String::new();
    let flush = |run: &mut String, out: &mut Vec<u16>, n: &mut Vec<Hit>| {
        let clean = match redactor.redact_text(run) {
            Some((clean, hits)) => {
                n.extend(hits);
                clean
            }
            None => std::mem::take(run),
        };
        out.extend(clean.encode_utf16());
        run.clear();
    };
    for r in char::decode_utf16(units.iter().copied()) {
        match r {
            Ok(c) => run.push(c),
            Err(e) => {
                flush(&mut run, &mut out, &mut n);
                out.push(e.unpaired_surrogate());
            }
        }
    }
    flush(&mut run, &mut out, &mut n);
    (out, n)
}

pub fn lone_surrogate_at(units: &[u16]) -> usize {
    let mut i = 0;
    for r in char::decode_utf16(units.iter().copied()) {
        match r {
            Ok(c) => i += c.len_utf16(),
            Err(_) => return i,
        }
    }
    i
}
