//! Verification of a whole emission directory (`emission.json` and its blocks): every block
//! is verified as by [`super::verify`], then what spans blocks: the emission manifest lists
//! exactly the block directories with the digests of their manifests; every block shares the
//! game, spec, emission, seed commitment and validation-key commitment; block numbers are
//! distinct (so serials are unique across the emission); validation codes are unique across
//! the emission (checked on the codes themselves, not only by construction).

use super::report::{Findings, EXAMPLES};
use super::{verify_block, Options, Report, VerifyError};
use crate::block::layout::{audit_dir, block_dir, proofs_dir, EMISSION, EMISSION_SIG, MANIFEST};
use crate::output::emission_manifest::{BlockEntry, EmissionManifest};
use crate::output::manifest::Manifest;
use crate::output::MAX_JSON;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::fmt::Write;
use std::path::Path;

/// What the emission-wide procedure establishes, in one sentence.
pub const EMISSION_PROCEDURE: &str = "emission.json lists every block and its manifest digest; one game, spec, seed and validation key; distinct blocks; serials and validation codes unique across the emission";

/// The report of an emission.
#[derive(Debug, Clone, Serialize)]
pub struct EmissionReport {
    /// The emission directory.
    pub dir: String,
    /// True when the emission-level checks and every block are clean.
    pub clean: bool,
    /// Emission-level findings (the first [`EXAMPLES`]) and their count.
    pub findings: u64,
    /// The first emission-level findings.
    pub examples: Vec<String>,
    /// Tickets across all blocks.
    pub tickets: u64,
    /// The game id `emission.json` names, when it parses.
    pub game: Option<String>,
    /// The emission number `emission.json` names, when it parses.
    pub emission: Option<u16>,
    /// Hex SHA-256 of the spec `emission.json` names, when it parses.
    pub spec_sha256: Option<String>,
    /// Hex SHA-256 of `emission.json` as read, when it could be read.
    pub emission_json_sha256: Option<String>,
    /// Every block's own report.
    pub blocks: Vec<Report>,
}

impl EmissionReport {
    /// Text: the emission-level result, then every block's report.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "tirage verify {} — emission of {} blocks, {} tickets",
            self.dir,
            self.blocks.len(),
            crate::money::grouped(self.tickets)
        );
        let _ = writeln!(
            s,
            "{:<7} emission           {EMISSION_PROCEDURE}",
            if self.findings == 0 { "PASS" } else { "FAIL" }
        );
        for e in &self.examples {
            let _ = writeln!(s, "          {e}");
        }
        for b in &self.blocks {
            let _ = writeln!(s);
            s += &b.to_text();
        }
        let _ = writeln!(s);
        s += &self.verdict_text();
        s
    }

    /// The verdict alone (what `verify -q` prints): `emission verify: CLEAN`, or FINDINGS
    /// naming the procedures with findings, the emission-wide one first, then each block's
    /// after its directory (`emission verify: FINDINGS (emission fail; em/block-002: spec
    /// fail)`); then what each block's verdict was held against
    /// ([`super::report::Authenticated::describe`]): once for every block when it is the
    /// same for all, else a line a block.
    pub fn verdict_text(&self) -> String {
        let mut s = if self.clean {
            "emission verify: CLEAN\n".to_string()
        } else {
            let mut with: Vec<String> = Vec::new();
            if self.findings > 0 {
                with.push("emission fail".into());
            }
            for b in self.blocks.iter().filter(|b| !b.clean) {
                let failed: Vec<String> = b
                    .checks
                    .iter()
                    .filter(|c| !c.is_clean())
                    .map(|c| format!("{} {}", c.id.name(), c.result))
                    .collect();
                with.push(format!("{}: {}", b.dir, failed.join(", ")));
            }
            format!("emission verify: FINDINGS ({})\n", with.join("; "))
        };
        let held: Vec<(&str, String)> = self
            .blocks
            .iter()
            .map(|b| (b.dir.as_str(), b.held_against()))
            .collect();
        match held.as_slice() {
            [(_, first), rest @ ..] if rest.iter().all(|(_, h)| h == first) => {
                let _ = writeln!(s, "held against, every block: {first}");
            }
            _ => {
                for (dir, h) in &held {
                    let _ = writeln!(s, "held against, {dir}: {h}");
                }
            }
        }
        s
    }
}

