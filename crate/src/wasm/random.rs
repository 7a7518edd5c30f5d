//! Random bytes for entry ids: getrandom's "custom" backend (.cargo/config.toml) lands here, and a pool draws them in
//! batches.

use js_sys::Uint8Array;
use wasm_bindgen::prelude::*;

/// Bytes of randomness drawn per refill (8 per entry id).
const POOL: usize = 4096;

/// Random bytes drawn in batches: one draw is a JS call and a syscall, as much as the rest of a small entry costs.
pub struct Pool {
    bytes: [u8; POOL],
    used: usize,
    /// Mixed into ids when the platform's random source fails (it should not).
    fallback: u64,
}

impl Default for Pool {
    fn default() -> Self {
        Pool { bytes: [0; POOL], used: POOL, fallback: 0 }
    }
}

impl Pool {
    /// Eight random bytes for an entry id (`now` only feeds the fallback).
    pub fn next(&mut self, now: f64) -> [u8; 8] {
        if self.used + 8 > self.bytes.len() {
            if getrandom::fill(&mut self.bytes).is_err() {
                // Not expected (crypto.getRandomValues exists in Node >= 19 and Bun); still never fail.
                self.fallback = self.fallback.wrapping_add(0x9E37_79B9_7F4A_7C15);
                return (self.fallback ^ (now as u64).rotate_left(17)).to_be_bytes();
            }
            self.used = 0;
        }
        let mut buf = [0u8; 8];
        buf.copy_from_slice(&self.bytes[self.used..self.used + 8]);
        self.used += 8;
        buf
    }
}

// The JS edge may hand us a source (setRandomSource: plugin/core.js reads /dev/urandom); without one, or if it fails,
// crypto.getRandomValues, whose first call in a Node 20 process loads WebCrypto and the streams stack: too much for a
// CLI or hook process that records one entry.

thread_local! {
    static RANDOM_SOURCE: std::cell::RefCell<Option<js_sys::Function>> = const { std::cell::RefCell::new(None) };
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["globalThis", "crypto"], js_name = getRandomValues, catch)]
    fn crypto_get_random_values(buf: &Uint8Array) -> Result<(), JsValue>;
}

/// Sets the function that fills a `Uint8Array` with random bytes (throwing when it cannot). It must fill the
/// whole array and call back into nothing.
#[wasm_bindgen(js_name = setRandomSource)]
pub fn set_random_source(source: js_sys::Function) {
    RANDOM_SOURCE.with(|s| *s.borrow_mut() = Some(source));
}

/// getrandom's custom backend: the source set from JS, else `crypto.getRandomValues` (in 64 KiB chunks, its
/// limit).
///
/// # Safety
/// `dest` must be valid for writes of `len` bytes (getrandom guarantees it).
#[no_mangle]
unsafe extern "Rust" fn __getrandom_v03_custom(dest: *mut u8, len: usize) -> Result<(), getrandom::Error> {
    // SAFETY: getrandom hands us `len` writable bytes at `dest`; we zero them first so the slice is initialised.
    let buf = unsafe {
        core::ptr::write_bytes(dest, 0, len);
        core::slice::from_raw_parts_mut(dest, len)
    };
    // SAFETY (both views): nothing allocates in wasm while a view is alive, so memory cannot grow under it.
    let from_source = RANDOM_SOURCE.with(|s| {
        s.borrow().as_ref().is_some_and(|f| {
            let view = unsafe { Uint8Array::view_mut_raw(buf.as_mut_ptr(), buf.len()) };
            f.call1(&JsValue::NULL, &view).is_ok()
        })
    });
    if from_source {
        return Ok(());
    }
    for chunk in buf.chunks_mut(65_536) {
        let view = unsafe { Uint8Array::view_mut_raw(chunk.as_mut_ptr(), chunk.len()) };
        if crypto_get_random_values(&view).is_err() {
            return Err(getrandom::Error::UNSUPPORTED);
        }
    }
    Ok(())
}
