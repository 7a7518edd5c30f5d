//! An array of strings read as a command's arguments (`["mysql", "-u", "root", "-pX"]`, `["redis-server",
//! "--requirepass", "X"]`): each element that is or follows an option is scanned with the program and the arguments
//! before it, as the command line they make.

use super::super::scan::Resume;
use super::super::Found;

/// The string elements of an array read so far as a command's arguments (`["mysql", "-u", "root", "-pX"]`,
/// `["redis-server", "--requirepass", "X"]`): the first one, and the last four before the element being read (the
/// first among them, while there are fewer), as raw content ranges.
#[derive(Clone, Copy, Default)]
pub(super) struct Args {
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
    pub(super) fn push(&mut self, cs: usize, ce: usize) {
        self.first = self.first.or(Some((cs, ce)));
        self.last = [self.last[1], self.last[2], self.last[3], Some((cs, ce))];
    }

    /// Whether the element `raw[cs..ce]` or the one before looks like an option (starts with `-` or `/`): the test
    /// before [`line`](Self::line), on every string element of every array.
    #[inline]
    pub(super) fn near_option(&self, b: &[u8], cs: usize, ce: usize) -> bool {
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
pub(super) fn argv_spans(
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
