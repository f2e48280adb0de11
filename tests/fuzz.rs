//! Mutation fuzzing, bounded and reproducible: random edits of a spec's text, byte by byte
//! and value by value (never a panic; every error says what, with a field or a line, and no
//! internal marker; every mutant `check` accepts is generated in memory without a panic),
//! and of every file of a small block (never a panic; never clean once a deliverable byte
//! changed). The specs are the scaled-down ones of tests/specs/ and every example game. A
//! few seconds in `make test`; set `TIRAGE_FUZZ_ITERS=N` for N block mutations and about
//! 5·N spec mutants per spec (default 40), and `TIRAGE_FUZZ_SEED=n` for another sequence.
//! A failure prints the mutant; each one found becomes a named test (tests/hostile.rs).

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

/// Values a mutation writes in place of a `key = value`: amounts and counts at their
/// limits, bare decimals, the wrong type, empty text and containers.
const VALUES: &[&str] = &[
    "0",
    "1",
    "-1",
    "0.5",
    "4.555",
    "0.50000000000000001",
    "1e3",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "999_999_999",
    "\"\"",
    "\"4,50\"",
    "\"x\"",
    "[]",
    "[0]",
    "[1, 1]",
    "{}",
    "true",
    "nan",
    "inf",
];

/// One random edit of `text`'s lines: a `key = value` given another value from
/// [`VALUES`] (the whole value, or one element of an array), or a line deleted, doubled or
/// swapped with the next; `None` when the text has no such line.
fn mutate_value(r: &mut ChaCha8Rng, text: &str) -> Option<(String, String)> {
    let lines: Vec<&str> = text.lines().collect();
    if below(r, 4) == 0 && lines.len() > 2 {
        let i = below(r, lines.len() - 1);
        let mut out: Vec<&str> = lines.clone();
        let what = match below(r, 3) {
            0 => {
                out.remove(i);
                "deleted"
            }
            1 => {
                out.insert(i, lines[i]);
                "doubled"
            }
            _ => {
                out.swap(i, i + 1);
                "swapped with the next"
            }
        };
        return Some((out.join("\n") + "\n", format!("line {} {what}", i + 1)));
    }
    let keyed: Vec<usize> = (0..lines.len())
        .filter(|&i| {
            let l = lines[i].trim_start();
            !l.starts_with('#') && !l.starts_with('[') && l.contains(" = ")
        })
        .collect();
    if keyed.is_empty() {
        return None;
    }
    let i = keyed[below(r, keyed.len())];
    let (key, old) = lines[i].split_once(" = ").unwrap_or(("", ""));
    let value = VALUES[below(r, VALUES.len())];
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    // One element of a one-line array of scalars, else the whole value.
    let old = old.split(" #").next().unwrap_or(old).trim();
    let items: Option<Vec<&str>> = old
        .strip_prefix('[')
        .and_then(|o| o.strip_suffix(']'))
        .filter(|o| !o.contains(['[', '{', '"']) && !o.trim().is_empty())
        .map(|o| o.split(',').map(str::trim).collect());
    match items {
        Some(mut items) if below(r, 2) == 0 => {
            let k = below(r, items.len());
            items[k] = value;
            out[i] = format!("{key} = [{}]", items.join(", "));
            Some((out.join("\n") + "\n", format!("line {}: {}", i + 1, out[i])))
        }
        _ => {
            out[i] = format!("{key} = {value}");
            Some((
                out.join("\n") + "\n",
                format!("line {}: {key} = {value}", i + 1),
            ))
        }
    }
}

/// Every spec the suite mutates: the scaled-down ones and every example game.
fn specs() -> Vec<std::path::PathBuf> {
    let mut v = Vec::new();
    for d in ["tests/specs", "game_specs/examples"] {
        let mut here: Vec<_> = std::fs::read_dir(repo(d))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .collect();
        here.sort();
        v.extend(here);
    }
    v
}

/// Loads mutant `s` of `spec`: no panic; an error says what, names a field or a line, and
/// carries no internal marker; an accepted spec of at most `MAX_BUILT` tickets is built in
/// memory (block 1) without a panic. Returns true when the spec loads.
fn load_mutant(spec: &Path, s: &str, what: &str) -> bool {
    const MAX_BUILT: u32 = 5_000;
    let got = std::panic::catch_unwind(|| GameSpec::parse(spec, s.to_string()));
    let name = spec.display();
    match got {
        Err(_) => panic!("{name} mutant ({what}) panicked:\n{s}"),
        Ok(Err(e)) => {
            assert!(
                !e.message.trim().is_empty(),
                "{name} mutant ({what}): an error without a message: {e}"
            );
            assert!(
                !e.field.is_empty() || e.line.is_some(),
                "{name} mutant ({what}): an error naming neither field nor line: {e}"
            );
            assert!(
                !e.message.contains("tirage: "),
                "{name} mutant ({what}): an internal marker in the message: {e}"
            );
            false
        }
        Ok(Ok(g)) => {
            // `check` prints the spec (and estimates its pack law) without a panic.
            let dir = tempfile::tempdir().unwrap();
            let p = dir.path().join("mutant.toml");
            std::fs::write(&p, s).unwrap();
            let o = tirage().arg("check").arg(&p).output().unwrap();
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(
                matches!(o.status.code(), Some(0 | 2)) && !err.contains("panicked"),
                "{name} mutant ({what}): check exits {:?}: {err}\n{s}",
                o.status.code()
            );
            if g.block_size <= MAX_BUILT {
                let seed = tirage::crypto::rng::Seed::from_hex(SEED).unwrap();
                let built = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    let plan = tirage::generate::BlockPlan::production(&g, &seed, 1)?;
                    let mut digests = tirage::generate::Digests::default();
                    tirage::generate::build(&plan, &mut digests).map(|_| ())
                }));
                assert!(
                    built.is_ok(),
                    "{name} mutant ({what}): check accepts it, generating it panicked:\n{s}"
                );
            }
            true
        }
    }
}

#[test]
fn spec_mutants_never_panic_and_every_error_says_something() {
    let mut r = rng(1);
    let mut accepted = 0;
    let specs = specs();
    let per_spec = (iterations() * 5 * 3).div_ceil(specs.len() * 2).max(2);
    for path in &specs {
        let text = std::fs::read(path).unwrap();
        for i in 0..per_spec {
            // Half the mutants edit bytes, half write another value in a key's place.
            let (s, what) = if i % 2 == 0 {
                let mut b = text.clone();
                let mut what = Vec::new();
                for _ in 0..1 + below(&mut r, 3) {
                    what.push(mutate(&mut r, &mut b));
                }
                let Ok(s) = String::from_utf8(b) else {
                    continue; // load refuses it as not UTF-8 before parsing
                };
                (s, format!("{i}: {what:?}"))
            } else {
                let Some((s, what)) = mutate_value(&mut r, &String::from_utf8_lossy(&text)) else {
                    continue;
                };
                (s, format!("{i}: {what}"))
            };
            accepted += usize::from(load_mutant(path, &s, &what));
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
