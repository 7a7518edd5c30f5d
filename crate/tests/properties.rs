//! Properties over random input: no input panics or escapes the one-line JSON shape, and every member a
//! caller supplies reads back byte-identical (minified) and in order.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use recordings_core::redact::{RedactOptions, Redactor};
use recordings_core::{record, Context, Input, Style, Target};

fn ctx() -> Context {
    Context { capture: "cli".into(), stamps: vec![("pwd".into(), "/w".into()), ("session".into(), "s1".into())] }
}

fn redactor(enabled: bool) -> Redactor {
    Redactor::new(&RedactOptions { enabled, ..Default::default() }).0
}

fn assert_one_json_line(line: &str) {
    let body = line.strip_suffix('\n').expect("line ends in a newline");
    assert!(!body.contains('\n'), "a newline inside the line: {body:?}");
    // (Checked by serde_json's syntax alone: numbers such as `1e400`, which the core keeps as written, are valid.)
    serde_json::from_str::<serde::de::IgnoredAny>(body).unwrap_or_else(|e| panic!("not JSON ({e}): {body:?}"));
    assert!(body.starts_with('{') && body.ends_with('}'), "not an object: {body:?}");
}

/// A JSON value as text, with random insignificant whitespace, and its minified spelling.
fn json_value() -> impl Strategy<Value = (String, String)> {
    let ws = prop::sample::select(vec!["", " ", "\n", "\t", " \r\n "]);
    let leaf = prop_oneof![
        Just(("null".to_owned(), "null".to_owned())),
        Just(("true".to_owned(), "true".to_owned())),
        prop::sample::select(vec!["0", "-1", "1.0", "1e5", "-2.50E-3", "123456789012345678901234567890"])
            .prop_map(|n| (n.to_owned(), n.to_owned())),
        "[a-z é✓\\\\\"\n/]{0,12}".prop_map(|s| {
            let t = serde_json::to_string(&s).unwrap();
            (t.clone(), t)
        }),
        prop::sample::select(vec![r#""\u00e9""#, r#""\/""#, r#""a\tb""#]).prop_map(|s| (s.to_owned(), s.to_owned())),
    ];
    leaf.prop_recursive(4, 32, 4, move |inner| {
        let ws = ws.clone();
        prop_oneof![
            (prop::collection::vec(inner.clone(), 0..4), ws.clone()).prop_map(|(items, w)| {
                let text = format!(
                    "[{w}{}{w}]",
                    items.iter().map(|(t, _)| t.as_str()).collect::<Vec<_>>().join(&format!("{w},{w}"))
                );
                let min = format!("[{}]", items.iter().map(|(_, m)| m.as_str()).collect::<Vec<_>>().join(","));
                (text, min)
            }),
            (prop::collection::vec(("[a-z]{1,4}", inner), 0..4), ws).prop_map(|(items, w)| {
                let text = format!(
                    "{{{w}{}{w}}}",
                    items.iter().map(|(k, (t, _))| format!("\"{k}\"{w}:{w}{t}")).collect::<Vec<_>>().join(",")
                );
                let min = format!(
                    "{{{}}}",
                    items.iter().map(|(k, (_, m))| format!("\"{k}\":{m}")).collect::<Vec<_>>().join(",")
                );
                (text, min)
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let out = record(Input::Bytes(&bytes), 1.0e12, [7; 8], &ctx().render(&redactor(true)), &redactor(true));
        assert_one_json_line(&out.line);
    }

    #[test]
    fn random_text_never_panics(text in "\\PC{0,200}") {
        let out = record(Input::Text(&text), 1.0e12, [7; 8], &ctx().render(&redactor(true)), &redactor(true));
        assert_one_json_line(&out.line);
        if out.target == Target::Quarantine {
            // Quarantined text is kept verbatim.
            let v: serde_json::Value = serde_json::from_str(&out.line).unwrap();
            prop_assert_eq!(v["raw"].as_str(), Some(text.as_str()));
        }
    }

    #[test]
    fn jsonish_text_never_panics(text in "[{}\\[\\]\":,=| a-z0-9\\\\'\n-]{0,80}") {
        let out = record(Input::Text(&text), 1.0e12, [7; 8], &ctx().render(&redactor(true)), &redactor(true));
        assert_one_json_line(&out.line);
    }

    #[test]
    fn random_utf16_never_panics(units in prop::collection::vec(any::<u16>(), 0..64)) {
        let out = record(Input::Utf16(&units), 1.0e12, [7; 8], &ctx().render(&redactor(true)), &redactor(true));
        assert_one_json_line(&out.line);
    }

    #[test]
    fn supplied_members_read_back_byte_identical(
        members in prop::collection::vec(("[a-z_]{1,6}", json_value()), 0..6),
        ws in prop::sample::select(vec!["", " ", "\n  "]),
    ) {
        let text = format!("{{{ws}{}{ws}}}", members.iter().map(|(k, (t, _))| format!("\"{k}\"{ws}:{ws}{t}")).collect::<Vec<_>>().join(&format!(",{ws}")));
        let out = record(Input::Text(&text), 1.0e12, [7; 8], &ctx().render(&redactor(false)), &redactor(false));
        prop_assert_eq!(out.style, Style::Json);
        assert_one_json_line(&out.line);
        // Every supplied member appears, minified, in the caller's order.
        let mut from = 0;
        for (k, (_, min)) in &members {
            let member = format!("\"{k}\":{min}");
            let at = out.line[from..].find(&member);
            prop_assert!(at.is_some(), "member {} missing after byte {} in {}", member, from, out.line);
            from += at.unwrap() + member.len();
        }
    }
}
