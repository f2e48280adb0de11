//! The ticket's game: its surfaces side by side, each read by a play style from the library
//! ([`super::style`]). A concrete type, not one more [`Style`]: it lays the surfaces' faces
//! out, plans every way of the spec once when the spec loads ([`Game::plan`]) and sums what
//! the surfaces' rules judge.
//!
//! The composed face is the shared elements' columns (`[[shared]]`, [`super::shared`]),
//! then the surfaces' faces side by side: each surface owns its own columns, in its style's
//! order, and reads the columns of the shared element it reads (`reads`) through its
//! column map; its play areas follow those of the surfaces before it. Without a shared
//! element, the surfaces' columns simply follow one another. A shared element is drawn
//! first on every ticket, whatever its way; each reading surface then draws its own cells
//! given it ([`Plan::draw_given`]).
//!
//! A way's wins are split over the surfaces: a win whose `areas` entry names a play area
//! goes to that area's surface; a free win goes to any surface that can carry it. Every
//! split that each surface can realise is found when the spec is loaded, and one is drawn
//! per ticket, so a way is carried the same way whatever the thread count. A surface
//! with no win of the split shows a losing face. The ticket's lot is the sum of every
//! surface's winning areas (décret n°78-1067: a lot may be the sum of several play areas).

use super::card_total;
use super::multiply::{self, BoxChoice, MultiplierBox};
use super::shared::{Beside, Shared, SharedKind};
use super::{
    AreaFeature, AreaWin, Column, ColumnKind, Evaluation, Face, FaceRng, FeatureId, FeatureInfo,
    FeatureKind, Features, Lattice, LatticeGrid, Layout, Mark, Panel, Plan, Printed, Refusal,
    Style, FEATURE_ATTEMPTS, FREE_CELL, MAX_COLUMNS,
};
use crate::crypto::rng::below;
use crate::language::{Phrase, PrintedLine};
use crate::lots::{Way, WayId, Win};
use crate::money::Money;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// Most play areas of a ticket: an area is numbered in one byte ([`super::AreaWin::area`]).
pub const MAX_AREAS: usize = u8::MAX as usize;

/// Most splits of one way over the surfaces that are tried when the spec is loaded.
pub const MAX_SPLITS: usize = 4096;

/// Whole deals of a ticket attempted before drawing gives up, on a ticket whose surfaces
/// deal from one deck ([`Game::synthesize`]); [`Game::plan`] refuses a spec whose deals
/// fail often enough to make that possible.
pub const DEAL_ATTEMPTS: usize = 64;

/// Deals sampled for each split of each way when the spec loads ([`Game::plan`]): more
/// than a quarter failing refuses the spec.
const DEAL_SAMPLES: usize = 64;

/// One surface of a composed game.
pub struct Surface {
    /// Its id in the spec.
    pub id: String,
    /// Its play style's name (`match_symbols`).
    pub style: &'static str,
    /// The style's rule and generator for this surface.
    pub rule: Arc<dyn Style>,
    /// The surface's printed maximum, in cents: no split gives it more, and a face where it
    /// wins more is ambiguous.
    pub max: Option<Money>,
    /// What every win on the surface is multiplied by (`multiply`; 1 when it is not).
    pub multiplier: u32,
    /// `columns[i]`: the composed face's column of the style's face column `i` (a column of
    /// the shared element for those the style reads, [`Layout::reads`]).
    columns: Vec<usize>,
    /// `columns` as runs of columns that follow one another on both faces, a run never
    /// holding both a shared element's column and the surface's own: what is copied
    /// between the two faces a run at a time.
    runs: Vec<Run>,
    /// The shared element the surface reads (index into [`Game::shared`]), if any.
    reads: Option<usize>,
    /// First play area of the surface in the composed game.
    area_offset: u8,
    /// `to_game[i]`: feature `i` of the style's table in the game's table.
    to_game: Vec<FeatureId>,
    /// `from_game[i]`: feature `i` of the game's table in the style's, if it has it.
    from_game: Vec<Option<FeatureId>>,
}

/// Style face columns `from..from + len` of a surface, which are the composed face's
/// columns `to..to + len`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Run {
    from: usize,
    to: usize,
    len: usize,
}

/// The runs of column map `map` ([`Surface::runs`]): a new run wherever either face's
/// column does not follow the one before, and at composed column `common`, the first
/// past the shared elements' columns.
fn runs(map: &[usize], common: usize) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    for (i, &c) in map.iter().enumerate() {
        match runs.last_mut() {
            Some(r) if r.from + r.len == i && r.to + r.len == c && c != common => r.len += 1,
            _ => runs.push(Run {
                from: i,
                to: c,
                len: 1,
            }),
        }
    }
    runs
}

impl Surface {
    /// The shared element the surface reads (`reads`): an index into [`Game::shared`].
    pub fn reads(&self) -> Option<usize> {
        self.reads
    }
}

/// One surface as the spec gives it, before it is put beside the others.
pub struct Part {
    /// The surface's id.
    pub id: String,
    /// Its play style's name.
    pub style: &'static str,
    /// Its printed maximum, in cents (`max`).
    pub max: Option<Money>,
    /// What every win on it is multiplied by (`multiply`; 1 when it is not).
    pub multiplier: u32,
    /// The style's rule and generator for it.
    pub rule: Box<dyn Style>,
    /// The shared element it reads (`reads`): an index into the game's shared elements.
    pub reads: Option<usize>,
}

/// A way split over the surfaces: the plan of one sub-way per surface (a losing one for a
/// surface that wins nothing).
type Split = Vec<Plan>;

/// The faces a ticket's surfaces draw their parts into, kept from surface to surface and
/// from one attempt at the ticket to the next ([`Game::try_split`]).
struct Parts {
    /// The part a surface draws, copied into the ticket's face.
    sub: Face,
    /// What a surface reading a shared element is given ([`Game::sub_face_into`]): at
    /// least as many codes as the widest surface has columns.
    given: Face,
    /// How many codes of `given` the last surface wrote.
    written: usize,
}

/// The ticket's game: the spec's `[[surfaces]]` side by side.
pub struct Game {
    /// The shared elements (`[[shared]]`), their columns first in the composed face.
    shared: Vec<Shared>,
    /// `shared_at[e]`: the first face column of shared element `e`.
    shared_at: Vec<usize>,
    surfaces: Vec<Surface>,
    /// The surfaces' layouts side by side, composed once by [`Game::new`]; its feature
    /// table gathers the surfaces', each name once.
    layout: Layout,
    /// The features a face can be asked to show ([`Style::features`] of every surface),
    /// each once, in report order.
    offered: Vec<FeatureId>,
    /// The number of each way [`Game::plan`] was given (its index in the spec's ways, its
    /// [`WayId`]), by way id.
    numbers: HashMap<String, usize>,
    /// `splits[w]`: the splits way number `w` may be carried by, each surface's part
    /// planned once by [`Game::plan`] when the spec loads and only read afterwards.
    splits: Vec<Vec<Split>>,
    /// The ticket-wide multiplier box and its face column, when the game has one.
    multiplier_box: Option<(MultiplierBox, usize)>,
    /// `box_choices[w]`: the box values way number `w` may show, with the splits drawn with
    /// each; empty without a box.
    box_choices: Vec<Vec<BoxChoice>>,
    /// The box's decoys: the feature of each value above 1 shown on a losing ticket, with
    /// the value's face code.
    box_decoys: Vec<(FeatureId, u8)>,
    /// The ways whose lot must be reached through a multiplication (a one-win way of a
    /// `combined_only` tier), by id.
    multiplied_only: HashSet<String>,
}

/// Why the game cannot carry a way of the spec, or a setting no way uses: found by
/// [`Game::plan`] when the spec loads. Each error names the way (by its index in the
/// spec's ways) or the surface, and the reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// The way's wins can be split over the surfaces in more than [`MAX_SPLITS`] ways.
    #[error(
        "its {wins} wins can be split over the surfaces in more than {MAX_SPLITS} ways; give the play area of some wins (`areas`)"
    )]
    TooManySplits {
        /// Index of the way in the spec's ways.
        way: usize,
        /// Its number of wins.
        wins: usize,
    },
    /// No split of the way can be carried: every one is refused by some surface.
    #[error("no surface can carry it{}", refusals_text(.refusals))]
    NoSurface {
        /// Index of the way in the spec's ways.
        way: usize,
        /// Why each refused split was refused, each reason once, in the order met.
        refusals: Vec<SplitRefusal>,
    },
    /// The surfaces reading a shared dealer's hand cannot be dealt the way from one deck
    /// often enough: the hands of the first take the cards those after need.
    #[error("its hands cannot be dealt from one deck: {fails} of {samples} sampled deals ran out of the cards a hand needs; give the surfaces that read the shared hand fewer hands")]
    Deal {
        /// Index of the way in the spec's ways.
        way: usize,
        /// Deals that failed.
        fails: usize,
        /// Deals sampled.
        samples: usize,
    },
    /// No value of the multiplier box can carry the way.
    #[error("no value of the multiplier box can carry it: {reasons}")]
    NoBoxValue {
        /// Index of the way in the spec's ways.
        way: usize,
        /// Why each value was refused, joined by `; `.
        reasons: String,
    },
    /// A value of the multiplier box that no winning way can show: no losing ticket may
    /// show it either (its law is the winners').
    #[error("[box] multipliers lists {value}, but no winning way can show it (remove it, or give a way `box = {value}`): a losing ticket shows the values winning tickets show, as often")]
    BoxValueUnused {
        /// The value.
        value: u32,
    },
    /// A surface's style refuses a setting no way of the spec can use
    /// ([`Style::check_ways`]).
    #[error("surface \"{id}\": {reason}")]
    Settings {
        /// Index of the surface.
        surface: usize,
        /// Its id.
        id: String,
        /// The style's reason.
        reason: Refusal,
    },
}

