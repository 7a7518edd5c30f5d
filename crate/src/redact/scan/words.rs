//! The handlers of word runs: token shapes, PEM armour, command-line options and flags, identifiers followed by a
//! value, quoted literals named by what comes before them, `Bearer`. Each trigger the raw scan must mirror is a
//! function of its own here (`is_long_flag`, `flag_key`, `password_word_before`, …), so that both read it alike.

use super::super::chars::*;
use super::super::command::{self, Look};
use super::super::keys::{bare_key, classify_key, might_name_secret, Family, KeyCache, KeyClass};
use super::super::rule::Rule;
use super::super::tokens::{aws_secret_near, may_be_named_lead, named_lead, token_in_run, whole_token};
use super::super::values::{accept_credential, accept_value, credential_shaped, is_uuid, Mode};
use super::blocks::is_word;
use super::blocks::Text;
use super::Scanner;

impl Scanner<'_, false> {
    /// The handlers of a word run that [`Scanner::word`] offers; where to resume, `None` for its end. The raw scan
    /// (`raw.rs`) mirrors this order of checks, one trigger at a time.
    pub(super) fn handle_word(&mut self, s: usize, e: usize, has_sep: bool) -> Option<usize> {
        let b = self.b;
        if b[s] == b'-' {
            if is_pem_begin(b, s) {
                return self.pem(s);
            }
            if command::may_be_option(&b[s..e]) {
                if let Some(next) = self.command_line(s, e) {
                    return Some(next);
                }
            }
            if is_long_flag(b, s, e) {
                return self.flag(s, e);
            }
        }
        let t = past_separators(b, s, e);
        if e - t >= 15 {
            if let Some((end, rule)) = token_in_run(b, t, e) {
                if self.emit(t, end, rule) {
                    let partner = if rule == Rule::AwsAccessKeyId {
                        aws_secret_near(b, end).map(|span| (span, Rule::AwsSecretAccessKey))
                    } else {
                        quoted_partner(b, t, end).map(|span| (span, Rule::SecretAssignment))
                    };
                    if let Some(((a, z), rule)) = partner {
                        if self.emit(a, z, rule) {
                            return Some(z);
                        }
                    }
                }
                return Some(end);
            }
            if has_sep && may_be_named_lead(e - t) {
                if let Some(end) = named_lead(b, t, e) {
                    if self.emit(t, end, Rule::GenericApiKey) {
                        return Some(end);
                    }
                }
            }
            if let Some((kinds, rule)) = webhook_host(&b[s..e]) {
                return self.webhook(e, kinds, rule);
            }
            if is_secure_string(&b[s..e]) {
                return self.secure_string(e);
            }
            if s > 0 && matches!(b[s - 1], b'\'' | b'"') && b.get(e) == Some(&b[s - 1]) {
                let named =
                    literal_named_before(b, s - 1).or_else(|| literal_labelled(b, s - 1).map(|f| (f, Mode::Quoted)));
                if let Some((family, mode)) = named {
                    // (A login call's password argument that is more than one lower-case word is read as quoted text
                    // is: `enter-your-password` is an instruction.)
                    let mode = if b[s..e].iter().all(u8::is_ascii_lowercase) { mode } else { Mode::Quoted };
                    if accept_value(&b[s..e], mode, family) && self.emit(s, e, Rule::SecretAssignment) {
                        return Some(e + 1);
                    }
                }
                if let Some(next) = self.literal_after_name(s, e) {
                    return Some(next);
                }
            }
            if password_word_before(self.t(), s) {
                // `password <value>` (`.netrc`), `requirepass <value>` (`redis.conf`): the value is the whole word.
                let ve = s + run_len(b, s, |c| !c.is_ascii_whitespace());
                if accept_value(&b[s..ve], Mode::Bare, Family::Password) && self.emit(s, ve, Rule::SecretAssignment) {
                    return Some(ve);
                }
            }
            if credential_label_before(self.t(), self.keys, s) {
                if let Some(next) = self.labelled_value(s) {
                    return Some(next);
                }
            }
            if let Some(next) = self.value_on_its_line(s).or_else(|| self.unseal_key(s)) {
                return Some(next);
            }
        }
        if has_sep && b.get(e) == Some(&b' ') {
            if let Some(next) = self.spaced(s, e) {
                return Some(next);
            }
        }
        if is_bearer(&b[s..e]) {
            return self.bearer(e);
        }
        if is_entry(&b[s..e]) {
            return self.mysql_duplicate(s, e);
        }
        None
    }

    /// For the quoted name `s..e` (a quote on each side) that names a secret, the quoted literal after the comma that
    /// follows it, whatever characters it holds (`os.environ.get('DJANGO_SECRET_KEY', 'k#9…')`, `define("AUTH_SECRET",
    /// "…")`), read as the name says; where to resume. A literal with a blank in it is no value.
    #[inline(never)]
    fn literal_after_name(&mut self, s: usize, e: usize) -> Option<usize> {
        let b = self.b;
        let j = e + 1 + run_len(b, e + 1, |c| c == b' ');
        if b.get(j) != Some(&b',') {
            return None;
        }
        let j = j + 1 + run_len(b, j + 1, |c| c == b' ');
        let q = *b.get(j).filter(|&&c| c == b'\'' || c == b'"')?;
        let vs = j + 1;
        let n = b[vs..].iter().take(512).position(|&c| c == q || c.is_ascii_whitespace())?;
        if b[vs + n] != q {
            return None;
        }
        let kc = self.keys.classify_cold(b, s, e)?;
        let ve = vs + n;
        (accept_value(&b[vs..ve], Mode::Quoted, kc.family) && self.emit(vs, ve, Rule::SecretAssignment))
            .then_some(ve + 1)
    }

    /// A value alone on its line under the words that name it (see [`label_line_before`]): `Please use the following
    /// password to proceed to installation:` (Jenkins), a blank line, the value. (`KEY=value` is an assignment of its
    /// own.) Where to resume.
    #[inline(never)]
    fn value_on_its_line(&mut self, s: usize) -> Option<usize> {
        let b = self.b;
        let family = label_line_before(self.t(), self.keys, s)?;
        let ve = s + run_len(b, s, |c| !c.is_ascii_whitespace());
        let alone = b.get(ve).is_none_or(|&c| c == b'\n' || c == b'\r') && !b[s..ve].contains(&b'=');
        (alone && accept_value(&b[s..ve], Mode::Bare, family) && self.emit(s, ve, Rule::SecretAssignment)).then_some(ve)
    }

    /// A Vault unseal or recovery key through the run at `s` (see [`unseal_key`]); where to resume.
    #[inline(never)]
    fn unseal_key(&mut self, s: usize) -> Option<usize> {
        let (vs, ve) = unseal_key::<false>(self.b, s)?;
        self.emit(vs, ve, Rule::VaultToken).then_some(ve)
    }

    /// `-----BEGIN … PRIVATE KEY-----` … `-----END …`: the body goes, the armour lines stay. Works on real
    /// newlines and on the literal `\n` escapes of a PEM quoted inside JSON text.
    fn pem(&mut self, s: usize) -> Option<usize> {
        let b = self.b;
        let mut j = s + 10;
        if b.get(j) != Some(&b' ') {
            return None;
        }
        j += 1;
        let ll = run_len(b, j, |c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b' ');
        if ll > 48 || find(&b[j..j + ll], b"PRIVATE KEY").is_none() || !starts_with_at(b, j + ll, b"-----") {
            return None;
        }
        let hdr_end = j + ll + 5;
        let window = &b[hdr_end..b.len().min(hdr_end + 65536)];
        let body_end = match find(window, b"-----END") {
            Some(k) => hdr_end + k,
            // Truncated output (`head id_rsa`): take what looks like key material.
            None => {
                let e = hdr_end
                    + run_len(b, hdr_end, |c| {
                        is_b64(c) || c.is_ascii_whitespace() || matches!(c, b'\\' | b':' | b',' | b'-')
                    });
                // Material that runs into a marker was seen before: a block whose body held a marker is left
                // whole, and redacting an echo of its END line afterwards must not make it look truncated.
                if starts_with_at(b, e, MARKER_PREFIX) {
                    return None;
                }
                e
            }
        };
        let (bs, be) = trim_pem(b, hdr_end, body_end);
        if be - bs < 16 || contains_marker(&b[bs..be]) {
            return None;
        }
        self.emit(bs, be, Rule::PrivateKey).then_some(be)
    }

    /// `mysql -pSECRET`, `curl -u user:SECRET`, `sshpass -p SECRET`, …: a password option of the program it is given
    /// to (see [`command`]), its value a literal (`-proot` is a password).
    /// Kept out of line: most runs that start with `-` are not options of this kind (`->`, `--git`), and inlined it
    /// made the scan of clean text slower.
    #[inline(never)]
    fn command_line(&mut self, s: usize, e: usize) -> Option<usize> {
        let Look::Yes { value, part } = self.option_look(s, e) else { return None };
        let (vs, ve) = command::shell_word(self.b, value)?;
        let (ps, pe) = command::password_in(self.b, vs, ve, part)?;
        self.command_password(ps, pe)
    }

    /// `b[ps..pe]`, given to a program as its password, unless it is a placeholder (`-p[password]`, `-p"$DB_PASS"`):
    /// the program names the value, so it is taken as a literal password.
    pub(super) fn command_password(&mut self, ps: usize, pe: usize) -> Option<usize> {
        let accepted = accept_value(&self.b[ps..pe], Mode::Literal, Family::Password);
        (accepted && self.emit(ps, pe, Rule::CommandLinePassword)).then_some(pe)
    }

    /// `--password hunter2`, `--token "…"`: a command-line flag naming a secret, its value after one space.
    fn flag(&mut self, s: usize, e: usize) -> Option<usize> {
        let kc = self.flag_key(s, e)?;
        self.value_after_space(kc, e, false)
    }

    /// `aws configure set aws_secret_access_key <value>`, `git config user.password <value>`: an identifier
    /// naming a secret, one space, and a value that looks random (mixed classes, 16+ characters). Prose ("the
    /// access_token expired") does not pass the value check.
    fn spaced(&mut self, s: usize, e: usize) -> Option<usize> {
        let kc = self.keys.classify(self.b, s, e)?;
        self.value_after_space(kc, e, true)
    }

    /// The value one space after the run ending at `e`, a flag or an identifier that names a secret (`kc`): redacted
    /// unless it is a known token (its own rule names it further on), an assignment of its own, or refused by the
    /// value filters; `shaped`: it must also look like a credential (an identifier's value, in prose).
    fn value_after_space(&mut self, kc: KeyClass, e: usize, shaped: bool) -> Option<usize> {
        if kc.family == Family::Authorization {
            return None;
        }
        let v = self.value_at(e + 1, false)?;
        if v.start != e + 1 + (v.quoted as usize) {
            return None;
        }
        let value = &self.b[v.start..v.end];
        let mode = if v.quoted { Mode::Quoted } else { Mode::Bare };
        if whole_token(value).is_some()
            || is_assignment(value)
            || !accept_value(value, mode, kc.family)
            || (shaped && !accept_credential(value, 16))
        {
            return None;
        }
        self.emit(v.start, v.end, kc.rule).then_some(v.end)
    }

    /// PowerShell's `ConvertTo-SecureString "…" -AsPlainText` (or `-String "…"`): a password written into a script.
    fn secure_string(&mut self, e: usize) -> Option<usize> {
        let b = self.b;
        let line_end = e + b[e..].iter().position(|&c| c == b'\n').unwrap_or(b.len() - e);
        let line = &b[e..line_end];
        if !contains_ci(line, b"-AsPlainText") {
            return None;
        }
        let mut j = e + run_len(b, e, |c| c == b' ');
        if b.len() > j + 7 && b[j..j + 7].eq_ignore_ascii_case(b"-String") {
            j += 7;
        }
        let v = self.value_at(j, false)?;
        if !v.quoted || v.end > line_end {
            return None;
        }
        self.command_password(v.start, v.end)
    }

    /// `https://hooks.slack.com/services/T…/B…/…`, a Teams or Discord webhook: the path after the kind is the secret.
    /// `e`: the end of the host, `kinds`: the paths that start a webhook's there.
    pub(super) fn webhook(&mut self, e: usize, kinds: &[&[u8]], rule: Rule) -> Option<usize> {
        let b = self.b;
        let kind = kinds.iter().find(|k| starts_with_at(b, e, k))?;
        let s = e + kind.len();
        let n = run_len(b, s, |c| is_alnum(c) || matches!(c, b'/' | b'_' | b'-' | b'@'));
        (n >= 20 && self.emit(s, s + n, rule)).then_some(s + n)
    }

    /// `acme SECRET <value>`, `widgetApiKey <value>`: a label that names a credential and a blank, no operator, before
    /// a value shaped as one. (Out of line, as the rest of the rare handlers: inlined, it slowed the scan of clean
    /// text.)
    #[inline(never)]
    fn labelled_value(&mut self, s: usize) -> Option<usize> {
        let b = self.b;
        let ve = s + run_len(b, s, |c| is_b64url(c) || matches!(c, b'.' | b'+' | b'/' | b'='));
        let v = &b[s..ve];
        // (A UUID after a label that says which credential, `acme secret <uuid>`; after a bare `key` it is an id.)
        let bare_key = b[s - 4..s - 1].eq_ignore_ascii_case(b"key") && (s == 4 || !is_word(b[s - 5]));
        let uuid = || is_uuid(v) && !bare_key;
        ((credential_shaped(v) || uuid()) && self.emit(s, ve, Rule::SecretAssignment)).then_some(ve)
    }

    /// `Bearer <credential>` outside an `Authorization` header (`curl` lines, logged request objects).
    fn bearer(&mut self, e: usize) -> Option<usize> {
        let b = self.b;
        if b.get(e) != Some(&b' ') {
            return None;
        }
        let s = e + 1;
        let n = run_len(b, s, is_cred);
        let v = &b[s..s + n];
        if !accept_credential(v, 16) {
            return None;
        }
        let rule = whole_token(v).unwrap_or(Rule::BearerToken);
        self.emit(s, s + n, rule).then_some(s + n)
    }
}

