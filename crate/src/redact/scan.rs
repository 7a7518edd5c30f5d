//! The single pass over free text.
//!
//! Conceptually one loop walks the bytes with a 256-entry class table. Runs of token characters (`[A-Za-z0-9_.-]`)
//! are checked against the prefix-anchored token shapes only at their start; the four punctuation bytes `:`, `=`,
//! `>` and `[` are the only other stops: `:`/`=` look back at the run just before (a key naming a secret, a URL
//! scheme, a database key echo), `>` at an XML start tag (`<password>`), and `[` skips markers left by an earlier
//! pass. Spans come out sorted and disjoint,
//! because every handler returns a resume position at or past the end of what it redacted.
//!
//! That loop is kept in the tests as the reference. [`Scanner::run`] visits the same runs and stops with the same
//! resume positions but does not look at every byte: per 64-byte block it computes bitmaps of the byte classes
//! (SIMD on wasm, SWAR elsewhere), and from them the few events that matter — stops, and the word runs that
//! `on_word` could act on. The other runs only ever become the `key` of a later stop, so that is looked up
//! backwards when a stop needs it.

use super::command::{self, Look};
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
    t[b'>' as usize] = STOP;
    t
};

/// Where a scan stands between two events: the loop's position, `kfrom` and `key` (see `Scanner::run_blocks`).
/// What a raw scan that gave up hands over ([`Scanner::run_raw`]), in raw offsets, for the scan of the decoded text
/// to go on from ([`Scanner::run_from`]) once they are mapped to decoded offsets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resume {
    pub i: usize,
    pub kfrom: usize,
    pub key: (usize, usize),
}

impl Resume {
    /// The state at the start of a text.
    pub const START: Resume = Resume { i: 0, kfrom: 0, key: (0, 0) };

    /// The same state with every offset mapped by `f`.
    pub fn map(self, f: impl Fn(usize) -> usize) -> Resume {
        Resume { i: f(self.i), kfrom: f(self.kfrom), key: (f(self.key.0), f(self.key.1)) }
    }
}

/// A quoted or bare value after an assignment operator.
struct Val {
    start: usize,
    end: usize,
    quoted: bool,
}

#[inline]
fn is_word(c: u8) -> bool {
    CLASS[c as usize] & WORD != 0
}

/// Texts at least this long are scanned by blocks, shorter ones byte by byte ([`Scanner::run`]).
const BLOCKS_FROM: usize = 256;

/// The bytes a block scan walks, and which of them are escaped. Decoded text (`esc` empty) has no escaped byte. Raw
/// JSON string content scanned without decoding it ([`Scanner::new_raw`]) has one bit per byte in `esc` (bit k of
/// word w: byte 64w + k), set on the second byte of each escape: the `n` of `\n`, the `"` of `\"`. Such a byte
/// stands for a character of no class (see [`Scanner::run_raw`]), so it is never part of a word run.
/// `RAW` is whether it is raw content (a constant, so that the decoded scan compiles as if there were no escapes).
#[derive(Clone, Copy)]
struct Text<'a, const RAW: bool> {
    b: &'a [u8],
    esc: &'a [u64],
}

impl<const RAW: bool> Text<'_, RAW> {
    /// Whether byte `x` is a word byte of the text the bytes stand for.
    #[inline]
    fn word_at(self, x: usize) -> bool {
        is_word(self.b[x]) && (!RAW || self.escaped64(x & !63) >> (x & 63) & 1 == 0)
    }

    /// Whether byte `x` is the second byte of an escape (never in decoded text).
    #[inline]
    fn escaped(self, x: usize) -> bool {
        RAW && self.escaped64(x & !63) >> (x & 63) & 1 != 0
    }

    /// The escaped bits of the 64 bytes from `base` (a multiple of 64).
    #[inline]
    fn escaped64(self, base: usize) -> u64 {
        self.esc.get(base >> 6).copied().unwrap_or(0)
    }

    /// The class bitmaps of the 64 bytes from `base` (a multiple of 64), escaped bytes taken out of the word runs.
    #[inline]
    fn masks(self, base: usize, m: &mut Masks) {
        Masks::fill(self.b, base, m);
        if RAW {
            m.word &= !self.escaped64(base);
        }
    }
}

/// For a long quoted literal (its opening quote at `q`), whether what comes before it says it is a secret:
/// - a quoted name that names one, and a comma: `define('DB_PASSWORD', '…')`, `os.Setenv("DD_API_KEY", "…")`;
/// - SQL: `IDENTIFIED BY '…'`, `PASSWORD '…'`;
/// - the password argument of a call that logs in: the second of `login('user', '…')`, `NetworkCredential("u",
///   "…")`, `HTTPBasicAuth`, …; the third of `new PDO($dsn, 'user', '…')`, `DBI->connect($dsn, 'user', '…')`,
///   `mysqli_connect`, … (the argument before it a quoted user name).
///
/// Returns the family of the secret the literal is.
fn literal_named_before(b: &[u8], q: usize) -> Option<Family> {
    const LOGIN: [&[u8]; 9] = [
        b"login",
        b"authenticate",
        b"NetworkCredential",
        b"HTTPBasicAuth",
        b"HTTPDigestAuth",
        b"BasicAuth",
        b"UsernamePasswordCredentials",
        b"PasswordAuthentication",
        b"PasswordCredential",
    ];
    const CONNECT: [&[u8]; 5] = [b"PDO", b"connect", b"mysqli", b"mysqli_connect", b"mysql_connect"];
    let blanks = |j: usize| blanks_before(b, j);
    let j = blanks(q);
    if j >= 13 && b[j - 13..j].eq_ignore_ascii_case(b"IDENTIFIED BY") {
        return Some(Family::Password);
    }
    if j >= 9 && b[j - 8..j].eq_ignore_ascii_case(b"PASSWORD") && b[j - 9] == b' ' {
        return Some(Family::Password);
    }
    if j == 0 || b[j - 1] != b',' {
        return None;
    }
    // The argument before: a quoted literal (a name that names a secret, or a user name).
    let k = blanks(j - 1);
    let close = *b.get(k.checked_sub(1)?)?;
    if close != b'\'' && close != b'"' {
        return None;
    }
    let open = k - 1 - b[..k - 1].iter().rev().take(64).position(|&c| c == close)? - 1;
    let name = &b[open + 1..k - 1];
    if let Some(kc) = classify_key(name) {
        return Some(kc.family);
    }
    // Which argument the literal is: count the commas back to the call's `(`.
    let mut args = 1;
    let mut i = blanks(open);
    loop {
        match *b.get(i.checked_sub(1)?)? {
            b'(' => break,
            b',' => args += 1,
            b'\n' | b';' | b')' => return None,
            // A quoted argument (`DBI->connect("dbi:Pg:…", …)`) is passed over whole.
            c @ (b'"' | b'\'') => i -= b[..i - 1].iter().rev().take(256).position(|&x| x == c)? + 1,
            _ => {}
        }
        if args > 2 || q - i > 256 {
            return None;
        }
        i -= 1;
    }
    let f = blanks(i - 1);
    let fs = run_back(b, f, |c| is_alnum(c) || c == b'_');
    let func = &b[fs..f];
    let login = args == 1 && LOGIN.contains(&func);
    let connect = args == 2 && CONNECT.contains(&func);
    (login || connect).then_some(Family::Password)
}

