//! The audit report of an emission: one document over every block of an emission directory,
//! written as `audit.md`, `audit.json` and `audit.pdf` beside the emission
//! (`<emission>.audit/`, like a block's), never inside it.
//!
//! It gives the emission-wide procedure (`emission.json`, distinct blocks, validation codes
//! unique across the emission), each block's verdict, what it was held against, its counts
//! and the digests of its files, and the emission's totals per tier against the lot table
//! times the blocks. Like a block's report it names no winner's ticket, pack or carton: it
//! holds counts per tier and per block, digests and verdicts, and the first findings of a
//! failed procedure (which may name the ticket at fault) — no position, serial or code.

use super::doc::{self, table, Block};
use super::{host_name, private_dir, report_time, AuditError};
use crate::block::layout::{AUDIT_JSON, AUDIT_MD, AUDIT_PDF};
use crate::money::{grouped, Money};
use crate::output::manifest::Tool;
use crate::verify::emission::{EmissionReport, EMISSION_PROCEDURE};
use crate::verify::Report;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The value of `format` in an emission's `audit.json`.
pub const FORMAT: &str = "tirage-emission-audit/1";

/// One block of the emission, as its verify found it.
#[derive(Clone, Debug, Serialize)]
pub struct BlockSummary {
    /// The block's directory, relative to the emission (`block-001`).
    pub dir: String,
    /// Its block number, if its manifest was read.
    pub block: Option<u32>,
    /// `clean` or `findings`.
    pub verdict: &'static str,
    /// Tickets read.
    pub tickets: u64,
    /// Lots found (winning tickets), when every face was evaluated.
    pub lots: Option<u64>,
    /// Payout found, in currency units, when every face was evaluated.
    pub payout: Option<String>,
    /// What its verdict rests on (verify's `held against` line).
    pub held_against: String,
    /// Every procedure that did not pass: its name, result, findings and first examples.
    pub failed: Vec<FailedCheck>,
    /// Every file of the block: name, bytes, SHA-256 as read.
    pub files: Vec<FileSummary>,
    /// The build that generated the block (its manifest's `tool`), if it could be read.
    pub generated_by: Option<Tool>,
    /// True when the build verifying the emission generated this block (the same binary
    /// SHA-256): its verification is not independent of the generator.
    pub same_build: bool,
}

/// A procedure of a block that did not pass.
#[derive(Clone, Debug, Serialize)]
pub struct FailedCheck {
    /// The procedure's name (`counts`).
    pub check: &'static str,
    /// `fail` or `not run`.
    pub result: &'static str,
    /// How many findings.
    pub findings: u64,
    /// The first findings, in words.
    pub examples: Vec<String>,
}

/// One file of a block.
#[derive(Clone, Debug, Serialize)]
pub struct FileSummary {
    /// File name.
    pub name: String,
    /// Size in bytes, if it could be read.
    pub bytes: Option<u64>,
    /// Hex SHA-256 of the bytes read, if it could be read.
    pub sha256: Option<String>,
}

/// One tier of the lot table over the whole emission.
#[derive(Clone, Debug, Serialize)]
pub struct EmissionTier {
    /// The lot amount, in currency units.
    pub amount: String,
    /// Lots of that amount the lot table gives the emission's blocks, added up.
    pub expected: u64,
    /// Lots of that amount found by evaluating every face of every block.
    pub found: u64,
}

/// The emission's totals against the lot table.
#[derive(Clone, Debug, Serialize)]
pub struct EmissionTotals {
    /// Tickets read, over every block.
    pub tickets: u64,
    /// Lots the lot table gives the blocks, and lots found.
    pub lots_expected: u64,
    /// Lots found.
    pub lots: u64,
    /// Payout the lot table gives the blocks, in currency units.
    pub payout_expected: String,
    /// Payout found, in currency units.
    pub payout: String,
}

