//! Secret redaction: finds credentials in what agents record and replaces each with `[REDACTED:<rule-id>]`.
//!
//! # Contract
//! - **Pure and total.** No clock, filesystem or environment; no input panics. Bad user patterns become
//!   warnings from [`Redactor::new`], never failures.
//! - **Markers, not silence.** A secret becomes `[REDACTED:<rule-id>]`; each call also returns [`Hit`]s (path,
//!   rule, count — never the secret nor a hash of it). Entries carry [`RULESET_VERSION`] so old entries can be
//!   re-redacted when the rules improve.
//! - **Idempotent.** Redacting output again changes nothing: markers are skipped, never matched.
//! - **Byte identity.** [`Redactor::redact_json`] changes only the contents of JSON strings; a marker needs no
//!   escaping, and a redacted range always covers whole escapes.
//! - **Cheap start.** The built-in rules are hand-written matchers over bytes, not regexes: nothing is compiled
//!   when a `Redactor` is made, unless the user supplies patterns (those use `regex-lite`).
//!
//! # Rules (ids)
//! Token shapes, found by prefix at a word start, then checked for length, charset and character mix:
//! `aws-access-key-id` (`AKIA`/`ASIA`/… + 16), `gcp-api-key` (`AIza` + 35), `github-token` (`ghp_ gho_ ghu_ ghs_
//! ghr_`), `github-fine-grained-pat` (`github_pat_`), `gitlab-token` (`glpat-`, `glrt-`, …), `slack-token`
//! (`xox[abposre]-`, `xapp-`), `slack-webhook` (`hooks.slack.com/services/…`), `stripe-key` (`sk_live_`,
//! `sk_test_`, `rk_live_`, `rk_test_`, `whsec_`), `twilio-key` (`SK` + 32 hex; `AC` + 32 hex when "twilio" is
//! near, or in the JSON key the SID is the value of), `sendgrid-api-key` (`SG.x.y`), `openai-api-key` (`sk-`,
//! `sk-proj-`, …), `anthropic-api-key` (`sk-ant-`), `npm-token` (`npm_`), `pypi-token` (`pypi-AgE…`), `jwt`
//! (`eyJ….eyJ….sig`), `discord-bot-token` (three dotted base64 parts, the first the bot's id in digits),
//! `telegram-bot-token` (`AA` and 33 after `<8-10 digits>:`), `vault-token` (`hvs.`, `hvb.`, `hvr.`),
//! `huggingface-token` (`hf_` + 34 letters), `fcm-server-key` (`APA91b…` after `AAAA…:`), `supabase-secret-key`
//! (`sb_secret_`), `age-secret-key` (`AGE-SECRET-KEY-1`), `linear-api-key` (`lin_api_`), `mailgun-api-key` (`key-` +
//! 32 hex).
//!
//! Context rules: `private-key` (the body of a PEM `PRIVATE KEY` block, with real newlines or JSON `\n`
//! escapes; also a non-PEM value of a `private_key` field, and a whole PEM key in base64, kubeconfig's
//! `client-key-data`), `aws-secret-access-key` (40 base64 characters right
//! after an access key id, or the value of `aws_secret_access_key`/`SecretAccessKey`), `azure-connection-string`
//! (`AccountKey=`, `SharedAccessKey=`, `SharedAccessSignature=` values), `url-credentials` (the password in
//! `scheme://user:password@host`), `url-signature` (`sig=`, `X-Amz-Signature=`), `authorization-header` (the
//! credential after `Authorization: <scheme>`), `bearer-token` (`Bearer <credential>` anywhere),
//! `secret-assignment` (the value of a key naming a secret — password, passwd, passphrase, secret, token,
//! api_key, access_key, client_secret, auth, credentials, … — in code, env files, JSON, YAML, XML, query strings and
//! `--flag value`; typed declarations, `const API_KEY: &str = "…"`, `var password string = "…"`; ODBC `PWD=…;`;
//! and, for a quoted literal long enough to be read as a word (15 word characters), a name and a value as a call's
//! literals, `define('DB_PASSWORD', '…')`, SQL `IDENTIFIED BY '…'` and `PASSWORD '…'`, and the password argument of
//! `login('user', '…')`, `NetworkCredential`, `new PDO($dsn, 'user', '…')`, `DBI->connect`, …; and the word after
//! `password `, `passwd `, `requirepass ` or `masterauth ` when it holds 15 word characters or more, as `.netrc`
//! and `redis.conf` write them), `db-key-echo` (PostgreSQL `Key (col)=(value)` and MySQL `Duplicate entry 'value' for key
//! 'col'` when a column names a secret; other columns such as `email` are kept: they are what an agent needs to
//! debug a unique violation, and personal data is not what this redactor is for), `command-line-password` (a
//! password given to a program on its command line, looked up with the program it is given to: `mysql -pX`,
//! `curl -u user:X`, `sshpass -p X`, `docker login -p X`, `redis-cli -a X`, `sqlcmd -P X`, `ldapsearch -w X`,
//! `smbclient -U user%X`, `htpasswd -b file user X`, `openssl … -passin pass:X`, `keytool -storepass X`, `7z -pX`,
//! `zip -P X`, `ssh-keygen -N X`, `echo X | sudo -S`, and more; for any program, a password option right after a
//! user option (`-u U -p X`, `-U U -P X`) and Windows-style `/p:X`, `/pass:X`; `ssh -p 22`, `mkdir -p`, `ps -u app
//! -p 4242` and `mysql -p db`, which asks, are left alone; in JSON, an array of strings is read as a command's
//! arguments too: `["mysql", "-u", "root", "-pX"]`, `["redis-server", "--requirepass", "X"]`).
//!
//! Values of secret-naming keys are filtered: placeholders (`***`, `<token>`, `${VAR}`, `$VAR`, `%VAR%`, `{{ … }}`,
//! `changeme`, `CHANGE-ME-…`, `your_api_key`, `REPLACE_ME`, `INSERT_TOKEN_HERE`, anything containing `example`),
//! what other tools show in a secret's place (`[REDACTED]`, `[FILTERED]`, `[MASKED]`, `gho_****…`, `sk_test_...`),
//! references (`process.env.X`, `self.password`, `get_token()`, ARNs), type names (`string`, `Option<String>`),
//! numbers (except for passwords), paths, URLs, messages (whitespace), the message of `${VAR:?message}`, a remark
//! in parentheses and, in free text, plain words (`password: required`) are left alone. A key that is a field of
//! an ARN (`…:secret:prod/db-password`) names a kind of resource, not a secret; the value after `key <space>` or
//! `--flag <space>` is never itself an assignment (`__token__ TWINE_PASSWORD=…`, `--secret id=npmrc`). Also left
//! alone: words joined by hyphens (`URL-restricted`), PowerShell cmdlets (`Get-Secret`), a name and the file it is
//! read from (`db-password:/etc/credstore/…`), public keys (`pk_live_…`, Mapbox `pk.eyJ…`), the same word as user
//! and password at a loopback host (`postgres:postgres@localhost`), git's `signingkey` (a key id), grep's
//! `path:12:` before a line, and a bare `PWD` (the working directory) outside a connection string. Letters drawn
//! at random (`VqOZmRIUOxmXKGTn`) are a value, where a plain word or a CamelCase name is not. Operators
//! may be aligned in a column (`"JWT_SECRET"      = …`), and a Terraform change `"old" -> "new"` loses both.
//! `primaryKey`/`secondaryKey` (Azure) take only a credential-shaped value (a database's primary key shares the
//! words). In JSON, the `value` of an object whose `name` (or `key`) names a secret is that secret (HAR files,
//! container env lists), and so is a YAML `value:` under a `- name:` that names one (Kubernetes env lists), and an
//! XML `value="…"` after `key="…"` or `name="…"` in the same tag (.NET configuration, phpunit.xml); an XML element
//! whose name names a secret holds one (`<password>…</password>`, Maven `settings.xml`); a token
//! used as a URL's user name goes with the password beside it.
//!
//! Copies: once a secret of 8 bytes or more is found in a text (a JSON string, or a text entry), its other
//! occurrences there go too, with the same rule (an SQL `INSERT` before the error that names the column, a signed
//! URL and then the signature in the error body), within a bounded amount of searching (see `add_echoes`).
//! `custom-<n>`: the n-th user pattern.

