//! `manifest.json`: what a block is (game, spec, block, seed commitment), what it holds
//! (counts per tier and per way, payout) and the size, record count and SHA-256 of every
//! file. Written after every other file of the block, just before `SHA256SUMS`.

use crate::money::Money;
use serde::{Deserialize, Serialize};

/// Manifest format identifier.
pub const FORMAT: &str = "tirage-manifest/1";

/// The whole manifest.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Always [`FORMAT`].
    pub format: String,
    /// The tool that wrote the block.
    pub tool: Tool,
    /// `production` or `specimen` (a QA deck: serials of block 0, codes under the specimen
    /// key, never payable).
    pub kind: crate::block::Kind,
    /// The game.
    pub game: Game,
    /// The spec the block was made from.
    pub spec: SpecRef,
    /// Hex SHA-256 commitment of the master seed (see `rng::Seed::commitment`); the seed
    /// itself is never in a deliverable.
    pub seed_commitment: String,
    /// When the master seed was combined from several parties' shares
    /// (`rng::Seed::from_shares_and_beacon`): each share's published commitment line, in
    /// order, with its party's signature when signed (`ceremony::Commitment::line`).
    /// Absent when the seed was given whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed_shares: Option<Vec<String>>,
    /// The public beacon mixed into the seed made of shares, lowercase hex
    /// (`rng::Beacon`). Absent when none was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed_beacon: Option<String>,
    /// Hex SHA-256 commitment of the validation-code key (see `validation::Validator`).
    pub validation_key_commitment: String,
    /// True when the validation key was derived from the seed (no key of its own was
    /// given): whoever holds the seed can then compute the codes.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub validation_key_from_seed: bool,
    /// True when the block was made with `--insecure-seed`: a test block, whose seed may be
    /// a published test value, never for sale (the signature's trusted comment says it
    /// too). Absent otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub insecure_seed: bool,
    /// Block number (0 for a specimen deck).
    pub block: u32,
    /// Tickets in the block.
    pub tickets: u32,
    /// Tickets per pack.
    pub pack_size: u32,
    /// Packs in the block.
    pub packs: u32,
    /// Ticket price, currency units.
    pub price: String,
    /// Lots (winning tickets) in the block.
    pub lots: u64,
    /// Total payout of the block, currency units (prizes that are not money at their
    /// stated value).
    pub payout: String,
    /// The payout in cash, currency units, when a tier's prize is not money (absent
    /// otherwise: all of `payout` is cash).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cash_payout: Option<String>,
    /// The stated value of the prizes that are not money, currency units (`payout` less
    /// `cash_payout`); absent when every prize is money.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item_value: Option<String>,
    /// Payout / (tickets × price).
    pub payout_ratio: f64,
    /// Per tier: amount, count, and per way its count.
    pub tiers: Vec<TierCount>,
    /// Tickets of the losing way.
    pub losers: u64,
    /// A specimen deck only: how its counts were chosen (`every_way`: the default deck;
    /// `proportional`: the lot table's mix rounded to its size). `verify` recomputes its
    /// counts and promises from the spec and `tickets`. Absent from production blocks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub composition: Option<crate::block::Composition>,
    /// A default specimen deck only: every feature the deck promises to show, each with the
    /// ticket that shows it. Absent from production blocks and proportional decks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub promised_features: Option<Vec<PromisedFeature>>,
    /// The pack constraints in force, in words (empty: none).
    pub pack_rules: Vec<String>,
    /// Uniform arrangements drawn until one met the pack constraints (1 without constraints).
    pub allocation_attempts: u32,
    /// Every file of the block but the manifest and SHA256SUMS.
    pub files: Vec<FileEntry>,
}

pub use crate::block::Tool;

/// One surface of a game and the play style that reads it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SurfaceRef {
    /// The surface's id in the spec.
    pub id: String,
    /// Its play style (`tirage styles`).
    pub style: String,
}

/// Game identity.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Game {
    /// Spec id.
    pub id: String,
    /// Published name.
    pub name: String,
    /// Style: `styles` for a game made of surfaces.
    pub mechanic: String,
    /// The game's surfaces, in face order, each with its play style (empty for a
    /// published game's own mechanic).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub surfaces: Vec<SurfaceRef>,
    /// Journal officiel reference.
    pub legal_reference: String,
    /// True when the lot table is a reconstruction.
    pub reconstructed: bool,
    /// The spec's note, if any.
    pub note: Option<String>,
    /// Game code.
    pub game_code: u16,
    /// Emission.
    pub emission: u16,
    /// Currency.
    pub currency: String,
}

