//! The verify report: one entry per procedure, each passed or with its findings (the first
//! offending tickets and what is wrong with them). Rendered as text or JSON.

use serde::Serialize;
use std::fmt::Write;

/// How many example findings each check keeps (the first, in ticket order).
pub const EXAMPLES: usize = 10;

/// The procedures verify runs, in report order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckId {
    /// SHA256SUMS.minisig is the signer's valid minisign signature of SHA256SUMS.
    Signature,
    /// SHA256SUMS lists every file of the block and each digest matches.
    Sha256sums,
    /// manifest.json parses and agrees with the files and the spec.
    Manifest,
    /// The block's spec copy loads, and matches the reference spec if one is given.
    Spec,
    /// tickets.bin's header is the one this spec and block give.
    PrintHeader,
    /// tickets.csv's header row is the one this spec gives.
    CsvHeader,
    /// The three ticket files hold exactly one record per ticket of the block.
    RecordCount,
    /// Ticket numbers run 1..N in print order; pack and position agree with them.
    Positions,
    /// Every serial is the documented serial of its block, pack and position (so serials
    /// are unique), with a valid check digit.
    Serials,
    /// Every face code is a value of its column.
    FaceCodes,
    /// No face shows a case the ambiguity policy forbids.
    Ambiguity,
    /// Every face's evaluated prize is a way of the spec.
    WayRecognised,
    /// tickets.csv agrees field by field with tickets.bin and with the evaluation (prize, way).
    CsvMatchesPrint,
    /// Every amount carries its spec caption.
    Captions,
    /// The block's kind (production or specimen) agrees with its block number and serials.
    Kind,
    /// validation.csv holds each ticket's claim (from its serial and code in tickets.bin) with
    /// its evaluated way and prize, in claim order.
    ValidationFile,
    /// Validation codes are unique within the block.
    ValidationCodes,
    /// Counts per way (hence per tier) and the total payout equal the spec.
    Counts,
    /// The spec's pack constraints hold on every pack.
    PackRules,
    /// A default specimen deck promises every feature the spec can show, and each promised
    /// ticket shows its feature.
    Features,
    /// No field printed outside the scratch layer predicts win / lose (the leakage gate).
    Leakage,
    /// Replayed from the seed (or seed shares), the block comes out byte-identical.
    Replay,
    /// The seed ceremony the manifest records is the published one: its commitments
    /// (`--commitments`) and beacon (`--beacon`).
    Ceremony,
}

