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

/// A party's share (`seed new`) and its minisign key (`keygen`), in `dir`.
fn party(dir: &Path, name: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let share = dir.join(format!("{name}.share"));
    tirage()
        .args(["seed", "new", "--out"])
        .arg(&share)
        .assert()
        .success();
    tirage()
        .args(["keygen", "--no-password", "--out"])
        .arg(dir.join(name))
        .assert()
        .success();
    (share, dir.join(format!("{name}.key")))
}

/// `keygen` says who keeps each file for both uses of a key: the operator's (signing
/// blocks) and a ceremony party's (signing its commitment).
#[test]
fn keygen_says_what_the_key_is_for() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path().join("alice");
    let o = tirage()
        .args(["keygen", "--no-password", "--out"])
        .arg(&p)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let said = stderr(&o);
    let id = &said["key ".len()..][..16];
    let p = p.display();
    assert_eq!(
        said,
        format!(
            "key {id}: secret key {p}.key (mode 0600) and public key {p}.pub.\n\
             - if it is the operator's key (generate --sign): the operator keeps {p}.key; give {p}.pub to the printer, the central system and the auditors;\n\
             - if it is a seed ceremony party's key (seed commit --sign): the party keeps {p}.key, apart from its share; publish {p}.pub with its commitment, for everyone who checks the ceremony\n"
        )
    );
}

