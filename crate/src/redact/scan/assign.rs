//! `key <op> value` where the key names a secret: code, env files, YAML, query strings, `--flag value`, typed
//! declarations, ODBC `PWD=`, a YAML `value:` under a `- name:` that names a secret, and `Authorization` values.

use super::super::chars::*;
use super::super::command;
use super::super::keys::{bare_key, is_vendor, Family, KeyClass};
use super::super::rule::Rule;
use super::super::tokens::whole_token;
use super::super::values::{accept_credential, accept_value, is_mask_word, Mode};
use super::blocks::is_word;
use super::db_echo::is_key_echo;
use super::words::blanks_before;
use super::xml::xml_attribute_name;
use super::Scanner;

impl Scanner<'_, false> {
    /// `key: value`, `key:= value`, `scheme://…`, Windows-style `/p:SECRET`.
    pub(super) fn on_colon(&mut self, i: usize, key: (usize, usize)) -> usize {
        let b = self.b;
        if key.1 == i && self.slash_key(key) {
            if let Some(next) = self.slash_password(i) {
                return next;
            }
        }
        match b.get(i + 1) {
            Some(b'/') if b.get(i + 2) == Some(&b'/') => self.url(i, key),
            Some(b':') => i + 2,
            Some(b'=') => self.assignment(key, i, i + 2, false),
            _ => self.assignment(key, i, i + 1, false),
        }
    }

    /// `key = value`, `key == value`, `key => value`, and PostgreSQL's `Key (col)=(value)`.
    pub(super) fn on_equals(&mut self, i: usize, key: (usize, usize)) -> usize {
        let b = self.b;
        if is_key_echo(b, i) {
            return self.db_echo(i);
        }
        if is_comparison(b, i) {
            return i + 1;
        }
        match b.get(i + 1) {
            Some(b'=') => {
                let v = if b.get(i + 2) == Some(&b'=') { i + 3 } else { i + 2 };
                self.assignment(key, i, v, false)
            }
            Some(b'>') => self.assignment(key, i, i + 2, false),
            _ => self.assignment(key, i, i + 1, true),
        }
    }

    /// The value after `/p:` (see [`command::slash_password_key`]); not a list of properties (`msbuild
    /// /p:Configuration=Release`).
    fn slash_password(&mut self, i: usize) -> Option<usize> {
        let (vs, ve) = command::shell_word(self.b, i + 1)?;
        if self.b[vs..ve].contains(&b'=') {
            return None;
        }
        self.command_password(vs, ve)
    }

    /// `key <op> value` where the key names a secret. `plain_eq` is a lone `=` (the env-file operator).
    fn assignment(&mut self, key: (usize, usize), op: usize, vstart: usize, plain_eq: bool) -> usize {
        let b = self.b;
        if !has_key(key, op) {
            return op + 1;
        }
        let (ks, ke) = key;
        let gap = &b[ke..op];
        let short =
            gap.len() <= 4 && gap.iter().all(|c| matches!(c, b'"' | b'\'' | b'`' | b'\\' | b' ' | b'\t' | b']' | b'?'));
        // Operators aligned in a column (`"JWT_SECRET"      = …` in a Terraform plan): a closing quote, then blanks.
        let aligned = gap.len() <= 64 && {
            let blanks = gap.strip_prefix(b"\"").or_else(|| gap.strip_prefix(b"'")).unwrap_or(gap);
            blanks.iter().all(|&c| c == b' ' || c == b'\t')
        };
        if !short && !aligned {
            return op + 1;
        }
        // A typed declaration (`const API_KEY: &str = "…"`, `let token: string = '…'`, `var password string = "…"`):
        // the word before the operator is the type, the name is before it.
        let (ks, ke) = if is_type_word(&b[ks..ke]) {
            match typed_name(b, ks) {
                Some(name) => name,
                None => return op + 1,
            }
        } else {
            (ks, ke)
        };
        let k = &b[ks..ke];
        // `path:12:key: …` is grep's output: the path's last segment is no key.
        if b[op] == b':' && ks > 0 && b[ks - 1] == b'/' && {
            let d = run_len(b, vstart, |c| c.is_ascii_digit());
            d > 0 && b.get(vstart + d) == Some(&b':')
        } {
            return op + 1;
        }
        // (`classify_key` names no bare `key`: that is `bare_key`'s, so the lookup is skipped for it.)
        let bare = if k.len() == 3 { bare_key(k) } else { None };
        let kc = if bare.is_some() { None } else { self.keys.classify(b, ks, ke) };
        let odbc =
            || odbc_pwd(b, (ks, ke), op).then_some(KeyClass { rule: Rule::SecretAssignment, family: Family::Password });
        // A bare `key` is what the label before it names, if it names a secret.
        let mut one_part = false;
        let kc = match (kc, bare) {
            (None, Some(bare)) => {
                if self.bare_value_is_token(ks, vstart) {
                    return op + 1;
                }
                let (label, one_word) = self.label_before(ks, ke);
                one_part = one_word;
                Some(label.unwrap_or(bare))
            }
            (kc, _) => kc,
        };
        let Some(kc) = kc.or_else(|| self.named_by_sibling(ks, ke)).or_else(odbc) else {
            return op + 1;
        };
        if in_arn(b, ks) {
            return op + 1;
        }
        if ks >= 2 && &b[ks - 2..ks] == b"${" && b.get(vstart) == Some(&b'?') {
            return op + 1; // `${SESSION_SECRET:?required}`: the message shown when the variable is unset
        }
        if kc.family == Family::Authorization {
            return self.authorization(vstart, kc.rule).unwrap_or(op + 1);
        }
        let azure = kc.family == Family::Azure;
        let Some(v) = self.value_at(vstart, azure) else {
            return op + 1;
        };
        let value = &b[v.start..v.end];
        // After `acme key`, a value of one part: one of names joined by separators is read as after a bare `key`
        // (`with key: pip-Linux-…` is a cache key).
        let kc = match bare {
            Some(bare) if one_part && value.iter().any(|&c| matches!(c, b'-' | b'_' | b'.' | b'/' | b':')) => bare,
            _ => kc,
        };
        // Known token shapes and PEM blocks are named by their own rules, further along the main loop.
        if whole_token(value).is_some() || value.starts_with(b"-----BEGIN") {
            return op + 1;
        }
        // A bare value stops at `]`: `[MASKED]` is read as `[MASKED`; and before dots: `sk_test_...` as `sk_test_`.
        if value.first() == Some(&b'[') && b.get(v.end) == Some(&b']') && is_mask_word(&b[v.start..=v.end]) {
            return op + 1;
        }
        if starts_with_at(b, v.end, b"...") || starts_with_at(b, v.end, "…".as_bytes()) {
            return op + 1;
        }
        let env_line = plain_eq
            && gap.is_empty()
            && k.iter().all(|&c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_')
            && k.iter().any(u8::is_ascii_uppercase);
        let mode = if env_line || azure || (kc.family == Family::Password && in_connection_string(b, ks, value, v.end))
        {
            Mode::Literal
        } else if v.quoted {
            Mode::Quoted
        } else {
            Mode::Bare
        };
        if !accept_value(value, mode, kc.family) {
            return op + 1;
        }
        if !self.emit(v.start, v.end, kc.rule) {
            return op + 1;
        }
        // A Terraform plan shows a change as `"old" -> "new"`: the new value is the same key's.
        let after = v.end + usize::from(v.quoted);
        if starts_with_at(b, after, b" -> ") {
            if let Some(w) = self.value_at(after + 4, azure) {
                let next = &b[w.start..w.end];
                if w.quoted == v.quoted && whole_token(next).is_none() && accept_value(next, mode, kc.family) {
                    self.emit(w.start, w.end, kc.rule);
                    return w.end;
                }
            }
        }
        v.end
    }

    /// For a bare `key` whose run is `ks..ke`: what the label of up to three words before it on the line names, the
    /// words joined by single spaces (`api key`, `heroku api key`, `the vendor's browser key`), when not a bare key
    /// again. (Looked up in the key cache: a log repeats its labels.)
    #[inline(never)]
    fn label_before(&mut self, ks: usize, ke: usize) -> (Option<KeyClass>, bool) {
        let b = self.b;
        let mut ls = ks;
        let mut first = ks;
        for _ in 0..3 {
            if ls < 2 || b[ls - 1] != b' ' || !is_alnum(b[ls - 2]) {
                break;
            }
            ls = run_back(b, ls - 1, |c| is_alnum(c) || c == b'_' || c == b'-');
            if first == ks {
                first = ls;
            }
        }
        if ls == ks {
            return (None, false);
        }
        if let Some(kc) = self.keys.classify_cold(b, ls, ke).filter(|kc| !kc.family.by_shape()) {
            return (Some(kc), false);
        }
        // One word before, `acme key = …`: read as `acme_key = …` is, the value shaped as a credential, and of one
        // part (the second of the pair). With more words it is prose: `the key to the door is …`.
        let kc = self.keys.classify_cold(b, first, ke).filter(|kc| kc.family == Family::Labelled);
        (kc, kc.is_some())
    }

    /// For a bare `key` at `ks`: whether its value is a whole token or a PEM block, which the rest of
    /// [`assignment`](Self::assignment) turns away whatever label is before the key, unless that label is Azure's
    /// (`account key`, `shared access key`: a value read to `;`). Asked before the label is looked up: `key=<token>`
    /// is how tokens are passed around.
    fn bare_value_is_token(&self, ks: usize, vstart: usize) -> bool {
        let b = self.b;
        let prev = ks.checked_sub(1).filter(|&p| b[p] == b' ').map_or(ks, |p| run_back(b, p, is_b64url));
        if contains_ci(&b[prev..ks], b"acc") {
            return false;
        }
        self.value_at(vstart, false).is_some_and(|v| {
            let value = &b[v.start..v.end];
            whole_token(value).is_some() || value.starts_with(b"-----BEGIN")
        })
    }

    /// For the key `value` of a YAML name/value pair, what the name names (`- name: DB_PASSWORD` on the line before
    /// `  value: …`, as in Kubernetes env lists), when the two keys line up; the name must name a secret.
    fn named_by_sibling(&mut self, ks: usize, ke: usize) -> Option<KeyClass> {
        let b = self.b;
        if is_default_key(b, (ks, ke)) {
            return self.terraform_variable(ks);
        }
        if !is_value_key(b, (ks, ke)) {
            // `"the_value": "…"`: only a vendor's name before it on its line can name it.
            let from = ks.saturating_sub(256);
            let ls = from + b[from..ks].iter().rposition(|&c| c == b'\n').map_or(0, |p| p + 1);
            return ends_in_value(b, (ks, ke)).then(|| vendor_before(b, ls, ks)).flatten();
        }
        if let Some((ns, ne)) = xml_attribute_name(b, ks) {
            return self.keys.classify(b, ns, ne);
        }
        let from = ks.saturating_sub(512);
        let Some(nl) = b[from..ks].iter().rposition(|&c| c == b'\n') else { return vendor_before(b, from, ks) };
        let ls = from + nl + 1;
        if !b[ls..ks].iter().all(|&c| c == b' ') {
            return vendor_before(b, ls, ks);
        }
        let indent = ks - ls;
        let ps = from + b[from..ls - 1].iter().rposition(|&c| c == b'\n').map_or(0, |p| p + 1);
        let name_at = ps + indent;
        let lead = b.get(ps..name_at)?;
        let dash = lead.len() >= 2 && lead.ends_with(b"- ") && lead[..lead.len() - 2].iter().all(|&c| c == b' ');
        if !(dash || lead.iter().all(|&c| c == b' ')) || !starts_with_at(b, name_at, b"name:") {
            return None;
        }
        let mut ns = name_at + 5;
        while b.get(ns) == Some(&b' ') {
            ns += 1;
        }
        if matches!(b.get(ns), Some(b'"' | b'\'')) {
            ns += 1;
        }
        let ne = ns + run_len(b, ns, |c| is_alnum(c) || matches!(c, b'_' | b'-' | b'.'));
        self.keys.classify(b, ns, ne)
    }

    /// For the key `default` at `ks`: what the Terraform variable whose block it is in names (`variable "db_password"
    /// {` on a line before, no `}` between), when the name names a secret.
    #[inline(never)]
    fn terraform_variable(&mut self, ks: usize) -> Option<KeyClass> {
        let b = self.b;
        let from = ks.saturating_sub(256);
        let open = from + b[from..ks].iter().rposition(|&c| c == b'{')?;
        if b[open..ks].contains(&b'}') {
            return None;
        }
        let head = &b[from..open];
        let at = head.windows(10).rposition(|w| w == b"variable \"")?;
        let ns = from + at + 10;
        let ne = ns + run_len(b, ns, |c| is_alnum(c) || matches!(c, b'_' | b'-'));
        let rest = &b[ne..open];
        (rest.first() == Some(&b'"') && rest[1..].iter().all(|&c| c == b' '))
            .then(|| self.keys.classify_cold(b, ns, ne))?
    }

    /// The value after an operator, on the same line: quoted (`"…"`, `'…'`, `` `…` ``, or `\"…\"` inside
    /// JSON-escaped text) or bare (up to whitespace or `, ; & ) } ] " ' \`; Azure values run to `;`).
    pub(super) fn value_at(&self, p: usize, azure: bool) -> Option<Val> {
        let b = self.b;
        let n = b.len();
        let mut j = p;
        while j < n && j < p + 16 && (b[j] == b' ' || b[j] == b'\t') {
            j += 1;
        }
        let q = *b.get(j)?;
        if q == b'"' || q == b'\'' || q == b'`' {
            let s = j + 1;
            let mut k = s;
            while k < n && b[k] != q && b[k] != b'\n' {
                k += if b[k] == b'\\' { 2 } else { 1 };
            }
            if k >= n || b[k] != q {
                return None;
            }
            return Some(Val { start: s, end: k, quoted: true });
        }
        if q == b'\\' && b.get(j + 1) == Some(&b'"') {
            let s = j + 2;
            let mut k = s;
            while k + 1 < n && b[k] != b'\n' && !(b[k] == b'\\' && b[k + 1] == b'"') {
                k += 1;
            }
            if k + 1 >= n || b[k] != b'\\' {
                return None;
            }
            return Some(Val { start: s, end: k, quoted: true });
        }
        let s = j;
        let mut k = s;
        if azure {
            while k < n
                && !matches!(b[k], b';' | b'"' | b'\'' | b'`' | b'<' | b'>' | b'\\')
                && !b[k].is_ascii_whitespace()
            {
                k += 1;
            }
        } else {
            while k < n
                && !b[k].is_ascii_whitespace()
                && !matches!(b[k], b',' | b';' | b'&' | b')' | b'}' | b']' | b'"' | b'\'' | b'`' | b'\\')
            {
                k += 1;
            }
            while k > s && matches!(b[k - 1], b'.' | b':') {
                k -= 1; // end of a sentence
            }
        }
        (k > s).then_some(Val { start: s, end: k, quoted: false })
    }

    /// `Authorization: <scheme> <credential>` (or a bare credential): only the credential goes.
    fn authorization(&mut self, p: usize, rule: Rule) -> Option<usize> {
        let b = self.b;
        let mut j = p;
        while j < b.len() && j < p + 16 && (b[j] == b' ' || b[j] == b'\t') {
            j += 1;
        }
        if matches!(b.get(j), Some(b'"' | b'\'' | b'`')) {
            j += 1;
        } else if b.get(j) == Some(&b'\\') && b.get(j + 1) == Some(&b'"') {
            j += 2;
        }
        let (s, e) = auth_credential(b, j)?;
        let v = &b[s..e];
        let rule = whole_token(v).unwrap_or(rule);
        self.emit(s, e, rule).then_some(e)
    }
}

