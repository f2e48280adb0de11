//! Game specs: the TOML file a game team writes (`game_specs/<game>.toml`), parsed
//! ([`raw`]) and validated into a [`GameSpec`] that the rest of tirage trusts.
//!
//! Validation checks what the décret n°78-1067 and the game's règlement make binding:
//! the lot table adds up to the published totals, every tier is split into ways whose
//! counts sum to the tier, every way's wins add up to its tier, tiers the règlement says
//! are reachable only by adding several play areas have no single-area way, every amount a
//! face can show has exactly one caption and no two amounts share one, and a caption in
//! number words says its amount, naming no currency but the game's. The game then
//! checks what only it knows (areas, symbols, feasibility). Every error names the file,
//! the field and, where the parser gives it, the line; the CLI exits 2 on it.

mod amount_words;
mod confusable;
pub mod error;
pub mod odds;
pub mod raw;
pub mod words;

use crate::language::Language;
pub use crate::lots::{Way, WayId, Win, FORMULA_START, LOSE};
use crate::money::Money;
pub use crate::spec::error::{ErrorAt, SpecError};
use crate::styles::game::Game;
use crate::styles::{self, multiply, AreaWin, MAX_WINS};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

/// Every float literal of a TOML document (`4.5`, `0.30`, `1e3`), with its byte span and
/// value, collected through [`toml::Spanned`] at every depth.
enum Floats {
    /// The value itself is a float.
    One(f64),
    /// The floats inside a table or an array (none for any other value).
    Inner(Vec<(std::ops::Range<usize>, f64)>),
}

impl<'de> serde::Deserialize<'de> for Floats {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Floats, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Floats;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any TOML value")
            }
            fn visit_f64<E>(self, v: f64) -> Result<Floats, E> {
                Ok(Floats::One(v))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Floats, E> {
                Ok(Floats::Inner(Vec::new()))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Floats, E> {
                Ok(Floats::Inner(Vec::new()))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Floats, E> {
                Ok(Floats::Inner(Vec::new()))
            }
            fn visit_str<E>(self, _: &str) -> Result<Floats, E> {
                Ok(Floats::Inner(Vec::new()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<Floats, A::Error> {
                let mut all = Vec::new();
                while let Some(v) = a.next_element::<toml::Spanned<Floats>>()? {
                    Floats::gather(v, &mut all);
                }
                Ok(Floats::Inner(all))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Floats, A::Error> {
                let mut all = Vec::new();
                while a.next_key::<serde::de::IgnoredAny>()?.is_some() {
                    Floats::gather(a.next_value::<toml::Spanned<Floats>>()?, &mut all);
                }
                Ok(Floats::Inner(all))
            }
        }
        d.deserialize_any(V)
    }
}

impl Floats {
    fn gather(v: toml::Spanned<Floats>, all: &mut Vec<(std::ops::Range<usize>, f64)>) {
        let span = v.span();
        match v.into_inner() {
            Floats::One(x) => all.push((span, x)),
            Floats::Inner(inner) => all.extend(inner),
        }
    }
}

/// A decimal literal (`+4_000.50`, `1e3`, `0.300`) as its significant digits and the power
/// of ten of the last one (`("4", 0)` for `4.00` and `("4", 3)` for `4e3`); `None` when it
/// is not one (`inf`, `nan`). Zero is `("", 0)`.
fn decimal(text: &str) -> Option<(String, i64)> {
    let t: String = text.chars().filter(|&c| c != '_').collect();
    let t = t.trim_start_matches(['+', '-']);
    let (mantissa, exp) = match t.find(['e', 'E']) {
        Some(i) => (&t[..i], t[i + 1..].parse::<i64>().ok()?),
        None => (t, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int.is_empty() || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digits = format!("{int}{frac}");
    let mut exp = exp.checked_sub(i64::try_from(frac.len()).ok()?)?;
    let digits = digits.trim_start_matches('0');
    let kept = digits.trim_end_matches('0');
    exp = exp.checked_add(i64::try_from(digits.len() - kept.len()).ok()?)?;
    Some(if kept.is_empty() {
        (String::new(), 0)
    } else {
        (kept.to_string(), exp)
    })
}

/// The first float literal of `text` (a TOML spec) that a 64-bit float does not hold
/// exactly as written (`0.30000000000000001`, 17 significant digits: it reads as `0.3`),
/// with its span. An amount written as a bare decimal is read through its float's shortest
/// form ([`Money`]'s deserializer), so this check is what makes it exact. `None` for text
/// that is not valid TOML (the loader reports that).
fn inexact_float(text: &str) -> Option<(std::ops::Range<usize>, String)> {
    let Ok(Floats::Inner(all)) = toml::from_str::<Floats>(text) else {
        return None;
    };
    all.into_iter().find_map(|(span, v)| {
        let literal = text.get(span.clone())?.trim();
        let exact = match decimal(literal) {
            Some(d) => decimal(&format!("{v}")) == Some(d),
            None => true,
        };
        (!exact).then(|| (span, literal.to_string()))
    })
}

/// The first character TOML allows nowhere in a file (a control character other than tab,
/// newline and carriage return, even inside a string), with its byte offset.
fn forbidden_char(text: &str) -> Option<(usize, char)> {
    text.char_indices()
        .find(|&(_, c)| (c.is_control() && !matches!(c, '\t' | '\n' | '\r')) || c == '\u{7f}')
}

/// One row of the lot table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tier {
    /// The lot amount, in cents.
    pub amount: Money,
    /// Number of lots of this amount per block.
    pub count: u32,
    /// True when the règlement says this amount is reachable only by adding several wins.
    pub combined_only: bool,
    /// Indices of this tier's ways in [`GameSpec::ways`].
    pub ways: Vec<WayId>,
    /// `item`: the prize when it is not money (`FREE TICKET`), as printed; `amount` is then
    /// its stated value. `None` for a cash prize.
    pub item: Option<String>,
}

/// Pack-level constraints (`[packs]`): allocation honours them exactly (see `docs/FORMAT.md`,
/// "Pack constraints": every arrangement that meets them is equally likely); verify checks
/// them on the evaluated block. Amounts are lot amounts (a tier's amount); a "full pack" is
/// one of `pack_size` tickets (the block's last pack may be short); cartons are runs of
/// `carton_size` consecutive packs (the last may be short).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PackRules {
    /// Every full pack holds at least this many winning tickets.
    pub min_winners: Option<u32>,
    /// Every full pack pays at least this much (the sum of its lots).
    pub min_payout: Option<Money>,
    /// `(amount, count)`: at most `count` tickets of a tier ≥ `amount` per pack.
    pub max_from_tier: Vec<(Money, u32)>,
    /// Packs per carton (needed by `max_per_carton`).
    pub carton_size: Option<u32>,
    /// `(amount, count)`: at most `count` tickets of a tier ≥ `amount` per carton.
    pub max_per_carton: Vec<(Money, u32)>,
    /// No pack shows more than this many losing tickets in a row (print order).
    pub max_losers_in_a_row: Option<u32>,
}

/// One constraint of [`PackRules`], named as in the spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PackConstraint {
    /// `packs.min_winners`.
    MinWinners,
    /// `packs.min_payout`.
    MinPayout,
    /// `packs.max_from_tier[i]`.
    MaxFromTier(usize),
    /// `packs.max_per_carton[i]`.
    MaxPerCarton(usize),
    /// `packs.max_losers_in_a_row`.
    MaxLosersInARow,
}

impl PackConstraint {
    /// The spec field, e.g. `packs.max_from_tier[0]`.
    pub fn field(self) -> String {
        match self {
            PackConstraint::MinWinners => "packs.min_winners".into(),
            PackConstraint::MinPayout => "packs.min_payout".into(),
            PackConstraint::MaxFromTier(i) => format!("packs.max_from_tier[{i}]"),
            PackConstraint::MaxPerCarton(i) => format!("packs.max_per_carton[{i}]"),
            PackConstraint::MaxLosersInARow => "packs.max_losers_in_a_row".into(),
        }
    }
}

/// A constraint broken on a block: which one, where (`pack 3`, `carton 2`) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackBreach {
    /// The constraint.
    pub constraint: PackConstraint,
    /// `pack N` or `carton N` (1-based).
    pub place: String,
    /// What was found and what was required.
    pub what: String,
}

impl PackRules {
    /// True when there is no constraint.
    pub fn is_empty(&self) -> bool {
        self.constraints().is_empty()
    }

    /// Every constraint in force, in spec order.
    pub fn constraints(&self) -> Vec<PackConstraint> {
        let mut v = Vec::new();
        if self.min_winners.is_some() {
            v.push(PackConstraint::MinWinners);
        }
        if self.min_payout.is_some() {
            v.push(PackConstraint::MinPayout);
        }
        v.extend((0..self.max_from_tier.len()).map(PackConstraint::MaxFromTier));
        v.extend((0..self.max_per_carton.len()).map(PackConstraint::MaxPerCarton));
        if self.max_losers_in_a_row.is_some() {
            v.push(PackConstraint::MaxLosersInARow);
        }
        v
    }

    /// One constraint in words, its amounts as the lot table writes them (`1000`), as the
    /// manifest records it. Panics if `c` is not one of [`Self::constraints`].
    pub fn describe_one(&self, c: PackConstraint) -> String {
        self.worded(c, &|m: Money| m.to_string())
    }

    /// One constraint in words, its amounts with the currency (`1,000 EUR`), as `check`
    /// prints money. Panics if `c` is not one of [`Self::constraints`].
    pub fn describe_one_in(&self, c: PackConstraint, currency: &str) -> String {
        self.worded(c, &|m: Money| m.with_currency(currency))
    }

    /// One constraint in words, each amount written by `money`.
    fn worded(&self, c: PackConstraint, money: &dyn Fn(Money) -> String) -> String {
        match c {
            PackConstraint::MinWinners => format!(
                "every full pack holds at least {} winning tickets",
                self.min_winners.unwrap()
            ),
            PackConstraint::MinPayout => {
                format!(
                    "every full pack pays at least {}",
                    money(self.min_payout.unwrap())
                )
            }
            PackConstraint::MaxFromTier(i) => {
                let (m, c) = self.max_from_tier[i];
                format!(
                    "at most {c} ticket(s) of a tier of {} or more per pack",
                    money(m)
                )
            }
            PackConstraint::MaxPerCarton(i) => {
                let (m, c) = self.max_per_carton[i];
                format!(
                    "at most {c} ticket(s) of a tier of {} or more per carton of {} packs",
                    money(m),
                    self.carton_size.unwrap_or(1)
                )
            }
            PackConstraint::MaxLosersInARow => format!(
                "no pack shows more than {} losing tickets in a row",
                self.max_losers_in_a_row.unwrap()
            ),
        }
    }

    /// One line per constraint, for reports and the manifest.
    pub fn describe(&self) -> Vec<String> {
        self.constraints()
            .into_iter()
            .map(|c| self.describe_one(c))
            .collect()
    }

    /// Every breach of the constraints by a block of `spec` whose ways by position are
    /// `ways` (print order): per pack in pack order, then per carton.
    pub fn breaches(&self, spec: &GameSpec, ways: &[WayId]) -> Vec<PackBreach> {
        let ps = spec.pack_size.max(1) as usize;
        let mut out = Vec::new();
        let cs = self.carton_size.unwrap_or(1).max(1) as usize;
        let mut carton = vec![0u32; self.max_per_carton.len()];
        let packs = ways.len().div_ceil(ps);
        for (p, pack) in ways.chunks(ps).enumerate() {
            let place = format!("pack {}", p + 1);
            let full = pack.len() == ps;
            let mut winners = 0u32;
            let mut payout = 0u64;
            let mut from = vec![0u32; self.max_from_tier.len()];
            let (mut run, mut longest) = (0u32, 0u32);
            for &w in pack {
                let amount = spec.ways[w as usize].amount;
                if w == 0 {
                    run += 1;
                    longest = longest.max(run);
                    continue;
                }
                run = 0;
                winners += 1;
                payout = payout.saturating_add(amount.cents());
                for (k, (m, _)) in self.max_from_tier.iter().enumerate() {
                    from[k] += u32::from(amount >= *m);
                }
                for (k, (m, _)) in self.max_per_carton.iter().enumerate() {
                    carton[k] += u32::from(amount >= *m);
                }
            }
            let mut breach = |constraint, what| {
                out.push(PackBreach {
                    constraint,
                    place: place.clone(),
                    what,
                })
            };
            if let Some(k) = self.min_winners.filter(|&k| full && winners < k) {
                breach(
                    PackConstraint::MinWinners,
                    format!("{winners} winning tickets, at least {k} required"),
                );
            }
            if let Some(m) = self.min_payout.filter(|m| full && payout < m.cents()) {
                breach(
                    PackConstraint::MinPayout,
                    format!("pays {}, at least {m} required", Money(payout)),
                );
            }
            for (k, &(m, c)) in self.max_from_tier.iter().enumerate() {
                if from[k] > c {
                    breach(
                        PackConstraint::MaxFromTier(k),
                        format!("{} tickets of {m} or more, at most {c} allowed", from[k]),
                    );
                }
            }
            if let Some(l) = self.max_losers_in_a_row.filter(|&l| longest > l) {
                breach(
                    PackConstraint::MaxLosersInARow,
                    format!("{longest} losing tickets in a row, at most {l} allowed"),
                );
            }
            if (p + 1) % cs == 0 || p + 1 == packs {
                for (k, &(m, c)) in self.max_per_carton.iter().enumerate() {
                    if carton[k] > c {
                        out.push(PackBreach {
                            constraint: PackConstraint::MaxPerCarton(k),
                            place: format!("carton {}", p / cs + 1),
                            what: format!(
                                "{} tickets of {m} or more, at most {c} allowed",
                                carton[k]
                            ),
                        });
                    }
                    carton[k] = 0;
                }
            }
        }
        out
    }
}

/// The most tickets a block may hold (`game.block_size`): generating or verifying a block
/// holds a few tens of bytes per ticket in memory (its allocation, its validation claims),
/// so that a block of this size stays within 256 MiB. A larger print run is an emission of
/// several blocks.
pub const MAX_BLOCK_TICKETS: u32 = 5_000_000;

/// Digits of the pack and the position together in a ticket's serial (digits 11 to 19;
/// the block's serial module writes them).
pub const PLACE_DIGITS: usize = 9;

/// Digits of the position field for packs of `pack_size` tickets: 3 up to 999 tickets,
/// else the number of digits of `pack_size` (4 for a box of 4 000). The pack field has
/// the other `9 -` this many digits.
pub fn position_digits(pack_size: u32) -> usize {
    (pack_size.max(1).ilog10() as usize + 1).max(3)
}

/// The most packs a block may hold with packs of `pack_size` tickets: the largest number
/// the pack field writes (999 999 for packs of at most 999 tickets, 99 999 for packs of
/// 1 000 to 9 999), or 0 when the position takes all 9 digits.
pub fn max_packs(pack_size: u32) -> u64 {
    10u64.pow((PLACE_DIGITS - position_digits(pack_size).min(PLACE_DIGITS)) as u32) - 1
}

/// A validated game spec: everything needed to generate and verify blocks of one game.
pub struct GameSpec {
    /// Short id (`coq`), used in paths and files.
    pub id: String,
    /// The game's name as published.
    pub name: String,
    /// Where the rule text was published (Journal officiel reference).
    pub legal_reference: String,
    /// Free note, e.g. that the lot table is a reconstruction.
    pub note: Option<String>,
    /// True when the lot table is a reconstruction rather than the published table.
    pub reconstructed: bool,
    /// ISO 4217 code of the currency.
    pub currency: String,
    /// `[game] language`: the language the ticket is printed in, which proofs write their
    /// notes and amounts in (default French).
    pub language: Language,
    /// Price of one ticket, in cents.
    pub price: Money,
    /// Tickets per block.
    pub block_size: u32,
    /// Tickets per pack ("carnet").
    pub pack_size: u32,
    /// The operator's game code (0..=9999), first digits of every serial.
    pub game_code: u16,
    /// Emission number (0..=999).
    pub emission: u16,
    /// Pack-level constraints (none by default).
    pub pack_rules: PackRules,
    /// The lot table, in the spec's order.
    pub tiers: Vec<Tier>,
    /// Every way; index 0 is the losing way (`lose`).
    pub ways: Vec<Way>,
    /// Caption (amount in letters) of every amount a face can show, in cents.
    pub captions: BTreeMap<Money, String>,
    /// `[labels]`: printed name of a panel or play area by its id (see [`GameSpec::label`]).
    pub labels: BTreeMap<String, String>,
    /// Published totals per block: number of lots and payout in cents.
    pub published_lots: u64,
    /// Published payout per block, in cents.
    pub published_payout: Money,
    /// The ticket's game: its surfaces, their styles and every way planned, which builds
    /// and judges faces.
    pub game: Game,
    /// `[signing] public_key`: the operator's minisign public key (the key line of its
    /// `KEY.pub`, `RW…`), when the spec pins it: `generate` signs only with that key, and
    /// `verify --spec` holds the signature to it whatever `--signer` says.
    pub signing_key: Option<String>,
    /// The spec file's exact text (copied into every block).
    pub text: String,
    /// Hex SHA-256 of `text`.
    pub sha256: String,
    /// Where the spec was read from.
    pub path: PathBuf,
}

impl fmt::Debug for GameSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GameSpec")
            .field("id", &self.id)
            .field("block_size", &self.block_size)
            .finish_non_exhaustive()
    }
}