impl PlanError {
    /// The index of the way at fault, when the error is about one way.
    pub fn way(&self) -> Option<usize> {
        match self {
            PlanError::TooManySplits { way, .. }
            | PlanError::NoSurface { way, .. }
            | PlanError::NoBoxValue { way, .. }
            | PlanError::Deal { way, .. } => Some(*way),
            PlanError::Settings { .. } | PlanError::BoxValueUnused { .. } => None,
        }
    }
}

/// Why one surface refused its part of a split of a way.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SplitRefusal {
    /// The part would win more than the surface's printed maximum.
    #[error("surface \"{id}\" would win {amount}, above its printed maximum {max}")]
    AboveMax {
        /// The surface's id.
        id: String,
        /// What its part wins, in cents.
        amount: Money,
        /// Its printed maximum, in cents.
        max: Money,
    },
    /// A win the surface's factor does not divide: no amount it prints pays it.
    #[error("surface \"{id}\" multiplies every win by {factor}, and {amount} is not {factor} times an amount")]
    NotMultiple {
        /// The surface's id.
        id: String,
        /// The win, in cents.
        amount: Money,
        /// The surface's factor.
        factor: u32,
    },
    /// A one-win way of a `combined_only` tier whose win no factor multiplies.
    #[error("its tier is reached only by combining wins, and its one win is not multiplied (place it on a multiplied surface or show a box value above 1)")]
    NotMultiplied,
    /// The surface's style cannot realise its part ([`Style::plan`]).
    #[error("surface \"{id}\": {reason}")]
    Style {
        /// The surface's id.
        id: String,
        /// The style's reason.
        reason: Refusal,
    },
}

/// `: ` and the refusals joined by `; `, or nothing when there are none.
fn refusals_text(refusals: &[SplitRefusal]) -> String {
    if refusals.is_empty() {
        return String::new();
    }
    let v: Vec<String> = refusals.iter().map(SplitRefusal::to_string).collect();
    format!(": {}", v.join("; "))
}

/// Why a face could not be drawn for a way.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DrawError {
    /// No surface of any split of the way can show the feature asked.
    #[error("way \"{way}\" cannot show feature \"{feature}\" on any surface: {reason}")]
    CannotShow {
        /// The way's id.
        way: String,
        /// The feature asked.
        feature: String,
        /// The last surface's reason.
        reason: Box<Refusal>,
    },
    /// A box decoy asked of a winning way: the box is a decoy on losing tickets only.
    #[error("way \"{way}\" cannot show feature \"{feature}\": the multiplier box is a decoy only on a losing ticket")]
    BoxDecoyOnWinner {
        /// The way's id.
        way: String,
        /// The feature asked.
        feature: String,
    },
    /// No face showing the feature asked in [`FEATURE_ATTEMPTS`] attempts.
    #[error("no face showing feature \"{0}\" in {FEATURE_ATTEMPTS} attempts")]
    FeatureNotShown(String),
}

impl Game {
    /// Puts the surfaces side by side, in the spec's order. Errors: no surface, a face
    /// column or play area name used by two surfaces, more than [`MAX_COLUMNS`] face
    /// columns or [`MAX_AREAS`] play areas in all; each error names what is wrong and
    /// counts every surface's.
    pub fn new(parts: Vec<Part>) -> Result<Game, String> {
        Game::with_shared(Vec::new(), parts)
    }

    /// Puts the shared elements' columns first, then the surfaces side by side, in the
    /// spec's order, each surface that reads a shared element (`Part::reads`) reading its
    /// columns. Errors: those of [`Game::new`]; a surface reading an element its style
    /// does not hold as the element is (its count or symbols), a shared element no
    /// surface reads, or a panel id taken twice.
    pub fn with_shared(shared: Vec<Shared>, parts: Vec<Part>) -> Result<Game, String> {
        if parts.is_empty() {
            return Err("a game needs at least one [[surfaces]] entry".into());
        }
        let over = |what: &str, count: fn(&Layout) -> usize, most: usize, why: &str| {
            let total: usize = parts.iter().map(|p| count(p.rule.layout())).sum();
            let each: Vec<String> = parts
                .iter()
                .map(|p| format!("{} {}", p.id, count(p.rule.layout())))
                .collect();
            (total > most).then(|| {
                format!(
                    "the surfaces have {total} {what} in all ({}); a ticket has at most {most} \
                     ({why})",
                    each.join(", ")
                )
            })
        };
        if let Some(e) = over(
            "face columns",
            |l| l.columns.len() - l.reads.len(),
            MAX_COLUMNS,
            "a print record is 38 bytes and one per face column, in 65 535 bytes",
        ) {
            return Err(e);
        }
        if let Some(e) = over(
            "play areas",
            |l| l.areas.len(),
            MAX_AREAS,
            "a play area is numbered in one byte",
        ) {
            return Err(e);
        }
        let mut shared_at = Vec::new();
        let mut columns: Vec<Column> = Vec::new();
        // The face columns' names so far: a game of many columns is checked in linear time.
        let mut names: HashSet<String> = HashSet::new();
        for e in &shared {
            shared_at.push(columns.len());
            columns.extend(e.columns());
        }
        names.extend(columns.iter().map(|c| c.name.clone()));
        // The shared elements' columns come first: every surface's own follow.
        let common = columns.len();
        for (e, element) in shared.iter().enumerate() {
            if !parts.iter().any(|p| p.reads == Some(e)) {
                return Err(format!(
                    "shared \"{}\" is read by no surface (give a surface `reads = \"{}\"`)",
                    element.id, element.id
                ));
            }
        }
        let mut surfaces = Vec::new();
        let mut areas: Vec<String> = Vec::new();
        for Part {
            id,
            style,
            max,
            multiplier,
            rule,
            reads,
        } in parts
        {
            let layout = rule.layout();
            let map = column_map(
                &id,
                layout,
                reads.map(|e| (&shared[e], shared_at[e])),
                columns.len(),
            )?;
            let area_offset = u8::try_from(areas.len()).expect("at most MAX_AREAS play areas");
            for (i, c) in layout.columns.iter().enumerate() {
                if layout.reads.contains(&i) {
                    continue;
                }
                if !names.insert(c.name.clone()) {
                    return Err(format!(
                        "surface \"{id}\" names face column \"{}\", which another surface already has",
                        c.name
                    ));
                }
                let mut c = c.clone();
                if let ColumnKind::Caption { of } = &mut c.kind {
                    *of = map[*of];
                }
                columns.push(c);
            }
            for a in &layout.areas {
                if areas.contains(a) {
                    return Err(format!(
                        "surface \"{id}\" has play area \"{a}\", which another surface already has"
                    ));
                }
                areas.push(a.clone());
            }
            surfaces.push(Surface {
                id,
                style,
                rule: Arc::from(rule),
                max,
                multiplier,
                runs: runs(&map, common),
                columns: map,
                reads,
                area_offset,
                to_game: Vec::new(),
                from_game: Vec::new(),
            });
        }
        for (e, element) in shared.iter().enumerate() {
            let readers = surfaces.iter().filter(|s| s.reads == Some(e));
            if element.kind == SharedKind::Hand {
                let cards: usize = element.count
                    + readers
                        .clone()
                        .map(|s| s.rule.layout().deals.len())
                        .sum::<usize>();
                if cards > card_total::MAX_SURFACE_CARDS {
                    return Err(format!(
                        "shared \"{}\" and the hands that read it show {cards} cards; at most {} \
                         (one deck deals every card of the ticket)",
                        element.id,
                        card_total::MAX_SURFACE_CARDS
                    ));
                }
            }
            if element.kind == SharedKind::Draw {
                let sizes: Vec<(usize, usize)> = readers
                    .clone()
                    .map(|s| {
                        (
                            s.rule.layout().own_winning.len(),
                            s.rule.layout().spots.len(),
                        )
                    })
                    .collect();
                let need = symbols_needed(element.count, &sizes);
                if need > element.values.len() {
                    return Err(format!(
                        "shared \"{}\" has {} symbols, but the grids reading it need up to {need} \
                         different ones on a ticket: a grid's own winning cells show none of \
                         the other grids' winning cells or spots, and its spots none of their \
                         own winning cells (list more symbols, or fewer spots or winning cells)",
                        element.id,
                        element.values.len()
                    ));
                }
            }
            // The element's cells print as its first reader prints them (a card's name).
            for s in readers {
                let layout = s.rule.layout();
                for (k, &c) in layout.reads.iter().enumerate() {
                    let at = &mut columns[shared_at[e] + k].inscriptions;
                    if at.is_empty() {
                        at.clone_from(&layout.columns[c].inscriptions);
                    }
                }
            }
        }
        let mut panel_ids: Vec<String> = shared.iter().map(|e| e.id.clone()).collect();
        for s in &surfaces {
            for p in &s.rule.layout().panels {
                if panel_ids.contains(&p.id) {
                    return Err(format!(
                        "surface \"{}\" draws panel \"{}\", which another surface or a shared \
                         element already draws",
                        s.id, p.id
                    ));
                }
                panel_ids.push(p.id.clone());
            }
        }
        let mut layout = Layout::new("styles", areas, columns);
        layout.panels = shared
            .iter()
            .zip(&shared_at)
            .map(|(e, &at)| e.panel(at))
            .chain(panels(&surfaces))
            .collect();
        layout.lattices = lattices(&surfaces);
        layout.printed = printed(&surfaces);
        layout.shown_amounts = shown_amounts(&surfaces);
        layout.open = surfaces
            .iter()
            .flat_map(|s| s.rule.layout().open.iter().map(|&c| s.columns[c]))
            .collect();
        layout.description = describe(&shared, &surfaces);
        layout.specials = surfaces
            .iter()
            .flat_map(|s| s.rule.layout().specials.iter().cloned())
            .collect();
        let offered = features(&mut surfaces, &mut layout.features);
        Ok(Game {
            shared,
            shared_at,
            surfaces,
            layout,
            offered,
            numbers: HashMap::new(),
            splits: Vec::new(),
            multiplier_box: None,
            box_choices: Vec::new(),
            box_decoys: Vec::new(),
            multiplied_only: HashSet::new(),
        })
    }

