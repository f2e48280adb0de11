//! Play styles: how a face is built for a way, and how the published rule judges it.
//!
//! A play style implements [`Style`]. Synthesis constructs a face for a way; evaluation
//! judges a face from the rule text alone and never looks at how it was made. The pipeline
//! evaluates every synthesized face before writing it, and `verify` evaluates every face it
//! reads back, so the two must agree exactly.
//!
//! A face is one one-byte code per face column, held inline up to [`INLINE_CELLS`]
//! columns; each column has a dictionary ([`Column::values`]) that turns a code into the
//! text printed in files. That keeps faces small and lets the writers, the parsers and the
//! caption check be shared by every game.

pub mod card_hands;
pub mod card_total;
pub mod common;
pub mod compare;
pub mod crossword;
pub mod game;
pub mod key_match;
pub mod layout;
pub mod lines;
pub mod match_amounts;
pub mod match_count;
pub mod match_symbols;
pub mod multiply;
pub mod reveal;
pub mod shared;
mod special;
pub mod style;
pub mod symbol_to_prize;
#[cfg(test)]
pub(crate) mod testkit;

use crate::lots::Way;
use crate::money::Money;
use arrayvec::ArrayVec;
pub use layout::{Column, ColumnKind, Lattice, LatticeGrid, Layout, Panel, Printed, FREE_CELL};
use shared::Beside;
use smallvec::SmallVec;
use std::sync::Arc;

/// Face columns a [`Face`] holds inline, without a heap allocation: every face of a game
/// of at most this many columns is that long, whatever its columns (codes past them are 0).
pub const INLINE_CELLS: usize = 128;

/// Most face columns a ticket may have: a print record (38 bytes, then one byte per face
/// column) must fit the print file's 16-bit record size.
pub const MAX_COLUMNS: usize = u16::MAX as usize - 38;

/// Most values a face column may have: a code is one byte.
pub const MAX_VALUES: usize = 256;

/// The random stream faces are drawn from (one per pack; see [`crate::crypto::rng`]).
pub type FaceRng = crate::crypto::rng::Stream;

/// Everything under the scratch layer of one ticket, as one code per face column.
///
/// A face of up to [`INLINE_CELLS`] columns is held inline; a longer one on the heap, one
/// byte per column ([`Face::zeroed`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Face {
    /// `codes[i]` indexes `layout.columns[i].values`; codes past the style's columns are 0.
    /// At least [`INLINE_CELLS`] codes, and at least one per face column.
    pub codes: SmallVec<[u8; INLINE_CELLS]>,
}

impl Face {
    /// A face of `columns` face columns, every code 0: [`INLINE_CELLS`] codes when that
    /// is more.
    pub fn zeroed(columns: usize) -> Face {
        let codes = if columns <= INLINE_CELLS {
            // One store of the inline array, not a push per code.
            SmallVec::from_buf([0; INLINE_CELLS])
        } else {
            SmallVec::from_vec(vec![0; columns])
        };
        Face { codes }
    }

    /// Makes it what [`Face::zeroed`]`(columns)` makes, in place: every code 0, as many
    /// codes as a new face of `columns` face columns. A face of that many codes already is
    /// zeroed where it lies (no allocation, no move); another is replaced.
    pub fn reset(&mut self, columns: usize) {
        if self.codes.len() == columns.max(INLINE_CELLS) {
            self.codes.fill(0);
        } else {
            *self = Face::zeroed(columns);
        }
    }
}

