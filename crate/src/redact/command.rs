//! Passwords given to a program on its command line (rule `command-line-password`): `mysql -pSECRET`,
//! `curl -u user:SECRET`, `sshpass -p SECRET`, `docker login -p SECRET`, `redis-cli -a SECRET`, … Agents quote the
//! commands they ran, so these reach recordings as often as `.env` lines do.
//!
//! A short option means a password only for the program it is given to (`-p` is a port to `ssh` and `psql`, a
//! parent directory to `mkdir`), so each option is looked up with its program: the nearest known program name
//! before it in the same command (back to a line break or `| ; & ( { \``), so that `docker exec db mysql -pX` is
//! `mysql`'s. Where the option letter is common (`-p`, `-a`, `-P`, …), the words between the program and the
//! option must be options and their values (`sshpass -p X ssh -p 22 host`: the second `-p` is `ssh`'s).
//!
//! For programs not in the table, two forms say "password" on their own: a password option right after a user
//! option and its value (`-u U -p X`, `-U U -P X`, `-au U -ap X`; a number there is a port or a process id, as in
//! `ps -u app -p 4242`), and Windows-style `/p:X`, `/pass:X`, `-p:X` (the scanner's `:` stop; `msbuild
//! /p:Name=Value` sets a property). Long options naming a secret (`--password X`) are the scanner's `flag`, for every
//! program. Each tool's own positional forms (`rabbitmqctl add_user NAME PASS`, `sqlplus user/PASS@db`) are not
//! read: no general rule tells them from ordinary arguments.

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
    /// What `echo` or `printf` pipes into the program (`echo SECRET | sudo -S …`); found from the program.
    Echoed,
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
    /// After the first `,` (`lftp -u user,SECRET`).
    AfterComma,
    /// The whole value, unless it is a number (a port, a process id): for an option read as a password from the
    /// user option before it rather than from a known program (see [`after_user`]).
    NotNumber,
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
const PUTTY: &[&str] = &["plink", "pscp", "psftp", "putty"];
const POPPLER: &[&str] =
    &["pdftotext", "pdftoppm", "pdftocairo", "pdfinfo", "pdfimages", "pdftohtml", "pdffonts", "pdfdetach"];
const SNMP: &[&str] =
    &["snmpwalk", "snmpget", "snmpset", "snmpbulkwalk", "snmpbulkget", "snmpgetnext", "snmptable", "snmptrap"];
/// `login` counts as a program when one of these comes right before it (`docker login`, `helm registry login`).
const LOGIN_HOSTS: &[&str] =
    &["docker", "podman", "buildah", "skopeo", "nerdctl", "oras", "registry", "az", "cf", "oc"];

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
    Opt { programs: &["sqlcmd", "bcp"], option: b"-P", form: Form::Either, part: Part::Whole, strict: false },
    Opt { programs: LDAP, option: b"-w", form: Form::Either, part: Part::Whole, strict: true },
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
    Opt {
        programs: &["htpasswd", "mosquitto_passwd"],
        option: b"-b",
        form: Form::Positional,
        part: Part::Whole,
        strict: false,
    },
    Opt { programs: &["rar", "unrar"], option: b"-p", form: Form::Attached, part: Part::Whole, strict: false },
    Opt { programs: &["rar"], option: b"-hp", form: Form::Attached, part: Part::Whole, strict: false },
    Opt { programs: &["lftp"], option: b"-u", form: Form::Spaced, part: Part::AfterComma, strict: false },
    Opt { programs: &["etcdctl"], option: b"--user", form: Form::Spaced, part: Part::AfterColon, strict: false },
    Opt { programs: PUTTY, option: b"-pw", form: Form::Spaced, part: Part::Whole, strict: false },
    Opt { programs: POPPLER, option: b"-upw", form: Form::Spaced, part: Part::Whole, strict: false },
    Opt { programs: POPPLER, option: b"-opw", form: Form::Spaced, part: Part::Whole, strict: false },
    Opt { programs: &["ldappasswd"], option: b"-s", form: Form::Spaced, part: Part::Whole, strict: true },
    Opt { programs: &["elasticsearch-users"], option: b"-p", form: Form::Spaced, part: Part::Whole, strict: false },
    Opt { programs: &["caddy"], option: b"--plaintext", form: Form::Spaced, part: Part::Whole, strict: false },
    Opt { programs: SNMP, option: b"-A", form: Form::Spaced, part: Part::Whole, strict: false },
    Opt { programs: SNMP, option: b"-X", form: Form::Spaced, part: Part::Whole, strict: false },
    Opt { programs: &["sudo"], option: b"-S", form: Form::Echoed, part: Part::Whole, strict: true },
    Opt { programs: &["sudo"], option: b"--stdin", form: Form::Echoed, part: Part::Whole, strict: true },
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

