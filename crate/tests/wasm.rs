//! The boundary, exercised from inside wasm on Node (`cargo test --target wasm32-unknown-unknown`):
//! JS strings with lone surrogates, byte arrays and the context object arrive as JS values.
#![cfg(target_arch = "wasm32")]

use js_sys::{Object, Reflect, Uint8Array};
use recordings_core::wasm::Recorder;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

fn get(obj: &JsValue, key: &str) -> JsValue {
    Reflect::get(obj, &key.into()).unwrap()
}

fn recorder() -> Recorder {
    let mut r = Recorder::new(JsValue::UNDEFINED);
    let ctx = Object::new();
    let stamps = Object::new();
    for (k, v) in [("pwd", "/w"), ("repo", "r"), ("model", "mock/m")] {
        Reflect::set(&stamps, &k.into(), &v.into()).unwrap();
    }
    Reflect::set(&stamps, &"session".into(), &JsValue::UNDEFINED).unwrap();
    Reflect::set(&ctx, &"capture".into(), &"agent".into()).unwrap();
    Reflect::set(&ctx, &"stamps".into(), &stamps).unwrap();
    r.set_context(ctx.into());
    r
}

#[wasm_bindgen_test]
fn json_members_and_stamps_in_order() {
    let out = recorder().record("{\"b\": 1.0, \"a\": \"\\u00e9\"}".into(), 0.0);
    let line = get(&out, "line").as_string().unwrap();
    let eid = get(&out, "eid").as_string().unwrap();
    assert_eq!(
        line,
        format!("{{\"ts\":\"1970-01-01T00:00:00.000Z\",\"eid\":\"{eid}\",\"b\":1.0,\"a\":\"\\u00e9\",\"capture\":\"agent\",\"pwd\":\"/w\",\"repo\":\"r\",\"model\":\"mock/m\"}}\n")
    );
    assert_eq!(get(&out, "target").as_string().unwrap(), "main");
    assert_eq!(get(&out, "style").as_string().unwrap(), "json");
    assert!(get(&out, "reasonCode").is_undefined());
    assert_eq!(eid.len(), 13);
}

#[wasm_bindgen_test]
fn lone_surrogate_string_is_quarantined() {
    let s = js_sys::JsString::from_char_code(&[0x61, 0xDC00, 0x62]);
    let out = recorder().record(s.into(), 0.0);
    assert_eq!(get(&out, "target").as_string().unwrap(), "quarantine");
    assert_eq!(get(&out, "reasonCode").as_string().unwrap(), "lone-surrogate");
    assert!(get(&out, "line").as_string().unwrap().contains("\"raw_encoding\":\"utf-16le\""));
}

#[wasm_bindgen_test]
fn bytes_are_read_as_utf8_or_quarantined() {
    let mut r = recorder();
    let good = Uint8Array::from(&b"plain text"[..]);
    assert_eq!(get(&r.record(good.into(), 0.0), "style").as_string().unwrap(), "text");
    let bad = Uint8Array::from(&[0xffu8, 0xfe][..]);
    let out = r.record(bad.unchecked_into(), 0.0);
    assert_eq!(get(&out, "target").as_string().unwrap(), "quarantine");
}

#[wasm_bindgen_test]
fn ids_differ() {
    let mut r = recorder();
    let a = get(&r.record("x".into(), 0.0), "eid").as_string().unwrap();
    let b = get(&r.record("x".into(), 0.0), "eid").as_string().unwrap();
    assert_ne!(a, b);
}
