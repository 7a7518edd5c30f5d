//! Key names that announce a secret (`password`, `api_key`, `clientSecret`, `Authorization`, …; not `public_key`,
//! `token_count`, `secret_name`), how the value of each is read, and the cache of answers the scan keeps.

use super::chars::*;
use super::rule::Rule;

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
    /// A vendor's name alone (`heroku: …`, `"datadog": "…"`): what the vendor issues, when the value looks like a
    /// credential (as [`Opaque`](Family::Opaque)).
    Vendor,
    /// A bare `key` (`Using Key=…`): only a value drawn at random (see `values::drawn_at_random`); cache keys,
    /// hashes, ids and names are keys too.
    Random,
    /// A key whose last word is `key` after a word that says nothing of what kind (`acme_key`, `widgetKEY`): only a
    /// value shaped as a credential (see `values::credential_shaped`).
    Labelled,
    /// A label and a quoted value with no operator between (`token '…'`, `sid 'AC…' token '…'`), or the value next to
    /// a known token (`Client('AC…', '…')`): only a value drawn at random, 32+ hex digits or a UUID.
    Listed,
}

impl Family {
    /// Whether only the value's shape says it is a secret: the key alone does not (so it names no secret to the
    /// rules that read a key without its value, such as a database's key echo).
    pub fn by_shape(self) -> bool {
        matches!(self, Family::Vendor | Family::Random | Family::Listed | Family::Labelled)
    }
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
    if k.len() < 3 || k.len() > 128 || k[0].is_ascii_digit() {
        return None;
    }
    if !might_name_secret(k) {
        return is_vendor(k).then_some(KeyClass { rule: Rule::SecretAssignment, family: Family::Vendor });
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
        // A personal access token (`ado_pat`, `AZURE_DEVOPS_PAT`): only by its value, a bare `pat` being a name too.
        b"pat" => return if n >= 2 { class(Rule::SecretAssignment, Family::Labelled) } else { None },
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
        // SonarQube's `sonar.login` property is the analysis token (a user name only in old set-ups, with a password
        // beside it); Code Climate's test reporter id is the secret its coverage uploads are signed with; a Jenkins
        // crumb is the token its API wants with each request.
        b"login" if prev.is_some_and(|q| q.ends_with(b"sonar")) => return secret,
        b"id" if prev == Some(b"reporter") && has(b"test") => return secret,
        b"crumb" => return secret,
        // A service's `…_access`, `…_private` or `…_api` (`acme_access`, `widgetPRIVATE`): only by its value's shape.
        b"access" | b"private" | b"api" if n >= 2 => return class(Rule::SecretAssignment, Family::Labelled),
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
    } else if last.len() > 3 && last.ends_with(b"key") && k.len() >= 7 {
        // A vendor's name with `key` glued on (`acmekey`, `widgetSECRETkey`): only by its value's shape, unless the
        // name says it is another kind of key (`hotkey`, `sortkey`). Words that end so are short (`monkey`, `turkey`).
        let q = &last[..last.len() - 3];
        return (!names_other_key(q)).then_some(KeyClass { rule: Rule::SecretAssignment, family: Family::Labelled });
    } else {
        return None;
    };
    if is_key && matches!(q, b"primary" | b"secondary") {
        return class(Rule::SecretAssignment, Family::Opaque);
    }
    if !is_key_qualifier(q) {
        // A vendor's key: `ALGOLIA_KEY`, `mailchimpKey`, `heroku api key`; another word's key only by its value
        // (`acme_key`), unless the word says it is some other kind of key (`cache_key`, `sort_key`).
        if !is_key {
            return None;
        }
        if (0..n - 1).any(|j| is_vendor(word(j))) {
            return secret;
        }
        return (!names_other_key(q)).then_some(KeyClass { rule: Rule::SecretAssignment, family: Family::Labelled });
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
            // The kinds of key vendors issue (Google's browser key, a REST API key, a write key).
            | b"browser"
            | b"android"
            | b"ios"
            | b"mobile"
            | b"web"
            | b"rest"
            | b"live"
            | b"production"
            | b"developer"
            | b"bot"
            | b"personal"
            | b"partner"
            | b"merchant"
            | b"write"
            | b"ingest"
            | b"sdk"
    )
}