    /// Adds the ticket-wide multiplier box: one more face column after the surfaces', its
    /// panel and printed rule, and its lines for `tirage check`. Errors: a surface already
    /// has a face column or panel named `box`, or the face would pass [`MAX_COLUMNS`] columns.
    pub fn add_box(&mut self, b: MultiplierBox) -> Result<(), String> {
        let taken = self.layout.columns.iter().any(|c| c.name == multiply::BOX)
            || self.layout.panels.iter().any(|p| p.id == multiply::BOX);
        if taken {
            return Err(format!(
                "a surface already names a face column or panel \"{}\", which the multiplier box needs",
                multiply::BOX
            ));
        }
        let column = self.layout.columns.len();
        if column + 1 > MAX_COLUMNS {
            return Err(format!(
                "the surfaces have {column} face columns and the multiplier box one more; a ticket has at most {MAX_COLUMNS}"
            ));
        }
        self.layout.columns.push(b.column());
        self.layout.panels.push(MultiplierBox::panel(column));
        self.layout.printed.push(MultiplierBox::printed());
        self.layout.description.extend(b.describe());
        for (code, &v) in b.values.iter().enumerate().filter(|(_, &v)| v > 1) {
            let (name, about, about_fr) = multiply::decoy(v);
            let id = self
                .layout
                .features
                .add(name, FeatureKind::Decoy, about, about_fr);
            self.offered.push(id);
            self.box_decoys.push((id, code as u8));
        }
        // The surfaces' styles show none of the box's features.
        let n = self.layout.features.len();
        for s in &mut self.surfaces {
            s.from_game.resize(n, None);
        }
        self.multiplier_box = Some((b, column));
        Ok(())
    }

    /// Names the ways whose lot must be reached through a multiplication (one-win ways of
    /// `combined_only` tiers): planning keeps only the splits where a factor above 1 (a
    /// multiplied surface's or the box's) multiplies their win.
    pub fn require_multiplied(&mut self, ways: HashSet<String>) {
        self.multiplied_only = ways;
    }

    /// The multiplier box, when the game has one.
    pub fn multiplier_box(&self) -> Option<&MultiplierBox> {
        self.multiplier_box.as_ref().map(|(b, _)| b)
    }

    /// The value the multiplier box of `face` shows: 1 without a box, `None` for a code the
    /// box does not have.
    fn box_value(&self, face: &Face) -> Option<u32> {
        match &self.multiplier_box {
            None => Some(1),
            Some((b, col)) => b.values.get(usize::from(face.codes[*col])).copied(),
        }
    }

    /// The shared elements (`[[shared]]`), in the spec's order.
    pub fn shared(&self) -> &[Shared] {
        &self.shared
    }

    /// The ticket's presentation: every surface's play areas, face columns (with their
    /// inscriptions), panels and printed lines, numbered in the composed face; the amounts
    /// any surface shows; the description of every surface. Its name is `styles`, the
    /// value of the manifest's `game.rule` for a game of surfaces.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Prints each prize that is not money where a face shows its stated value in figures:
    /// in every amount column, the text of `amount` becomes its item (`FREE TICKET`), in
    /// files and on proofs alike, and so does every pay legend's entry paying `amount`
    /// (`CLOVER = FREE TICKET`); the codes and the amounts the rule judges stay as they
    /// are. `items` pairs each item tier's amount with its item.
    pub fn show_items(&mut self, items: &[(Money, String)]) {
        for (amount, item) in items {
            for p in &mut self.layout.printed {
                for l in &mut p.lines {
                    for phrase in &mut l.phrases {
                        phrase.show_item(*amount, item);
                    }
                }
            }
        }
        for c in &mut self.layout.columns {
            let ColumnKind::Amount(amounts) = &c.kind else {
                continue;
            };
            for (code, m) in amounts.iter().enumerate() {
                if let Some((_, item)) = items.iter().find(|(a, _)| a == m) {
                    c.values[code] = item.clone();
                }
            }
        }
    }

    /// Prints each play symbol's caption under it (`"16"` captioned `SIXTN`): in every
    /// symbol column that shows the symbol, the caption becomes its inscription (replacing
    /// any the style gave). `captions` pairs a symbol as files write it with its caption.
    /// Errors: the first symbol no symbol column shows, changing nothing.
    pub fn caption_symbols(&mut self, captions: &[(String, String)]) -> Result<(), String> {
        let symbols = || {
            self.layout
                .columns
                .iter()
                .filter(|c| c.kind == ColumnKind::Symbol)
        };
        if let Some((s, _)) = captions
            .iter()
            .find(|(s, _)| !symbols().any(|c| c.values.contains(s)))
        {
            return Err(s.clone());
        }
        for c in &mut self.layout.columns {
            if c.kind != ColumnKind::Symbol {
                continue;
            }
            for (code, v) in c.values.iter().enumerate() {
                if let Some((_, caption)) = captions.iter().find(|(s, _)| s == v) {
                    c.inscriptions.resize(c.values.len(), String::new());
                    c.inscriptions[code] = caption.clone();
                }
            }
        }
        Ok(())
    }

    /// The surfaces, in face order.
    pub fn surfaces(&self) -> &[Surface] {
        &self.surfaces
    }

    /// The surface holding play area `area` of the composed game.
    fn surface_of(&self, area: u8) -> usize {
        self.surfaces
            .iter()
            .rposition(|s| s.area_offset <= area)
            .expect("area 0 is in surface 0")
    }

    /// True when the ticket's face is its one surface's face: one surface, nothing shared
    /// and no multiplier box.
    fn lone(&self) -> bool {
        self.surfaces.len() == 1 && self.shared.is_empty() && self.multiplier_box.is_none()
    }

