//! Redaction alone, in wasm, without the boundary: `redact_json` run over an input the caller put in memory.
//!
//! cargo rustc --release --target wasm32-unknown-unknown -p recordings-core --example redact_wasm_bench \
//!   -- -C link-arg=--export=run -C link-arg=--export=input
//!
//! (A wasm binary that exports the two functions, in target/wasm32-unknown-unknown/release/examples/: cargo 1.95
//! takes `--crate-type cdylib` for library examples only, and an example built as a `bin` exports what the linker
//! is told to.)
//!
//! Exports `input(len) -> ptr` (room for the input) and `run(len, iters) -> hash` (FNV-1a of the last output, for
//! comparing builds). Timing is the caller's; a harness that loads several builds in one process and alternates
//! them (the machine is noisy: compare builds in the same process, by the minimum or median over rounds, or by
//! the median of each round's ratio to the first build):
//!
//! ```js
//! const data = fs.readFileSync(file); // e.g. JSON.stringify({tool: "bash", output: cleanLog(1 << 20)})
//! const builds = wasmFiles.map((f) => {
//!   const m = new WebAssembly.Module(fs.readFileSync(f)), imports = {};
//!   for (const i of WebAssembly.Module.imports(m)) (imports[i.module] ??= {})[i.name] = () => { throw i.name };
//!   const e = new WebAssembly.Instance(m, imports).exports; // the wasm-bindgen imports are never called
//!   const at = e.input(data.length); // before reading e.memory.buffer: growing the memory detaches the old one
//!   new Uint8Array(e.memory.buffer, at, data.length).set(data);
//!   return { f, e, hash: e.run(data.length, 1), ms: [] };
//! });
//! for (let r = 0; r < 30; r++)
//!   for (const x of builds) { const t = performance.now(); x.e.run(data.length, 5); x.ms.push((performance.now() - t) / 5); }
//! ```
//!
//! A native build is an empty program.

use recordings_core::redact::{RedactOptions, Redactor};

static mut INPUT: Vec<u8> = Vec::new();

/// Room for an input of `len` bytes; returns where to write it.
#[no_mangle]
pub extern "C" fn input(len: usize) -> *mut u8 {
    // SAFETY: single-threaded wasm; the harness calls `input` and `run` in turn, never re-entrantly.
    let buf = unsafe { &mut *std::ptr::addr_of_mut!(INPUT) };
    buf.resize(len, 0);
    buf.as_mut_ptr()
}

/// Redacts the input (JSON) `iters` times; returns a hash of the last output (0 when nothing was redacted).
#[no_mangle]
pub extern "C" fn run(len: usize, iters: u32) -> u32 {
    // SAFETY: as in `input`.
    let buf = unsafe { &*std::ptr::addr_of!(INPUT) };
    let text = std::str::from_utf8(&buf[..len]).unwrap_or("");
    let r = Redactor::new(&RedactOptions::default()).0;
    let mut last = None;
    for _ in 0..iters {
        last = r.redact_json(std::hint::black_box(text));
    }
    last.map_or(0, |(out, _)| out.bytes().fold(0x811c_9dc5u32, |h, c| (h ^ u32::from(c)).wrapping_mul(0x0100_0193)))
}

fn main() {}