/// The emission's audit report (`audit.json`; `audit.md` and `audit.pdf` render it).
#[derive(Clone, Debug, Serialize)]
pub struct EmissionAudit {
    /// Always [`FORMAT`].
    pub format: &'static str,
    /// `clean` or `findings`.
    pub verdict: &'static str,
    /// When the procedures ran, UTC ([`report_time`]).
    pub date_utc: String,
    /// The host name of the machine verify ran on.
    pub host: String,
    /// The auditor named (`--auditor`), if any.
    pub auditor: Option<String>,
    /// The operator named (`--operator`), if any.
    pub operator: Option<String>,
    /// The emission directory as given.
    pub dir: String,
    /// Game id (`emission.json`).
    pub game: Option<String>,
    /// Emission number (`emission.json`).
    pub emission: Option<u16>,
    /// The currency of every amount (the blocks' spec).
    pub currency: Option<String>,
    /// Hex SHA-256 of the spec every block was made from (`emission.json`).
    pub spec_sha256: Option<String>,
    /// Hex SHA-256 of `emission.json` as read.
    pub emission_json_sha256: Option<String>,
    /// The tool that ran these procedures (this build).
    pub verified_by: Tool,
    /// The emission-wide procedure, in one sentence.
    pub emission_procedure: &'static str,
    /// `pass` or `fail`.
    pub emission_result: &'static str,
    /// Its findings, and the first of them.
    pub emission_findings: u64,
    /// The first emission-wide findings, in words.
    pub emission_examples: Vec<String>,
    /// Every block, in the order of `emission.json`.
    pub blocks: Vec<BlockSummary>,
    /// Per tier, over every block whose faces were all evaluated.
    pub tiers: Vec<EmissionTier>,
    /// Totals over those blocks.
    pub totals: EmissionTotals,
}

/// Lots (winning tickets) and payout in cents of the ways of `r` as found, or as expected.
fn lots_and_payout(r: &Report, found: bool) -> (u64, u64) {
    r.ways
        .iter()
        .filter_map(|w| Some((w.amount.parse::<Money>().ok()?, w)))
        .filter(|(a, _)| !a.is_zero())
        .fold((0, 0), |(l, p), (a, w)| {
            let n = if found { w.found } else { w.expected };
            (l + n, p + a.cents() * n)
        })
}

/// Per tier (amount, highest first), the lots the lot table gives every block of `r`, added
/// up, and the lots found by evaluating every face.
fn emission_tiers(r: &EmissionReport) -> Vec<EmissionTier> {
    let mut tiers: Vec<(Money, u64, u64)> = Vec::new();
    for b in &r.blocks {
        for w in &b.ways {
            let Ok(a) = w.amount.parse::<Money>() else {
                continue;
            };
            if a.is_zero() {
                continue;
            }
            match tiers.iter_mut().find(|t| t.0 == a) {
                Some(t) => {
                    t.1 += w.expected;
                    t.2 += w.found;
                }
                None => tiers.push((a, w.expected, w.found)),
            }
        }
    }
    tiers.sort_by_key(|t| std::cmp::Reverse(t.0));
    tiers
        .iter()
        .map(|&(a, e, f)| EmissionTier {
            amount: a.to_string(),
            expected: e,
            found: f,
        })
        .collect()
}

/// The tickets, lots and payout of every block of `r`, added up, as expected and as found.
fn emission_totals(r: &EmissionReport) -> EmissionTotals {
    let (mut lots_e, mut pay_e, mut lots_f, mut pay_f) = (0, 0, 0, 0);
    for b in &r.blocks {
        let (l, p) = lots_and_payout(b, false);
        let (lf, pf) = lots_and_payout(b, true);
        (lots_e, pay_e, lots_f, pay_f) = (lots_e + l, pay_e + p, lots_f + lf, pay_f + pf);
    }
    EmissionTotals {
        tickets: r.tickets,
        lots_expected: lots_e,
        lots: lots_f,
        payout_expected: Money(pay_e).to_string(),
        payout: Money(pay_f).to_string(),
    }
}

