//! The replay: the block rebuilt in memory from the master seed (and the validation key),
//! every file's SHA-256 compared with the block's. The one procedure that names the
//! generator.

use super::tickets::Expect;
use super::{add, Block, CheckId, Checks, Found, Procedure, ReplayFile, SeedInput};
use crate::block::layout::{BIN, SUMS};
use crate::block::{Kind, Promise, Provenance};
use crate::crypto::rng::Seed;
use crate::crypto::validation::{ValidationKey, Validator};
use crate::generate::{self, BlockPlan, Digests};
use crate::output::manifest::{Manifest, PromisedFeature};
use crate::output::seal::Recipients;
use crate::output::{print_file, sums};
use crate::spec::GameSpec;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

/// The block replayed from the seed is byte for byte the block ([`CheckId::Replay`]).
pub(super) struct Replay;

impl Procedure for Replay {
    fn checks(&self) -> &'static [CheckId] {
        &[CheckId::Replay]
    }

    fn run(&self, block: &Block, found: &mut Found) {
        let (opts, run) = (block.opts, &block.run);
        // A block of as many records as it declares: a replay never builds more tickets than
        // the print file holds.
        let whole = run
            .expect
            .as_ref()
            .is_some_and(|e| e.tickets == run.tickets);
        if let (Some(given), Some(spec), true) = (&opts.seed, &block.spec, whole) {
            found.replay = replay(
                spec,
                block.manifest.as_ref(),
                run.expect.as_ref(),
                (given, opts.validation_key),
                (block.dir, &block.actual),
                &mut found.checks,
                block.progress,
            );
            if found.replay.is_none() && !found.checks.contains_key(&CheckId::Replay) {
                found.not_run.push(CheckId::Replay);
            }
        } else if opts.seed.is_some() {
            found.not_run.push(CheckId::Replay);
        }
    }
}

/// Replays the block in `dir` from `given` in memory and compares every file's SHA-256
/// with the block's (`actual`: name → (bytes, hex SHA-256) of what was read); when
/// tickets.bin (in clear) differs, a second replay names the first ticket that differs and
/// what differs on it. Findings go to [`CheckId::Replay`]; returns the files compared, or
/// `None` when the replay could not run.
fn replay(
    spec: &GameSpec,
    manifest: Option<&Manifest>,
    expect: Option<&Expect>,
    (given, validation_key): (&SeedInput, Option<&ValidationKey>),
    (dir, actual): (&Path, &BTreeMap<String, (u64, String)>),
    checks: &mut Checks,
    progress: &(dyn Fn(u64) + Sync),
) -> Option<Vec<ReplayFile>> {
    let mut bad = |what: String| add(checks, CheckId::Replay, None, what);
    if let Some(m) = manifest {
        if !seed_opens(m, given, &mut bad) {
            return None;
        }
    }
    let Some(expect) = expect else {
        bad("the block number is unknown (no manifest, no print header): no replay".into());
        return None;
    };
    let derived =
        ValidationKey::from_seed(&given.seed, spec.game_code, spec.emission, &spec.sha256);
    let keys = (validation_key, &derived);
    let plan = plan_of(spec, manifest, expect, &given.seed, keys, &mut bad)?;
    let provenance = provenance_of(manifest);
    let plan = plan.recording(&provenance);
    // An encrypted block: the replay rebuilds its plaintexts and its manifest, which
    // records their recipients; the delivered `.age` files differ at each encryption.
    let sealed: Vec<(&str, &[String])> = manifest
        .map(|m| {
            m.files
                .iter()
                .filter_map(|f| f.encrypted_for.as_deref().map(|r| (f.name.as_str(), r)))
                .collect()
        })
        .unwrap_or_default();
    let recipients = match Recipients::from_manifest(&sealed) {
        Ok(r) => r,
        Err(e) => {
            bad(format!("no replay: the manifest's recipients: {e}"));
            return None;
        }
    };
    let plan = plan.sealed_for(&recipients);
    // The ticket pass's freed buffers go back to the system before the block is built again.
    crate::store::memory::give_back_free();
    let built = match generate::build(&plan.clone().reporting(progress), &mut Digests::default()) {
        Ok(b) => b,
        Err(e) => {
            bad(format!("the replay failed: {e}"));
            return None;
        }
    };
    let mut expected: Vec<(String, String)> = sums::parse(&built.sums).expect("own SHA256SUMS");
    if !recipients.any() {
        expected.push((
            SUMS.into(),
            hex::encode(Sha256::digest(built.sums.as_bytes())),
        ));
    }
    let files: Vec<ReplayFile> = expected
        .into_iter()
        .map(|(name, replay_sha256)| {
            let block_sha256 = actual.get(&name).map(|a| a.1.clone());
            let identical = block_sha256.as_deref() == Some(replay_sha256.as_str());
            ReplayFile {
                name,
                block_sha256,
                replay_sha256,
                identical,
            }
        })
        .collect();
    let bin_differs = files
        .iter()
        .any(|f| f.name == BIN && !f.identical && f.block_sha256.is_some());
    if bin_differs {
        if let Some(what) = first_difference(&plan, dir, spec) {
            bad(what);
        }
    }
    for f in files.iter().filter(|f| !f.identical) {
        bad(match &f.block_sha256 {
            Some(h) => format!(
                "{}: the replay gives SHA-256 {}, the block's file has {h}",
                f.name, f.replay_sha256
            ),
            None => format!("{}: missing or unreadable in the block", f.name),
        });
    }
    Some(files)
}

