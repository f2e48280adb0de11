//! `SHA256SUMS`: one line per file, `<64 hex digits><two spaces><name>`, the format
//! `sha256sum -c SHA256SUMS` checks.

use std::fmt::Write;
use std::path::Path;

/// Renders the lines for `(name, hex sha256)` pairs, in the given order.
pub fn render(entries: &[(String, String)]) -> String {
    let mut s = String::new();
    for (name, hash) in entries {
        writeln!(s, "{hash}  {name}").expect("write to String");
    }
    s
}

/// Parses SHA256SUMS text, in its canonical form only (the one [`render`] writes), into
/// `(name, hex sha256)` pairs: every line is 64 lowercase hex digits, two spaces and a
/// plain file name, and ends with `\n` (no blank line, no carriage return, no `*` binary
/// mark, no escaped name). The first line not so is returned as `Err(line number, line)`.
pub fn parse(text: &str) -> Result<Vec<(String, String)>, (usize, String)> {
    let (listed, bad) = parse_lines(text);
    bad.into_iter().next().map_or(Ok(listed), Err)
}

/// The well-formed lines' `(name, hex sha256)` pairs and the malformed lines'
/// `(line number, line)`, as [`parse_lines`] returns them.
pub type Lines = (Vec<(String, String)>, Vec<(usize, String)>);

/// Parses SHA256SUMS text as [`parse`] does, but past its malformed lines: the
/// `(name, hex sha256)` pairs of the well-formed lines, and the `(line number, line)` of
/// each malformed one, both in file order.
pub fn parse_lines(text: &str) -> Lines {
    let (mut listed, mut bad) = (Vec::new(), Vec::new());
    for (i, line) in text.split_inclusive('\n').enumerate() {
        match parse_line(line) {
            Some(entry) => listed.push(entry),
            None => bad.push((i + 1, line.to_string())),
        }
    }
    (listed, bad)
}

/// One canonical line (with its `\n`) as `(name, hex sha256)`, or `None` when it is not one.
fn parse_line(line: &str) -> Option<(String, String)> {
    let line = line.strip_suffix('\n')?;
    let (hash, rest) = line.split_at_checked(64)?;
    let name = rest.strip_prefix("  ")?;
    let plain = |b: u8| b.is_ascii_graphic() && b != b'/' && b != b'\\';
    let lower_hex = |b: u8| b.is_ascii_digit() || (b'a'..=b'f').contains(&b);
    if !hash.bytes().all(lower_hex) || name.is_empty() || !name.bytes().all(plain) {
        return None;
    }
    Some((name.to_string(), hash.to_string()))
}

/// Reads and parses `dir/SHA256SUMS` into `(name, hex sha256)` pairs. `Err` says why (the
/// caller names the file): it cannot be read, or which line is malformed.
pub fn read(dir: &Path) -> Result<Vec<(String, String)>, String> {
    let bytes = read_bytes(dir).map_err(|e| format!("cannot read it: {e}"))?;
    parse_bytes(&bytes)
}

/// The bytes of `dir/SHA256SUMS` (a regular file of at most 1 MiB), read once: a caller
/// that checks its signature checks these bytes, and parses them with [`parse_bytes`].
pub fn read_bytes(dir: &Path) -> std::io::Result<Vec<u8>> {
    super::read_regular(&dir.join(crate::block::layout::SUMS), MAX_BYTES)
}

/// The largest `SHA256SUMS` read (a block's lists a few files).
pub const MAX_BYTES: u64 = 1 << 20;

/// Parses the bytes of a `SHA256SUMS` as [`parse`]. `Err` says which line is malformed
/// (the caller names the file).
pub fn parse_bytes(bytes: &[u8]) -> Result<Vec<(String, String)>, String> {
    let (listed, why) = parse_bytes_lines(bytes);
    why.into_iter().next().map_or(Ok(listed), Err)
}

