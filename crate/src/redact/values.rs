//! Value filters: whether the value of a secret-naming key is worth redacting. Placeholders, masks, references,
//! type names, messages and plain words are left alone; how picky the filter is depends on how much evidence
//! surrounds the value ([`Mode`]) and what kind of secret the key names ([`Family`]).

use super::chars::*;
use super::keys::Family;

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
    if first == b'<'
        || starts_with_ci(v, 0, b"&lt;")
        || v.starts_with(b"{{")
        || v.starts_with(b"%(")
        || v.starts_with(b"%s")
        || v.starts_with(b"#{")
    {
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
    if (first == b'(' && !v.contains(&b')')) || (first == b'[' && !v.contains(&b']')) {
        // `(ask in #platform, never commit)`, `[Shared Access key goes here]`: the first word of a remark or a
        // fill-in, not a value
        return true;
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
    let shaped = match family {
        Family::Opaque | Family::Vendor => accept_credential(v, 16),
        Family::Labelled => credential_shaped(v) || is_uuid(v),
        Family::Random => drawn_at_random(v),
        Family::Listed => drawn_at_random(v) || is_hex_or_uuid(v),
        _ => true,
    };
    if !shaped {
        return false;
    }
    let min = if mode == Mode::Literal { 4 } else { 6 };
    if v.len() < min || v.len() > 8192 {
        return false;
    }
    if v.iter().any(|c| c.is_ascii_whitespace()) {
        return false; // messages ("must be 8 characters"), not secrets
    }
    if family == Family::Azure && v.iter().any(|&c| c == b'(' || c == b')') {
        return false; // a call (`Buffer.from(…)`): Azure's keys are base64 and its signatures query strings
    }
    if mode != Mode::Literal {
        // An element's id or a page's anchor (`"#add-password"`), a separator run on into the next key (`,label:`).
        let anchor = v[0] == b'#' && v[1..].iter().all(|&c| c.is_ascii_alphabetic() || c == b'-' || c == b'_');
        if anchor || v[0] == b',' || v[0] == b';' {
            return false;
        }
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

/// A value drawn at random, as a key or token is and a name, hash, id or cache key is not: 20 to 512 characters of
/// base64 or base64url, with upper case, lower case and two digits or more, not a camelCase name.
pub fn drawn_at_random(v: &[u8]) -> bool {
    let (l, u, _) = mix(v);
    (20..=512).contains(&v.len())
        && l
        && u
        && v.iter().filter(|c| c.is_ascii_digit()).count() >= 2
        && v.iter().all(|&c| is_b64url(c) || c == b'+' || c == b'/' || c == b'=')
        && !is_natural_identifier(v)
}

/// A value shaped as a generated credential, for a label that does not say what kind it names (`acme_key`,
/// `widget SECRET`): 16 to 1024 characters of base64 or base64url (and `.`), not a placeholder, and either
/// [drawn at random](drawn_at_random) or holding a part (between `_ - . /`) of 10 characters or more in which
/// letters and digits alternate at least twice (`k3p9x…`, hex digests): names, words joined, versions, dates and paths
/// (`user_12345_profile`, `build-2024-11-29`) have none.
pub fn credential_shaped(v: &[u8]) -> bool {
    if !(16..=1024).contains(&v.len())
        || !v.iter().all(|&c| is_b64url(c) || matches!(c, b'+' | b'/' | b'=' | b'.'))
        || contains_marker(v)
        || is_placeholder(v)
        || is_public_key_value(v)
    {
        return false;
    }
    // (With a `/`, only base64 drawn at random: `projects/2249/keys/…` is a path.)
    drawn_at_random(v)
        || (!v.contains(&b'/') && v.split(|&c| matches!(c, b'_' | b'-' | b'.')).any(random_part))
        || one_part(v)
        || grouped(v)
}

/// A key written in groups (`K7QX2-M9PL4-…`, a licence key's or a recovery code's layout): 24 characters or more in
/// three groups or more of 4 to 12 letters and digits joined by `-`, three of them mixing letters with digits, and
/// letters past `f` (a UUID is hex digits in groups: an id, unless a label says otherwise). Names and dates joined by
/// `-` have words and numbers for groups (`build-2024-11-29`, `web-7d9f8b6c5d-x2k4q`).
fn grouped(v: &[u8]) -> bool {
    let groups = || v.split(|&c| c == b'-');
    let mixed = |g: &[u8]| g.iter().any(u8::is_ascii_digit) && g.iter().any(u8::is_ascii_alphabetic);
    v.len() >= 24
        && !v.iter().all(|&c| c.is_ascii_hexdigit() || c == b'-')
        && groups().count() >= 3
        && groups().all(|g| (4..=12).contains(&g.len()) && g.iter().all(u8::is_ascii_alphanumeric))
        && groups().filter(|g| mixed(g)).count() >= 3
}

/// 20 letters and digits or more in one part, digits with letters or both cases, not a camelCase name: after a label
/// that names a credential, a value of that shape is one whatever its letters (`ABCD…WXYZ0123`, a vendor's example
/// key, is one to redact too); the names of code have parts or read as words.
fn one_part(v: &[u8]) -> bool {
    v.len() >= 20 && v.iter().all(u8::is_ascii_alphanumeric) && accept_credential(v, 20) && !is_natural_identifier(v)
}

/// A part of [`credential_shaped`]: 10 characters or more (16 when all hex digits: the last group of a UUID is
/// 12), 3 letters and 2 digits or more, and at least two changes between a letter and a digit.
fn random_part(p: &[u8]) -> bool {
    if p.len() < 10 || (p.len() < 16 && p.iter().all(u8::is_ascii_hexdigit)) {
        return false;
    }
    let letters = p.iter().filter(|c| c.is_ascii_alphabetic()).count();
    let digits = p.iter().filter(|c| c.is_ascii_digit()).count();
    let changes = p.windows(2).filter(|w| w[0].is_ascii_digit() != w[1].is_ascii_digit()).count();
    letters >= 3 && digits >= 2 && changes >= 2
}

/// 32 to 128 hex digits in one case, letters and digits both (an API token), or a UUID (`a52a…-…-…-…-…`).
fn is_hex_or_uuid(v: &[u8]) -> bool {
    is_uuid(v) || is_hex_token(v)
}

/// 32 to 128 hex digits in one case, letters and digits both.
fn is_hex_token(v: &[u8]) -> bool {
    let (l, u, d) = mix(v);
    (32..=128).contains(&v.len()) && v.iter().all(u8::is_ascii_hexdigit) && d && (l != u)
}

/// A UUID: hex digits in groups of 8, 4, 4, 4 and 12 joined by `-`. Several vendors issue API keys in this shape
/// (Heroku's, Bugsnag's), so after a label that names a credential it is one; alone it is an id.
pub fn is_uuid(v: &[u8]) -> bool {
    v.len() == 36
        && v.iter()
            .enumerate()
            .all(|(i, c)| if matches!(i, 8 | 13 | 18 | 23) { *c == b'-' } else { c.is_ascii_hexdigit() })
}

/// The body of a token whose lead names a credential (`acme-secret-<body>`, see `tokens::named_lead`): a UUID, 32 hex
/// digits or more (when `hex` allows them), or a value [shaped as a credential](credential_shaped) from its first part
/// on: a name that holds such a word runs on with words (`access-logs-bucket-8f3a…`), not a random part.
pub fn credential_body(v: &[u8], hex: bool) -> bool {
    if is_uuid(v) || is_hex_token(v) {
        return hex || is_uuid(v);
    }
    let first = v.split(|&c| matches!(c, b'_' | b'-' | b'.')).next().unwrap_or(v);
    credential_shaped(v) && (drawn_at_random(v) || random_part(first) || grouped(v))
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
        let html_lt = v.len() >= 4 && v[..4].eq_ignore_ascii_case(b"&lt;");
        if first == b'<'
            || html_lt
            || v.starts_with(b"{{")
            || v.starts_with(b"%(")
            || v.starts_with(b"%s")
            || v.starts_with(b"#{")
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
        if (v[0] == b'(' && !v.contains(&b')')) || (v[0] == b'[' && !v.contains(&b']')) {
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
            "&lt;",
            "&LT;",
            "&gt;",
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

    #[test]
    fn credential_shapes() {
        for v in [
            "k3p9xQ7mZ2LwR8vN4tB6",
            "9f86d081884c7d659a2feaa0c55ad015",
            "aistq7nd7yd1r6ls74icrh",
            "U29tZVNlY3JldA+/x9Z2",
        ] {
            assert!(credential_shaped(v.as_bytes()), "{v}");
        }
        for v in [
            "user_12345_profile_data",
            "build-2024-11-29-nightly",
            "projects/42/locations/global/keys/9b7fd540-b548-4213-b225-8700b339d20a",
            "123e4567-e89b-42d3-a456-426614174000",
            "abcdefghijklmnopqrstuvwxyz",
            "getUserProfileById",
            "<your-key-here-12345>",
        ] {
            assert!(!credential_shaped(v.as_bytes()), "{v}");
        }
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
