//! The values the core stamps itself: the timestamp (from a time the caller passes in) and the entry id
//! (from random bytes the caller passes in). No clock and no randomness are read here.

/// Formats milliseconds since the Unix epoch as RFC 3339 UTC with milliseconds:
/// `2026-11-29T08:23:33.120Z`. Times outside years 0000–9999 (and NaN) are clamped to that range.
#[cfg(test)]
pub fn rfc3339_millis(ms: f64) -> String {
    let mut out = String::with_capacity(24);
    push_rfc3339_millis(ms, &mut out);
    out
}

/// [`rfc3339_millis`] appended to `out`, digit by digit (core::fmt costs more than the rest of a small entry).
pub fn push_rfc3339_millis(ms: f64, out: &mut String) {
    const MIN: i64 = -62_167_219_200_000; // 0000-01-01T00:00:00.000Z
    const MAX: i64 = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z
    let ms = if ms.is_nan() { 0 } else { (ms.floor() as i64).clamp(MIN, MAX) };
    let days = ms.div_euclid(86_400_000);
    let in_day = ms.rem_euclid(86_400_000);
    let (y, m, d) = civil_from_days(days);
    let mut buf = *b"0000-00-00T00:00:00.000Z";
    let mut put = |at: usize, width: usize, mut n: u64| {
        for slot in buf[at..at + width].iter_mut().rev() {
            *slot = b'0' + (n % 10) as u8;
            n /= 10;
        }
    };
    put(0, 4, y as u64);
    put(5, 2, u64::from(m));
    put(8, 2, u64::from(d));
    put(11, 2, (in_day / 3_600_000) as u64);
    put(14, 2, (in_day / 60_000 % 60) as u64);
    put(17, 2, (in_day / 1000 % 60) as u64);
    put(20, 3, (in_day % 1000) as u64);
    // Every byte is an ASCII digit or one of "-T:.Z".
    out.push_str(std::str::from_utf8(&buf).unwrap_or("0000-01-01T00:00:00.000Z"));
}

/// Days since 1970-01-01 to a proleptic Gregorian (year, month, day), after Howard Hinnant's
/// `civil_from_days` (http://howardhinnant.github.io/date_algorithms.html).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Crockford's base32 alphabet in lower case: no i, l, o, u, so ids read back unambiguously.
const ALPHABET: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";

/// The entry id: 64 random bits as 13 base32 characters. By the birthday bound (n^2 / 2^65), a million
/// entries collide with a chance of about 3e-8, so the id is safe to deduplicate on across files.
pub fn eid(random: [u8; 8]) -> String {
    let mut n = u64::from_be_bytes(random);
    let mut out = [0u8; 13];
    for slot in out.iter_mut().rev() {
        *slot = ALPHABET[(n & 31) as usize];
        n >>= 5;
    }
    out.iter().map(|&c| c as char).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// (milliseconds, formatted)
    const TIMES: &[(f64, &str)] = &[
        (0.0, "1970-01-01T00:00:00.000Z"),
        (1_796_459_013_120.0, "2026-12-05T08:23:33.120Z"),
        (951_782_400_000.0, "2000-02-29T00:00:00.000Z"),
        (-1.0, "1969-12-31T23:59:59.999Z"),
        (1_700_000_000_999.9, "2023-11-14T22:13:20.999Z"),
        (f64::NAN, "1970-01-01T00:00:00.000Z"),
        (f64::INFINITY, "9999-12-31T23:59:59.999Z"),
        (f64::NEG_INFINITY, "0000-01-01T00:00:00.000Z"),
    ];

    #[test]
    fn formats_rfc3339_millis() {
        for (ms, want) in TIMES {
            assert_eq!(rfc3339_millis(*ms), *want, "{ms}");
        }
    }

    #[test]
    fn eids_are_13_crockford_chars() {
        assert_eq!(eid([0; 8]), "0000000000000");
        assert_eq!(eid([0xff; 8]), "fzzzzzzzzzzzz");
        assert_eq!(eid([0, 0, 0, 0, 0, 0, 0, 32]), "0000000000010");
        assert!(eid([1, 2, 3, 4, 5, 6, 7, 8]).bytes().all(|c| ALPHABET.contains(&c)));
    }
}