/// Where the spec is and its digest.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SpecRef {
    /// The copy inside the block directory (`spec.toml`).
    pub file: String,
    /// File name of the spec the block was made from (its directory is not recorded).
    pub source: String,
    /// Hex SHA-256 of the spec text.
    pub sha256: String,
}

/// Count of one tier and of its ways in the block.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TierCount {
    /// Lot amount, currency units (an item's stated value).
    pub amount: String,
    /// The prize when it is not money (`FREE TICKET`), as printed; absent for cash.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item: Option<String>,
    /// Tickets of this tier.
    pub count: u64,
    /// Per way: id and count.
    pub ways: Vec<WayCount>,
}

/// Count of one way.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WayCount {
    /// Way id.
    pub id: String,
    /// Tickets of this way.
    pub count: u64,
}

/// A feature a specimen deck promises (see `deck::every_way`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PromisedFeature {
    /// The game's feature id (e.g. `carre`, `near_miss_jeu1`).
    pub feature: String,
    /// Id of the way of the ticket that shows it.
    pub way: String,
    /// The ticket (1-based, print order) that shows it.
    pub ticket: u32,
    /// True when that ticket was built asked to show it (a ticket added for it); false when
    /// every ticket of its way shows it anyway.
    pub forced: bool,
}

/// One file of the block.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FileEntry {
    /// File name inside the block directory.
    pub name: String,
    /// Size in bytes.
    pub bytes: u64,
    /// Ticket records it holds (0 for the spec copy).
    pub records: u64,
    /// Hex SHA-256 (of the plaintext, for an encrypted file).
    pub sha256: String,
    /// The age recipients (`age1…`) the file is delivered encrypted to, as `NAME.age`;
    /// absent for a file delivered in clear.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encrypted_for: Option<Vec<String>>,
}

/// What a block's manifest says of the block itself, besides the spec and the counts.
#[derive(Debug, Clone)]
pub struct Facts {
    /// Production or specimen.
    pub kind: crate::block::Kind,
    /// Block number (0 for a specimen deck).
    pub block: u32,
    /// Tickets in the block.
    pub tickets: u32,
    /// Packs in the block.
    pub packs: u32,
    /// A specimen deck's composition (`None`: a production block).
    pub composition: Option<crate::block::Composition>,
    /// The pack constraints in force, in words (empty: none).
    pub pack_rules: Vec<String>,
    /// Uniform arrangements drawn until one met the pack constraints.
    pub allocation_attempts: u32,
    /// Hex SHA-256 commitment of the master seed.
    pub seed_commitment: String,
    /// Hex SHA-256 commitment of the validation-code key.
    pub validation_key_commitment: String,
    /// True when the validation key was derived from the seed.
    pub validation_key_from_seed: bool,
    /// Every file of the block but the manifest and SHA256SUMS.
    pub files: Vec<FileEntry>,
}

impl Manifest {
    /// True when the manifest is a test block's: a production block made with
    /// `--insecure-seed`, or whose seed commitment is a published test seed's
    /// (`rng::TEST_SEEDS`). Whoever knows a test seed computes every validation code, so
    /// such a block is never for sale: `claim` pays none of its tickets and `package`
    /// bundles it only when told that a test bundle is meant.
    pub fn is_test_block(&self) -> bool {
        self.kind == crate::block::Kind::Production
            && (self.insecure_seed
                || crate::crypto::rng::is_test_seed_commitment(&self.seed_commitment))
    }

