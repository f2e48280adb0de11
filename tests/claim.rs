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
                format!("{serial}: NOT PAYABLE — a specimen deck's ticket; not a winning ticket\n")
            );
        } else {
            winners += 1;
            assert_eq!(status, 3, "{err}");
            assert_eq!(
                out,
                format!("{serial}: NOT PAYABLE — a specimen deck's ticket; it would win {prize} EUR (tier {prize} EUR, way {way})\n")
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
    // Production blocks (not test blocks, whose tickets are never paid).
    let seed = production_seed_file(t.path());
    let clear = t.path().join("clear");
    tirage()
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .arg("--validation-key")
        .arg(repo(VALIDATION_KEY))
        .arg("--seed-file")
        .arg(&seed)
        .args(["-q", "--out"])
        .arg(&clear)
        .assert()
        .success();
    let b = t.path().join("sealed");
    tirage()
        .args(["keygen", "--no-password", "--out"])
        .arg(t.path().join("op"))
        .assert()
        .success();
    tirage()
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .arg("--validation-key")
        .arg(repo(VALIDATION_KEY))
        .arg("--seed-file")
        .arg(&seed)
        .args(["-q", "--out"])
        .arg(&b)
        .arg("--sign")
        .arg(t.path().join("op.key"))
        .args(&args)
        .assert()
        .success();
    // The same seed and key: the clear block's rows and codes are the sealed one's.
    let rows = rows(&clear);
    let codes = codes(&clear);
    let id = t.path().join("central.key");
    let op = t.path().join("op.pub");
    let central = [
        "--identity",
        id.to_str().unwrap(),
        "--signer",
        op.to_str().unwrap(),
    ];
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
    // Block 2's first serial (its check digit right): the wrong block's file, a usage
    // error (exit 2), not a refusal of the ticket.
    let (s, out, err) = claim(&b, "17030010020000010011", &codes[w], &central);
    assert_eq!((s, out.as_str()), (2, ""));
    assert_eq!(err, format!("tirage: error: {}: serial 17030010020000010011 is of game 1703, emission 1, block 2; this file is of game 1703, emission 1, block 1: claim it from the validation file of the serial's block (its block directory, or the central system's bundle of it)\n", b.display()));
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
        &[
            "--identity",
            printer.to_str().unwrap(),
            "--signer",
            op.to_str().unwrap(),
        ],
    );
    assert_eq!(s, 2);
    assert_eq!(
        err,
        format!(
            "tirage: error: {}: no identity given opens it: it opens with the central system's identity (give it with --identity FILE)\n",
            b.join("validation.csv.age").display()
        )
    );
    let (s, _, err) = claim(
        &b,
        &rows[w][4],
        &codes[w],
        &["--signer", op.to_str().unwrap()],
    );
    assert_eq!(s, 2);
    assert_eq!(
        err,
        format!(
            "tirage: error: {}: encrypted, and no identity was given: it opens with the central system's identity (give it with --identity FILE)\n",
            b.join("validation.csv.age").display()
        )
    );
}

/// A deck (or block) with no signature, claimed under `--signer`: an error (exit 2) that
/// says it is not signed and what answers without a signature, never a raw file error.
#[test]
fn an_unsigned_directory_claimed_under_a_signer_is_said_unsigned() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path().join("deck");
    deck(&repo("tests/specs/coq_small.toml"), &d);
    let key = t.path().join("op");
    tirage()
        .args(["keygen", "--no-password", "--out"])
        .arg(&key)
        .assert()
        .success();
    let row = &rows(&d)[0];
    let code = &codes(&d)[0];
    let (s, out, err) = claim(
        &d,
        &row[4],
        code,
        &["--signer", t.path().join("op.pub").to_str().unwrap()],
    );
    assert_eq!((s, out.as_str()), (2, ""));
    assert_eq!(
        err,
        format!(
            "tirage: error: {}: missing: the block is not signed, so no answer can rest on --signer's key; look the claim up with --unauthenticated instead (answered NOT PAYABLE, never paid; a specimen deck needs neither)\n",
            d.join("SHA256SUMS.minisig").display()
        )
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
    let (s, _, err) = claim(&b, &rows[0][4], &codes[0], &["--unauthenticated"]);
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
    let (s, _, err) = claim(&b, &rows[0][4], &codes[0], &["--unauthenticated"]);
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
    let (s, _, err) = claim(&b, &rows[0][4], &codes[0], &["--unauthenticated"]);
    assert_eq!(s, 2);
    assert!(
        err.contains(&format!(
            "{}:7: the rows are not sorted by claim",
            path.display()
        )),
        "{err}"
    );
}

