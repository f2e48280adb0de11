//! Special symbols (`specials`), shared by the styles whose cells or spots may show them:
//! the industry's **auto-win** (a money bag that wins on its own), **spot multiplier**
//! (`5X`, that many times the amount under it) and **win-all** ("win all": every prize of
//! the surface, once) symbols.
//!
//! A spec lists them as `specials = [{ symbol, kind, times, area, caption }]`. Each special
//! symbol is a symbol code of its own after the surface's ordinary symbols, and wins in a
//! play area of its own (default `{prefix}_{symbol}` in lower case) after the surface's own
//! play areas: with `n` of them (key_match's one area, compare's rows), special `j` is
//! area `n + j`. What a special wins, and where a face may show it, is each style's rule; this module parses and checks the list, finds a special by its
//! code and refuses a special no way wins by. [`Sums`] draws the amounts a face won by its
//! win-all symbol shows.

use super::style::{self, FieldError, StyleCtx};
use super::{FaceRng, Plan, Refusal, MAX_WINS};
use crate::crypto::rng::below;
use crate::language::Phrase;
use crate::money::Money;
use arrayvec::ArrayVec;
use serde::Deserialize;

/// One entry of `specials`: a symbol that wins on its own wherever a spot shows it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSpecial {
    symbol: String,
    kind: RawSpecialKind,
    #[serde(default)]
    times: Option<u32>,
    #[serde(default)]
    area: Option<String>,
    #[serde(default)]
    caption: Option<String>,
}

/// The `kind` of a special symbol, as the spec writes it.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
enum RawSpecialKind {
    AutoWin,
    Multiplier,
    WinAll,
}

/// What a special symbol on a spot wins (the industry's auto-win, spot multiplier and
/// win-all symbols).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SpecialKind {
    /// The spot wins the amount under it, whatever the winning symbols (a money bag).
    AutoWin,
    /// The spot wins this many times the amount under it (`5X`).
    Multiplier(u32),
    /// The surface wins every amount it shows, added up, once ("win all").
    WinAll,
}

impl SpecialKind {
    /// The amount under a spot showing a special of this kind that wins `amount` (cents):
    /// the amount itself for an auto-win, `amount ÷ N` for a ×N multiplier when N divides
    /// it. `None` for a multiplier N does not divide, and for a win-all (which has no
    /// amount under it).
    pub(super) fn under(self, amount: Money) -> Option<Money> {
        match self {
            SpecialKind::AutoWin => Some(amount),
            SpecialKind::Multiplier(t) => {
                let t = u64::from(t);
                (amount.cents() % t == 0).then(|| Money(amount.cents() / t))
            }
            SpecialKind::WinAll => None,
        }
    }

    /// Why a special of this kind cannot win an amount, where `place` (such as "a spot")
    /// shows the amounts `shown`: `a spot shows 2, 5` for an auto-win, `it wins 5 times an
    /// amount a spot shows (2, 5)` for a multiplier.
    pub(super) fn cannot_win(self, place: &str, shown: &str) -> String {
        match self {
            SpecialKind::Multiplier(t) => {
                format!("it wins {t} times an amount {place} shows ({shown})")
            }
            _ => format!("{place} shows {shown}"),
        }
    }
}

/// A special symbol of the surface: its kind and how it is printed.
#[derive(Debug, Clone)]
pub(super) struct Special {
    pub(super) kind: SpecialKind,
    /// The symbol as printed.
    pub(super) symbol: String,
    /// Code of the symbol in the surface's symbol columns (after every ordinary symbol).
    pub(super) code: u8,
}

/// A surface's special symbols, in the spec's order, with their play areas and captions.
#[derive(Debug, Clone, Default)]
pub(super) struct Specials {
    list: Vec<Special>,
    /// The surface's own play areas, before the specials'.
    first: usize,
}

/// What [`Specials::parse`] returns: the specials, the surface's play areas (its own
/// first, then one per special) and the symbol columns' inscriptions (a special's caption,
/// blank for every ordinary symbol; none at all when no special has a caption).
pub(super) struct Parsed {
    pub(super) specials: Specials,
    pub(super) areas: Vec<String>,
    pub(super) inscriptions: Vec<String>,
}