mod command;
mod json;
mod rules;
mod scan;
mod user;

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

pub use rules::{Rule, BUILTIN_RULES};

/// Version of the built-in rule set, written next to every redaction list. Bump when rules change.
pub const RULESET_VERSION: &str = "2026-11-30.2";

/// Redaction settings. `Default` is enabled with no extra patterns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RedactOptions {
    /// `false` turns redaction off entirely (every call returns `None`).
    pub enabled: bool,
    /// Extra patterns (`regex-lite` syntax); a match is redacted as `custom-<n>` (1-based). With a capture
    /// group, only group 1 is redacted.
    pub patterns: Vec<String>,
    /// Literals never redacted: a candidate secret equal to one of these stays.
    pub allow: Vec<String>,
    /// Patterns (`regex-lite`, searched within the candidate; anchor with `^…$` for a full match) whose
    /// matching candidates stay.
    pub allow_patterns: Vec<String>,
}

impl Default for RedactOptions {
    fn default() -> Self {
        RedactOptions { enabled: true, patterns: Vec::new(), allow: Vec::new(), allow_patterns: Vec::new() }
    }
}

/// What was redacted where: `path` is `$` for free text and for a JSON value itself, `$.env.API_KEY`,
/// `$.items[2]`, `$["odd key"]` inside one (relative to the value given). Keys in paths are written as in the
/// document (JSON-escaped); write the path through a JSON encoder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    pub path: String,
    pub rule: String,
    pub count: usize,
}

