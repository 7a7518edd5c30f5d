//! Token shapes: vendor credentials found by their prefix at a word start, then checked for length, charset and
//! character mix. Every matcher is hand-written over bytes: no regex is compiled when a redactor is made.

use super::chars::*;
use super::prefixes::{marked_token, vendor_token, SHORTEST_LISTED, SHORTEST_MARKED};
use super::rule::Rule;
use super::values::credential_body;

/// Tries the prefix-anchored token rules at `i`, which the caller has found at a word start (the byte before is
/// not a token character). Returns the end of the token and its rule.
pub fn token_at(b: &[u8], i: usize) -> Option<(usize, Rule)> {
    token_in_run(b, i, i + run_len(b, i, |c| is_b64url(c) || c == b'.'))
}

/// [`token_at`] for a caller that knows where the word run (`[A-Za-z0-9_.-]`) from `i` ends: `e`.
pub fn token_in_run(b: &[u8], i: usize, e: usize) -> Option<(usize, Rule)> {
    shaped_token_at(b, i).or_else(|| listed_token(b, i, e - i))
}

/// The tokens of the vendor prefix table and the marked ones (`prefixes`), in a word run of `n` bytes from `i`: each
/// lies within its run (it is made of word bytes), so a run shorter than the shortest of a kind is not looked into
/// for it. Out of line: inlined into the scan's word handlers, it made the scan of clean text a tenth slower
/// (bench/redaction.js, A/B).
#[inline(never)]
fn listed_token(b: &[u8], i: usize, n: usize) -> Option<(usize, Rule)> {
    let vendor = || if n >= SHORTEST_LISTED { vendor_token(b, i) } else { None };
    let marked = || if n >= SHORTEST_MARKED { marked_token(b, i) } else { None };
    vendor().or_else(marked).map(|e| (e, Rule::VendorToken))
}

/// A token whose lead says it is a credential: a name, a word that says so at its end (a word of its own,
/// `acme-secret-…`, `svc.PRIVATE.TOKEN-…`, or glued on, `acmeKEY-…`, `acme-apikey-…`), a separator, and a body shaped
/// as a credential (`values::credential_body`): how services hand out generated keys. Names and hosts that hold such a
/// word (`access-logs-2024`, `secret-store.internal`, `api-gateway`) go on with words. After `key` alone a body of hex
/// digits is not taken (cache keys are named by hashes), unless the word before says which key (`api`, `secret`,
/// `private`, `access`). `i..e` is a word run (of `[A-Za-z0-9_.-]`) that holds a separator: the token's end.
/// (Out of line: the scan offers it few runs, and inlined it slowed the scan of clean text.)
#[inline(never)]
pub fn named_lead(b: &[u8], i: usize, e: usize) -> Option<usize> {
    let e = i + trim_trailing_dots(&b[i..e]);
    // (The body has 16 characters or more; each word ends in `y`, `n`, `t`, `e` or `s`.)
    for p in i + 3..e.saturating_sub(16) {
        if !matches!(b[p], b'-' | b'_' | b'.') || !matches!(b[p - 1] | 0x20, b'y' | b'n' | b't' | b'e' | b's') {
            continue;
        }
        let lead = &b[i..p];
        let Some(word) = CREDENTIAL_WORDS.iter().find(|w| ends_with_ci(lead, w)) else { continue };
        let hex = if *word == b"key" {
            if lead.len() == 3 {
                continue;
            }
            let before = &lead[..lead.len() - 3];
            let before = &before[..before.len() - usize::from(before.ends_with(b"_") || before.ends_with(b"-"))];
            [&b"api"[..], b"secret", b"private", b"access"].iter().any(|q| ends_with_ci(before, q))
        } else {
            true
        };
        if credential_body(&b[p + 1..e], hex) {
            return Some(e);
        }
    }
    None
}

