//! Reading a JSON string literal in one pass: where it ends, and its decoded content with a map from each decoded byte
//! back to the raw escape it came from, so a redacted range always covers whole escapes (never half of
//! `\uD83D\uDE00`, never a lone backslash). Long strings whose escapes are all two bytes long may instead be proven
//! clean without decoding them (the raw scan, `scan::raw`).

use super::super::scan::Resume;
use super::ScanRaw;
use crate::bytes::{quote_or_backslash, quote_or_backslash_swar, quotes_or_backslashes16, specials64, SIMPLE_ESCAPES};
use crate::parse::strict_json::hex4;

/// Strings with escapes at least this long are first scanned raw ([`ScanRaw`]), which spares decoding them when
/// that proves them clean (decoding log text, an escape every few dozen bytes, cost a quarter of its redaction).
/// When the raw scan gives up, the scan of the decoded string goes on from there, so only the pass that finds the
/// escapes was spent for nothing (about a tenth of the string's redaction). Shorter strings are decoded at once:
/// in an entry of a few kilobytes (most entries) the saving did not pay for that risk (wasm A/B, one entry: 1 KiB
/// and 3 KiB of log text at par with RAW_FROM 4096; with 1024, a 1 KiB entry holding secrets 14% slower).
const RAW_FROM: usize = 4096;

/// The decoded content of the last string read that had escapes (see [`read_string`]), and its escapes. The
/// buffers are kept from one string to the next, and by the redactor from one walk to the next.
#[derive(Default)]
pub struct Decoded {
    /// Bytes `..len` are the content; the bytes after them are room that the 32-byte copies below write into.
    buf: Vec<u8>,
    len: usize,
    pub(super) escs: Vec<Esc>,
    /// The escaped bits of the last string [`simple_escapes`] read.
    esc_bits: Vec<u64>,
}

/// How [`read_string`] read a string.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Read {
    /// No escapes: the raw content is the text.
    Plain,
    /// Decoded into the [`Decoded`]; to be scanned from there (the start, unless a raw scan gave up further on).
    Decoded(Resume),
    /// Not decoded: the raw scan proved it clean.
    Clean,
}

/// Buffers larger than this are not kept after a walk: a redactor that once met a 10 MiB string does not hold on to
/// 10 MiB.
const KEEP_BYTES: usize = 64 << 10;

impl Decoded {
    /// Frees the buffers that grew past [`KEEP_BYTES`] (the next walk allocates what it needs).
    pub fn trim(&mut self) {
        if self.buf.capacity() > KEEP_BYTES {
            self.buf = Vec::new();
        }
        if self.escs.capacity() * std::mem::size_of::<Esc>() > KEEP_BYTES {
            self.escs = Vec::new();
        }
        if self.esc_bits.capacity() * 8 > KEEP_BYTES {
            self.esc_bits = Vec::new();
        }
    }

    pub(super) fn text(&self) -> &str {
        debug_assert!(std::str::from_utf8(&self.buf[..self.len]).is_ok());
        // SAFETY: `read_string` fills `..len` with runs of the input (a `&str`) cut only before a `"` or `\`
        // (ASCII, so on character boundaries) and with the characters escapes decode to (see `escape`).
        unsafe { std::str::from_utf8_unchecked(&self.buf[..self.len]) }
    }
}