impl<const RAW: bool> Scanner<'_, RAW> {
    /// For a flag run `--name` (see [`is_long_flag`]) followed by a space: what `name` names, when a secret.
    pub(super) fn flag_key(&mut self, s: usize, e: usize) -> Option<KeyClass> {
        if self.b.get(e) != Some(&b' ') {
            return None;
        }
        self.keys.classify(self.b, s + 2, e)
    }

    /// What [`command::option_at`] says of the run `s..e` (it starts with `-`).
    pub(super) fn option_look(&self, s: usize, e: usize) -> Look {
        let t = self.t();
        command::option_at(self.b, s, e, |x| t.escaped(x))
    }
}

/// `-----BEGIN`: the armour line of a PEM block (the run starts at `s`).
#[inline]
pub(super) fn is_pem_begin(b: &[u8], s: usize) -> bool {
    starts_with_at(b, s, b"-----BEGIN")
}

/// A run `--name` long enough to be a flag (`--git` and shorter are not looked at).
#[inline]
pub(super) fn is_long_flag(b: &[u8], s: usize, e: usize) -> bool {
    e - s > 4 && b[s + 1] == b'-'
}

/// Where the run `s..e` starts once its leading separators are passed over (`.`/`_`/`-` before a token).
#[inline]
pub(super) fn past_separators(b: &[u8], s: usize, e: usize) -> usize {
    let mut t = s;
    while t < e && matches!(b[t], b'.' | b'-' | b'_') {
        t += 1;
    }
    t
}

