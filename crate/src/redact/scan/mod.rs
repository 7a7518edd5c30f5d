//! The single pass over free text.
//!
//! Conceptually one loop walks the bytes with a 256-entry class table. Runs of token characters (`[A-Za-z0-9_.-]`)
//! are checked against the prefix-anchored token shapes only at their start; the four punctuation bytes `:`, `=`,
//! `>` and `[` are the only other stops: `:`/`=` look back at the run just before (a key naming a secret, a URL
//! scheme, a database key echo), `>` at an XML start tag (`<password>`), and `[` skips markers left by an earlier
//! pass. Spans come out sorted and disjoint, because every handler returns a resume position at or past the end of
//! what it redacted.
//!
//! That loop is kept as the reference ([`Scanner::run_bytes`]). [`Scanner::run`] visits the same runs and stops with
//! the same resume positions but does not look at every byte: per 64-byte block it computes bitmaps of the byte
//! classes, and from them the few events that matter — stops, and the word runs that `on_word` could act on
//! (`blocks`). The other runs only ever become the `key` of a later stop, so that is looked up backwards when a stop
//! needs it.
//!
//! The handlers, by what they read: `words` (word runs: token shapes, PEM armour, flags, quoted literals, `Bearer`),
//! `assign` (`key = value`, `key: value`, typed declarations, `Authorization`), `url` (`scheme://user:pw@host`),
//! `xml` (`<password>…</password>`), `db_echo` (database errors that echo a key). `raw` runs the same loop over JSON
//! string content that still holds its escapes, and only asks whether a handler could act.

mod assign;
mod blocks;
mod db_echo;
mod raw;
#[cfg(test)]
mod tests;
mod url;
mod words;
mod xml;

use super::chars::{run_len, starts_with_at, MARKER_PREFIX};
use super::keys::{bare_key, KeyCache};
use super::rule::Rule;
use super::Found;
use assign::{ends_in_value, is_default_key, is_type_word, odbc_pwd};
use blocks::{Block, Text, CLASS, SEP, STOP, WORD};
use xml::is_start_tag;

pub use assign::auth_credential;

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

/// Texts at least this long are scanned by blocks, shorter ones byte by byte ([`Scanner::run`]).
const BLOCKS_FROM: usize = 256;

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

/// What the scan loop does at its events (see [`Scanner::run_blocks`]): on decoded text the rules' handlers act
/// (`words`, `assign`, `url`, `xml`, `db_echo`); on raw JSON string content the scan only asks whether any of them
/// could act there, and gives up if one could (`raw`).
pub(in crate::redact) trait Events {
    /// The word run `s..e` that [`Scanner::word`] offers (`blk`: the block the scan stands in); where to resume, `None`
    /// for its end.
    fn on_word(&mut self, blk: &Block, s: usize, e: usize, has_sep: bool) -> Option<usize>;
    /// A stop (`b[p]` is `:`, `=`, `>` or `[`) whose key is `key`, that [`Scanner::dull_stop`] did not settle (`blk`: the
    /// block `p` is in); where to resume.
    fn on_stop(&mut self, blk: &Block, p: usize, key: (usize, usize)) -> usize;
}

/// Whether `key` (not empty) is one whose value `assignment` reads by what is around it, whatever the key cache says
/// of it: `value` (`…_value`), `default`, a bare `key`. (Each ends in a letter of its own: most keys are turned away
/// by one look at their last byte.)
#[inline(always)]
fn read_by_context(b: &[u8], key: (usize, usize)) -> bool {
    match b[key.1 - 1] {
        b'e' => ends_in_value(b, key),
        b't' => is_default_key(b, key),
        b'y' | b'Y' => key.1 - key.0 == 3 && bare_key(&b[key.0..key.1]).is_some(),
        _ => false,
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
                if let Some(next) = self.handle_word(s, i, acc & 2 != 0) {
                    i = next.max(s + 1);
                }
                continue;
            }
            i = self.handle_stop(i, key).max(i + 1);
        }
    }

    /// Records a redaction unless it overlaps an earlier one, is not on character boundaries, or is allow-listed.
    pub(super) fn emit(&mut self, start: usize, end: usize, rule: Rule) -> bool {
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

    /// A marker left by an earlier pass (`[REDACTED:jwt]`) is passed over whole, and kept for the user patterns.
    fn on_bracket(&mut self, i: usize) -> usize {
        match marker_end(self.b, i) {
            Some(end) => {
                self.markers.push((i, end));
                end
            }
            None => i + 1,
        }
    }
}

impl Events for Scanner<'_, false> {
    #[inline]
    fn on_word(&mut self, _: &Block, s: usize, e: usize, has_sep: bool) -> Option<usize> {
        self.handle_word(s, e, has_sep)
    }

    #[inline]
    fn on_stop(&mut self, _: &Block, p: usize, key: (usize, usize)) -> usize {
        self.handle_stop(p, key)
    }
}

impl Scanner<'_, false> {
    /// The handlers of a stop (see [`Events::on_stop`]).
    #[inline]
    fn handle_stop(&mut self, p: usize, key: (usize, usize)) -> usize {
        match self.b[p] {
            b'[' => self.on_bracket(p),
            b':' => self.on_colon(p, key),
            b'>' => self.on_tag(p, key),
            _ => self.on_equals(p, key),
        }
    }
}

/// The end of the marker `[REDACTED:<rule-id>]` that starts at `i`, if one does.
fn marker_end(b: &[u8], i: usize) -> Option<usize> {
    if !starts_with_at(b, i, MARKER_PREFIX) {
        return None;
    }
    let s = i + MARKER_PREFIX.len();
    let n = run_len(b, s, |c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-');
    (n > 0 && b.get(s + n) == Some(&b']')).then_some(s + n + 1)
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
}

impl<const RAW: bool> Scanner<'_, RAW>
where
    Self: Events,
{
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
                    i = self.on_stop(&blk, e, key).max(e + 1);
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
                i = if self.dull_stop(p, key) { p + 1 } else { self.on_stop(&blk, p, key).max(p + 1) };
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

    /// Whether [`Events::on_stop`] would only move on by one byte, decided from the key alone (most stops in log
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
            && !read_by_context(b, key)
            && self.keys.classify(b, key.0, key.1).is_none()
            && !(b[p] == b':' && self.slash_key(key))
            && !(b[p] == b'=' && (is_type_word(&b[key.0..key.1]) || odbc_pwd(b, key, p)))
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
        match self.on_word(blk, s, e, has_sep) {
            Some(next) => next.max(s + 1),
            None => e,
        }
    }
}
