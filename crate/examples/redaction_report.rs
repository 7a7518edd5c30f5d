//! Native redaction throughput and a false-positive hunt over real files.
//!
//! cargo run --release -p recordings-core --example redaction_report -- bench
//! cargo run --release -p recordings-core --example redaction_report -- scan FILE...   (prints what it would redact)

use recordings_core::redact::{RedactOptions, Redactor};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let r = Redactor::new(&RedactOptions::default()).0;
    match args.first().map(String::as_str) {
        Some("scan") => scan(&r, &args[1..]),
        _ => bench(&r),
    }
}

fn scan(r: &Redactor, files: &[String]) {
    let (mut bytes, mut hits) = (0usize, 0usize);
    for f in files {
        let Ok(text) = std::fs::read_to_string(f) else { continue };
        bytes += text.len();
        let Some((out, h)) = r.redact_text(&text) else { continue };
        for hit in &h {
            hits += hit.count;
        }
        // Print each redacted line with the original beside it.
        for (a, b) in text.lines().zip(out.lines()) {
            if a != b {
                let short = |s: &str| s.chars().take(160).collect::<String>();
                println!("{f}\n  - {}\n  + {}", short(a), short(b));
            }
        }
    }
    eprintln!("scanned {} files, {} bytes, {} redactions", files.len(), bytes, hits);
}

/// Log-like text full of the words that make keyword prefilters useless (token, key, password, ://, Bearer).
fn log_like(size: usize, secrets: bool) -> String {
    let clean = [
        "2026-11-29T10:12:01.123Z INFO  http: GET /v1/tokens?limit=50 200 12ms user=ada request_id=550e8400-e29b-41d4-a716-446655440000\n",
        "2026-11-29T10:12:01.456Z DEBUG auth: refreshing token for session ses_3f9a1c2e8b7d6f5a; key rotation in 3600s; password policy ok\n",
        "    at verifyToken (/app/node_modules/jsonwebtoken/verify.js:88:21)\n",
        "{\"event\":\"tool.call\",\"tool\":\"bash\",\"args\":{\"command\":\"git log --oneline -5\"},\"tokens\":1532,\"key\":\"value\"}\n",
        "commit 3f9a1c2e8b7d6f5a4c3b2a1908f7e6d5c4b3a291 Merge: fix password reset token expiry (see https://github.com/org/repo/pull/42)\n",
        "const apiKey = process.env.API_KEY; if (!apiKey) throw new Error('missing api key: set API_KEY');\n",
        "integrity sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg== token: expired\n",
        "Les données ont été écrites — 完了しました — password: required, Bearer <token>, auth: ok\n",
    ];
    let gh = format!("gh{}_{}", "p", "aB3dE5fG7hJ9kL2mN4pQ6rS8tU1vW3xY5zA7b");
    let dirty = [
        "DB_PASSWORD=Xk7pQ2wR9zL4\n".to_string(),
        format!("curl -H 'Authorization: Bearer {gh}' https://api.github.com/user\n"),
        "DATABASE_URL=postgres://app:s3cr3t-Pw9@db.internal:5432/app\n".to_string(),
        "DETAIL:  Key (api_key)=(k9Xq2Lm7vPz0) already exists.\n".to_string(),
    ];
    let mut s = String::with_capacity(size + 256);
    let mut i = 0;
    while s.len() < size {
        if secrets && i % 10 == 9 {
            s.push_str(&dirty[(i / 10) % dirty.len()]);
        } else {
            s.push_str(clean[i % clean.len()]);
        }
        i += 1;
    }
    let mut end = size.min(s.len());
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s.truncate(end);
    s
}

fn bench(r: &Redactor) {
    for &(size, label) in &[(1024usize, "1 KiB"), (1 << 20, "1 MiB")] {
        for &secrets in &[false, true] {
            let text = log_like(size, secrets);
            let json = serde_json::to_string(
                &serde_json::json!({ "output": text, "args": { "env": { "API_KEY": "k9Xq2-Lm7vPz" } } }),
            )
            .unwrap();
            let iters = (256 << 20) / size.max(1);
            let iters = iters.clamp(20, 200_000);
            let mut n = 0usize;
            let t = Instant::now();
            for _ in 0..iters {
                n += r.redact_text(std::hint::black_box(&text)).map_or(0, |(_, h)| h.len());
            }
            let dt = t.elapsed().as_secs_f64();
            let t2 = Instant::now();
            for _ in 0..iters {
                n += r.redact_json(std::hint::black_box(&json)).map_or(0, |(_, h)| h.len());
            }
            let dt2 = t2.elapsed().as_secs_f64();
            std::hint::black_box(n);
            println!(
                "{label:>6} {:<14} text {:>7.0} MB/s ({:>6.2} µs/call)   json {:>7.0} MB/s",
                if secrets { "secret-laden" } else { "clean" },
                (text.len() * iters) as f64 / dt / 1e6,
                dt / iters as f64 * 1e6,
                (json.len() * iters) as f64 / dt2 / 1e6,
            );
        }
    }
    let t = Instant::now();
    for _ in 0..1000 {
        std::hint::black_box(Redactor::new(&RedactOptions::default()));
    }
    println!("Redactor::new (default options): {:.2} µs", t.elapsed().as_secs_f64() * 1e3);
}
