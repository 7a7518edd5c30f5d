//! The pure core of opencode-recordings.
//!
//! It turns any input — a JSON object, loosely structured text, plain prose — into one stamped JSONL line,
//! keeping every member the caller supplied byte for byte, and never rejecting: what cannot be kept
//! faithfully is routed to quarantine, verbatim. It reads no clock, file or environment: the time, the
//! random bytes for the id and every stamp come in from the caller (the JS edge in `plugin/`).
//!
//! - [`entry`]: the one call, input → [`entry::Outcome`] (the line, main or quarantine, eid, warnings).
//! - [`json`]: strict JSON scanning that keeps bytes; [`relaxed`]: object-like text that is not JSON.
//! - [`loose`]: `key=value | key: value` text and plain prose with a sentiment tail.
//! - [`stamp`]: timestamps and entry ids; [`b64`]: base64 for bytes that are not text.
//! - `redact`: secret redaction applied to every line.
//! - `wasm` (wasm32 only): the one boundary module, exports for JS.

pub mod b64;
pub mod entry;
pub mod json;
pub mod loose;
pub mod redact;
pub mod relaxed;
pub mod stamp;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use entry::{record, Context, Input, Outcome, Stamps, Target};