/// One block's line of the emission report from its verify `b` by the build `verifying`:
/// its verdict, counts, what it was held against, every procedure that did not pass, its
/// files' digests, the build that generated it.
fn block_summary(b: &Report, verifying: &Tool) -> BlockSummary {
    BlockSummary {
        dir: Path::new(&b.dir)
            .file_name()
            .map_or(b.dir.clone(), |n| n.to_string_lossy().into_owned()),
        block: b.block,
        verdict: if b.clean { "clean" } else { "findings" },
        tickets: b.tickets,
        lots: (!b.ways.is_empty()).then(|| lots_and_payout(b, true).0),
        payout: b.payout.clone(),
        held_against: b.held_against_apart_from_build(),
        failed: b
            .checks
            .iter()
            .filter(|c| !c.is_clean())
            .map(|c| FailedCheck {
                check: c.id.name(),
                result: c.result,
                findings: c.findings,
                examples: c
                    .examples
                    .iter()
                    .map(|e| match e.ticket {
                        Some(t) => format!("ticket {t}: {}", e.detail),
                        None => e.detail.clone(),
                    })
                    .collect(),
            })
            .collect(),
        files: b
            .files
            .iter()
            .map(|f| FileSummary {
                name: f.name.clone(),
                bytes: f.bytes,
                sha256: f.sha256.clone(),
            })
            .collect(),
        generated_by: b.generated_by.clone(),
        same_build: b
            .generated_by
            .as_ref()
            .is_some_and(|g| g.same_build_as(verifying)),
    }
}

impl EmissionAudit {
    /// Builds the report from the emission's verify, naming `auditor` and `operator`.
    pub fn build(
        r: &EmissionReport,
        auditor: Option<String>,
        operator: Option<String>,
    ) -> EmissionAudit {
        let verified_by = Tool::this_build();
        EmissionAudit {
            format: FORMAT,
            verdict: if r.clean { "clean" } else { "findings" },
            date_utc: report_time().unwrap_or_else(|_| super::utc_text(0)),
            host: host_name(),
            auditor,
            operator,
            dir: r.dir.clone(),
            game: r.game.clone(),
            emission: r.emission,
            currency: r.blocks.iter().find_map(|b| b.currency.clone()),
            spec_sha256: r.spec_sha256.clone(),
            emission_json_sha256: r.emission_json_sha256.clone(),
            blocks: r
                .blocks
                .iter()
                .map(|b| block_summary(b, &verified_by))
                .collect(),
            verified_by,
            emission_procedure: EMISSION_PROCEDURE,
            emission_result: if r.findings == 0 { "pass" } else { "fail" },
            emission_findings: r.findings,
            emission_examples: r.examples.clone(),
            tiers: emission_tiers(r),
            totals: emission_totals(r),
        }
    }

    /// An amount in currency units (as the JSON holds it) for a reader: `1,125,000 EUR`.
    fn money(&self, units: &str) -> String {
        let cur = self.currency.as_deref().unwrap_or("");
        units
            .parse::<Money>()
            .map_or(units.to_string(), |m| m.with_currency(cur))
    }

    /// The report as blocks, for `audit.md` and `audit.pdf` alike.
    pub fn document(&self) -> Vec<Block> {
        let mut d = Vec::new();
        let game = self.game.as_deref().unwrap_or("?");
        let emission = self.emission.map_or("?".into(), |e| e.to_string());
        d.push(Block::Title(format!(
            "tirage emission audit — game {game}, emission {emission}"
        )));
        let verdict = match self.verdict {
            "clean" => "**CLEAN**: the emission-wide procedure and every block passed",
            _ => "**FINDINGS**: see the procedures that did not pass below",
        };
        d.push(Block::Para(format!("Verdict: {verdict}.")));
        self.same_build_warning(&mut d);
        self.identification(&mut d);
        self.section_procedure(&mut d);
        self.section_blocks(&mut d);
        self.section_totals(&mut d);
        self.sign_off(&mut d);
        d
    }

    /// The warning that the blocks named were generated by the build that verified them,
    /// when any was.
    fn same_build_warning(&self, d: &mut Vec<Block>) {
        let same: Vec<&str> = self
            .blocks
            .iter()
            .filter(|b| b.same_build)
            .map(|b| b.dir.as_str())
            .collect();
        if same.is_empty() {
            return;
        }
        let all = same.len() == self.blocks.len();
        let which = if all {
            "every block".to_string()
        } else {
            same.join(", ")
        };
        d.push(Block::Warning(super::same_build_warning(
            &self.verified_by,
            &which,
        )));
    }