impl Default for Face {
    /// A face of at most [`INLINE_CELLS`] face columns, every code 0.
    fn default() -> Self {
        Face::zeroed(0)
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

/// Most captions a spec may give, items included: a caption column codes each in one byte.
pub const MAX_CAPTIONS: usize = common::MAX_SYMBOLS;

impl Captions {
    /// The caption code of `amount`, or the message that it has none, or that it is past
    /// the [`MAX_CAPTIONS`] a caption column can code (the spec refuses more at load).
    pub fn code(&self, amount: Money) -> Result<u8, String> {
        let i = self
            .amounts
            .iter()
            .position(|&m| m == amount)
            .ok_or_else(|| no_caption(amount, !self.amounts.is_empty()))?;
        u8::try_from(i).map_err(|_| {
            format!(
                "the caption of {amount} is caption {} of the spec: at most {MAX_CAPTIONS}",
                i + 1
            )
        })
    }
}

/// Why `amount`, which a face can show in figures, is refused: it has no caption. `any` is
/// false when the spec gives no caption at all (no `[captions]` table, or an empty one):
/// the message then says what the table is for.
pub fn no_caption(amount: Money, any: bool) -> String {
    let what = "a caption is the amount in letters printed under its figures, and both must agree";
    if any {
        format!("amount {amount} can be shown on a face but has no caption: add \"{amount}\" = \"…\" to [captions] ({what})")
    } else {
        format!("amount {amount} can be shown on a face but the spec has no [captions]: add the table, with \"{amount}\" = \"…\" and a line for every other amount a face shows ({what})")
    }
}

/// One winning play area found by evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AreaWin {
    /// Index of the play area in [`Layout::areas`].
    pub area: u8,
    /// Amount it wins, in cents.
    pub amount: Money,
}

/// Most winning play areas on one ticket.
pub const MAX_WINS: usize = 32;

/// What a winning play area shows, for styles whose areas win in several ways (a card
/// game: the combination a zone wins with, e.g. a three of a kind). Informative only: the amount never depends
/// on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AreaFeature {
    /// Index of the play area in [`Layout::areas`].
    pub area: u8,
    /// What it shows: an index into [`Layout::features`] (the style's table in a style's
    /// evaluation, the game's in the game's).
    pub id: FeatureId,
}

/// The rule's judgement of a face.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Evaluation {
    /// Every winning play area (empty for a losing ticket).
    pub wins: ArrayVec<AreaWin, MAX_WINS>,
    /// Breaches of the ambiguity policy (GAMES.md): each names the case. A face with any
    /// is never produced and is a finding in `verify`.
    pub ambiguities: Vec<&'static str>,
    /// What each winning play area shows, for styles that name it (a card game:
    /// its combination); empty for the others. At most one per winning play area.
    pub features: ArrayVec<AreaFeature, MAX_WINS>,
    /// What losing play areas (or losing parts of an area, such as a losing pedestal beside
    /// a winning one) show: near misses, and the decoys the rules name. Never read to judge
    /// the prize; several may name one area.
    pub losing_features: ArrayVec<AreaFeature, MAX_WINS>,
}

impl Evaluation {
    /// Empties it: no win, ambiguity or feature.
    pub fn clear(&mut self) {
        self.wins.clear();
        self.ambiguities.clear();
        self.features.clear();
        self.losing_features.clear();
    }

    /// The ticket's lot: the sum of its winning play areas, in cents.
    pub fn prize(&self) -> Money {
        Money(self.wins.iter().map(|w| w.amount.cents()).sum())
    }

    /// What winning play area `area` shows, if the style names it.
    pub fn feature(&self, area: u8) -> Option<FeatureId> {
        self.features.iter().find(|f| f.area == area).map(|f| f.id)
    }

    /// True when the face shows feature `id` anywhere (a winning play area's feature or a
    /// losing one's).
    pub fn shows(&self, id: FeatureId) -> bool {
        self.features
            .iter()
            .chain(&self.losing_features)
            .any(|f| f.id == id)
    }
}

/// Where a feature is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FeatureKind {
    /// On a winning play area: what it wins with (a card game: a combination).
    Winning,
    /// On a losing play area or element: a near miss, one symbol short of a win.
    NearMiss,
    /// On a losing play area or element: a decoy the rules name (a symbol or amount shown
    /// where it wins nothing).
    Decoy,
}

impl FeatureKind {
    /// True for the features of losing play areas (near misses and decoys).
    pub fn losing(self) -> bool {
        self != FeatureKind::Winning
    }
}

/// A feature a style's faces can show, reported by its evaluator from the face alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureInfo {
    /// ASCII name printed in manifests, reports and proofs (e.g. `carre`,
    /// `near_miss_flush`).
    pub name: String,
    /// A winning play area's, or a losing one's near miss or decoy.
    pub kind: FeatureKind,
    /// What the face shows, in words (English: manifests, reports, QA decks).
    pub about: String,
    /// The same in French, for the proofs of a ticket printed in French.
    pub about_fr: String,
}

