//! `tirage deck SPEC`: a small QA deck of specimen tickets.

use super::seed::{SeedArgs, SeedFile};
use super::{lock_output, once_placed, stop_on_signal};
use super::{with_threads, Outcome};
use anyhow::Result;
use std::path::PathBuf;
use tirage::block::deck::{every_way, proportional};
use tirage::block::Kind;
use tirage::generate::{
    check_block_or_nothing, check_destination, check_not_in_emission, existing_block, place,
    BlockPlan, Held,
};
use tirage::spec::GameSpec;

/// Arguments of `tirage deck`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "By default a deck shows every way of the spec once and every feature the game can show
with this spec, each guaranteed: poker's combinations (paire … quinte_flush_royale) with a
weight above 0, and the near misses and named decoys of every game (coq: near_miss_jeu1,
near_miss_jeu2; poker: near_miss_flush, near_miss_straight; pharaon: near_miss_half,
decoy_rebuilt, near_miss_pyramid, decoy_mask) with a rate above 0. A feature that some way
shows on every ticket costs nothing; each other one gets a ticket of its own, built asked to
show it. The rest are losers. The manifest lists every promised feature with its ticket, and
`tirage verify` fails the deck if one is missing.

--proportional N follows the lot table and promises no feature: its tickets show them at the
spec's weights and rates, like a production block.

Deck tickets are specimens: serials of block 000 and validation codes under a separate
test key, so no deck ticket can ever be paid. `tirage verify` checks a deck like a block.

Exit status: 0 written, 2 usage, spec or I/O error (nothing written; what was at the
destination stays as it was), 130 interrupted (Ctrl-C, SIGTERM, SIGHUP: what was written so
far is removed and what was at the destination stays as it was; a deck already complete when
the signal comes is put in place, exit 0, and said so).

Examples:
  tirage deck game_specs/coq.toml                       # every way and feature + 30 losers → output/coq/deck
  tirage deck game_specs/coq.toml --tickets 200 --out /tmp/deck-200
  tirage deck game_specs/coq.toml --proportional 1000 --out /tmp/deck-mix   # tier mix of the lot table, rounded"
)]
pub(super) struct Args {
    /// The game spec (TOML).
    spec: PathBuf,
    /// Deck size: every way once, one ticket per feature no way always shows, the rest
    /// losers (default: those + 30 losers; fewer than those + 1 is an error).
    #[arg(long, conflicts_with = "proportional")]
    tickets: Option<u32>,
    /// A deck of N tickets whose way mix follows the lot table (largest-remainder rounding).
    #[arg(long, value_name = "N")]
    proportional: Option<u32>,
    #[command(flatten)]
    seed: SeedArgs,
    /// Sign SHA256SUMS with this minisign secret key (`tirage keygen`): SHA256SUMS.minisig.
    #[arg(long, value_name = "KEY")]
    sign: Option<PathBuf>,
    /// Output directory. Default: output/<game>/deck.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Replace an existing deck at the destination.
    #[arg(long)]
    force: bool,
    /// No summary (where a fresh seed was saved is still said).
    #[arg(short, long)]
    quiet: bool,
}

pub(super) fn run(a: Args) -> Result<Outcome> {
    // Before anything is staged: a signal from now on leaves nothing behind.
    let stop = stop_on_signal()?;
    let spec = GameSpec::load(&a.spec)?;
    let deck = match a.proportional {
        Some(n) => proportional(&spec, n)?,
        None => every_way(&spec, a.tickets)?,
    };
    let (seed, fresh) = a.seed.seed(&spec, 0..=0)?;
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("output/{}/deck", spec.id)));
    // Before its lock file is made there: not inside an emission, nothing there that is
    // not a block, and the signing key, so that a bad one makes nothing.
    super::named_out(&out)?;
    check_not_in_emission(&out)?;
    check_block_or_nothing(&out)?;
    let signer = super::seed::load_signer(a.sign.as_deref())?;
    super::keys::check_pinned(&spec, signer.as_ref())?;
    let _lock = lock_output(&out, a.force)?;
    // Before the seed is staged: a deck never replaces a production block or its seed.
    check_destination(&out, a.force, Kind::Specimen)?;
    // What --force replaces, to say so when it is another game's deck, another emission's
    // or another game code's.
    let now = Held {
        game: spec.id.clone(),
        game_code: Some(u64::from(spec.game_code)),
        emission: u64::from(spec.emission),
        block: Some(0),
    };
    let replaced = existing_block(&out).filter(|held| *held != now);
    let provenance = a.seed.provenance()?;
    let plan = BlockPlan::deck(&spec, &seed, deck)
        .signed_by(signer.as_ref())
        .cancelled_by(&stop)
        .recording(&provenance);
    let seed_file = SeedFile::beside(&out, &seed, fresh, a.force)?;
    let made = with_threads(0, || {
        place(&plan, &out, a.force, seed_file.placement().as_ref())
    })??;
    let said = once_placed(
        seed_file,
        "deck seed",
        "the deck",
        made.left_over.as_slice(),
        &stop,
    )?;
    super::say_stale_reports(&made.stale_reports, "deck", a.quiet);
    super::say_misnamed(&out, None, 0, "a specimen deck (block 0)");
    if let Some(held) = replaced {
        super::say_replaced(&out, &held.said(&now), &now.said(&held));
    }
    let m = made.manifest;
    if !a.quiet {
        let ways: usize = m
            .tiers
            .iter()
            .map(|t| t.ways.iter().filter(|w| w.count > 0).count())
            .sum();
        let s = |n: u64| if n == 1 { "" } else { "s" };
        errln!(
            "specimen deck of {}: {} ticket{} ({} winner{}, {ways} way{}) → {}",
            m.game.id,
            tirage::money::grouped(u64::from(m.tickets)),
            s(u64::from(m.tickets)),
            tirage::money::grouped(m.lots),
            s(m.lots),
            s(ways as u64),
            out.display()
        );
        if let Some(p) = m.promised_features.as_ref().filter(|p| !p.is_empty()) {
            errln!(
                "features promised: {}",
                p.iter()
                    .map(|f| format!("{} (ticket {})", f.feature, f.ticket))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    if let Some(said) = said {
        errln!("{said}");
    }
    Ok(Outcome::Success)
}
