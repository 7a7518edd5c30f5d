//! The single pass over free text.
//!
//! One loop walks the bytes with a 256-entry class table. Runs of token characters (`[A-Za-z0-9_.-]`) are
//! checked against the prefix-anchored token shapes only at their start; the three punctuation bytes `:`, `=`
//! and `[` are the only other stops: `:`/`=` look back at the run just before (a key naming a secret, a URL
//! scheme, a database key echo) and `[` skips markers left by an earlier pass. Everything else costs one table
//! lookup per byte. Spans come out sorted and disjoint, because every handler returns a resume position at or
//! past the end of what it redacted.

use super::rules::*;

/// One redaction: `start..end` (byte offsets into the scanned text, on character boundaries) becomes a marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    pub start: usize,
    pub end: usize,
    pub rule: Rule,
}

/// Bit 0: part of a word run. Bit 1: a separator inside a run (`_ - .`). Bit 2: punctuation that stops.
const WORD: u8 = 1;
const SEP: u8 = 3;
const STOP: u8 = 4;

static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        if b.is_ascii_alphanumeric() {
            t[c] = WORD;
        } else if b == b'_' || b == b'-' || b == b'.' {
            t[c] = SEP;
        }
        c += 1;
    }
    t[b':' as usize] = STOP;
    t[b'=' as usize] = STOP;
    t[b'[' as usize] = STOP;
    t
};

/// A quoted or bare value after an assignment operator.
struct Val {
    start: usize,
    end: usize,
    quoted: bool,
}

pub struct Scanner<'a> {
    b: &'a [u8],
    text: &'a str,
    allowed: &'a dyn Fn(&str) -> bool,
    pub out: Vec<Found>,
    /// Markers already present in the input (`[REDACTED:…]`), which user patterns must not touch either.
    pub markers: Vec<(usize, usize)>,
    floor: usize,
}

impl<'a> Scanner<'a> {
    pub fn new(text: &'a str, allowed: &'a dyn Fn(&str) -> bool) -> Self {
        Scanner { b: text.as_bytes(), text, allowed, out: Vec::new(), markers: Vec::new(), floor: 0 }
    }

    /// Records a redaction unless it overlaps an earlier one, is not on character boundaries, or is allow-listed.
    fn emit(&mut self, start: usize, end: usize, rule: Rule) -> bool {
        if start < self.floor || end <= start {
            return false;
        }
        match self.text.get(start..end) {
            Some(s) if !(self.allowed)(s) => {
                self.out.push(Found { start, end, rule });
                self.floor = end;
                true
            }
            _ => false,
        }
    }

    pub fn run(&mut self) {
        let b = self.b;
        let n = b.len();
        let mut i = 0;
        let mut key = (0usize, 0usize);
        while i < n {
            let c = CLASS[b[i] as usize];
            if c == 0 {
                i += 1;
                continue;
            }
            if c & WORD != 0 {
                let s = i;
                let mut acc = c;
                i += 1;
                while i < n {
                    let c = CLASS[b[i] as usize];
                    if c & WORD == 0 {
                        break;
                    }
                    acc |= c;
                    i += 1;
                }
                key = (s, i);
                if let Some(next) = self.on_word(s, i, acc & 2 != 0) {
                    i = next.max(s + 1);
                }
                continue;
            }
            let next = match b[i] {
                b'[' => self.on_bracket(i),
                b':' => self.on_colon(i, key),
                _ => self.on_equals(i, key),
            };
            i = next.max(i + 1);
        }
    }

    // -----------------------------------------------------------------------------------------------------------
    // Word runs

