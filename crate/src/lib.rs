//! The pure core of opencode-recordings.
//!
//! It turns any input — a JSON object, loosely structured text, plain prose — into one stamped JSONL line,
//! keeping every member the caller supplied byte for byte, and never rejecting: what cannot be kept
//! faithfully is routed to quarantine, verbatim. It reads no clock, file or environment: the time, the
//! random bytes for the id and every stamp come in from the caller (the JS edge in `plugin/`).
//!
//! - [`record`], [`piece`], [`marker`]: input → [`Outcome`] (the line, its [`Target`], [`Style`], [`Reason`]).
//! - `entry`: choosing how to read an input; `parse`: strict JSON, near-JSON and `key: value` text.
//! - `line`: assembling a line; `quarantine`: lines for what cannot be kept in the main file; `oversized`: inputs
//!   over the size bound, in pieces.
//! - [`redact`]: secret redaction applied to every line.
//! - [`fingerprint`]: which automatic failures are the same failure again (the `fp` stamp, also asked by readers).
//! - `stamp`: timestamps and entry ids; `b64`: base64 for bytes that are not text; `bytes`: the byte kernels.
//! - `wasm` (wasm32 only): the one boundary module, exports for JS.

mod b64;
mod bytes;
mod entry;
pub mod fingerprint;
mod line;
mod outcome;
mod oversized;
mod parse;
mod quarantine;
pub mod redact;
mod stamp;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use entry::{record, Context, Input, Stamps};
pub use outcome::{Outcome, Reason, Style, Target};
pub use oversized::{marker, piece};
