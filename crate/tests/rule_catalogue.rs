//! docs/redaction.md lists every built-in rule, one table row per rule, in the order of the rule table: this test
//! fails when the two disagree (a rule added, renamed, dropped or moved on one side only).
#![cfg(not(target_arch = "wasm32"))]

use recordings_core::redact::BUILTIN_RULES;
use std::path::PathBuf;

/// The rule ids of the `## Rules` table of docs/redaction.md, in order, each with what the row says it finds.
fn documented() -> Vec<(String, String)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/redaction.md");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let section = text.split("\n## Rules\n").nth(1).expect("docs/redaction.md has a `## Rules` section");
    let section = section.split("\n## ").next().unwrap_or(section);
    section
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .map(|l| {
            let (id, rest) = l.split_once("` |").unwrap_or_else(|| panic!("a rule row is `| `id` | what |`: {l}"));
            (id.to_string(), rest.trim().trim_end_matches('|').trim().to_string())
        })
        .collect()
}

#[test]
fn the_catalogue_lists_the_rule_table() {
    let doc = documented();
    let ids: Vec<String> = doc.iter().map(|(id, _)| id.clone()).collect();
    let table: Vec<String> = BUILTIN_RULES.iter().map(|r| r.id().into_owned()).collect();
    assert_eq!(ids, table, "docs/redaction.md's rule table against BUILTIN_RULES");
    for (id, what) in &doc {
        assert!(what.len() > 10, "the row of {id} says what the rule finds");
    }
}