/// Longest caption, in bytes (print-file strings carry a 16-bit length; a caption is short).
pub const MAX_TEXT: usize = 200;

/// The most characters a game's published name (`game.name`) may have: it is printed on
/// one line of every proof's header.
pub const MAX_NAME: usize = 80;

/// The most characters a game's legal reference (`game.legal_reference`) may have: it is
/// printed on the proofs' cover, the preview page and the audit report.
pub const MAX_REFERENCE: usize = 300;

/// The largest spec file read, 4 MiB (a spec is a few kilobytes); a larger one is refused
/// ("larger than 4 MiB"), as game_specs/README.md says.
pub const MAX_SPEC_BYTES: u64 = 4 << 20;

/// True when one of the first lines of `text` is a secret's as tirage, minisign or age
/// write it: 64 hex digits alone (`tirage seed new`: a seed, a seed share, a validation
/// key), a minisign secret key's comment (`tirage keygen`) or an age identity
/// (`AGE-SECRET-KEY-1…`, `age-keygen`).
fn looks_like_a_secret(text: &str) -> bool {
    text.lines().take(5).map(str::trim).any(|l| {
        (l.len() == 64 && l.bytes().all(|b| b.is_ascii_hexdigit()))
            || l.starts_with("AGE-SECRET-KEY-")
            || (l.starts_with("untrusted comment:") && l.contains("secret key"))
    })
}

impl GameSpec {
    /// Reads and validates the spec at `path`. Errors: the file cannot be read, is not
    /// valid TOML, has unknown or missing fields, or breaks a rule listed in the module doc.
    pub fn load(path: &Path) -> Result<GameSpec, SpecError> {
        let cannot = |message: String| SpecError {
            file: path.to_path_buf(),
            line: None,
            field: String::new(),
            message,
        };
        // Never waits on a FIFO, never reads a huge file whole.
        let bytes = crate::store::regular::read_regular(path, MAX_SPEC_BYTES).map_err(|e| {
            if e.kind() == std::io::ErrorKind::InvalidData {
                cannot(format!(
                    "cannot read the spec: it is larger than {} MiB, the most a spec may hold (a spec is a few kilobytes: is this the right file?)",
                    MAX_SPEC_BYTES >> 20
                ))
            } else {
                cannot(format!("cannot read the spec: {e}"))
            }
        })?;
        let text = String::from_utf8(bytes).map_err(|e| {
            cannot(format!(
                "cannot read the spec: not UTF-8 text (byte {} is not)",
                e.utf8_error().valid_up_to() + 1
            ))
        })?;
        GameSpec::parse(path, text)
    }

    /// Validates a spec given as text; `path` is used in error messages only.
    pub fn parse(path: &Path, text: String) -> Result<GameSpec, SpecError> {
        let at = ErrorAt::new(path, &text);
        // A secret given by mistake is named as such, and none of it is quoted back.
        if looks_like_a_secret(&text) {
            return Err(at.at(
                None,
                "",
                "this looks like a secret key, not a game spec (a seed, share or validation key, a minisign secret key or an age identity): give the game's TOML spec; nothing of the file is printed",
            ));
        }
        if let Some((offset, c)) = forbidden_char(&text) {
            return Err(at.at(
                Some(offset),
                at.field_at(offset),
                format!(
                    "a control character {} (U+{:04X}) is not allowed in a spec: TOML allows tab, newline and carriage return only (write it escaped inside a string)",
                    c.escape_default(),
                    u32::from(c)
                ),
            ));
        }
        // Bare decimals (`price = 0.5`, `amounts = [2, 4.5]`) are read through their float:
        // exact only when the float holds every digit written.
        if let Some((span, literal)) = inexact_float(&text) {
            return Err(at.at(
                Some(span.start),
                at.field_at(span.start),
                format!(
                    "{literal} has more significant digits than a number keeps (15): write it shorter (an amount has at most 2 decimals)"
                ),
            ));
        }
        let raw: raw::RawSpec = toml::from_str(&text).map_err(|e| {
            if let Some(e) = missing_game_header(&text, &at) {
                return e;
            }
            if let Some(e) = unknown_table_header(&text, &at) {
                return e;
            }
            if let Some(e) = dotted_table(&text, &at) {
                return e;
            }
            let mut msg = styles::style::plain_types(e.message().trim());
            if msg.is_empty() {
                msg = "not valid TOML here".into();
            }
            let start = e.span().map(|s| s.start);
            if msg.starts_with("number too large") || msg.starts_with("number too small") {
                if let Some(o) = start {
                    msg = beyond_toml(path, &text, o);
                }
            }
            // A huge number quoted back in full (1e300 as 301 digits) says nothing more.
            if msg.len() > 240 {
                let cut = (0..=240)
                    .rev()
                    .find(|&i| msg.is_char_boundary(i))
                    .unwrap_or(0);
                msg.truncate(cut);
                msg.push('…');
            }
            // An array left open (`wins = [100` and a newline): the parser stops at the next
            // line that cannot go on it; the array's own line is the one to mend.
            let (mut start, mut msg) = (start, msg);
            // Only where the parser stopped on the syntax: at an array, or at the table
            // header an open array ran into (a value's type error inside a well-closed
            // array is the value's).
            let on_header = start.is_some_and(|o| line_at(&text, o).trim_start().starts_with('['));
            let syntax = msg.starts_with("invalid array") || on_header;
            if let Some((open, closed)) = start
                .filter(|_| syntax)
                .and_then(|o| open_array(&text, o))
            {
                msg = if closed > text.lines().count() {
                    "the array opened here runs to the end of the file: its closing `]` is missing".into()
                } else {
                    format!("the array opened here runs into line {closed}: a `,` between two of its values, or its closing `]`, is missing")
                };
                start = Some(open);
            }
            // `[surfaces.games]` and `[[surfaces.games]]` in one spec: the parser stops at
            // the second as a duplicate key; the one-bracket line is the one to mend.
            if msg.contains("duplicate key") {
                if let Some((o, m)) = start.and_then(|o| one_bracket_duplicate(&text, o)) {
                    (start, msg) = (Some(o), m);
                }
            }
            let mut field = start.map_or(String::new(), |o| at.field_at(o));
            // A key with no `=` after it (`price 1`): the parser names no field.
            if msg == "expected `.`, `=`" {
                if let Some(key) = start.and_then(|o| bare_key(&text, o)) {
                    field = at.field_at_key(start.unwrap_or(0), key);
                    msg = format!("expected `=` between the key {key} and its value");
                }
            }
            // A dotted key [`dotted_table`] could not read (`"pub\u006cished".lots`):
            // the parser's own words about it name nothing a spec's author wrote.
            if msg.contains("expected a borrowed string") {
                msg = "tirage does not read a table written as dotted keys: write the table's header ([published]), then each of its keys on a line of its own".into();
            }
            if msg.starts_with("invalid type: map, expected a list") {
                if let Some(m) = start.and_then(|o| one_bracket_list(line_at(&text, o))) {
                    msg = m;
                }
            }
            at.at(start, field, msg)
        })?;
        check_items(&raw, &at)?;
        check_special_texts(&raw, &at)?;
        check_card_words(&raw, &at)?;
        check_caption_count(&raw, &at)?;
        let mut game = build_game(&raw, &at)?;
        game.show_items(&raw_items(&raw).collect::<Vec<_>>());
        check_area_names(&raw, &game.layout().areas, &at)?;
        caption_symbols(&raw, &mut game, &at)?;
        confusable::check(&raw, &game, &at)?;
        let labels = labels(&raw, &game, &at)?;
        let mut spec = validate_common(&raw, &at, game)?;
        spec.labels = labels;
        let areas = spec.game.layout().areas.to_vec();
        resolve_areas(&mut spec.ways, &raw, &areas);
        validate_against_game(&spec, &raw, &at)?;
        let multiplied_only = spec
            .tiers
            .iter()
            .filter(|t| t.combined_only)
            .flat_map(|t| t.ways.iter())
            .map(|&w| &spec.ways[usize::from(w)])
            .filter(|w| w.wins.len() < 2)
            .map(|w| w.id.clone())
            .collect();
        spec.game.require_multiplied(multiplied_only);
        // Every way, the losing one too (a face that wins nothing must be buildable as well),
        // planned once here for every face drawn afterwards.
        spec.game.plan(&spec.ways).map_err(|e| {
            let (span, field) = match (e.way(), &e) {
                (Some(0), _) => (
                    Some(raw.surfaces.first().map_or(0, |s| s.span().start)),
                    format!("way \"{}\"", spec.ways[0].id),
                ),
                (Some(i), _) => (way_span(&raw, i), format!("way \"{}\"", spec.ways[i].id)),
                (None, styles::game::PlanError::Settings { surface, .. }) => (
                    raw.surfaces.get(*surface).map(|s| s.span().start),
                    format!("surfaces[{surface}]"),
                ),
                (None, _) => (None, "game".to_string()),
            };
            at.at(span, field, e.to_string())
        })?;
        spec.sha256 = hex::encode(Sha256::digest(text.as_bytes()));
        spec.path = path.to_path_buf();
        spec.text = text;
        Ok(spec)
    }

