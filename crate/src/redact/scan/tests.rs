//! The block scan against the byte loop it must agree with, and the class bitmaps against the class table.

use super::blocks::{CLASS, SEP, STOP, WORD};
use super::*;
use crate::bytes::{classes64_swar, Masks};
use crate::redact::tests::{xorshift, GENERAL_PIECES};
use std::sync::LazyLock;
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

/// Pieces that reach every handler: keys, operators, token prefixes and bodies, PEM armour, URLs, database
/// echoes, markers, separators, spaces, quotes, escapes and multi-byte text.
static PIECES: LazyLock<Vec<&str>> = LazyLock::new(|| [OWN_PIECES, GENERAL_PIECES].concat());

const OWN_PIECES: &[&str] = &[
    "password",
    "token",
    "secret_name",
    "api_key",
    "access_token ",
    "aws_secret_access_key ",
    "AccountKey",
    "Authorization",
    "auth",
    "key",
    "Bearer ",
    "bearer",
    "entry",
    "sig",
    "client_secret",
    "DB_PASSWORD",
    ": ",
    ":",
    "=",
    "==",
    "=>",
    ":=",
    "!=",
    "::",
    "://",
    "@",
    "[",
    "]",
    "(",
    ")",
    ";",
    ",",
    "&",
    "?",
    " ",
    "  ",
    "\t",
    "\n",
    "\\n",
    "\\\"",
    "\"",
    "'",
    "`",
    "-",
    "--",
    ".",
    "_",
    "/",
    "é",
    "日本",
    "\u{0}",
    "hunter2",
    "s3cr3t-Pw9",
    "k9Xq2Lm7vPz0w1aB",
    "Xk7pQ2wR9zL4mN8b",
    "changeme",
    "${VAR}",
    "example",
    "AKIA",
    "Q3RZ7ONQ4XMTW2PB",
    "AIza",
    "ghp_",
    "github_pat_",
    "glpat-",
    "xoxb-",
    "sk_live_",
    "SK",
    "AC",
    "SG.",
    "sk-",
    "sk-ant-api03-",
    "npm_",
    "pypi-AgE",
    "eyJhbGciOiJIUzI1NiJ9",
    "eyJzdWIiOiIxMjM0NTY3ODkwIn0",
    "aB3dE5fG7hJ9kL2mN4pQ6rS8tU1vW3xY5zA7bC9dE2fG4hJ6kL8m",
    "0123456789abcdef0123456789abcdef",
    // (rule set 2026-11-30.1)
    "IDENTIFIED BY '",
    " PASSWORD '",
    "define('DB_PASSWORD', '",
    "login('admin', '",
    "new PDO($dsn, 'app', '",
    "5ba4f7fb948c40b615d10e58fdb5cf3a'",
    "API_KEY: &str = \"",
    "token: string = '",
    "var password string = \"",
    "PWD=",
    "233093066:AA",
    "nRDusZbynYLO6FvYerh6G6P2ZtFR9jv7i",
    "AAAASVKzO5X:APA91b",
    "ConvertTo-SecureString \"",
    " -AsPlainText",
    "LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlF",
    "hvs.",
    "ODEzMjAzMDAxNzE0MDYxNDc3NQ.JO3qSK.",
    "password ",
    "requirepass ",
    "twilio",
    "-----BEGIN RSA PRIVATE KEY-----",
    "-----END RSA PRIVATE KEY-----",
    "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMx",
    "postgres://app:",
    "@db.internal",
    "https://",
    "hooks.slack.com",
    "/services/T0/B0/",
    "123456789012345678901",
    ".password",
    "5Xk7pQ2wR9zL4mN8b",
    "10",
    "2026",
    "Key (secret)=(",
    "Duplicate ",
    "entry '",
    "' for key 'users.password'",
    "[REDACTED:jwt]",
    "[REDACTED:",
    "2026-11-29T10",
    "00.564Z",
    "KeyStore.load",
    "auth.refresh",
    "TestTokenExpiry",
    "api.example.com",
    "--password",
    "--token",
    "--git",
    "x-api-key",
    "sig=",
    "X-Amz-Signature=",
    "SharedAccessKey=",
];

/// Text of `pieces` and random words, long enough to cross several 64-byte blocks.
fn text(state: &mut u32, pieces: usize) -> String {
    let mut t = String::new();
    for _ in 0..pieces {
        let r = xorshift(state);
        if r.is_multiple_of(5) {
            // A random word: letters, digits and separators, 1 to 24 bytes.
            for _ in 0..1 + (r >> 8) % 24 {
                t.push(b"aZ9_-.eBb0x"[xorshift(state) as usize % 11] as char);
            }
        } else {
            t.push_str(PIECES[(r >> 4) as usize % PIECES.len()]);
        }
    }
    t
}

/// What a scan found: spans, and markers already in the text.
type Scan = (Vec<Found>, Vec<(usize, usize)>);

/// The block scan and the byte loop on the same text (whatever its length: `run` picks one by length).
fn both(t: &str) -> (Scan, Scan) {
    let allowed = |s: &str| s == "hunter2";
    let (mut k1, mut k2) = (KeyCache::default(), KeyCache::default());
    let mut fast = Scanner::new(t, &allowed, &mut k1);
    fast.run_blocks(Resume::START);
    let mut slow = Scanner::new(t, &allowed, &mut k2);
    slow.run_bytes();
    ((fast.out, fast.markers), (slow.out, slow.markers))
}

