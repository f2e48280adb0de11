//! The error of a spec that is not valid, and where it is: file, line, field. The spec's
//! own checks and every game's make them with [`ErrorAt`].

use std::fmt;
use std::path::{Path, PathBuf};

/// A spec that is not valid: where, which field, and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecError {
    /// The spec file.
    pub file: PathBuf,
    /// 1-based line of the offending entry, when the parser gives it.
    pub line: Option<usize>,
    /// Dotted path of the field (`tiers[3].ways[0].count`, entries counted from 0), which may
    /// end with what names its entry as printed (`tiers[3].count (amount 50)`).
    pub field: String,
    /// What is wrong and what was expected.
    pub message: String,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
        }
        if !self.field.is_empty() {
            write!(f, ": {}", bounded(&long_hex_hidden(&self.field)))?;
        }
        write!(f, ": {}", bounded(&long_hex_hidden(&self.message)))
    }
}

/// Characters of a field or message past which a spec error shows its start and its end
/// only: a label or a name of 80 000 characters is not echoed whole.
const MOST_SHOWN: usize = 1000;

/// `text` whole when it holds at most [`MOST_SHOWN`] characters; else its first 600 and its
/// last 200 characters, with how many were left out between them.
fn bounded(text: &str) -> std::borrow::Cow<'_, str> {
    let n = text.chars().count();
    if n <= MOST_SHOWN {
        return text.into();
    }
    let (head, tail) = (600, 200);
    let start: String = text.chars().take(head).collect();
    let end: String = text.chars().skip(n - tail).collect();
    format!("{start}… ({} characters not shown) …{end}", n - head - tail).into()
}

/// Hex digits in a row from which a spec error no longer shows them: a secret (a seed, a
/// share, a validation key: 64 digits) pasted into a spec is never echoed, nor half of one.
const LONG_HEX: usize = 32;

/// `text` with every run of [`LONG_HEX`] or more hexadecimal digits written
/// `(a long hexadecimal value, not shown)`.
fn long_hex_hidden(text: &str) -> std::borrow::Cow<'_, str> {
    let runs = text.split(|c: char| !c.is_ascii_hexdigit());
    if runs.clone().all(|r| r.len() < LONG_HEX) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len());
    let mut run = String::new();
    for c in text.chars().map(Some).chain([None]) {
        if let Some(c) = c.filter(char::is_ascii_hexdigit) {
            run.push(c);
            continue;
        }
        if run.len() >= LONG_HEX {
            out.push_str("(a long hexadecimal value, not shown)");
        } else {
            out.push_str(&run);
        }
        run.clear();
        out.extend(c);
    }
    out.into()
}

impl std::error::Error for SpecError {}

/// Builds [`SpecError`]s for one file, turning byte offsets into line numbers.
pub struct ErrorAt<'a> {
    file: &'a Path,
    text: &'a str,
}

/// The table a header line names (`[coq] # comment` → `coq`, `[[tiers]]` → `tiers`); `None`
/// when `line` is no header.
fn header_name(line: &str) -> Option<&str> {
    let t = line.trim_start().strip_prefix('[')?;
    let t = t.strip_prefix('[').unwrap_or(t);
    Some(t.split(']').next().unwrap_or(t).trim())
}

impl<'a> ErrorAt<'a> {
    /// An error context for `file`, whose content is `text`.
    pub fn new(file: &'a Path, text: &'a str) -> Self {
        ErrorAt { file, text }
    }

