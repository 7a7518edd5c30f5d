// Temporary until lib.rs declares `pub mod redact;`.
#[path = "../src/redact/mod.rs"]
mod redact;
