//! `tirage generate SPEC`: write one block, or every block of an emission.

use super::keys::BlockKeys;
use super::seed::{SeedArgs, SeedFile};
use super::{lock_output, once_placed, stop_on_signal};
use super::{progress, with_threads, Outcome};
use anyhow::Result;
use std::path::PathBuf;
use tirage::block::Kind;
use tirage::crypto::sign::Signer;
use tirage::generate::emission::{
    check_directory_or_nothing, check_emission_destination, existing_emission,
    generate_emission_placing, parse_blocks, EmissionOptions,
};
use tirage::generate::{
    check_block_or_nothing, check_destination, check_not_in_emission, existing_block, place,
    BlockPlan, Held,
};
use tirage::spec::GameSpec;

/// Arguments of `tirage generate`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Exit status: 0 written, 2 usage, spec or I/O error (nothing written; what was at the destination stays as it was), 130 interrupted (Ctrl-C, SIGTERM, SIGHUP: what was written so far is removed and what was at the destination stays as it was; an output already complete when the signal comes is put in place, exit 0, and said so).

Examples:
  tirage generate game_specs/coq.toml
  tirage generate game_specs/coq.toml --seed-file output/coq/block-001.seed --validation-key output/keys/coq.validation-key --out /tmp/coq-001 --threads 2   # replay block 1 of make block
  tirage generate game_specs/coq.toml --blocks 1..3      # an emission: output/coq/emission-001/block-001..003 + emission.json
  tirage generate game_specs/coq.toml --validation-key output/keys/coq.validation-key --sign output/keys/operator.key --out /tmp/coq-signed
  tirage generate game_specs/coq.toml --seed-share alice.share --seed-share bob.share --commitments commitments.txt --out /tmp/coq-sh"
)]
pub(super) struct Args {
    /// The game spec (TOML), e.g. game_specs/coq.toml.
    spec: PathBuf,
    /// Block number (1..=999).
    #[arg(long, default_value_t = 1, conflicts_with = "blocks")]
    block: u32,
    /// Several blocks of one emission from one seed: `A..B` (inclusive) or `N`. Each goes to
    /// <out>/block-NNN, with <out>/emission.json listing them (default <out>:
    /// output/<game>/emission-<EEE>, the spec's emission number, apart from blocks made
    /// one by one).
    #[arg(long)]
    blocks: Option<String>,
    #[command(flatten)]
    seed: SeedArgs,
    #[command(flatten)]
    keys: BlockKeys,
    /// Output directory. Default: output/<game>/block-<NNN> (with --blocks:
    /// output/<game>/emission-<EEE>).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Worker threads (0: one per core). The files are identical for any value.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=256))]
    threads: u16,
    /// Replace an existing block or emission (and seed file) at the destination; the audit
    /// reports beside the older one (`<out>.audit/`, an emission's `<out>.block-NNN.audit/`)
    /// go with it.
    #[arg(long)]
    force: bool,
    /// No progress bar and no summary (where a fresh seed was saved is still said).
    #[arg(short, long)]
    quiet: bool,
}

