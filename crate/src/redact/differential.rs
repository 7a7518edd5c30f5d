//! The raw scan of JSON strings (`scan::Scanner::run_raw`, used by `json::walk` for long strings whose escapes are
//! all two bytes long) against decoding every string first: same output, same hits.
//!
//! - scan level: whenever the raw scan says a content is clean, the decoded content scans clean (byte loop and block
//!   scan), on texts built to put escapes next to every rule's trigger;
//! - redactor level: [`Redactor::redact_json`] against [`Redactor::redact_json_decoded`] on the fixtures (as JSON
//!   strings long enough to be scanned raw), on random documents, and on the log text of bench/redaction.js.

use super::in_json::simple_escapes;
use super::keys::KeyCache;
use super::scan::{Resume, Scanner};
use super::tests::{xorshift, GENERAL_PIECES};
use super::*;
use std::sync::LazyLock;
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

/// Log text this long before a piece makes a string that `json::walk` scans raw (see `json::RAW_FROM`).
const LONG: usize = 4200;

/// Decodes content whose escapes are all two bytes long (what the raw scan is used on).
fn decode_simple(raw: &str) -> String {
    let mut out = String::new();
    let mut it = raw.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        out.push(match it.next() {
            Some('n') => '\n',
            Some('t') => '\t',
            Some('r') => '\r',
            Some('b') => '\u{8}',
            Some('f') => '\u{c}',
            Some(c @ ('"' | '\\' | '/')) => c,
            other => panic!("not a two-byte escape: {other:?}"),
        });
    }
    out
}

/// JSON string content for `text` (escaped as `JSON.stringify` does; `/` is not escaped).
fn escape(text: &str) -> String {
    let s = serde_json::to_string(text).unwrap_or_default();
    s[1..s.len() - 1].to_string()
}

/// The bench's log text: `cleanLog(bytes, seed)` of bench/redaction.js, ported (same generator, same templates;
/// byte-identical to the JS output for the 1 MiB of seed 1 when it was ported), so that the text the benchmark
/// redacts is the one tested here. Should the two drift apart, the tests stay sound (any log text will do); only
/// the link to the benchmark weakens.
fn clean_log(bytes: usize, seed: u32) -> String {
    let mut s = seed;
    let mut r = move || {
        s = s.wrapping_add(0x6d2b_79f5);
        let mut t = s;
        t = (t ^ (t >> 15)).wrapping_mul(t | 1);
        t ^= t.wrapping_add((t ^ (t >> 7)).wrapping_mul(t | 61));
        f64::from(t ^ (t >> 14)) / 4_294_967_296.0
    };
    const USERS: [&str; 6] = ["alice", "bob", "carol", "dave", "erin", "frank"];
    let pick = |r: &mut dyn FnMut() -> f64, n: u32| (r() * f64::from(n)).floor() as usize;
    let hex = |r: &mut dyn FnMut() -> f64, n: usize| -> String {
        (0..n).map(|_| b"0123456789abcdef"[pick(r, 16)] as char).collect()
    };
    let mut out = String::new();
    // Milliseconds since 2026-11-29T00:00:00Z (the text covers a few hours of that day).
    let mut t: u64 = 10 * 3_600_000;
    while out.len() < bytes {
        t += pick(&mut r, 900) as u64;
        let ts =
            format!("2026-11-29T{:02}:{:02}:{:02}.{:03}Z", t / 3_600_000, t / 60_000 % 60, t / 1000 % 60, t % 1000);
        let line = match pick(&mut r, 12) {
            0 => {
                let u = USERS[pick(&mut r, 6)];
                format!("{ts} INFO  auth.refresh: token refresh ok for user {u} (expires in 3600s, request {})", hex(&mut r, 8))
            }
            1 => {
                let page = pick(&mut r, 90);
                format!("{ts} DEBUG http: GET https://api.example.com/v1/items?page={page} -> 200 in {}ms", pick(&mut r, 80))
            }
            2 => format!(
                "{ts} WARN  password policy: minimum length 12 not met for {} users; sending reset emails",
                pick(&mut r, 9)
            ),
            3 => "    at verifyToken (src/auth/token.ts:41:13)".to_string(),
            4 => "    at KeyStore.load (src/crypto/keys.ts:118:9)".to_string(),
            5 => format!("commit {} rotate signing key, update api key docs", hex(&mut r, 40)),
            6 => format!("{ts} INFO  cache: key user:{}:profile hit, ttl 300s", pick(&mut r, 9999)),
            7 => format!("test auth/token_test.go: TestTokenExpiry PASS (0.0{}s)", pick(&mut r, 9)),
            8 => format!(
                "{{\"level\":\"info\",\"msg\":\"token validated\",\"key_id\":\"k-{}\",\"max_tokens\":4096,\"secret_name\":\"db-main\"}}",
                pick(&mut r, 99)
            ),
            9 => format!(
                "{ts} ERROR db: password authentication failed for user \"app\" (attempt {})",
                pick(&mut r, 5)
            ),
            10 => {
                let a = hex(&mut r, 7);
                format!("diff --git a/src/auth/secret.rs b/src/auth/secret.rs\nindex {a}..{} 100644", hex(&mut r, 7))
            }
            _ => format!(
                "{ts} INFO  oauth: exchanged authorization code for an access token, scope \"read write\", id {}",
                hex(&mut r, 12)
            ),
        };
        out.push_str(&line);
        out.push('\n');
    }
    out.truncate(bytes);
    out
}

