//! `make bench`: the pipeline's speed, stage by stage, on coq (4 500 000 tickets a block), so
//! that a regression says where it is.
//!
//! - `allocation/coq`: placing every way in the block (Fisher–Yates on ChaCha20);
//!   `allocation/coq_pack_constraints`: the same under `min_winners = 35`, at most one
//!   ticket of 1000 or more per pack and one top prize per carton of 20 packs;
//! - `faces/coq`: synthesize + evaluate, per ticket (every style: `benches/styles.rs`);
//! - `codes/coq`: validation codes (FF1, AES-256), a pack at a time, per ticket;
//! - `serials/coq`: a ticket's serial and its Luhn digit, a pack at a time, per ticket;
//! - `claims/hash`: a ticket's claim (SHA-256 of serial and code), per ticket;
//!   `claims/sort_block`: the claims of a whole block put in file order, per row;
//!   `claims/rows`: a row of `validation.csv` rendered, per row;
//! - `csv/coq` and `print_file/coq`: a ticket's `tickets.csv` row and `tickets.bin`
//!   record, per ticket;
//! - `hashing/sha256`: a file's digest as it is written, per byte;
//! - `encryption/age`: a file encrypted to one recipient (age, X25519 + ChaCha20-Poly1305),
//!   per byte;
//! - `writes/buffered` and `writes/durable`: 64 MiB written in 1 MiB blocks to a temporary
//!   file through the page cache, then (durable) flushed to the disk with one `fsync`, per
//!   byte; `writes/direct`: the same through the ticket files' writer (`O_DIRECT` in 4 MiB
//!   blocks where the file system takes it, written by a thread of its own while the next
//!   block is filled, then one `fsync`), per byte;
//! - `block/generate_coq` and `block/verify_coq`: the whole block, written to a temporary
//!   directory, on the default rayon pool (one thread per core).
//!
//! Per block, a per-ticket stage costs its time per element times 4 500 000; a per-byte
//! stage its time per byte times the block's 965 MB of files (docs/SPEED.md).

// criterion_group! writes a function without a doc comment.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use rand_core::SeedableRng;
use std::io::Write;
use std::path::Path;
use std::time::Duration;
use tirage::alloc::{allocate, allocate_packs};
use tirage::block::serial::{self, PackSerials};
use tirage::crypto::rng::Seed;
use tirage::crypto::validation::{ValidationKey, Validator};
use tirage::generate::{place, BlockPlan};
use tirage::money::Money;
use tirage::output::hashing::Sum;
use tirage::output::{print_file, tickets_csv, validation_csv, Ticket};
use tirage::spec::{GameSpec, PackRules};
use tirage::styles::FaceRng;

fn spec(name: &str) -> GameSpec {
    GameSpec::load(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("game_specs")
            .join(name),
    )
    .expect("spec loads")
}

/// Tickets per measured batch of the per-ticket stages.
const TICKETS: usize = 100_000;