/// Reads the string literal opening at `i` in one pass: returns the content start, the content end, the index
/// after the closing quote (or the end of input when unterminated), and how it was read. When the content has
/// escapes, it is either proven clean by `scan_raw` (long strings whose escapes are all two bytes long) or decoded:
/// `dec` holds the decoded content and one record per escape (between escapes, decoded and raw offsets advance
/// together); otherwise `dec` is left as it was.
///
/// An escape never reaches past the content: `\uXXXX` takes hex digits, which are never a quote, and a backslash
/// before the closing quote would have escaped it, so decoding against the whole input reads what decoding the
/// content alone would.
///
/// Decoding copies thirty-two bytes at a time and then looks where the first `"` or `\` among them is: log text
/// has an escape every few dozen bytes (`\n`, `\"`), and copying each run between escapes on its own cost more
/// than the scan that follows. Decoding never lengthens the content (an escape decodes to at most as many bytes
/// as it takes), so a buffer of the rest of the input plus thirty-two bytes is always room enough.
pub(super) fn read_string(
    raw: &str,
    i: usize,
    dec: &mut Decoded,
    scan_raw: Option<ScanRaw>,
) -> (usize, usize, usize, Read) {
    let b = raw.as_bytes();
    let s = i + 1;
    let j = quote_or_backslash(b, s);
    if j >= b.len() || b[j] == b'"' {
        // No escape (the common case: the raw content is the text). Unterminated (not valid JSON): the content
        // runs to the end of the input.
        return if j >= b.len() { (s, b.len(), b.len(), Read::Plain) } else { (s, j, j + 1, Read::Plain) };
    }
    // Where the scan of the decoded content starts: where a raw scan gave up, in raw offsets, if one did.
    let mut from = None;
    if let Some(scan_raw) = scan_raw.filter(|_| b.len() - s >= RAW_FROM) {
        let bits = &mut dec.esc_bits;
        if let Some((ce, dollar)) = simple_escapes(b, s, bits) {
            if ce - s >= RAW_FROM {
                match scan_raw(&raw[s..ce], bits, dollar) {
                    Ok(()) => return (s, ce, ce + 1, Read::Clean),
                    Err(r) => from = Some(r),
                }
            }
        }
    }
    let room = b.len() - s + 32;
    if dec.buf.len() < room {
        // Within one walk the rest of the input only shrinks, so this happens once per walk.
        dec.buf.resize(room, 0);
    }
    dec.buf[..j - s].copy_from_slice(&b[s..j]);
    dec.escs.clear();
    let (j, o) = decode(raw, s, j, dec);
    dec.len = o;
    let (ce, next) = if j >= b.len() { (b.len(), b.len()) } else { (j, j + 1) };
    let from = from.map_or(Resume::START, |r| r.map(|o| decoded_offset(&dec.escs, o)));
    (s, ce, next, Read::Decoded(from))
}

/// Decoded offset (within the content) of raw offset `r`: the inverse of [`raw_offset`] outside escapes; an escape's
/// backslash maps to the character it decodes to, its other bytes to the offset after that character.
fn decoded_offset(escs: &[Esc], r: usize) -> usize {
    let r = r as u32;
    let k = escs.partition_point(|e| e.raw <= r);
    if k == 0 {
        return r as usize;
    }
    let e = escs[k - 1];
    if r == e.raw {
        e.dec as usize
    } else if r < e.raw_end {
        e.dec_end as usize
    } else {
        (e.dec_end + (r - e.raw_end)) as usize
    }
}

/// For the string whose content starts at `s` and holds a backslash: when it is terminated and every escape in it
/// is two bytes long (`\" \\ \/ \b \f \n \r \t`), its content end and whether a `$` may stand in it, with `bits` set
/// to the escaped bits of the content (bit k of word w: content byte 64w + k is the second byte of an escape). `None`
/// for a string with another escape (`\uXXXX`, or one that is not valid JSON) or unterminated: those are decoded.
/// (A `$` is looked for by whole blocks, so one after the closing quote in its block counts too: a `$` that may be
/// there, never one missed.)
///
/// Branch-free per 64 bytes, whatever the number of escapes: which backslashes escape is found from the bitmap of
/// backslashes as simdjson does it (odd and even runs told apart by a subtraction), and the end is the first quote
/// that is not escaped. Where every escape is two bytes long, that is where decoding ends too. Compiled with
/// simd128 on wasm so that [`specials`] is inlined into the loop.
#[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128"))]
pub(in crate::redact) fn simple_escapes(b: &[u8], s: usize, bits: &mut Vec<u64>) -> Option<(usize, bool)> {
    const ODD: u64 = 0xaaaa_aaaa_aaaa_aaaa;
    bits.clear();
    bits.reserve((b.len() - s) / 64 + 1);
    // Whether the first byte of the next block is escaped (by a backslash that ends this block).
    let mut carry = 0u64;
    let mut dollar = false;
    let mut base = s;
    while base < b.len() {
        let sp = specials64(b, base);
        dollar |= sp.dollar;
        // simdjson's `json_escape_scanner`: a backslash that is escaped escapes nothing; of the others, a run
        // escapes the byte after it when its length is odd.
        let potential = sp.backslash & !carry;
        let codes = ((potential << 1 | ODD).wrapping_sub(potential)) ^ ODD;
        let escaped = codes ^ (sp.backslash | carry);
        carry = (codes & sp.backslash) >> 63;
        let ends = sp.quote & !escaped;
        let before = if ends != 0 { (1u64 << ends.trailing_zeros()) - 1 } else { !0 };
        bits.push(escaped & before);
        if escaped & !sp.simple & before != 0 {
            return None;
        }
        if ends != 0 {
            return Some((base + ends.trailing_zeros() as usize, dollar));
        }
        base += 64;
    }
    None
}