    /// The manifest of a block of `spec` that `block` describes, whose way counts are
    /// `counts` (index = way id, tickets): the tiers and the payout from the counts, this
    /// build's identity as the tool, no seed shares and no promised features (the
    /// generator records those it has).
    pub fn of(spec: &crate::spec::GameSpec, block: Facts, counts: &[u64]) -> Manifest {
        let files = block.files;
        let tiers = spec
            .tiers
            .iter()
            .map(|t| TierCount {
                amount: t.amount.to_string(),
                item: t.item.clone(),
                count: t.ways.iter().map(|&w| counts[w as usize]).sum(),
                ways: t
                    .ways
                    .iter()
                    .map(|&w| WayCount {
                        id: spec.ways[w as usize].id.clone(),
                        count: counts[w as usize],
                    })
                    .collect(),
            })
            .collect();
        let lots: u64 = counts[1..].iter().sum();
        let payout = Money(
            spec.ways
                .iter()
                .zip(counts)
                .map(|(w, &n)| w.amount.cents() * n)
                .sum(),
        );
        let (cash_payout, item_value) = cash_and_items(spec, counts, payout);
        let sales = spec.price.cents() as f64 * f64::from(block.tickets);
        Manifest {
            format: FORMAT.into(),
            tool: Tool::this_build(),
            kind: block.kind,
            game: Game {
                id: spec.id.clone(),
                name: spec.name.clone(),
                mechanic: spec.game.layout().name.into(),
                surfaces: surfaces(spec),
                legal_reference: spec.legal_reference.clone(),
                reconstructed: spec.reconstructed,
                note: spec.note.clone(),
                game_code: spec.game_code,
                emission: spec.emission,
                currency: spec.currency.clone(),
            },
            spec: SpecRef {
                file: crate::block::layout::SPEC.into(),
                // The file's name only: the same spec gives the same manifest however its
                // path is spelled (`./game_specs/coq.toml`, an absolute path, another directory).
                source: spec
                    .path
                    .file_name()
                    .unwrap_or(spec.path.as_os_str())
                    .to_string_lossy()
                    .into_owned(),
                sha256: spec.sha256.clone(),
            },
            seed_commitment: block.seed_commitment,
            seed_shares: None,
            seed_beacon: None,
            validation_key_commitment: block.validation_key_commitment,
            validation_key_from_seed: block.validation_key_from_seed,
            insecure_seed: false,
            block: block.block,
            tickets: block.tickets,
            pack_size: spec.pack_size,
            packs: block.packs,
            price: spec.price.to_string(),
            lots,
            payout: payout.to_string(),
            cash_payout,
            item_value,
            payout_ratio: payout.cents() as f64 / sales,
            tiers,
            losers: counts[0],
            composition: block.composition,
            promised_features: None,
            pack_rules: block.pack_rules,
            allocation_attempts: block.allocation_attempts,
            files,
        }
    }
}

/// The cash and the items' stated value of a payout of `payout` made of the way counts
/// `counts`, as the manifest writes them, when a tier of `spec` is an item (`None`s
/// otherwise). Items count in the payout at their stated value and are stated apart, so
/// that the cash is never read from a sum that holds them.
fn cash_and_items(
    spec: &crate::spec::GameSpec,
    counts: &[u64],
    payout: Money,
) -> (Option<String>, Option<String>) {
    if !spec.has_items() {
        return (None, None);
    }
    let items: u64 = spec
        .ways
        .iter()
        .zip(counts)
        .filter(|(w, _)| w.tier.is_some_and(|t| spec.tiers[t].item.is_some()))
        .map(|(w, &n)| w.amount.cents() * n)
        .sum();
    (
        Some(Money(payout.cents() - items).to_string()),
        Some(Money(items).to_string()),
    )
}

/// The spec's surfaces and their play styles, as the manifest lists them.
pub fn surfaces(spec: &crate::spec::GameSpec) -> Vec<SurfaceRef> {
    spec.game
        .surfaces()
        .iter()
        .map(|s| SurfaceRef {
            id: s.id.clone(),
            style: s.style.into(),
        })
        .collect()
}

/// Whether directory `dir` holds a tirage block or deck: a regular `manifest.json` whose
/// `format` is [`FORMAT`]. An unreadable or foreign manifest is no block's.
pub fn holds_block(dir: &std::path::Path) -> bool {
    crate::output::read_regular(
        &dir.join(crate::block::layout::MANIFEST),
        crate::output::MAX_JSON,
    )
    .ok()
    .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
    .is_some_and(|v| v["format"] == FORMAT)
}

/// The block (or deck) directory that `path` lies strictly inside, canonical, if any.
/// `path` need not exist: it is judged by its nearest ancestor that does, through
/// symbolic links. A block is delivered as it is, so no command writes into it; `path`
/// itself being a block is not "inside" (a block replaces a block with `--force`).
pub fn enclosing_block(path: &std::path::Path) -> Option<std::path::PathBuf> {
    let (real, exists) = path.ancestors().enumerate().find_map(|(i, d)| {
        let d = if d.as_os_str().is_empty() {
            std::path::Path::new(".")
        } else {
            d
        };
        std::fs::canonicalize(d).ok().map(|r| (r, i == 0))
    })?;
    let skip = usize::from(exists);
    real.ancestors()
        .skip(skip)
        .find(|d| holds_block(d))
        .map(std::path::Path::to_path_buf)
}