/// Text pieces (escaped as JSON before use): every rule's triggers, keys, operators, quotes, control characters.
static TEXT_PIECES: LazyLock<Vec<&str>> = LazyLock::new(|| [OWN_TEXT_PIECES, GENERAL_PIECES].concat());

const OWN_TEXT_PIECES: &[&str] = &[
    "password",
    "token",
    "api_key",
    "access_token ",
    "aws_secret_access_key ",
    "client_secret",
    "DB_PASSWORD",
    "Authorization",
    "auth",
    "Bearer ",
    "bearer",
    "Duplicate ",
    "entry '",
    "entry",
    "' for key 'users.password'",
    "DETAIL:  Key (secret)=(",
    ")",
    "(",
    ": ",
    ":",
    "=",
    "==",
    "=>",
    ":=",
    "!=",
    "::",
    "://",
    ":/",
    "@",
    "[",
    "]",
    "[REDACTED:jwt]",
    " ",
    "  ",
    "\n",
    "\t",
    "\r",
    "\u{8}",
    "\u{c}",
    "\u{1b}[31m",
    "\u{0}",
    "\"",
    "'",
    "`",
    "\\",
    "/",
    "-",
    "--",
    "--password ",
    "--token",
    ".",
    "_",
    ",",
    ";",
    "é",
    "日本",
    "😀",
    "hunter2",
    "s3cr3t-Pw9",
    "k9Xq2Lm7vPz0w1aB",
    "Xk7pQ2wR9zL4mN8b",
    "5Xk7pQ2wR9zL4mN8b",
    "AKIA",
    "Q3RZ7ONQ4XMTW2PB",
    "AC",
    "SK",
    "twilio",
    "0123456789abcdef0123456789abcdef",
    "AIza",
    "ghp_",
    "glpat-",
    "xoxb-",
    "sk_live_",
    "sk-",
    "npm_",
    "pypi-AgE",
    "SG.",
    "aB3dE5fG7hJ9kL2mN4pQ6rS8tU1vW3xY5zA7bC9dE2fG4hJ6kL8m",
    "eyJhbGciOiJIUzI1NiJ9",
    "eyJzdWIiOiIxMjM0NTY3ODkwIn0",
    "-----BEGIN RSA PRIVATE KEY-----",
    "-----END RSA PRIVATE KEY-----",
    "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMx",
    "postgres://app:",
    "@db.internal",
    "https://",
    "hooks.slack.com",
    "/services/T0/B0/",
    "123456789012345678901",
    "sig=",
    "X-Amz-Signature=",
    "SharedAccessKey=",
    "AccountKey=",
    "10",
    "2026-11-29T10",
    "00.564Z",
    "auth.refresh",
    "TestTokenExpiry",
    "api.example.com",
    "level",
    "key_id",
    "max_tokens",
    "secret_name",
    "{\"password\": \"s3cr3t-Pw9\"}",
    "mysql",
    "curl",
    "sshpass",
    "htpasswd",
    "docker login",
    " -p",
    "-p",
    " -u ",
    " -b ",
    "admin:",
    "|",
    "&&",
    "\\\n",
    "<password>",
    "</password>",
    "<",
    ">",
    "<add key=\"ClearTextPassword\" value=\"",
];

