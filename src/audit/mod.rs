//! The audit report: verify's procedures and findings, shaped like an agreed-upon-procedures
//! report (procedures performed, factual findings, exceptions), with the evidence that the
//! block's winners sit where nobody could choose or predict them.
//!
//! [`Audit::build`] takes what [`crate::verify::inspect`] found — verify's own [`Report`]
//! (every face re-evaluated, counts, digests), the evaluated way of every ticket in print
//! order, the leakage measures and the replay — and adds the randomness statistics
//! ([`randomness`]). [`Audit::write`] puts `audit.md`, `audit.json` and `audit.svg` in a
//! directory, each through a temporary name and a rename, so a re-run replaces them whole.
//! They are not deliverables of the block: SHA256SUMS does not list them and verify reads
//! only the files it lists.
//!
//! Decisions: a statistic with p < [`FLAG_P`] is an **exception** — reported in words, but
//! not a finding (verify still exits 0), since 1 % of honest blocks flag any given test by
//! chance. The leakage gate (p < [`leakage::GATE_P`]) and a replay that does not give the
//! same bytes are **findings** (verify exits 1), like every other failed procedure.

pub mod chart;
pub use crate::verify::leakage;
pub mod randomness;

use crate::output::manifest::Tool;
use crate::verify::{CheckResult, ReplayFile, Report, Verified};
use randomness::Evidence;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

pub use crate::stats::FLAG_P;

/// Audit report format identifier (`audit.json`'s `format`).
pub const FORMAT: &str = "tirage-audit/1";

pub use crate::block::layout::{AUDIT_JSON, AUDIT_MD, AUDIT_SVG};

/// What one exception means, in words.
pub const EXCEPTION_MEANING: &str = "a result this far from what an honest random block gives happens by chance in 1 % of honest blocks; an exception calls for a look (for instance at the chart, or at the next blocks), it is not by itself evidence of bias";

/// Counts of one tier against the spec.
#[derive(Clone, Debug, Serialize)]
pub struct TierTally {
    /// Lot amount (currency units).
    pub amount: String,
    /// Tickets the spec requires.
    pub expected: u64,
    /// Tickets found by evaluating every face.
    pub found: u64,
    /// Its ways (ids).
    pub ways: Vec<String>,
}

/// Money totals of the block.
#[derive(Clone, Debug, Serialize)]
pub struct Totals {
    /// Ticket price (currency units).
    pub price: String,
    /// Tickets.
    pub tickets: u64,
    /// Winning tickets found.
    pub lots: u64,
    /// Winning tickets the spec requires.
    pub lots_expected: u64,
    /// Total payout found by evaluating every face (currency units).
    pub payout: String,
    /// Total payout the spec requires.
    pub payout_expected: String,
    /// Payout found ÷ (tickets × price).
    pub payout_ratio: f64,
    /// Payout required ÷ (tickets × price).
    pub payout_ratio_expected: f64,
}

/// One exception: a test at p < 1 %.
#[derive(Clone, Debug, Serialize)]
pub struct Exception {
    /// Test id.
    pub id: String,
    /// What it tests.
    pub test: String,
    /// Its p-value.
    pub p_value: f64,
    /// What it means.
    pub meaning: &'static str,
}

/// The whole audit report (`audit.json`; `audit.md` renders it).
#[derive(Clone, Debug, Serialize)]
pub struct Audit {
    /// Always [`FORMAT`].
    pub format: &'static str,
    /// `clean`, `clean, with exceptions` or `findings` (verify exits 1 only on findings).
    pub verdict: &'static str,
    /// The tool that generated the block (from its manifest).
    pub generated_by: Option<Tool>,
    /// The tool that ran these procedures (this build).
    pub verified_by: Tool,
    /// The block's seed commitment (manifest).
    pub seed_commitment: Option<String>,
    /// The commitments of its seed shares (manifest), when it was made from shares.
    pub seed_shares: Option<Vec<String>>,
    /// Hex SHA-256 of the block's spec.toml.
    pub spec_sha256: Option<String>,
    /// Verify's report: every procedure, the counts per way, every file's digests.
    pub report: Report,
    /// Counts per tier against the spec.
    pub tiers: Vec<TierTally>,
    /// Money totals.
    pub totals: Option<Totals>,
    /// How uniqueness of the serials is established.
    pub serials: String,
    /// The randomness tests, when every ticket was evaluated to a way.
    pub randomness: Option<Evidence>,
    /// Why the randomness tests did not run, if they did not.
    pub randomness_not_run: Option<String>,
    /// Each printed field's association with win / lose.
    pub leakage: Option<Vec<leakage::FieldResult>>,
    /// The replay's files, when a replay ran.
    pub replay: Option<Vec<ReplayFile>>,
    /// Every test at p < 1 % (randomness, and leakage below the gate's threshold).
    pub exceptions: Vec<Exception>,
    /// Number of tests with a p-value (randomness and leakage).
    pub tests_with_p_values: usize,
}