    /// Surface `s`'s own face, gathered from the composed one through its column map (the
    /// shared element it reads included); the composed face itself for a lone surface.
    fn sub_face<'f>(&self, face: &'f Face, s: usize) -> Cow<'f, Face> {
        if self.lone() {
            return Cow::Borrowed(face);
        }
        let surface = &self.surfaces[s];
        let columns = &surface.columns;
        let mut f = Face::zeroed(columns.len());
        for r in &surface.runs {
            f.codes[r.from..r.from + r.len].copy_from_slice(&face.codes[r.to..r.to + r.len]);
        }
        Cow::Owned(f)
    }

    /// [`Game::sub_face`] of a game of several surfaces written into `out`, a face reused
    /// from surface to surface: surface `s`'s codes, then zeros over the codes an earlier
    /// surface wrote past them (`written`, updated to this surface's count). `out` holds at
    /// least as many codes as the widest surface has columns.
    fn sub_face_into(&self, face: &Face, s: usize, out: &mut Face, written: &mut usize) {
        let surface = &self.surfaces[s];
        let columns = &surface.columns;
        let (from, to) = (&face.codes[..], &mut out.codes[..]);
        for r in &surface.runs {
            to[r.from..r.from + r.len].copy_from_slice(&from[r.to..r.to + r.len]);
        }
        if *written > columns.len() {
            out.codes[columns.len()..*written].fill(0);
        }
        *written = columns.len();
    }

    /// Every split of `way` (the spec's way number `index`) that each surface can realise,
    /// in a fixed order. Errors: none (then why each surface refused), or more candidate
    /// splits than [`MAX_SPLITS`].
    /// With `must_multiply`, only splits where a multiplied surface carries a win are kept.
    fn find_splits(
        &self,
        index: usize,
        way: &Way,
        must_multiply: bool,
    ) -> Result<Vec<Split>, PlanError> {
        let n = self.surfaces.len();
        // Wins that are alike (same amount, same fixed area or none) are interchangeable:
        // only how many of them each surface gets matters. Each group of alike wins is
        // distributed over the surfaces it may go to in every way.
        let mut groups: Vec<(Win, usize, Vec<usize>)> = Vec::new();
        for w in &way.wins {
            match groups.iter_mut().find(|g| g.0 == *w) {
                Some(g) => g.1 += 1,
                None => {
                    let to = match w.area {
                        Some(a) => vec![self.surface_of(a)],
                        None => (0..n).collect(),
                    };
                    groups.push((w.clone(), 1, to));
                }
            }
        }
        let total = groups
            .iter()
            .try_fold(1usize, |acc, g| {
                acc.checked_mul(compositions(g.1, g.2.len()))
            })
            .unwrap_or(usize::MAX);
        if total > MAX_SPLITS {
            return Err(PlanError::TooManySplits {
                way: index,
                wins: way.wins.len(),
            });
        }
        let spread: Vec<Vec<Vec<usize>>> = groups
            .iter()
            .map(|g| distributions(g.1, g.2.len()))
            .collect();
        let mut found: Vec<Split> = Vec::new();
        // Why each refused split was refused, each reason once, in the order met.
        let mut reasons: Vec<SplitRefusal> = Vec::new();
        let mut pick = vec![0usize; groups.len()];
        for _ in 0..total {
            let mut sub: Vec<Vec<Win>> = vec![Vec::new(); n];
            for (g, (win, _, to)) in groups.iter().enumerate() {
                for (k, &times) in spread[g][pick[g]].iter().enumerate() {
                    let s = to[k];
                    for _ in 0..times {
                        sub[s].push(Win {
                            area: win.area.map(|a| a - self.surfaces[s].area_offset),
                            amount: win.amount,
                        });
                    }
                }
            }
            let multiplied = sub
                .iter()
                .zip(&self.surfaces)
                .any(|(w, s)| !w.is_empty() && s.multiplier > 1);
            if must_multiply && !multiplied {
                if !reasons.contains(&SplitRefusal::NotMultiplied) {
                    reasons.push(SplitRefusal::NotMultiplied);
                }
                next(&mut pick, &spread);
                continue;
            }
            // Each distribution is a different set of wins per surface: no split twice.
            let parts = sub.into_iter().map(|wins| Way {
                id: way.id.clone(),
                tier: if wins.is_empty() { None } else { way.tier },
                amount: Money(wins.iter().map(|w| w.amount.cents()).sum()),
                count: way.count,
                wins,
            });
            let planned: Result<Split, SplitRefusal> = parts
                .zip(&self.surfaces)
                .map(|(sw, surface)| {
                    // A multiplied surface prints the amounts its factor multiplies.
                    let sw = match surface.multiplier {
                        1 => sw,
                        f => multiply::divided(&sw, f).map_err(|amount| {
                            SplitRefusal::NotMultiple {
                                id: surface.id.clone(),
                                amount,
                                factor: f,
                            }
                        })?,
                    };
                    if let Some(max) = surface.max.filter(|&m| sw.amount > m) {
                        return Err(SplitRefusal::AboveMax {
                            id: surface.id.clone(),
                            amount: sw.amount,
                            max,
                        });
                    }
                    let refused = |reason| SplitRefusal::Style {
                        id: surface.id.clone(),
                        reason,
                    };
                    let plan = Arc::clone(&surface.rule).plan(&sw).map_err(refused)?;
                    if surface.reads.is_some() && !plan.reads() {
                        return Err(refused(Refusal::CannotRead {
                            style: surface.style,
                        }));
                    }
                    Ok(plan)
                })
                .collect();
            match planned {
                Ok(split) => found.push(split),
                Err(e) => {
                    if !reasons.contains(&e) {
                        reasons.push(e);
                    }
                }
            }
            next(&mut pick, &spread);
        }
        if found.is_empty() {
            return Err(PlanError::NoSurface {
                way: index,
                refusals: reasons,
            });
        }
        Ok(found)
    }

    /// Plans every way of the spec (`ways`, the losing way first) once: the splits each can
    /// be carried by, kept for every face drawn afterwards; then each surface is given its
    /// part of every split of every winning way ([`Style::check_ways`]). Errors: the first
    /// way no split can carry, naming it and why each surface refused
    /// ([`PlanError::NoSurface`], [`PlanError::TooManySplits`]), or a surface's setting no
    /// way uses ([`PlanError::Settings`]).
    pub fn plan(&mut self, ways: &[Way]) -> Result<(), PlanError> {
        let mut splits = Vec::with_capacity(ways.len());
        self.box_choices = vec![Vec::new(); ways.len()];
        for (i, way) in ways.iter().enumerate() {
            let must = self.multiplied_only.contains(&way.id);
            let found = match &self.multiplier_box {
                Some((b, _)) if i > 0 => {
                    let (found, choices) = self.box_splits(b, i, way, must)?;
                    self.box_choices[i] = choices;
                    found
                }
                _ => self.find_splits(i, way, must)?,
            };
            splits.push(found);
        }
        if let Some((b, _)) = &self.multiplier_box {
            self.box_choices[0] = self.losing_box_choices(b, ways, splits[0].len())?;
        }
        self.splits = splits;
        self.numbers = ways
            .iter()
            .enumerate()
            .map(|(i, w)| (w.id.clone(), i))
            .collect();
        self.sample_deals()?;
        for (s, surface) in self.surfaces.iter().enumerate() {
            let mut parts: Vec<&Plan> = Vec::new();
            for way in &self.splits[1..] {
                parts.extend(way.iter().map(|split| &split[s]));
            }
            surface
                .rule
                .check_ways(&parts)
                .map_err(|reason| PlanError::Settings {
                    surface: s,
                    id: surface.id.clone(),
                    reason,
                })?;
        }
        Ok(())
    }

    /// The splits of winning way `way` (the spec's way number `index`) for every value of
    /// the multiplier box `b` it may show, one after the other, with the range of those of
    /// each value. Errors: a split too many, or no value that can carry the way (then why
    /// each was refused).
    fn box_splits(
        &self,
        b: &MultiplierBox,
        index: usize,
        way: &Way,
        must: bool,
    ) -> Result<(Vec<Split>, Vec<BoxChoice>), PlanError> {
        let mut found: Vec<Split> = Vec::new();
        let mut choices = Vec::new();
        let mut reasons: Vec<String> = Vec::new();
        for (code, value) in b.choices(way) {
            let tag = multiply::caption(value);
            let scaled = match multiply::divided(way, value) {
                Ok(w) => w,
                Err(amount) => {
                    reasons.push(format!("{tag}: {amount} is not {value} times an amount"));
                    continue;
                }
            };
            match self.find_splits(index, &scaled, must && value == 1) {
                Ok(v) => {
                    choices.push(BoxChoice {
                        code,
                        splits: found.len()..found.len() + v.len(),
                        weight: 1,
                    });
                    found.extend(v);
                }
                Err(e @ PlanError::TooManySplits { .. }) => return Err(e),
                Err(e) => reasons.push(format!("{tag}: {e}")),
            }
        }
        if choices.is_empty() {
            return Err(PlanError::NoBoxValue {
                way: index,
                reasons: reasons.join("; "),
            });
        }
        Ok((found, choices))
    }

    /// The box values a losing ticket shows (every one of its `splits` with each), weighed
    /// as the winning `ways` show them ([`multiply::losing_weights`]). Errors: a value no
    /// winning way shows.
    fn losing_box_choices(
        &self,
        b: &MultiplierBox,
        ways: &[Way],
        splits: usize,
    ) -> Result<Vec<BoxChoice>, PlanError> {
        let shown: Vec<(u32, Vec<u8>)> = ways
            .iter()
            .zip(&self.box_choices)
            .skip(1)
            .map(|(w, choices)| (w.count, choices.iter().map(|c| c.code).collect()))
            .collect();
        let weights = multiply::losing_weights(&shown, b.values.len());
        if ways.len() == 1 {
            // No winning way: every value is as likely (nothing to tell apart).
            return Ok((0..b.values.len())
                .map(|c| BoxChoice {
                    code: c as u8,
                    splits: 0..splits,
                    weight: 1,
                })
                .collect());
        }
        if let Some(c) = weights.iter().position(|&w| w == 0) {
            return Err(PlanError::BoxValueUnused { value: b.values[c] });
        }
        Ok(weights
            .iter()
            .enumerate()
            .map(|(c, &weight)| BoxChoice {
                code: c as u8,
                splits: 0..splits,
                weight,
            })
            .collect())
    }

    /// The number of `way` among the ways [`Game::plan`] was given. Panics when it is not
    /// one of them: a caller's bug, since every way a block, a deck or a preview draws
    /// comes from the spec that planned them.
    fn number(&self, way: &Way) -> usize {
        match self.numbers.get(&way.id) {
            Some(&w) => w,
            None => panic!("way \"{}\" was not planned with the spec", way.id),
        }
    }

    /// The splits of `way`, planned when the spec loaded. Panics as [`Game::number`].
    fn splits(&self, way: &Way) -> &[Split] {
        &self.splits[self.number(way)]
    }

    /// Whether `plan`, surface `s`'s part of a split, can show feature `id` of the game's
    /// table: a feature of another style is refused.
    fn surface_can_show(&self, s: usize, plan: &Plan, id: FeatureId) -> Result<(), Refusal> {
        let surface = &self.surfaces[s];
        match surface.from_game[usize::from(id.0)] {
            Some(local) => plan.can_show(local),
            None => Err(Refusal::NoFeature {
                style: surface.style,
                feature: self.feature_name(id).to_string(),
            }),
        }
    }

    /// Surface `s`'s part of evaluation `ev`, with its own area numbers and its wins as the
    /// surface shows them (divided by `factor`, what multiplies them).
    fn sub_evaluation(&self, ev: &Evaluation, s: usize, factor: u32) -> Evaluation {
        let surface = &self.surfaces[s];
        let lo = surface.area_offset;
        // A feature of the surface's play areas is one of its style's.
        let local = |id: FeatureId| {
            surface.from_game[usize::from(id.0)].expect("a feature of the surface's own style")
        };
        let hi = self
            .surfaces
            .get(s + 1)
            .map_or(self.layout.areas.len() as u8, |n| n.area_offset);
        let mut out = Evaluation::default();
        for w in ev.wins.iter().filter(|w| (lo..hi).contains(&w.area)) {
            out.wins.push(AreaWin {
                area: w.area - lo,
                amount: multiply::divide(w.amount, factor).unwrap_or(w.amount),
            });
        }
        for f in ev.features.iter().filter(|f| (lo..hi).contains(&f.area)) {
            out.features.push(AreaFeature {
                area: f.area - lo,
                id: local(f.id),
            });
        }
        // The multiplier box's decoys are the game's, not the surface's.
        for f in ev
            .losing_features
            .iter()
            .filter(|f| (lo..hi).contains(&f.area) && self.box_decoy(f.id).is_none())
        {
            out.losing_features.push(AreaFeature {
                area: f.area - lo,
                id: local(f.id),
            });
        }
        out
    }
}