/// Whether a run of `len` bytes holding a separator may be a token of [`named_lead`]: a lead of 3 bytes or more, a
/// separator, a body of 16 or more.
#[inline]
pub fn may_be_named_lead(len: usize) -> bool {
    len >= 20
}

/// The words at the end of a lead that say what follows is a credential ([`named_lead`]).
const CREDENTIAL_WORDS: [&[u8]; 5] = [b"key", b"token", b"secret", b"private", b"access"];

/// Whether `v` ends with `w` (lower case), in any case.
fn ends_with_ci(v: &[u8], w: &[u8]) -> bool {
    v.len() >= w.len() && v[v.len() - w.len()..].eq_ignore_ascii_case(w)
}

/// The token rules with a matcher of their own (the rest are rows of the vendor prefix table).
fn shaped_token_at(b: &[u8], i: usize) -> Option<(usize, Rule)> {
    let c0 = *b.get(i)?;
    match c0 {
        b'A' => aws_key_id(b, i)
            .map(|e| (e, Rule::AwsAccessKeyId))
            .or_else(|| gcp_api_key(b, i).map(|e| (e, Rule::GcpApiKey)))
            .or_else(|| twilio(b, i).map(|e| (e, Rule::TwilioKey)))
            .or_else(|| after_colon(b, i))
            .or_else(|| age(b, i).map(|e| (e, Rule::AgeSecretKey))),
        b'a' | b't' => led_by_kind(b, i),
        b'S' => {
            twilio(b, i).map(|e| (e, Rule::TwilioKey)).or_else(|| sendgrid(b, i).map(|e| (e, Rule::SendgridApiKey)))
        }
        b'g' => github(b, i).or_else(|| gitlab(b, i).map(|e| (e, Rule::GitlabToken))),
        b'h' => vault(b, i).or_else(|| huggingface(b, i)),
        b'M' | b'N' | b'O' => discord(b, i).map(|e| (e, Rule::DiscordBotToken)),
        b'L' => base64_private_key(b, i).map(|e| (e, Rule::PrivateKey)),
        b'l' => prefixed(b, i, b"lin_api_", 40, is_alnum).map(|e| (e, Rule::LinearApiKey)),
        b'k' => mailgun(b, i).map(|e| (e, Rule::MailgunApiKey)).or_else(|| led_by_kind(b, i)),
        b'x' => slack_token(b, i).map(|e| (e, Rule::SlackToken)),
        b's' => stripe(b, i)
            .map(|e| (e, Rule::StripeKey))
            .or_else(|| prefixed(b, i, b"sb_secret_", 32, is_b64url).map(|e| (e, Rule::SupabaseSecretKey)))
            .or_else(|| anthropic(b, i).map(|e| (e, Rule::AnthropicApiKey)))
            .or_else(|| openai(b, i).map(|e| (e, Rule::OpenaiApiKey)))
            .or_else(|| led_by_kind(b, i)),
        b'r' | b'w' => stripe(b, i).map(|e| (e, Rule::StripeKey)),
        b'n' => npm(b, i).map(|e| (e, Rule::NpmToken)),
        b'p' => pypi(b, i).map(|e| (e, Rule::PypiToken)).or_else(|| clickup(b, i).map(|e| (e, Rule::VendorToken))),
        b'e' => jwt(b, i).map(|e| (e, Rule::Jwt)).or_else(|| grafana(b, i).map(|e| (e, Rule::VendorToken))),
        b'0'..=b'9' => salesforce(b, i).or_else(|| truenas(b, i)).map(|e| (e, Rule::VendorToken)),
        _ => None,
    }
}

