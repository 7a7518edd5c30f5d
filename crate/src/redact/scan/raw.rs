//! The raw scan of JSON string content that still holds its escapes: the block loop of the decoded scan, with one
//! question at each event in place of the handlers: could any of them act here? If one could, the scan gives up and
//! the content is decoded; if none can anywhere, the string is clean without being decoded (see
//! [`Scanner::run_raw`]).

use super::super::chars::*;
use super::super::command::{self, Look};
use super::super::keys::KeyCache;
use super::super::tokens::{may_be_named_lead, named_lead, token_in_run};
use super::assign::{has_key, is_comparison};
use super::blocks::{Block, Text};
use super::db_echo::is_key_echo;
use super::url::{may_act_after_scheme, Authority};
use super::words::*;
use super::{marker_end, Events, Resume, Scanner};

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
    /// order with the same `kfrom` and `key`, as long as each event is decided the same way. Here no handler runs:
    /// at each event the raw scan asks whether one could act (`could_act_on_word`, `on_stop` below), from the
    /// triggers the handlers themselves start with, and gives up ([`bail`](Self::bail)) when one could. The triggers
    /// that decide from the run alone, the byte after it and literals of word bytes (`dull_stop`, `word`, most word
    /// triggers, `token_at` finding no token, a flag or an identifier naming no secret, no marker, a URL without a
    /// password, `::`) decide the same way in both texts: where the decoded text has `c`, the raw text has the
    /// backslash, and neither is a word byte, a space, `/`, `:`, `(`, `)`, `=` or a byte of a literal compared
    /// there. The others (a key naming a secret, a token shape that matches, an escape right after a stop, markers,
    /// PEM armour, and the rest) count as firing, so the scan gives up before anything reads past the run; where
    /// nothing fires, the scan resumes where the decoded scan would: the end of the run, after `::` or `://`, or the
    /// byte after the stop.
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

impl Events for Scanner<'_, true> {
    #[inline]
    fn on_word(&mut self, blk: &Block, s: usize, e: usize, has_sep: bool) -> Option<usize> {
        self.could_act_on_word(blk, s, e, has_sep).then(|| self.bail())
    }

    /// The stops of `Scanner::<false>::on_stop`, each with the trigger of its handler.
    #[inline]
    fn on_stop(&mut self, blk: &Block, p: usize, key: (usize, usize)) -> usize {
        let b = self.b;
        if b.get(p + 1) == Some(&b'\\') {
            // Which handler runs and what it does depend on the character after the stop, here an escape.
            return self.bail();
        }
        let fires = match b[p] {
            b'[' => marker_end(b, p).is_some(),
            b'>' => self.tag_key(p, key).is_some(),
            b':' => {
                if key.1 == p && self.slash_key(key) {
                    true
                } else {
                    match b.get(p + 1) {
                        Some(b'/') if b.get(p + 2) == Some(&b'\\') => true, // `:/\/` may be `://`
                        Some(b'/') if b.get(p + 2) == Some(&b'/') => match self.authority(p, key) {
                            Authority::Clean if !may_act_after_scheme(b, p + 3, blk.run_end(self.t(), p + 3)) => {
                                return p + 3
                            }
                            Authority::Clean => true,
                            Authority::Password { .. } | Authority::Unsure => true,
                        },
                        Some(b':') => return p + 2,
                        // (The gap between the key and the operator may hold escapes, `\"`, which count as one
                        // character each in the decoded text: any assignment is left to it.)
                        _ => has_key(key, p),
                    }
                }
            }
            _ => is_key_echo(b, p) || (!is_comparison(b, p) && has_key(key, p)),
        };
        if fires {
            self.bail()
        } else {
            p + 1
        }
    }
}

