//! Opening a block: `SHA256SUMS` (each file listed once), the spec copy (it validates, and
//! is the reference spec when one is given) and the manifest (it parses). Each is read
//! once, through one open file, and its digest is of the very bytes parsed: the signature
//! is later checked over the same bytes of `SHA256SUMS` whose digests every file is held
//! to, so files changed while verify runs never pass as the signed block.

use super::CheckId;
use super::{add, Block, Checks, Options};
use crate::block::layout::{BIN, CSV, MANIFEST, SEALED_SUFFIX, SPEC, SUMS, VALIDATION};
use crate::output::manifest::Manifest;
use crate::output::sums;
use crate::spec::GameSpec;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::Path;

/// Opens the block in `dir`: reads `SHA256SUMS`, the spec copy and the manifest, once each.
/// Findings go to [`CheckId::Sha256sums`],
/// [`CheckId::Spec`] and [`CheckId::Manifest`]; the ticket pass has not run.
pub(super) fn open<'a>(
    dir: &'a Path,
    opts: &'a Options<'a>,
    progress: &'a (dyn Fn(u64) + Sync),
    checks: &mut Checks,
) -> Block<'a> {
    // Only regular files, never more than a block's file of that kind can hold.
    let read = |name: &str| {
        let limit = match name {
            SPEC => crate::spec::MAX_SPEC_BYTES,
            SUMS => sums::MAX_BYTES,
            _ => crate::output::MAX_JSON,
        };
        crate::output::read_regular(&dir.join(name), limit)
    };

    let mut actual: BTreeMap<String, (u64, String)> = BTreeMap::new();
    let mut once = |name: &str| {
        let b = read(name)?;
        actual.insert(
            name.into(),
            (b.len() as u64, hex::encode(Sha256::digest(&b))),
        );
        Ok::<Vec<u8>, std::io::Error>(b)
    };

    // SHA256SUMS.
    let sums_bytes = once(SUMS);
    // Each malformed line is a finding; the well-formed lines still list their files.
    let (listed, why) = match &sums_bytes {
        Ok(b) => sums::parse_bytes_lines(b),
        Err(e) => (Vec::new(), vec![format!("cannot read it: {e}")]),
    };
    for why in why {
        add(checks, CheckId::Sha256sums, None, format!("{SUMS}: {why}"));
    }
    check_listed(&listed, checks);
    // The spec copy.
    let spec_text = once(SPEC).and_then(|b| {
        String::from_utf8(b)
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text"))
    });
    let spec = read_spec(spec_text, dir, checks);
    // Held against the reference by meaning, field by field; the digests stay as evidence.
    let spec_comparison = match (&spec, opts.reference) {
        (Some(s), Some(r)) => Some(super::spec_diff::compare(s, r)),
        _ => None,
    };
    for d in spec_comparison.iter().flat_map(|c| &c.differences) {
        add(checks, CheckId::Spec, None, d.describe());
    }

    // The manifest.
    let manifest = read_manifest(once(MANIFEST), checks);

    Block {
        dir,
        opts,
        listed,
        sums: sums_bytes.ok(),
        actual,
        spec,
        manifest,
        spec_comparison,
        run: Default::default(),
        progress,
    }
}

/// Size and hex SHA-256 of the regular file at `path`, read up to `limit` bytes when a
/// limit is given, and true when the file goes on past it (the size and digest are then of
/// its first `limit` bytes); `None` when it is not a regular file or cannot be read.
pub(super) fn hash_file(path: &Path, limit: Option<u64>) -> Option<(u64, String, bool)> {
    use std::io::Read;
    let mut f = crate::output::open_regular(path).ok()?;
    let mut h = Sha256::new();
    let n = std::io::copy(&mut (&mut f).take(limit.unwrap_or(u64::MAX)), &mut h).ok()?;
    let more = limit.is_some_and(|l| n == l) && f.read(&mut [0u8; 1]).ok()? == 1;
    Some((n, hex::encode(h.finalize()), more))
}

/// Checks that `SHA256SUMS` (`listed`) lists every file of a block once: a ticket file as
/// delivered, in clear or encrypted (`.age`), in the order generate writes them (the ticket
/// files, the spec copy, the manifest): the same lines in another order are another file,
/// which generate did not write. Findings go to [`CheckId::Sha256sums`].
fn check_listed(listed: &[(String, String)], checks: &mut Checks) {
    const ORDER: [&str; 5] = [CSV, BIN, VALIDATION, SPEC, MANIFEST];
    let place = |n: &str| {
        ORDER
            .iter()
            .position(|f| n == *f || n.strip_suffix(SEALED_SUFFIX) == Some(*f))
    };
    let places: Vec<usize> = listed.iter().filter_map(|(n, _)| place(n)).collect();
    if places.windows(2).any(|w| w[0] > w[1]) {
        add(
            checks,
            CheckId::Sha256sums,
            None,
            format!(
                "SHA256SUMS lists its files in another order than generate writes them ({}): \
                 it is not the file generate wrote",
                ORDER.join(", ")
            ),
        );
    }
    for name in ORDER {
        // A ticket file is listed as delivered: in clear, or encrypted (`.age`).
        let sealed = format!("{name}{}", SEALED_SUFFIX);
        let counted = |(n, _): &&(String, String)| {
            n == name || (n == &sealed && ![SPEC, MANIFEST].contains(&name))
        };
        match listed.iter().filter(counted).count() {
            0 => add(
                checks,
                CheckId::Sha256sums,
                None,
                format!("SHA256SUMS does not list {name}"),
            ),
            1 => {}
            n => add(
                checks,
                CheckId::Sha256sums,
                None,
                format!("SHA256SUMS lists {name} {n} times, expected once"),
            ),
        }
    }
}

/// The block's spec copy from `text` (the bytes of `dir`'s spec.toml as read, or why they
/// could not be): it validates. Findings go to [`CheckId::Spec`]; `None` when it cannot be
/// read or does not validate.
pub(super) fn read_spec(
    text: std::io::Result<String>,
    dir: &Path,
    checks: &mut Checks,
) -> Option<GameSpec> {
    let spec = match text {
        Err(e) => {
            add(
                checks,
                CheckId::Spec,
                None,
                format!("cannot read spec.toml: {e}"),
            );
            None
        }
        Ok(text) => match GameSpec::parse(&dir.join(SPEC), text) {
            Err(e) => {
                add(
                    checks,
                    CheckId::Spec,
                    None,
                    format!("spec.toml does not validate: {e}"),
                );
                None
            }
            Ok(s) => Some(s),
        },
    };
    spec
}

/// The manifest parsed from `bytes` (manifest.json as read, or why it could not be).
/// Findings go to [`CheckId::Manifest`]; `None` when it cannot be read or does not parse.
fn read_manifest(bytes: std::io::Result<Vec<u8>>, checks: &mut Checks) -> Option<Manifest> {
    match bytes {
        Err(e) => {
            add(
                checks,
                CheckId::Manifest,
                None,
                format!("cannot read manifest.json: {e}"),
            );
            None
        }
        Ok(b) => match serde_json::from_slice::<Manifest>(&b) {
            Err(e) => {
                add(
                    checks,
                    CheckId::Manifest,
                    None,
                    format!("manifest.json does not parse: {e}"),
                );
                None
            }
            Ok(m) => Some(m),
        },
    }
}
