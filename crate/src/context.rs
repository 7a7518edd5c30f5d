//! The context of a call: how the entry was captured and the stamps the edge gathered (pwd, the git facts,
//! session, model, agent), rendered once into JSON members, redacted, for every line written under it. At the
//! bottom of the core's modules: line assembly, quarantine and oversized inputs all take the rendered form.

use crate::parse::strict_json::string_token;
use crate::redact::{Hit, Redactor};

/// Stamps gathered by the edge, rendered once and reused for every entry.
#[derive(Debug, Clone, Default)]
pub struct Context {
    /// `capture`: how the entry was captured (cli, agent, auto, mcp).
    pub capture: String,
    /// String stamps in the order they are written; empty values are skipped.
    pub stamps: Vec<(String, String)>,
}

impl Context {
    /// Renders the stamps once for many entries: each value as a JSON token, already redacted (an origin
    /// URL can carry a token), with its redactions kept to be reported on every line that writes it.
    pub fn render(&self, redactor: &Redactor) -> Stamps {
        let capture = (!self.capture.is_empty()).then(|| ("capture".to_owned(), self.capture.clone()));
        let members = capture
            .iter()
            .chain(self.stamps.iter().filter(|(_, v)| !v.is_empty()))
            .map(|(key, value)| {
                let token = string_token(value);
                let (token, hits) = match redactor.redact_json_member(key, &token) {
                    Some((clean, hits)) => {
                        (clean, hits.into_iter().map(|h| Hit { path: format!("$.{key}"), ..h }).collect())
                    }
                    None => (token, Vec::new()),
                };
                Stamp { key: key.clone(), member: format!("{}:{token}", string_token(key)), hits }
            })
            .collect();
        Stamps { members }
    }
}

/// A context rendered for writing: see [`Context::render`].
#[derive(Debug, Clone, Default)]
pub struct Stamps {
    pub(crate) members: Vec<Stamp>,
}

impl Stamps {
    /// The JSON token of the stamp `key` (as written in every line under this context), if it has one.
    pub(crate) fn value_token(&self, key: &str) -> Option<&str> {
        let s = self.members.iter().find(|s| s.key == key)?;
        s.member.get(string_token(&s.key).len() + 1..)
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Stamp {
    pub(crate) key: String,
    /// `"key":value`, ready to append.
    pub(crate) member: String,
    pub(crate) hits: Vec<Hit>,
}
