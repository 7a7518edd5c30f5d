//! Volatile values in a failure line replaced by placeholders, in one left-to-right pass: ids, hashes, times,
//! durations, addresses, numbers, temporary, home and repository paths. Written out by hand rather than as a
//! list of regular expressions: it runs on every failure line of every automatic failure, and regex-lite (the
//! core's engine, chosen for the size of the .wasm) took hundreds of microseconds for the list.

/// `line` with whitespace collapsed, paths ([`paths`]) and volatile values replaced.
pub fn normalise(line: &str, workdir: &str) -> String {
    let mut joined = String::with_capacity(line.len());
    for w in line.split_whitespace() {
        if !joined.is_empty() {
            joined.push(' ');
        }
        if w.contains('@') {
            joined.push_str(&email(w));
        } else {
            joined.push_str(w);
        }
    }
    let s = paths(&joined, workdir);
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        let after_word = i > 0 && is_word(b[i - 1]);
        let after_letter = i > 0 && b[i - 1].is_ascii_alphabetic();
        // Every placeholder starts with a digit, a lower-case letter or a hex digit (a uuid's may be upper-case).
        let may_start = b[i].is_ascii_digit() || b[i].is_ascii_lowercase() || (b'A'..=b'F').contains(&b[i]);
        let step = if after_word || !may_start { None } else { placeholder(b, i) };
        if let Some((len, to)) = step {
            out.push_str(to);
            i += len;
        } else if b[i].is_ascii_digit() && !after_letter {
            let end = number_end(b, i);
            match unit_after(b, end) {
                Some(unit_end) => {
                    out.push_str("<dur>");
                    i = unit_end;
                }
                None => {
                    out.push_str("<n>");
                    i = end;
                }
            }
        } else if b[i].is_ascii() {
            out.push(char::from(b[i]));
            i += 1;
        } else {
            // Copy one whole character (the input is UTF-8; a placeholder only ever starts at an ASCII byte).
            let len = s[i..].chars().next().map_or(1, char::len_utf8);
            out.push_str(&s[i..i + len]);
            i += len;
        }
    }
    out
}

/// The working directory, temporary paths (`/tmp`, `/var/tmp`, `/var/folders`, `/dev/shm`, also under
/// `/private`) and home directories (`/home/NAME`, `/Users/NAME`, `/root`) replaced by `<repo>`, `<tmp>` and `~`.
/// The command identity's rule too: plugin/capture/command.js follows it.
pub fn paths(s: &str, workdir: &str) -> String {
    let wd = workdir.trim_end_matches('/');
    let s = if wd.len() > 1 { replace_all(s, wd, "<repo>") } else { s.to_owned() };
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let (mut i, mut copied) = (0, 0);
    while i < b.len() {
        if b[i] != b'/' {
            i += 1;
            continue;
        }
        let found = temp_at(b, i).map(|end| (end, "<tmp>")).or_else(|| home_at(b, i).map(|end| (end, "~")));
        match found {
            Some((end, to)) => {
                out.push_str(&s[copied..i]);
                out.push_str(to);
                i = end;
                copied = end;
            }
            None => i += 1,
        }
    }
    out.push_str(&s[copied..]);
    out
}

/// `s.replace(from, to)`, with the crate's search: `str`'s sets up a searcher for every call, which costs more
/// than the search in a line.
fn replace_all(s: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut copied = 0;
    while let Some(at) = crate::bytes::find_from(s.as_bytes(), from.as_bytes(), copied) {
        out.push_str(&s[copied..at]);
        out.push_str(to);
        copied = at + from.len();
    }
    out.push_str(&s[copied..]);
    out
}

const TEMP_ROOTS: [&[u8]; 4] = [b"/tmp", b"/var/tmp", b"/var/folders", b"/dev/shm"];