/// `seed commit SHARE --spec SPEC --blocks RANGE [--sign KEY]`: its line.
fn commit(share: &Path, spec: &str, blocks: &str, key: Option<&Path>) -> String {
    let mut c = tirage();
    c.args(["seed", "commit"])
        .arg(share)
        .arg("--spec")
        .arg(repo(spec))
        .args(["--blocks", blocks]);
    if let Some(k) = key {
        c.arg("--sign").arg(k);
    }
    let out = c.output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `generate SPEC --block(s) … --seed-share A --seed-share B --commitments FILE [extra]`.
fn generate(
    spec: &str,
    blocks: &[&str],
    shares: &[&Path],
    commitments: &Path,
    extra: &[&str],
    out: &Path,
) -> std::process::Output {
    let mut c = tirage();
    c.arg("generate")
        .arg(repo(spec))
        .args(blocks)
        .arg("--validation-key")
        .arg(repo(VALIDATION_KEY))
        .arg("--commitments")
        .arg(commitments)
        .args(extra)
        .args(["-q", "--out"])
        .arg(out);
    for s in shares {
        c.arg("--seed-share").arg(s);
    }
    c.output().unwrap()
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const COQ: &str = "tests/specs/coq_small.toml";
const BEACON: &str = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

/// The attack: one ceremony's shares and commitments made blocks 1, 2, 3 and a pharaon
/// block. Commitments now bind the game, emission, spec and blocks: the ceremony for blocks
/// 1..3 of coq makes those (alone or as an emission) and nothing else — not block 4, not
/// another game's block, not another emission, not the same game under an edited spec.
#[test]
fn one_ceremony_makes_the_blocks_it_names_and_no_other() {
    let d = tempfile::tempdir().unwrap();
    let (a, _) = party(d.path(), "alice");
    let (b, _) = party(d.path(), "bob");
    let published = d.path().join("commitments.txt");
    std::fs::write(
        &published,
        commit(&a, COQ, "1..3", None) + &commit(&b, COQ, "1..3", None),
    )
    .unwrap();
    let shares = [a.as_path(), b.as_path()];
    let ok = generate(
        COQ,
        &["--block", "2"],
        &shares,
        &published,
        &[],
        &d.path().join("b2"),
    );
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
    let em = generate(
        COQ,
        &["--blocks", "1..3"],
        &shares,
        &published,
        &[],
        &d.path().join("em"),
    );
    assert_eq!(em.status.code(), Some(0), "{}", stderr(&em));

    let refused = d.path().join("refused");
    let b4 = generate(COQ, &["--block", "4"], &shares, &published, &[], &refused);
    assert_eq!(b4.status.code(), Some(2));
    assert!(
        stderr(&b4).contains("it binds blocks 1 to 3, not block 4"),
        "{}",
        stderr(&b4)
    );
    let wider = generate(
        COQ,
        &["--blocks", "2..4"],
        &shares,
        &published,
        &[],
        &refused,
    );
    assert!(
        stderr(&wider).contains("not blocks 2 to 4"),
        "{}",
        stderr(&wider)
    );
    let pharaon = generate(
        "tests/specs/pharaon_small.toml",
        &["--block", "1"],
        &shares,
        &published,
        &[],
        &refused,
    );
    assert_eq!(pharaon.status.code(), Some(2));
    assert!(
        stderr(&pharaon).contains("it binds game code"),
        "{}",
        stderr(&pharaon)
    );
    // The same game, another emission; the same game and emission, its spec edited.
    let text = std::fs::read_to_string(repo(COQ)).unwrap();
    let other_emission = d.path().join("coq_e2.toml");
    std::fs::write(
        &other_emission,
        text.replacen("emission = 1", "emission = 2", 1),
    )
    .unwrap();
    let edited = d.path().join("coq_edited.toml");
    std::fs::write(
        &edited,
        format!("{text}\n# edited after the shares were seen\n"),
    )
    .unwrap();
    for (spec, says) in [
        (&other_emission, "it binds emission 1, not 2"),
        (&edited, "it binds the spec of SHA-256"),
    ] {
        let out = generate(
            spec.to_str().unwrap(),
            &["--block", "1"],
            &shares,
            &published,
            &[],
            &refused,
        );
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(stderr(&out).contains(says), "{}", stderr(&out));
    }
    assert!(!refused.exists());
    // A commitment of the earlier, unbound form: refused, and the line is never quoted.
    let unbound = d.path().join("unbound.txt");
    let v1 = format!("tirage-share/1:{}:{}\n", "11".repeat(16), "22".repeat(32));
    std::fs::write(&unbound, v1.repeat(2)).unwrap();
    let out = generate(COQ, &["--block", "1"], &shares, &unbound, &[], &refused);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("binds no game, emission or block"),
        "{}",
        stderr(&out)
    );
    assert!(!stderr(&out).contains(&"22".repeat(32)));
    // A share given where the commitments file goes: refused, and never printed.
    let out = generate(COQ, &["--block", "1"], &shares, &a, &[], &refused);
    assert_eq!(out.status.code(), Some(2));
    let share = std::fs::read_to_string(&a).unwrap();
    assert!(
        stderr(&out).contains("line 1: expected a share commitment"),
        "{}",
        stderr(&out)
    );
    assert!(!stderr(&out).contains(share.trim()), "{}", stderr(&out));
}

/// Parties sign their commitments; the manifest records the published lines with the
/// signers' keys; `verify --commitments` holds the manifest to the published file and
/// catches a block made from another ceremony; a signature moved to other blocks is refused.
#[test]
fn signed_commitments_are_recorded_and_verified_against_the_published_file() {
    let d = tempfile::tempdir().unwrap();
    let (a, ka) = party(d.path(), "alice");
    let (b, kb) = party(d.path(), "bob");
    let published = d.path().join("commitments.txt");
    let lines = commit(&a, COQ, "1", Some(&ka)) + &commit(&b, COQ, "1", Some(&kb));
    std::fs::write(&published, &lines).unwrap();
    let alice_pub = std::fs::read_to_string(d.path().join("alice.pub")).unwrap();
    let alice_pub = alice_pub.lines().nth(1).unwrap();
    assert!(lines
        .lines()
        .next()
        .unwrap()
        .contains(&format!(" minisign:{alice_pub}:")));
    // minisign alone checks a signed line, as docs/FORMAT.md shows.
    let first = lines.lines().next().unwrap();
    let (commitment, signed) = first.split_once(" minisign:").unwrap();
    let [key, sig, global]: [&str; 3] = signed.split(':').collect::<Vec<_>>().try_into().unwrap();
    std::fs::write(d.path().join("c.txt"), commitment).unwrap();
    std::fs::write(
        d.path().join("c.txt.minisig"),
        format!("untrusted comment: x\n{sig}\ntrusted comment: {commitment}\n{global}\n"),
    )
    .unwrap();
    let checked = std::process::Command::new("minisign")
        .arg("-Vm")
        .arg(d.path().join("c.txt"))
        .arg("-P")
        .arg(key)
        .output()
        .expect("minisign is installed (.ci/run)");
    assert!(
        checked.status.success(),
        "{}",
        String::from_utf8_lossy(&checked.stderr)
    );
    let blk = d.path().join("blk");
    let out = generate(COQ, &["--block", "1"], &[&a, &b], &published, &[], &blk);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(blk.join("manifest.json")).unwrap()).unwrap();
    let recorded: Vec<&str> = lines.lines().collect();
    assert_eq!(m["seed_shares"], serde_json::json!(recorded));

    let verify = |commitments: &Path| {
        let out = tirage()
            .args(["verify", "--unauthenticated", "-q", "--json", "--no-audit"])
            .arg(&blk)
            .arg("--commitments")
            .arg(commitments)
            .output()
            .unwrap();
        let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let said = r["authenticated"]["ceremony"]
            .as_str()
            .unwrap_or("")
            .to_string();
        (
            out.status.code().unwrap(),
            common::check_result(&r, "ceremony"),
            said,
        )
    };
    let (code, (result, _), said) = verify(&published);
    assert_eq!((code, result.as_str()), (0, "pass"));
    assert_eq!(
        said,
        "seed made of 2 shares, held against the published commitments"
    );
    // Another ceremony's commitments (the operator published one set and used another).
    let (c, kc) = party(d.path(), "carol");
    let other = d.path().join("other.txt");
    std::fs::write(
        &other,
        commit(&c, COQ, "1", Some(&kc)) + &commit(&b, COQ, "1", Some(&kb)),
    )
    .unwrap();
    let (code, (result, details), said) = verify(&other);
    assert_eq!((code, result.as_str()), (1, "fail"));
    assert_eq!(
        said,
        "seed made of 2 shares: NOT those of the published commitments"
    );
    assert!(details.iter().any(|d| d.contains("seed share commitment 1 of the manifest is not the published one")), "{details:?}");
    assert!(details.iter().any(|d| d.contains("seed share commitment 2 of the manifest is not the published one")), "{details:?}");
    // The published lines in the other order.
    let swapped = d.path().join("swapped.txt");
    std::fs::write(&swapped, format!("{}\n{}\n", recorded[1], recorded[0])).unwrap();
    let (code, (_, details), _) = verify(&swapped);
    assert_eq!(code, 1);
    assert!(
        details
            .iter()
            .any(|d| d.contains("is published at place 2")),
        "{details:?}"
    );
    // A signed line edited to name other blocks: its signature no longer holds.
    let moved = d.path().join("moved.txt");
    std::fs::write(&moved, lines.replacen(":1-1:", ":1-9:", 1)).unwrap();
    let out = generate(
        COQ,
        &["--block", "1"],
        &[&a, &b],
        &moved,
        &[],
        &d.path().join("x"),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("line 1: its signature does not hold"),
        "{}",
        stderr(&out)
    );
}

