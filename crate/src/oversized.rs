//! Inputs over the size bound: the JS edge cuts them into bounded pieces, each kept as a quarantine line under one
//! `eid`, and writes one marker line in the main file.

use crate::context::Stamps;
use crate::line::Line;
use crate::outcome::{Outcome, Reason, Style, Target};
use crate::parse::strict_json::string_token;
use crate::quarantine::{quarantine_with, Raw};
use crate::redact::{apply, Found, Redactor};

/// Bytes at the end of a piece that are held for the next one, at least: more than any rule looks back from a secret
/// to what names it (a YAML `- name:` line, the program before an option), so that a secret the cut between two
/// pieces would split is read whole, in its context, with the next piece.
const HOLD_MIN: usize = 1024;
/// Held at most: a PEM block's body is looked for this far after its armour line.
const HOLD_MAX: usize = 64 << 10;
/// Cuts tried before the held bytes are taken as they are (each try scans them once more).
const TRIES: usize = 8;

/// One bounded piece of an input too large to record whole; goes to quarantine under the given `eid`. `bytes` is the
/// piece, after what the previous piece held back ([`Outcome::held`]). Unless it is the last piece, the line keeps
/// the bytes up to a cut near their end and holds the rest back, so that no secret is split between two lines:
/// everything redacted in the line was found with the held bytes in view, and every secret in the held bytes is
/// found in them alone (see [`text_cut`]). Concatenated in order, the pieces' bytes are the input.
#[allow(clippy::too_many_arguments)] // the boundary's arguments, one for one
pub fn piece(
    bytes: &[u8],
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
    let hold = index + 1 < count && redactor.enabled();
    let clean;
    let (raw, cut) = match std::str::from_utf8(bytes) {
        Ok(t) => {
            let spans = redactor.spans(t);
            let cut = if hold { text_cut(t, &spans, &|s: &str| redactor.spans(s)) } else { t.len() };
            // (A span the cut still crosses, when no cut within reach avoids it, loses its part after the cut here.)
            let before: Vec<Found> =
                spans.iter().filter(|f| f.start < cut).map(|f| Found { end: f.end.min(cut), ..*f }).collect();
            let hits;
            (clean, hits) = apply(&t[..cut], &before);
            (Raw::Redacted { text: &clean, hits }, cut)
        }
        Err(_) => {
            let cut = if hold { byte_cut(bytes) } else { bytes.len() };
            (Raw::Bytes { bytes: &bytes[..cut], encoding: "utf-8" }, cut)
        }
    };
    let mut out = quarantine_with(&reason, raw, now, Some(eid), [0; 8], ctx, redactor, &extra);
    out.style = Style::Piece;
    out.held = bytes.len() - cut;
    out
}

/// Where a piece of text that is not the input's last is cut: the bytes from there on are held for the next piece.
/// The cut starts at the start of the line that holds the byte [`HOLD_MIN`] before the end (in a text without line
/// breaks there, after a blank), so that a line the piece boundary splits is read whole next time. The held bytes
/// must then be redacted alone as they are within the whole text (`spans`; `find` redacts them alone). Where a secret
/// crosses the cut, or one is redacted differently without what comes before the cut (its context is there: the
/// armour line of a PEM block, a YAML `- name:`, a key on an earlier line, an ARN around it), the cut moves back, no
/// further than [`HOLD_MAX`] from the end; a copy of a secret found before the cut (which the held bytes alone cannot
/// know of) is kept in this piece instead, the cut moving to its end.
fn text_cut(t: &str, spans: &[Found], find: &dyn Fn(&str) -> Vec<Found>) -> usize {
    let n = t.len();
    if n <= HOLD_MIN {
        return 0;
    }
    let floor = n.saturating_sub(HOLD_MAX);
    let at = |x: usize| break_before(t, x.max(floor), floor);
    let mut cut = at(n - HOLD_MIN);
    for _ in 0..TRIES {
        if let Some(f) = spans.iter().find(|f| f.start < cut && cut < f.end) {
            cut = at(f.start);
            continue;
        }
        let alone = find(&t[cut..]);
        let shifted = |g: &Found| Found { start: g.start + cut, end: g.end + cut, rule: g.rule };
        let after = spans.iter().filter(|f| f.start >= cut).copied();
        let missing = after.clone().find(|f| !alone.iter().any(|g| shifted(g) == *f));
        let extra = alone.iter().map(shifted).find(|g| !after.clone().any(|f| f == *g));
        match (missing, extra) {
            (None, None) => return cut,
            (Some(f), _) if t[..cut].contains(&t[f.start..f.end]) => cut = f.end,
            (Some(f), _) | (None, Some(f)) => cut = at(f.start.min(cut).saturating_sub(HOLD_MIN)),
        }
        if cut <= floor {
            break;
        }
    }
    cut
}