/// Parses the bytes of a `SHA256SUMS` as [`parse_lines`]: the entries of its well-formed
/// lines, and what is wrong with each malformed one (the caller names the file).
pub fn parse_bytes_lines(bytes: &[u8]) -> (Vec<(String, String)>, Vec<String>) {
    let (listed, bad) = parse_lines(&String::from_utf8_lossy(bytes));
    let why = bad.iter().map(|(line, text)| malformed(*line, text));
    (listed, why.collect())
}

/// What is wrong with malformed line number `line`, whose text is `text`.
fn malformed(line: usize, text: &str) -> String {
    format!(
        "line {line} is not in the canonical form: {text:?} (expected 64 lowercase hex digits, two spaces, a file name, a line feed)"
    )
}

/// Checks `actual`, the hex SHA-256 of file `name`, against every line of `entries` that
/// lists `name`. `Err` says what differs (the caller names the file): `name` is not listed,
/// or its digest and the listed one.
pub fn check(entries: &[(String, String)], name: &str, actual: &str) -> Result<(), String> {
    let mut listed = entries.iter().filter(|(n, _)| n == name).peekable();
    if listed.peek().is_none() {
        return Err(format!("{} does not list it", crate::block::layout::SUMS));
    }
    for (_, hash) in listed {
        if !hash.eq_ignore_ascii_case(actual) {
            return Err(format!(
                "SHA-256 {actual}, {} says {hash}: the file changed after the block was sealed",
                crate::block::layout::SUMS
            ));
        }
    }
    Ok(())
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

    #[test]
    fn only_the_canonical_form_is_accepted() {
        let h = "ab".repeat(32);
        let ok = format!("{h}  tickets.csv\n{h}  tickets.bin\n");
        assert_eq!(parse(&ok).unwrap().len(), 2);
        for (bad, line) in [
            (format!("{h}  tickets.csv"), 1),     // no final line feed
            (format!("{h}  tickets.csv\r\n"), 1), // a carriage return
            (format!("{h}  tickets.csv\n\n"), 2), // a blank line
            (format!("{h} *tickets.csv\n"), 1),   // the binary mark
            (format!("{}  tickets.csv\n", h.to_uppercase()), 1), // capital hex digits
            (format!("\\{h}  tick\\ets.csv\n"), 1), // an escaped name
            (format!("{h}  a/tickets.csv\n"), 1), // a path
            (format!("{h}  tickets.csv \n"), 1),  // a trailing space
            (format!("{h}  tickets.csv\n{h}   x\n"), 2), // three spaces
        ] {
            assert_eq!(parse(&bad).unwrap_err().0, line, "{bad:?}");
        }
    }

    #[test]
    fn well_formed_lines_count_past_a_malformed_one() {
        let h = "ab".repeat(32);
        let text = format!("{h}  tickets.csv\n{h}  ../etc/hostname\n{h}  tickets.bin\n");
        assert_eq!(
            parse_lines(&text),
            (
                vec![
                    ("tickets.csv".to_string(), h.clone()),
                    ("tickets.bin".to_string(), h.clone())
                ],
                vec![(2, format!("{h}  ../etc/hostname\n"))]
            )
        );
    }

    #[test]
    fn a_digest_is_checked_against_its_line() {
        let e = vec![
            ("tickets.csv".to_string(), "ab".repeat(32)),
            ("tickets.bin".to_string(), "cd".repeat(32)),
        ];
        assert_eq!(check(&e, "tickets.csv", &"ab".repeat(32)), Ok(()));
        assert_eq!(
            check(&e, "tickets.bin", &"ab".repeat(32)),
            Err(format!(
                "SHA-256 {}, SHA256SUMS says {}: the file changed after the block was sealed",
                "ab".repeat(32),
                "cd".repeat(32)
            ))
        );
        assert_eq!(
            check(&e, "spec.toml", &"ab".repeat(32)),
            Err("SHA256SUMS does not list it".to_string())
        );
    }
}