impl FeatureInfo {
    /// What the face shows, in words of `language` (proofs follow the ticket's language).
    pub fn about_in(&self, language: crate::language::Language) -> &str {
        match language {
            crate::language::Language::Fr => &self.about_fr,
            crate::language::Language::En => &self.about,
        }
    }
}

/// A feature's index in a feature table ([`Features`]): a style's own in its layout, or
/// the game's, which gathers its surfaces' ([`game::Game`]). Evaluations carry it; whatever
/// prints a feature looks its name up in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FeatureId(pub u16);

/// Every feature a style's evaluator can report (or a game's surfaces'), each name once:
/// [`FeatureId`] `i` is the `i`-th. Built once, by the style's constructor (or the game's).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Features {
    list: Vec<FeatureInfo>,
    /// What a proof writes after « with » for a winning feature its style names, in English
    /// and in French ([`Features::call`]).
    called: std::collections::BTreeMap<FeatureId, [String; 2]>,
}

impl Features {
    /// Adds the feature `name`, what it shows in English (`about`) and in French
    /// (`about_fr`), and returns its id; a name already in the table keeps its first entry
    /// and id. Panics past 65 536 features (styles allow far fewer).
    pub fn add(
        &mut self,
        name: impl Into<String>,
        kind: FeatureKind,
        about: impl Into<String>,
        about_fr: impl Into<String>,
    ) -> FeatureId {
        let name = name.into();
        if let Some(id) = self.find(&name) {
            return id;
        }
        let id = FeatureId(u16::try_from(self.list.len()).expect("at most 65 536 features"));
        self.list.push(FeatureInfo {
            name,
            kind,
            about: about.into(),
            about_fr: about_fr.into(),
        });
        id
    }

    /// Adds feature `id` of table `from` (another style's or surface's), with what a proof
    /// calls it, as [`Features::add`] does; returns its id here.
    pub fn add_from(&mut self, from: &Features, id: FeatureId) -> FeatureId {
        let f = from.get(id);
        let here = self.add(f.name.clone(), f.kind, f.about.clone(), f.about_fr.clone());
        if let Some(c) = from.called.get(&id) {
            self.called.entry(here).or_insert_with(|| c.clone());
        }
        here
    }

    /// Names winning feature `id` as a proof writes it after « with », in English (`en`)
    /// and in French (`fr`): `a natural` and `un blackjack`, a combination's printed name.
    /// A winning feature no style names is written by its name.
    pub fn call(&mut self, id: FeatureId, en: impl Into<String>, fr: impl Into<String>) {
        self.called.insert(id, [en.into(), fr.into()]);
    }

    /// What a proof writes after « with » for feature `id` in `language` ([`Features::call`]),
    /// if its style names it.
    pub fn called(&self, id: FeatureId, language: crate::language::Language) -> Option<&str> {
        let [en, fr] = self.called.get(&id)?;
        Some(match language {
            crate::language::Language::Fr => fr,
            crate::language::Language::En => en,
        })
    }

    /// Feature `id`. Panics for an id of another table.
    pub fn get(&self, id: FeatureId) -> &FeatureInfo {
        &self.list[usize::from(id.0)]
    }

    /// The name of feature `id`.
    pub fn name(&self, id: FeatureId) -> &str {
        &self.get(id).name
    }

    /// The id of the feature named `name`, if the table has it.
    pub fn find(&self, name: &str) -> Option<FeatureId> {
        self.list
            .iter()
            .position(|f| f.name == name)
            .map(|i| FeatureId(i as u16))
    }

    /// Every feature with its id, in table order.
    pub fn iter(&self) -> impl Iterator<Item = (FeatureId, &FeatureInfo)> {
        self.list
            .iter()
            .enumerate()
            .map(|(i, f)| (FeatureId(i as u16), f))
    }

    /// The number of features.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// True when the table has no feature.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

/// What a proof marks on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MarkKind {
    /// The cell is part of a win: a symbol of the winning pattern or the amount it wins.
    Win,
    /// The cell makes a near miss: a losing play area one symbol short of a win.
    NearMiss,
    /// The cell is a decoy: an amount or symbol shown where it wins nothing.
    Decoy,
}

