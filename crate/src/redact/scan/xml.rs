//! XML: an element whose name names a secret holds one (`<password>…</password>`, Maven `settings.xml`), and so does a
//! `value="…"` attribute after a `key="…"` or `name="…"` that names one (read by `assign`).

use super::super::chars::*;
use super::super::keys::{Family, KeyClass};
use super::super::tokens::whole_token;
use super::super::values::{accept_value, Mode};
use super::Scanner;

impl Scanner<'_, false> {
    /// `<password>SECRET</password>`, `<apiKey>…</apiKey>`: an XML element whose name names a secret (Maven
    /// `settings.xml`, .NET and Java configuration). The value runs to the next `<` on the line; a literal, as a JSON
    /// string under such a key is.
    pub(super) fn on_tag(&mut self, i: usize, key: (usize, usize)) -> usize {
        let b = self.b;
        let Some(kc) = self.tag_key(i, key) else {
            return i + 1;
        };
        if kc.family == Family::Authorization {
            return i + 1; // `Bearer …`: its own rule
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
        // (A PEM block, which spans lines, is the PEM rule's, which keeps its armour lines.)
        if ve <= vs || b[vs..ve].starts_with(b"-----BEGIN") || !accept_value(&b[vs..ve], Mode::Literal, kc.family) {
            return i + 1;
        }
        // A vendor's token in a credentials file (`<secret>ghp_…</secret>`) is named by its own rule.
        if self.emit(vs, ve, whole_token(&b[vs..ve]).unwrap_or(kc.rule)) {
            ve
        } else {
            i + 1
        }
    }
}

impl<const RAW: bool> Scanner<'_, RAW> {
    /// For the `>` at `i`: what the element's name, `key`, names, when it ends a start tag right after the name and
    /// names a secret.
    pub(super) fn tag_key(&mut self, i: usize, key: (usize, usize)) -> Option<KeyClass> {
        if !is_start_tag(self.b, key, i) {
            return None;
        }
        self.keys.classify(self.b, key.0, key.1)
    }
}

/// Whether the stop `>` at `p` ends an XML start tag right after its name, `key` (`<password>`).
#[inline]
pub(super) fn is_start_tag(b: &[u8], key: (usize, usize), p: usize) -> bool {
    key.1 == p && key.0 > 0 && b[key.0 - 1] == b'<'
}

/// For the attribute `value` at `ks` of an XML element: the `key` or `name` attribute before it in the same tag
/// (`<add key="DbPassword" value="…"/>` in .NET configuration, `<env name="API_TOKEN" value="…"/>` in phpunit.xml).
pub(super) fn xml_attribute_name(b: &[u8], ks: usize) -> Option<(usize, usize)> {
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
