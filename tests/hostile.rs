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

/// The header size and the record size of the print file `bin` (FORMAT.md: a u32 at byte
/// 12, a u16 at byte 10).
fn layout(bin: &[u8]) -> (usize, usize) {
    let head = u32::from_le_bytes(bin[12..16].try_into().unwrap()) as usize;
    (head, usize::from(u16::from_le_bytes([bin[10], bin[11]])))
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

/// A manifest whose game differs from spec.toml in two fields (resealed) names each field
/// with both values.
#[test]
fn a_manifests_game_field_that_differs_is_named_with_both_values() {
    let t = tempfile::tempdir().unwrap();
    let b = block(t.path(), "b");
    let path = b.join("manifest.json");
    let mut m: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(m["game"]["reconstructed"], false);
    m["game"]["reconstructed"] = true.into();
    m["game"]["game_code"] = 999.into();
    std::fs::write(&path, serde_json::to_vec_pretty(&m).unwrap()).unwrap();
    reseal(&b);
    let (code, report) = verify_json(&b);
    assert_eq!(code, 1);
    let (result, details) = check_result(&report, "manifest");
    assert_eq!(result, "fail");
    let code = tirage::spec::GameSpec::load(&repo("tests/specs/coq_small.toml"))
        .unwrap()
        .game_code;
    assert_eq!(
        details,
        [
            "game.reconstructed is true, where spec.toml gives false".to_string(),
            format!("game.game_code is 999, where spec.toml gives {code}"),
        ]
    );
}

/// A regular file SHA256SUMS lists that is none of a block's files is said to be not read,
/// not that it cannot be read.
#[test]
fn a_listed_file_that_is_no_block_file_is_said_not_read() {
    use sha2::{Digest, Sha256};
    let t = tempfile::tempdir().unwrap();
    let b = block(t.path(), "b");
    std::fs::write(b.join("notes.txt"), "hello\n").unwrap();
    let mut sums = std::fs::read_to_string(b.join("SHA256SUMS")).unwrap();
    sums += &format!("{}  notes.txt\n", hex::encode(Sha256::digest(b"hello\n")));
    std::fs::write(b.join("SHA256SUMS"), sums).unwrap();
    let (code, report) = verify_json(&b);
    assert_eq!(code, 1);
    let (result, details) = check_result(&report, "sha256sums");
    assert_eq!(result, "fail");
    assert!(
        details.contains(
            &"notes.txt is listed but is none of a block's files, so it was not read".to_string()
        ),
        "{details:?}"
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
        out.contains("tickets.bin holds 3,000 records, the block has 4,294,967,295 tickets"),
        "{out}"
    );
    assert!(out.contains("NOT RUN replay"), "{out}");
}

#[test]
fn render_never_writes_through_a_link_beside_the_block() {
    let t = tempfile::tempdir().unwrap();
    let b = block(t.path(), "b");
    let elsewhere = t.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    let proofs = t.path().join("b.proofs");
    std::os::unix::fs::symlink(&elsewhere, &proofs).unwrap();
    let o = tirage()
        .arg("render")
        .arg(&b)
        .args(["--tickets", "1"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("b.proofs is not a directory (a link or a file)"),
        "{err}"
    );
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
    // A proof file that is a link is not written through either.
    std::fs::remove_file(&proofs).unwrap();
    std::fs::create_dir(&proofs).unwrap();
    let target = t.path().join("target.txt");
    std::fs::write(&target, "keep").unwrap();
    std::os::unix::fs::symlink(&target, proofs.join("ticket-1.svg")).unwrap();
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
fn one_bad_sha256sums_line_is_the_only_finding() {
    let t = tempfile::tempdir().unwrap();
    let b = block(t.path(), "b");
    let mut text = std::fs::read_to_string(b.join("SHA256SUMS")).unwrap();
    let bad = format!("{}  ../../../../etc/hostname\n", "0".repeat(64));
    text += &bad;
    std::fs::write(b.join("SHA256SUMS"), &text).unwrap();
    let (code, out) = verify_out(&b);
    assert_eq!(code, Some(1), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("FAIL    sha256sums "))
        .expect(&out);
    assert_eq!(
        lines[at + 1..at + 4],
        [
            "        1 finding(s); first:".to_string(),
            format!(
                "          SHA256SUMS: line 6 is not in the canonical form: {bad:?} (expected 64 lowercase hex digits, two spaces, a file name, a line feed)"
            ),
            "PASS    manifest           manifest.json parses; its file sizes, digests, counts and totals agree with the files and the spec, and the folder's name gives no other block number".to_string(),
        ],
        "{out}"
    );
}

#[test]
fn a_number_beyond_toml_says_its_field_range() {
    let t = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(repo("tests/specs/coq_small.toml")).unwrap();
    let huge = "18446744073709551615";
    let spec = edit(&text, "block_size = 3_000", &format!("block_size = {huge}"));
    let (code, err) = check_spec(t.path(), "size.toml", &spec);
    assert_eq!(code, Some(2));
    assert_eq!(
        err,
        format!(
            "tirage: error: {}:{}: game.block_size: invalid value: integer `{huge}`, expected a whole number from 0 to 4,294,967,295\n",
            t.path().join("size.toml").display(),
            line_of(&spec, "block_size = ")
        )
    );
    let spec = edit(&text, "\"4\" = 250", &format!("\"4\" = {huge}"));
    let (code, err) = check_spec(t.path(), "weights.toml", &spec);
    assert_eq!(code, Some(2));
    assert_eq!(
        err,
        format!(
            "tirage: error: {}:{}: surfaces[0].games[0].decoy_weights.4: invalid value: integer `{huge}`, expected a whole number from 0 to 4,294,967,295\n",
            t.path().join("weights.toml").display(),
            line_of(&spec, &format!("\"4\" = {huge}"))
        )
    );
}

/// A game code or emission past the serial's digits, below 0 or not a number is refused
/// with one range, the one the serial gives, whatever the number's size.
#[test]
fn a_game_code_or_emission_out_of_range_says_the_serial_s_range() {
    let t = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(repo("tests/specs/coq_small.toml")).unwrap();
    let code = "expected a whole number from 0 to 9,999 (the serial's four game code digits)";
    let emission = "expected a whole number from 0 to 999 (the serial's three emission digits)";
    for (from, to, field, said) in [
        (
            "game_code = 1703",
            "game_code = 10000",
            "game_code",
            format!("invalid value: integer `10000`, {code}"),
        ),
        (
            "game_code = 1703",
            "game_code = -1",
            "game_code",
            format!("invalid value: integer `-1`, {code}"),
        ),
        (
            "game_code = 1703",
            "game_code = 70000",
            "game_code",
            format!("invalid value: integer `70000`, {code}"),
        ),
        (
            "game_code = 1703",
            "game_code = \"x\"",
            "game_code",
            format!("invalid type: string \"x\", {code}"),
        ),
        (
            "emission = 1",
            "emission = 1000",
            "emission",
            format!("invalid value: integer `1000`, {emission}"),
        ),
        (
            "emission = 1",
            "emission = -1",
            "emission",
            format!("invalid value: integer `-1`, {emission}"),
        ),
    ] {
        let spec = edit(&text, from, to);
        let (status, err) = check_spec(t.path(), "g.toml", &spec);
        assert_eq!(status, Some(2), "{to}");
        assert_eq!(
            err,
            format!(
                "tirage: error: {}:{}: game.{field}: {said}\n",
                t.path().join("g.toml").display(),
                line_of(&spec, to)
            )
        );
    }
}

#[test]
fn an_out_that_is_a_link_to_nothing_is_said_so() {
    let t = tempfile::tempdir().unwrap();
    let b = block(t.path(), "b");
    let link = t.path().join("dangling");
    let nowhere = t.path().join("nowhere");
    std::os::unix::fs::symlink(&nowhere, &link).unwrap();
    let said = format!(
        "tirage: error: {} is a symbolic link to nothing ({}), which will not be followed: nothing was written; remove it, or give another path\n",
        link.display(),
        nowhere.display()
    );
    for args in [
        vec!["seed".into(), "new".into(), "--out".into(), link.clone()],
        vec![
            "render".into(),
            b.clone(),
            "--tickets".into(),
            "1".into(),
            "--out".into(),
            link.clone(),
        ],
    ] {
        let o = tirage().args(&args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&o.stderr), said, "{args:?}");
        assert!(!nowhere.exists());
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

/// `tirage check` on `text` written as `dir/name`: exit code and stderr.
fn check_spec(dir: &Path, name: &str, text: &str) -> (Option<i32>, String) {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    let o = tirage().arg("check").arg(&p).output().unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// `text` with its first `from` replaced by `to` (which must be there).
fn edit(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "{from:?} not in the spec");
    text.replacen(from, to, 1)
}

/// 1-based line of the first line of `text` that starts with `start`.
fn line_of(text: &str, start: &str) -> usize {
    text.lines().position(|l| l.starts_with(start)).unwrap() + 1
}

/// Checks that `check` refuses spec `text`, written as `file` in `dir`, with exit 2 and a
/// first line of error `said` at the line of `text` that starts with `start`.
fn refused_at(dir: &Path, file: &str, text: &str, start: &str, said: &str) {
    let (code, err) = check_spec(dir, file, text);
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(
        err.lines().next().unwrap(),
        format!(
            "tirage: error: {}:{}: {said}",
            dir.join(file).display(),
            line_of(text, start)
        )
    );
}

/// A table header with a name no spec has (`[[tier]]` for `[[tiers]]`, `[surface]`) is
/// refused at its own line, listing the tables a spec may hold, though TOML's parser stops
/// lines further on; an array left open is refused at its own line; a key with no `=`
/// names its field.
#[test]
fn spec_syntax_slips_are_refused_at_their_own_line() {
    let t = tempfile::tempdir().unwrap();
    let tiny = std::fs::read_to_string(repo("tests/specs/coq_tiny.toml")).unwrap();
    let tables = "expected one of [game], [published], [captions], [symbol_captions], [packs], [[tiers]], [labels], [[surfaces]], [[shared]], [signing], [box]";
    let bad = edit(&tiny, "[[tiers]]", "[[tier]]");
    refused_at(
        t.path(),
        "a.toml",
        &bad,
        "[[tier]]",
        &format!("tier: [[tier]] names no table of a spec: {tables}"),
    );
    let bad = edit(&tiny, "[[surfaces]]", "[surface]   # the grid");
    refused_at(
        t.path(),
        "b.toml",
        &bad,
        "[surface]",
        &format!("surface: [surface] names no table of a spec: {tables}"),
    );
    let bad = edit(&tiny, "amounts = [2, 4,", "amounts = [2, 4\n 8,");
    let at = line_of(&bad, "amounts = [2, 4") + 1;
    refused_at(
        t.path(),
        "d.toml",
        &bad,
        "amounts = [2, 4",
        &format!("surfaces[0].games[0].amounts: the array opened here runs into line {at}: a `,` between two of its values, or its closing `]`, is missing"),
    );
    // A trailing comma: the parser stops at the next table's header.
    let bad = edit(&tiny, "wins = [20000]", "wins = [20000,");
    let next = bad
        .lines()
        .enumerate()
        .skip(line_of(&bad, "wins = [20000,"))
        .find(|(_, l)| l.starts_with('['))
        .unwrap()
        .0
        + 1;
    refused_at(
        t.path(),
        "e.toml",
        &bad,
        "wins = [20000,",
        &format!("tiers[0].ways[0].wins: the array opened here runs into line {next}: a `,` between two of its values, or its closing `]`, is missing"),
    );
    // At the end of the file.
    let cut = &tiny[..tiny.rfind("wins = [").unwrap()];
    let bad = format!("{cut}wins = [2\n");
    let (code, err) = check_spec(t.path(), "f.toml", &bad);
    assert_eq!(code, Some(2));
    assert_eq!(
        err.lines().next().unwrap(),
        format!(
            "tirage: error: {}:{}: tiers[3].ways[0].wins: the array opened here runs to the end of the file: its closing `]` is missing",
            t.path().join("f.toml").display(),
            bad.lines().count()
        )
    );
    // A value of the wrong type inside a multi-line array is the value's error.
    let bad = edit(&tiny, "amounts = [2, 4,", "amounts = [2, 4,\n  \"x\",");
    refused_at(
        t.path(),
        "g.toml",
        &bad,
        "amounts = [2, 4,",
        "surfaces[0].games[0].amounts[2]: `x` is not an amount (expected digits with at most 2 decimals, e.g. 20000, 4.5 or 4,50)",
    );
    // A table in the other form.
    let bad = edit(&tiny, "[game]", "[[game]]");
    refused_at(
        t.path(),
        "h.toml",
        &bad,
        "[[game]]",
        "game: [[game]] is written [game]: a spec has one such table",
    );
    let bad = tiny.replace("[[tiers]]", "[tiers]");
    refused_at(
        t.path(),
        "i.toml",
        &bad,
        "[tiers]",
        "tiers: [tiers] is written [[tiers]], one header for each of its entries",
    );
    let bad = edit(&tiny, "[[tiers.ways]]", "[tiers.ways]");
    refused_at(
        t.path(),
        "i2.toml",
        &bad,
        "[tiers.ways]",
        "tiers.ways: [tiers.ways] is written [[tiers.ways]], one header for each of its entries",
    );
    // A list's first entry with one bracket, or its last: the parser stops at the later
    // header as a duplicate key; the one-bracket line is named.
    let games = "surfaces.games: [surfaces.games] is written [[surfaces.games]], one header for each of its entries";
    assert_eq!(tiny.matches("[[surfaces.games]]").count(), 2);
    let bad = edit(&tiny, "[[surfaces.games]]", "[surfaces.games]");
    refused_at(t.path(), "i3.toml", &bad, "[surfaces.games]", games);
    let last = tiny.rfind("[[surfaces.games]]").unwrap();
    let bad = format!(
        "{}[surfaces.games]{}",
        &tiny[..last],
        &tiny[last + "[[surfaces.games]]".len()..]
    );
    refused_at(t.path(), "i4.toml", &bad, "[surfaces.games]", games);
    let bad = edit(&tiny, "price = 2 ", "price 2 ");
    refused_at(
        t.path(),
        "c.toml",
        &bad,
        "price 2",
        "game.price: expected `=` between the key price and its value",
    );
    // A table written as dotted keys before the first header (valid TOML, which the
    // parser fails on with words about "a borrowed string").
    let bad = format!(
        "# A comment.\npublished.lots = 5\npublished.payout = 21_010\n{}",
        tiny.replace("[published]               # art. 3, last line of the lot table\nlots = 5\npayout = 21_010\n", "")
    );
    refused_at(
        t.path(),
        "j.toml",
        &bad,
        "published.lots",
        "published.lots: a table's keys are written under its header: [published], then lots = …, on a line of its own (tirage does not read a table written as dotted keys)",
    );
    let quoted = bad.replace("published.lots", "'published' . lots");
    refused_at(
        t.path(),
        "k.toml",
        &quoted,
        "'published' . lots",
        "'published' . lots: a table's keys are written under its header: [published], then lots = …, on a line of its own (tirage does not read a table written as dotted keys)",
    );
    // A first part the check does not read (an escape in it): still said in words.
    let escaped = bad.replace("published.", "\"pub\\u006cished\".");
    let (code, err) = check_spec(t.path(), "m.toml", &escaped);
    assert_eq!(code, Some(2));
    assert!(
        err.contains(":2: ")
            && err.contains("tirage does not read a table written as dotted keys")
            && !err.contains("borrowed"),
        "{err}"
    );
    // One key whose name holds a dot is no table's: an unknown field.
    let one = format!("\"published.lots\" = 5\n{tiny}");
    let (code, err) = check_spec(t.path(), "l.toml", &one);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("unknown field `published.lots`") && !err.contains("written under its header"),
        "{err}"
    );
}

/// Bare decimals load wherever an amount is (a surface's `amounts`, `max`), and an amount
/// error names the whole path of the field and the line it is on.
#[test]
fn a_bare_decimal_is_an_amount_everywhere_and_its_errors_name_field_and_line() {
    let t = tempfile::tempdir().unwrap();
    let tiny = std::fs::read_to_string(repo("tests/specs/coq_tiny.toml")).unwrap();
    let ok = edit(&tiny, "amounts = [2, 4,", "amounts = [2, 4, 4.5,");
    let ok = edit(
        &ok,
        "\"4\" = \"QUATRE EUROS\"",
        "\"4\" = \"QUATRE EUROS\"\n\"4.5\" = \"QUATRE EUROS CINQUANTE\"",
    );
    let ok = edit(
        &ok,
        "cell_prefix = \"s\"",
        "cell_prefix = \"s\"\nmax = 20_000.00",
    );
    let (code, err) = check_spec(t.path(), "ok.toml", &ok);
    assert_eq!(code, Some(0), "{err}");

    let bad = edit(&tiny, "amounts = [2, 4,", "amounts = [2, 4.555,");
    let line = line_of(&bad, "amounts = [2, 4.555");
    let (code, err) = check_spec(t.path(), "a.toml", &bad);
    assert_eq!(code, Some(2));
    assert_eq!(
        err,
        format!("tirage: error: {}:{line}: surfaces[0].games[0].amounts[1]: `4.555` has more than 2 decimals\n", t.path().join("a.toml").display())
    );
    let bad = edit(&tiny, "amounts = [2, 4,", "amounts = [2, -4.5,");
    let (_, err) = check_spec(t.path(), "a.toml", &bad);
    assert!(
        err.ends_with(&format!(":{line}: surfaces[0].games[0].amounts[1]: `-4.5` is not an amount (expected digits with at most 2 decimals, e.g. 20000, 4.5 or 4,50)\n")),
        "{err}"
    );
    let bad = edit(
        &tiny,
        "cell_prefix = \"s\"",
        "cell_prefix = \"s\"\nmax = \"lots\"",
    );
    let (_, err) = check_spec(t.path(), "a.toml", &bad);
    assert!(
        err.ends_with(&format!(":{}: surfaces[0].max: expected an amount: `lots` is not an amount (expected digits with at most 2 decimals, e.g. 20000, 4.5 or 4,50)\n", line_of(&bad, "max = "))),
        "{err}"
    );
    // A pay legend's amount, in an inline table of a nested game: the whole path.
    let fete = std::fs::read_to_string(repo("game_specs/examples/fete_foraine.toml")).unwrap();
    let bad = edit(&fete, "BALLON = 2 }", "BALLON = 2.555 }");
    let (_, err) = check_spec(t.path(), "a.toml", &bad);
    assert!(
        err.ends_with(&format!(
            ":{}: surfaces[1].games[0].legend.BALLON: `2.555` has more than 2 decimals\n",
            line_of(&bad, "legend = ")
        )),
        "{err}"
    );
    let ok = edit(&fete, "BALLON = 2 }", "BALLON = 2.0 }");
    assert_eq!(check_spec(t.path(), "ok.toml", &ok).0, Some(0));
    // Rounded by a float, 4.50000000000000001 would read as 4.5: refused, never rounded.
    let bad = edit(
        &tiny,
        "amounts = [2, 4,",
        "amounts = [2, 4.50000000000000001,",
    );
    let (_, err) = check_spec(t.path(), "a.toml", &bad);
    assert!(
        err.ends_with(&format!(":{line}: surfaces[0].games[0].amounts: 4.50000000000000001 has more significant digits than a number keeps (15): write it shorter (an amount has at most 2 decimals)\n")),
        "{err}"
    );
}

/// Field paths keep every level of nested tables, on the key's own line; tiers and ways are
/// named by their amount and id as the lot table prints them.
#[test]
fn spec_errors_keep_the_whole_path_and_name_tiers_as_printed() {
    let t = tempfile::tempdir().unwrap();
    let tiny = std::fs::read_to_string(repo("tests/specs/coq_tiny.toml")).unwrap();
    let bad = edit(&tiny, "near_miss = 0.30", "near_mis = 0.30");
    let (code, err) = check_spec(t.path(), "a.toml", &bad);
    assert_eq!(code, Some(2));
    assert!(
        err.contains(&format!(
            ":{}: surfaces[0].games[0].near_mis: unknown field `near_mis`, expected one of ",
            line_of(&bad, "near_mis =")
        )),
        "{err}"
    );
    // The second game: index 1, its own line.
    let bad = edit(
        &tiny,
        "id = \"jeu2\"\nmatch = 2",
        "id = \"jeu2\"\nmatch = 2\nboxx = 1",
    );
    let (_, err) = check_spec(t.path(), "a.toml", &bad);
    assert!(
        err.contains(&format!(
            ":{}: surfaces[0].games[1].boxx: unknown field `boxx`",
            line_of(&bad, "boxx =")
        )),
        "{err}"
    );
    let bad = edit(&tiny, "amount = 4\ncount = 2", "amount = 4\ncount = 0");
    let (_, err) = check_spec(t.path(), "a.toml", &bad);
    assert!(
        err.ends_with(&format!(
            ":{}: tiers[2].count (amount 4): expected at least 1 lot\n",
            line_of(&bad, "count = 0")
        )),
        "{err}"
    );
    let bad = edit(&tiny, "id = \"4\"\ncount = 2", "id = \"4\"\ncount = 1");
    let (_, err) = check_spec(t.path(), "a.toml", &bad);
    assert!(
        err.ends_with(
            ": tiers[2].ways (amount 4): the ways' counts sum to 1, expected the tier's count 2\n"
        ),
        "{err}"
    );
    let bad = edit(&tiny, "wins = [500, 500]", "wins = [500, 400]");
    let (_, err) = check_spec(t.path(), "a.toml", &bad);
    assert!(
        err.ends_with(&format!(":{}: tiers[1].ways[0].wins (amount 1000, way \"500+500\"): 500 + 400 adds up to 900, expected the tier's amount 1000\n", line_of(&bad, "id = \"500+500\"") - 1)),
        "{err}"
    );
}

/// A spec too large, an empty play area name, a grid with no line, captions that read
/// alike, a box listing an amount twice or more amounts than it can show: each message
/// names the field and says what to do.
#[test]
fn spec_messages_say_what_is_wrong_and_what_to_do() {
    let t = tempfile::tempdir().unwrap();
    let big = t.path().join("big.toml");
    std::fs::write(&big, "#".repeat(5 << 20)).unwrap();
    let o = tirage().arg("check").arg(&big).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!("tirage: error: {}: cannot read the spec: it is larger than 4 MiB, the most a spec may hold (a spec is a few kilobytes: is this the right file?)\n", big.display())
    );

    let morpion = std::fs::read_to_string(repo("game_specs/examples/morpion.toml")).unwrap();
    let bad = edit(&morpion, "rows = 3\ncols = 3", "rows = 1\ncols = 1");
    let (code, err) = check_spec(t.path(), "a.toml", &bad);
    assert_eq!(code, Some(2));
    assert!(
        err.ends_with(&format!(":{}: surfaces[0].rows: a 1×1 grid has no line of 2 cells: expected at least 2 rows or 2 columns\n", line_of(&bad, "rows ="))),
        "{err}"
    );
    let bad = edit(&morpion, "rows = 3\n", "rows = 3\narea = \"\"\n");
    let (_, err) = check_spec(t.path(), "a.toml", &bad);
    assert!(
        err.ends_with(&format!(":{}: surfaces[0].area: \"\" is not a play area name: expected ASCII letters, digits or _ (or leave `area` out: the play area is then named \"morpion\", the surface's id)\n", line_of(&bad, "area ="))),
        "{err}"
    );

    let tiny = std::fs::read_to_string(repo("tests/specs/coq_tiny.toml")).unwrap();
    let bad = edit(&tiny, "\"4\" = \"QUATRE EUROS\"", "\"4\" = \"deux Euros\"");
    let (_, err) = check_spec(t.path(), "a.toml", &bad);
    assert!(
        err.ends_with(": captions.\"4\": caption \"deux Euros\" reads as the caption of 2 (\"DEUX EUROS\"): two amounts may not share a caption, whatever the case, spacing or script of its letters\n"),
        "{err}"
    );

    let plus_haut = std::fs::read_to_string(repo("game_specs/examples/plus_haut.toml")).unwrap();
    let bad = edit(
        &plus_haut,
        "box_amounts = [1, 2, 5,",
        "box_amounts = [1, 2, 5, 2,",
    );
    let (_, err) = check_spec(t.path(), "a.toml", &bad);
    assert!(
        err.ends_with(&format!(
            ":{}: surfaces[0].box_amounts: 2 is listed twice\n",
            line_of(&bad, "box_amounts")
        )),
        "{err}"
    );
    let cash = std::fs::read_to_string(repo("game_specs/examples/cash.toml")).unwrap();
    let bad = edit(
        &cash,
        "amounts = [1, 2, 5, 50, 100]",
        "amounts = [1, 2, 5, 50, 100, 1]",
    );
    let (_, err) = check_spec(t.path(), "a.toml", &bad);
    assert!(
        err.ends_with(": surfaces[0].amounts: 1 is listed twice\n"),
        "{err}"
    );
    let triple = std::fs::read_to_string(repo("game_specs/examples/triple_montant.toml")).unwrap();
    let bad = edit(&triple, "amounts = [1, 2, 5,", "amounts = [1, 2, 5, 5,");
    let (_, err) = check_spec(t.path(), "a.toml", &bad);
    assert!(
        err.ends_with(&format!(
            ":{}: surfaces[0].amounts: 5 is listed twice\n",
            line_of(&bad, "amounts = ")
        )),
        "{err}"
    );
    // 256 winning amounts and the 0 of a losing box are 257 amounts a box would show.
    let many: Vec<String> = (1..=256).map(|a| a.to_string()).collect();
    let captions: String = (1..=256)
        .filter(|a| ![1, 2, 5, 50, 100].contains(a))
        .map(|a| format!("\"{a}\" = \"C{a}\"\n"))
        .collect();
    let bad = edit(
        &cash,
        "amounts = [1, 2, 5, 50, 100]",
        &format!("amounts = [{}]", many.join(", ")),
    );
    let bad = edit(&bad, "[captions]\n", &format!("[captions]\n{captions}"));
    // With the 0's caption, 257 captions: more than a face codes.
    let (_, err) = check_spec(t.path(), "a.toml", &bad);
    assert!(
        err.ends_with(":18: captions: 257 captions: at most 256 in all (a face codes a caption in one byte)\n"),
        "{err}"
    );
    // Without it, the box's own limit.
    let bad = edit(&bad, "\"0\" = \"ZERO EURO\"\n", "");
    let (_, err) = check_spec(t.path(), "a.toml", &bad);
    assert!(
        err.ends_with(": surfaces[0].amounts: 256 amounts: at most 255 (a box shows at most 256, the 0 of a losing box included)\n"),
        "{err}"
    );
}

/// A CSV file saved with CRLF line ends is said so once, its carriage returns shown, never
/// as thousands of rows that look empty.
#[test]
fn crlf_line_ends_are_said_once() {
    let t = tempfile::tempdir().unwrap();
    for name in ["validation.csv", "tickets.csv"] {
        let b = block(t.path(), name);
        let p = b.join(name);
        let text = std::fs::read_to_string(&p).unwrap();
        let rows = text.lines().count() - 1;
        std::fs::write(&p, text.replace('\n', "\r\n")).unwrap();
        let (code, out) = verify_out(&b);
        assert_eq!(code, Some(1), "{out}");
        let header = text.lines().next().unwrap();
        assert!(
            out.contains(&format!(
                "{name} header \"{header}\\r\", expected \"{header}\" (CRLF line ends)"
            )),
            "{out}"
        );
        assert!(
            out.contains(&format!("{name} has CRLF line ends ({} rows end with \"\\r\\n\"; tirage writes \"\\n\"): the file was saved by a program that changes line ends (a spreadsheet, an editor, a transfer in text mode); use the file as delivered", tirage::money::grouped(rows as u64))),
            "{out}"
        );
        assert!(!out.contains("(in claim order): \n"), "{out}");
    }
}

/// Found by the fuzz suite: `zones = 4294967295` in a card_hands surface named four billion
/// zones before the count was checked (an allocation of 100 GB, an abort). Refused first.
#[test]
fn a_huge_zone_count_is_refused_before_anything_is_sized_by_it() {
    let t = tempfile::tempdir().unwrap();
    let spec = std::fs::read_to_string(repo("game_specs/examples/trois_mains.toml")).unwrap();
    let bad = edit(
        &spec,
        "zone_ids = [\"m1\", \"m2\", \"m3\"]",
        "zones = 4294967295",
    );
    let (code, err) = check_spec(t.path(), "a.toml", &bad);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.ends_with(&format!(
            ":{}: surfaces[0].zones: 4294967295 zones; expected 1 to 6\n",
            line_of(&bad, "zones = ")
        )),
        "{err}"
    );
}

/// Two ways no face can tell apart are named with the line of the second one.
#[test]
fn ways_a_face_cannot_tell_apart_name_the_line_of_the_second() {
    let t = tempfile::tempdir().unwrap();
    let tiny = std::fs::read_to_string(repo("tests/specs/coq_tiny.toml")).unwrap();
    let bad = edit(
        &tiny,
        "id = \"4\"\ncount = 2\nwins = [4]",
        "id = \"4\"\ncount = 1\nwins = [4]\n[[tiers.ways]]\nid = \"4b\"\ncount = 1\nwins = [4]",
    );
    let (code, err) = check_spec(t.path(), "a.toml", &bad);
    assert_eq!(code, Some(2), "{err}");
    let line = line_of(&bad, "id = \"4b\"") - 1;
    assert!(
        err.ends_with(&format!(":{line}: ways \"4\" and \"4b\": same winning amounts: give both fixed areas (`areas = [...]`) so a face tells them apart\n")),
        "{err}"
    );
}

/// Special symbols of match_symbols a player could misread, or no way wins by, are refused
/// with the file's line and the field.
#[test]
fn match_symbols_specials_that_cannot_work_name_the_line_and_the_field() {
    let t = tempfile::tempdir().unwrap();
    let spec = std::fs::read_to_string(repo("game_specs/examples/lingot_banque.toml")).unwrap();
    let lingot = "{ symbol = \"LINGOT\", kind = \"auto_win\", caption = \"GAGNE\" },";
    let bad = edit(
        &spec,
        lingot,
        "{ symbol = \"PIE_CE\", kind = \"auto_win\", area = \"or_lingot\" },",
    );
    let (code, err) = check_spec(t.path(), "a.toml", &bad);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.ends_with(&format!(":{}: surfaces[0].specials[0].symbol: special symbol \"PIE_CE\", which reads as the symbol \"PIECE\" (surfaces[0].symbols): a player could not tell them apart (case, spaces, _ - ., leading zeros, O for 0, I for 1 and look-alike letters of other scripts aside); write them so that they read differently\n", line_of(&bad, "specials = ["))),
        "{err}"
    );
    let bad = edit(
        &spec,
        lingot,
        &format!("{lingot}\n  {{ symbol = \"TRESOR\", kind = \"win_all\" }},"),
    );
    let (code, err) = check_spec(t.path(), "a.toml", &bad);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.ends_with(&format!(":{}: surfaces[0]: surface \"or\": specials (\"TRESOR\") never applies: no way wins in its play area « or_tresor » (`areas`), so no face shows it\n", line_of(&bad, "[[surfaces]]"))),
        "{err}"
    );
    let bad = edit(
        &spec,
        "{ symbol = \"BANQUE\", kind = \"win_all\", caption = \"GAGNE TOUT\" },",
        "{ symbol = \"BANQUE\", kind = \"auto_win\" },",
    );
    // The line of the second surface's `specials`.
    let second = bad
        .lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with("specials = ["))
        .nth(1)
        .unwrap()
        .0
        + 1;
    let (code, err) = check_spec(t.path(), "a.toml", &bad);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.ends_with(&format!(":{second}: surfaces[1].specials: \"BANQUE\" is an auto-win symbol, which wins the amount in a box, and 2 play areas have one (bq_cerise, bq_fruit): an auto-win needs a surface with one box\n")),
        "{err}"
    );
}

