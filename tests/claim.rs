//! `tirage claim`: the central system's answer to "serial S with code C pays what?", from
//! the validation file alone (with the public manifest and SHA256SUMS beside it).

mod common;

use common::*;
use std::path::Path;

/// `tirage claim DIR --serial S --code C [extra…]`: exit code, stdout, stderr.
fn claim(dir: &Path, serial: &str, code: &str, extra: &[&str]) -> (i32, String, String) {
    let o = tirage()
        .arg("claim")
        .arg(dir)
        .args(["--serial", serial, "--code", code])
        .args(extra)
        .output()
        .unwrap();
    (
        o.status.code().unwrap(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The CSV rows of a block (header excluded), split into fields.
fn rows(dir: &Path) -> Vec<Vec<String>> {
    std::fs::read_to_string(dir.join("tickets.csv"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

/// QA scratches every ticket of a deck and asks: each answer is the ticket's prize and way
/// (tickets.csv), exit 3 (refused) for a winner and 1 for a loser, and says the deck is
/// never payable.
#[test]
fn qa_checks_every_scratched_deck_ticket() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path().join("deck");
    deck(&repo("tests/specs/coq_small.toml"), &d);
    let codes = codes(&d);
    let rows = rows(&d);
    let (mut winners, mut losers) = (0, 0);
    for (r, code) in rows.iter().zip(&codes) {
        let (serial, prize, way) = (&r[4], &r[5], &r[6]);
        let (status, out, err) = claim(&d, serial, code, &[]);
        if prize == "0" {
            losers += 1;
            assert_eq!(status, 1, "{err}");
            assert_eq!(
                out,
                format!(
                    "{serial}: not a winning ticket — a specimen deck's ticket, never payable\n"
                )
            );
        } else {
            winners += 1;
            assert_eq!(status, 3, "{err}");
            assert_eq!(
                out,
                format!("{serial}: pays {prize} EUR (tier {prize} EUR, way {way}) — a specimen deck's ticket, never payable\n")
            );
        }
        assert!(!out.contains(code.as_str()) && !err.contains(code.as_str()));
    }
    assert!(winners > 5 && losers > 0, "{winners} {losers}");
}

/// The central system holds validation.csv.age and its identity: a winner pays, a loser is
/// no winner; a wrong code, a serial of another block and a mistyped serial are refused
/// (exit 3); a serial or code of the wrong length is an error (exit 2); the printer's
/// identity opens nothing.
#[test]
fn the_central_system_answers_from_its_encrypted_file() {
    let t = tempfile::tempdir().unwrap();
    let mut args = Vec::new();
    for role in ["printer", "central", "auditor"] {
        let id = t.path().join(format!("{role}.key"));
        assert!(std::process::Command::new("age-keygen")
            .arg("-o")
            .arg(&id)
            .output()
            .expect("age-keygen (.ci/run installs age)")
            .status
            .success());
        let o = std::process::Command::new("age-keygen")
            .arg("-y")
            .arg(&id)
            .output()
            .unwrap();
        args.push("--recipient".to_string());
        args.push(format!(
            "{role}={}",
            String::from_utf8(o.stdout).unwrap().trim()
        ));
    }
    let clear = t.path().join("clear");
    generate(&repo("tests/specs/coq_small.toml"), &clear, 1);
    let b = t.path().join("sealed");
    tirage()
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .arg("--validation-key")
        .arg(repo(VALIDATION_KEY))
        .args(["--insecure-seed", "--seed", SEED, "-q", "--out"])
        .arg(&b)
        .args(&args)
        .assert()
        .success();
    // The same seed and key: the clear block's rows and codes are the sealed one's.
    let rows = rows(&clear);
    let codes = codes(&clear);
    let id = t.path().join("central.key");
    let central = ["--identity", id.to_str().unwrap()];
    let w = rows.iter().position(|r| r[5] == "8").unwrap();
    let l = rows.iter().position(|r| r[5] == "0").unwrap();
    let (s, out, err) = claim(&b, &rows[w][4], &codes[w], &central);
    assert_eq!(
        (s, out),
        (
            0,
            format!(
                "{}: pays 8 EUR (tier 8 EUR, way {})\n",
                rows[w][4], rows[w][6]
            )
        ),
        "{err}"
    );
    // Typed in groups, as printed.
    let grouped = format!(
        "{} {} {}",
        &codes[l][..6],
        &codes[l][6..12],
        &codes[l][12..]
    );
    let (s, out, _) = claim(&b, &rows[l][4], &grouped, &central);
    assert_eq!(
        (s, out),
        (1, format!("{}: not a winning ticket\n", rows[l][4]))
    );
    // The winner's code on another ticket, and a code one off: wrong code.
    let (s, out, _) = claim(&b, &rows[l][4], &codes[w], &central);
    assert_eq!(s, 3);
    assert!(out.contains("refused: wrong code"), "{out}");
    let mut off = codes[w].clone().into_bytes();
    off[18] = if off[18] == b'9' { b'0' } else { off[18] + 1 };
    let (s, _, _) = claim(
        &b,
        &rows[w][4],
        std::str::from_utf8(&off).unwrap(),
        &central,
    );
    assert_eq!(s, 3);
    // Block 2's first serial (its check digit right): no such ticket.
    let (s, out, _) = claim(&b, "17030010020000010011", &codes[w], &central);
    assert_eq!(s, 3);
    assert!(out.contains("refused: no such ticket in this block: it is of game 1703, emission 1, block 2; this file is of game 1703, emission 1, block 1"), "{out}");
    // A mistyped digit: the check digit says so.
    let mut typo = rows[w][4].clone().into_bytes();
    typo[12] = if typo[12] == b'9' { b'0' } else { typo[12] + 1 };
    let (s, out, _) = claim(&b, std::str::from_utf8(&typo).unwrap(), &codes[w], &central);
    assert_eq!(s, 3);
    let want = tirage::block::serial::luhn_digit(&typo[..19]) as char;
    assert!(
        out.contains(&format!(
            "its last digit, the check digit, is {}, but its first 19 digits call for {want}: a digit is mistyped, or the serial is not genuine",
            typo[19] as char
        )),
        "{out}"
    );
    // Errors, exit 2.
    let (s, _, err) = claim(&b, &rows[w][4][..19], &codes[w], &central);
    assert_eq!(s, 2);
    assert_eq!(err, "tirage: error: serial: expected 20 digits (spaces or dashes between them are fine), got 19 characters\n");
    let printer = t.path().join("printer.key");
    let (s, _, err) = claim(
        &b,
        &rows[w][4],
        &codes[w],
        &["--identity", printer.to_str().unwrap()],
    );
    assert_eq!(s, 2);
    assert!(
        err.contains("validation.csv.age: no identity given opens it"),
        "{err}"
    );
}

/// The file is checked before any answer: altered and resealed, a row whose prize is no
/// way's, or rows out of order, are errors naming the file and line.
#[test]
fn an_altered_validation_file_gets_no_answer() {
    let t = tempfile::tempdir().unwrap();
    let b = t.path().join("b");
    generate(&repo("tests/specs/coq_small.toml"), &b, 1);
    let rows = rows(&b);
    let codes = codes(&b);
    let path = b.join("validation.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    let reseal = |text: &str| {
        use sha2::{Digest, Sha256};
        std::fs::write(&path, text).unwrap();
        let sums = std::fs::read_to_string(b.join("SHA256SUMS")).unwrap();
        let out: String = sums
            .lines()
            .map(|l| {
                if l.ends_with("  validation.csv") {
                    format!(
                        "{}  validation.csv\n",
                        hex::encode(Sha256::digest(text.as_bytes()))
                    )
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        std::fs::write(b.join("SHA256SUMS"), out).unwrap();
    };
    // Altered, not resealed.
    std::fs::write(&path, text.replacen(",lose,0\n", ",2,2\n", 1)).unwrap();
    let (s, _, err) = claim(&b, &rows[0][4], &codes[0], &[]);
    assert_eq!(s, 2);
    assert!(
        err.contains("validation.csv: SHA-256") || err.contains("differs"),
        "{err}"
    );
    // A loser's row made to pay 20000 under way 2, resealed: no way of the lot table.
    let mut lines: Vec<&str> = text.lines().collect();
    let n = lines.iter().position(|l| l.ends_with(",lose,0")).unwrap();
    let forged = lines[n].replace(",lose,0", ",2,20000");
    lines[n] = &forged;
    reseal(&(lines.join("\n") + "\n"));
    let (s, _, err) = claim(&b, &rows[0][4], &codes[0], &[]);
    assert_eq!(s, 2);
    assert_eq!(
        err,
        format!(
            "tirage: error: {}:{}: way \"2\" with prize \"20000\" is no way of the lot table in manifest.json\n",
            path.display(),
            n + 1
        )
    );
    // Two rows swapped: out of order.
    let mut lines: Vec<&str> = text.lines().collect();
    lines.swap(5, 6);
    reseal(&(lines.join("\n") + "\n"));
    let (s, _, err) = claim(&b, &rows[0][4], &codes[0], &[]);
    assert_eq!(s, 2);
    assert!(
        err.contains(&format!(
            "{}:7: the rows are not sorted by claim",
            path.display()
        )),
        "{err}"
    );
}
