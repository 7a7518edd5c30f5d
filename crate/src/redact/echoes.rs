//! Copies of a found secret elsewhere in the same text go too, with the same rule.

use super::rule::Rule;
use super::Found;
use crate::bytes::find_long;

/// Bytes of text searched for copies of found secrets, at most, per text (see [`add`]).
pub const ECHO_BUDGET: usize = 4 << 20;

/// Adds the copies of each found secret elsewhere in the same text. A secret is often quoted where a rule sees it
/// and echoed where none does: an SQL `INSERT` before the unique-key error that names the column, a signed URL and
/// then the signature in the error body, `export TOKEN=…` and then the value alone. Each distinct secret of 8 bytes
/// or more is looked for in the whole text, as long as that is at most `ECHO_BUDGET` bytes of searching (a 1 MiB
/// text with up to 4 distinct secrets, 64 KiB with up to 64), so that a long text full of secrets stays linear.
/// A copy takes the rule of the secret it copies.
pub fn add(text: &str, found: &mut Vec<Found>) {
    let b = text.as_bytes();
    let most = ECHO_BUDGET / b.len().max(1);
    let mut secrets: Vec<(&[u8], Rule)> = Vec::new();
    for f in found.iter() {
        let s = b.get(f.start..f.end).unwrap_or(&[]);
        if s.len() >= 8 && !secrets.iter().any(|(x, _)| *x == s) {
            if secrets.len() == most {
                return;
            }
            secrets.push((s, f.rule));
        }
    }
    let before = found.len();
    // A word byte, as the scan has them (`[A-Za-z0-9_.-]`).
    let word = |c: Option<&u8>| c.is_some_and(|&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-'));
    for (s, rule) in secrets {
        let mut from = 0;
        while let Some(at) = find_long(b, s, from) {
            from = at + 1;
            let end = at + s.len();
            // A copy stands alone: not a piece of a longer word (`hunter2xyz` is no copy of `hunter2`), and its
            // marker leaves its neighbours as they were read, so a second pass finds nothing new.
            let inside = (at > 0 && word(b.get(at - 1))) || word(b.get(end));
            if !inside && !found.iter().any(|f| f.start < end && at < f.end) {
                found.push(Found { start: at, end, rule });
            }
        }
    }
    if found.len() > before {
        found.sort_unstable_by_key(|f| f.start);
    }
}
