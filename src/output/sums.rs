//! `SHA256SUMS`: one line per file, `<64 hex digits><two spaces><name>`, the format
//! `sha256sum -c SHA256SUMS` checks.

use std::fmt::Write;

/// Renders the lines for `(name, hex sha256)` pairs, in the given order.
pub fn render(entries: &[(String, String)]) -> String {
    let mut s = String::new();
    for (name, hash) in entries {
        writeln!(s, "{hash}  {name}").expect("write to String");
    }
    s
}

/// Parses SHA256SUMS text into `(name, hex sha256)` pairs. A malformed line is returned as
/// `Err(line number, line)`.
pub fn parse(text: &str) -> Result<Vec<(String, String)>, (usize, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.is_empty() {
            continue;
        }
        let bad = || (i + 1, line.to_string());
        let (hash, rest) = line.split_at_checked(64).ok_or_else(bad)?;
        let name = rest
            .strip_prefix("  ")
            .or_else(|| rest.strip_prefix(" *"))
            .ok_or_else(bad)?;
        if !hash.bytes().all(|b| b.is_ascii_hexdigit()) || name.is_empty() {
            return Err(bad());
        }
        out.push((name.to_string(), hash.to_ascii_lowercase()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let e = vec![("tickets.csv".to_string(), "ab".repeat(32))];
        let text = render(&e);
        assert_eq!(text, format!("{}  tickets.csv\n", "ab".repeat(32)));
        assert_eq!(parse(&text).unwrap(), e);
    }

    #[test]
    fn malformed_lines_are_reported() {
        assert_eq!(parse("xyz  a\n").unwrap_err().0, 1);
        assert_eq!(parse(&format!("{} a", "0".repeat(64))).unwrap_err().0, 1);
    }
}