/// Grafana's API keys: base64 of `{"k":"<key>","n":"<name>","id":<n>}` (`eyJrIjoi` is `{"k":"`). Other base64 JSON
/// that starts with a `k` member (a shared report's link) has no `n` after it.
fn grafana(b: &[u8], i: usize) -> Option<usize> {
    if !starts_with_at(b, i, b"eyJrIjoi") {
        return None;
    }
    let n = run_len(b, i, is_b64);
    let mut head = [0u8; 60];
    let (got, _) = decode_base64(&b[i..i + n.min(80)], &mut head);
    let k = run_len(&head[..got], 6, is_alnum);
    (n >= 48 && k >= 16 && starts_with_at(&head[..got], 6 + k, b"\",\"n\":\"")).then_some(i + n)
}

/// Salesforce session ids and OAuth access tokens: the 15-character id of the organisation (`00D` and 12 letters and
/// digits), `!`, and a session key of 80 characters or more (letters, digits, `.`, `_`).
fn salesforce(b: &[u8], i: usize) -> Option<usize> {
    if !starts_with_at(b, i, b"00D") || run_len(b, i, is_alnum) != 15 || b.get(i + 15) != Some(&b'!') {
        return None;
    }
    let s = i + 16;
    let n = run_len(b, s, |c| is_alnum(c) || c == b'.' || c == b'_');
    let (l, u, d) = mix(&b[s..s + n]);
    (n >= 80 && l && u && d).then_some(s + n)
}

/// TrueNAS API keys: the key's number, `-`, and 64 letters and digits.
fn truenas(b: &[u8], i: usize) -> Option<usize> {
    let k = run_len(b, i, |c| c.is_ascii_digit());
    if !(1..=4).contains(&k) || b.get(i + k) != Some(&b'-') {
        return None;
    }
    let s = i + k + 1;
    let n = run_len(b, s, is_alnum);
    let (l, u, d) = mix(&b[s..s + n]);
    (n == 64 && !b.get(s + n).is_some_and(|&c| is_b64url(c)) && l && u && d).then_some(s + n)
}

/// `prefix` and then a body of at least `min` bytes of `class` that ends the word: its end.
fn prefixed(b: &[u8], i: usize, prefix: &[u8], min: usize, class: impl Fn(u8) -> bool) -> Option<usize> {
    if !starts_with_at(b, i, prefix) {
        return None;
    }
    let s = i + prefix.len();
    let n = run_len(b, s, class);
    let e = s + n;
    (n >= min && !b.get(e).is_some_and(|&c| is_b64url(c)) && !is_repeated(&b[s..e])).then_some(e)
}

/// HashiCorp Vault tokens: `hvs.` (service), `hvb.` (batch), `hvr.` (recovery), then 24 or more base64url
/// characters. <https://developer.hashicorp.com/vault/docs/concepts/tokens#token-prefixes>
fn vault(b: &[u8], i: usize) -> Option<(usize, Rule)> {
    [b"hvs.", b"hvb.", b"hvr."].iter().find_map(|p| prefixed(b, i, *p, 24, is_b64url)).map(|e| (e, Rule::VaultToken))
}

/// Hugging Face user access tokens: `hf_` and 34 letters.
fn huggingface(b: &[u8], i: usize) -> Option<(usize, Rule)> {
    let e = prefixed(b, i, b"hf_", 30, |c| c.is_ascii_alphabetic())?;
    let (l, u, _) = mix(&b[i + 3..e]);
    (l && u).then_some((e, Rule::HuggingfaceToken))
}

/// Discord bot tokens: the bot's id (a decimal snowflake) in base64, a 6-character timestamp and a 27 to 38
/// character HMAC, joined by dots (`MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs`). The first part
/// must decode to digits.
fn discord(b: &[u8], i: usize) -> Option<usize> {
    let id = run_len(b, i, is_b64url);
    if !(23..=28).contains(&id) || b.get(i + id) != Some(&b'.') || !base64_digits(&b[i..i + id]) {
        return None;
    }
    let ts = run_len(b, i + id + 1, is_b64url);
    if !(6..=7).contains(&ts) || b.get(i + id + 1 + ts) != Some(&b'.') {
        return None;
    }
    let s = i + id + 2 + ts;
    let mac = run_len(b, s, is_b64url);
    ((27..=38).contains(&mac) && b.get(s + mac).is_none_or(|&c| c != b'.')).then_some(s + mac)
}

