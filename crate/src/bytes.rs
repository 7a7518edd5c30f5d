//! The byte kernels: searches and class bitmaps over many bytes at once, with wasm simd128 where the core runs (Node
//! and Bun both have it) and SWAR (eight bytes in a `u64`) elsewhere and for the tails. Every caller reads bytes
//! through these; nothing here knows what the bytes mean beyond the classes it is asked for.

// ---------------------------------------------------------------------------------------------------------------
// SWAR: the "has a zero byte" tests from "Bit Twiddling Hacks" (https://graphics.stanford.edu/~seander/bithacks.html,
// "Determine if a word has a zero byte"). Each leaves the high bit of a flagged byte set; bytes above the lowest
// flagged one may be flagged wrongly (a borrow), so only the lowest is exact.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Eight bytes as a little-endian word (the chunk holds eight).
#[inline]
fn word8(chunk: &[u8]) -> u64 {
    u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]))
}

/// The bytes of `x` equal to `c`.
#[inline]
fn eq8(x: u64, c: u8) -> u64 {
    let y = x ^ (ONES * u64::from(c));
    y.wrapping_sub(ONES) & !y & HIGHS
}

/// The index in its word of the lowest flagged byte.
#[inline]
fn first8(flags: u64) -> usize {
    (flags.trailing_zeros() / 8) as usize
}

/// The bytes of `x` that may be `"` or `\\`.
#[inline]
fn quote_or_backslash8(x: u64) -> u64 {
    eq8(x, b'"') | eq8(x, b'\\')
}

// ---------------------------------------------------------------------------------------------------------------
// Substring search

/// Naive substring search; the haystacks here are short (a value, a 256-byte window).
pub fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    find_from(hay, needle, 0)
}