impl<const RAW: bool> Scanner<'_, RAW> {
    /// Whether `key`, right before a `:`, is `/p`, `-p`, `/pass`… (see [`command::slash_password_key`]). The byte
    /// test comes first and inline: it is asked of every `:` whose key names no secret (most stops in log text).
    #[inline]
    pub(super) fn slash_key(&self, key: (usize, usize)) -> bool {
        let b = self.b;
        let lead = key.0 > 0 && b[key.0 - 1] == b'/' || b[key.0] == b'-';
        lead && command::slash_password_key(b, key, |x| self.t().escaped(x))
    }
}

/// For a key `value` at `ks` (`"value": …`, `value=…`): a value drawn at random, when a vendor's name is written before
/// it on its line from `ls` (`vendor=algolia value=…`, `{"service": "pusher", "value": "…"}`).
fn vendor_before(b: &[u8], ls: usize, ks: usize) -> Option<KeyClass> {
    let from = ls.max(ks.saturating_sub(256));
    b[from..ks]
        .split(|&c| !is_alnum(c))
        .any(is_vendor)
        .then_some(KeyClass { rule: Rule::SecretAssignment, family: Family::Random })
}

/// Whether `key` is a run right before the operator at `op` (an assignment's first test).
#[inline]
pub(super) fn has_key(key: (usize, usize), op: usize) -> bool {
    key.0 < key.1 && key.1 <= op
}

