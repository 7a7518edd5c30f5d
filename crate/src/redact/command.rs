//! Passwords given to a program on its command line (rule `command-line-password`): `mysql -pSECRET`,
//! `curl -u user:SECRET`, `sshpass -p SECRET`, `docker login -p SECRET`, `redis-cli -a SECRET`, … Agents quote the
//! commands they ran, so these reach recordings as often as `.env` lines do.
//!
//! A short option means a password only for the program it is given to (`-p` is a port to `ssh` and `psql`, a
//! parent directory to `mkdir`), so each option is looked up with its program: the nearest known program name
//! before it in the same command (back to a line break or `| ; & ( { \``), so that `docker exec db mysql -pX` is
//! `mysql`'s. Where the option letter is common (`-p`, `-a`, `-P`, …), the words between the program and the
//! option must be options and their values (`sshpass -p X ssh -p 22 host`: the second `-p` is `ssh`'s).
//! Long options naming a secret (`--password X`) are the scanner's `flag`, for every program.

/// Where an option's value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// Joined to the option (`-pSECRET`); the option alone asks for the password (`mysql -p db`).
    Attached,
    /// The next word (`-a SECRET`), or after `=` for a long option (`--user=u:SECRET`).
    Spaced,
    /// Either of the two.
    Either,
    /// The last of `n` words after an option cluster that holds the letter (`htpasswd -b FILE USER SECRET`,
    /// `htpasswd -nb USER SECRET`: one word fewer when the cluster holds `n`).
    Positional,
}

/// Which part of the value is the password.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Whole,
    /// After the first `:` (`user:SECRET`); no `:` means the program asks for it.
    AfterColon,
    /// After the first `%` (`smbclient -U user%SECRET`).
    AfterPercent,
    /// After `pass:` (OpenSSL's `-passin pass:SECRET`; `env:VAR`, `file:path` and `stdin` name no secret).
    AfterPassColon,
}

struct Opt {
    programs: &'static [&'static str],
    option: &'static [u8],
    form: Form,
    part: Part,
    /// Only options and their values may stand between the program and the option.
    strict: bool,
}

const MYSQL: &[&str] = &[
    "mysql",
    "mysqldump",
    "mysqladmin",
    "mysqlimport",
    "mysqlshow",
    "mysqlcheck",
    "mysqlpump",
    "mysqlsh",
    "mariadb",
    "mariadb-dump",
    "mariadb-admin",
];
const MONGO: &[&str] = &["mongo", "mongosh", "mongodump", "mongorestore", "mongoexport", "mongoimport", "mongostat"];
const LDAP: &[&str] = &["ldapsearch", "ldapadd", "ldapmodify", "ldapdelete", "ldapwhoami", "ldappasswd", "ldapcompare"];
const JAVA_KEYS: &[&str] = &["keytool", "jarsigner"];
/// `login` counts as a program when one of these comes right before it (`docker login`, `helm registry login`).
const LOGIN_HOSTS: &[&str] = &["docker", "podman", "buildah", "skopeo", "nerdctl", "oras", "registry", "az"];

