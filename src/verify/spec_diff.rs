//! The block's spec copy held against the reference spec by meaning, field by field.
//!
//! Both specs have loaded and validated. Each is read again as a TOML tree, where comments,
//! spacing, key order and the way a table is written (`[a]` or `a = {…}`) leave no trace,
//! and the two trees are walked together. A field written out with its documented default
//! on one side and left out on the other means the same; a tier's printed `total` and
//! printed `odds`, which validation holds to the counts, add nothing. Everything else that differs is a
//! [`SpecDifference`] naming the field (`tiers[3].count`, `surfaces[0].games[1].near_miss`)
//! and both values. Array elements are compared in order: the order of tiers and ways
//! numbers the ways, which the allocation draws.

use crate::spec::GameSpec;
use crate::styles::style::StyleInfo;
use serde::Serialize;
use toml::Value;

/// One field whose meaning differs between the block's spec copy and the reference spec.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SpecDifference {
    /// The field's path, as written in the spec: `tiers[3].count`, `captions."20000"`.
    pub field: String,
    /// Its value in the block's `spec.toml`, as TOML (`absent` when it is not there).
    pub block: String,
    /// Its value in the reference spec, as TOML (`absent` when it is not there).
    pub reference: String,
}

/// The block's spec copy held against the reference spec.
#[derive(Clone, Debug, Serialize)]
pub struct SpecComparison {
    /// Hex SHA-256 of the block's `spec.toml`.
    pub block_sha256: String,
    /// Hex SHA-256 of the reference spec.
    pub reference_sha256: String,
    /// True when the two files are byte-identical.
    pub bytes_identical: bool,
    /// The fields whose meaning differs (empty: the same game).
    pub differences: Vec<SpecDifference>,
    /// What differs in writing only, in words (a field written out with its default, a
    /// printed total): never a finding.
    pub text_only: Vec<String>,
}

impl SpecComparison {
    /// True when the two specs describe the same game, field by field.
    pub fn same_meaning(&self) -> bool {
        self.differences.is_empty()
    }

    /// One sentence for the report: whether the files are identical, else whether only
    /// their text differs.
    pub fn summary(&self) -> String {
        if self.bytes_identical {
            return "the block's spec.toml is byte-identical to the reference spec".into();
        }
        if self.same_meaning() {
            let mut s = format!(
                "the block's spec.toml (SHA-256 {}) is not byte-identical to the reference spec (SHA-256 {}), but every field has the same value: only comments, spacing, order or how numbers are written (2 or 2.00) differ",
                self.block_sha256, self.reference_sha256
            );
            for t in &self.text_only {
                s.push_str("; ");
                s.push_str(t);
            }
            return s;
        }
        format!(
            "the block's spec.toml (SHA-256 {}) differs from the reference spec (SHA-256 {}) in {} field(s)",
            self.block_sha256,
            self.reference_sha256,
            self.differences.len()
        )
    }
}

impl SpecDifference {
    /// `tiers[3].count: 12 in the block's spec.toml, 13 in the reference`.
    pub fn describe(&self) -> String {
        format!(
            "{}: {} in the block's spec.toml, {} in the reference",
            self.field, self.block, self.reference
        )
    }
}

/// Compares the block's spec copy `block` with the reference spec `reference`, field by
/// field (see the module doc).
pub fn compare(block: &GameSpec, reference: &GameSpec) -> SpecComparison {
    let mut walk = Walk::default();
    if block.sha256 != reference.sha256 {
        match (
            block.text.parse::<toml::Table>(),
            reference.text.parse::<toml::Table>(),
        ) {
            (Ok(b), Ok(r)) => walk.tables(&mut Vec::new(), &b, &r),
            // Both validated, so both parse; should one not, nothing is said equal.
            _ => walk.differ(&[], "(not TOML)".into(), "(not TOML)".into()),
        }
    }
    SpecComparison {
        block_sha256: block.sha256.clone(),
        reference_sha256: reference.sha256.clone(),
        bytes_identical: block.sha256 == reference.sha256,
        differences: walk.differences,
        text_only: walk.text_only,
    }
}

/// One step of a field's path.
#[derive(Clone, Debug)]
enum Step {
    /// A table's key.
    Key(String),
    /// An array's index.
    Index(usize),
}

