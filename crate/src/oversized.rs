//! Inputs over the size bound: the JS edge cuts them into bounded pieces, each kept as a quarantine line under one
//! `eid`, and writes one marker line in the main file.

use crate::entry::Stamps;
use crate::line::Line;
use crate::outcome::{Outcome, Reason, Style, Target};
use crate::parse::strict_json::string_token;
use crate::quarantine::{quarantine_with, Raw};
use crate::redact::Redactor;

/// One bounded piece of an input too large to record whole; goes to quarantine under the given `eid`.
#[allow(clippy::too_many_arguments)] // the boundary's arguments, one for one
pub fn piece(
    chunk: &[u8],
    now: f64,
    eid: &str,
    index: u32,
    count: u32,
    total: f64,
    ctx: &Stamps,
    redactor: &Redactor,
) -> Outcome {
    let reason = Reason::Oversized { bytes: total as u64, pieces: count };
    let extra = [
        ("piece".to_owned(), index.to_string()),
        ("pieces".to_owned(), count.to_string()),
        ("bytes".to_owned(), (total as u64).to_string()),
    ];
    let raw = match std::str::from_utf8(chunk) {
        Ok(t) => Raw::Text(t),
        Err(_) => Raw::Bytes { bytes: chunk, encoding: "utf-8" },
    };
    let mut out = quarantine_with(&reason, raw, now, Some(eid), [0; 8], ctx, redactor, &extra);
    out.style = Style::Piece;
    out
}

/// The main-file marker for an oversized input whose pieces are in quarantine under `eid`.
pub fn marker(now: f64, eid: &str, count: u32, total: f64, ctx: &Stamps, redactor: &Redactor) -> Outcome {
    let mut line = Line::new(&[]);
    line.head(now, Some(eid), [0; 8]);
    line.member("oversized", "true");
    line.member("bytes", &(total as u64).to_string());
    line.member("pieces", &count.to_string());
    line.member(
        "note",
        &string_token("input over the size bound; its pieces are in the quarantine file under this eid"),
    );
    line.finish(Target::Main, Style::Marker, None, Vec::new(), ctx, redactor)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entry::Context;
    use crate::redact::RedactOptions;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    const NOW: f64 = 1_796_459_013_120.0;

    fn ctx() -> Context {
        Context { capture: "cli".into(), stamps: vec![("pwd".into(), "/w".into()), ("repo".into(), "r".into())] }
    }

    fn off() -> Redactor {
        Redactor::new(&RedactOptions { enabled: false, ..Default::default() }).0
    }

    #[test]
    fn oversized_pieces_and_marker_share_the_eid() {
        let p = piece(b"first piece", NOW, "bigbigbigbig1", 0, 3, 40_000_000.0, &ctx().render(&off()), &off());
        assert_eq!(p.target, Target::Quarantine);
        assert_eq!(p.style, Style::Piece);
        assert_eq!(p.reason.as_ref().map(Reason::code), Some("oversized"));
        assert!(p.line.starts_with(r#"{"ts":"2026-12-05T08:23:33.120Z","eid":"bigbigbigbig1","piece":0,"pieces":3,"bytes":40000000,"reason":"#), "{}", p.line);
        let m = marker(NOW, "bigbigbigbig1", 3, 40_000_000.0, &ctx().render(&off()), &off());
        assert_eq!(m.target, Target::Main);
        assert_eq!(m.eid, "bigbigbigbig1");
        let v: serde_json::Value = serde_json::from_str(&m.line).unwrap();
        assert_eq!(v["oversized"], true);
        assert_eq!(v["pieces"], 3);
    }
}
