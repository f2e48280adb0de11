//! The poker spec's card_hands surface: synthesis per face and evaluation per zone, next to rs_poker's 7-card
//! hand ranking of the same zones (an established evaluator, for scale only: it ranks
//! standard poker hands, ours applies art. 3.4–3.6 plus the ambiguity checks); and what
//! generation spends on faces per ticket (synthesis plus judgement, ways in a block's
//! proportions).
//!
//! Run: `cargo bench --bench poker` (add `-- --warm-up-time 1 --measurement-time 3` for a
//! quick look).

// criterion_group! writes a function without a doc comment.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use rand_core::SeedableRng;
use rs_poker::core::{Card as PCard, Rankable};
use std::path::Path;
use tirage::spec::GameSpec;
use tirage::styles::card_hands::{card_code, read_zone, Card, CardHands};
use tirage::styles::style;
use tirage::styles::{Face, FaceRng};

fn bench(c: &mut Criterion) {
    let spec = GameSpec::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("game_specs/poker.toml"))
        .expect("spec");
    let m = &spec.game;
    let lose = &spec.ways[0];
    let four = &spec.ways[spec.way_by_id("2+2+2+2").expect("way") as usize];
    let mut rng = FaceRng::seed_from_u64(1);
    // Faces as a block has them: about one in five wins.
    let faces: Vec<Face> = (0..1024)
        .map(|i| m.synthesize(if i % 5 == 0 { four } else { lose }, &mut rng))
        .collect();
    let zones: Vec<([Card; 2], [Card; 5])> = faces
        .iter()
        .flat_map(|f| {
            let board: [Card; 5] = f.codes[16..21].try_into().expect("5 cards");
            (0..4).map(move |z| ([f.codes[z * 4], f.codes[z * 4 + 1]], board))
        })
        .collect();
    let lib_zones: Vec<[PCard; 7]> = zones
        .iter()
        .map(|(own, board)| {
            let all = [
                own[0], own[1], board[0], board[1], board[2], board[3], board[4],
            ];
            all.map(|x| PCard::try_from(card_code(x).as_str()).expect("card"))
        })
        .collect();

    report_dead_ends(&spec, &mut rng);

    // The ways of a block in their proportions (every 150th ticket of the spec's counts):
    // what generation synthesizes and judges per ticket.
    let mix: Vec<&tirage::spec::Way> = spec
        .ways
        .iter()
        .flat_map(|w| std::iter::repeat_n(w, (w.count as usize).div_ceil(150)))
        .collect();

    let mut g = c.benchmark_group("poker");
    let mut i = 0;
    g.bench_function("synthesize and judge, block mix (per face)", |b| {
        b.iter(|| {
            i = (i + 7919) % mix.len();
            let face = m.synthesize(mix[i], &mut rng);
            black_box(m.evaluate(&face))
        })
    });
    g.bench_function("synthesize losing face", |b| {
        b.iter(|| black_box(m.synthesize(lose, &mut rng)))
    });
    g.bench_function("synthesize 2+2+2+2 face", |b| {
        b.iter(|| black_box(m.synthesize(four, &mut rng)))
    });
    let mut i = 0;
    g.bench_function("evaluate face (4 zones)", |b| {
        b.iter(|| {
            i = (i + 1) & 1023;
            black_box(m.evaluate(&faces[i]))
        })
    });
    let mut i = 0;
    g.bench_function("read_zone (1 zone, both readings)", |b| {
        b.iter(|| {
            i = (i + 1) & 4095;
            black_box(read_zone(zones[i].0, zones[i].1))
        })
    });
    let mut i = 0;
    g.bench_function("rs_poker 7-card rank (1 zone)", |b| {
        b.iter(|| {
            i = (i + 1) & 4095;
            black_box(lib_zones[i][..].rank())
        })
    });
    g.finish();
}

/// The rate of deals started again (a dead end) per way, over 20 000 faces of each: the
/// only retry loop of poker synthesis, bounded by `card_hands::MAX_ATTEMPTS`.
fn report_dead_ends(spec: &GameSpec, rng: &mut FaceRng) {
    let poker = spec
        .surface_style(0, |t, ctx| CardHands::new(&style::parse(t)?, ctx))
        .expect("the poker spec's card_hands surface");
    println!("poker synthesis: deals started again per face (dead ends), 20 000 faces per way");
    let mut per_block = 0.0;
    for way in &spec.ways {
        let (mut retries, mut most) = (0u64, 1usize);
        for _ in 0..20_000 {
            let (_, attempts) = poker.synthesize_counted(way, None, rng);
            retries += attempts as u64 - 1;
            most = most.max(attempts);
        }
        let rate = retries as f64 / 20_000.0;
        per_block += rate * f64::from(way.count);
        println!(
            "  {:>14}: {rate:.5} per face (most deals for one face: {most})",
            way.id
        );
    }
    // Weighted by the block's counts: what a full block sees.
    println!("  expected per block of the spec: {per_block:.1} deals started again");
}

criterion_group!(benches, bench);
criterion_main!(benches);