/// A configured redactor. Cheap to build (nothing is compiled unless user patterns are given); its configuration
/// never changes.
pub struct Redactor {
    enabled: bool,
    allow: Vec<String>,
    allow_re: Vec<(u16, regex_lite::Regex)>,
    custom: Vec<(u16, regex_lite::Regex)>,
    /// What `classify_key` said of the keys met so far, kept from call to call: entries repeat their keys (`tool`,
    /// `output`, `exit_code`, the keys of the log lines they quote), and a fresh cache for each call made every key
    /// a miss again (on a 1 KiB entry, a fifth of the core's redaction time; wasm profile). The answers depend on
    /// the key's bytes alone, so what the cache holds changes speed, never results. Not shared between threads
    /// (the wasm core has one).
    keys: RefCell<scan::KeyCache>,
    /// The buffers JSON strings are decoded into, kept from call to call (up to 64 KiB each): allocating and growing
    /// them was a tenth of the redaction of a 1 KiB entry holding secrets (wasm profile).
    decoded: RefCell<json::Decoded>,
}

impl Redactor {
    /// Builds a redactor. Bad user patterns are skipped and reported in the warnings; this never fails.
    pub fn new(opts: &RedactOptions) -> (Redactor, Vec<String>) {
        let mut warnings = Vec::new();
        let (custom, allow_re) = if opts.enabled {
            (
                user::compile("redaction pattern", &opts.patterns, &mut warnings),
                user::compile("allow pattern", &opts.allow_patterns, &mut warnings),
            )
        } else {
            (Vec::new(), Vec::new())
        };
        let allow = opts.allow.iter().filter(|a| !a.is_empty()).cloned().collect();
        let (keys, decoded) = (RefCell::default(), RefCell::default());
        (Redactor { enabled: opts.enabled, allow, allow_re, custom, keys, decoded }, warnings)
    }

    /// Redacts free text (a decoded string). Returns `None` when nothing matched (the fast, common case).
    /// Hits have path `$`.
    pub fn redact_text(&self, text: &str) -> Option<(String, Vec<Hit>)> {
        if !self.enabled || text.is_empty() {
            return None;
        }
        let spans = self.with_keys(|keys| self.find(text, keys, scan::Resume::START));
        if spans.is_empty() {
            return None;
        }
        let mut out = String::with_capacity(text.len() + 24 * spans.len());
        let mut hits = Hits::default();
        let mut last = 0;
        for f in &spans {
            if f.start < last {
                continue;
            }
            out.push_str(text.get(last..f.start).unwrap_or(""));
            push_marker(&mut out, f.rule);
            hits.add("$", f.rule);
            last = f.end;
        }
        out.push_str(text.get(last..).unwrap_or(""));
        Some((out, hits.into_vec()))
    }

