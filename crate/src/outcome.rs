//! What one call of the core gives back: the line and where it goes, how the input was read, and, for quarantine,
//! why. Every closed set here crosses the boundary as one of a fixed set of strings (`as_str`, `code`), typed in
//! plugin/core.d.ts.

use crate::parse::strict_json::ScanError;
use std::fmt;

/// Which file a line belongs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The recordings file.
    Main,
    /// The sibling `<stem>.quarantine.jsonl`.
    Quarantine,
}

impl Target {
    /// The target's name across the boundary: "main" or "quarantine".
    pub fn as_str(self) -> &'static str {
        match self {
            Target::Main => "main",
            Target::Quarantine => "quarantine",
        }
    }
}

/// How the input was read (docs/schema.md, "Input styles").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// A JSON object, every member kept byte for byte.
    Json,
    /// Another JSON value, kept under `value`.
    JsonValue,
    /// `key: value` text or relaxed JSON, read into members beside the verbatim `raw`.
    Loose,
    /// Plain text: `note`, a sentiment tail, `raw`.
    Text,
    /// Empty or whitespace-only input.
    Empty,
    /// Kept verbatim in the quarantine file.
    Quarantine,
    /// One bounded piece of an oversized input (quarantine).
    Piece,
    /// The main-file marker of an oversized input.
    Marker,
}

impl Style {
    /// The style's name across the boundary (docs/schema.md).
    pub fn as_str(self) -> &'static str {
        match self {
            Style::Json => "json",
            Style::JsonValue => "json-value",
            Style::Loose => "loose",
            Style::Text => "text",
            Style::Empty => "empty",
            Style::Quarantine => "quarantine",
            Style::Piece => "piece",
            Style::Marker => "marker",
        }
    }
}

/// Why a line went to quarantine. [`code`](Reason::code) is the closed part; the message (`Display`) says the
/// details, and is what the line's `reason` member holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// Bytes that are not UTF-8; `at`: the offset of the first bad byte.
    NotUtf8 {
        /// The byte offset.
        at: usize,
    },
    /// A JS string with a lone surrogate; `at`: its code unit.
    LoneSurrogate {
        /// The UTF-16 code unit's index.
        at: usize,
    },
    /// Text that starts like a JSON object but is neither JSON nor readable leniently.
    NotJson(ScanError),
    /// An input over the size bound, kept in `pieces` pieces.
    Oversized {
        /// The input's size in bytes.
        bytes: u64,
        /// How many quarantine lines hold it.
        pieces: u32,
    },
}

impl Reason {
    /// The closed code JS switches on (plugin/core.d.ts `ReasonCode`).
    pub fn code(&self) -> &'static str {
        match self {
            Reason::NotUtf8 { .. } => "not-utf8",
            Reason::LoneSurrogate { .. } => "lone-surrogate",
            Reason::NotJson(_) => "not-json",
            Reason::Oversized { .. } => "oversized",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::NotUtf8 { at } => {
                write!(f, "input is not valid UTF-8 (first bad byte at offset {at}); kept as base64")
            }
            Reason::LoneSurrogate { at } => write!(
                f,
                "input holds a lone UTF-16 surrogate at code unit {at}; kept as base64 of its UTF-16LE code units"
            ),
            Reason::NotJson(e) => {
                write!(f, "starts like a JSON object but is not valid JSON ({e}) and not readable leniently")
            }
            Reason::Oversized { bytes, pieces } => {
                write!(f, "input of {bytes} bytes is over the size bound; kept in {pieces} pieces under one eid")
            }
        }
    }
}

/// What one call of the core gives back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// One line of valid JSON ending in `\n`.
    pub line: String,
    /// Which file it goes to.
    pub target: Target,
    /// The entry id the line carries (the caller's own when it supplied one).
    pub eid: String,
    /// How the input was read.
    pub style: Style,
    /// Why it went to quarantine; None for the main file.
    pub reason: Option<Reason>,
    /// Remarks that do not stop the entry (a relaxed read, an ignored input type).
    pub warnings: Vec<String>,
    /// How many secrets were replaced by markers.
    pub redactions: usize,
    /// For a piece of an oversized input: how many of the bytes given, at their end, the line does not hold; the
    /// caller gives them again, first, with the next piece's bytes. 0 otherwise.
    pub held: usize,
    /// The failure fingerprint stamped on an automatic failure's line ([`crate::fingerprint`]), else None.
    pub fp: Option<String>,
}
