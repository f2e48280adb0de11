//! `tirage claim DIR --serial S --code -`: the central system's answer to one claim, from
//! the validation file (`tirage::claim`).

use super::Outcome;
use anyhow::{bail, Context, Result};
use std::path::PathBuf;
use tirage::claim::{claim, Answer, Trust};
use tirage::crypto::sign::Verifier;

/// Arguments of `tirage claim`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Exit status: 0 the ticket pays (the prize is printed; only under the operator's \
signature, --signer), 1 not a winning ticket, 3 refused (no such ticket in this block, a wrong \
code, or a winner never payable: of a QA deck, of a test block, or answered --unauthenticated), 2 error (a file missing, \
altered or malformed, named with its line; the signature not the --signer key's; a production block with neither --signer nor --unauthenticated; a serial or code mistyped; a serial of another block than the file's).\n\n\
Examples (after the README's quick start; the code is the one under the ticket's scratch \
layer, so a made-up code is refused, exit 3):\n  \
echo 1234567890123456789 | tirage claim output/coq/block-001 --signer output/keys/operator.pub --serial 17030010010000010012 --code -\n  \
tirage package output/coq/block-001 --for central --signer output/keys/operator.pub --out /tmp/coq-001-central -q --force\n  \
echo '1234 5678 9012 3456 789' | tirage claim /tmp/coq-001-central --signer output/keys/operator.pub --serial '1703 001 001 000001 001 2' --code -\n\
--code - reads the code from standard input (echo is the shell's own: no other process shows it); \
--code C puts it on the command line, where every user of the machine can read it while claim runs. \
A bundle delivered encrypted also takes --identity (the central system's age identity). \
README (tirage claim) reads a deck ticket's serial and code from its print file, as QA reads \
them off a scratched ticket."
)]
pub(super) struct Args {
    /// The block directory, or the central system's bundle (tirage package --for central):
    /// validation.csv (or validation.csv.age), manifest.json and SHA256SUMS.
    dir: PathBuf,
    /// The ticket's serial: 20 digits as printed, or the barcode's payload (spaces, dashes
    /// or dots between groups are fine).
    #[arg(long)]
    serial: String,
    /// The validation code revealed under the scratch layer: 19 digits; `-` reads it from
    /// standard input (one line). A code given here in digits is visible to every user of
    /// this machine while claim runs (`ps`, /proc/PID/cmdline): give `-` or --code-file.
    #[arg(
        long,
        required_unless_present = "code_file",
        conflicts_with = "code_file"
    )]
    code: Option<String>,
    /// A file holding the validation code (one line), warned of when others can read it.
    #[arg(long, value_name = "FILE")]
    code_file: Option<PathBuf>,
    /// An age identity file that opens validation.csv.age (the central system's); repeat
    /// for several.
    #[arg(long, value_name = "FILE")]
    identity: Vec<PathBuf>,
    /// The operator's minisign public key (`tirage keygen`), as the central system holds
    /// it: SHA256SUMS.minisig must be its signature of SHA256SUMS. A production block needs
    /// it, or --unauthenticated; a specimen deck does not.
    #[arg(long, value_name = "KEY.pub")]
    signer: Option<PathBuf>,
    /// Look the claim up without the operator's signature: the answer starts `NOT PAYABLE —
    /// unauthenticated` (anyone could have written the files and their digests), and a
    /// winner exits 3, never 0.
    #[arg(long, conflicts_with = "signer")]
    unauthenticated: bool,
}

/// The validation code as typed: `--code C`, one line of standard input for `--code -`, or
/// one line of `--code-file` (warned of when others can read it). A line's end (LF or
/// CRLF) is not part of the code. Errors: standard input or the file empty, unreadable,
/// larger than 4 KiB or of more than one line (never quoted: it holds a secret).
fn code(a: &Args) -> Result<zeroize::Zeroizing<String>> {
    use std::io::Read;
    let (text, source) = match (&a.code, &a.code_file) {
        (Some(c), _) if c != "-" => return Ok(zeroize::Zeroizing::new(c.clone())),
        (Some(_), _) => {
            let mut text = zeroize::Zeroizing::new(String::new());
            std::io::stdin()
                .lock()
                .take(4097)
                .read_to_string(&mut text)
                .context("cannot read the validation code from standard input (--code -)")?;
            if text.len() > 4096 {
                bail!("standard input (--code -) is larger than 4 KiB: expected one line, the validation code");
            }
            (text, "standard input (--code -)".to_string())
        }
        (None, Some(f)) => {
            super::seed::warn_if_open(f, "validation code file");
            let text = zeroize::Zeroizing::new(super::seed::read_small(f, "validation code file")?);
            (text, format!("the validation code file {}", f.display()))
        }
        (None, None) => bail!(
            "give the validation code: --code - (read from standard input) or --code-file FILE"
        ),
    };
    let line = text.strip_suffix('\n').unwrap_or(&text);
    let line = line.strip_suffix('\r').unwrap_or(line);
    if line.is_empty() {
        bail!("{source} is empty: expected one line, the validation code");
    }
    if line.contains(['\n', '\r']) {
        bail!("{source} holds more than one line: expected one line, the validation code");
    }
    Ok(zeroize::Zeroizing::new(line.to_string()))
}

pub(super) fn run(a: Args) -> Result<Outcome> {
    let ids = super::seed::load_identities(&a.identity)?;
    let signer = a.signer.as_deref().map(Verifier::load).transpose()?;
    let trust = match (&signer, a.unauthenticated) {
        (Some(key), _) => Trust::Signer(key),
        (None, true) => Trust::Unauthenticated,
        (None, false) => Trust::Unsaid,
    };
    // No run replaces the block while it is read.
    let _locks = super::lock_shared(&a.dir)?;
    super::not_an_emission(&a.dir, Some(&a.serial))?;
    // A key read from the directory it authenticates vouches for nothing: whoever wrote the
    // files could have written it too.
    if let Some(key) = &a.signer {
        super::signer_outside(key, &a.dir, false, false)?;
    }
    let code = code(&a)?;
    let c = claim(&a.dir, &a.serial, &code, &ids, trust)?;
    outln!("{}", c.line());
    // A specimen deck's ticket, a test block's (whose codes anyone knowing the test seed
    // computes), and any answer given without the operator's signature (whoever can write
    // the directory could have written its prizes) is never payable: a winner is refused
    // (exit 3), so that a script paying on exit 0 never pays one; QA reads the prize from
    // the line.
    Ok(match c.answer {
        Answer::Pays { .. } if c.never_payable() => Outcome::Refused,
        Answer::Pays { .. } => Outcome::Success,
        Answer::NotAWinner => Outcome::Findings,
        Answer::NoSuchTicket(_) | Answer::WrongCode => Outcome::Refused,
    })
}
