//! Password hashes in the modular crypt format (`$<id>$[params$]salt$hash`: `/etc/shadow`, htpasswd, a user table)
//! and the cracking tools' Kerberos formats, wherever they stand. A hash is not the password, but it is what an
//! attacker needs to guess it offline, so it goes whole. Found by their own pass over the text: `$` is no stop of the
//! scan (`$VAR` is everywhere in shell text), and the hash's alphabet holds `/`, which breaks word runs.

use super::rule::Rule;
use super::Found;
#[cfg(not(target_arch = "wasm32"))]
use crate::bytes::find_from;

/// The crypt ids looked for after the first `$`: MD5 (`1`), bcrypt (`2a`, `2b`, `2x`, `2y`), SHA-256 and SHA-512
/// (`5`, `6`), scrypt (`7`), PBKDF2 (`8`, Cisco's type 8), yescrypt (`y`, `gy`), Argon2, and the Kerberos AS-REP and
/// TGS-REP formats of hashcat and John the Ripper.
const IDS: &[&[u8]] = &[
    b"1",
    b"2a",
    b"2b",
    b"2x",
    b"2y",
    b"5",
    b"6",
    b"7",
    b"8",
    b"y",
    b"gy",
    b"argon2i",
    b"argon2d",
    b"argon2id",
    b"krb5asrep",
    b"krb5tgs",
];

/// The shortest last field (the hash itself) taken: MD5-crypt's is 22 characters.
const MIN_HASH: usize = 16;

/// A byte of a field: the crypt alphabet (`./0-9A-Za-z`), `+` of standard base64 and Argon2's parameters
/// (`m=65536,t=3,p=4`); in the Kerberos formats also what they put in theirs (`user@REALM:…`, `*`). Not `:`
/// otherwise: it ends the hash in `/etc/shadow`.
#[inline]
fn field_byte(c: u8, kerberos: bool) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(c, b'.' | b'/' | b'=' | b',' | b'+')
        || (kerberos && matches!(c, b'@' | b':' | b'*' | b'_' | b'-'))
}

/// The end of a crypt-format hash starting at `i` (a `$`), if one does: an id of [`IDS`], then two fields or more
/// separated by `$`, the last of [`MIN_HASH`] characters or more holding letters and digits both.
pub fn hash_at(b: &[u8], i: usize) -> Option<usize> {
    let rest = b.get(i + 1..)?;
    let id = IDS.iter().find(|id| rest.starts_with(id) && rest.get(id.len()) == Some(&b'$'))?;
    let kerberos = id.starts_with(b"krb5");
    let field_byte = |c: u8| field_byte(c, kerberos);
    let mut j = i + 2 + id.len();
    let mut fields = 0;
    loop {
        let n = b[j..].iter().take_while(|&&c| field_byte(c)).count();
        fields += 1;
        let f = &b[j..j + n];
        if b.get(j + n) == Some(&b'$') && n > 0 && b.get(j + n + 1).is_some_and(|&c| field_byte(c)) {
            j += n + 1;
            continue;
        }
        let letters = f.iter().any(u8::is_ascii_alphabetic);
        let digits = f.iter().any(u8::is_ascii_digit);
        return (fields >= 2 && n >= MIN_HASH && letters && digits).then_some(j + n);
    }
}

/// The spans of the hashes in `b`, in order.
pub fn find_hashes(b: &[u8], out: &mut Vec<(usize, usize)>) {
    let mut i = 0;
    while let Some(at) = dollar_from(b, i) {
        match hash_at(b, at) {
            // (Inside a word, `price$1$…` is no hash.)
            Some(end) if at == 0 || !b[at - 1].is_ascii_alphanumeric() => {
                out.push((at, end));
                i = end;
            }
            _ => i = at + 1,
        }
    }
}

/// Adds the hashes in `text` to `found` (sorted, disjoint), unless allow-listed. A hash wins over what the scan found
/// inside it (a run of its characters read as a token), so that it goes whole and the result is redacted the same
/// way again.
pub fn add(text: &str, found: &mut Vec<Found>, allowed: &dyn Fn(&str) -> bool) {
    let mut spans = Vec::new();
    find_hashes(text.as_bytes(), &mut spans);
    spans.retain(|&(s, e)| text.get(s..e).is_some_and(|h| !allowed(h)));
    if spans.is_empty() {
        return;
    }
    found.retain(|f| !spans.iter().any(|&(s, e)| f.start < e && s < f.end));
    found.extend(spans.into_iter().map(|(start, end)| Found { start, end, rule: Rule::PasswordHash }));
    found.sort_by_key(|f| f.start);
}