/// `!=`, `<=`, `>=`, `==` at the `=` `i`: a comparison, not an assignment.
#[inline]
pub(super) fn is_comparison(b: &[u8], i: usize) -> bool {
    i > 0 && matches!(b[i - 1], b'!' | b'<' | b'>' | b'=')
}

/// A quoted or bare value after an assignment operator.
pub(super) struct Val {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) quoted: bool,
}

/// A type in a declaration between the name and `=` (`: &str`, `: string`, `: String`, Go's `string`).
#[inline]
pub(super) fn is_type_word(k: &[u8]) -> bool {
    matches!(k, b"str" | b"string" | b"String")
}

/// For the type word at `ts` (see [`is_type_word`]), the name it declares: before `:` (`NAME: &'static str`,
/// `name: String`), or right before it after `var` or `const` or at the start of a line (Go: `var name string`).
fn typed_name(b: &[u8], ts: usize) -> Option<(usize, usize)> {
    let blanks = |j: usize| blanks_before(b, j);
    let mut j = blanks(ts);
    if b[..j].ends_with(b"'static") {
        j = blanks(j - 7);
    }
    if j > 0 && b[j - 1] == b'&' {
        j = blanks(j - 1);
    }
    let colon = j > 0 && b[j - 1] == b':';
    if colon {
        j = blanks(j - 1);
    } else if j == ts {
        return None; // `name=string` is no declaration
    }
    let ns = run_back(b, j, is_word);
    if ns == j || b[ns].is_ascii_digit() {
        return None;
    }
    if !colon {
        let before = blanks(ns);
        let starts_line = before == 0 || b[before - 1] == b'\n' || b[before - 1] == b'(';
        if !(starts_line || b[..before].ends_with(b"var") || b[..before].ends_with(b"const")) {
            return None;
        }
    }
    Some((ns, j))
}