/// Where the first code met twice is, in words (`; the first: ticket 12 of block-001 and
/// ticket 40 of block-002 share one`), from the print files of blocks `runs[a]` and
/// `runs[b]` of the emission in `dir`; the code itself is never shown.
fn shared_code(dir: &Path, runs: &[String], code: u64, a: usize, b: usize) -> String {
    let tickets = |i: usize| {
        let name = runs.get(i).map_or("?", String::as_str);
        let found =
            super::codes::tickets_with_code(&dir.join(name).join(crate::block::layout::BIN), code);
        (name, found.unwrap_or_default())
    };
    let (na, ta) = tickets(a);
    let places: Vec<String> = if a == b {
        ta.iter()
            .take(2)
            .map(|t| format!("ticket {t} of {na}"))
            .collect()
    } else {
        let (nb, tb) = tickets(b);
        let one = |n: &str, t: &[u32]| {
            t.first()
                .map_or(n.to_string(), |t| format!("ticket {t} of {n}"))
        };
        vec![one(na, &ta), one(nb, &tb)]
    };
    match places.as_slice() {
        [x, y] => format!("; the first: {x} and {y} share one"),
        _ => format!("; the first is in {na}"),
    }
}

/// True when `dir` holds an emission manifest.
pub fn is_emission(dir: &Path) -> bool {
    dir.join(EMISSION).is_file()
}

/// `emission.json` of `dir`, read once and parsed, its signature checked over the bytes
/// parsed when a key is given or the reference spec pins the operator's (then that key,
/// whatever --signer says). Findings go to `f`. Returns the manifest (`None` when it cannot
/// be read or parsed) and the hex SHA-256 of the bytes read (`None` when unreadable).
fn read_emission_manifest(
    dir: &Path,
    opts: &Options,
    f: &mut Findings,
) -> (Option<EmissionManifest>, Option<String>) {
    // emission.json read once: its signature is checked over the bytes parsed.
    let json = crate::output::read_regular(&dir.join(EMISSION), MAX_JSON);
    let em: Option<EmissionManifest> = match &json {
        Err(e) => {
            f.add(None, format!("cannot read emission.json: {e}"));
            None
        }
        Ok(b) => serde_json::from_slice(b)
            .map_err(|e| f.add(None, format!("emission.json does not parse: {e}")))
            .ok(),
    };
    if let Some(v) = super::signature::signature_key(opts) {
        let sig = crate::output::read_regular(&dir.join(EMISSION_SIG), 1 << 16);
        match (v, &json, sig) {
            (Err(e), _, _) => f.add(None, format!("{EMISSION_SIG}: {e}")),
            (Ok(v), Ok(j), Ok(s)) => {
                if let Err(e) = v.verify(j, &String::from_utf8_lossy(&s)) {
                    f.add(None, format!("{EMISSION_SIG}: {e}"));
                }
            }
            (_, _, Err(e)) => f.add(
                None,
                format!("{EMISSION_SIG}: {e}: the emission manifest is not signed"),
            ),
            (_, Err(_), _) => {}
        }
    }
    let digest = json.as_ref().ok().map(|b| hex::encode(Sha256::digest(b)));
    (em, digest)
}

/// Checks the list of blocks of `em` against the emission directory `dir`: no block number
/// twice, at least one block, every block directory on disk listed, and nothing else in the
/// emission directory. Findings go to `f`.
fn check_listing(dir: &Path, em: &EmissionManifest, f: &mut Findings) {
    let mut numbers: Vec<u32> = em.blocks.iter().map(|b| b.block).collect();
    numbers.sort_unstable();
    if numbers.windows(2).any(|w| w[0] == w[1]) {
        f.add(None, "a block number appears twice in emission.json");
    }
    if em.blocks.is_empty() {
        f.add(None, "emission.json lists no block");
    }
    // Every block directory on disk is listed, and every listed one is the plain
    // `block-NNN` of its number: no block escapes the check, none is read elsewhere.
    // A listed block's audit report and proofs beside it (`block-NNN.audit`,
    // `block-NNN.proofs`) are no block.
    let listed: Vec<String> = em.blocks.iter().map(|b| block_dir(b.block)).collect();
    if let Ok(entries) = std::fs::read_dir(dir) {
        let mut on_disk: Vec<String> = entries
            .filter_map(|e| e.ok())
            .filter(|e| e.path().is_dir())
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| n.starts_with("block-"))
            .filter(|n| !listed.contains(n))
            .filter(|n| {
                !listed
                    .iter()
                    .any(|l| *n == audit_dir(l) || *n == proofs_dir(l))
            })
            .collect();
        on_disk.sort();
        for n in on_disk {
            f.add(
                None,
                format!("{n} is in the emission directory but not in emission.json"),
            );
        }
    }
    // Nothing else: an emission is delivered as it is, so a note, a proof or another file
    // slipped in is named, never certified with the rest.
    if let Ok(entries) = std::fs::read_dir(dir) {
        let mut other: Vec<String> = entries
            .filter_map(|e| e.ok())
            .filter(|e| {
                let n = e.file_name();
                n != EMISSION
                    && n != EMISSION_SIG
                    && !(e.path().is_dir() && n.to_string_lossy().starts_with("block-"))
            })
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        other.sort();
        for n in other {
            f.add(
                None,
                format!("{n} is in the emission directory but is none of an emission's entries (emission.json, its signature, its blocks, their audit reports and proofs): an emission is delivered as it is"),
            );
        }
    }
}