pub(super) fn run(a: Args) -> Result<Outcome> {
    // Before anything is staged: a signal from now on leaves nothing behind.
    let stop = stop_on_signal()?;
    let spec = GameSpec::load(&a.spec)?;
    let made = match &a.blocks {
        Some(range) => parse_blocks(range).map_err(anyhow::Error::msg)?,
        None => a.block..=a.block,
    };
    let (seed, fresh) = a.seed.seed(&spec, made.clone())?;
    let provenance = a.seed.provenance()?;
    if a.blocks.is_some() {
        let blocks = made;
        let out = a.out.clone().unwrap_or_else(|| {
            PathBuf::from(format!("output/{}/emission-{:03}", spec.id, spec.emission))
        });
        // Before its lock file is made there: nothing there that is not a directory, and
        // the keys, so that a bad one makes nothing.
        super::named_out(&out)?;
        check_not_in_emission(&out)?;
        check_directory_or_nothing(&out)?;
        let (vkey, derived) =
            a.keys
                .validation_key(&seed, &a.seed.given(&seed)?, &spec, a.seed.insecure())?;
        a.seed
            .refuse_secret_beacon(&vkey.0, &a.keys.validation_key_option())?;
        let signer = a.keys.signer()?;
        super::keys::check_pinned(&spec, signer.as_ref())?;
        let recipients = a.keys.recipients()?;
        let _lock = lock_output(&out, a.force)?;
        // Before the seed is staged: what is in the way is named, not the seed file.
        check_emission_destination(&blocks, &out, a.force)?;
        let now = Held {
            game: spec.id.clone(),
            game_code: Some(u64::from(spec.game_code)),
            emission: u64::from(spec.emission),
            block: None,
        };
        let replaced = existing_emission(&out).filter(|held| *held != now);
        let seed_file = SeedFile::beside(&out, &seed, fresh, a.force)?;
        let n = u64::from(spec.block_size) * u64::from(blocks.end() - blocks.start() + 1);
        let first = *blocks.start();
        let bar = progress::bar(Some(n), "emission", a.quiet);
        let per = u64::from(spec.block_size);
        let made = with_threads(usize::from(a.threads), || {
            let keys = EmissionOptions {
                validation: &vkey,
                validation_from_seed: derived,
                signer: signer.as_ref(),
                mode: a.keys.mode(),
                provenance: &provenance,
                recipients: &recipients,
                cancel: &stop,
            };
            generate_emission_placing(
                &spec,
                &seed,
                &keys,
                blocks,
                &out,
                a.force,
                seed_file.placement().as_ref(),
                &|b, k| bar.set_position(u64::from(b - first) * per + k),
            )
        })??;
        bar.finish_and_clear();
        super::say_stale_reports(&made.stale_reports, "emission", a.quiet);
        if let Some(held) = replaced {
            // The emissions' numbers and game codes are named when they differ.
            super::say_replaced(&out, &held.said(&now), &now.said(&held));
        }
        let said = once_placed(
            seed_file,
            "emission seed",
            "every block of the emission",
            &made.left_over,
            &stop,
        )?;
        let key_said = derived.then(|| DERIVED.to_string());
        let m = made.manifest;
        let test =
            a.seed.insecure() || tirage::crypto::rng::is_test_seed_commitment(&seed.commitment());
        if !a.quiet {
            errln!(
                "{}emission {} of {}: {} blocks → {}",
                if test { TEST_EMISSION } else { "" },
                m.emission,
                m.game,
                m.blocks.len(),
                out.display()
            );
            // Every block has the lot table's counts, and is signed and encrypted alike.
            if let Some(b) = m.blocks.first() {
                errln!(
                    "each block: {}",
                    counts(u64::from(b.tickets), b.lots, &b.payout, &spec.currency)
                );
            }
            let sealed: Vec<(&str, usize)> = tirage::block::layout::TICKET_FILES
                .iter()
                .filter_map(|&f| Some((f, recipients.of(f)?.len())))
                .collect();
            errln!("{}", delivery(&sealed, signer.as_ref(), true));
        }
        for said in [said, key_said].into_iter().flatten() {
            errln!("{said}");
        }
        return Ok(Outcome::Success);
    }
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("output/{}/block-{:03}", spec.id, a.block)));
    // Before its lock file is made there: the block number, not inside an emission,
    // nothing there that is not a block, and the keys, so that a bad one makes nothing.
    super::named_out(&out)?;
    BlockPlan::production(&spec, &seed, a.block)?;
    check_not_in_emission(&out)?;
    check_block_or_nothing(&out)?;
    let (vkey, derived) =
        a.keys
            .validation_key(&seed, &a.seed.given(&seed)?, &spec, a.seed.insecure())?;
    a.seed
        .refuse_secret_beacon(&vkey.0, &a.keys.validation_key_option())?;
    let signer = a.keys.signer()?;
    super::keys::check_pinned(&spec, signer.as_ref())?;
    let recipients = a.keys.recipients()?;
    let _lock = lock_output(&out, a.force)?;
    // Before the seed is staged: a production block never replaces a deck (nor a deck's seed).
    check_destination(&out, a.force, Kind::Production)?;
    check_not_in_emission(&out)?;
    // What --force replaces, to say so when it is another game's block, another emission's,
    // another game code's or another block.
    let now = Held {
        game: spec.id.clone(),
        game_code: Some(u64::from(spec.game_code)),
        emission: u64::from(spec.emission),
        block: Some(u64::from(a.block)),
    };
    let replaced = existing_block(&out).filter(|held| *held != now);
    let plan = BlockPlan::production(&spec, &seed, a.block)?;
    let plan = if derived {
        plan.validated_by_seed(&vkey)
    } else {
        plan.validated_by(&vkey)
    }
    .with_mode(a.keys.mode())
    .sealed_for(&recipients);
    let seed_file = SeedFile::beside(&out, &seed, fresh, a.force)?;
    let bar = progress::bar(Some(u64::from(spec.block_size)), "generate", a.quiet);
    let report = |n| bar.set_position(n);
    let plan = plan
        .signed_by(signer.as_ref())
        .cancelled_by(&stop)
        .recording(&provenance)
        .reporting(&report);
    let made = with_threads(usize::from(a.threads), || {
        place(&plan, &out, a.force, seed_file.placement().as_ref())
    })??;
    bar.finish_and_clear();
    let said = once_placed(
        seed_file,
        "master seed",
        "the block",
        made.left_over.as_slice(),
        &stop,
    )?;
    super::say_stale_reports(&made.stale_reports, "block", a.quiet);
    super::say_misnamed(&out, Some(&spec.id), a.block, &format!("block {}", a.block));
    if let Some(held) = replaced {
        // The emissions and game codes are named when they differ: block 1 of coq either way.
        super::say_replaced(&out, &held.said(&now), &now.said(&held));
    }
    let key_said = derived.then(|| DERIVED.to_string());
    let manifest = made.manifest;
    if !a.quiet {
        errln!(
            "{}block {} of {}: {} → {}",
            if manifest.is_test_block() {
                TEST_BLOCK
            } else {
                ""
            },
            manifest.block,
            manifest.game.id,
            counts(
                u64::from(manifest.tickets),
                manifest.lots,
                &manifest.payout,
                &manifest.game.currency
            ),
            out.display()
        );
        let sealed: Vec<(&str, usize)> = manifest
            .files
            .iter()
            .filter_map(|f| Some((f.name.as_str(), f.encrypted_for.as_ref()?.len())))
            .collect();
        errln!("{}", delivery(&sealed, signer.as_ref(), false));
    }
    for said in [said, key_said].into_iter().flatten() {
        errln!("{said}");
    }
    Ok(Outcome::Success)
}