/// Special symbols of match_amounts that cannot work are refused with the file's line and
/// the field: an auto-win (no amount under a symbol here), a special without a caption, a
/// special no way wins by.
#[test]
fn match_amounts_specials_that_cannot_work_name_the_line_and_the_field() {
    let t = tempfile::tempdir().unwrap();
    let spec = std::fs::read_to_string(repo("game_specs/examples/double_montant.toml")).unwrap();
    let (x2, sac) = (
        "{ symbol = \"2X\", kind = \"multiplier\", times = 2, caption = \"DOUBLE\" },",
        "{ symbol = \"SAC\", kind = \"win_all\", caption = \"GAGNE TOUT\" },",
    );
    let line = line_of(&spec, "specials = [");
    for (from, to, said) in [
        (
            sac,
            "{ symbol = \"SAC\", kind = \"auto_win\", caption = \"GAGNE\" },",
            "\"SAC\" is an auto-win, and a match_amounts cell shows no amount under a symbol for \
             it to win: use kind = \"multiplier\" (times = N, the match's win N times) or kind = \
             \"win_all\" (every amount shown, added up)",
        ),
        (
            x2,
            "{ symbol = \"2X\", kind = \"multiplier\", times = 2 },",
            "\"2X\" has no caption: a match_amounts cell prints a caption under what it shows; \
             give it `caption`",
        ),
    ] {
        let (code, err) = check_spec(t.path(), "a.toml", &edit(&spec, from, to));
        assert_eq!(code, Some(2), "{err}");
        assert!(
            err.ends_with(&format!(":{line}: surfaces[0].specials: {said}\n")),
            "{err}"
        );
    }
    let bad = edit(
        &spec,
        x2,
        &format!("{x2}\n  {{ symbol = \"5X\", kind = \"multiplier\", times = 5, caption = \"CINQ FOIS\" }},"),
    );
    let (code, err) = check_spec(t.path(), "a.toml", &bad);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.ends_with(&format!(
            ":{}: surfaces[0]: surface \"dm\": specials (\"5X\") never applies: no way wins in \
             its play area « dm_5x » (`areas`), so no face shows it\n",
            line_of(&bad, "[[surfaces]]")
        )),
        "{err}"
    );
}

