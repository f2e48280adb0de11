//! The layout of a block directory and of an emission directory: every file name tirage
//! writes there (docs/FORMAT.md), and which entries are tirage's. Names only, no I/O.

/// The tickets for QA and audit.
pub const CSV: &str = "tickets.csv";
/// The print file.
pub const BIN: &str = "tickets.bin";
/// The validation file for the central system.
pub const VALIDATION: &str = "validation.csv";
/// The copy of the spec the block was made from.
pub const SPEC: &str = "spec.toml";
/// The manifest.
pub const MANIFEST: &str = "manifest.json";
/// The checksums.
pub const SUMS: &str = "SHA256SUMS";
/// The minisign signature of the checksums ([`crate::crypto::sign`]), when the block is signed.
pub const SUMS_SIG: &str = "SHA256SUMS.minisig";
/// The operator's public key (minisign), which a recipient's bundle carries
/// ([`crate::package`]) to check `SHA256SUMS.minisig` with.
pub const PUBLIC_KEY: &str = "operator.pub";
/// The suffix of a file encrypted to its recipients ([`crate::output::seal`]).
pub const SEALED_SUFFIX: &str = ".age";
/// The audit report.
pub const AUDIT_MD: &str = "audit.md";
/// The audit report's JSON form.
pub const AUDIT_JSON: &str = "audit.json";
/// The audit report's chart.
pub const AUDIT_SVG: &str = "audit.svg";
/// The audit report on A4 pages, with the chart and the signature block.
pub const AUDIT_PDF: &str = "audit.pdf";
/// The suffix of the directory beside a block that receives its audit report
/// ([`audit_dir`]): never inside the block, which is what is delivered.
pub const AUDIT_DIR_SUFFIX: &str = ".audit";
/// The directory earlier versions of `render` wrote proofs to inside a block (still
/// recognised as tirage's, so that `--force` may remove it with the block).
pub const PROOFS: &str = "proofs";
/// The suffix of the directory beside a block that receives its proofs by default
/// ([`proofs_dir`]): never inside the block, which is what is delivered.
pub const PROOFS_DIR_SUFFIX: &str = ".proofs";

/// The prefix of the temporary file `render` writes a proof to before it takes its name.
pub const PROOF_TMP: &str = ".tirage-proof-";
/// The emission manifest, in an emission directory.
pub const EMISSION: &str = "emission.json";
/// The minisign signature of `emission.json`, when the emission is signed.
pub const EMISSION_SIG: &str = "emission.json.minisig";

/// The ticket files, which may be delivered encrypted (`<name>.age`).
pub const TICKET_FILES: [&str; 3] = [CSV, BIN, VALIDATION];

/// The directory name of block `b` inside an emission directory: `block-NNN`.
pub fn block_dir(b: u32) -> String {
    format!("block-{b:03}")
}

/// The audit report's files.
const REPORT: [&str; 4] = [AUDIT_MD, AUDIT_JSON, AUDIT_SVG, AUDIT_PDF];

/// The name of the directory beside block directory `block` (a file name, such as
/// `block-001`) that receives its audit report: `block-001.audit`.
pub fn audit_dir(block: &str) -> String {
    format!("{block}{AUDIT_DIR_SUFFIX}")
}

/// The name of the directory beside block directory `block` (a file name, such as
/// `block-001`) that receives its proofs: `block-001.proofs`.
pub fn proofs_dir(block: &str) -> String {
    format!("{block}{PROOFS_DIR_SUFFIX}")
}

/// Whether `name` is an audit report file or the temporary file of one
/// (`.audit.md.*.tmp`).
pub fn is_report_file(name: &str) -> bool {
    REPORT.contains(&name)
        || REPORT
            .iter()
            .any(|r| name.starts_with(&format!(".{r}.")) && name.ends_with(".tmp"))
}

/// Whether entry `name` of a block directory is one tirage writes there: a block file (in
/// clear or encrypted), an audit report file or its temporary file (`.audit.md.*.tmp`,
/// which earlier versions wrote inside the block), as a regular file or a symbolic link
/// (`is_dir` false); or `proofs/`, a directory, whose entries [`is_proof`] tells.
pub fn written_by_tirage(name: &str, is_dir: bool) -> bool {
    if name == PROOFS {
        return is_dir;
    }
    let file = [SUMS, SUMS_SIG, MANIFEST, SPEC].contains(&name)
        || TICKET_FILES.iter().any(|f| {
            name.strip_prefix(f)
                .is_some_and(|s| s.is_empty() || s == SEALED_SUFFIX)
        })
        || is_report_file(name);
    file && !is_dir
}

