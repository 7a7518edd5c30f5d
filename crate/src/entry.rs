//! Turning any input into one stamped JSONL line: the one call every surface goes through.
//!
//! Total: every input gives a line. What can be kept faithfully goes to the main file; what cannot
//! (JSON broken beyond the relaxed reader, bytes that are not UTF-8, JS strings with lone surrogates)
//! goes, verbatim and recoverable, to the quarantine file with a reason.
//!
//! Line layout (`line`): `ts` and `eid` first (so no two files start with the same bytes), then the caller's
//! members in the caller's order and bytes, then what the core read out of text (`note`, `sentiment`,
//! `raw`), then `capture` and the context stamps, then the redaction summary, then, on an automatic failure,
//! its fingerprint (`fp`, `failure`: read out of the line as stored, so readers derive the same).

use crate::context::Stamps;
use crate::line::Line;
use crate::outcome::{Outcome, Reason, Style, Target};
use crate::parse::strict_json::{self, string_token};
use crate::parse::{fields, near_json};
use crate::quarantine::{lone_surrogate_at, quarantine, Raw};
use crate::redact::{Hit, Redactor};

/// The input as it arrived at the boundary.
pub enum Input<'a> {
    /// Text (a well-formed JS string, or UTF-8).
    Text(&'a str),
    /// Bytes that may not be UTF-8 (standard input of the CLI).
    Bytes(&'a [u8]),
    /// UTF-16 code units of a JS string that is not well formed (holds a lone surrogate).
    Utf16(&'a [u16]),
}

/// Records one input. `now` is milliseconds since the epoch; `random` feeds the entry id.
pub fn record(input: Input<'_>, now: f64, random: [u8; 8], ctx: &Stamps, redactor: &Redactor) -> Outcome {
    match input {
        Input::Text(t) => text(t, now, random, ctx, redactor),
        Input::Bytes(b) => match std::str::from_utf8(b) {
            Ok(t) => text(t, now, random, ctx, redactor),
            Err(e) => {
                let reason = Reason::NotUtf8 { at: e.valid_up_to() };
                let raw = Raw::Bytes { bytes: b, encoding: "utf-8" };
                quarantine(reason, raw, now, random, ctx, redactor, &[])
            }
        },
        Input::Utf16(units) => match String::from_utf16(units) {
            Ok(t) => text(&t, now, random, ctx, redactor),
            Err(_) => {
                let reason = Reason::LoneSurrogate { at: lone_surrogate_at(units) };
                quarantine(reason, Raw::Utf16(units), now, random, ctx, redactor, &[])
            }
        },
    }
}

fn text(t: &str, now: f64, random: [u8; 8], ctx: &Stamps, redactor: &Redactor) -> Outcome {
    // A byte-order mark (editors on Windows write one) is not content; `raw` still keeps it.
    let trimmed = t.trim_start_matches('\u{feff}').trim();
    let first = trimmed.as_bytes().first().copied();
    if first.is_none() {
        let mut line = Line::new(&[]);
        line.head(now, None, random);
        line.member("raw", &string_token(t));
        return line.finish(
            Target::Main,
            Style::Empty,
            None,
            vec!["empty input: recorded as an entry with an empty raw".into()],
            ctx,
            redactor,
        );
    }
    if first == Some(b'{') {
        return object_like(t, trimmed, now, random, ctx, redactor);
    }
    if matches!(first, Some(b'[' | b'"' | b'-' | b'0'..=b'9')) || ["true", "false", "null"].contains(&trimmed) {
        if let Ok(scanned) = strict_json::scan(trimmed) {
            let mut line = Line::new(&[]);
            line.head(now, None, random);
            line.member("value", &scanned.text);
            return line.finish(Target::Main, Style::JsonValue, None, Vec::new(), ctx, redactor);
        }
    }
    // Free text is redacted as text, before it is read: a `key=value` field read out of it is still
    // prose, not a JSON member whose key decides what its value is.
    let (clean, hits) = redact_input(t, redactor);
    let reading = fields::read(&clean);
    let supplied: Vec<&str> = reading.fields.iter().map(|(k, _)| k.as_str()).collect();
    let mut line = Line::new(&supplied);
    line.head(now, None, random);
    for (k, v) in &reading.fields {
        line.supplied_member(&string_token(k), v);
    }
    let style = if reading.is_loose() { Style::Loose } else { Style::Text };
    line.read_out(reading.note.as_deref(), reading.sentiment.as_deref(), &clean, hits);
    line.finish(Target::Main, style, None, Vec::new(), ctx, redactor)
}

/// Redacts verbatim text input. Its hits are reported under the key that will hold the input (`raw`).
fn redact_input<'t>(t: &'t str, redactor: &Redactor) -> (std::borrow::Cow<'t, str>, Vec<Hit>) {
    match redactor.redact_text(t) {
        Some((clean, hits)) => (std::borrow::Cow::Owned(clean), hits),
        None => (std::borrow::Cow::Borrowed(t), Vec::new()),
    }
}

/// Input that starts with `{`: strict JSON keeps every member's bytes; near-JSON is read leniently with
/// the verbatim input kept in `raw`; anything else goes to quarantine.
fn object_like(t: &str, trimmed: &str, now: f64, random: [u8; 8], ctx: &Stamps, redactor: &Redactor) -> Outcome {
    let strict_err = match strict_json::scan(trimmed) {
        Ok(scanned) => {
            let members = scanned.members.as_deref().unwrap_or_default();
            let keys: Vec<String> = members.iter().map(|m| decode_key(scanned.key(m))).collect();
            let supplied: Vec<&str> = keys.iter().map(String::as_str).collect();
            let mut line = Line::new(&supplied);
            let eid = members.iter().zip(&keys).find(|(_, k)| k.as_str() == "eid").map(|(m, _)| {
                strict_json::decode_string(scanned.value(m)).unwrap_or_else(|| scanned.value(m).to_owned())
            });
            line.head(now, None, random);
            for m in members {
                line.supplied_member(scanned.key(m), scanned.value(m));
            }
            let mut out = line.finish(Target::Main, Style::Json, None, Vec::new(), ctx, redactor);
            if let Some(eid) = eid {
                out.eid = eid;
            }
            let member =
                |name: &str| members.iter().zip(&keys).find(|(_, k)| k.as_str() == name).map(|(m, _)| scanned.value(m));
            crate::fingerprint::stamp_made(&mut out, member, ctx);
            return out;
        }
        Err(e) => e,
    };
    // A valid object followed by more text, or a relaxed object (optionally followed by text). This is
    // text, not JSON, so it is redacted as text before it is read.
    let (clean, hits) = redact_input(t, redactor);
    let trimmed = clean.trim();
    let read = match strict_json::scan_prefix(trimmed, 0) {
        Ok((scanned, end)) => {
            let fields = scanned
                .members
                .as_deref()
                .unwrap_or_default()
                .iter()
                .map(|m| (decode_key(scanned.key(m)), scanned.value(m).to_owned()))
                .collect();
            Some((fields, end))
        }
        Err(_) => near_json::object(trimmed, 0),
    };
    let Some((fields, end)) = read else {
        return quarantine(Reason::NotJson(strict_err), Raw::Text(t), now, random, ctx, redactor, &[]);
    };
    let rest = trimmed[end..].trim();
    let supplied: Vec<&str> = fields.iter().map(|(k, _): &(String, String)| k.as_str()).collect();
    let mut line = Line::new(&supplied);
    line.head(now, None, random);
    for (k, v) in &fields {
        line.supplied_member(&string_token(k), v);
    }
    line.read_out((!rest.is_empty()).then_some(rest), None, &clean, hits);
    let warning = format!("not valid JSON ({strict_err}); read leniently, the verbatim input is kept in raw");
    line.finish(Target::Main, Style::Loose, None, vec![warning], ctx, redactor)
}

fn decode_key(token: &str) -> String {
    strict_json::decode_string(token).unwrap_or_else(|| token.trim_matches('"').to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::Context;
    use crate::redact::RedactOptions;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    const NOW: f64 = 1_796_459_013_120.0;
    const RANDOM: [u8; 8] = [0, 0, 0, 0, 0, 0, 0, 32];
    const HEAD: &str = r#"{"ts":"2026-12-05T08:23:33.120Z","eid":"0000000000010","#;
    const STAMPS: &str = r#""capture":"cli","pwd":"/w","repo":"r"}"#;

    fn ctx() -> Context {
        Context {
            capture: "cli".into(),
            stamps: vec![("pwd".into(), "/w".into()), ("repo".into(), "r".into()), ("session".into(), String::new())],
        }
    }

    fn off() -> Redactor {
        Redactor::new(&RedactOptions { enabled: false, ..Default::default() }).0
    }

    fn run(input: &str) -> Outcome {
        record(Input::Text(input), NOW, RANDOM, &ctx().render(&off()), &off())
    }

    /// (input, style, the line between the ts/eid head and the stamps)
    const MAIN: &[(&str, &str, &str)] = &[
        (
            r#"{"note": "hi",  "n": 1.0, "s": "\u00e9\/", "n": 1e5}"#,
            "json",
            r#""note":"hi","n":1.0,"s":"\u00e9\/","n":1e5,"#,
        ),
        (
            "{\n  \"sentiment\": {\"fixed\": true},\n  \"big\": 123456789012345678901234567890\n}",
            "json",
            r#""sentiment":{"fixed":true},"big":123456789012345678901234567890,"#,
        ),
        (r#"{"sentiment": null}"#, "json", r#""sentiment":null,"#),
        ("{}", "json", ""),
        ("[1, \"two\"]", "json-value", r#""value":[1,"two"],"#),
        ("\"just a string\"", "json-value", r#""value":"just a string","#),
        ("42", "json-value", r#""value":42,"#),
        (
            "category=bad judgement | finding: skipped tests {grade: F}",
            "loose",
            r#""category":"bad judgement","finding":"skipped tests","grade":"F","raw":"category=bad judgement | finding: skipped tests {grade: F}","#,
        ),
        (
            "Broke main. sentiment: guilt, relief",
            "text",
            r#""note":"Broke main.","sentiment":"guilt, relief","raw":"Broke main. sentiment: guilt, relief","#,
        ),
        ("plain words", "text", r#""note":"plain words","raw":"plain words","#),
        ("  ", "empty", r#""raw":"  ","#),
        (
            "{note: 'lenient', grade: F,}",
            "loose",
            r#""note":"lenient","grade":"F","raw":"{note: 'lenient', grade: F,}","#,
        ),
        (
            r#"{"a": 1} and then some prose"#,
            "loose",
            r#""a":1,"note":"and then some prose","raw":"{\"a\": 1} and then some prose","#,
        ),
        (
            "raw=mine | note: also mine",
            "loose",
            r#""raw":"mine","note":"also mine","_raw":"raw=mine | note: also mine","#,
        ),
        ("[WIP] half done", "text", r#""note":"[WIP] half done","raw":"[WIP] half done","#),
        ("\u{feff}{\"a\": 1}", "json", r#""a":1,"#),
    ];

    #[test]
    fn main_file_lines() {
        for (input, style, body) in MAIN {
            let out = run(input);
            assert_eq!(out.target, Target::Main, "{input:?}");
            assert_eq!(out.style.as_str(), *style, "{input:?}");
            assert_eq!(out.line, format!("{HEAD}{body}{STAMPS}\n"), "{input:?}");
            assert_eq!(out.eid, "0000000000010");
            assert!(strict_json::scan(out.line.trim_end()).is_ok(), "{input:?}");
        }
    }

    #[test]
    fn caller_values_stand_once() {
        let out = run(r#"{"eid":"mine","t\u0073":"2020-01-01","capture":"by-hand","pwd":"/elsewhere","x":1}"#);
        assert_eq!(
            out.line,
            "{\"eid\":\"mine\",\"t\\u0073\":\"2020-01-01\",\"capture\":\"by-hand\",\"pwd\":\"/elsewhere\",\"x\":1,\"repo\":\"r\"}\n"
        );
        assert_eq!(out.eid, "mine");
    }

    /// (input, reason starts with)
    const QUARANTINED: &[(&str, &str)] = &[
        (r#"{"note": "unterminated"#, "starts like a JSON object but is not valid JSON (unterminated string"),
        ("{", "starts like a JSON object"),
        ("{a}", "starts like a JSON object"),
    ];

    #[test]
    fn broken_json_is_quarantined_verbatim() {
        for (input, reason) in QUARANTINED {
            let out = run(input);
            assert_eq!(out.target, Target::Quarantine, "{input:?}");
            assert!(out.reason.as_ref().unwrap().to_string().starts_with(reason), "{input:?}: {:?}", out.reason);
            let v: serde_json::Value = serde_json::from_str(&out.line).unwrap();
            assert_eq!(v["raw"], *input);
            assert!(out.line.starts_with(HEAD));
        }
    }

    #[test]
    fn bytes_that_are_not_utf8_are_kept_as_base64() {
        let bytes = b"caf\xe9 \xff tail";
        let out = record(Input::Bytes(bytes), NOW, RANDOM, &ctx().render(&off()), &off());
        assert_eq!(out.target, Target::Quarantine);
        let v: serde_json::Value = serde_json::from_str(&out.line).unwrap();
        assert_eq!(v["raw_b64"], crate::b64::encode(bytes));
        assert_eq!(v["raw_encoding"], "utf-8");
        assert_eq!(v["preview"], "caf\u{fffd} \u{fffd} tail");
        // Valid UTF-8 bytes are read like text.
        let ok = record(Input::Bytes("{\"a\":1}".as_bytes()), NOW, RANDOM, &ctx().render(&off()), &off());
        assert_eq!(ok.style, Style::Json);
    }

    #[test]
    fn lone_surrogates_are_kept_as_utf16le() {
        let units: Vec<u16> = vec![0x61, 0xD800, 0x62];
        let out = record(Input::Utf16(&units), NOW, RANDOM, &ctx().render(&off()), &off());
        assert_eq!(out.target, Target::Quarantine);
        assert!(out.reason.as_ref().unwrap().to_string().contains("code unit 1"));
        let v: serde_json::Value = serde_json::from_str(&out.line).unwrap();
        assert_eq!(v["raw_b64"], crate::b64::encode(&[0x61, 0, 0x00, 0xD8, 0x62, 0]));
        assert_eq!(v["raw_encoding"], "utf-16le");
    }

    #[test]
    fn deep_nesting_keeps_the_entry() {
        let depth = 100_000;
        let input = format!("{{\"deep\":{}{}}}", "[".repeat(depth), "]".repeat(depth));
        let out = run(&input);
        assert_eq!(out.style, Style::Json);
        assert!(out.line.contains(&input[1..input.len() - 1]));
    }

    fn on() -> Redactor {
        Redactor::new(&RedactOptions::default()).0
    }

    fn github_token() -> String {
        format!("gh{}_{}", "p", "A1b2C3d4E5".repeat(4).get(..36).unwrap())
    }

    #[test]
    fn loose_fields_are_redacted_as_text() {
        let out = record(
            Input::Text("webhook_secret=correcthorse7743 level=debug"),
            NOW,
            RANDOM,
            &ctx().render(&on()),
            &on(),
        );
        assert!(!out.line.contains("correcthorse7743"), "{}", out.line);
        assert!(out.line.contains(r#""redacted":[{"path":"$.raw","#), "{}", out.line);
        // A word that is no secret stays, even under a secret-sounding key.
        for benign in ["token: expired", "password: string;", "token = self.token"] {
            let out = record(Input::Text(benign), NOW, RANDOM, &ctx().render(&on()), &on());
            assert!(!out.line.contains("REDACTED"), "{benign:?}: {}", out.line);
        }
    }

    #[test]
    fn base64_quarantine_lists_its_redactions() {
        let mut bytes = format!("token {} then a bad byte ", github_token()).into_bytes();
        bytes.push(0xff);
        let out = record(Input::Bytes(&bytes), NOW, RANDOM, &ctx().render(&on()), &on());
        assert_eq!(out.target, Target::Quarantine);
        assert!(out.redactions >= 1);
        let v: serde_json::Value = serde_json::from_str(&out.line).unwrap();
        assert_eq!(v["redacted"][0]["path"], "$.raw_b64", "{}", out.line);
        assert!(v["redaction_rules"].is_string());
        assert!(!v["preview"].as_str().unwrap().contains(&github_token()));
    }

    #[test]
    fn a_random_looking_pwd_stamp_is_a_directory_not_a_password() {
        let mut c = ctx();
        c.stamps[0].1 = "/tmp/rec-test-Xq7vR2mKp9sLw4Zt".into();
        for input in ["plain words", r#"{"a":1}"#, "PWD=/tmp/rec-test-Xq7vR2mKp9sLw4Zt | db_pwd=Xq7vR2mKp9sLw4Zt"] {
            let out = record(Input::Text(input), NOW, RANDOM, &c.render(&on()), &on());
            assert!(out.line.contains(r#""pwd":"/tmp/rec-test-Xq7vR2mKp9sLw4Zt""#), "{}", out.line);
        }
        let out = record(Input::Text("db_pwd=Xq7vR2mKp9sLw4Zt"), NOW, RANDOM, &c.render(&on()), &on());
        assert!(out.line.contains(r#""db_pwd":"[REDACTED:secret-assignment]""#), "{}", out.line);
    }

    #[test]
    fn stamps_are_redacted_too() {
        let mut c = ctx();
        c.stamps.push(("origin".into(), format!("https://x-access-token:{}@github.com/a/b.git", github_token())));
        for input in ["plain words", r#"{"a":1}"#] {
            let out = record(Input::Text(input), NOW, RANDOM, &c.render(&on()), &on());
            assert!(!out.line.contains(&github_token()), "{}", out.line);
            assert!(out.line.contains(r#""path":"$.origin""#), "{}", out.line);
        }
    }
}
