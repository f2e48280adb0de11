//! The command line: clap arguments, one file per subcommand, progress bars, exit codes.
//! Exit codes: 0 success (or `verify` clean, or `claim` pays), 1 `verify` found
//! discrepancies (or `claim`'s ticket is no winner), 2 usage, spec or I/O error, 3 `claim`
//! refused. Every error is printed once, here.
//!
//! Printing never panics: the commands print with [`out!`], [`outln!`] and [`errln!`],
//! which keep the first failed write ([`emit`]); [`run`] then ends quietly with the
//! command's exit status when standard output or error was a closed pipe (a reader such
//! as `head` that stopped early), and with exit 2 on any other failed write.

/// Prints to standard output as `print!` does, never panicking ([`emit`]).
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::emit(false, format_args!($($arg)*)) };
}

/// Prints a line to standard output as `println!` does, never panicking ([`emit`]).
macro_rules! outln {
    ($($arg:tt)*) => { $crate::cli::emit(false, format_args!("{}\n", format_args!($($arg)*))) };
}

/// Prints a line to standard error as `eprintln!` does, never panicking ([`emit`]).
macro_rules! errln {
    ($($arg:tt)*) => { $crate::cli::emit(true, format_args!("{}\n", format_args!($($arg)*))) };
}

mod check;
mod claim;
mod deck;
mod generate;
mod keys;
mod package;
mod preview;
mod progress;
mod render;
mod seed;
mod styles;
mod verify;

use clap::{Parser, Subcommand};
use seed::SeedFile;
use std::process::ExitCode;
use tirage::generate::cancel::Cancel;
use tirage::generate::{GenerateError, LeftOver};
use tirage::store::lock::{LockError, Mode, OutputLock};

/// tirage — print runs of instant lottery tickets: exact lot tables, reproducible
/// allocation, rule-checked faces, audited files.
#[derive(Parser, Debug)]
// Plain styles: a usage error's text then holds no escape sequence of clap's own, and
// what the user typed in it is shown escaped, not stripped ([`run`]).
#[command(name = "tirage", version, about, long_about = None, styles = clap::builder::Styles::plain())]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Generate one block (or an emission): tickets.csv, tickets.bin, validation.csv, spec.toml, manifest.json, SHA256SUMS.
    Generate(generate::Args),
    /// Re-check a finished block independently; exit 0 clean, 1 findings, 2 error.
    Verify(verify::Args),
    /// Validate a game spec and print its tiers, ways, odds and payout, and its rules in
    /// words, surface by surface, beside its legal reference.
    Check(check::Args),
    /// Write a designer's preview of a spec: one static HTML page with the lot table, the
    /// prize structure, pack guarantees, rates, the rules in words and a specimen face per way.
    Preview(preview::Args),
    /// List the play styles a game's surfaces are made of, with their parameters.
    Styles(styles::Args),
    /// Make a small QA deck of specimen (never payable) tickets.
    Deck(deck::Args),
    /// Draw proofs of a block's or deck's tickets: SVG files, or a PDF proof sheet.
    Render(render::Args),
    /// Answer a claim as the central system: serial S with validation code C pays what?
    /// Exit 0 pays, 1 not a winner, 3 refused (no such ticket, wrong code), 2 error.
    Claim(claim::Args),
    /// The bundle one recipient gets (printer, central, auditor): its file, the public
    /// files, SHA256SUMS, its signature and the operator's key, and nothing else.
    Package(package::Args),
    /// Make the operator's signing key pair (minisign's formats): PREFIX.key, PREFIX.pub.
    Keygen(keys::KeygenArgs),
    /// Secrets for a seed ceremony or a validation key: `seed new`, `seed commit`.
    Seed(keys::SeedArgs),
}

/// How a command ended.
pub(crate) enum Outcome {
    /// Everything held.
    Success,
    /// `verify` found discrepancies, or `claim`'s ticket is not a winner (exit 1).
    Findings,
    /// `claim` refused the claim: no such ticket, or a wrong code (exit 3).
    Refused,
}