/// The next combination of `pick` (an odometer over each group's distributions `spread`).
fn next(pick: &mut [usize], spread: &[Vec<Vec<usize>>]) {
    for (g, p) in pick.iter_mut().enumerate() {
        *p += 1;
        if *p < spread[g].len() {
            break;
        }
        *p = 0;
    }
}

/// One of `n` choices drawn from `rng`; a single choice draws nothing.
fn draw(rng: &mut FaceRng, n: usize) -> usize {
    if n == 1 {
        0
    } else {
        below(rng, n as u32) as usize
    }
}

/// The number of ways to give `m` alike wins to `k` surfaces: C(m + k − 1, k − 1), or
/// `usize::MAX` when it overflows.
fn compositions(m: usize, k: usize) -> usize {
    let mut c: usize = 1;
    for i in 1..k {
        // C(m + i, i) = C(m + i − 1, i − 1) × (m + i) / i, exact at every step.
        c = match c.checked_mul(m + i) {
            Some(x) => x / i,
            None => return usize::MAX,
        };
    }
    c
}

/// Every way to give `m` alike wins to `k` surfaces: how many each gets, in a fixed order.
fn distributions(m: usize, k: usize) -> Vec<Vec<usize>> {
    if k == 1 {
        return vec![vec![m]];
    }
    let mut out = Vec::new();
    for first in (0..=m).rev() {
        for mut rest in distributions(m - first, k - 1) {
            rest.insert(0, first);
            out.push(rest);
        }
    }
    out
}

/// Ambiguity of a face whose surfaces together win more often than one evaluation can hold.
pub const AMB_TOO_MANY_WINS: &str = "more winning play areas than one ticket may have";

/// Ambiguity of a face whose multiplier box shows a code the box does not have.
pub const AMB_NO_BOX_VALUE: &str = "a multiplier box showing no value of the box";

/// Ambiguity of a face where a surface wins more than its printed maximum.
pub const AMB_ABOVE_MAX: &str = "a surface wins more than its printed maximum";

/// Ambiguity: the same card twice among a shared dealer's hand and the cards of the
/// surfaces that read it, which are all dealt from the ticket's one deck.
pub const AMB_DECK: &str = "the same card twice on a ticket whose hands share a dealer";

/// Ambiguity: a spot of a surface reading a shared draw (a grid reading bonus numbers)
/// shows a symbol among another reader's own winning cells. Read naively ("a number I see
/// among the winning numbers anywhere wins"), it would win; by the rule only the grid's own
/// winning cells and the shared draw's win on it.
pub const AMB_OTHER_GRID: &str =
    "a spot shows a number among another grid's own winning numbers (shared draw)";

impl Game {
    /// A production face of `way` (one of the spec's ways, planned at load), drawing every
    /// choice from `rng`: one of the way's splits, then each surface's face of its part.
    /// Cannot fail: every choice was checked when the spec loaded ([`Plan::draw`]). Draws
    /// exactly as [`Game::synthesize_showing`] with no feature asked.
    pub fn synthesize(&self, way: &Way, rng: &mut FaceRng) -> Face {
        self.synthesize_way(self.number(way) as WayId, rng)
    }

    /// [`Game::synthesize`] of the way of number `way` (its index in the spec's ways, as
    /// [`Game::plan`] was given them): the same face, without looking the way up by its
    /// id. Panics when `way` is not the number of a planned way (a caller's bug).
    pub fn synthesize_way(&self, way: WayId, rng: &mut FaceRng) -> Face {
        let mut face = Face::default();
        self.synthesize_way_into(way, rng, &mut face);
        face
    }

    /// [`Game::synthesize_way`] into `face`, whatever it held: the same face, built where
    /// it lies (a face reused from ticket to ticket is neither made nor moved again).
    pub fn synthesize_way_into(&self, way: WayId, rng: &mut FaceRng, face: &mut Face) {
        let way = usize::from(way);
        let splits = &self.splits[way];
        let Some((_, column)) = &self.multiplier_box else {
            let split = &splits[draw(rng, splits.len())];
            return self.draw_split(split, None, rng, face);
        };
        // The box value first (by its weight), then a split that shows it.
        let choice = multiply::pick(&self.box_choices[way], rng);
        let r = &choice.splits;
        let split = &splits[r.start + draw(rng, r.len())];
        self.draw_split(split, None, rng, face);
        face.codes[*column] = choice.code;
    }

    /// The face code of the box value whose decoy is feature `id`, if it is one.
    fn box_decoy(&self, id: FeatureId) -> Option<u8> {
        self.box_decoys
            .iter()
            .find(|(f, _)| *f == id)
            .map(|&(_, c)| c)
    }

    /// A face of `way` showing feature `id` (as the evaluator reports it), drawing every
    /// choice from `rng`. Styles build the feature constructively, but a few (a card game's
    /// near misses) can be left no room by the rest of the face; then the face is built again
    /// from the same stream, at most [`FEATURE_ATTEMPTS`] times. Errors: those of
    /// [`Game::synthesize_showing`], or no face showing `id` in [`FEATURE_ATTEMPTS`]
    /// attempts ([`DrawError::FeatureNotShown`]): never a face without the feature.
    pub fn synthesize_showing_checked(
        &self,
        way: &Way,
        id: FeatureId,
        rng: &mut FaceRng,
    ) -> Result<Face, DrawError> {
        for _ in 0..FEATURE_ATTEMPTS {
            let face = self.synthesize_showing(way, Some(id), rng)?;
            if self.evaluate(&face).shows(id) {
                return Ok(face);
            }
        }
        Err(DrawError::FeatureNotShown(
            self.layout.features.name(id).to_string(),
        ))
    }

    /// [`Game::synthesize`], and when `show` names a feature (an id of [`Game::features`]),
    /// a face that shows it (QA decks), drawn among the splits where some surface can show
    /// it. With `show = None` the draws are exactly those of a production face. Errors: also
    /// a way that cannot show the feature on any surface ([`DrawError::CannotShow`]).
    pub fn synthesize_showing(
        &self,
        way: &Way,
        show: Option<FeatureId>,
        rng: &mut FaceRng,
    ) -> Result<Face, DrawError> {
        if show.is_none() {
            return Ok(self.synthesize(way, rng));
        }
        if let Some((id, (_, column))) = show.zip(self.multiplier_box.as_ref()) {
            if let Some(code) = self.box_decoy(id) {
                // A box decoy: a production face of a losing way, its box set to the value.
                self.can_show(way, id)?;
                let mut face = self.synthesize(way, rng);
                face.codes[*column] = code;
                return Ok(face);
            }
        }
        let splits = self.splits(way);
        // A production face draws among every split; a face asked to show a feature draws
        // among the splits where some surface can show it (that surface is asked).
        let (pick, shower) = match show {
            None => unreachable!("drawn as a production face above"),
            Some(id) => {
                let usable: Vec<(usize, usize)> = splits
                    .iter()
                    .enumerate()
                    .filter_map(|(i, split)| {
                        split
                            .iter()
                            .enumerate()
                            .position(|(s, plan)| self.surface_can_show(s, plan, id).is_ok())
                            .map(|s| (i, s))
                    })
                    .collect();
                if usable.is_empty() {
                    self.can_show(way, id)?;
                }
                let (i, s) = usable[draw(rng, usable.len())];
                (i, Some(s))
            }
        };
        let asked = shower.zip(show);
        let mut face = Face::default();
        self.draw_split(&splits[pick], asked, rng, &mut face);
        if let Some((_, column)) = &self.multiplier_box {
            // A box value the drawn split shows, by its weight.
            let with: Vec<BoxChoice> = self.box_choices[self.number(way)]
                .iter()
                .filter(|c| c.splits.contains(&pick))
                .cloned()
                .collect();
            face.codes[*column] = multiply::pick(&with, rng).code;
        }
        Ok(face)
    }

