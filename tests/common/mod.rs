//! Helpers shared by the integration tests: run the real binary on small specs.

#![allow(dead_code)]

use assert_cmd::Command;
use std::path::{Path, PathBuf};

/// A fixed test seed (never a production seed).
pub(crate) const SEED: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

/// A seed that is no published test seed, for the blocks whose tests need a block that is
/// not a test block (a claim that pays, a bundle): given with `--seed-file`
/// ([`production_seed_file`]), without `--insecure-seed`.
pub(crate) const PRODUCTION_SEED: &str =
    "5be1c07a9e3d46f28b0c71d5a4e96f13c82d07b5e6a4193f0d7c25b8e1a6f94c";

/// Writes [`PRODUCTION_SEED`] to `dir/production.seed` (mode 0600) and returns its path.
pub(crate) fn production_seed_file(dir: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let f = dir.join("production.seed");
    std::fs::write(&f, format!("{PRODUCTION_SEED}\n")).unwrap();
    std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o600)).unwrap();
    f
}

/// Makes the operator's key pair (`tirage keygen`: `dir/op.key`, `dir/op.pub`) and block 1
/// of `tests/specs/coq_small.toml` in `dir/name`, signed with it: with `production`, from
/// [`PRODUCTION_SEED`] with the test validation key ([`VALIDATION_KEY`]), not a test block;
/// otherwise from the test seed [`SEED`], a test block. Returns the block's path.
pub(crate) fn signed_small_block(dir: &Path, name: &str, production: bool) -> PathBuf {
    tirage()
        .args(["keygen", "--no-password", "--out"])
        .arg(dir.join("op"))
        .assert()
        .success();
    let b = dir.join(name);
    let mut c = tirage();
    c.arg("generate").arg(repo("tests/specs/coq_small.toml"));
    if production {
        c.arg("--validation-key")
            .arg(repo(VALIDATION_KEY))
            .arg("--seed-file")
            .arg(production_seed_file(dir));
    } else {
        c.args(["--insecure-seed", "--seed", SEED]);
    }
    c.args(["-q", "--sign"])
        .arg(dir.join("op.key"))
        .arg("--out")
        .arg(&b)
        .assert()
        .success();
    b
}

/// Generates blocks 1 and 2 of `tests/specs/coq_small.toml` as an emission in `em`, with
/// the test seed [`SEED`]; panics if generate fails.
pub(crate) fn small_emission(em: &Path) {
    tirage()
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .args([
            "--blocks",
            "1..2",
            "--insecure-seed",
            "--seed",
            SEED,
            "-q",
            "--out",
        ])
        .arg(em)
        .assert()
        .success();
}

/// The test validation key (64 hex digits; never a production key).
pub(crate) const VALIDATION_KEY: &str = "tests/keys/validation.key";