    /// Section 5: what was done on which emission, the attestation, the signature lines.
    fn sign_off(&self, d: &mut Vec<Block>) {
        d.push(Block::Heading("5. Sign-off".into()));
        d.push(Block::Para(format!(
            "The procedures above were performed on {} on host `{}` by tirage {} (git commit `{}`), \
             on the emission whose `emission.json` has SHA-256 {}; verdict: {}. By signing, the \
             auditor attests that this report states the procedures performed and their results, \
             and the operator that the blocks are the ones delivered.",
            self.date_utc,
            self.host,
            self.verified_by.version,
            self.verified_by.git_commit,
            self.emission_json_sha256
                .as_deref()
                .map_or("?".into(), |h| format!("`{h}`")),
            self.verdict.to_uppercase()
        )));
        d.push(Block::Signatures(vec![
            ("Auditor".into(), self.auditor.clone()),
            ("Operator".into(), self.operator.clone()),
        ]));
    }

    /// Section 1: the date, the parties, the host, the emission and its digests, the build
    /// that verified it.
    fn identification(&self, d: &mut Vec<Block>) {
        d.push(Block::Heading("1. Identification".into()));
        let named = |n: &Option<String>| n.clone().unwrap_or_else(|| "not named".into());
        let code = |h: &Option<String>| h.as_ref().map_or("?".into(), |h| format!("`{h}`"));
        for (k, v) in [
            ("Date of the procedures", self.date_utc.clone()),
            ("Auditor", named(&self.auditor)),
            ("Operator", named(&self.operator)),
            ("Host", self.host.clone()),
            ("Emission directory", format!("`{}`", self.dir)),
            ("Blocks", grouped(self.blocks.len() as u64)),
            ("Spec SHA-256 (emission.json)", code(&self.spec_sha256)),
            ("emission.json SHA-256", code(&self.emission_json_sha256)),
            (
                "Verified by",
                format!(
                    "tirage {} (commit `{}`, sources {}, binary SHA-256 `{}`)",
                    self.verified_by.version,
                    self.verified_by.git_commit,
                    self.verified_by.source,
                    self.verified_by.binary_sha256
                ),
            ),
        ] {
            d.push(Block::Item(0, format!("{k}: {v}")));
        }
    }

    /// Section 2: the emission-wide procedure, its result and first findings.
    fn section_procedure(&self, d: &mut Vec<Block>) {
        d.push(Block::Heading("2. Emission-wide procedure".into()));
        d.push(table(
            &["procedure", "result", ">findings"],
            vec![vec![
                self.emission_procedure.to_string(),
                self.emission_result.to_uppercase(),
                grouped(self.emission_findings),
            ]],
        ));
        for e in &self.emission_examples {
            d.push(Block::Item(0, e.clone()));
        }
    }

    /// Section 3: every block's verdict and counts, then per block what it was held
    /// against, the procedures that did not pass and its files' digests.
    fn section_blocks(&self, d: &mut Vec<Block>) {
        d.push(Block::Heading("3. Blocks".into()));
        d.push(Block::Para(
            "Each block verified as `tirage verify` verifies one (every procedure, every face re-evaluated); its own audit report, with the randomness evidence, comes from verifying the block alone.".into(),
        ));
        d.push(table(
            &["block", "verdict", ">tickets", ">lots", ">payout"],
            self.blocks
                .iter()
                .map(|b| {
                    vec![
                        b.dir.clone(),
                        b.verdict.to_uppercase(),
                        grouped(b.tickets),
                        b.lots.map_or("?".into(), grouped),
                        b.payout.as_deref().map_or("?".into(), |p| self.money(p)),
                    ]
                })
                .collect(),
        ));
        for b in &self.blocks {
            block_details(d, b);
        }
    }

