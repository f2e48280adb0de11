//! `tirage styles`: the play styles of the library, with their parameters.

use super::Outcome;
use anyhow::Result;
use std::io::Write;
use tirage::styles::style::{StyleInfo, LIBRARY};

/// Arguments of `tirage styles`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Without NAME it prints the index: one line per style.\n\nExit status: 0 printed, 2 a NAME that is no style of the library (the error names them all).\n\nExamples:\n  tirage styles\n  tirage styles reveal\n  tirage styles --all\n  tirage styles --json"
)]
pub(super) struct Args {
    /// Show this style in full (its name as a surface's `style` gives it): how it wins, its
    /// naive reading, columns and parameters, and an example.
    name: Option<String>,
    /// After the index, every style in full.
    #[arg(long, conflicts_with = "name")]
    all: bool,
    /// Print the library as JSON (one object per style) for tools.
    #[arg(long)]
    json: bool,
}

pub(super) fn run(a: Args) -> Result<Outcome> {
    let chosen: Vec<&StyleInfo> = match &a.name {
        None => LIBRARY.iter().collect(),
        Some(n) => {
            let s = LIBRARY.iter().find(|s| s.name == n).ok_or_else(|| {
                let known: Vec<&str> = LIBRARY.iter().map(|s| s.name).collect();
                anyhow::anyhow!(
                    "unknown play style \"{n}\"; expected one of: {}",
                    known.join(", ")
                )
            })?;
            vec![s]
        }
    };
    let out = if a.json {
        super::json(&chosen)? + "\n"
    } else if a.name.is_some() {
        text(chosen[0], true)
    } else {
        let mut out = index(&chosen);
        if a.all {
            for s in &chosen {
                out += "\n";
                out += &text(s, false);
            }
        } else {
            out += "\ntirage styles NAME: a style in full, with an example; --all: every style in full; --json: for tools\n";
        }
        out
    };
    // A reader that stops early (`tirage styles | head`) is not an error.
    match std::io::stdout().lock().write_all(out.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(Outcome::Success),
    }
}

/// One line per style: its name, its industry term and the first sentence of how it wins.
fn index(styles: &[&StyleInfo]) -> String {
    let mut out = format!("{} play styles:\n", styles.len());
    for s in styles {
        let first = s
            .about
            .split_inclusive(". ")
            .next()
            .unwrap_or(s.about)
            .trim_end();
        out += &format!("  {:<18} {} — {first}\n", s.name, s.term);
    }
    out
}

/// One style in words: its name and term, how it wins, its naive reading, its columns and
/// parameters, and with `example` a complete surface using it.
fn text(s: &StyleInfo, example: bool) -> String {
    let mut out = format!("{} — {}\n", s.name, s.term);
    out += &format!("  {}\n", s.about);
    out += &format!("  naive reading: {}\n", s.naive);
    out += &format!("  columns: {}\n", s.columns);
    out += "  parameters (besides style, id and max):\n";
    for p in s.params {
        let default = p
            .default
            .map_or("required".to_string(), |d| format!("default {d}"));
        out += &format!("    {:<16} {} ({default}): {}\n", p.name, p.kind, p.about);
    }
    if example {
        out += "  example:\n";
        for line in s.example.lines() {
            out += &format!("    {line}\n");
        }
    }
    out
}