/// The rest of [`read_string`]: decodes from the escape at `j` (decoded content so far: `o = j - s` bytes) to the
/// closing quote or the end of the input; returns where it stopped and the decoded length. Compiled with simd128 on
/// wasm so that the copies and 16-byte tests below are inlined into the loop as vector instructions.
#[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128"))]
fn decode(raw: &str, s: usize, mut j: usize, dec: &mut Decoded) -> (usize, usize) {
    let b = raw.as_bytes();
    let out = &mut dec.buf[..];
    let mut o = j - s;
    loop {
        // b[j] is a backslash. The two-byte escapes (`\n`, `\"`: nearly all of them in log text) by table, the
        // others by `escape`, which decodes those the same way.
        let simple = b.get(j + 1).map_or(0, |&e| SIMPLE_ESCAPES[usize::from(e)]);
        let (len, n) = if simple != 0 {
            out[o] = simple;
            (2, 1)
        } else {
            escape(raw, j, &mut out[o..])
        };
        dec.escs.push(Esc {
            dec: o as u32,
            raw: (j - s) as u32,
            dec_end: (o + n) as u32,
            raw_end: (j + len - s) as u32,
        });
        j += len;
        o += n;
        // The plain bytes up to the next `"` or `\`, 32 at a time: most runs between escapes in log text are
        // shorter, so the test below mostly goes one way.
        loop {
            let src = b.get(j..j + 32).and_then(|c| <&[u8; 32]>::try_from(c).ok());
            let dst = out.get_mut(o..o + 32).and_then(|c| <&mut [u8; 32]>::try_from(c).ok());
            let (Some(src), Some(dst)) = (src, dst) else {
                let e = quote_or_backslash_swar(b, j);
                out[o..o + (e - j)].copy_from_slice(&b[j..e]);
                o += e - j;
                j = e;
                break;
            };
            *dst = *src;
            let (lo, hi) = src.split_at(16);
            let lo = quotes_or_backslashes16(lo.try_into().unwrap_or(&[0; 16]));
            let special = if lo != 0 { lo } else { quotes_or_backslashes16(hi.try_into().unwrap_or(&[0; 16])) << 16 };
            if special == 0 {
                j += 32;
                o += 32;
                continue;
            }
            let k = special.trailing_zeros() as usize;
            j += k;
            o += k;
            break;
        }
        if j >= b.len() || b[j] == b'"' {
            return (j, o);
        }
    }
}

/// One escape sequence: raw `raw..raw_end` (offsets in the content) decoded to `dec..dec_end`.
#[derive(Clone, Copy)]
pub(super) struct Esc {
    dec: u32,
    raw: u32,
    dec_end: u32,
    raw_end: u32,
}

/// Decodes the escape at `i` (a backslash) into the start of `out`; returns its raw length and the number of bytes
/// written, never more than the raw length. Invalid escapes are kept as the two characters they are.
fn escape(content: &str, i: usize, out: &mut [u8]) -> (usize, usize) {
    let b = content.as_bytes();
    let Some(&e) = b.get(i + 1) else {
        out[0] = b'\\';
        return (1, 1);
    };
    let simple = SIMPLE_ESCAPES[usize::from(e)];
    if simple != 0 {
        out[0] = simple;
        return (2, 1);
    }
    let put = |out: &mut [u8], c: char| c.encode_utf8(out).len();
    if e == b'u' {
        if let Some(hi) = hex4(b, i + 2) {
            if (0xD800..0xDC00).contains(&hi) && b.get(i + 6) == Some(&b'\\') && b.get(i + 7) == Some(&b'u') {
                if let Some(lo) = hex4(b, i + 8) {
                    if (0xDC00..0xE000).contains(&lo) {
                        let cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                        return (12, put(out, char::from_u32(cp).unwrap_or('\u{FFFD}')));
                    }
                }
            }
            return (6, put(out, char::from_u32(hi).unwrap_or('\u{FFFD}')));
        }
    }
    out[0] = b'\\';
    let ch = content[i + 1..].chars().next().unwrap_or('\u{FFFD}');
    (1 + ch.len_utf8(), 1 + put(&mut out[1..], ch))
}

