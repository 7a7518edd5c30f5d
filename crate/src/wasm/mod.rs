//! The wasm boundary: every `#[wasm_bindgen]` export lives here and only converts types and calls the
//! core. The JS-facing contract, field by field, is `plugin/core.d.ts`.

mod random;

use js_sys::{Array, JsString, Object, Reflect, Uint8Array};
use serde::Deserialize;
use wasm_bindgen::prelude::*;

use crate::context::{Context, Stamps};
use crate::entry::{self, Input};
use crate::outcome::{Outcome, Target};
use crate::oversized;
use crate::redact::{RedactOptions, Redactor};
use random::Pool;

#[wasm_bindgen]
extern "C" {
    /// A JS string, seen through the one method we need from it.
    #[wasm_bindgen(extends = JsString)]
    type WellFormed;
    /// `String.prototype.isWellFormed` (Node 20, Bun): false when a lone surrogate is present.
    #[wasm_bindgen(method, js_name = isWellFormed)]
    fn is_well_formed(this: &WellFormed) -> bool;

    type TextEncoder;
    #[wasm_bindgen(constructor)]
    fn new() -> TextEncoder;
    #[wasm_bindgen(method, js_name = encodeInto)]
    fn encode_into(this: &TextEncoder, s: &JsString, dest: &Uint8Array) -> EncodeResult;
    type EncodeResult;
    #[wasm_bindgen(method, getter)]
    fn written(this: &EncodeResult) -> u32;
}

/// Strings at least this long are copied in with one native `TextEncoder.encodeInto`; the generated
/// glue copies them a UTF-16 unit at a time in JS, which is cheaper only for short ones.
const ENCODE_INTO_FROM: u32 = 256;

thread_local! {
    static ENCODER: TextEncoder = TextEncoder::new();
}