/// Spot multipliers of lines that cannot work are refused with the file's line and the
/// field: `times` below 2, a decoy share with no multiplier, a multiplier no way wins by.
#[test]
fn lines_multipliers_that_cannot_work_name_the_line_and_the_field() {
    let t = tempfile::tempdir().unwrap();
    let spec = std::fs::read_to_string(repo("game_specs/examples/morpion_double.toml")).unwrap();
    let x2 = "{ symbol = \"2X\", kind = \"multiplier\", times = 2, caption = \"DOUBLE\" },";
    let (code, err) = check_spec(t.path(), "a.toml", &edit(&spec, "times = 2", "times = 1"));
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.ends_with(&format!(
            ":{}: surfaces[0].specials: \"2X\" is a multiplier: give `times`, 2 or more\n",
            line_of(&spec, "specials = [")
        )),
        "{err}"
    );
    let (code, err) = check_spec(t.path(), "a.toml", &edit(&spec, x2, ""));
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.ends_with(&format!(
            ":{}: surfaces[0].decoy_multiplier: a decoy multiplier rate needs a multiplier \
             among `specials`\n",
            line_of(&spec, "decoy_multiplier")
        )),
        "{err}"
    );
    let x5 = "{ symbol = \"5X\", kind = \"multiplier\", times = 5, caption = \"GAIN X5\" },";
    let bad = edit(
        &spec,
        x5,
        &format!("{x5}\n  {{ symbol = \"3X\", kind = \"multiplier\", times = 3 }},"),
    );
    let (code, err) = check_spec(t.path(), "a.toml", &bad);
    assert_eq!(code, Some(2), "{err}");
    let bonus = bad
        .lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with("[[surfaces]]"))
        .nth(1)
        .unwrap()
        .0
        + 1;
    assert!(
        err.ends_with(&format!(
            ":{bonus}: surfaces[1]: surface \"bonus\": specials (\"3X\") never applies: no way \
             wins in its play area « bonus_3x » (`areas`), so no face shows it\n"
        )),
        "{err}"
    );
}