/// Whether base64 text (no padding) decodes to ASCII digits only.
fn base64_digits(v: &[u8]) -> bool {
    let mut out = [0u8; 21]; // (a Discord id's base64 is at most 28 characters)
    let (n, whole) = decode_base64(v, &mut out);
    whole && out[..n].iter().all(u8::is_ascii_digit)
}

/// Decodes base64 (standard or URL-safe, no padding) into `out` up to the first byte of `v` that is none of its
/// characters, or until `out` is full; returns the bytes written and whether all of `v` was decoded.
fn decode_base64(v: &[u8], out: &mut [u8]) -> (usize, bool) {
    let (mut bits, mut k, mut got) = (0u32, 0, 0);
    for &c in v {
        let Some(x) = b64_value(c) else { return (got, false) };
        bits = bits << 6 | x;
        k += 6;
        if k >= 8 {
            k -= 8;
            if got == out.len() {
                return (got, false);
            }
            out[got] = (bits >> k) as u8;
            bits &= (1 << k) - 1;
            got += 1;
        }
    }
    (got, true)
}

/// The value of a base64 (standard or URL-safe) character.
fn b64_value(c: u8) -> Option<u32> {
    Some(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' | b'-' => 62,
        b'/' | b'_' => 63,
        _ => return None,
    } as u32)
}

/// A PEM private key block encoded once more in base64, as kubeconfig's `client-key-data` holds it: `LS0tLS1CRUdJTi`
/// is `-----BEGIN`, and the armour line must say `PRIVATE KEY` (`certificate-authority-data` is a certificate).
fn base64_private_key(b: &[u8], i: usize) -> Option<usize> {
    if !starts_with_at(b, i, b"LS0tLS1CRUdJTi") {
        return None;
    }
    let n = run_len(b, i, is_b64);
    if n < 64 {
        return None;
    }
    // The armour line: the first 60 bytes, from the first 80 characters.
    let mut head = [0u8; 60];
    let (got, _) = decode_base64(&b[i..i + n.min(80)], &mut head);
    let line = &head[..got];
    let line = &line[..line.iter().position(|&c| c == b'\n').unwrap_or(line.len())];
    find(line, b"PRIVATE KEY").map(|_| i + n)
}

/// Tokens whose secret part follows a colon, found from that part: a Telegram bot token's (`123456789:AA…`, 34 or 35
/// characters after the bot's id of 8 to 10 digits; the Bot API's own example has 34) and a Firebase Cloud Messaging server key's (`AAAA…:APA91b…`).
fn after_colon(b: &[u8], i: usize) -> Option<(usize, Rule)> {
    if i < 9 || b[i - 1] != b':' {
        return None;
    }
    let n = run_len(b, i, is_b64url);
    if starts_with_at(b, i, b"APA91b") {
        let sender = i.checked_sub(12)?;
        let ok = n >= 100 && starts_with_at(b, sender, b"AAAA") && b[sender..i - 1].iter().all(|&c| is_b64url(c));
        return ok.then_some((i + n, Rule::FcmServerKey));
    }
    let id_start = run_back(b, i - 1, |c| c.is_ascii_digit());
    let digits = i - 1 - id_start;
    let alone = id_start == 0 || !is_alnum(b[id_start - 1]) || b[..id_start].ends_with(b"bot");
    let (l, u, d) = mix(&b[i..i + n]);
    (starts_with_at(b, i, b"AA") && (34..=35).contains(&n) && (8..=10).contains(&digits) && alone && l && u && d)
        .then_some((i + n, Rule::TelegramBotToken))
}

/// age secret keys: `AGE-SECRET-KEY-1` and 58 upper-case bech32 characters.
fn age(b: &[u8], i: usize) -> Option<usize> {
    prefixed(b, i, b"AGE-SECRET-KEY-1", 58, |c| c.is_ascii_uppercase() || c.is_ascii_digit())
}