/// The summary's start for a block made with a test seed ([`Manifest::is_test_block`]).
///
/// [`Manifest::is_test_block`]: tirage::output::manifest::Manifest::is_test_block
const TEST_BLOCK: &str =
    "TEST BLOCK (made with a test seed: never for sale, claim pays none of its tickets): ";

/// The summary's start for an emission made with a test seed.
const TEST_EMISSION: &str =
    "TEST EMISSION (made with a test seed: never for sale, claim pays none of its tickets): ";

/// Said when no validation key of its own was given.
const DERIVED: &str = "tirage: note: the validation codes are made with a key derived from the seed (no --validation-key): whoever holds the seed can compute them; give a validation key of its own (tirage seed new) for a production block";

/// One line on how a block, or every block of an emission (`emission`), is delivered:
/// signed or not (an emission's `emission.json` too), and its ticket files encrypted
/// (`sealed`: each encrypted file's name and count of recipients) or in clear.
fn delivery(sealed: &[(&str, usize)], signer: Option<&Signer>, emission: bool) -> String {
    let signed = match signer {
        Some(s) if emission => format!(
            "emission.json and each block's SHA256SUMS signed by key {} (emission.json.minisig, SHA256SUMS.minisig)",
            s.id()
        ),
        Some(s) => format!("SHA256SUMS signed by key {} (SHA256SUMS.minisig)", s.id()),
        None => "unsigned (no --sign)".into(),
    };
    let sealed: Vec<String> = sealed
        .iter()
        .map(|(name, n)| format!("{name}.age to {n} recipient(s)"))
        .collect();
    if sealed.is_empty() {
        format!(
            "{signed}; ticket files in clear (no --recipient): hand each only to whom it is for"
        )
    } else {
        format!("{signed}; encrypted: {}", sealed.join(", "))
    }
}

/// A block's counts as the summaries say them, grouped by thousands as `check` and
/// `verify` write them: `3,000 tickets, 919 lots, payout 25,294 EUR` (`payout` as the
/// manifest writes it, in the currency's units).
fn counts(tickets: u64, lots: u64, payout: &str, currency: &str) -> String {
    use tirage::money::{grouped, Money};
    let payout = payout.parse::<Money>().map_or_else(
        |_| format!("{payout} {currency}"),
        |m| m.with_currency(currency),
    );
    format!(
        "{} tickets, {} lots, payout {payout}",
        grouped(tickets),
        grouped(lots)
    )
}