    /// Deals [`DEAL_SAMPLES`] faces of every split of every way of a game whose surfaces
    /// deal from a shared dealer's deck, from a fixed stream, and refuses the way when more
    /// than a quarter fail ([`PlanError::Deal`]): then [`DEAL_ATTEMPTS`] whole deals of a
    /// ticket all failing is out of reach. A game with no shared hand has nothing to sample.
    fn sample_deals(&self) -> Result<(), PlanError> {
        use rand_core::SeedableRng;
        if !self.shared.iter().any(|e| e.kind == SharedKind::Hand) {
            return Ok(());
        }
        for (way, splits) in self.splits.iter().enumerate() {
            for (j, split) in splits.iter().enumerate() {
                let mut rng = FaceRng::seed_from_u64(((way as u64) << 32) | j as u64);
                let (mut face, mut parts) = (Face::default(), self.parts());
                let fails = (0..DEAL_SAMPLES)
                    .filter(|_| !self.try_split(split, None, &mut rng, &mut face, &mut parts))
                    .count();
                if fails * 4 > DEAL_SAMPLES {
                    return Err(PlanError::Deal {
                        way,
                        fails,
                        samples: DEAL_SAMPLES,
                    });
                }
            }
        }
        Ok(())
    }

    /// A face of `split` into `face`, whatever it held, each surface drawing its part;
    /// `asked` names the surface asked to show a feature (a feature of the game's table)
    /// and the feature.
    fn draw_split(
        &self,
        split: &Split,
        asked: Option<(usize, FeatureId)>,
        rng: &mut FaceRng,
        face: &mut Face,
    ) {
        if let ([plan], true) = (split.as_slice(), self.lone()) {
            // One surface, no box and nothing shared: its face is the ticket's, as drawn
            // (no copy).
            let local = asked.map(|(_, id)| self.surfaces[0].from_game[usize::from(id.0)]);
            return plan.draw_into(local.flatten(), rng, face);
        }
        let mut parts = self.parts();
        for _ in 0..DEAL_ATTEMPTS {
            if self.try_split(split, asked, rng, face, &mut parts) {
                return;
            }
        }
        panic!(
            "no deal of the ticket's one deck in {DEAL_ATTEMPTS} attempts: a bug (the spec's \
             load samples every split: see Game::plan)"
        );
    }

    /// The faces each surface's part of a ticket is drawn into ([`Game::try_split`]).
    fn parts(&self) -> Parts {
        let widest = self.surfaces.iter().map(|s| s.columns.len()).max();
        Parts {
            sub: Face::default(),
            given: Face::zeroed(widest.unwrap_or(0)),
            written: 0,
        }
    }

    /// One attempt at a face of `split` into `face`, whatever it held (see
    /// [`Game::draw_split`]): the shared elements, then each surface's part, drawn into
    /// `parts` and copied. False when a surface reading a shared dealer's hand cannot be
    /// dealt from the cards the others left ([`Plan::draw_beside`]).
    fn try_split(
        &self,
        split: &Split,
        asked: Option<(usize, FeatureId)>,
        rng: &mut FaceRng,
        face: &mut Face,
        parts: &mut Parts,
    ) -> bool {
        let Parts {
            sub,
            given,
            written,
        } = parts;
        face.reset(self.layout.columns.len());
        // The shared elements first, whatever the way: they tell nothing of the prize.
        for (e, &at) in self.shared.iter().zip(&self.shared_at) {
            e.draw(face, at, rng);
        }
        let common = self.shared.iter().map(|e| e.count).sum::<usize>();
        for (s, plan) in split.iter().enumerate() {
            let surface = &self.surfaces[s];
            let local = match asked {
                Some((at, id)) if at == s => surface.from_game[usize::from(id.0)],
                _ => None,
            };
            match surface.reads {
                None => plan.draw_into(local, rng, sub),
                Some(e) => {
                    let beside = self.beside(face, e, s);
                    self.sub_face_into(face, s, given, written);
                    if !plan.draw_beside(local, given, &beside, rng, sub) {
                        return false;
                    }
                }
            }
            // The shared columns are kept as drawn; the surface writes its own.
            let (from, to) = (&sub.codes[..], &mut face.codes[..]);
            for r in surface.runs.iter().filter(|r| r.to >= common) {
                to[r.to..r.to + r.len].copy_from_slice(&from[r.from..r.from + r.len]);
            }
        }
        true
    }

    /// True when no card shows twice among shared hand `e` and the cards of every surface
    /// that reads it ([`Layout::deals`]), all dealt from the ticket's one deck, and every
    /// code is a card.
    fn one_deck(&self, face: &Face, e: usize) -> bool {
        let mut seen = 0u64;
        self.deck_codes(face, e, self.surfaces.len()).all(|code| {
            let bit = 1u64.checked_shl(u32::from(code)).filter(|_| code < 52);
            let fresh = bit.is_some_and(|b| seen & b == 0);
            seen |= bit.unwrap_or(0);
            fresh
        })
    }

    /// What the surfaces drawn before surface `before` show on `face` of what it must not
    /// show again, for shared element `e`: a hand's cards dealt (the hand's, and those of
    /// the readers drawn before it, bit `c` for card `c`); a draw's other readers' own
    /// winning cells and spots ([`Layout::own_winning`], [`Layout::spots`]).
    fn beside(&self, face: &Face, e: usize, before: usize) -> Beside {
        if self.shared[e].kind == SharedKind::Hand {
            return Beside {
                cards: self
                    .deck_codes(face, e, before)
                    .fold(0u64, |b, code| b | 1u64 << code),
                ..Beside::default()
            };
        }
        let mut beside = Beside::default();
        for s in self.surfaces[..before]
            .iter()
            .filter(|s| s.reads == Some(e))
        {
            let layout = s.rule.layout();
            let code = |&c: &usize| face.codes[s.columns[c]];
            beside.winning.extend(layout.own_winning.iter().map(code));
            beside.spots.extend(layout.spots.iter().map(code));
        }
        beside
    }

    /// True when a spot of a surface reading shared draw `e` shows a symbol of another
    /// reader's own winning cells ([`AMB_OTHER_GRID`]).
    fn reads_across(&self, face: &Face, e: usize) -> bool {
        let readers: Vec<&Surface> = self
            .surfaces
            .iter()
            .filter(|s| s.reads == Some(e))
            .collect();
        let codes = |s: &Surface, cols: &[usize]| -> Vec<u8> {
            cols.iter().map(|&c| face.codes[s.columns[c]]).collect()
        };
        if readers
            .iter()
            .all(|s| s.rule.layout().own_winning.is_empty())
        {
            return false;
        }
        readers.iter().enumerate().any(|(a, ra)| {
            let own = codes(ra, &ra.rule.layout().own_winning);
            !own.is_empty()
                && readers.iter().enumerate().any(|(b, rb)| {
                    b != a
                        && codes(rb, &rb.rule.layout().spots)
                            .iter()
                            .any(|c| own.contains(c))
                })
        })
    }

