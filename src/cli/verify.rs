//! `tirage verify DIR`: the independent re-check of a block.

use super::{progress, with_threads, Outcome};
use anyhow::Result;
use std::path::PathBuf;
use tirage::spec::GameSpec;
use tirage::verify::emission::{is_emission, verify_emission};
use tirage::verify::verify;

/// Arguments of `tirage verify`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Exit status: 0 clean, 1 findings, 2 error.\n\nExamples:\n  tirage verify output/coq/block-001\n  tirage verify output/coq/block-001 --spec game_specs/coq.toml --json > report.json"
)]
pub struct Args {
    /// The block directory (holding SHA256SUMS, manifest.json, spec.toml, tickets.csv,
    /// tickets.bin, validation.csv), or an emission directory (holding emission.json).
    dir: PathBuf,
    /// The reference spec: the block's spec.toml must be this exact file.
    #[arg(long)]
    spec: Option<PathBuf>,
    /// Print the report as JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Worker threads (0: one per core). The report is identical for any value.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(a: Args) -> Result<Outcome> {
    let reference = a.spec.as_deref().map(GameSpec::load).transpose()?;
    let expected = reference.as_ref().map_or(0, |s| u64::from(s.block_size));
    if is_emission(&a.dir) {
        let bar = progress::bar(0, "verify", a.quiet);
        let report = with_threads(a.threads, || {
            verify_emission(&a.dir, reference.as_ref(), &|_, _| bar.tick())
        })??;
        bar.finish_and_clear();
        if a.json {
            println!("{}", serde_json::to_string_pretty(&report)?);
        } else {
            print!("{}", report.to_text());
        }
        return Ok(if report.clean {
            Outcome::Success
        } else {
            Outcome::Findings
        });
    }
    let bar = progress::bar(expected, "verify", a.quiet);
    let report = with_threads(a.threads, || {
        verify(&a.dir, reference.as_ref(), &|n| bar.set_position(n))
    })??;
    bar.finish_and_clear();
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", report.to_text());
    }
    Ok(if report.clean {
        Outcome::Success
    } else {
        Outcome::Findings
    })
}