const OPTIONS: &[Opt] = &[
    Opt { programs: MYSQL, option: b"-p", form: Form::Attached, part: Part::Whole, strict: false },
    Opt { programs: &["curl"], option: b"-u", form: Form::Either, part: Part::AfterColon, strict: false },
    Opt { programs: &["curl"], option: b"-U", form: Form::Either, part: Part::AfterColon, strict: false },
    Opt { programs: &["curl"], option: b"--user", form: Form::Spaced, part: Part::AfterColon, strict: false },
    Opt { programs: &["curl"], option: b"--proxy-user", form: Form::Spaced, part: Part::AfterColon, strict: false },
    Opt { programs: &["sshpass"], option: b"-p", form: Form::Either, part: Part::Whole, strict: true },
    Opt { programs: &["redis-cli"], option: b"-a", form: Form::Spaced, part: Part::Whole, strict: true },
    Opt { programs: &["redis-cli"], option: b"--pass", form: Form::Spaced, part: Part::Whole, strict: false },
    Opt { programs: &["redis-server"], option: b"--requirepass", form: Form::Spaced, part: Part::Whole, strict: false },
    Opt { programs: &["redis-server"], option: b"--masterauth", form: Form::Spaced, part: Part::Whole, strict: false },
    Opt { programs: MONGO, option: b"-p", form: Form::Spaced, part: Part::Whole, strict: true },
    Opt { programs: &["login"], option: b"-p", form: Form::Spaced, part: Part::Whole, strict: true },
    Opt { programs: &["sqlcmd", "bcp"], option: b"-P", form: Form::Either, part: Part::Whole, strict: true },
    Opt { programs: LDAP, option: b"-w", form: Form::Spaced, part: Part::Whole, strict: true },
    Opt { programs: &["smbclient"], option: b"-U", form: Form::Either, part: Part::AfterPercent, strict: false },
    Opt { programs: &["smbclient"], option: b"--user", form: Form::Spaced, part: Part::AfterPercent, strict: false },
    Opt { programs: &["zip", "unzip"], option: b"-P", form: Form::Spaced, part: Part::Whole, strict: true },
    Opt { programs: &["7z", "7za", "7zz"], option: b"-p", form: Form::Attached, part: Part::Whole, strict: false },
    Opt { programs: &["ssh-keygen"], option: b"-N", form: Form::Spaced, part: Part::Whole, strict: true },
    Opt { programs: &["ssh-keygen"], option: b"-P", form: Form::Spaced, part: Part::Whole, strict: true },
    Opt { programs: &["openssl"], option: b"-k", form: Form::Spaced, part: Part::Whole, strict: false },
    Opt { programs: &["openssl"], option: b"-pass", form: Form::Spaced, part: Part::AfterPassColon, strict: false },
    Opt { programs: &["openssl"], option: b"-passin", form: Form::Spaced, part: Part::AfterPassColon, strict: false },
    Opt { programs: &["openssl"], option: b"-passout", form: Form::Spaced, part: Part::AfterPassColon, strict: false },
    Opt { programs: JAVA_KEYS, option: b"-storepass", form: Form::Spaced, part: Part::Whole, strict: false },
    Opt { programs: JAVA_KEYS, option: b"-keypass", form: Form::Spaced, part: Part::Whole, strict: false },
    Opt { programs: JAVA_KEYS, option: b"-srcstorepass", form: Form::Spaced, part: Part::Whole, strict: false },
    Opt { programs: JAVA_KEYS, option: b"-deststorepass", form: Form::Spaced, part: Part::Whole, strict: false },
    Opt { programs: JAVA_KEYS, option: b"-srckeypass", form: Form::Spaced, part: Part::Whole, strict: false },
    Opt { programs: JAVA_KEYS, option: b"-destkeypass", form: Form::Spaced, part: Part::Whole, strict: false },
    Opt { programs: &["htpasswd"], option: b"-b", form: Form::Positional, part: Part::Whole, strict: false },
];

/// How far back the program is looked for.
const LOOK_BACK: usize = 512;

/// What [`option_at`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    /// Not a password option of the program it is given to.
    No,
    /// Raw JSON text only: the command is cut by an escape other than `\n`/`\r`, which the decoded text must decide.
    Unsure,
    /// A password option: its value starts at `value` (a quoted or bare shell word), and `part` of it is the
    /// password.
    Yes { value: usize, part: Part },
}

/// Whether `c` ends a command when looking back from an option (`\` before a line break continues the line).
fn ends_command(b: &[u8], x: usize) -> bool {
    match b[x] {
        b'\n' => x == 0 || b[x - 1] != b'\\',
        b'\r' | b'|' | b';' | b'&' | b'(' | b'{' | b'`' => true,
        _ => false,
    }
}

/// The program name a shell word stands for: quotes around it dropped, and the directory and a `.exe` (`"/usr/bin/mysql"`
/// is `mysql`).
fn program_name(w: &[u8]) -> &[u8] {
    let quote = |c: &u8| matches!(c, b'"' | b'\'');
    let start = w.iter().position(|c| !quote(c)).unwrap_or(w.len());
    let end = w.iter().rposition(|c| !quote(c)).map_or(start, |k| k + 1);
    let w = &w[start..end.max(start)];
    let w = match w.iter().rposition(|&c| c == b'/' || c == b'\\') {
        Some(k) => &w[k + 1..],
        None => w,
    };
    w.strip_suffix(b".exe").unwrap_or(w)
}

fn is_one_of(w: &[u8], names: &[&str]) -> bool {
    names.iter().any(|n| n.as_bytes() == w)
}

/// The shell words before a position in its command, nearest first, each `Some((start, end))`; `Some(None)` when an
/// escape that is not a line break cuts the command (`escaped(x)`: byte x is the second byte of an escape, in raw
/// JSON text only), which only the decoded text can read.
struct WordsBack<'a, F> {
    b: &'a [u8],
    at: usize,
    floor: usize,
    escaped: F,
    done: bool,
}