    /// An error at byte `offset` of the file (or with no line if `None`). When `offset` is a
    /// table header (`[poker]`) and `field` a key of that table (`poker.near_miss_flush`,
    /// `poker.combination_weights`), the line is the key's own (`near_miss_flush = …`, or
    /// the first `[poker.combination_weights…]` header) if the table writes it.
    pub fn at(
        &self,
        offset: Option<usize>,
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> SpecError {
        let field = field.into();
        // A field may end with what names its entry (`tiers[3].count (amount 50)`).
        let path = field.split(" (").next().unwrap_or(&field);
        let offset = offset.map(|o| self.key_of_table(o.min(self.text.len()), path));
        SpecError {
            file: self.file.to_path_buf(),
            line: offset.map(|o| self.text[..o].matches('\n').count() + 1),
            field,
            message: message.into(),
        }
    }

    /// The dotted key (`game.price`) written on the line holding byte `offset`, under the
    /// last table header before it; the table itself on its header line; else empty.
    /// Names the field of an error the TOML parser places by offset only.
    pub fn field_at(&self, offset: usize) -> String {
        let offset = offset.min(self.text.len());
        let line_start = self.text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let line = self.text[line_start..].lines().next().unwrap_or("");
        // A table's header (a key missing from it, say): the table.
        if let Some(table) = header_name(line) {
            return table.to_string();
        }
        let Some((key, _)) = line.split_once('=') else {
            return String::new();
        };
        let key = key.trim().trim_matches('"');
        if key.is_empty() || key.starts_with('[') || key.starts_with('#') {
            return String::new();
        }
        self.key_path(line_start, key)
    }

    /// The field path of `key`, written on the line that starts at byte `line_start`,
    /// under the table headers before it (`game.price`, `tiers[1].ways[0].count`); for a
    /// line the parser could not read as `key = value`.
    pub fn field_at_key(&self, offset: usize, key: &str) -> String {
        let offset = offset.min(self.text.len());
        let line_start = self.text[..offset].rfind('\n').map_or(0, |i| i + 1);
        self.key_path(line_start, key)
    }

    /// [`ErrorAt::field_at`]'s path of `key` on the line starting at `line_start`.
    fn key_path(&self, line_start: usize, key: &str) -> String {
        let before = &self.text[..line_start];
        let Some(header) = before.lines().rev().find(|l| header_name(l).is_some()) else {
            return key.to_string();
        };
        let table = header_name(header).unwrap_or("");
        // Each level of the table's path that is an array of tables gets the index of its
        // element (`tiers[5].amount`, `tiers[1].ways[0].count`, and under a plain sub-table
        // header, `surfaces[0].games[1].decoy_weights.20`): the number of its `[[…]]`
        // headers since the element of the level above began.
        let mut from = 0;
        let mut path = String::new();
        for (i, seg) in table.split('.').enumerate() {
            let prefix = table.split('.').take(i + 1).collect::<Vec<_>>().join(".");
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(seg);
            let elements: Vec<usize> = before[from..]
                .match_indices('\n')
                .map(|(j, _)| j + 1)
                .chain(std::iter::once(0))
                .filter(|&j| {
                    let l = before[from + j..].lines().next().unwrap_or("");
                    l.trim_start().starts_with("[[") && header_name(l) == Some(prefix.as_str())
                })
                .collect();
            if let Some(&last) = elements.iter().max() {
                path.push_str(&format!("[{}]", elements.len() - 1));
                from += last;
            }
        }
        format!("{path}.{key}")
    }

    /// The lines (offset, trimmed text) of the element of array of tables `array` whose
    /// header starts at `start`, up to the next element or the next array of tables.
    fn element_lines(&self, start: usize, array: &str) -> Vec<(usize, &'a str)> {
        let mut lines = Vec::new();
        let mut at = start;
        for (i, line) in self.text[start..].split_inclusive('\n').enumerate() {
            let nested = header_name(line).is_some_and(|h| h.starts_with(&format!("{array}.")));
            if i > 0 && line.trim_start().starts_with("[[") && !nested {
                break; // the next element, or the next array of tables
            }
            lines.push((at, line.trim()));
            at += line.len();
        }
        lines
    }

    /// In the element of array of tables `array` whose header starts at `start`, the line of
    /// `path` through its nested arrays of tables (`games[1].amounts[0]`: the `amounts` key
    /// of the second `[[surfaces.games]]` of that element; `games[0].decoy_weights`: its
    /// `[surfaces.games.decoy_weights]` header); the deepest element found when a key is
    /// not written; else `offset`.
    fn nested_of_element(&self, start: usize, array: &str, path: &str, offset: usize) -> usize {
        let lines = self.element_lines(start, array);
        let mut scope: &[(usize, &str)] = &lines;
        let mut prefix = array.to_string();
        let mut rest = path;
        loop {
            let (seg, tail) = rest.split_once('.').unwrap_or((rest, ""));
            let (name, index) = match seg.split_once('[') {
                Some((n, i)) => (n, i.trim_end_matches(']').parse::<usize>().ok()),
                None => (seg, None),
            };
            let table = format!("{prefix}.{name}");
            let element = format!("[[{table}]]");
            let starts: Vec<usize> = (1..scope.len())
                .filter(|&i| scope[i].1 == element)
                .collect();
            if let (Some(i), false) = (index, starts.is_empty()) {
                let Some(&from) = starts.get(i) else {
                    return scope.first().map_or(offset, |l| l.0);
                };
                let inside = format!("{table}.");
                let to = (from + 1..scope.len())
                    .find(|&j| {
                        scope[j].1.starts_with('[')
                            && (scope[j].1 == element
                                || !header_name(scope[j].1).is_some_and(|h| h.starts_with(&inside)))
                    })
                    .unwrap_or(scope.len());
                scope = &scope[from..to];
                if tail.is_empty() {
                    return scope[0].0;
                }
                prefix = table;
                rest = tail;
                continue;
            }
            // A key of this element: its own line, else its sub-table's header.
            let key = name.trim_matches('"');
            let own = scope
                .iter()
                .skip(1)
                .take_while(|(_, l)| !l.starts_with('['));
            let sub = format!("[{table}");
            return own
                .clone()
                .find(|(_, l)| {
                    l.split_once('=').map(|(k, _)| k.trim().trim_matches('"')) == Some(key)
                })
                .or_else(|| scope.iter().find(|(_, l)| l.starts_with(&sub)))
                .map_or(scope.first().map_or(offset, |l| l.0), |&(o, _)| o);
        }
    }

    /// In the element of array of tables `array` whose header starts at `start`, the line of
    /// sub-table field `path` (`combination_weights."5"`, `combination_weights."5".paire`):
    /// the sub-table's own header (`[surfaces.combination_weights."5"]`), or the key's line
    /// under its parent's header, else the first line that writes the path's first key;
    /// else `offset`.
    fn sub_table_of_element(&self, start: usize, array: &str, path: &str, offset: usize) -> usize {
        let lines = self.element_lines(start, array);
        let header_at = |table: &str| {
            let h = format!("[{array}.{table}]");
            lines.iter().find(|(_, l)| *l == h).map(|&(o, _)| o)
        };
        if let Some(o) = header_at(path) {
            return o;
        }
        if let Some((parent, key)) = path.rsplit_once('.') {
            if let Some(o) = header_at(parent) {
                let after = lines.iter().skip_while(|&&(o2, _)| o2 < o).skip(1);
                for &(o2, l) in after.take_while(|(_, l)| !l.starts_with('[')) {
                    let k = l.split_once('=').map(|(k, _)| k.trim().trim_matches('"'));
                    if k == Some(key.trim_matches('"')) {
                        return o2;
                    }
                }
                return o;
            }
        }
        // The first key of the path, written in the element itself or as a sub-table.
        let first = path.split('.').next().unwrap_or(path);
        let own = lines
            .iter()
            .skip(1)
            .take_while(|(_, l)| !l.starts_with('['));
        let sub = format!("[{array}.{first}");
        own.clone()
            .find(|(_, l)| {
                l.split_once('=').map(|(k, _)| k.trim().trim_matches('"'))
                    == Some(first.trim_matches('"'))
            })
            .or_else(|| lines.iter().find(|(_, l)| l.starts_with(&sub)))
            .map_or(offset, |&(o, _)| o)
    }

    /// The offset of `field`'s key line in the table whose header starts at `offset`, else
    /// `offset`.
    fn key_of_table(&self, offset: usize, field: &str) -> usize {
        let line_start = self.text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let rest = &self.text[line_start..];
        let header = rest.lines().next().unwrap_or("").trim();
        // An element of an array of tables (`[[tiers]]`, field `tiers[1].total`): the key's
        // line inside that element, before its first sub-table.
        if let Some(array) = header.strip_prefix("[[").and_then(|h| h.strip_suffix("]]")) {
            let array = array.trim();
            let path = field
                .strip_prefix(array)
                .and_then(|k| k.strip_prefix('['))
                .and_then(|k| k.split_once("]."))
                .map(|(_, k)| k)
                .filter(|k| !k.is_empty());
            let Some(path) = path else {
                return offset;
            };
            if path.contains('[') {
                return self.nested_of_element(line_start, array, path, offset);
            }
            if path.contains('.') {
                return self.sub_table_of_element(line_start, array, path, offset);
            }
            let key = path;
            let mut at = line_start;
            for (i, line) in rest.split_inclusive('\n').enumerate() {
                let t = line.trim_start();
                if i > 0 && t.starts_with('[') {
                    break;
                }
                if t.strip_prefix(key)
                    .is_some_and(|r| r.trim_start().starts_with('='))
                {
                    return at;
                }
                at += line.len();
            }
            return self.sub_table_of_element(line_start, array, key, offset);
        }
        let Some(table) = header
            .strip_prefix('[')
            .and_then(|h| h.split(']').next())
            .map(str::trim)
            .filter(|t| !t.starts_with('['))
        else {
            return offset;
        };
        let Some(path) = field
            .strip_prefix(table)
            .and_then(|k| k.strip_prefix('.'))
            .filter(|k| !k.is_empty())
        else {
            return offset;
        };
        let key = path.split(['.', ' ']).next().unwrap_or(path);
        // `poker.combination_weights."5"`: that sub-table's own header, if written after
        // its table (a TOML table is defined once, so the header is unique).
        if let Some(i) = rest.find(&format!("[{table}.{path}]")) {
            return line_start + i;
        }
        let sub_header = format!("[{table}.{key}");
        let mut at = line_start;
        for (i, line) in rest.split_inclusive('\n').enumerate() {
            let t = line.trim_start();
            if i > 0 && t.starts_with('[') && !t.starts_with(&format!("[{table}.")) {
                break; // the next table
            }
            let assigns = t
                .strip_prefix(key)
                .is_some_and(|r| r.trim_start().starts_with('='));
            if assigns || t.starts_with(&sub_header) {
                return at;
            }
            at += line.len();
        }
        offset
    }
}

#[cfg(test)]
mod tests {
    use super::{ErrorAt, SpecError};
    use std::path::Path;