impl Specials {
    /// Checks `raw` against the surface's ordinary `symbols` (codes `0..symbols.len()`,
    /// named `symbols_field` in messages), its own play areas `own` and the `amounts` a
    /// special may stand over, and returns the specials with their play areas (a special's
    /// default `{prefix}_{symbol}` in lower case) and inscriptions.
    /// Errors (field `specials`): a malformed symbol, one also among `symbols` or listed
    /// twice, too many symbols in all, a bad play area name or one named twice, a
    /// multiplier without `times` of 2 or more (or `times` on another kind), a multiplier
    /// whose every multiplied amount is above the largest lot, two win-all symbols, a
    /// caption that is empty, long or on several lines.
    pub(super) fn parse(
        raw: &[RawSpecial],
        symbols: &[String],
        symbols_field: &str,
        own: &[String],
        prefix: &str,
        amounts: &[Money],
        ctx: &StyleCtx,
    ) -> Result<Parsed, FieldError> {
        let err = |m: String| FieldError::new("specials", m);
        let names: Vec<String> = raw.iter().map(|r| r.symbol.clone()).collect();
        if !names.is_empty() {
            style::symbols(&names, 1, "specials")?;
        }
        if symbols.len() + names.len() > super::common::MAX_SYMBOLS {
            return Err(err(format!(
                "{} symbols and {} special symbols: at most {} in all",
                symbols.len(),
                names.len(),
                super::common::MAX_SYMBOLS
            )));
        }
        let largest = ctx.tier_amounts.iter().copied().max();
        let mut list = Vec::new();
        let mut areas = own.to_vec();
        for (j, r) in raw.iter().enumerate() {
            if symbols.contains(&r.symbol) {
                return Err(err(format!(
                    "\"{}\" is also one of {symbols_field}: a special symbol is none of them",
                    r.symbol
                )));
            }
            let kind = match (r.kind, r.times) {
                (RawSpecialKind::Multiplier, Some(t)) if t >= 2 => SpecialKind::Multiplier(t),
                (RawSpecialKind::Multiplier, _) => {
                    return Err(err(format!(
                        "\"{}\" is a multiplier: give `times`, 2 or more",
                        r.symbol
                    )))
                }
                (_, Some(_)) => {
                    return Err(err(format!(
                        "\"{}\": `times` is only for a multiplier",
                        r.symbol
                    )))
                }
                (RawSpecialKind::AutoWin, None) => SpecialKind::AutoWin,
                (RawSpecialKind::WinAll, None) => SpecialKind::WinAll,
            };
            if let (SpecialKind::Multiplier(t), Some(top)) = (kind, largest) {
                if !amounts
                    .iter()
                    .any(|a| a.cents() * u64::from(t) <= top.cents())
                {
                    return Err(err(format!(
                        "\"{}\" can never multiply: {t} times the smallest amount a spot \
                         shows is above the largest lot, {top}",
                        r.symbol
                    )));
                }
            }
            if let SpecialKind::Multiplier(t) = kind {
                // What the ticket prints of a multiplier says its factor, or none.
                let shown = std::iter::once(&r.symbol).chain(&r.caption);
                if let Some((text, why)) = shown
                    .filter_map(|s| Some((s, crate::text::other_factor(s, u64::from(t))?)))
                    .next()
                {
                    return Err(err(format!(
                        "\"{text}\" {why}, but \"{}\" multiplies by {t} (times = {t}): a multiplier's symbol and caption show its own factor or none",
                        r.symbol
                    )));
                }
            }
            if kind == SpecialKind::WinAll
                && list.iter().any(|s: &Special| s.kind == SpecialKind::WinAll)
            {
                return Err(err("at most one win-all symbol".to_string()));
            }
            let a = r
                .area
                .clone()
                .unwrap_or_else(|| format!("{prefix}_{}", style::symbol_id(&r.symbol)));
            if a.is_empty() || !a.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                return Err(err(format!(
                    "area \"{a}\" is not a play area name: expected ASCII letters, digits or _"
                )));
            }
            if areas.contains(&a) {
                return Err(err(format!("play area \"{a}\" is named twice")));
            }
            areas.push(a);
            if let Some(c) = &r.caption {
                if c.trim().is_empty() || c.chars().count() > 64 || c.contains(['\n', '\r']) {
                    return Err(err(format!(
                        "the caption of \"{}\" is not one line of 1 to 64 characters",
                        r.symbol
                    )));
                }
            }
            list.push(Special {
                kind,
                symbol: r.symbol.clone(),
                code: (symbols.len() + j) as u8,
            });
        }
        let inscriptions = if raw.iter().any(|r| r.caption.is_some()) {
            let mut v = vec![String::new(); symbols.len()];
            v.extend(raw.iter().map(|r| r.caption.clone().unwrap_or_default()));
            v
        } else {
            Vec::new()
        };
        Ok(Parsed {
            specials: Specials {
                list,
                first: own.len(),
            },
            areas,
            inscriptions,
        })
    }

    /// The specials, in the spec's order (special `j` wins in play area [`Specials::area`]).
    pub(super) fn list(&self) -> &[Special] {
        &self.list
    }

    pub(super) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// What the ticket prints of each special symbol, in the spec's order, so that a reader
    /// of the legend knows what it does: an auto-win « ETOILE = gain immédiat », a
    /// multiplier « 5X = gain ×5 », a win-all its amount when the style fixes it
    /// (`win_all`: « TOUT = 27 € »), else « TOUT = tous les montants affichés, additionnés ».
    pub(super) fn phrases(&self, win_all: Option<Money>) -> Vec<Phrase> {
        self.list
            .iter()
            .map(|sp| {
                let symbol = sp.symbol.clone();
                match (sp.kind, win_all) {
                    (SpecialKind::AutoWin, _) => Phrase::InstantWin { symbol },
                    (SpecialKind::Multiplier(t), _) => Phrase::Multiplies {
                        symbol,
                        factor: u64::from(t),
                    },
                    (SpecialKind::WinAll, Some(m)) => Phrase::Pays {
                        symbol,
                        amount: m.into(),
                    },
                    (SpecialKind::WinAll, None) => Phrase::WinsEveryBox { symbol },
                }
            })
            .collect()
    }

    /// The special symbol of code `code` (and its index), if it is one.
    pub(super) fn get(&self, code: u8) -> Option<(usize, &Special)> {
        let first = self.list.first()?.code;
        let j = usize::from(code.checked_sub(first)?);
        self.list.get(j).map(|s| (j, s))
    }

    /// Index of the win-all symbol among the specials, if there is one.
    pub(super) fn win_all(&self) -> Option<usize> {
        self.list.iter().position(|s| s.kind == SpecialKind::WinAll)
    }

    /// The play area special `j` wins in: after the surface's own.
    pub(super) fn area(&self, j: usize) -> u8 {
        (self.first + j) as u8
    }

    /// Each special's play area, named as in `areas` (the surface's play areas, its own
    /// first), with its symbol as printed: [`super::Layout::specials`].
    pub(super) fn named(&self, areas: &[String]) -> Vec<(String, String)> {
        (0..self.list.len())
            .map(|j| {
                (
                    areas[usize::from(self.area(j))].clone(),
                    self.list[j].symbol.clone(),
                )
            })
            .collect()
    }

    /// Refuses a special symbol no way wins by (no face would ever show it); `areas` are
    /// the surface's play areas (its own first, then one per special).
    pub(super) fn check_ways(&self, plans: &[&Plan], areas: &[String]) -> Result<(), Refusal> {
        for (j, sp) in self.list.iter().enumerate() {
            let area = Some(self.area(j));
            if !plans
                .iter()
                .any(|p| p.way().wins.iter().any(|w| w.area == area))
            {
                return Err(Refusal::SpecialUnused {
                    symbol: sp.symbol.clone(),
                    area: areas[usize::from(self.area(j))].clone(),
                });
            }
        }
        Ok(())
    }
}