/// Why the audit report could not be written.
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    /// A file could not be written or renamed.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        error: std::io::Error,
    },
    /// The chart could not be drawn.
    #[error("the audit chart could not be drawn: {0}")]
    Chart(String),
}

impl Audit {
    /// Builds the audit report from what verify found.
    pub fn build(v: Verified) -> Audit {
        let Verified {
            report,
            spec,
            manifest,
            ways,
            leakage,
            replay,
            codes: _,
        } = v;
        let mut tiers = Vec::new();
        let mut totals = None;
        let mut randomness = None;
        let mut randomness_not_run = None;
        if let Some(spec) = &spec {
            let found = |w: usize| {
                report
                    .ways
                    .get(w)
                    .map_or(0, |t: &crate::verify::WayTally| t.found)
            };
            tiers = spec
                .tiers
                .iter()
                .map(|t| TierTally {
                    amount: t.amount.to_string(),
                    expected: u64::from(t.count),
                    found: t.ways.iter().map(|&w| found(w as usize)).sum(),
                    ways: t
                        .ways
                        .iter()
                        .map(|&w| spec.ways[w as usize].id.clone())
                        .collect(),
                })
                .collect();
            if !report.ways.is_empty() {
                let sales = spec.price.cents() as f64 * f64::from(spec.block_size);
                let payout_cents: u64 = report
                    .payout
                    .as_deref()
                    .and_then(|p| p.parse::<crate::money::Money>().ok())
                    .map_or(0, |m| m.cents());
                totals = Some(Totals {
                    price: spec.price.to_string(),
                    tickets: report.tickets,
                    lots: tiers.iter().map(|t| t.found).sum(),
                    lots_expected: spec.lots(),
                    payout: report.payout.clone().unwrap_or_default(),
                    payout_expected: spec.payout().to_string(),
                    payout_ratio: payout_cents as f64 / sales,
                    payout_ratio_expected: spec.payout().cents() as f64 / sales,
                });
            }
            let unrecognised = report
                .checks
                .iter()
                .filter(|c| matches!(c.id.name(), "way_recognised" | "face_codes"))
                .map(|c| c.findings)
                .sum::<u64>();
            let tickets = report.ways.iter().map(|w| w.expected).sum::<u64>();
            if tickets == 0 || ways.len() as u64 != tickets {
                randomness_not_run = Some(format!(
                    "{} print records read, the block has {} tickets: the arrangement cannot be tested",
                    ways.len(),
                    tickets
                ));
            } else if unrecognised > 0 {
                randomness_not_run = Some(format!(
                    "{unrecognised} tickets realise no way of the spec: the arrangement cannot be tested"
                ));
            } else {
                // The constraints in force (none on a specimen deck): the laws the
                // randomness tests expect are the allocation's under them.
                let rules = if report.pack_rules.is_empty() {
                    crate::spec::PackRules::default()
                } else {
                    spec.pack_rules.clone()
                };
                randomness = Some(randomness::analyze(spec, &rules, &ways));
            }
        } else {
            randomness_not_run = Some("the spec could not be read".into());
        }
        let mut exceptions: Vec<Exception> = Vec::new();
        let mut tests = 0;
        if let Some(e) = &randomness {
            tests += e.statistics.iter().filter(|s| s.p_value.is_some()).count();
            exceptions.extend(e.exceptions().map(|s| Exception {
                id: s.id.clone(),
                test: s.test.clone(),
                p_value: s.p_value.unwrap_or(0.0),
                meaning: EXCEPTION_MEANING,
            }));
        }
        if let Some(l) = &leakage {
            tests += l.iter().filter(|r| r.p_value.is_some()).count();
            exceptions.extend(
                l.iter()
                    .filter(|r| r.result == "exception")
                    .map(|r| Exception {
                        id: format!("leakage_{}", r.field),
                        test: format!("association of the {} with win/lose", r.measures),
                        p_value: r.p_value.unwrap_or(0.0),
                        meaning: EXCEPTION_MEANING,
                    }),
            );
        }
        let verdict = if !report.clean {
            "findings"
        } else if exceptions.is_empty() {
            "clean"
        } else {
            "clean, with exceptions"
        };
        let serials_check = report.checks.iter().find(|c| c.id.name() == "serials");
        let serials = match serials_check.map(|c| c.result) {
            Some("pass") => format!(
                "Each of the {} serials is the documented serial of its own print position (game, emission, block, pack, position in fixed-width fields, Luhn digit); that encoding is injective and positions run 1..N, so the {} serials are distinct",
                report.tickets, report.tickets
            ),
            Some(r) => format!("Not established: the serials procedure's result is \"{r}\""),
            None => "Not established".into(),
        };
        Audit {
            format: FORMAT,
            verdict,
            generated_by: manifest.as_ref().map(|m| m.tool.clone()),
            verified_by: Tool::this_build(),
            seed_commitment: manifest.as_ref().map(|m| m.seed_commitment.clone()),
            seed_shares: manifest.as_ref().and_then(|m| m.seed_shares.clone()),
            spec_sha256: spec.as_ref().map(|s| s.sha256.clone()),
            report,
            tiers,
            totals,
            serials,
            randomness,
            randomness_not_run,
            leakage,
            replay,
            exceptions,
            tests_with_p_values: tests,
        }
    }

