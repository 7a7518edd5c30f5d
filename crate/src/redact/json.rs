//! Redaction inside a JSON value given as raw text.
//!
//! The walk is iterative (an explicit stack, so 100k-deep nesting costs memory, not call stack) and never
//! re-serialises: only bytes inside string literals are replaced, by markers that need no escaping. A string
//! with escapes is decoded for matching together with a map from each decoded byte back to the raw offset of the
//! escape it came from, so a redacted range always covers whole escapes (never half of `\uD83D\uDE00`, never a
//! lone backslash). Input that is not valid JSON is still walked without panicking; what it yields is best effort.

use super::rules::{accept_value, classify_key, twilio_sid_under, whole_token, Family, KeyClass, Mode, Rule};
use super::scan::{auth_credential, Found, Resume};
use std::rc::Rc;

/// A key as it appears in a path: its raw (escaped) text, or a redacted copy when the key itself held a secret.
enum KeySeg {
    Raw(usize, usize),
    Owned(String),
}

enum Frame {
    /// `named`: what a `"name"` (or `"key"`) member of this object named, when that names a secret: its `"value"`
    /// member is then that secret (`{"name": "X-Goog-Signature", "value": "…"}` in HAR files, container env lists).
    Obj {
        key: Option<KeySeg>,
        want_key: bool,
        named: Option<KeyClass>,
    },
    Arr {
        idx: usize,
    },
}

/// The string elements of an array read so far as a command's arguments (`["mysql", "-u", "root", "-pX"]`,
/// `["redis-server", "--requirepass", "X"]`): the first one, and the last four before the element being read (the
/// first among them, while there are fewer), as raw content ranges.
#[derive(Clone, Copy, Default)]
struct Args {
    first: Option<(usize, usize)>,
    last: [Option<(usize, usize)>; 4],
}

impl Args {
    /// Whether the string content `raw[cs..ce]` can be an argument here: not empty, no escape, no blank.
    fn plain(b: &[u8], cs: usize, ce: usize) -> bool {
        ce > cs && !b[cs..ce].iter().any(|&c| c == b'\\' || c.is_ascii_whitespace())
    }

    /// Takes the string element `raw[cs..ce]` as the next argument.
    #[inline]
    fn push(&mut self, cs: usize, ce: usize) {
        self.first = self.first.or(Some((cs, ce)));
        self.last = [self.last[1], self.last[2], self.last[3], Some((cs, ce))];
    }

    /// Whether the element `raw[cs..ce]` or the one before looks like an option (starts with `-` or `/`): the test
    /// before [`line`](Self::line), on every string element of every array.
    #[inline]
    fn near_option(&self, b: &[u8], cs: usize, ce: usize) -> bool {
        let option = |r: Option<(usize, usize)>| r.is_some_and(|(s, e)| e > s && matches!(b[s], b'-' | b'/'));
        self.first.is_some() && (option(Some((cs, ce))) || option(self.last[3]))
    }

    /// The command line the element `raw[cs..ce]` ends, and where the element starts in it: its program, the four
    /// arguments before it, and it. `None` when one of them has an escape or a blank (then it is not an argv).
    fn line(&self, b: &[u8], cs: usize, ce: usize) -> Option<(String, usize)> {
        let first = self.first.filter(|f| !self.last.contains(&Some(*f)));
        let before = [first, self.last[0], self.last[1], self.last[2], self.last[3]];
        let mut line = String::new();
        for (s, e) in before.into_iter().flatten() {
            Args::plain(b, s, e).then_some(())?;
            line.push_str(std::str::from_utf8(&b[s..e]).ok()?);
            line.push(' ');
        }
        let at = line.len();
        Args::plain(b, cs, ce).then_some(())?;
        line.push_str(std::str::from_utf8(&b[cs..ce]).ok()?);
        Some((line, at))
    }
}