/// Rows added to, moved in and removed from validation.csv are each one finding of the
/// file's check, in file order: the rows between stay held to their own tickets' rows
/// (not one finding per row shifted). A row out of claim order, a second row for one
/// ticket, a row no ticket's claim gives, a ticket's row missing or moved.
#[test]
fn rows_added_or_removed_in_validation_csv_are_each_one_finding() {
    let t = tempfile::tempdir().unwrap();
    let b = block(t.path(), "b");
    let p = b.join("validation.csv");
    let text = std::fs::read_to_string(&p).unwrap();
    let (header, rows) = text.split_once('\n').unwrap();
    let rows: Vec<&str> = rows.lines().collect();
    assert_eq!(rows.len(), 3000);
    // Before row 1000, a forged row out of claim order and a copy of row 1000; before row
    // 1500, a row of a claim no ticket has, in claim order; row 2000 removed.
    let claim = |r: &str| r.split(',').next().unwrap().to_string();
    let after = u128::from_str_radix(&claim(rows[1498]), 16).unwrap() + 1;
    let between = format!("{after:032x},lose,0");
    assert!(claim(rows[1498]) < claim(&between) && claim(&between) < claim(rows[1499]));
    let mut forged: Vec<&str> = rows[..999].to_vec();
    forged.push("ffffffffffffffffffffffffffffffff,lose,0");
    forged.push(rows[999]);
    forged.extend(&rows[999..1499]);
    forged.push(&between);
    forged.extend(&rows[1499..1999]);
    forged.extend(&rows[2000..]);
    assert_eq!(forged.len(), 3002);
    std::fs::write(&p, format!("{header}\n{}\n", forged.join("\n"))).unwrap();
    let (code, report) = verify_json(&b);
    assert_eq!(code, 1);
    let c = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "validation_file")
        .unwrap()
        .clone();
    assert_eq!(c["result"], "fail");
    let details: Vec<&str> = c["examples"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["detail"].as_str().unwrap())
        .collect();
    assert_eq!(
        details,
        [
            "row 1000 (in claim order): out of claim order: its claim comes after the next row's".to_string(),
            "row 1002 (in claim order): the claim of the row before: a second row for one ticket".to_string(),
            "row 1502 (in claim order): its claim is no ticket's (no serial and code of tickets.bin give it)".to_string(),
            format!("no row {:?} in its place in claim order, before row 2003", rows[1999]),
        ]
    );
    assert_eq!(c["findings"], 4);
    // Two rows of no ticket's claims side by side, and row 1 moved to row 1500: one
    // finding each, the moved row twice (missing from its place, out of place where it is).
    let mut forged: Vec<&str> = rows[1..1500].to_vec();
    forged.push(rows[0]);
    forged.extend(&rows[1500..2500]);
    let (low, high) = (
        format!("{after:032x},lose,0"),
        format!("{:032x},lose,0", after + 1),
    );
    forged.push(&low);
    forged.push(&high);
    forged.extend(&rows[2500..]);
    std::fs::write(&p, format!("{header}\n{}\n", forged.join("\n"))).unwrap();
    let (_, report) = verify_json(&b);
    let (_, details) = check_result(&report, "validation_file");
    let none =
        "(in claim order): its claim is no ticket's (no serial and code of tickets.bin give it)";
    assert_eq!(
        details,
        [
            format!("no row {:?} in its place in claim order, before row 1", rows[0]),
            "row 1500 (in claim order): a ticket's row out of its place in claim order (moved, or a copy)".to_string(),
            format!("row 2501 {none}"),
            format!("row 2502 {none}"),
        ]
    );
}