/// Bytes per measured batch of the per-byte stages.
const BYTES: usize = 64 << 20;

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

    let ways = allocate(&counts, &seed, 1);
    let n = TICKETS;
    let mut g = c.benchmark_group("faces");
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function("coq", |b| {
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
    g.finish();

    let validator = Validator::production(&ValidationKey([5; 32]), s.game_code, 1, &seed);
    let pack = s.pack_size as usize;
    let mut g = c.benchmark_group("codes");
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function("coq", |b| {
        let mut codes = vec![0u64; pack];
        b.iter(|| {
            let mut x = 0u64;
            for first in (0..n).step_by(pack) {
                validator.codes(1, first as u32, &mut codes);
                x ^= codes[0];
            }
            x
        })
    });
    g.finish();

    let mut g = c.benchmark_group("serials");
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function("coq", |b| {
        b.iter(|| {
            let mut x = 0u8;
            for pack in 1..=(n / pack) as u32 {
                let serials = PackSerials::new(s.game_code, s.emission, 1, pack, s.pack_size);
                for position in 1..=s.pack_size {
                    x ^= serials.at(position)[serial::LEN - 1];
                }
            }
            x
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
                150,
            ),
            validation: validator.code(1, i as u32),
            prize: s.ways[w as usize].amount,
            way: w,
            face: s.game.synthesize(&s.ways[w as usize], &mut rng),
        })
        .collect();

    let mut g = c.benchmark_group("claims");
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function("hash", |b| {
        b.iter(|| {
            tickets
                .iter()
                .map(|t| validation_csv::claim(&t.serial, t.validation)[0])
                .fold(0u8, |a, c| a ^ c)
        })
    });
    // A block's claims: uniform 16-byte keys, as SHA-256 makes them.
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let rows: Vec<validation_csv::Row> = (0..s.block_size as usize)
        .map(|k| {
            let mut claim = [0u8; validation_csv::CLAIM_BYTES];
            for half in claim.chunks_mut(8) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                half.copy_from_slice(&x.to_le_bytes());
            }
            validation_csv::Row {
                claim,
                way: (k % s.ways.len()) as u16,
            }
        })
        .collect();
    g.sample_size(10);
    g.throughput(Throughput::Elements(rows.len() as u64));
    g.bench_function("sort_block", |b| {
        b.iter_batched_ref(
            || {
                let mut claims = validation_csv::Claims::with_capacity(rows.len());
                claims.extend(&rows);
                claims
            },
            |claims| claims.sort(),
            BatchSize::LargeInput,
        )
    });
    let writer = validation_csv::RowWriter::new(&s);
    g.bench_function("rows", |b| {
        let mut buf = Vec::with_capacity(rows.len() * 48);
        b.iter(|| {
            buf.clear();
            for r in &rows {
                writer.push(&mut buf, r);
            }
            buf.len()
        })
    });
    g.finish();

    let ncols = s.game.layout().columns.len();
    let mut g = c.benchmark_group("csv");
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function("coq", |b| {
        let mut rows = tickets_csv::RowWriter::new(&s);
        b.iter(|| {
            rows.clear();
            for t in &tickets {
                rows.push(t);
            }
            rows.bytes().len()
        })
    });
    // As the writer of tickets.csv renders them: from the print records and the ways.
    let size = print_file::record_size(&s);
    let mut records = Vec::with_capacity(n * size);
    for t in &tickets {
        print_file::push_record(&mut records, t, ncols);
    }
    g.bench_function("coq_from_records", |b| {
        let mut rows = tickets_csv::RowWriter::new(&s);
        b.iter(|| {
            rows.clear();
            for (rec, t) in records.chunks_exact(size).zip(&tickets) {
                let (serial, codes) = print_file::serial_and_face(rec, ncols);
                rows.push_row(&tickets_csv::Row {
                    block: t.block,
                    pack: t.pack,
                    pack_position: t.pack_position,
                    ticket: t.ticket,
                    serial,
                    way: t.way,
                    codes,
                });
            }
            rows.bytes().len()
        })
    });
    // As verify checks them: each row of tickets.csv against the one its print record
    // calls for.
    let mut rows = tickets_csv::RowWriter::new(&s);
    for t in &tickets {
        rows.push(t);
    }
    let text = rows.bytes().to_vec();
    let lines: Vec<&[u8]> = text.split_inclusive(|&b| b == b'\n').collect();
    g.bench_function("coq_matches", |b| {
        b.iter(|| {
            let mut same = 0;
            for (line, t) in lines.iter().zip(&tickets) {
                same += usize::from(rows.matches(t, &line[..line.len() - 1]));
            }
            assert_eq!(same, tickets.len());
            same
        })
    });
    g.finish();
    let mut g = c.benchmark_group("print_file");
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function("coq", |b| {
        let mut bin = Vec::with_capacity(n * print_file::record_size(&s));
        b.iter(|| {
            bin.clear();
            for t in &tickets {
                print_file::push_record(&mut bin, t, ncols);
            }
            bin.len()
        })
    });
    g.finish();

    let data: Vec<u8> = (0..BYTES).map(|i| (i * 131 % 251) as u8).collect();
    let mut g = c.benchmark_group("hashing");
    g.throughput(Throughput::Bytes(BYTES as u64));
    g.bench_function("sha256", |b| {
        b.iter(|| {
            let mut sum = Sum::default();
            for block in data.chunks(1 << 20) {
                sum.update(block);
            }
            sum.finish()
        })
    });
    g.finish();

    let recipient = age::x25519::Identity::generate().to_public();
    let mut g = c.benchmark_group("encryption");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(BYTES as u64));
    g.bench_function("age", |b| {
        b.iter(|| {
            let mut w =
                tirage::output::seal::encrypt_to(std::io::sink(), std::slice::from_ref(&recipient))
                    .unwrap();
            for block in data.chunks(1 << 20) {
                w.write_all(block).unwrap();
            }
            w.finish().unwrap()
        })
    });
    g.finish();

    let dir = tempfile::tempdir().unwrap();
    let mut g = c.benchmark_group("writes");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(BYTES as u64));
    for durable in [false, true] {
        let name = if durable { "durable" } else { "buffered" };
        g.bench_function(name, |b| {
            b.iter(|| {
                let p = dir.path().join(name);
                let mut f = std::fs::File::create(&p).unwrap();
                for block in data.chunks(1 << 20) {
                    f.write_all(block).unwrap();
                }
                if durable {
                    f.sync_all().unwrap();
                }
                drop(f);
                std::fs::remove_file(&p).unwrap();
            })
        });
    }
    g.bench_function("direct", |b| {
        b.iter(|| {
            let p = dir.path().join("direct");
            let f = tirage::store::durable::create_private(&p).unwrap();
            let mut f = tirage::store::direct::DirectFile::new(f);
            for block in data.chunks(1 << 20) {
                f.write_all(block).unwrap();
            }
            drop(f.finish().unwrap());
            std::fs::remove_file(&p).unwrap();
        })
    });
    g.finish();
}

fn block(c: &mut Criterion) {
    let s = spec("coq.toml");
    let seed = Seed([9; 32]);
    let key = ValidationKey([5; 32]);
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("b");
    let mut g = c.benchmark_group("block");
    g.sample_size(10).measurement_time(Duration::from_secs(40));
    g.throughput(Throughput::Elements(u64::from(s.block_size)));
    g.bench_function("generate_coq", |b| {
        b.iter(|| {
            let plan = BlockPlan::production(&s, &seed, 1)
                .unwrap()
                .validated_by(&key);
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