/// One marked cell of a face.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    /// The play area whose win, near miss or decoy this is (index into
    /// [`Layout::areas`]). A cell two areas read (cells two play areas share, a card game's
    /// community cards) may be marked once for each.
    pub area: u8,
    /// The face column (index into [`Layout::columns`]).
    pub column: usize,
    /// What the cell does on this face.
    pub kind: MarkKind,
}

/// Most syntheses of one ticket asked to show a feature before giving up (see
/// [`game::Game::synthesize_showing_checked`]).
pub const FEATURE_ATTEMPTS: usize = 16;

/// Why a style refuses a way, a feature asked of a way, or one of its settings: found when
/// the spec loads ([`Style::plan`], [`Style::check_ways`]), where the game adds the surface
/// and the way ([`game::PlanError`]), or when a QA deck asks for a feature
/// ([`Plan::can_show`]). Areas are named as the spec names them (`jeu1`, `II`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// A win names a play area (by its index on the surface) the surface does not have.
    #[error("play area {area} is not on this surface")]
    NoSuchArea {
        /// The index the win names.
        area: u8,
    },
    /// Two wins name one play area, which wins at most once.
    #[error("two wins name play area \"{area}\", which wins at most once")]
    SameArea {
        /// The play area.
        area: String,
    },
    /// More wins than the surface can show at once.
    #[error("{wins} wins, but « {area} » shows at most {most} at once ({why})")]
    TooManyWins {
        /// The surface's play area, or its panel when it has several.
        area: String,
        /// The way's wins on the surface.
        wins: usize,
        /// The most the surface shows on one ticket.
        most: usize,
        /// What bounds them, in words.
        why: &'static str,
    },
    /// More winning lines than a grid can show with a cell left for the multiplier beside
    /// them (lines): the multiplier's cell is on no winning line and on no line its
    /// neighbours nearly fill.
    #[error("{wins} lines won beside the multiplier {symbol} (« {area} »), but the {grid} leaves the multiplier a cell beside {most} winning line{} at most: its cell takes room, on no winning line and on no line the other cells fill but for it; give the way no more wins in « {area} » than that (`wins`), or the grid more cells (`rows`, `cols`)", if *.most == 1 { "" } else { "s" })]
    NoCellBeside {
        /// The multiplier's play area.
        area: String,
        /// The multiplier's symbol.
        symbol: String,
        /// The grid, in words (`3×3 grid (lines of 3)`).
        grid: String,
        /// The way's lines.
        wins: usize,
        /// The most lines the grid shows with a cell left for the multiplier.
        most: usize,
    },
    /// A win of an amount the surface cannot show or pay.
    #[error("« {area} » cannot win {amount}: {can}")]
    CannotWin {
        /// The play area, or the surface's panel.
        area: String,
        /// The amount, in cents (a sum of wins for a legend that pays them together).
        amount: Money,
        /// What it can win, in words (its amounts, its legend, its multipliers).
        can: String,
    },
    /// The cells cannot hold what a face of the way needs without a repeat the rules read
    /// as a win.
    #[error("« {area} »: {what}: {need} cells to fill, and only {cells} can be filled{hint}")]
    NoRoom {
        /// The surface's panel.
        area: String,
        /// The cells to fill.
        need: usize,
        /// The cells that can be filled without an ambiguity.
        cells: usize,
        /// What needs them, in words.
        what: String,
        /// What to change, with its leading `; `, or nothing.
        hint: &'static str,
    },
    /// Against dealers' hands of one total the style's law deals, the deck's cards left
    /// too often cannot deal the hands a way needs (card_total).
    #[error("« {area} » cannot deal its hands against a dealer's hand of {total}: {fails} of {samples} sampled deals ran out of the cards a hand needs (one deck deals every card; every dealer's total from 12 to 19 must leave enough); give the surface fewer hands or fewer cards to a hand")]
    CannotDeal {
        /// The surface's id.
        area: String,
        /// The dealer's total.
        total: u8,
        /// Sampled deals that failed.
        fails: usize,
        /// Deals sampled.
        samples: usize,
    },
    /// The way's wins can be placed on the surface's play areas in too many ways.
    #[error("its wins can be placed on the play areas in more than {most} ways; give the play area of some wins (`areas`)")]
    TooManyPlacements {
        /// The most placements kept.
        most: usize,
    },
    /// A card_hands way with no combination weights of its own nor of its tier.
    #[error("no combination weights: add {fix}")]
    NoWeights {
        /// The table to add, as the spec writes it.
        fix: String,
    },
    /// A card_hands way that wins on fewer zones than the surface has, whose weights give
    /// a four of a kind a weight: its community pair would make every zone a naive winner.
    #[error("{four} weighs {weight} but this way wins on {wins} zone(s): a four of a kind needs a community pair, which makes every zone a naive winner, so it is only possible when all {zones} zones win (give this way or its tier {four} = 0, or give the way its own way_combination_weights)")]
    FourNeedsEveryZone {
        /// The four of a kind's feature id.
        four: String,
        /// Its weight.
        weight: u32,
        /// The way's wins on the surface.
        wins: usize,
        /// The surface's zones.
        zones: usize,
    },
    /// A card_hands way of several wins whose weights give no combination that can show
    /// twice on a ticket (only a four of a kind or a royal flush weigh).
    #[error("this way wins on {wins} zones but only four of a kind / royal flush weigh: at most one of each fits on a ticket; give {give} a weight")]
    NothingRepeats {
        /// The way's wins on the surface.
        wins: usize,
        /// The combinations to weigh, as the spec names them.
        give: String,
    },
    /// A key_match special symbol no way wins by: no face would show it.
    #[error("specials (\"{symbol}\") never applies: no way wins in its play area « {area} » (`areas`), so no face shows it")]
    SpecialUnused {
        /// The special symbol.
        symbol: String,
        /// Its play area.
        area: String,
    },
    /// The law of what losing faces show, drawn as winning faces show it, needs weights
    /// finer than 32 bits (ways split over the surfaces in too many ways).
    #[error("the law of the free cell's symbols on losing cards of « {area} » does not fit 32-bit weights: give the play area of the wins of ways split over many surfaces (`areas`)")]
    LawTooFine {
        /// The surface's play area.
        area: String,
    },
    /// A crossword's bonus word, or an amount of its box, that no way wins: printed on
    /// every ticket, it would never pay.
    #[error("{what} never pays: no way wins it in « {area} » (`areas`), so it would be printed for nothing")]
    BonusUnused {
        /// What never pays, in words (`the bonus word`, an amount of its box).
        what: String,
        /// The bonus word's play area.
        area: String,
    },
    /// `way_combination_weights` of a way that never wins on a zone of the surface.
    #[error("way_combination_weights.\"{way}\" never applies: way \"{way}\" never wins on a zone of this surface")]
    WayWeightsUnused {
        /// The way's id.
        way: String,
    },
    /// `combination_weights` of a tier none of whose ways wins on a zone of the surface
    /// without weights of its own.
    #[error("combination_weights.\"{tier}\" never applies: no way of tier {tier} wins on a zone of this surface without way_combination_weights of its own")]
    TierWeightsUnused {
        /// The tier's amount, in cents.
        tier: Money,
    },
    /// A feature the style does not show with this spec's settings.
    #[error("the {style} style shows no feature \"{feature}\"")]
    NoFeature {
        /// The style's name.
        style: &'static str,
        /// The feature asked.
        feature: String,
    },
    /// A feature asked on a surface that gives it a rate (or weight) of 0.
    #[error("{feature} has a rate of 0 on « {area} »")]
    ZeroRate {
        /// The feature.
        feature: String,
        /// The surface's play area or panel.
        area: String,
    },
    /// A losing feature asked of a way that leaves nothing losing where it shows.
    #[error("{feature} needs {needs}, and way \"{way}\" wins there")]
    NeedsLosing {
        /// The feature.
        feature: String,
        /// What must lose, in words (`a losing row of « ph »`).
        needs: String,
        /// The way's id.
        way: String,
    },
    /// A winning feature none of the way's wins can show (a card_total natural asked of a
    /// way whose amounts no natural pays).
    #[error("way \"{way}\" cannot show {feature}: {why}")]
    CannotShow {
        /// The feature.
        feature: String,
        /// The way's id.
        way: String,
        /// Why not, in words.
        why: String,
    },
    /// A surface reads a shared element, but its style cannot draw its part of the way
    /// given one.
    #[error("the {style} style cannot read a shared element (`reads`)")]
    CannotRead {
        /// The style's name.
        style: &'static str,
    },
    /// A winning feature the way's weights give no weight.
    #[error("way \"{way}\" gives {feature} no weight (combination_weights of its tier, or way_combination_weights)")]
    NoWeight {
        /// The feature.
        feature: String,
        /// The way's id.
        way: String,
    },
}

