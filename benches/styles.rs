//! `make bench`: the face work of every play style, per play area.
//!
//! For every spec under `game_specs/` and `game_specs/examples/`, `styles/<game>` synthesizes
//! and evaluates the faces of 20 000 tickets drawn from its block's lot table. The throughput
//! is counted in play areas (tickets × the game's play areas), so the games compare per play
//! area: no style should cost more per area than coq does (`styles/coq`).

// criterion_group! writes a function without a doc comment.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand_core::SeedableRng;
use std::path::{Path, PathBuf};
use tirage::alloc::allocate;
use tirage::crypto::rng::Seed;
use tirage::spec::GameSpec;
use tirage::styles::FaceRng;

/// Tickets per measured batch.
const TICKETS: usize = 20_000;

fn specs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut v = Vec::new();
    for dir in ["game_specs", "game_specs/examples"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .expect("spec directory")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        files.sort();
        v.extend(files);
    }
    v
}

fn faces(c: &mut Criterion) {
    let mut g = c.benchmark_group("styles");
    for path in specs() {
        let s = GameSpec::load(&path).expect("spec loads");
        let counts: Vec<u32> = s.ways.iter().map(|w| w.count).collect();
        let ways = allocate(&counts, &Seed([3; 32]), 1);
        let n = TICKETS.min(ways.len());
        let areas = s.game.layout().areas.len() as u64;
        g.throughput(Throughput::Elements(n as u64 * areas));
        g.bench_function(s.id.clone(), |b| {
            b.iter(|| {
                let mut rng = FaceRng::seed_from_u64(1);
                let mut prizes = 0u64;
                for &w in &ways[..n] {
                    let f = s.game.synthesize(&s.ways[w as usize], &mut rng);
                    prizes += s.game.evaluate(&f).prize().cents();
                }
                prizes
            })
        });
    }
    g.finish();
}

criterion_group!(benches, faces);
criterion_main!(benches);