/// `tiers[3].count`, `captions."20000"`.
fn path_text(path: &[Step]) -> String {
    let mut s = String::new();
    for step in path {
        match step {
            Step::Key(k) => {
                if !s.is_empty() {
                    s.push('.');
                }
                // A key that starts with a digit (an amount) is quoted, never read as an index.
                let bare = k.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                    && k.chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
                if bare {
                    s.push_str(k);
                } else {
                    s.push_str(&Value::String(k.clone()).to_string());
                }
            }
            Step::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}

/// A value as TOML, on one line.
fn show(v: &Value) -> String {
    match v {
        Value::Table(t) => {
            let items: Vec<String> = t
                .iter()
                .map(|(k, v)| format!("{} = {}", path_text(&[Step::Key(k.clone())]), show(v)))
                .collect();
            format!("{{ {} }}", items.join(", "))
        }
        Value::Array(a) => {
            let items: Vec<String> = a.iter().map(show).collect();
            format!("[{}]", items.join(", "))
        }
        other => other.to_string(),
    }
}

/// The two trees walked together.
#[derive(Default)]
struct Walk {
    differences: Vec<SpecDifference>,
    text_only: Vec<String>,
    /// The play style of the surface being walked, when both sides name the same one.
    style: Option<&'static StyleInfo>,
}

impl Walk {
    fn differ(&mut self, path: &[Step], block: String, reference: String) {
        self.differences.push(SpecDifference {
            field: path_text(path),
            block,
            reference,
        });
    }

    fn tables(&mut self, path: &mut Vec<Step>, b: &toml::Table, r: &toml::Table) {
        let mut keys: Vec<&String> = b.keys().chain(r.keys()).collect();
        keys.sort();
        keys.dedup();
        for k in keys {
            path.push(Step::Key(k.clone()));
            match (b.get(k), r.get(k)) {
                (Some(bv), Some(rv)) => self.values(path, bv, rv),
                (Some(v), None) => self.one_side(path, v, true),
                (None, Some(v)) => self.one_side(path, v, false),
                (None, None) => {}
            }
            path.pop();
        }
    }

    /// A field present in one spec only: the same meaning when it holds the default.
    fn one_side(&mut self, path: &[Step], v: &Value, in_block: bool) {
        let (field, shown) = (path_text(path), show(v));
        if let Some(why) = default_meaning(path, v, self.style) {
            let side = if in_block {
                "the block's spec.toml"
            } else {
                "the reference"
            };
            self.text_only.push(format!(
                "{field} = {shown} is written in {side} only ({why})"
            ));
            return;
        }
        let (block, reference) = if in_block {
            (shown, "absent".to_string())
        } else {
            ("absent".to_string(), shown)
        };
        self.differ(path, block, reference);
    }

    fn values(&mut self, path: &mut Vec<Step>, b: &Value, r: &Value) {
        match (b, r) {
            (Value::Table(bt), Value::Table(rt)) => {
                if let [Step::Key(k), Step::Index(_)] = path.as_slice() {
                    if k == "surfaces" {
                        self.style = match (style_of(bt), style_of(rt)) {
                            (Some(a), Some(b)) if a == b => crate::styles::style::find(a),
                            _ => None,
                        };
                    }
                }
                self.tables(path, bt, rt)
            }
            (Value::Array(ba), Value::Array(ra)) => {
                let equal = ba.len() == ra.len()
                    && ba.iter().zip(ra).all(|(b, r)| same_number_or_value(b, r));
                if ba.len() == ra.len() && !equal && same_elements(ba, ra) {
                    self.differ(
                        path,
                        format!("{} (the same entries in another order)", show(b)),
                        show(r),
                    );
                    return;
                }
                // A long array of scalars (symbols, amounts) is shown whole, once.
                let scalars = ba.iter().chain(ra).all(|v| !v.is_table() && !v.is_array());
                if scalars && !equal {
                    self.differ(path, show(b), show(r));
                    return;
                }
                for i in 0..ba.len().max(ra.len()) {
                    path.push(Step::Index(i));
                    match (ba.get(i), ra.get(i)) {
                        (Some(bv), Some(rv)) => self.values(path, bv, rv),
                        (Some(v), None) => self.differ(path, show(v), "absent".into()),
                        (None, Some(v)) => self.differ(path, "absent".into(), show(v)),
                        (None, None) => {}
                    }
                    path.pop();
                }
            }
            // A price written `1.00` in one spec and `1` in the other is the same price.
            (b, r) if same_number_or_value(b, r) => {}
            (b, r) => self.differ(path, show(b), show(r)),
        }
    }
}

/// The `style` of a surface's table.
fn style_of(t: &toml::Table) -> Option<&str> {
    t.get("style").and_then(Value::as_str)
}

/// True when `a` and `b` hold the same elements, each as many times, in some order.
fn same_elements(a: &[Value], b: &[Value]) -> bool {
    let mut left: Vec<&Value> = b.iter().collect();
    for v in a {
        match left.iter().position(|w| same_number_or_value(w, v)) {
            Some(i) => {
                left.swap_remove(i);
            }
            None => return false,
        }
    }
    left.is_empty()
}

/// Equal as values, an integer and a float of the same number included (`0` and `0.0`).
fn same_number_or_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Integer(i), Value::Float(f)) | (Value::Float(f), Value::Integer(i)) => {
            (*i as f64) == *f
        }
        _ => a == b,
    }
}

