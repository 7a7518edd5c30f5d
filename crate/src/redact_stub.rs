//! TEMPORARY stand-in until crate/src/redact/ lands; same API, redacts nothing.
pub const RULESET_VERSION: &str = "none";
#[derive(Default, Clone)]
pub struct RedactOptions { pub enabled: bool, pub patterns: Vec<String>, pub allow: Vec<String>, pub allow_patterns: Vec<String> }
pub struct Redactor;
pub struct Hit { pub rule: String, pub path: String, pub count: usize }
impl Redactor {
    pub fn new(_opts: &RedactOptions) -> (Redactor, Vec<String>) { (Redactor, Vec::new()) }
    pub fn redact_text(&self, _text: &str) -> Option<(String, Vec<Hit>)> { None }
    pub fn redact_json(&self, _raw: &str) -> Option<(String, Vec<Hit>)> { None }
}