/// A face code out of its column is one finding of face_codes; its ticket's row of
/// validation.csv, which cannot be held to an evaluation, is said to be that ticket's,
/// and no other row is a finding; its row of tickets.csv, which cannot be rendered, is one
/// finding of csv_matches_print, and its ambiguity and captions, which cannot be checked,
/// one finding each: never a pass.
#[test]
fn a_face_that_cannot_be_judged_names_its_ticket_row_alone() {
    let t = tempfile::tempdir().unwrap();
    let b = block(t.path(), "b");
    let p = b.join("tickets.bin");
    let mut bin = std::fs::read(&p).unwrap();
    let (head, record) = layout(&bin);
    // Ticket 17's fourth face code.
    bin[head + 16 * record + 38 + 3] = 0xff;
    std::fs::write(&p, bin).unwrap();
    reseal(&b);
    let (code, report) = verify_json(&b);
    assert_eq!(code, 1);
    let check = |id: &str| {
        report["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .unwrap()
            .clone()
    };
    let faces = check("face_codes");
    assert_eq!(faces["findings"], 1);
    assert_eq!(faces["examples"][0]["ticket"], 17);
    assert_eq!(
        faces["examples"][0]["detail"],
        "column s4: code 255, not a value of the column (its codes are 0 to 19)"
    );
    let rows = check("validation_file");
    assert_eq!(rows["findings"], 1, "{rows}");
    let detail = rows["examples"][0]["detail"].as_str().unwrap();
    assert!(
        detail.ends_with(" (in claim order): the row of ticket 17, whose face cannot be judged (face_codes): its way and prize are not checked"),
        "{detail}"
    );
    let ways = check("way_recognised");
    assert_eq!(ways["findings"], 1, "{ways}");
    assert_eq!(ways["examples"][0]["ticket"], 17);
    assert_eq!(
        ways["examples"][0]["detail"],
        "the face cannot be judged (face_codes): it realises no way the rules can tell"
    );
    let csv = check("csv_matches_print");
    assert_eq!(csv["findings"], 1, "{csv}");
    assert_eq!(csv["examples"][0]["ticket"], 17);
    assert_eq!(
        csv["examples"][0]["detail"],
        "the row of a ticket whose face cannot be judged (face_codes): not compared with its print record"
    );
    for (id, detail) in [
        (
            "ambiguity",
            "the face cannot be judged (face_codes): its ambiguity is not checked",
        ),
        (
            "captions",
            "the face cannot be judged (face_codes): its captions are not checked",
        ),
    ] {
        let c = check(id);
        assert_eq!(c["findings"], 1, "{c}");
        assert_eq!(c["examples"][0]["ticket"], 17);
        assert_eq!(c["examples"][0]["detail"], detail);
    }
    // The ticket is counted in no way, and counts says so before the way it leaves short.
    let counts = check("counts");
    assert_eq!(
        counts["examples"][0]["detail"],
        "1 ticket whose face cannot be judged (see face_codes) is counted in no way",
        "{counts}"
    );
}

/// A validation code of 10^19 or more (which a 19-digit code cannot be, and which
/// validation.csv would read modulo 10^19) is a finding of validation_codes naming its
/// ticket, never the code; a code copied from another ticket is one finding, in words.
#[test]
fn a_code_past_19_digits_or_copied_is_a_finding() {
    let t = tempfile::tempdir().unwrap();
    let b = block(t.path(), "b");
    let p = b.join("tickets.bin");
    let good = std::fs::read(&p).unwrap();
    let (head, record) = layout(&good);
    let code_at = |ticket: usize| head + (ticket - 1) * record + 30;
    let codes = |bin: &[u8]| {
        std::fs::write(&p, bin).unwrap();
        reseal(&b);
        let (code, report) = verify_json(&b);
        assert_eq!(code, 1);
        let check = report["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == "validation_codes")
            .unwrap()
            .clone();
        assert_eq!(check["findings"], 1, "{check}");
        let example = &check["examples"][0];
        (
            example["ticket"].as_u64(),
            example["detail"].as_str().unwrap().to_string(),
        )
    };
    for huge in [10_000_000_000_000_000_000u64, u64::MAX] {
        let mut bin = good.clone();
        bin[code_at(5)..code_at(5) + 8].copy_from_slice(&huge.to_le_bytes());
        assert_eq!(
            codes(&bin),
            (
                Some(5),
                "the validation code is 10^19 or more: more digits than a code has (19)"
                    .to_string()
            )
        );
    }
    let mut bin = good.clone();
    bin.copy_within(code_at(6)..code_at(6) + 8, code_at(5));
    assert_eq!(
        codes(&bin),
        (
            None,
            "1 validation code is a copy of another ticket's".to_string()
        )
    );
}

/// tickets.csv or validation.csv cut before its last line feed is a finding of the check
/// that reads it, never CLEAN.
#[test]
fn a_csv_without_its_last_line_feed_is_a_finding() {
    let t = tempfile::tempdir().unwrap();
    for (name, id) in [
        ("tickets.csv", "csv_matches_print"),
        ("validation.csv", "validation_file"),
    ] {
        let b = block(t.path(), name);
        let p = b.join(name);
        let mut bytes = std::fs::read(&p).unwrap();
        assert_eq!(bytes.pop(), Some(b'\n'));
        std::fs::write(&p, bytes).unwrap();
        reseal(&b);
        let (code, report) = verify_json(&b);
        assert_eq!(code, 1);
        assert_eq!(
            check_result(&report, id),
            (
                "fail".to_string(),
                vec![format!("{name} does not end with a line feed: its last line stops short of the \"\\n\" tirage ends every line with (the file was cut, or saved by a program that drops it)")]
            )
        );
    }
}

/// A print file cut to its header (resealed) reads no ticket: every check made ticket by
/// ticket is "not run", never "pass", and the audit report gives no payout ratio found
/// (never NaN) beside the one required over the block's tickets.
#[test]
fn a_print_file_of_no_record_passes_no_ticket_check() {
    let t = tempfile::tempdir().unwrap();
    let b = block(t.path(), "b");
    let p = b.join("tickets.bin");
    let bin = std::fs::read(&p).unwrap();
    let (head, _) = layout(&bin);
    std::fs::write(&p, &bin[..head]).unwrap();
    reseal(&b);
    let (code, report) = verify_json(&b);
    assert_eq!(code, 1);
    for id in [
        "positions",
        "serials",
        "face_codes",
        "ambiguity",
        "way_recognised",
        "csv_matches_print",
        "captions",
        "validation_codes",
        "leakage",
    ] {
        assert_eq!(check_result(&report, id).0, "not run", "{id}");
    }
    assert_eq!(check_result(&report, "record_count").0, "fail");
    let audit = t.path().join("audit");
    let o = tirage()
        .args(["verify", "--unauthenticated", "-q", "--report"])
        .arg(&audit)
        .arg(&b)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(audit.join("audit.json")).unwrap()).unwrap();
    let totals = &json["totals"];
    assert_eq!(totals["tickets"], 0);
    assert_eq!(totals["tickets_expected"], 3000);
    assert_eq!(totals["payout_ratio"], 0.0);
    let md = std::fs::read_to_string(audit.join("audit.md")).unwrap();
    assert!(
        md.contains("Payout ratio (payout ÷ (tickets × 2)): none found (no ticket read), 421.57 % required over 3000 tickets."),
        "{md}"
    );
    assert!(!md.contains("NaN") && !md.contains("inf %"), "{md}");
}

/// validation.csv with a row removed, a row added, or its header alone (resealed) fails
/// record_count, which says it holds one row per ticket, with both counts.
#[test]
fn validation_rows_are_counted_against_the_records() {
    let t = tempfile::tempdir().unwrap();
    let b = block(t.path(), "b");
    let p = b.join("validation.csv");
    let text = std::fs::read_to_string(&p).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    for (kept, said) in [
        (
            [&lines[..10], &lines[11..]].concat(),
            "validation.csv has 2,999 rows, tickets.bin 3,000 records",
        ),
        (
            [&lines[..], &lines[10..11]].concat(),
            "validation.csv has 3,001 rows, tickets.bin 3,000 records",
        ),
        (
            lines[..1].to_vec(),
            "validation.csv has 0 rows, tickets.bin 3,000 records",
        ),
    ] {
        std::fs::write(&p, kept.join("\n") + "\n").unwrap();
        reseal(&b);
        let (code, report) = verify_json(&b);
        assert_eq!(code, 1);
        assert_eq!(
            check_result(&report, "record_count"),
            ("fail".to_string(), vec![said.to_string()])
        );
    }
}

/// A print file whose header names another game code, or that ends inside its header
/// (resealed), is one finding of print_header naming what differs: never Rust's debug
/// text, nor "the column dictionaries differ" for a cut file; a changed dictionary is
/// named where it first differs.
#[test]
fn a_print_header_finding_names_the_field_or_the_cut() {
    let t = tempfile::tempdir().unwrap();
    let b = block(t.path(), "b");
    let p = b.join("tickets.bin");
    let good = std::fs::read(&p).unwrap();
    let (head, _) = layout(&good);
    let header = |bin: &[u8]| {
        std::fs::write(&p, bin).unwrap();
        reseal(&b);
        let (code, report) = verify_json(&b);
        assert_eq!(code, 1);
        check_result(&report, "print_header").1
    };
    let mut other = good.clone();
    other[16..18].copy_from_slice(&1704u16.to_le_bytes());
    assert_eq!(
        header(&other),
        ["header field game code: 1704, expected 1703"]
    );
    // A value of a column, then the game id, changed in place.
    let mut value = good.clone();
    let at = value[..head].windows(3).position(|w| w == b"RAT").unwrap();
    value[at + 2] = b'X';
    assert_eq!(
        header(&value),
        ["the column dictionaries differ from the spec's, first at column s1's code 0 (the spec's value is \"RAT\")"]
    );
    let mut id = good.clone();
    id[32..35].copy_from_slice(b"cor");
    assert_eq!(
        header(&id),
        ["the column dictionaries differ from the spec's, first at the game id (the spec's is \"coq\")"]
    );
    assert_eq!(
        header(&good[..40]),
        [format!(
            "the file ends inside its header: 40 bytes of the {head} the spec gives"
        )]
    );
}

/// Manifest numbers beyond what a block can be (a block over 999, counts near 2⁶⁴), sealed
/// again, are findings (exit 1): never a panic of the ticket pass or of a sum.
#[test]
fn manifest_numbers_beyond_a_block_are_findings_not_panics() {
    let t = tempfile::tempdir().unwrap();
    for (name, from, to, finding) in [
        (
            "block",
            "\"block\": 1,",
            "\"block\": 1000,",
            "ticket 1: serial 17030010010000010012, expected none: block 1000 has no serials (a serial's block is at most 999)",
        ),
        (
            "losers",
            "\"losers\": 2081,",
            "\"losers\": 18446744073709551615,",
            "the way counts add up to 18446744073709551615 tickets, the manifest says 3000",
        ),
    ] {
        let b = block(t.path(), name);
        let path = b.join("manifest.json");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{from}");
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
        reseal(&b);
        let (code, out) = verify_out(&b);
        assert_eq!(code, Some(1), "{out}");
        assert!(out.contains(finding), "{out}");
    }
}

/// A block whose folder's name gives another block number is a finding, signed or not:
/// block 1 copied to `block-003` or `coq.3` would be filed, printed and claimed as that
/// block. A name with no number, or the block's own, is none.
#[test]
fn a_folder_named_for_another_block_is_a_finding_unsigned_too() {
    let t = tempfile::tempdir().unwrap();
    let b = block(t.path(), "block-001");
    let verify = |dir: &Path| {
        let o = tirage()
            .args(["verify", "--no-audit", "--unauthenticated"])
            .arg(dir)
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
        )
    };
    assert_eq!(verify(&b).0, Some(0));
    for (name, finding) in [
        ("block-003", Some(("block-003", 3))),
        ("coq.3", Some(("coq.3", 3))),
        ("coq-1-block-002", Some(("coq-1-block-002", 2))),
        ("block-0001", None),
        ("coq-1-block-001", None),
        ("coq-2016-12-30", None),
        ("latest", None),
    ] {
        let copy = t.path().join(name);
        let status = std::process::Command::new("cp")
            .arg("-a")
            .arg(&b)
            .arg(&copy)
            .status()
            .unwrap();
        assert!(status.success());
        let (code, out) = verify(&copy);
        match finding {
            Some((n, b)) => {
                assert_eq!(code, Some(1), "{out}");
                assert!(
                    out.contains(&format!("the folder is named {n}, which says block {b}; the manifest says block 1: a block is filed, printed and claimed under its own number")),
                    "{out}"
                );
            }
            None => assert_eq!(code, Some(0), "{name}: {out}"),
        }
    }
}

