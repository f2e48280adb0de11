//! The seed ceremony a block records: its share commitments bind this block, their
//! signatures hold ([`CheckId::Manifest`]), and they are the ones the parties published,
//! with the beacon fixed after them ([`CheckId::Ceremony`]).

use super::{add, Block, CheckId, Found, Procedure};
use crate::crypto::ceremony::Commitment;
use crate::crypto::rng::Beacon;
use crate::output::manifest::Manifest;

/// What the manifest says of the ceremony, on its own: two or more share commitment lines,
/// all different, each well formed, each binding this game, emission, spec and block, each
/// signature holding; a beacon only with shares, and of a beacon's form. Findings go to
/// `bad`.
pub(super) fn check_recorded(m: &Manifest, bad: &mut impl FnMut(String)) {
    if let Some(shares) = &m.seed_shares {
        let mut parsed: Vec<Commitment> = Vec::new();
        for (i, line) in shares.iter().enumerate() {
            let c = match Commitment::parse(line) {
                Ok(c) => c,
                Err(e) => {
                    bad(format!("seed share commitment {}: {e}", i + 1));
                    continue;
                }
            };
            let block = m.block..=m.block;
            if let Some(why) =
                c.binding
                    .refuses(m.game.game_code, m.game.emission, &m.spec.sha256, &block)
            {
                bad(format!(
                    "seed share commitment {} does not bind this block: {why}",
                    i + 1
                ));
            }
            if let Err(e) = c.check_signature() {
                bad(format!("seed share commitment {}: {e}", i + 1));
            }
            if parsed.iter().any(|o| o.commitment() == c.commitment()) {
                bad(format!(
                    "seed share commitment {} is an earlier one again: one party counted twice",
                    i + 1
                ));
            }
            parsed.push(c);
        }
        if shares.len() < 2 {
            bad("seed share commitments: expected two or more (one per party)".into());
        }
    }
    if let Some(b) = &m.seed_beacon {
        if m.seed_shares.is_none() {
            bad("a seed beacon is recorded, but no seed share: a beacon is mixed into a seed made of shares only".into());
        }
        if Beacon::from_hex(b).map(|x| x.to_hex()).as_deref() != Ok(b.as_str()) {
            bad("seed beacon: expected 32 to 128 lowercase hex digits".into());
        }
    }
}

/// The manifest's ceremony is the published one ([`CheckId::Ceremony`]): the same
/// commitment lines, in the same order, signed by the same keys (`--commitments`), and
/// the beacon published after them (`--beacon`).
pub(super) struct Published;

impl Procedure for Published {
    fn checks(&self) -> &'static [CheckId] {
        &[CheckId::Ceremony]
    }

    fn run(&self, block: &Block, found: &mut Found) {
        let opts = block.opts;
        if opts.commitments.is_none() && opts.beacon.is_none() {
            return;
        }
        let Some(m) = &block.manifest else {
            found.not_run.push(CheckId::Ceremony);
            return;
        };
        let mut bad = |what: String| add(&mut found.checks, CheckId::Ceremony, None, what);
        if let Some(published) = opts.commitments {
            check_published(m, published, &mut bad);
        }
        if let Some(beacon) = &opts.beacon {
            match &m.seed_beacon {
                Some(b) if *b == beacon.to_hex() => {}
                Some(b) => bad(format!(
                    "the manifest records the beacon {b}, not the published one ({})",
                    beacon.to_hex()
                )),
                None => bad(format!(
                    "the manifest records no beacon; the published one is {}",
                    beacon.to_hex()
                )),
            }
        }
    }
}

/// What the verdict line says of the ceremony of a block whose seed was made of shares
/// (`None` otherwise): how many, and whether the published commitments and beacon were
/// held against the manifest's (`clean`: the ceremony check found nothing).
pub(super) fn held_against(m: &Manifest, opts: &super::Options, clean: bool) -> Option<String> {
    let n = m.seed_shares.as_ref()?.len();
    let made = match m.seed_beacon {
        Some(_) => format!("seed made of {n} shares and a beacon"),
        None => format!("seed made of {n} shares"),
    };
    let given = match (opts.commitments.is_some(), opts.beacon.is_some()) {
        (false, false) => None,
        (true, false) => Some("the published commitments"),
        (false, true) => Some("the published beacon"),
        (true, true) => Some("the published commitments and beacon"),
    };
    Some(match given {
        None => format!("{made}, not held against a published ceremony (no --commitments)"),
        Some(w) if clean => format!("{made}, held against {w}"),
        Some(w) => format!("{made}: NOT those of {w}"),
    })
}

/// The manifest's commitment lines against the `published` ones, line by line.
fn check_published(m: &Manifest, published: &[Commitment], bad: &mut impl FnMut(String)) {
    let Some(recorded) = &m.seed_shares else {
        bad("the manifest records no seed share: the block was made from a whole seed, not from the published commitments".into());
        return;
    };
    if recorded.len() != published.len() {
        bad(format!(
            "the manifest records {} share commitment(s), the published file holds {}",
            recorded.len(),
            published.len()
        ));
    }
    for (i, (r, p)) in recorded.iter().zip(published).enumerate() {
        let ours = Commitment::parse(r).ok();
        if ours.as_ref() == Some(p) {
            continue;
        }
        let what = match ours {
            Some(o) if o.commitment() == p.commitment() => format!(
                "seed share commitment {} is the published one, but signed otherwise (manifest: {}; published: {})",
                i + 1,
                signer(&o),
                signer(p)
            ),
            _ => match published.iter().position(|q| Some(q.line()) == Some(r.clone())) {
                Some(j) => format!(
                    "seed share commitment {} of the manifest is published at place {}: the shares were combined in another order",
                    i + 1,
                    j + 1
                ),
                None => format!(
                    "seed share commitment {} of the manifest is not the published one ({})",
                    i + 1,
                    p.commitment()
                ),
            },
        };
        bad(what);
    }
}

/// `key XXXXXXXXXXXXXXXX` or `unsigned`.
fn signer(c: &Commitment) -> String {
    match (&c.signature, c.signer_id()) {
        (Some(s), Some(id)) => format!("key {id} ({})", s.public_key),
        (Some(s), None) => format!("key {}", s.public_key),
        (None, _) => "unsigned".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{block, findings, made, run};
    use super::super::Options;
    use super::*;
    use crate::crypto::rng::Beacon;

    /// A block whose manifest records no beacon: nothing to hold unless one was published;
    /// then its absence is a finding.
    #[test]
    fn a_published_beacon_the_manifest_does_not_record_is_a_finding() {
        let m = made();
        let none = Options::default();
        assert_eq!(
            findings(&run(&Published, &block(&m, &none)), CheckId::Ceremony),
            0
        );
        let opts = Options {
            beacon: Some(Beacon(vec![7; 32])),
            ..Options::default()
        };
        let found = run(&Published, &block(&m, &opts));
        assert_eq!(findings(&found, CheckId::Ceremony), 1);
    }
}