    /// Redacts a valid, minified JSON value given as raw text (one top-level member's value, or a whole
    /// document). Only the contents of JSON strings change; a string whose key names a secret is redacted
    /// whole. Nesting is walked iteratively. Hits carry the path relative to the value (`$.env.API_KEY`).
    pub fn redact_json(&self, raw: &str) -> Option<(String, Vec<Hit>)> {
        self.redact_json_inner(raw, None, true, 0)
    }

    /// [`redact_json`](Self::redact_json) whose result has room for `room` more bytes (what the caller appends
    /// to it next), so that appending does not copy it again.
    pub fn redact_json_with_room(&self, raw: &str, room: usize) -> Option<(String, Vec<Hit>)> {
        self.redact_json_inner(raw, None, true, room)
    }

    /// Like [`redact_json`](Self::redact_json) for the value of a member whose key the caller holds apart: a
    /// string value is redacted whole when `key` names a secret (an `Authorization` value keeps its scheme).
    pub fn redact_json_member(&self, key: &str, raw: &str) -> Option<(String, Vec<Hit>)> {
        self.redact_json_inner(raw, Some(key), true, 0)
    }

    /// [`redact_json`](Self::redact_json) decoding every string with escapes before scanning it, never scanning
    /// one raw: the reference the raw scan is tested against.
    #[cfg(test)]
    fn redact_json_decoded(&self, raw: &str, key: Option<&str>) -> Option<(String, Vec<Hit>)> {
        self.redact_json_inner(raw, key, false, 0)
    }

    /// Whether a member key names a secret (`password`, `api_key`, `clientSecret`, `Authorization`, …; not
    /// `public_key`, `token_count`, `max_tokens`, `secret_name`). Always `false` when disabled.
    pub fn secret_key(&self, key: &str) -> bool {
        self.enabled && rules::classify_key(key.as_bytes()).is_some()
    }

    /// `raw_scan`: whether long strings with escapes may be proven clean without decoding them (see
    /// `scan::Scanner::run_raw`); `false` only in tests, as the reference. `room`: spare capacity for the result.
    fn redact_json_inner(
        &self,
        raw: &str,
        key: Option<&str>,
        raw_scan: bool,
        room: usize,
    ) -> Option<(String, Vec<Hit>)> {
        if !self.enabled || raw.is_empty() {
            return None;
        }
        let find = |t: &str, from: scan::Resume| self.with_keys(|keys| self.find(t, keys, from));
        let allowed = |s: &str| self.allowed(s);
        // User patterns run on decoded text: with any, every string is decoded.
        let clean_raw = |content: &str, esc: &[u64]| {
            self.with_keys(|keys| scan::Scanner::new_raw(content, esc, &allowed, keys).run_raw())
        };
        let scan_raw: Option<json::ScanRaw> = if raw_scan && self.custom.is_empty() { Some(&clean_raw) } else { None };
        let edits = kept(&self.decoded, |dec| {
            let edits = json::walk(raw, key, &find, scan_raw, &allowed, dec);
            dec.trim();
            edits
        });
        if edits.is_empty() {
            return None;
        }
        let mut out = String::with_capacity(raw.len() + 24 * edits.len() + room);
        let mut hits = Hits::default();
        let mut last = 0;
        for e in &edits {
            if e.start < last || e.end < e.start {
                continue;
            }
            let Some(before) = raw.get(last..e.start) else { continue };
            out.push_str(before);
            push_marker(&mut out, e.rule);
            hits.add(&e.path, e.rule);
            last = e.end;
        }
        out.push_str(raw.get(last..).unwrap_or(""));
        Some((out, hits.into_vec()))
    }

    /// Runs `f` with the key cache.
    fn with_keys<T>(&self, f: impl FnOnce(&mut scan::KeyCache) -> T) -> T {
        kept(&self.keys, f)
    }

    fn allowed(&self, s: &str) -> bool {
        self.allow.iter().any(|a| a == s) || self.allow_re.iter().any(|(_, r)| r.is_match(s))
    }