/// Why a field left out on one side means the same as `v` on the other, or `None`.
fn default_meaning(path: &[Step], v: &Value, style: Option<&'static StyleInfo>) -> Option<String> {
    let keys: Vec<&str> = path
        .iter()
        .filter_map(|s| match s {
            Step::Key(k) => Some(k.as_str()),
            Step::Index(_) => None,
        })
        .collect();
    let empty = match v {
        Value::Array(a) => a.is_empty(),
        Value::Table(t) => t.is_empty(),
        _ => false,
    };
    let fixed: Option<Value> = match keys.as_slice() {
        ["game", "mechanic"] => Some(Value::String("styles".into())),
        ["game", "emission"] => Some(Value::Integer(1)),
        ["game", "language"] => Some(Value::String("fr".into())),
        ["game", "reconstructed"] => Some(Value::Boolean(false)),
        ["tiers", "combined_only"] => Some(Value::Boolean(false)),
        ["tiers", "total"] => return Some("a printed total, held to count × amount".into()),
        ["tiers", "odds"] | ["published", "odds"] => {
            return Some("printed odds, held to the counts".into())
        }
        ["published", "odds_rounding"] => Some(Value::String("nearest".into())),
        ["packs"] | ["labels"] | ["surfaces"] if empty => {
            return Some("empty, as when left out".into())
        }
        ["packs", "max_from_tier"] | ["packs", "max_per_carton"] if empty => {
            return Some("empty, as when left out".into())
        }
        ["surfaces", rest @ ..] if !rest.is_empty() => {
            return surface_default(style?, &rest.join("."), v)
        }
        _ => None,
    };
    fixed
        .filter(|d| same_number_or_value(d, v))
        .map(|d| format!("its default is {}", show(&d)))
}