/// Raw content pieces, used as they are: escapes of every kind (also `\uXXXX`, surrogate pairs, invalid ones)
/// next to and inside triggers.
const RAW_PIECES: &[&str] = &[
    "\\n",
    "\\\"",
    "\\\\",
    "\\/",
    "\\t",
    "\\r",
    "\\b",
    "\\f",
    "\\\\n",
    "\\\\\\\"",
    "\\u0041",
    "\\u0041KIAQ3RZ7ONQ4XMTW2PB",
    "AKIA\\u0051",
    "\\u003a",
    "\\u003d",
    "\\u0020",
    "\\u005b",
    "\\ud83d\\ude00",
    "\\ud83d",
    "\\u12",
    "\\x",
    "\\é",
    "\\:",
    "tok\\\"en=",
    "pass\\nword=",
    "password\\n=",
    "password\\\":\\\"",
    "\\\"password\\\": \\\"s3cr3t-Pw9\\\"",
    "\\\"token\\\":\\\"k9Xq2Lm7vPz0w1aB\\\"",
    "https:\\/\\/app:s3cr3t-Pw9@db.internal",
    "https:\\/\\/user:pw@host",
    "https:/\\/app:s3cr3t-Pw9@db",
    "https://app:s3cr3t-Pw9\\b@db",
    "https://app:s3cr3t-Pw9@\\bdb",
    "postgres://app:s3cr3t-Pw9\\n@db",
    ":\\/\\/",
    "bearer\\n",
    "-----BEGIN RSA PRIVATE KEY-----\\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMx\\n-----END RSA PRIVATE KEY-----",
    "Key (secret)=\\(",
    "\\b\\bpassword=hunter2",
    "access_token\\tXk7pQ2wR9zL4mN8b",
    "twilio\\n",
];

/// A content built from pieces, clean log lines and random words: `items` of them, `clean` in 16 being log lines.
fn content(state: &mut u32, items: usize, clean: u32) -> String {
    let mut out = String::new();
    for _ in 0..items {
        let r = xorshift(state);
        if r % 16 < clean {
            let seed = xorshift(state);
            let line = clean_log(60 + (seed % 80) as usize, seed);
            out.push_str(&escape(&line));
        } else if r % 16 < clean + (16 - clean) / 2 {
            out.push_str(RAW_PIECES[(r >> 8) as usize % RAW_PIECES.len()]);
        } else if r & 0x1000_0000 != 0 {
            out.push_str(&escape(TEXT_PIECES[(r >> 8) as usize % TEXT_PIECES.len()]));
        } else {
            for _ in 0..1 + (r >> 8) % 24 {
                out.push(b"aZ9_-.eBb0xn"[xorshift(state) as usize % 12] as char);
            }
        }
    }
    out
}

/// What the raw scan says of `content`: `None` when it is not for the raw scan (an escape that is not two bytes
/// long), else `Ok` (clean) or where it gave up.
fn raw_scan(content: &str) -> Option<Result<(), Resume>> {
    let quoted = format!("\"{content}\"");
    let mut bits = Vec::new();
    let (end, _) = simple_escapes(quoted.as_bytes(), 1, &mut bits)?;
    assert_eq!(end, quoted.len() - 1, "{content:?}");
    let allowed = |s: &str| s == "hunter2";
    let mut keys = KeyCache::default();
    Some(Scanner::new_raw(content, &bits, &allowed, &mut keys).run_raw())
}

