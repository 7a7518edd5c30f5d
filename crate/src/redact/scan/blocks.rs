//! The block scan's view of the text: the class of every byte, 64 bytes at a time, and the events of each block
//! (the stops and the word runs a handler may act on), derived from the class bitmaps by word arithmetic.

use crate::bytes::Masks;

/// Bit 0: part of a word run. Bit 1: a separator inside a run (`_ - .`). Bit 2: punctuation that stops.
pub(super) const WORD: u8 = 1;
pub(super) const SEP: u8 = 3;
pub(super) const STOP: u8 = 4;

pub(super) static CLASS: [u8; 256] = {
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
    t[b'>' as usize] = STOP;
    t
};

#[inline]
pub(super) fn is_word(c: u8) -> bool {
    CLASS[c as usize] & WORD != 0
}

/// The bytes a block scan walks, and which of them are escaped. Decoded text (`esc` empty) has no escaped byte. Raw
/// JSON string content scanned without decoding it ([`Scanner::new_raw`]) has one bit per byte in `esc` (bit k of
/// word w: byte 64w + k), set on the second byte of each escape: the `n` of `\n`, the `"` of `\"`. Such a byte
/// stands for a character of no class (see [`Scanner::run_raw`]), so it is never part of a word run.
/// `RAW` is whether it is raw content (a constant, so that the decoded scan compiles as if there were no escapes).
#[derive(Clone, Copy)]
pub(super) struct Text<'a, const RAW: bool> {
    pub(super) b: &'a [u8],
    pub(super) esc: &'a [u64],
}

impl<const RAW: bool> Text<'_, RAW> {
    /// Whether byte `x` is a word byte of the text the bytes stand for.
    #[inline]
    pub(super) fn word_at(self, x: usize) -> bool {
        is_word(self.b[x]) && !self.escaped(x)
    }

    /// Where the word run that ends at `e` starts (`e` when the byte before it is no word byte).
    #[inline]
    pub(super) fn word_start(self, e: usize) -> usize {
        let mut x = e;
        while x > 0 && is_word(self.b[x - 1]) {
            x -= 1;
        }
        // (An escaped byte, which is no word byte, follows its backslash, which is none either: of the bytes passed
        // over, only the first can be one, so the escaped bits are read once, not at every byte.)
        if x < e && self.escaped(x) {
            x + 1
        } else {
            x
        }
    }

    /// Whether byte `x` is the second byte of an escape (never in decoded text). (The byte before such a byte is the
    /// escape's backslash: looked at first, it spares most looks into the escaped bits.)
    #[inline]
    pub(super) fn escaped(self, x: usize) -> bool {
        RAW && x > 0 && self.b.get(x - 1) == Some(&b'\\') && self.escaped64(x & !63) >> (x & 63) & 1 != 0
    }

    /// The escaped bits of the 64 bytes from `base` (a multiple of 64).
    #[inline]
    pub(super) fn escaped64(self, base: usize) -> u64 {
        self.esc.get(base >> 6).copied().unwrap_or(0)
    }

    /// The class bitmaps of the 64 bytes from `base` (a multiple of 64), escaped bytes taken out of the word runs.
    #[inline]
    pub(super) fn masks(self, base: usize, m: &mut Masks) {
        Masks::fill(self.b, base, m);
        if RAW {
            m.word &= !self.escaped64(base);
        }
    }
}

/// Bits `0..k` (`k < 64`).
#[inline]
fn low(k: usize) -> u64 {
    (1u64 << k) - 1
}