/// Raw offset (within the content) of decoded offset `d`. An offset inside an escape's output maps to the
/// escape's start, so no range ever splits an escape.
pub(super) fn raw_offset(escs: &[Esc], d: usize) -> usize {
    let d = d as u32;
    let k = escs.partition_point(|e| e.dec <= d);
    if k == 0 {
        return d as usize;
    }
    let e = escs[k - 1];
    if d < e.dec_end {
        e.raw as usize
    } else {
        (e.raw_end + (d - e.dec_end)) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bytes::specials;
    use crate::redact::tests::xorshift;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// Content start and end, the index after the string, whether it has escapes; the decoded content and the
    /// escapes as (decoded start, raw start, decoded end, raw end).
    type TwoPass = ((usize, usize, usize, bool), String, Vec<(u32, u32, u32, u32)>);

    /// The two-pass reading `read_string` replaced: the extent first, then the content decoded on its own.
    fn two_pass(raw: &str, i: usize) -> TwoPass {
        let b = raw.as_bytes();
        let s = i + 1;
        let mut j = s;
        let mut escaped = false;
        let (ce, next) = loop {
            match b.get(j) {
                None => break (b.len(), b.len()),
                Some(b'"') => break (j, j + 1),
                Some(b'\\') => {
                    escaped = true;
                    j += 2;
                }
                Some(_) => j += 1,
            }
        };
        let (ce, next) = (ce.max(s), next.max(ce.max(s)));
        let mut out = String::new();
        let mut escs = Vec::new();
        if escaped {
            let content = &raw[s..ce];
            let cb = content.as_bytes();
            let mut k = 0;
            while k < cb.len() {
                if cb[k] != b'\\' {
                    let ch = content[k..].chars().next().unwrap();
                    out.push(ch);
                    k += ch.len_utf8();
                    continue;
                }
                let dec = out.len();
                let len = escape_by_chars(content, k, &mut out);
                escs.push((dec as u32, k as u32, out.len() as u32, (k + len) as u32));
                k += len;
            }
        }
        ((s, ce, next, escaped), out, escs)
    }

    /// The escape decoding `escape` replaced, one `char` at a time into a `String`: the reference for it.
    fn escape_by_chars(content: &str, i: usize, out: &mut String) -> usize {
        let b = content.as_bytes();
        let Some(&e) = b.get(i + 1) else {
            out.push('\\');
            return 1;
        };
        let simple = match e {
            b'"' => Some('"'),
            b'\\' => Some('\\'),
            b'/' => Some('/'),
            b'b' => Some('\u{8}'),
            b'f' => Some('\u{c}'),
            b'n' => Some('\n'),
            b'r' => Some('\r'),
            b't' => Some('\t'),
            _ => None,
        };
        if let Some(c) = simple {
            out.push(c);
            return 2;
        }
        if e == b'u' {
            if let Some(hi) = hex4(b, i + 2) {
                if (0xD800..0xDC00).contains(&hi) && b.get(i + 6) == Some(&b'\\') && b.get(i + 7) == Some(&b'u') {
                    if let Some(lo) = hex4(b, i + 8) {
                        if (0xDC00..0xE000).contains(&lo) {
                            let cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                            out.push(char::from_u32(cp).unwrap_or('\u{FFFD}'));
                            return 12;
                        }
                    }
                }
                out.push(char::from_u32(hi).unwrap_or('\u{FFFD}'));
                return 6;
            }
        }
        out.push('\\');
        let ch = content[i + 1..].chars().next().unwrap_or('\u{FFFD}');
        out.push(ch);
        1 + ch.len_utf8()
    }

    /// What [`simple_escapes`] must answer, one byte at a time as `decode` reads escapes.
    fn simple_escapes_by_bytes(b: &[u8], s: usize) -> Option<(usize, Vec<u64>)> {
        let mut bits = vec![0u64; (b.len() - s) / 64 + 1];
        let mut j = s;
        loop {
            match b.get(j) {
                None => return None,
                Some(b'"') => {
                    bits.truncate((j - s) / 64 + 1);
                    return Some((j, bits));
                }
                Some(b'\\') => {
                    let e = *b.get(j + 1)?;
                    if SIMPLE_ESCAPES[usize::from(e)] == 0 {
                        return None;
                    }
                    bits[(j + 1 - s) / 64] |= 1 << ((j + 1 - s) % 64);
                    j += 2;
                }
                Some(_) => j += 1,
            }
        }
    }

    #[test]
    fn simple_escape_bytes() {
        let mut chunk = [0u8; 64];
        for start in (0..256).step_by(64) {
            for (k, c) in chunk.iter_mut().enumerate() {
                *c = (start + k) as u8;
            }
            let sp = specials(&chunk);
            for (k, &c) in chunk.iter().enumerate() {
                assert_eq!(sp.simple >> k & 1 == 1, SIMPLE_ESCAPES[usize::from(c)] != 0, "{c:#x}");
                assert_eq!(sp.quote >> k & 1 == 1, c == b'"', "{c:#x}");
                assert_eq!(sp.backslash >> k & 1 == 1, c == b'\\', "{c:#x}");
            }
            assert_eq!(sp.dollar, chunk.contains(&b'$'));
        }
    }

    #[test]
    fn simple_escapes_match_the_byte_reading() {
        // Runs of backslashes of every length, across block boundaries, before quotes, letters and `u`.
        const PIECES: &[&str] =
            &["\\", "\\\\", "\\\\\\", "\"", "\\\"", "n", "u", "x", "é", "a", "0123456789abcdef", " ", "/"];
        let mut state = 0x51f1_5eedu32;
        let mut bits = Vec::new();
        for round in 0..30000 {
            let mut raw = "x".repeat(round % 3);
            let i = raw.len();
            raw.push('"');
            for _ in 0..xorshift(&mut state) % (if round % 2 == 0 { 40 } else { 200 }) {
                raw.push_str(PIECES[xorshift(&mut state) as usize % PIECES.len()]);
            }
            if round % 5 != 0 {
                raw.push_str("\" tail");
            }
            let b = raw.as_bytes();
            let want = simple_escapes_by_bytes(b, i + 1);
            let got = simple_escapes(b, i + 1, &mut bits);
            if let (Some((e, dollar)), Some(_)) = (got, &want) {
                // A `$` in the content is always seen; one is said to be there only if the text has one.
                assert!(dollar || !b[i + 1..e].contains(&b'$'), "{raw:?}");
                assert!(!dollar || b.contains(&b'$'), "{raw:?}");
            }
            assert_eq!(got.map(|(e, _)| (e, bits.clone())), want, "{raw:?}");
        }
    }

    #[test]
    fn one_pass_string_reading_matches_two_passes() {
        const PIECES: &[&str] = &[
            "a",
            "xyz",
            " ",
            "\"",
            "\\",
            "\\\"",
            "\\\\",
            "\\n",
            "\\u0041",
            "\\ud83d\\ude00",
            "\\ud83d",
            "\\u12",
            "\\uZZZZ",
            "\\é",
            "é",
            "日本",
            "\\x",
            "password=",
            "0123456789abcdef",
            "a plain run of more than sixteen bytes",
            "0123456789abcde",
            "0123456789abcdefg",
            "0123456789abcdef0123456789abcde",
            "0123456789abcdef0123456789abcdef",
            "0123456789abcdef0123456789abcdefg",
        ];
        let mut state = 0x9e37_79b9u32;
        // One decoder for all strings, as in a walk: what an earlier string left in its buffer must not show.
        let mut dec = Decoded::default();
        for round in 0..20000 {
            // Text before the string, the string, and (when the content ended in a quote) what follows it, so that
            // the 16-byte reads meet the closing quote and the end of the input at every offset.
            let mut raw = "x".repeat(round % 7);
            let i = raw.len();
            raw.push('"');
            for _ in 0..xorshift(&mut state) % (if round % 2 == 0 { 24 } else { 80 }) {
                raw.push_str(PIECES[xorshift(&mut state) as usize % PIECES.len()]);
            }
            let (extent, want, want_escs) = two_pass(&raw, i);
            let (cs, ce, next, read) = read_string(&raw, i, &mut dec, None);
            assert_eq!((cs, ce, next, matches!(read, Read::Decoded(_))), extent, "{raw:?}");
            if extent.3 {
                assert_eq!(dec.text(), want, "{raw:?}");
                let got_escs: Vec<_> = dec.escs.iter().map(|e| (e.dec, e.raw, e.dec_end, e.raw_end)).collect();
                assert_eq!(got_escs, want_escs, "{raw:?}");
            }
        }
    }
}