fn raw_clean(content: &str) -> Option<bool> {
    raw_scan(content).map(|r| r.is_ok())
}

/// The decoded offset of raw offset `r` of a content whose escapes are all two bytes long (as `json::walk` maps
/// them: a backslash to the character it stands for, the byte after it to the offset after that character).
fn decoded_offset(content: &str, r: usize) -> usize {
    let b = content.as_bytes();
    let (mut i, mut d) = (0, 0);
    while i < r {
        if b[i] == b'\\' {
            i += 2;
        } else {
            i += 1;
        }
        d += 1;
    }
    d
}

/// The spans and markers of the block scan of `text` from `from`.
fn scan_decoded(text: &str, from: Resume) -> (Vec<super::Found>, Vec<(usize, usize)>) {
    let allowed = |s: &str| s == "hunter2";
    let mut keys = KeyCache::default();
    let mut sc = Scanner::new(text, &allowed, &mut keys);
    if from == Resume::START {
        sc.run();
    } else {
        sc.run_from(from);
    }
    (sc.out, sc.markers)
}

/// Asserts what the raw scan of `content` says: when clean, the decoded content scans clean; when it gave up, the
/// decoded scan from where it gave up finds what the decoded scan from the start does. Returns whether it was
/// proven clean.
fn check_raw(content: &str) -> bool {
    let Some(said) = raw_scan(content) else { return false };
    let text = decode_simple(content);
    let whole = scan_decoded(&text, Resume::START);
    match said {
        Ok(()) => {
            assert!(whole.0.is_empty() && whole.1.is_empty(), "raw scan said clean: {content:?} → {:?}", whole.0);
            true
        }
        Err(r) => {
            let from = r.map(|o| decoded_offset(content, o));
            assert_eq!(scan_decoded(&text, from), whole, "resumed from {r:?} = {from:?}: {content:?}");
            false
        }
    }
}

#[test]
fn raw_clean_means_decoded_clean() {
    let mut state = 0x00c0_ffeeu32;
    let (mut total, mut proven) = (0, 0);
    for round in 0..6000 {
        let c = content(&mut state, 1 + round % 40, [0, 8, 12, 15][round % 4]);
        total += 1;
        proven += usize::from(check_raw(&c));
    }
    // Not vacuous: most of the mostly-clean texts are proven clean.
    assert!(proven * 5 > total, "{proven} of {total} proven clean");
}

#[test]
fn raw_clean_at_every_block_offset() {
    // Each piece at every offset from a 64-byte block boundary, between clean log text.
    let log = escape(&clean_log(300, 7));
    for piece in RAW_PIECES.iter().copied().chain(TEXT_PIECES.iter().map(|p| &*escape(p).leak())) {
        for pad in 0..64 {
            let c = format!("{}{piece}{log}", "a b".repeat(pad / 3 + 1).get(..pad).unwrap_or(""));
            check_raw(&c);
            let c = format!("{log}{}{piece} {}", " ".repeat(pad), &log[..100]);
            check_raw(&c);
        }
    }
}

#[test]
fn raw_clean_with_twilio_at_every_distance() {
    // An account SID is a secret only with "twilio" in the 256 bytes before it: escapes between them make that
    // stretch longer in the raw text than in the decoded one.
    let r = Redactor::new(&RedactOptions::default()).0;
    for gap in 230..270 {
        for escapes in [0, 1, 5, 20] {
            let filler = format!("{}{}", "\\n".repeat(escapes), "x ".repeat(gap / 2));
            let c = format!("{}twilio {filler} AC{} done", escape(&clean_log(LONG, 3)), "0123456789abcdef".repeat(2));
            check_raw(&c);
            same_redaction(&r, &format!("{{\"output\":\"{c}\"}}"), "output");
        }
    }
}