/// The paths that start a webhook at its host, and the rule that names it.
pub(super) type Webhook = (&'static [&'static [u8]], Rule);

/// The hosts of webhooks whose URL is their secret (Slack; Microsoft Teams' incoming webhooks, old and new hosts;
/// Discord), with the paths that start a webhook there and the rule that names it.
#[inline]
pub(super) fn webhook_host(run: &[u8]) -> Option<Webhook> {
    // (Each host ends in `.com`: most runs are turned away by one look at their last four bytes.)
    if run.len() < 11 || !run.ends_with(b".com") {
        return None;
    }
    webhook_host_com(run)
}

#[inline(never)]
fn webhook_host_com(run: &[u8]) -> Option<Webhook> {
    const SLACK: &[&[u8]] = &[b"/services/", b"/workflows/", b"/triggers/"];
    const TEAMS: &[&[u8]] = &[b"/webhook/", b"/webhookb2/"];
    const DISCORD: &[&[u8]] = &[b"/api/webhooks/"];
    if run == b"hooks.slack.com" {
        Some((SLACK, Rule::SlackWebhook))
    } else if run == b"outlook.office.com" || run.ends_with(b".webhook.office.com") {
        Some((TEAMS, Rule::WebhookUrl))
    } else if run == b"discord.com" || run == b"discordapp.com" || run.ends_with(b".discord.com") {
        Some((DISCORD, Rule::WebhookUrl))
    } else {
        None
    }
}