/// Whether `label`, a word before a value with only a blank between (`acme SECRET …`, `widgetApiKey …`, `sendbird
/// key …`), names a credential: its last word is one of a credential's names (`key`, `token`, `secret`, `private`,
/// `access`, a compound of them, `password`), or it names a secret as a key would; and neither it nor `before`, the
/// word before it, says it is another kind of key (`public key`, `ssh key`, `sort_key`).
/// (The scan asks [`KeyCache::credential_label`], which keeps the label's part of the answer.)
#[cfg(test)]
pub fn names_credential_label(label: &[u8], before: &[u8]) -> bool {
    label_alone_names_credential(label) && !names_other_key(lower(before, &mut [0u8; 24]))
}

/// [`names_credential_label`] of the label alone, leaving out the word before it.
fn label_alone_names_credential(label: &[u8]) -> bool {
    if label.len() < 3 || label.len() > 64 || label[0].is_ascii_digit() || !might_name_secret(label) {
        return false;
    }
    let mut w = [(0usize, 0usize); MAX_WORDS];
    let n = split_words(label, &mut w);
    if n == 0 {
        return false;
    }
    let mut buf = [0u8; 24];
    let last = lower(&label[w[n - 1].0..w[n - 1].1], &mut buf);
    let named = matches!(
        last,
        b"key"
            | b"token"
            | b"secret"
            | b"private"
            | b"access"
            | b"apikey"
            | b"secretkey"
            | b"privatekey"
            | b"accesskey"
            | b"accesstoken"
            | b"authtoken"
            | b"apitoken"
            | b"secrettoken"
            | b"password"
            | b"passwd"
            | b"passphrase"
    ) || names_secret(label)
        || (label.len() >= 7
            && [&b"key"[..], b"token", b"secret", b"private", b"access"]
                .iter()
                .any(|w| last.len() > w.len() && last.ends_with(w)));
    let other = |k: &[u8]| names_other_key(lower(k, &mut [0u8; 24]));
    named && !(0..n - 1).any(|j| other(&label[w[j].0..w[j].1]))
}

/// Words before `key` that name a kind of key other than a credential: a database's, a cache's, a map's, a
/// keyboard's, a public key and the keys named by their use (lower case). Such a key takes no value by its shape.
fn names_other_key(q: &[u8]) -> bool {
    matches!(
        q,
        b"public"
            | b"publishable"
            | b"pub"
            | b"cache"
            | b"sort"
            | b"foreign"
            | b"partition"
            | b"row"
            | b"range"
            | b"hash"
            | b"index"
            | b"idempotency"
            | b"dedup"
            | b"dedupe"
            | b"unique"
            | b"composite"
            | b"lookup"
            | b"routing"
            | b"shard"
            | b"object"
            | b"s3"
            | b"bucket"
            | b"map"
            | b"dict"
            | b"group"
            | b"item"
            | b"entry"
            | b"message"
            | b"translation"
            | b"i18n"
            | b"label"
            | b"hot"
            | b"short"
            | b"ssh"
            | b"gpg"
            | b"pgp"
            // A signature's key, named by its algorithm (`using RSA key <fingerprint>`).
            | b"rsa"
            | b"dsa"
            | b"ecdsa"
            | b"eddsa"
            | b"ed25519"
            | b"fingerprint"
            | b"host"
            | b"known"
            | b"cursor"
            | b"page"
            | b"next"
            | b"continuation"
            | b"start"
            | b"end"
            | b"first"
            | b"last"
            | b"lock"
            | b"list"
            | b"parent"
            | b"child"
            | b"field"
            | b"column"
            | b"table"
            | b"config"
            | b"setting"
            | b"settings"
            | b"registry"
            | b"env"
            | b"sequence"
            | b"version"
            | b"build"
            | b"job"
            | b"task"
            | b"event"
            | b"state"
            | b"store"
            | b"local"
            | b"metric"
            | b"trace"
            | b"tag"
            | b"commit"
            | b"file"
            | b"path"
            | b"name"
            | b"type"
            | b"id"
            | b"node"
            | b"query"
            | b"request"
            | b"react"
            | b"primary"
            | b"secondary"
            | b"natural"
            | b"surrogate"
            | b"compound"
            | b"search"
            | b"keyboard"
            | b"shortcut"
            | b"menu"
            | b"music"
            | b"piano"
            | b"answer"
            | b"data"
            // Web push: the application server key is the public half of a VAPID pair.
            | b"server"
            | b"vapid"
    )
}

