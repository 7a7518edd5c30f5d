//! Profiling harness for the redaction scanner: redacts one file many times, as JSON or as text.
//!
//! cargo run --release -p recordings-core --example redact_profile -- json|text FILE [ITERATIONS]
//!
//! Prints the number of redactions and an FNV-1a hash of the output, so two builds can be compared for
//! identical behaviour; run under `valgrind --tool=callgrind` for repeatable instruction counts.

use recordings_core::redact::{RedactOptions, Redactor};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(mode), Some(file)) = (args.first(), args.get(1)) else {
        eprintln!("usage: redact_profile json|text FILE [ITERATIONS]");
        std::process::exit(2);
    };
    let iters: usize = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(1);
    let input = std::fs::read_to_string(file).expect("readable UTF-8 file");
    let r = Redactor::new(&RedactOptions::default()).0;
    let t = Instant::now();
    let mut last = None;
    for _ in 0..iters {
        let input = std::hint::black_box(input.as_str());
        last = if mode == "json" { r.redact_json(input) } else { r.redact_text(input) };
    }
    let dt = t.elapsed().as_secs_f64() / iters as f64;
    let (out, hits) = last.unwrap_or_else(|| (input.clone(), Vec::new()));
    let count: usize = hits.iter().map(|h| h.count).sum();
    let hash = out.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, c| (h ^ u64::from(c)).wrapping_mul(0x100_0000_01b3));
    println!(
        "{mode} {} bytes: {count} redactions in {} hits, output hash {hash:016x}, {:.3} ms/call, {:.0} MB/s",
        input.len(),
        hits.len(),
        dt * 1e3,
        input.len() as f64 / dt / 1e6
    );
}