/// One 64-byte block of the text (`base` a multiple of 64), its class bitmaps and its events: every stop; the
/// starts of the word runs that `on_word` may act on (a separator first, 15 bytes or more, or 5–6 bytes starting
/// with `e`/`b`/`B`); and every space right after a run that holds a separator. A superset is harmless (each event
/// is checked exactly); missing one is not, so runs that go on into the next block are followed there.
///
/// Runs shorter than 15 bytes that start with a digit (`10`, `2026-11-29T10`, `00.564Z`) are left out, with the
/// space after any run that starts with a digit and a stop between such a run and a digit (`10:00`,
/// `2026-11-29T10:00`): `on_word` never acts on such a short run (no token shape and no key starts with a digit;
/// only a quoted literal of 15 bytes or more may be a secret whatever it starts with, `IDENTIFIED BY '5ba4f7…'`),
/// and a stop whose key is such a run only looks at the key (`assignment`: no key starting with a digit names a
/// secret; a URL needs `:/`). Log text is full of them: they were half the events of a keyword-dense log.
pub(in crate::redact) struct Block {
    pub(super) base: usize,
    pub(super) m: Masks,
    /// The masks of the next block, for runs that go on into it.
    pub(super) next: Masks,
    pub(super) events: u64,
    /// Whether a run holding a separator goes on into the next block (the carry of the sum below).
    carry: u64,
    /// Whether a run that starts with a digit goes on into the next block (as `carry`).
    digit_carry: u64,
}

impl Block {
    pub(super) fn new<const RAW: bool>(t: Text<RAW>) -> Block {
        let mut blk =
            Block { base: 0, m: Masks::default(), next: Masks::default(), events: 0, carry: 0, digit_carry: 0 };
        t.masks(0, &mut blk.next);
        blk.derive(t, false);
        blk
    }

    /// Moves to the block at `base`, reusing the masks computed as the next ones when it is the next block.
    pub(super) fn move_to<const RAW: bool>(&mut self, t: Text<RAW>, base: usize) {
        if base == self.base + 64 {
            // The byte before is the last of the block left, whose masks are at hand.
            let before_is_word = self.m.word >> 63 != 0;
            self.base = base;
            self.derive(t, before_is_word);
            return;
        }
        // Not the next block: whether a run coming in holds a separator is not known, so assume it does, and that
        // it does not start with a digit (both keep events).
        self.base = base;
        t.masks(base, &mut self.next);
        let before_is_word = base > 0 && t.word_at(base - 1);
        self.carry = u64::from(before_is_word);
        self.digit_carry = 0;
        self.derive(t, before_is_word);
    }

    /// Takes `next` as this block's masks (the carry is the one into it) and computes the events. `before_is_word`:
    /// whether the byte before the block is a word byte.
    fn derive<const RAW: bool>(&mut self, t: Text<RAW>, before_is_word: bool) {
        let base = self.base;
        // This block's masks move to `m` and the next block's are written into `next` in place (a copy of a returned
        // `Masks` was a 48-byte memory.copy, which V8 makes a call out of the wasm code).
        self.m = self.next;
        t.masks(base + 64, &mut self.next);
        let (m, next) = (self.m, self.next);
        let w = m.word;
        let starts = w & !((w << 1) | u64::from(before_is_word));
        // Bit k of `run_n`: the n bytes from k are word bytes; `shr` takes the top bits from the next block.
        let shr = |lo: u64, hi: u64, k: u32| (lo >> k) | (hi << (64 - k));
        let nw = next.word;
        let (run2, run2n) = (w & shr(w, nw, 1), nw & (nw >> 1));
        let (run4, run4n) = (run2 & shr(run2, run2n, 2), run2n & (run2n >> 2));
        let (run8, run8n) = (run4 & shr(run4, run4n, 4), run4n & (run4n >> 4));
        // Two runs that overlap: `run4` at k and at k + 3 is a run of 7 from k, and so on.
        let run5 = run4 & shr(w, nw, 4);
        let run7 = run4 & shr(run4, run4n, 3);
        let run15 = run8 & shr(run8, run8n, 7);
        let first = starts & (m.sep | run15 | (m.be & run5 & !run7));
        // Adding a run's separators (and the carry in, at bit 0) to the word bits carries through each run that
        // holds one to the byte after it (run arithmetic as simdjson does it for quoted strings).
        let (sum, c1) = w.overflowing_add(m.sep & w);
        let (sum, c2) = sum.overflowing_add(self.carry);
        let spaced = sum & !w & m.space;
        // The same sum from the first byte of each run that starts with a digit: the bytes right after those runs.
        let digit_led = starts & m.digit;
        let (sum, c3) = w.overflowing_add(digit_led);
        let (sum, c4) = sum.overflowing_add(self.digit_carry);
        let after_digit_led = sum & !w;
        let dull = (digit_led & !run15) | (after_digit_led & (m.space | (m.stop & shr(m.digit, next.digit, 1))));
        self.events = (first | m.stop | spaced) & !dull;
        self.carry = u64::from(c1 | c2);
        self.digit_carry = u64::from(c3 | c4);
    }