/// Whether byte `x` ends a command when looking back from an option (`\` before a line break continues the line;
/// `(` and `{` end it only when no `)` or `}` after them was met first: `-u$(DB_USER) -pX`, `-u${USER}`).
fn ends_command(b: &[u8], x: usize, open: u32) -> bool {
    match b[x] {
        b'\n' => x == 0 || b[x - 1] != b'\\',
        b'\r' | b'|' | b';' | b'&' | b'`' => true,
        b'(' | b'{' => open == 0,
        _ => false,
    }
}

/// The program name a shell word stands for: quotes around it dropped, and the directory and a `.exe` (`"/usr/bin/mysql"`
/// is `mysql`, `C:\\Tools\\SQLCMD.EXE` is `SQLCMD`).
fn program_name(w: &[u8]) -> &[u8] {
    let quote = |c: &u8| matches!(c, b'"' | b'\'');
    let start = w.iter().position(|c| !quote(c)).unwrap_or(w.len());
    let end = w.iter().rposition(|c| !quote(c)).map_or(start, |k| k + 1);
    let w = &w[start..end.max(start)];
    let w = match w.iter().rposition(|&c| c == b'/' || c == b'\\') {
        Some(k) => &w[k + 1..],
        None => w,
    };
    match w.len().checked_sub(4) {
        Some(k) if w[k..].eq_ignore_ascii_case(b".exe") => &w[..k],
        _ => w,
    }
}

/// Whether `w` is one of `names`, in any case (`SQLCMD.EXE` is `sqlcmd`).
fn is_one_of(w: &[u8], names: &[&str]) -> bool {
    names.iter().any(|n| n.as_bytes().eq_ignore_ascii_case(w))
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
    /// `)` and `}` met and not yet closed by their `(` or `{`.
    open: u32,
}