/// A holder of the block's directory makes a loser's row pay and writes the new digests
/// into SHA256SUMS and the manifest (anyone can compute them): with the operator's key the
/// signature fails (exit 2); without it, the manifest's record catches a validation file
/// changed alone, and an answer given on everything rewritten is not payable (exit 3, as
/// every winner answered without the signature, genuine or not: a script paying on exit 0
/// never pays one). With neither the key nor `--unauthenticated`, a production block gets
/// no answer.
#[test]
fn a_forged_prize_is_never_paid_under_the_operator_s_key() {
    use sha2::{Digest, Sha256};
    let t = tempfile::tempdir().unwrap();
    tirage()
        .args(["keygen", "--no-password", "--out"])
        .arg(t.path().join("other"))
        .assert()
        .success();
    let b = signed_small_block(t.path(), "b", true);
    let (rows, codes) = (rows(&b), codes(&b));
    let op = t.path().join("op.pub");
    let signer = ["--signer", op.to_str().unwrap()];
    let l = rows.iter().position(|r| r[5] == "0").unwrap();
    let w = rows.iter().position(|r| r[5] == "8").unwrap();
    let (serial, code) = (&rows[l][4], &codes[l]);

    // Genuine: the key's signature holds, the loser is no winner, nothing more is said.
    let (s, out, err) = claim(&b, serial, code, &signer);
    assert_eq!(
        (s, out),
        (1, format!("{serial}: not a winning ticket\n")),
        "{err}"
    );
    // Without the signature, the genuine winner is not payable (exit 3) and the loser is
    // no winner (exit 1), each answer saying why first.
    let unauthenticated =
        "NOT PAYABLE — unauthenticated: the operator's signature was not checked;";
    let (s, out, err) = claim(&b, &rows[w][4], &codes[w], &["--unauthenticated"]);
    assert_eq!(
        (s, out),
        (
            3,
            format!(
                "{}: {unauthenticated} it would win 8 EUR (tier 8 EUR, way {})\n",
                rows[w][4], rows[w][6]
            )
        ),
        "{err}"
    );
    let (s, out, err) = claim(&b, serial, code, &["--unauthenticated"]);
    assert_eq!(
        (s, out),
        (
            1,
            format!("{serial}: {unauthenticated} not a winning ticket\n")
        ),
        "{err}"
    );
    let (s, out, err) = claim(&b, &rows[w][4], &codes[w], &signer);
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
    // Neither the key nor --unauthenticated: no answer.
    let (s, out, err) = claim(&b, serial, code, &[]);
    assert_eq!(out, "");
    assert_eq!(
        (s, err),
        (2, format!("tirage: error: {}: a production block's answer rests on the operator's signature of SHA256SUMS: give --signer KEY.pub (the operator's public key as you hold it, not a copy from beside the files), or --unauthenticated for an answer that is not authenticated (never pay on it)\n", b.display()))
    );

    // The loser's row made to pay as the winner's way does; SHA256SUMS rewritten.
    let sha = |bytes: &[u8]| hex::encode(Sha256::digest(bytes));
    let path = b.join("validation.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    let claim_of = |serial: &str, code: &str| {
        hex::encode(tirage::output::validation_csv::claim(
            serial.as_bytes().try_into().unwrap(),
            code.parse().unwrap(),
        ))
    };
    let wanted = claim_of(serial, code);
    let winner_row = text
        .lines()
        .find(|r| r.starts_with(&claim_of(&rows[w][4], &codes[w])))
        .unwrap();
    let pays = winner_row.split_once(',').unwrap().1;
    let forged: String = text
        .lines()
        .map(|r| {
            if r.starts_with(&wanted) {
                format!("{wanted},{pays}\n")
            } else {
                format!("{r}\n")
            }
        })
        .collect();
    assert_ne!(forged, text);
    std::fs::write(&path, &forged).unwrap();
    let resum = |name: &str, digest: String| {
        let sums = std::fs::read_to_string(b.join("SHA256SUMS")).unwrap();
        let out: String = sums
            .lines()
            .map(|l| match l.split_once("  ") {
                Some((_, n)) if n == name => format!("{digest}  {name}\n"),
                _ => format!("{l}\n"),
            })
            .collect();
        std::fs::write(b.join("SHA256SUMS"), out).unwrap();
    };
    resum("validation.csv", sha(forged.as_bytes()));
    let (s, out, err) = claim(&b, serial, code, &signer);
    assert_eq!((s, out.as_str()), (2, ""));
    assert!(
        err.contains("SHA256SUMS.minisig: ") && err.contains("the signature does not hold"),
        "{err}"
    );
    let (s, out, err) = claim(&b, serial, code, &["--unauthenticated"]);
    assert_eq!((s, out.as_str()), (2, ""));
    assert_eq!(
        err,
        format!(
            "tirage: error: {}: its SHA-256 is {}; manifest.json records {}\n",
            path.display(),
            sha(forged.as_bytes()),
            sha(text.as_bytes())
        )
    );

    // The manifest's record rewritten too: only the signature stands in the way.
    let m = b.join("manifest.json");
    let manifest = std::fs::read_to_string(&m)
        .unwrap()
        .replace(&sha(text.as_bytes()), &sha(forged.as_bytes()));
    std::fs::write(&m, &manifest).unwrap();
    resum("manifest.json", sha(manifest.as_bytes()));
    let (s, _, err) = claim(&b, serial, code, &signer);
    assert_eq!(s, 2);
    assert!(err.contains("the signature does not hold"), "{err}");
    let (s, out, _) = claim(&b, serial, code, &["--unauthenticated"]);
    assert_eq!(
        (s, out),
        (
            3,
            format!(
                "{serial}: {unauthenticated} it would win 8 EUR (tier 8 EUR, way {})\n",
                rows[w][6]
            )
        )
    );
    // Another operator's key: named, with the one given.
    let other = t.path().join("other.pub");
    let (s, _, err) = claim(&b, serial, code, &["--signer", other.to_str().unwrap()]);
    assert_eq!(s, 2);
    assert!(err.contains("not by the key given"), "{err}");
}