    /// `audit.json`: the report as pretty JSON, with a final newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("audit serializes");
        s.push('\n');
        s
    }

    /// The chart (`audit.svg`), when the randomness tests ran.
    pub fn chart(&self) -> Option<Result<String, String>> {
        let title = format!(
            "tirage audit — {} block {}",
            self.report.game.as_deref().unwrap_or("?"),
            self.report.block.map_or("?".into(), |b| b.to_string())
        );
        self.randomness.as_ref().map(|e| chart::svg(e, &title))
    }

    /// Writes `audit.md`, `audit.json` and (when the randomness tests ran) `audit.svg` into
    /// `dir` (created if missing), each to a temporary name then renamed over any previous
    /// one. Returns the paths written. Errors: [`AuditError`].
    pub fn write(&self, dir: &Path) -> Result<Vec<PathBuf>, AuditError> {
        std::fs::create_dir_all(dir).map_err(|error| AuditError::Io {
            path: dir.to_path_buf(),
            error,
        })?;
        let mut files = vec![(AUDIT_MD, self.to_markdown()), (AUDIT_JSON, self.to_json())];
        if let Some(svg) = self.chart() {
            files.push((AUDIT_SVG, svg.map_err(AuditError::Chart)?));
        }
        let mut written = Vec::new();
        for (name, text) in files {
            let path = dir.join(name);
            let io = |error| AuditError::Io {
                path: path.clone(),
                error,
            };
            // A unique temporary name in the same directory, so that two verify runs at
            // once never write the same temporary file; the rename replaces atomically.
            let mut tmp = tempfile::Builder::new()
                .prefix(&format!(".{name}."))
                .suffix(".tmp")
                .tempfile_in(dir)
                .map_err(io)?;
            std::io::Write::write_all(&mut tmp, text.as_bytes()).map_err(io)?;
            // Temporary files are created 0600; the report is for every reader.
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                tmp.as_file()
                    .set_permissions(std::fs::Permissions::from_mode(0o644))
                    .map_err(io)?;
            }
            tmp.persist(&path).map_err(|e| io(e.error))?;
            written.push(path);
        }
        Ok(written)
    }

    /// `audit.md`: the report in Markdown.
    pub fn to_markdown(&self) -> String {
        let mut s = String::new();
        let r = &self.report;
        let game = r.game.as_deref().unwrap_or("?");
        let block = r.block.map_or("?".into(), |b| b.to_string());
        let _ = writeln!(s, "# Audit report — {game}, block {block}\n");
        let _ = writeln!(
            s,
            "Agreed-upon procedures performed by `tirage verify` on the block in `{}`. This report \
             states the procedures performed and the factual findings; it draws no conclusion beyond \
             them.\n",
            r.dir
        );

        // Identification.
        let _ = writeln!(s, "## Identification\n");
        let _ = writeln!(s, "| item | value |\n|---|---|");
        let _ = writeln!(s, "| block directory | `{}` |", r.dir);
        let _ = writeln!(s, "| game / block | {game} / {block} |");
        let _ = writeln!(s, "| tickets read | {} |", r.tickets);
        if let Some(h) = &self.spec_sha256 {
            let _ = writeln!(s, "| spec.toml SHA-256 | `{h}` |");
        }
        if let Some(c) = &self.seed_commitment {
            let _ = writeln!(s, "| seed commitment | `{c}` |");
        }
        match &self.seed_shares {
            Some(sh) => {
                for (i, c) in sh.iter().enumerate() {
                    let _ = writeln!(s, "| seed share {} commitment | `{c}` |", i + 1);
                }
            }
            None => {
                let _ = writeln!(
                    s,
                    "| seed shares | none recorded (the seed was not combined from shares) |"
                );
            }
        }
        let tool = |t: &Tool| {
            format!(
                "{} {}, git commit `{}`, Cargo.lock SHA-256 `{}`",
                t.name,
                t.version,
                if t.git_commit.is_empty() {
                    "(not recorded)"
                } else {
                    &t.git_commit
                },
                if t.cargo_lock_sha256.is_empty() {
                    "(not recorded)"
                } else {
                    &t.cargo_lock_sha256
                }
            )
        };
        if let Some(t) = &self.generated_by {
            let _ = writeln!(s, "| generated by | {} |", tool(t));
        }
        let _ = writeln!(s, "| verified by | {} |", tool(&self.verified_by));

        // Summary.
        let count = |res: &str| r.checks.iter().filter(|c| c.result == res).count();
        let _ = writeln!(s, "\n## Summary\n");
        let _ = writeln!(
            s,
            "**Verdict: {}.** {} procedures: {} passed, {} with findings, {} not run, {} skipped. \
             {} statistical tests with p-values, {} exception(s) at p < 1 %.\n",
            self.verdict.to_uppercase(),
            r.checks.len(),
            count("pass"),
            count("fail"),
            count("not run"),
            count("skipped"),
            self.tests_with_p_values,
            self.exceptions.len()
        );
        let _ = writeln!(
            s,
            "Findings (a failed procedure, including the leakage gate and the replay) make \
             `tirage verify` exit 1. Exceptions (a statistic at p < 1 %) are reported but do not: \
             about 1 % of honest blocks flag any given test by chance, so with {} tests about {} % \
             of honest blocks show at least one exception.\n",
            self.tests_with_p_values, self.tests_with_p_values
        );

        // Procedures.
        let _ = writeln!(s, "## 1. Procedures and findings\n");
        let _ = writeln!(
            s,
            "| # | procedure | what it establishes | result | findings |\n|---:|---|---|---|---:|"
        );
        for (i, c) in r.checks.iter().enumerate() {
            let _ = writeln!(
                s,
                "| {} | `{}` | {} | {} | {} |",
                i + 1,
                c.id.name(),
                c.procedure,
                c.result.to_uppercase(),
                c.findings
            );
        }
        let failed: Vec<&CheckResult> = r.checks.iter().filter(|c| c.findings > 0).collect();
        if failed.is_empty() {
            let _ = writeln!(s, "\nNo findings.");
        } else {
            let _ = writeln!(
                s,
                "\n### Findings (first {} of each)\n",
                crate::verify::report::EXAMPLES
            );
            for c in failed {
                let _ = writeln!(s, "- **{}** — {} finding(s):", c.id.name(), c.findings);
                for f in &c.examples {
                    match f.ticket {
                        Some(t) => {
                            let _ = writeln!(s, "  - ticket {t}: {}", f.detail);
                        }
                        None => {
                            let _ = writeln!(s, "  - {}", f.detail);
                        }
                    }
                }
            }
        }

        // Counts.
        let _ = writeln!(s, "\n## 2. Counts per tier and way, payout\n");
        if self.tiers.is_empty() {
            let _ = writeln!(s, "Not established (the spec could not be read).");
        } else {
            let _ = writeln!(s, "Every face was re-evaluated by the rules alone; the counts below are the evaluation's.\n");
            let _ = writeln!(
                s,
                "| tier (amount) | spec | found | agree | ways |\n|---:|---:|---:|---|---|"
            );
            for t in &self.tiers {
                let _ = writeln!(
                    s,
                    "| {} | {} | {} | {} | {} |",
                    t.amount,
                    t.expected,
                    t.found,
                    if t.expected == t.found {
                        "yes"
                    } else {
                        "**no**"
                    },
                    t.ways.join(", ")
                );
            }
            let _ = writeln!(s, "\n| way | amount | spec | found |\n|---|---:|---:|---:|");
            for w in &r.ways {
                let _ = writeln!(
                    s,
                    "| `{}` | {} | {} | {} |",
                    w.way, w.amount, w.expected, w.found
                );
            }
            if let Some(t) = &self.totals {
                let _ = writeln!(
                    s,
                    "\nLots: {} found, {} in the spec. Payout: {} found, {} in the spec. \
                     Payout ratio (payout ÷ {} tickets × {}): {:.6} found, {:.6} in the spec.",
                    t.lots,
                    t.lots_expected,
                    t.payout,
                    t.payout_expected,
                    t.tickets,
                    t.price,
                    t.payout_ratio,
                    t.payout_ratio_expected
                );
            }
        }

        // Serials.
        let _ = writeln!(s, "\n## 3. Uniqueness of serials\n\n{}.", self.serials);

        // Digests.
        let _ = writeln!(s, "\n## 4. Digests\n");
        let _ = writeln!(s, "| file | bytes | SHA-256 of the bytes read | SHA256SUMS | manifest |\n|---|---:|---|---|---|");
        for f in &r.files {
            let cmp = |listed: &Option<String>| match (listed, &f.sha256) {
                (None, _) => "not listed".to_string(),
                (Some(l), Some(h)) if l == h => "agrees".to_string(),
                (Some(l), _) => format!("**differs**: `{l}`"),
            };
            let _ = writeln!(
                s,
                "| {} | {} | `{}` | {} | {} |",
                f.name,
                f.bytes.map_or("—".into(), |b| b.to_string()),
                f.sha256.as_deref().unwrap_or("unreadable"),
                cmp(&f.sha256sums),
                cmp(&f.manifest)
            );
        }

        // Randomness.
        let _ = writeln!(s, "\n## 5. Randomness of the arrangement\n");
        match (&self.randomness, &self.randomness_not_run) {
            (Some(e), _) => render_randomness(&mut s, e),
            (None, Some(why)) => {
                let _ = writeln!(s, "Not run: {why}.");
            }
            (None, None) => {
                let _ = writeln!(s, "Not run.");
            }
        }

        // Leakage.
        let _ = writeln!(
            s,
            "\n## 6. Leakage gate: printed fields against win / lose\n"
        );
        match &self.leakage {
            None => {
                let _ = writeln!(s, "Not run (the print records could not be read).");
            }
            Some(l) => {
                let _ = writeln!(
                    s,
                    "For each field printed outside the scratch layer, the tickets are tallied by the \
                     field's value and by win / lose; a chi-square test of independence gives the \
                     p-value, and the mutual information says how many bits about win / lose the \
                     field carries (beside the mean for an independent field of the same shape). \
                     The gate fails (a finding, exit 1) at p < 10⁻⁶; p < 1 % is an exception.\n"
                );
                let _ = writeln!(s, "| field | values | χ² | df | p-value | MI (bits) | independent field (bits) | result |\n|---|---:|---:|---:|---:|---:|---:|---|");
                for f in l {
                    let _ = writeln!(
                        s,
                        "| {} | {} | {} | {} | {} | {} | {} | {} |",
                        f.measures,
                        f.values,
                        opt(f.chi_square, 2),
                        opt(f.df, 0),
                        p_text(f.p_value),
                        f.mi_bits.map_or("—".into(), |v| format!("{v:.6}")),
                        f.mi_baseline_bits.map_or("—".into(), |v| format!("{v:.6}")),
                        f.result.to_uppercase()
                    );
                }
                let _ = writeln!(s, "\nThe association with the pack number itself is the test `pack_dispersion` of section 5.");
            }
        }

        // Replay.
        let _ = writeln!(s, "\n## 7. Audit replay\n");
        let replay_check = r.checks.iter().find(|c| c.id.name() == "replay");
        match (&self.replay, replay_check.map(|c| c.result)) {
            (_, Some("skipped")) => {
                let _ = writeln!(s, "Skipped: no seed was given (`--seed-file` or `--seed-share`). With the seed, verify regenerates the block in memory and compares every file's bytes.");
            }
            (Some(files), _) => {
                let _ = writeln!(s, "The block was regenerated in memory from the seed given (whose commitment matches the manifest) and each file compared by SHA-256.\n");
                let _ = writeln!(
                    s,
                    "| file | block | replay | identical |\n|---|---|---|---|"
                );
                for f in files {
                    let _ = writeln!(
                        s,
                        "| {} | `{}` | `{}` | {} |",
                        f.name,
                        f.block_sha256.as_deref().unwrap_or("missing"),
                        f.replay_sha256,
                        if f.identical { "yes" } else { "**no**" }
                    );
                }
            }
            (None, res) => {
                let _ = writeln!(
                    s,
                    "Result: {}; see the findings of `replay` in section 1.",
                    res.unwrap_or("not run")
                );
            }
        }

        // Exceptions.
        let _ = writeln!(s, "\n## 8. Exceptions\n");
        if self.exceptions.is_empty() {
            let _ = writeln!(s, "None: no test has a p-value below 1 %.");
        } else {
            for x in &self.exceptions {
                let _ = writeln!(
                    s,
                    "- `{}` ({}): p = {} — {}.",
                    x.id,
                    x.test,
                    p_text(Some(x.p_value)),
                    x.meaning
                );
            }
        }
        let _ = writeln!(
            s,
            "\n## Reading the p-values\n\nA p-value is the probability that an honest block — every \
             arrangement of the lot table's tickets equally likely — gives a result at least as far \
             from expectation as this one. Small values are rare for honest blocks: below 1 % \
             (flagged here) in one honest block in a hundred, below 10⁻⁶ (the leakage gate) in one \
             in a million. Uniform p-values across many blocks are what honest generation looks like."
        );
        s
    }
}

