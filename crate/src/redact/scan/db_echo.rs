//! Database errors that echo a unique key's value: PostgreSQL `Key (col)=(value)` and MySQL `Duplicate entry 'value'
//! for key 'col'`, redacted when a column names a secret.

use super::super::chars::*;
use super::super::keys::names_secret;
use super::super::rule::Rule;
use super::Scanner;

impl Scanner<'_, false> {
    /// MySQL: `Duplicate entry 'value' for key 'users.password'` — redacted when the key names a secret.
    pub(super) fn mysql_duplicate(&mut self, s: usize, e: usize) -> Option<usize> {
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
        names_secret(name).then_some(())?;
        let v = &b[vs..vs + k];
        if v.is_empty() || contains_marker(v) || v.contains(&b'\n') {
            return None;
        }
        self.emit(vs, vs + k, Rule::DbKeyEcho).then_some(vs + k)
    }

    /// PostgreSQL: `DETAIL: Key (col[, col…])=(value[, value…]) already exists.` The value goes when a column
    /// names a secret (`secret`, `api_key`, `token_hash`, …). Other columns (`email`, `slug`, `id`) stay: they are
    /// what an agent needs to debug a unique violation, and personal data is not what this redactor is for.
    pub(super) fn db_echo(&mut self, i: usize) -> usize {
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
        if !cols.split(|&c| !(is_alnum(c) || c == b'_')).any(names_secret) {
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

/// The `=` of PostgreSQL's `Key (col)=(value)` at `i`.
#[inline]
pub(super) fn is_key_echo(b: &[u8], i: usize) -> bool {
    i > 0 && b[i - 1] == b')' && b.get(i + 1) == Some(&b'(')
}