impl Scanner<'_, true> {
    /// Whether a handler of `Scanner::<false>::handle_word` could act on the run `s..e`: its triggers, in its order.
    fn could_act_on_word(&mut self, blk: &Block, s: usize, e: usize, has_sep: bool) -> bool {
        let b = self.b;
        if b[s] == b'-' {
            if is_pem_begin(b, s) {
                return true;
            }
            if command::may_be_option(&b[s..e]) && self.option_look(s, e) != Look::No {
                return true;
            }
            if is_long_flag(b, s, e) {
                return self.flag_key(s, e).is_some();
            }
        }
        let t = past_separators(b, s, e);
        if e - t >= 15 && self.long_run_may_act(blk, s, t, e, has_sep) {
            return true;
        }
        (has_sep && b.get(e) == Some(&b' ') && self.keys.classify(b, s, e).is_some())
            || is_bearer(&b[s..e])
            || is_entry(&b[s..e])
    }

    /// The triggers of `handle_word` for a run of 15 bytes or more past its leading separators (from `t`). (Out of
    /// line: most runs are shorter, and the scan loop stays small without these looks.)
    #[inline(never)]
    fn long_run_may_act(&mut self, blk: &Block, s: usize, t: usize, e: usize, has_sep: bool) -> bool {
        let b = self.b;
        let x = self.t();
        if escapes_may_change_token(b, t)
            || token_in_run(b, t, e).is_some()
            || (has_sep && may_be_named_lead(e - t) && named_lead(b, t, e).is_some())
            || webhook_host(&b[s..e]).is_some()
            || is_secure_string(&b[s..e])
        {
            return true;
        }
        quoted_after_comma_or_word(x, s, e)
            || password_word_before(x, s)
            || (after_word(x, s) && label_names_credential(x, self.keys, blk.run_start(x, 0, s - 1), s))
            || (may_follow_context(x, s) && self.value_in_context(s, e))
    }

    /// The triggers of [`long_run_may_act`](Self::long_run_may_act) that [`may_follow_context`] lets through. (Out of
    /// line: it seldom does.)
    #[inline(never)]
    fn value_in_context(&mut self, s: usize, e: usize) -> bool {
        quoted_before_comma(self.t(), s, e)
            || unseal_key::<true>(self.b, s).is_some()
            || label_line_before(self.t(), self.keys, s).is_some()
    }
}

/// Token shapes that read past their run, where escapes make the raw text differ from the decoded one: a Twilio
/// account SID looks for "twilio" in the 256 bytes before it, a Telegram or FCM token at what is before its colon, a
/// base64 private key and a Grafana key past `/`.
/// (`t` is in the run: its first byte turns most runs away before any literal is compared.)
fn escapes_may_change_token(b: &[u8], t: usize) -> bool {
    match b[t] {
        b'A' => starts_with_at(b, t, b"AC") || (t > 0 && b[t - 1] == b':'),
        b'L' => starts_with_at(b, t, b"LS0tLS1CRUdJTi"),
        b'e' => starts_with_at(b, t, b"eyJrIjoi"),
        _ => false,
    }
}

/// Whether the byte before the run at `s` (blanks passed over) may be the context of [`quoted_before_comma`],
/// [`unseal_key`] or [`label_line_before`]: a quote or an escape, `+ / =` after a letter or digit (inside a key's
/// base64), one blank after `l` or after a digit and `:` (`operator unseal `, `Unseal Key 1: `), or blanks after an
/// escape. Most long runs follow a blank after a word, which none of them does.
#[inline]
fn may_follow_context(t: Text<true>, s: usize) -> bool {
    let b = t.b;
    if s < 2 {
        return false;
    }
    match b[s - 1] {
        b'\'' | b'"' | b'\\' => true,
        // (Inside base64 a letter or digit comes before; `//` of a URL is no key's.)
        b'+' | b'/' | b'=' => is_alnum(b[s - 2]),
        // (`unseal_key` reads a single blank; after `:` and no digit, `go: `, the raw look of `label_line_before`
        // finds no line break either.)
        b' ' => match b[s - 2] {
            b'l' => true,
            b':' => s >= 3 && b[s - 3].is_ascii_digit(),
            _ => {
                let j = run_back(b, s - 1, |c| c == b' ');
                j > 0 && t.escaped(j - 1)
            }
        },
        _ => t.escaped(s - 1),
    }
}

/// For the raw scan: whether the run `s..e` is a quoted literal (`'…'`, or `\"…\"` in raw JSON string content) followed
/// by a comma (blanks passed over), where `literal_after_name` may find the literal after it named by it.
fn quoted_before_comma<const RAW: bool>(t: Text<RAW>, s: usize, e: usize) -> bool {
    let b = t.b;
    if s == 0 {
        return false;
    }
    let close = match b[s - 1] {
        b'\'' if b.get(e) == Some(&b'\'') => e + 1,
        b'"' if t.escaped(s - 1) && b.get(e) == Some(&b'\\') && b.get(e + 1) == Some(&b'"') => e + 2,
        _ => return false,
    };
    b.get(close + run_len(b, close, |c| c == b' ')) == Some(&b',')
}

/// For the raw scan: whether the run `s..e` is a quoted literal (`'…'`, or `\"…\"` in raw JSON string content) after a
/// comma or a word (blanks passed over), where `literal_named_before` may find it named in the decoded text;
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
    // (An escape's second byte there is a letter, `\t`, or decodes to no comma or letter. A quote there may open the
    // argument of a literal quoted twice, `'"…"'`.)
    j > 0 && (b[j - 1] == b',' || b[j - 1].is_ascii_alphabetic() || matches!(b[j - 1], b'\'' | b'"'))
}