impl<F: Fn(usize) -> bool> Iterator for WordsBack<'_, F> {
    type Item = Option<(usize, usize)>;

    fn next(&mut self) -> Option<Self::Item> {
        let b = self.b;
        if self.done {
            return None;
        }
        // Blanks, and a line continued by a backslash.
        let blank = |x: usize| match b[x] {
            b' ' | b'\t' => true,
            b'\n' => x > 0 && b[x - 1] == b'\\',
            b'\\' => b.get(x + 1) == Some(&b'\n'),
            _ => false,
        };
        while self.at > self.floor && !(self.escaped)(self.at - 1) && blank(self.at - 1) {
            self.at -= 1;
        }
        let end = self.at;
        while self.at > self.floor {
            let x = self.at - 1;
            if (self.escaped)(x) {
                self.done = true;
                // `\n` or `\r`: the command starts after the line break, unless an escaped backslash comes before
                // the `\n` (`\\\n`: a line continued in the decoded text).
                if b[x] == b'r' || (b[x] == b'n' && (x < 2 || b[x - 2] != b'\\')) {
                    break;
                }
                return Some(None);
            }
            if ends_command(b, x) {
                self.done = true;
                break;
            }
            if blank(x) {
                break;
            }
            self.at -= 1;
        }
        if self.at == end {
            self.done = true;
            return None;
        }
        Some(Some((self.at, end)))
    }
}

/// The nearest known program (of any option in [`OPTIONS`]) before the option at `s` in its command, and whether
/// only options and their values stand between them. `Err(())`: an escape cut the command (raw text).
fn program_before<'a>(b: &'a [u8], s: usize, escaped: &impl Fn(usize) -> bool) -> Result<Option<(&'a [u8], bool)>, ()> {
    let mut words = WordsBack { b, at: s, floor: s.saturating_sub(LOOK_BACK), escaped, done: false };
    let mut options_only = true;
    let mut last_was_plain = false;
    while let Some(w) = words.next() {
        let (ws, we) = w.ok_or(())?;
        let word = &b[ws..we];
        let name = program_name(word);
        if name == b"login" {
            // `login` is a program after a host that has it (`docker login`), and else a plain word.
            let mut ahead = WordsBack { b, at: ws, floor: words.floor, escaped: words.escaped, done: false };
            match ahead.next() {
                Some(Some((hs, he))) if is_one_of(program_name(&b[hs..he]), LOGIN_HOSTS) => {
                    return Ok(Some((name, options_only)))
                }
                Some(None) => return Err(()),
                _ => {}
            }
        } else if OPTIONS.iter().any(|o| is_one_of(name, o.programs)) {
            return Ok(Some((name, options_only)));
        }
        let plain = !word.starts_with(b"-");
        options_only &= !(plain && last_was_plain);
        last_was_plain = plain;
    }
    Ok(None)
}

/// Where the value of `opt` starts if the run `b[s..e]` is that option in a form it takes. `Err(true)`: an escape is
/// in the way (raw text); `Err(false)`: not this option.
fn value_of(opt: &Opt, b: &[u8], s: usize, e: usize, escaped: &impl Fn(usize) -> bool) -> Result<usize, bool> {
    let (run, o) = (&b[s..e], opt.option);
    if opt.form == Form::Positional {
        return if is_cluster_with(run, o[1]) { positional(b, e, run, escaped) } else { Err(false) };
    }
    if o.len() == 2 && run.starts_with(o) {
        // A one-letter option: joined to its value, or a word of its own.
        let joined = b.get(s + 2).is_some_and(|&c| !matches!(c, b' ' | b'\t' | b'\n' | b'\r'));
        return match (joined, opt.form) {
            (true, Form::Attached | Form::Either) => Ok(s + 2),
            (false, Form::Spaced | Form::Either) if run.len() == 2 && b.get(s + 2) == Some(&b' ') => Ok(s + 3),
            _ => Err(false),
        };
    }
    match b.get(e) {
        Some(b' ') if run == o => Ok(e + 1),
        Some(b'=') if run == o && o.starts_with(b"--") => Ok(e + 1),
        _ => Err(false),
    }
}

/// The first letters of the options in [`OPTIONS`] (after `-` or `--`); a cluster holding `b` may be `htpasswd`'s.
const OPTION_LETTERS: &[u8] = b"aduwkmpsrNPU";