/// A test block (made with a test seed: whoever knows it computes every code) is never
/// paid: its winner is refused (exit 3) and its loser is no winner (exit 1), each answer
/// saying it is a test block's ticket.
#[test]
fn a_test_block_s_ticket_is_never_paid() {
    let t = tempfile::tempdir().unwrap();
    let b = t.path().join("b");
    generate(&repo("tests/specs/coq_small.toml"), &b, 1);
    let (rows, codes) = (rows(&b), codes(&b));
    let w = rows.iter().position(|r| r[5] == "8").unwrap();
    let l = rows.iter().position(|r| r[5] == "0").unwrap();
    let test = "NOT PAYABLE — a TEST BLOCK's ticket (made with a test seed), never for sale;";
    let (s, out, err) = claim(&b, &rows[w][4], &codes[w], &["--unauthenticated"]);
    assert_eq!(
        (s, out),
        (
            3,
            format!(
                "{}: {test} it would win 8 EUR (tier 8 EUR, way {})\n",
                rows[w][4], rows[w][6]
            )
        ),
        "{err}"
    );
    let (s, out, _) = claim(&b, &rows[l][4], &codes[l], &["--unauthenticated"]);
    assert_eq!(
        (s, out),
        (1, format!("{}: {test} not a winning ticket\n", rows[l][4]))
    );
}

