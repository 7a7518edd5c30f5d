//! Redaction inside a JSON value given as raw text.
//!
//! The walk is iterative (an explicit stack, so 100k-deep nesting costs memory, not call stack) and never
//! re-serialises: only bytes inside string literals are replaced, by markers that need no escaping. A string
//! with escapes is decoded for matching together with a map from each decoded byte back to the raw offset of the
//! escape it came from, so a redacted range always covers whole escapes (never half of `\uD83D\uDE00`, never a
//! lone backslash). Input that is not valid JSON is still walked without panicking; what it yields is best effort.

mod argv;
mod decode;
mod walk;

#[cfg(test)]
pub(super) use decode::simple_escapes;
pub use decode::Decoded;
pub use walk::{walk, ScanRaw};