/// [`find`] at or after `from`: the needle's first byte is looked for eight bytes at a time.
pub fn find_from(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if needle.is_empty() || hay.len() < needle.len() {
        return None;
    }
    let last = hay.len() - needle.len();
    let mut i = from;
    while i <= last {
        i = byte_from(hay, needle[0], i).filter(|&j| j <= last)?;
        if &hay[i..i + needle.len()] == needle {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// The first `c` in `b` at or after `i`, eight bytes at a time.
fn byte_from(b: &[u8], c: u8, mut i: usize) -> Option<usize> {
    while let Some(chunk) = b.get(i..i + 8) {
        let hit = eq8(word8(chunk), c);
        if hit != 0 {
            return Some(i + first8(hit));
        }
        i += 8;
    }
    b.get(i..)?.iter().position(|&x| x == c).map(|k| i + k)
}

/// The first `needle` (2 bytes or more) in `hay` at or after `from`, for long haystacks: on wasm by
/// [`find_by_pairs`] first, the rest (and elsewhere, all of it) by [`find_from`].
pub fn find_long(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    #[cfg(target_arch = "wasm32")]
    let from = match find_by_pairs(hay, needle, from) {
        Ok(at) => return Some(at),
        Err(rest) => rest,
    };
    find_from(hay, needle, from)
}

/// [`find_long`] sixteen positions at a time while 17 bytes are left: those where the needle's first two bytes
/// are, then a compare of each (a searcher set up per needle, as `str::find` does, costs more than the search itself
/// in a text of a few kilobytes). `Err`: where to go on one byte at a time.
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

// ---------------------------------------------------------------------------------------------------------------
// 64 bytes at a time, wasm simd128

/// The 64 bytes of a chunk as four vectors. The four quarters are loaded and used written out rather than looped
/// over: at opt-level "s" a loop stayed, with its shifts by 16q and the tables reloaded in each turn.
#[cfg(target_arch = "wasm32")]
#[target_feature(enable = "simd128")]
#[inline]
fn load64(chunk: &[u8; 64]) -> [core::arch::wasm32::v128; 4] {
    use core::arch::wasm32::*;
    // SAFETY: bytes 16q..16q+16 of the 64-byte chunk are readable; wasm loads need no alignment.
    let load = |q: usize| unsafe { v128_load(chunk[16 * q..].as_ptr().cast::<v128>()) };
    [load(0), load(1), load(2), load(3)]
}

/// The high bits of the 64 bytes of four vectors, as bits 0..64.
#[cfg(target_arch = "wasm32")]
#[target_feature(enable = "simd128")]
#[inline]
fn bits64(t: [core::arch::wasm32::v128; 4]) -> u64 {
    use core::arch::wasm32::*;
    u64::from(u8x16_bitmask(t[0]))
        | u64::from(u8x16_bitmask(t[1])) << 16
        | u64::from(u8x16_bitmask(t[2])) << 32
        | u64::from(u8x16_bitmask(t[3])) << 48
}

// ---------------------------------------------------------------------------------------------------------------
// The scan's byte classes

/// Class bitmaps of 64 bytes (bit k: byte k; bytes past the end of the text are in no class).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Masks {
    /// Word bytes, `[A-Za-z0-9_.-]`.
    pub word: u64,
    /// Separators inside words, `_ - .`.
    pub sep: u64,
    /// Stops, `: = [`.
    pub stop: u64,
    /// Spaces (only `' '`: `spaced` wants exactly one).
    pub space: u64,
    /// `b`, `B`, `e` and `E`: the first letters of `bearer` and `entry`, and `E`, which comes with them in the
    /// nibble lookups of [`classes64`] (a superset of events is harmless: `word` checks each exactly).
    pub be: u64,
    /// Digits.
    pub digit: u64,
}

impl Masks {
    #[cfg(test)]
    pub fn at(b: &[u8], base: usize) -> Masks {
        let mut m = Masks::default();
        Masks::fill(b, base, &mut m);
        m
    }

    /// Writes the masks of the 64 bytes from `base` into `m`.
    #[inline]
    pub fn fill(b: &[u8], base: usize, m: &mut Masks) {
        if let Some(chunk) = b.get(base..base + 64).and_then(|c| <&[u8; 64]>::try_from(c).ok()) {
            return classes64(chunk, m);
        }
        Masks::fill_padded(b, base, m)
    }

    /// [`fill`](Self::fill) near the end of the text. Kept out of line: its buffer would give every call of `fill`
    /// a stack frame.
    #[inline(never)]
    fn fill_padded(b: &[u8], base: usize, m: &mut Masks) {
        let mut pad = [0u8; 64]; // NUL is in no class
        let tail = b.get(base..).unwrap_or(&[]);
        pad[..tail.len()].copy_from_slice(tail);
        classes64(&pad, m)
    }
}

/// Class bitmaps of 64 bytes: wasm simd128 (Node and Bun both have it) with nibble lookups, as in "shufti"
/// (Langdale and Lemire, "Parsing Gigabytes of JSON per Second", 2019).
#[cfg(target_arch = "wasm32")]
#[target_feature(enable = "simd128")]
fn classes64(chunk: &[u8; 64], out: &mut Masks) {
    use core::arch::wasm32::*;
    // Bit buckets: 0 `-.`, 1 digits, 2 `A-O a-o` (letters with high nibble 4/6, low 1-F), 3 `P-Z p-z`, 4 `_`,
    // 5 `:=>`, 6 `[`, 7 `B E b e` (low nibble 2/5, high nibble 4/6). A byte's buckets are lo[low nibble] &
    // hi[high nibble]; bytes of 0x80 and up index past hi.
    let lo = u8x16(0x0a, 0x0e, 0x8e, 0x0e, 0x0e, 0x8e, 0x0e, 0x0e, 0x0e, 0x0e, 0x2c, 0x44, 0x04, 0x25, 0x25, 0x14);
    let hi = u8x16(0, 0, 0x01, 0x22, 0x84, 0x58, 0x84, 0x08, 0, 0, 0, 0, 0, 0, 0, 0);
    let zero = u8x16_splat(0);
    let v = load64(chunk);
    let classes =
        |v: v128| v128_and(i8x16_swizzle(lo, v128_and(v, u8x16_splat(0x0f))), i8x16_swizzle(hi, u8x16_shr(v, 4)));
    let cls = [classes(v[0]), classes(v[1]), classes(v[2]), classes(v[3])];
    // Of the buckets 0-6, "some bucket of `bits`" is a signed greater-than-zero once bucket 7 (the sign) is masked
    // off (one instruction on x64, where a not-equal is two and a constant); bucket 7 is the sign bit itself.
    let any = |b: u8| {
        let b = u8x16_splat(b);
        let t = |c: v128| i8x16_gt(v128_and(c, b), zero);
        bits64([t(cls[0]), t(cls[1]), t(cls[2]), t(cls[3])])
    };
    let space = |v: v128| i8x16_eq(v, u8x16_splat(b' '));
    out.word = any(0x1f);
    out.sep = any(0x11);
    out.stop = any(0x60);
    out.space = bits64([space(v[0]), space(v[1]), space(v[2]), space(v[3])]);
    out.be = bits64(cls);
    out.digit = any(0x02);
}

#[cfg(not(target_arch = "wasm32"))]
fn classes64(chunk: &[u8; 64], out: &mut Masks) {
    *out = classes64_swar(chunk);
}

/// Class bitmaps of 64 bytes, eight at a time with SWAR range tests. Each test leaves a byte's high bit set when it
/// holds: for a 7-bit byte `x`, `x + (0x80 - lo)` reaches the high bit iff `x >= lo`, and `x + (0x7f - hi)` iff
/// `x > hi` (no carry crosses bytes). Bytes of 0x80 and up are masked out.
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
pub(crate) fn classes64_swar(chunk: &[u8; 64]) -> Masks {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let ge = |x: u64, lo: u8| x + ONES * u64::from(0x80 - lo);
    let gt = |x: u64, hi: u8| x + ONES * u64::from(0x7f - hi);
    let eq = |x: u64, c: u8| !gt(x ^ (ONES * u64::from(c)), 0);
    // The high bits of the eight bytes as eight bits (https://graphics.stanford.edu/~seander/bithacks.html).
    let bits = |h: u64| ((h & HIGHS) >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
    let mut m = Masks::default();
    for (k, c8) in chunk.chunks_exact(8).enumerate() {
        let x = u64::from_le_bytes(c8.try_into().unwrap_or([0; 8]));
        let ascii = !x & HIGHS;
        let x = x & !HIGHS;
        let folded = x | (ONES * 0x20);
        let letter = ge(folded, b'a') & !gt(folded, b'z');
        let dash_dot = ge(x, b'-') & !gt(x, b'.');
        let digit = ge(x, b'0') & !gt(x, b'9');
        let underscore = eq(x, b'_');
        let at = 8 * k;
        m.word |= bits((letter | dash_dot | digit | underscore) & ascii) << at;
        m.sep |= bits((dash_dot | underscore) & ascii) << at;
        m.stop |= bits((eq(x, b':') | eq(x, b'=') | eq(x, b'[') | eq(x, b'>')) & ascii) << at;
        m.digit |= bits(digit & ascii) << at;
        m.space |= bits(eq(x, b' ') & ascii) << at;
        m.be |= bits((eq(folded, b'b') | eq(folded, b'e')) & ascii) << at;
    }
    m
}

// ---------------------------------------------------------------------------------------------------------------
// JSON strings: quotes, backslashes and the bytes of two-byte escapes

/// What the byte after a backslash decodes to when the escape is those two bytes (0: not such an escape).
pub static SIMPLE_ESCAPES: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t[b'/' as usize] = b'/';
    t[b'b' as usize] = 0x08;
    t[b'f' as usize] = 0x0c;
    t[b'n' as usize] = b'\n';
    t[b'r' as usize] = b'\r';
    t[b't' as usize] = b'\t';
    t
};

/// Bitmaps of 64 bytes of `b` from `i` (bit k: byte i + k; bytes past the end are none of them).
pub struct Specials {
    pub quote: u64,
    pub backslash: u64,
    /// The bytes that follow a backslash in a two-byte escape: `" \ / b f n r t`.
    pub simple: u64,
    /// Whether any of the 64 bytes is `$` (the lead of a password hash, `redact::hashes`), so that the string's
    /// own pass for one is spared where there is none.
    pub dollar: bool,
}

#[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128"))]
#[inline]
pub fn specials64(b: &[u8], i: usize) -> Specials {
    if let Some(chunk) = b.get(i..i + 64).and_then(|c| <&[u8; 64]>::try_from(c).ok()) {
        return specials(chunk);
    }
    let mut pad = [0u8; 64]; // NUL is none of them
    let tail = b.get(i..).unwrap_or(&[]);
    pad[..tail.len()].copy_from_slice(tail);
    specials(&pad)
}

/// [`Specials`] with wasm simd128. The second bytes of two-byte escapes by one lookup: the byte each low nibble
/// stands for in the set, where there is one (`b` 2, `t` 4, `f` 6, `\\` C, `n` E, `/` F), and elsewhere a byte of
/// another low nibble, which no byte equals; `"` and `r`, whose low nibble is `b`'s, are compared on their own.
#[cfg(target_arch = "wasm32")]
#[target_feature(enable = "simd128")]
#[inline]
pub(crate) fn specials(chunk: &[u8; 64]) -> Specials {
    use core::arch::wasm32::*;
    let expect = u8x16(1, 0, b'b', 0, b't', 0, b'f', 0, 0, 0, 0, 0, b'\\', 0, b'n', b'/');
    let v = load64(chunk);
    let eq = |v: v128, c: u8| i8x16_eq(v, u8x16_splat(c));
    let quote = [eq(v[0], b'"'), eq(v[1], b'"'), eq(v[2], b'"'), eq(v[3], b'"')];
    let simple = |q: usize| {
        let looked_up = i8x16_swizzle(expect, v128_and(v[q], u8x16_splat(0x0f)));
        v128_or(v128_or(i8x16_eq(v[q], looked_up), eq(v[q], b'r')), quote[q])
    };
    Specials {
        quote: bits64(quote),
        backslash: bits64([eq(v[0], b'\\'), eq(v[1], b'\\'), eq(v[2], b'\\'), eq(v[3], b'\\')]),
        simple: bits64([simple(0), simple(1), simple(2), simple(3)]),
        dollar: v128_any_true(v128_or(
            v128_or(eq(v[0], b'$'), eq(v[1], b'$')),
            v128_or(eq(v[2], b'$'), eq(v[3], b'$')),
        )),
    }
}

#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn specials(chunk: &[u8; 64]) -> Specials {
    let mut sp = Specials { quote: 0, backslash: 0, simple: 0, dollar: false };
    for (k, &c) in chunk.iter().enumerate() {
        sp.quote |= u64::from(c == b'"') << k;
        sp.backslash |= u64::from(c == b'\\') << k;
        sp.simple |= u64::from(SIMPLE_ESCAPES[usize::from(c)] != 0) << k;
        sp.dollar |= c == b'$';
    }
    sp
}

/// Bit k: byte k of the chunk is `"` or `\` (wasm simd128).
#[cfg(target_arch = "wasm32")]
#[target_feature(enable = "simd128")]
#[inline]
pub fn quotes_or_backslashes16(chunk: &[u8; 16]) -> u32 {
    use core::arch::wasm32::*;
    // SAFETY: the chunk holds 16 readable bytes; wasm loads need no alignment.
    let v = unsafe { v128_load(chunk.as_ptr().cast::<v128>()) };
    u32::from(u8x16_bitmask(v128_or(i8x16_eq(v, u8x16_splat(b'"')), i8x16_eq(v, u8x16_splat(b'\\')))))
}

/// The lowest bit of [the wasm version](quotes_or_backslashes16), which is all that is used, eight bytes at a time.
#[cfg(not(target_arch = "wasm32"))]
#[inline]
pub fn quotes_or_backslashes16(chunk: &[u8; 16]) -> u32 {
    for (h, c8) in chunk.chunks_exact(8).enumerate() {
        let hit = quote_or_backslash8(word8(c8));
        if hit != 0 {
            return 1 << (8 * h + (hit.trailing_zeros() / 8) as usize);
        }
    }
    0
}

/// Index of the first `"` or `\` at or after `i` (the length of `b` when there is none), sixteen bytes at a time
/// with wasm simd128 (Node and Bun both have it).
#[cfg(target_arch = "wasm32")]
#[target_feature(enable = "simd128")]
pub fn quote_or_backslash(b: &[u8], mut i: usize) -> usize {
    use core::arch::wasm32::*;
    while let Some(chunk) = b.get(i..i + 16) {
        // SAFETY: the chunk holds 16 readable bytes; wasm loads need no alignment.
        let v = unsafe { v128_load(chunk.as_ptr().cast::<v128>()) };
        let hit = u8x16_bitmask(v128_or(i8x16_eq(v, u8x16_splat(b'"')), i8x16_eq(v, u8x16_splat(b'\\'))));
        if hit != 0 {
            return i + hit.trailing_zeros() as usize;
        }
        i += 16;
    }
    quote_or_backslash_swar(b, i)
}

#[cfg(not(target_arch = "wasm32"))]
pub fn quote_or_backslash(b: &[u8], i: usize) -> usize {
    quote_or_backslash_swar(b, i)
}

/// [`quote_or_backslash`] eight bytes at a time.
#[inline]
pub fn quote_or_backslash_swar(b: &[u8], mut i: usize) -> usize {
    while let Some(chunk) = b.get(i..i + 8) {
        let hit = quote_or_backslash8(word8(chunk));
        if hit != 0 {
            return i + (hit.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < b.len() && b[i] != b'"' && b[i] != b'\\' {
        i += 1;
    }
    i
}

/// Bitmap of the 64 bytes of `b` from `i` that a JSON string's scan must look at: `"`, `\\` and the control
/// characters (below 0x20). Bytes past the end of `b` are none of them.
#[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128"))]
#[inline]
pub fn string_specials64(b: &[u8], i: usize) -> u64 {
    if let Some(chunk) = b.get(i..i + 64).and_then(|c| <&[u8; 64]>::try_from(c).ok()) {
        return string_specials(chunk);
    }
    let mut pad = [b' '; 64];
    let tail = b.get(i..).unwrap_or(&[]);
    pad[..tail.len()].copy_from_slice(tail);
    string_specials(&pad)
}

/// [`string_specials64`] of a whole chunk, with wasm simd128.
#[cfg(target_arch = "wasm32")]
#[target_feature(enable = "simd128")]
#[inline]
fn string_specials(chunk: &[u8; 64]) -> u64 {
    use core::arch::wasm32::*;
    let v = load64(chunk);
    // Flipping bit 1 takes `"` (0x22) to 0x20 and keeps the control characters below 0x20, nothing else below
    // 0x21: one compare finds both.
    let t = |v: v128| {
        let low = u8x16_lt(v128_xor(v, u8x16_splat(0x02)), u8x16_splat(0x21));
        v128_or(low, i8x16_eq(v, u8x16_splat(b'\\')))
    };
    bits64([t(v[0]), t(v[1]), t(v[2]), t(v[3])])
}

#[cfg(not(target_arch = "wasm32"))]
fn string_specials(chunk: &[u8; 64]) -> u64 {
    chunk.iter().enumerate().fold(0, |m, (k, &c)| m | u64::from(c == b'"' || c == b'\\' || c < 0x20) << k)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator: the random cases repeat run to run.
    fn xorshift(state: &mut u32) -> u32 {
        *state ^= *state << 13;
        *state ^= *state >> 17;
        *state ^= *state << 5;
        *state
    }
    /// `len` bytes, each draw `k` below `range` becoming `special(k)`'s byte, or a lower-case letter when it has none.
    fn draw(state: &mut u32, len: usize, range: u32, special: impl Fn(u32, &mut u32) -> Option<u8>) -> Vec<u8> {
        (0..len)
            .map(|_| {
                let k = xorshift(state) % range;
                special(k, state).unwrap_or(b'a' + k as u8 % 26)
            })
            .collect()
    }
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn quote_or_backslash_finds_the_first() {
        let mut state = 0x2545_f491u32;
        for _ in 0..2000 {
            let len = xorshift(&mut state) as usize % 80;
            let b = draw(&mut state, len, 40, |k, _| [b'"', b'\\', 0xe9, 0x22 | 0x80].get(k as usize).copied());
            for i in 0..=len {
                let want = (i..len).find(|&j| b[j] == b'"' || b[j] == b'\\').unwrap_or(len);
                assert_eq!(quote_or_backslash(&b, i), want, "{b:?} from {i}");
                assert_eq!(quote_or_backslash_swar(&b, i), want, "{b:?} from {i}");
            }
        }
    }

    #[test]
    fn string_specials_flag_quotes_backslashes_and_controls() {
        let mut state = 0x1b87_3593u32;
        for _ in 0..2000 {
            let len = xorshift(&mut state) as usize % 160;
            let b = draw(&mut state, len, 48, |k, state| match k {
                0..=3 => Some([b'"', b'\\', 0xe9, 0x22 | 0x80][k as usize]),
                4 => Some((xorshift(state) % 0x20) as u8),
                5 => Some(0x20 + (xorshift(state) % 4) as u8),
                6 => Some(0x7f),
                _ => None,
            });
            for i in 0..=len {
                let want = (0..64)
                    .filter(|&k| b.get(i + k).is_some_and(|&c| c == b'"' || c == b'\\' || c < 0x20))
                    .fold(0u64, |m, k| m | 1 << k);
                assert_eq!(string_specials64(&b, i), want, "{b:?} from {i}");
            }
        }
    }
}