/// Mailgun's older API keys: `key-` and 32 lower-case hex digits.
fn mailgun(b: &[u8], i: usize) -> Option<usize> {
    let e = prefixed(b, i, b"key-", 32, is_lower_hex)?;
    (e == i + 36 && b[i + 4..e].iter().any(u8::is_ascii_digit)).then_some(e)
}

/// A token led by a word that says what it is and a separator (`api-…`, `apikey_…`, `key-…`, `token_…`,
/// `secret-…`), then a body of 24 alphanumerics or more that ends the word and is drawn at random: letters of both
/// cases and digits, or (but after `key`, which also leads cache keys named by a hash) 32 lower-case hex digits or
/// more. Names joined by hyphens (`api-gateway-deployment-7f9c5b`) have a short run after each hyphen.
fn led_by_kind(b: &[u8], i: usize) -> Option<(usize, Rule)> {
    // (The byte after a lead is looked at first: most runs that start with these letters are words.)
    let sep_at = |k: usize| matches!(b.get(i + k), Some(b'-' | b'_'));
    if !(sep_at(3) || sep_at(5) || sep_at(6)) {
        return None;
    }
    let lead = if starts_with_at(b, i, b"apikey") {
        6
    } else if starts_with_at(b, i, b"api") || starts_with_at(b, i, b"key") {
        3
    } else if starts_with_at(b, i, b"token") {
        5
    } else if starts_with_at(b, i, b"secret") {
        6
    } else {
        return None;
    };
    if !matches!(b.get(i + lead), Some(b'-' | b'_')) {
        return None;
    }
    let s = i + lead + 1;
    let n = run_len(b, s, is_alnum);
    if n < 24 || b.get(s + n).is_some_and(|&c| is_b64url(c)) {
        return None;
    }
    let v = &b[s..s + n];
    let (l, u, d) = mix(v);
    let hex = b[i] != b'k' && n >= 32 && l && d && v.iter().all(|&c| is_lower_hex(c));
    ((l && u && d) || hex).then_some((s + n, Rule::GenericApiKey))
}

/// Whether the whole of `v` is one known token (used to name an assignment's value by what it is).
pub fn whole_token(v: &[u8]) -> Option<Rule> {
    match token_at(v, 0) {
        Some((e, r)) if e == v.len() => Some(r),
        _ => None,
    }
}

/// AWS access key ids: a four-letter kind prefix and 16 upper-case base32 characters.
/// <https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_identifiers.html#identifiers-unique-ids>
fn aws_key_id(b: &[u8], i: usize) -> Option<usize> {
    const KINDS: [&[u8; 4]; 12] =
        [b"AKIA", b"ASIA", b"ABIA", b"ACCA", b"AGPA", b"AIDA", b"AIPA", b"ANPA", b"ANVA", b"AROA", b"APKA", b"ASCA"];
    if !KINDS.iter().any(|k| starts_with_at(b, i, &k[..])) {
        return None;
    }
    let body = run_len(b, i + 4, |c| c.is_ascii_uppercase() || c.is_ascii_digit());
    if body != 16 || b.get(i + 20).is_some_and(|&c| is_alnum(c)) {
        return None;
    }
    let v = &b[i + 4..i + 20];
    (!is_repeated(v) && v.iter().any(|c| c.is_ascii_digit())).then_some(i + 20)
}

/// Google API keys: `AIza` and 35 base64url characters.
fn gcp_api_key(b: &[u8], i: usize) -> Option<usize> {
    if !starts_with_at(b, i, b"AIza") {
        return None;
    }
    (run_len(b, i + 4, is_b64url) == 35).then_some(i + 39)
}

