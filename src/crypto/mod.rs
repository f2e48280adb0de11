//! The cryptography of a block, each part over a well-kept crate: the seeds and the ChaCha20
//! streams every random choice is drawn from ([`rng`]), the seed ceremony's commitments
//! ([`ceremony`]), the validation codes under the scratch-off box ([`validation`], FF1) and
//! the minisign signature over `SHA256SUMS` ([`sign`]).

pub mod ceremony;
pub mod rng;
pub mod sign;
pub mod validation;

use std::path::Path;

/// What a message says in place of a secret file's name that looks like a secret itself.
pub const NAME_NOT_SHOWN: &str =
    "(its name is not shown: it looks like a secret given in place of a file name)";

/// How a message names the file `path` that holds a secret (a seed, a share, a validation
/// key, an age identity, a minisign secret key): the path as given, unless the path itself
/// looks like a secret, as when the secret is pasted where its file's name was expected;
/// then [`NAME_NOT_SHOWN`], so that no error copies the secret to the terminal or a log.
/// A path looks like a secret when it holds 32 hexadecimal digits in a row (half a seed,
/// share or validation key), `AGE-SECRET-KEY-` in any case, or 40 letters, digits, `+`
/// and `=` in a row mixing digits, capitals and small letters (a piece of a minisign
/// secret key's base64 line).
pub fn secret_file_name(path: &Path) -> String {
    let text = path.to_string_lossy();
    let hex = text
        .split(|c: char| !c.is_ascii_hexdigit())
        .any(|run| run.len() >= 32);
    let age = text.to_ascii_uppercase().contains("AGE-SECRET-KEY-");
    let base64 = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '+' || c == '='))
        .any(|run| {
            run.len() >= 40
                && run.contains(|c: char| c.is_ascii_digit())
                && run.contains(|c: char| c.is_ascii_uppercase())
                && run.contains(|c: char| c.is_ascii_lowercase())
        });
    if hex || age || base64 {
        NAME_NOT_SHOWN.to_string()
    } else {
        path.display().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name that looks like a secret is not shown; an ordinary path is, even a long one.
    #[test]
    fn a_secret_given_as_a_file_name_is_not_shown() {
        let shown = |p: &str| secret_file_name(Path::new(p));
        for p in [
            "output/keys/coq.validation-key",
            "/home/operator/lottery/keys/production/operator-signing-key",
            "block-001.seed",
            "./0123456789abcdef0123456789abcde.seed",
        ] {
            assert_eq!(shown(p), p);
        }
        for p in [
            "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
            "/tmp/0123456789ABCDEF0123456789abcdef",
            "AGE-SECRET-KEY-1QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ",
            "age-secret-key-1qq",
            "RWRTY0IyqY2l4Zb3Qm9yZm0wUnJ6QkVHbnFrUWxScGxkZ3F0ZXhpTmZ3a0hP+Tk=",
        ] {
            assert_eq!(shown(p), NAME_NOT_SHOWN, "{p}");
        }
    }
}