/// `PWD=` in an ODBC or ADO.NET connection string (`UID=ci;PWD=…;`), where it is the password: a `;` before the key
/// or after the value. A bare `PWD` is otherwise the working directory (`PWD=/home/ci`), which [`classify_key`]
/// keeps out.
pub(super) fn odbc_pwd(b: &[u8], key: (usize, usize), op: usize) -> bool {
    let (ks, ke) = key;
    if ke - ks != 3 || !b[ks..ke].eq_ignore_ascii_case(b"pwd") || b.get(op) != Some(&b'=') {
        return false;
    }
    let v = op + 1;
    let n = run_len(b, v, |c| !matches!(c, b';' | b'"' | b'\'' | b' ' | b'\n' | b'\r'));
    (ks > 0 && b[ks - 1] == b';') || (n > 0 && b.get(v + n) == Some(&b';'))
}

/// Whether the `Password=` whose key starts at `ks` and whose value `v` ends at `ve` is a field of a connection string
/// (`Server=db;User ID=app;Password=…;`, ODBC, ADO.NET): a `;` right before the key, or one right after the value with
/// another `Name=` behind it. What such a field holds is the password itself, a word too. Code has `;` there as well
/// (`user = c.user; password = c.password`, minified `;password=e.pw`): there a blank follows the `;`, or the value is
/// a name with dots.
fn in_connection_string(b: &[u8], ks: usize, v: &[u8], ve: usize) -> bool {
    if v.contains(&b'.') {
        return false;
    }
    if ks > 0 && b[ks - 1] == b';' {
        return true;
    }
    if b.get(ve) != Some(&b';') {
        return false;
    }
    let s = ve + 1;
    let n = run_len(b, s, |c| c.is_ascii_alphabetic() || c == b' ' || c == b'_');
    n > 0 && n <= 32 && b[s].is_ascii_alphabetic() && b.get(s + n) == Some(&b'=')
}