/// Checks that the seed `given` is the one manifest `m` records: each seed share opens
/// the commitment at its place, the beacon is the recorded one, the seed's commitment is
/// the manifest's. Findings go to `bad`; returns false when the seed is not this block's
/// (then no replay).
fn seed_opens(m: &Manifest, given: &SeedInput, bad: &mut dyn FnMut(String)) -> bool {
    if !given.shares.is_empty() {
        match &m.seed_shares {
            None => bad("seed shares were given, but the manifest records none: the block was generated from a whole seed".into()),
            Some(theirs) if theirs.len() != given.shares.len() => bad(format!(
                "{} seed shares were given, the manifest records {}",
                given.shares.len(),
                theirs.len()
            )),
            Some(theirs) => {
                for (i, (share, c)) in given.shares.iter().zip(theirs).enumerate() {
                    if crate::crypto::ceremony::opens(c, share) {
                        continue;
                    }
                    // A share that opens another place's commitment: given out of order.
                    let elsewhere = theirs
                        .iter()
                        .position(|o| crate::crypto::ceremony::opens(o, share));
                    bad(match elsewhere {
                        Some(j) => format!(
                            "seed share {} opens the commitment the manifest records in place {}: the shares were given in another order than the commitments; give them in the commitments' order",
                            i + 1,
                            j + 1
                        ),
                        None => format!(
                            "seed share {} does not open the commitment the manifest records at that place ({c}), nor any other",
                            i + 1
                        ),
                    });
                }
            }
        }
    }
    let theirs = m.seed_beacon.as_deref();
    match (given.beacon.as_ref().map(|b| b.to_hex()), theirs) {
        _ if given.shares.is_empty() => {}
        (None, Some(b)) => bad(format!(
            "the manifest records the beacon {b} mixed into the seed: give it (--beacon) to replay"
        )),
        (Some(g), t) if Some(g.as_str()) != t => bad(format!(
            "the beacon given ({g}) is not the one the manifest records ({})",
            t.unwrap_or("none")
        )),
        _ => {}
    }
    let c = given.seed.commitment();
    if c != m.seed_commitment {
        bad(format!(
            "the seed given has commitment {c}, the manifest records {}: it is not this block's seed; no replay",
            m.seed_commitment
        ));
        return false;
    }
    true
}