/// The end of a temporary path starting at `i`: a temp root, then the rest of the path up to a delimiter.
fn temp_at(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i;
    if b[j..].starts_with(b"/private") && TEMP_ROOTS.iter().any(|r| b[j + 8..].starts_with(r)) {
        j += 8;
    }
    let root = TEMP_ROOTS.iter().find(|r| b[j..].starts_with(r))?;
    let mut end = j + root.len();
    if b.get(end) == Some(&b'/') {
        end += 1;
        while end < b.len() && !is_path_end(b[end]) {
            end += 1;
        }
    }
    Some(end)
}

/// The end of a home directory starting at `i`: `/home/NAME` or `/Users/NAME`, or `/root` as a whole word.
fn home_at(b: &[u8], i: usize) -> Option<usize> {
    for root in [&b"/home/"[..], b"/Users/"] {
        if b[i..].starts_with(root) {
            let start = i + root.len();
            let mut end = start;
            while end < b.len() && b[end] != b'/' && !is_path_end(b[end]) {
                end += 1;
            }
            return (end > start).then_some(end);
        }
    }
    let end = i + 5;
    (b[i..].starts_with(b"/root") && b.get(end).is_none_or(|c| !is_word(*c))).then_some(end)
}

fn is_path_end(c: u8) -> bool {
    c.is_ascii_whitespace() || matches!(c, b':' | b'\'' | b'"' | b')' | b']')
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// A placeholder that starts at `i` (at a word start): its length and text.
fn placeholder(b: &[u8], i: usize) -> Option<(usize, &'static str)> {
    let ends_word = |end: usize| b.get(end).is_none_or(|c| !is_word(*c));
    if let Some(len) = url(b, i) {
        return Some((len, "<url>"));
    }
    if let Some(len) = hex_groups(b, i, &[8, 4, 4, 4, 12]).filter(|&len| ends_word(i + len)) {
        return Some((len, "<uuid>"));
    }
    if let Some(len) = date_time(b, i) {
        return Some((len, "<time>"));
    }
    if let Some(len) = clock(b, i).filter(|&len| ends_word(i + len)) {
        return Some((len, "<time>"));
    }
    if let Some(len) = ip(b, i).filter(|&len| ends_word(i + len)) {
        return Some((len, "<ip>"));
    }
    if b[i..].starts_with(b"0x") {
        let len = 2 + b[i + 2..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
        if len > 2 && ends_word(i + len) {
            return Some((len, "<hex>"));
        }
    }
    // A hash: seven or more lower-case hex digits with both a digit and a letter among them.
    let run = b[i..].iter().take_while(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(c)).count();
    let hexy = b[i..i + run].iter().any(u8::is_ascii_digit) && b[i..i + run].iter().any(u8::is_ascii_alphabetic);
    if run >= 7 && hexy && ends_word(i + run) {
        return Some((run, "<hex>"));
    }
    None
}

/// `scheme://` and the rest of the word.
fn url(b: &[u8], i: usize) -> Option<usize> {
    if !b[i].is_ascii_lowercase() {
        return None;
    }
    let scheme = b[i..]
        .iter()
        .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, b'+' | b'.' | b'-'))
        .count();
    if !b[i + scheme..].starts_with(b"://") {
        return None;
    }
    let rest = b[i + scheme + 3..].iter().take_while(|c| !c.is_ascii_whitespace()).count();
    (rest > 0).then_some(scheme + 3 + rest)
}