#[test]
fn raw_clean_with_escapes_in_a_command() {
    // A password option is looked up with its program, back along the command: an escape on the way (a tab, a
    // quote, a backslash) reads differently in the raw text, which must then leave the string to the decoded scan.
    let r = Redactor::new(&RedactOptions::default()).0;
    let commands = [
        ("mysql\\t-phunter2", true),
        ("mysql -u\\troot -phunter2", true),
        ("\\\"mysql\\\" -phunter2", true),
        ("sshpass\\t-p hunter2 ssh host", true),
        ("curl -sS\\t-u admin:s3cr3t-Pw9 https:\\/\\/x", true),
        ("htpasswd -b f\\tadmin s3cr3t-Pw9", true),
        ("mysql \\\\\\n-phunter2", true),
        ("mysql\\n-phunter2", false),
        ("redis-cli\\r\\n-a s3cr3t-Pw9", false),
        ("echo \\\"s3cr3t-Pw9\\\" | sudo -S ls", true),
        ("echo s3cr3t-Pw9\\t| sudo -S ls", true),
        ("tool -u ops\\t-p s3cr3t-Pw9", true),
        ("tool -u\\tops -p s3cr3t-Pw9", true),
        ("rdp\\t/p:s3cr3t-Pw9 /v:h", true),
        ("rdp \\\"/p:s3cr3t-Pw9\\\"", true),
        ("mysqldump -u$(DB_USER)\\t-phunter2", true),
    ];
    for (cmd, redacted) in commands {
        let c = format!("{}{cmd} done", escape(&clean_log(LONG, 4)));
        check_raw(&c);
        let doc = format!("{{\"output\":\"{c}\"}}");
        same_redaction(&r, &doc, "output");
        let out = r.redact_json(&doc).map(|(out, _)| out).unwrap_or_default();
        assert_eq!(out.contains("[REDACTED:command-line-password]"), redacted, "{cmd}");
    }
}

#[test]
fn raw_clean_with_escapes_around_quoted_literals_and_colon_tokens() {
    // The rules read before a long quoted literal (a name, `,`, SQL words, a login call, a label) and before the colon
    // of a Telegram or FCM token, and a base64 PEM key may hold `\/`: escapes there (given raw, as in JSON
    // string content) must not let the raw scan call clean what the decoded scan redacts.
    let r = Redactor::new(&RedactOptions::default()).0;
    let v = "OAlzisjIVgb1fhx2KmuxZ1W8vnYzc";
    let tg = "AAnRDusZbynYLO6FvYerh6G6P2ZtFR9jv7i";
    let fcm = format!("APA91b{}", "x9Kq2mZ7vB4nR8tW1cY6hJ3pL5sD0fG".repeat(4));
    let pieces: Vec<String> = vec![
        format!("define(\\t'DB_PASSWORD',\\t'{v}')"),
        format!("define('DB_PASSWORD',\\t'{v}')"),
        format!("os.Setenv(\\\"DD_API_KEY\\\", \\\"{v}\\\")"),
        format!("IDENTIFIED BY\\t'{v}'"),
        format!("api.login(\\\"admin\\\", \\\"{v}\\\")"),
        format!("new PDO($dsn,\\t'jenkins', '{v}')"),
        format!("\\n233093066:{tg}"),
        format!("\\t233093066:{tg}"),
        format!("\\\"233093066:{tg}\\\""),
        format!("key=AAAASVKzO5X:{fcm}"),
        format!("\\nAAAASVKzO5X:{fcm}"),
        format!("\\npassword {v}"),
        format!("\\t  requirepass {v}"),
        format!("login ci\\tpassword {v}"),
        format!("token\\t'{v}'"),
        format!("app \\\"4870172\\\" key \\\"{v}\\\""),
        format!("heroku\\t \\\"{v}\\\""),
        "twilio Client(\\\"AC0123456789abcdef0123456789abcdef\\\", \\\"f3a9c2b7d6e5f4a3b2c1d0e9f8a7b6c5\\\")".into(),
        format!("{{\\\"service\\\": \\\"pusher\\\", \\\"the_value\\\": \\\"{v}\\\"}}"),
        "client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFb3dJQkFBS0NBUUVBdTFT\\/VTFMZlZMUEhDb3pNeEgyTW8=".into(),
        "client-key-data: LS0tLS1CRUdJTi\\/BSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFb3dJQkFBS0NBUUVBdTFTVTFMZlZMUEhDb3pNeEgyTW8=".into(),
        "client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpN\\/SUlFb3dJQkFBS0NBUUVBdTFTVTFMZlZMUEhDb3pNeEgyTW8=".into(),
    ];
    for (i, p) in pieces.iter().enumerate() {
        let c = format!("{}{p} done", escape(&clean_log(LONG, 40 + i as u32)));
        check_raw(&c);
        same_redaction(&r, &format!("{{\"output\":\"{c}\"}}"), "output");
    }
}

