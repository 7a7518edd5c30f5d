//! Reading text that is not JSON: loosely structured fields and plain prose with a sentiment tail.
//!
//! Total: every text gives a reading. What it extracts is a best guess, so the entry always keeps the
//! verbatim input in `raw` beside it.
//!
//! - `category=bad judgement | finding: ... | result: ... {grade: F, confidence: high}`: segments split
//!   on `|` that start with `key=` or `key: ` become fields; a trailing `{k: v}` object adds its members.
//! - `I pushed to the wrong branch. sentiment: guilt, relief`: prose becomes `note`; a recognisable tail
//!   (`sentiment:`/`feeling:`/`mood:` clause, trailing emoji or emoticon, a short clause after a dash, or a
//!   trailing object) becomes `sentiment`, kept as written.

use super::near_json;
use super::strict_json::string_token;

#[derive(Debug, Default, PartialEq, Eq)]
pub struct Reading {
    /// Extracted fields: key text and a valid JSON value, in the order they appeared.
    pub fields: Vec<(String, String)>,
    /// The prose that was not a field, if any.
    pub note: Option<String>,
    /// The sentiment tail of prose, as valid JSON (a string as written, or an object).
    pub sentiment: Option<String>,
}

impl Reading {
    /// Loose when something was read as a field; otherwise plain text.
    pub fn is_loose(&self) -> bool {
        !self.fields.is_empty()
    }
}

/// Words that name a sentiment clause at the end of prose.
const SENTIMENT_WORDS: &[&str] = &["sentiment", "sentiments", "feeling", "feelings", "mood", "emotion", "emotions"];

pub fn read(text: &str) -> Reading {
    let body_all = text.trim();
    let (body, tail_fields) = split_tail_object(body_all);
    let segments = split_segments(body);
    let mut reading = Reading::default();
    let mut prose: Vec<&str> = Vec::new();
    for seg in &segments {
        match field(seg) {
            Some((k, v)) => reading.fields.push((k.to_owned(), field_value(v))),
            None => prose.push(seg),
        }
    }
    if reading.fields.is_empty() {
        // Plain text: the prose is the body as written, not a re-join of its segments.
        let (note, sentiment) = match tail_fields {
            Some(fields) if fields.iter().any(|(k, _)| is_sentiment_word(k)) => {
                reading.fields = fields;
                (body, None)
            }
            Some(fields) => (body, Some(near_json::render(&fields))),
            None => match sentiment_tail(body) {
                Some((before, s)) => (before, Some(field_value(s))),
                None => (body, None),
            },
        };
        if !note.is_empty() {
            reading.note = Some(note.to_owned());
        }
        reading.sentiment = sentiment;
    } else {
        if let Some(fields) = tail_fields {
            reading.fields.extend(fields);
        }
        if !prose.is_empty() {
            reading.note = Some(prose.join(" | "));
        }
    }
    reading
}

/// A field's value: a string as written, except an object or array, which stays structured (valid JSON keeps
/// its bytes, minified; relaxed `{k: v}` is read leniently). `sentiment: {"guilt": [0.5]}` is an object.
fn field_value(v: &str) -> String {
    if v.starts_with('{') || v.starts_with('[') {
        if let Ok(scanned) = super::strict_json::scan(v) {
            return scanned.text;
        }
        if let Some((fields, end)) = near_json::object(v, 0) {
            if end == v.len() {
                return near_json::render(&fields);
            }
        }
    }
    string_token(v)
}

fn is_sentiment_word(k: &str) -> bool {
    SENTIMENT_WORDS.iter().any(|w| w.eq_ignore_ascii_case(k))
}

/// Splits off a trailing relaxed `{...}` object that runs to the end of the text.
fn split_tail_object(text: &str) -> (&str, Option<Vec<near_json::Field>>) {
    if !text.ends_with('}') {
        return (text, None);
    }
    // Find the `{` that balances the final `}` (ignoring quotes: a best guess, checked by parsing).
    let b = text.as_bytes();
    let mut depth = 0usize;
    let mut i = b.len();
    while i > 0 {
        i -= 1;
        match b[i] {
            b'}' => depth += 1,
            b'{' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            _ => {}
        }
    }
    if depth != 0 || i == 0 {
        // No opening brace, or the object is the whole text (that is handled as JSON-like input).
        return (text, None);
    }
    if text[..i].trim_end().ends_with([':', '=']) {
        // `mood: {tired: very}`: the object is that field's value, not a tail.
        return (text, None);
    }
    match near_json::object(text, i) {
        Some((fields, end)) if end == text.len() && !fields.is_empty() => (text[..i].trim_end(), Some(fields)),
        _ => (text, None),
    }
}