    fn on_word(&mut self, s: usize, e: usize, has_sep: bool) -> Option<usize> {
        let b = self.b;
        if b[s] == b'-' {
            if starts_with_at(b, s, b"-----BEGIN") {
                return self.pem(s);
            }
            if e - s > 4 && b[s + 1] == b'-' {
                return self.flag(s, e);
            }
        }
        let mut t = s;
        while t < e && matches!(b[t], b'.' | b'-' | b'_') {
            t += 1;
        }
        if e - t >= 15 {
            if let Some((end, rule)) = token_at(b, t) {
                if self.emit(t, end, rule) && rule == Rule::AwsAccessKeyId {
                    if let Some((a, z)) = aws_secret_near(b, end) {
                        if self.emit(a, z, Rule::AwsSecretAccessKey) {
                            return Some(z);
                        }
                    }
                }
                return Some(end);
            }
            if &b[s..e] == b"hooks.slack.com" {
                return self.slack_webhook(e);
            }
        }
        if has_sep && b.get(e) == Some(&b' ') {
            if let Some(next) = self.spaced(s, e) {
                return Some(next);
            }
        }
        if e - s == 6 && b[s..e].eq_ignore_ascii_case(b"bearer") {
            return self.bearer(e);
        }
        if e - s == 5 && &b[s..e] == b"entry" {
            return self.mysql_duplicate(s, e);
        }
        None
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
                hdr_end
                    + run_len(b, hdr_end, |c| {
                        is_b64(c) || c.is_ascii_whitespace() || matches!(c, b'\\' | b':' | b',' | b'-')
                    })
            }
        };
        let (bs, be) = trim_pem(b, hdr_end, body_end);
        if be - bs < 16 || contains_marker(&b[bs..be]) {
            return None;
        }
        self.emit(bs, be, Rule::PrivateKey).then_some(be)
    }

    /// `--password hunter2`, `--token "…"`: a command-line flag naming a secret, its value after one space.
    fn flag(&mut self, s: usize, e: usize) -> Option<usize> {
        let b = self.b;
        if b.get(e) != Some(&b' ') {
            return None;
        }
        let kc = classify_key(&b[s + 2..e])?;
        if kc.family == Family::Authorization {
            return None;
        }
        let v = self.value_at(e + 1, false)?;
        if v.start != e + 1 + (v.quoted as usize) {
            return None;
        }
        let mode = if v.quoted { Mode::Quoted } else { Mode::Bare };
        if whole_token(&b[v.start..v.end]).is_some() || !accept_value(&b[v.start..v.end], mode, kc.family) {
            return None;
        }
        self.emit(v.start, v.end, kc.rule).then_some(v.end)
    }

    /// `aws configure set aws_secret_access_key <value>`, `git config user.password <value>`: an identifier
    /// naming a secret, one space, and a value that looks random (mixed classes, 16+ characters). Prose ("the
    /// access_token expired") does not pass the value check.
    fn spaced(&mut self, s: usize, e: usize) -> Option<usize> {
        let b = self.b;
        let kc = classify_key(&b[s..e])?;
        if kc.family == Family::Authorization {
            return None;
        }
        let v = self.value_at(e + 1, false)?;
        if v.start != e + 1 + (v.quoted as usize) {
            return None;
        }
        let value = &b[v.start..v.end];
        let mode = if v.quoted { Mode::Quoted } else { Mode::Bare };
        if whole_token(value).is_some() || !accept_value(value, mode, kc.family) || !accept_credential(value, 16) {
            return None;
        }
        self.emit(v.start, v.end, kc.rule).then_some(v.end)
    }

    /// `https://hooks.slack.com/services/T…/B…/…`: the path after the kind is the secret.
    fn slack_webhook(&mut self, e: usize) -> Option<usize> {
        let b = self.b;
        let kind = [&b"/services/"[..], b"/workflows/", b"/triggers/"].into_iter().find(|k| starts_with_at(b, e, k))?;
        let s = e + kind.len();
        let n = run_len(b, s, |c| is_alnum(c) || matches!(c, b'/' | b'_' | b'-'));
        (n >= 20 && self.emit(s, s + n, Rule::SlackWebhook)).then_some(s + n)
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

    /// MySQL: `Duplicate entry 'value' for key 'users.password'` — redacted when the key names a secret.
    fn mysql_duplicate(&mut self, s: usize, e: usize) -> Option<usize> {
        let b = self.b;
        if s < 10 || &b[s - 10..s] != b"Duplicate " || !starts_with_at(b, e, b" '") {
            return None;
        }
        let vs = e + 2;
        let window = &b[vs..b.len().min(vs + 4096)];
        let k = find(window, b"' for key '")?;
        let ks = vs + k + 11;
        let kl = run_len(b, ks, |c| c != b'\'' && c != b'\n');
        let key = &b[ks..ks + kl];
        let name = key.rsplit(|&c| c == b'.').next().unwrap_or(key);
        classify_key(name)?;
        let v = &b[vs..vs + k];
        if v.is_empty() || contains_marker(v) || v.contains(&b'\n') {
            return None;
        }
        self.emit(vs, vs + k, Rule::DbKeyEcho).then_some(vs + k)
    }

    // -----------------------------------------------------------------------------------------------------------
    // Punctuation

    fn on_bracket(&mut self, i: usize) -> usize {
        let b = self.b;
        if starts_with_at(b, i, MARKER_PREFIX) {
            let s = i + MARKER_PREFIX.len();
            let n = run_len(b, s, |c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-');
            if n > 0 && b.get(s + n) == Some(&b']') {
                self.markers.push((i, s + n + 1));
                return s + n + 1;
            }
        }
        i + 1
    }

    fn on_colon(&mut self, i: usize, key: (usize, usize)) -> usize {
        let b = self.b;
        match b.get(i + 1) {
            Some(b'/') if b.get(i + 2) == Some(&b'/') => self.url(i, key),
            Some(b':') => i + 2,
            Some(b'=') => self.assignment(key, i, i + 2, false),
            _ => self.assignment(key, i, i + 1, false),
        }
    }

    fn on_equals(&mut self, i: usize, key: (usize, usize)) -> usize {
        let b = self.b;
        if i > 0 && b[i - 1] == b')' && b.get(i + 1) == Some(&b'(') {
            return self.db_echo(i);
        }
        if i > 0 && matches!(b[i - 1], b'!' | b'<' | b'>' | b'=') {
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

    /// `key <op> value` where the key names a secret. `plain_eq` is a lone `=` (the env-file operator).
    fn assignment(&mut self, key: (usize, usize), op: usize, vstart: usize, plain_eq: bool) -> usize {
        let b = self.b;
        let (ks, ke) = key;
        if ke <= ks || ke > op {
            return op + 1;
        }
        let gap = &b[ke..op];
        if gap.len() > 4 || !gap.iter().all(|c| matches!(c, b'"' | b'\'' | b'`' | b'\\' | b' ' | b'\t' | b']' | b'?')) {
            return op + 1;
        }
        let k = &b[ks..ke];
        let Some(kc) = classify_key(k) else {
            return op + 1;
        };
        if kc.family == Family::Authorization {
            return self.authorization(vstart, kc.rule).unwrap_or(op + 1);
        }
        let azure = kc.family == Family::Azure;
        let Some(v) = self.value_at(vstart, azure) else {
            return op + 1;
        };
        let value = &b[v.start..v.end];
        // Known token shapes and PEM blocks are named by their own rules, further along the main loop.
        if whole_token(value).is_some() || value.starts_with(b"-----BEGIN") {
            return op + 1;
        }
        let env_line = plain_eq
            && gap.is_empty()
            && k.iter().all(|&c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_')
            && k.iter().any(u8::is_ascii_uppercase);
        let mode = if env_line || azure {
            Mode::Literal
        } else if v.quoted {
            Mode::Quoted
        } else {
            Mode::Bare
        };
        if !accept_value(value, mode, kc.family) {
            return op + 1;
        }
        if self.emit(v.start, v.end, kc.rule) {
            v.end
        } else {
            op + 1
        }
    }

    /// The value after an operator, on the same line: quoted (`"…"`, `'…'`, `` `…` ``, or `\"…\"` inside
    /// JSON-escaped text) or bare (up to whitespace or `, ; & ) } ] " ' \`; Azure values run to `;`).
    fn value_at(&self, p: usize, azure: bool) -> Option<Val> {
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

    /// `scheme://user:password@host`: only the password goes.
    fn url(&mut self, i: usize, key: (usize, usize)) -> usize {
        let b = self.b;
        let (ks, ke) = key;
        if ke != i || ke - ks < 2 {
            return i + 3;
        }
        let u = i + 3;
        let (mut colon, mut at) = (None, None);
        let mut j = u;
        while j < b.len() && j - u < 512 {
            match b[j] {
                b'/' | b'?' | b'#' | b'\\' | b'"' | b'\'' | b'`' | b'<' | b'>' => break,
                c if c.is_ascii_whitespace() => break,
                b'[' if starts_with_at(b, j, MARKER_PREFIX) => return i + 3,
                b':' if colon.is_none() => colon = Some(j),
                b'@' => at = Some(j),
                _ => {}
            }
            j += 1;
        }
        if let (Some(c), Some(a)) = (colon, at) {
            if c >= a {
                return i + 3;
            }
            let pw = &b[c + 1..a];
            let host_ok = b.get(a + 1).is_some_and(|&h| is_alnum(h) || h == b'[');
            if host_ok && accept_url_password(pw) {
                let rule = whole_token(pw).unwrap_or(Rule::UrlCredentials);
                if self.emit(c + 1, a, rule) {
                    return a;
                }
            }
        }
        i + 3
    }

    /// PostgreSQL: `DETAIL: Key (col[, col…])=(value[, value…]) already exists.` The value goes when a column
    /// names a secret (`secret`, `api_key`, `token_hash`, …). Other columns (`email`, `slug`, `id`) stay: they are
    /// what an agent needs to debug a unique violation, and personal data is not what this redactor is for.
    fn db_echo(&mut self, i: usize) -> usize {
        let b = self.b;
        // Columns: back from the `)` at i-1 to its `(`.
        let mut depth = 0i32;
        let mut k = i - 1;
        loop {
            match b[k] {
                b')' => depth += 1,
                b'(' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                b'\n' => return i + 1,
                _ => {}
            }
            if k == 0 || i - k > 256 {
                return i + 1;
            }
            k -= 1;
        }
        let open = k;
        let mut h = open;
        while h > 0 && b[h - 1] == b' ' {
            h -= 1;
        }
        if h == open || h < 3 || !b[h - 3..h].eq_ignore_ascii_case(b"key") {
            return i + 1;
        }
        let cols = &b[open + 1..i - 1];
        if !cols.split(|&c| !(is_alnum(c) || c == b'_')).any(|w| classify_key(w).is_some()) {
            return i + 1;
        }
        // Value: from after `=(` to the balancing `)`.
        let vs = i + 2;
        let mut depth = 1i32;
        let mut j = vs;
        while j < b.len() && j - vs < 4096 && b[j] != b'\n' {
            match b[j] {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            j += 1;
        }
        if j >= b.len() || b[j] != b')' || j == vs || contains_marker(&b[vs..j]) {
            return i + 1;
        }
        if self.emit(vs, j, Rule::DbKeyEcho) {
            j
        } else {
            i + 1
        }
    }
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
