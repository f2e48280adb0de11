//! The real binary on a small pharaon block (tests/specs/pharaon_small.toml, 2 000 tickets):
//! generate, then `tirage verify` must find it clean, and find an edited face; the CSV and
//! the print file of the fixed-seed block are pinned.

mod common;

use common::{copy_dir, generate, repo, tirage, verify_code};
use sha2::{Digest, Sha256};

fn sha256(path: &std::path::Path) -> String {
    hex::encode(Sha256::digest(std::fs::read(path).unwrap()))
}

#[test]
fn small_pharaon_block_generates_and_verifies_clean() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("block");
    generate(&repo("tests/specs/pharaon_small.toml"), &out, 2);
    let verify = tirage()
        .args(["verify", "--unauthenticated"])
        .arg(&out)
        .assert()
        .success();
    let report = String::from_utf8(verify.get_output().stdout.clone()).unwrap();
    assert!(report.contains("verify: CLEAN"), "{report}");
    // Golden digests of this fixed-seed block: rewrite only on purpose (a change of the
    // mechanic's draws, of the RNG contract or of a file format).
    assert_eq!(
        sha256(&out.join("tickets.csv")),
        "c612466e642ce03b56d0889bd1b1a705257a9fda86e6bd088e66a1eb5803c45c"
    );
    assert_eq!(
        sha256(&out.join("tickets.bin")),
        "b9288b7292664e9c9f50ab33e6f3086d72fb559b3e827559078dcce66426f7a2"
    );
}

#[test]
fn verify_finds_a_pedestal_edited_into_a_second_win() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("block");
    generate(&repo("tests/specs/pharaon_small.toml"), &out, 1);
    let bad = dir.path().join("bad");
    copy_dir(&out, &bad);
    // Rebuild OEIL on the first pedestal of the first losing ticket, in the CSV only.
    let csv = std::fs::read_to_string(bad.join("tickets.csv")).unwrap();
    let head: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = |name: &str| head.iter().position(|&h| h == name).unwrap();
    let (way, left, right) = (col("way"), col("j3_p1_left"), col("j3_p1_right"));
    let mut lines: Vec<String> = csv.lines().map(str::to_string).collect();
    let i = (1..lines.len())
        .find(|&i| lines[i].split(',').nth(way) == Some("lose"))
        .unwrap();
    let mut fields: Vec<&str> = lines[i].split(',').collect();
    fields[left] = "OEIL";
    fields[right] = "OEIL";
    lines[i] = fields.join(",");
    std::fs::write(bad.join("tickets.csv"), lines.join("\n") + "\n").unwrap();
    assert_eq!(verify_code(&bad), 1);
    assert_eq!(verify_code(&out), 0);
}