/// A control, invisible, text-direction or stray combining character (a stroke through a
/// letter) in the game's name, its legal reference, a label or an amount's caption is
/// refused naming file, field, line and code point, never written raw (an escape sequence would retitle or clear the terminal
/// `check` prints to; a zero-width space would let 4 € print the caption of 2 €).
#[test]
fn hidden_characters_in_names_labels_and_captions_are_refused_unprinted() {
    let t = tempfile::tempdir().unwrap();
    let coq = std::fs::read_to_string(repo("tests/specs/coq_small.toml")).unwrap();
    let bingo = std::fs::read_to_string(repo("game_specs/examples/bingo75.toml")).unwrap();
    for (name, text, field, start, code) in [
        (
            "name.toml",
            edit(
                &coq,
                "name = \"ASTRO",
                "name = \"\\u001b]0;pwned\\u0007ASTRO",
            ),
            "game.name",
            "name = ",
            "001B",
        ),
        (
            "reference.toml",
            edit(&coq, "legal_reference = \"", "legal_reference = \"\\u202e"),
            "game.legal_reference",
            "legal_reference = ",
            "202E",
        ),
        (
            "label.toml",
            edit(
                &bingo,
                "bingo = \"Votre carte",
                "bingo = \"Votre\\u0000carte",
            ),
            "labels.bingo",
            "bingo = ",
            "0000",
        ),
        (
            "invisible_name.toml",
            edit(&coq, "name = \"ASTRO", "name = \"AS\\u200bTRO"),
            "game.name",
            "name = ",
            "200B",
        ),
        (
            "separator_name.toml",
            edit(&coq, "name = \"ASTRO", "name = \"AS\\u2028TRO"),
            "game.name",
            "name = ",
            "2028",
        ),
        (
            "invisible_label.toml",
            edit(
                &bingo,
                "bingo = \"Votre carte",
                "bingo = \"Votre\\ufeffcarte",
            ),
            "labels.bingo",
            "bingo = ",
            "FEFF",
        ),
        (
            "invisible_caption.toml",
            edit(
                &coq,
                "\"4\" = \"QUATRE EUROS\"",
                "\"4\" = \"DEUX\\u200b EUROS\"",
            ),
            "captions.\"4\"",
            "\"4\" = \"",
            "200B",
        ),
        (
            "annotation_caption.toml",
            edit(
                &coq,
                "\"4\" = \"QUATRE EUROS\"",
                "\"4\" = \"DEUX EUROS\\ufff9\"",
            ),
            "captions.\"4\"",
            "\"4\" = \"",
            "FFF9",
        ),
        (
            "struck_caption.toml",
            edit(
                &coq,
                "\"4\" = \"QUATRE EUROS\"",
                "\"4\" = \"Q\\u0336UATRE DEUX EUROS\"",
            ),
            "captions.\"4\"",
            "\"4\" = \"",
            "0336",
        ),
    ] {
        let (code_, err) = check_spec(t.path(), name, &text);
        assert_eq!(code_, Some(2), "{err}");
        let line = line_of(&text, start);
        assert_eq!(
            err,
            format!(
                "tirage: error: {}:{line}: {field}: U+{code} (a control, invisible, text-direction or stray combining character) is not allowed: expected text shown as written, on one line\n",
                t.path().join(name).display()
            )
        );
    }
    // The spec's note may hold line breaks, and nothing else that does not show.
    let lines = edit(
        &coq,
        "name = \"ASTRO",
        "note = \"one\\ntwo\"\nname = \"ASTRO",
    );
    assert_eq!(check_spec(t.path(), "note_lines.toml", &lines).0, Some(0));
    let note = edit(
        &coq,
        "name = \"ASTRO",
        "note = \"abc\\u001b]0;PWNED\\u0007\"\nname = \"ASTRO",
    );
    let (code, err) = check_spec(t.path(), "note.toml", &note);
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(
        err,
        format!(
            "tirage: error: {}:{}: game.note: U+001B (a control, invisible, text-direction or stray combining character) is not allowed: expected text shown as written (line breaks aside)\n",
            t.path().join("note.toml").display(),
            line_of(&note, "name = ") - 1
        )
    );
}

/// A caption written with a letter of another script that looks like a Latin one (a
/// Cyrillic Е, U+0415, in "DЕUX EUROS") reads as the caption it looks like: two amounts
/// or two symbols printing captions a player cannot tell apart are refused, naming the
/// letter; the number words of a caption are read through its look-alikes too.
#[test]
fn captions_in_look_alike_letters_are_refused_naming_the_letter() {
    let t = tempfile::tempdir().unwrap();
    let coq = std::fs::read_to_string(repo("tests/specs/coq_small.toml")).unwrap();
    let bonus = std::fs::read_to_string(repo("game_specs/examples/ticket_bonus.toml")).unwrap();
    let amount = edit(
        &coq,
        "\"4\" = \"QUATRE EUROS\"",
        "\"4\" = \"D\u{415}UX EUROS\"",
    );
    let words = edit(
        &coq,
        "\"8\" = \"HUIT EUROS\"",
        "\"8\" = \"D\u{415}UX EUROS\"",
    );
    let words = edit(&words, "\"2\" = \"DEUX EUROS\"", "\"2\" = \"DEUX EURO\"");
    let symbol = edit(&bonus, "\"12\" = \"TWELV\"", "\"12\" = \"\u{415}LEVN\"");
    for (file, text, start, said) in [
        (
            "amount.toml",
            &amount,
            "\"4\" = ",
            "captions.\"4\": caption \"D\u{415}UX EUROS\" (its U+0415 reads as E) reads as the caption of 2 (\"DEUX EUROS\"): two amounts may not share a caption, whatever the case, spacing or script of its letters",
        ),
        (
            "words.toml",
            &words,
            "\"8\" = ",
            "captions.\"8\": reads as 2 (\"D\u{415}UX EUROS\"), not 8: a caption in words says the amount printed above it in figures (one that does not match its figures is a printing anomaly)",
        ),
        (
            "symbol.toml",
            &symbol,
            "\"12\" = ",
            "symbol_captions.\"12\": caption \"\u{415}LEVN\" of symbol \"12\" (its U+0415 reads as E), which reads as the caption \"ELEVN\" of symbol \"11\" (symbol_captions.\"11\"): a player could not tell them apart (case, spaces, _ - ., leading zeros, O for 0, I for 1 and look-alike letters of other scripts aside); write them so that they read differently",
        ),
    ] {
        refused_at(t.path(), file, text, start, said);
    }
}