/// Why a surface parameter `name` (`near_miss`, `games.near_miss`) left out means `v`: its
/// style's documented default, when that default is a plain TOML value.
fn surface_default(style: &StyleInfo, name: &str, v: &Value) -> Option<String> {
    let text = style.params.iter().find(|p| p.name == name)?.default?;
    let d = format!("v = {text}")
        .parse::<toml::Table>()
        .ok()?
        .remove("v")?;
    // A template (`"{id}_"`, `"near_miss_<id>"`) is no value of its own.
    if d.as_str().is_some_and(|s| s.contains(['{', '<'])) || !same_number_or_value(&d, v) {
        return None;
    }
    Some(format!("the {} style's default is {text}", style.name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    const SMALL: &str = include_str!("../../tests/specs/coq_small.toml");

    fn spec(text: &str) -> GameSpec {
        GameSpec::parse(Path::new("spec.toml"), text.to_string()).unwrap()
    }

    #[test]
    fn the_same_file_is_byte_identical() {
        let c = compare(&spec(SMALL), &spec(SMALL));
        assert!(c.bytes_identical && c.same_meaning() && c.text_only.is_empty());
        assert_eq!(
            c.summary(),
            "the block's spec.toml is byte-identical to the reference spec"
        );
    }

    #[test]
    fn comments_spacing_and_order_are_text_only() {
        // A comment added, spacing changed, a key moved within its table, an inline table,
        // amounts written with cents (`2.00` is `2`).
        let edited = SMALL
            .replacen(
                "[game]\n",
                "# approved by the regulator\npublished = { payout = 25294, lots = 919 }\n[game]\n",
                1,
            )
            .replacen("price = 2 ", "price    =    2.00 ", 1)
            .replacen("amounts = [2, 4, 8,", "amounts = [2.0, 4, 8.00,", 1)
            .replacen("emission = 1\n", "", 1)
            .replacen("id = \"coq\"\n", "emission = 1\nid = \"coq\"\n", 1)
            .replacen(
                "[published]               # art. 3, last line of the lot table\nlots = 919\npayout = 25_294\n",
                "",
                1,
            );
        let (b, r) = (spec(&edited), spec(SMALL));
        assert_ne!(b.sha256, r.sha256);
        let c = compare(&b, &r);
        assert!(!c.bytes_identical);
        assert_eq!(c.differences, vec![]);
        assert_eq!(c.text_only, Vec::<String>::new());
        assert!(c
            .summary()
            .contains("not byte-identical to the reference spec"));
        assert!(c.summary().contains(
            "only comments, spacing, order or how numbers are written (2 or 2.00) differ"
        ));
    }

    #[test]
    fn a_default_written_out_is_text_only() {
        let edited = SMALL
            .replacen("emission = 1\n", "", 1)
            .replacen(
                "near_miss = 0.30 ",
                "multiplied = true\nnear_miss = 0.30 ",
                1,
            )
            .replacen(
                "amount = 2\ncount = 432\n",
                "amount = 2\ncount = 432\ntotal = 864\nodds = \"1 in 6.94\"\ncombined_only = false\n",
                1,
            );
        let c = compare(&spec(&edited), &spec(SMALL));
        assert_eq!(c.differences, vec![]);
        assert_eq!(
            c.text_only,
            vec![
                "game.emission = 1 is written in the reference only (its default is 1)",
                "surfaces[0].games[0].multiplied = true is written in the block's spec.toml only (the match_symbols style's default is true)",
                "tiers[7].combined_only = false is written in the block's spec.toml only (its default is false)",
                "tiers[7].odds = \"1 in 6.94\" is written in the block's spec.toml only (printed odds, held to the counts)",
                "tiers[7].total = 864 is written in the block's spec.toml only (a printed total, held to count × amount)",
            ]
        );
    }

    #[test]
    fn a_changed_lot_table_names_each_field_and_both_values() {
        let edited = SMALL
            .replacen(
                "lots = 919\npayout = 25_294",
                "lots = 918\npayout = 25_292",
                1,
            )
            .replacen(
                "amount = 2\ncount = 432\n[[tiers.ways]]\nid = \"2\"\ncount = 432",
                "amount = 2\ncount = 431\n[[tiers.ways]]\nid = \"2\"\ncount = 431",
                1,
            )
            .replacen("near_miss = 0.30 ", "near_miss = 0.25 ", 1);
        let c = compare(&spec(&edited), &spec(SMALL));
        let said: Vec<String> = c.differences.iter().map(SpecDifference::describe).collect();
        assert_eq!(
            said,
            vec![
                "published.lots: 918 in the block's spec.toml, 919 in the reference",
                "published.payout: 25292 in the block's spec.toml, 25294 in the reference",
                "surfaces[0].games[0].near_miss: 0.25 in the block's spec.toml, 0.3 in the reference",
                "tiers[7].count: 431 in the block's spec.toml, 432 in the reference",
                "tiers[7].ways[0].count: 431 in the block's spec.toml, 432 in the reference",
            ]
        );
        assert!(!c.same_meaning());
        assert!(c.summary().contains("in 5 field(s)"));
    }

    #[test]
    fn a_field_in_one_spec_only_and_a_reordered_array_are_differences() {
        let edited = SMALL
            .replacen("[published]", "[packs]\nmin_winners = 1\n\n[published]", 1)
            .replacen("\"2\" = \"DEUX EUROS\"", "\"2\" = \"DEUX EURO\"", 1)
            .replacen(
                "winning = [\"COQ\"]",
                "winning = [\"COQ\"]\nnear_miss_feature = \"single_coq\"",
                1,
            )
            .replacen(
                "winning = [\"SANTE\", \"AMOUR\"",
                "winning = [\"AMOUR\", \"SANTE\"",
                1,
            );
        let c = compare(&spec(&edited), &spec(SMALL));
        let said: Vec<String> = c.differences.iter().map(SpecDifference::describe).collect();
        assert_eq!(
            said,
            vec![
                "captions.\"2\": \"DEUX EURO\" in the block's spec.toml, \"DEUX EUROS\" in the reference",
                "packs: { min_winners = 1 } in the block's spec.toml, absent in the reference",
                "surfaces[0].games[0].near_miss_feature: \"single_coq\" in the block's spec.toml, absent in the reference",
                "surfaces[0].games[1].winning: [\"AMOUR\", \"SANTE\", \"BONHEUR\", \"JOIE\", \"PAIX\", \"REUSSITE\", \"FORTUNE\", \"PROSPERITE\"] (the same entries in another order) in the block's spec.toml, [\"SANTE\", \"AMOUR\", \"BONHEUR\", \"JOIE\", \"PAIX\", \"REUSSITE\", \"FORTUNE\", \"PROSPERITE\"] in the reference",
            ]
        );
    }
}