/// Vendors whose credentials are opaque strings, so that the vendor's name is what says a value is one: a key named
/// after the vendor (`ALGOLIA_KEY`), or the vendor's name alone as a label (`heroku: …`). Lower case, sorted.
const VENDORS: &[&[u8]] = &[
    b"airtable",
    b"algolia",
    b"amplitude",
    b"asana",
    b"auth0",
    b"bitly",
    b"braintree",
    b"browserstack",
    b"bugsnag",
    b"buildkite",
    b"circleci",
    b"clearbit",
    b"cloudflare",
    b"cloudinary",
    b"codecov",
    b"contentful",
    b"coveralls",
    b"databricks",
    b"datadog",
    b"digitalocean",
    b"dropbox",
    b"dynatrace",
    b"fastly",
    b"firebase",
    b"freshdesk",
    b"google",
    b"heroku",
    b"honeycomb",
    b"hubspot",
    b"intercom",
    b"launchdarkly",
    b"linode",
    b"logdna",
    b"loggly",
    b"mailchimp",
    b"mailgun",
    b"mandrill",
    b"mapbox",
    b"mixpanel",
    b"netlify",
    b"newrelic",
    b"okta",
    b"onesignal",
    b"opsgenie",
    b"pagerduty",
    b"paypal",
    b"pingdom",
    b"postmark",
    b"pubnub",
    b"pusher",
    b"rollbar",
    b"sendgrid",
    b"sentry",
    b"shopify",
    b"snyk",
    b"statuspage",
    b"sumologic",
    b"trello",
    b"twilio",
    b"typeform",
    b"vercel",
    b"vultr",
    b"zapier",
    b"zendesk",
];

/// Per first letter (`a` to `z`), the lengths of the vendors' names that start with it (bit n: length n): most words
/// are turned away by one look at it (a member key, `tool` or `output`, is looked up on every string of an entry).
static VENDOR_LENGTHS: [u16; 26] = {
    let mut t = [0u16; 26];
    let mut k = 0;
    while k < VENDORS.len() {
        let v = VENDORS[k];
        t[(v[0] - b'a') as usize] |= 1 << v.len();
        k += 1;
    }
    t
};

/// Whether `w` is a vendor's name of [`VENDORS`], in any case.
pub fn is_vendor(w: &[u8]) -> bool {
    let first = w.first().map_or(0, |c| c | 0x20);
    if !first.is_ascii_lowercase() || w.len() > 15 || VENDOR_LENGTHS[usize::from(first - b'a')] >> w.len() & 1 == 0 {
        return false;
    }
    let mut buf = [0u8; 24];
    let w = lower(w, &mut buf);
    VENDORS.binary_search(&w).is_ok()
}

/// Whether a key names a secret by itself, whatever its value (see [`Family::by_shape`]).
pub fn names_secret(k: &[u8]) -> bool {
    classify_key(k).is_some_and(|kc| !kc.family.by_shape())
}