/// Adds to `spans` (of the element `raw[cs..ce]`, a string of an array) what a scan of the command line it ends finds
/// in it (see [`Args`]).
#[inline(never)]
fn argv_spans(
    b: &[u8],
    cs: usize,
    ce: usize,
    args: &Args,
    scan: &dyn Fn(&str, Resume) -> Vec<Found>,
    spans: &mut Vec<Found>,
) {
    let Some((line, at)) = args.line(b, cs, ce) else { return };
    let len = ce - cs;
    for f in scan(&line, Resume::START) {
        let inside = f.start >= at && f.end <= at + len;
        if inside && spans.iter().all(|g| g.end <= f.start - at || g.start >= f.end - at) {
            spans.push(Found { start: f.start - at, end: f.end - at, rule: f.rule });
        }
    }
    spans.sort_by_key(|f| f.start);
}

/// Whether a member key is one of the two halves of a name/value pair: `Some(true)` for `name`/`key`, `Some(false)`
/// for `value`.
fn pair_half(key: &[u8]) -> Option<bool> {
    match key {
        b"name" | b"Name" | b"key" | b"Key" => Some(true),
        b"value" | b"Value" => Some(false),
        _ => None,
    }
}

/// One replacement in the raw text: `start..end` becomes the marker for `rule`; `path` locates it.
pub struct Edit {
    pub start: usize,
    pub end: usize,
    pub rule: Rule,
    /// Shared by the edits of one string.
    pub path: Rc<str>,
}

/// Scans the raw content of a string whose escapes are all two bytes long, given the escaped bits (see
/// `scan::Scanner::run_raw`): `Ok` when the decoded content is proven to hold nothing to redact, else where the
/// scan of the decoded content is to go on from (in raw offsets).
pub type ScanRaw<'a> = &'a dyn Fn(&str, &[u64]) -> Result<(), Resume>;

/// Strings with escapes at least this long are first scanned raw ([`ScanRaw`]), which spares decoding them when
/// that proves them clean (decoding log text, an escape every few dozen bytes, cost a quarter of its redaction).
/// When the raw scan gives up, the scan of the decoded string goes on from there, so only the pass that finds the
/// escapes was spent for nothing (about a tenth of the string's redaction). Shorter strings are decoded at once:
/// in an entry of a few kilobytes (most entries) the saving did not pay for that risk (wasm A/B, one entry: 1 KiB
/// and 3 KiB of log text at par with RAW_FROM 4096; with 1024, a 1 KiB entry holding secrets 14% slower).
const RAW_FROM: usize = 4096;