/// Path of a file in the repository. The test validation key ([`VALIDATION_KEY`]) is made
/// its owner's alone (mode 0600; git keeps 0644), as a secret file should be: else every
/// run given it warns that others can read it.
pub(crate) fn repo(p: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(p);
    if p == VALIDATION_KEY {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    path
}

/// The `tirage` binary.
pub(crate) fn tirage() -> Command {
    Command::cargo_bin("tirage").expect("binary built")
}

/// Generates block 1 of `spec` with [`SEED`] into `out` with `threads` threads; panics on failure.
pub(crate) fn generate(spec: &Path, out: &Path, threads: usize) {
    tirage()
        .args(["generate"])
        .arg(spec)
        .arg("--validation-key")
        .arg(repo(VALIDATION_KEY))
        .args([
            "--insecure-seed",
            "--seed",
            SEED,
            "--threads",
            &threads.to_string(),
            "-q",
            "--out",
        ])
        .arg(out)
        .assert()
        .success();
}

/// Writes `bytes` to `path`, last changed an hour ago: a temporary file a run stopped long
/// ago left, as the next run finds it.
pub(crate) fn write_an_hour_old(path: &Path, bytes: &[u8]) {
    std::fs::write(path, bytes).unwrap();
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(std::time::SystemTime::now() - std::time::Duration::from_secs(3600))
        .unwrap();
}

/// Makes the default specimen deck of `spec` with [`SEED`] into `out`; panics on failure.
pub(crate) fn deck(spec: &Path, out: &Path) {
    tirage()
        .arg("deck")
        .arg(spec)
        .args(["--insecure-seed", "--seed", SEED, "-q", "--out"])
        .arg(out)
        .assert()
        .success();
}

/// Exit code of `tirage verify dir`.
pub(crate) fn verify_code(dir: &Path) -> i32 {
    tirage()
        .args(["verify", "--unauthenticated", "-q"])
        .arg(dir)
        .output()
        .expect("runs")
        .status
        .code()
        .expect("exit code")
}

/// `tirage verify --json --no-audit -q dir`: its exit code and its JSON report.
pub(crate) fn verify_json(dir: &Path) -> (i32, serde_json::Value) {
    let out = tirage()
        .args(["verify", "--unauthenticated", "--json", "--no-audit", "-q"])
        .arg(dir)
        .output()
        .expect("runs");
    let report = serde_json::from_slice(&out.stdout).expect("a JSON report");
    (out.status.code().expect("exit code"), report)
}

/// The result (`pass`, `fail`, `not run`, …) and the findings' details of check `id` in a
/// JSON report.
pub(crate) fn check_result(report: &serde_json::Value, id: &str) -> (String, Vec<String>) {
    let c = report["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .find(|c| c["id"] == id)
        .expect("check listed");
    let details = c["examples"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| e["detail"].as_str().unwrap_or_default().to_string())
        .collect();
    (
        c["result"].as_str().unwrap_or_default().to_string(),
        details,
    )
}

/// The text of `pdf`, as pdftotext reads it (a page break is a form feed).
pub(crate) fn pdftotext(pdf: &Path) -> String {
    let o = std::process::Command::new("pdftotext")
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils) is installed");
    assert!(o.status.success());
    String::from_utf8(o.stdout).unwrap()
}

/// Copies a block directory.
pub(crate) fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

/// The validation code of every ticket of the block `dir`, from its print file, as printed
/// (19 digits).
pub(crate) fn codes(dir: &Path) -> Vec<String> {
    use tirage::output::print_file;
    let spec = tirage::spec::GameSpec::load(&dir.join("spec.toml")).expect("spec copy");
    let bin = std::fs::read(dir.join("tickets.bin")).expect("print file");
    let h = print_file::read_header(&bin).expect("header");
    let ncols = spec.game.layout().columns.len();
    bin[h.header_size..]
        .chunks(h.record_size)
        .map(|r| {
            let code = print_file::read_record(r, ncols).validation;
            String::from_utf8(tirage::crypto::validation::format(code).to_vec()).unwrap()
        })
        .collect()
}

/// Hex SHA-256 of `bytes`.
pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(bytes))
}

/// A printed amount (`500`, `2.5`) in cents.
pub(crate) fn cents(printed: &str) -> u64 {
    match printed.split_once('.') {
        Some((u, c)) => {
            u.parse::<u64>().unwrap() * 100 + format!("{c:0<2}").parse::<u64>().unwrap()
        }
        None => printed.parse::<u64>().unwrap() * 100,
    }
}

/// The message `f` panics with.
pub(crate) fn panic_of<T>(f: impl FnOnce() -> T + std::panic::UnwindSafe) -> String {
    let e = std::panic::catch_unwind(f).err().expect("a panic");
    e.downcast_ref::<String>().cloned().unwrap_or_default()
}

/// A block to forge: block 1 of a spec generated on one thread into a temporary
/// directory, and its copy, whose files a test edits as a forger would.
pub(crate) struct Forgery {
    /// The temporary directory, removed when the forgery is dropped.
    _dir: tempfile::TempDir,
    /// The block as generated.
    pub(crate) out: PathBuf,
    /// Its copy, to edit ([`forge_cell`]).
    pub(crate) bad: PathBuf,
}

impl Forgery {
    /// Block 1 of `spec` (a path from the repository's root) and its copy.
    pub(crate) fn of(spec: &str) -> Forgery {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("block");
        generate(&repo(spec), &out, 1);
        let bad = dir.path().join("bad");
        copy_dir(&out, &bad);
        Forgery {
            _dir: dir,
            out,
            bad,
        }
    }

    /// The copy's `tickets.csv` rows after its header, each as column → value: entry `i`
    /// is row `i + 1` of [`forge_cell`].
    pub(crate) fn rows(&self) -> Vec<std::collections::BTreeMap<String, String>> {
        csv_rows(&std::fs::read_to_string(self.bad.join("tickets.csv")).unwrap())
    }

    /// `verify`'s text report of the forged copy, which must have findings (exit 1) while
    /// the block as generated has none (exit 0).
    pub(crate) fn verified(&self) -> String {
        let report = tirage()
            .args(["verify", "--unauthenticated", "--no-audit"])
            .arg(&self.bad)
            .output()
            .unwrap();
        let text = String::from_utf8(report.stdout).unwrap();
        assert_eq!(report.status.code(), Some(1), "{text}");
        assert_eq!(verify_code(&self.out), 0);
        text
    }
}