/// The plan of the block `expect` describes, from `seed`: a production block with the
/// validation key given (`keys.0`) or, when `manifest` says so, the one derived from the
/// seed (`keys.1`); a specimen deck with its counts, composition and promises. Findings go
/// to `bad`; `None` when no replay can run.
fn plan_of<'a>(
    spec: &'a GameSpec,
    manifest: Option<&Manifest>,
    expect: &Expect,
    seed: &'a Seed,
    (validation_key, derived): (Option<&'a ValidationKey>, &'a ValidationKey),
    bad: &mut dyn FnMut(String),
) -> Option<BlockPlan<'a>> {
    let plan = match expect.kind {
        Kind::Production => match (
            BlockPlan::production(spec, seed, expect.block),
            validation_key,
        ) {
            (Err(e), _) => {
                bad(format!("no replay: {e}"));
                return None;
            }
            (Ok(p), _) if manifest.is_some_and(|m| m.validation_key_from_seed) => {
                p.validated_by_seed(derived)
            }
            (Ok(_), None) => {
                bad("no replay: a production block's validation codes are made with the emission's validation key, not the seed: give it too (--validation-key FILE)".into());
                return None;
            }
            (Ok(p), Some(key)) => {
                let c = Validator::key_commitment(key);
                if let Some(m) = manifest.filter(|m| m.validation_key_commitment != c) {
                    bad(format!(
                        "the validation key given has commitment {c}, the manifest records {}: it is not this block's key; no replay",
                        m.validation_key_commitment
                    ));
                    return None;
                }
                p.validated_by(key)
            }
        },
        Kind::Specimen => {
            let Ok(counts) = expect
                .counts
                .iter()
                .map(|&c| u32::try_from(c))
                .collect::<Result<Vec<u32>, _>>()
            else {
                bad("no replay: the specimen counts do not fit".into());
                return None;
            };
            let plan = BlockPlan {
                composition: manifest.and_then(|m| m.composition),
                ..BlockPlan::specimen(spec, seed, counts)
            };
            match manifest.and_then(|m| m.promised_features.as_ref()) {
                None => plan,
                Some(list) => match promises_of(spec, list) {
                    Ok(p) => plan.promising(p),
                    Err(what) => {
                        bad(format!("no replay: {what}"));
                        return None;
                    }
                },
            }
        }
    };
    Some(plan)
}

/// What `manifest` records of the seed and the tool, for the replay's manifest to match.
fn provenance_of(manifest: Option<&Manifest>) -> Provenance {
    match manifest {
        Some(m) => Provenance {
            seed_shares: m.seed_shares.clone(),
            seed_beacon: m.seed_beacon.clone(),
            tool: Some(m.tool.clone()),
            spec_source: Some(m.spec.source.clone()),
            insecure_seed: m.insecure_seed,
        },
        None => Provenance::default(),
    }
}

/// The first print record of `dir`'s tickets.bin that is not the one `plan` makes, in
/// words: its ticket, pack and position, and each field that differs (serial,
/// validation code, each face column with both values; the code itself is never shown);
/// then, when more records differ, how many in all and the first [`LISTED`] tickets.
/// `None` when the file cannot be read or no record differs.
fn first_difference(plan: &BlockPlan, dir: &Path, spec: &GameSpec) -> Option<String> {
    let file = crate::store::regular::open_regular(&dir.join(BIN)).ok()?;
    let mut file = std::io::BufReader::new(file);
    let head = print_file::header(spec, plan.block, plan.tickets());
    let mut got = vec![0u8; head.len()];
    if file.read_exact(&mut got).is_err() || got != head {
        return Some(format!(
            "{BIN}'s header is not the one the replay writes (see print_header)"
        ));
    }
    let rec = print_file::record_size(spec);
    let cols = &spec.game.layout().columns;
    let (mut first, mut ended) = (None, false);
    // Every record that differs: how many, and the first tickets.
    let (mut differ, mut listed) = (0u64, Vec::new());
    let mut buf = vec![0u8; rec];
    let mut compare = |bytes: &[u8]| {
        for want in bytes.chunks(rec) {
            if ended {
                return;
            }
            let ticket = || print_file::read_record(want, cols.len()).ticket;
            if file.read_exact(&mut buf).is_err() {
                ended = true;
                first.get_or_insert_with(|| {
                    format!("{BIN} ends before ticket {} of the replay", ticket())
                });
            } else if buf != want {
                differ += 1;
                if listed.len() < LISTED {
                    listed.push(ticket().to_string());
                }
                first.get_or_insert_with(|| describe(&buf, want, cols));
            }
        }
    };
    let quiet = |_| {};
    let plan = plan.clone().reporting(&quiet);
    generate::build(&plan, &mut Digests::with_records(&mut compare)).ok()?;
    let first = first?;
    Some(match differ {
        0 | 1 => first,
        n => format!(
            "{first}; {n} tickets in all are not the ones the seed makes (tickets {}{})",
            listed.join(", "),
            if n > LISTED as u64 { ", …" } else { "" }
        ),
    })
}