/// The cmdlet that turns a literal into a PowerShell secure string.
#[inline]
pub(super) fn is_secure_string(run: &[u8]) -> bool {
    run.eq_ignore_ascii_case(b"ConvertTo-SecureString")
}

/// `Bearer`, in any case.
#[inline]
pub(super) fn is_bearer(run: &[u8]) -> bool {
    run.len() == 6 && run.eq_ignore_ascii_case(b"bearer")
}

/// MySQL's `Duplicate entry` names its value after `entry`.
#[inline]
pub(super) fn is_entry(run: &[u8]) -> bool {
    run == b"entry"
}

/// For the run starting at `s` that begins a line: what the line before it (blank lines between) says the run is, a
/// value printed under the words that name it. A line ending in `:` that names a password (`Please use the following
/// password to proceed to installation:`) makes it a password; one ending in a label that names a credential, `:` or
/// not (`Your API key:`, `acme private access key`), a value shaped as one. In raw JSON text (`RAW`), where line
/// breaks are escapes, a looser look ([`raw_label_line_before`]; the decoded text decides).
pub(super) fn label_line_before<const RAW: bool>(t: Text<RAW>, keys: &mut KeyCache, s: usize) -> Option<Family> {
    let b = t.b;
    if s == 0 {
        return None;
    }
    if RAW {
        return raw_label_line_before(t, s).then_some(Family::Labelled);
    }
    let j = run_back(b, s, |c| c == b' ' || c == b'\t');
    if j == 0 || b[j - 1] != b'\n' {
        return None;
    }
    let k = run_back(b, j, |c| c.is_ascii_whitespace());
    if k == 0 {
        return None;
    }
    let from = k.saturating_sub(256);
    let ls = from + b[from..k].iter().rposition(|&c| c == b'\n').map_or(0, |p| p + 1);
    let colon = b[k - 1] == b':';
    if colon && contains_ci(&b[ls..k], b"password") {
        return Some(Family::Password);
    }
    let le = k - usize::from(colon);
    let word_start = |e: usize| run_back(b, e, is_word);
    let lw = word_start(le).max(ls);
    // The label is a word of letters, in a line of prose: `-----BEGIN PRIVATE KEY-----` is armour, and in a command
    // (`$ git config user.signingkey`, `printenv | grep -i key`) or code the next line is output, not its value.
    let command = matches!(b[ls], b'$' | b'>' | b'#') || b[ls..k].contains(&b'|');
    if lw == le || command || !b[lw..le].iter().all(u8::is_ascii_alphabetic) {
        return None;
    }
    let before = if lw > ls + 1 && b[lw - 1] == b' ' { &b[word_start(lw - 1).max(ls)..lw - 1] } else { &[][..] };
    keys.credential_label(b, lw, le, || before).then_some(Family::Labelled)
}