/// Whether entry `name` of `proofs/`, a regular file when `is_file`, is one `render`
/// writes: `ticket-N.svg`, N a ticket number (decimal digits).
pub fn is_proof(name: &str, is_file: bool) -> bool {
    let number = name
        .strip_prefix("ticket-")
        .and_then(|n| n.strip_suffix(".svg"));
    is_file && number.is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The block number a folder's name gives, as people name blocks: a name of one to four
/// digits alone (`002`); else one to four digits after the word `block` (`block-002`,
/// `block002`, `Block_2`, `coq-1-block-002`), the first such; else one to four digits
/// after the game's id `game` and a `-`, `_`, `.` or space (`coq-002`, `coq.2`, `coq 2`),
/// unless another number follows them (`coq-1-002` names an emission and a block, in an
/// order this does not guess). The word or the id begins the name or follows one of those
/// marks; the digits end it or are followed by a mark or a bracket (`block-002-final`,
/// `coq-002-central`, `block-002 (1)`, `block-002.old`). At most
/// [`crate::block::serial::MAX_BLOCK`]. None for a name of another form
/// (`coq-2016-12-30`, `lot-2024-12`, `latest`, `run2`); with `game` `None` (a deck), only
/// the word `block` gives one.
pub fn folder_number(name: &str, game: Option<&str>) -> Option<u32> {
    let lower = name.to_ascii_lowercase();
    let b = lower.as_bytes();
    let mark = |c: u8| matches!(c, b'-' | b'_' | b'.' | b' ');
    let digits = |from: usize| b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    // The number at `from`, and whether another number follows it after a mark.
    let number = |from: usize| -> Option<(u32, bool)> {
        let n = digits(from);
        let next = b.get(from + n).copied();
        if !(1..=4).contains(&n) || next.is_some_and(|c| !(mark(c) || c == b'(' || c == b'[')) {
            return None;
        }
        let v = b[from..from + n]
            .iter()
            .fold(0u32, |v, &d| v * 10 + u32::from(d - b'0'));
        let more = next.is_some_and(mark) && b.get(from + n + 1).is_some_and(u8::is_ascii_digit);
        (v <= crate::block::serial::MAX_BLOCK).then_some((v, more))
    };
    if game.is_some() && !b.is_empty() && b.iter().all(u8::is_ascii_digit) {
        return number(0).map(|(v, _)| v);
    }
    // The numbers after `word` (with a mark between them when `needs_mark`), in order.
    let after = |word: &[u8], needs_mark: bool| -> Vec<(u32, bool)> {
        let mut found = Vec::new();
        for at in 0..b.len() {
            if (at > 0 && !mark(b[at - 1])) || !b[at..].starts_with(word) {
                continue;
            }
            let mut from = at + word.len();
            match b.get(from) {
                Some(&c) if mark(c) => from += 1,
                _ if needs_mark => continue,
                _ => {}
            }
            found.extend(number(from));
        }
        found
    };
    if let Some(&(v, _)) = after(b"block", false).first() {
        return Some(v);
    }
    let game = game
        .map(str::to_ascii_lowercase)
        .filter(|g| !g.is_empty())?;
    after(game.as_bytes(), true)
        .into_iter()
        .find(|&(_, more)| !more)
        .map(|(v, _)| v)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_folders_name_gives_a_block_number_only_as_people_name_blocks() {
        let coq = Some("coq");
        for (name, number) in [
            ("block-002", Some(2)),
            ("BLOCK-003", Some(3)),
            ("block002", Some(2)),
            ("Block_2", Some(2)),
            ("block-0002", Some(2)),
            ("coq-block-002", Some(2)),
            ("block-002-final", Some(2)),
            ("block-002 copy", Some(2)),
            ("block-002 (1)", Some(2)),
            ("block-003(1)", Some(3)),
            ("block-002.old", Some(2)),
            ("coq-002", Some(2)),
            ("coq.002", Some(2)),
            ("coq 2", Some(2)),
            ("coq-002-central", Some(2)),
            ("coq 1 of 3", Some(1)),
            ("coq-1-block-002", Some(2)),
            ("coq-2-block-001", Some(1)),
            ("COQ 2 Block 1", Some(1)),
            ("coq-1-002", None),
            ("coq_1_2", None),
            ("coq-001-012", None),
            ("block-001 copy 2", Some(1)),
            ("2", Some(2)),
            ("002", Some(2)),
            // Dates, years, runs and other words give none.
            ("coq-2016-12-30", None),
            ("lot-2024-12", None),
            ("2024-12-30", None),
            ("coq-2026", None),
            ("block-00003", None),
            ("run2", None),
            ("coq2", None),
            ("deck-2", None),
            ("latest", None),
            ("blocks-2", None),
            ("é-block-2", Some(2)),
            ("", None),
        ] {
            assert_eq!(folder_number(name, coq), number, "{name}");
        }
        // A game whose id ends in digits, in a folder of its name.
        assert_eq!(folder_number("keno-20", Some("keno-20")), None);
        assert_eq!(folder_number("keno-20-003", Some("keno-20")), Some(3));
        // A deck's folder: only the word block binds it.
        assert_eq!(folder_number("block-005", None), Some(5));
        assert_eq!(folder_number("coq-005", None), None);
        assert_eq!(folder_number("5", None), None);
    }

    use super::*;

    #[test]
    fn every_block_file_and_report_is_tirages_and_nothing_else() {
        for n in [
            "SHA256SUMS",
            "SHA256SUMS.minisig",
            "manifest.json",
            "spec.toml",
            "tickets.csv",
            "tickets.bin.age",
            "validation.csv.age",
            "audit.md",
            ".audit.json.x1.tmp",
        ] {
            assert!(written_by_tirage(n, false), "{n}");
            assert!(!written_by_tirage(n, true), "{n} as a directory");
        }
        assert!(written_by_tirage("proofs", true));
        assert!(!written_by_tirage("proofs", false));
        for n in [
            "notes.txt",
            "tickets.csv.bak",
            "spec.toml.age",
            "audit.md.tmp",
        ] {
            assert!(!written_by_tirage(n, false), "{n}");
        }
        assert!(is_proof("ticket-12.svg", true));
        assert!(!is_proof("ticket-12.svg", false));
        assert!(!is_proof("x.svg", true));
        for n in [
            "ticket-1-annotated.svg",
            "ticket- copy.svg",
            "ticket-.svg",
            "ticket-1.svg.bak",
        ] {
            assert!(!is_proof(n, true), "{n}");
        }
        assert_eq!(block_dir(7), "block-007");
        assert_eq!(audit_dir("block-007"), "block-007.audit");
        assert!(is_report_file("audit.pdf") && is_report_file(".audit.svg.a1.tmp"));
        assert!(!is_report_file("tickets.csv") && !is_report_file("audit.md.tmp"));
    }
}
