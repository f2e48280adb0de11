//! The signature of `SHA256SUMS`, by the operator's key.

use super::{add, Block, CheckId, Checks, Found, Options, Procedure};
use crate::block::layout::{SUMS, SUMS_SIG};
use crate::block::Kind;
use std::path::Path;

/// `SHA256SUMS.minisig` holds for the signer's key ([`CheckId::Signature`]).
pub(super) struct Signature;

impl Procedure for Signature {
    fn id(&self) -> CheckId {
        CheckId::Signature
    }

    fn run(&self, block: &Block, found: &mut Found) {
        let kind = block.manifest.as_ref().map(|m| m.kind).or(block
            .run
            .expect
            .as_ref()
            .map(|e| e.kind));
        found.signer = check_signature(
            block.dir,
            block.sums.as_deref(),
            block.opts,
            kind,
            &mut found.checks,
        );
    }
}

/// Checks `SHA256SUMS.minisig` with `opts.signer` ([`CheckId::Signature`]) over `sums`, the
/// bytes of `SHA256SUMS` read when the block was opened (never read again: the digests
/// every file was held to are the ones signed); returns the signer's key id when the
/// signature holds. With no signer, the check is "skipped", or a finding for a production
/// block when `opts.require_signature` is set.
fn check_signature(
    dir: &Path,
    sums: Option<&[u8]>,
    opts: &Options,
    kind: Option<Kind>,
    checks: &mut Checks,
) -> Option<String> {
    let mut bad = |what: String| add(checks, CheckId::Signature, None, what);
    let Some(v) = opts.signer else {
        if opts.require_signature && kind != Some(Kind::Specimen) {
            bad("no signature was checked: anyone could have written these files and their digests; give the operator's public key (--signer KEY.pub), or --unauthenticated to check the block without it".into());
        }
        return None;
    };
    let Some(sums) = sums else {
        bad(format!(
            "{SUMS} could not be read: nothing to check the signature over"
        ));
        return None;
    };
    let sig = crate::output::read_regular(&dir.join(SUMS_SIG), 64 << 10).and_then(|b| {
        String::from_utf8(b)
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text"))
    });
    let sig = match sig {
        Ok(t) => t,
        Err(e) => {
            bad(format!("{SUMS_SIG}: {e}: the block is not signed"));
            return None;
        }
    };
    match v.verify(sums, &sig) {
        Ok(_) => Some(v.id().to_string()),
        Err(e) => {
            bad(format!("{SUMS_SIG}: {e}"));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{block, findings, made, run};
    use super::*;

    #[test]
    fn an_unsigned_production_block_is_a_finding_when_a_signature_is_required() {
        let m = made();
        assert_eq!(Signature.id(), CheckId::Signature);
        let lax = Options::default();
        assert_eq!(
            findings(&run(&Signature, &block(&m, &lax)), CheckId::Signature),
            0
        );
        let strict = Options {
            require_signature: true,
            ..Options::default()
        };
        let found = run(&Signature, &block(&m, &strict));
        assert_eq!(findings(&found, CheckId::Signature), 1);
        assert!(found.signer.is_none());
    }
}