/// Whether the key starting at `ks` is a field of an ARN (`arn:aws:secretsmanager:…:secret:prod/db-password`): it
/// follows a `:` in a run of text that starts with `arn:`. Such a key names a kind of resource, and what follows it
/// is the resource's name.
fn in_arn(b: &[u8], ks: usize) -> bool {
    if ks == 0 || b[ks - 1] != b':' {
        return false;
    }
    let from = ks.saturating_sub(256);
    let start =
        b[from..ks].iter().rposition(|&c| c.is_ascii_whitespace() || matches!(c, b'"' | b'\'' | b'=' | b'(' | b','));
    let start = start.map_or(from, |p| from + p + 1);
    starts_with_ci(b, start, b"arn:")
}

/// Whether `key` is the word `value` or ends in `_value` (`the_value`), which a vendor's name before it may name (see
/// `Scanner::named_by_sibling`).
#[inline]
pub(super) fn ends_in_value(b: &[u8], key: (usize, usize)) -> bool {
    let (ks, ke) = key;
    ke - ks >= 5 && &b[ke - 5..ke] == b"value" && (ke - ks == 5 || b[ke - 6] == b'_')
}

/// Whether `key` is the word `default` (a Terraform variable's value, see `Scanner::terraform_variable`).
#[inline]
pub(super) fn is_default_key(b: &[u8], key: (usize, usize)) -> bool {
    key.1 - key.0 == 7 && &b[key.0..key.1] == b"default"
}