impl CheckId {
    /// What the procedure establishes, in one sentence.
    pub fn procedure(self) -> &'static str {
        match self {
            CheckId::Signature => "SHA256SUMS.minisig is a valid minisign signature of SHA256SUMS by the signer's key (--signer), so every digest below is the signer's",
            CheckId::Sha256sums => "SHA256SUMS lists tickets.csv, tickets.bin, validation.csv (each as delivered: in clear or .age), spec.toml and manifest.json, and each file's SHA-256 matches",
            CheckId::Manifest => "manifest.json parses; its file sizes, digests, counts and totals agree with the files and the spec, and the folder's name gives no other block number",
            CheckId::Spec => "the block's spec.toml loads and validates (and, if a reference spec is given, every field has the reference's value: comments, spacing and order aside)",
            CheckId::PrintHeader => "tickets.bin's header is exactly the one the spec and block number give",
            CheckId::CsvHeader => "tickets.csv's header row is exactly the documented column list",
            CheckId::RecordCount => "tickets.csv, tickets.bin and validation.csv each hold one record per ticket of the block",
            CheckId::Positions => "ticket numbers run 1..N in print order; pack and position in pack agree",
            CheckId::Serials => "every serial is its documented value (game, emission, block, pack, position, Luhn digit): unique across the emission",
            CheckId::FaceCodes => "every face code in tickets.bin is a value of its column",
            CheckId::Ambiguity => "no face shows a case the ambiguity policy forbids (every ticket re-evaluated)",
            CheckId::WayRecognised => "every face, judged by the rules alone, realises a way of the spec",
            CheckId::CsvMatchesPrint => "every tickets.csv row equals tickets.bin's record and the evaluated prize and way",
            CheckId::Captions => "every amount on every face carries the spec's caption",
            CheckId::Counts => "evaluated counts per way and tier, and the total payout, equal the spec (a specimen deck: its manifest)",
            CheckId::Kind => "a production block is numbered 1..=999, a specimen deck 0 (serials 000 in the block field), never mixed",
            CheckId::ValidationFile => "validation.csv holds one row per ticket, in claim order: the claim of its serial and code in tickets.bin, its evaluated way and prize (no serial, pack or position in the file)",
            CheckId::ValidationCodes => "validation codes are below 10^19 (19 digits) and unique within the block",
            CheckId::PackRules => "the spec's pack constraints hold on every pack (evaluated ways)",
            CheckId::Features => "a specimen deck's counts and promises are exactly those its stated composition gives for the spec and its size; a default deck promises every feature the spec can show (combinations, near misses, named decoys), each on the ticket the deck's rule gives, and each promised ticket is of its way and shows its feature, by the rules alone (production blocks and proportional decks promise none)",
            CheckId::Leakage => "no field printed outside the scratch layer (ticket number, pack, position, serial / barcode) predicts win or lose (chi-square test of independence; the gate fails at p < 10^-6)",
            CheckId::Replay => "regenerated in memory from the seed (or seed shares), every file of the block comes out byte-identical (SHA-256 of each file)",
            CheckId::Ceremony => "the seed share commitments the manifest records are the published ones (--commitments), in order and signed by the same keys; with --beacon, its beacon is the published one",
        }
    }

    /// The check's name in reports (snake case, as in JSON).
    pub fn name(self) -> &'static str {
        match self {
            CheckId::Signature => "signature",
            CheckId::Sha256sums => "sha256sums",
            CheckId::Manifest => "manifest",
            CheckId::Spec => "spec",
            CheckId::PrintHeader => "print_header",
            CheckId::CsvHeader => "csv_header",
            CheckId::RecordCount => "record_count",
            CheckId::Positions => "positions",
            CheckId::Serials => "serials",
            CheckId::FaceCodes => "face_codes",
            CheckId::Ambiguity => "ambiguity",
            CheckId::WayRecognised => "way_recognised",
            CheckId::CsvMatchesPrint => "csv_matches_print",
            CheckId::Captions => "captions",
            CheckId::Counts => "counts",
            CheckId::Kind => "kind",
            CheckId::ValidationFile => "validation_file",
            CheckId::ValidationCodes => "validation_codes",
            CheckId::PackRules => "pack_rules",
            CheckId::Features => "features",
            CheckId::Leakage => "leakage",
            CheckId::Replay => "replay",
            CheckId::Ceremony => "ceremony",
        }
    }

    /// True for the procedures that the record-by-record pass over the ticket files
    /// carries out (or that need its tallies): when that pass cannot run, they are
    /// reported "not run", never "pass".
    pub fn from_ticket_pass(self) -> bool {
        match self {
            CheckId::Kind
            | CheckId::Positions
            | CheckId::Serials
            | CheckId::FaceCodes
            | CheckId::Ambiguity
            | CheckId::WayRecognised
            | CheckId::CsvMatchesPrint
            | CheckId::Captions
            | CheckId::ValidationFile
            | CheckId::ValidationCodes
            | CheckId::Counts
            | CheckId::PackRules
            | CheckId::Features => true,
            CheckId::Signature
            | CheckId::Sha256sums
            | CheckId::Manifest
            | CheckId::Spec
            | CheckId::PrintHeader
            | CheckId::CsvHeader
            | CheckId::RecordCount
            | CheckId::Leakage
            | CheckId::Replay
            | CheckId::Ceremony => false,
        }
    }

    /// Every check, in report order.
    pub const ALL: [CheckId; 23] = [
        CheckId::Signature,
        CheckId::Sha256sums,
        CheckId::Manifest,
        CheckId::Spec,
        CheckId::Kind,
        CheckId::PrintHeader,
        CheckId::CsvHeader,
        CheckId::RecordCount,
        CheckId::Positions,
        CheckId::Serials,
        CheckId::FaceCodes,
        CheckId::Ambiguity,
        CheckId::WayRecognised,
        CheckId::CsvMatchesPrint,
        CheckId::Captions,
        CheckId::ValidationFile,
        CheckId::ValidationCodes,
        CheckId::Counts,
        CheckId::PackRules,
        CheckId::Features,
        CheckId::Leakage,
        CheckId::Replay,
        CheckId::Ceremony,
    ];
}

/// Longest finding detail kept, in characters.
pub const MAX_DETAIL: usize = 400;