/// Twilio API key SIDs (`SK` + 32 lower-case hex) always; account SIDs (`AC` + 32 hex) only when "twilio" is
/// written within the 256 bytes before, since an account SID alone is an identifier.
fn twilio(b: &[u8], i: usize) -> Option<usize> {
    let kind = b.get(i..i + 2)?;
    if kind != b"SK" && kind != b"AC" {
        return None;
    }
    if run_len(b, i + 2, is_lower_hex) != 32 || b.get(i + 34).is_some_and(|&c| is_alnum(c)) {
        return None;
    }
    if kind == b"AC" && !contains_ci(&b[i.saturating_sub(256)..i], b"twilio") {
        return None;
    }
    Some(i + 34)
}

/// A JSON string that is a whole Twilio account SID under a key naming Twilio (`"TWILIO_ACCOUNT_SID": "AC…"`):
/// the word [`twilio`] looks for before the SID is in the member's key, not in the string.
pub fn twilio_sid_under(key: &[u8], v: &[u8]) -> bool {
    v.len() == 34 && v.starts_with(b"AC") && run_len(v, 2, is_lower_hex) == 32 && contains_ci(key, b"twilio")
}

/// SendGrid: `SG.` + 22 + `.` + 43 base64url characters (accepted a little looser).
fn sendgrid(b: &[u8], i: usize) -> Option<usize> {
    if !starts_with_at(b, i, b"SG.") {
        return None;
    }
    let a = run_len(b, i + 3, is_b64url);
    if !(16..=32).contains(&a) || b.get(i + 3 + a) != Some(&b'.') {
        return None;
    }
    let s = i + 4 + a;
    let c = run_len(b, s, is_b64url);
    (30..=64).contains(&c).then_some(s + c)
}

/// GitHub: classic `gh[pousr]_` + 36 alphanumerics (the last 6 are a CRC32 we do not need to check: the prefix
/// is rare enough) and fine-grained `github_pat_` + 82 characters.
/// <https://github.blog/engineering/platform-security/behind-githubs-new-authentication-token-formats/>
fn github(b: &[u8], i: usize) -> Option<(usize, Rule)> {
    if starts_with_at(b, i, b"github_pat_") {
        let n = run_len(b, i + 11, |c| is_alnum(c) || c == b'_');
        return (n >= 40).then_some((i + 11 + n, Rule::GithubFineGrainedPat));
    }
    if b.get(i + 1) != Some(&b'h') || !matches!(b.get(i + 2), Some(b'p' | b'o' | b'u' | b's' | b'r')) {
        return None;
    }
    if b.get(i + 3) != Some(&b'_') {
        return None;
    }
    let n = run_len(b, i + 4, is_alnum);
    if !(36..=255).contains(&n) || b.get(i + 4 + n).is_some_and(|&c| c == b'_') {
        return None;
    }
    // Base62: digits, or both cases (a body without digits is rare, not impossible: 0.2% of them).
    let (l, u, d) = mix(&b[i + 4..i + 4 + n]);
    (((l || u) && d) || (l && u)).then_some((i + 4 + n, Rule::GithubToken))
}

/// GitLab personal, deploy, runner, trigger, feed, OAuth and CI/CD job tokens.
/// <https://docs.gitlab.com/security/tokens/#token-prefixes>
fn gitlab(b: &[u8], i: usize) -> Option<usize> {
    const PREFIXES: [&[u8]; 10] =
        [b"glpat-", b"gldt-", b"glrt-", b"glptt-", b"glft-", b"glimt-", b"glagent-", b"glsoat-", b"glcbt-", b"gloas-"];
    let p = PREFIXES.iter().find(|p| starts_with_at(b, i, p))?;
    let s = i + p.len();
    let n = run_len(b, s, |c| is_b64url(c) || c == b'.');
    let n = trim_trailing_dots(&b[s..s + n]);
    let (_, u, d) = mix(&b[s..s + n]);
    (n >= 20 && (u || d)).then_some(s + n)
}