    /// Surface `i`'s style built again from the spec's own text as a concrete type, by
    /// `build` (a style's constructor from its surface table, the `style`, `id` and `max`
    /// keys removed): for tests and benchmarks that need a style's own methods, which the
    /// game's surfaces do not expose. Errors: those of `build`, or no surface `i` (a
    /// [`styles::style::FieldError`] about the surface as a whole).
    pub fn surface_style<T>(
        &self,
        i: usize,
        build: impl FnOnce(
            toml::Table,
            &styles::style::StyleCtx,
        ) -> Result<T, styles::style::FieldError>,
    ) -> Result<T, styles::style::FieldError> {
        let missing = || styles::style::FieldError::new("", format!("the spec has no surface {i}"));
        let doc: toml::Table = toml::from_str(&self.text)
            .map_err(|e| styles::style::FieldError::new("", e.message().to_string()))?;
        let mut table = doc
            .get("surfaces")
            .and_then(|s| s.as_array())
            .and_then(|s| s.get(i))
            .and_then(|s| s.as_table())
            .cloned()
            .ok_or_else(missing)?;
        let surface = self.game.surfaces().get(i).ok_or_else(missing)?;
        for key in ["style", "id", "max", "multiply", "reads"] {
            table.remove(key);
        }
        let captions = styles::Captions {
            amounts: self.captions.keys().copied().collect(),
            texts: self.captions.values().cloned().collect(),
        };
        let tier_amounts: Vec<Money> = self.tiers.iter().map(|t| t.amount).collect();
        let way_ids: Vec<String> = self.ways[1..].iter().map(|w| w.id.clone()).collect();
        let ctx = styles::style::StyleCtx {
            id: &surface.id,
            captions: &captions,
            labels: &self.labels,
            tier_amounts: &tier_amounts,
            way_ids: &way_ids,
            max: surface.max,
            reads: surface.reads().map(|e| &self.game.shared()[e]),
        };
        build(table, &ctx)
    }

    /// The printed name of panel or play area `id` (`[labels]`), or `id` itself when the
    /// spec gives none.
    pub fn label<'a>(&'a self, id: &'a str) -> &'a str {
        self.labels.get(id).map_or(id, String::as_str)
    }

    /// Number of packs in a block (the last may be short).
    pub fn packs(&self) -> u32 {
        self.block_size.div_ceil(self.pack_size)
    }

    /// Total number of lots (winning tickets) per block.
    pub fn lots(&self) -> u64 {
        self.tiers.iter().map(|t| u64::from(t.count)).sum()
    }

    /// The item of the tier of `amount` when its prize is not money (`FREE TICKET`).
    pub fn item(&self, amount: Money) -> Option<&str> {
        self.tiers
            .iter()
            .find(|t| t.amount == amount)
            .and_then(|t| t.item.as_deref())
    }

    /// True when a tier's prize is not money.
    pub fn has_items(&self) -> bool {
        self.tiers.iter().any(|t| t.item.is_some())
    }

    /// The payout in cash per block, in cents: the lot table without its items.
    pub fn cash_payout(&self) -> Money {
        Money(
            self.tiers
                .iter()
                .filter(|t| t.item.is_none())
                .map(|t| t.amount.cents() * u64::from(t.count))
                .sum(),
        )
    }

    /// The stated value of the block's prizes that are not money, in cents.
    pub fn item_value(&self) -> Money {
        Money(self.payout().cents() - self.cash_payout().cents())
    }

    /// Total payout per block, in cents: cash and items at their stated value (the lot
    /// table's total, as `[published] payout` gives it).
    pub fn payout(&self) -> Money {
        Money(
            self.tiers
                .iter()
                .map(|t| t.amount.cents() * u64::from(t.count))
                .sum(),
        )
    }

    /// The block's sales, in cents: its price times its tickets (checked at load to fit in
    /// 64 bits).
    pub fn sales(&self) -> Money {
        Money(self.price.cents() * u64::from(self.block_size))
    }

    /// A warning about `[game] price`, at its line, when the lot table ([`Self::payout`])
    /// pays more than the block's sales ([`Self::sales`]), giving both and the payout
    /// ratio; `None` when it pays at most its sales. No published game pays out more than
    /// it sells (a price typed wrong does: `price = 0.5` for 2), but a block scaled down for
    /// tests that keeps every tier of a published lot table does, so `check` and `preview`
    /// say it on stderr rather than refuse the spec.
    pub fn payout_above_sales(&self) -> Option<SpecError> {
        let (payout, sales) = (self.payout(), self.sales());
        if payout <= sales {
            return None;
        }
        let cur = &self.currency;
        let at = ErrorAt::new(&self.path, &self.text);
        Some(at.at(
            self.text.find("[game]"),
            "game.price",
            format!(
                "the lot table pays {} per block, more than the block's sales of {} ({} tickets at {}): a payout ratio of {:.2} %; check the price, the block size and the lot table",
                payout.with_currency(cur),
                sales.with_currency(cur),
                crate::money::grouped(u64::from(self.block_size)),
                self.price.with_currency(cur),
                100.0 * payout.cents() as f64 / sales.cents() as f64
            ),
        ))
    }

    /// A warning naming the panels and play areas the spec's `[labels]` gives no printed
    /// name (proofs and notes then name them by their ids, `cells`, `jeu1`), at the
    /// `[labels]` line if there is one; `None` when each has its printed name.
    pub fn unlabelled(&self) -> Option<SpecError> {
        let layout = self.game.layout();
        let mut missing: Vec<&str> = Vec::new();
        let ids = layout.panels.iter().map(|p| &p.id).chain(&layout.areas);
        for id in ids {
            if !self.labels.contains_key(id) && !missing.contains(&id.as_str()) {
                missing.push(id);
            }
        }
        let first = missing.first()?;
        let at = ErrorAt::new(&self.path, &self.text);
        Some(at.at(
            self.text.find("[labels]"),
            "labels",
            format!(
                "no printed name in [labels] for {}: proofs and their notes name {} by {}; add {first} = \"…\" (the name the ticket prints) to [labels]",
                missing.join(", "),
                if missing.len() > 1 { "them" } else { "it" },
                if missing.len() > 1 { "their ids" } else { "its id" },
            ),
        ))
    }

    /// The caption of `amount`, if the spec has one.
    pub fn caption(&self, amount: Money) -> Option<&str> {
        self.captions.get(&amount).map(String::as_str)
    }

    /// The way whose id is `id`.
    pub fn way_by_id(&self, id: &str) -> Option<WayId> {
        self.ways
            .iter()
            .position(|w| w.id == id)
            .map(|i| i as WayId)
    }

    /// Recognises the way realised by the winning play areas of an evaluation: the way
    /// whose wins are the same multiset of amounts and whose fixed areas match (several
    /// wins may sit in one area, e.g. pharaon's area `II`, one per winning hieroglyph).
    /// No wins is the losing way. `None` when no way of the spec matches.
    #[inline]
    pub fn recognise(&self, wins: &[AreaWin]) -> Option<WayId> {
        // Most faces lose: said where the judge calls, without a call.
        if wins.is_empty() {
            return Some(0);
        }
        self.recognise_win(wins)
    }

    /// [`GameSpec::recognise`] of a face that wins something.
    #[inline(never)]
    fn recognise_win(&self, wins: &[AreaWin]) -> Option<WayId> {
        let total: u64 = wins.iter().map(|w| w.amount.cents()).sum();
        let tier = self.tiers.iter().find(|t| t.amount.cents() == total)?;
        tier.ways
            .iter()
            .copied()
            .find(|&id| way_matches(&self.ways[id as usize], wins))
    }
}

/// True when `wins` realise exactly `way`: one win per way win, same amounts, and every win
/// with a fixed area in that area.
fn way_matches(way: &Way, wins: &[AreaWin]) -> bool {
    if way.wins.len() != wins.len() || wins.len() > MAX_WINS {
        return false;
    }
    let mut used = [false; MAX_WINS];
    // Fixed areas first, then free ones take whatever is left with the right amount.
    let fixed = way.wins.iter().filter(|w| w.area.is_some());
    for w in fixed.chain(way.wins.iter().filter(|w| w.area.is_none())) {
        let hit = wins.iter().enumerate().position(|(i, a)| {
            !used[i] && a.amount == w.amount && w.area.is_none_or(|wa| wa == a.area)
        });
        match hit {
            Some(i) => used[i] = true,
            None => return false,
        }
    }
    true
}

/// `[labels]`, checked: every key is a panel or play area id of the game, every label a
/// short line of text, and no two labels read the same ([`crate::text::reading`]: a proof
/// saying a ticket "wins in Jeu 2" must name one place; `Jeu I`, `Jeu 01` and `jeu 1.`
/// read as `Jeu 1`). Errors name the key: an unknown id (listing
/// the known ones), an empty or overlong label, one with a line break, one reading as an
/// earlier label.
fn labels(
    raw: &raw::RawSpec,
    game: &Game,
    at: &ErrorAt,
) -> Result<BTreeMap<String, String>, SpecError> {
    let Some(t) = &raw.labels else {
        return Ok(BTreeMap::new());
    };
    let mut known: Vec<String> = game.layout().panels.iter().map(|p| p.id.clone()).collect();
    for a in &game.layout().areas {
        if !known.contains(a) {
            known.push(a.clone());
        }
    }
    let mut read: BTreeMap<String, &str> = BTreeMap::new();
    for (k, v) in t.get_ref() {
        let bad = |m: String| at.at(Some(t.span().start), format!("labels.{k}"), m);
        if let Some(other) = read.insert(crate::text::reading(v), k) {
            return Err(bad(format!(
                "\"{}\"{} reads as the label of {other}: two panels or play areas printed with one name could not be told apart (case, spacing, punctuation, leading zeros, O for 0, I for 1 and look-alike letters aside)",
                v.trim(),
                crate::text::look_alike_note(v)
            )));
        }
        if !known.contains(k) {
            return Err(bad(format!(
                "\"{k}\" is not a panel or play area of this game; expected one of: {}",
                known.join(", ")
            )));
        }
        let v = v.trim();
        if let Some(why) = unprintable(v) {
            return Err(bad(why));
        }
        if v.is_empty() || v.len() > 60 || v.contains(['\n', '\r']) {
            return Err(bad(format!(
                "expected the printed name on one line of 1 to 60 bytes, got {v:?}"
            )));
        }
    }
    Ok(t.get_ref()
        .iter()
        .map(|(k, v)| (k.clone(), v.trim().to_string()))
        .collect())
}

/// `[symbol_captions]`, checked and printed: every key is a play symbol some face column
/// of the game shows, every caption printable text (as an amount's caption; no other printed
/// token may read as it: `confusable`); each becomes the inscription under
/// its symbol wherever a face shows it ([`Game::caption_symbols`]). Errors name the key.
fn caption_symbols(raw: &raw::RawSpec, game: &mut Game, at: &ErrorAt) -> Result<(), SpecError> {
    let Some(t) = &raw.symbol_captions else {
        return Ok(());
    };
    let span = Some(t.span().start);
    let mut captions = Vec::new();
    for (symbol, caption) in t.get_ref() {
        let bad = |m: String| Err(at.at(span, format!("symbol_captions.\"{symbol}\""), m));
        let caption = caption.trim();
        if !printable_text(caption) {
            return bad(format!("{caption:?}: a caption is printed under its symbol and written in files: 1 to {MAX_TEXT} bytes, without a comma, a double quote, a line break, a control, invisible, text-direction or stray combining character, not beginning with = + - or @"));
        }
        // A number's caption says that number, in words of either language or in figures,
        // and no money: `"03" = "SEVEN"` would print 03 over seven.
        let number = symbol
            .parse::<u64>()
            .ok()
            .filter(|_| symbol.bytes().all(|b| b.is_ascii_digit()));
        if let Some(n) = number {
            if let Some(why) = number_caption_says(caption, n) {
                return bad(format!("caption \"{caption}\" of symbol \"{symbol}\" {why}: a number's caption says that number alone"));
            }
        }
        captions.push((symbol.clone(), caption.to_string()));
    }
    if let Err(symbol) = game.caption_symbols(&captions) {
        let shown: Vec<String> = game
            .layout()
            .columns
            .iter()
            .filter(|c| c.kind == styles::ColumnKind::Symbol)
            .flat_map(|c| c.values.iter().cloned())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        return Err(at.at(
            span,
            format!("symbol_captions.\"{symbol}\""),
            format!(
                "\"{symbol}\" is no play symbol of this game's faces; expected one of: {}",
                shown.join(", ")
            ),
        ));
    }
    Ok(())
}

/// What the caption of the number symbol `n` says besides `n`, if anything: money (a
/// currency sign or word, [`amount_words::reads_as_money`]: `TROIS EUROS`), another number
/// in figures (read through look-alikes: `9`, `９`) or in words of either language
/// (`SEPT` under 03 in an English game; a leading `ZÉRO` aside).
fn number_caption_says(caption: &str, n: u64) -> Option<String> {
    if let Some(c) = crate::text::first_currency_sign(caption) {
        return Some(format!("shows a currency sign ({c})"));
    }
    if let Some(why) = amount_words::reads_as_money(caption).filter(|w| w.starts_with("names")) {
        return Some(why);
    }
    let figures = crate::text::prototype(caption)
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|run| run.parse::<u64>().ok())
        .collect::<Vec<_>>();
    let words = amount_words::numbers_in_words(caption);
    figures
        .into_iter()
        .chain(words.into_iter().filter(|&k| k != 0))
        .find(|&k| k != n)
        .map(|k| format!("says {k}, not {n}"))
}