/// [`label_line_before`] in raw JSON text: the same looks back over blanks and the escapes `\n`, `\r`, `\t`, then at
/// the end of the line before: `:` with `password` in the 512 bytes before (a decoded line of 256 bytes, its escapes
/// counted twice), or a word, `:` or not, that may name a secret. Another escape there leaves it to the decoded text.
fn raw_label_line_before<const RAW: bool>(t: Text<RAW>, s: usize) -> bool {
    let b = t.b;
    let (mut j, mut newline) = (s, false);
    while j > 0 {
        let x = j - 1;
        if b[x] == b' ' {
            j -= 1;
        } else if x > 0 && t.escaped(x) && matches!(b[x], b'n' | b'r' | b't') {
            newline |= b[x] != b't';
            j -= 2;
        } else {
            break;
        }
    }
    if !newline || j == 0 {
        return false;
    }
    let k = j - 1;
    if t.escaped(k) {
        return true;
    }
    // (A label of more than 64 bytes names nothing.)
    let word_names = |e: usize| {
        let mut w = e;
        while w > 0 && t.word_at(w - 1) && e - w < 64 {
            w -= 1;
        }
        might_name_secret(&b[w..e])
    };
    match b[k] {
        b':' => contains_ci(&b[j.saturating_sub(512)..j], b"password") || word_names(k),
        c if is_alnum(c) => word_names(j),
        _ => false,
    }
}