/// Whether `key` is the word `value` (the second half of a YAML name/value pair, see `Scanner::named_by_sibling`).
#[inline]
pub(super) fn is_value_key(b: &[u8], key: (usize, usize)) -> bool {
    key.1 - key.0 == 5 && &b[key.0..key.1] == b"value"
}

/// Finds the credential of an `Authorization` value starting at `j`: `<scheme> <credential>` or a bare credential.
/// Digest and AWS SigV4 values are lists of parameters; their secrets are found by the other rules.
pub fn auth_credential(b: &[u8], j: usize) -> Option<(usize, usize)> {
    let wl = run_len(b, j, |c| is_alnum(c) || c == b'-' || c == b'_');
    if wl == 0 {
        return None;
    }
    let we = j + wl;
    if b.get(we) == Some(&b' ') {
        let scheme = &b[j..we];
        if scheme.eq_ignore_ascii_case(b"digest") || starts_with_ci(scheme, 0, b"aws4-") || scheme.len() > 24 {
            return None;
        }
        let cs = we + 1;
        let cl = run_len(b, cs, is_cred);
        return accept_credential(&b[cs..cs + cl], 8).then_some((cs, cs + cl));
    }
    let cl = run_len(b, j, is_cred);
    accept_credential(&b[j..j + cl], 16).then_some((j, j + cl))
}