/// `text` with every character that does not show as written ([`crate::text::hidden`])
/// escaped, cut to [`MAX_DETAIL`] characters.
pub fn printable(text: &str) -> String {
    let mut out = String::new();
    for (n, c) in text.chars().enumerate() {
        if n == MAX_DETAIL {
            out.push_str("… (cut)");
            break;
        }
        if crate::text::hidden(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// One finding: the ticket concerned (if any) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Ticket number (1-based), when the finding is about one ticket.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ticket: Option<u32>,
    /// What is wrong.
    pub detail: String,
}

/// The findings of one check.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Findings {
    /// How many findings in all.
    pub count: u64,
    /// The first [`EXAMPLES`], in ticket order.
    pub examples: Vec<Finding>,
}

impl Findings {
    /// Records one finding.
    pub fn add(&mut self, ticket: Option<u32>, detail: impl Into<String>) {
        self.add_with(ticket, || detail.into());
    }

    /// Records one finding, its words made by `detail` only when it is among the first
    /// [`EXAMPLES`] (words that take long to make cost nothing past them).
    pub fn add_with(&mut self, ticket: Option<u32>, detail: impl FnOnce() -> String) {
        self.count += 1;
        if self.examples.len() < EXAMPLES {
            let detail = detail();
            // Bytes read from a damaged file are quoted as escapes, never sent raw to a
            // terminal (a NUL, an escape sequence).
            let detail = if crate::text::first_hidden(&detail).is_some() {
                detail
                    .chars()
                    .map(|c| match c {
                        c if crate::text::hidden(c) => c.escape_default().to_string(),
                        c => c.to_string(),
                    })
                    .collect()
            } else {
                detail
            };
            self.examples.push(Finding { ticket, detail });
        }
    }

    /// Appends `later` (findings of later tickets).
    pub fn merge(&mut self, later: Findings) {
        self.count += later.count;
        let room = EXAMPLES - self.examples.len().min(EXAMPLES);
        self.examples.extend(later.examples.into_iter().take(room));
    }
}

/// Result of one procedure.
#[derive(Clone, Debug, Serialize)]
pub struct CheckResult {
    /// Which procedure.
    pub id: CheckId,
    /// What it establishes.
    pub procedure: &'static str,
    /// `pass`, `fail`, `not run` (an earlier failure made it impossible), `skipped` (it
    /// applies, but what it needs was not given: the replay without a seed) or `n/a` (it
    /// does not apply to this block: the ceremony of a seed not made of shares, the pack
    /// constraints of a spec that states none). Only `pass`, `skipped` and `n/a` are clean.
    pub result: &'static str,
    /// Number of findings.
    pub findings: u64,
    /// The first findings.
    pub examples: Vec<Finding>,
}

impl CheckResult {
    /// The result `result` of procedure `id` with its findings `f`.
    pub fn new(id: CheckId, result: &'static str, f: Findings) -> CheckResult {
        CheckResult {
            id,
            procedure: id.procedure(),
            result,
            findings: f.count,
            examples: f.examples,
        }
    }

    /// True when the procedure leaves the block clean: it passed, was skipped, or does not
    /// apply to the block.
    pub fn is_clean(&self) -> bool {
        matches!(self.result, "pass" | "skipped" | "n/a")
    }
}

/// How often winning play areas of one tier show one feature (poker: a combination).
#[derive(Clone, Debug, Serialize)]
pub struct FeatureTally {
    /// Tier amount (currency units).
    pub tier: String,
    /// The feature (e.g. `brelan`).
    pub feature: String,
    /// Winning play areas of that tier showing it.
    pub wins: u64,
}

/// How often losing play areas show one feature (a near miss or a named decoy).
#[derive(Clone, Debug, Serialize)]
pub struct LosingFeatureTally {
    /// The feature (e.g. `near_miss_flush`).
    pub feature: String,
    /// Losing play areas (or parts of one, such as a pedestal) showing it.
    pub areas: u64,
    /// Tickets showing it at least once.
    pub tickets: u64,
}

/// One feature a specimen deck promises, as verify found it.
#[derive(Clone, Debug, Serialize)]
pub struct PromiseCheck {
    /// The feature id.
    pub feature: String,
    /// The way the manifest says its ticket is.
    pub way: String,
    /// The ticket (1-based).
    pub ticket: u32,
    /// Built asked to show it (else its way shows it on every ticket).
    pub forced: bool,
    /// The ticket, evaluated by the rules, is of that way and shows the feature.
    pub shown: bool,
}

/// Evaluated count of one way.
#[derive(Clone, Debug, Serialize)]
pub struct WayTally {
    /// Way id.
    pub way: String,
    /// Lot amount (currency units).
    pub amount: String,
    /// Count the spec requires.
    pub expected: u64,
    /// Count found by evaluating every face.
    pub found: u64,
}

/// One file of the block: what was read and what the block's lists say.
#[derive(Clone, Debug, Serialize)]
pub struct FileDigest {
    /// File name.
    pub name: String,
    /// Size in bytes, if the file could be read.
    pub bytes: Option<u64>,
    /// Hex SHA-256 of the bytes read.
    pub sha256: Option<String>,
    /// What SHA256SUMS says, if it lists the file.
    pub sha256sums: Option<String>,
    /// What manifest.json says, if it lists the file.
    pub manifest: Option<String>,
}

/// The whole report.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The block directory.
    pub dir: String,
    /// Whose bundle the directory is, `printer` or `central`, when it is a printer's or
    /// central system's bundle (`tirage package`); `None` (`null` in JSON) for a block,
    /// the auditor's bundle (the whole block) included.
    pub bundle: Option<&'static str>,
    /// Game id, if the spec could be read.
    pub game: Option<String>,
    /// The spec's ISO 4217 currency code (`EUR`), if the spec could be read: amounts are in
    /// its units.
    pub currency: Option<String>,
    /// `production` or `specimen`, if the manifest could be read.
    pub kind: Option<crate::block::Kind>,
    /// Block number, if the manifest could be read.
    pub block: Option<u32>,
    /// Tickets read.
    pub tickets: u64,
    /// True when every procedure passed.
    pub clean: bool,
    /// Every procedure, in order.
    pub checks: Vec<CheckResult>,
    /// Evaluated counts per way.
    pub ways: Vec<WayTally>,
    /// Winning play areas per tier and feature shown (poker's combinations; empty for
    /// styles that name none).
    pub features: Vec<FeatureTally>,
    /// Every losing feature the game can show with this spec (near misses, named
    /// decoys), with how often it is shown (0 included), then any other shown.
    pub losing_features: Vec<LosingFeatureTally>,
    /// The features a default specimen deck promises (empty otherwise), each checked.
    pub promised: Vec<PromiseCheck>,
    /// Total prize of all evaluated faces (currency units).
    pub payout: Option<String>,
    /// The pack constraints checked, in words.
    pub pack_rules: Vec<String>,
    /// Every file of the block with its digests.
    pub files: Vec<FileDigest>,
    /// The block's spec copy held against the reference spec (`--spec`), field by field,
    /// with both digests; `None` without a reference spec, or when a spec does not load.
    pub spec_comparison: Option<super::spec_diff::SpecComparison>,
    /// What the verdict rests on: signer, reference spec, replay.
    pub authenticated: Authenticated,
    /// The build that generated the block (the manifest's `tool`), if the manifest could be
    /// read. Not in verify's JSON: the audit report gives it (`generated_by`).
    #[serde(skip)]
    pub generated_by: Option<crate::block::Tool>,
}