/// Edits cell `column` (a face column's name) of ticket row `row` (1-based, in file
/// order) of the block in `dir` into `code`, written `text` in `tickets.csv`: in the print
/// file and the CSV alike, as a forger would.
pub(crate) fn forge_cell(dir: &Path, row: usize, column: &str, code: u8, text: &str) {
    let csv = std::fs::read_to_string(dir.join("tickets.csv")).unwrap();
    let mut lines: Vec<String> = csv.lines().map(str::to_string).collect();
    let head: Vec<&str> = lines[0].split(',').collect();
    let at = head.iter().position(|&h| h == column).unwrap();
    let mut bin = std::fs::read(dir.join("tickets.bin")).unwrap();
    let u16_at = |o: usize| u16::from_le_bytes([bin[o], bin[o + 1]]) as usize;
    let (record, k) = (u16_at(10), u16_at(28));
    let start = u32::from_le_bytes(bin[12..16].try_into().unwrap()) as usize;
    // The face is the last k bytes of a record, and the last k columns of the CSV.
    bin[start + (row - 1) * record + record - k + at - (head.len() - k)] = code;
    std::fs::write(dir.join("tickets.bin"), bin).unwrap();
    let mut fields: Vec<String> = lines[row].split(',').map(str::to_string).collect();
    fields[at] = text.to_string();
    lines[row] = fields.join(",");
    std::fs::write(dir.join("tickets.csv"), lines.join("\n") + "\n").unwrap();
}

/// Block 1 of `spec` (a path from the repository's root), generated on 2 threads into a
/// temporary directory, after `verify` found it clean (exit 0): the directory (the block
/// goes with it when dropped) and the block's path.
pub(crate) fn clean_block(spec: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("block");
    generate(&repo(spec), &out, 2);
    let report = tirage()
        .args(["verify", "--unauthenticated", "-q", "--no-audit"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(report.status.code(), Some(0), "{spec}: verify not clean");
    (dir, out)
}

/// The text of `tickets.csv` of [`clean_block`] of `spec`.
pub(crate) fn clean_block_csv(spec: &str) -> String {
    let (_dir, out) = clean_block(spec);
    std::fs::read_to_string(out.join("tickets.csv")).unwrap()
}

/// The rows of CSV text `csv` after its header, each as column → value.
pub(crate) fn csv_rows(csv: &str) -> Vec<std::collections::BTreeMap<String, String>> {
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines
        .map(|l| {
            head.iter()
                .map(|h| h.to_string())
                .zip(l.split(',').map(str::to_string))
                .collect()
        })
        .collect()
}

/// The status (`PASS`, `FAIL`, …) of check `check` in `verify`'s text report `text`.
pub(crate) fn status_of(text: &str, check: &str) -> String {
    text.lines()
        .find(|l| l.split_whitespace().nth(1) == Some(check))
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or_else(|| panic!("no {check} line in {text}"))
        .to_string()
}

/// Runs `tirage check` on `text`, written to a temporary spec file `bad.toml`: its exit
/// code and what it printed on stderr.
pub(crate) fn check_spec(text: &str) -> (i32, String) {
    let t = tempfile::tempdir().unwrap();
    let p = t.path().join("bad.toml");
    std::fs::write(&p, text).unwrap();
    let out = tirage().arg("check").arg(&p).output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `text` with its first `from` replaced by `to` (which must be there).
pub(crate) fn replace_once(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "test spec lacks {from:?}");
    text.replacen(from, to, 1)
}

/// [`check_spec`] of `text` with its first `from` replaced by `to` (which must be there):
/// what it printed on stderr, once it refused the spec (exit 2).
pub(crate) fn check_refuses(text: &str, from: &str, to: &str) -> String {
    let (code, err) = check_spec(&replace_once(text, from, to));
    assert_eq!(code, 2, "{err}");
    err
}

/// Holds [`check_spec`] of `text` with its first `from` replaced by `to` (which must be
/// there) to accept the spec (exit 0) without a word on stderr.
pub(crate) fn check_accepts(text: &str, from: &str, to: &str) {
    let (code, err) = check_spec(&replace_once(text, from, to));
    assert_eq!((code, err.as_str()), (0, ""));
}

/// The error a spec gives when loaded from `text` with each edit `(from, to)` made in turn
/// (the first occurrence of `from`, which must be there), as file `duo.toml`. Panics when
/// the edited spec loads.
pub(crate) fn refused(text: &str, edits: &[(&str, &str)]) -> String {
    let mut t = text.to_string();
    for (from, to) in edits {
        assert!(t.contains(from), "{from}");
        t = t.replacen(from, to, 1);
    }
    tirage::spec::GameSpec::parse(Path::new("duo.toml"), t)
        .map(|_| ())
        .expect_err("the edited spec loads")
        .to_string()
}