/// HashiCorp Vault's unseal and recovery keys where Vault prints them (`vault operator init`: `Unseal Key 1: <base64>`,
/// `Recovery Key 2: …`) and where they are given back (`vault operator unseal <key>`): the base64 word through the run
/// at `s`, 40 characters or more (a key share is 33 bytes). In raw JSON text (`RAW`) a backslash is taken as part of
/// the word, so that an escaped `\/` does not hide the label.
/// Longer than any unseal or recovery key as Vault prints it (base64 of at most 64 bytes, escapes included).
const UNSEAL_KEY_MAX: usize = 192;

pub(super) fn unseal_key<const RAW: bool>(b: &[u8], s: usize) -> Option<(usize, usize)> {
    let part = |c: u8| is_b64(c) || c == b'=' || (RAW && c == b'\\');
    // A key is a few dozen characters: the look back stops past any key's length, so a long run of such bytes
    // (binary output read as text) costs each start a bounded look, not the whole run again.
    let floor = s.saturating_sub(UNSEAL_KEY_MAX);
    let vs = floor + run_back(&b[floor..], s - floor, part);
    if vs == floor && floor > 0 && part(b[floor - 1]) {
        return None;
    }
    // (The label first, a few looks: most runs are after a blank and a word that is none of them, and a `:` after
    // no digit, `go: `, is no key's number.)
    if vs < 13 || b[vs - 1] != b' ' || !(b[vs - 2] == b'l' || (b[vs - 2] == b':' && b[vs - 3].is_ascii_digit())) {
        return None;
    }
    let before = &b[..vs - 1];
    let unseal = before.ends_with(b"operator unseal");
    let printed = !unseal && before.ends_with(b":") && {
        let d = run_back(b, vs - 2, |c| c.is_ascii_digit());
        d < vs - 2 && (b[..d].ends_with(b"Unseal Key ") || b[..d].ends_with(b"Recovery Key "))
    };
    if !(unseal || printed) {
        return None;
    }
    let ve = s + run_len(b, s, part);
    (ve - vs >= 40).then_some((vs, ve))
}

/// Whether the run starting at `s` follows `password `, `passwd `, `requirepass ` or `masterauth ` (see
/// [`is_password_word`]).
#[inline]
pub(super) fn password_word_before<const RAW: bool>(t: Text<RAW>, s: usize) -> bool {
    // (Each of the words ends in `d`, `s` or `h`: one look turns most words away.)
    s > 1 && t.b[s - 1] == b' ' && matches!(t.b[s - 2] | 0x20, b'd' | b's' | b'h') && is_password_word(t, s - 1)
}

/// Whether the run starting at `s` follows a label that names a credential and a blank, with no operator (see
/// [`names_credential_label`](super::super::keys::names_credential_label)); the word before the label is read too
/// (`public key …` is no credential).
#[inline]
pub(super) fn credential_label_before<const RAW: bool>(t: Text<RAW>, keys: &mut KeyCache, s: usize) -> bool {
    after_word(t, s) && label_names_credential(t, keys, t.word_start(s - 1), s)
}

/// Whether the run starting at `s` follows a word and a blank, as a label's value does (see
/// [`credential_label_before`]).
#[inline]
pub(super) fn after_word<const RAW: bool>(t: Text<RAW>, s: usize) -> bool {
    s >= 4 && t.b[s - 1] == b' ' && t.word_at(s - 2)
}

/// Whether the word `ls..s - 1` (a blank follows it, then the run at `s`) is a label that names a credential (see
/// [`credential_label_before`]).
#[inline(never)]
pub(super) fn label_names_credential<const RAW: bool>(t: Text<RAW>, keys: &mut KeyCache, ls: usize, s: usize) -> bool {
    let word_back = |e: usize| t.word_start(e);
    // (The word before is read only for a label that names a credential.)
    keys.credential_label(t.b, ls, s - 1, || {
        if ls > 1 && t.b[ls - 1] == b' ' {
            &t.b[word_back(ls - 1)..ls - 1]
        } else {
            &[][..]
        }
    })
}