/// Splits on `|` outside backticks and double quotes; trims; drops empty segments.
fn split_segments(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut in_tick = false;
    let mut in_quote = false;
    for (i, c) in text.char_indices() {
        match c {
            '`' if !in_quote => in_tick = !in_tick,
            '"' if !in_tick => in_quote = !in_quote,
            '|' if !in_tick && !in_quote => {
                out.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(text[start..].trim());
    out.retain(|s| !s.is_empty());
    out
}

/// `key=value`, `key = value` or `key: value` (a colon needs whitespace or the end after it, so
/// `http://x` and `12:30` are not fields). Keys are one identifier-like word of at most 64 bytes.
fn field(seg: &str) -> Option<(&str, &str)> {
    let b = seg.as_bytes();
    if !b.first()?.is_ascii_alphabetic() && b[0] != b'_' {
        return None;
    }
    let mut i = 1;
    while i < b.len() && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'-' | b'.')) {
        i += 1;
    }
    if i > 64 {
        return None;
    }
    let key = &seg[..i];
    let mut j = i;
    while j < b.len() && b[j] == b' ' {
        j += 1;
    }
    match b.get(j) {
        Some(b'=') if b.get(j + 1) != Some(&b'=') => Some((key, seg[j + 1..].trim())),
        Some(b':') if j == i && b.get(j + 1).is_none_or(|c| c.is_ascii_whitespace()) => {
            Some((key, seg[j + 1..].trim()))
        }
        _ => None,
    }
}

/// Finds a sentiment tail at the end of prose: returns (text before it, the tail as written).
fn sentiment_tail(text: &str) -> Option<(&str, &str)> {
    keyword_tail(text).or_else(|| emoji_tail(text)).or_else(|| dash_tail(text))
}

/// `... sentiment: guilt, relief` (also `=`, and the other sentiment words), at a word start. The last
/// such clause wins. One pass over the separators, no allocation.
fn keyword_tail(text: &str) -> Option<(&str, &str)> {
    let b = text.as_bytes();
    for (sep_at, _) in text.match_indices([':', '=']).rev() {
        let mut end = sep_at;
        while end > 0 && b[end - 1] == b' ' {
            end -= 1;
        }
        let mut start = end;
        while start > 0 && b[start - 1].is_ascii_alphabetic() {
            start -= 1;
        }
        let word_start = start == 0 || !b[start - 1].is_ascii_alphanumeric();
        if start == end || !word_start || !is_sentiment_word(&text[start..end]) {
            continue;
        }
        let value = text[sep_at + 1..].trim();
        if value.is_empty() {
            return None;
        }
        let before = text[..start].trim_end().trim_end_matches(['|', '-', '\u{2014}', '\u{2013}', ';', ',']).trim_end();
        return Some((before, value));
    }
    None
}

fn is_emoji(c: char) -> bool {
    matches!(c as u32,
        0x1F000..=0x1FAFF | 0x2600..=0x27BF | 0x2B00..=0x2BFF | 0x2300..=0x23FF
        | 0xFE0F | 0x200D | 0x20E3 | 0xE0020..=0xE007F)
}

const EMOTICONS: &[&str] =
    &[":)", ":-)", ":(", ":-(", ":D", ":-D", ";)", ";-)", ":/", ":-/", ":P", ":|", ":'(", "^^", "xD"];

/// A trailing run of emoji, or one emoticon, after whitespace or punctuation.
fn emoji_tail(text: &str) -> Option<(&str, &str)> {
    let trimmed_end = text.trim_end();
    let mut start = trimmed_end.len();
    for (i, c) in trimmed_end.char_indices().rev() {
        if is_emoji(c) || (c == ' ' && start < trimmed_end.len()) {
            start = i;
        } else {
            break;
        }
    }
    let run = trimmed_end[start..].trim();
    if !run.is_empty() && run.chars().any(|c| is_emoji(c) && !matches!(c as u32, 0xFE0F | 0x200D | 0x20E3)) {
        return Some((trimmed_end[..start].trim_end(), run));
    }
    for e in EMOTICONS {
        if let Some(before) = trimmed_end.strip_suffix(e) {
            if before.ends_with(' ') && !before.trim().is_empty() {
                return Some((before.trim_end(), e));
            }
        }
    }
    None
}

/// `... — frustrating` or `... -- what a relief!`: a short clause (at most five words, 48 bytes) after a
/// spaced em dash, en dash or double hyphen.
fn dash_tail(text: &str) -> Option<(&str, &str)> {
    let (at, len) =
        ["\u{2014}", "\u{2013}", " -- "].iter().filter_map(|d| text.rfind(d).map(|p| (p, d.len()))).max()?;
    let before = text[..at].trim_end();
    let clause = text[at + len..].trim();
    let words = clause.split_whitespace().count();
    let ok = !before.is_empty()
        && !clause.is_empty()
        && clause.len() <= 48
        && words <= 5
        && !clause.trim_end_matches(['.', '!', '?']).contains(['.', '!', '?', ':', ';']);
    ok.then_some((before, clause))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn fields(r: &Reading) -> Vec<(&str, &str)> {
        r.fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
    }

    #[test]
    fn loose_fields_and_tail_object() {
        let r = read("category=bad judgement | finding: skipped the failing test | result: shipped broken {grade: F, confidence: high}");
        assert_eq!(
            fields(&r),
            vec![
                ("category", "\"bad judgement\""),
                ("finding", "\"skipped the failing test\""),
                ("result", "\"shipped broken\""),
                ("grade", "\"F\""),
                ("confidence", "\"high\""),
            ]
        );
        assert_eq!(r.note, None);
        assert!(r.is_loose());
    }

    /// (input, note, sentiment as JSON)
    const PLAIN: &[(&str, Option<&str>, Option<&str>)] = &[
        (
            "I force-pushed over a colleague's branch. sentiment: guilt, relief",
            Some("I force-pushed over a colleague's branch."),
            Some("\"guilt, relief\""),
        ),
        ("Tests finally pass 😅", Some("Tests finally pass"), Some("\"😅\"")),
        ("Tests finally pass 🎉 👍🏽", Some("Tests finally pass"), Some("\"🎉 👍🏽\"")),
        (
            "The cache was stale all along — what a relief",
            Some("The cache was stale all along"),
            Some("\"what a relief\""),
        ),
        ("Fixed it -- finally!", Some("Fixed it"), Some("\"finally!\"")),
        ("that went well :)", Some("that went well"), Some("\":)\"")),
        (
            "Reverted the fix {\"regret\": 0.8, \"fixed\": true}",
            Some("Reverted the fix"),
            Some("{\"regret\":0.8,\"fixed\":true}"),
        ),
        ("just a note with no tail", Some("just a note with no tail"), None),
        ("see http://example.com/a|b for details", Some("see http://example.com/a|b for details"), None),
        (
            "Meeting at 12:30 went long — the build broke. Again, after the rebase",
            Some("Meeting at 12:30 went long — the build broke. Again, after the rebase"),
            None,
        ),
        ("Broke it. sentiment: {guilt: 1}", Some("Broke it."), Some("{\"guilt\":1}")),
        ("mood=irritated", None, None),
    ];

    #[test]
    fn plain_text_with_sentiment_tails() {
        for (input, note, sentiment) in PLAIN {
            let r = read(input);
            if *input == "mood=irritated" {
                assert_eq!(fields(&r), vec![("mood", "\"irritated\"")]);
                continue;
            }
            assert_eq!(r.note.as_deref(), *note, "note of {input:?}");
            assert_eq!(r.sentiment.as_deref(), *sentiment, "sentiment of {input:?}");
            assert!(!r.is_loose(), "{input:?}");
        }
    }

    #[test]
    fn prose_segments_beside_fields_become_note() {
        let r = read("Refactor went badly | cause: missed a caller | sentiment: regret");
        assert_eq!(fields(&r), vec![("cause", "\"missed a caller\""), ("sentiment", "\"regret\"")]);
        assert_eq!(r.note.as_deref(), Some("Refactor went badly"));
    }

    #[test]
    fn tail_object_with_sentiment_key_gives_fields() {
        let r = read("Deleted the wrong dir {sentiment: [guilt], severity: 3}");
        assert_eq!(fields(&r), vec![("sentiment", "[\"guilt\"]"), ("severity", "3")]);
        assert_eq!(r.note.as_deref(), Some("Deleted the wrong dir"));
    }

    #[test]
    fn structured_field_values_stay_structured() {
        let r = read("sentiment: {\"guilt\": [0.5, 1e3]} | finding=x | tags: [a, b] | mood: {tired: very}");
        assert_eq!(
            fields(&r),
            vec![
                ("sentiment", "{\"guilt\":[0.5,1e3]}"),
                ("finding", "\"x\""),
                ("tags", "\"[a, b]\""),
                ("mood", "{\"tired\":\"very\"}")
            ]
        );
    }

    #[test]
    fn pipes_inside_backticks_do_not_split() {
        let r = read("ran `ls | grep x` | exit: 1");
        assert_eq!(fields(&r), vec![("exit", "\"1\"")]);
        assert_eq!(r.note.as_deref(), Some("ran `ls | grep x`"));
    }

    #[test]
    fn not_fields() {
        for seg in ["http://x", "12:30 meeting", "a==b", "two words: x", ":x", "C:\\path"] {
            assert_eq!(field(seg), None, "{seg:?}");
        }
        assert_eq!(field("key:"), Some(("key", "")));
    }
}