    /// Section 4: per tier, and for all lots and the payout, the lot table times the blocks
    /// against what was found.
    fn section_totals(&self, d: &mut Vec<Block>) {
        d.push(Block::Heading("4. Totals against the lot table".into()));
        d.push(Block::Para(
            "Per tier, the lots the lot table gives every block, added up, against the lots found by evaluating every face.".into(),
        ));
        let differs = |same: bool| if same { "" } else { "differs" }.to_string();
        let mut rows: Vec<Vec<String>> = self
            .tiers
            .iter()
            .map(|t| {
                vec![
                    self.money(&t.amount),
                    grouped(t.expected),
                    grouped(t.found),
                    differs(t.expected == t.found),
                ]
            })
            .collect();
        let tt = &self.totals;
        rows.push(vec![
            "**all lots**".into(),
            grouped(tt.lots_expected),
            grouped(tt.lots),
            differs(tt.lots_expected == tt.lots),
        ]);
        rows.push(vec![
            "**payout**".into(),
            self.money(&tt.payout_expected),
            self.money(&tt.payout),
            differs(tt.payout_expected == tt.payout),
        ]);
        d.push(table(&["tier", ">expected", ">found", ""], rows));
        d.push(Block::Para(format!(
            "Tickets read over the emission: {}.",
            grouped(tt.tickets)
        )));
    }

    /// `audit.md`.
    pub fn to_markdown(&self) -> String {
        doc::markdown(&self.document())
    }

    /// `audit.json`: pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("the emission audit serializes");
        s.push('\n');
        s
    }

    /// `audit.pdf`: the report on A4 pages, text as text.
    pub fn to_pdf(&self) -> Vec<u8> {
        let head = format!(
            "tirage emission audit — game {}, emission {} — {}",
            self.game.as_deref().unwrap_or("?"),
            self.emission.map_or("?".into(), |e| e.to_string()),
            self.date_utc
        );
        let pages = doc::pages(&self.document(), &head, &[]);
        crate::proof::draw::pdf::document(&head, &pages)
    }

    /// Writes `audit.md`, `audit.json` and `audit.pdf` into `dir`, as a block's report is
    /// written ([`super::Audit::write`]): `dir` only its owner can enter (made 0700;
    /// `beside`: tirage's own `<emission>.audit`, narrowed when wider), each file created
    /// 0600 under a temporary name, then renamed over any earlier one. Returns the paths
    /// written. Errors: [`AuditError`].
    pub fn write(&self, dir: &Path, beside: bool) -> Result<Vec<PathBuf>, AuditError> {
        private_dir(dir, beside)?;
        let files = vec![
            (AUDIT_MD, self.to_markdown().into_bytes()),
            (AUDIT_JSON, self.to_json().into_bytes()),
            (AUDIT_PDF, self.to_pdf()),
        ];
        super::write_files(dir, files)
    }
}

/// One block's part of section 3: what it was held against, every procedure that did not
/// pass with its first findings, and its files' digests.
fn block_details(d: &mut Vec<Block>, b: &BlockSummary) {
    d.push(Block::Subheading(b.dir.clone()));
    d.push(Block::Para(format!("Held against: {}.", b.held_against)));
    if let Some(t) = &b.generated_by {
        let same = if b.same_build {
            " — the build that verified it"
        } else {
            ""
        };
        d.push(Block::Para(format!(
            "Generated by: {}{same}.",
            super::tool_text(t)
        )));
    }
    for f in &b.failed {
        d.push(Block::Item(
            0,
            format!(
                "{} {}: {} finding(s)",
                f.check,
                f.result.to_uppercase(),
                grouped(f.findings)
            ),
        ));
        for e in &f.examples {
            d.push(Block::Item(1, e.clone()));
        }
    }
    d.push(table(
        &["file", ">bytes", "SHA-256"],
        b.files
            .iter()
            .map(|f| {
                vec![
                    f.name.clone(),
                    f.bytes.map_or("?".into(), grouped),
                    f.sha256
                        .as_ref()
                        .map_or("(not read)".into(), |h| format!("`{h}`")),
                ]
            })
            .collect(),
    ));
}