/// Draws one face of a planned way from a stream into the face passed, whatever it held,
/// showing the feature asked if any.
type Drawer = dyn Fn(Option<FeatureId>, &mut FaceRng, &mut Face) + Send + Sync;

/// Draws one face of a planned way into the last face passed, whatever it held, given the
/// shared element the surface reads (in its columns of the first face passed,
/// [`Layout::reads`]) and what the surfaces drawn before it show (see
/// [`Plan::draw_beside`]), showing the feature asked if any; false when the cards left in
/// the deck cannot deal the way.
type GivenDrawer =
    dyn Fn(Option<FeatureId>, &Face, &Beside, &mut FaceRng, &mut Face) -> bool + Send + Sync;

/// A way as a style planned it when the spec loaded ([`Style::plan`]): the way, the
/// features its faces can be asked to show (each with the reason when not) and those they
/// always show, and the drawer that builds its faces.
///
/// The drawer is a boxed closure owning what it reads: an [`Arc`] of the style's settings
/// and whatever the style decided for the way at load (match_symbols: the placements of
/// its wins on the play areas). So drawing a face neither checks the way again nor looks
/// anything up, and cannot fail: every choice is a bounded draw from the stream. Nothing
/// is cached behind a lock, and nothing is downcast: the game holds one plan per surface
/// per split of each way and asks each only for its faces and its features.
pub struct Plan {
    way: Way,
    /// `shows[i]`: whether a face of the way can be asked to show feature `i` of the
    /// style's table ([`Layout::features`]); a feature the style does not offer
    /// ([`Style::features`]) is refused.
    shows: Vec<Result<(), Refusal>>,
    /// The features every face of the way shows unasked.
    always: Vec<FeatureId>,
    draw: Box<Drawer>,
    /// For a surface that reads a shared element: the drawer of its own cells given the
    /// element's ([`Plan::draw_given`]).
    given: Option<Box<GivenDrawer>>,
}