#[test]
fn raw_scan_redacts_as_decoding_wherever_it_gives_up() {
    // A secret at the start, around 4 KiB and near the end of a long string: the raw scan gives up there, and the
    // scan of the decoded string goes on from where it did.
    let r = Redactor::new(&RedactOptions::default()).0;
    let log = escape(&clean_log(12000, 5));
    let secrets = ["password=s3cr3t-Pw9", "https:\\/\\/app:s3cr3t-Pw9@db.internal", "AKIA\\u0051", "[REDACTED:jwt]"];
    for secret in secrets {
        for at in (0..64).chain(4000..4200).chain([6000, 11990]) {
            let c = format!("{}{secret}\\n{}", &log[..at], &log[at..]);
            if c.is_char_boundary(at) {
                same_redaction(&r, &format!("{{\"output\":\"{c}\"}}"), "output");
            }
        }
    }
}

/// Redaction with the raw scan and without agree on `doc` (also as the value of a member named `key`).
fn same_redaction(r: &Redactor, doc: &str, key: &str) {
    assert_eq!(r.redact_json(doc), r.redact_json_decoded(doc, None), "{doc:?}");
    assert_eq!(r.redact_json_member(key, doc), r.redact_json_decoded(doc, Some(key)), "{key}: {doc:?}");
}

#[test]
fn raw_scan_redacts_as_decoding_on_documents() {
    let r = Redactor::new(&RedactOptions::default()).0;
    let allow = RedactOptions { allow: vec!["s3cr3t-Pw9".into()], ..RedactOptions::default() };
    let r_allow = Redactor::new(&allow).0;
    let mut state = 0x00dd_5eed_u32;
    // A fifth of the rounds under wasm (one thread, the same code); the native run has them all.
    let rounds = if cfg!(target_arch = "wasm32") { 80 } else { 400 };
    for round in 0..rounds {
        // Long strings (the raw scan is for strings of a kilobyte and more), as values, keys, in arrays.
        let a = content(&mut state, 60 + round % 60, [4, 10, 14, 15][round % 4]);
        let b = content(&mut state, 5 + round % 80, 12);
        let k = content(&mut state, 1 + round % 3, 0);
        let doc = format!(
            "{{\"tool\":\"bash\",\"output\":\"{a}\",\"items\":[\"{b}\",{{\"{k}\":\"{b}{a}\"}}],\"password\":\"{b}\",\"{a}\":1}}"
        );
        for key in ["output", "password", "Authorization"] {
            same_redaction(&r, &doc, key);
            same_redaction(&r, &format!("\"{a}\""), key);
        }
        same_redaction(&r_allow, &doc, "output");
    }
}

#[test]
fn raw_scan_redacts_the_bench_log_as_decoding() {
    let r = Redactor::new(&RedactOptions::default()).0;
    let log = clean_log(1 << 20, 1);
    let c = escape(&log);
    // The bench's clean text is proven clean undecoded (the point of the raw scan), and redacts to nothing.
    assert_eq!(raw_clean(&c), Some(true));
    check_raw(&c);
    let doc = format!("{{\"tool\":\"bash\",\"output\":\"{c}\"}}");
    assert_eq!(r.redact_json(&doc), None);
    same_redaction(&r, &doc, "output");
}