/// The option whose word run is `b[s..e]` (it starts with `-`), looked up as a password option of its program.
/// `escaped(x)`: whether byte x is the second byte of an escape (raw JSON text; never in decoded text).
pub fn option_at(b: &[u8], s: usize, e: usize, escaped: impl Fn(usize) -> bool) -> Look {
    // (Raw text: an escape right before is for the look back to report.)
    if s > 0 && !escaped(s - 1) && !matches!(b[s - 1], b' ' | b'\t' | b'\n' | b'\r' | b'"' | b'\'') {
        return Look::No;
    }
    let run = &b[s..e];
    let first = if run.get(1) == Some(&b'-') { run.get(2) } else { run.get(1) };
    let cluster_with_b = run.len() > 1 && run[1..].contains(&b'b');
    if !(first.is_some_and(|c| OPTION_LETTERS.contains(c)) || cluster_with_b) {
        return Look::No; // `-c`, `-o`, `--git`, `->`: most options, turned away before anything is looked up
    }
    // Is the run one of the options at all (one look back is then enough for all of them)?
    let mut unsure = false;
    let mut any = false;
    for opt in OPTIONS {
        match value_of(opt, b, s, e, &escaped) {
            Ok(_) => any = true,
            Err(cut) => unsure |= cut,
        }
    }
    if !any {
        return if unsure { Look::Unsure } else { Look::No };
    }
    let Ok(program) = program_before(b, s, &escaped) else { return Look::Unsure };
    let Some((name, options_only)) = program else {
        return if unsure { Look::Unsure } else { Look::No };
    };
    for opt in OPTIONS.iter().filter(|o| is_one_of(name, o.programs) && (options_only || !o.strict)) {
        if let Ok(value) = value_of(opt, b, s, e, &escaped) {
            return Look::Yes { value, part: opt.part };
        }
    }
    if unsure {
        Look::Unsure
    } else {
        Look::No
    }
}

/// `-b`, `-bc`, `-nB b`…: a cluster of one-letter options that holds `letter`.
fn is_cluster_with(run: &[u8], letter: u8) -> bool {
    run.len() >= 2 && run[1] != b'-' && run[1..].iter().all(u8::is_ascii_alphabetic) && run[1..].contains(&letter)
}

/// For [`Form::Positional`]: the start of the last of the words after the cluster (`htpasswd -b FILE USER PASS`,
/// `-nb USER PASS`), on the same line, options after the cluster passed over. `Err(true)`: an escape is in the way
/// (raw text), so the decoded text must count the words; `Err(false)`: too few words.
fn positional(b: &[u8], e: usize, cluster: &[u8], escaped: &impl Fn(usize) -> bool) -> Result<usize, bool> {
    let want = if cluster.contains(&b'n') { 2 } else { 3 };
    let mut j = e;
    let mut seen = 0;
    loop {
        while j < b.len() && matches!(b[j], b' ' | b'\t') {
            j += 1;
        }
        let start = j;
        while j < b.len() && !b[j].is_ascii_whitespace() {
            if escaped(j) {
                return Err(true);
            }
            j += 1;
        }
        if j == start {
            return Err(false);
        }
        if b[start] != b'-' {
            seen += 1;
            if seen == want {
                return Ok(start);
            }
        }
    }
}