impl Plan {
    /// The plan of `way` on `style`: `can_show` is asked once for each of `style`'s
    /// features, `always` lists those every face shows unasked, and `draw` builds a face
    /// into the face it is given, whatever that held (asked only for a feature `can_show`
    /// accepted).
    pub fn new<S: Style + ?Sized>(
        style: &S,
        way: &Way,
        can_show: impl Fn(FeatureId) -> Result<(), Refusal>,
        always: Vec<FeatureId>,
        draw: impl Fn(Option<FeatureId>, &mut FaceRng, &mut Face) + Send + Sync + 'static,
    ) -> Plan {
        let offered = style.features();
        let layout = style.layout();
        Plan {
            way: way.clone(),
            shows: layout
                .features
                .iter()
                .map(|(id, f)| {
                    if offered.contains(&id) {
                        can_show(id)
                    } else {
                        Err(Refusal::NoFeature {
                            style: layout.name,
                            feature: f.name.clone(),
                        })
                    }
                })
                .collect(),
            always,
            draw: Box::new(draw),
            given: None,
        }
    }

    /// The plan with the drawer a surface that reads a shared element draws with
    /// ([`Plan::draw_given`]). A style offers it only where it proved, when the spec
    /// loaded, that `given` reaches the way whatever the shared element shows.
    pub fn with_given(
        mut self,
        given: impl Fn(Option<FeatureId>, &Face, &mut FaceRng, &mut Face) + Send + Sync + 'static,
    ) -> Plan {
        self.given = Some(Box::new(move |show, face, _beside, rng, out| {
            given(show, face, rng, out);
            true
        }));
        self
    }