/// An emission is no block: claim names the block its serial is of (exit 2), or says the
/// emission holds no such block; package names one of its blocks (exit 2). A --signer key
/// read from the bundle it authenticates is refused (exit 2): whoever wrote the files
/// could have written it.
#[test]
fn an_emission_or_a_key_from_the_bundle_is_said() {
    let t = tempfile::tempdir().unwrap();
    let em = t.path().join("A");
    small_emission(&em);
    let said = format!(
        "tirage: error: {}: an emission, not a block: name one of its blocks ({})\n",
        em.display(),
        em.join("block-001").display()
    );
    let mut third = *b"1703001003000001001_";
    third[19] = tirage::block::serial::luhn_digit(&third[..19]);
    let third = std::str::from_utf8(&third).unwrap().to_string();
    for (serial, typed, answer) in [
        (
            "17030010010000010012",
            "17030010010000010012",
            format!("claim it from {}", em.join("block-001").display()),
        ),
        (
            "17030010020000010011",
            "1703 001 002 000001 001 1",
            format!("claim it from {}", em.join("block-002").display()),
        ),
        (
            third.as_str(),
            third.as_str(),
            "and the emission holds no block-003 (it holds block-001, block-002): the serial is of another emission, or mistyped".to_string(),
        ),
    ] {
        let (s, out, err) = claim(&em, typed, "1234567890123456789", &["--unauthenticated"]);
        let block = &serial[9..10];
        assert_eq!(
            (s, out.as_str(), err),
            (
                2,
                "",
                format!(
                    "tirage: error: {}: an emission, not a block: serial {serial} is of block {block}{} {answer}\n",
                    em.display(),
                    if answer.starts_with("claim") { ":" } else { "," }
                )
            )
        );
    }
    // Following the advice: block 2's serial is read in block 2 (a wrong code there).
    let (s, out, _) = claim(
        &em.join("block-002"),
        "17030010020000010011",
        "1234567890123456789",
        &["--unauthenticated"],
    );
    assert_eq!(s, 3);
    assert!(out.contains("refused: wrong code"), "{out}");
    let o = tirage()
        .arg("package")
        .arg(&em)
        .args(["--for", "central", "--signer", "op.pub", "--out"])
        .arg(t.path().join("bundle"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&o.stderr), said);

    let b = signed_small_block(t.path(), "b", true);
    let bundle = t.path().join("bundle");
    tirage()
        .arg("package")
        .arg(&b)
        .args(["--for", "central", "-q", "--signer"])
        .arg(t.path().join("op.pub"))
        .arg("--out")
        .arg(&bundle)
        .assert()
        .success();
    let (rows, codes) = (rows(&b), codes(&b));
    let inside = bundle.join(tirage::block::layout::PUBLIC_KEY);
    let (s, out, err) = claim(
        &bundle,
        &rows[0][4],
        &codes[0],
        &["--signer", inside.to_str().unwrap()],
    );
    assert_eq!(
        (s, out.as_str(), err),
        (
            2,
            "",
            format!(
                "tirage: error: --signer {}: that key lies in {}, the directory it is to authenticate: whoever wrote that directory could have written the key too, so a signature by it proves nothing; give the operator's public key as you hold it (the copy the operator gave you)\n",
                inside.display(),
                bundle.display()
            )
        )
    );
    // The key as the central system holds it: nothing to refuse.
    let (_, _, err) = claim(
        &bundle,
        &rows[0][4],
        &codes[0],
        &["--signer", t.path().join("op.pub").to_str().unwrap()],
    );
    assert_eq!(err, "");
}

/// The code read off standard input (`--code -`, a line ending in LF or CRLF) or from a
/// file (`--code-file`) gets the answer `--code C` gets; a file others can read is warned
/// of; an empty input, a second line, and both ways at once are errors (exit 2) that never
/// quote the code; `--help` says `--code C` is visible to other users.
#[test]
fn the_code_is_read_off_the_command_line() {
    use std::os::unix::fs::PermissionsExt;
    let t = tempfile::tempdir().unwrap();
    let d = t.path().join("deck");
    deck(&repo("tests/specs/coq_small.toml"), &d);
    let codes = codes(&d);
    let rows = rows(&d);
    let (serial, code) = (&rows[0][4], &codes[0]);
    let (status, want, _) = claim(&d, serial, code, &[]);
    assert!(status == 1 || status == 3, "{status}");
    let run = |args: &[&str], stdin: &str| {
        let o = tirage()
            .arg("claim")
            .arg(&d)
            .args(["--serial", serial])
            .args(args)
            .write_stdin(stdin)
            .output()
            .unwrap();
        (
            o.status.code().unwrap(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    for line in [format!("{code}\n"), format!("{code}\r\n"), code.clone()] {
        assert_eq!(
            run(&["--code", "-"], &line),
            (status, want.clone(), String::new())
        );
    }
    let f = t.path().join("code.txt");
    std::fs::write(&f, format!("{code}\n")).unwrap();
    std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o600)).unwrap();
    let file = f.to_str().unwrap();
    assert_eq!(
        run(&["--code-file", file], ""),
        (status, want.clone(), String::new())
    );
    std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o644)).unwrap();
    let (s, out, err) = run(&["--code-file", file], "");
    assert_eq!((s, out), (status, want.clone()));
    assert_eq!(
        err,
        format!("tirage: warning: the validation code file {file} is open to other users than its owner (mode 644): whoever can read it holds the secret; make it its owner's alone: chmod 600 {file}\n")
    );
    let errors = [
        (vec!["--code", "-"], String::new(), "standard input (--code -) is empty: expected one line, the validation code".to_string()),
        (vec!["--code", "-"], format!("{code}\n{code}\n"), "standard input (--code -) holds more than one line: expected one line, the validation code".to_string()),
        (vec!["--code", code, "--code-file", file], String::new(), "cannot be used with".to_string()),
        (vec![], String::new(), "--code".to_string()),
    ];
    for (args, stdin, msg) in errors {
        let (s, out, err) = run(&args, &stdin);
        assert_eq!((s, out.as_str()), (2, ""), "{args:?}: {err}");
        assert!(err.contains(&msg), "{args:?}: {err}");
        assert!(
            !err.contains(code.as_str()) || args.contains(&code.as_str()),
            "{err}"
        );
    }
    let help = tirage().args(["claim", "--help"]).output().unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    assert!(
        help.contains("visible to every user of this machine"),
        "{help}"
    );
}