/// The first write to standard output or error that failed: which stream
/// (`"output"`, `"error"`) and why.
static WRITE_FAILED: std::sync::Mutex<Option<(&'static str, std::io::Error)>> =
    std::sync::Mutex::new(None);

/// Writes `args` to standard error (`to_stderr`) or output. A failed write is kept (the
/// first only: [`WRITE_FAILED`]), never a panic; once a stream has failed, nothing more is
/// written to it. What goes to standard error, or to standard output when it is a
/// terminal, has what does not show as written escaped ([`defused`]): a path or a name read
/// from a file, wherever a message quotes it, never drives the terminal. Standard output
/// into a pipe or a file (a list of paths, a JSON report) is written as it is.
pub(crate) fn emit(to_stderr: bool, args: std::fmt::Arguments) {
    use std::io::{IsTerminal, Write};
    let stream = if to_stderr { "error" } else { "output" };
    let mut failed = WRITE_FAILED.lock().unwrap_or_else(|e| e.into_inner());
    if failed.as_ref().is_some_and(|(s, _)| *s == stream) {
        return;
    }
    let written = if to_stderr {
        std::io::stderr()
            .lock()
            .write_all(defused(&args.to_string()).as_bytes())
    } else if std::io::stdout().is_terminal() {
        std::io::stdout()
            .lock()
            .write_all(defused(&args.to_string()).as_bytes())
    } else {
        std::io::stdout().lock().write_fmt(args)
    };
    if let Err(e) = written {
        failed.get_or_insert((stream, e));
    }
}

/// `code`, the command's exit status, once standard output is flushed: itself when every
/// write held or the one that failed met a closed pipe (the reader stopped early, which is
/// its choice); else 2, the failure said on standard error if it can be.
fn after_writes(code: ExitCode) -> ExitCode {
    use std::io::Write;
    if let Err(e) = std::io::stdout().lock().flush() {
        WRITE_FAILED
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert(("output", e));
    }
    let failed = WRITE_FAILED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take();
    match failed {
        None => code,
        Some((_, e)) if e.kind() == std::io::ErrorKind::BrokenPipe => code,
        Some((stream, e)) => {
            errln!("tirage: error: cannot write to standard {stream}: {e}");
            ExitCode::from(2)
        }
    }
}

/// Parses the arguments, runs the command, prints any error once; returns the exit code.
pub(crate) fn run() -> ExitCode {
    // Before the arguments are parsed: a command that writes an output is stopped cleanly
    // (exit 130, nothing left) by a signal from its first moments, not killed by it.
    // Only a signal before the program's own code runs still kills it (nothing written).
    let writes = std::env::args_os()
        .nth(1)
        .is_some_and(|c| INTERRUPTIBLE.iter().any(|&w| c == w));
    if writes {
        if let Err(e) = stop_on_signal() {
            errln!("tirage: error: {e:#}");
            return ExitCode::from(2);
        }
    }
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            return match e.kind() {
                // Help and version go to standard output; a failed write is exit 2.
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                    emit(false, format_args!("{}", e.render().ansi()));
                    after_writes(ExitCode::SUCCESS)
                }
                // A usage error quotes what was typed: in plain text, its control
                // characters escaped as every message's are ([`emit`]).
                _ => {
                    emit(true, format_args!("{}", e.render().ansi()));
                    after_writes(ExitCode::from(2))
                }
            };
        }
    };
    no_core_dumps();
    tirage::store::memory::one_arena_per_core();
    let code = run_command(cli);
    after_writes(code)
}