/// Most entries of the table of sums a win-all way is drawn from (see [`Sums::of_lists`]).
const MAX_SUMS: usize = 1 << 20;

/// The amounts a face won by its win-all symbol may show, for one win: one amount per
/// place that shows one (a spot, row or cell, the win-all's own included; or a play
/// area's amount box), each among that place's amounts, adding up to the win.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Sums {
    /// Entry `p`: the sums the places `p..` can make, sorted, none above the win (in
    /// cents); the last entry is `[0]`.
    reach: Vec<Vec<u64>>,
    total: u64,
}

impl Sums {
    /// The table for `spots` places that each show one of `amounts`, adding up to `total`.
    /// `None` as for [`Sums::of_lists`].
    pub(super) fn new(amounts: &[Money], spots: usize, total: Money) -> Option<Sums> {
        Sums::of_lists(&vec![amounts; spots], total)
    }

    /// The table for places showing `lists` (one list of amounts per place, in order)
    /// adding up to `total`. `None` when no amounts of the places make `total`, or when the
    /// table would pass [`MAX_SUMS`] entries.
    pub(super) fn of_lists(lists: &[&[Money]], total: Money) -> Option<Sums> {
        let t = total.cents();
        let mut reach: Vec<Vec<u64>> = vec![vec![0]];
        let mut size = 1;
        for list in lists.iter().rev() {
            let prev = reach.last().expect("one entry at least");
            let mut next: Vec<u64> = prev
                .iter()
                .flat_map(|&s| list.iter().map(move |a| s + a.cents()))
                .filter(|&s| s <= t)
                .collect();
            next.sort_unstable();
            next.dedup();
            size += next.len();
            if size > MAX_SUMS {
                return None;
            }
            reach.push(next);
        }
        reach.reverse();
        reach[0]
            .binary_search(&t)
            .is_ok()
            .then_some(Sums { reach, total: t })
    }

    /// Codes (in `amounts`, the list a [`Sums::new`] table was made from) of the amounts of
    /// one face, one per spot, as [`Sums::draw_lists`] draws them.
    pub(super) fn draw(&self, amounts: &[Money], rng: &mut FaceRng) -> ArrayVec<u8, MAX_WINS> {
        let lists = vec![amounts; self.reach.len() - 1];
        self.draw_lists(&lists, rng).into_iter().collect()
    }

    /// Codes (each in its place's `lists` entry, the lists the table was made from) of the
    /// amounts of one face, place by place: an amount drawn among those that leave a sum
    /// the places after it can make. One bounded draw per place: no retry.
    pub(super) fn draw_lists(&self, lists: &[&[Money]], rng: &mut FaceRng) -> Vec<u8> {
        let mut left = self.total;
        let mut out = Vec::with_capacity(lists.len());
        for (p, list) in lists.iter().enumerate() {
            let fits: ArrayVec<u8, 256> = (0..list.len())
                .filter(|&c| {
                    let a = list[c].cents();
                    a <= left && self.reach[p + 1].binary_search(&(left - a)).is_ok()
                })
                .map(|c| c as u8)
                .collect();
            let c = fits[below(rng, fits.len() as u32) as usize];
            left -= list[usize::from(c)].cents();
            out.push(c);
        }
        out
    }
}
