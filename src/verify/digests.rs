//! The digests: every file `SHA256SUMS` lists, and every file the manifest lists (size and
//! SHA-256), against what was read.

use super::{add, Block, CheckId, Found, Procedure};
use crate::block::layout::{PUBLIC_KEY, SEALED_SUFFIX, SUMS, SUMS_SIG};

/// Every file is as `SHA256SUMS` and the manifest say ([`CheckId::Sha256sums`],
/// [`CheckId::Manifest`]).
pub(super) struct Digests;

impl Procedure for Digests {
    fn checks(&self) -> &'static [CheckId] {
        &[CheckId::Sha256sums, CheckId::Manifest]
    }

    fn run(&self, block: &Block, found: &mut Found) {
        // Why a file was not read: missing, what it is instead (a FIFO, a link…), or, a
        // regular file, not one a block holds, which verify reads none of.
        let unread = |name: &str| match crate::output::open_regular(&block.dir.join(name)) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => "missing".to_string(),
            Err(e) => format!("cannot be read: {e}"),
            Ok(_) => "is none of a block's files, so it was not read".to_string(),
        };
        // Digests: SHA256SUMS and the manifest against what was read.
        for (name, hash) in &block.listed {
            match block.actual.get(name) {
                None => add(
                    &mut found.checks,
                    CheckId::Sha256sums,
                    None,
                    format!("{name} is listed but {}", unread(name)),
                ),
                Some((_, h)) if h != hash => add(
                    &mut found.checks,
                    CheckId::Sha256sums,
                    None,
                    format!("{name}: SHA-256 {h}, SHA256SUMS says {hash}"),
                ),
                _ => {}
            }
        }
        unlisted(block, found);
        if let Some(m) = &block.manifest {
            for f in &m.files {
                match block.actual.get(&f.name) {
                    None if f.encrypted_for.is_some() => add(
                        &mut found.checks,
                        CheckId::Manifest,
                        None,
                        format!(
                            "{}: delivered encrypted ({}{}) and not opened: its plaintext digest was not checked",
                            f.name,
                            f.name,
                            SEALED_SUFFIX
                        ),
                    ),
                    None => add(
                        &mut found.checks,
                        CheckId::Manifest,
                        None,
                        format!("{} is in the manifest but {}", f.name, unread(&f.name)),
                    ),
                    Some((n, h)) => {
                        if *n != f.bytes {
                            add(
                                &mut found.checks,
                                CheckId::Manifest,
                                None,
                                format!("{}: {n} bytes, the manifest says {}", f.name, f.bytes),
                            );
                        }
                        if *h != f.sha256 {
                            add(
                                &mut found.checks,
                                CheckId::Manifest,
                                None,
                                format!("{}: SHA-256 {h}, the manifest says {}", f.name, f.sha256),
                            );
                        }
                    }
                }
            }
        }
    }
}

/// Every entry of the block directory that `SHA256SUMS` does not list (`SHA256SUMS`, its
/// signature and the operator's public key a bundle carries, `operator.pub`, aside: an
/// auditor's bundle is the whole block, [`crate::package`]) is a finding of [`CheckId::Sha256sums`]: a delivered block is exactly the
/// files it lists, so a clear `tickets.csv` beside `tickets.csv.age`, a `proofs/` folder or a
/// note slipped in is named, never certified with the rest. A directory that cannot be
/// listed adds nothing here (its files are then missing, a finding of their own).
fn unlisted(block: &Block, found: &mut Found) {
    let Ok(entries) = std::fs::read_dir(block.dir) else {
        return;
    };
    let mut extra: Vec<String> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| {
            n != SUMS
                && n != SUMS_SIG
                && n != PUBLIC_KEY
                && !block.listed.iter().any(|(l, _)| l == n)
        })
        .collect();
    extra.sort();
    for name in extra {
        add(
            &mut found.checks,
            CheckId::Sha256sums,
            None,
            format!(
                "{name} is in the block but SHA256SUMS does not list it: a delivered block holds only the files it lists"
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{block, findings, made, run};
    use super::super::Options;
    use super::*;
    use crate::block::layout::CSV;

    #[test]
    fn a_file_unlike_its_digests_is_a_finding_of_each_list() {
        let m = made();
        let opts = Options::default();
        let mut b = block(&m, &opts);
        let found = run(&Digests, &b);
        assert_eq!(findings(&found, CheckId::Sha256sums), 0);
        assert_eq!(findings(&found, CheckId::Manifest), 0);
        b.actual.get_mut(CSV).unwrap().1 = "0".repeat(64);
        let found = run(&Digests, &b);
        assert_eq!(findings(&found, CheckId::Sha256sums), 1);
        assert_eq!(findings(&found, CheckId::Manifest), 1);
        b.actual.remove(CSV);
        let found = run(&Digests, &b);
        assert_eq!(findings(&found, CheckId::Sha256sums), 1);
        assert_eq!(found.checks[&CheckId::Sha256sums].examples.len(), 1);
    }

    #[test]
    fn a_file_the_sums_do_not_list_is_named_as_a_finding() {
        let m = made();
        let opts = Options::default();
        let d = tempfile::tempdir().unwrap();
        for (name, _) in &m.listed {
            std::fs::write(d.path().join(name), b"").unwrap();
        }
        std::fs::write(d.path().join(SUMS), b"").unwrap();
        std::fs::write(d.path().join(SUMS_SIG), b"").unwrap();
        let mut b = block(&m, &opts);
        b.dir = d.path();
        assert_eq!(findings(&run(&Digests, &b), CheckId::Sha256sums), 0);
        // The auditor's clear file beside the block's, and an old proofs folder.
        std::fs::write(d.path().join(format!("{CSV}{SEALED_SUFFIX}")), b"").unwrap();
        std::fs::create_dir(d.path().join("proofs")).unwrap();
        let found = run(&Digests, &b);
        assert_eq!(findings(&found, CheckId::Sha256sums), 2);
        assert_eq!(
            found.checks[&CheckId::Sha256sums]
                .examples
                .iter()
                .map(|f| f.detail.clone())
                .collect::<Vec<_>>(),
            [
                "proofs is in the block but SHA256SUMS does not list it: a delivered block holds only the files it lists".to_string(),
                format!("{CSV}{SEALED_SUFFIX} is in the block but SHA256SUMS does not list it: a delivered block holds only the files it lists"),
            ]
        );
    }
}