    /// The card codes of `face` dealt from the deck of shared hand `e`: the hand's, then
    /// those of the surfaces before `upto` that read it, in face order.
    fn deck_codes<'f>(
        &'f self,
        face: &'f Face,
        e: usize,
        upto: usize,
    ) -> impl Iterator<Item = u8> + 'f {
        let at = self.shared_at[e];
        let hand = (at..at + self.shared[e].count).map(|c| face.codes[c]);
        let readers = self.surfaces[..upto]
            .iter()
            .filter(move |s| s.reads == Some(e))
            .flat_map(|s| {
                s.rule
                    .layout()
                    .deals
                    .iter()
                    .map(|&c| face.codes[s.columns[c]])
            });
        hand.chain(readers)
    }

    /// Every feature a face can be asked to show with this spec's settings (those the
    /// surfaces offer, [`Style::features`]), each name once, in report order, with its id
    /// in the game's table ([`Layout::features`]).
    pub fn features(&self) -> Vec<(FeatureId, &FeatureInfo)> {
        self.offered
            .iter()
            .map(|&id| (id, self.layout.features.get(id)))
            .collect()
    }

    /// The name of feature `id` of the game's table, as manifests, reports and proofs
    /// print it.
    pub fn feature_name(&self, id: FeatureId) -> &str {
        self.layout.features.name(id)
    }

    /// Whether a face of `way` can be asked to show feature `id`: some surface of some split
    /// of the way can ([`Plan::can_show`]). Errors: [`DrawError::CannotShow`] with the last
    /// surface's reason.
    pub fn can_show(&self, way: &Way, id: FeatureId) -> Result<(), DrawError> {
        if self.box_decoy(id).is_some() {
            return match way.wins.is_empty() {
                true => Ok(()),
                false => Err(DrawError::BoxDecoyOnWinner {
                    way: way.id.clone(),
                    feature: self.feature_name(id).to_string(),
                }),
            };
        }
        let mut last = None;
        for split in self.splits(way) {
            for (s, plan) in split.iter().enumerate() {
                match self.surface_can_show(s, plan, id) {
                    Ok(()) => return Ok(()),
                    Err(e) => last = Some(e),
                }
            }
        }
        Err(DrawError::CannotShow {
            way: way.id.clone(),
            feature: self.feature_name(id).to_string(),
            reason: Box::new(last.expect("a planned way has a split of at least one surface")),
        })
    }

    /// The features every face of `way` shows without being asked: those every split
    /// shows on some surface ([`Plan::always_shows`]).
    pub fn always_shows(&self, way: &Way) -> Vec<FeatureId> {
        let splits = self.splits(way);
        let per_split: Vec<Vec<FeatureId>> = splits
            .iter()
            .map(|split| {
                split
                    .iter()
                    .zip(&self.surfaces)
                    .flat_map(|(plan, surface)| {
                        plan.always_shows()
                            .iter()
                            .map(|f| surface.to_game[usize::from(f.0)])
                    })
                    .collect()
            })
            .collect();
        let mut v: Vec<FeatureId> = per_split[0]
            .iter()
            .copied()
            .filter(|f| per_split.iter().all(|p| p.contains(f)))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The cells of `face` a proof marks given its evaluation `ev`, surface by surface
    /// ([`Style::marks`]).
    pub fn marks(&self, face: &Face, ev: &Evaluation) -> Vec<Mark> {
        let mut out = Vec::new();
        let boxed = self.box_value(face).unwrap_or(1);
        for (s, surface) in self.surfaces.iter().enumerate() {
            let sub = self.sub_face(face, s);
            let sev = self.sub_evaluation(ev, s, surface.multiplier.saturating_mul(boxed));
            for m in surface.rule.marks(&sub, &sev) {
                out.push(Mark {
                    area: m.area + surface.area_offset,
                    column: surface.columns[m.column],
                    kind: m.kind,
                });
            }
        }
        // The box multiplies every win: marked with the first when it multiplies, and as a
        // decoy on a losing ticket.
        if let (Some((_, column)), true) = (&self.multiplier_box, boxed > 1) {
            let (area, kind) = match ev.wins.first() {
                Some(first) => (first.area, super::MarkKind::Win),
                None => (0, super::MarkKind::Decoy),
            };
            out.push(Mark {
                area,
                column: *column,
                kind,
            });
        }
        out
    }

    /// Judges `face` by the rules alone: every surface's evaluation, its play areas
    /// numbered in the game, a surface winning above its printed maximum an ambiguity.
    pub fn evaluate(&self, face: &Face) -> Evaluation {
        let mut ev = Evaluation::default();
        self.evaluate_into(face, &mut ev);
        ev
    }

    /// [`Game::evaluate`] into `ev`, whatever it held. A lone surface's style evaluates
    /// straight into it, which then takes the game's numbering in place; several surfaces
    /// are gathered into it: no copy of the evaluation per face.
    pub fn evaluate_into(&self, face: &Face, ev: &mut Evaluation) {
        if !self.lone() {
            self.evaluate_surfaces(face, ev);
            return;
        }
        let surface = &self.surfaces[0];
        surface.rule.evaluate_into(face, ev);
        // As `evaluate_surfaces` with one surface, no shared element and no box (a factor
        // of 1): the same wins, features and ambiguities, in the same order.
        let above = surface.max.is_some_and(|m| ev.prize() > m);
        let o = surface.area_offset;
        for w in &mut ev.wins {
            w.area += o;
            w.amount = multiply::times(w.amount, surface.multiplier);
        }
        for f in ev.features.iter_mut().chain(&mut ev.losing_features) {
            f.area += o;
            f.id = surface.to_game[usize::from(f.id.0)];
        }
        if above {
            ev.ambiguities.insert(0, AMB_ABOVE_MAX);
        }
    }

    /// [`Game::evaluate`] of a game of several surfaces, shared elements or a box, into
    /// `ev`, whatever it held.
    fn evaluate_surfaces(&self, face: &Face, ev: &mut Evaluation) {
        ev.clear();
        let boxed = self.box_value(face);
        if boxed.is_none() {
            ev.ambiguities.push(AMB_NO_BOX_VALUE);
        }
        // One surface's face and evaluation at a time, each into the same place.
        let mut sub = Evaluation::default();
        let widest = self.surfaces.iter().map(|s| s.columns.len()).max();
        let (mut sub_face, mut written) = (Face::zeroed(widest.unwrap_or(0)), 0);
        for (s, surface) in self.surfaces.iter().enumerate() {
            self.sub_face_into(face, s, &mut sub_face, &mut written);
            surface.rule.evaluate_into(&sub_face, &mut sub);
            let o = surface.area_offset;
            // Every win pays the surface's factor times the box's.
            let factor = surface.multiplier.saturating_mul(boxed.unwrap_or(1));
            for w in &sub.wins {
                let w = AreaWin {
                    area: w.area + o,
                    amount: multiply::times(w.amount, factor),
                };
                if ev.wins.try_push(w).is_err() {
                    ev.ambiguities.push(AMB_TOO_MANY_WINS);
                }
            }
            for f in &sub.features {
                let _ = ev.features.try_push(AreaFeature {
                    area: f.area + o,
                    id: surface.to_game[usize::from(f.id.0)],
                });
            }
            for f in &sub.losing_features {
                let _ = ev.losing_features.try_push(AreaFeature {
                    area: f.area + o,
                    id: surface.to_game[usize::from(f.id.0)],
                });
            }
            if surface.max.is_some_and(|m| sub.prize() > m) {
                ev.ambiguities.push(AMB_ABOVE_MAX);
            }
            ev.ambiguities.extend_from_slice(&sub.ambiguities);
        }
        for (e, element) in self.shared.iter().enumerate() {
            match element.kind {
                SharedKind::Hand if !self.one_deck(face, e) => ev.ambiguities.push(AMB_DECK),
                SharedKind::Draw if self.reads_across(face, e) => {
                    ev.ambiguities.push(AMB_OTHER_GRID);
                }
                _ => {}
            }
        }
        // A losing ticket's box above 1X is a decoy, reported on the first play area.
        if let Some((_, column)) = &self.multiplier_box {
            let code = face.codes[*column];
            if let Some(&(id, _)) = self.box_decoys.iter().find(|(_, c)| *c == code) {
                if ev.wins.is_empty() {
                    let _ = ev.losing_features.try_push(AreaFeature { area: 0, id });
                }
            }
        }
    }
}

/// The most different symbols the readers of a shared draw of `count` cells may need on
/// one ticket, drawn in order, given each reader's (own winning cells, spots) in `sizes`:
/// a reader's own winning cells avoid the draw and every symbol of the readers before it,
/// and its spots (counted as all different) avoid the draw, its own winning cells and
/// those of the readers before it. Only the draw's count when no reader has winning cells
/// of its own (nothing then crosses from one reader to another).
fn symbols_needed(count: usize, sizes: &[(usize, usize)]) -> usize {
    if sizes.iter().all(|&(own, _)| own == 0) {
        return count;
    }
    let (mut shown, mut own_before, mut need) = (count, 0, count);
    for &(own, spots) in sizes {
        need = need.max(shown + own).max(count + own_before + own + spots);
        shown += own + spots;
        own_before += own;
    }
    need
}

/// The game's feature table, composed once from the surfaces' (`table`, empty on entry):
/// first the features every surface offers ([`Style::features`]), each name once in
/// surface order, then the rest of every surface's table; each surface is given its maps
/// between the two. Returns the ids of the offered ones, in report order.
fn features(surfaces: &mut [Surface], table: &mut Features) -> Vec<FeatureId> {
    let mut offered = Vec::new();
    for s in surfaces.iter() {
        let own = &s.rule.layout().features;
        for local in s.rule.features() {
            let id = table.add_from(own, local);
            if !offered.contains(&id) {
                offered.push(id);
            }
        }
    }
    for s in surfaces.iter() {
        let own = &s.rule.layout().features;
        for (local, _) in own.iter() {
            table.add_from(own, local);
        }
    }
    for s in surfaces.iter_mut() {
        let own = &s.rule.layout().features;
        s.to_game = own
            .iter()
            .map(|(_, f)| table.find(&f.name).expect("added above"))
            .collect();
        s.from_game = table.iter().map(|(_, f)| own.find(&f.name)).collect();
    }
    offered
}

/// Every surface's panels, in print order, their cells numbered in the composed face; the
/// cells of a shared element a surface reads are left out (its own panel prints them once),
/// and so is a row or panel left empty.
fn panels(surfaces: &[Surface]) -> Vec<Panel> {
    surfaces
        .iter()
        .flat_map(|s| {
            let reads = &s.rule.layout().reads;
            s.rule.layout().panels.iter().filter_map(|p| {
                let rows: Vec<Vec<usize>> = p
                    .rows
                    .iter()
                    .map(|row| {
                        row.iter()
                            .filter(|c| !reads.contains(c))
                            .map(|&c| if c == FREE_CELL { c } else { s.columns[c] })
                            .collect::<Vec<usize>>()
                    })
                    .filter(|row| !row.is_empty())
                    .collect();
                (!rows.is_empty()).then(|| Panel {
                    id: p.id.clone(),
                    rows,
                })
            })
        })
        .collect()
}

/// Every surface's lattices, their face columns numbered in the composed face.
fn lattices(surfaces: &[Surface]) -> Vec<Lattice> {
    surfaces
        .iter()
        .flat_map(|s| {
            s.rule.layout().lattices.iter().map(|l| Lattice {
                panel: l.panel.clone(),
                grid: s.columns[l.grid],
                grids: l
                    .grids
                    .iter()
                    .map(|g| LatticeGrid {
                        words: g
                            .words
                            .iter()
                            .map(|(c, at)| (s.columns[*c], at.clone()))
                            .collect(),
                        ..g.clone()
                    })
                    .collect(),
            })
        })
        .collect()
}