    /// The end of the word run through `p` (a word byte in this block).
    #[inline]
    pub(super) fn word_end<const RAW: bool>(&self, t: Text<RAW>, p: usize) -> usize {
        let rest = !self.m.word >> (p - self.base);
        if rest != 0 {
            return p + rest.trailing_zeros() as usize;
        }
        let mut e = self.base + 64;
        if !self.next.word != 0 {
            return e + (!self.next.word).trailing_zeros() as usize;
        }
        e += 64;
        while e < t.b.len() && t.word_at(e) {
            e += 1;
        }
        e
    }

    /// The end of the word run from `u` (at or after `base`; `u` itself when it is no word byte).
    #[inline]
    pub(super) fn run_end<const RAW: bool>(&self, t: Text<RAW>, u: usize) -> usize {
        let mut e = u;
        if u < self.base + 64 {
            return self.word_end(t, u);
        } else if u < self.base + 128 {
            let rest = !self.next.word >> (u - self.base - 64);
            if rest != 0 {
                return u + rest.trailing_zeros() as usize;
            }
            e = self.base + 128;
        }
        while e < t.b.len() && t.word_at(e) {
            e += 1;
        }
        e
    }

    /// The start of the word run that ends at `e` (`b[e - 1]` a word byte, `e <= base + 64`), cut at `from`.
    #[inline]
    pub(super) fn run_start<const RAW: bool>(&self, t: Text<RAW>, from: usize, e: usize) -> usize {
        let mut s = e;
        if e > self.base {
            let gaps = !self.m.word & low(e - 1 - self.base);
            if gaps != 0 {
                return from.max(self.base + 64 - gaps.leading_zeros() as usize);
            }
            s = self.base;
        }
        while s > from && t.word_at(s - 1) {
            s -= 1;
        }
        s.max(from)
    }

    /// The last word run in `from..p` (`p` in this block, not a word byte), cut at `from`.
    #[inline]
    pub(super) fn last_run<const RAW: bool>(&self, t: Text<RAW>, from: usize, p: usize) -> Option<(usize, usize)> {
        let mut words = self.m.word & low(p - self.base);
        if from > self.base {
            words &= !low(from - self.base);
        }
        if words != 0 {
            // The run ends after the last word byte of the mask (which is after `from`).
            let e = self.base + 64 - words.leading_zeros() as usize;
            return Some((self.run_start(t, from, e), e));
        }
        if from >= self.base {
            return None;
        }
        let mut e = self.base;
        while e > from && !t.word_at(e - 1) {
            e -= 1;
        }
        (e > from).then(|| (self.run_start(t, from, e), e))
    }

    /// Whether `s..e` holds a separator.
    #[inline]
    pub(super) fn has_sep(&self, b: &[u8], s: usize, e: usize) -> bool {
        if s >= self.base && e < self.base + 64 {
            return (self.m.sep >> (s - self.base)) & low(e - s) != 0;
        }
        b[s..e].iter().any(|&c| CLASS[c as usize] == SEP)
    }
}