/// For a long quoted literal (its opening quote at `q`), whether what comes before it says it is a secret:
/// - a quoted name that names one, and a comma: `define('DB_PASSWORD', '…')`, `os.Setenv("DD_API_KEY", "…")`;
/// - SQL: `IDENTIFIED BY '…'`, `PASSWORD '…'`;
/// - the password argument of a call that logs in: the second of `login('user', '…')`, `NetworkCredential("u",
///   "…")`, `HTTPBasicAuth`, …; the third of `new PDO($dsn, 'user', '…')`, `DBI->connect($dsn, 'user', '…')`,
///   `mysqli_connect`, … (the argument before it a quoted user name).
///
/// Returns the family of the secret the literal is, and how strictly to read it: the password argument of a login
/// call is one whatever it looks like (a word too, as passwords may be), so it is read as a JSON literal is.
fn literal_named_before(b: &[u8], q: usize) -> Option<(Family, Mode)> {
    const LOGIN: [&[u8]; 9] = [
        b"login",
        b"authenticate",
        b"NetworkCredential",
        b"HTTPBasicAuth",
        b"HTTPDigestAuth",
        b"BasicAuth",
        b"UsernamePasswordCredentials",
        b"PasswordAuthentication",
        b"PasswordCredential",
    ];
    const CONNECT: [&[u8]; 5] = [b"PDO", b"connect", b"mysqli", b"mysqli_connect", b"mysql_connect"];
    let blanks = |j: usize| blanks_before(b, j);
    // A literal quoted twice, `'"…"'`, is a string literal for generated code (Gradle's `buildConfigField 'String',
    // 'API_KEY', '"…"'`): the outer quote is the argument's.
    let q = if q > 0 && matches!((b[q - 1], b[q]), (b'\'', b'"') | (b'"', b'\'')) { q - 1 } else { q };
    let j = blanks(q);
    if j >= 13 && b[j - 13..j].eq_ignore_ascii_case(b"IDENTIFIED BY") {
        return Some((Family::Password, Mode::Quoted));
    }
    if j >= 9 && b[j - 8..j].eq_ignore_ascii_case(b"PASSWORD") && b[j - 9] == b' ' {
        return Some((Family::Password, Mode::Quoted));
    }
    if j == 0 || b[j - 1] != b',' {
        return None;
    }
    // The argument before: a quoted literal (a name that names a secret, or a user name).
    let k = blanks(j - 1);
    let close = *b.get(k.checked_sub(1)?)?;
    if close != b'\'' && close != b'"' {
        return None;
    }
    let open = k - 1 - b[..k - 1].iter().rev().take(64).position(|&c| c == close)? - 1;
    let name = &b[open + 1..k - 1];
    if let Some(kc) = classify_key(name) {
        return Some((kc.family, Mode::Quoted));
    }
    // Which argument the literal is: count the commas back to the call's `(`.
    let mut args = 1;
    let mut i = blanks(open);
    loop {
        match *b.get(i.checked_sub(1)?)? {
            b'(' => break,
            b',' => args += 1,
            b'\n' | b';' | b')' => return None,
            // A quoted argument (`DBI->connect("dbi:Pg:…", …)`) is passed over whole.
            c @ (b'"' | b'\'') => i -= b[..i - 1].iter().rev().take(256).position(|&x| x == c)? + 1,
            _ => {}
        }
        if args > 2 || q - i > 256 {
            return None;
        }
        i -= 1;
    }
    let f = blanks(i - 1);
    let fs = run_back(b, f, |c| is_alnum(c) || c == b'_');
    let func = &b[fs..f];
    let login = args == 1 && LOGIN.contains(&func);
    let connect = args == 2 && CONNECT.contains(&func);
    (login || connect).then_some((Family::Password, Mode::Literal))
}