/// What a verdict was held against, said on its verdict line.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Authenticated {
    /// The whole public key (the key line of its `KEY.pub`, `RW…`) whose signature of
    /// SHA256SUMS was checked and holds; `None`: no signature was checked (or it did not
    /// hold).
    pub signer: Option<String>,
    /// What that signature's trusted comment vouches for: `game coq, emission 1, block 1,
    /// production` (checked against the manifest and the folder's name).
    pub vouched: Option<String>,
    /// True for a production block made with a test seed (`--insecure-seed`, or a published
    /// test seed): a test block, never for sale.
    pub test_seed: bool,
    /// True when a signer was given and the signature did not hold (or was missing).
    pub signature_rejected: bool,
    /// True when a signer was given and the block (or bundle) has no readable
    /// `SHA256SUMS.minisig`: it is not signed at all.
    pub unsigned: bool,
    /// The id (16 hex digits) of the key the signature was checked against and does not
    /// match: the `--signer` key (also when the reference spec pins another key), else the
    /// pinned key; `None` when the signature holds, was not checked, or could not be read.
    pub mismatched_key: Option<String>,
    /// True when the key given (`--signer`) is not the operator's key the reference spec
    /// pins (`[signing] public_key`): no key vouches for the block, whatever the pinned
    /// key's signature says, and [`Authenticated::mismatched_key`] is the key given.
    pub signer_not_pinned: bool,
    /// True when [`Authenticated::signer`] is the key the reference spec pins (`[signing]
    /// public_key`), which the signature was checked against with or without `--signer`.
    pub signer_pinned: bool,
    /// Hex SHA-256 of the reference spec the block's copy was held against (`--spec`);
    /// `None`: only the block's own copy was read.
    pub reference_spec: Option<String>,
    /// True when the block's copy is not byte-identical to the reference spec but means
    /// the same, field by field (comments, spacing or order differ).
    pub reference_spec_text_differs: bool,
    /// True when the block's copy differs from the reference spec in some field (the
    /// findings of `spec` name them): the counts were then held against the block's own
    /// copy, not the reference; absent from the JSON when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub reference_spec_differs: bool,
    /// True when the block was replayed from its seed and came out byte-identical.
    pub replayed: bool,
    /// True when the block was replayed from its seed and a file came out different (the
    /// findings of `replay` name it); absent from the JSON when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub replay_differs: bool,
    /// When the seed was made of shares: how many, and whether the manifest's commitments
    /// and beacon were held against the published ones, in words.
    pub ceremony: Option<String>,
    /// True when the ticket files were delivered encrypted to their recipients (`.age`).
    pub encrypted: bool,
    /// True when the validation codes were made with a key derived from the seed.
    pub validation_key_from_seed: bool,
    /// True for a specimen deck, whose codes are never payable.
    pub specimen: bool,
    /// True when the block's manifest was read: what `encrypted` and
    /// `validation_key_from_seed` say comes from it, and nothing is said of either without it.
    pub manifest_read: bool,
    /// The binary SHA-256 of this build when the manifest records that this same build
    /// generated the block ([`crate::block::Tool::same_build_as`]): the verification is then
    /// not independent of the generator.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub same_build: Option<String>,
}