/// The tables a spec may hold at its top level ([`raw::RawSpec`]'s fields), as headers
/// write them.
const TABLES: [&str; 11] = [
    "[game]",
    "[published]",
    "[captions]",
    "[symbol_captions]",
    "[packs]",
    "[[tiers]]",
    "[labels]",
    "[[surfaces]]",
    "[[shared]]",
    "[signing]",
    "[box]",
];

/// The error for the first table header of `text` whose top-level name is no table of a
/// spec ([`TABLES`]: `[[tier]]` for `[[tiers]]`), at its own line. The TOML parser, when
/// it fails, names the line where the misnamed table first clashed with the rest (a
/// `[[tiers.ways]]` under `[[tier]]`, lines further on), not the misnamed header. `None`
/// when every header names a known table.
fn unknown_table_header(text: &str, at: &ErrorAt) -> Option<SpecError> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let here = offset;
        offset += line.len();
        let t = line.trim();
        let t = t.split_once('#').map_or(t, |(h, _)| h).trim_end();
        let array = t.starts_with("[[") && t.ends_with("]]");
        let Some(name) = t
            .strip_prefix(if array { "[[" } else { "[" })
            .and_then(|n| n.strip_suffix(if array { "]]" } else { "]" }))
        else {
            continue;
        };
        // A header's name: words, dots and quotes; an array of values on a line of its own
        // (`[1, 2],`) is none.
        let header = name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '"' | ' '))
            && name
                .trim()
                .starts_with(|c: char| c.is_ascii_alphabetic() || c == '"');
        if !header {
            continue;
        }
        let top = name
            .split('.')
            .next()
            .unwrap_or("")
            .trim()
            .trim_matches('"');
        let known = TABLES
            .iter()
            .find(|k| k.trim_matches(|c| c == '[' || c == ']') == top);
        // `[[game]]` for `[game]`, `[tiers]` for `[[tiers]]`: the table, in the other form.
        if let Some(k) = known.filter(|k| !name.contains('.') && k.starts_with("[[") != array) {
            return Some(at.at(
                Some(here + line.len() - line.trim_start().len()),
                top,
                format!(
                    "{t} is written {k}{}",
                    if array {
                        ": a spec has one such table"
                    } else {
                        ", one header for each of its entries"
                    }
                ),
            ));
        }
        if known.is_none() {
            return Some(at.at(
                Some(here + line.len() - line.trim_start().len()),
                top,
                format!(
                    "{t} names no table of a spec: expected one of {}",
                    TABLES.join(", ")
                ),
            ));
        }
    }
    None
}

/// The error for the first key written before any table header as a table's dotted key
/// (`published.lots = 470` for `lots = 470` under `[published]`), at its own line. TOML
/// allows the form, but the parser tirage reads a spec with cannot keep the lines of a
/// table written so, and fails on it with words about "a borrowed string". `None` when no
/// such key comes before the first header. Called only once the spec failed to parse.
fn dotted_table(text: &str, at: &ErrorAt) -> Option<SpecError> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let here = offset;
        offset += line.len();
        let t = line.trim().trim_start_matches('\u{feff}');
        if t.starts_with('[') {
            return None;
        }
        let Some((top, rest)) = first_key_dotted(t) else {
            continue;
        };
        let Some(table) = TABLES
            .iter()
            .find(|k| k.trim_matches(|c| c == '[' || c == ']') == top)
        else {
            continue;
        };
        let key = t.split_once('=').map_or(t, |(k, _)| k).trim();
        return Some(at.at(
            Some(here + line.len() - line.trim_start().len()),
            key,
            format!(
                "a table's keys are written under its header: {table}, then {rest} = …, on a line of its own (tirage does not read a table written as dotted keys)"
            ),
        ));
    }
    None
}

/// The line of `text` that holds byte `offset` (the last line past the end), without its
/// line end.
fn line_at(text: &str, offset: usize) -> &str {
    let o = offset.min(text.len());
    let from = text[..o].rfind('\n').map_or(0, |i| i + 1);
    text[from..].lines().next().unwrap_or("")
}

/// The error for `line` when it is a header of one bracket (`[tiers.ways]`) the parser
/// found a list under: such a header takes two, as every entry's (`[[tiers.ways]]`);
/// `None` for any other line.
fn one_bracket_list(line: &str) -> Option<String> {
    let header = line.split('#').next().unwrap_or("").trim();
    let name = header
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .filter(|h| !h.starts_with('['))?;
    Some(format!(
        "[{name}] is written [[{name}]], one header for each of its entries"
    ))
}

/// When the parser found the header at `offset` a duplicate because the same list is
/// written once with one bracket (`[surfaces.games]`) and once with two
/// (`[[surfaces.games]]`), in either order: the one-bracket line's offset and
/// [`one_bracket_list`]'s error for it; `None` otherwise.
fn one_bracket_duplicate(text: &str, offset: usize) -> Option<(usize, String)> {
    let header = |line: &str| -> String {
        let h = line.split('#').next().unwrap_or("");
        h.chars().filter(|c| !c.is_whitespace()).collect()
    };
    let here = line_at(text, offset);
    let this = header(here);
    let (name, one) = match this.strip_prefix("[[").and_then(|h| h.strip_suffix("]]")) {
        Some(name) => (name.to_string(), false),
        None => (this.strip_prefix('[')?.strip_suffix(']')?.to_string(), true),
    };
    // The other spelling, on an earlier line.
    let other = if one {
        format!("[[{name}]]")
    } else {
        format!("[{name}]")
    };
    let mut at = 0;
    for line in text[..offset.min(text.len())].split_inclusive('\n') {
        if header(line) == other {
            return if one {
                Some((offset, one_bracket_list(here)?))
            } else {
                Some((at, one_bracket_list(line)?))
            };
        }
        at += line.len();
    }
    None
}

/// The first part of the dotted key that line `t` (trimmed) sets, without its quotes, and
/// the rest of the key (`("published", "lots")` for `"published" . lots = 5`); `None` for a
/// comment, a line setting no key, a key of one part (`"published.lots" = 1` is one key)
/// or a quoted first part holding an escape.
fn first_key_dotted(t: &str) -> Option<(&str, &str)> {
    let (top, after) = match t.chars().next()? {
        q @ ('"' | '\'') => {
            let inner = &t[1..];
            let end = inner.find(q)?;
            let top = &inner[..end];
            if q == '"' && top.contains('\\') {
                return None;
            }
            (top, &inner[end + 1..])
        }
        _ => {
            let end = t
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
                .unwrap_or(t.len());
            (&t[..end], &t[end..])
        }
    };
    let rest = after.trim_start().strip_prefix('.')?;
    let (rest, _) = rest.split_once('=')?;
    (!top.is_empty()).then_some((top, rest.trim()))
}

/// Where the array left open before byte `offset` of `text` begins: the start of the
/// nearest line before `offset`'s line that writes `key = [` and whose brackets, with
/// those of the lines after it up to `offset`'s, open more than they close (quoted text and
/// comments aside), with the 1-based number of `offset`'s line; `None` when a table header
/// or a balanced `key =` line comes first, or none of the 50 lines before does.
fn open_array(text: &str, offset: usize) -> Option<(usize, usize)> {
    let offset = offset.min(text.len());
    let here = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line_no = text[..here].matches('\n').count() + 1;
    let (mut end, mut balance) = (here, 0i32);
    for _ in 0..50 {
        if end == 0 {
            return None;
        }
        let begin = text[..end - 1].rfind('\n').map_or(0, |i| i + 1);
        let line = &text[begin..end];
        end = begin;
        let t = line.trim_start();
        if t.starts_with('[')
            && t[1..]
                .trim_start_matches('[')
                .trim_start()
                .starts_with(|c: char| c.is_ascii_alphabetic() || c == '"')
        {
            return None;
        }
        let (keyed, value) = match line.split_once('=') {
            Some((key, value)) if !key.contains(['[', '"', '{']) => (true, value),
            _ => (false, line),
        };
        let mut quoted = false;
        for c in value.chars() {
            match c {
                '"' => quoted = !quoted,
                '#' if !quoted => break,
                '[' if !quoted => balance += 1,
                ']' if !quoted => balance -= 1,
                _ => {}
            }
        }
        if keyed {
            return (balance > 0).then_some((begin, line_no));
        }
    }
    None
}

/// The key written alone at the start of the line holding byte `offset` of `text` (`price`
/// of `price 1`), when the line begins with one.
fn bare_key(text: &str, offset: usize) -> Option<&str> {
    let start = text[..offset.min(text.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let key = text[start..].split_whitespace().next()?;
    key.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        .then_some(key)
}

/// The fields of `[game]` ([`raw::RawGame`]).
const GAME_FIELDS: [&str; 13] = [
    "id",
    "name",
    "mechanic",
    "legal_reference",
    "note",
    "reconstructed",
    "currency",
    "language",
    "price",
    "block_size",
    "pack_size",
    "game_code",
    "emission",
];

/// The error of a spec that writes `[game]`'s fields at the top level, its `[game]` header
/// left out (serde would say only that `id` is an unknown field): at the first of them,
/// naming them. `None` when the file is no TOML table, has a `game` table, or writes none
/// of its fields before its first table header.
fn missing_game_header(text: &str, at: &ErrorAt) -> Option<SpecError> {
    let table: toml::Table = toml::from_str(text).ok()?;
    if table.contains_key("game") {
        return None;
    }
    let mut first = None;
    let mut keys = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        if t.starts_with('[') {
            break;
        }
        if let Some((key, _)) = t.split_once('=') {
            let key = key.trim().trim_matches('"');
            if GAME_FIELDS.contains(&key) && table.contains_key(key) {
                first.get_or_insert(offset);
                keys.push(key);
            }
        }
        offset += line.len();
    }
    first?;
    Some(at.at(
        first,
        "game",
        format!(
            "the [game] section is missing: its fields ({}) are written at the top level of the file; write [game] on the line above them",
            keys.join(", ")
        ),
    ))
}

/// Builds the ticket's game: its `[[surfaces]]` (`game.mechanic` is `styles`, the
/// default). Errors: any other `game.mechanic` (coq, poker and pharaon are specs over the
/// play styles), and those of [`build_surfaces`].
fn build_game(raw: &raw::RawSpec, at: &ErrorAt) -> Result<Game, SpecError> {
    let game = raw.game.get_ref();
    let captions = caption_values(raw);
    match game.mechanic.as_str() {
        "styles" => build_surfaces(raw, &captions, at),
        other => Err(at.at(
            Some(raw.game.span().start),
            "game.mechanic",
            format!(
                "unknown mechanic \"{other}\"; a game is its [[surfaces]] of play styles \
                 (mechanic = \"styles\", the default, may be left out); coq, poker and \
                 pharaon are such specs (game_specs/)"
            ),
        )),
    }
}

/// Builds a game from its `[[surfaces]]`, each by its play style from the library.
/// Errors: no surface; a surface without `style` or `id`, or with a style the library does
/// not have; a style's own error about one of its fields; two surfaces naming the same
/// column, play area or panel. Each error names `surfaces[i].field` and the surface's line.
fn build_surfaces(
    raw: &raw::RawSpec,
    captions: &styles::Captions,
    at: &ErrorAt,
) -> Result<Game, SpecError> {
    use styles::style;
    if raw.surfaces.is_empty() {
        return Err(at.at(
            Some(raw.game.span().start),
            "surfaces",
            "a game needs at least one [[surfaces]] entry (or a game.mechanic with its section)",
        ));
    }
    let labels: BTreeMap<String, String> = raw
        .labels
        .as_ref()
        .map(|l| l.get_ref().clone())
        .unwrap_or_default();
    let tiers = tier_amounts(raw);
    let ways: Vec<String> = way_ids(raw).into_iter().map(str::to_string).collect();
    let shared = shared_elements(raw, at)?;
    let mut parts = Vec::new();
    for (i, sec) in raw.surfaces.iter().enumerate() {
        let span = Some(sec.span().start);
        let err = |field: &str, msg: String| {
            let f = if field.is_empty() {
                format!("surfaces[{i}]")
            } else {
                format!("surfaces[{i}].{field}")
            };
            at.at(span, f, msg)
        };
        let mut table = sec.get_ref().clone();
        let text = |v: Option<toml::Value>, field: &str| match v {
            Some(toml::Value::String(s)) => Ok(s),
            Some(_) => Err(err(field, "expected a string".into())),
            None => Err(err(field, format!("every surface needs `{field}`"))),
        };
        let name = text(table.remove("style"), "style")?;
        let max = match table.remove("max") {
            None => None,
            Some(v) => Some(
                v.try_into::<Money>()
                    .map_err(|e| err("max", format!("expected an amount: {}", e.message())))?,
            ),
        };
        let multiplier = match table.remove("multiply") {
            None => 1,
            Some(v) => match v.as_integer() {
                Some(f) if (2..=i64::from(multiply::MAX_FACTOR)).contains(&f) => f as u32,
                _ => {
                    return Err(err(
                        "multiply",
                        format!(
                            "expected a whole factor from 2 to {}: every win on the surface pays that many times the amount it shows (got {v})",
                            multiply::MAX_FACTOR
                        ),
                    ))
                }
            },
        };
        let id = text(table.remove("id"), "id")?;
        let reads = match table.remove("reads") {
            None => None,
            Some(v) => {
                let name = text(Some(v), "reads")?;
                let e = shared.iter().position(|e| e.id == name).ok_or_else(|| {
                    let known: Vec<&str> = shared.iter().map(|e| e.id.as_str()).collect();
                    err(
                        "reads",
                        format!(
                            "no [[shared]] element \"{name}\"; expected one of: {}",
                            if known.is_empty() {
                                "(the spec declares none)".to_string()
                            } else {
                                known.join(", ")
                            }
                        ),
                    )
                })?;
                Some(e)
            }
        };
        if id.is_empty() || !id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return Err(err(
                "id",
                format!("\"{id}\" is not an id: expected ASCII letters, digits or _"),
            ));
        }
        // A play area's name, in every style that takes one: an ASCII word, never empty.
        if let Some(toml::Value::String(a)) = table.get("area") {
            if a.is_empty() || !a.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                return Err(err(
                    "area",
                    format!("\"{a}\" is not a play area name: expected ASCII letters, digits or _ (or leave `area` out: the play area is then named \"{id}\", the surface's id)"),
                ));
            }
        }
        let info = style::find(&name).ok_or_else(|| {
            let known: Vec<&str> = style::LIBRARY.iter().map(|s| s.name).collect();
            err(
                "style",
                format!(
                    "unknown play style \"{name}\"; expected one of: {} (see `tirage styles`)",
                    known.join(", ")
                ),
            )
        })?;
        let ctx = style::StyleCtx {
            id: &id,
            captions,
            labels: &labels,
            tier_amounts: &tiers,
            way_ids: &ways,
            max,
            reads: reads.map(|e| &shared[e]),
        };
        if let Some(e) = reads.map(|e| &shared[e]) {
            if e.kind == styles::shared::SharedKind::Hand && info.name != "card_total" {
                return Err(err(
                    "reads",
                    format!(
                        "shared \"{}\" is a dealer's hand: only card_total surfaces read one",
                        e.id
                    ),
                ));
            }
        }
        let rule = (info.build)(table, &ctx).map_err(|e| err(&e.field, e.message))?;
        if reads.is_some() && rule.layout().reads.is_empty() {
            return Err(err(
                "reads",
                format!(
                    "the {} style cannot read a shared element; match_count and key_match can \
                     read a draw, card_total a dealer's hand",
                    info.name
                ),
            ));
        }
        parts.push(styles::game::Part {
            id,
            style: info.name,
            max,
            multiplier,
            rule,
            reads,
        });
    }
    let first = raw
        .shared
        .first()
        .map_or(raw.surfaces[0].span().start, |e| e.span().start);
    let mut game = Game::with_shared(shared, parts).map_err(|m| {
        let field = if m.starts_with("shared") {
            "shared"
        } else {
            "surfaces"
        };
        let span = if field == "shared" {
            first
        } else {
            raw.surfaces[0].span().start
        };
        at.at(Some(span), field, m)
    })?;
    if let Some(b) = multiplier_box(raw, at)? {
        let span = raw.multiplier_box.as_ref().map(|b| b.span().start);
        game.add_box(b).map_err(|m| at.at(span, "box", m))?;
    }
    Ok(game)
}