/// A multiplier's symbol and caption show its own factor or none: a `5X` that doubles,
/// a caption `GAGNE 10 FOIS` on a ×5 or a symbol `X10` that doubles would print one factor
/// and pay another. Each is refused at its field and line, saying what it shows.
#[test]
fn multipliers_that_show_another_factor_are_refused() {
    let t = tempfile::tempdir().unwrap();
    let double = std::fs::read_to_string(repo("game_specs/examples/double_montant.toml")).unwrap();
    let chance = std::fs::read_to_string(repo("game_specs/examples/multi_chance.toml")).unwrap();
    let pharaon = std::fs::read_to_string(repo("game_specs/pharaon.toml")).unwrap();
    for (file, text, start, said) in [
        (
            "symbol.toml",
            edit(
                &double,
                "{ symbol = \"2X\", kind = \"multiplier\", times = 2",
                "{ symbol = \"5X\", area = \"dm_2x\", kind = \"multiplier\", times = 2",
            ),
            "specials = [",
            "surfaces[0].specials: \"5X\" shows 5, but \"5X\" multiplies by 2 (times = 2): a multiplier's symbol and caption show its own factor or none",
        ),
        (
            "caption.toml",
            edit(&chance, "caption = \"GAGNE 5 FOIS\"", "caption = \"GAGNE 10 FOIS\""),
            "specials = [",
            "surfaces[0].specials: \"GAGNE 10 FOIS\" shows 10, but \"5X\" multiplies by 5 (times = 5): a multiplier's symbol and caption show its own factor or none",
        ),
        (
            "table.toml",
            edit(&pharaon, "multiplier = { MASQUE = 2 }", "multiplier = { X10 = 2 }"),
            "multiplier = ",
            "surfaces[3].multiplier.X10: \"X10\" shows 10, but it multiplies by 2: a multiplier's symbol shows its own factor or none",
        ),
        (
            "caption_words.toml",
            edit(&chance, "caption = \"GAGNE 5 FOIS\"", "caption = \"GAGNE DIX FOIS\""),
            "specials = [",
            "surfaces[0].specials: \"GAGNE DIX FOIS\" says 10 in words, but \"5X\" multiplies by 5 (times = 5): a multiplier's symbol and caption show its own factor or none, and no money",
        ),
        (
            "table_words.toml",
            edit(&pharaon, "multiplier = { MASQUE = 2 }", "multiplier = { TEN = 2 }"),
            "multiplier = ",
            "surfaces[3].multiplier.TEN: \"TEN\" says 10 in words, but it multiplies by 2: a multiplier's symbol shows its own factor or none, and no money",
        ),
    ] {
        refused_at(t.path(), file, &text, start, said);
    }
}

/// Two panels or play areas whose printed names read the same (case, spacing, a Cyrillic
/// е for a Latin e) are refused at the later label's key and line: a proof saying a ticket
/// wins in "Jeu 2" names one place.
#[test]
fn labels_that_read_the_same_are_refused() {
    let t = tempfile::tempdir().unwrap();
    let lingot = std::fs::read_to_string(repo("game_specs/examples/lingot_banque.toml")).unwrap();
    for (file, to, said) in [
        ("spacing.toml", "bq_fruit = \"jeu  2\"", "\"jeu  2\""),
        (
            "script.toml",
            "bq_fruit = \"J\u{435}u 2\"",
            "\"J\u{435}u 2\" (its U+0435 reads as e)",
        ),
        ("zero.toml", "bq_fruit = \"Jeu 02.\"", "\"Jeu 02.\""),
    ] {
        let text = edit(&lingot, "bq_fruit = \"Jeu 3\"", to);
        let said = format!("labels.bq_fruit: {said} reads as the label of bq_cerise: two panels or play areas printed with one name could not be told apart (case, spacing, punctuation, leading zeros, O for 0, I for 1 and look-alike letters aside)");
        refused_at(t.path(), file, &text, "bq_fruit = ", &said);
    }
}

/// A card's names print on its inscription: two rank or suit names a player reads alike
/// (`I0` and `10`, `C0EUR` and `COEUR`), a rank named with another rank's figure (an ace
/// named `11`) and two combinations printed under one name are refused at the field and
/// line.
#[test]
fn card_names_a_player_could_misread_are_refused() {
    let t = tempfile::tempdir().unwrap();
    let mains = std::fs::read_to_string(repo("game_specs/examples/trois_mains.toml")).unwrap();
    let ranks = "rank_names = [\"2\", \"3\", \"4\", \"5\", \"6\", \"7\", \"8\", \"9\", \"10\", \"VALET\", \"DAME\", \"ROI\", \"AS\"]";
    let suits = "suit_names = [\"TREFLE\", \"CARREAU\", \"COEUR\", \"PIQUE\"]";
    for (file, from, to, start, said) in [
        (
            "ten.toml",
            ranks,
            ranks.replace("\"10\"", "\"I0\"").replace("\"AS\"", "\"10\""),
            "rank_names = ",
            "surfaces[0].rank_names: \"10\" reads as \"I0\": a player could not tell the two apart",
        ),
        (
            "ace.toml",
            ranks,
            ranks.replace("\"AS\"", "\"11\""),
            "rank_names = ",
            "surfaces[0].rank_names: \"11\" names the ace with another rank's figure: a rank named in figures says its own",
        ),
        (
            "suit.toml",
            suits,
            suits.replace("\"PIQUE\"", "\"C0EUR\""),
            "suit_names = ",
            "surfaces[0].suit_names: \"C0EUR\" reads as \"COEUR\": a player could not tell the two apart",
        ),
        (
            "accent.toml",
            suits,
            "suit_names = [\"BLEU\", \"VERT\", \"ROUGE\", \"R\u{d4}UGE\"]".to_string(),
            "suit_names = ",
            "surfaces[0].suit_names: \"R\u{d4}UGE\" reads as \"ROUGE\": a player could not tell the two apart",
        ),
    ] {
        let text = edit(&mains, from, &to);
        refused_at(t.path(), file, &text, start, said);
    }
    // Ranks in words say their own, in either language: SEPT and HUIT swapped are refused.
    let poker = std::fs::read_to_string(repo("game_specs/poker.toml")).unwrap();
    let swapped = edit(&poker, "\"SEPT\", \"HUIT\"", "\"HUIT\", \"SEPT\"");
    refused_at(t.path(), "words.toml", &swapped, "rank_names = ", "surfaces[0].rank_names: \"HUIT\" says 8 in words, but it names the 7: a rank named in words or figures says its own");
    // Face cards and suits named in their own places: a queen named KING, clubs and
    // spades swapped (the inscription would name a suit beside another's sign).
    let faces = edit(&poker, "\"DAME\", \"ROI\"", "\"KING\", \"ROI\"");
    refused_at(t.path(), "faces.toml", &faces, "rank_names = ", "surfaces[0].rank_names: \"KING\" names the king, but it stands for the queen: rank names are listed 2 to ace");
    let suits = edit(
        &poker,
        "suit_names = [\"TREFLE\", \"CARREAU\", \"COEUR\", \"PIQUE\"]",
        "suit_names = [\"PIQUE\", \"CARREAU\", \"COEUR\", \"TR\u{c8}FLE\"]",
    );
    refused_at(t.path(), "suits.toml", &suits, "suit_names = ", "surfaces[0].suit_names: \"PIQUE\" names spades, but it stands for clubs: suit names are listed clubs, diamonds, hearts, spades (c d h s), so that each card's inscription names the suit its sign shows");
    // An ace named in figures as 1 says its own rank.
    let one = edit(&mains, ranks, &ranks.replace("\"AS\"", "\"1\""));
    assert_eq!(check_spec(t.path(), "one.toml", &one).0, Some(0));
    // Two combinations printed under one name: the later is refused.
    let text = edit(&mains, "name = \"BRELAN\"", "name = \"Paire\"");
    refused_at(t.path(), "combination.toml", &text, "combinations = [", "surfaces[0].combinations[1].name: \"Paire\" reads as the name of the pair combination: each combination prints a name of its own");
}

/// An auto-win's or win-all's symbol and caption never read as an amount (the amounts it
/// wins print beside it): a currency sign, a number in figures or a currency's word is
/// refused at the surface's `specials`, saying what it shows.
#[test]
fn special_symbols_that_read_as_money_are_refused() {
    let t = tempfile::tempdir().unwrap();
    let double = std::fs::read_to_string(repo("game_specs/examples/double_montant.toml")).unwrap();
    let sac = "{ symbol = \"SAC\", kind = \"win_all\", caption = \"GAGNE TOUT\" }";
    for (file, to, said) in [
        (
            "sign.toml",
            "{ symbol = \"SAC\", kind = \"win_all\", caption = \"GAGNE 5000 \u{20ac}\" }",
            "\"GAGNE 5000 \u{20ac}\" shows a currency sign (\u{20ac})",
        ),
        (
            "word.toml",
            "{ symbol = \"MILLE EURO\", area = \"dm_sac\", kind = \"win_all\", caption = \"GAGNE TOUT\" }",
            "\"MILLE EURO\" names a currency (\"EURO\")",
        ),
        (
            "figures.toml",
            "{ symbol = \"1000 EUROS\", area = \"dm_sac\", kind = \"win_all\", caption = \"GAGNE TOUT\" }",
            "\"1000 EUROS\" shows a number (1)",
        ),
        (
            "words.toml",
            "{ symbol = \"SAC\", kind = \"win_all\", caption = \"GAGNE MILLE\" }",
            "\"GAGNE MILLE\" says 1000 in words",
        ),
    ] {
        let text = edit(&double, sac, to);
        let said = format!("surfaces[0].specials: {said}: a special symbol and its caption say what it does, never an amount (the amounts it wins are printed beside it)");
        refused_at(t.path(), file, &text, "specials = [", &said);
    }
}