#[test]
fn run_matches_the_byte_loop() {
    let mut state = 0x1234_5678u32;
    for round in 0..3000 {
        let t = text(&mut state, 1 + round % 120);
        let (fast, slow) = both(&t);
        assert_eq!(fast, slow, "{t:?}");
    }
}

#[test]
fn a_stop_after_a_resume_inside_a_run_led_by_a_digit() {
    // The webhook path ends inside the run `12…01.password` (at the dot), so the scan resumes there and the key of
    // the `=` is `.password`: a stop the block leaves out (a run led by a digit, then `=5`) must be handled.
    let t = "https://hooks.slack.com/services/T0/B0/123456789012345678901.password=5Xk7pQ2wR9zL4mN8b and more";
    for pad in 0..64 {
        let shifted = format!("{}{t}", " ".repeat(pad));
        let (fast, slow) = both(&shifted);
        assert_eq!(fast, slow, "{shifted:?}");
        assert_eq!(slow.0.len(), 2, "{shifted:?}");
    }
}

#[test]
fn run_matches_the_byte_loop_at_every_offset() {
    // The same text shifted byte by byte, so every piece meets every block boundary.
    let mut state = 0x0bad_cafeu32;
    for _ in 0..20 {
        let t = text(&mut state, 60);
        for pad in 0..64 {
            let shifted = format!("{}{t}", " ".repeat(pad));
            let (fast, slow) = both(&shifted);
            assert_eq!(fast, slow, "{shifted:?}");
            let glued = format!("{}{t}", "a".repeat(pad));
            let (fast, slow) = both(&glued);
            assert_eq!(fast, slow, "{glued:?}");
        }
    }
}

#[test]
fn a_block_finds_where_runs_end_and_start_as_the_bytes_say() {
    // (What the raw scan reads from the masks in place of a walk: a host's end after `://`, a label's start.)
    let mut state = 0x5eed_1234u32;
    for _ in 0..60 {
        let s = text(&mut state, 40);
        let b = s.as_bytes();
        let t = blocks::Text::<false> { b, esc: &[] };
        let mut blk = Block::new(t);
        for base in (0..b.len()).step_by(64) {
            if base != blk.base {
                blk.move_to(t, base);
            }
            for u in base..b.len().min(base + 200) {
                let end = u + b[u..].iter().take_while(|&&c| blocks::is_word(c)).count();
                assert_eq!(blk.run_end(t, u), end, "{s:?} from {u}");
            }
            for e in base + 1..=b.len().min(base + 64) {
                if blocks::is_word(b[e - 1]) {
                    let start = e - b[..e].iter().rev().take_while(|&&c| blocks::is_word(c)).count();
                    assert_eq!(blk.run_start(t, 0, e), start, "{s:?} to {e}");
                }
            }
        }
    }
}

/// The class table, bit by bit.
fn classes_by_table(chunk: &[u8; 64]) -> Masks {
    let mut m = Masks::default();
    for (k, &c) in chunk.iter().enumerate() {
        let bit = 1u64 << k;
        let class = CLASS[c as usize];
        m.word |= if class & WORD != 0 { bit } else { 0 };
        m.sep |= if class == SEP { bit } else { 0 };
        m.stop |= if class == STOP { bit } else { 0 };
        m.space |= if c == b' ' { bit } else { 0 };
        m.be |= if matches!(c, b'b' | b'B' | b'e' | b'E') { bit } else { 0 };
        m.digit |= if c.is_ascii_digit() { bit } else { 0 };
    }
    m
}

#[test]
fn class_bitmaps_match_the_table() {
    let mut chunk = [0u8; 64];
    for start in (0..256).step_by(64) {
        for (k, c) in chunk.iter_mut().enumerate() {
            *c = (start + k) as u8;
        }
        assert_eq!(Masks::at(&chunk, 0), classes_by_table(&chunk));
        assert_eq!(classes64_swar(&chunk), classes_by_table(&chunk));
    }
    let mut state = 0x5eed_1234u32;
    for _ in 0..2000 {
        for c in chunk.iter_mut() {
            *c = xorshift(&mut state) as u8;
        }
        assert_eq!(Masks::at(&chunk, 0), classes_by_table(&chunk));
        assert_eq!(classes64_swar(&chunk), classes_by_table(&chunk));
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        // A tenth of the cases under wasm: the same code, one thread, and the native run has the full count.
        #![proptest_config(ProptestConfig::with_cases(if cfg!(target_arch = "wasm32") { 300 } else { 3000 }))]

        #[test]
        fn run_matches_the_byte_loop_on_pieces(
            picks in prop::collection::vec((0..PIECES.len() + 4, "[a-zA-Z0-9_.-]{1,20}"), 0..160),
            pad in 0..64usize,
        ) {
            let mut t = " ".repeat(pad);
            for (i, word) in &picks {
                t.push_str(PIECES.get(*i).copied().unwrap_or(word));
            }
            let (fast, slow) = both(&t);
            prop_assert_eq!(fast, slow, "{:?}", t);
        }

        #[test]
        fn run_matches_the_byte_loop_on_any_text(t in "\\PC{0,300}") {
            let (fast, slow) = both(&t);
            prop_assert_eq!(fast, slow, "{:?}", t);
        }
    }
}