impl Authenticated {
    /// [`Authenticated::same_build`] of a block whose manifest (if read) is `m`: this
    /// build's binary SHA-256 when `m` records that this same build generated the block.
    pub(super) fn same_build_of(m: Option<&crate::output::manifest::Manifest>) -> Option<String> {
        m.filter(|m| m.tool.same_build_as(&crate::block::Tool::this_build()))
            .map(|m| m.tool.binary_sha256.clone())
    }

    /// What the lot table was held against, in words: the reference spec (`--spec`), the
    /// block's own copy, or the block's own copy that differs from the reference.
    fn lot_table_text(&self) -> String {
        match &self.reference_spec {
            Some(h) if self.reference_spec_differs => format!(
                "lot table: only the block's own spec copy, which differs from the reference spec (SHA-256 {h}) (see `spec`)"
            ),
            Some(h) if self.reference_spec_text_differs => format!(
                "lot table held against the reference spec (SHA-256 {h}) field by field: the same game, though the block's spec.toml is not byte-identical to it"
            ),
            Some(h) => format!("lot table held against the reference spec (SHA-256 {h})"),
            None => "lot table: only the block's own spec copy (no --spec)".into(),
        }
    }

    /// Whether the block was replayed from its seed, and how, in words, with the ceremony's
    /// result when the seed was made of shares.
    fn replay_text(&self) -> String {
        match (self.replayed, &self.ceremony) {
            (true, Some(c)) => format!("replayed byte for byte from its seed; {c}"),
            (true, None) => "replayed byte for byte from its seed".to_string(),
            (false, c) if self.replay_differs => {
                let differs = "replayed from its seed: the files differ (see `replay`)";
                c.as_ref()
                    .map_or(differs.to_string(), |c| format!("{differs}; {c}"))
            }
            (false, Some(c)) => format!("not replayed; {c}"),
            (false, None) => "not replayed".to_string(),
        }
    }