/// A well-formed JS string (the caller has checked: `isWellFormed`) as Rust text.
fn to_text(s: &JsString) -> String {
    let units = s.length();
    if units < ENCODE_INTO_FROM {
        return s.as_string().unwrap_or_default();
    }
    // UTF-8 needs at most 3 bytes per UTF-16 unit. Nothing allocates between taking the view and
    // the copy, so the view stays valid (a memory.grow would detach it).
    let mut buf: Vec<u8> = Vec::with_capacity(units as usize * 3);
    let written = ENCODER.with(|enc| {
        // SAFETY: the view covers the vector's spare capacity and is dropped before the vector is touched.
        let view = unsafe { Uint8Array::view_mut_raw(buf.as_mut_ptr(), buf.capacity()) };
        enc.encode_into(s, &view).written() as usize
    });
    // SAFETY: encodeInto wrote `written` initialised bytes at the start of the buffer.
    unsafe { buf.set_len(written.min(buf.capacity())) };
    debug_assert!(std::str::from_utf8(&buf).is_ok());
    // SAFETY: encodeInto writes UTF-8, whole characters only (it stops before one that does not fit; the buffer
    // has room for all of them anyway), and a well-formed string has no lone surrogate to replace: the bytes
    // are valid UTF-8 and need no second check (one more pass over every entry).
    unsafe { String::from_utf8_unchecked(buf) }
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct OptionsIn {
    redact: Option<bool>,
    redact_patterns: Vec<String>,
    allow: Vec<String>,
    allow_patterns: Vec<String>,
}

/// The core behind one set of redaction options and one context: plugin/core.js wraps it (contract:
/// plugin/core.d.ts).
#[wasm_bindgen]
pub struct Recorder {
    redactor: Redactor,
    /// The context of setContext(), rendered and redacted once.
    ctx: Stamps,
    warnings: Vec<String>,
    /// The random bytes of entry ids.
    random: Pool,
}

#[wasm_bindgen]
impl Recorder {
    /// A recorder for `{ redact, redactPatterns, allow, allowPatterns }`; options it cannot read become warnings.
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Recorder {
        let mut warnings = Vec::new();
        let opts: OptionsIn = if options.is_undefined() || options.is_null() {
            OptionsIn::default()
        } else {
            serde_wasm_bindgen::from_value(options).unwrap_or_else(|e| {
                warnings.push(format!("options not understood ({e}); defaults used"));
                OptionsIn::default()
            })
        };
        let (redactor, more) = Redactor::new(&RedactOptions {
            enabled: opts.redact.unwrap_or(true),
            patterns: opts.redact_patterns,
            allow: opts.allow,
            allow_patterns: opts.allow_patterns,
        });
        warnings.extend(more);
        Recorder { redactor, ctx: Stamps::default(), warnings, random: Pool::default() }
    }

    /// What the options held that was ignored (a pattern that does not compile, options not understood).
    #[wasm_bindgen(getter)]
    pub fn warnings(&self) -> Vec<String> {
        self.warnings.clone()
    }

    /// Sets `{ capture, stamps }` for the entries that follow, rendered and redacted once.
    #[wasm_bindgen(js_name = setContext)]
    pub fn set_context(&mut self, context: JsValue) {
        let capture = Reflect::get(&context, &"capture".into()).ok().and_then(|v| v.as_string()).unwrap_or_default();
        let mut stamps = Vec::new();
        if let Ok(obj) = Reflect::get(&context, &"stamps".into()) {
            if obj.is_object() {
                for pair in Object::entries(obj.unchecked_ref::<Object>()).iter() {
                    let pair: Array = pair.unchecked_into();
                    if let (Some(k), Some(v)) = (pair.get(0).as_string(), pair.get(1).as_string()) {
                        stamps.push((k, v));
                    }
                }
            }
        }
        self.ctx = Context { capture, stamps }.render(&self.redactor);
    }

    /// One input (a string or bytes) at `now` (ms since the epoch) → the outcome object.
    pub fn record(&mut self, input: JsValue, now: f64) -> JsValue {
        let random = self.random.next(now);
        let out = if let Some(s) = input.dyn_ref::<JsString>() {
            if s.unchecked_ref::<WellFormed>().is_well_formed() {
                let text = to_text(s);
                entry::record(Input::Text(&text), now, random, &self.ctx, &self.redactor)
            } else {
                let units: Vec<u16> = s.iter().collect();
                entry::record(Input::Utf16(&units), now, random, &self.ctx, &self.redactor)
            }
        } else if let Some(bytes) = input.dyn_ref::<Uint8Array>() {
            entry::record(Input::Bytes(&bytes.to_vec()), now, random, &self.ctx, &self.redactor)
        } else {
            let mut out = entry::record(Input::Text(""), now, random, &self.ctx, &self.redactor);
            out.warnings.push("input was neither a string nor bytes; recorded as empty".into());
            out
        };
        to_js(out)
    }

    /// An entry id for lines the JS edge numbers itself: the pieces of an oversized input and their marker share one.
    #[wasm_bindgen(js_name = newEid)]
    pub fn new_eid(&mut self, now: f64) -> String {
        crate::stamp::eid(self.random.next(now))
    }

    /// One bounded piece of an oversized input, as a quarantine line under `eid`.
    pub fn piece(&self, bytes: &[u8], now: f64, eid: &str, index: u32, count: u32, total_bytes: f64) -> JsValue {
        to_js(oversized::piece(bytes, now, eid, index, count, total_bytes, &self.ctx, &self.redactor))
    }

    /// The main-file marker of an oversized input kept in `count` pieces under `eid`.
    pub fn marker(&self, now: f64, eid: &str, count: u32, total_bytes: f64) -> JsValue {
        to_js(oversized::marker(now, eid, count, total_bytes, &self.ctx, &self.redactor))
    }
}

/// The outcome object is assembled on the JS side in one call: building it member by member with `Reflect.set` from
/// here cost more than parsing a small entry. `reason`, `reasonCode`, `warnings` and `held` cross only when present;
/// the closed sets cross as their strings (`Style::as_str`, `Reason::code`).
#[wasm_bindgen(inline_js = "
export function outcome(line, quarantine, eid, style, redactions, reason, reasonCode, warnings, held, fp) {
  return { line, target: quarantine ? 'quarantine' : 'main', eid, style,
           reason: reason ?? undefined, reasonCode: reasonCode ?? undefined, warnings: warnings ?? [], redactions,
           held: held || undefined, fp: fp ?? undefined };
}")]
extern "C" {
    #[allow(clippy::too_many_arguments)] // the members of the outcome, one for one
    fn outcome(
        line: String,
        quarantine: bool,
        eid: String,
        style: &str,
        redactions: u32,
        reason: Option<String>,
        reason_code: Option<&str>,
        warnings: Option<Vec<String>>,
        held: u32,
        fp: Option<String>,
    ) -> JsValue;
}

fn to_js(out: Outcome) -> JsValue {
    let warnings = (!out.warnings.is_empty()).then_some(out.warnings);
    let code = out.reason.as_ref().map(|r| r.code());
    let reason = out.reason.as_ref().map(|r| r.to_string());
    let quarantine = out.target == Target::Quarantine;
    let (style, redactions, held) = (out.style.as_str(), out.redactions as u32, out.held as u32);
    outcome(out.line, quarantine, out.eid, style, redactions, reason, code, warnings, held, out.fp)
}

/// The failure fingerprint of a stored line, for readers of lines written before the core stamped one:
/// `{ fp, failure }`, or undefined when the line is not an automatic failure or carries its own `fp`.
#[wasm_bindgen]
pub fn fingerprint(line: &str) -> JsValue {
    let Some(f) = crate::fingerprint::of_line(line) else { return JsValue::UNDEFINED };
    let obj = Object::new();
    let failure: Array = f.failure.iter().map(|l| JsValue::from_str(l)).collect();
    // Setting a member of a fresh plain object cannot fail.
    let _ = Reflect::set(&obj, &"fp".into(), &f.fp.into());
    let _ = Reflect::set(&obj, &"failure".into(), &failure);
    obj.into()
}

/// The last failure block of a failing command's output (the lines the fingerprint's signature is taken from,
/// with the lines that explain them), trimmed: what a failure hint searches for.
#[wasm_bindgen(js_name = failureBlock)]
pub fn failure_block(text: &str) -> Array {
    crate::fingerprint::failure_block(text).into_iter().map(JsValue::from_str).collect()
}