    /// Spans to redact in decoded text: built-in rules, then user patterns merged in. The built-in rules are looked
    /// for from `from`: the start, or where a raw scan of the text gave up (see `scan::Scanner::run_raw`).
    fn find(&self, text: &str, keys: &mut scan::KeyCache, from: scan::Resume) -> Vec<scan::Found> {
        let allowed = |s: &str| self.allowed(s);
        let mut sc = scan::Scanner::new(text, &allowed, keys);
        if from == scan::Resume::START {
            sc.run();
        } else {
            sc.run_from(from);
        }
        let mut found = std::mem::take(&mut sc.out);
        if !self.custom.is_empty() {
            user::apply(&self.custom, text, &mut found, &sc.markers, &allowed);
        }
        if !found.is_empty() {
            add_echoes(text, &mut found);
        }
        found
    }
}

/// Runs `f` with what a redactor keeps from call to call in `cell` (its key cache, its decoding buffers). The calls
/// that use one never nest; were one to, it would get a fresh one rather than a panic.
fn kept<K: Default, T>(cell: &RefCell<K>, f: impl FnOnce(&mut K) -> T) -> T {
    match cell.try_borrow_mut() {
        Ok(mut k) => f(&mut k),
        Err(_) => f(&mut K::default()),
    }
}

/// Bytes of text searched for copies of found secrets, at most, per text (see [`add_echoes`]).
const ECHO_BUDGET: usize = 4 << 20;