/// The tickets a replay's finding lists of those that differ.
const LISTED: usize = 10;

/// Print record `got` of the block against `want`, the replay's, in words.
fn describe(got: &[u8], want: &[u8], cols: &[crate::styles::Column]) -> String {
    let (g, w) = (
        print_file::read_record(got, cols.len()),
        print_file::read_record(want, cols.len()),
    );
    let mut diffs = Vec::new();
    if (g.ticket, g.pack, g.pack_position) != (w.ticket, w.pack, w.pack_position) {
        diffs.push(format!(
            "numbered ticket {} (pack {}, position {})",
            g.ticket, g.pack, g.pack_position
        ));
    }
    if g.serial != w.serial {
        diffs.push(format!(
            "serial {}, the replay gives {}",
            String::from_utf8_lossy(&g.serial),
            String::from_utf8_lossy(&w.serial)
        ));
    }
    if g.validation != w.validation {
        diffs.push("its validation code is not the replay's".into());
    }
    let shown = |c: &crate::styles::Column, code: u8| {
        c.values
            .get(usize::from(code))
            .map_or(format!("code {code}"), |v| format!("{v:?}"))
    };
    let faces: Vec<String> = cols
        .iter()
        .enumerate()
        .filter(|&(k, _)| g.face.codes[k] != w.face.codes[k])
        .map(|(k, c)| {
            format!(
                "{} shows {}, the replay {}",
                c.name,
                shown(c, g.face.codes[k]),
                shown(c, w.face.codes[k])
            )
        })
        .collect();
    const SHOWN: usize = 6;
    diffs.extend(faces.iter().take(SHOWN).cloned());
    if faces.len() > SHOWN {
        diffs.push(format!("{} more face columns differ", faces.len() - SHOWN));
    }
    if diffs.is_empty() {
        diffs.push("its bytes differ outside the fields tirage reads".into());
    }
    format!(
        "ticket {} (pack {}, position {}) is the first that is not the one the seed makes: {}",
        w.ticket,
        w.pack,
        w.pack_position,
        diffs.join("; ")
    )
}

/// The promises a deck's manifest lists, as the generator takes them. Errors: a feature the
/// game does not show with this spec, or a way the spec does not have.
fn promises_of(spec: &GameSpec, list: &[PromisedFeature]) -> Result<Vec<Promise>, String> {
    let known = spec.game.features();
    list.iter()
        .map(|p| {
            let feature = known
                .iter()
                .find(|(_, f)| f.name == p.feature)
                .map(|&(id, _)| id)
                .ok_or_else(|| {
                    format!(
                        "the manifest promises feature \"{}\", which this spec's play styles do not show",
                        p.feature
                    )
                })?;
            let way = spec.way_by_id(&p.way).ok_or_else(|| {
                format!(
                    "the manifest promises {} on way \"{}\", which the spec does not have",
                    p.feature, p.way
                )
            })?;
            Ok(Promise {
                feature,
                way,
                forced: p.forced,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::testing::{block, findings, made, run, seed};
    use super::super::Options;
    use super::*;
    use crate::crypto::rng::Seed;

    #[test]
    fn the_seed_replays_the_block_and_another_seed_is_a_finding() {
        let m = made();
        let opts = Options {
            seed: Some(SeedInput::whole(seed())),
            ..Options::default()
        };
        let found = run(&Replay, &block(&m, &opts));
        assert_eq!(findings(&found, CheckId::Replay), 0);
        let files = found.replay.expect("replayed");
        assert!(!files.is_empty() && files.iter().all(|f| f.identical));
        let other = Seed::from_hex(&"ab".repeat(32)).unwrap();
        let opts = Options {
            seed: Some(SeedInput::whole(other)),
            ..Options::default()
        };
        let found = run(&Replay, &block(&m, &opts));
        assert_eq!(findings(&found, CheckId::Replay), 1);
        assert!(found.replay.is_none());
    }
}