/// Where the spaces and tabs that end at `j` start.
fn blanks_before(b: &[u8], j: usize) -> usize {
    run_back(b, j, |c| c == b' ' || c == b'\t')
}

/// For the raw scan: whether the run `s..e` is a quoted literal (`'…'`, or `\"…\"` in raw JSON string content) after a
/// comma or a word (blanks passed over), where [`literal_named_before`] may find it named in the decoded text;
/// elsewhere (after `:`, `=`, `(`, `[`) it never does.
fn quoted_after_comma_or_word<const RAW: bool>(t: Text<RAW>, s: usize, e: usize) -> bool {
    let b = t.b;
    if s < 2 {
        return false;
    }
    let open = match b[s - 1] {
        b'\'' if b.get(e) == Some(&b'\'') => s - 1,
        b'"' if t.escaped(s - 1) && b.get(e) == Some(&b'\\') && b.get(e + 1) == Some(&b'"') => s - 2,
        _ => return false,
    };
    let j = run_back(b, open, |c| c == b' ');
    // (An escape's second byte there is a letter, `\t`, or decodes to no comma or letter.)
    j > 0 && (b[j - 1] == b',' || b[j - 1].is_ascii_alphabetic())
}

/// Whether the word that ends at `sp` (a space follows it) is `password`, `passwd` (`.netrc`), `requirepass` or
/// `masterauth` (`redis.conf`), in any case, a word of its own. For a value of 15 word characters or more after it
/// and the space (shorter values are never looked at: see `Block`).
fn is_password_word<const RAW: bool>(t: Text<RAW>, sp: usize) -> bool {
    // (Raw: an escape's second byte, the `n` of `\n`, is no word byte: the decoded text has a newline there.)
    let ws = sp - (0..sp).rev().take_while(|&x| t.word_at(x)).count();
    [&b"password"[..], b"passwd", b"requirepass", b"masterauth"].iter().any(|k| t.b[ws..sp].eq_ignore_ascii_case(k))
}

