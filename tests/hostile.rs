//! Hostile blocks and specs: what is not a regular file, sizes that lie, links planted in
//! a block, SHA256SUMS in a form tirage does not write, control characters: each is a
//! finding or a clear error, never a hang, an abort or an empty message.

mod common;
use common::*;
use std::path::Path;

fn block(t: &Path, name: &str) -> std::path::PathBuf {
    let b = t.join(name);
    generate(&repo("tests/specs/coq_small.toml"), &b, 1);
    b
}

fn verify_out(dir: &Path) -> (Option<i32>, String) {
    let o = tirage()
        .args(["verify", "--no-audit"])
        .arg(dir)
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr),
    )
}

/// Seals `dir` again after an edit: SHA256SUMS lists the files' new digests.
fn reseal(dir: &Path) {
    use sha2::{Digest, Sha256};
    let text = std::fs::read_to_string(dir.join("SHA256SUMS")).unwrap();
    let mut out = String::new();
    for l in text.lines() {
        let name = &l[66..];
        let bytes = std::fs::read(dir.join(name)).unwrap();
        out += &format!("{}  {name}\n", hex::encode(Sha256::digest(&bytes)));
    }
    std::fs::write(dir.join("SHA256SUMS"), out).unwrap();
}

#[test]
fn a_fifo_or_a_link_in_a_block_is_a_finding_not_a_hang() {
    let t = tempfile::tempdir().unwrap();
    let b = block(t.path(), "b");
    std::fs::remove_file(b.join("tickets.csv")).unwrap();
    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        b.join("tickets.csv"),
        rustix::fs::Mode::from_raw_mode(0o600),
    )
    .unwrap();
    let (code, out) = verify_out(&b);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("tickets.csv is listed but cannot be read: a FIFO, not a regular file"),
        "{out}"
    );
    let c = block(t.path(), "c");
    std::fs::remove_file(c.join("spec.toml")).unwrap();
    std::os::unix::fs::symlink(repo("tests/specs/coq_small.toml"), c.join("spec.toml")).unwrap();
    let (code, out) = verify_out(&c);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("cannot read spec.toml: a symbolic link, not a regular file"),
        "{out}"
    );
}

/// A manifest declaring 4294967295 tickets (resealed) is reported, with the memory of a
/// small block: nothing is reserved for tickets the print file does not hold, and the
/// replay does not run.
#[test]
fn a_declared_count_never_sizes_an_allocation() {
    let t = tempfile::tempdir().unwrap();
    let b = block(t.path(), "b");
    let p = b.join("manifest.json");
    let mut m: serde_json::Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
    m["tickets"] = 4294967295u32.into();
    std::fs::write(&p, serde_json::to_string_pretty(&m).unwrap() + "\n").unwrap();
    reseal(&b);
    let seed = t.path().join("seed");
    std::fs::write(&seed, SEED).unwrap();
    // 1 GiB of address space: far less than 4294967295 tickets would take.
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 1048576; exec \"$0\" verify --no-audit --threads 1 --seed-file \"$1\" \"$2\"")
        .arg(assert_cmd::cargo::cargo_bin("tirage"))
        .arg(&seed)
        .arg(&b)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        out.contains("tickets.bin holds 3000 records, the block has 4294967295 tickets"),
        "{out}"
    );
    assert!(out.contains("NOT RUN replay"), "{out}");
}

#[test]
fn render_never_writes_through_a_link_in_the_block() {
    let t = tempfile::tempdir().unwrap();
    let b = block(t.path(), "b");
    let elsewhere = t.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, b.join("proofs")).unwrap();
    let o = tirage()
        .arg("render")
        .arg(&b)
        .args(["--tickets", "1"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("is not a directory of the block (a link or a file)"),
        "{err}"
    );
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
    // A proof file that is a link is not written through either.
    std::fs::remove_file(b.join("proofs")).unwrap();
    std::fs::create_dir(b.join("proofs")).unwrap();
    let target = t.path().join("target.txt");
    std::fs::write(&target, "keep").unwrap();
    std::os::unix::fs::symlink(&target, b.join("proofs/ticket-1.svg")).unwrap();
    let o = tirage()
        .arg("render")
        .arg(&b)
        .args(["--tickets", "1"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep");
}

#[test]
fn sha256sums_in_another_form_is_a_finding() {
    let t = tempfile::tempdir().unwrap();
    let b = block(t.path(), "b");
    let text = std::fs::read_to_string(b.join("SHA256SUMS")).unwrap();
    for (k, bad) in [
        text.replace('\n', "\r\n"),
        text.replacen("  ", " *", 1),
        text.to_uppercase().replace("TICKETS", "tickets"),
        format!("{text}\n"),
    ]
    .into_iter()
    .enumerate()
    {
        let c = t.path().join(format!("c{k}"));
        copy_dir(&b, &c);
        std::fs::write(c.join("SHA256SUMS"), &bad).unwrap();
        let (code, out) = verify_out(&c);
        assert_eq!(code, Some(1), "{bad:?}: {out}");
        assert!(
            out.contains("is not in the canonical form"),
            "{bad:?}: {out}"
        );
    }
}

#[test]
fn a_crlf_header_shows_its_carriage_return() {
    let t = tempfile::tempdir().unwrap();
    let b = block(t.path(), "b");
    let p = b.join("tickets.csv");
    let text = std::fs::read_to_string(&p).unwrap();
    std::fs::write(&p, text.replacen('\n', "\r\n", 1)).unwrap();
    let (code, out) = verify_out(&b);
    assert_eq!(code, Some(1));
    assert!(out.contains("gain2_caption\\r\", expected"), "{out}");
}

#[test]
fn spec_errors_always_say_what_and_name_the_field() {
    let t = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(repo("tests/specs/coq_small.toml")).unwrap();
    let check = |name: &str, text: &str| {
        let p = t.path().join(name);
        std::fs::write(&p, text).unwrap();
        let o = tirage().arg("check").arg(&p).output().unwrap();
        assert_eq!(o.status.code(), Some(2));
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let err = check("nul.toml", &format!("# a comment\u{0}\n{text}"));
    assert!(
        err.contains("nul.toml:1: a control character \\u{0} (U+0000) is not allowed in a spec"),
        "{err}"
    );
    let err = check("esc.toml", &text.replacen("id = ", "id\u{1b}[2J = ", 1));
    assert!(err.contains("\\u{1b}"), "{err}");
    assert!(!err.contains('\u{1b}'), "{err}");
    let commented = text.replacen(
        "[[surfaces]]\n",
        "[[surfaces]] # the eight pastilles\nbogus_key = 1\n",
        1,
    );
    assert_ne!(commented, text);
    let err = check("comment.toml", &commented);
    assert!(
        err.contains(": surfaces[0].bogus_key: unknown field `bogus_key`"),
        "{err}"
    );
}
