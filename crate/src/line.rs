//! Assembling one line: `ts` and `eid` first, then the content, then `capture` and the context stamps, then the
//! redaction summary. A key the caller supplied is never written a second time: the caller's value stands.

use crate::entry::Stamps;
use crate::outcome::{Outcome, Reason, Style, Target};
use crate::parse::strict_json::{encode_string, string_token};
use crate::redact::{Hit, Redactor};
use crate::stamp;

/// A line under construction. Tracks the keys the caller supplied so nothing is written twice.
pub struct Line<'s> {
    out: String,
    supplied: &'s [&'s str],
    eid: String,
    /// Redactions made before the content was written (text input, base64 bytes).
    hits: Vec<Hit>,
    /// The content was read out of text that was already redacted as text.
    text_redacted: bool,
}

impl<'s> Line<'s> {
    pub fn new(supplied: &'s [&'s str]) -> Self {
        Line { out: String::with_capacity(256), supplied, eid: String::new(), hits: Vec::new(), text_redacted: false }
    }

    /// Records redactions made before writing, under the path of the member that holds their result.
    pub fn note_hits(&mut self, path: &str, hits: Vec<Hit>) {
        self.hits.extend(hits.into_iter().map(|h| Hit { path: path.to_owned(), ..h }));
    }

    fn supplied(&self, key: &str) -> bool {
        self.supplied.contains(&key)
    }

    fn sep(&mut self) {
        self.out.push(if self.out.is_empty() { '{' } else { ',' });
    }

    /// `ts` and `eid`, unless the caller supplied them.
    pub fn head(&mut self, now: f64, eid: Option<&str>, random: [u8; 8]) {
        if !self.supplied("ts") {
            self.sep();
            self.out.push_str("\"ts\":\"");
            stamp::push_rfc3339_millis(now, &mut self.out);
            self.out.push('"');
        }
        self.eid = eid.map_or_else(|| stamp::eid(random), str::to_owned);
        if !self.supplied("eid") {
            self.sep();
            self.out.push_str("\"eid\":");
            encode_string(&self.eid, &mut self.out);
        }
    }

    pub fn member(&mut self, key: &str, value_json: &str) {
        self.sep();
        encode_string(key, &mut self.out);
        self.out.push(':');
        self.out.push_str(value_json);
    }

    pub fn supplied_member(&mut self, key_token: &str, value_json: &str) {
        self.sep();
        self.out.push_str(key_token);
        self.out.push(':');
        self.out.push_str(value_json);
    }

    /// A key of our own that the caller has not taken: `raw`, else `_raw`, `__raw`, ...
    pub fn own_key(&self, base: &str) -> String {
        let mut k = base.to_owned();
        while self.supplied(&k) {
            k.insert(0, '_');
        }
        k
    }

    /// The content is written redacted already: [`finish`](Self::finish) adds the stamps without a pass of its own.
    pub fn redacted_already(&mut self) {
        self.text_redacted = true;
    }

    /// What the core read out of text, and the verbatim input.
    pub fn read_out(&mut self, note: Option<&str>, sentiment: Option<&str>, raw: &str, hits: Vec<Hit>) {
        if let Some(n) = note {
            let k = self.own_key("note");
            self.member(&k, &string_token(n));
        }
        if let Some(s) = sentiment {
            let k = self.own_key("sentiment");
            self.member(&k, s);
        }
        let k = self.own_key("raw");
        self.member(&k, &string_token(raw));
        self.note_hits(&format!("$.{k}"), hits);
        self.text_redacted = true;
    }

    pub fn finish(
        mut self,
        target: Target,
        style: Style,
        reason: Option<Reason>,
        warnings: Vec<String>,
        ctx: &Stamps,
        redactor: &Redactor,
    ) -> Outcome {
        // Content read out of text was redacted as text already; JSON content is redacted here, before the
        // stamps (rendered and redacted once per context) are added.
        if !self.text_redacted {
            self.out.push('}');
            // Room for what follows: the stamps, and the list of what was redacted.
            let room = ctx.members.iter().map(|m| m.member.len() + 1).sum::<usize>() + 256;
            if let Some((clean, hits)) = redactor.redact_json_with_room(&self.out, room) {
                self.out = clean;
                self.hits.extend(hits);
            }
            self.out.pop();
        }
        for stamp in &ctx.members {
            if !self.supplied(&stamp.key) {
                self.sep();
                self.out.push_str(&stamp.member);
                self.hits.extend(stamp.hits.iter().cloned());
            }
        }
        self.out.push('}');
        let mut redactions = 0;
        if !self.hits.is_empty() {
            self.out.pop();
            let (list_key, rules_key) = (self.own_key("redacted"), self.own_key("redaction_rules"));
            self.member(&list_key, "[");
            for (i, h) in self.hits.iter().enumerate() {
                redactions += h.count;
                if i > 0 {
                    self.out.push(',');
                }
                self.out.push_str("{\"path\":");
                encode_string(&h.path, &mut self.out);
                self.out.push_str(",\"rule\":");
                encode_string(&h.rule, &mut self.out);
                self.out.push_str(",\"count\":");
                self.out.push_str(&h.count.to_string());
                self.out.push('}');
            }
            self.out.push(']');
            self.member(&rules_key, &string_token(crate::redact::RULESET_VERSION));
            self.out.push('}');
        }
        self.out.push('\n');
        Outcome { line: self.out, target, eid: self.eid, style, reason, warnings, redactions, held: 0, fp: None }
    }
}