/// A type in a declaration between the name and `=` (`: &str`, `: string`, `: String`, Go's `string`).
#[inline]
fn is_type_word(k: &[u8]) -> bool {
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
fn odbc_pwd(b: &[u8], key: (usize, usize), op: usize) -> bool {
    let (ks, ke) = key;
    if ke - ks != 3 || !b[ks..ke].eq_ignore_ascii_case(b"pwd") || b.get(op) != Some(&b'=') {
        return false;
    }
    let v = op + 1;
    let n = run_len(b, v, |c| !matches!(c, b';' | b'"' | b'\'' | b' ' | b'\n' | b'\r'));
    (ks > 0 && b[ks - 1] == b';') || (n > 0 && b.get(v + n) == Some(&b';'))
}

/// `i`, or the byte after it when that is a space: the byte loop passes a space by, and skipping it here saves
/// visiting the event of a space right after a word run that `word` has just dealt with.
#[inline]
fn past_space(b: &[u8], i: usize) -> usize {
    if b.get(i) == Some(&b' ') {
        i + 1
    } else {
        i
    }
}

/// A development default in a URL: the same word as user name and password (`postgres:postgres`, `guest:guest`) at
/// a loopback host (`localhost`, `127.0.0.1`, `[::1]`).
fn local_default(user: &[u8], pw: &[u8], host: &[u8]) -> bool {
    user == pw
        && [&b"localhost"[..], b"127.0.0.1", b"[::1]"]
            .iter()
            .any(|h| host.starts_with(h) && !host.get(h.len()).is_some_and(|&c| is_word(c)))
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

/// Whether `key` is the word `value` (the second half of a YAML name/value pair, see `Scanner::named_by_sibling`).
#[inline]
fn is_value_key(b: &[u8], key: (usize, usize)) -> bool {
    key.1 - key.0 == 5 && &b[key.0..key.1] == b"value"
}

/// Whether the stop `>` at `p` ends an XML start tag right after its name, `key` (`<password>`).
#[inline]
fn is_start_tag(b: &[u8], key: (usize, usize), p: usize) -> bool {
    key.1 == p && key.0 > 0 && b[key.0 - 1] == b'<'
}

/// For the attribute `value` at `ks` of an XML element: the `key` or `name` attribute before it in the same tag
/// (`<add key="DbPassword" value="…"/>` in .NET configuration, `<env name="API_TOKEN" value="…"/>` in phpunit.xml).
fn xml_attribute_name(b: &[u8], ks: usize) -> Option<(usize, usize)> {
    let from = ks.saturating_sub(256);
    let lt = from + b[from..ks].iter().rposition(|&c| matches!(c, b'<' | b'>' | b'\n'))?;
    if b[lt] != b'<' {
        return None;
    }
    let tag = &b[lt..ks];
    let at =
        [&b" key=\""[..], b" name=\"", b" key='", b" name='"].iter().find_map(|p| find(tag, p).map(|k| k + p.len()))?;
    let ns = lt + at;
    let ne = ns + run_len(b, ns, |c| is_alnum(c) || matches!(c, b'_' | b'-' | b'.' | b':'));
    (ne > ns && matches!(b.get(ne), Some(b'"' | b'\''))).then_some((ns, ne))
}

/// Whether a value read after a key and a space is itself an assignment, `NAME=value` (`TWINE_USERNAME=__token__
/// TWINE_PASSWORD=…`: the value of `__token__` is not `TWINE_PASSWORD=…`; the assignment is taken on its own). Base64
/// padding (`…==`) is not an operator.
fn is_assignment(v: &[u8]) -> bool {
    let Some(q) = v.iter().position(|&c| c == b'=') else { return false };
    q > 0
        && (v[0].is_ascii_alphabetic() || v[0] == b'_')
        && v[..q].iter().all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'))
        && v[q..].iter().any(|&c| c != b'=')
}

/// Bits `0..k` (`k < 64`).
#[inline]
fn low(k: usize) -> u64 {
    (1u64 << k) - 1
}

/// Class bitmaps of 64 bytes (bit k: byte k; bytes past the end of the text are in no class).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Masks {
    /// Word bytes, `[A-Za-z0-9_.-]`.
    word: u64,
    /// Separators inside words, `_ - .`.
    sep: u64,
    /// Stops, `: = [`.
    stop: u64,
    /// Spaces (only `' '`: `spaced` wants exactly one).
    space: u64,
    /// `b`, `B`, `e` and `E`: the first letters of `bearer` and `entry`, and `E`, which comes with them in the
    /// nibble lookups of [`classes64`] (a superset of events is harmless: `word` checks each exactly).
    be: u64,
    /// Digits.
    digit: u64,
}

impl Masks {
    #[cfg(test)]
    fn at(b: &[u8], base: usize) -> Masks {
        let mut m = Masks::default();
        Masks::fill(b, base, &mut m);
        m
    }

    /// Writes the masks of the 64 bytes from `base` into `m`.
    #[inline]
    fn fill(b: &[u8], base: usize, m: &mut Masks) {
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
struct Block {
    base: usize,
    m: Masks,
    /// The masks of the next block, for runs that go on into it.
    next: Masks,
    events: u64,
    /// Whether a run holding a separator goes on into the next block (the carry of the sum below).
    carry: u64,
    /// Whether a run that starts with a digit goes on into the next block (as `carry`).
    digit_carry: u64,
}

impl Block {
    fn new<const RAW: bool>(t: Text<RAW>) -> Block {
        let mut blk =
            Block { base: 0, m: Masks::default(), next: Masks::default(), events: 0, carry: 0, digit_carry: 0 };
        t.masks(0, &mut blk.next);
        blk.derive(t, false);
        blk
    }

    /// Moves to the block at `base`, reusing the masks computed as the next ones when it is the next block.
    fn move_to<const RAW: bool>(&mut self, t: Text<RAW>, base: usize) {
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
    fn word_end<const RAW: bool>(&self, t: Text<RAW>, p: usize) -> usize {
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

    /// The start of the word run that ends at `e` (`b[e - 1]` a word byte, `e <= base + 64`), cut at `from`.
    #[inline]
    fn run_start<const RAW: bool>(&self, t: Text<RAW>, from: usize, e: usize) -> usize {
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
    fn last_run<const RAW: bool>(&self, t: Text<RAW>, from: usize, p: usize) -> Option<(usize, usize)> {
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
    fn has_sep(&self, b: &[u8], s: usize, e: usize) -> bool {
        if s >= self.base && e < self.base + 64 {
            return (self.m.sep >> (s - self.base)) & low(e - s) != 0;
        }
        b[s..e].iter().any(|&c| CLASS[c as usize] == SEP)
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
    // The four quarters are written out rather than looped over (at opt-level "s" the loop stayed, with its shifts
    // by 16q and the tables reloaded in each turn).
    // SAFETY: bytes 16q..16q+16 of the 64-byte chunk are readable; wasm loads need no alignment.
    let load = |q: usize| unsafe { v128_load(chunk[16 * q..].as_ptr().cast::<v128>()) };
    let v = [load(0), load(1), load(2), load(3)];
    let classes =
        |v: v128| v128_and(i8x16_swizzle(lo, v128_and(v, u8x16_splat(0x0f))), i8x16_swizzle(hi, u8x16_shr(v, 4)));
    let cls = [classes(v[0]), classes(v[1]), classes(v[2]), classes(v[3])];
    let bits = |t: [v128; 4]| {
        u64::from(u8x16_bitmask(t[0]))
            | u64::from(u8x16_bitmask(t[1])) << 16
            | u64::from(u8x16_bitmask(t[2])) << 32
            | u64::from(u8x16_bitmask(t[3])) << 48
    };
    // Of the buckets 0-6, "some bucket of `bits`" is a signed greater-than-zero once bucket 7 (the sign) is masked
    // off (one instruction on x64, where a not-equal is two and a constant); bucket 7 is the sign bit itself.
    let any = |b: u8| {
        let b = u8x16_splat(b);
        let t = |c: v128| i8x16_gt(v128_and(c, b), zero);
        bits([t(cls[0]), t(cls[1]), t(cls[2]), t(cls[3])])
    };
    let space = |v: v128| i8x16_eq(v, u8x16_splat(b' '));
    out.word = any(0x1f);
    out.sep = any(0x11);
    out.stop = any(0x60);
    out.space = bits([space(v[0]), space(v[1]), space(v[2]), space(v[3])]);
    out.be = bits(cls);
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
fn classes64_swar(chunk: &[u8; 64]) -> Masks {
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

/// What `classify_key` said about the keys seen in one redaction call: log text repeats a handful of keys
/// (`level`, `token_count`, `auth.refresh`) thousands of times, and the answer depends on the key's bytes alone.
/// Four-way set-associative on a hash of the whole key; a miss fills the ways of its set in turn. Hits move nothing
/// (with two ways in order of last use, three of the bench's ~20 frequent keys sharing a set missed a third of
/// their lookups; four ways kept in order cost more in moves than the misses did).
/// A key is held as three 8-byte words, zero past its end, so a lookup is a few word loads and compares (keys
/// longer than 23 bytes are not kept).
pub struct KeyCache {
    sets: [[KeySlot; 4]; 16],
    /// The hash of the key in each slot, compared first (see [`classify`](Self::classify)): four words compared,
    /// and one key, where comparing the four keys in full was about 5% of a long clean string's raw scan in wasm
    /// (most stops in log text are a cached key's lookup).
    tags: [[u64; 4]; 16],
    /// Per set, the way the next miss fills.
    next: [u8; 16],
}

#[derive(Clone, Copy)]
struct KeySlot {
    /// 0 for an empty slot (a kept key has 3 to 23 bytes).
    len: u8,
    words: [u64; 3],
    class: Option<KeyClass>,
}

impl Default for KeyCache {
    fn default() -> Self {
        KeyCache { sets: [[KeySlot { len: 0, words: [0; 3], class: None }; 4]; 16], tags: [[0; 4]; 16], next: [0; 16] }
    }
}

/// `b[s..e]` (at most 23 bytes) as three little-endian words, zero past its end. Read straight from the text
/// when 24 bytes from `s` are there (almost always), else through a padded copy ([`key_words_padded`]).
#[inline(always)]
fn key_words(b: &[u8], s: usize, e: usize) -> [u64; 3] {
    let n = e - s;
    let Some(c) = b.get(s..s + 24) else {
        return key_words_padded(&b[s..e]);
    };
    let word = |i: usize| u64::from_le_bytes(c[8 * i..8 * i + 8].try_into().unwrap_or([0; 8]));
    // The bytes of word i that belong to the key: min(8, n - 8i), none when n <= 8i.
    let mask = |i: usize| match n.saturating_sub(8 * i) {
        0 => 0,
        k if k >= 8 => !0,
        k => (1u64 << (8 * k)) - 1,
    };
    [word(0) & mask(0), word(1) & mask(1), word(2) & mask(2)]
}

/// [`key_words`] near the end of the text. Kept out of line: its buffer would give every lookup a stack frame.
#[inline(never)]
fn key_words_padded(k: &[u8]) -> [u64; 3] {
    let mut pad = [0u8; 24];
    pad[..k.len()].copy_from_slice(k);
    let word = |i: usize| u64::from_le_bytes(pad[8 * i..8 * i + 8].try_into().unwrap_or([0; 8]));
    [word(0), word(1), word(2)]
}

impl KeyCache {
    /// `classify_key(&b[s..e])`. A hit is inlined into the scan loop; a miss is
    /// [`classify_rest`](Self::classify_rest).
    #[inline(always)]
    pub fn classify(&mut self, b: &[u8], s: usize, e: usize) -> Option<KeyClass> {
        let n = e - s;
        if n < 3 || b[s].is_ascii_digit() {
            return None; // classify_key's own first test
        }
        if n > 23 {
            return classify_key(&b[s..e]);
        }
        let w = key_words(b, s, e);
        let h = (w[0] ^ w[1].rotate_left(21) ^ w[2].rotate_left(42) ^ n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let set = (h >> 60) as usize;
        // The four ways' hashes compared, without branches (which way holds a key varies from lookup to lookup),
        // then the key itself in the way whose hash is equal: a hit is always the whole key, so a miss (an empty
        // way's tag, or two keys of one hash) only costs a `classify_key`, whose answer depends on the key alone.
        let mut way = 4;
        for (k, &tag) in self.tags[set].iter().enumerate().rev() {
            way = if tag == h { k } else { way };
        }
        if let Some(slot) = self.sets[set].get(way) {
            let hit = (usize::from(slot.len) == n)
                & (slot.words[0] == w[0])
                & (slot.words[1] == w[1])
                & (slot.words[2] == w[2]);
            if hit {
                return slot.class;
            }
        }
        self.classify_rest(set, h, w, &b[s..e])
    }

    /// A miss of [`classify`](Self::classify) in `set`: `classify_key`, kept in the set's next way.
    #[inline(never)]
    fn classify_rest(&mut self, set: usize, h: u64, w: [u64; 3], k: &[u8]) -> Option<KeyClass> {
        let class = classify_key(k);
        let way = usize::from(self.next[set] & 3);
        self.next[set] = self.next[set].wrapping_add(1);
        self.sets[set][way] = KeySlot { len: k.len() as u8, words: w, class };
        self.tags[set][way] = h;
        class
    }
}

/// `RAW`: scanning raw JSON string content ([`Scanner::run_raw`]); a constant, so that the decoded scan compiles
/// without the raw scan's checks.
pub struct Scanner<'a, const RAW: bool = false> {
    b: &'a [u8],
    text: &'a str,
    /// Escaped bytes (see [`Text`]); empty unless `RAW`.
    esc: &'a [u64],
    allowed: &'a dyn Fn(&str) -> bool,
    keys: &'a mut KeyCache,
    pub out: Vec<Found>,
    /// Markers already present in the input (`[REDACTED:…]`), which user patterns must not touch either.
    pub markers: Vec<(usize, usize)>,
    floor: usize,
    /// A raw scan met something it cannot decide without the decoded text.
    bailed: bool,
    /// Where a raw scan that gave up stood at the start of the loop turn it gave up in.
    resume: Resume,
}

impl<'a> Scanner<'a> {
    pub fn new(text: &'a str, allowed: &'a dyn Fn(&str) -> bool, keys: &'a mut KeyCache) -> Self {
        Self::over(text, &[], allowed, keys)
    }

    /// Scans the text from `r` on, as if it had been scanned from the start to there without finding anything: what
    /// the block scan of the decoded text does after a raw scan of it gave up at `r` (see
    /// [`run_raw`](Scanner::run_raw)).
    pub fn run_from(&mut self, r: Resume) {
        self.run_blocks(r);
    }
}

impl<'a> Scanner<'a, true> {
    /// A scanner over the raw content of a JSON string whose escapes are all two bytes long, `\"`, `\\`, `\/`,
    /// `\b`, `\f`, `\n`, `\r` or `\t`, with `esc` marking their second bytes (see [`Text`]); for
    /// [`run_raw`](Self::run_raw).
    pub fn new_raw(
        content: &'a str,
        esc: &'a [u64],
        allowed: &'a dyn Fn(&str) -> bool,
        keys: &'a mut KeyCache,
    ) -> Self {
        Self::over(content, esc, allowed, keys)
    }

    /// Scans raw JSON string content (see [`new_raw`](Self::new_raw)) without decoding it. Returns `Ok` when the
    /// scan of the decoded content would find nothing and meet no marker; when it gave up, where it stood at the start
    /// of the loop turn it gave up in (the caller then decodes and scans the decoded content from there, see
    /// [`run_from`](Scanner::run_from)). It never finds anything itself.
    ///
    /// Why this is the decoded scan: an escape `\X` (two bytes) stands for one character `c` in the decoded text,
    /// and each such `c` (`"` `\` `/` backspace, form feed, newline, CR, tab) is of no class: not a word byte, not a
    /// stop, not a space. In the raw bytes the backslash is of no class either, and `X`, which may be a letter, is
    /// taken out of the word runs through `esc` ([`Text`]). So the class bitmaps agree byte for byte outside
    /// escapes, every word run is the same bytes in both texts (a run never holds an escape), and [`Block`] derives
    /// the same events at corresponding offsets (nothing in it depends on the distance between runs across an
    /// escape: the run lengths it measures are within runs). The loop then visits the same events in the same
    /// order with the same `kfrom` and `key`, as long as each handler decides the same way. The ones that decide
    /// from the run alone, the byte after it and literals of word bytes (`dull_stop`, `word`, most of `on_word`,
    /// `token_at` finding no token, `flag` and `spaced` with a key naming no secret, `on_bracket` with no marker,
    /// `url` finding no password, `::`) decide the same way: where the decoded text has `c`, the raw text has the
    /// backslash, and neither is a word byte, a space, `/`, `:`, `(`, `)`, `=` or a byte of a literal compared
    /// there. Every other path gives up before it reads past the run ([`bail`](Self::bail)): a key naming a
    /// secret, a token shape that matches, an escape right after a stop, markers, PEM armour, and the rest.
    ///
    /// Why the decoded scan can go on from where this one gave up: up to the start of that loop turn, every event
    /// was decided as the decoded scan decides it, so the decoded scan from the start arrives there with the same
    /// position, `kfrom` and `key` (at the corresponding decoded offsets) and nothing found. Only its block state
    /// differs (its blocks are 64 decoded bytes): it takes up the block there as after any jump of a handler
    /// (`Block::move_to`, which assumes what it cannot know in the direction that only adds events).
    pub fn run_raw(&mut self) -> Result<(), Resume> {
        self.run_blocks(Resume::START);
        if self.bailed {
            Err(self.resume)
        } else {
            Ok(())
        }
    }
}

impl<'a, const RAW: bool> Scanner<'a, RAW> {
    /// A scanner over `text` (decoded, or raw JSON string content with `esc` marking escapes' second bytes) that
    /// has found nothing yet.
    fn over(text: &'a str, esc: &'a [u64], allowed: &'a dyn Fn(&str) -> bool, keys: &'a mut KeyCache) -> Self {
        Scanner {
            b: text.as_bytes(),
            text,
            esc,
            allowed,
            keys,
            out: Vec::new(),
            markers: Vec::new(),
            floor: 0,
            bailed: false,
            resume: Resume::START,
        }
    }

    fn t(&self) -> Text<'a, RAW> {
        Text { b: self.b, esc: self.esc }
    }

    /// Gives up a raw scan: returns a resume position that ends the scan loops.
    #[cold]
    fn bail(&mut self) -> usize {
        self.bailed = true;
        self.b.len()
    }

    /// Records a redaction unless it overlaps an earlier one, is not on character boundaries, or is allow-listed.
    fn emit(&mut self, start: usize, end: usize, rule: Rule) -> bool {
        if RAW {
            // Not reached: every handler gives up a raw scan before it could find a secret (see `run_raw`). Kept as
            // the last guard: a raw scan never reports a span.
            self.bail();
            return false;
        }
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

    /// Scans the text: byte by byte when it is short, by 64-byte blocks otherwise. Both give the same spans (tested
    /// against each other below); building a block's bitmaps costs more than walking a short string's bytes, and
    /// most strings in an entry (keys, short values) are short.
    pub fn run(&mut self) {
        if self.b.len() < BLOCKS_FROM {
            self.run_bytes();
        } else {
            self.run_blocks(Resume::START);
        }
    }

    /// The block scan (see [`Block`]), from `r` (the start of the text, or where a raw scan gave up).
    fn run_blocks(&mut self, r: Resume) {
        let b = self.b;
        let t = self.t();
        let n = b.len();
        let mut i = r.i;
        // `kfrom`: where the loop last resumed after an event. Runs between it and the next event are dull: the byte
        // loop would only have made each the `key` in turn, so the last of them is looked up when a stop needs it.
        let mut kfrom = r.kfrom;
        let mut key = r.key;
        let mut blk = Block::new(t);
        while i < n {
            if RAW {
                // Where the loop stands at the start of the turn, for the decoded scan to go on from if this one gives
                // up during the turn (a few moves of registers a turn).
                self.resume = Resume { i, kfrom, key };
            }
            if i & !63 != blk.base {
                blk.move_to(t, i & !63);
            }
            let bit = 1u64 << (i - blk.base);
            // (Whether the byte before `i` is a word byte: from the masks when it is in this block.)
            let before_is_word = || if i > blk.base { blk.m.word & (bit >> 1) != 0 } else { i > 0 && t.word_at(i - 1) };
            if i == kfrom && blk.m.word & bit != 0 && before_is_word() {
                if RAW {
                    // Only a handler that acted resumes inside a run, and a raw scan has given up before any does.
                    self.bail();
                    break;
                }
                // A resume point inside a word run: the byte loop starts a run wherever it stands. At the start of a
                // run (the common case: after `key=`, `: `) nothing is needed here: the events of the block hold what
                // `word` could act on in that run, and a later stop looks the run up as its key.
                let e = blk.word_end(t, i);
                key = (i, e);
                i = self.word(&blk, i, e);
                if i == e && b.get(e).is_some_and(|&c| CLASS[c as usize] == STOP) {
                    // A stop right after: its key is the part of the run from here, which the events (built from
                    // whole runs, see `Block`) may have left out as led by a digit. Handled here, whatever they say.
                    i = self.stop(e, key).max(e + 1);
                }
                i = past_space(b, i);
                kfrom = i;
                continue;
            }
            let ev = blk.events & !(bit - 1);
            if ev == 0 {
                i = blk.base + 64;
                continue;
            }
            let p = blk.base + ev.trailing_zeros() as usize;
            let bit = 1u64 << (p - blk.base);
            if blk.m.stop & bit != 0 {
                key = blk.last_run(t, kfrom, p).unwrap_or(key);
                i = if self.dull_stop(p, key) { p + 1 } else { self.stop(p, key).max(p + 1) };
                kfrom = i;
            } else if blk.m.word & bit != 0 {
                // The start of a run that may interest `on_word`.
                let e = blk.word_end(t, p);
                key = (p, e);
                i = past_space(b, self.word(&blk, p, e));
                kfrom = i;
            } else {
                // A space after a run that holds a separator: the run may be `access_token <value>`. It counts when
                // it starts at or after `kfrom` (earlier, the byte loop never started it, or started it at `kfrom`,
                // which was then handled as a resume point).
                let s = blk.run_start(t, kfrom, p);
                if s < p && (s == 0 || !t.word_at(s - 1)) {
                    key = (s, p);
                    i = past_space(b, self.word(&blk, s, p));
                    kfrom = i;
                } else {
                    i = p + 1;
                }
            }
        }
    }

    /// Whether [`stop`](Self::stop) would only move on by one byte, decided from the key alone (most stops in log
    /// text: `level:`, `page=`, `auth.refresh:`): a `:` or `=` that is not `://`, `::` or `)=(` acts only through
    /// `assignment`, which moves on by one byte when the key names no secret. (A key `assignment` turns away before
    /// looking it up is classified here all the same: the answer is the same one byte.)
    #[inline]
    fn dull_stop(&mut self, p: usize, key: (usize, usize)) -> bool {
        let b = self.b;
        let next = b.get(p + 1).copied();
        let plain = match b[p] {
            // (Raw: after an escape's backslash comes the escaped byte, and the escape stands for `/` only in `\/`.
            // The backslash is never escaped: it follows the stop, not a backslash.)
            b':' => {
                let slash = RAW && next == Some(b'\\') && b.get(p + 2) == Some(&b'/');
                !matches!(next, Some(b'/' | b':')) && !slash
            }
            b'=' => !(next == Some(b'(') && p > 0 && b[p - 1] == b')'),
            // Only the end of a start tag, right after its name (`<password>`), may be one; `->`, `> out.txt` and
            // `<div class="x">` are not.
            b'>' => return !is_start_tag(b, key, p),
            _ => false,
        };
        plain
            && key.1 > key.0
            && !is_value_key(b, key)
            && self.keys.classify(b, key.0, key.1).is_none()
            && !(b[p] == b':' && self.slash_key(key))
            && !(b[p] == b'=' && (is_type_word(&b[key.0..key.1]) || odbc_pwd(b, key, p)))
    }

    /// A stop (`b[p]` is `:`, `=` or `[`) whose key is `key`; returns where to resume.
    #[inline]
    fn stop(&mut self, p: usize, key: (usize, usize)) -> usize {
        if RAW && self.b.get(p + 1) == Some(&b'\\') {
            // Which handler runs and what it does depend on the character after the stop, here an escape.
            return self.bail();
        }
        match self.b[p] {
            b'[' => self.on_bracket(p),
            b':' => self.on_colon(p, key),
            b'>' => self.on_tag(p, key),
            _ => self.on_equals(p, key),
        }
    }

    /// The word run `s..e` as the byte loop handles it; returns where to resume. `on_word` acts only on runs that
    /// start with a separator (`-----BEGIN`, `--flag`, `.`/`_` before a token), that are 15 bytes or longer (token
    /// shapes, `hooks.slack.com`), that are `bearer` or `entry`, or that hold a separator and are followed by a
    /// space (`access_token <value>`); [`Block`] flags the same runs. The others are passed over here.
    #[inline]
    fn word(&mut self, blk: &Block, s: usize, e: usize) -> usize {
        let b = self.b;
        let first = b[s];
        let len = e - s;
        let shaped = CLASS[first as usize] == SEP
            || len >= 15
            || (len == 5 && first == b'e')
            || (len == 6 && first | 0x20 == b'b');
        if !shaped && b.get(e) != Some(&b' ') {
            return e;
        }
        let has_sep = blk.has_sep(b, s, e);
        if !shaped && !has_sep {
            return e;
        }
        match self.on_word(s, e, has_sep) {
            Some(next) => next.max(s + 1),
            None => e,
        }
    }

    /// The byte-at-a-time loop [`Scanner::run`] must agree with (used by the tests as the reference).
    /// The byte loop: one class-table lookup per byte, every word run offered to `on_word`.
    fn run_bytes(&mut self) {
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
                b'>' => self.on_tag(i, key),
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
                return if RAW { Some(self.bail()) } else { self.pem(s) };
            }
            if command::may_be_option(&b[s..e]) {
                if let Some(next) = self.command_line(s, e) {
                    return Some(next);
                }
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
            if RAW
                && (starts_with_at(b, t, b"AC")
                    || starts_with_at(b, t, b"LS0tLS1CRUdJTi")
                    || (t > 0 && b[t - 1] == b':' && starts_with_at(b, t, b"A")))
            {
                // A Twilio account SID looks for "twilio" in the 256 bytes before it, a Telegram or FCM token at
                // what is before its colon, a base64 private key past `/`, which escapes make different text.
                return Some(self.bail());
            }
            if let Some((end, rule)) = token_at(b, t) {
                if RAW {
                    return Some(self.bail());
                }
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
                return if RAW { Some(self.bail()) } else { self.slack_webhook(e) };
            }
            if b[s..e].eq_ignore_ascii_case(b"ConvertTo-SecureString") {
                return if RAW { Some(self.bail()) } else { self.secure_string(e) };
            }
            if RAW {
                if quoted_after_comma_or_word(self.t(), s, e) {
                    // What `literal_named_before` reads may hold escapes (`\"`, `\t`): the decoded text decides.
                    return Some(self.bail());
                }
            } else if s > 0 && matches!(b[s - 1], b'\'' | b'"') && b.get(e) == Some(&b[s - 1]) {
                if let Some(family) = literal_named_before(b, s - 1) {
                    if accept_value(&b[s..e], Mode::Quoted, family) && self.emit(s, e, Rule::SecretAssignment) {
                        return Some(e + 1);
                    }
                }
            }
            if s > 1 && b[s - 1] == b' ' && is_password_word(self.t(), s - 1) {
                // `password <value>` (`.netrc`), `requirepass <value>` (`redis.conf`): the value is the whole word.
                if RAW {
                    return Some(self.bail());
                }
                let ve = s + run_len(b, s, |c| !c.is_ascii_whitespace());
                if accept_value(&b[s..ve], Mode::Bare, Family::Password) && self.emit(s, ve, Rule::SecretAssignment) {
                    return Some(ve);
                }
            }
        }
        if has_sep && b.get(e) == Some(&b' ') {
            if let Some(next) = self.spaced(s, e) {
                return Some(next);
            }
        }
        if e - s == 6 && b[s..e].eq_ignore_ascii_case(b"bearer") {
            return if RAW { Some(self.bail()) } else { self.bearer(e) };
        }
        if e - s == 5 && &b[s..e] == b"entry" {
            return if RAW { Some(self.bail()) } else { self.mysql_duplicate(s, e) };
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

    /// `mysql -pSECRET`, `curl -u user:SECRET`, `sshpass -p SECRET`, …: a password option of the program it is given
    /// to (see [`command`]), its value a literal (`-proot` is a password).
    /// Kept out of line: most runs that start with `-` are not options of this kind (`->`, `--git`), and inlined
    /// this made a clean 1 MiB text 4-7% slower to scan (wasm A/B).
    #[inline(never)]
    fn command_line(&mut self, s: usize, e: usize) -> Option<usize> {
        let t = self.t();
        let (value, part) = match command::option_at(self.b, s, e, |x| t.escaped(x)) {
            Look::No => return None,
            _ if RAW => return Some(self.bail()),
            Look::Unsure => return None, // (raw text only)
            Look::Yes { value, part } => (value, part),
        };
        let (vs, ve) = command::shell_word(self.b, value)?;
        let (ps, pe) = command::password_in(self.b, vs, ve, part)?;
        self.command_password(ps, pe)
    }

    /// `b[ps..pe]`, given to a program as its password, unless it is a placeholder (`-p[password]`, `-p"$DB_PASS"`):
    /// the program names the value, so it is taken as a literal password.
    fn command_password(&mut self, ps: usize, pe: usize) -> Option<usize> {
        let accepted = accept_value(&self.b[ps..pe], Mode::Literal, Family::Password);
        (accepted && self.emit(ps, pe, Rule::CommandLinePassword)).then_some(pe)
    }

    /// Whether `key`, right before a `:`, is `/p`, `-p`, `/pass`… (see [`command::slash_password_key`]). The byte
    /// test comes first and inline: it is asked of every `:` whose key names no secret (most stops in log text).
    #[inline]
    fn slash_key(&self, key: (usize, usize)) -> bool {
        let b = self.b;
        let lead = key.0 > 0 && b[key.0 - 1] == b'/' || b[key.0] == b'-';
        lead && command::slash_password_key(b, key, |x| self.t().escaped(x))
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

    /// `--password hunter2`, `--token "…"`: a command-line flag naming a secret, its value after one space.
    fn flag(&mut self, s: usize, e: usize) -> Option<usize> {
        let b = self.b;
        if b.get(e) != Some(&b' ') {
            return None;
        }
        let kc = self.keys.classify(b, s + 2, e)?;
        if RAW {
            return Some(self.bail());
        }
        if kc.family == Family::Authorization {
            return None;
        }
        let v = self.value_at(e + 1, false)?;
        if v.start != e + 1 + (v.quoted as usize) {
            return None;
        }
        let mode = if v.quoted { Mode::Quoted } else { Mode::Bare };
        let value = &b[v.start..v.end];
        if whole_token(value).is_some() || is_assignment(value) || !accept_value(value, mode, kc.family) {
            return None;
        }
        self.emit(v.start, v.end, kc.rule).then_some(v.end)
    }

    /// `aws configure set aws_secret_access_key <value>`, `git config user.password <value>`: an identifier
    /// naming a secret, one space, and a value that looks random (mixed classes, 16+ characters). Prose ("the
    /// access_token expired") does not pass the value check.
    fn spaced(&mut self, s: usize, e: usize) -> Option<usize> {
        let b = self.b;
        let kc = self.keys.classify(b, s, e)?;
        if RAW {
            return Some(self.bail());
        }
        if kc.family == Family::Authorization {
            return None;
        }
        let v = self.value_at(e + 1, false)?;
        if v.start != e + 1 + (v.quoted as usize) {
            return None;
        }
        let value = &b[v.start..v.end];
        let mode = if v.quoted { Mode::Quoted } else { Mode::Bare };
        if whole_token(value).is_some()
            || is_assignment(value)
            || !accept_value(value, mode, kc.family)
            || !accept_credential(value, 16)
        {
            return None;
        }
        self.emit(v.start, v.end, kc.rule).then_some(v.end)
    }

    /// PowerShell's `ConvertTo-SecureString "…" -AsPlainText` (or `-String "…"`): a password written into a script.
    fn secure_string(&mut self, e: usize) -> Option<usize> {
        let b = self.b;
        let line_end = e + b[e..].iter().position(|&c| c == b'\n').unwrap_or(b.len() - e);
        let line = &b[e..line_end];
        if !contains_ci(line, b"-AsPlainText") {
            return None;
        }
        let mut j = e + run_len(b, e, |c| c == b' ');
        if b.len() > j + 7 && b[j..j + 7].eq_ignore_ascii_case(b"-String") {
            j += 7;
        }
        let v = self.value_at(j, false)?;
        if !v.quoted || v.end > line_end {
            return None;
        }
        self.command_password(v.start, v.end)
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
                if RAW {
                    return self.bail();
                }
                self.markers.push((i, s + n + 1));
                return s + n + 1;
            }
        }
        i + 1
    }

    /// `<password>SECRET</password>`, `<apiKey>…</apiKey>`: an XML element whose name names a secret (Maven
    /// `settings.xml`, .NET and Java configuration). The value runs to the next `<` on the line; a literal, as a JSON
    /// string under such a key is.
    fn on_tag(&mut self, i: usize, key: (usize, usize)) -> usize {
        let b = self.b;
        if !is_start_tag(b, key, i) {
            return i + 1;
        }
        let Some(kc) = self.keys.classify(b, key.0, key.1) else {
            return i + 1;
        };
        if RAW {
            return self.bail();
        }
        if matches!(kc.family, Family::Authorization | Family::PrivateKey) {
            return i + 1; // `Bearer …` and PEM blocks: their own rules
        }
        let rest = &b[i + 1..b.len().min(i + 1 + 8192)];
        let Some(len) = rest.iter().position(|&c| c == b'<' || c == b'\n') else {
            return i + 1;
        };
        if !starts_with_at(b, i + 1 + len, b"</") {
            return i + 1;
        }
        let v = &rest[..len];
        let (vs, ve) = (i + 1 + (v.len() - v.trim_ascii_start().len()), i + 1 + v.trim_ascii_end().len());
        if ve <= vs || !accept_value(&b[vs..ve], Mode::Literal, kc.family) {
            return i + 1;
        }
        if self.emit(vs, ve, kc.rule) {
            ve
        } else {
            i + 1
        }
    }

    fn on_colon(&mut self, i: usize, key: (usize, usize)) -> usize {
        let b = self.b;
        if key.1 == i && self.slash_key(key) {
            if RAW {
                return self.bail();
            }
            if let Some(next) = self.slash_password(i) {
                return next;
            }
        }
        match b.get(i + 1) {
            Some(b'/') if RAW && b.get(i + 2) == Some(&b'\\') => self.bail(), // `:/\/` may be `://`
            Some(b'/') if b.get(i + 2) == Some(&b'/') => self.url(i, key),
            Some(b':') => i + 2,
            Some(b'=') => self.assignment(key, i, i + 2, false),
            _ => self.assignment(key, i, i + 1, false),
        }
    }

    fn on_equals(&mut self, i: usize, key: (usize, usize)) -> usize {
        let b = self.b;
        if i > 0 && b[i - 1] == b')' && b.get(i + 1) == Some(&b'(') {
            return if RAW { self.bail() } else { self.db_echo(i) };
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
        if RAW {
            // The gap may hold escapes (`\"`), which count as one character each in the decoded text.
            return self.bail();
        }
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
        let kc = self.keys.classify(b, ks, ke);
        let odbc =
            || odbc_pwd(b, (ks, ke), op).then_some(KeyClass { rule: Rule::SecretAssignment, family: Family::Password });
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

    /// For the key `value` of a YAML name/value pair, what the name names (`- name: DB_PASSWORD` on the line before
    /// `  value: …`, as in Kubernetes env lists), when the two keys line up; the name must name a secret.
    fn named_by_sibling(&mut self, ks: usize, ke: usize) -> Option<KeyClass> {
        let b = self.b;
        if !is_value_key(b, (ks, ke)) {
            return None;
        }
        if let Some((ns, ne)) = xml_attribute_name(b, ks) {
            return self.keys.classify(b, ns, ne);
        }
        let from = ks.saturating_sub(512);
        let ls = from + b[from..ks].iter().rposition(|&c| c == b'\n')? + 1;
        if !b[ls..ks].iter().all(|&c| c == b' ') {
            return None;
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
                // (Raw: a backslash starts an escape, which decodes to a byte that ends the authority too, except
                // `\b`, a backspace.)
                b'\\' if RAW && b.get(j + 1) == Some(&b'b') => return self.bail(),
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
            if host_ok && accept_url_password(pw) && !local_default(&b[u..c], pw, &b[a + 1..]) {
                if RAW {
                    return self.bail();
                }
                // A token as the user name (`https://ghp_…:x-oauth-basic@github.com`) goes too.
                if let Some(user_rule) = whole_token(&b[u..c]) {
                    self.emit(u, c, user_rule);
                }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::redact::tests::xorshift;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// Pieces that reach every handler: keys, operators, token prefixes and bodies, PEM armour, URLs, database
    /// echoes, markers, separators, spaces, quotes, escapes and multi-byte text.
    const PIECES: &[&str] = &[
        "password",
        "token",
        "secret_name",
        "api_key",
        "access_token ",
        "aws_secret_access_key ",
        "AccountKey",
        "Authorization",
        "auth",
        "key",
        "Bearer ",
        "bearer",
        "entry",
        "sig",
        "client_secret",
        "DB_PASSWORD",
        ": ",
        ":",
        "=",
        "==",
        "=>",
        ":=",
        "!=",
        "::",
        "://",
        "@",
        "[",
        "]",
        "(",
        ")",
        ";",
        ",",
        "&",
        "?",
        " ",
        "  ",
        "\t",
        "\n",
        "\\n",
        "\\\"",
        "\"",
        "'",
        "`",
        "-",
        "--",
        ".",
        "_",
        "/",
        "é",
        "日本",
        "\u{0}",
        "hunter2",
        "s3cr3t-Pw9",
        "k9Xq2Lm7vPz0w1aB",
        "Xk7pQ2wR9zL4mN8b",
        "changeme",
        "${VAR}",
        "example",
        "AKIA",
        "Q3RZ7ONQ4XMTW2PB",
        "AIza",
        "ghp_",
        "github_pat_",
        "glpat-",
        "xoxb-",
        "sk_live_",
        "SK",
        "AC",
        "SG.",
        "sk-",
        "sk-ant-api03-",
        "npm_",
        "pypi-AgE",
        "eyJhbGciOiJIUzI1NiJ9",
        "eyJzdWIiOiIxMjM0NTY3ODkwIn0",
        "aB3dE5fG7hJ9kL2mN4pQ6rS8tU1vW3xY5zA7bC9dE2fG4hJ6kL8m",
        "0123456789abcdef0123456789abcdef",
        // (rule set 2026-11-30.1)
        "IDENTIFIED BY '",
        " PASSWORD '",
        "define('DB_PASSWORD', '",
        "login('admin', '",
        "new PDO($dsn, 'app', '",
        "5ba4f7fb948c40b615d10e58fdb5cf3a'",
        "API_KEY: &str = \"",
        "token: string = '",
        "var password string = \"",
        "PWD=",
        "233093066:AA",
        "nRDusZbynYLO6FvYerh6G6P2ZtFR9jv7i",
        "AAAASVKzO5X:APA91b",
        "ConvertTo-SecureString \"",
        " -AsPlainText",
        "LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlF",
        "hvs.",
        "ODEzMjAzMDAxNzE0MDYxNDc3NQ.JO3qSK.",
        "password ",
        "requirepass ",
        "twilio",
        "-----BEGIN RSA PRIVATE KEY-----",
        "-----END RSA PRIVATE KEY-----",
        "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMx",
        "postgres://app:",
        "@db.internal",
        "https://",
        "hooks.slack.com",
        "/services/T0/B0/",
        "123456789012345678901",
        ".password",
        "5Xk7pQ2wR9zL4mN8b",
        "10",
        "2026",
        "Key (secret)=(",
        "Duplicate ",
        "entry '",
        "' for key 'users.password'",
        "[REDACTED:jwt]",
        "[REDACTED:",
        "2026-11-29T10",
        "00.564Z",
        "KeyStore.load",
        "auth.refresh",
        "TestTokenExpiry",
        "api.example.com",
        "--password",
        "--token",
        "--git",
        "x-api-key",
        "sig=",
        "X-Amz-Signature=",
        "SharedAccessKey=",
    ];

    /// Text of `pieces` and random words, long enough to cross several 64-byte blocks.
    fn text(state: &mut u32, pieces: usize) -> String {
        let mut t = String::new();
        for _ in 0..pieces {
            let r = xorshift(state);
            if r.is_multiple_of(5) {
                // A random word: letters, digits and separators, 1 to 24 bytes.
                for _ in 0..1 + (r >> 8) % 24 {
                    t.push(b"aZ9_-.eBb0x"[xorshift(state) as usize % 11] as char);
                }
            } else {
                t.push_str(PIECES[(r >> 4) as usize % PIECES.len()]);
            }
        }
        t
    }

    /// What a scan found: spans, and markers already in the text.
    type Scan = (Vec<Found>, Vec<(usize, usize)>);

    /// The block scan and the byte loop on the same text (whatever its length: `run` picks one by length).
    fn both(t: &str) -> (Scan, Scan) {
        let allowed = |s: &str| s == "hunter2";
        let (mut k1, mut k2) = (KeyCache::default(), KeyCache::default());
        let mut fast = Scanner::new(t, &allowed, &mut k1);
        fast.run_blocks(Resume::START);
        let mut slow = Scanner::new(t, &allowed, &mut k2);
        slow.run_bytes();
        ((fast.out, fast.markers), (slow.out, slow.markers))
    }

    #[test]
    fn run_matches_the_byte_loop() {
        let mut state = 0x1234_5678u32;
        for round in 0..3000 {
            let t = text(&mut state, 1 + round % 120);
            let (fast, slow) = both(&t);
            assert_eq!(fast, slow, "{t:?}");
        }
    }

    #[test]
    fn a_stop_after_a_resume_inside_a_run_led_by_a_digit() {
        // The webhook path ends inside the run `12…01.password` (at the dot), so the scan resumes there and the key of
        // the `=` is `.password`: a stop the block leaves out (a run led by a digit, then `=5`) must be handled.
        let t = "https://hooks.slack.com/services/T0/B0/123456789012345678901.password=5Xk7pQ2wR9zL4mN8b and more";
        for pad in 0..64 {
            let shifted = format!("{}{t}", " ".repeat(pad));
            let (fast, slow) = both(&shifted);
            assert_eq!(fast, slow, "{shifted:?}");
            assert_eq!(slow.0.len(), 2, "{shifted:?}");
        }
    }

    #[test]
    fn run_matches_the_byte_loop_at_every_offset() {
        // The same text shifted byte by byte, so every piece meets every block boundary.
        let mut state = 0x0bad_cafeu32;
        for _ in 0..20 {
            let t = text(&mut state, 60);
            for pad in 0..64 {
                let shifted = format!("{}{t}", " ".repeat(pad));
                let (fast, slow) = both(&shifted);
                assert_eq!(fast, slow, "{shifted:?}");
                let glued = format!("{}{t}", "a".repeat(pad));
                let (fast, slow) = both(&glued);
                assert_eq!(fast, slow, "{glued:?}");
            }
        }
    }

    #[test]
    fn key_cache_answers_as_classify_key() {
        // Keys of every length around the 8-byte words and the 23-byte limit, at every distance from the end of the
        // text (the padded copy), differing in one byte or in length only, asked in random order so that sets fill,
        // evict and are asked again.
        const KEYS: &[&str] = &[
            "password",
            "passwor",
            "password_",
            "db_password",
            "token",
            "tokens",
            "max_tokens",
            "secret_name",
            "client_secret",
            "api_key",
            "apikey",
            "key",
            "key_id",
            "auth",
            "oauth",
            "auth.refresh",
            "level",
            "msg",
            "aws_secret_access_key",
            "aws_secret_access_keys",
            "AWS_SECRET_ACCESS_KEY_ID",
            "Authorization",
            "sig",
            "X-Amz-Signature",
            "SharedAccessKey",
            "AccountKey",
            "private_key",
            "public_key",
            "token.ts",
            "keys.ts",
            "KeyStore.load",
            "1password",
            "pwd",
            "db_pwd",
            "abcdefghijklmnopqrstuvw",
            "abcdefghijklmnopqrstuvwx",
        ];
        let mut state = 0x7e57_c0deu32;
        let mut cache = KeyCache::default();
        for _ in 0..20000 {
            let r = xorshift(&mut state);
            let mut k = KEYS[r as usize % KEYS.len()].as_bytes().to_vec();
            if r & 0x100 != 0 && !k.is_empty() {
                let at = (r >> 9) as usize % k.len();
                k[at] = b"aZ9_-.eBb0x"[(r >> 20) as usize % 11];
            }
            let tail = (r >> 24) as usize % 30;
            let mut text = b"x ".to_vec();
            let s = text.len();
            text.extend_from_slice(&k);
            let e = text.len();
            text.extend(std::iter::repeat_n(b'q', tail));
            assert_eq!(cache.classify(&text, s, e), classify_key(&k), "{:?}", String::from_utf8_lossy(&k));
        }
    }

    /// A way whose hash is the key's but whose key is another (two keys of one hash) is a miss, not that key's
    /// class: the cache is made to hold such a way, with a class the key does not have.
    #[test]
    fn key_cache_hits_only_on_the_whole_key() {
        for key in ["level", "auth.refresh", "secret_name_of_it_all", "password", "api_key"] {
            let text = format!("x {key} ");
            let (s, e) = (2, 2 + key.len());
            let mut cache = KeyCache::default();
            assert_eq!(cache.classify(text.as_bytes(), s, e), classify_key(key.as_bytes()));
            let other = classify_key(b"password").filter(|_| classify_key(key.as_bytes()).is_none());
            let mut filled = 0;
            for slot in cache.sets.iter_mut().flatten().filter(|slot| slot.len != 0) {
                slot.words[0] ^= 1 << 8; // another key of the same length, under the same tag
                slot.class = other;
                filled += 1;
            }
            assert_eq!(filled, 1, "{key}");
            for _ in 0..3 {
                assert_eq!(cache.classify(text.as_bytes(), s, e), classify_key(key.as_bytes()), "{key}");
            }
        }
    }

    /// The class table, bit by bit.
    fn classes_by_table(chunk: &[u8; 64]) -> Masks {
        let mut m = Masks::default();
        for (k, &c) in chunk.iter().enumerate() {
            let bit = 1u64 << k;
            let class = CLASS[c as usize];
            m.word |= if class & WORD != 0 { bit } else { 0 };
            m.sep |= if class == SEP { bit } else { 0 };
            m.stop |= if class == STOP { bit } else { 0 };
            m.space |= if c == b' ' { bit } else { 0 };
            m.be |= if matches!(c, b'b' | b'B' | b'e' | b'E') { bit } else { 0 };
            m.digit |= if c.is_ascii_digit() { bit } else { 0 };
        }
        m
    }

    #[test]
    fn class_bitmaps_match_the_table() {
        let mut chunk = [0u8; 64];
        for start in (0..256).step_by(64) {
            for (k, c) in chunk.iter_mut().enumerate() {
                *c = (start + k) as u8;
            }
            assert_eq!(Masks::at(&chunk, 0), classes_by_table(&chunk));
            assert_eq!(classes64_swar(&chunk), classes_by_table(&chunk));
        }
        let mut state = 0x5eed_1234u32;
        for _ in 0..2000 {
            for c in chunk.iter_mut() {
                *c = xorshift(&mut state) as u8;
            }
            assert_eq!(Masks::at(&chunk, 0), classes_by_table(&chunk));
            assert_eq!(classes64_swar(&chunk), classes_by_table(&chunk));
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(3000))]

            #[test]
            fn run_matches_the_byte_loop_on_pieces(
                picks in prop::collection::vec((0..PIECES.len() + 4, "[a-zA-Z0-9_.-]{1,20}"), 0..160),
                pad in 0..64usize,
            ) {
                let mut t = " ".repeat(pad);
                for (i, word) in &picks {
                    t.push_str(PIECES.get(*i).copied().unwrap_or(word));
                }
                let (fast, slow) = both(&t);
                prop_assert_eq!(fast, slow, "{:?}", t);
            }

            #[test]
            fn run_matches_the_byte_loop_on_any_text(t in "\\PC{0,300}") {
                let (fast, slow) = both(&t);
                prop_assert_eq!(fast, slow, "{:?}", t);
            }
        }
    }
}
