//! Build identity: the git commit the binary is built from, embedded as `TIRAGE_GIT_COMMIT`
//! (`git rev-parse HEAD`, or `unknown` outside a git checkout or without git), and whether
//! the source tree (src/, build.rs, Cargo.toml, Cargo.lock) differed from that commit,
//! embedded as `TIRAGE_SOURCE_STATE` (`clean`, `modified` or `unknown`). Neither can be set
//! from the environment: a manifest's build identity is what git says.

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!s.is_empty()).then_some(s)
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    // Any edit of the sources re-runs this script, so the source state stays true.
    for p in ["src", "Cargo.toml", "Cargo.lock"] {
        println!("cargo:rerun-if-changed={p}");
    }
    let state = match git(&[
        "status",
        "--porcelain",
        "--",
        "src",
        "build.rs",
        "Cargo.toml",
        "Cargo.lock",
    ]) {
        None if git(&["rev-parse", "HEAD"]).is_some() => "clean",
        Some(_) => "modified",
        None => "unknown",
    };
    println!("cargo:rustc-env=TIRAGE_SOURCE_STATE={state}");
    let commit = {
        {
            let c = git(&["rev-parse", "HEAD"])
                .filter(|c| c.len() == 40 && c.bytes().all(|b| b.is_ascii_hexdigit()));
            // Re-run when HEAD moves: HEAD itself (branch switch), the branch's ref, packed refs.
            if let (Some(dir), Some(common)) = (
                git(&["rev-parse", "--git-dir"]),
                git(&["rev-parse", "--git-common-dir"]),
            ) {
                println!(
                    "cargo:rerun-if-changed={}",
                    Path::new(&dir).join("HEAD").display()
                );
                if let Some(r) = git(&["symbolic-ref", "-q", "HEAD"]) {
                    println!(
                        "cargo:rerun-if-changed={}",
                        Path::new(&common).join(r).display()
                    );
                }
                let packed = Path::new(&common).join("packed-refs");
                if packed.exists() {
                    println!("cargo:rerun-if-changed={}", packed.display());
                }
            }
            c.unwrap_or_else(|| "unknown".into())
        }
    };
    println!("cargo:rustc-env=TIRAGE_GIT_COMMIT={commit}");
}
