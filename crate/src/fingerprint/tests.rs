use super::*;
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

/// Failing runs of common tools, each rendered twice with different durations, temp paths, times and hashes
/// (tests/fixtures/failures/make.py), with the lines the signature must find in the first.
const CASES: &str = include_str!("../../../tests/fixtures/failures/cases.json");

fn cases() -> Vec<serde_json::Value> {
    serde_json::from_str(CASES).unwrap()
}

fn facts(command: &str, output: &str) -> Facts {
    Facts {
        repo: "/w/demo/.git".into(),
        command: command.into(),
        exit: "1".into(),
        output: output.into(),
        workdir: "/w/demo".into(),
    }
}

#[test]
fn each_tool_yields_its_failure_lines_and_one_fingerprint() {
    for c in cases() {
        let (name, cmd) = (c["name"].as_str().unwrap(), c["command"].as_str().unwrap());
        let a = of_facts(&facts(cmd, c["a"].as_str().unwrap()));
        let b = of_facts(&facts(cmd, c["b"].as_str().unwrap()));
        let want: Vec<String> =
            c["failure"].as_array().unwrap().iter().map(|l| l.as_str().unwrap().to_owned()).collect();
        assert_eq!(a.failure, want, "{name}");
        assert_eq!(a.fp, b.fp, "{name}: two runs of one failure");
        assert!(a.fp.starts_with("g1_") && a.fp.len() == 19, "{name}: {}", a.fp);
    }
}

#[test]
fn different_tools_and_different_failures_are_apart() {
    let all: Vec<String> = cases().iter().map(|c| of_facts(&facts("make test", c["a"].as_str().unwrap())).fp).collect();
    for (i, x) in all.iter().enumerate() {
        assert!(!all[i + 1..].contains(x), "case {i} shares its fingerprint");
    }
    // A second failing test under the same command is a sibling, not the same failure.
    let one = "test a::one ... FAILED\nthread 'a::one' panicked at src/a.rs:3:5:\n";
    let two = "test a::two ... FAILED\nthread 'a::two' panicked at src/a.rs:9:5:\n";
    assert_ne!(of_facts(&facts("cargo test", one)).fp, of_facts(&facts("cargo test", two)).fp);
    // Another exit status, command or repository is another failure.
    let base = facts("cargo test", one);
    for other in [
        Facts { exit: "101".into(), ..base.clone() },
        Facts { command: "cargo build".into(), ..base.clone() },
        Facts { repo: "/w/other/.git".into(), ..base.clone() },
    ] {
        assert_ne!(of_facts(&base).fp, of_facts(&other).fp, "{other:?}");
    }
}

#[test]
fn the_command_is_compared_without_its_wrappers_and_prefixes() {
    for (a, b) in [
        ("cargo test", "  cargo   test "),
        ("cargo test", "RUST_BACKTRACE=1 cargo test"),
        ("cargo test", "time timeout 60 cargo test"),
        ("cd /w/demo/crate && cargo test", "cd crate && cargo test"),
        ("pytest /tmp/x81/t.py", "pytest /tmp/q02/t.py"),
        ("ls /home/ann/src", "ls /home/bob/src"),
    ] {
        let ka = command_key(a, "/w/demo");
        let kb = command_key(b, "/w/demo").replace("cd crate", "cd <repo>/crate");
        assert_eq!(ka, kb, "{a:?} / {b:?}");
    }
}

#[test]
fn volatile_values_become_placeholders() {
    for (line, want) in [
        ("id 123e4567-e89b-12d3-a456-426614174000 gone", "id <uuid> gone"),
        ("at 2026-12-02T05:01:48.123Z and 10:11:12", "at <time> and <time>"),
        ("GET https://ci.example.com/x?y=1 from 10.0.0.7:5432", "GET <url> from <ip>"),
        ("mail ann@example.com", "mail <email>"),
        ("object at 0x7f3a2b, commit 9f1c2ab3d4", "object at <hex>, commit <hex>"),
        ("took 1.5s (12 ms), 3 of 40", "took <dur> (<dur>), <n> of <n>"),
        ("/tmp/rec-81/a.rs and /w/demo/src/b.rs", "<tmp> and <repo>/src/b.rs"),
    ] {
        assert_eq!(normalise(line, "/w/demo"), want, "{line:?}");
    }
}

