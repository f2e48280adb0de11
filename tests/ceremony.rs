//! The seed ceremony and the generations of a block, through the real binary: a block made
//! again under the same validation key gets codes of its own; commitments bind the game,
//! the emission and the blocks; the beacon; verify against the published commitments.

mod common;

use common::{codes, repo, tirage, VALIDATION_KEY};
use std::collections::HashSet;
use std::path::Path;

/// A second test seed (never a production seed).
const OTHER_SEED: &str = "0f1e2d3c4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff1";

/// Block `block` of the small coq spec from `seed` under the test validation key.
fn block_from(seed: &str, block: u32, out: &Path) {
    tirage()
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .arg("--validation-key")
        .arg(repo(VALIDATION_KEY))
        .args(["--insecure-seed", "--seed", seed, "-q", "--block"])
        .arg(block.to_string())
        .arg("--out")
        .arg(out)
        .assert()
        .success();
}

/// The claims of a block's `validation.csv` (its first column).
fn claims(dir: &Path) -> HashSet<String> {
    std::fs::read_to_string(dir.join("validation.csv"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap().to_string())
        .collect()
}

/// The attack: block 1 is made again from another seed under the same validation key, and
/// the earlier generation's `validation.csv` is loaded by mistake. No code of the new print
/// run is a code of the earlier one (for any serial), so no claim of one is a claim of the
/// other; and block 2 of either generation shares no code with block 1 of the other.
#[test]
fn a_block_made_again_has_codes_no_earlier_generation_had() {
    let d = tempfile::tempdir().unwrap();
    let (old, new, two) = (
        d.path().join("old"),
        d.path().join("new"),
        d.path().join("two"),
    );
    block_from(common::SEED, 1, &old);
    block_from(OTHER_SEED, 1, &new);
    block_from(OTHER_SEED, 2, &two);
    let (a, b, c) = (codes(&old), codes(&new), codes(&two));
    assert_eq!(a.len(), b.len());
    assert!(a.len() >= 1000, "{} tickets", a.len());
    let earlier: HashSet<&String> = a.iter().collect();
    assert!(b.iter().all(|code| !earlier.contains(code)));
    assert!(c.iter().all(|code| !earlier.contains(code)));
    let all: HashSet<&String> = a.iter().chain(&b).chain(&c).collect();
    assert_eq!(all.len(), a.len() + b.len() + c.len());
    assert!(claims(&old).is_disjoint(&claims(&new)));
}
