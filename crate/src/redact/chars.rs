//! Byte classes and the small byte helpers every matcher uses. Matchers look at ASCII only, so every span they return
//! starts and ends on a UTF-8 character boundary.

pub use crate::bytes::find;

/// The classes below as bits of one table, so that a run of them costs a load and a test a byte (the matchers'
/// body scans walk most of the bytes of a token).
const ALNUM: u8 = 1;
const B64URL: u8 = 2;
const B64: u8 = 4;
static CLASSES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        let alnum = b.is_ascii_alphanumeric();
        t[c] = (if alnum { ALNUM } else { 0 })
            | (if alnum || b == b'_' || b == b'-' { B64URL } else { 0 })
            | (if alnum || b == b'+' || b == b'/' || b == b'=' { B64 } else { 0 });
        c += 1;
    }
    t
};

#[inline]
pub fn is_alnum(c: u8) -> bool {
    CLASSES[c as usize] & ALNUM != 0
}

/// `[A-Za-z0-9_-]`: base64url, and the body of most vendor tokens.
#[inline]
pub fn is_b64url(c: u8) -> bool {
    CLASSES[c as usize] & B64URL != 0
}

/// `[A-Za-z0-9+/=]`: standard base64 with padding.
#[inline]
pub fn is_b64(c: u8) -> bool {
    CLASSES[c as usize] & B64 != 0
}

#[inline]
pub fn is_lower_hex(c: u8) -> bool {
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
    // (A plain loop, as in `run_len`: the reversed iterator and its count compiled to more instructions in wasm.)
    let b = &b[..j];
    let mut i = j;
    while i > 0 && pred(b[i - 1]) {
        i -= 1;
    }
    i
}

#[inline]
pub fn starts_with_at(b: &[u8], i: usize, pat: &[u8]) -> bool {
    b.len() >= i + pat.len() && &b[i..i + pat.len()] == pat
}

#[inline]
pub fn starts_with_ci(b: &[u8], i: usize, pat: &[u8]) -> bool {
    b.len() >= i + pat.len() && b[i..i + pat.len()].eq_ignore_ascii_case(pat)
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
pub fn mix(v: &[u8]) -> (bool, bool, bool) {
    let (mut l, mut u, mut d) = (false, false, false);
    for &c in v {
        l |= c.is_ascii_lowercase();
        u |= c.is_ascii_uppercase();
        d |= c.is_ascii_digit();
    }
    (l, u, d)
}

/// A body that is one character repeated (`XXXXXXXX`, `00000000`) is a placeholder, not a key.
pub fn is_repeated(v: &[u8]) -> bool {
    v.len() > 1 && v.iter().all(|&c| c == v[0])
}

pub fn word_is(w: &[u8], names: &[&str]) -> bool {
    names.iter().any(|n| n.len() == w.len() && w.eq_ignore_ascii_case(n.as_bytes()))
}

/// `w` lower-cased into `buf` (words longer than the buffer come back empty: no name here is that long).
pub fn lower<'a>(w: &[u8], buf: &'a mut [u8; 24]) -> &'a [u8] {
    if w.len() > buf.len() {
        return &[];
    }
    for (d, s) in buf.iter_mut().zip(w) {
        *d = s.to_ascii_lowercase();
    }
    &buf[..w.len()]
}

/// Credential in an `Authorization` value or after `Bearer`: `[A-Za-z0-9._~+/=-]`.
#[inline]
pub fn is_cred(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'~' | b'+' | b'/' | b'=' | b'-')
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn class_table_matches_its_definitions() {
        for c in 0..=255u8 {
            let alnum = c.is_ascii_alphanumeric();
            assert_eq!(is_alnum(c), alnum, "{c}");
            assert_eq!(is_b64url(c), alnum || c == b'_' || c == b'-', "{c}");
            assert_eq!(is_b64(c), alnum || matches!(c, b'+' | b'/' | b'='), "{c}");
        }
    }
}