/// Whether `b` may hold a hash: a `$` followed by an id (what a raw JSON string must be decoded for).
pub fn may_hold_hash(b: &[u8]) -> bool {
    let mut i = 0;
    while let Some(at) = dollar_from(b, i) {
        let rest = &b[at + 1..];
        if IDS.iter().any(|id| rest.starts_with(id)) {
            return true;
        }
        i = at + 1;
    }
    false
}

/// The first `$` at or after `i`. Every string of an entry is searched for one (a long tool output too), so on wasm
/// 64 bytes are compared at a time with simd128, as the byte kernels of `crate::bytes` do; elsewhere eight at a time.
#[cfg(target_arch = "wasm32")]
#[target_feature(enable = "simd128")]
fn dollar_from(b: &[u8], mut i: usize) -> Option<usize> {
    use core::arch::wasm32::*;
    let d = u8x16_splat(b'$');
    while let Some(chunk) = b.get(i..i + 64) {
        // SAFETY: bytes 16q..16q+16 of the 64-byte chunk are readable; wasm loads need no alignment.
        let eq = |q: usize| i8x16_eq(unsafe { v128_load(chunk[16 * q..].as_ptr().cast::<v128>()) }, d);
        let any = v128_or(v128_or(eq(0), eq(1)), v128_or(eq(2), eq(3)));
        if v128_any_true(any) {
            let at = (0..4).map(|q| i8x16_bitmask(eq(q)) as u64).rev().fold(0u64, |m, x| m << 16 | x);
            return Some(i + at.trailing_zeros() as usize);
        }
        i += 64;
    }
    b.get(i..)?.iter().position(|&c| c == b'$').map(|k| i + k)
}

#[cfg(not(target_arch = "wasm32"))]
fn dollar_from(b: &[u8], i: usize) -> Option<usize> {
    find_from(b, b"$", i)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn spans(t: &str) -> Vec<&str> {
        let mut out = Vec::new();
        find_hashes(t.as_bytes(), &mut out);
        out.into_iter().map(|(s, e)| &t[s..e]).collect()
    }

    #[test]
    fn finds_crypt_hashes_whole() {
        let md5 = "$1$q8Rt2LmW$Zk3pX9vQ0bN7cJ4hY1fD6s";
        let bcrypt = "$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy";
        let sha512 = "$6$rounds=656000$Vq2mK9xL$4hQ8.zP1wR7tY3uN6cB0vX5sD2fG9jK4lM7nA1bC3eF6gH8iJ0kL2mN4oP6qR8sT0uV2wX4yZ6aB8cD0eF2gH4";
        let argon = "$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHRzYWx0$Rk9PQkFSQkFaMTIzNDU2Nzg5MGFiY2RlZg";
        for h in [md5, bcrypt, sha512, argon] {
            assert_eq!(spans(&format!("root:{h}:19700:0:99999:7:::")), [h], "shadow line");
            assert_eq!(spans(&format!("hash = '{h}'")), [h]);
        }
        assert_eq!(spans(&format!("alice:{bcrypt}\nbob:{md5}")), [bcrypt, md5]);
    }

    #[test]
    fn finds_each_dollar_wherever_it_stands() {
        // Around the 64-byte chunks and the tail: the first `$` at or after every start.
        for n in [0, 1, 15, 63, 64, 65, 127, 128, 200] {
            for at in 0..n {
                let mut t = vec![b'x'; n];
                t[at] = b'$';
                for from in [0, at / 2, at, at + 1] {
                    let want = (from <= at).then_some(at);
                    assert_eq!(dollar_from(&t, from), want, "n {n}, at {at}, from {from}");
                }
            }
        }
    }

    #[test]
    fn leaves_shell_and_prices_alone() {
        for t in [
            "echo $1 $2 $HOME",
            "cost: $5$ per seat",
            "awk '{print $1$2}'",
            "$6$short$abc",
            "PS1='$y$ '",
            "$2b$10$onlylettersandnodigitsinthehashpart",
            "price$1$abcdefghijklmnop12",
        ] {
            assert!(spans(t).is_empty(), "{t}");
        }
    }
}