/// For a long quoted literal (its opening quote at `q`), a label right before it and a blank, with no operator: a word
/// that names a secret, a bare `key` or a vendor's name (`token '…'`, `sid 'AC…' token '…'`, `app '…' key '…'`).
/// Without an operator the label is weaker evidence: its value is read as [`Family::Listed`] (a password's as a
/// password's, a bare key's as [`Family::Random`]). The label ends in a letter, as the raw scan's trigger
/// (`quoted_after_comma_or_word`) assumes.
fn literal_labelled(b: &[u8], q: usize) -> Option<Family> {
    let j = blanks_before(b, q);
    if j == q || j == 0 || !b[j - 1].is_ascii_alphabetic() {
        return None;
    }
    let word = &b[run_back(b, j, |c| is_alnum(c) || c == b'_' || c == b'-')..j];
    let kc = classify_key(word).or_else(|| bare_key(word))?;
    Some(match kc.family {
        Family::Password | Family::Random => kc.family,
        _ => Family::Listed,
    })
}

/// After a known token quoted at `t..end` (`'AC…'`), the next quoted argument of the same list (`Client('AC…',
/// '…')`): the other half of a two-part credential, when it passes as [`Family::Listed`].
fn quoted_partner(b: &[u8], t: usize, end: usize) -> Option<(usize, usize)> {
    let q = *b.get(end)?;
    if t == 0 || b[t - 1] != q || !matches!(q, b'\'' | b'"') {
        return None;
    }
    let mut j = end + 1;
    while b.get(j) == Some(&b' ') {
        j += 1;
    }
    if b.get(j) != Some(&b',') {
        return None;
    }
    j += 1;
    while b.get(j) == Some(&b' ') {
        j += 1;
    }
    let q2 = *b.get(j)?;
    if !matches!(q2, b'\'' | b'"') {
        return None;
    }
    let vs = j + 1;
    let n = run_len(b, vs, |c| is_b64url(c) || c == b'+' || c == b'/' || c == b'=');
    let ve = vs + n;
    (b.get(ve) == Some(&q2) && accept_value(&b[vs..ve], Mode::Quoted, Family::Listed)).then_some((vs, ve))
}

/// Where the spaces and tabs that end at `j` start.
pub(super) fn blanks_before(b: &[u8], j: usize) -> usize {
    run_back(b, j, |c| c == b' ' || c == b'\t')
}

/// Whether the word that ends at `sp` (a space follows it) is `password`, `passwd` (`.netrc`), `requirepass` or
/// `masterauth` (`redis.conf`), in any case, a word of its own. For a value of 15 word characters or more after it
/// and the space (shorter values are never looked at: see `Block`).
fn is_password_word<const RAW: bool>(t: Text<RAW>, sp: usize) -> bool {
    // (Raw: an escape's second byte, the `n` of `\n`, is no word byte: the decoded text has a newline there.)
    let ws = t.word_start(sp);
    [&b"password"[..], b"passwd", b"requirepass", b"masterauth"].iter().any(|k| t.b[ws..sp].eq_ignore_ascii_case(k))
}

/// Whether a value read after a key and a space is itself an assignment, `NAME=value` (`TWINE_USERNAME=__token__
/// TWINE_PASSWORD=…`: the value of `__token__` is not `TWINE_PASSWORD=…`; the assignment is taken on its own). Base64
/// padding (`…==`) is not an operator.
fn is_assignment(v: &[u8]) -> bool {
    let Some(q) = v.iter().position(|&c| c == b'=') else { return false };
    q > 0
        && (v[0].is_ascii_alphabetic() || v[0] == b'_')
        && v[..q].iter().all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'))
        && v[q..].iter().any(|&c| c != b'=')
}

fn trim_pem(b: &[u8], mut s: usize, mut e: usize) -> (usize, usize) {
    let esc = |c: u8| matches!(c, b'n' | b'r' | b't');
    loop {
        if s < e && b[s].is_ascii_whitespace() {
            s += 1;
        } else if e - s >= 2 && b[s] == b'\\' && esc(b[s + 1]) {
            s += 2;
        } else {
            break;
        }
    }
    loop {
        if e > s && b[e - 1].is_ascii_whitespace() {
            e -= 1;
        } else if e - s >= 2 && b[e - 2] == b'\\' && esc(b[e - 1]) {
            e -= 2;
        } else {
            break;
        }
    }
    (s, e)
}