/// Runs the command `cli` names, prints any error once; returns the exit code.
fn run_command(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Command::Generate(a) => generate::run(a),
        Command::Verify(a) => verify::run(a),
        Command::Check(a) => check::run(a),
        Command::Preview(a) => preview::run(a),
        Command::Styles(a) => styles::run(a),
        Command::Deck(a) => deck::run(a),
        Command::Render(a) => render::run(a),
        Command::Claim(a) => claim::run(a),
        Command::Package(a) => package::run(a),
        Command::Keygen(a) => keys::run_keygen(a),
        Command::Seed(a) => keys::run_seed(a),
    };
    match result {
        Ok(Outcome::Success) => ExitCode::SUCCESS,
        Ok(Outcome::Findings) => ExitCode::from(1),
        Ok(Outcome::Refused) => ExitCode::from(3),
        Err(e) => {
            // What the error quotes is escaped as it is written ([`emit`]).
            errln!("tirage: error: {}", as_caller_says(format!("{e:#}")));
            let interrupted = e
                .chain()
                .any(|c| c.downcast_ref().is_some_and(GenerateError::is_interrupted));
            // 128 + SIGINT, as a shell reports a command stopped by Ctrl-C.
            ExitCode::from(if interrupted { 130 } else { 2 })
        }
    }
}

/// The commands that write an output and, stopped by a signal, remove what they wrote so
/// far and exit 130 ([`stop_on_signal`]).
const INTERRUPTIBLE: [&str; 4] = ["generate", "deck", "render", "package"];

/// The environment variable a caller such as the Makefile sets to the option it takes for
/// `--force` (`TIRAGE_FORCE_OPTION=FORCE=1`): an error telling to pass `--force` names it.
pub(crate) const FORCE_OPTION_VAR: &str = "TIRAGE_FORCE_OPTION";

/// `message`, its advice to pass `--force` naming the caller's option for it when
/// [`FORCE_OPTION_VAR`] holds one (a short `NAME=value` of letters, digits and `_`).
fn as_caller_says(message: String) -> String {
    let option = std::env::var(FORCE_OPTION_VAR).ok().filter(|o| {
        (3..=32).contains(&o.len())
            && o.contains('=')
            && o.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '=')
    });
    match option {
        Some(o) => message.replace("pass --force", &format!("pass {o} (tirage's --force)")),
        None => message,
    }
}

/// Seeds and keys pass through this process's memory: a crash must not write them to a
/// core file. Sets the core file size limit to 0 and, on Linux, marks the process not
/// dumpable (which also keeps other users' debuggers out). Best effort: a system that
/// refuses leaves the process as it was.
fn no_core_dumps() {
    use rustix::process::{setrlimit, Resource, Rlimit};
    let _ = setrlimit(
        Resource::Core,
        Rlimit {
            current: Some(0),
            maximum: Some(0),
        },
    );
    #[cfg(target_os = "linux")]
    let _ = rustix::process::set_dumpable_behavior(rustix::process::DumpableBehavior::NotDumpable);
}

/// Warns (stderr, even with `-q`) when the name of `out` gives another block number than
/// `block` ([`tirage::block::layout::folder_number`], `game` the game's id for a production
/// block, `None` for a deck): `verify` will report the folder as named for another block.
/// `holds` says what it holds (`block 2`, `a specimen deck (block 0)`).
pub(super) fn say_misnamed(out: &std::path::Path, game: Option<&str>, block: u32, holds: &str) {
    let Some(name) = out.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return;
    };
    if let Some(n) = tirage::block::layout::folder_number(&name, game).filter(|&n| n != block) {
        errln!(
            "tirage: warning: {}'s name says block {n}, but it holds {holds}: verify reports a folder named for another block (a block is filed, printed and claimed under its own number); rename it",
            one_line(out)
        );
    }
}

/// Warns (stderr, even with `-q`) that `--force` replaced what `out` held, `held` (`block 1
/// of coq`, `a deck of coq`), with `now`: said when it was another game's or another block.
pub(super) fn say_replaced(out: &std::path::Path, held: &str, now: &str) {
    errln!(
        "tirage: warning: {} held {held}; --force replaced it with {now}",
        one_line(out)
    );
}