/// The composed face's column of each of a surface's face columns: the columns of the
/// shared element it reads (`reading`: the element and its first column) for those its
/// style lists in [`Layout::reads`], in the element's order, and new columns from `next`
/// on for the others. Errors: a surface reading an element whose count or symbols its
/// style does not hold as the element is, or a style that reads without being asked.
fn column_map(
    id: &str,
    layout: &Layout,
    reading: Option<(&Shared, usize)>,
    mut next: usize,
) -> Result<Vec<usize>, String> {
    let mut map = Vec::with_capacity(layout.columns.len());
    match reading {
        None if !layout.reads.is_empty() => {
            return Err(format!(
                "surface \"{id}\" reads a shared element but names none (`reads`)"
            ))
        }
        Some((e, _)) if layout.reads.len() != e.count => {
            return Err(format!(
                "surface \"{id}\" reads {} cells of shared \"{}\", which has {}",
                layout.reads.len(),
                e.id,
                e.count
            ))
        }
        Some((e, _)) => {
            if let Some(&c) = layout
                .reads
                .iter()
                .find(|&&c| layout.columns[c].values != e.values)
            {
                return Err(format!(
                    "surface \"{id}\" reads shared \"{}\" in face column \"{}\", whose symbols \
                     are not the element's",
                    e.id, layout.columns[c].name
                ));
            }
        }
        None => {}
    }
    for i in 0..layout.columns.len() {
        match (layout.reads.iter().position(|&c| c == i), reading) {
            (Some(k), Some((_, at))) => map.push(at + k),
            _ => {
                map.push(next);
                next += 1;
            }
        }
    }
    Ok(map)
}

/// What the ticket prints with its panels besides their cells: every surface's lines, and a
/// surface's printed maximum with its first panel.
fn printed(surfaces: &[Surface]) -> Vec<Printed> {
    let mut out = Vec::new();
    for s in surfaces {
        let mut own = s.rule.layout().printed.clone();
        let maximum = s.max.map(Phrase::Maximum);
        let factor = (s.multiplier > 1).then_some(Phrase::MultipliedBy(s.multiplier));
        for phrase in factor.into_iter().chain(maximum) {
            if let Some(panel) = s.rule.layout().panels.first().map(|p| p.id.clone()) {
                let line = PrintedLine::of(vec![phrase]);
                match own.iter_mut().find(|p| p.panel == panel) {
                    Some(p) => p.lines.push(line),
                    None => own.push(Printed {
                        panel,
                        lines: vec![line],
                    }),
                }
            }
        }
        out.extend(own);
    }
    out
}

/// Every amount a face can show in figures (each needs a caption), ascending.
fn shown_amounts(surfaces: &[Surface]) -> Vec<Money> {
    let mut v: Vec<Money> = surfaces
        .iter()
        .flat_map(|s| s.rule.layout().shown_amounts.iter().copied())
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Plain-words lines on every shared element and surface's settings, for `tirage check`.
fn describe(shared: &[Shared], surfaces: &[Surface]) -> Vec<String> {
    let mut v = Vec::new();
    for (e, element) in shared.iter().enumerate() {
        let readers: Vec<&str> = surfaces
            .iter()
            .filter(|s| s.reads == Some(e))
            .map(|s| s.id.as_str())
            .collect();
        v.push(element.describe(&readers));
    }
    for s in surfaces {
        match s.max {
            Some(m) => v.push(format!(
                "surface \"{}\" ({}), printed maximum {m}:",
                s.id, s.style
            )),
            None => v.push(format!("surface \"{}\" ({}):", s.id, s.style)),
        }
        if s.multiplier > 1 {
            v.push(format!(
                "  {}: every win on this surface pays {} times the amount it shows",
                multiply::caption(s.multiplier),
                s.multiplier
            ));
        }
        for line in &s.rule.layout().description {
            v.push(format!("  {line}"));
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run covers columns that follow one another on both faces, and stops where the
    /// surface's own columns begin (`common`), even when they follow the shared ones.
    #[test]
    fn runs_follow_both_faces_and_stop_at_the_own_columns() {
        assert_eq!(
            runs(&[0, 1, 2, 3, 4, 5, 9, 10], 3),
            vec![
                Run {
                    from: 0,
                    to: 0,
                    len: 3
                },
                Run {
                    from: 3,
                    to: 3,
                    len: 3
                },
                Run {
                    from: 6,
                    to: 9,
                    len: 2
                },
            ]
        );
        assert_eq!(
            runs(&[7, 8, 2, 3, 4], 2),
            vec![
                Run {
                    from: 0,
                    to: 7,
                    len: 2
                },
                Run {
                    from: 2,
                    to: 2,
                    len: 3
                }
            ]
        );
        assert_eq!(runs(&[], 0), vec![]);
    }

    /// A lone surface's evaluation, made in place, is the one the composition of surfaces
    /// gives: the same wins, features and ambiguities in the same order, on faces of every
    /// way and on faces with cells changed (losers, other ways, ambiguous faces), with one
    /// evaluation reused from face to face.
    #[test]
    fn a_lone_surface_evaluated_in_place_is_evaluated_as_composed() {
        use crate::crypto::rng::{stream, Purpose, Seed};
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let seed = Seed::from_hex(&"5a".repeat(32)).unwrap();
        let (mut lone, mut ev) = (0, Evaluation::default());
        for dir in ["game_specs", "game_specs/examples"] {
            for entry in std::fs::read_dir(root.join(dir)).unwrap() {
                let path = entry.unwrap().path();
                if path.extension() != Some("toml".as_ref()) {
                    continue;
                }
                let spec = crate::spec::GameSpec::load(&path).unwrap();
                let game = &spec.game;
                if !game.lone() {
                    continue;
                }
                lone += 1;
                let cols = &game.layout().columns;
                let mut rng = stream(&seed, Purpose::Faces, 1, lone);
                for way in 0..spec.ways.len() {
                    let mut face = game.synthesize_way(way as WayId, &mut rng);
                    for k in 0..4 {
                        game.evaluate_into(&face, &mut ev);
                        let mut composed = Evaluation::default();
                        game.evaluate_surfaces(&face, &mut composed);
                        assert_eq!(ev, composed, "{}, way {way}, {k}", path.display());
                        let c = (k * 7 + way) % cols.len();
                        let n = cols[c].values.len();
                        face.codes[c] = ((usize::from(face.codes[c]) + 1) % n) as u8;
                    }
                }
            }
        }
        assert!(lone >= 10, "{lone} games of one surface");
    }

    #[test]
    fn alike_wins_are_distributed_once_each() {
        assert_eq!(compositions(10, 5), 1001);
        assert_eq!(compositions(3, 1), 1);
        assert_eq!(compositions(0, 4), 1);
        assert_eq!(
            distributions(2, 2),
            vec![vec![2, 0], vec![1, 1], vec![0, 2]]
        );
        let d = distributions(10, 5);
        assert_eq!(d.len(), 1001);
        assert!(d.iter().all(|v| v.iter().sum::<usize>() == 10));
    }

    /// A surface of style `style` with settings `table` and captions of 3 and 5.
    fn part(style: &'static str, id: &str, table: &str) -> Part {
        use crate::styles::{style::LIBRARY, testkit};
        let table: toml::Table = toml::from_str(table).unwrap();
        let ctx = testkit::Ctx::new(id)
            .captions(testkit::captions(&[0, 3, 5]))
            .tiers(&[3, 5]);
        let info = LIBRARY.iter().find(|i| i.name == style).unwrap();
        Part {
            id: id.to_string(),
            style,
            max: None,
            multiplier: 1,
            rule: (info.build)(table, &ctx.get()).unwrap(),
            reads: None,
        }
    }

    /// Over the cap, the message counts the face columns of every surface, not only of
    /// those before the one that passed it; a face of more than 128 columns is no cap.
    #[test]
    fn too_many_face_columns_are_counted_over_every_surface() {
        let boxes =
            |id: &str, n: usize| part("reveal", id, &format!("boxes = {n}\namounts = [3, 5]\n"));
        let e = Game::new(vec![
            boxes("a", 20_000),
            boxes("b", 10_000),
            boxes("c", 2_749),
        ])
        .err()
        .unwrap();
        assert_eq!(
            e,
            "the surfaces have 65498 face columns in all (a 40000, b 20000, c 5498); a ticket \
             has at most 65497 (a print record is 38 bytes and one per face column, in 65 535 \
             bytes)"
        );
        let g = Game::new(vec![
            boxes("a", 20_000),
            boxes("b", 10_000),
            boxes("c", 2_748),
        ])
        .unwrap();
        assert_eq!(g.layout().columns.len(), MAX_COLUMNS - 1);
        let g = Game::new(vec![boxes("a", 100), boxes("b", 50)]).unwrap();
        assert_eq!(g.layout().columns.len(), 300);
    }

    /// Over 255 play areas, the message counts every surface's.
    #[test]
    fn too_many_play_areas_are_counted_over_every_surface() {
        let spots = |id: &str| {
            part(
                "key_match",
                id,
                "spots = 32\nsymbols = { from = 1, to = 40 }\nwinning = [\"01\"]\n\
                 amounts = [3]\ndecoy_weights = { \"3\" = 1 }\n",
            )
        };
        let areas = spots("a").rule.layout().areas.len();
        let n = MAX_AREAS / areas + 1;
        let parts: Vec<Part> = (0..n).map(|i| spots(&format!("s{i}"))).collect();
        let e = Game::new(parts).err().unwrap();
        assert!(
            e.starts_with(&format!(
                "the surfaces have {} play areas in all (s0 {areas}, ",
                n * areas
            )),
            "{e}"
        );
        assert!(
            e.ends_with("a ticket has at most 255 (a play area is numbered in one byte)"),
            "{e}"
        );
    }
}
