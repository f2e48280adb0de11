//! `make bench`: the pipeline's speed on the full-size coq block (4 500 000 tickets).
//!
//! - `allocation/coq`: placing every way in the block (Fisher–Yates on ChaCha20);
//!   `allocation/coq_pack_constraints`: the same under `min_winners = 35`, at most one
//!   ticket of 1000 or more per pack and one top prize per carton of 20 packs;
//! - `faces/coq`: synthesize + evaluate, per ticket;
//! - `render/coq`: CSV row + print record + SHA-256 of both, per ticket;
//! - `block/generate_coq` and `block/verify_coq`: the whole block, written to a temporary
//!   directory, on the default rayon pool (one thread per core).

// criterion_group! writes a function without a doc comment.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use rand_core::SeedableRng;
use sha2::{Digest, Sha256};
use std::path::Path;
use std::time::Duration;
use tirage::alloc::{allocate, allocate_packs};
use tirage::crypto::rng::Seed;
use tirage::games::FaceRng;
use tirage::generate::{place, BlockPlan};
use tirage::money::Money;
use tirage::output::{print_file, tickets_csv, Ticket};
use tirage::spec::{GameSpec, PackRules};

fn spec(name: &str) -> GameSpec {
    GameSpec::load(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("game_specs")
            .join(name),
    )
    .expect("spec loads")
}

fn parts(c: &mut Criterion) {
    let s = spec("coq.toml");
    let seed = Seed([7; 32]);
    let mut g = c.benchmark_group("allocation");
    g.sample_size(10);
    g.throughput(Throughput::Elements(u64::from(s.block_size)));
    let counts: Vec<u32> = s.ways.iter().map(|w| w.count).collect();
    g.bench_function("coq", |b| b.iter(|| allocate(&counts, &seed, 1)));
    // The pack guarantees of the operators' kind: at least 35 winners per pack, at most one
    // ticket of 1000 or more per pack, at most one top prize per carton of 20 packs.
    let rules = PackRules {
        min_winners: Some(35),
        max_from_tier: vec![(Money::units(1000), 1)],
        carton_size: Some(20),
        max_per_carton: vec![(Money::units(20000), 1)],
        ..PackRules::default()
    };
    g.bench_function("coq_pack_constraints", |b| {
        b.iter(|| allocate_packs(&s, &counts, &rules, &seed, 1).unwrap())
    });
    g.finish();

    let counts: Vec<u32> = s.ways.iter().map(|w| w.count).collect();
    let ways = allocate(&counts, &seed, 1);
    let n = 100_000usize;
    let mut g = c.benchmark_group("faces");
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function("coq", |b| {
        b.iter(|| {
            let mut rng = FaceRng::seed_from_u64(1);
            let mut prizes = 0u64;
            for &w in &ways[..n] {
                let f = s.game.synthesize(&s.ways[w as usize], &mut rng).unwrap();
                prizes += s.game.evaluate(&f).prize().cents();
            }
            prizes
        })
    });
    g.finish();

    let mut rng = FaceRng::seed_from_u64(2);
    let tickets: Vec<Ticket> = ways[..n]
        .iter()
        .enumerate()
        .map(|(i, &w)| Ticket {
            block: 1,
            pack: i as u32 / 150 + 1,
            pack_position: i as u32 % 150 + 1,
            ticket: i as u32 + 1,
            serial: tirage::block::serial::serial(
                1703,
                1,
                1,
                i as u32 / 150 + 1,
                i as u32 % 150 + 1,
            ),
            validation: i as u64,
            prize: s.ways[w as usize].amount,
            way: w,
            face: s.game.synthesize(&s.ways[w as usize], &mut rng).unwrap(),
        })
        .collect();
    let ncols = s.game.columns().len();
    let mut g = c.benchmark_group("render");
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function("coq", |b| {
        b.iter_batched(
            || (tickets_csv::RowWriter::new(&s), Vec::with_capacity(n * 64)),
            |(mut rows, mut bin)| {
                for t in &tickets {
                    rows.push(t);
                    print_file::push_record(&mut bin, t, ncols);
                }
                (Sha256::digest(rows.bytes()), Sha256::digest(&bin))
            },
            BatchSize::LargeInput,
        )
    });
    g.finish();
}

fn block(c: &mut Criterion) {
    let s = spec("coq.toml");
    let seed = Seed([9; 32]);
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("b");
    let mut g = c.benchmark_group("block");
    g.sample_size(10).measurement_time(Duration::from_secs(40));
    g.throughput(Throughput::Elements(u64::from(s.block_size)));
    g.bench_function("generate_coq", |b| {
        b.iter(|| {
            let plan = BlockPlan::production(&s, &seed, 1).unwrap();
            place(&plan, &out, true, None).unwrap()
        })
    });
    g.bench_function("verify_coq", |b| {
        b.iter(|| {
            let r = tirage::verify::verify(&out, None, &|_| {}).unwrap();
            assert!(r.clean);
        })
    });
    g.finish();
}

criterion_group!(benches, parts, block);
criterion_main!(benches);