/// Path `p` as a warning's one line shows it: every character that does not show as
/// written escaped, the line feed too ([`tirage::text::escaped`]).
fn one_line(p: &std::path::Path) -> String {
    tirage::text::escaped(&p.display().to_string(), usize::MAX)
}

/// `text` with every character that does not show as written ([`tirage::text::hidden`])
/// but the line feed shown as an escape (`\u{1b}`, `\r`, `\u{200b}`): a file name or a
/// file's bytes quoted in a message never drive the terminal, hide what precedes them nor
/// hide themselves.
pub(crate) fn visible(text: &str) -> String {
    tirage::text::shown(text, &['\n']).into_owned()
}

/// `value` as pretty-printed JSON whose every character shows as written on a terminal:
/// serde_json leaves DEL, the C1 controls (U+007F to U+009F), direction marks and the
/// other characters [`tirage::text::hidden`] names raw in a string, where [`emit`] would
/// escape them in a form JSON does not read; here they are written as JSON's own escapes
/// (`\u009b`, a surrogate pair past U+FFFF), the same string to every JSON reader.
/// Errors: serde_json's.
pub(crate) fn json(value: &impl serde::Serialize) -> serde_json::Result<String> {
    // serde_json escapes the C0 controls itself; the rest of what does not show as written
    // it leaves raw.
    let stray = |c: char| c >= '\u{7f}' && tirage::text::hidden(c);
    let text = serde_json::to_string_pretty(value)?;
    if !text.contains(stray) {
        return Ok(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if stray(c) {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{u:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    Ok(out)
}

/// `text` with every character that does not show as written ([`tirage::text::hidden`]:
/// a control, a text-direction or zero-width mark, a line separator) but the line feed
/// and the tab shown as an escape (`\u{1b}`, `\r`, `\u{202e}`): the last guard of what
/// tirage prints for a person to read ([`emit`]), so that no escape sequence in a path, a
/// name or a file's bytes reaches the terminal, nor reorders or hides what a message
/// says, whichever message quotes it.
fn defused(text: &str) -> std::borrow::Cow<'_, str> {
    tirage::text::shown(text, &['\n', '\t'])
}

/// From now on, Ctrl-C, SIGTERM or SIGHUP asks generation to stop cleanly: it fails with
/// [`GenerateError::Interrupted`] once the current batch of packs is done, and everything
/// staged (the output, a fresh seed) is removed. An output already complete when the
/// signal comes is put in place all the same (its renames are never cut short): see
/// [`once_placed`]. Every signal is handled so; none stops the process at once,
/// which could leave a destination half replaced. For the commands that write an output.
/// Returns the token the signals set, to pass to the work (the same token on every call).
/// Errors: the thread that waits for the signals cannot start (a signal would then be
/// caught and never heard: the work could not be stopped).
fn stop_on_signal() -> anyhow::Result<Cancel> {
    static STOP: std::sync::OnceLock<Cancel> = std::sync::OnceLock::new();
    if let Some(stop) = STOP.get() {
        return Ok(stop.clone());
    }
    let stop = Cancel::default();
    let set = stop.clone();
    let told = std::sync::atomic::AtomicBool::new(false);
    match ctrlc::set_handler(move || {
        set.cancel();
        if !told.swap(true, std::sync::atomic::Ordering::SeqCst) {
            errln!("tirage: stopping: an output not yet complete is removed, one already complete put in place");
        }
    }) {
        // A handler set already stays.
        Ok(()) | Err(ctrlc::Error::MultipleHandlers) => {}
        Err(ctrlc::Error::System(e)) => {
            return Err(tirage::store::thread::refused("the signal handler", e).into())
        }
        Err(e) => anyhow::bail!("cannot handle signals: {e}"),
    }
    Ok(STOP.get_or_init(|| stop).clone())
}

/// Once an output is in place: its seed file saved or removed ([`SeedFile::finish`]); said
/// that a stop came too late to drop the output (complete and in place), and that an older
/// output replaced could not be removed. Returns what to say of the seed file, which the
/// caller says last, even with `-q` (a secret written or removed is never silent).
fn once_placed(
    seed_file: SeedFile,
    seed: &str,
    output: &str,
    left_over: &[LeftOver],
    stop: &Cancel,
) -> anyhow::Result<Option<String>> {
    let said = seed_file.finish(seed, output)?;
    if stop.is_cancelled() {
        errln!("tirage: the stop came once the output was complete: it is in place");
    }
    for l in left_over {
        errln!("tirage: warning: {l}");
    }
    Ok(said)
}

/// Says what became of the audit reports and proofs beside the block, deck or emission a
/// run replaced ([`tirage::generate::Generated::stale_reports`],
/// [`tirage::generate::emission::GeneratedEmission::stale_reports`]): each one removed
/// (unless `quiet`), or left, with a warning saying why.
fn say_stale_reports(
    reports: &[Result<tirage::derived::Removed, tirage::derived::StaleReport>],
    what: &str,
    quiet: bool,
) {
    for report in reports {
        match report {
            Ok(r) if !quiet => errln!(
                "tirage: removed {}: {} of the {what} replaced",
                r.path.display(),
                r.kind
            ),
            Err(e) => errln!("tirage: warning: {e}"),
            Ok(_) => {}
        }
    }
}

/// How old a temporary file must be before a later run takes it for one a stopped run left
/// ([`tirage::store::owner::remove_left_files`]): a younger one may be another run's, still
/// being written.
const LEFTOVER_AGE: std::time::Duration = std::time::Duration::from_secs(60);

/// Refuses an output not named by its own last component (`.`, `..`, `EM/block-001/..`):
/// its lock file, its seed file and what it replaces are found beside that name, which
/// would then lie inside the output; and one whose name is not UTF-8, which the journal of
/// a replacement could not name ([`tirage::generate::place`]). Call it before anything else
/// is checked at `out`.
fn named_out(out: &std::path::Path) -> anyhow::Result<()> {
    if !matches!(
        out.components().next_back(),
        Some(std::path::Component::Normal(_))
    ) {
        anyhow::bail!(
            "{}: an --out is named by its own name, not by `.` or `..` (its lock file and \
             what it replaces are found beside that name); nothing was written; give the \
             path that ends with the output's name",
            out.display()
        );
    }
    if out.file_name().and_then(|n| n.to_str()).is_none() {
        anyhow::bail!(
            "{}: an --out's own name must be UTF-8 text (the record of a replacement names it \
             as text, and it would land under another name); nothing was written; give a \
             name of letters, digits and punctuation",
            out.display()
        );
    }
    Ok(())
}

/// Locks output `out` for this run alone ([`tirage::store::lock`]), finishes or rolls back a
/// replacement a dead run left unfinished ([`tirage::generate::place::recover`]) and removes what
/// else dead runs left beside it, saying so; refuses, before anything is moved or removed,
/// when a journal or leftover there is another user's ([`tirage::store::owner`]), and warns
/// when the folder is writable by others without the sticky bit. Held by another run: without `force` an error (two runs to
/// one output never both succeed); with `force` it waits its turn, saying so.
/// An output not named by its own last component (`.`, `..`, `EM/block-001/..`) or inside
/// a block or deck directory is refused first, before its lock file is made beside it
/// ([`outside_blocks`]).
fn lock_output(out: &std::path::Path, force: bool) -> anyhow::Result<OutputLock> {
    named_out(out)?;
    outside_blocks(out, "an --out")?;
    let lock = match OutputLock::acquire(out, Mode::Exclusive, false) {
        Err(LockError::Busy { .. }) if force => {
            errln!(
                "tirage: waiting for another tirage run writing or verifying {} to finish",
                out.display()
            );
            OutputLock::acquire(out, Mode::Exclusive, true)?
        }
        r => r?,
    };
    if let Some(w) =
        tirage::store::owner::open_folder_warning(&tirage::store::durable::parent_of(out))
    {
        errln!("tirage: warning: {w}");
    }
    // Nothing another user put beside the output is acted on, nor anything else then.
    lock.check_leftovers()?;
    let recovered = tirage::generate::place::recover(out)?;
    // The reports and proofs a dead run set aside go back with the output they describe.
    let finished = recovered
        .as_ref()
        .is_some_and(|r| r.outcome == tirage::generate::place::Outcome::Finished);
    if let Some(r) = recovered {
        errln!("tirage: {r}");
    }
    for a in tirage::derived::recover_set_aside(out, !finished) {
        match a {
            Ok(a) => errln!("tirage: {a}"),
            Err(e) => errln!("tirage: warning: {e}"),
        }
    }
    for (path, error) in lock.remove_leftovers()? {
        match error {
            None => errln!(
                "tirage: removed {}, left by an earlier run that did not finish",
                path.display()
            ),
            Some(e) => errln!(
                "tirage: warning: {}, left by an earlier run that did not finish, could not be removed: {e}",
                path.display()
            ),
        }
    }
    Ok(lock)
}

/// Refuses output `out` (made or not yet) when it lies inside a block or deck directory
/// ([`tirage::output::manifest::enclosing_block`]): a block is delivered as it is, so
/// anything written into it (a seed file, a deck, a page, a bundle) would ship with it or
/// break its checksums. `option` names what to
/// choose instead (`an --out`, `a --report directory`).
fn outside_blocks(out: &std::path::Path, option: &str) -> anyhow::Result<()> {
    match tirage::output::manifest::enclosing_block(out) {
        Some(block) => anyhow::bail!(
            "{}: inside the block directory {}, which is delivered as it is: nothing was written; choose {option} outside it",
            out.display(),
            block.display()
        ),
        None => Ok(()),
    }
}

/// Refuses to create `path` when it is a symbolic link to nothing: creating it would either
/// follow the link to wherever it points or fail with only "File exists".
fn refuse_dangling_link(path: &std::path::Path) -> anyhow::Result<()> {
    let Ok(target) = std::fs::read_link(path) else {
        return Ok(());
    };
    if std::fs::metadata(path).is_ok() {
        return Ok(());
    }
    anyhow::bail!(
        "{} is a symbolic link to nothing ({}), which will not be followed: nothing was written; remove it, or give another path",
        path.display(),
        target.display()
    )
}

/// Refuses output `out` (made or not yet) of `render`, `preview`, `verify --report`,
/// `keygen` or `seed new` when it is, or lies inside, a block, deck or bundle ([`outside_blocks`]) or an
/// emission ([`tirage::verify::emission::is_emission`]): each is delivered as it is, and
/// a proof shows a prize; a file put there fails that delivery's own verify. `out` is
/// judged by its nearest ancestor that exists; `option` names what to choose instead
/// (`an --out`, `a --report directory`).
fn outside_deliveries(out: &std::path::Path, option: &str) -> anyhow::Result<()> {
    outside_blocks(out, option)?;
    if tirage::output::manifest::holds_block(out) {
        anyhow::bail!(
            "{}: a block, deck or bundle directory, which is delivered as it is: nothing was written; choose {option} outside it",
            out.display()
        );
    }
    let real = out.ancestors().find_map(|d| {
        let d = if d.as_os_str().is_empty() {
            std::path::Path::new(".")
        } else {
            d
        };
        std::fs::canonicalize(d).ok()
    });
    if let Some(e) = real.as_deref().and_then(|r| {
        r.ancestors()
            .find(|d| tirage::verify::emission::is_emission(d))
    }) {
        anyhow::bail!(
            "{}: inside the emission {}, which is delivered as it is: nothing was written; choose {option} outside it",
            out.display(),
            e.display()
        );
    }
    Ok(())
}

/// For `verify`, `render`, `claim` and `package`: shared locks on block or emission `dir`
/// and, for a block of an emission, on the emission ([`tirage::store::lock`]), waited for (a
/// run writing it finishes first, saying so). A lock file missing (an output not made by
/// this tirage) is no lock; one that cannot be locked is said; the command goes on without
/// them (verify's seal check stays). Errors: a replacement of `dir` or of its emission was
/// interrupted ([`tirage::generate::place::interrupted`]): what is there may be half of it.
fn lock_shared(dir: &std::path::Path) -> anyhow::Result<Vec<OutputLock>> {
    let mut dirs = vec![dir.to_path_buf()];
    if let Some(parent) = dir
        .parent()
        .filter(|p| tirage::verify::emission::is_emission(p))
    {
        dirs.insert(0, parent.to_path_buf());
    }
    let mut locks = Vec::new();
    for d in &dirs {
        let lock = match OutputLock::acquire(d, Mode::Shared, false) {
            Err(LockError::Busy { .. }) => {
                errln!(
                    "tirage: waiting for another tirage run writing {} to finish",
                    d.display()
                );
                OutputLock::acquire(d, Mode::Shared, true)
            }
            r => r,
        };
        match lock {
            Ok(l) => locks.push(l),
            // No lock file: not made by this tirage; the seal check still holds.
            Err(LockError::Io { error, .. }) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(e @ LockError::NotOurs { .. }) => return Err(e.into()),
            Err(e) => errln!("tirage: note: {e}; going on without it"),
        }
    }
    // Read under the locks: a run still replacing it has finished by now.
    for d in &dirs {
        if let Some(i) = tirage::generate::place::interrupted(d) {
            anyhow::bail!("{i}");
        }
    }
    Ok(locks)
}

/// Refuses `dir` when it is an emission ([`tirage::verify::emission::is_emission`]): `claim`,
/// `package` and `render` read one block, named by its directory inside the emission. `serial`: the
/// serial `claim` was given, as typed; when it reads as 20 digits, its digits 8 to 10 are
/// its block (docs/FORMAT.md, "Serial"), and the error names that block's directory (or
/// says the emission holds none of that number). Without one, it names the first block.
fn not_an_emission(dir: &std::path::Path, serial: Option<&str>) -> anyhow::Result<()> {
    if !tirage::verify::emission::is_emission(dir) {
        return Ok(());
    }
    let mut blocks: Vec<String> = std::fs::read_dir(dir)
        .map(|r| {
            r.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with("block-") && !n.contains('.'))
                .collect()
        })
        .unwrap_or_default();
    blocks.sort();
    let digits: Option<String> = serial
        .map(|s| {
            s.chars()
                .filter(|c| !c.is_whitespace() && !matches!(c, '-' | '.'))
                .collect::<String>()
        })
        .filter(|d| d.len() == tirage::block::serial::LEN && d.bytes().all(|b| b.is_ascii_digit()));
    if let Some(d) = digits {
        let block: u32 = d[7..10].parse().expect("3 digits");
        let name = tirage::block::layout::block_dir(block);
        if dir.join(&name).is_dir() {
            anyhow::bail!(
                "{}: an emission, not a block: serial {d} is of block {block}: claim it from {}",
                dir.display(),
                dir.join(&name).display()
            );
        }
        anyhow::bail!(
            "{}: an emission, not a block: serial {d} is of block {block}, and the emission holds no {name} (it holds {}): the serial is of another emission, or mistyped",
            dir.display(),
            if blocks.is_empty() {
                "no block".to_string()
            } else {
                blocks.join(", ")
            }
        );
    }
    let first = blocks.first().map_or("block-001", String::as_str);
    anyhow::bail!(
        "{}: an emission, not a block: name one of its blocks ({})",
        dir.display(),
        dir.join(first).display()
    )
}

/// Refuses a `--signer` key file `key` that lies in `dir`, the directory whose signature it
/// is to check: by its real path (symlinks and `..` resolved), or as a hard link to a file
/// of `dir` (the same device and inode, looked for when the key has several links).
/// Whoever wrote the directory could have written that key, so its signature proves
/// nothing. `pinned` is true when the reference spec given (`--spec`) pins that very key:
/// the spec is then the anchor, and the key is accepted wherever it lies. `spec_said`: the
/// command takes `--spec`, and the error says it may be given. Errors: the key lies in
/// `dir`, said with what to give instead.
fn signer_outside(
    key: &std::path::Path,
    dir: &std::path::Path,
    pinned: bool,
    spec_said: bool,
) -> anyhow::Result<()> {
    if pinned || !lies_in(key, dir) {
        return Ok(());
    }
    anyhow::bail!(
        "--signer {}: that key lies in {}, the directory it is to authenticate: whoever wrote that directory could have written the key too, so a signature by it proves nothing; give the operator's public key as you hold it (the copy the operator gave you){}",
        key.display(),
        dir.display(),
        if spec_said {
            ", or the reference spec that pins it (--spec, [signing] public_key)"
        } else {
            ""
        }
    )
}

/// Refuses a reference spec `spec` (`verify --spec`) that lies in `dir`, the block, bundle
/// or emission it is to be held against ([`lies_in`]): whoever wrote that directory wrote
/// that spec too, so it is no reference, and an operator's key it pins
/// (`[signing] public_key`) would vouch for whatever that writer signed. Errors: the spec
/// lies in `dir`, said with what to give instead.
fn spec_outside(spec: &std::path::Path, dir: &std::path::Path) -> anyhow::Result<()> {
    if !lies_in(spec, dir) {
        return Ok(());
    }
    anyhow::bail!(
        "--spec {}: that spec lies in {}, the directory it is to be held against: whoever wrote that directory could have written the spec too, so it is no reference, and a key it pins proves nothing; give the game's spec as you hold it (the copy the game team approved, e.g. game_specs/GAME.toml)",
        spec.display(),
        dir.display()
    )
}

/// True when file `key` is inside directory `dir` by their real paths, or is a hard link
/// to a file inside `dir` (up to [`LINK_DEPTH`] levels down: a bundle, a block, an
/// emission's blocks).
fn lies_in(key: &std::path::Path, dir: &std::path::Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let (Ok(k), Ok(d)) = (std::fs::canonicalize(key), std::fs::canonicalize(dir)) else {
        return false;
    };
    if k.starts_with(&d) {
        return true;
    }
    let Ok(meta) = std::fs::metadata(&k) else {
        return false;
    };
    meta.nlink() > 1 && holds_inode(&d, (meta.dev(), meta.ino()), LINK_DEPTH)
}

/// How many directory levels below a directory [`lies_in`] looks for a hard link.
const LINK_DEPTH: u32 = 2;

/// True when directory `dir`, or one of its directories up to `depth` levels down, holds a
/// regular file of device and inode `id` (symlinks are not followed).
fn holds_inode(dir: &std::path::Path, id: (u64, u64), depth: u32) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries.flatten().any(|e| {
        let Ok(m) = std::fs::symlink_metadata(e.path()) else {
            return false;
        };
        if m.is_file() {
            (m.dev(), m.ino()) == id
        } else {
            m.is_dir() && depth > 0 && holds_inode(&e.path(), id, depth - 1)
        }
    })
}

/// Runs `f` on a rayon pool of `threads` threads (0: one per core). Errors: a thread of
/// the pool cannot start (the limit on threads reached), said once.
fn with_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> anyhow::Result<T> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        // Its own words: the pool's error repeats the operating system's as its source.
        .map_err(|e| tirage::store::thread::refused("the pool of workers", e))?;
    Ok(pool.install(f))
}