    /// The plan with the drawer of a surface that reads a shared dealer's hand
    /// ([`shared::SharedKind::Hand`]) and deals its own cards from the ticket's one deck:
    /// as [`Plan::with_given`], the drawer also given the cards already dealt on the
    /// ticket ([`Beside::cards`]), none of which it deals again, and returning false
    /// when the cards left cannot deal the way.
    pub fn with_dealt(
        mut self,
        given: impl Fn(Option<FeatureId>, &Face, u64, &mut FaceRng, &mut Face) -> bool
            + Send
            + Sync
            + 'static,
    ) -> Plan {
        self.given = Some(Box::new(move |show, face, beside, rng, out| {
            given(show, face, beside.cards, rng, out)
        }));
        self
    }

    /// The plan with the drawer of a surface that reads a shared draw beside other
    /// surfaces: as [`Plan::with_given`], the drawer also given what the readers drawn
    /// before it show ([`Beside::winning`], [`Beside::spots`]).
    pub fn with_beside(
        mut self,
        given: impl Fn(Option<FeatureId>, &Face, &Beside, &mut FaceRng, &mut Face)
            + Send
            + Sync
            + 'static,
    ) -> Plan {
        self.given = Some(Box::new(move |show, face, beside, rng, out| {
            given(show, face, beside, rng, out);
            true
        }));
        self
    }

    /// True when the plan can draw a face given a shared element ([`Plan::draw_given`]).
    pub fn reads(&self) -> bool {
        self.given.is_some()
    }

    /// The plan of `way` on a style that decides nothing for a way at load but whether it
    /// can carry it: `check` refuses it or not, and the drawer draws from the way itself.
    /// `can_show`, `always` and `draw` are the style's own answers for a way, as in
    /// [`Plan::new`]. Errors: `check`'s refusal.
    pub fn of_checked_way<S: Style + 'static>(
        style: Arc<S>,
        way: &Way,
        check: fn(&S, &Way) -> Result<(), Refusal>,
        can_show: fn(&S, &Way, FeatureId) -> Result<(), Refusal>,
        always: fn(&S, &Way) -> Vec<FeatureId>,
        draw: fn(&S, &Way, Option<FeatureId>, &mut FaceRng, &mut Face),
    ) -> Result<Plan, Refusal> {
        check(&style, way)?;
        let drawer = Arc::clone(&style);
        let w = way.clone();
        Ok(Plan::new(
            &*style,
            way,
            |id| can_show(&style, way, id),
            always(&style, way),
            move |show, rng, out| draw(&drawer, &w, show, rng, out),
        ))
    }

    /// The way planned.
    pub fn way(&self) -> &Way {
        &self.way
    }

    /// A face of the way, drawing every choice from `rng`; when `show` names a feature
    /// [`Plan::can_show`] accepts, a face built to show it (QA decks). With `show = None`
    /// the draws are exactly those of a production face. A few features may still be left
    /// no room by the rest of the face: callers check the evaluation
    /// ([`game::Game::synthesize_showing_checked`]).
    pub fn draw(&self, show: Option<FeatureId>, rng: &mut FaceRng) -> Face {
        let mut face = Face::default();
        self.draw_into(show, rng, &mut face);
        face
    }

    /// [`Plan::draw`] into `out`, whatever it held: the same face, built where it lies
    /// (a face reused from ticket to ticket is neither made nor moved again).
    pub fn draw_into(&self, show: Option<FeatureId>, rng: &mut FaceRng, out: &mut Face) {
        (self.draw)(show, rng, out)
    }

    /// A face of the way whose columns [`Layout::reads`] hold the shared element as
    /// `given` shows it (the other columns of `given` are ignored), every other choice
    /// drawn from `rng` as [`Plan::draw`] draws them; the shared columns come back as
    /// given. Cannot fail for a plan that [`Plan::reads`]; panics for one that does not
    /// (the game refuses such a plan when the spec loads).
    pub fn draw_given(&self, show: Option<FeatureId>, given: &Face, rng: &mut FaceRng) -> Face {
        let mut face = Face::default();
        let drawn = self.draw_beside(show, given, &Beside::default(), rng, &mut face);
        assert!(drawn, "a surface reading a shared draw always draws");
        face
    }

    /// As [`Plan::draw_given`], beside what the surfaces drawn before this one on the
    /// ticket show: a surface dealing cards from the ticket's one deck deals none of
    /// [`Beside::cards`]; a surface reading a shared draw shows no spot among
    /// [`Beside::winning`] and no own winning cell among either list. A surface ignores
    /// what does not concern it. The face is drawn into `out`, whatever it held. False: the
    /// cards left cannot deal the way, however drawn (the other surfaces took what it
    /// needs; `out` then holds no face to use); the game then deals the ticket again
    /// ([`game::Game::synthesize`]).
    pub fn draw_beside(
        &self,
        show: Option<FeatureId>,
        given: &Face,
        beside: &Beside,
        rng: &mut FaceRng,
        out: &mut Face,
    ) -> bool {
        let draw = self
            .given
            .as_ref()
            .expect("a surface reading a shared element was planned with a drawer for it");
        draw(show, given, beside, rng, out)
    }

    /// Whether a face of the way can be asked to show feature `id` of the style's table;
    /// `Err` says why not (a feature the style does not show with this spec's settings, a
    /// weight or rate of 0 for this way, no losing play area, …). Panics for an id of
    /// another table.
    pub fn can_show(&self, id: FeatureId) -> Result<(), Refusal> {
        self.shows[usize::from(id.0)].clone()
    }

    /// The features every face of the way shows without being asked (a card game: the only
    /// combination a way's weights allow). Empty when unsure: a QA deck then asks for them.
    pub fn always_shows(&self) -> &[FeatureId] {
        &self.always
    }
}