/// The password in a value read for `part` (`start..end` of the whole value), as a range.
pub fn password_in(b: &[u8], start: usize, end: usize, part: Part) -> Option<(usize, usize)> {
    let v = &b[start..end];
    if v.starts_with(b"-") {
        return None; // the next option: the program asks (`mongosh -u admin -p --authenticationDatabase admin`)
    }
    let from = match part {
        Part::Whole => 0,
        Part::AfterColon => v.iter().position(|&c| c == b':')? + 1,
        Part::AfterPercent => v.iter().position(|&c| c == b'%')? + 1,
        Part::AfterPassColon => v.starts_with(b"pass:").then_some(5)?,
    };
    (start + from < end).then_some((start + from, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`option_at`] on the first word `opt` of `t`, in decoded text.
    fn look(t: &str, opt: &str) -> Look {
        let s = t.find(&format!(" {opt}")).expect("the option") + 1;
        let b = t.as_bytes();
        let e = s + b[s..]
            .iter()
            .position(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.')))
            .unwrap_or(b.len() - s);
        option_at(b, s, e, |_| false)
    }

    fn yes(t: &str, opt: &str, value: &str) {
        let v = t.find(value).expect("the value");
        assert!(matches!(look(t, opt), Look::Yes { value, .. } if value == v), "{t}: {:?}", look(t, opt));
    }

    #[test]
    fn an_option_is_a_password_for_its_program_only() {
        yes("mysql -u root -pX1y2 app", "-pX", "X1y2");
        yes("docker exec -it db mysql -pX1y2", "-pX", "X1y2");
        yes("sudo /usr/local/bin/mysql.exe -p'X1y2'", "-p'", "'X1y2'");
        assert_eq!(look("mysql -u root -p app", "-p"), Look::No, "a bare -p asks for the password");
        assert_eq!(look("ssh -p 2222 host", "-p"), Look::No);
        assert_eq!(look("mkdir -p build/out", "-p"), Look::No);
        assert_eq!(look("docker run -p 8080:80 app", "-p"), Look::No);
        yes("docker login -u bot -p X1y2 reg.io", "-p", "X1y2 reg");
        yes("az login -u me@x.io -p X1y2", "-p", "X1y2");
        assert_eq!(look("kubectl login -p X1y2", "-p"), Look::No, "login counts after the hosts named");
        yes("redis-cli -h cache -p 6379 -a X1y2 ping", "-a", "X1y2");
        yes("curl -sS -u admin:X1y2 https://x", "-u", "admin:X1y2");
        yes("curl https://x -uadmin:X1y2", "-uadmin", "admin:X1y2");
        yes("curl --user=admin:X1y2 https://x", "--user", "admin:X1y2");
        yes("htpasswd -b .htpasswd admin X1y2", "-b", "X1y2");
        yes("htpasswd -nbB admin X1y2", "-nbB", "X1y2");
        assert_eq!(look("htpasswd -c .htpasswd admin", "-c"), Look::No, "without -b it asks");
        yes("keytool -list -keystore ks.jks -storepass X1y2", "-storepass", "X1y2");
        yes("openssl pkcs12 -export -passout pass:X1y2 -out a.p12", "-passout", "pass:X1y2");
    }

    #[test]
    fn between_a_program_and_a_common_option_only_options_and_their_values() {
        yes("sshpass -p X1y2 ssh -p 22 host", "-p", "X1y2 ssh");
        let t = "sshpass -p X1y2 ssh -p 22 host";
        let s = t.rfind(" -p").unwrap() + 1;
        assert_eq!(option_at(t.as_bytes(), s, s + 2, |_| false), Look::No, "the second -p is ssh's");
    }

    #[test]
    fn a_command_ends_at_a_line_break_or_a_shell_operator() {
        assert_eq!(look("mysql app\ntool -pX1y2", "-pX"), Look::No);
        yes("tool app\nmysql -pX1y2", "-pX", "X1y2");
        assert_eq!(look("echo mysql | sshpass_wrapper -pX1y2", "-pX"), Look::No);
        assert_eq!(look("mysql app; tool -pX1y2", "-pX"), Look::No);
        yes("mysql \\\n  -pX1y2 app", "-pX", "X1y2");
        yes("redis-cli -h cache \\\n  -a X1y2 ping", "-a", "X1y2");
    }

    #[test]
    fn an_escape_in_the_command_leaves_it_to_the_decoded_text() {
        // Raw JSON string content: `mysql \"-pX1y2\"` (the option inside an escaped quote).
        let t = r#"mysql \"-pX1y2"#;
        let s = t.find("-p").unwrap();
        let quote = t.find('"').unwrap();
        assert_eq!(option_at(t.as_bytes(), s, s + 6, |x| x == quote), Look::Unsure);
        // A `\n` escape is a line break, as in the decoded text.
        let t = r#"mysql app\n-pX1y2"#;
        let s = t.find("-p").unwrap();
        assert_eq!(option_at(t.as_bytes(), s, s + 6, |x| x == s - 1), Look::No);
    }

    #[test]
    fn every_option_starts_with_a_letter_that_is_looked_for() {
        for o in OPTIONS {
            let first = if o.option[1] == b'-' { o.option[2] } else { o.option[1] };
            assert!(
                OPTION_LETTERS.contains(&first) || o.form == Form::Positional,
                "{:?}",
                String::from_utf8_lossy(o.option)
            );
        }
    }

    #[test]
    fn the_password_part_of_a_value() {
        let b = b"admin:X1y2:z u%p pass:k env:V";
        assert_eq!(password_in(b, 0, 12, Part::AfterColon), Some((6, 12)));
        assert_eq!(password_in(b, 0, 5, Part::AfterColon), None, "no colon: curl asks");
        assert_eq!(password_in(b, 13, 16, Part::AfterPercent), Some((15, 16)));
        assert_eq!(password_in(b, 17, 23, Part::AfterPassColon), Some((22, 23)));
        assert_eq!(password_in(b, 24, 29, Part::AfterPassColon), None);
        assert_eq!(password_in(b"-p --port", 3, 9, Part::Whole), None);
    }
}