    /// A message of 80 000 characters shows its first 600 and last 200, and says how many
    /// it leaves out; one of 1 000 is shown whole.
    #[test]
    fn a_long_message_shows_its_start_and_its_end() {
        let error = |message: String| SpecError {
            file: "s.toml".into(),
            line: Some(27),
            field: "labels.cash".into(),
            message,
        };
        let long = format!("got \"{}\" (end)", "X ".repeat(40_000));
        let shown = error(long.clone()).to_string();
        let start: String = long.chars().take(600).collect();
        let end: String = long.chars().skip(long.chars().count() - 200).collect();
        assert_eq!(
            shown,
            format!("s.toml:27: labels.cash: {start}… (79212 characters not shown) …{end}")
        );
        let whole = "y".repeat(1000);
        assert_eq!(
            error(whole.clone()).to_string(),
            format!("s.toml:27: labels.cash: {whole}")
        );
    }

    /// Every level of a key's path that is an array of tables is indexed, under a `[[…]]`
    /// header and under a plain sub-table header of an element alike.
    #[test]
    fn a_key_is_named_with_every_index_of_its_path() {
        let text = "[game]\nprice = 2\n\
            [[tiers]]\namount = 1\n[[tiers]]\namount = 2\n[[tiers.ways]]\ncount = 3\n\
            [[surfaces]]\nid = \"a\"\n[[surfaces]]\nid = \"b\"\n\
            [[surfaces.games]]\narea = \"x\"\n[[surfaces.games]]\narea = \"y\"\n\
            [surfaces.games.decoy_weights]\n\"20\" = 1\n";
        let at = ErrorAt::new(Path::new("s.toml"), text);
        let field = |line: &str| at.field_at(text.find(line).unwrap());
        assert_eq!(field("price"), "game.price");
        assert_eq!(field("amount = 2"), "tiers[1].amount");
        assert_eq!(field("count = 3"), "tiers[1].ways[0].count");
        assert_eq!(field("id = \"b\""), "surfaces[1].id");
        assert_eq!(field("area = \"y\""), "surfaces[1].games[1].area");
        assert_eq!(field("\"20\" = 1"), "surfaces[1].games[1].decoy_weights.20");
    }
}