/// Walks `raw` and returns the edits, in order. `parent_key` is the key of the member `raw` is the value of, when
/// the caller holds them apart. `scan` finds spans in decoded text (built-in rules, user patterns, allow lists),
/// from the start of the text or from where a raw scan gave up; `scan_raw`, when given, can prove a long string
/// clean without decoding it (only when `scan` runs the built-in rules alone); `allowed` is the allow list, for
/// whole-value redactions.
/// `dec`: the buffers strings are decoded into, which the caller may keep from one walk to the next (see
/// [`Decoded::trim`]).
pub fn walk(
    raw: &str,
    parent_key: Option<&str>,
    scan: &dyn Fn(&str, Resume) -> Vec<Found>,
    scan_raw: Option<ScanRaw>,
    allowed: &dyn Fn(&str) -> bool,
    dec: &mut Decoded,
) -> Vec<Edit> {
    let b = raw.as_bytes();
    let n = b.len();
    let mut stack: Vec<Frame> = Vec::new();
    // The arguments read so far of the innermost array opened last, and its depth in `stack` (an array in which
    // another one was opened is no longer read as arguments: what follows the inner one is not its next argument).
    let mut args = Args::default();
    let mut args_depth = 0;
    let mut edits: Vec<Edit> = Vec::new();
    let mut i = 0;
    while i < n {
        match b[i] {
            b'"' => {
                let is_key = matches!(stack.last(), Some(Frame::Obj { want_key: true, .. }));
                // The key this string is the value of (raw, or the redacted copy of a key that held a secret).
                let member_key: Option<&[u8]> = if is_key {
                    None
                } else {
                    match stack.last() {
                        Some(Frame::Obj { key: Some(KeySeg::Raw(ks, ke)), .. }) => Some(&b[*ks..*ke]),
                        Some(Frame::Obj { key: Some(KeySeg::Owned(k)), .. }) => Some(k.as_bytes()),
                        Some(_) => None,
                        None => parent_key.map(str::as_bytes),
                    }
                };
                let half = member_key.and_then(pair_half);
                let named = match stack.last() {
                    Some(Frame::Obj { named, .. }) if half == Some(false) => *named,
                    _ => None,
                };
                let kc = member_key.and_then(classify_key).or(named);
                // A value redacted whole needs the decoded text; the others may be proven clean undecoded.
                let scan_raw = if kc.is_none() { scan_raw } else { None };
                // One pass finds the end and, when there are escapes, decodes; otherwise the raw content is the text.
                let (cs, ce, next, read) = read_string(raw, i, dec, scan_raw);
                let has_escape = matches!(read, Read::Decoded(_));
                let text: &str = if has_escape { dec.text() } else { &raw[cs..ce] };
                let mut spans = match kc.and_then(|kc| whole_value(text, kc, allowed)) {
                    Some(f) => vec![f],
                    None if member_key.is_some_and(|k| twilio_sid_under(k, text.as_bytes())) && !allowed(text) => {
                        vec![Found { start: 0, end: text.len(), rule: Rule::TwilioKey }]
                    }
                    None => match read {
                        Read::Clean => Vec::new(),
                        Read::Decoded(from) => scan(text, from),
                        Read::Plain => scan(text, Resume::START),
                    },
                };
                if matches!(stack.last(), Some(Frame::Arr { .. })) && stack.len() == args_depth {
                    // An element of a command's arguments: read with the program and the arguments before it.
                    if args.near_option(b, cs, ce) {
                        argv_spans(b, cs, ce, &args, scan, &mut spans);
                    }
                    args.push(cs, ce);
                }
                let mut seg = if is_key { Some(KeySeg::Raw(cs, ce)) } else { None };
                if !spans.is_empty() {
                    let at = |d: usize| cs + if has_escape { raw_offset(&dec.escs, d) } else { d };
                    let ranges: Vec<(usize, usize)> = spans.iter().map(|f| (at(f.start), at(f.end))).collect();
                    if is_key {
                        seg = Some(KeySeg::Owned(redacted_copy(raw, cs, ce, &spans, &ranges)));
                    }
                    let path: Rc<str> = path_of(raw, &stack, seg.as_ref()).into();
                    for (f, &(start, end)) in spans.iter().zip(&ranges) {
                        edits.push(Edit { start, end, rule: f.rule, path: Rc::clone(&path) });
                    }
                }
                if half == Some(true) {
                    if let Some(Frame::Obj { named, .. }) = stack.last_mut() {
                        *named = classify_key(text.as_bytes());
                    }
                }
                if let (Some(seg), Some(Frame::Obj { key, want_key, .. })) = (seg, stack.last_mut()) {
                    *key = Some(seg);
                    *want_key = false;
                }
                i = next;
            }
            b'{' => {
                stack.push(Frame::Obj { key: None, want_key: true, named: None });
                i += 1;
            }
            b'[' => {
                stack.push(Frame::Arr { idx: 0 });
                args = Args::default();
                args_depth = stack.len();
                i += 1;
            }
            b'}' | b']' => {
                stack.pop();
                i += 1;
            }
            b',' => {
                match stack.last_mut() {
                    Some(Frame::Arr { idx }) => *idx += 1,
                    Some(Frame::Obj { key, want_key, .. }) => {
                        *key = None;
                        *want_key = true;
                    }
                    None => {}
                }
                i += 1;
            }
            b':' => {
                if let Some(Frame::Obj { want_key, .. }) = stack.last_mut() {
                    *want_key = false;
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    edits
}

/// A string value under a key that names a secret is redacted whole — except an `Authorization` value, whose
/// scheme stays, and values that are placeholders, messages, or PEM blocks (left to the PEM rule, which keeps
/// the armour lines).
fn whole_value(text: &str, kc: KeyClass, allowed: &dyn Fn(&str) -> bool) -> Option<Found> {
    let v = text.as_bytes();
    let found = if kc.family == Family::Authorization {
        let (s, e) = auth_credential(v, 0)?;
        Found { start: s, end: e, rule: whole_token(&v[s..e]).unwrap_or(kc.rule) }
    } else {
        if v.starts_with(b"-----BEGIN") {
            return None;
        }
        let rule = match whole_token(v) {
            Some(r) => r,
            None if accept_value(v, Mode::Literal, kc.family) => kc.rule,
            None => return None,
        };
        Found { start: 0, end: v.len(), rule }
    };
    (!allowed(&text[found.start..found.end])).then_some(found)
}

/// The decoded content of the last string read that had escapes (see [`read_string`]), and its escapes. The
/// buffers are kept from one string to the next, and by the redactor from one walk to the next.
#[derive(Default)]
pub struct Decoded {
    /// Bytes `..len` are the content; the bytes after them are room that the 32-byte copies below write into.
    buf: Vec<u8>,
    len: usize,
    escs: Vec<Esc>,
    /// The escaped bits of the last string [`simple_escapes`] read.
    esc_bits: Vec<u64>,
}

/// How [`read_string`] read a string.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Read {
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

    fn text(&self) -> &str {
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
fn read_string(raw: &str, i: usize, dec: &mut Decoded, scan_raw: Option<ScanRaw>) -> (usize, usize, usize, Read) {
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
        if let Some(ce) = simple_escapes(b, s, bits) {
            if ce - s >= RAW_FROM {
                match scan_raw(&raw[s..ce], bits) {
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
/// is two bytes long (`\" \\ \/ \b \f \n \r \t`), its content end, with `bits` set to the escaped bits of the
/// content (bit k of word w: content byte 64w + k is the second byte of an escape). `None` for a string with another
/// escape (`\uXXXX`, or one that is not valid JSON) or unterminated: those are decoded.
///
/// Branch-free per 64 bytes, whatever the number of escapes: which backslashes escape is found from the bitmap of
/// backslashes as simdjson does it (odd and even runs told apart by a subtraction), and the end is the first quote
/// that is not escaped. Where every escape is two bytes long, that is where decoding ends too. Compiled with
/// simd128 on wasm so that [`specials`] is inlined into the loop.
#[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128"))]
pub(super) fn simple_escapes(b: &[u8], s: usize, bits: &mut Vec<u64>) -> Option<usize> {
    const ODD: u64 = 0xaaaa_aaaa_aaaa_aaaa;
    bits.clear();
    bits.reserve((b.len() - s) / 64 + 1);
    // Whether the first byte of the next block is escaped (by a backslash that ends this block).
    let mut carry = 0u64;
    let mut base = s;
    while base < b.len() {
        let sp = specials64(b, base);
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
            return Some(base + ends.trailing_zeros() as usize);
        }
        base += 64;
    }
    None
}

/// Bitmaps of 64 bytes of `b` from `i` (bit k: byte i + k; bytes past the end are none of them).
struct Specials {
    quote: u64,
    backslash: u64,
    /// The bytes that follow a backslash in a two-byte escape: `" \ / b f n r t`.
    simple: u64,
}

#[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128"))]
#[inline]
fn specials64(b: &[u8], i: usize) -> Specials {
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
fn specials(chunk: &[u8; 64]) -> Specials {
    use core::arch::wasm32::*;
    let expect = u8x16(1, 0, b'b', 0, b't', 0, b'f', 0, 0, 0, 0, 0, b'\\', 0, b'n', b'/');
    // SAFETY: bytes 16q..16q+16 of the 64-byte chunk are readable; wasm loads need no alignment.
    let load = |q: usize| unsafe { v128_load(chunk[16 * q..].as_ptr().cast::<v128>()) };
    let v = [load(0), load(1), load(2), load(3)];
    let bits = |t: [v128; 4]| {
        u64::from(u8x16_bitmask(t[0]))
            | u64::from(u8x16_bitmask(t[1])) << 16
            | u64::from(u8x16_bitmask(t[2])) << 32
            | u64::from(u8x16_bitmask(t[3])) << 48
    };
    let eq = |v: v128, c: u8| i8x16_eq(v, u8x16_splat(c));
    let quote = [eq(v[0], b'"'), eq(v[1], b'"'), eq(v[2], b'"'), eq(v[3], b'"')];
    let simple = |q: usize| {
        let looked_up = i8x16_swizzle(expect, v128_and(v[q], u8x16_splat(0x0f)));
        v128_or(v128_or(i8x16_eq(v[q], looked_up), eq(v[q], b'r')), quote[q])
    };
    Specials {
        quote: bits(quote),
        backslash: bits([eq(v[0], b'\\'), eq(v[1], b'\\'), eq(v[2], b'\\'), eq(v[3], b'\\')]),
        simple: bits([simple(0), simple(1), simple(2), simple(3)]),
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn specials(chunk: &[u8; 64]) -> Specials {
    let mut sp = Specials { quote: 0, backslash: 0, simple: 0 };
    for (k, &c) in chunk.iter().enumerate() {
        sp.quote |= u64::from(c == b'"') << k;
        sp.backslash |= u64::from(c == b'\\') << k;
        sp.simple |= u64::from(SIMPLE_ESCAPES[usize::from(c)] != 0) << k;
    }
    sp
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

/// Bit k: byte k of the chunk is `"` or `\` (wasm simd128).
#[cfg(target_arch = "wasm32")]
#[target_feature(enable = "simd128")]
#[inline]
fn quotes_or_backslashes16(chunk: &[u8; 16]) -> u32 {
    use core::arch::wasm32::*;
    // SAFETY: the chunk holds 16 readable bytes; wasm loads need no alignment.
    let v = unsafe { v128_load(chunk.as_ptr().cast::<v128>()) };
    u32::from(u8x16_bitmask(v128_or(i8x16_eq(v, u8x16_splat(b'"')), i8x16_eq(v, u8x16_splat(b'\\')))))
}

/// The lowest bit of [the wasm version](quotes_or_backslashes16), which is all that is used, eight bytes at a time.
#[cfg(not(target_arch = "wasm32"))]
#[inline]
fn quotes_or_backslashes16(chunk: &[u8; 16]) -> u32 {
    for (h, c8) in chunk.chunks_exact(8).enumerate() {
        let hit = flag_quote_or_backslash(u64::from_le_bytes(c8.try_into().unwrap_or([0; 8])));
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
fn quote_or_backslash(b: &[u8], mut i: usize) -> usize {
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
fn quote_or_backslash(b: &[u8], i: usize) -> usize {
    quote_or_backslash_swar(b, i)
}

/// [`quote_or_backslash`] eight bytes at a time: the "has a zero byte" trick from "Bit Twiddling Hacks"
/// (https://graphics.stanford.edu/~seander/bithacks.html#ZeroInWord), whose lowest flagged byte is exact.
#[inline]
fn quote_or_backslash_swar(b: &[u8], mut i: usize) -> usize {
    while let Some(chunk) = b.get(i..i + 8) {
        let hit = flag_quote_or_backslash(u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8])));
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

/// The high bit of each byte of `x` that may be `"` or `\\`; the lowest flagged byte is exact.
#[inline]
fn flag_quote_or_backslash(x: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let q = x ^ (ONES * u64::from(b'"'));
    let s = x ^ (ONES * u64::from(b'\\'));
    (q.wrapping_sub(ONES) & !q | s.wrapping_sub(ONES) & !s) & HIGHS
}

/// What the byte after a backslash decodes to when the escape is those two bytes (0: not such an escape).
static SIMPLE_ESCAPES: [u8; 256] = {
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

/// One escape sequence: raw `raw..raw_end` (offsets in the content) decoded to `dec..dec_end`.
#[derive(Clone, Copy)]
struct Esc {
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
    let simple = match e {
        b'"' => Some(b'"'),
        b'\\' => Some(b'\\'),
        b'/' => Some(b'/'),
        b'b' => Some(0x08),
        b'f' => Some(0x0c),
        b'n' => Some(b'\n'),
        b'r' => Some(b'\r'),
        b't' => Some(b'\t'),
        _ => None,
    };
    if let Some(c) = simple {
        out[0] = c;
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
fn raw_offset(escs: &[Esc], d: usize) -> usize {
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

fn hex4(b: &[u8], i: usize) -> Option<u32> {
    let s = b.get(i..i + 4)?;
    let mut v = 0u32;
    for &c in s {
        v = v * 16 + (c as char).to_digit(16)?;
    }
    Some(v)
}

/// The raw content `cs..ce` with the spans (decoded offsets) replaced by markers; used for a path segment.
fn redacted_copy(raw: &str, cs: usize, ce: usize, spans: &[Found], ranges: &[(usize, usize)]) -> String {
    let mut out = String::new();
    let mut last = cs;
    for (f, &(s, e)) in spans.iter().zip(ranges) {
        out.push_str(raw.get(last..s).unwrap_or(""));
        super::push_marker(&mut out, f.rule);
        last = e;
    }
    out.push_str(raw.get(last..ce).unwrap_or(""));
    out
}

/// `$`, `$.env.API_KEY`, `$.items[3]`, `$["a b"]` — built only when something was redacted. Keys are written as
/// they are in the document (JSON-escaped), with any secret inside them already replaced by its marker.
fn path_of(raw: &str, stack: &[Frame], leaf: Option<&KeySeg>) -> String {
    let mut p = String::from("$");
    let leaf = leaf.map(|k| Frame::Obj { key: Some(borrow_seg(k)), want_key: false, named: None });
    for f in stack.iter().chain(leaf.iter()) {
        match f {
            Frame::Arr { idx } => {
                p.push('[');
                p.push_str(&idx.to_string());
                p.push(']');
            }
            Frame::Obj { key: Some(k), .. } => {
                let k: &str = match k {
                    KeySeg::Raw(s, e) => raw.get(*s..*e).unwrap_or(""),
                    KeySeg::Owned(s) => s,
                };
                let plain = !k.is_empty()
                    && k.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-' || c == b'$');
                if plain {
                    p.push('.');
                    p.push_str(k);
                } else {
                    p.push_str("[\"");
                    p.push_str(k);
                    p.push_str("\"]");
                }
            }
            Frame::Obj { key: None, .. } => {}
        }
    }
    p
}

fn borrow_seg(k: &KeySeg) -> KeySeg {
    match k {
        KeySeg::Raw(s, e) => KeySeg::Raw(*s, *e),
        KeySeg::Owned(s) => KeySeg::Owned(s.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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

    #[test]
    fn quote_or_backslash_finds_the_first() {
        let mut state = 0x2545_f491u32;
        for _ in 0..2000 {
            let len = xorshift(&mut state) as usize % 80;
            let b: Vec<u8> = (0..len)
                .map(|_| match xorshift(&mut state) % 40 {
                    0 => b'"',
                    1 => b'\\',
                    2 => 0xe9,
                    3 => 0x22 | 0x80,
                    k => b'a' + k as u8 % 26,
                })
                .collect();
            for i in 0..=len {
                let want = (i..len).find(|&j| b[j] == b'"' || b[j] == b'\\').unwrap_or(len);
                assert_eq!(quote_or_backslash(&b, i), want, "{b:?} from {i}");
                assert_eq!(quote_or_backslash_swar(&b, i), want, "{b:?} from {i}");
            }
        }
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
            let got = simple_escapes(b, i + 1, &mut bits).map(|e| (e, bits.clone()));
            assert_eq!(got, want, "{raw:?}");
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