/// The README's claim example reads a deck ticket's serial and code from its print file:
/// the code comes out as 19 digits for every code up to 10^19 - 1 (past 2^63 - 1, where
/// the shell's `printf %d` stops), and the whole example, run as pasted, gets ticket 1's
/// answer.
#[test]
fn the_readme_s_claim_example_reads_every_code() {
    let readme = std::fs::read_to_string(repo("README.md")).unwrap();
    let script = readme
        .split("here they are read from the deck's print file:\n\n```sh\n")
        .nth(1)
        .expect("README's claim example")
        .split("```")
        .next()
        .unwrap();
    let t = tempfile::tempdir().unwrap();
    // Its lines that read the header size and the code, on a print file whose ticket 1
    // holds the code.
    let reading: Vec<&str> = script
        .lines()
        .filter(|l| l.starts_with("H=") || l.starts_with("CODE="))
        .collect();
    assert!(reading.len() >= 2, "{script}");
    for (code, want) in [
        (42u64, "0000000000000000042"),
        (1 << 63, "9223372036854775808"),
        (9_552_826_013_972_442_700, "9552826013972442700"),
        (9_999_999_999_999_999_999, "9999999999999999999"),
    ] {
        let dir = t.path().join(code.to_string());
        std::fs::create_dir(&dir).unwrap();
        let h = 64usize;
        let mut bin = vec![0u8; h + 38];
        bin[12..16].copy_from_slice(&(h as u32).to_le_bytes());
        bin[h + 30..h + 38].copy_from_slice(&code.to_le_bytes());
        std::fs::write(dir.join("tickets.bin"), bin).unwrap();
        let sh = format!("{}\nprintf %s \"$CODE\"", reading.join("\n"))
            .replace("/tmp/coq-deck", dir.to_str().unwrap());
        let o = std::process::Command::new("sh")
            .arg("-c")
            .arg(&sh)
            .output()
            .unwrap();
        assert_eq!(
            (
                o.status.code(),
                String::from_utf8_lossy(&o.stdout).as_ref(),
                String::from_utf8_lossy(&o.stderr).as_ref()
            ),
            (Some(0), want, ""),
            "{sh}"
        );
    }
    // The whole example, its deck under the test's directory.
    let root = t.path().join("root");
    std::fs::create_dir(&root).unwrap();
    std::os::unix::fs::symlink(repo("game_specs"), root.join("game_specs")).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("tirage");
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap()
    );
    let d = root.join("coq-deck");
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg(script.replace("/tmp/coq-deck", d.to_str().unwrap()))
        .current_dir(&root)
        .env("PATH", &path)
        .output()
        .unwrap();
    let first = &rows(&d)[0];
    let (serial, prize, way) = (&first[4], &first[5], &first[6]);
    let (status, want) = if prize == "0" {
        (
            1,
            format!("{serial}: NOT PAYABLE — a specimen deck's ticket; not a winning ticket\n"),
        )
    } else {
        (
            3,
            format!("{serial}: NOT PAYABLE — a specimen deck's ticket; it would win {prize} EUR (tier {prize} EUR, way {way})\n"),
        )
    };
    assert_eq!(
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned()
        ),
        (Some(status), want),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// A validation file larger than the manifest records is refused once read to the bound
/// (the manifest's bytes and one more), never read whole: exit 2, naming the file.
#[test]
fn a_validation_file_larger_than_recorded_is_never_read_whole() {
    let t = tempfile::tempdir().unwrap();
    let b = t.path().join("b");
    generate(&repo("tests/specs/coq_small.toml"), &b, 1);
    let rows = rows(&b);
    let codes = codes(&b);
    let path = b.join("validation.csv");
    let bytes = std::fs::metadata(&path).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(bytes + (1 << 20))
        .unwrap();
    let (s, out, err) = claim(&b, &rows[0][4], &codes[0], &["--unauthenticated"]);
    assert_eq!((s, out.as_str()), (2, ""));
    assert_eq!(
        err,
        format!(
            "tirage: error: {}: it holds more than the {bytes} bytes manifest.json records\n",
            path.display()
        )
    );
}