/// A beacon published after the commitments is mixed into the seed: the same shares with
/// another beacon give another seed (so no party that knew the other shares when it
/// committed could aim the outcome without knowing the beacon); the manifest records it;
/// the replay needs it; `verify --beacon` catches a manifest recording another.
#[test]
fn the_beacon_is_mixed_in_recorded_and_checked() {
    let d = tempfile::tempdir().unwrap();
    let (a, _) = party(d.path(), "alice");
    let (b, _) = party(d.path(), "bob");
    let published = d.path().join("commitments.txt");
    std::fs::write(
        &published,
        commit(&a, COQ, "1", None) + &commit(&b, COQ, "1", None),
    )
    .unwrap();
    let shares = [a.as_path(), b.as_path()];
    let (one, two, none) = (
        d.path().join("one"),
        d.path().join("two"),
        d.path().join("none"),
    );
    let other = "00".repeat(31) + "01";
    for (out, extra) in [
        (&one, vec!["--beacon", BEACON]),
        (&two, vec!["--beacon", other.as_str()]),
        (&none, vec![]),
    ] {
        let o = generate(COQ, &["--block", "1"], &shares, &published, &extra, out);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    let manifest = |dir: &Path| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap()
    };
    assert_eq!(manifest(&one)["seed_beacon"], BEACON);
    assert!(manifest(&none).get("seed_beacon").is_none());
    let seeds: HashSet<String> = [&one, &two, &none]
        .iter()
        .map(|d| manifest(d)["seed_commitment"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(seeds.len(), 3);
    let csv = |dir: &Path| std::fs::read(dir.join("tickets.csv")).unwrap();
    assert_ne!(csv(&one), csv(&two));

    let verify = |extra: &[&str]| {
        let out = tirage()
            .args(["verify", "--unauthenticated", "-q", "--json", "--no-audit"])
            .arg(&one)
            .arg("--validation-key")
            .arg(repo(VALIDATION_KEY))
            .arg("--seed-share")
            .arg(&a)
            .arg("--seed-share")
            .arg(&b)
            .args(extra)
            .output()
            .unwrap();
        let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (out.status.code().unwrap(), r)
    };
    let (code, r) = verify(&["--beacon", BEACON]);
    assert_eq!(code, 0, "{r:#}");
    assert_eq!(common::check_result(&r, "replay").0, "pass");
    assert_eq!(common::check_result(&r, "ceremony").0, "pass");
    assert_eq!(
        r["authenticated"]["ceremony"],
        "seed made of 2 shares and a beacon, held against the published beacon"
    );
    let (code, r) = verify(&[]);
    assert_eq!(code, 1);
    let (_, details) = common::check_result(&r, "replay");
    assert!(
        details
            .iter()
            .any(|d| d.contains("give it (--beacon) to replay")),
        "{details:?}"
    );
    let (code, r) = verify(&["--beacon", &other]);
    assert_eq!(code, 1);
    let (result, details) = common::check_result(&r, "ceremony");
    assert_eq!(result, "fail");
    assert!(
        details.iter().any(|d| d.contains("not the published one")),
        "{details:?}"
    );
}

/// A secret given as the beacon (the validation key's text, a share's, or part of one, in
/// any case) is refused before anything is made, and never printed: the beacon is
/// written in the public manifest.json.
#[test]
fn a_secret_given_as_the_beacon_is_refused_unprinted() {
    let d = tempfile::tempdir().unwrap();
    let (a, _) = party(d.path(), "alice");
    let (b, _) = party(d.path(), "bob");
    let published = d.path().join("commitments.txt");
    std::fs::write(
        &published,
        commit(&a, COQ, "1", None) + &commit(&b, COQ, "1", None),
    )
    .unwrap();
    let shares = [a.as_path(), b.as_path()];
    let key = std::fs::read_to_string(repo(VALIDATION_KEY)).unwrap();
    let key = key.trim();
    let share = std::fs::read_to_string(&b).unwrap();
    let share = share.trim().to_string();
    let out = d.path().join("out");
    for (beacon, option) in [
        (
            key.to_string(),
            format!("--validation-key {}", repo(VALIDATION_KEY).display()),
        ),
        (
            key.to_uppercase(),
            format!("--validation-key {}", repo(VALIDATION_KEY).display()),
        ),
        (
            share[..32].to_string(),
            format!("--seed-share {}", b.display()),
        ),
        (
            format!("00{share}00"),
            format!("--seed-share {}", b.display()),
        ),
    ] {
        let o = generate(
            COQ,
            &["--block", "1"],
            &shares,
            &published,
            &["--beacon", &beacon],
            &out,
        );
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert_eq!(
            stderr(&o),
            format!("tirage: error: --beacon holds the secret of {option} (or part of it): the beacon is public, written in manifest.json; give the public value fixed after the commitments (a draw result, a randomness beacon's output); nothing was done\n")
        );
        assert!(!stderr(&o).to_lowercase().contains(&share[..32]));
        assert!(!out.exists());
    }
}