fn trim_trailing_dots(v: &[u8]) -> usize {
    let mut n = v.len();
    while n > 0 && v[n - 1] == b'.' {
        n -= 1;
    }
    n
}

/// Slack bot, user, app-level, refresh and config tokens: `xox[abposre]-…`, `xapp-…`; with token rotation, access
/// tokens are `xoxe.xoxb-…` and `xoxe.xoxp-…`.
fn slack_token(b: &[u8], i: usize) -> Option<usize> {
    if starts_with_at(b, i, b"xoxe.xox") {
        return slack_token(b, i + 5).map(|e| e.max(i + 5));
    }
    let s = if starts_with_at(b, i, b"xox")
        && matches!(b.get(i + 3), Some(b'a' | b'b' | b'p' | b'o' | b's' | b'r' | b'e'))
    {
        if b.get(i + 4) != Some(&b'-') {
            return None;
        }
        i + 5
    } else if starts_with_at(b, i, b"xapp-") {
        i + 5
    } else {
        return None;
    };
    let n = run_len(b, s, |c| is_alnum(c) || c == b'-');
    (n >= 10 && mix(&b[s..s + n]).2).then_some(s + n)
}

/// Stripe secret and restricted keys (live and test) and webhook signing secrets. Publishable keys (`pk_`) are
/// public by design. Stripe documents no body length, and the leads are Stripe's alone: a short body counts when it
/// is drawn as generated ones are (a digit, or both cases), which a placeholder (`sk_test_yourkeyhere`) is not.
fn stripe(b: &[u8], i: usize) -> Option<usize> {
    const PREFIXES: [&[u8]; 5] = [b"sk_live_", b"sk_test_", b"rk_live_", b"rk_test_", b"whsec_"];
    let p = PREFIXES.iter().find(|p| starts_with_at(b, i, p))?;
    let s = i + p.len();
    let n = run_len(b, s, is_alnum);
    if n < 12 || b.get(s + n).is_some_and(|&c| c == b'_' || c == b'-') {
        return None;
    }
    let (l, u, d) = mix(&b[s..s + n]);
    (!is_repeated(&b[s..s + n]) && (n >= 16 || d || (l && u))).then_some(s + n)
}

/// Anthropic: `sk-ant-` then a kind (`api03-`, `admin01-`, `oat01-`, …) and a long base64url body.
fn anthropic(b: &[u8], i: usize) -> Option<usize> {
    if !starts_with_at(b, i, b"sk-ant-") {
        return None;
    }
    random_body(b, i + 7)
}

/// OpenAI: `sk-` with an optional kind (`proj-`, `svcacct-`, `admin-`, `None-`) and a random body. The body must
/// mix upper case, lower case and digits, which kebab-case names (`sk-learn-…`) never do.
fn openai(b: &[u8], i: usize) -> Option<usize> {
    if !starts_with_at(b, i, b"sk-") || starts_with_at(b, i, b"sk-ant-") {
        return None;
    }
    random_body(b, i + 3)
}

/// A base64url body from `s` of 32 characters or more that mixes upper case, lower case and digits: its end.
#[inline]
fn random_body(b: &[u8], s: usize) -> Option<usize> {
    let n = run_len(b, s, is_b64url);
    let (l, u, d) = mix(&b[s..s + n]);
    (n >= 32 && l && u && d).then_some(s + n)
}

/// npm access tokens: `npm_` + 36 alphanumerics.
fn npm(b: &[u8], i: usize) -> Option<usize> {
    if !starts_with_at(b, i, b"npm_") {
        return None;
    }
    let n = run_len(b, i + 4, is_alnum);
    let (_, _, d) = mix(&b[i + 4..i + 4 + n]);
    (n == 36 && d && b.get(i + 40).is_none_or(|&c| c != b'_' && c != b'-')).then_some(i + 40)
}