/// A play style as it reads one surface: its rule, how it builds faces and how a proof
/// shows them. Implementations are pure: no I/O, no global RNG. The ticket's game
/// ([`game::Game`]) puts the surfaces' styles side by side.
pub trait Style: Send + Sync {
    /// The style's presentation on this surface, built once by its constructor: play
    /// areas, face columns, panels, printed lines, shown amounts and description.
    fn layout(&self) -> &Layout;
    /// Plans `way` (the losing way for `way.wins` empty) once, when the spec loads: checks
    /// that this style can realise it under the ambiguity policy and decides everything a
    /// face of it needs (see [`Plan`]). `Err` says why not (the spec is then rejected).
    /// Takes the style behind an [`Arc`], which the plan keeps to draw its faces.
    fn plan(self: Arc<Self>, way: &Way) -> Result<Plan, Refusal>;
    /// Called once every way of the spec was planned, with the plans of them all (the
    /// losing way left out): `Err` names a setting no way can ever use (a weight table of a
    /// tier none of whose ways it applies to, say), and the spec is rejected.
    fn check_ways(&self, plans: &[&Plan]) -> Result<(), Refusal> {
        let _ = plans;
        Ok(())
    }
    /// The features a face can be asked to show with this spec's settings, in report
    /// order: ids of the style's table ([`Layout::features`]), which also holds those the
    /// evaluator reports but that are never asked (a near miss or decoy the spec gives a
    /// rate of 0).
    fn features(&self) -> Vec<FeatureId> {
        Vec::new()
    }
    /// The cells of `face` a proof marks, given its evaluation `ev`: the cells of every win
    /// (its symbols and its amount), and on losing play areas the near misses and decoys
    /// `ev` reports. Marks never change the prize.
    fn marks(&self, face: &Face, ev: &Evaluation) -> Vec<Mark>;
    /// Judges `face` by the règlement alone, into `ev`, whatever it held: the evaluation is
    /// built in place, not returned (about 800 bytes per face) to be copied.
    fn evaluate_into(&self, face: &Face, ev: &mut Evaluation);
    /// [`Style::evaluate_into`] into a new evaluation.
    fn evaluate(&self, face: &Face) -> Evaluation {
        let mut ev = Evaluation::default();
        self.evaluate_into(face, &mut ev);
        ev
    }
}