    /// One line: what was authenticated, and what was not.
    /// A block with no signature, checked against a key, is said not to be signed rather
    /// than that its signature does not hold.
    pub fn describe(&self) -> String {
        let signer = match &self.signer {
            Some(key) => format!(
                "signed by key {key}{} for {}",
                if self.signer_pinned {
                    ", the operator's key the reference spec pins,"
                } else {
                    ""
                },
                self.vouched
                    .as_deref()
                    .unwrap_or("a block it does not name")
            ),
            None => match &self.mismatched_key {
                Some(id) if self.signer_not_pinned => format!(
                    "NOT AUTHENTICATED: the key given (--signer, key {id}) is not the operator's key the reference spec pins"
                ),
                Some(id) => format!(
                    "NOT AUTHENTICATED: the signature was checked and does not match key {id}"
                ),
                None if self.signature_rejected && self.unsigned => {
                    "NOT AUTHENTICATED: the block is not signed (no readable SHA256SUMS.minisig)"
                        .into()
                }
                None if self.signature_rejected => {
                    "NOT AUTHENTICATED: the signature does not hold for the key given".into()
                }
                None => "UNAUTHENTICATED: no signature checked".into(),
            },
        };
        let spec = self.lot_table_text();
        let replay = self.replay_text();
        let files = if self.encrypted {
            "ticket files delivered encrypted to their recipients"
        } else {
            "ticket files delivered in clear"
        };
        // Without a replay, the validation key is only what the manifest says of it.
        let said = if self.replayed {
            ""
        } else {
            "the manifest says "
        };
        let codes = if self.specimen {
            "specimen validation codes (never payable)".to_string()
        } else if self.validation_key_from_seed {
            format!("{said}validation codes under a key derived from the seed (no validation key of their own)")
        } else {
            format!("{said}validation codes under a key of their own")
        };
        let test = if self.test_seed {
            "; TEST BLOCK: made with a test seed (--insecure-seed), never for sale"
        } else {
            ""
        };
        if !self.manifest_read {
            return format!("{signer}; {spec}; {replay}; no manifest read: nothing said of how the ticket files were delivered or of the validation key{test}");
        }
        let same = match &self.same_build {
            Some(h) => format!(
                "; NOT INDEPENDENT: this build (binary SHA-256 {h}) also generated the block, \
                 so a flaw of its own would pass unseen: verify with a build made separately"
            ),
            None => String::new(),
        };
        format!("{signer}; {spec}; {replay}; {files}; {codes}{test}{same}")
    }
}

impl Report {
    /// `units` (an amount in the spec's units, `12.50`) with the spec's currency when both
    /// are known (`12.50 EUR`), else as given.
    fn money_text(&self, units: &str) -> String {
        match (units.parse::<crate::money::Money>(), &self.currency) {
            (Ok(m), Some(c)) => m.with_currency(c),
            _ => units.to_string(),
        }
    }

    /// Every procedure's line (result, name, what it establishes) with its first findings.
    fn checks_text(&self, s: &mut String) {
        for c in &self.checks {
            let _ = writeln!(
                s,
                "{:<7} {:<18} {}",
                c.result.to_uppercase(),
                c.id.name(),
                c.procedure
            );
            if c.findings > 0 {
                let _ = writeln!(s, "        {} finding(s); first:", c.findings);
                for f in &c.examples {
                    match f.ticket {
                        Some(t) => {
                            let _ = writeln!(s, "          ticket {t}: {}", f.detail);
                        }
                        None => {
                            let _ = writeln!(s, "          {}", f.detail);
                        }
                    }
                }
            }
        }
    }

    /// The tallies: every way's expected and found count, the winning and losing features
    /// shown, a deck's promised features. Amounts with the currency, counts with thousands
    /// separators.
    fn tallies_text(&self, s: &mut String) {
        let count = crate::money::grouped;
        if !self.ways.is_empty() {
            let _ = writeln!(
                s,
                "\n{:>16} {:>14} {:>12} {:>12}",
                "way", "amount", "expected", "found"
            );
            for w in &self.ways {
                let mark = if w.expected == w.found {
                    ""
                } else {
                    "  <-- differs"
                };
                let _ = writeln!(
                    s,
                    "{:>16} {:>14} {:>12} {:>12}{mark}",
                    w.way,
                    self.money_text(&w.amount),
                    count(w.expected),
                    count(w.found)
                );
            }
        }
        if !self.features.is_empty() {
            let _ = writeln!(s, "\nwinning play areas per tier and combination shown:");
            let _ = writeln!(s, "{:>12} {:<22} {:>10}", "tier", "combination", "areas");
            for f in &self.features {
                let _ = writeln!(
                    s,
                    "{:>12} {:<22} {:>10}",
                    self.money_text(&f.tier),
                    f.feature,
                    count(f.wins)
                );
            }
        }
        if !self.losing_features.is_empty() {
            let _ = writeln!(
                s,
                "\nlosing play areas per feature shown (near misses, decoys):"
            );
            let _ = writeln!(
                s,
                "{:>12} {:<22} {:>10} {:>10}",
                "", "feature", "areas", "tickets"
            );
            for f in &self.losing_features {
                let _ = writeln!(
                    s,
                    "{:>12} {:<22} {:>10} {:>10}",
                    "",
                    f.feature,
                    count(f.areas),
                    count(f.tickets)
                );
            }
        }
        self.promised_text(s);
    }

