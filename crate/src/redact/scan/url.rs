//! `scheme://user:password@host`: only the password goes (and a token used as the user name).

use super::super::chars::*;
use super::super::rule::Rule;
use super::super::tokens::whole_token;
use super::super::values::accept_url_password;
use super::blocks::is_word;
use super::words::{webhook_host, Webhook};
use super::Scanner;

/// What the authority of `scheme://…` holds, as far as the URL rule is concerned.
pub(super) enum Authority {
    /// Nothing to redact.
    Clean,
    /// `user:password@host` with an acceptable password; `c` is the `:` and `a` the `@`.
    Password { c: usize, a: usize },
    /// Raw text only: an escape that the decoded text must read (`\b`, a backspace, would not end the authority).
    Unsure,
}

impl<const RAW: bool> Scanner<'_, RAW> {
    /// Reads the authority after the `:` of `://` at `i`, whose scheme is `key`.
    pub(super) fn authority(&self, i: usize, key: (usize, usize)) -> Authority {
        let b = self.b;
        let (ks, ke) = key;
        if ke != i || ke - ks < 2 {
            return Authority::Clean;
        }
        let u = i + 3;
        let (mut colon, mut at) = (None, None);
        let mut j = u;
        while j < b.len() && j - u < 512 {
            match b[j] {
                // (Raw: a backslash starts an escape, which decodes to a byte that ends the authority too, except
                // `\b`, a backspace.)
                b'\\' if RAW && b.get(j + 1) == Some(&b'b') => return Authority::Unsure,
                b'/' | b'?' | b'#' | b'\\' | b'"' | b'\'' | b'`' | b'<' | b'>' => break,
                c if c.is_ascii_whitespace() => break,
                b'[' if starts_with_at(b, j, MARKER_PREFIX) => return Authority::Clean,
                b':' if colon.is_none() => colon = Some(j),
                b'@' => at = Some(j),
                _ => {}
            }
            j += 1;
        }
        let (Some(c), Some(a)) = (colon, at) else { return Authority::Clean };
        if c >= a {
            return Authority::Clean;
        }
        let pw = &b[c + 1..a];
        let host_ok = b.get(a + 1).is_some_and(|&h| is_alnum(h) || h == b'[');
        if host_ok && accept_url_password(pw) && !local_default(&b[u..c], pw, &b[a + 1..]) {
            Authority::Password { c, a }
        } else {
            Authority::Clean
        }
    }
}

impl Scanner<'_, false> {
    /// `scheme://user:password@host`: only the password goes.
    pub(super) fn url(&mut self, i: usize, key: (usize, usize)) -> usize {
        let Authority::Password { c, a } = self.authority(i, key) else {
            if let Some((s, e)) = device_token(self.b, i + 3) {
                return if self.emit(s, e, Rule::UrlCredentials) { e } else { i + 3 };
            }
            // A webhook at a host too short for the word handler to be offered it (`discord.com`).
            let Some((e, (kinds, rule))) = short_webhook_host(self.b, i + 3) else { return i + 3 };
            return self.webhook(e, kinds, rule).unwrap_or(i + 3);
        };
        let b = self.b;
        let u = i + 3;
        // A token as the user name (`https://ghp_…:x-oauth-basic@github.com`) goes too.
        if let Some(user_rule) = whole_token(&b[u..c]) {
            self.emit(u, c, user_rule);
        }
        let rule = whole_token(&b[c + 1..a]).unwrap_or(Rule::UrlCredentials);
        if self.emit(c + 1, a, rule) {
            return a;
        }
        i + 3
    }
}

/// A device's access token in the path of the URL whose host starts at `u` (after `://`): ThingsBoard's device API
/// takes it there (`/api/v1/<token>/telemetry`, `…/attributes`, `…/rpc`, `…/claim`). The token's span.
#[inline(never)]
pub(super) fn device_token(b: &[u8], u: usize) -> Option<(usize, usize)> {
    let h = u + run_len(b, u, |c| is_alnum(c) || matches!(c, b'.' | b'-' | b':'));
    if !starts_with_at(b, h, b"/api/v1/") {
        return None;
    }
    let s = h + 8;
    let n = run_len(b, s, is_alnum);
    let (l, u, d) = mix(&b[s..s + n]);
    let what = [&b"/telemetry"[..], b"/attributes", b"/rpc", b"/claim"];
    ((16..=64).contains(&n) && d && (l || u) && what.iter().any(|w| starts_with_at(b, s + n, w))).then_some((s, s + n))
}

/// For the raw scan: whether the decoded text may have a [`device_token`] or a [`short_webhook_host`] at the host that
/// starts at `u` (after `://`), where an escaped `/` (`\/`) may stand in a device token's path. `e`: the end of the
/// word run from `u`, which is what `short_webhook_host` reads; a device's host is that run when it holds no `_`, and a
/// `:` after it starts a port.
pub(super) fn may_act_after_scheme(b: &[u8], u: usize, e: usize) -> bool {
    if e - u < 15 && webhook_host(&b[u..e]).is_some() {
        return true;
    }
    let h =
        if b.get(e) == Some(&b':') { e + run_len(b, e, |c| is_alnum(c) || matches!(c, b'.' | b'-' | b':')) } else { e };
    may_be_device_token_at(b, u, h) && !b[u..e].contains(&b'_')
}

/// Whether the decoded text may have a [`device_token`] at `u`, the host ending at `h` (see
/// [`may_act_after_scheme`]).
fn may_be_device_token_at(b: &[u8], u: usize, h: usize) -> bool {
    match b.get(h..h + 2) {
        Some(b"\\/") => true,
        Some(b"/a") => {
            let e = h + 8 + run_len(b, h + 8, is_alnum);
            device_token(b, u).is_some() || (starts_with_at(b, h, b"/api/v1/") && b.get(e) == Some(&b'\\'))
        }
        _ => false,
    }
}

/// The host at `u` (after `://`) when it is a webhook's (see [`webhook_host`]) and shorter than the word runs the
/// scan offers its word handler (which finds the longer ones): its end, the webhook paths there and their rule.
pub(super) fn short_webhook_host(b: &[u8], u: usize) -> Option<(usize, Webhook)> {
    let n = run_len(b, u, is_word);
    (n < 15).then(|| webhook_host(&b[u..u + n]).map(|w| (u + n, w)))?
}

/// A development default in a URL: the same word as user name and password (`postgres:postgres`, `guest:guest`) at
/// a loopback host (`localhost`, `127.0.0.1`, `[::1]`).
fn local_default(user: &[u8], pw: &[u8], host: &[u8]) -> bool {
    user == pw
        && [&b"localhost"[..], b"127.0.0.1", b"[::1]"]
            .iter()
            .any(|h| host.starts_with(h) && !host.get(h.len()).is_some_and(|&c| is_word(c)))
}
