//! A block's signature is read as the `minisign` command reads it: whatever `minisign -V`
//! refuses, `verify` calls a finding, and the reverse, so that anyone holding the public
//! key gets the same verdict with `minisign` alone.

mod common;
use common::*;
use std::path::Path;

/// True when `minisign -V` accepts `sig` as the signature of `sums` by `key`.
fn minisign_accepts(key: &Path, sums: &Path, sig: &Path) -> bool {
    std::process::Command::new("minisign")
        .args(["-q", "-V", "-p"])
        .arg(key)
        .arg("-m")
        .arg(sums)
        .arg("-x")
        .arg(sig)
        .output()
        .expect("minisign runs")
        .status
        .success()
}

#[test]
fn verify_and_minisign_agree_on_every_signature_file() {
    if std::process::Command::new("minisign")
        .arg("-v")
        .output()
        .is_err()
    {
        eprintln!("skipped: the minisign command is not installed");
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let b = signed_small_block(t.path(), "b", true);
    let key = t.path().join("op.pub");
    let sig_path = b.join("SHA256SUMS.minisig");
    let good = std::fs::read_to_string(&sig_path).unwrap();
    let lines: Vec<&str> = good.lines().collect();
    assert_eq!(lines.len(), 4, "{good}");
    let join = |l: [&str; 4], tail: &str| format!("{}\n{}\n{}\n{}{tail}", l[0], l[1], l[2], l[3]);
    let [l0, l1, l2, l3] = [lines[0], lines[1], lines[2], lines[3]];
    let (s1, s2, s3) = (format!("{l1} "), format!("{l2}  "), format!("{l3}\t"));
    // (what, the file, whether minisign accepts it)
    let cases: Vec<(&str, String, bool)> = vec![
        ("as written", good.clone(), true),
        ("no last line feed", join([l0, l1, l2, l3], ""), true),
        ("lines after", join([l0, l1, l2, l3], "\n\n\nmore\n"), true),
        ("CRLF", good.replace('\n', "\r\n"), true),
        (
            "last line feed a vertical tab",
            join([l0, l1, l2, l3], "\x0b"),
            false,
        ),
        (
            "signature line ends with a space",
            join([l0, &s1, l2, l3], "\n"),
            false,
        ),
        (
            "trusted comment ends with spaces",
            join([l0, l1, &s2, l3], "\n"),
            false,
        ),
        (
            "global signature ends with a tab",
            join([l0, l1, l2, &s3], "\n"),
            false,
        ),
        (
            "global signature ends with a space",
            format!("{}\n{}\n{}\n{l3} \n", l0, l1, l2),
            false,
        ),
        ("a blank line first", format!("\n{good}"), false),
        (
            "a blank line after the comment",
            format!("{l0}\n\n{l1}\n{l2}\n{l3}\n"),
            false,
        ),
    ];
    for (what, text, accepted) in cases {
        std::fs::write(&sig_path, &text).unwrap();
        let sums = b.join("SHA256SUMS");
        assert_eq!(
            minisign_accepts(&key, &sums, &sig_path),
            accepted,
            "minisign, {what}"
        );
        let o = tirage()
            .args(["verify", "--no-audit", "-q", "--signer"])
            .arg(&key)
            .arg(&b)
            .output()
            .unwrap();
        let expected = if accepted { 0 } else { 1 };
        assert_eq!(
            o.status.code(),
            Some(expected),
            "tirage, {what}: {}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
    }
}
