//! Reading what the caller gave: strict JSON that keeps every byte (`strict_json`), object-like text that is not JSON
//! (`near_json`: `{grade: F, note: 'x',}`), and loosely structured text and prose (`fields`: `key=value | key: value`,
//! a sentiment tail). Each is total: it returns the best reading it can, and the caller keeps the verbatim input
//! beside it.

pub mod fields;
pub mod near_json;
pub mod strict_json;