/// A bare `key` (in any case): names a secret only with a value drawn at random ([`Family::Random`]).
pub fn bare_key(k: &[u8]) -> Option<KeyClass> {
    k.eq_ignore_ascii_case(b"key").then_some(KeyClass { rule: Rule::SecretAssignment, family: Family::Random })
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
pub fn might_name_secret(k: &[u8]) -> bool {
    let n = k.len();
    let mut i = 0;
    while i + 3 <= n {
        let hit = match k[i] | 0x20 {
            b'p' => {
                starts_with_ci(k, i, b"pass")
                    || starts_with_ci(k, i, b"pwd")
                    || starts_with_ci(k, i, b"pat")
                    || starts_with_ci(k, i, b"private")
            }
            b's' => starts_with_ci(k, i, b"secret") || starts_with_ci(k, i, b"sig"),
            b't' => starts_with_ci(k, i, b"token"),
            b'k' => starts_with_ci(k, i, b"key"),
            b'a' => starts_with_ci(k, i, b"auth") || starts_with_ci(k, i, b"access") || starts_with_ci(k, i, b"api"),
            b'c' => starts_with_ci(k, i, b"cred") || starts_with_ci(k, i, b"crumb"),
            b'l' => starts_with_ci(k, i, b"login"),
            b'r' => starts_with_ci(k, i, b"reporter"),
            _ => false,
        };
        if hit {
            return true;
        }
        i += 1;
    }
    false
}

/// What `classify_key` said about the keys seen in one redaction call: log text repeats a handful of keys
/// (`level`, `token_count`, `auth.refresh`) thousands of times, and the answer depends on the key's bytes alone.
/// Four-way set-associative on a hash of the whole key; a miss fills the ways of its set in turn. Hits move nothing
/// (with two ways in order of last use, three of the bench's ~20 frequent keys sharing a set missed a third of
/// their lookups; four ways kept in order cost more in moves than the misses did).
/// A key is held as three 8-byte words, zero past its end, so a lookup is a few word loads and compares (keys
/// longer than 23 bytes are not kept).
pub struct KeyCache {
    sets: [[KeySlot; 4]; 16],
    /// The hash of the key in each slot, compared first (see [`classify`](Self::classify)): four words compared,
    /// and one key, where comparing the four keys in full was about 5% of a long clean string's raw scan in wasm
    /// (most stops in log text are a cached key's lookup).
    tags: [[u64; 4]; 16],
    /// Per set, the way the next miss fills.
    next: [u8; 16],
    /// What [`label_alone_names_credential`] said of the labels met so far (before long values: a log repeats them,
    /// `commit <id>`, `index <ids>`), direct-mapped on the same hash: the key's words and length, and the answer.
    labels: [([u64; 3], u8, bool); 16],
}

#[derive(Clone, Copy)]
struct KeySlot {
    /// 0 for an empty slot (a kept key has 3 to 23 bytes).
    len: u8,
    words: [u64; 3],
    class: Option<KeyClass>,
}

impl Default for KeyCache {
    fn default() -> Self {
        KeyCache {
            sets: [[KeySlot { len: 0, words: [0; 3], class: None }; 4]; 16],
            tags: [[0; 4]; 16],
            next: [0; 16],
            labels: [([0; 3], 0, false); 16],
        }
    }
}

/// The key that starts `c` (24 bytes or more), `n` bytes long (1 to 23), as three little-endian words, zero past its
/// end. (Most keys fit in the first word, whose load is all they cost.)
#[inline(always)]
fn key_words(c: &[u8], n: usize) -> [u64; 3] {
    let word = |i: usize| u64::from_le_bytes(c[8 * i..8 * i + 8].try_into().unwrap_or([0; 8]));
    // The low k bytes of a word (k from 1 to 8).
    let low = |x: u64, k: usize| x & (!0u64 >> (64 - 8 * k));
    if n <= 8 {
        [low(word(0), n), 0, 0]
    } else if n <= 16 {
        [word(0), low(word(1), n - 8), 0]
    } else {
        [word(0), word(1), low(word(2), n - 16)]
    }
}

/// [`key_words`] of a key (1 to 23 bytes) through a padded copy, for one near the end of the text. Out of line: its
/// buffer would give every lookup a stack frame.
#[inline(never)]
fn padded_words(k: &[u8]) -> [u64; 3] {
    let mut pad = [0u8; 24];
    pad[..k.len()].copy_from_slice(k);
    key_words(&pad, k.len())
}

/// The hash of a key's words and length, which picks its set (the top four bits) and tags its way.
#[inline(always)]
fn key_hash(w: [u64; 3], n: usize) -> u64 {
    (w[0] ^ w[1].rotate_left(21) ^ w[2].rotate_left(42) ^ n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

impl KeyCache {
    /// [`classify`](Self::classify) out of line, for the rules that ask seldom: one copy of the lookup for them all.
    #[inline(never)]
    pub fn classify_cold(&mut self, b: &[u8], s: usize, e: usize) -> Option<KeyClass> {
        self.classify(b, s, e)
    }

    /// `classify_key(&b[s..e])`. A hit is inlined into the scan loop; a miss is
    /// [`classify_rest`](Self::classify_rest), and a key too long to keep or one near the end of the text
    /// [`classify_far`](Self::classify_far).
    #[inline(always)]
    pub fn classify(&mut self, b: &[u8], s: usize, e: usize) -> Option<KeyClass> {
        let n = e - s;
        if n < 3 || b[s].is_ascii_digit() {
            return None; // classify_key's own first test
        }
        match b.get(s..s + 24) {
            Some(c) if n <= 23 => self.lookup(key_words(c, n), &b[s..e]),
            _ => self.classify_far(&b[s..e]),
        }
    }

    /// [`classify`](Self::classify) of a key longer than 23 bytes (not kept) or within 24 bytes of the end of the
    /// text (read through a padded copy). Out of line, as the scan seldom asks it.
    #[inline(never)]
    fn classify_far(&mut self, k: &[u8]) -> Option<KeyClass> {
        if k.len() > 23 {
            return classify_key(k);
        }
        self.lookup(padded_words(k), k)
    }

    /// The cache's answer for the key `k`, read as the words `w`: a hit, or a miss filled in.
    #[inline(always)]
    fn lookup(&mut self, w: [u64; 3], k: &[u8]) -> Option<KeyClass> {
        let n = k.len();
        let h = key_hash(w, n);
        let set = (h >> 60) as usize;
        // The four ways' hashes compared, without branches (which way holds a key varies from lookup to lookup),
        // then the key itself in the way whose hash is equal: a hit is always the whole key, so a miss (an empty
        // way's tag, or two keys of one hash) only costs a `classify_key`, whose answer depends on the key alone.
        let mut way = 4;
        for (k, &tag) in self.tags[set].iter().enumerate().rev() {
            way = if tag == h { k } else { way };
        }
        if let Some(slot) = self.sets[set].get(way) {
            let hit = (usize::from(slot.len) == n)
                & (slot.words[0] == w[0])
                & (slot.words[1] == w[1])
                & (slot.words[2] == w[2]);
            if hit {
                return slot.class;
            }
        }
        self.classify_rest(set, h, k)
    }

    /// [`names_credential_label`] of `b[s..e]` and `before`, the label's own part looked up in the cache.
    pub fn credential_label<'b>(&mut self, b: &'b [u8], s: usize, e: usize, before: impl Fn() -> &'b [u8]) -> bool {
        let n = e - s;
        let alone = if (3..=23).contains(&n) {
            let w = match b.get(s..s + 24) {
                Some(c) => key_words(c, n),
                None => padded_words(&b[s..e]),
            };
            let h = key_hash(w, n);
            let slot = &mut self.labels[(h >> 60) as usize];
            if slot.1 as usize == n && slot.0 == w {
                slot.2
            } else {
                let a = label_alone_names_credential(&b[s..e]);
                *slot = (w, n as u8, a);
                a
            }
        } else {
            label_alone_names_credential(&b[s..e])
        };
        alone && !names_other_key(lower(before(), &mut [0u8; 24]))
    }

    /// A miss of [`classify`](Self::classify) in `set`: `classify_key`, kept in the set's next way. (The key's words
    /// are read again here rather than handed over: handed over, they were stored on the stack at every lookup.)
    #[inline(never)]
    fn classify_rest(&mut self, set: usize, h: u64, k: &[u8]) -> Option<KeyClass> {
        let class = classify_key(k);
        let way = usize::from(self.next[set] & 3);
        self.next[set] = self.next[set].wrapping_add(1);
        self.sets[set][way] = KeySlot { len: k.len() as u8, words: padded_words(k), class };
        self.tags[set][way] = h;
        class
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::redact::tests::xorshift;
    use crate::redact::values::{accept_value, Mode};
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

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
    fn a_key_of_no_known_kind_takes_a_value_by_its_shape() {
        for k in ["acme_key", "widgetKEY", "config.mapping.key", "ado_pat", "AZURE_DEVOPS_PAT"] {
            assert_eq!(classify_key(k.as_bytes()).map(|c| c.family), Some(Family::Labelled), "{k}");
            assert!(!names_secret(k.as_bytes()), "{k}: only by its value");
        }
        for k in ["cache_key", "sort_key", "public_key", "idempotency_key", "ssh_key", "applicationServerKey", "pat"] {
            assert!(classify_key(k.as_bytes()).is_none_or(|c| c.family != Family::Labelled), "{k}");
        }
        for (label, before) in [("SECRET", "acme"), ("acmeApiKey", ""), ("token", "access"), ("KEY", "PRIVATE")] {
            assert!(names_credential_label(label.as_bytes(), before.as_bytes()), "{before} {label}");
        }
        for (label, before) in [("key", "RSA"), ("key", "public"), ("monkey", ""), ("keyboard", ""), ("sort_key", "")] {
            assert!(!names_credential_label(label.as_bytes(), before.as_bytes()), "{before} {label}");
        }
    }

    #[test]
    fn key_cache_answers_as_classify_key() {
        // Keys of every length around the 8-byte words and the 23-byte limit, at every distance from the end of the
        // text (the padded copy), differing in one byte or in length only, asked in random order so that sets fill,
        // evict and are asked again.
        const KEYS: &[&str] = &[
            "password",
            "passwor",
            "password_",
            "db_password",
            "token",
            "tokens",
            "max_tokens",
            "secret_name",
            "client_secret",
            "api_key",
            "apikey",
            "key",
            "key_id",
            "auth",
            "oauth",
            "auth.refresh",
            "level",
            "msg",
            "aws_secret_access_key",
            "aws_secret_access_keys",
            "AWS_SECRET_ACCESS_KEY_ID",
            "Authorization",
            "sig",
            "X-Amz-Signature",
            "SharedAccessKey",
            "AccountKey",
            "private_key",
            "public_key",
            "token.ts",
            "keys.ts",
            "KeyStore.load",
            "1password",
            "pwd",
            "db_pwd",
            "abcdefghijklmnopqrstuvw",
            "abcdefghijklmnopqrstuvwx",
        ];
        let mut state = 0x7e57_c0deu32;
        let mut cache = KeyCache::default();
        for _ in 0..20000 {
            let r = xorshift(&mut state);
            let mut k = KEYS[r as usize % KEYS.len()].as_bytes().to_vec();
            if r & 0x100 != 0 && !k.is_empty() {
                let at = (r >> 9) as usize % k.len();
                k[at] = b"aZ9_-.eBb0x"[(r >> 20) as usize % 11];
            }
            let tail = (r >> 24) as usize % 30;
            let mut text = b"x ".to_vec();
            let s = text.len();
            text.extend_from_slice(&k);
            let e = text.len();
            text.extend(std::iter::repeat_n(b'q', tail));
            assert_eq!(cache.classify(&text, s, e), classify_key(&k), "{:?}", String::from_utf8_lossy(&k));
        }
    }

    /// A way whose hash is the key's but whose key is another (two keys of one hash) is a miss, not that key's
    /// class: the cache is made to hold such a way, with a class the key does not have.
    #[test]
    fn key_cache_hits_only_on_the_whole_key() {
        for key in ["level", "auth.refresh", "secret_name_of_it_all", "password", "api_key"] {
            let text = format!("x {key} ");
            let (s, e) = (2, 2 + key.len());
            let mut cache = KeyCache::default();
            assert_eq!(cache.classify(text.as_bytes(), s, e), classify_key(key.as_bytes()));
            let other = classify_key(b"password").filter(|_| classify_key(key.as_bytes()).is_none());
            let mut filled = 0;
            for slot in cache.sets.iter_mut().flatten().filter(|slot| slot.len != 0) {
                slot.words[0] ^= 1 << 8; // another key of the same length, under the same tag
                slot.class = other;
                filled += 1;
            }
            assert_eq!(filled, 1, "{key}");
            for _ in 0..3 {
                assert_eq!(cache.classify(text.as_bytes(), s, e), classify_key(key.as_bytes()), "{key}");
            }
        }
    }
}