fn opt(v: Option<f64>, digits: usize) -> String {
    v.map_or("—".into(), |v| format!("{v:.digits$}"))
}

fn p_text(p: Option<f64>) -> String {
    match p {
        None => "—".into(),
        Some(p) if p < 1e-4 => format!("{p:.1e}"),
        Some(p) => format!("{p:.4}"),
    }
}

fn render_randomness(s: &mut String, e: &Evidence) {
    let _ = writeln!(
        s,
        "Tests on the evaluated way of every ticket in print order. The chart `{AUDIT_SVG}` shows \
         the winners per pack and the positions of the top tiers.\n\n![winners per pack and top-tier positions]({AUDIT_SVG})\n"
    );
    let _ = writeln!(s, "| test | what it tests | n | statistic | df | p-value | result |\n|---|---|---:|---:|---:|---:|---|");
    for t in &e.statistics {
        let _ = writeln!(
            s,
            "| `{}` | {} | {} | {} | {} | {} | {} |",
            t.id,
            t.test,
            t.n,
            opt(t.statistic, 4),
            opt(t.df, 0),
            p_text(t.p_value),
            t.result.to_uppercase()
        );
    }
    let _ = writeln!(s);
    for t in &e.statistics {
        if !t.note.is_empty() {
            let _ = writeln!(s, "- `{}`: {}.", t.id, t.note);
        }
    }
    for t in e.statistics.iter().filter(|t| !t.lags.is_empty()) {
        let _ = writeln!(
            s,
            "\n`{}`, per lag:\n\n| lag | r | z | p-value |\n|---:|---:|---:|---:|",
            t.id
        );
        for l in &t.lags {
            let _ = writeln!(
                s,
                "| {} | {:.6} | {:.3} | {} |",
                l.lag,
                l.r,
                l.z,
                p_text(Some(l.p_value))
            );
        }
    }
    for t in e.statistics.iter().filter(|t| !t.bins.is_empty()) {
        let _ = writeln!(s, "\n`{}`, bins (winners per pack):\n\n| winners | packs observed | packs expected |\n|---|---:|---:|", t.id);
        for b in &t.bins {
            let _ = writeln!(
                s,
                "| {}–{} | {} | {:.2} |",
                b.from, b.to, b.observed, b.expected
            );
        }
    }
    if !e.small_tiers.is_empty() {
        let _ = writeln!(s, "\nThe tiers with fewer than {} tickets (their positions are not published: they would tell where the top prizes are):\n\n| tier | tickets | packs holding them | closest two (tickets apart) |\n|---:|---:|---:|---:|", randomness::KS_MIN);
        for t in &e.small_tiers {
            let closest = t.closest.map_or("–".into(), |c| c.to_string());
            let _ = writeln!(
                s,
                "| {} | {} | {} | {closest} |",
                t.amount, t.count, t.packs
            );
        }
    }
}