#[test]
fn without_a_failure_marker_the_last_lines_stand() {
    let out = "building\n\nstep 1\nstep 2\nsomething went sideways\n\n";
    assert_eq!(signature(out), vec!["step 1", "step 2", "something went sideways"]);
    assert!(signature("").is_empty());
}

#[test]
fn a_stored_line_is_fingerprinted_from_its_members() {
    let line = r#"{"ts":"2026-12-02T05:00:00.000Z","eid":"e1","trigger":"gate.failed","command":"cargo test","exit":101,"output_tail":"test a::one ... FAILED\n","output_bytes":22,"capture":"auto","pwd":"/w/demo","git_dir":"/w/demo/.git","head":"abc"}"#;
    let fp = of_line(line).expect("an automatic gate failure");
    let facts = Facts {
        repo: "/w/demo/.git".into(),
        command: "cargo test".into(),
        exit: "101".into(),
        output: "test a::one ... FAILED\n".into(),
        workdir: "/w/demo".into(),
    };
    assert_eq!(fp, of_facts(&facts));
    assert_eq!(fp.members(), format!(r#""fp":"{}","failure":["test a::one ... FAILED"]"#, fp.fp));
    // Another HEAD is the same failure.
    assert_eq!(of_line(&line.replace("\"abc\"", "\"def\"")).unwrap().fp, fp.fp);
    // Not automatic, not a failure, already fingerprinted, or not JSON: nothing.
    for other in [
        line.replace("\"auto\"", "\"cli\""),
        line.replace("gate.failed", "gate.passed"),
        line.replace("\"head\"", "\"fp\":\"mine\",\"head\""),
        line[..40].to_owned(),
    ] {
        assert_eq!(of_line(&other), None, "{other}");
    }
    let tool = r#"{"trigger":"tool.failed","tool":"edit","error":"Error: file /w/demo/a.rs changed since read at 10:11:12","capture":"auto","pwd":"/w/demo"}"#;
    let t = of_line(tool).unwrap();
    assert_eq!(t.failure, vec!["Error: file /w/demo/a.rs changed since read at 10:11:12"]);
    assert_eq!(t.fp, of_line(&tool.replace("10:11:12", "23:00:59")).unwrap().fp);
}

/// The JS edge's command identity (plugin/capture/command.js) follows the same table.
#[test]
fn command_keys_follow_the_shared_table() {
    let table: Vec<serde_json::Value> =
        serde_json::from_str(include_str!("../../../tests/fixtures/commands.json")).unwrap();
    for c in table {
        let (cmd, wd, want) =
            (c["command"].as_str().unwrap(), c["workdir"].as_str().unwrap(), c["key"].as_str().unwrap());
        assert_eq!(command_key(cmd, wd), want, "{cmd:?} in {wd:?}");
    }
}

#[test]
fn failure_markers_table() {
    for yes in [
        "FAIL  src/a.test.ts > adds",
        "--- FAIL: TestX (0.01s)",
        "not ok 3 - parses",
        "error[E0308]: mismatched types",
        "src/a.c:3:1: error: expected ';'",
        "src/a.ts(3,7): error TS2322: Type 'string'",
        "  12:5  error  'x' is never used  no-unused-vars",
        "thread 'main' panicked at src/main.rs:2:5:",
        "AssertionError: expected 1 to be 2",
        "assertion `left == right` failed",
        "Traceback (most recent call last):",
        "E       assert 1 == 2",
        "  ✗ spins the widget",
        "test a::b ... FAILED",
        "TypeError: x is not a function",
        "java.lang.IllegalStateException: closed",
    ] {
        assert!(is_failure_line(yes), "{yes:?}");
    }
    for no in [
        "test a::b ... ok",
        "FAILOVER configured",
        "0 errors, 0 warnings",
        "compiling error_handling v0.1.0",
        "Everything up to date",
        "not ok",
        "terror: none",
        "Ran all test suites.",
    ] {
        assert!(!is_failure_line(no), "{no:?}");
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod prop {
    use super::*;
    use proptest::prelude::*;

    /// Pieces the markers are made of, so that generated lines come near them often.
    const PIECES: &str = "(FAIL|FAILED|ERROR|FATAL|Error|Exception|error|errors|fatal|assert|assertion|failed|expected|got|to be|but was|panicked at|not ok|Traceback \\(most recent call last\\)|test|\\.\\.\\.|ok|passed|skipped|PASS|exited with|code|status|npm ERR!|\\[ERROR\\]|\\[FAIL\\]|\\[fail\\]|\\[error\\]|make|\\[2\\]|: \\*\\*\\*|=== RUN|--- FAIL:|--- PASS:|\\*\\* \\(|java\\.|lang\\.|Type|x@1|E|[0-9]{1,3}|[:().@/_-]|[ \\t\\x0b]{1,3}|[a-z]{1,4}|[✗✓×é]|\\+ |\\n)";

    proptest! {
        /// Any text: no panic, and normalising twice changes nothing more (placeholders are stable).
        #[test]
        fn normalise_is_total_and_idempotent(s in "\\PC{0,120}", wd in "(/[a-z]{1,6}){0,3}") {
            let once = normalise(&s, &wd);
            prop_assert_eq!(normalise(&once, &wd), once.clone());
            let _ = of_facts(&Facts { output: s.clone(), command: s, workdir: wd, ..Default::default() });
        }

        /// Lines made of the markers' pieces are judged as the reference judges them.
        #[test]
        fn markers_agree_with_their_reference(pieces in proptest::collection::vec(PIECES, 0..10)) {
            let line = pieces.concat();
            prop_assert_eq!(is_failure_line(&line), oracle::is_failure_line(&line), "failure line {:?}", line);
            prop_assert_eq!(is_boilerplate(&line), oracle::is_boilerplate(&line), "boilerplate {:?}", line);
        }

        /// Commands made of the wrappers' pieces lose the same wrappers as the reference takes off.
        #[test]
        fn wrappers_agree_with_their_reference(
            pieces in proptest::collection::vec("(time|timeout|env|nice|nohup|command|A=|B_1=|\"|'|-s|-k|-|60|x|cargo|test|[ \\t]{1,2})", 0..10)
        ) {
            let cmd = pieces.concat();
            prop_assert_eq!(markers::wrapper(cmd.as_bytes()).map(|end| &cmd[end..]), oracle::strip_wrapper(&cmd), "{:?}", cmd);
        }
    }
}

/// What the core stamps while writing (from the input's members) is what a reader derives from the stored line.
#[test]
fn the_stamp_written_is_the_one_read_back() {
    use crate::context::Context;
    use crate::entry::{record, Input};
    use crate::redact::{RedactOptions, Redactor};
    let redactor = Redactor::new(&RedactOptions::default()).0;
    let ctx = |capture: &str| {
        Context {
            capture: capture.into(),
            stamps: vec![("pwd".into(), "/w/demo".into()), ("git_dir".into(), "/w/demo/.git".into())],
        }
        .render(&redactor)
    };
    let token = format!("gh{}_{}", "p", "A1b2C3d4E5".repeat(4).get(..36).unwrap());
    let cases = [
        (r#"{"trigger":"gate.failed","command":"cargo test","exit":101,"output_tail":"test a::one ... FAILED\n"}"#.to_owned(), "auto"),
        // The caller's pwd stands over the stamp; a duplicated key reads as its first.
        (r#"{"trigger":"gate.failed","pwd":"/elsewhere","command":"npm test","command":"x","exit":1,"output_tail":"not ok 1 - a\n"}"#.to_owned(), "auto"),
        // Supplied capture under a cli context, and a tool failure.
        (r#"{"capture":"auto","trigger":"tool.failed","tool":"edit","error":"Error: stale read at 10:11:12"}"#.to_owned(), "cli"),
        // A secret in the output: the line is redacted, so the stamp is read from the line itself.
        (format!(r#"{{"trigger":"gate.failed","command":"curl","exit":22,"output_tail":"error: bad token {token}\n"}}"#), "auto"),
    ];
    for (input, capture) in cases {
        let out = record(Input::Text(&input), 1_796_459_013_120.0, [1; 8], &ctx(capture), &redactor);
        let fp = out.fp.clone().unwrap_or_else(|| panic!("no fp for {input}"));
        let stored = &out.line[..out.line.find(",\"fp\":").unwrap()];
        let read = of_line(&format!("{stored}}}")).expect("a reader derives one");
        assert_eq!(read.fp, fp, "{input}");
        assert!(out.line.contains(&read.members()), "{}", out.line);
        assert!(!out.line.contains(&token), "{}", out.line);
    }
}

/// One fingerprint written out: the same in native tests and under wasm, and a change to the rule shows here
/// first (then VERSION goes up, so that lines already written keep their group).
#[test]
fn a_fingerprint_is_the_same_everywhere() {
    let f = of_facts(&facts("cargo test", "test a::one ... FAILED\nthread 'a::one' panicked at src/a.rs:3:5:\n"));
    assert_eq!(f.fp, "g1_e477f0281953ba34");
}

/// The hand-written matchers (fingerprint/markers.rs) are held to these expressions, which say the same in the
/// usual notation: the markers' and wrappers' reference.
mod oracle {
    use regex_lite::Regex;
    use std::sync::OnceLock;

    fn re(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
        cell.get_or_init(|| Regex::new(pattern).expect("the reference compiles"))
    }

    pub fn is_failure_line(line: &str) -> bool {
        if line.trim_start().starts_with("+ ") || line.trim_start().starts_with("++") {
            return false;
        }
        static START: OnceLock<Regex> = OnceLock::new();
        static ANYWHERE: OnceLock<Regex> = OnceLock::new();
        let start = concat!(
            r"^\s*(?:(?:FAIL|FAILED|FAILURE|ERROR|FATAL)\b",
            r"|--- FAIL:",
            r"|not ok \d+",
            r"|\d+:\d+\s+error\s",
            r"|Traceback \(most recent call last\)",
            r"|E\s{2,}\S",
            r"|[✗✘×●✖]\s",
            r"|\d+\) \S",
            r"|\*\* \(\w+",
            r"|(?:[a-z_]\w*\.)*(?:[A-Z]\w*)?(?:Error|Exception)(?::\s|:?\s*$)",
            r"|test \S+ \.\.\. FAILED$)",
        );
        let anywhere = concat!(
            r"\b(?:FAIL|FAILED|ERROR)\s*$",
            r"|\[(?:FAIL|FAILED|ERROR|error|fail)\]",
            r"|\berror(?:\[E\d+\])?:",
            r"|\berror TS\d+:",
            r"|\b(?:fatal(?: error)?|CMake Error)\b",
            r"|panicked at",
            r"|\bAssertionError\b|\bassert(?:ion)?\b.*\bfailed\b|\bFailed asserting\b",
            r"|\bexpected\b.*\b(?:but (?:was|got)|got|to (?:be|equal|have|contain))\b",
            r"|\b(?:aborted!|command not found|No such file or directory|Segmentation fault|core dumped)",
            r"|\b(?:not installed|not available|Could not find|Could NOT find|Cannot find module|No module named)\b",
            r"|\b(?:Unable to locate package|undefined (?:method|reference|symbol|variable)|never defined)\b",
        );
        re(&START, start).is_match(line) || re(&ANYWHERE, anywhere).is_match(line)
    }

    pub fn is_boilerplate(line: &str) -> bool {
        static START: OnceLock<Regex> = OnceLock::new();
        static ANYWHERE: OnceLock<Regex> = OnceLock::new();
        let start = concat!(
            r"^\s*(?:Exit code \d+|travis_(?:fold|time|terminate)|Done\. Your build exited|ERROR: Job failed",
            r"|##\[(?:end)?group\]|make(?:\[\d+\])?: \*\*\*|error Command failed with exit code|info Visit https://yarnpkg",
            r"|npm ERR! (?:code ELIFECYCLE|errno|Exit status|Failed at|Test failed|A complete log|This is probably|",
            r"There is likely|Tell the author|\S+@\S+ \S+: |\s*$|\s+/)",
            r"|\[ERROR\] (?:Failed to execute goal|-> \[Help|Re-run Maven|For more information|To see the full|",
            r"After correcting|\[Help|mvn <goals>|\s*$)",
            r"|FAILURE: Build failed with an exception|BUILD FAILED|\* (?:What went wrong|Try):",
            r"|Execution failed for task|> There were failing tests|Run with --(?:stacktrace|info|scan)",
            r"|error: (?:test failed, to rerun|aborting due to|could not compile)",
            r"|store build cache|cache uploaded|changes detected|nothing changed|Done uploading artifacts",
            r"|make(?:\[\d+\])?: (?:Entering|Leaving) directory",
            r"|=== (?:RUN|PAUSE|CONT)\s|--- (?:PASS|SKIP):|ok\s+\S+\s+\(?[\d.]+m?s|PASS$|[✓✔]\s)",
        );
        let anywhere = r"\bexited with (?:code |status )?-?\d+\.?\s*$|Process completed with exit code|\s\.\.\.\s+(?:ok|passed|skipped)\s*$";
        re(&START, start).is_match(line) || re(&ANYWHERE, anywhere).is_match(line)
    }

    /// What one leading wrapper takes off a command: `Some(rest)`, or None when it starts with none.
    pub fn strip_wrapper(s: &str) -> Option<&str> {
        static WRAPPERS: OnceLock<Regex> = OnceLock::new();
        let pattern = r#"^(?:[A-Za-z_][A-Za-z0-9_]*=(?:"[^"]*"|'[^']*'|\S*)\s+|(?:time|env|nice|nohup|command)\s+|timeout(?:\s+-\S+)*\s+\S+\s+)"#;
        re(&WRAPPERS, pattern).find(s).map(|m| &s[m.end()..])
    }
}

/// Lines that sit at the edges of the markers: each must be judged as the reference judges it.
const EDGE_LINES: &[&str] = &[
    "FAIL",
    "FAILx",
    "FAIL:",
    " FAILED",
    "FAILURE!",
    "\x0bERROR",
    "FATAL_x",
    "--- FAIL: T",
    "not ok",
    "not ok 1",
    "3:4 error x",
    "3:4\terror\t",
    "3:4  errors",
    "3:error ",
    "Traceback (most recent call last):",
    "E  x",
    "E  ",
    "E \tx",
    "E x",
    "✗ x",
    "✗x",
    "×\t",
    "● a",
    "✖ b",
    "12) x",
    "12)  x",
    "1) ",
    "** (RuntimeError) x",
    "** (",
    "Error",
    "Error:",
    "Error: x",
    "Error:x",
    "Error :",
    "TypeError",
    "TypeError: ",
    "typeError: x",
    "a.b.Error: x",
    "java.lang.IllegalStateException: closed",
    "java.lang.Exception",
    "_x.Error:",
    "1x.Error:",
    "a..Error:",
    "ErrorError: x",
    "Errors: 3",
    "Exception in thread",
    "x.TypeErrorError:\t",
    "AB.Error:",
    "a.Bc.Error:",
    "test a ... FAILED",
    "test  a ... FAILED",
    "test a b ... FAILED",
    "test a ... FAILED ",
    "test ... FAILED",
    "x FAIL",
    "x FAILED  ",
    "xFAIL",
    "x_ERROR",
    "[FAIL] a",
    "x [fail]",
    "[FAILED]",
    "[error]",
    "[Error]",
    "error:",
    "terror:",
    "error[E0308]:",
    "error[E]:",
    "error[E1]",
    "error TS2322: x",
    "error TS:",
    "_error:",
    "fatal: not a git repository",
    "fatality",
    "a fatal error",
    "CMake Error at x",
    "CMake Errors",
    "panicked at",
    "AssertionError",
    "AssertionErrors",
    "assert x failed",
    "assertion failed",
    "asserts failed",
    "assertions x failed",
    "assertions assert failed",
    "assert x\nfailed",
    "assert failedx",
    "Failed asserting that",
    "expected 1 to be 2",
    "expected x got y",
    "expected x gotten",
    "unexpected x but was y",
    "expected but got",
    "expected\nto be",
    "expectedto be",
    "expected 1 to equal 2",
    "expected x to have",
    "expected x to contain",
    "expected x to bed",
    "x aborted!",
    "xaborted!",
    "sh: foo: command not found",
    "No such file or directory",
    "Segmentation fault (core dumped)",
    "is not installed",
    "not availablex",
    "Could not find x",
    "Could NOT find Boost",
    "Cannot find module 'x'",
    "No module named x",
    "E: Unable to locate package x",
    "undefined method `x'",
    "undefined references",
    "undefined symbol",
    "undefined variable",
    "was never defined",
    "+ make test FAILED",
    "++ x error: y",
    "  + error: quoted",
    "Exit code 1",
    "Exit code x",
    "travis_fold:end:x",
    "travis_time",
    "travis_terminate",
    "Done. Your build exited with 1.",
    "ERROR: Job failed: exit code 1",
    "##[group]Run x",
    "##[endgroup]",
    "make: ***",
    "make[2]: *** [x] Error 1",
    "make[]: ***",
    "make[x]: ***",
    "makes: ***",
    "make: Entering directory",
    "make[1]: Leaving directory '/x'",
    "error Command failed with exit code 1.",
    "info Visit https://yarnpkg.com",
    "npm ERR! code ELIFECYCLE",
    "npm ERR! errno 1",
    "npm ERR! x@1.0.0 test: `mocha`",
    "npm ERR! @x test: `m`",
    "npm ERR! x@ test: `m`",
    "npm ERR! x@1 test:  y",
    "npm ERR! x@1  test: y",
    "npm ERR! x@1 :: y",
    "npm ERR! x@1 : y",
    "npm ERR! x@1 t:\ty",
    "npm ERR! ",
    "npm ERR!  ",
    "npm ERR!   /home/x/log",
    "npm ERR! /x",
    "npm ERR! other",
    "[ERROR] Failed to execute goal x",
    "[ERROR] ",
    "[ERROR]",
    "[ERROR] -> [Help 1]",
    "[ERROR] [Help 1]",
    "[ERROR] x",
    "FAILURE: Build failed with an exception.",
    "BUILD FAILED in 3s",
    "* What went wrong:",
    "* Try:",
    "Execution failed for task ':test'.",
    "> There were failing tests. See",
    "Run with --stacktrace option",
    "Run with --scan",
    "error: test failed, to rerun pass",
    "error: aborting due to 2 previous errors",
    "error: could not compile `x`",
    "store build cache",
    "cache uploaded",
    "changes detected, packing",
    "nothing changed",
    "Done uploading artifacts",
    "=== RUN   TestX",
    "=== RUN",
    "=== PAUSE\tx",
    "=== CONT x",
    "--- PASS: TestX",
    "--- SKIP: TestY",
    "ok  \tpkg\t0.012s",
    "ok pkg (cached)",
    "ok pkg (0.5ms)",
    "ok pkg .s",
    "ok pkg 1m",
    "ok pkg s",
    "ok pkg (ms)",
    "ok pkg 1",
    "okpkg 1s",
    "ok pkg  3.2sec",
    "ok  pkg",
    "PASS",
    " PASS ",
    "PASSED",
    "✓ x",
    "✔\ty",
    "✓x",
    "worker exited with code 1",
    "worker exited with code 1.  ",
    "exited with status -2",
    "exited with 3 x",
    "xexited with 1",
    "exited with code",
    "exited with code x1",
    "Process completed with exit code 1.",
    "test_a ... ok",
    "test_a ...  passed ",
    "test_a ... skipped",
    "test_a .... ok",
    "test_a ...ok",
    "a\t...\tok",
    "... ok",
    " ... ok",
    "compiling module_1 ... done in 1.1s",
];

#[test]
fn the_markers_judge_as_their_reference() {
    let fixture_lines: Vec<String> = cases()
        .iter()
        .flat_map(|c| [c["a"].as_str().unwrap().to_owned(), c["b"].as_str().unwrap().to_owned()])
        .flat_map(|s| s.lines().map(str::to_owned).collect::<Vec<_>>())
        .collect();
    for line in EDGE_LINES.iter().copied().chain(fixture_lines.iter().map(String::as_str)) {
        assert_eq!(is_failure_line(line), oracle::is_failure_line(line), "failure line {line:?}");
        assert_eq!(is_boilerplate(line), oracle::is_boilerplate(line), "boilerplate {line:?}");
    }
}

#[test]
fn the_wrappers_are_those_of_their_reference() {
    for cmd in [
        "A=1 B=\"x y\" cargo test",
        "A=\"x y cargo test",
        "A='x' cmd",
        "A=\"x\"y z",
        "A= cmd",
        "A=",
        "1A=2 cmd",
        "time timeout 60 cargo test",
        "timeout -s KILL 60 cmd",
        "timeout -k 5 -s 60 cmd",
        "timeout -5 cmd",
        "timeout -k -s",
        "timeout -s 60",
        "timeout 60",
        "timeoutx 60 cmd",
        "timeout - 60 cmd",
        "env nice nohup command ls",
        "environment x",
        "time",
        "time ",
    ] {
        let mut want = cmd.split_whitespace().collect::<Vec<_>>().join(" ");
        while let Some(rest) = oracle::strip_wrapper(&want) {
            want = rest.to_owned();
        }
        assert_eq!(command_key(cmd, ""), paths(&want, ""), "{cmd:?}");
        // Uncollapsed, too: the matcher stands on its own.
        assert_eq!(
            markers::wrapper(cmd.as_bytes()).map(|end| &cmd[end..]),
            oracle::strip_wrapper(cmd),
            "{cmd:?} as it is"
        );
    }
}

/// Where the runner's own lines begin: the earliest of the job-end markers' last occurrences, at any alignment.
#[test]
fn the_job_end_is_the_earliest_of_the_last_markers() {
    const MARKS: [&str; 3] = ["Done. Your build exited with", "Post job cleanup.", "Cleaning up project directory"];
    let reference = |s: &str| MARKS.iter().filter_map(|m| s.rfind(m)).min();
    let pieces = [
        "x",
        "jY",
        "\n",
        "ünï",
        "Done. Your build exited with 1",
        "Post job cleanup.",
        "Cleaning up project directory",
        "Post job",
        "Your",
    ];
    let mut state = 0x9e37_79b9u32;
    for _ in 0..3000 {
        let mut s = String::new();
        for _ in 0..(state % 12) {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            s.push_str(pieces[state as usize % pieces.len()]);
        }
        assert_eq!(markers::job_end(&s), reference(&s), "{s:?}");
    }
}

/// The fingerprint's decoding of a member's token is the scanner's: on tokens written by the encoder, escapes of
/// every kind, and what is no plain string token.
#[test]
fn tokens_decode_as_the_scanner_decodes_them() {
    let mut tokens: Vec<String> = [
        r#""plain""#,
        r#""""#,
        r#""a\nb\t\"c\" \\ \/ \b\f\r""#,
        r#""\u00e9\u0041""#,
        r#""\ud83d\ude00 x""#,
        r#""\ud83d x""#,
        r#""\ude00""#,
        r#""\ud83d\u0041""#,
        r#""\u12""#,
        r#""\x""#,
        r#""a\""#,
        "\"a\"b\"",
        "42",
        "null",
        r#"{"a":"\n"}"#,
        "\"",
        "",
        r#""\u00"#,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let cases = cases();
    tokens.extend(cases.iter().map(|c| crate::parse::strict_json::string_token(c["a"].as_str().unwrap())));
    tokens.push(crate::parse::strict_json::string_token(&"x\u{7f}é\u{2028}😀\"\\\n".repeat(40)));
    for t in tokens {
        assert_eq!(decoded(&t), crate::parse::strict_json::decode_string(&t), "{t:?}");
    }
}
