//! How a surface, or a whole ticket, is laid out: a plain value a style builds once in its
//! constructor and every writer, parser, proof and report reads.
//!
//! A [`Layout`] holds what the rule never reads: the style's name, the play areas by name,
//! the face columns with their dictionaries (and the inscriptions printed beside symbols),
//! the panels a proof draws, the lines printed with them, the amounts a face may show in
//! figures, the plain-words description `tirage check` prints and the table of the features
//! its faces show. The ticket's game
//! ([`super::game::Game`]) composes its surfaces' layouts into one when the spec loads.

use super::{Captions, Features};
use crate::language::PrintedLine;
use crate::money::Money;

/// What a face column holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ColumnKind {
    /// A symbol (or card) code.
    Symbol,
    /// An amount in figures; `amounts[code]` is its value in cents. A code past `amounts`
    /// is a symbol shown in place of an amount (a match_amounts special symbol), which its
    /// style judges, caption included.
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
    /// Code → the inscription in letters the rules print beside the symbol, when they give
    /// one beside a symbol that is not an amount (a card's rank and suit in words); empty
    /// for the other columns. Proofs show it; the files carry the code only.
    pub inscriptions: Vec<String>,
}

impl Column {
    /// A caption column over every caption of the spec, for the amount column `of`.
    pub fn caption(name: impl Into<String>, of: usize, captions: &Captions) -> Column {
        Column {
            name: name.into(),
            kind: ColumnKind::Caption { of },
            values: captions.texts.clone(),
            inscriptions: Vec::new(),
        }
    }

    /// The inscription printed beside symbol `code`, if the column has one (an empty text
    /// is none: a column may give inscriptions to some of its symbols only).
    pub fn inscription(&self, code: u8) -> Option<&str> {
        self.inscriptions
            .get(code as usize)
            .map(String::as_str)
            .filter(|s| !s.is_empty())
    }
}

/// One part of the printed face as a proof draws it: a box of cells under a label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Panel {
    /// The panel's id: the key of its printed name in the spec's `[labels]` table (a
    /// surface's id, a play area's name, a style's fixed part such as its community cards).
    pub id: String,
    /// The face columns it shows, row by row (indices into [`Layout::columns`]). Caption
    /// columns are not listed: each is drawn under its amount.
    pub rows: Vec<Vec<usize>>,
}

/// In [`Panel::rows`], a printed square that is no face column (bingo's FREE centre): the
/// proof draws it as an empty cell reading FREE (LIBRE in French), so the rows keep their columns lined up.
pub const FREE_CELL: usize = usize::MAX;

/// Words a panel draws on a lattice of squares, as the ticket prints them (a crossword's
/// grid), in place of a row of cells: each word's letters in squares at their row and
/// column, a square two words cross drawn once. The grid is the one a face column names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lattice {
    /// The panel that draws it ([`Panel::id`]).
    pub panel: String,
    /// The face column whose code names the grid: code `g` is drawn as `grids[g]`.
    pub grid: usize,
    /// The grids, by code.
    pub grids: Vec<LatticeGrid>,
}

/// One grid of a [`Lattice`]: its size and where its words' letters stand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LatticeGrid {
    /// Rows of squares.
    pub rows: usize,
    /// Squares a row.
    pub cols: usize,
    /// Each word: the face column that holds it, and the square of each of its letters in
    /// order, as (row, square) from 0 at the top left.
    pub words: Vec<(usize, Vec<(usize, usize)>)>,
}

/// Lines the ticket prints with a panel, outside the scratch layer: a pay legend, the
/// winning symbols fixed by the rules, a printed maximum. A proof draws them with the panel,
/// so that it can be held against the artwork, each written as the ticket's language
/// prints it ([`crate::language::Language::line`]: amounts in cents, with the currency).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Printed {
    /// The id of the panel they are printed with ([`Panel::id`]).
    pub panel: String,
    /// The lines, in print order, as data.
    pub lines: Vec<PrintedLine>,
}

/// A surface's (or a ticket's) presentation: everything but the rule, built once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// The style's name, as written in `style` (`match_symbols`); `styles` for a ticket's
    /// game, as the manifest's `game.rule` records it.
    pub name: &'static str,
    /// Play areas a win can sit in, by name; evaluations number them in this order.
    pub areas: Vec<String>,
    /// The face columns, in file order (at most [`super::MAX_COLUMNS`]).
    pub columns: Vec<Column>,
    /// The printed face as proofs lay it out, in print order. Every face column that is
    /// not a caption is in exactly one panel.
    pub panels: Vec<Panel>,
    /// Panels whose words are drawn on a lattice of squares (a crossword's grids); empty for
    /// every style but the crossword's.
    pub lattices: Vec<Lattice>,
    /// What the ticket prints with its panels besides their cells (legends, fixed winning
    /// symbols, maxima), the same on every ticket.
    pub printed: Vec<Printed>,
    /// Every amount a face can show in figures, in cents (each needs a caption).
    pub shown_amounts: Vec<Money>,
    /// The face columns printed outside the scratch layer, in the open (a crossword's grid
    /// number, its words and its bonus word); every other face column is printed under it.
    /// Proofs say which panels are covered.
    pub open: Vec<usize>,
    /// Plain-words lines on the settings, for `tirage check`.
    pub description: Vec<String>,
    /// Every feature the evaluator can report, by [`super::FeatureId`]: what evaluations
    /// name and every writer, report and proof prints.
    pub features: Features,
    /// The face columns that hold the shared element the surface reads (`reads`), in the
    /// element's order; empty when it reads none. The ticket's game prints them once, in
    /// the element's own columns and panel, and drops them from the surface's panels.
    pub reads: Vec<usize>,
    /// The face columns that show cards the surface deals from the ticket's one deck
    /// (`card_hands` codes), when it reads a shared dealer's hand: the ticket's game deals
    /// every reader's cards from one deck and judges a card shown twice across them an
    /// ambiguity. Empty for every other surface.
    pub deals: Vec<usize>,
    /// The face columns of the surface's own winning cells, when it reads a shared draw
    /// beside them (`key_match`'s `winning_cells` with bonus numbers): the ticket's game
    /// judges a spot of another surface reading the same draw that shows one of their
    /// symbols an ambiguity (read naively, a number among any winning numbers wins). Empty
    /// for every other surface.
    pub own_winning: Vec<usize>,
    /// The face columns whose symbols the surface looks up among its winning cells, when it
    /// reads a shared draw (`key_match`'s spots): none may show a symbol of another
    /// reader's [`Layout::own_winning`]. Empty for every other surface.
    pub spots: Vec<usize>,
    /// Each special symbol's play area, by name, with the symbol as printed (`specials`:
    /// an area that shows nothing on a face where its symbol is absent). Empty for a
    /// surface without special symbols.
    pub specials: Vec<(String, String)>,
}

impl Layout {
    /// The layout of style `name` with its play areas and face columns; the panels, printed
    /// lines, shown amounts and description are filled in by the style's constructor.
    pub fn new(name: &'static str, areas: Vec<String>, columns: Vec<Column>) -> Layout {
        Layout {
            name,
            areas,
            columns,
            ..Layout::default()
        }
    }

    /// The inscription the rules print beside symbol `code` of face column `column`, if
    /// any ([`Column::inscriptions`]).
    pub fn inscription(&self, column: usize, code: u8) -> Option<&str> {
        self.columns.get(column)?.inscription(code)
    }
}
