//! Game mechanics: how a face is built for a way, and how the published rule judges it.
//!
//! A mechanic implements [`Mechanic`]. Synthesis constructs a face for a way; evaluation
//! judges a face from the rule text alone and never looks at how it was made. The pipeline
//! evaluates every synthesized face before writing it, and `verify` evaluates every face it
//! reads back, so the two must agree exactly.
//!
//! A face is a fixed array of one-byte codes, one per face column; each column has a
//! dictionary ([`Column::values`]) that turns a code into the text printed in files. That
//! keeps faces small and copyable and lets the writers, the parsers and the caption check be
//! shared by every game.

pub mod common;
pub mod coq;
pub mod pharaon;

use crate::money::Money;
use crate::spec::raw::RawSpec;
use crate::spec::{ErrorAt, GameSpec, SpecError, Way};
use arrayvec::ArrayVec;
use rand_chacha::ChaCha20Rng;

/// Most face columns a mechanic may have.
pub const MAX_CELLS: usize = 32;

/// The random stream faces are drawn from (one per pack; see [`crate::rng`]).
pub type FaceRng = ChaCha20Rng;

/// Everything under the scratch layer of one ticket, as one code per face column.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Face {
    /// `codes[i]` indexes `columns()[i].values`; codes past the mechanic's columns are 0.
    pub codes: [u8; MAX_CELLS],
}

impl Default for Face {
    fn default() -> Self {
        Face {
            codes: [0; MAX_CELLS],
        }
    }
}

/// What a face column holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ColumnKind {
    /// A symbol (or card) code.
    Symbol,
    /// An amount in figures; `amounts[code]` is its value in cents.
    Amount(Vec<Money>),
    /// The caption (amount in letters) of the amount in face column `of`.
    Caption {
        /// Index of the amount column this caption belongs to.
        of: usize,
    },
}

/// One face column: its name in the CSV header, its kind and its dictionary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    /// CSV header name (GAMES.md, "Files a block produces").
    pub name: String,
    /// What the column holds.
    pub kind: ColumnKind,
    /// Code → text written in files (at most 256 values).
    pub values: Vec<String>,
}

impl Column {
    /// A caption column over every caption of the spec, for the amount column `of`.
    pub fn caption(name: impl Into<String>, of: usize, captions: &Captions) -> Column {
        Column {
            name: name.into(),
            kind: ColumnKind::Caption { of },
            values: captions.texts.clone(),
        }
    }
}

/// The spec's captions in amount order: the dictionary every caption column shares.
#[derive(Clone, Debug, Default)]
pub struct Captions {
    /// Amounts, ascending, in cents.
    pub amounts: Vec<Money>,
    /// `texts[i]` is the caption of `amounts[i]`.
    pub texts: Vec<String>,
}

impl Captions {
    /// The caption code of `amount`, or the message that it has none.
    pub fn code(&self, amount: Money) -> Result<u8, String> {
        self.amounts
            .iter()
            .position(|&m| m == amount)
            .map(|i| i as u8)
            .ok_or_else(|| format!("amount {amount} can be shown on a face but has no caption"))
    }
}

/// One winning play area found by evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AreaWin {
    /// Index of the play area in [`Mechanic::areas`].
    pub area: u8,
    /// Amount it wins, in cents.
    pub amount: Money,
}

/// Most winning play areas on one ticket.
pub const MAX_WINS: usize = 8;

/// The rule's judgement of a face.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Evaluation {
    /// Every winning play area (empty for a losing ticket).
    pub wins: ArrayVec<AreaWin, MAX_WINS>,
    /// Breaches of the ambiguity policy (GAMES.md): each names the case. A face with any
    /// is never produced and is a finding in `verify`.
    pub ambiguities: Vec<&'static str>,
}

impl Evaluation {
    /// The ticket's lot: the sum of its winning play areas, in cents.
    pub fn prize(&self) -> Money {
        Money(self.wins.iter().map(|w| w.amount.cents()).sum())
    }
}

/// A game mechanic. Implementations are pure: no I/O, no global RNG.
pub trait Mechanic: Send + Sync {
    /// Mechanic name as written in `game.mechanic`.
    fn name(&self) -> &'static str;
    /// Play areas a win can sit in, by name (`jeu1`, `jeu2` for coq; `I`..`IV` for pharaon,
    /// where several wins may sit in area `II`, one per winning hieroglyph).
    fn areas(&self) -> &[String];
    /// The face columns, in file order.
    fn columns(&self) -> &[Column];
    /// Every amount a face can show in figures (each needs a caption).
    fn shown_amounts(&self) -> Vec<Money>;
    /// Whether this mechanic can realise `way` under the ambiguity policy; `Err` says why
    /// not (the spec is then rejected).
    fn check_way(&self, way: &Way, spec: &GameSpec) -> Result<(), String>;
    /// Builds a face realising `way` (the losing way for `way.wins` empty), drawing every
    /// choice from `rng`. `Err` means the mechanic could not build it: a bug or an
    /// infeasible spec, never retried silently.
    fn synthesize(&self, way: &Way, rng: &mut FaceRng) -> Result<Face, String>;
    /// Judges `face` by the règlement alone.
    fn evaluate(&self, face: &Face) -> Evaluation;
    /// Human-readable lines on the mechanic's settings, for `tirage check`.
    fn describe(&self) -> Vec<String>;
}

/// Builds the mechanic named in `game.mechanic` from its spec section.
/// Errors: unknown mechanic, missing or invalid mechanic section.
pub fn build(raw: &RawSpec, at: &ErrorAt) -> Result<Box<dyn Mechanic>, SpecError> {
    let game = raw.game.get_ref();
    let captions = caption_values(raw);
    let missing = |name: &str| {
        at.at(
            Some(raw.game.span().start),
            format!("[{name}]"),
            format!("mechanic \"{name}\" needs a [{name}] section"),
        )
    };
    match game.mechanic.as_str() {
        "coq" => {
            let sec = raw.coq.as_ref().ok_or_else(|| missing("coq"))?;
            Ok(Box::new(coq::Coq::new(sec, &captions, at)?))
        }
        "pharaon" => {
            let sec = raw.pharaon.as_ref().ok_or_else(|| missing("pharaon"))?;
            let table: Vec<Money> = raw.tiers.iter().map(|t| t.get_ref().amount).collect();
            Ok(Box::new(pharaon::Pharaon::new(sec, &captions, &table, at)?))
        }
        other => Err(at.at(
            Some(raw.game.span().start),
            "game.mechanic",
            format!("unknown mechanic \"{other}\"; expected one of: coq, pharaon"),
        )),
    }
}

/// The caption dictionary every caption column shares: the spec's captions in amount order
/// (keys that are not amounts are left out here and rejected by the spec's own checks).
fn caption_values(raw: &RawSpec) -> Captions {
    let mut v: Vec<(Money, String)> = raw
        .captions
        .get_ref()
        .iter()
        .filter_map(|(k, c)| k.parse::<Money>().ok().map(|m| (m, c.trim().to_string())))
        .collect();
    v.sort();
    Captions {
        amounts: v.iter().map(|x| x.0).collect(),
        texts: v.into_iter().map(|x| x.1).collect(),
    }
}