/// Checks the manifest of the block `entry` of `em` (in `bdir`): its SHA-256 is the one
/// `emission.json` lists, and it is a production block of this game, emission, spec, seed
/// and validation key. Findings go to `f`.
fn check_block_manifest(bdir: &Path, entry: &BlockEntry, em: &EmissionManifest, f: &mut Findings) {
    match crate::output::read_regular(&bdir.join(MANIFEST), MAX_JSON) {
        Err(e) => f.add(
            None,
            format!("{}: cannot read manifest.json: {e}", entry.dir),
        ),
        Ok(bytes) => {
            let digest = hex::encode(Sha256::digest(&bytes));
            if digest != entry.manifest_sha256 {
                f.add(
                    None,
                    format!(
                        "{}: manifest.json SHA-256 {digest}, emission.json says {}",
                        entry.dir, entry.manifest_sha256
                    ),
                );
            }
            match serde_json::from_slice::<Manifest>(&bytes) {
                Ok(m) => {
                    let same = m.kind == crate::block::Kind::Production
                        && m.block == entry.block
                        && m.game.id == em.game
                        && m.game.emission == em.emission
                        && m.spec.sha256 == em.spec_sha256
                        && m.seed_commitment == em.seed_commitment
                        && m.validation_key_commitment == em.validation_key_commitment;
                    if !same {
                        f.add(None, format!("{}: kind, block, game, emission, spec, seed or validation key differ from emission.json (an emission holds production blocks only)", entry.dir));
                    }
                }
                Err(e) => f.add(
                    None,
                    format!("{}: manifest.json does not parse: {e}", entry.dir),
                ),
            }
        }
    }
}

/// Verifies the emission in `dir`. Errors: `dir` is not a directory.
pub fn verify_emission(
    dir: &Path,
    opts: &Options,
    progress: &(dyn Fn(u32, u64) + Sync),
) -> Result<EmissionReport, VerifyError> {
    if !dir.is_dir() {
        return Err(VerifyError::not_a_directory(dir));
    }
    let mut f = Findings::default();
    let (em, json_sha256) = read_emission_manifest(dir, opts, &mut f);
    let mut blocks = Vec::new();
    // Every block's codes sorted on disk, merged at the end: bounded memory.
    let scratch = |error| VerifyError::Scratch { error };
    let mut codes = super::codes::CodeRuns::new().map_err(scratch)?;
    // The block directory of each run of codes, in the order added.
    let mut runs: Vec<String> = Vec::new();
    let mut tickets = 0;
    if let Some(em) = &em {
        check_listing(dir, em, &mut f);
        for entry in &em.blocks {
            if entry.dir != block_dir(entry.block) {
                f.add(
                    None,
                    format!(
                        "block {} is listed in {:?}; expected {:?}",
                        entry.block,
                        entry.dir,
                        block_dir(entry.block)
                    ),
                );
                continue;
            }
            let bdir = dir.join(&entry.dir);
            if !bdir.is_dir() {
                f.add(
                    None,
                    format!("{} is listed in emission.json but missing", entry.dir),
                );
                continue;
            }
            let (report, block_codes) = verify_block(&bdir, opts, &|n| progress(entry.block, n))?;
            tickets += report.tickets;
            codes.add(&block_codes).map_err(scratch)?;
            runs.push(entry.dir.clone());
            drop(block_codes);
            // What the block's check freed goes back to the system, so that each block starts
            // from the same heap.
            crate::store::memory::give_back_free();
            check_block_manifest(&bdir, entry, em, &mut f);
            blocks.push(report);
        }
        let (dups, first) = codes.duplicates().map_err(scratch)?;
        if dups > 0 {
            f.add(
                None,
                format!(
                    "{dups} validation codes appear in more than one ticket of the emission{}",
                    first.map_or(String::new(), |(code, a, b)| shared_code(
                        dir, &runs, code, a, b
                    ))
                ),
            );
        }
    }
    let clean = f.count == 0 && blocks.iter().all(|b| b.clean);
    debug_assert!(f.examples.len() <= EXAMPLES);
    Ok(EmissionReport {
        dir: dir.display().to_string(),
        clean,
        findings: f.count,
        examples: f.examples.into_iter().map(|e| e.detail).collect(),
        tickets,
        game: em.as_ref().map(|e| e.game.clone()),
        emission: em.as_ref().map(|e| e.emission),
        spec_sha256: em.as_ref().map(|e| e.spec_sha256.clone()),
        emission_json_sha256: json_sha256,
        blocks,
    })
}