    /// The features a default deck promises, each with its ticket, way and whether shown.
    fn promised_text(&self, s: &mut String) {
        if !self.promised.is_empty() {
            let _ = writeln!(s, "\nfeatures the deck promises:");
            for p in &self.promised {
                let _ = writeln!(
                    s,
                    "{:>12} {:<22} ticket {:>6}  way {:<16} {}{}",
                    "",
                    p.feature,
                    p.ticket,
                    p.way,
                    if p.forced { "asked" } else { "always" },
                    if p.shown { "  shown" } else { "  NOT SHOWN" }
                );
            }
        }
    }

    /// The report as text, one line per procedure, then the findings and the counts.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "tirage verify {} — game {}, {} block {}, {} tickets read",
            self.dir,
            self.game.as_deref().unwrap_or("?"),
            match self.kind {
                Some(crate::block::Kind::Production) => "production",
                Some(crate::block::Kind::Specimen) => "SPECIMEN (not payable)",
                None => "?",
            },
            self.block.map_or("?".into(), |b| b.to_string()),
            crate::money::grouped(self.tickets)
        );
        self.checks_text(&mut s);
        if let Some(c) = &self.spec_comparison {
            let _ = writeln!(s, "spec: {}", c.summary());
        }
        self.tallies_text(&mut s);
        for r in &self.pack_rules {
            let _ = writeln!(s, "pack constraint: {r}");
        }
        if let Some(p) = &self.payout {
            let _ = writeln!(s, "evaluated payout: {}", self.money_text(p));
        }
        s += &self.verdict_text();
        s
    }

    /// The verdict alone (what `verify -q` prints): `verify: CLEAN`, or FINDINGS with the
    /// procedures that have some, then the line saying what it was held against.
    pub fn verdict_text(&self) -> String {
        let verdict = if self.clean && self.authenticated.test_seed {
            "verify: CLEAN, as a TEST BLOCK (made with a test seed, never for sale)".to_string()
        } else if self.clean {
            "verify: CLEAN".to_string()
        } else {
            let failed: Vec<String> = self
                .checks
                .iter()
                .filter(|c| !c.is_clean())
                .map(|c| format!("{} {}", c.id.name(), c.result))
                .collect();
            format!("verify: FINDINGS ({})", failed.join(", "))
        };
        format!("{verdict}\nheld against: {}\n", self.held_against())
    }

    /// What the verdict was held against, in one line ([`Authenticated::describe`]).
    pub fn held_against(&self) -> String {
        self.authenticated.describe()
    }

    /// [`Report::held_against`] without what it says of the build that verified: for the
    /// audit report, which says that in a framed warning and a row of its own.
    pub fn held_against_apart_from_build(&self) -> String {
        Authenticated {
            same_build: None,
            ..self.authenticated.clone()
        }
        .describe()
    }
}

#[cfg(test)]
mod tests_printable {
    use super::*;

    #[test]
    fn details_are_escaped_and_cut() {
        assert_eq!(printable("a\u{1b}[31mb"), "a\\u{1b}[31mb");
        let long = "x".repeat(1000);
        let p = printable(&long);
        assert_eq!(p.chars().count(), MAX_DETAIL + "… (cut)".chars().count());
    }
}

#[cfg(test)]
mod tests_findings {
    use super::*;

    /// Every finding is counted; only the first [`EXAMPLES`] are worded, in order.
    #[test]
    fn findings_past_the_examples_are_counted_not_worded() {
        let mut f = Findings::default();
        let mut worded = Vec::new();
        for k in 0..25u32 {
            f.add_with(Some(k), || {
                worded.push(k);
                format!("finding {k}")
            });
        }
        assert_eq!(f.count, 25);
        assert_eq!(worded, (0..10).collect::<Vec<u32>>());
        let details: Vec<&str> = f.examples.iter().map(|e| e.detail.as_str()).collect();
        assert_eq!(details[0], "finding 0");
        assert_eq!(details[9], "finding 9");
        assert_eq!(details.len(), 10);
    }
}