/// A game's name is at most 80 characters and its legal reference at most 300 (accented
/// letters count one each): one more is refused naming file, field, line and the count.
#[test]
fn a_name_or_reference_too_long_to_print_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let coq = std::fs::read_to_string(repo("tests/specs/coq_small.toml")).unwrap();
    let name = |n: usize| format!("name = \"{}\"", "É".repeat(n));
    let reference = |n: usize| format!("legal_reference = \"{}\"", "é".repeat(n));
    let at_most = edit(&coq, "name = \"ASTRO ANNEE DU COQ\"", &name(80));
    let at_most = edit(
        &at_most,
        "legal_reference = \"Règlement particulier « ASTRO ANNEE DU COQ », JORF n°0303 du 30 décembre 2016\"",
        &reference(300),
    );
    let (code, err) = check_spec(t.path(), "at_most.toml", &at_most);
    assert_eq!(code, Some(0), "{err}");
    for (file, text, field, start, n, most, shown) in [
        (
            "name.toml",
            edit(&at_most, &name(80), &name(81)),
            "game.name",
            "name = ",
            81,
            80,
            "on every proof's header",
        ),
        (
            "reference.toml",
            edit(&at_most, &reference(300), &reference(301)),
            "game.legal_reference",
            "legal_reference = ",
            301,
            300,
            "on the proofs' cover, the preview page and the audit report",
        ),
    ] {
        let (code, err) = check_spec(t.path(), file, &text);
        assert_eq!(code, Some(2), "{err}");
        assert_eq!(
            err,
            format!(
                "tirage: error: {}:{}: {field}: {n} characters: expected at most {most} (it is printed {shown})\n",
                t.path().join(file).display(),
                line_of(&text, start)
            )
        );
    }
}

/// A secret pasted into a spec (a value, or a key) is never echoed by its error: a run of
/// 32 or more hexadecimal digits is written as a long value not shown.
#[test]
fn a_secret_pasted_into_a_spec_is_not_echoed() {
    let t = tempfile::tempdir().unwrap();
    let coq = std::fs::read_to_string(repo("tests/specs/coq_small.toml")).unwrap();
    let secret = "6e51ea6fb5f921f31be91cd76437be1653ccfdfda584db3897df51b09b891056";
    for (name, text) in [
        (
            "value.toml",
            edit(&coq, "price = 2", &format!("price = \"{secret}\"")),
        ),
        (
            "key.toml",
            edit(&coq, "price = 2", &format!("price = 2\n{secret} = 1")),
        ),
    ] {
        let (code, err) = check_spec(t.path(), name, &text);
        assert_eq!(code, Some(2), "{err}");
        assert!(!err.contains(&secret[..32]), "{err}");
        assert!(!err.contains(&secret[32..]), "{err}");
        assert!(
            err.contains("(a long hexadecimal value, not shown)"),
            "{err}"
        );
    }
}

/// A ticket file grown far past what its block can hold (here zeros with no line end, as a
/// sparse file of 2 GiB: the ticket pass stops at its first over-long line) is hashed no
/// further than that bound, (3 000 tickets + 2) × (4 096 + 12 face columns × 1 024) bytes
/// for coq_small, and the finding says so; verify never reads the rest.
#[test]
fn a_ticket_file_grown_past_its_block_is_read_no_further() {
    let t = tempfile::tempdir().unwrap();
    let b = block(t.path(), "block-001");
    std::fs::OpenOptions::new()
        .write(true)
        .open(b.join("tickets.csv"))
        .unwrap()
        .set_len(2 << 30)
        .unwrap();
    let (code, out) = verify_out(&b);
    assert_eq!(code, Some(1), "{out}");
    let bound = 3002u64 * (4096 + 12 * 1024);
    for said in [
        format!(
            "tickets.csv goes on past what the block holds: only the first {bound} bytes were read"
        ),
        format!("tickets.csv: {bound} bytes, the manifest says "),
    ] {
        assert!(out.contains(&said), "{said}: {out}");
    }
}

/// A manifest that does not parse is a finding of `manifest`, and what only it states is
/// checked against nothing: the block's kind and a deck's promises are `not run`, never a
/// pass. The block is still held to the spec's lot table (a deck's size and counts are its
/// manifest's alone, and one header field never makes a block a deck).
#[test]
fn an_unreadable_manifest_leaves_what_it_states_not_run() {
    let t = tempfile::tempdir().unwrap();
    let deck = t.path().join("deck");
    common::deck(&repo("tests/specs/coq_small.toml"), &deck);
    let production = block(t.path(), "b");
    for (dir, kind) in [(&deck, "deck"), (&production, "production")] {
        let p = dir.join("manifest.json");
        let text = std::fs::read_to_string(&p).unwrap();
        std::fs::write(&p, text.replacen("\"kind\"", "\"kindx\"", 1)).unwrap();
        reseal(dir);
        let (code, report) = verify_json(dir);
        assert_eq!(code, 1, "{kind}");
        let (result, details) = check_result(&report, "manifest");
        assert_eq!(result, "fail", "{kind}");
        assert!(details[0].starts_with("manifest.json does not parse: unknown field `kindx`"));
        for id in ["kind", "features"] {
            assert_eq!(check_result(&report, id).0, "not run", "{kind}: {id}");
        }
    }
    let (_, report) = verify_json(&production);
    for id in ["counts", "print_header", "record_count", "way_recognised"] {
        assert_eq!(check_result(&report, id).0, "pass", "{id}");
    }
    // The deck's header says block 0 and 42 records: not the spec's production block.
    let (_, report) = verify_json(&deck);
    assert_eq!(check_result(&report, "counts").0, "fail");
}

/// When not one face can be judged, no ticket is known to win or lose: the leakage gate
/// is not run, never a pass.
#[test]
fn no_face_judged_leaves_leakage_not_run() {
    let t = tempfile::tempdir().unwrap();
    let b = block(t.path(), "b");
    let p = b.join("tickets.bin");
    let mut bin = std::fs::read(&p).unwrap();
    let (head, record) = layout(&bin);
    for r in bin[head..].chunks_exact_mut(record) {
        r[38] = 0xff;
    }
    std::fs::write(&p, bin).unwrap();
    reseal(&b);
    let (code, report) = verify_json(&b);
    assert_eq!(code, 1);
    assert_eq!(check_result(&report, "face_codes").1.len(), 10);
    assert_eq!(check_result(&report, "leakage").0, "not run");
    // validation.csv is intact: each of its rows is named as an unjudged ticket's, none as
    // a row past those the tickets call for.
    let (_, rows) = check_result(&report, "validation_file");
    assert_eq!(rows.len(), 10, "{rows:?}");
    for r in &rows {
        assert!(
            r.starts_with("row ")
                && r.ends_with(
                    ", whose face cannot be judged (face_codes): its way and prize are not checked"
                ),
            "{r}"
        );
    }
    assert_eq!(
        check_result(&report, "counts").1[0],
        "3,000 tickets whose faces cannot be judged (see face_codes) are counted in no way"
    );
    // The audit report says why the arrangement is not tested, with the tickets at fault.
    let rep = t.path().join("b.audit");
    tirage()
        .args(["verify", "--unauthenticated", "-q", "--report"])
        .arg(&rep)
        .arg(&b)
        .assert()
        .code(1);
    let audit = std::fs::read_to_string(rep.join("audit.md")).unwrap();
    assert!(
        audit.contains("Not run: 3,000 tickets realise no way of the spec (see `way_recognised`): the arrangement cannot be tested."),
        "{audit}"
    );
    // The print records were read: the leakage gate is not run for want of a judged face.
    assert!(
        audit.contains("Not run: no face could be judged, so no ticket is known to win or lose (see `face_codes` and `way_recognised`)."),
        "{audit}"
    );
}

/// When the ticket pass cannot run (tickets.bin cut inside its header), the audit report
/// says no face was evaluated and which procedure stopped it, in the counts, the
/// arrangement and the leakage gate: not that the block has 0 tickets of every tier.
#[test]
fn an_untallied_block_says_why_its_arrangement_is_not_tested() {
    let t = tempfile::tempdir().unwrap();
    let b = block(t.path(), "b");
    let p = b.join("tickets.bin");
    let bin = std::fs::read(&p).unwrap();
    std::fs::write(&p, &bin[..20]).unwrap();
    reseal(&b);
    let rep = t.path().join("b.audit");
    tirage()
        .args(["verify", "--unauthenticated", "-q", "--report"])
        .arg(&rep)
        .arg(&b)
        .assert()
        .code(1);
    let audit = std::fs::read_to_string(rep.join("audit.md")).unwrap();
    let why = "no face was evaluated (the tickets were not read once `print_header` failed: see section 1)";
    for said in [
        format!("Not established: {why}. The counts the block must hold, from only the block's own spec copy (no reference spec: --spec), are below; nothing was counted."),
        "| 20000 | 1 | — | — | 20000 |".to_string(),
        format!("Not run: {why}: the arrangement cannot be tested."),
        format!("Not run: {why}."),
    ] {
        assert!(audit.contains(&said), "{said}\n{audit}");
    }
    assert!(!audit.contains("Every face was re-evaluated"), "{audit}");
    // audit.json: every tier's found is null, not 0.
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(rep.join("audit.json")).unwrap()).unwrap();
    let tiers = json["tiers"].as_array().unwrap();
    assert_eq!(tiers.len(), 8);
    assert!(tiers
        .iter()
        .all(|t| t["found"].is_null() && t["expected"].as_u64().unwrap() > 0));
}