/// The start of the line that holds byte `x`, if it starts at `floor` or later; else the byte after the last blank
/// before `x` there; else `x` itself (on a character boundary).
fn break_before(t: &str, x: usize, floor: usize) -> usize {
    let b = t.as_bytes();
    let window = &b[floor..x];
    if let Some(k) = window.iter().rposition(|&c| c == b'\n') {
        return floor + k + 1;
    }
    if floor == 0 {
        return 0;
    }
    if let Some(k) = window.iter().rposition(u8::is_ascii_whitespace) {
        return floor + k + 1;
    }
    (floor..=x).rev().find(|&k| t.is_char_boundary(k)).unwrap_or(floor)
}

/// [`text_cut`] for bytes that are not UTF-8 (kept as base64, redacted in their valid runs): the start of the line
/// that holds the byte [`HOLD_MIN`] before the end, within [`HOLD_MAX`] of it, else that byte (moved back off the
/// middle of a UTF-8 sequence).
fn byte_cut(b: &[u8]) -> usize {
    let n = b.len();
    if n <= HOLD_MIN {
        return 0;
    }
    let (floor, x) = (n.saturating_sub(HOLD_MAX), n - HOLD_MIN);
    match b[floor..x].iter().rposition(|&c| c == b'\n') {
        Some(k) => floor + k + 1,
        None => (floor..=x).rev().find(|&k| b[k] & 0xC0 != 0x80).unwrap_or(x),
    }
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
    use crate::context::Context;
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

    fn on() -> Redactor {
        Redactor::new(&RedactOptions::default()).0
    }

    /// Records `input` in pieces of about `size` bytes as the JS edge does (recorder.js cuts at character boundaries,
    /// core.js gives what a piece held back first with the next one); returns each piece's kept bytes and its line.
    fn in_pieces(input: &[u8], size: usize, r: &Redactor) -> Vec<(Vec<u8>, Outcome)> {
        let mut cuts = vec![0];
        while cuts.last().unwrap() + size < input.len() {
            let mut c = cuts.last().unwrap() + size;
            while c > 0 && input[c] & 0xC0 == 0x80 {
                c -= 1;
            }
            cuts.push(c);
        }
        cuts.push(input.len());
        let count = (cuts.len() - 1) as u32;
        let stamps = ctx().render(r);
        let mut held: Vec<u8> = Vec::new();
        let mut out = Vec::new();
        for (i, w) in cuts.windows(2).enumerate() {
            let mut bytes = std::mem::take(&mut held);
            bytes.extend_from_slice(&input[w[0]..w[1]]);
            let o = piece(&bytes, NOW, "bigbigbigbig1", i as u32, count, input.len() as f64, &stamps, r);
            held = bytes[bytes.len() - o.held..].to_vec();
            let v: serde_json::Value = serde_json::from_str(&o.line).expect("a piece is one JSON line");
            let kept = match (v["raw"].as_str(), v["raw_b64"].as_str()) {
                (Some(raw), _) => raw.as_bytes().to_vec(),
                (None, Some(b64)) => decode_b64(b64),
                _ => panic!("a piece keeps its bytes: {}", o.line),
            };
            out.push((kept, o));
        }
        assert!(held.is_empty(), "the last piece holds nothing back");
        out
    }

    fn decode_b64(s: &str) -> Vec<u8> {
        let val = |c: u8| match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            _ => 63,
        } as u32;
        let b: Vec<u8> = s.bytes().filter(|&c| c != b'=').collect();
        let mut out = Vec::new();
        for q in b.chunks(4) {
            let n = q.iter().enumerate().fold(0u32, |n, (k, &c)| n | val(c) << (18 - 6 * k));
            out.extend_from_slice(&n.to_be_bytes()[1..q.len()]);
        }
        out
    }

    /// Log lines, then `secret` (each in its context) so that the boundary of the `size`-byte pieces falls inside
    /// it, at every tenth of its length in turn; returns the text and the secrets.
    fn across_boundaries(size: usize, cases: &[(&str, &str)]) -> (String, Vec<String>) {
        let filler = "2026-11-29T10:12:01.123Z INFO  http: GET /v1/items?page=3 200 12ms user=ada\n";
        let mut text = String::new();
        let mut secrets = Vec::new();
        for (k, (before, secret)) in cases.iter().cycle().take(3 * cases.len()).enumerate() {
            let boundary = (k + 1) * size;
            // Where in the secret the boundary falls.
            let into = 1 + (secret.len() - 2) * (k % 10) / 9;
            let start = boundary - into - before.len();
            while text.len() + filler.len() <= start {
                text.push_str(filler);
            }
            text.push_str(&" ".repeat(start - text.len()));
            text.push_str(before);
            text.push_str(secret);
            text.push('\n');
            secrets.push(secret.to_string());
        }
        text.push_str(&filler.repeat(20));
        (text, secrets)
    }

    /// Fake secrets, assembled so that this file does not look like a leak.
    fn gh() -> String {
        format!("gh{}_{}", "p", "A1b2C3d4E5".repeat(4).get(..36).unwrap())
    }

    #[test]
    fn a_secret_across_two_pieces_is_caught() {
        let gh = gh();
        let pem = format!(
            "-----BEGIN RSA PRIV{}ATE KEY-----\n{}\n-----END RSA PRIVATE KEY-----",
            "",
            "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u\n"
                .repeat(12)
                .trim_end()
        );
        let cases: Vec<(&str, &str)> = vec![
            ("push with ", &gh),
            ("DB_PASSWORD=", "Xk7pQ2wR9zL4mN8bVq3"),
            ("postgres://app:", "s3cr3t-Pw9-k2Lm7v@db.internal"),
            ("curl -H 'Authorization: Bearer ", "k9Xq2Lm7vPz0w1aBq8ZtR5"),
            ("mysql -u root -p", "S3cr3t-Pw9-x7Yq"),
        ];
        let r = on();
        for size in [4096, 5000] {
            let (text, secrets) = across_boundaries(size, &cases);
            let pieces = in_pieces(text.as_bytes(), size, &r);
            assert!(pieces.len() >= 10, "{} pieces", pieces.len());
            let whole: Vec<u8> = pieces.iter().flat_map(|(kept, _)| kept.clone()).collect();
            let want = r.redact_text(&text).unwrap().0;
            assert_eq!(String::from_utf8(whole).unwrap(), want, "the pieces are the input, redacted as a whole");
            for (_, o) in &pieces {
                for s in &secrets {
                    assert!(!o.line.contains(s.as_str()), "{s} in {}", o.line);
                }
            }
            // And a PEM block whose body the boundary cuts: its armour line is held with it.
            let mut with_pem = "log line\n".repeat(size / 9);
            with_pem.truncate(size - 300);
            with_pem.push('\n');
            with_pem.push_str(&pem);
            with_pem.push_str(&"\nafter\n".repeat(200));
            let pieces = in_pieces(with_pem.as_bytes(), size, &r);
            let whole: Vec<u8> = pieces.iter().flat_map(|(kept, _)| kept.clone()).collect();
            assert_eq!(String::from_utf8(whole).unwrap(), r.redact_text(&with_pem).unwrap().0);
            assert!(pieces.iter().all(|(_, o)| !o.line.contains("MIIEowIBAAKCAQEA")));
        }
    }

    #[test]
    fn a_secret_across_two_pieces_of_one_long_line_is_caught() {
        // A minified JSON document: no line break near any boundary.
        let mut doc = String::from("[");
        for k in 0..400 {
            doc.push_str(&format!(
                r#"{{"id":{k},"note":"entry number {k} of the export","password":"Xk7pQ2wR9zL4mN8b{k:03}"}},"#
            ));
        }
        doc.push_str("{}]");
        let r = on();
        for size in [3000, 4096, 4999] {
            let pieces = in_pieces(doc.as_bytes(), size, &r);
            let whole: Vec<u8> = pieces.iter().flat_map(|(kept, _)| kept.clone()).collect();
            assert_eq!(String::from_utf8(whole).unwrap(), r.redact_text(&doc).unwrap().0, "size {size}");
        }
    }

    #[test]
    fn a_copy_of_an_earlier_secret_in_the_held_bytes_stays_redacted() {
        let secret = "Xk7pQ2wR9zL4mN8bVq3";
        // The copy near the end of a piece, the secret further back than any cut may move.
        let size = HOLD_MAX + 8 * HOLD_MIN;
        let mut text = format!("DB_PASSWORD={secret}\n");
        text.push_str(&"filler line of a log\n".repeat((size - 600) / 21));
        text.push_str(&format!("echo {secret} done\n"));
        text.push_str(&"tail line\n".repeat(300));
        let r = on();
        let pieces = in_pieces(text.as_bytes(), size, &r);
        assert!(pieces[0].1.held > 0);
        assert!(pieces.iter().all(|(_, o)| !o.line.contains(secret)), "the copy went too");
        let whole: Vec<u8> = pieces.iter().flat_map(|(kept, _)| kept.clone()).collect();
        assert_eq!(String::from_utf8(whole).unwrap(), r.redact_text(&text).unwrap().0);
    }

    #[test]
    fn bytes_that_are_not_utf8_reassemble_exactly() {
        let mut input = Vec::new();
        for k in 0..600 {
            input.extend_from_slice(format!("line {k} caf").as_bytes());
            input.push(0xe9); // Latin-1, not UTF-8
            input.push(b'\n');
        }
        let pieces = in_pieces(&input, 2048, &on());
        assert!(pieces.len() > 2);
        let whole: Vec<u8> = pieces.iter().flat_map(|(kept, _)| kept.clone()).collect();
        assert_eq!(whole, input);
        assert!(pieces[..pieces.len() - 1].iter().all(|(_, o)| o.held > 0 && o.held <= HOLD_MAX));
    }

    #[test]
    fn without_redaction_or_in_the_last_piece_nothing_is_held() {
        let text = "a line of text\n".repeat(1000);
        let pieces = in_pieces(text.as_bytes(), 4096, &off());
        assert!(pieces.iter().all(|(_, o)| o.held == 0));
        let one = piece(text.as_bytes(), NOW, "bigbigbigbig1", 2, 3, 1e7, &ctx().render(&on()), &on());
        assert_eq!(one.held, 0);
    }

    #[test]
    fn a_value_named_on_the_line_before_is_held_with_its_name() {
        // A Kubernetes env list whose long value the boundary cuts far from the line that names it.
        let value: String = "k9Xq2Lm7vPz0w1aB".repeat(100);
        let size = 8192;
        let mut text = "    - name: LOG_LEVEL\n      value: debug\n".repeat((size - 1200) / 40);
        text.push_str("    - name: API_TOKEN\n      value: ");
        text.push_str(&value);
        text.push_str("\n    - name: PORT\n      value: 8080\n");
        text.push_str(&"    - name: LOG_LEVEL\n      value: debug\n".repeat(100));
        let r = on();
        let pieces = in_pieces(text.as_bytes(), size, &r);
        assert!(pieces.iter().all(|(_, o)| !o.line.contains(&value[..32])), "the value is redacted");
        let whole: Vec<u8> = pieces.iter().flat_map(|(kept, _)| kept.clone()).collect();
        assert_eq!(String::from_utf8(whole).unwrap(), r.redact_text(&text).unwrap().0);
    }
}
