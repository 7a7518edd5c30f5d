//! The built-in rules: rule ids, token shapes, key names that announce a secret, and the value filters that keep
//! placeholders, code and prose out of the way.
//!
//! Every matcher here is hand-written over bytes: no regex is compiled at start-up (see
//! `../shared/TOOLCHAIN.md`: compiling ~100 regexes inside wasm costs 40–55 ms, more than the whole CLI budget).
//! Matchers look at ASCII only, so every span they return starts and ends on a UTF-8 character boundary.

use std::borrow::Cow;

/// What a redaction was for. `id()` is what goes into the marker and the entry's `redacted` list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    AwsAccessKeyId,
    AwsSecretAccessKey,
    GcpApiKey,
    PrivateKey,
    AzureConnectionString,
    GithubToken,
    GithubFineGrainedPat,
    GitlabToken,
    SlackToken,
    SlackWebhook,
    StripeKey,
    TwilioKey,
    SendgridApiKey,
    OpenaiApiKey,
    AnthropicApiKey,
    NpmToken,
    PypiToken,
    Jwt,
    UrlCredentials,
    UrlSignature,
    AuthorizationHeader,
    BearerToken,
    SecretAssignment,
    DbKeyEcho,
    CommandLinePassword,
    DiscordBotToken,
    TelegramBotToken,
    VaultToken,
    HuggingfaceToken,
    FcmServerKey,
    SupabaseSecretKey,
    AgeSecretKey,
    LinearApiKey,
    MailgunApiKey,
    /// A user-supplied pattern; the number is its 1-based position in `RedactOptions::patterns`.
    Custom(u16),
}

/// Every built-in rule, in the order the documentation lists them.
pub const BUILTIN_RULES: &[Rule] = &[
    Rule::AwsAccessKeyId,
    Rule::AwsSecretAccessKey,
    Rule::GcpApiKey,
    Rule::PrivateKey,
    Rule::AzureConnectionString,
    Rule::GithubToken,
    Rule::GithubFineGrainedPat,
    Rule::GitlabToken,
    Rule::SlackToken,
    Rule::SlackWebhook,
    Rule::StripeKey,
    Rule::TwilioKey,
    Rule::SendgridApiKey,
    Rule::OpenaiApiKey,
    Rule::AnthropicApiKey,
    Rule::NpmToken,
    Rule::PypiToken,
    Rule::Jwt,
    Rule::UrlCredentials,
    Rule::UrlSignature,
    Rule::AuthorizationHeader,
    Rule::BearerToken,
    Rule::SecretAssignment,
    Rule::DbKeyEcho,
    Rule::CommandLinePassword,
    Rule::DiscordBotToken,
    Rule::TelegramBotToken,
    Rule::VaultToken,
    Rule::HuggingfaceToken,
    Rule::FcmServerKey,
    Rule::SupabaseSecretKey,
    Rule::AgeSecretKey,
    Rule::LinearApiKey,
    Rule::MailgunApiKey,
];

impl Rule {
    pub fn id(self) -> Cow<'static, str> {
        Cow::Borrowed(match self {
            Rule::AwsAccessKeyId => "aws-access-key-id",
            Rule::AwsSecretAccessKey => "aws-secret-access-key",
            Rule::GcpApiKey => "gcp-api-key",
            Rule::PrivateKey => "private-key",
            Rule::AzureConnectionString => "azure-connection-string",
            Rule::GithubToken => "github-token",
            Rule::GithubFineGrainedPat => "github-fine-grained-pat",
            Rule::GitlabToken => "gitlab-token",
            Rule::SlackToken => "slack-token",
            Rule::SlackWebhook => "slack-webhook",
            Rule::StripeKey => "stripe-key",
            Rule::TwilioKey => "twilio-key",
            Rule::SendgridApiKey => "sendgrid-api-key",
            Rule::OpenaiApiKey => "openai-api-key",
            Rule::AnthropicApiKey => "anthropic-api-key",
            Rule::NpmToken => "npm-token",
            Rule::PypiToken => "pypi-token",
            Rule::Jwt => "jwt",
            Rule::UrlCredentials => "url-credentials",
            Rule::UrlSignature => "url-signature",
            Rule::AuthorizationHeader => "authorization-header",
            Rule::BearerToken => "bearer-token",
            Rule::SecretAssignment => "secret-assignment",
            Rule::DbKeyEcho => "db-key-echo",
            Rule::CommandLinePassword => "command-line-password",
            Rule::DiscordBotToken => "discord-bot-token",
            Rule::TelegramBotToken => "telegram-bot-token",
            Rule::VaultToken => "vault-token",
            Rule::HuggingfaceToken => "huggingface-token",
            Rule::FcmServerKey => "fcm-server-key",
            Rule::SupabaseSecretKey => "supabase-secret-key",
            Rule::AgeSecretKey => "age-secret-key",
            Rule::LinearApiKey => "linear-api-key",
            Rule::MailgunApiKey => "mailgun-api-key",
            Rule::Custom(n) => return Cow::Owned(format!("custom-{n}")),
        })
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Byte classes

#[inline]
pub fn is_alnum(c: u8) -> bool {
    c.is_ascii_alphanumeric()
}
/// `[A-Za-z0-9_-]`: base64url, and the body of most vendor tokens.
#[inline]
pub fn is_b64url(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}
/// `[A-Za-z0-9+/=]`: standard base64 with padding.
#[inline]
pub fn is_b64(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'+' || c == b'/' || c == b'='
}
#[inline]
fn is_lower_hex(c: u8) -> bool {
    c.is_ascii_digit() || (b'a'..=b'f').contains(&c)
}

/// Length of the run of bytes satisfying `pred` starting at `i`.
#[inline]
pub fn run_len(b: &[u8], i: usize, pred: impl Fn(u8) -> bool) -> usize {
    let mut j = i;
    while j < b.len() && pred(b[j]) {
        j += 1;
    }
    j - i
}

/// Where the run of bytes satisfying `pred` that ends at `j` (exclusive) starts: [`run_len`] backwards.
#[inline]
pub fn run_back(b: &[u8], j: usize, pred: impl Fn(u8) -> bool) -> usize {
    j - b[..j].iter().rev().take_while(|&&c| pred(c)).count()
}

#[inline]
pub fn starts_with_at(b: &[u8], i: usize, pat: &[u8]) -> bool {
    b.len() >= i + pat.len() && &b[i..i + pat.len()] == pat
}

#[inline]
pub fn starts_with_ci(b: &[u8], i: usize, pat: &[u8]) -> bool {
    b.len() >= i + pat.len() && b[i..i + pat.len()].eq_ignore_ascii_case(pat)
}

/// Naive substring search; the haystacks here are short (a value, a 256-byte window).
pub fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    find_from(hay, needle, 0)
}

