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

    proptest! {
        /// Any text: no panic, and normalising twice changes nothing more (placeholders are stable).
        #[test]
        fn normalise_is_total_and_idempotent(s in "\\PC{0,120}", wd in "(/[a-z]{1,6}){0,3}") {
            let once = normalise(&s, &wd);
            prop_assert_eq!(normalise(&once, &wd), once.clone());
            let _ = of_facts(&Facts { output: s.clone(), command: s, workdir: wd, ..Default::default() });
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