#[cfg(not(target_arch = "wasm32"))]
fn fixtures(name: &str) -> Vec<serde_json::Value> {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/redaction").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(&l.replace("{{+}}", "")).expect("fixture line is JSON"))
        .collect()
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn raw_scan_redacts_the_fixtures_as_decoding() {
    let r = Redactor::new(&RedactOptions::default()).0;
    let mut all = String::new();
    let sets = [
        "positives.jsonl",
        "negatives.jsonl",
        "general-positives.jsonl",
        "general-negatives.jsonl",
        "shapes-positives.jsonl",
        "shapes-negatives.jsonl",
    ];
    for (i, f) in sets.iter().flat_map(|name| fixtures(name)).enumerate() {
        let input = f["input"].as_str().unwrap_or_default();
        let before = clean_log(LONG, i as u32);
        let after = clean_log(300, i as u32 + 1);
        // The input as text inside a long string (as tool output is recorded), alone and between log text.
        for text in [format!("{before}{input}"), format!("{input}\n{before}"), format!("{before}{input}{after}")] {
            same_redaction(&r, &format!("{{\"output\":\"{}\"}}", escape(&text)), "output");
            if let Some(c) = raw_clean(&escape(&text)) {
                if c {
                    check_raw(&escape(&text));
                }
            }
        }
        // A JSON input as it is, and stringified inside a long string.
        if f["mode"].as_str() == Some("json") {
            same_redaction(&r, input, "output");
            same_redaction(
                &r,
                &format!("{{\"output\":\"{}\",\"x\":{input}}}", escape(&format!("{before}{input}"))),
                "x",
            );
        }
        all.push_str(input);
        all.push('\n');
        all.push_str(&clean_log(1000, i as u32 + 2));
    }
    // Every fixture in one long string, as in the bench's secret-laden text.
    same_redaction(&r, &format!("{{\"output\":\"{}\"}}", escape(&all)), "output");
}

#[cfg(not(target_arch = "wasm32"))]
mod properties {
    use super::*;
    use proptest::prelude::*;

    /// A piece: a raw one, an escaped text one, a clean log line, or a random string (escaped).
    fn piece() -> impl Strategy<Value = String> {
        prop_oneof![
            (0..RAW_PIECES.len()).prop_map(|i| RAW_PIECES[i].to_string()),
            (0..TEXT_PIECES.len()).prop_map(|i| escape(TEXT_PIECES[i])),
            (0..1000u32).prop_map(|s| escape(&clean_log(40 + s as usize % 100, s))),
            "[a-zA-Z0-9_.:=/ \\n\"\\\\-]{1,12}".prop_map(|s| escape(&s)),
            "\\PC{1,6}".prop_map(|s| escape(&s)),
        ]
    }

    proptest! {
        // A tenth of the cases under wasm: the same code, one thread, and the native run has the full count.
        #![proptest_config(ProptestConfig::with_cases(if cfg!(target_arch = "wasm32") { 300 } else { 3000 }))]

        #[test]
        fn raw_clean_means_decoded_clean_on_pieces(pieces in prop::collection::vec(piece(), 0..60), pad in 0..64usize) {
            let c = format!("{}{}", " ".repeat(pad), pieces.concat());
            check_raw(&c);
        }

        #[test]
        fn raw_scan_redacts_as_decoding(pieces in prop::collection::vec(piece(), 0..60), filler in 0..2 * LONG) {
            let r = Redactor::new(&RedactOptions::default()).0;
            let c = format!("{}{}", escape(&clean_log(filler, filler as u32)), pieces.concat());
            same_redaction(&r, &format!("{{\"tool\":\"bash\",\"output\":\"{c}\"}}"), "output");
        }
    }
}