/// [`find`] at or after `from`: the needle's first byte is looked for eight bytes at a time.
pub fn find_from(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if needle.is_empty() || hay.len() < needle.len() {
        return None;
    }
    let last = hay.len() - needle.len();
    let mut i = from;
    while i <= last {
        i = byte_from(hay, needle[0], i).filter(|&j| j <= last)?;
        if &hay[i..i + needle.len()] == needle {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// The first `c` in `b` at or after `i`, eight bytes at a time: the "has a zero byte" trick from "Bit Twiddling
/// Hacks" (https://graphics.stanford.edu/~seander/bithacks.html#ZeroInWord), whose lowest flagged byte is exact.
fn byte_from(b: &[u8], c: u8, mut i: usize) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    while let Some(chunk) = b.get(i..i + 8) {
        let x = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8])) ^ (ONES * u64::from(c));
        let hit = x.wrapping_sub(ONES) & !x & HIGHS;
        if hit != 0 {
            return Some(i + (hit.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    b.get(i..)?.iter().position(|&x| x == c).map(|k| i + k)
}

pub fn contains_ci(hay: &[u8], needle: &[u8]) -> bool {
    if needle.is_empty() || hay.len() < needle.len() {
        return false;
    }
    (0..=hay.len() - needle.len()).any(|i| hay[i..i + needle.len()].eq_ignore_ascii_case(needle))
}

pub const MARKER_PREFIX: &[u8] = b"[REDACTED:";

pub fn contains_marker(v: &[u8]) -> bool {
    find(v, MARKER_PREFIX).is_some()
}

/// Character-class mix of a token body: (has lower, has upper, has digit).
fn mix(v: &[u8]) -> (bool, bool, bool) {
    let (mut l, mut u, mut d) = (false, false, false);
    for &c in v {
        l |= c.is_ascii_lowercase();
        u |= c.is_ascii_uppercase();
        d |= c.is_ascii_digit();
    }
    (l, u, d)
}

/// A body that is one character repeated (`XXXXXXXX`, `00000000`) is a placeholder, not a key.
fn is_repeated(v: &[u8]) -> bool {
    v.len() > 1 && v.iter().all(|&c| c == v[0])
}

// ---------------------------------------------------------------------------------------------------------------
// Token shapes, anchored at a known prefix

/// Tries the prefix-anchored token rules at `i`, which the caller has found at a word start (the byte before is
/// not a token character). Returns the end of the token and its rule.
pub fn token_at(b: &[u8], i: usize) -> Option<(usize, Rule)> {
    let c0 = *b.get(i)?;
    match c0 {
        b'A' => aws_key_id(b, i)
            .map(|e| (e, Rule::AwsAccessKeyId))
            .or_else(|| gcp_api_key(b, i).map(|e| (e, Rule::GcpApiKey)))
            .or_else(|| twilio(b, i).map(|e| (e, Rule::TwilioKey)))
            .or_else(|| after_colon(b, i))
            .or_else(|| age(b, i).map(|e| (e, Rule::AgeSecretKey))),
        b'S' => {
            twilio(b, i).map(|e| (e, Rule::TwilioKey)).or_else(|| sendgrid(b, i).map(|e| (e, Rule::SendgridApiKey)))
        }
        b'g' => github(b, i).or_else(|| gitlab(b, i).map(|e| (e, Rule::GitlabToken))),
        b'h' => vault(b, i).or_else(|| huggingface(b, i)),
        b'M' | b'N' | b'O' => discord(b, i).map(|e| (e, Rule::DiscordBotToken)),
        b'L' => base64_private_key(b, i).map(|e| (e, Rule::PrivateKey)),
        b'l' => prefixed(b, i, b"lin_api_", 40, is_alnum).map(|e| (e, Rule::LinearApiKey)),
        b'k' => mailgun(b, i).map(|e| (e, Rule::MailgunApiKey)),
        b'x' => slack_token(b, i).map(|e| (e, Rule::SlackToken)),
        b's' => stripe(b, i)
            .map(|e| (e, Rule::StripeKey))
            .or_else(|| prefixed(b, i, b"sb_secret_", 32, is_b64url).map(|e| (e, Rule::SupabaseSecretKey)))
            .or_else(|| anthropic(b, i).map(|e| (e, Rule::AnthropicApiKey)))
            .or_else(|| openai(b, i).map(|e| (e, Rule::OpenaiApiKey))),
        b'r' | b'w' => stripe(b, i).map(|e| (e, Rule::StripeKey)),
        b'n' => npm(b, i).map(|e| (e, Rule::NpmToken)),
        b'p' => pypi(b, i).map(|e| (e, Rule::PypiToken)),
        b'e' => jwt(b, i).map(|e| (e, Rule::Jwt)),
        _ => None,
    }
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

/// Tokens whose secret part follows a colon, found from that part: a Telegram bot token's (`123456789:AA…`, 35
/// characters after the bot's id of 8 to 10 digits) and a Firebase Cloud Messaging server key's (`AAAA…:APA91b…`).
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
    (starts_with_at(b, i, b"AA") && n == 35 && (8..=10).contains(&digits) && alone && l && u && d)
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

/// Slack bot, user, app-level, refresh and config tokens: `xox[abposre]-…`, `xapp-…`.
fn slack_token(b: &[u8], i: usize) -> Option<usize> {
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
/// public by design.
fn stripe(b: &[u8], i: usize) -> Option<usize> {
    const PREFIXES: [&[u8]; 5] = [b"sk_live_", b"sk_test_", b"rk_live_", b"rk_test_", b"whsec_"];
    let p = PREFIXES.iter().find(|p| starts_with_at(b, i, p))?;
    let s = i + p.len();
    let n = run_len(b, s, is_alnum);
    if n < 16 || b.get(s + n).is_some_and(|&c| c == b'_' || c == b'-') {
        return None;
    }
    (!is_repeated(&b[s..s + n])).then_some(s + n)
}

/// Anthropic: `sk-ant-` then a kind (`api03-`, `admin01-`, `oat01-`, …) and a long base64url body.
fn anthropic(b: &[u8], i: usize) -> Option<usize> {
    if !starts_with_at(b, i, b"sk-ant-") {
        return None;
    }
    let n = run_len(b, i + 7, is_b64url);
    let v = &b[i + 7..i + 7 + n];
    let (l, u, d) = mix(v);
    (n >= 32 && l && u && d).then_some(i + 7 + n)
}

/// OpenAI: `sk-` with an optional kind (`proj-`, `svcacct-`, `admin-`, `None-`) and a random body. The body must
/// mix upper case, lower case and digits, which kebab-case names (`sk-learn-…`) never do.
fn openai(b: &[u8], i: usize) -> Option<usize> {
    if !starts_with_at(b, i, b"sk-") || starts_with_at(b, i, b"sk-ant-") {
        return None;
    }
    let n = run_len(b, i + 3, is_b64url);
    let v = &b[i + 3..i + 3 + n];
    let (l, u, d) = mix(v);
    (n >= 32 && l && u && d).then_some(i + 3 + n)
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

/// JWT / JWS compact form: base64url(`{"…`) `.` base64url(`{"…`) `.` signature; `eyJ` is base64 of `{"`.
/// JWE (five segments) is taken whole as well.
fn jwt(b: &[u8], i: usize) -> Option<usize> {
    if !starts_with_at(b, i, b"eyJ") {
        return None;
    }
    let h = run_len(b, i, is_b64url);
    if h < 10 || b.get(i + h) != Some(&b'.') {
        return None;
    }
    let p0 = i + h + 1;
    if !starts_with_at(b, p0, b"ey") {
        return None;
    }
    let p = run_len(b, p0, is_b64url);
    if p < 10 {
        return None;
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

// ---------------------------------------------------------------------------------------------------------------
// Key names

/// How the value of a key that names a secret is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// password, passphrase, … — pure digits are accepted here.
    Password,
    /// token, secret, api key, … — the general case.
    Secret,
    /// `Authorization`: the value is `<scheme> <credential>`; only the credential goes.
    Authorization,
    /// Azure `AccountKey=`, `SharedAccessKey=`, `SharedAccessSignature=`: the value runs to the next `;`.
    Azure,
    /// Private key material; a PEM value is left to the PEM rule so its armour lines stay readable.
    PrivateKey,
    /// Azure's `primaryKey` and `secondaryKey`: a database's primary key shares the words, so the value must look
    /// like a credential (mixed classes, 16 characters or more).
    Opaque,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyClass {
    pub rule: Rule,
    pub family: Family,
}

const MAX_WORDS: usize = 8;

/// Splits an identifier into words on `_ - . space` and camelCase boundaries (`APIKey` → `API`, `Key`).
/// Keeps the last `MAX_WORDS` words.
fn split_words(k: &[u8], out: &mut [(usize, usize); MAX_WORDS]) -> usize {
    let mut count = 0usize;
    let mut push = |s: usize, e: usize, count: &mut usize| {
        if e > s {
            if *count == MAX_WORDS {
                out.copy_within(1.., 0);
                out[MAX_WORDS - 1] = (s, e);
            } else {
                out[*count] = (s, e);
                *count += 1;
            }
        }
    };
    let mut s = 0;
    let mut i = 0;
    while i < k.len() {
        let c = k[i];
        if !c.is_ascii_alphanumeric() {
            push(s, i, &mut count);
            s = i + 1;
        } else if i > s && c.is_ascii_uppercase() {
            let p = k[i - 1];
            let next_lower = k.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            if p.is_ascii_lowercase() || p.is_ascii_digit() || (p.is_ascii_uppercase() && next_lower) {
                push(s, i, &mut count);
                s = i;
            }
        }
        i += 1;
    }
    push(s, k.len(), &mut count);
    count
}

fn word_is(w: &[u8], names: &[&str]) -> bool {
    names.iter().any(|n| n.len() == w.len() && w.eq_ignore_ascii_case(n.as_bytes()))
}

/// `w` lower-cased into `buf` (words longer than the buffer come back empty: no name here is that long).
fn lower<'a>(w: &[u8], buf: &'a mut [u8; 24]) -> &'a [u8] {
    if w.len() > buf.len() {
        return &[];
    }
    for (d, s) in buf.iter_mut().zip(w) {
        *d = s.to_ascii_lowercase();
    }
    &buf[..w.len()]
}

/// Trailing words that describe an encoding or derivative of the secret, not a different thing (and numbers).
fn is_modifier(w: &[u8]) -> bool {
    let mut buf = [0u8; 24];
    matches!(
        lower(w, &mut buf),
        b"value"
            | b"val"
            | b"b64"
            | b"base64"
            | b"hex"
            | b"raw"
            | b"plain"
            | b"plaintext"
            | b"encoded"
            | b"hash"
            | b"hashed"
            | b"digest"
            | b"base"
            | b"str"
            | b"string"
            | b"text"
            | b"unique"
            | b"uniq"
            | b"idx"
            | b"index"
    ) || (!w.is_empty() && w.iter().all(u8::is_ascii_digit))
}

/// Whether a key (member name, variable, header, env var, column) names a secret, and how to read its value.
/// `token_count`, `public_key`, `secret_name`, `max_tokens`, `key` and `auth.js` do not.
pub fn classify_key(k: &[u8]) -> Option<KeyClass> {
    if k.len() < 3 || k.len() > 128 || k[0].is_ascii_digit() || !might_name_secret(k) {
        return None;
    }
    let mut w = [(0usize, 0usize); MAX_WORDS];
    let mut n = split_words(k, &mut w);
    let word = |j: usize| &k[w[j].0..w[j].1];
    // Drop trailing modifiers and numbers (`api_key_2`, `password_hash`, `secret_key_base`).
    while n > 1 && is_modifier(word(n - 1)) {
        n -= 1;
    }
    if n == 0 {
        return None;
    }
    let (mut lb, mut pb) = ([0u8; 24], [0u8; 24]);
    let last = lower(word(n - 1), &mut lb);
    let prev: Option<&[u8]> = if n >= 2 { Some(lower(word(n - 2), &mut pb)) } else { None };
    let has = |name: &[u8]| (0..n).any(|j| word(j).eq_ignore_ascii_case(name));
    let class = |rule, family| Some(KeyClass { rule, family });
    let password = class(Rule::SecretAssignment, Family::Password);
    let secret = class(Rule::SecretAssignment, Family::Secret);

    match last {
        // (`authtok`: SSSD's `ldap_default_authtok`.)
        b"password" | b"passwd" | b"passphrase" | b"passcode" | b"authtok" => return password,
        // Git's `user.signingkey` names the key by its id (`680435364DF314A8`); `signingKey` is two words.
        b"signingkey" => return None,
        // `db_pwd`, `MYSQL_PWD` are passwords; a bare `pwd` / `PWD` is the working directory (and our stamp).
        b"pwd" => return if n >= 2 { password } else { None },
        b"pass" => {
            let q = prev?;
            return if matches!(q, b"test" | b"tests" | b"by" | b"bypass" | b"first" | b"second" | b"single") {
                None
            } else {
                password
            };
        }
        b"authorization" => return class(Rule::AuthorizationHeader, Family::Authorization),
        b"secret" | b"token" | b"credential" | b"credentials" | b"creds" => return secret,
        b"auth" => {
            return match prev {
                None | Some(b"basic" | b"http" | b"proxy" | b"x" | b"api") => secret,
                _ => None,
            }
        }
        b"sig" => return if n == 1 { class(Rule::UrlSignature, Family::Secret) } else { None },
        b"signature" => {
            return match prev {
                Some(b"amz" | b"goog") => class(Rule::UrlSignature, Family::Secret),
                Some(b"access") if has(b"shared") => class(Rule::AzureConnectionString, Family::Azure),
                _ => None,
            }
        }
        b"secretaccesskey" => return class(Rule::AwsSecretAccessKey, Family::Secret),
        _ => {}
    }
    if last.ends_with(b"password") || last.ends_with(b"passwd") {
        return password;
    }
    if (last.len() > 6 && last.ends_with(b"secret")) || (last.len() > 5 && last.ends_with(b"token")) {
        return secret; // clientsecret, accesstoken
    }
    let is_key = last == b"key";
    let q: &[u8] = if is_key {
        prev?
    } else if is_compound_key(last) {
        &last[..last.len() - 3]
    } else {
        return None;
    };
    if is_key && matches!(q, b"primary" | b"secondary") {
        return class(Rule::SecretAssignment, Family::Opaque);
    }
    if !is_key_qualifier(q) {
        return None;
    }
    if q == b"private" {
        return class(Rule::PrivateKey, Family::PrivateKey);
    }
    // AccountKey=, SharedAccessKey= (Azure connection strings).
    let azure = (last == b"accountkey" && n <= 3)
        || (is_key && q == b"account" && n == 2)
        || (is_key && q == b"access" && has(b"shared"));
    if azure {
        return class(Rule::AzureConnectionString, Family::Azure);
    }
    if has(b"aws") || (q == b"access" && has(b"secret")) {
        return class(Rule::AwsSecretAccessKey, Family::Secret);
    }
    secret
}

/// Qualifiers that make `key` a secret key (`api key`, `access key`, …).
fn is_key_qualifier(q: &[u8]) -> bool {
    matches!(
        q,
        b"api"
            | b"access"
            | b"secret"
            | b"private"
            | b"client"
            | b"signing"
            | b"sign"
            | b"encryption"
            | b"encrypt"
            | b"master"
            | b"account"
            | b"app"
            | b"application"
            | b"auth"
            | b"session"
            | b"subscription"
            | b"shared"
            | b"service"
            | b"admin"
            | b"consumer"
            | b"deploy"
            | b"hmac"
            | b"jwt"
            | b"cookie"
            | b"crypt"
            | b"crypto"
            | b"aes"
            | b"cipher"
            | b"storage"
            | b"webhook"
            | b"license"
            | b"integration"
    )
}

/// Single-word compounds written without separators (`apikey`, `secretkey`).
fn is_compound_key(w: &[u8]) -> bool {
    matches!(
        w,
        b"apikey"
            | b"accesskey"
            | b"secretkey"
            | b"privatekey"
            | b"clientkey"
            | b"signingkey"
            | b"masterkey"
            | b"accountkey"
            | b"appkey"
            | b"authkey"
            | b"sessionkey"
            | b"encryptionkey"
            | b"hmackey"
            | b"servicekey"
            | b"adminkey"
    )
}

/// Cheap prefilter: every key `classify_key` accepts contains one of these stems. Most keys (`id`, `path`,
/// `level`, `request_id`) are turned away here after one look at each byte.
fn might_name_secret(k: &[u8]) -> bool {
    let n = k.len();
    let mut i = 0;
    while i + 3 <= n {
        let hit = match k[i] | 0x20 {
            b'p' => starts_with_ci(k, i, b"pass") || starts_with_ci(k, i, b"pwd"),
            b's' => starts_with_ci(k, i, b"secret") || starts_with_ci(k, i, b"sig"),
            b't' => starts_with_ci(k, i, b"token"),
            b'k' => starts_with_ci(k, i, b"key"),
            b'a' => starts_with_ci(k, i, b"auth"),
            b'c' => starts_with_ci(k, i, b"cred"),
            _ => false,
        };
        if hit {
            return true;
        }
        i += 1;
    }
    false
}

// ---------------------------------------------------------------------------------------------------------------
// Values

/// How much evidence surrounds a value, and so how picky the filter is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A literal by construction: a JSON string under a secret key, an `UPPER_CASE=value` env line, a database
    /// key echo. Placeholders are refused; plain words are kept (`"password": "hunter"` is a password).
    Literal,
    /// A quoted literal in free text (`password = "…"`, `"token": "…"`): also refuses plain words and
    /// identifiers, which in prose and code are messages and names (`"password": "required"`).
    Quoted,
    /// An unquoted value in free text (`password: …`, `token=…`): also refuses code (`self.password`,
    /// `get_token()`, `Option<String>`).
    Bare,
}

/// Values that are documentation, not secrets, compared case-insensitively to the whole value.
fn is_stop_value(v: &[u8]) -> bool {
    let mut buf = [0u8; 24];
    if v.len() > buf.len() {
        return false;
    }
    matches!(
        lower(v, &mut buf),
        b"changeme"
            | b"change_me"
            | b"change-me"
            | b"changeit"
            | b"password"
            | b"passwd"
            | b"pass"
            | b"secret"
            | b"token"
            | b"apikey"
            | b"api_key"
            | b"key"
            | b"example"
            | b"sample"
            | b"dummy"
            | b"test"
            | b"testing"
            | b"placeholder"
            | b"redacted"
            | b"masked"
            | b"hidden"
            | b"required"
            | b"optional"
            | b"invalid"
            | b"missing"
            | b"none"
            | b"null"
            | b"nil"
            | b"undefined"
            | b"true"
            | b"false"
            | b"yes"
            | b"no"
            | b"empty"
            | b"unset"
            | b"notset"
            | b"not_set"
            | b"todo"
            | b"tbd"
            | b"fixme"
            | b"string"
            | b"bool"
            | b"boolean"
            | b"number"
            | b"integer"
            | b"object"
            | b"unknown"
            | b"default"
            | b"basic"
            | b"bearer"
            | b"oauth"
            | b"oauth2"
            | b"session"
            | b"cookie"
            | b"digest"
            | b"anonymous"
            | b"public"
            | b"private"
            | b"internal"
            | b"external"
            | b"env"
            | b"file"
            | b"vault"
            | b"keychain"
            | b"keyring"
            | b"manual"
            | b"auto"
            | b"disabled"
            | b"enabled"
            | b"inherit"
            | b"prompt"
            | b"stdin"
    )
}

/// Where a value is read from rather than the value (lower case; [`is_placeholder`] compares them case-insensitively
/// at the start of a value, each by its first letter).
const REFERENCES: &[&[u8]] = &[
    b"your",
    b"process.env",
    b"os.environ",
    b"os.getenv",
    b"env.",
    b"env(",
    b"env[",
    b"secrets.",
    b"vault:",
    b"arn:",
    b"op://",
    b"sm://",
    // Where a tool is told to read the password from (`--ks-pass env:KS_PASS`, `-passin file:pw.txt`).
    b"env:",
    b"file:",
    b"fd:",
];

/// Whether a candidate secret is a placeholder, reference or masked value rather than a secret.
pub fn is_placeholder(v: &[u8]) -> bool {
    if v.is_empty() {
        return true;
    }
    let first = v[0];
    if first == b'$' && v.get(1).is_some_and(|&c| c.is_ascii_alphabetic() || c == b'_' || c == b'{' || c == b'(') {
        return true; // $VAR, ${VAR}, $(cmd)
    }
    if first == b'<' || v.starts_with(b"{{") || v.starts_with(b"%(") || v.starts_with(b"%s") || v.starts_with(b"#{") {
        return true; // <token>, {{ secrets.X }}, %(password)s, #{var}
    }
    // One pass for the bytes the searches below need, so that a value without them skips them.
    let (mut brace, mut star, mut e2) = (false, false, false);
    for &c in v {
        brace |= c == b'{';
        star |= c == b'*';
        e2 |= c == 0xE2; // the first byte of `•`, `●` and `…`
    }
    if brace && (find(v, b"${").is_some() || find(v, b"{{").is_some()) {
        return true;
    }
    if is_mask_word(v) || is_percent_var(v) || is_fill_in(v) || is_elided(v, star, e2) {
        return true;
    }
    if first == b'(' && !v.contains(&b')') {
        return true; // `(ask in #platform, never commit)`: the first word of a remark, not a value
    }
    // Masked: ***, xxxx, ••••, ..., ----
    const MASKS: &str = "*xX.#?-_•●…";
    if MASKS.as_bytes().contains(&first) && std::str::from_utf8(v).is_ok_and(|s| s.chars().all(|c| MASKS.contains(c))) {
        return true;
    }
    if is_repeated(v) {
        return true;
    }
    if is_stop_value(v) {
        return true;
    }
    if REFERENCES.iter().any(|p| p[0] == first.to_ascii_lowercase() && starts_with_ci(v, 0, p)) {
        return true;
    }
    // Words that mark a fill-in anywhere in it (`example`, `placeholder`, `changeme`, `change-me`, `change_me`,
    // `xxxxx`), in one pass: each by its first letter.
    (0..v.len()).any(|i| match v[i] | 0x20 {
        b'e' => starts_with_ci(v, i, b"example"),
        b'p' => starts_with_ci(v, i, b"placeholder"),
        b'c' => {
            let dash = matches!(v.get(i + 6), Some(b'-' | b'_'));
            starts_with_ci(v, i, b"change") && starts_with_ci(v, i + 6 + usize::from(dash), b"me")
        }
        b'x' => starts_with_ci(v, i, b"xxxxx"),
        _ => false,
    })
}

/// What another tool left where a secret was: a bracketed word or words, `[REDACTED]`, `[FILTERED]` (Rails
/// logs), `[MASKED]` (GitLab CI), `(hidden)`, `[secure value]`.
pub fn is_mask_word(v: &[u8]) -> bool {
    let closes = match v.first() {
        Some(b'[') => b']',
        Some(b'(') => b')',
        _ => return false,
    };
    v.len() > 2
        && v[v.len() - 1] == closes
        && v[1..v.len() - 1].iter().all(|&c| c.is_ascii_alphabetic() || matches!(c, b' ' | b'_' | b'-'))
}

/// A Windows or template variable, `%SECRET_KEY_BASE%`.
fn is_percent_var(v: &[u8]) -> bool {
    v.len() > 2
        && v[0] == b'%'
        && v[v.len() - 1] == b'%'
        && v[1..v.len() - 1].iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_')
}

/// An instruction to fill the value in, made of words: `REPLACE_ME`, `replace-with-output-of-openssl-rand-hex-32`,
/// `INSERT_TOKEN_HERE`, `PUT_KEY_HERE` (`replace9Me` is a value).
fn is_fill_in(v: &[u8]) -> bool {
    let n = v.len();
    let sep = |i: usize| v.get(i).is_some_and(|&c| c == b'_' || c == b'-');
    let words = |v: &[u8]| v.iter().all(|&c| c.is_ascii_alphabetic() || c == b'_' || c == b'-');
    let led = |w: &[u8]| {
        starts_with_ci(v, 0, w)
            && (words(v) || (sep(w.len()) && v.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-')))
    };
    led(b"replace") || led(b"insert") || (n > 5 && sep(n - 5) && starts_with_ci(v, n - 4, b"here") && words(v))
}

/// A value shown in part: elided (`sk_test_...`, `whsec_…`) or masked in the middle (`gho_************`,
/// `sk-proj-****abcd`). `star`, `e2`: whether `v` holds a `*`, a byte 0xE2 (the first of `•`).
fn is_elided(v: &[u8], star: bool, e2: bool) -> bool {
    v.ends_with(b"...")
        || v.ends_with("…".as_bytes())
        || (star && find(v, b"****").is_some())
        || (e2 && find(v, "••••".as_bytes()).is_some())
}

/// Whether the value of a secret-naming key is worth redacting.
pub fn accept_value(v: &[u8], mode: Mode, family: Family) -> bool {
    if family == Family::Opaque && !accept_credential(v, 16) {
        return false;
    }
    let min = if mode == Mode::Literal { 4 } else { 6 };
    if v.len() < min || v.len() > 8192 {
        return false;
    }
    if v.iter().any(|c| c.is_ascii_whitespace()) {
        return false; // messages ("must be 8 characters"), not secrets
    }
    if mode != Mode::Literal {
        // Plain words and identifiers (`expired`, `SecretString`, `user_password`, `read-only`, `MAX_LEN`); not
        // letters drawn at random (`VqOZmRIUOxmXKGTn`).
        if v.iter().all(u8::is_ascii_alphabetic) && (v.len() <= 24 || is_natural_identifier(v)) && !random_letters(v) {
            return false;
        }
        if v.iter().all(|&c| c.is_ascii_lowercase() || c == b'_' || c == b'-')
            || v.iter().all(|&c| c.is_ascii_uppercase() || c == b'_')
            || joined_words(v)
        {
            return false;
        }
    }
    // A token, key or secret is never a short lower-case word, even as a JSON literal: `"token": "expired"`
    // is a state. Passwords can be words, so they stay strict.
    if mode == Mode::Literal && family != Family::Password && v.len() <= 16 && v.iter().all(u8::is_ascii_lowercase) {
        return false;
    }
    if contains_marker(v) || is_placeholder(v) || is_public_key_value(v) {
        return false;
    }
    // Paths and URLs: the URL rule handles credentials inside URLs.
    if (family != Family::Azure && v[0] == b'/' && !looks_random(v))
        || v.starts_with(b"~/")
        || v.starts_with(b"./")
        || v.starts_with(b"../")
        || find(v, b"://").is_some()
    {
        return false;
    }
    if v.len() > 2 && v[0].is_ascii_alphabetic() && v[1] == b':' && v[2] == b'\\' {
        return false; // C:\path
    }
    // A name and the file it is read from (systemd's `LoadCredential=db-password:/etc/credstore/db-password`).
    if let Some(k) = find(v, b":/") {
        if k > 0 && v.get(k + 2) != Some(&b'/') && v[..k].iter().all(|&c| is_b64url(c) || c == b'.') {
            return false;
        }
    }
    // Numbers, versions, dates, times: only a password may be all digits.
    if v.iter().all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'-' | b':' | b'_' | b'+')) {
        let digits_only = v.iter().all(u8::is_ascii_digit);
        return family == Family::Password && digits_only;
    }
    if mode == Mode::Literal {
        return true;
    }
    if mode == Mode::Quoted {
        return true;
    }
    // Bare values in code: calls, generics, indexing, references, YAML indicators.
    if v.iter().any(|c| b"()[]{}<>".contains(c)) || b"&*:@!%|>".contains(&v[0]) || find(v, b"?.").is_some() {
        return false;
    }
    if is_identifier_path(v) || is_cmdlet(v) {
        return false;
    }
    true
}

/// Keys made to be public, under names that say token or key: Stripe's publishable keys (`pk_live_…`,
/// `pk_test_…`) and Mapbox's public tokens (`pk.eyJ…`; its secret ones are `sk.`).
fn is_public_key_value(v: &[u8]) -> bool {
    v.starts_with(b"pk_live_") || v.starts_with(b"pk_test_") || v.starts_with(b"pk.eyJ")
}

/// A PowerShell cmdlet (`Get-Secret`, `Read-Host`, `ConvertTo-SecureString`): the value is what it returns.
fn is_cmdlet(v: &[u8]) -> bool {
    const VERBS: [&[u8]; 10] = [
        b"Get-",
        b"Read-",
        b"ConvertTo-",
        b"ConvertFrom-",
        b"New-",
        b"Import-",
        b"Invoke-",
        b"Unprotect-",
        b"Select-",
        b"Export-",
    ];
    VERBS.iter().any(|p| {
        v.starts_with(p)
            && v.len() > p.len() + 1
            && v[p.len()].is_ascii_uppercase()
            && v[p.len()..].iter().all(u8::is_ascii_alphanumeric)
    })
}

/// Words joined by `-` or `_`, each lower-case, upper-case or capitalised (`URL-restricted`, `Read-Only`,
/// `X-Forwarded-For`): prose and names.
fn joined_words(v: &[u8]) -> bool {
    let word = |w: &[u8]| {
        !w.is_empty()
            && w.iter().all(u8::is_ascii_alphabetic)
            && (w[1..].iter().all(u8::is_ascii_lowercase) || w.iter().all(u8::is_ascii_uppercase))
    };
    v.iter().any(|&c| c == b'-' || c == b'_') && v.split(|&c| c == b'-' || c == b'_').all(word)
}

/// Letters drawn at random from both cases (`VqOZmRIUOxmXKGTn`, a password generator's output), not a name: ten or
/// more, not [natural](is_natural_identifier), and the case changes at least every fourth letter (four times at
/// least). Acronyms in names change it seldom (`XMLHttpRequest`: 3 changes in 14, `JSONToXMLConverter`: 3 in 18).
fn random_letters(v: &[u8]) -> bool {
    let changes = v.windows(2).filter(|w| w[0].is_ascii_uppercase() != w[1].is_ascii_uppercase()).count();
    v.len() >= 10 && !is_natural_identifier(v) && changes >= 4 && changes * 4 >= v.len()
}

/// camelCase / PascalCase names (`CustomizedErrorResponseOptions`): every capital but a last one is followed by a
/// lower-case letter. Random letters (`dXNlcjpwYXNz`) almost never are.
fn is_natural_identifier(v: &[u8]) -> bool {
    v.windows(2).all(|w| !w[0].is_ascii_uppercase() || w[1].is_ascii_lowercase())
}

/// Base64-like: upper, lower and digits all present, or padding at the end (a path has none of that).
fn looks_random(v: &[u8]) -> bool {
    let (l, u, d) = mix(v);
    (l && u && d) || v.ends_with(b"=")
}

/// `self.password`, `config.db.token`, `args.api_key`: a dotted path of identifiers (a segment may end in digits).
fn is_identifier_path(v: &[u8]) -> bool {
    let mut dots = 0;
    for seg in v.split(|&c| c == b'.') {
        if seg.is_empty() || !(seg[0].is_ascii_alphabetic() || seg[0] == b'_' || seg[0] == b'$') {
            return false;
        }
        if !seg.iter().all(|&c| is_alnum(c) || c == b'_' || c == b'$') {
            return false;
        }
        // A segment mixing digits into letters in the middle is more like a secret than a name.
        if seg.iter().filter(|c| c.is_ascii_digit()).count() > 3 {
            return false;
        }
        dots += 1;
    }
    dots >= 2
}

/// Credential in an `Authorization` value or after `Bearer`: `[A-Za-z0-9._~+/=-]`.
#[inline]
pub fn is_cred(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'~' | b'+' | b'/' | b'=' | b'-')
}

/// Whether a credential (after a scheme) is a real one: long enough, not a placeholder, not a plain word.
pub fn accept_credential(v: &[u8], min: usize) -> bool {
    if v.len() < min || v.len() > 8192 || contains_marker(v) || is_placeholder(v) {
        return false;
    }
    if v.iter().all(u8::is_ascii_alphabetic) && v.len() <= 24 {
        return false;
    }
    let (l, u, d) = mix(v);
    (l || u) && (d || (l && u))
}

/// Passwords inside URLs: anything but an obvious placeholder.
pub fn accept_url_password(v: &[u8]) -> bool {
    if v.is_empty() || v.len() > 1024 || contains_marker(v) {
        return false;
    }
    if is_placeholder(v) {
        return false;
    }
    !word_is(v, &["pw", "pwd", "pass", "password", "passwd", "secret", "token", "x", "xxx", "user", "username"])
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// `is_placeholder` as it was before its checks were gated on a first pass over the value (rule set
    /// 2026-11-29.9): the reference the gated one must agree with.
    fn is_placeholder_reference(v: &[u8]) -> bool {
        if v.is_empty() {
            return true;
        }
        let first = v[0];
        if first == b'$' && v.get(1).is_some_and(|&c| c.is_ascii_alphabetic() || c == b'_' || c == b'{' || c == b'(') {
            return true;
        }
        if first == b'<' || v.starts_with(b"{{") || v.starts_with(b"%(") || v.starts_with(b"%s") || v.starts_with(b"#{")
        {
            return true;
        }
        let naive = |hay: &[u8], needle: &[u8]| hay.windows(needle.len()).any(|w| w == needle);
        if naive(v, b"${") || naive(v, b"{{") {
            return true;
        }
        let n = v.len();
        let sep = |i: usize| v.get(i).is_some_and(|&c| c == b'_' || c == b'-');
        let words = |v: &[u8]| v.iter().all(|&c| c.is_ascii_alphabetic() || c == b'_' || c == b'-');
        let led = |w: &[u8]| {
            starts_with_ci(v, 0, w)
                && (words(v)
                    || (sep(w.len()) && v.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-')))
        };
        let fill_in =
            led(b"replace") || led(b"insert") || (words(v) && n > 5 && sep(n - 5) && starts_with_ci(v, n - 4, b"here"));
        let elided =
            v.ends_with(b"...") || v.ends_with("…".as_bytes()) || naive(v, b"****") || naive(v, "••••".as_bytes());
        if is_mask_word(v) || is_percent_var(v) || fill_in || elided {
            return true;
        }
        if v[0] == b'(' && !v.contains(&b')') {
            return true;
        }
        if std::str::from_utf8(v).is_ok_and(|s| s.chars().all(|c| "*xX.#?-_•●…".contains(c))) {
            return true;
        }
        if is_repeated(v) || is_stop_value(v) {
            return true;
        }
        if REFERENCES.iter().any(|p| starts_with_ci(v, 0, p)) {
            return true;
        }
        const FILL_INS: [&[u8]; 6] = [b"example", b"placeholder", b"changeme", b"change-me", b"change_me", b"xxxxx"];
        (0..v.len()).any(|i| FILL_INS.iter().any(|w| starts_with_ci(v, i, w)))
    }

    #[test]
    fn is_placeholder_agrees_with_its_reference() {
        // Values built from the pieces the checks look for, glued at random, and random bytes of the same alphabet.
        let pieces: &[&str] = &[
            "${",
            "{{",
            "}}",
            "$",
            "<",
            "%(",
            "%s",
            "#{",
            "[",
            "]",
            "(",
            ")",
            "%",
            "*",
            "****",
            "•",
            "••••",
            "●",
            "…",
            "...",
            "x",
            "X",
            "xxxxx",
            ".",
            "#",
            "?",
            "-",
            "_",
            "replace",
            "REPLACE_",
            "insert",
            "_here",
            "-HERE",
            "your",
            "YOUR",
            "process.env",
            "os.environ",
            "os.getenv",
            "env.",
            "env(",
            "env[",
            "Env:",
            "file:",
            "fd:",
            "secrets.",
            "vault:",
            "arn:",
            "op://",
            "sm://",
            "example",
            "Example",
            "placeholder",
            "changeme",
            "change-me",
            "CHANGE_ME",
            "change",
            "me",
            "password",
            "token",
            "oauth2",
            "a",
            "Z",
            "7",
            "hunter2",
            "k9Xq2Lm7",
            "é",
            "\u{e2}",
        ];
        use crate::redact::tests::xorshift;
        const BYTES: &[u8] = b"x*.-_{$e\xe2\x80\xa2c";
        let mut state = 0x2545_f491u32;
        for _ in 0..20_000 {
            let n = 1 + xorshift(&mut state) % 5;
            let v: String = (0..n).map(|_| pieces[(xorshift(&mut state) % pieces.len() as u32) as usize]).collect();
            assert_eq!(is_placeholder(v.as_bytes()), is_placeholder_reference(v.as_bytes()), "{v:?}");
            let bytes: Vec<u8> =
                (0..xorshift(&mut state) % 12).map(|_| BYTES[(xorshift(&mut state) as usize) % BYTES.len()]).collect();
            assert_eq!(is_placeholder(&bytes), is_placeholder_reference(&bytes), "{bytes:?}");
        }
    }

    fn words(k: &str) -> Vec<String> {
        let mut w = [(0, 0); MAX_WORDS];
        let n = split_words(k.as_bytes(), &mut w);
        w[..n].iter().map(|&(s, e)| k[s..e].to_string()).collect()
    }

    #[test]
    fn splits_identifiers() {
        assert_eq!(words("APIKey"), ["API", "Key"]);
        assert_eq!(words("aws_secret_access_key"), ["aws", "secret", "access", "key"]);
        assert_eq!(words("clientSecret"), ["client", "Secret"]);
        assert_eq!(words("x-api-key"), ["x", "api", "key"]);
        assert_eq!(words("oauth2Token"), ["oauth2", "Token"]);
        assert_eq!(words("--password"), ["password"]);
    }

    #[test]
    fn classifies_keys() {
        let yes = [
            "password",
            "DB_PASSWORD",
            "passwd",
            "api_key",
            "apiKey",
            "APIKEY",
            "X-Api-Key",
            "access_token",
            "GITHUB_TOKEN",
            "client_secret",
            "clientSecret",
            "secret",
            "JWT_SECRET",
            "auth",
            "SECRET_KEY_BASE",
            "password_hash",
            "private_key",
            "AccountKey",
            "SharedAccessKey",
            "aws_secret_access_key",
            "SecretAccessKey",
            "Authorization",
            "proxy-authorization",
            "credentials",
            "smtp_pass",
            "accessToken",
            "sig",
            "X-Amz-Signature",
            "api_key_2",
            "SharedAccessSignature",
        ];
        for k in yes {
            assert!(classify_key(k.as_bytes()).is_some(), "{k} should name a secret");
        }
        let no = [
            "public_key",
            "publicKey",
            "token_count",
            "tokens",
            "max_tokens",
            "secret_name",
            "secret_arn",
            "key",
            "keys",
            "token_type",
            "sort_key",
            "auth.js",
            "author",
            "password_policy",
            "id",
            "SharedAccessKeyName",
            "AWS_ACCESS_KEY_ID",
            "private_key_id",
            "tests_pass",
            "monkey",
            "cache_key",
            "input_tokens",
            "secrets",
            "passwords",
            "signature",
            "token_url",
            "pass",
        ];
        for k in no {
            assert!(classify_key(k.as_bytes()).is_none(), "{k} should not name a secret");
        }
        assert_eq!(classify_key(b"aws_secret_access_key").unwrap().rule, Rule::AwsSecretAccessKey);
        assert_eq!(classify_key(b"AccountKey").unwrap().rule, Rule::AzureConnectionString);
        assert_eq!(classify_key(b"private_key").unwrap().rule, Rule::PrivateKey);
        // A database's primary key or Azure's: only a credential-shaped value is taken (see `Family::Opaque`).
        for k in ["primary_key", "primaryKey", "secondaryKey"] {
            assert_eq!(classify_key(k.as_bytes()).unwrap().family, Family::Opaque, "{k}");
        }
        assert!(!accept_value(b"user_id", Mode::Literal, Family::Opaque));
        assert!(accept_value(b"4nZYdYNWuBtP3Qcv7uyClQ2paO8o7gH1VB0K3Qgr6xQ=", Mode::Literal, Family::Opaque));
    }

    #[test]
    fn value_filters() {
        for v in ["hunter2", "s3cr3t-Value!", "9f86d081884c7d659a2feaa0c55ad015"] {
            assert!(accept_value(v.as_bytes(), Mode::Bare, Family::Secret), "{v}");
        }
        for v in [
            "***",
            "<token>",
            "${DB_PASSWORD}",
            "$DB_PASSWORD",
            "changeme",
            "string",
            "expired",
            "self.password",
            "get_token(",
            "Option",
            "1532",
            "1.2.3",
            "/run/secrets/db",
            "your_api_key_here",
            "xxxxxxxx",
            "abc",
            "process.env.TOKEN",
            "{{ secrets.TOKEN }}",
            "user_password",
            "[REDACTED:jwt]",
        ] {
            assert!(!accept_value(v.as_bytes(), Mode::Bare, Family::Secret), "{v}");
        }
        assert!(accept_value(b"hunter", Mode::Literal, Family::Password));
        assert!(!accept_value(b"expired", Mode::Literal, Family::Secret));
        assert!(!accept_value(b"revoked", Mode::Literal, Family::Secret));
        assert!(accept_value(b"12345678", Mode::Literal, Family::Password));
        assert!(!accept_value(b"12345678", Mode::Literal, Family::Secret));
    }
}
