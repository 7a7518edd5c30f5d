//! The pure core of opencode-recordings.
//!
//! It turns any input — a JSON object, loosely structured text, plain prose — into one stamped JSONL line,
//! keeping every member the caller supplied byte for byte, and never rejecting: what cannot be kept
//! faithfully is routed to quarantine, verbatim. It reads no clock, file or environment: the time, the
//! random bytes for the id and every stamp come in from the caller (the JS edge in `plugin/`).
//!
//! - [`record`], [`piece`], [`marker`]: input → [`Outcome`] (the line, its [`Target`], [`Style`], [`Reason`]).
//! - [`Context`] → [`Stamps`] (`context`): how an entry was captured and the edge's stamps, rendered once.
//! - `entry`: choosing how to read an input; `parse`: strict JSON, near-JSON and `key: value` text.
//! - `line`: assembling a line; `quarantine`: lines for what cannot be kept in the main file; `oversized`: inputs
//!   over the size bound, in pieces.
//! - [`redact`]: secret redaction applied to every line.
//! - [`fingerprint`]: which automatic failures are the same failure again (the `fp` stamp, also asked by readers).
//! - `stamp`: timestamps and entry ids; `b64`: base64 for bytes that are not text; `bytes`: the byte kernels.
//! - `wasm` (wasm32 only): the one boundary module, exports for JS.
//!
//! Modules depend downwards only: `context` ← `line` ← `quarantine` ← `entry` / `oversized`.
//!
//! The whole call, as the edge makes it:
//!
//! ```
//! use recordings_core::{record, Context, Input, Target};
//! use recordings_core::redact::{RedactOptions, Redactor};
//!
//! let (redactor, _warnings) = Redactor::new(&RedactOptions::default());
//! let ctx = Context { capture: "cli".into(), stamps: vec![("pwd".into(), "/w".into())] }.render(&redactor);
//! let now = 1_796_459_013_120.0; // milliseconds since the epoch, from the caller's clock
//! let out = record(Input::Text("finding: the cache was stale | sentiment: relief"), now, [7; 8], &ctx, &redactor);
//! assert_eq!(out.target, Target::Main);
//! assert!(out.line.starts_with(r#"{"ts":"2026-12-05T08:23:33.120Z","eid":""#));
//! assert!(out.line.contains(r#""finding":"the cache was stale","sentiment":"relief""#));
//! assert!(out.line.ends_with("\"capture\":\"cli\",\"pwd\":\"/w\"}\n"));
//! ```

#![deny(missing_docs)]

mod b64;
mod bytes;
mod context;
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

pub use context::{Context, Stamps};
pub use entry::{record, Input};
pub use outcome::{Outcome, Reason, Style, Target};
pub use oversized::{marker, piece};