/// Adds the copies of each found secret elsewhere in the same text. A secret is often quoted where a rule sees it
/// and echoed where none does: an SQL `INSERT` before the unique-key error that names the column, a signed URL and
/// then the signature in the error body, `export TOKEN=…` and then the value alone. Each distinct secret of 8 bytes
/// or more is looked for in the whole text, as long as that is at most `ECHO_BUDGET` bytes of searching (a 1 MiB
/// text with up to 4 distinct secrets, 64 KiB with up to 64), so that a long text full of secrets stays linear.
/// A copy takes the rule of the secret it copies.
fn add_echoes(text: &str, found: &mut Vec<scan::Found>) {
    let b = text.as_bytes();
    let most = ECHO_BUDGET / b.len().max(1);
    let mut secrets: Vec<(&[u8], Rule)> = Vec::new();
    for f in found.iter() {
        let s = b.get(f.start..f.end).unwrap_or(&[]);
        if s.len() >= 8 && !secrets.iter().any(|(x, _)| *x == s) {
            if secrets.len() == most {
                return;
            }
            secrets.push((s, f.rule));
        }
    }
    let before = found.len();
    // A word byte, as the scan has them (`[A-Za-z0-9_.-]`).
    let word = |c: Option<&u8>| c.is_some_and(|&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-'));
    for (s, rule) in secrets {
        let mut from = 0;
        while let Some(at) = find_bytes(b, s, from) {
            from = at + 1;
            let end = at + s.len();
            // A copy stands alone: not a piece of a longer word (`hunter2xyz` is no copy of `hunter2`), and its
            // marker leaves its neighbours as they were read, so a second pass finds nothing new.
            let inside = (at > 0 && word(b.get(at - 1))) || word(b.get(end));
            if !inside && !found.iter().any(|f| f.start < end && at < f.end) {
                found.push(scan::Found { start: at, end, rule });
            }
        }
    }
    if found.len() > before {
        found.sort_unstable_by_key(|f| f.start);
    }
}

/// The first `needle` (2 bytes or more) in `hay` at or after `from`: on wasm by [`find_by_pairs`] first, the rest
/// (and elsewhere, all of it) by [`rules::find_from`].
fn find_bytes(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    #[cfg(target_arch = "wasm32")]
    let from = match find_by_pairs(hay, needle, from) {
        Ok(at) => return Some(at),
        Err(rest) => rest,
    };
    rules::find_from(hay, needle, from)
}

/// [`find_bytes`] sixteen positions at a time while 17 bytes are left: those where the needle's first two bytes
/// are, then a compare of each (a searcher set up per needle, as `str::find` does, cost more than the search
/// itself in a text of a few kilobytes). `Err`: where to go on one byte at a time.
#[cfg(target_arch = "wasm32")]
fn find_by_pairs(hay: &[u8], needle: &[u8], mut i: usize) -> Result<usize, usize> {
    let Some(last) = hay.len().checked_sub(needle.len()) else { return Err(i) };
    while i + 17 <= hay.len() && i <= last {
        let mut hits = pairs16(&hay[i..i + 17], needle[0], needle[1]);
        while hits != 0 {
            let at = i + hits.trailing_zeros() as usize;
            if at <= last && hay[at..at + needle.len()] == *needle {
                return Ok(at);
            }
            hits &= hits - 1;
        }
        i += 16;
    }
    Err(i)
}

/// Bit k: bytes k and k + 1 of the 17 are `a` and `b` (wasm simd128).
#[cfg(target_arch = "wasm32")]
#[target_feature(enable = "simd128")]
fn pairs16(chunk: &[u8], a: u8, b: u8) -> u32 {
    use core::arch::wasm32::*;
    // SAFETY: the chunk holds 17 readable bytes, so both loads are in bounds; wasm loads need no alignment.
    let (v, w) = unsafe { (v128_load(chunk.as_ptr().cast::<v128>()), v128_load(chunk[1..].as_ptr().cast::<v128>())) };
    u32::from(u8x16_bitmask(v128_and(i8x16_eq(v, u8x16_splat(a)), i8x16_eq(w, u8x16_splat(b)))))
}

/// Appends `[REDACTED:<rule-id>]`.
fn push_marker(out: &mut String, rule: Rule) {
    out.push_str("[REDACTED:");
    out.push_str(&rule.id());
    out.push(']');
}

/// Hits merged by (path, rule), in order of first occurrence. An entry has a few (a path per redacted field, a rule
/// or two per path), which a linear search finds faster than hashing the path; past `LINEAR` of them (a large
/// document with a secret in each of many fields) an index takes over, so merging stays linear in the hits. The
/// index is keyed by a hash of the path, so a lookup allocates nothing; a path that shares its hash and rule with
/// another is found by a linear search.
#[derive(Default)]
struct Hits {
    list: Vec<(Rule, Hit)>,
    index: HashMap<(u64, Rule), usize, BuildHasherDefault<Mix>>,
}

/// The index's hasher: its keys are hashes already, so mixing them once is enough.
#[derive(Default)]
struct Mix(u64);

impl Hasher for Mix {
    fn write(&mut self, bytes: &[u8]) {
        for &c in bytes {
            self.write_u64(u64::from(c));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

const LINEAR: usize = 16;

impl Hits {
    fn add(&mut self, path: &str, rule: Rule) {
        let linear = |list: &[(Rule, Hit)]| list.iter().position(|(r, h)| *r == rule && h.path == path);
        // The index key, once the index is in use (computed once: the lookup and the insert both need it).
        let mut key = None;
        let found = if self.list.len() <= LINEAR {
            linear(&self.list)
        } else {
            if self.index.is_empty() {
                for (i, (r, h)) in self.list.iter().enumerate().rev() {
                    self.index.insert((fnv1a(&h.path), *r), i);
                }
            }
            let k = *key.insert((fnv1a(path), rule));
            match self.index.get(&k) {
                Some(&i) if self.list[i].1.path == path => Some(i),
                Some(_) => linear(&self.list),
                None => None,
            }
        };
        if let Some(i) = found {
            self.list[i].1.count += 1;
            return;
        }
        if let Some(k) = key {
            self.index.entry(k).or_insert(self.list.len());
        }
        self.list.push((rule, Hit { path: path.to_string(), rule: rule.id().into_owned(), count: 1 }));
    }
    fn into_vec(self) -> Vec<Hit> {
        self.list.into_iter().map(|(_, h)| h).collect()
    }
}

/// FNV-1a (64-bit) of a path, for [`Hits`]' index.
fn fnv1a(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, c| (h ^ u64::from(c)).wrapping_mul(0x0100_0000_01b3))
}

#[cfg(test)]
mod differential;
#[cfg(test)]
mod tests;
