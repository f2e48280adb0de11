//! `tirage package DIR --for ROLE --signer KEY.pub --out BUNDLE`: the files one recipient
//! gets, and nothing else (`tirage::package`).

use super::Outcome;
use anyhow::Result;
use std::path::PathBuf;
use tirage::package::{package, Role};

/// Who a bundle is for.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum For {
    /// tickets.bin (or tickets.bin.age): the print file.
    Printer,
    /// validation.csv (or validation.csv.age): the central system's file.
    Central,
    /// Every ticket file: the auditor verifies the whole block.
    Auditor,
}

/// Arguments of `tirage package`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "A bundle holds the role's ticket file(s) as delivered, spec.toml, \
manifest.json, SHA256SUMS, SHA256SUMS.minisig and operator.pub: nothing else (no audit \
report, proof, seed or other party's file). Its operator.pub is for reading: whoever wrote \
the bundle wrote it too, so check the signature with the operator's key as you hold it \
(a --signer key lying inside the directory it authenticates is refused, exit 2). Inside it:\n  \
sha256sum -c --ignore-missing SHA256SUMS\n  minisign -Vm SHA256SUMS -p KEY.pub   # the operator's key as you hold it\n\n\
Exit status: 0 the bundle written, 2 usage or I/O error (an emission given instead of one \
of its blocks, among them), or a signature that does not hold (no bundle written; what was at \
--out stays as it was), 130 interrupted (Ctrl-C, SIGTERM, SIGHUP: what was copied so far is \
removed; a bundle complete when the signal comes is put in place, exit 0).\n\n\
Examples:\n  tirage package output/coq/block-001 --for printer --signer output/keys/operator.pub --out /tmp/coq-001-printer\n  \
tirage package output/coq/block-001 --for auditor --signer output/keys/operator.pub --out /tmp/coq-001-auditor"
)]
pub(super) struct Args {
    /// The block (or deck) directory, signed (SHA256SUMS.minisig). An emission is
    /// refused: name one of its blocks (EMISSION/block-001); each block is packaged on its
    /// own.
    dir: PathBuf,
    /// The recipient.
    #[arg(long = "for", value_enum, value_name = "ROLE")]
    role: For,
    /// The operator's public key (minisign's KEY.pub): the signature is checked with it
    /// before anything is written, and it goes into the bundle as operator.pub.
    #[arg(long, value_name = "KEY.pub")]
    signer: PathBuf,
    /// The bundle's directory, made whole (written beside it, then moved into place).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Replace an existing bundle at --out (never a directory holding other files).
    #[arg(long)]
    force: bool,
    /// Package a test block (made with a test seed, never for sale) for a test: without
    /// it, a test block is refused. Its bundle's manifest says it is a test block, and
    /// `claim` pays none of its tickets.
    #[arg(long)]
    test_block: bool,
    /// Print nothing (by default, the path of every file written on stdout, then on stderr
    /// whose bundle it is and what its recipient runs on it next).
    #[arg(short, long)]
    quiet: bool,
}

pub(super) fn run(a: Args) -> Result<Outcome> {
    let role = match a.role {
        For::Printer => Role::Printer,
        For::Central => Role::Central,
        For::Auditor => Role::Auditor,
    };
    // No run replaces the block while it is read.
    let _locks = super::lock_shared(&a.dir)?;
    super::not_an_emission(&a.dir, None)?;
    // A key read from the block it is to authenticate vouches for nothing.
    super::signer_outside(&a.signer, &a.dir, false, false)?;
    // A signal from now on stops the copy; what was staged is removed (exit 130).
    let stop = super::stop_on_signal()?;
    let made = match package(
        &a.dir,
        role,
        &a.signer,
        &a.out,
        (a.force, a.test_block),
        &|| stop.is_cancelled(),
    ) {
        Err(tirage::package::PackageError::Interrupted) => {
            return Err(tirage::generate::GenerateError::Interrupted.into())
        }
        r => r?,
    };
    if stop.is_cancelled() {
        errln!("tirage: the stop came once the bundle was complete: it is in place");
    }
    super::say_stale_reports(&made.stale_reports, "bundle", a.quiet);
    let names = made.names;
    if role == Role::Auditor {
        if let Some(w) = auditor_warning(&a.out) {
            errln!("tirage: warning: {w}");
        }
    }
    if !a.quiet {
        for n in &names {
            outln!("{}", a.out.join(n).display());
        }
        if let Some(m) = bundle_manifest(&a.out) {
            errln!("{}", summary(&m, role, &a.out));
        }
    }
    Ok(Outcome::Success)
}

/// The manifest of the bundle just written in `bundle`; `None` when it cannot be read
/// (package has checked it).
fn bundle_manifest(bundle: &std::path::Path) -> Option<tirage::output::manifest::Manifest> {
    let bytes = tirage::output::read_regular(
        &bundle.join(tirage::block::layout::MANIFEST),
        tirage::output::MAX_JSON,
    )
    .ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// Two lines after a bundle is written, as generate, deck and verify say what they made:
/// whose bundle `bundle` is, of which block (a test block said so), and what its recipient
/// runs on it next (`tirage verify`, with the operator's key as they hold it and, when
/// the bundle holds encrypted files, their age identity).
fn summary(m: &tirage::output::manifest::Manifest, role: Role, bundle: &std::path::Path) -> String {
    let sealed = m.files.iter().any(|f| f.encrypted_for.is_some());
    format!(
        "{}{} bundle of block {} of {} → {}\nthe recipient checks it with: tirage verify {} --signer KEY.pub{}   (KEY.pub: the operator's public key as they hold it, not the bundle's operator.pub{})",
        if m.is_test_block() {
            "TEST BLOCK (made with a test seed: never for sale, claim pays none of its tickets): "
        } else {
            ""
        },
        role.whose(),
        m.block,
        m.game.id,
        bundle.display(),
        bundle.display(),
        if sealed { " --identity FILE" } else { "" },
        if sealed { "; FILE: their age identity" } else { "" },
    )
}

/// The warning for the auditor's bundle in `bundle` when its manifest records an auditor's
/// recipient (one of `tickets.csv`'s) that is no recipient of every file
/// ([`tirage::output::seal::Recipients::auditor_warning`]); `None` when the manifest cannot
/// be read (package has checked it) or every file opens for the auditor.
fn auditor_warning(bundle: &std::path::Path) -> Option<String> {
    let bytes = tirage::output::read_regular(
        &bundle.join(tirage::block::layout::MANIFEST),
        tirage::output::MAX_JSON,
    )
    .ok()?;
    let m: tirage::output::manifest::Manifest = serde_json::from_slice(&bytes).ok()?;
    let files: Vec<(&str, &[String])> = m
        .files
        .iter()
        .filter_map(|f| Some((f.name.as_str(), f.encrypted_for.as_deref()?)))
        .collect();
    tirage::output::seal::Recipients::from_manifest(&files)
        .ok()?
        .auditor_warning()
}