/// `[box]` and the `box` of every way, checked: 1 to [`multiply::MAX_BOX_VALUES`] distinct
/// values, each 1 to [`multiply::MAX_FACTOR`]; a way's `box` one of them. Errors name the
/// field (and the way), and a way's `box` without `[box]`.
fn multiplier_box(
    raw: &raw::RawSpec,
    at: &ErrorAt,
) -> Result<Option<multiply::MultiplierBox>, SpecError> {
    let values = match &raw.multiplier_box {
        None => None,
        Some(b) => {
            let v = &b.get_ref().multipliers;
            let span = Some(b.span().start);
            let mut seen = BTreeSet::new();
            let ok = !v.is_empty()
                && v.len() <= multiply::MAX_BOX_VALUES
                && v.iter()
                    .all(|&f| (1..=multiply::MAX_FACTOR).contains(&f) && seen.insert(f));
            if !ok {
                return Err(at.at(
                    span,
                    "box.multipliers",
                    format!(
                        "expected 1 to {} different values, each a whole factor from 1 to {} (got {v:?})",
                        multiply::MAX_BOX_VALUES,
                        multiply::MAX_FACTOR
                    ),
                ));
            }
            Some(v.clone())
        }
    };
    let mut fixed = std::collections::HashMap::new();
    for (ti, st) in raw.tiers.iter().enumerate() {
        for (wi, sw) in st.get_ref().ways.iter().enumerate() {
            let w = sw.get_ref();
            let Some(f) = w.multiplier_box else { continue };
            let field = format!(
                "tiers[{ti}].ways[{wi}].box (amount {}, way \"{}\")",
                st.get_ref().amount,
                w.id
            );
            let bad = |m: String| at.at(Some(sw.span().start), field.clone(), m);
            match &values {
                None => {
                    return Err(bad(
                        "the spec has no multiplier box: add [box] multipliers = [...]".into(),
                    ))
                }
                Some(v) if !v.contains(&f) => {
                    return Err(bad(format!(
                        "{f} is not a value of the box; [box] multipliers = {v:?}"
                    )))
                }
                Some(_) => {
                    fixed.insert(w.id.clone(), f);
                }
            }
        }
    }
    Ok(values.map(|values| multiply::MultiplierBox { values, fixed }))
}

/// True when the spec can multiply a win: it has a multiplier box or a multiplied surface.
fn multiplies(raw: &raw::RawSpec) -> bool {
    raw.multiplier_box.is_some()
        || raw
            .surfaces
            .iter()
            .any(|s| s.get_ref().contains_key("multiply"))
}

/// The spec's `[[shared]]` elements, checked. Errors (naming `shared[i].field` and the
/// entry's line): an id that is not an ASCII word or is given twice, an unknown `kind`,
/// bad `symbols`, or a `count` of 0 or above the symbols (a draw shows different symbols).
fn shared_elements(
    raw: &raw::RawSpec,
    at: &ErrorAt,
) -> Result<Vec<styles::shared::Shared>, SpecError> {
    let mut out: Vec<styles::shared::Shared> = Vec::new();
    for (i, sec) in raw.shared.iter().enumerate() {
        let e = sec.get_ref();
        let err = |field: &str, msg: String| {
            at.at(Some(sec.span().start), format!("shared[{i}].{field}"), msg)
        };
        if e.id.is_empty() || !e.id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return Err(err(
                "id",
                format!(
                    "\"{}\" is not an id: expected ASCII letters, digits or _",
                    e.id
                ),
            ));
        }
        if out.iter().any(|o| o.id == e.id) {
            return Err(err("id", format!("\"{}\" is declared twice", e.id)));
        }
        let kind = match e.kind.as_str() {
            "draw" => styles::shared::SharedKind::Draw,
            "hand" => styles::shared::SharedKind::Hand,
            other => {
                return Err(err(
                    "kind",
                    format!("unknown kind \"{other}\"; expected \"draw\" (different symbols drawn among `symbols`) or \"hand\" (a dealer's hand of cards)"),
                ))
            }
        };
        if kind == styles::shared::SharedKind::Hand {
            if e.symbols.is_some() {
                return Err(err(
                    "symbols",
                    "a dealer's hand shows cards of the 52-card deck: leave `symbols` out".into(),
                ));
            }
            if !(2..=3).contains(&e.count) {
                return Err(err(
                    "count",
                    format!("a dealer's hand has 2 or 3 cards, got {}", e.count),
                ));
            }
            out.push(styles::shared::Shared {
                id: e.id.clone(),
                kind,
                count: e.count,
                values: (0..52).map(styles::card_hands::card_code).collect(),
            });
            continue;
        }
        let Some(symbols) = &e.symbols else {
            return Err(err(
                "symbols",
                "a draw needs the symbols it draws among: `symbols = [...]` or `symbols = { from = 1, to = 50 }`".into(),
            ));
        };
        let values = styles::style::symbols(&symbols.0, 1, "symbols")
            .map_err(|fe| err(&fe.field, fe.message))?;
        if values.len() > 256 {
            return Err(err(
                "symbols",
                format!("expected at most 256 symbols, got {}", values.len()),
            ));
        }
        if e.count == 0 || e.count > values.len() {
            return Err(err(
                "count",
                format!(
                    "a draw shows 1 to {} different symbols (its `symbols`), got {}",
                    values.len(),
                    e.count
                ),
            ));
        }
        out.push(styles::shared::Shared {
            id: e.id.clone(),
            kind,
            count: e.count,
            values,
        });
    }
    Ok(out)
}

/// The caption dictionary every caption column shares: the spec's captions in amount order
/// (keys that are not amounts are left out here and rejected by the spec's own checks).
fn caption_values(raw: &raw::RawSpec) -> styles::Captions {
    let mut v: Vec<(Money, String)> = raw
        .caption_entries()
        .filter_map(|(k, c)| k.parse::<Money>().ok().map(|m| (m, c.trim().to_string())))
        .chain(raw_items(raw))
        .collect();
    v.sort();
    styles::Captions {
        amounts: v.iter().map(|x| x.0).collect(),
        texts: v.into_iter().map(|x| x.1).collect(),
    }
}

/// Refuses more captions than a caption column can code ([`styles::MAX_CAPTIONS`], each
/// item's `item` counted as a caption): two amounts would otherwise print one caption.
/// The error names `captions` and its line.
fn check_caption_count(raw: &raw::RawSpec, at: &ErrorAt) -> Result<(), SpecError> {
    let captions = raw.caption_entries().count();
    let items = raw_items(raw).count();
    if captions + items <= styles::MAX_CAPTIONS {
        return Ok(());
    }
    let with_items = if items == 0 {
        String::new()
    } else {
        format!(" and {items} items (an item is its own caption)")
    };
    Err(at.at(
        raw.captions_span(),
        "captions",
        format!(
            "{captions} captions{with_items}: at most {} in all (a face codes a caption in one byte)",
            styles::MAX_CAPTIONS
        ),
    ))
}

/// The prizes that are not money as written: each item tier's stated value and its `item`.
fn raw_items(raw: &raw::RawSpec) -> impl Iterator<Item = (Money, String)> + '_ {
    raw.tiers.iter().filter_map(|t| {
        let t = t.get_ref();
        t.item.as_ref().map(|i| (t.amount, i.trim().to_string()))
    })
}

/// A caption or an item as a reader tells it apart: case and spacing ignored, and a letter
/// of another script read as the Latin letter it looks like ([`crate::text::prototype`]).
fn reads_as(text: &str) -> String {
    crate::text::prototype(text)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_uppercase()
}

/// Why `text` (a name, a reference, a label: one line shown on terminals, pages and
/// reports) may not be shown as it is, if it may not: its first character that does not
/// show as written ([`crate::text::hidden`]: a control character, which can retitle or
/// clear a terminal; a text-direction character, which makes what follows read in
/// another order; an invisible one, which makes two texts look alike), named by its code
/// point, never written raw.
fn unprintable(text: &str) -> Option<String> {
    let c = crate::text::first_hidden(text)?;
    Some(format!(
        "U+{:04X} (a control, invisible, text-direction or stray combining character) is not allowed: expected text shown as written, on one line",
        u32::from(c)
    ))
}

/// True when `text` may be printed and written in every file: 1 to [`MAX_TEXT`] bytes, no
/// comma, double quote, line break or other character that does not show as written
/// ([`crate::text::hidden`]), not beginning with a spreadsheet's formula sign.
fn printable_text(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= MAX_TEXT
        && !text.contains([',', '"'])
        && crate::text::first_hidden(text).is_none()
        && !text.starts_with(FORMULA_START)
}