/// PyPI API tokens are macaroons: `pypi-` then base64 of a header that starts with the bytes `\x02\x01\x08`
/// (`AgE`), then a long body. <https://pypi.org/help/#apitoken>
fn pypi(b: &[u8], i: usize) -> Option<usize> {
    if !starts_with_at(b, i, b"pypi-AgE") {
        return None;
    }
    let n = run_len(b, i + 8, is_b64url);
    (n >= 50).then_some(i + 8 + n)
}

/// ClickUp personal API tokens: `pk_`, the user's numeric id, `_`, and 32 upper-case letters and digits. (Stripe's
/// `pk_live_`/`pk_test_` keys are publishable: a letter follows their `pk_`, never a digit.)
#[inline(never)]
fn clickup(b: &[u8], i: usize) -> Option<usize> {
    if !starts_with_at(b, i, b"pk_") {
        return None;
    }
    let d = run_len(b, i + 3, |c| c.is_ascii_digit());
    let s = i + 3 + d;
    if !(1..=12).contains(&d) || b.get(s) != Some(&b'_') {
        return None;
    }
    let n = run_len(b, s + 1, |c| c.is_ascii_uppercase() || c.is_ascii_digit());
    let (_, u, dig) = mix(&b[s + 1..s + 1 + n]);
    (n == 32 && u && dig && b.get(s + 1 + n).is_none_or(|&c| !is_b64url(c))).then_some(s + 1 + n)
}

/// JWT / JWS compact form: base64url(`{"…`) `.` base64url(`{"…`) `.` signature; `eyJ` is base64 of `{"`.
/// JWE (five segments) is taken whole as well. A JWS may sign any payload (RFC 7515), so one that is not JSON is
/// taken when the header starts as JOSE headers do (`{"alg":`, `{"typ":`, `{"kid":`) and a signature follows.
fn jwt(b: &[u8], i: usize) -> Option<usize> {
    if !starts_with_at(b, i, b"eyJ") {
        return None;
    }
    let h = run_len(b, i, is_b64url);
    if h < 10 || b.get(i + h) != Some(&b'.') {
        return None;
    }
    let p0 = i + h + 1;
    let p = run_len(b, p0, is_b64url);
    if p < 10 {
        return None;
    }
    if !starts_with_at(b, p0, b"ey") {
        let jose = [&b"eyJhbGciOi"[..], b"eyJ0eXAiOi", b"eyJraWQiOi"].iter().any(|l| starts_with_at(b, i, l));
        let s0 = p0 + p + 1;
        let sig = run_len(b, s0, is_b64url);
        let ends = b.get(s0 + sig).is_none_or(|&c| c != b'.' && !is_b64url(c));
        return (jose && b.get(p0 + p) == Some(&b'.') && sig >= 16 && ends).then_some(s0 + sig);
    }
    let mut end = p0 + p;
    let mut segments = 2;
    while segments < 5 && b.get(end) == Some(&b'.') {
        let n = run_len(b, end + 1, is_b64url);
        if n == 0 && segments >= 3 {
            break;
        }
        end += 1 + n;
        segments += 1;
    }
    (segments >= 3).then_some(end)
}

/// After an AWS access key id ending at `from`, a secret access key (40 base64 characters, mixed case and digits)
/// within the next 120 bytes: the CSV and `aws configure list` layouts put them side by side.
pub fn aws_secret_near(b: &[u8], from: usize) -> Option<(usize, usize)> {
    let end = (from + 120).min(b.len());
    let mut j = from;
    while j < end {
        if is_b64(b[j]) && (j == 0 || !is_b64(b[j - 1])) {
            let n = run_len(b, j, |c| is_alnum(c) || c == b'+' || c == b'/');
            if n == 40 && b.get(j + 40).is_none_or(|&c| !is_b64(c)) {
                let (l, u, d) = mix(&b[j..j + 40]);
                if l && u && d {
                    return Some((j, j + 40));
                }
            }
            j += n.max(1);
        } else {
            j += 1;
        }
    }
    None
}
