//! Helpers shared by the integration tests: locating `shared/data` and reading perft files.
#![allow(dead_code)]

use std::path::PathBuf;

/// `shared/data`, beside the repository (or `CHESS960_SHARED_DATA`).
pub fn data_dir() -> PathBuf {
    if let Ok(p) = std::env::var("CHESS960_SHARED_DATA") {
        return PathBuf::from(p);
    }
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let p = manifest.join("../../../shared/data");
    assert!(
        p.is_dir(),
        "test data not found at {} (set CHESS960_SHARED_DATA)",
        p.display()
    );
    p
}

pub fn read(rel: &str) -> String {
    let p = data_dir().join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// One test position with its published counts.
#[derive(Debug, Clone)]
pub struct PerftCase {
    pub name: String,
    pub fen: String,
    /// (depth, nodes)
    pub counts: Vec<(u32, u64)>,
}

/// `FEN ;D1 20 ;D2 400 …` lines (Ethereal / derived format); `;id N` is kept as the name.
pub fn parse_epd(text: &str) -> Vec<PerftCase> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim().to_string();
        let mut name = format!("line {}", i + 1);
        let mut counts = Vec::new();
        for p in parts {
            let p = p.trim();
            if let Some(id) = p.strip_prefix("id ") {
                name = format!("id {id}");
            } else if let Some(rest) = p.strip_prefix('D') {
                let (d, n) = rest.split_once(' ').expect("D<depth> <nodes>");
                counts.push((d.parse().unwrap(), n.trim().parse().unwrap()));
            }
        }
        out.push(PerftCase { name, fen, counts });
    }
    out
}

/// `id …` / `epd …` / `perft d n` blocks (python-chess / shakmaty format).
pub fn parse_perft(text: &str) -> Vec<PerftCase> {
    let mut out: Vec<PerftCase> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(id) = line.strip_prefix("id ") {
            out.push(PerftCase {
                name: id.to_string(),
                fen: String::new(),
                counts: Vec::new(),
            });
        } else if let Some(fen) = line.strip_prefix("epd ") {
            out.last_mut().unwrap().fen = fen.to_string();
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let (d, n) = rest.split_once(' ').unwrap();
            out.last_mut()
                .unwrap()
                .counts
                .push((d.parse().unwrap(), n.parse().unwrap()));
        }
    }
    out
}

/// Maximum depth for the big suites: 5 by default, `CHESS960_PERFT_DEPTH=6` for the opt-in run.
pub fn max_depth() -> u32 {
    std::env::var("CHESS960_PERFT_DEPTH")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5)
}

/// Runs `f` over `items` on all cores.
pub fn parallel<T: Sync, F: Fn(&T) + Sync>(items: &[T], f: F) {
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                f(item);
            });
        }
    });
}
