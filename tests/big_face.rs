//! A face of 300 columns, past the 128 a face holds inline: every column goes through
//! `tickets.bin`, `tickets.csv` and `verify` (with its replay) as a small face does, and a
//! code changed past the 128th column is found.

mod common;

use common::{generate, repo, tirage, SEED, VALIDATION_KEY};
use std::path::Path;

/// Face columns of the spec: 150 boxes of two columns each (amount, caption).
const COLUMNS: usize = 300;

/// A reveal game of 150 boxes, 200 tickets in packs of 20.
const SPEC: &str = r#"
[game]
id = "grand"
name = "GRAND CASH"
legal_reference = "Test spec: a face of 300 columns"
currency = "EUR"
price = 1
block_size = 200
pack_size = 20
game_code = 9903

[published]
lots = 50
payout = 130

[captions]
"0" = "ZERO EURO"
"2" = "DEUX EUROS"
"5" = "CINQ EUROS"

[[surfaces]]
style = "reveal"
id = "cash"
boxes = 150
amounts = [2, 5]

[[tiers]]
amount = 5
count = 10
total = 50
[[tiers.ways]]
id = "5"
count = 10
wins = [5]

[[tiers]]
amount = 2
count = 40
total = 80
[[tiers.ways]]
id = "2"
count = 40
wins = [2]
"#;

/// The print file's header fields and each column's values, read as FORMAT.md lays them out:
/// (record size, header size, records, per column its values).
fn header(bin: &[u8]) -> (usize, usize, usize, Vec<Vec<String>>) {
    let u16_at = |o: usize| u16::from_le_bytes([bin[o], bin[o + 1]]) as usize;
    let u32_at = |o: usize| u32::from_le_bytes(bin[o..o + 4].try_into().unwrap()) as usize;
    let (record, head, records, k) = (u16_at(10), u32_at(12), u32_at(24), u16_at(28));
    let mut at = 30;
    let text = |at: &mut usize| {
        let n = u16_at(*at);
        let s = String::from_utf8(bin[*at + 2..*at + 2 + n].to_vec()).unwrap();
        *at += 2 + n;
        s
    };
    text(&mut at);
    let mut columns = Vec::new();
    for _ in 0..k {
        text(&mut at);
        at += 1;
        let n = u16_at(at);
        at += 2;
        columns.push((0..n).map(|_| text(&mut at)).collect());
    }
    assert_eq!(at, head);
    (record, head, records, columns)
}

/// `tirage verify --spec` of `dir` with its seed and validation key (the replay): exit code
/// and output.
fn verify(dir: &Path, spec: &Path, seed: &Path) -> (i32, String) {
    let out = tirage()
        .args(["verify", "--unauthenticated", "--no-audit"])
        .arg("--seed-file")
        .arg(seed)
        .arg("--validation-key")
        .arg(repo(VALIDATION_KEY))
        .arg("--spec")
        .arg(spec)
        .arg(dir)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap(), text)
}

#[test]
fn a_face_of_300_columns_round_trips_through_the_files_and_verify() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("grand.toml");
    std::fs::write(&spec, SPEC).unwrap();
    let seed = dir.path().join("seed");
    std::fs::write(&seed, SEED).unwrap();
    let block = dir.path().join("block");
    generate(&spec, &block, 2);

    let bin = std::fs::read(block.join("tickets.bin")).unwrap();
    let (record, head, records, columns) = header(&bin);
    assert_eq!(columns.len(), COLUMNS);
    assert_eq!(record, 38 + COLUMNS);
    assert_eq!(records, 200);
    assert_eq!(bin.len(), head + records * record);

    // Every row of tickets.csv prints, column by column, the values the record's codes name.
    let csv = std::fs::read_to_string(block.join("tickets.csv")).unwrap();
    let mut lines = csv.lines();
    let names: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(names.len(), 7 + COLUMNS);
    assert_eq!(names[7 + 299], "cash_caption150");
    let mut winning_boxes_past_128 = 0;
    for (t, line) in lines.enumerate() {
        let fields: Vec<&str> = line.split(',').collect();
        let rec = &bin[head + t * record..head + (t + 1) * record];
        assert_eq!(
            u32::from_le_bytes(rec[0..4].try_into().unwrap()) as usize,
            t + 1
        );
        for (c, values) in columns.iter().enumerate() {
            assert_eq!(
                fields[7 + c],
                values[rec[38 + c] as usize],
                "ticket {}",
                t + 1
            );
        }
        winning_boxes_past_128 += (128..COLUMNS)
            .step_by(2)
            .filter(|&c| fields[7 + c] != "0")
            .count();
    }
    assert!(winning_boxes_past_128 > 0, "no win drawn past column 128");
    let (code, text) = verify(&block, &spec, &seed);
    assert_eq!(code, 0, "{text}");

    // A losing ticket shown a win in its 140th box (face columns 279 and 280), the digests
    // in manifest.json and SHA256SUMS made to match: verify reads the columns past the
    // 128th and finds it.
    let t = (0..records)
        .find(|&t| {
            bin[head + t * record + 38..head + (t + 1) * record]
                .iter()
                .all(|&c| c == 0)
        })
        .expect("a losing ticket");
    let mut forged = bin.clone();
    forged[head + t * record + 38 + 278] = 1;
    forged[head + t * record + 38 + 279] = 1;
    std::fs::write(block.join("tickets.bin"), &forged).unwrap();
    let manifest = std::fs::read_to_string(block.join("manifest.json")).unwrap();
    let forged_manifest = manifest.replace(&sha256(&bin), &sha256(&forged));
    std::fs::write(block.join("manifest.json"), &forged_manifest).unwrap();
    let sums = std::fs::read_to_string(block.join("SHA256SUMS"))
        .unwrap()
        .replace(&sha256(&bin), &sha256(&forged))
        .replace(
            &sha256(manifest.as_bytes()),
            &sha256(forged_manifest.as_bytes()),
        );
    std::fs::write(block.join("SHA256SUMS"), sums).unwrap();
    let (code, text) = verify(&block, &spec, &seed);
    assert_ne!(code, 0, "{text}");
    assert!(text.contains("PASS    sha256sums"), "{text}");
    assert!(
        text.contains(&format!(
            "ticket {}: prize: tickets.csv has \"0\", expected \"2\"",
            t + 1
        )),
        "{text}"
    );
    assert!(
        text.contains("cash_amount140: tickets.csv has \"0\", expected \"2\" (per tickets.bin)"),
        "{text}"
    );
}

/// A face of 1 000 boxes: each row of tickets.csv is some 11 KB, past the 4 KiB a row was
/// once bounded by, and an honest block still verifies clean.
#[test]
fn rows_of_many_kilobytes_verify_clean() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("huge.toml");
    std::fs::write(&spec, SPEC.replace("boxes = 150", "boxes = 1000")).unwrap();
    let seed = dir.path().join("seed");
    std::fs::write(&seed, SEED).unwrap();
    let block = dir.path().join("block");
    generate(&spec, &block, 2);
    let csv = std::fs::read_to_string(block.join("tickets.csv")).unwrap();
    let longest = csv.lines().map(str::len).max().unwrap();
    assert!(longest > 10_000, "{longest}");
    let (code, text) = verify(&block, &spec, &seed);
    assert_eq!(code, 0, "{text}");
}

/// Lowercase hex SHA-256 of `bytes`.
fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