/// Checks the tiers whose prize is not money (`item`): the item is printable text that no
/// amount's caption reads as (nor another item or a symbol: `confusable`); its amount (the stated value) has no `[captions]` entry
/// (the item is its caption) and is won alone, in a single play area, never combined with
/// another win, and no way of another tier wins that amount (a face showing it shows the
/// item). Errors name the tier.
fn check_items(raw: &raw::RawSpec, at: &ErrorAt) -> Result<(), SpecError> {
    let items: Vec<(usize, Money, String)> = raw
        .tiers
        .iter()
        .enumerate()
        .filter_map(|(i, t)| {
            let t = t.get_ref();
            t.item.as_ref().map(|s| (i, t.amount, s.trim().to_string()))
        })
        .collect();
    for (ti, amount, item) in &items {
        let st = &raw.tiers[*ti];
        let (t, tspan) = (st.get_ref(), Some(st.span().start));
        let field = format!("tiers[{ti}].item (amount {amount})");
        let bad = |m: String| Err(at.at(tspan, field.clone(), m));
        if !printable_text(item) {
            return bad(format!("{item:?}: an item is printed where a face shows an amount and written in every file: 1 to {MAX_TEXT} bytes, without a comma, a double quote, a line break, a control, invisible, text-direction or stray combining character, not beginning with = + - or @"));
        }
        // Printed where a face shows an amount, an item must not read as one.
        if let Some(why) = money_in(item) {
            return bad(format!("item \"{item}\" {why}: an item is printed where a face shows an amount, so it says a prize that is not money without a number, a currency or an amount in words (\"FREE TICKET\", \"TICKET GRATUIT\")"));
        }
        if t.combined_only {
            return bad(
                "a prize that is not money is won alone: it cannot be combined_only".into(),
            );
        }
        // A multiplier (a box, a multiplied surface, a multiplier or win-all symbol) pays
        // cash for the amount a face prints: an item printed there would be paid as cash.
        let multiplies = raw.multiplier_box.is_some()
            || raw.surfaces.iter().any(|sf| {
                ["multiply", "multiplier", "specials"]
                    .iter()
                    .any(|k| sf.get_ref().contains_key(*k))
            });
        if multiplies {
            return bad("a prize that is not money is never multiplied nor added to cash, but this game multiplies wins ([box], a surface's multiply, multiplier or specials): leave the item out, or the multipliers".into());
        }
        if raw
            .caption_entries()
            .any(|(k, _)| k.parse::<Money>().ok() == Some(*amount))
        {
            return bad(format!("[captions] has \"{amount}\", the stated value of this item: an item's caption is its `item` (a face shows \"{item}\" where it would show an amount), so leave {amount} out of [captions]"));
        }
        for w in &t.ways {
            let w = w.get_ref();
            if w.wins.len() != 1 {
                return bad(format!("way \"{}\" has {} wins: a prize that is not money is won alone, in one play area (wins = [{amount}])", w.id, w.wins.len()));
            }
        }
        for (k, other) in raw.tiers.iter().enumerate().filter(|(k, _)| k != ti) {
            let o = other.get_ref();
            if let Some(w) = o.ways.iter().find(|w| w.get_ref().wins.contains(amount)) {
                return Err(at.at(
                    Some(w.span().start),
                    format!("tiers[{k}].ways (amount {})", o.amount),
                    format!("way \"{}\" wins {amount}, the stated value of the item \"{item}\" (tier {ti}): a face showing {amount} shows the item, so no other tier may win it", w.get_ref().id),
                ));
            }
        }
        let key = reads_as(item);
        if let Some((k, c)) = raw.caption_entries().find(|(_, c)| reads_as(c) == key) {
            return bad(format!("item \"{item}\" reads as the caption of {k} (\"{}\"): a reader could not tell them apart", c.trim()));
        }
    }
    Ok(())
}

/// Why `text`, printed where a face shows amounts, could be read as money, if it could: a
/// currency sign, a number in figures of any script, a currency's word or an amount in
/// words ([`amount_words::reads_as_money`]), or a number in words other than one
/// (`BON CINQUANTE`, [`amount_words::numbers_in_words`]).
fn money_in(text: &str) -> Option<String> {
    if let Some(c) = crate::text::first_currency_sign(text) {
        Some(format!("shows a currency sign ({c})"))
    } else if let Some(c) = text.chars().find(|c| c.is_numeric()) {
        Some(format!("shows a number ({c})"))
    } else if let Some(why) = amount_words::reads_as_money(text) {
        Some(why)
    } else {
        // One (`UN TICKET GRATUIT`) is an article; any other number may read as a prize.
        amount_words::numbers_in_words(text)
            .into_iter()
            .find(|&n| n != 1)
            .map(|n| format!("says {n} in words"))
    }
}

/// Checks the card names of card surfaces against what their words say, in either
/// language: a rank name (`rank_names`, 2 to ace) says its own number (`SEPT` for the 7,
/// `UN` at most for the ace, none for a jack, queen or king) and names its own face card
/// (`VALET` or `JACK` the jack), and a suit name (`suit_names`, c d h s) its own suit
/// (`PIQUE` or `SPADES` the spades), so that swapped names never print one card as
/// another, nor a suit's name beside another suit's sign. Figures are their style's to
/// check. Errors name the surface's `rank_names` or `suit_names`.
fn check_card_words(raw: &raw::RawSpec, at: &ErrorAt) -> Result<(), SpecError> {
    const RANKS: [&str; 13] = [
        "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "ace",
    ];
    for (i, sf) in raw.surfaces.iter().enumerate() {
        let names: Vec<&str> = strings(sf.get_ref(), "rank_names");
        for (r, name) in names.into_iter().enumerate().take(13) {
            let own = match r {
                0..=8 => Some(r as u64 + 2),
                12 => Some(1),
                _ => None,
            };
            let said = amount_words::numbers_in_words(name);
            if let Some(k) = said.into_iter().find(|&k| Some(k) != own) {
                return Err(at.at(
                    Some(sf.span().start),
                    format!("surfaces[{i}].rank_names"),
                    format!("\"{name}\" says {k} in words, but it names the {}: a rank named in words or figures says its own", RANKS[r]),
                ));
            }
            if let Some(other) = card_word(name, &FACES).filter(|&k| k != r) {
                return Err(at.at(
                    Some(sf.span().start),
                    format!("surfaces[{i}].rank_names"),
                    format!("\"{name}\" names the {}, but it stands for the {}: rank names are listed 2 to ace", RANKS[other], RANKS[r]),
                ));
            }
        }
        let suits: Vec<&str> = strings(sf.get_ref(), "suit_names");
        for (k, name) in suits.into_iter().enumerate().take(4) {
            if let Some(other) = card_word(name, &SUITS).filter(|&o| o != k) {
                return Err(at.at(
                    Some(sf.span().start),
                    format!("surfaces[{i}].suit_names"),
                    format!("\"{name}\" names {}, but it stands for {}: suit names are listed clubs, diamonds, hearts, spades (c d h s), so that each card's inscription names the suit its sign shows", SUIT_NAMES[other], SUIT_NAMES[k]),
                ));
            }
        }
    }
    Ok(())
}

