//! Mutation fuzzing, bounded and reproducible: random edits of a spec's text (never a
//! panic; every error says something) and of every file of a small block (never a panic;
//! never clean once a deliverable byte changed). A few seconds by default; set
//! `TIRAGE_FUZZ_ITERS=N` for N block mutations and 5·N spec mutants (default 40), and
//! `TIRAGE_FUZZ_SEED=n` for another sequence.

mod common;
use common::*;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use tirage::spec::GameSpec;

fn iterations() -> usize {
    std::env::var("TIRAGE_FUZZ_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40)
}

fn rng(salt: u64) -> ChaCha8Rng {
    let seed = std::env::var("TIRAGE_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(14);
    ChaCha8Rng::seed_from_u64(seed ^ salt)
}

fn below(r: &mut ChaCha8Rng, n: usize) -> usize {
    (r.next_u64() % n.max(1) as u64) as usize
}

/// Bytes a mutation inserts: TOML and CSV punctuation, digits, control characters, UTF-8.
const PIECES: &[&[u8]] = &[
    b"\0",
    b"\r",
    b"\n",
    b"\x1b",
    b"\"",
    b"'",
    b"[",
    b"]",
    b"=",
    b",",
    b".",
    b"#",
    b"-",
    b"9",
    b"0",
    b"99999999999999999999",
    b"1e300",
    b"-1",
    b"\xc3\xa9",
    b"\xff",
    b"inf",
    b"nan",
    b"[[tiers]]",
    b"[tiers.ways]",
    b"\"\"\"",
    b" ",
];

/// One random edit of `b`, always a change: a byte flipped, a range deleted or
/// duplicated, a piece inserted, or the file cut short.
fn mutate(r: &mut ChaCha8Rng, b: &mut Vec<u8>) -> String {
    let at = below(r, b.len());
    match below(r, 5) {
        0 if !b.is_empty() => {
            let x = 1 + below(r, 255) as u8;
            b[at] ^= x;
            format!("byte {at} ^= {x:#x}")
        }
        1 if b.len() > 1 => {
            let n = 1 + below(r, 16.min(b.len() - at));
            b.drain(at..at + n);
            format!("{n} bytes deleted at {at}")
        }
        2 if !b.is_empty() => {
            let n = 1 + below(r, 64.min(b.len() - at));
            let piece = b[at..at + n].to_vec();
            b.splice(at..at, piece);
            format!("{n} bytes duplicated at {at}")
        }
        3 if !b.is_empty() => {
            let n = below(r, b.len());
            b.truncate(n);
            format!("cut to {n} bytes")
        }
        _ => {
            let p = PIECES[below(r, PIECES.len())];
            b.splice(at..at, p.iter().copied());
            format!("{:?} inserted at {at}", String::from_utf8_lossy(p))
        }
    }
}

#[test]
fn spec_mutants_never_panic_and_every_error_says_something() {
    let mut r = rng(1);
    let mut accepted = 0;
    for spec in ["coq_small", "poker_small", "pharaon_small"] {
        let path = repo(&format!("tests/specs/{spec}.toml"));
        let text = std::fs::read(&path).unwrap();
        for i in 0..iterations() * 5 / 3 + 1 {
            let mut b = text.clone();
            let mut what = Vec::new();
            for _ in 0..1 + below(&mut r, 3) {
                what.push(mutate(&mut r, &mut b));
            }
            let Ok(s) = String::from_utf8(b) else {
                continue; // load refuses it as not UTF-8 before parsing
            };
            let got = std::panic::catch_unwind(|| GameSpec::parse(&path, s.clone()));
            match got {
                Err(_) => panic!("{spec} mutant {i} ({what:?}) panicked:\n{s}"),
                Ok(Ok(_)) => accepted += 1,
                Ok(Err(e)) => assert!(
                    !e.message.trim().is_empty(),
                    "{spec} mutant {i} ({what:?}): an error without a message: {e}"
                ),
            }
        }
    }
    // Most mutants are refused; a few (a comment edited, say) still load.
    eprintln!("{accepted} spec mutants still load");
}

/// `n` mutations of the files of the block or deck in `base`, one at a time.
fn mutate_block(t: &Path, base: &Path, n: usize, salt: u64) {
    let clean = tirage::verify::verify(base, None, &|_| {}).unwrap();
    assert!(clean.clean);
    let files = [
        "tickets.csv",
        "tickets.bin",
        "validation.csv",
        "spec.toml",
        "manifest.json",
        "SHA256SUMS",
    ];
    let originals: Vec<Vec<u8>> = files
        .iter()
        .map(|f| std::fs::read(base.join(f)).unwrap())
        .collect();
    let dir = t.join("m");
    copy_dir(base, &dir);
    let mut r = rng(salt);
    for i in 0..n {
        let k = below(&mut r, files.len());
        let mut b = originals[k].clone();
        let what = mutate(&mut r, &mut b);
        if b == originals[k] {
            continue; // a duplicated run next to itself can equal a shifted original
        }
        std::fs::write(dir.join(files[k]), &b).unwrap();
        let report = std::panic::catch_unwind(|| tirage::verify::verify(&dir, None, &|_| {}));
        let report = report
            .unwrap_or_else(|_| panic!("mutation {i}: {} {what}: verify panicked", files[k]))
            .unwrap();
        assert!(
            !report.clean,
            "mutation {i}: {} {what}: verify found it clean",
            files[k]
        );
        std::fs::write(dir.join(files[k]), &originals[k]).unwrap();
    }
    assert!(tirage::verify::verify(&dir, None, &|_| {}).unwrap().clean);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A default deck of every game (specimen tickets: a few dozen, fast to verify).
#[test]
fn a_changed_deliverable_byte_of_a_deck_is_never_clean() {
    let t = tempfile::tempdir().unwrap();
    for (k, game) in ["coq_small", "poker_small", "pharaon_small"]
        .iter()
        .enumerate()
    {
        let base = t.path().join(game);
        deck(&repo(&format!("tests/specs/{game}.toml")), &base);
        mutate_block(t.path(), &base, iterations() / 2 + 1, 10 + k as u64);
    }
}

/// A production block (3000 tickets: fewer mutations, each verify takes longer).
#[test]
fn a_changed_deliverable_byte_of_a_block_is_never_clean() {
    let t = tempfile::tempdir().unwrap();
    let base = t.path().join("base");
    generate(&repo("tests/specs/coq_small.toml"), &base, 1);
    mutate_block(t.path(), &base, iterations() / 8 + 1, 2);
}