/// Groups of exactly these many hex digits joined by `-`.
fn hex_groups(b: &[u8], i: usize, groups: &[usize]) -> Option<usize> {
    let mut j = i;
    for (n, &want) in groups.iter().enumerate() {
        if n > 0 {
            if b.get(j) != Some(&b'-') {
                return None;
            }
            j += 1;
        }
        let got = b[j..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
        if got != want {
            return None;
        }
        j += got;
    }
    Some(j - i)
}

fn digits(b: &[u8], i: usize) -> usize {
    b.get(i..).map_or(0, |r| r.iter().take_while(|c| c.is_ascii_digit()).count())
}

/// `YYYY-MM-DD`, optionally followed by `T` or a space and a clock time, and a zone.
fn date_time(b: &[u8], i: usize) -> Option<usize> {
    let fixed = |j: usize, n: usize| digits(b, j) == n;
    if !(fixed(i, 4)
        && b.get(i + 4) == Some(&b'-')
        && fixed(i + 5, 2)
        && b.get(i + 7) == Some(&b'-')
        && fixed(i + 8, 2))
    {
        return None;
    }
    let mut end = i + 10;
    if matches!(b.get(end), Some(b'T' | b' ')) {
        if let Some(t) = clock(b, end + 1) {
            end += 1 + t;
            if b.get(end) == Some(&b'Z') {
                end += 1;
            } else if matches!(b.get(end), Some(b'+' | b'-')) && digits(b, end + 1) >= 2 {
                let mut z = end + 1 + 2;
                if b.get(z) == Some(&b':') {
                    z += 1;
                }
                z += digits(b, z).min(2);
                end = z;
            }
        }
    }
    Some(end - i)
}

/// `H:MM` with optional `:SS` and a fraction (after a date), or `H:MM:SS` with an optional fraction alone.
fn clock(b: &[u8], i: usize) -> Option<usize> {
    let h = digits(b, i);
    if !(1..=2).contains(&h) || b.get(i + h) != Some(&b':') || digits(b, i + h + 1) != 2 {
        return None;
    }
    let mut end = i + h + 3;
    if b.get(end) == Some(&b':') && digits(b, end + 1) == 2 {
        end += 3;
        if matches!(b.get(end), Some(b'.' | b',')) && digits(b, end + 1) > 0 {
            end += 1 + digits(b, end + 1);
        }
        return Some(end - i);
    }
    // Without seconds only as part of a date-time; alone, 10:11 is as likely a line and column.
    (i > 0 && matches!(b[i - 1], b'T' | b' ') && i >= 11 && b[i - 11].is_ascii_digit()).then_some(end - i)
}

/// A dotted IPv4 address with an optional port.
fn ip(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i;
    for n in 0..4 {
        if n > 0 {
            if b.get(j) != Some(&b'.') {
                return None;
            }
            j += 1;
        }
        let d = digits(b, j);
        if !(1..=3).contains(&d) {
            return None;
        }
        j += d;
    }
    if b.get(j) == Some(&b':') && digits(b, j + 1) > 0 {
        j += 1 + digits(b, j + 1);
    }
    Some(j - i)
}

/// The end of a number starting at `i`: digits, optionally a fraction.
fn number_end(b: &[u8], i: usize) -> usize {
    let mut end = i + digits(b, i);
    if b.get(end) == Some(&b'.') && digits(b, end + 1) > 0 {
        end += 1 + digits(b, end + 1);
    }
    end
}

const UNITS: [&[u8]; 13] =
    [b"ns", "µs".as_bytes(), b"us", b"ms", b"seconds", b"secs", b"sec", b"s", b"minutes", b"mins", b"min", b"m", b"h"];

/// The end of a duration unit right after a number (or after one space), when one follows as a whole word.
fn unit_after(b: &[u8], end: usize) -> Option<usize> {
    let start = if b.get(end) == Some(&b' ') { end + 1 } else { end };
    UNITS
        .iter()
        .find(|u| {
            b.get(start..).is_some_and(|r| r.starts_with(u)) && b.get(start + u.len()).is_none_or(|c| !is_word(*c))
        })
        .map(|u| start + u.len())
}

/// A word that is an e-mail address (`local@domain.tld`, punctuation around it kept) becomes `<email>`.
fn email(word: &str) -> String {
    let core = word.trim_matches(|c: char| matches!(c, '(' | ')' | '<' | '>' | ',' | ';' | '"' | '\'' | '[' | ']'));
    let ok = core.split_once('@').is_some_and(|(local, domain)| {
        !local.is_empty()
            && local.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '+' | '-'))
            && domain.contains('.')
            && !domain.starts_with('.')
            && !domain.ends_with('.')
            && domain.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-'))
    });
    if ok {
        word.replacen(core, "<email>", 1)
    } else {
        word.to_owned()
    }
}