/// The strings of the array `key` of `table`, in order (none when it has no such array).
fn strings<'a>(table: &'a toml::Table, key: &str) -> Vec<&'a str> {
    match table.get(key) {
        Some(toml::Value::Array(a)) => a.iter().filter_map(toml::Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// The face cards' words in French and English, with the index of their rank in
/// `rank_names` (2 to ace).
const FACES: [(&str, usize); 8] = [
    ("VALET", 9),
    ("JACK", 9),
    ("DAME", 10),
    ("QUEEN", 10),
    ("ROI", 11),
    ("KING", 11),
    ("AS", 12),
    ("ACE", 12),
];

/// The suits' words in French and English, with the index of their suit in `suit_names`
/// (c d h s).
const SUITS: [(&str, usize); 16] = [
    ("TREFLE", 0),
    ("TREFLES", 0),
    ("CLUB", 0),
    ("CLUBS", 0),
    ("CARREAU", 1),
    ("CARREAUX", 1),
    ("DIAMOND", 1),
    ("DIAMONDS", 1),
    ("COEUR", 2),
    ("COEURS", 2),
    ("HEART", 2),
    ("HEARTS", 2),
    ("PIQUE", 3),
    ("PIQUES", 3),
    ("SPADE", 3),
    ("SPADES", 3),
];

/// The suits, by their index in `suit_names`.
const SUIT_NAMES: [&str; 4] = ["clubs", "diamonds", "hearts", "spades"];

/// The index a word of `name` names in `words` (read through look-alikes and without
/// accents: `TRÈFLE` is `TREFLE`, `CŒUR` is `COEUR`), if one does.
fn card_word(name: &str, words: &[(&str, usize)]) -> Option<usize> {
    amount_words::plain_words(name)
        .iter()
        .find_map(|w| words.iter().find(|(k, _)| k == w).map(|&(_, i)| i))
}

/// Why `text`, a multiplier's symbol or caption multiplying by `times`, says another
/// factor in words (`GAGNE DIX FOIS` on a ×5, `DOUBLE` on a ×3), if it does: one
/// (`UNE FOIS`) aside. Figures, and a missing or bad factor, are its style's to check.
fn other_factor_in_words(text: &str, times: Option<i64>) -> Option<String> {
    if times.is_none_or(|t| t < 2) {
        return None;
    }
    let money = amount_words::reads_as_money(text).filter(|w| w.starts_with("names"));
    money.or_else(|| {
        amount_words::numbers_in_words(text)
            .into_iter()
            .find(|&n| n != 1 && Some(n as i64) != times)
            .map(|n| format!("says {n} in words"))
    })
}

/// Checks what a face prints of each special symbol (`specials`) and multiplier symbol
/// (a match_symbols surface's `multiplier`): an auto-win's or a win-all's symbol and
/// caption read as no money ([`money_in`]: the amounts it wins are printed beside it, and
/// a `1000 EUROS` printed where amounts show would read as a prize); a multiplier's name
/// no money and say no other factor in words ([`other_factor_in_words`]; its style checks
/// the figures). Errors name the surface's `specials` or the multiplier symbol.
fn check_special_texts(raw: &raw::RawSpec, at: &ErrorAt) -> Result<(), SpecError> {
    for (i, sf) in raw.surfaces.iter().enumerate() {
        // A match_symbols surface's multiplier symbols, each with its factor.
        if let Some(toml::Value::Table(factors)) = sf.get_ref().get("multiplier") {
            for (symbol, f) in factors {
                if let Some(why) = other_factor_in_words(symbol, f.as_integer()) {
                    return Err(at.at(
                        Some(sf.span().start),
                        format!("surfaces[{i}].multiplier.{symbol}"),
                        format!("\"{symbol}\" {why}, but it multiplies by {f}: a multiplier's symbol shows its own factor or none, and no money"),
                    ));
                }
            }
        }
        let Some(toml::Value::Array(specials)) = sf.get_ref().get("specials") else {
            continue;
        };
        for sp in specials.iter().filter_map(toml::Value::as_table) {
            let text = |k: &str| sp.get(k).and_then(toml::Value::as_str);
            let multiplier = text("kind") == Some("multiplier");
            let times = sp.get("times").and_then(toml::Value::as_integer);
            for shown in [text("symbol"), text("caption")].into_iter().flatten() {
                let why = match crate::text::first_currency_sign(shown) {
                    Some(c) => Some(format!("shows a currency sign ({c})")),
                    None if multiplier => other_factor_in_words(shown, times),
                    None => money_in(shown),
                };
                if let Some(why) = why {
                    let message = match times {
                        Some(t) if multiplier => format!(
                            "\"{shown}\" {why}, but \"{}\" multiplies by {t} (times = {t}): a multiplier's symbol and caption show its own factor or none, and no money",
                            text("symbol").unwrap_or_default()
                        ),
                        _ => format!("\"{shown}\" {why}: a special symbol and its caption say what it does, never an amount (the amounts it wins are printed beside it)"),
                    };
                    return Err(at.at(
                        Some(sf.span().start),
                        format!("surfaces[{i}].specials"),
                        message,
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The amount of every tier, in the spec's order.
fn tier_amounts(raw: &raw::RawSpec) -> Vec<Money> {
    raw.tiers.iter().map(|t| t.get_ref().amount).collect()
}

/// The id of every way of every tier, in the spec's order.
fn way_ids(raw: &raw::RawSpec) -> Vec<&str> {
    raw.tiers
        .iter()
        .flat_map(|t| t.get_ref().ways.iter().map(|w| w.get_ref().id.as_str()))
        .collect()
}

/// `[signing] public_key`, checked to be a minisign public key.
fn signing_key(raw: &raw::RawSpec, at: &ErrorAt) -> Result<Option<String>, SpecError> {
    let Some(t) = &raw.signing else {
        return Ok(None);
    };
    let key = t.get_ref().public_key.trim();
    crate::crypto::sign::Verifier::from_base64(key).map_err(|e| {
        at.at(
            Some(t.span().start),
            "signing.public_key",
            format!("{e}: give the second line of the operator's KEY.pub (tirage keygen)"),
        )
    })?;
    Ok(Some(key.to_string()))
}

fn validate_common(raw: &raw::RawSpec, at: &ErrorAt, game: Game) -> Result<GameSpec, SpecError> {
    let g = raw.game.get_ref();
    let gspan = Some(raw.game.span().start);
    if g.id.is_empty()
        || !g
            .id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
    {
        return Err(at.at(
            gspan,
            "game.id",
            "expected a short lowercase id (letters, digits, - or _)",
        ));
    }
    if g.name.trim().is_empty() {
        return Err(at.at(
            gspan,
            "game.name",
            "empty: expected the game's published name, printed on every proof's header",
        ));
    }
    for (field, text, most, shown) in [
        ("game.name", &g.name, MAX_NAME, "on every proof's header"),
        (
            "game.legal_reference",
            &g.legal_reference,
            MAX_REFERENCE,
            "on the proofs' cover, the preview page and the audit report",
        ),
    ] {
        if let Some(why) = unprintable(text) {
            return Err(at.at(gspan, field, why));
        }
        let n = text.chars().count();
        if n > most {
            return Err(at.at(
                gspan,
                field,
                format!("{n} characters: expected at most {most} (it is printed {shown})"),
            ));
        }
    }
    // The note is shown by `check` and on the preview page, on several lines if it has them.
    if let Some(c) = g
        .note
        .iter()
        .flat_map(|n| n.chars())
        .find(|&c| c != '\n' && crate::text::hidden(c))
    {
        return Err(at.at(
            gspan,
            "game.note",
            format!(
                "U+{:04X} (a control, invisible, text-direction or stray combining character) is not allowed: expected text shown as written (line breaks aside)",
                u32::from(c)
            ),
        ));
    }
    if g.block_size == 0 {
        return Err(at.at(gspan, "game.block_size", "expected at least 1 ticket"));
    }
    if g.block_size > MAX_BLOCK_TICKETS {
        return Err(at.at(
            gspan,
            "game.block_size",
            format!(
                "{} tickets: a block holds at most {MAX_BLOCK_TICKETS} tickets, so that \
                 it is generated and verified within 256 MiB of memory; make a larger \
                 print run as an emission of several blocks (generate --blocks)",
                g.block_size
            ),
        ));
    }
    if g.pack_size == 0 || g.pack_size > g.block_size {
        return Err(at.at(
            gspan,
            "game.pack_size",
            format!("expected 1..={} tickets (the block size)", g.block_size),
        ));
    }
    // The serial's 9 digits of pack and position split as the pack size needs: 999 999 packs of up to 999 tickets, 99 999 packs of up to 9 999, …
    let most_packs = max_packs(g.pack_size);
    if u64::from(g.block_size.div_ceil(g.pack_size)) > most_packs {
        return Err(at.at(
            gspan,
            "game.block_size",
            format!(
                "{} tickets make {} packs of {}: with packs of {} tickets the serial's pack number has {} digits, so a block holds at most {} packs",
                g.block_size,
                g.block_size.div_ceil(g.pack_size),
                g.pack_size,
                g.pack_size,
                PLACE_DIGITS - position_digits(g.pack_size),
                crate::money::grouped(most_packs)
            ),
        ));
    }
    if g.price.is_zero() {
        return Err(at.at(gspan, "game.price", "expected a price above 0"));
    }
    if g.currency.len() != 3 || !g.currency.bytes().all(|b| b.is_ascii_uppercase()) {
        return Err(at.at(
            gspan,
            "game.currency",
            format!(
                "{:?}: expected an ISO 4217 code, three capital letters (EUR)",
                g.currency
            ),
        ));
    }
    let language = match &g.language {
        None => Language::default(),
        Some(code) => Language::parse(code).ok_or_else(|| {
            at.at(
                gspan,
                "game.language",
                format!(
                    "{code:?}: expected the code of a language proofs are written in: {}",
                    Language::ALL.map(Language::code).join(", ")
                ),
            )
        })?,
    };
    if g.price
        .cents()
        .checked_mul(u64::from(g.block_size))
        .is_none()
    {
        return Err(at.at(
            gspan,
            "game.price",
            format!(
                "{} × {} tickets: the block's sales do not fit in 64-bit cents",
                g.price, g.block_size
            ),
        ));
    }

    // Captions: one per amount, no caption shared by two amounts (décret: a caption
    // that does not match its figures is a printing anomaly).
    let mut captions = BTreeMap::new();
    let mut seen: BTreeMap<String, Money> = BTreeMap::new();
    for (k, c) in raw.caption_entries() {
        let amount: Money = k.parse().map_err(|e| {
            at.at(
                raw.captions_span(),
                format!("captions.\"{k}\""),
                format!("the key is not an amount: {e}"),
            )
        })?;
        if c.trim().is_empty() {
            return Err(at.at(
                raw.captions_span(),
                format!("captions.\"{k}\""),
                "empty caption",
            ));
        }
        if let Some(why) = unprintable(c) {
            return Err(at.at(raw.captions_span(), format!("captions.\"{k}\""), why));
        }
        if c.starts_with(char::is_whitespace)
            || c.ends_with(char::is_whitespace)
            || c.chars()
                .zip(c.chars().skip(1))
                .any(|(a, b)| a.is_whitespace() && b.is_whitespace())
        {
            return Err(at.at(
                raw.captions_span(),
                format!("captions.\"{k}\""),
                format!("{c:?} is not a caption: expected words separated by single spaces, with no space at either end (the ticket prints the caption as written)"),
            ));
        }
        let c = c.to_string();
        if c.contains([',', '"']) || c.len() > MAX_TEXT || c.starts_with(FORMULA_START) {
            return Err(at.at(
                raw.captions_span(),
                format!("captions.\"{k}\""),
                format!("a caption is at most {MAX_TEXT} bytes, without a comma or a double quote, and does not begin with = + - or @ (a spreadsheet opening tickets.csv would take it for a formula)"),
            ));
        }
        // Captions a reader cannot tell apart (case, spacing, look-alike letters) are one
        // caption.
        let key = reads_as(&c);
        if let Some(other) = seen.get(&key) {
            return Err(at.at(
                raw.captions_span(),
                format!("captions.\"{k}\""),
                format!("caption \"{c}\"{} reads as the caption of {other} (\"{}\"): two amounts may not share a caption, whatever the case, spacing or script of its letters", crate::text::look_alike_note(&c), captions.get(other).map_or("", |s: &String| s.as_str())),
            ));
        }
        seen.insert(key, amount);
        // A caption says its own amount in words, and nothing else (décret: a caption that
        // does not match its figures is a printing anomaly).
        match amount_words::read(&c, language) {
            amount_words::Reading::Amount(said) if said != amount => {
                return Err(at.at(
                    raw.captions_span(),
                    format!("captions.\"{k}\""),
                    format!("reads as {said} (\"{c}\"), not {amount}: a caption in words says the amount printed above it in figures (one that does not match its figures is a printing anomaly)"),
                ));
            }
            amount_words::Reading::Unclear => {
                return Err(at.at(
                    raw.captions_span(),
                    format!("captions.\"{k}\""),
                    format!("\"{c}\" is made of number words but says no amount: write {amount} in words in the game's language ({language}), as \"CINQ EUROS\", \"QUATRE EUROS CINQUANTE\" or \"FIVE DOLLARS\" say theirs"),
                ));
            }
            amount_words::Reading::NotWords => {
                return Err(at.at(
                    raw.captions_span(),
                    format!("captions.\"{k}\""),
                    format!("\"{c}\" does not read as {amount}: a caption says in words the amount printed above it in figures, in the game's language ({language}), as \"CINQ EUROS\", \"QUATRE EUROS CINQUANTE\" or \"FIVE DOLLARS\" say theirs, with nothing else (one that does not match its figures is a printing anomaly)"),
                ));
            }
            amount_words::Reading::Amount(_) => {}
        }
        // It names the game's currency, if any: `DIX DOLLARS` under a prize in euros says
        // another prize.
        if let Some(named) = amount_words::currency(&c, language) {
            if !named.codes().contains(&g.currency.as_str()) {
                let expected = match amount_words::Currency::of(&g.currency) {
                    Some(own) => format!("{} or no currency word", own.word(language)),
                    None => "no currency word (the game's currency has none here)".to_string(),
                };
                return Err(at.at(
                    raw.captions_span(),
                    format!("captions.\"{k}\""),
                    format!("\"{c}\" says {}, but the game's currency is {} (game.currency): expected {expected}", named.word(language), g.currency),
                ));
            }
        }
        if captions.insert(amount, c).is_some() {
            return Err(at.at(
                raw.captions_span(),
                format!("captions.\"{k}\""),
                format!("amount {amount} has two captions"),
            ));
        }
    }

    // An item is its own caption (check_items keeps it apart from every other).
    captions.extend(raw_items(raw));

    let mut tiers = Vec::new();
    let mut ways = vec![Way {
        id: LOSE.into(),
        tier: None,
        amount: Money::ZERO,
        count: 0,
        wins: vec![],
    }];
    let mut amounts_seen = BTreeSet::new();
    let mut way_ids = BTreeSet::from([LOSE.to_string()]);
    for (ti, st) in raw.tiers.iter().enumerate() {
        let t = st.get_ref();
        let tspan = Some(st.span().start);
        // Named as the lot table prints it: the index of the `[[tiers]]` entry (from 0, as
        // every field path counts) and its amount.
        let f = format!("tiers[{ti}]");
        let tag = format!(" (amount {})", t.amount);
        if t.amount.is_zero() {
            return Err(at.at(tspan, format!("{f}.amount"), "a lot amount must be above 0"));
        }
        if !amounts_seen.insert(t.amount) {
            return Err(at.at(
                tspan,
                format!("{f}.amount"),
                format!("amount {} appears in two tiers", t.amount),
            ));
        }
        if t.count == 0 {
            return Err(at.at(tspan, format!("{f}.count{tag}"), "expected at least 1 lot"));
        }
        if let Some(total) = t.total {
            let want = u128::from(t.count) * u128::from(t.amount.cents());
            if u128::from(total.cents()) != want {
                return Err(at.at(
                    tspan,
                    format!("{f}.total{tag}"),
                    format!(
                        "the row says a total of {total}, but {} lots of {} make {}: a typo in the printed table, or in count or amount",
                        t.count,
                        t.amount,
                        u64::try_from(want).map_or("more than can be counted".into(), |c| Money(c).to_string())
                    ),
                ));
            }
        }
        if let Some(printed) = &t.odds {
            let rounding = raw.published.get_ref().odds_rounding;
            odds::check(
                printed,
                u64::from(g.block_size),
                u64::from(t.count),
                rounding,
            )
            .map_err(|m| at.at(tspan, format!("{f}.odds{tag}"), m))?;
        }
        if t.ways.is_empty() {
            return Err(at.at(
                tspan,
                format!("{f}.ways{tag}"),
                format!("tier {} has no way: say how it is reached", t.amount),
            ));
        }
        let mut ids = Vec::new();
        let mut sum: u64 = 0;
        for (wi, sw) in t.ways.iter().enumerate() {
            let w = sw.get_ref();
            let wspan = Some(sw.span().start);
            let wf = format!("{f}.ways[{wi}]");
            let wtag = format!(" (amount {}, way \"{}\")", t.amount, w.id);
            let printable =
                w.id.bytes()
                    .all(|b| b.is_ascii_graphic() && b != b',' && b != b'"');
            if w.id.is_empty() || w.id.len() > 64 || !printable || w.id.starts_with(FORMULA_START) {
                return Err(at.at(
                    wspan,
                    format!("{wf}.id{tag}"),
                    format!("way id {:?}: expected 1 to 64 printable ASCII characters, without spaces, commas or quotes, not beginning with = + - or @ (a spreadsheet opening the CSV files would take it for a formula)", w.id),
                ));
            }
            if !way_ids.insert(w.id.clone()) {
                return Err(at.at(
                    wspan,
                    format!("{wf}.id{tag}"),
                    format!(
                        "way id \"{}\" is used twice (\"lose\" is reserved for losing tickets)",
                        w.id
                    ),
                ));
            }
            if w.count == 0 {
                return Err(at.at(
                    wspan,
                    format!("{wf}.count{wtag}"),
                    "expected at least 1 ticket",
                ));
            }
            if w.wins.is_empty() {
                return Err(at.at(
                    wspan,
                    format!("{wf}.wins{wtag}"),
                    "expected at least one winning amount",
                ));
            }
            if let Some(areas) = &w.areas {
                if areas.len() != w.wins.len() {
                    return Err(at.at(
                        wspan,
                        format!("{wf}.areas{wtag}"),
                        format!("expected {} areas, one per win", w.wins.len()),
                    ));
                }
            }
            let total = w
                .wins
                .iter()
                .try_fold(Money::ZERO, |a, &m| a.checked_add(m));
            if total != Some(t.amount) {
                let shown: Vec<String> = w.wins.iter().map(|m| m.to_string()).collect();
                return Err(at.at(
                    wspan,
                    format!("{wf}.wins{wtag}"),
                    format!(
                        "{} adds up to {}, expected the tier's amount {}",
                        shown.join(" + "),
                        total.map_or("overflow".into(), |m| m.to_string()),
                        t.amount
                    ),
                ));
            }
            // A single win multiplied (by a surface's factor or the box) is a combination.
            let multiplied = w.multiplier_box.is_some_and(|f| f > 1) || multiplies(raw);
            if t.combined_only && w.wins.len() < 2 && !multiplied {
                return Err(at.at(
                    wspan,
                    format!("{wf}.wins{wtag}"),
                    format!("tier {} is reachable only by adding several wins (combined_only), but this way has a single win", t.amount),
                ));
            }
            sum += u64::from(w.count);
            ids.push(ways.len() as WayId);
            ways.push(Way {
                id: w.id.clone(),
                tier: Some(ti),
                amount: t.amount,
                count: w.count,
                wins: w
                    .wins
                    .iter()
                    .map(|&amount| Win { area: None, amount })
                    .collect(),
            });
        }
        if sum != u64::from(t.count) {
            return Err(at.at(
                tspan,
                format!("{f}.ways{tag}"),
                format!(
                    "the ways' counts sum to {sum}, expected the tier's count {}",
                    t.count
                ),
            ));
        }
        tiers.push(Tier {
            amount: t.amount,
            count: t.count,
            combined_only: t.combined_only,
            ways: ids,
            item: t.item.as_ref().map(|i| i.trim().to_string()),
        });
    }
    if ways.len() > usize::from(u16::MAX) {
        return Err(at.at(None, "tiers", "too many ways (at most 65 534)"));
    }
    let lots: u64 = tiers.iter().map(|t| u64::from(t.count)).sum();
    // Checked: a payout that does not fit in 64 bits of cents is an error, never a wrap.
    let payout: u64 = tiers
        .iter()
        .try_fold(0u64, |acc, t| {
            t.amount
                .cents()
                .checked_mul(u64::from(t.count))
                .and_then(|p| acc.checked_add(p))
        })
        .ok_or_else(|| {
            at.at(
                Some(raw.published.span().start),
                "tiers",
                format!("the lot table's payout exceeds {} (64-bit cents): an amount or count is far too large", Money(u64::MAX)),
            )
        })?;
    let published = raw.published.get_ref();
    let pspan = Some(raw.published.span().start);
    if lots != published.lots {
        return Err(at.at(
            pspan,
            "published.lots",
            format!(
                "the lot table has {lots} lots, the published total is {}",
                published.lots
            ),
        ));
    }
    if payout != published.payout.cents() {
        return Err(at.at(
            pspan,
            "published.payout",
            format!(
                "the lot table pays {}, the published total is {}",
                Money(payout),
                published.payout
            ),
        ));
    }
    if let (Some(printed), true) = (&published.odds, lots > 0) {
        odds::check(
            printed,
            u64::from(g.block_size),
            lots,
            published.odds_rounding,
        )
        .map_err(|m| at.at(pspan, "published.odds", m))?;
    }
    if lots > u64::from(g.block_size) {
        return Err(at.at(
            pspan,
            "published.lots",
            format!(
                "{lots} lots do not fit in a block of {} tickets",
                g.block_size
            ),
        ));
    }
    ways[0].count = g.block_size - lots as u32;

    Ok(GameSpec {
        id: g.id.clone(),
        name: g.name.clone(),
        legal_reference: g.legal_reference.clone(),
        note: g.note.clone(),
        reconstructed: g.reconstructed,
        currency: g.currency.clone(),
        language,
        price: g.price,
        block_size: g.block_size,
        pack_size: g.pack_size,
        game_code: g.game_code,
        emission: g.emission,
        pack_rules: pack_rules(raw, at, g.block_size, g.pack_size, lots)?,
        tiers,
        ways,
        captions,
        labels: BTreeMap::new(),
        published_lots: published.lots,
        published_payout: published.payout,
        game,
        signing_key: signing_key(raw, at)?,
        text: String::new(),
        sha256: String::new(),
        path: PathBuf::new(),
    })
}

/// Fewest winners a pack of `size` tickets needs so that no run of losers is longer than
/// `max_run`: `size − c` losers in the `c + 1` gaps around `c` winners.
pub fn least_winners_for_runs(size: u32, max_run: u32) -> u32 {
    size.saturating_sub(max_run).div_ceil(max_run + 1)
}

/// Validates `[packs]`: constraints that no arrangement could meet are rejected, naming the
/// field (constraints that could be met but that allocation is unlikely to draw are
/// `tirage check`'s business).
fn pack_rules(
    raw: &raw::RawSpec,
    at: &ErrorAt,
    block_size: u32,
    pack_size: u32,
    lots: u64,
) -> Result<PackRules, SpecError> {
    let Some(sp) = &raw.packs else {
        return Ok(PackRules::default());
    };
    let (p, span) = (sp.get_ref(), Some(sp.span().start));
    let full_packs = u64::from(block_size / pack_size);
    let packs = u64::from(block_size.div_ceil(pack_size));
    let short = block_size % pack_size;
    if let Some(k) = p.min_winners {
        if k == 0 || k > pack_size || u64::from(k) * full_packs > lots {
            return Err(at.at(
                span,
                "packs.min_winners",
                format!("{k} winners in each of {full_packs} full packs: expected 1..={pack_size} and at most {lots} lots in all"),
            ));
        }
    }
    let payout: u64 = raw
        .tiers
        .iter()
        .map(|t| {
            t.get_ref()
                .amount
                .cents()
                .saturating_mul(u64::from(t.get_ref().count))
        })
        .fold(0u64, u64::saturating_add);
    if let Some(m) = p.min_payout {
        if m.is_zero() || m.cents().saturating_mul(full_packs) > payout {
            return Err(at.at(
                span,
                "packs.min_payout",
                format!(
                    "{m} in each of {full_packs} full packs: expected more than 0 and at most {} in all (the block's payout)",
                    Money(payout)
                ),
            ));
        }
    }
    let at_least = |amount: Money| -> u64 {
        raw.tiers
            .iter()
            .filter(|t| t.get_ref().amount >= amount)
            .map(|t| u64::from(t.get_ref().count))
            .sum()
    };
    let mut max_from_tier = Vec::new();
    for (i, m) in p.max_from_tier.iter().enumerate() {
        let n = at_least(m.amount);
        if m.count == 0 || u64::from(m.count) * packs < n {
            return Err(at.at(
                span,
                format!("packs.max_from_tier[{i}]"),
                format!(
                    "{n} tickets of {} or more cannot fit {} per pack in {packs} packs",
                    m.amount, m.count
                ),
            ));
        }
        max_from_tier.push((m.amount, m.count));
    }
    if let Some(c) = p.carton_size {
        if c == 0 || u64::from(c) > packs {
            return Err(at.at(
                span,
                "packs.carton_size",
                format!("{c} packs per carton: expected 1..={packs} (the block's packs)"),
            ));
        }
    }
    let mut max_per_carton = Vec::new();
    for (i, m) in p.max_per_carton.iter().enumerate() {
        let Some(c) = p.carton_size else {
            return Err(at.at(
                span,
                format!("packs.max_per_carton[{i}]"),
                "a cap per carton needs packs.carton_size (packs per carton)",
            ));
        };
        let cartons = packs.div_ceil(u64::from(c));
        let n = at_least(m.amount);
        if m.count == 0 || u64::from(m.count) * cartons < n {
            return Err(at.at(
                span,
                format!("packs.max_per_carton[{i}]"),
                format!(
                    "{n} tickets of {} or more cannot fit {} per carton in {cartons} cartons",
                    m.amount, m.count
                ),
            ));
        }
        max_per_carton.push((m.amount, m.count));
    }
    if let Some(l) = p.max_losers_in_a_row {
        let per_full = least_winners_for_runs(pack_size, l).max(p.min_winners.unwrap_or(0));
        let need = u64::from(per_full) * full_packs
            + u64::from(if short > 0 {
                least_winners_for_runs(short, l)
            } else {
                0
            });
        if need > lots {
            return Err(at.at(
                span,
                "packs.max_losers_in_a_row",
                format!(
                    "at most {l} losers in a row needs at least {need} winning tickets in the block ({per_full} per full pack), the lot table has {lots}"
                ),
            ));
        }
    }
    Ok(PackRules {
        min_winners: p.min_winners,
        min_payout: p.min_payout,
        max_from_tier,
        carton_size: p.carton_size,
        max_per_carton,
        max_losers_in_a_row: p.max_losers_in_a_row,
    })
}

/// Byte offset of the entry of way `index` (1-based: way 0 is the losing way).
fn way_span(raw: &raw::RawSpec, index: usize) -> Option<usize> {
    raw.tiers
        .iter()
        .flat_map(|t| t.get_ref().ways.iter())
        .nth(index.checked_sub(1)?)
        .map(|w| w.span().start)
}

/// Every area a way names is one of the game's play areas.
fn check_area_names(raw: &raw::RawSpec, areas: &[String], at: &ErrorAt) -> Result<(), SpecError> {
    for (ti, st) in raw.tiers.iter().enumerate() {
        for (wi, sw) in st.get_ref().ways.iter().enumerate() {
            if let Some(names) = &sw.get_ref().areas {
                for n in names {
                    if !areas.iter().any(|a| a == n) {
                        return Err(at.at(
                            Some(sw.span().start),
                            format!(
                                "tiers[{ti}].ways[{wi}].areas (amount {}, way \"{}\")",
                                st.get_ref().amount,
                                sw.get_ref().id
                            ),
                            format!(
                                "unknown play area \"{n}\"; this game's areas are {}",
                                areas.join(", ")
                            ),
                        ));
                    }
                }
            }
        }
    }
    Ok(())
}

/// Checks that need the game: every amount a face can show has a caption, every caption
/// is of an amount a face can show or a tier pays, and ways of one tier can be told apart
/// on a face.
fn validate_against_game(
    spec: &GameSpec,
    raw: &raw::RawSpec,
    at: &ErrorAt,
) -> Result<(), SpecError> {
    for amount in &spec.game.layout().shown_amounts {
        if spec.caption(*amount).is_none() {
            return Err(at.at(
                raw.captions_span(),
                "captions",
                styles::no_caption(*amount, !spec.captions.is_empty()),
            ));
        }
    }
    // Nor a caption no face and no tier prints: refused, as a `[symbol_captions]` key no
    // face shows is.
    let shown = &spec.game.layout().shown_amounts;
    for (k, _) in raw.caption_entries() {
        let Ok(amount) = k.parse::<Money>() else {
            continue;
        };
        if !shown.contains(&amount) && !spec.tiers.iter().any(|t| t.amount == amount) {
            let list = |v: &mut dyn Iterator<Item = Money>| {
                v.map(|m| m.to_string()).collect::<Vec<_>>().join(", ")
            };
            return Err(at.at(
                raw.captions_span(),
                format!("captions.\"{k}\""),
                format!(
                    "no face of this game shows {amount} in figures and no tier pays it, so its caption is never printed: remove it (the amounts a face shows: {}; the tiers: {})",
                    if shown.is_empty() {
                        "none".to_string()
                    } else {
                        list(&mut shown.iter().copied())
                    },
                    list(&mut spec.tiers.iter().map(|t| t.amount))
                ),
            ));
        }
    }
    // Ways of a tier must be distinguishable from the face alone.
    for t in &spec.tiers {
        for (i, &a) in t.ways.iter().enumerate() {
            for &b in &t.ways[i + 1..] {
                let (wa, wb) = (&spec.ways[a as usize], &spec.ways[b as usize]);
                let sorted = |w: &Way| {
                    let mut v: Vec<Money> = w.wins.iter().map(|x| x.amount).collect();
                    v.sort_unstable();
                    v
                };
                if sorted(wa) == sorted(wb)
                    && (wa.wins.iter().any(|w| w.area.is_none())
                        || wb.wins.iter().any(|w| w.area.is_none()))
                {
                    return Err(at.at(
                        way_span(raw, b as usize),
                        format!("ways \"{}\" and \"{}\"", wa.id, wb.id),
                        "same winning amounts: give both fixed areas (`areas = [...]`) so a face tells them apart",
                    ));
                }
                // Several wins may share an area (pharaon: one per winning hieroglyph of
                // area II), so compare the multisets of (area, amount).
                let placed = |w: &Way| {
                    let mut v: Vec<(Option<u8>, Money)> =
                        w.wins.iter().map(|x| (x.area, x.amount)).collect();
                    v.sort_unstable();
                    v
                };
                if placed(wa) == placed(wb) {
                    return Err(at.at(
                        way_span(raw, b as usize),
                        format!("ways \"{}\" and \"{}\"", wa.id, wb.id),
                        "same winning amounts in the same areas: a face cannot tell them apart",
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Resolves the `areas` of every way against the game's area names.
fn resolve_areas(ways: &mut [Way], raw: &raw::RawSpec, areas: &[String]) {
    let mut k = 1;
    for st in &raw.tiers {
        for sw in &st.get_ref().ways {
            if let Some(names) = &sw.get_ref().areas {
                for (win, n) in ways[k].wins.iter_mut().zip(names) {
                    // The game holds at most MAX_AREAS (255) play areas.
                    win.area = areas
                        .iter()
                        .position(|a| a == n)
                        .map(|i| u8::try_from(i).expect("at most MAX_AREAS play areas"));
                }
            }
            k += 1;
        }
    }
}

/// What is wrong with the integer written at byte `offset` of `text` (the spec at `path`),
/// one TOML cannot hold (beyond ±9,223,372,036,854,775,807): what its field says of the
/// nearest value TOML holds, with the number as written (`invalid value: integer
/// `18446744073709551615`, expected a whole number from 0 to 4,294,967,295`), found by
/// validating a copy of `text` with that value in its place; when the field takes that
/// value, or the copy fails elsewhere first, that TOML holds no such integer.
fn beyond_toml(path: &Path, text: &str, offset: usize) -> String {
    let token = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '+' || c == '-';
    let offset = offset.min(text.len());
    let start = text[..offset]
        .rfind(|c: char| !token(c))
        .map_or(0, |i| i + 1);
    let end = text[offset..]
        .find(|c: char| !token(c))
        .map_or(text.len(), |i| offset + i);
    let literal = &text[start..end];
    let nearest = if literal.starts_with('-') {
        i64::MIN
    } else {
        i64::MAX
    }
    .to_string();
    let beyond = format!(
        "{literal} is beyond what a TOML integer holds (-9,223,372,036,854,775,808 to 9,223,372,036,854,775,807)"
    );
    if literal.is_empty() || literal == nearest {
        return beyond;
    }
    let copy = format!("{}{nearest}{}", &text[..start], &text[end..]);
    let quoted = format!("`{nearest}`");
    match GameSpec::parse(path, copy) {
        Err(e) if e.message.contains(&quoted) => {
            e.message.replace(&quoted, &format!("`{literal}`"))
        }
        _ => beyond,
    }
}

#[cfg(test)]
mod tests {
    use super::{raw, TABLES};

    /// [`TABLES`] names every top-level table of [`raw::RawSpec`], in its order: serde's
    /// own list of the fields it expects.
    #[test]
    fn the_tables_a_header_may_name_are_those_of_the_spec() {
        let e = toml::from_str::<raw::RawSpec>("zzz = 1\n").unwrap_err();
        let listed: Vec<String> = e
            .message()
            .split("expected one of ")
            .nth(1)
            .unwrap()
            .split(", ")
            .map(|f| f.trim().trim_matches('`').to_string())
            .collect();
        let tables: Vec<String> = TABLES
            .iter()
            .map(|t| t.trim_matches(|c| c == '[' || c == ']').to_string())
            .collect();
        assert_eq!(listed, tables);
    }
}