impl<'a, F: Fn(usize) -> bool> WordsBack<'a, F> {
    fn new(b: &'a [u8], at: usize, floor: usize, escaped: F) -> Self {
        WordsBack { b, at, floor, escaped, done: false, open: 0 }
    }
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
            if ends_command(b, x, self.open) {
                self.done = true;
                break;
            }
            match b[x] {
                b')' | b'}' => self.open += 1,
                b'(' | b'{' => self.open -= 1, // (not 0: ends_command said so)
                _ => {}
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

/// The nearest known program (of any option in [`OPTIONS`]) before the option at `s` in its command, where its word
/// starts, and whether only options and their values stand between them. `Err(())`: an escape cut the command (raw
/// text).
fn program_before(
    b: &[u8],
    s: usize,
    escaped: &impl Fn(usize) -> bool,
) -> Result<Option<(&'static str, usize, bool)>, ()> {
    let mut words = WordsBack::new(b, s, s.saturating_sub(LOOK_BACK), escaped);
    let mut options_only = true;
    let mut last_was_plain = false;
    while let Some(w) = words.next() {
        let (ws, we) = w.ok_or(())?;
        let word = &b[ws..we];
        let name = program_name(word);
        if name == b"login" {
            // `login` is a program after a host that has it (`docker login`), and else a plain word.
            let mut ahead = WordsBack::new(b, ws, words.floor, words.escaped);
            match ahead.next() {
                Some(Some((hs, he))) if is_one_of(program_name(&b[hs..he]), LOGIN_HOSTS) => {
                    return Ok(Some(("login", ws, options_only)))
                }
                Some(None) => return Err(()),
                _ => {}
            }
        } else if let Some(known) =
            OPTIONS.iter().flat_map(|o| o.programs).find(|p| p.as_bytes().eq_ignore_ascii_case(name))
        {
            return Ok(Some((known, ws, options_only)));
        }
        let plain = !word.starts_with(b"-");
        options_only &= !(plain && last_was_plain);
        last_was_plain = plain;
    }
    Ok(None)
}

/// Where the value of `opt` starts if the run `b[s..e]` is that option in a form it takes. `Err(true)`: an escape is
/// in the way (raw text); `Err(false)`: not this option. For [`Form::Echoed`], `Ok(s)` (the value is before the
/// program: see [`echoed`]).
fn value_of(opt: &Opt, b: &[u8], s: usize, e: usize, escaped: &impl Fn(usize) -> bool) -> Result<usize, bool> {
    let (run, o) = (&b[s..e], opt.option);
    let spaced = b.get(e) == Some(&b' ');
    match opt.form {
        Form::Positional => {
            return if is_cluster_with(run, o[1]) { positional(b, e, run, escaped) } else { Err(false) }
        }
        Form::Echoed => return if run == o && spaced { Ok(s) } else { Err(false) },
        _ => {}
    }
    let attached = !matches!(opt.form, Form::Spaced);
    let separate = !matches!(opt.form, Form::Attached);
    if o.len() == 2 && run.starts_with(o) {
        // A one-letter option: joined to its value, or a word of its own.
        let joined = b.get(s + 2).is_some_and(|&c| !matches!(c, b' ' | b'\t' | b'\n' | b'\r'));
        return match (joined, attached, separate) {
            (true, true, _) => Ok(s + 2),
            (false, _, true) if run.len() == 2 && spaced => Ok(s + 3),
            _ => Err(false),
        };
    }
    if o.len() == 2 && separate && spaced && is_cluster_with(run, o[1]) && run.ends_with(&o[1..]) {
        return Ok(e + 1); // the last of a cluster of one-letter options (`curl -su user:SECRET`)
    }
    if attached && o.len() > 2 && run.len() > o.len() && run.starts_with(o) {
        return Ok(s + o.len()); // `rar a -hpSECRET`
    }
    match b.get(e) {
        Some(b' ') if separate && run == o => Ok(e + 1),
        Some(b'=') if separate && run == o && o.starts_with(b"--") => Ok(e + 1),
        _ => Err(false),
    }
}

/// For [`Form::Echoed`]: the start of the last word of an `echo` or `printf` piped into the program whose word starts
/// at `ws` (`echo 'SECRET' | sudo -S …`). `Err(true)`: an escape is in the way (raw text).
fn echoed(b: &[u8], ws: usize, escaped: &impl Fn(usize) -> bool) -> Result<usize, bool> {
    let mut j = ws;
    while j > 0 && matches!(b[j - 1], b' ' | b'\t') && !escaped(j - 1) {
        j -= 1;
    }
    if j == 0 || escaped(j - 1) || b[j - 1] != b'|' || (j > 1 && b[j - 2] == b'|') {
        return Err(j > 0 && escaped(j - 1));
    }
    let words = WordsBack::new(b, j - 1, (j - 1).saturating_sub(LOOK_BACK), escaped);
    let mut last = None;
    for w in words {
        let (ws, we) = w.ok_or(true)?;
        if is_one_of(program_name(&b[ws..we]), &["echo", "printf"]) {
            return last.ok_or(false); // (`$ echo x |`: the nearest echo; its last word)
        }
        last = last.or(Some(ws));
    }
    Err(false)
}

/// Options that give a user name, and options that give a password: a password option right after a user option
/// and its value is read as a password whatever the program (`cf login -u ci -p SECRET`, `ipmitool -U ADMIN -P
/// SECRET`, `swaks -au me -ap SECRET`), unless the program is one of [`OPTIONS`] and has that option itself
/// (`mysql -u root -p app`: mysql asks). A number there is a port or a process id (`ps -u app -p 4242`).
/// (PowerShell's parameters, `-User admin -Password …` of `Connect-VIServer` and many cmdlets, are written capitalised.)
const USER_OPTIONS: &[&[u8]] = &[
    b"-u",
    b"-U",
    b"-user",
    b"-username",
    b"--user",
    b"--username",
    b"-au",
    b"-xu",
    b"-gu",
    b"-User",
    b"-UserName",
    b"-Username",
];
const PASSWORD_OPTIONS: &[&[u8]] =
    &[b"-p", b"-P", b"-pw", b"-pas", b"-pass", b"-password", b"-ap", b"-xp", b"-gp", b"-Password"];

/// Whether the two words before `s` are a user option and its value. `Err(())`: an escape is in the way (raw text).
fn after_user(b: &[u8], s: usize, escaped: &impl Fn(usize) -> bool) -> Result<bool, ()> {
    let mut words = WordsBack::new(b, s, s.saturating_sub(LOOK_BACK), escaped);
    let (Some(user), Some(option)) = (words.next(), words.next()) else { return Ok(false) };
    let ((us, _), (os, oe)) = (user.ok_or(())?, option.ok_or(())?);
    Ok(b[us] != b'-' && USER_OPTIONS.contains(&&b[os..oe]))
}

/// What [`may_be_option`] lets through, from the options in [`OPTIONS`], [`USER_OPTIONS`] and [`PASSWORD_OPTIONS`]:
/// one-letter options; those that may be joined to their value (`-pSECRET`, `-uuser:SECRET`); the letters after `--`;
/// and the longer options after one `-`.
const ONE_LETTER: &[u8] = b"abkpsuwANPSUX";
const JOINED: &[u8] = b"pPuUw";
const LONG_OPTION_LETTERS: &[u8] = b"mprsu";
const LONG_SINGLE: &[&[u8]] = &[
    b"-pw",
    b"-pas",
    b"-pass",
    b"-passin",
    b"-passout",
    b"-password",
    b"-upw",
    b"-opw",
    b"-storepass",
    b"-keypass",
    b"-srcstorepass",
    b"-deststorepass",
    b"-srckeypass",
    b"-destkeypass",
    b"-user",
    b"-username",
    b"-au",
    b"-xu",
    b"-gu",
    b"-ap",
    b"-xp",
    b"-gp",
];

/// Whether the word run `run` (it starts with `-`) may be one of the options looked for. Most options (`-o`, `-la`,
/// `-xzf`, `--git`, `->`) are turned away here, before anything is looked up.
#[inline]
pub fn may_be_option(run: &[u8]) -> bool {
    match run {
        [b'-', b'-', c, ..] => LONG_OPTION_LETTERS.contains(c),
        [b'-', c] => ONE_LETTER.contains(c),
        [b'-', c, .., last] => {
            JOINED.contains(c)
                || (matches!(last, b'u' | b'U' | b'p' | b'P') && run[1..].iter().all(u8::is_ascii_alphabetic)) // `-su`
                || run.contains(&b'b') // `htpasswd -nb`
                || run.starts_with(b"-hp") // `rar -hpSECRET`
                || LONG_SINGLE.contains(&run)
        }
        _ => false,
    }
}

/// Whether `opt` could be the option of the run `run` at all (its first letter, or the last of a cluster).
#[inline]
fn could_be(opt: &Opt, run: &[u8]) -> bool {
    let o = opt.option;
    o[1] == run[1] || opt.form == Form::Positional || (o.len() == 2 && run.last() == Some(&o[1]))
}

/// The option whose word run is `b[s..e]` (it starts with `-`), looked up as a password option of its program.
/// `escaped(x)`: whether byte x is the second byte of an escape (raw JSON text; never in decoded text).
pub fn option_at(b: &[u8], s: usize, e: usize, escaped: impl Fn(usize) -> bool) -> Look {
    // (Raw text: an escape right before is for the look back to report.)
    if s > 0 && !escaped(s - 1) && !matches!(b[s - 1], b' ' | b'\t' | b'\n' | b'\r' | b'"' | b'\'') {
        return Look::No;
    }
    let run = &b[s..e];
    if !may_be_option(run) {
        return Look::No;
    }
    // Is the run one of the options at all (one look back is then enough for all of them)?
    let mut unsure = false;
    let mut any = false;
    for opt in OPTIONS.iter().filter(|o| could_be(o, run)) {
        match value_of(opt, b, s, e, &escaped) {
            Ok(_) => any = true,
            Err(cut) => unsure |= cut,
        }
    }
    let password_option = PASSWORD_OPTIONS.contains(&run) && b.get(e) == Some(&b' ');
    if !any && !password_option {
        return if unsure { Look::Unsure } else { Look::No };
    }
    let Ok(program) = program_before(b, s, &escaped) else { return Look::Unsure };
    if let Some((name, ws, options_only)) = program {
        let mut owned = false;
        for opt in OPTIONS.iter().filter(|o| o.programs.contains(&name)) {
            owned |= run == opt.option || (opt.option.len() == 2 && run.starts_with(opt.option));
            if opt.strict && !options_only {
                continue;
            }
            let value = match value_of(opt, b, s, e, &escaped) {
                Ok(_) if opt.form == Form::Echoed => echoed(b, ws, &escaped),
                v => v,
            };
            match value {
                Ok(value) => return Look::Yes { value, part: opt.part },
                Err(cut) => unsure |= cut,
            }
        }
        if owned {
            return if unsure { Look::Unsure } else { Look::No };
        }
    }
    if password_option {
        match after_user(b, s, &escaped) {
            Ok(true) => return Look::Yes { value: e + 1, part: Part::NotNumber },
            Ok(false) => {}
            Err(()) => return Look::Unsure,
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

/// Whether the key run `b[key.0..key.1]`, right before a `:`, is a Windows-style password option starting a word:
/// `/p:SECRET` (xfreerdp), `/pass:SECRET` (cmdkey), `-p:SECRET` (winrs); also `pw`, `pwd`, `passwd`, `password`,
/// in any case. Raw text: an escape right before the option may be a blank, so the answer is yes (the raw scan then
/// gives up and the decoded text decides).
#[inline(never)]
pub fn slash_password_key(b: &[u8], key: (usize, usize), escaped: impl Fn(usize) -> bool) -> bool {
    let (ks, ke) = key;
    if ke - ks > 9 || ke <= ks {
        return false;
    }
    let (name, lead) = match b[ks] {
        b'-' => (&b[ks + 1..ke], ks),
        _ if ks > 0 && b[ks - 1] == b'/' => (&b[ks..ke], ks - 1),
        _ => return false,
    };
    let starts_word =
        lead == 0 || b[lead - 1].is_ascii_whitespace() || matches!(b[lead - 1], b'"' | b'\'') || escaped(lead - 1);
    starts_word
        && ["p", "pw", "pwd", "pass", "passwd", "password"].iter().any(|n| n.as_bytes().eq_ignore_ascii_case(name))
}

/// The shell word at `i`: quoted (`'…'`, `"…"`, on one line; the content) or bare (to a blank or one of `;|&<>()`,
/// a sentence's last `.` or `,` left out). `None` when there is none, or a quote is not closed on the line.
pub fn shell_word(b: &[u8], i: usize) -> Option<(usize, usize)> {
    let q = *b.get(i)?;
    if q == b'"' || q == b'\'' {
        let len = b[i + 1..].iter().position(|&c| c == q || c == b'\n')?;
        return (b[i + 1 + len] == q && len > 0).then_some((i + 1, i + 1 + len));
    }
    let len =
        b[i..].iter().position(|&c| c.is_ascii_whitespace() || b";|&<>()\"'`".contains(&c)).unwrap_or(b.len() - i);
    let mut end = i + len;
    while end > i && matches!(b[end - 1], b'.' | b',') && b.get(end).is_none_or(|c| c.is_ascii_whitespace()) {
        end -= 1;
    }
    (end > i).then_some((i, end))
}

/// The password in a value read for `part` (`start..end` of the whole value), as a range.
pub fn password_in(b: &[u8], start: usize, end: usize, part: Part) -> Option<(usize, usize)> {
    let v = &b[start..end];
    if v.starts_with(b"-") {
        return None; // the next option: the program asks (`mongosh -u admin -p --authenticationDatabase admin`)
    }
    if part == Part::NotNumber && v.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let from = match part {
        Part::Whole | Part::NotNumber => 0,
        Part::AfterComma => v.iter().position(|&c| c == b',')? + 1,
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
        let all = OPTIONS.iter().map(|o| (o.option, o.form));
        let all = all.chain(PASSWORD_OPTIONS.iter().chain(USER_OPTIONS).map(|&p| (p, Form::Spaced)));
        for (option, form) in all {
            let name = String::from_utf8_lossy(option);
            assert!(may_be_option(option), "{name}");
            if option.len() == 2 && matches!(form, Form::Attached | Form::Either) {
                assert!(may_be_option(&[option, b"SECRET"].concat()), "{name} joined");
            }
            if option.len() == 2 && matches!(option[1], b'u' | b'U' | b'p' | b'P') {
                assert!(may_be_option(&[b"-s", &option[1..]].concat()), "{name} ending a cluster");
            }
        }
        assert!(may_be_option(b"-hpSECRET") && may_be_option(b"-nb") && may_be_option(b"-su"));
        for common in [&b"--git"[..], b"-c", b"-o", b"-la", b"-xzf", b"-rf", b"-h", b"-v", b"->", b"-"] {
            assert!(!may_be_option(common), "{}", String::from_utf8_lossy(common));
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
