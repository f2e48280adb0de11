//! The parts of the spec language every style shares (game_specs/README.md, "What is
//! shared"): an amount box with its caption, a symbol set, a `decoy_weights` table keyed by
//! amount, a share written as a fraction and drawn per million, and the draw of distinct
//! symbols. Styles validate their own section with these and wrap the `String` errors
//! with the field's name and line ([`crate::spec::ErrorAt`]).

use super::{Captions, Column, ColumnKind, Face, FaceRng, FeatureId, Layout, Refusal};
use crate::crypto::rng::below_falling;
use crate::language::{Phrase, PrintedLine};
use crate::lots::Way;
use crate::money::Money;
use arrayvec::ArrayVec;
use std::collections::BTreeMap;

/// Most symbols a symbol column may hold (codes are one byte).
pub const MAX_SYMBOLS: usize = 256;

/// A share (`0.0..=1.0`, e.g. a near-miss rate) as parts per million for
/// [`crate::crypto::rng::chance`]. Errors: NaN or outside `0..=1`.
pub fn share(x: f64) -> Result<u32, String> {
    if !(0.0..=1.0).contains(&x) {
        return Err(format!("{x} is not a share between 0 and 1"));
    }
    Ok((x * 1_000_000.0).round() as u32)
}

/// Validates a spec's symbol set (vœux, decoy hieroglyphs, …) and returns `fixed` followed
/// by `words`, the dictionary of a symbol column (code = index).
///
/// `fixed` are the symbols the règlement names (they keep codes `0..fixed.len()`); `reserved`
/// are further names no spec symbol may take (e.g. the winning symbols of another play area).
/// Errors: a word that is empty or not uppercase ASCII letters, a word listed twice or equal
/// to a fixed or reserved symbol, fewer than `min` words, more than [`MAX_SYMBOLS`] in all.
pub fn symbol_set(
    words: &[String],
    fixed: &[&str],
    reserved: &[&str],
    min: usize,
) -> Result<Vec<String>, String> {
    let mut symbols: Vec<String> = fixed.iter().map(|s| s.to_string()).collect();
    for w in words {
        if w.is_empty() || w.len() > 64 || !w.bytes().all(|b| b.is_ascii_uppercase()) {
            return Err(format!(
                "\"{w}\" is not an uppercase ASCII word of 1 to 64 letters"
            ));
        }
        if fixed.contains(&w.as_str()) || reserved.contains(&w.as_str()) {
            return Err(format!(
                "\"{w}\" is a symbol the rule names; expected another word"
            ));
        }
        if symbols.contains(w) {
            return Err(format!("\"{w}\" is listed twice"));
        }
        symbols.push(w.clone());
    }
    if words.len() < min {
        return Err(format!(
            "expected at least {min} symbols, got {}",
            words.len()
        ));
    }
    if symbols.len() > MAX_SYMBOLS {
        return Err(format!("at most {} symbols", MAX_SYMBOLS - fixed.len()));
    }
    Ok(symbols)
}

/// Parses a `decoy_weights` table (key: an amount as text, e.g. `"2" = 30`) into one weight
/// per entry of `amounts` (amounts not listed weigh 0, i.e. are never decoys).
///
/// `allowed` names what `amounts` are, for the error message. Errors: a key that is not an
/// amount or not one of `amounts`, weights summing to 0 or above `u32::MAX`, the same
/// amount under two keys (`"2"` and `"2.00"`).
pub fn decoy_weights(
    table: &BTreeMap<String, u32>,
    amounts: &[Money],
    allowed: &str,
) -> Result<Vec<u32>, String> {
    let mut weights = vec![0u32; amounts.len()];
    let mut seen = vec![false; amounts.len()];
    for (k, &w) in table {
        let m: Money = k.parse().map_err(|e| format!("key \"{k}\": {e}"))?;
        let i = amounts
            .iter()
            .position(|&a| a == m)
            .ok_or_else(|| format!("{m} is not {allowed}"))?;
        if seen[i] {
            return Err(format!(
                "key \"{k}\" is the amount {m} a second time (written another way)"
            ));
        }
        seen[i] = true;
        weights[i] = w;
    }
    let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
    if total == 0 || total > u64::from(u32::MAX) {
        return Err("expected weights summing to 1..=4294967295".into());
    }
    Ok(weights)
}

/// An amount box (GAMES.md vocabulary): a face column showing an amount in figures, whose
/// caption column shows the same amount in letters. Holds the amounts the box may show
/// (code = index, ascending) and the caption code of each.
#[derive(Clone, Debug)]
pub struct AmountBox {
    amounts: Vec<Money>,
    caption_code: Vec<u8>,
}

impl AmountBox {
    /// A box showing `amounts` (sorted and deduplicated here). Errors: more than 256
    /// amounts, or an amount with no caption in `captions` (décret: every amount printed in
    /// figures carries its caption).
    pub fn new(mut amounts: Vec<Money>, captions: &Captions) -> Result<AmountBox, String> {
        amounts.sort_unstable();
        amounts.dedup();
        if amounts.len() > MAX_SYMBOLS {
            return Err(format!("at most {MAX_SYMBOLS} amounts in one box"));
        }
        let caption_code = amounts
            .iter()
            .map(|&m| captions.code(m))
            .collect::<Result<Vec<u8>, String>>()?;
        Ok(AmountBox {
            amounts,
            caption_code,
        })
    }

    /// The amounts the box may show, ascending, in cents.
    pub fn amounts(&self) -> &[Money] {
        &self.amounts
    }

    /// The code of `amount`, if the box may show it.
    pub fn code(&self, amount: Money) -> Option<u8> {
        self.amounts
            .iter()
            .position(|&m| m == amount)
            .map(|i| i as u8)
    }

    /// The amount shown by `code`, in cents. Panics on a code outside the box (faces only
    /// hold codes of their columns' dictionaries).
    pub fn amount(&self, code: u8) -> Money {
        self.amounts[code as usize]
    }

    /// The face column of this box, named `name`.
    pub fn column(&self, name: impl Into<String>) -> Column {
        Column {
            name: name.into(),
            kind: ColumnKind::Amount(self.amounts.clone()),
            values: self.amounts.iter().map(|m| m.to_string()).collect(),
            inscriptions: Vec::new(),
        }
    }

    /// Writes amount `code` into face column `col` and its caption into column `caption`.
    pub fn show(&self, face: &mut Face, col: usize, caption: usize, code: u8) {
        face.codes[col] = code;
        face.codes[caption] = self.caption_code[code as usize];
    }
}

/// A near miss that a surface's one play area shows when it loses, at a rate per million:
/// the features offered, the check that a way can be asked for it, and whether every face
/// of a way shows it. Shared by the styles whose only near miss is of that kind (lines,
/// match_count, match_amounts).
#[derive(Clone, Copy, Debug)]
pub struct LosingNearMiss {
    /// The feature, in the style's table (`near_miss_<area>` or the spec's
    /// `near_miss_feature`).
    pub id: FeatureId,
    /// The share of losing faces that show it, per million.
    pub rate: u32,
}

impl LosingNearMiss {
    /// The feature offered, or none when its rate is 0.
    pub fn features(&self) -> Vec<FeatureId> {
        if self.rate == 0 {
            return Vec::new();
        }
        vec![self.id]
    }

    /// Whether a face of `way` can be asked to show feature `id` of `layout`'s table.
    /// Errors: `id` is not this near miss, its rate is 0, or `way` wins on the play area
    /// (`area` names it).
    pub fn can_show(
        &self,
        way: &Way,
        id: FeatureId,
        layout: &Layout,
        area: &str,
    ) -> Result<(), Refusal> {
        let feature = layout.features.name(id).to_string();
        if id != self.id {
            return Err(Refusal::NoFeature {
                style: layout.name,
                feature,
            });
        }
        if self.rate == 0 {
            return Err(Refusal::ZeroRate {
                feature,
                area: area.to_string(),
            });
        }
        if !way.wins.is_empty() {
            return Err(Refusal::NeedsLosing {
                feature,
                needs: format!("« {area} » to lose"),
                way: way.id.clone(),
            });
        }
        Ok(())
    }

    /// The feature when every losing face shows it (a rate of 1) and `way` loses here.
    pub fn always_shows(&self, way: &Way) -> Vec<FeatureId> {
        if self.rate == 1_000_000 && way.wins.is_empty() {
            vec![self.id]
        } else {
            Vec::new()
        }
    }
}

/// Most values [`pick_distinct`] draws at once: [`crate::styles::MAX_VALUES`], the most
/// symbols or numbers a face column can show, so that every draw a style makes of a
/// column's values (a bingo card's numbers and the drawn ones, 256 in all at most) fits.
pub const MAX_PICK: usize = super::MAX_VALUES;

/// `m` distinct integers of `0..n`, each `m`-subset and each order equally likely: the
/// `j`-th is the `r`-th value of `0..n` not yet picked, for `r` drawn below `n - j` by
/// [`below_falling`] (several picks a 32-bit draw, five of 75 values one draw), in a result
/// of at most `N` picks. Panics if `m > n` or `m > N` (a caller bug; specs are checked).
///
/// `N` is the most picks the caller ever asks (a surface's most spots or winning cells): the
/// result is moved into the caller's frame, and 1 KiB of [`MAX_PICK`] picks took a call to
/// `memcpy` per draw where 32 take a few moves; a caller that may ask up to [`MAX_PICK`]
/// (a bingo card and its draw) uses [`pick_distinct_into`]. Inlined where it is called.
#[inline(always)]
pub fn pick_distinct<const N: usize>(rng: &mut FaceRng, n: u32, m: usize) -> ArrayVec<u32, N> {
    let mut picked = ArrayVec::new();
    pick_distinct_into(rng, n, m, &mut picked);
    picked
}

/// [`pick_distinct`]'s picks written into `picked`, whatever it held, where the caller
/// keeps it: nothing is moved out of a result. When `n` ≤ [`FEW`] the picks are
/// [`pick_few`]'s: the same values from the same draws, with no list of 256 values to
/// copy. Panics if `m > n` or `m > N` (a caller bug; specs are checked).
#[inline(always)]
pub fn pick_distinct_into<const N: usize>(
    rng: &mut FaceRng,
    n: u32,
    m: usize,
    picked: &mut ArrayVec<u32, N>,
) {
    assert!(m as u32 <= n && m <= N, "pick_distinct: {m} of {n}");
    picked.clear();
    if n as usize <= FEW {
        return pick_few_into(rng, n, m, picked);
    }
    if n as usize > MAX_PICK {
        return pick_beyond_list(rng, n, m, picked);
    }
    // The values not yet picked, in increasing order: the `r`-th is read, then closed up.
    // A list of up to 129 values moves 16 bytes at a time, inline, not by a call to
    // `memmove` (each chunk is read before it is overwritten; the slack past the list takes
    // the overrun). As many chunks move whatever `r` is, enough for `r = 0`: their count
    // changes once every 16 picks, so the branch that ends the moves is foreseen, where
    // stopping at the list's end mispredicted about once a pick.
    let mut left = VALUES;
    // The count of values not yet picked: `n` less the picks so far.
    let mut rest = n as usize;
    below_falling(rng, n, m, |r| {
        let r = r as usize;
        picked.push(u32::from(left[r]));
        let chunks = (rest - 1).div_ceil(CHUNK);
        if chunks > 8 {
            left.copy_within(r + 1..rest, r);
        } else {
            // At most 8 chunks: `rest` ≤ 129, and the last byte read, `r + 16 × chunks` ≤
            // 256, is in the slack.
            let mut i = r;
            for _ in 0..chunks {
                let chunk: [u8; CHUNK] = left[i + 1..i + 1 + CHUNK].try_into().expect("sized");
                left[i..i + CHUNK].copy_from_slice(&chunk);
                i += CHUNK;
            }
        }
        rest -= 1;
    });
}

/// [`pick_distinct`]'s picks when `n` ≤ [`FEW`], in a result of at most `N` picks: the same
/// values from the same draws, the list of values not yet picked held in two
/// 128-bit words, a byte a value, closed up by shifts. A draw of a few values then moves
/// a few dozen bytes, not a list and a result of 1 KiB. Panics if `m > n`, `n > FEW` or
/// `m > N` (a caller bug; specs are checked).
#[inline(always)]
pub fn pick_few<const N: usize>(rng: &mut FaceRng, n: u32, m: usize) -> ArrayVec<u32, N> {
    let mut picked = ArrayVec::new();
    pick_few_into(rng, n, m, &mut picked);
    picked
}

/// [`pick_few`]'s picks appended to `picked`, where the caller keeps it. Panics as
/// [`pick_few`] does, or if `picked` has no room for them.
#[inline(always)]
fn pick_few_into<const N: usize>(
    rng: &mut FaceRng,
    n: u32,
    m: usize,
    picked: &mut ArrayVec<u32, N>,
) {
    assert!(
        m as u32 <= n && n as usize <= FEW && m <= N,
        "pick_few: {m} of {n}"
    );
    // Byte `i` of `lo` (`i` < 16) or byte `i − 16` of `hi`: the `i`-th value not yet picked.
    let (mut lo, mut hi) = (FEW_VALUES[0], FEW_VALUES[1]);
    below_falling(rng, n, m, |r| {
        if r < 16 {
            picked.push((lo >> (8 * r)) as u8 as u32);
            // The bytes below `r` stay; those above move down one, `hi`'s first the last.
            let keep = (1u128 << (8 * r)) - 1;
            lo = (lo & keep) | ((lo >> 8) & !keep) | (hi << 120);
            hi >>= 8;
        } else {
            let r = r - 16;
            picked.push((hi >> (8 * r)) as u8 as u32);
            let keep = (1u128 << (8 * r)) - 1;
            hi = (hi & keep) | ((hi >> 8) & !keep);
        }
    });
}

/// Most values [`pick_few`] draws from.
pub const FEW: usize = 32;

/// The values `0..FEW` a byte each, little-endian, in two words: [`pick_few`]'s first list.
const FEW_VALUES: [u128; 2] = {
    let mut w = [0u128; 2];
    let mut v = 0;
    while v < FEW {
        w[v / 16] |= (v as u128) << (8 * (v % 16));
        v += 1;
    }
    w
};

/// [`pick_distinct`] when `n` > [`MAX_PICK`]: the values do not fit its list, so the `r`-th
/// value not yet picked is found by shifting `r` past every picked value at or below it.
/// The picks are appended to `picked`.
#[cold]
#[inline(never)]
fn pick_beyond_list<const N: usize>(
    rng: &mut FaceRng,
    n: u32,
    m: usize,
    picked: &mut ArrayVec<u32, N>,
) {
    let mut sorted: ArrayVec<u32, N> = ArrayVec::new();
    below_falling(rng, n, m, |mut r| {
        for &s in &sorted {
            if r >= s {
                r += 1;
            }
        }
        picked.push(r);
        let at = sorted.partition_point(|&s| s < r);
        sorted.insert(at, r);
    });
}

/// The bytes [`pick_distinct`] moves at once when it closes up its list of values.
const CHUNK: usize = 16;

/// The values `0..MAX_PICK` in order (`VALUES[v] = v`), then `CHUNK` bytes of slack: the
/// first list [`pick_distinct`] draws from. Each value fits in a byte while `MAX_PICK` ≤ 256
/// (asserted when compiled).
const VALUES: [u8; MAX_PICK + CHUNK] = {
    assert!(MAX_PICK <= 256, "pick_distinct's values must fit in a byte");
    let mut a = [0u8; MAX_PICK + CHUNK];
    let mut v = 0;
    while v < MAX_PICK {
        a[v] = v as u8;
        v += 1;
    }
    a
};

/// `k` times in French words: `jamais`, `une fois`, `deux fois`, `3 fois`.
pub fn fois(k: usize) -> String {
    match k {
        0 => "jamais".into(),
        1 => "une fois".into(),
        2 => "deux fois".into(),
        k => format!("{k} fois"),
    }
}

/// A printed legend's entries (`LION = 5 000 €`), three a line.
pub fn legend_lines(entries: Vec<Phrase>) -> Vec<PrintedLine> {
    entries
        .chunks(3)
        .map(|c| PrintedLine::of(c.to_vec()))
        .collect()
}

/// [`pick_distinct`]'s `m` picks of `0..n`, handed to `f` in the order drawn. The picks are
/// made in this frame ([`pick_distinct_into`], which hands a short draw to [`pick_few`]):
/// no list of them is copied out.
#[inline(always)]
pub fn each_pick(rng: &mut FaceRng, n: u32, m: usize, mut f: impl FnMut(u32)) {
    let mut picked = ArrayVec::<u32, MAX_PICK>::new();
    pick_distinct_into(rng, n, m, &mut picked);
    picked.iter().for_each(|&p| f(p));
}

/// `SELECT_IN_BYTE[b][r]`: the position of the `r`-th set bit (from 0) of byte `b`, 0 past
/// its last.
pub static SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut i, mut r) = (0, 0);
        while i < 8 {
            if b >> i & 1 == 1 {
                t[b][r] = i as u8;
                r += 1;
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// The position of the `r`-th set bit (from 0, lowest first) of `bits`, found a byte at a
/// time; `None` when fewer are set.
pub fn nth_set_bit(mut bits: u64, mut r: u32) -> Option<u32> {
    let mut at = 0;
    while bits != 0 {
        let byte = (bits & 0xff) as u8;
        let count = byte.count_ones();
        if r < count {
            return Some(at + u32::from(SELECT_IN_BYTE[usize::from(byte)][r as usize]));
        }
        r -= count;
        bits >>= 8;
        at += 8;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crypto::rng::{stream, Purpose, Seed};
    use rand_core::RngCore;

    #[test]
    fn nth_set_bit_counts_from_the_lowest_bit() {
        let bits = 1 << 0 | 1 << 2 | 1 << 12 | 1 << 13 | 1 << 63;
        let found: Vec<Option<u32>> = (0..6).map(|r| nth_set_bit(bits, r)).collect();
        assert_eq!(
            found,
            [Some(0), Some(2), Some(12), Some(13), Some(63), None]
        );
        assert_eq!(nth_set_bit(0, 0), None);
        assert_eq!(nth_set_bit(u64::MAX, 40), Some(40));
        // Every byte, every rank: the bit left after clearing the lowest `r` set bits.
        for b in 0..256u64 {
            for r in 0..8 {
                let mut left = b << 16;
                for _ in 0..r {
                    left &= left.wrapping_sub(1);
                }
                let want = (left != 0).then(|| left.trailing_zeros());
                assert_eq!(nth_set_bit(b << 16, r), want, "byte {b:#x}, rank {r}");
            }
        }
    }

    #[test]
    fn legend_entries_go_three_a_line() {
        let e: Vec<Phrase> = (1..=4).map(|u| Phrase::Maximum(Money::units(u))).collect();
        let lines = legend_lines(e.clone());
        assert_eq!(
            lines,
            [
                PrintedLine::of(e[..3].to_vec()),
                PrintedLine::of(e[3..].to_vec())
            ]
        );
    }

    fn rng() -> FaceRng {
        stream(&Seed([7; 32]), Purpose::Faces, 1, 0)
    }

    #[test]
    fn shares_are_per_million_and_bounded() {
        assert_eq!(share(0.3), Ok(300_000));
        assert_eq!(share(1.0), Ok(1_000_000));
        assert_eq!(share(0.0), Ok(0));
        assert!(share(1.01).is_err());
        assert!(share(-0.1).is_err());
        assert!(share(f64::NAN).is_err());
    }

    #[test]
    fn symbol_sets_are_checked() {
        let w = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            symbol_set(&w(&["LOTUS", "VASE"]), &["IBIS"], &[], 2).unwrap(),
            w(&["IBIS", "LOTUS", "VASE"])
        );
        assert_eq!(
            symbol_set(&w(&["Lotus"]), &[], &[], 1).unwrap_err(),
            "\"Lotus\" is not an uppercase ASCII word of 1 to 64 letters"
        );
        assert_eq!(
            symbol_set(&w(&["LOTUS", "LOTUS"]), &[], &[], 1).unwrap_err(),
            "\"LOTUS\" is listed twice"
        );
        assert!(symbol_set(&w(&["IBIS"]), &["IBIS"], &[], 1).is_err());
        assert!(symbol_set(&w(&["MASQUE"]), &[], &["MASQUE"], 1).is_err());
        assert_eq!(
            symbol_set(&w(&["LOTUS"]), &[], &[], 2).unwrap_err(),
            "expected at least 2 symbols, got 1"
        );
        assert!(symbol_set(&w(&[""]), &[], &[], 0).is_err());
    }

    #[test]
    fn decoy_weights_follow_the_amounts() {
        let amounts = [Money(300), Money(1000)];
        let t = |v: &[(&str, u32)]| {
            v.iter()
                .map(|(k, w)| (k.to_string(), *w))
                .collect::<BTreeMap<_, _>>()
        };
        assert_eq!(
            decoy_weights(&t(&[("10", 5), ("3", 2)]), &amounts, "a box amount"),
            Ok(vec![2, 5])
        );
        assert_eq!(
            decoy_weights(&t(&[("4", 5)]), &amounts, "a box amount").unwrap_err(),
            "4 is not a box amount"
        );
        assert!(decoy_weights(&t(&[("x", 5)]), &amounts, "a box amount").is_err());
        assert!(decoy_weights(&t(&[("3", 0)]), &amounts, "a box amount").is_err());
        assert!(
            decoy_weights(&t(&[("3", u32::MAX), ("10", 1)]), &amounts, "a box amount").is_err()
        );
    }

    #[test]
    fn amount_box_shows_amount_and_caption() {
        let captions = Captions {
            amounts: vec![Money(0), Money(300), Money(1000)],
            texts: vec!["ZERO EURO".into(), "TROIS EUROS".into(), "DIX EUROS".into()],
        };
        let b = AmountBox::new(vec![Money(1000), Money(300), Money(1000)], &captions).unwrap();
        assert_eq!(b.amounts(), &[Money(300), Money(1000)]);
        assert_eq!(b.code(Money(1000)), Some(1));
        assert_eq!(b.code(Money(0)), None);
        let mut f = Face::default();
        b.show(&mut f, 3, 4, 1);
        assert_eq!((f.codes[3], f.codes[4]), (1, 2));
        assert_eq!(b.column("x").values, vec!["3", "10"]);
        assert!(AmountBox::new(vec![Money(500)], &captions).is_err());
    }

    /// [`pick_distinct`] as it was first written: the `r`-th value not yet picked found by
    /// shifting `r` past every smaller picked value, in order, each `r` drawn below `n − j`
    /// by [`below_falling`].
    fn pick_by_shifting(rng: &mut FaceRng, n: u32, m: usize) -> Vec<u32> {
        let mut sorted: Vec<u32> = Vec::new();
        let mut picked = Vec::new();
        let mut ranks = Vec::new();
        below_falling(rng, n, m, |r| ranks.push(r));
        for mut r in ranks {
            for &s in &sorted {
                if r >= s {
                    r += 1;
                }
            }
            picked.push(r);
            sorted.insert(sorted.partition_point(|&s| s < r), r);
        }
        picked
    }

    #[test]
    fn pick_distinct_draws_as_the_shifting_algorithm_does() {
        // The same values from the same stream, and the stream left at the same place, for
        // every size the list of values holds and above it.
        for (n, m) in [
            (1, 1),
            (5, 3),
            (64, 64),
            (65, 40),
            (75, 60),
            (256, 256),
            (300, 7),
            (1000, 256),
        ] {
            let (mut a, mut b) = (rng(), rng());
            for _ in 0..50 {
                assert_eq!(
                    pick_distinct::<MAX_PICK>(&mut a, n, m).to_vec(),
                    pick_by_shifting(&mut b, n, m),
                    "{n} {m}"
                );
            }
            assert_eq!(a.next_u32(), b.next_u32());
        }
    }

    #[test]
    fn pick_few_draws_as_the_shifting_algorithm_does() {
        // Every size it takes (pick_distinct's too, which hands them to it): the same values
        // from the same stream, the stream left at the same place.
        for n in 0..=FEW as u32 {
            for m in 0..=n as usize {
                let (mut a, mut b) = (rng(), rng());
                for _ in 0..20 {
                    assert_eq!(
                        pick_few::<FEW>(&mut a, n, m).to_vec(),
                        pick_by_shifting(&mut b, n, m),
                        "{n} {m}"
                    );
                }
                assert_eq!(a.next_u32(), b.next_u32(), "{n} {m}");
            }
        }
        assert_eq!(pick_few::<3>(&mut rng(), 26, 3).len(), 3);
    }

    #[test]
    fn picks_in_falling_ranges_share_a_draw() {
        // 25 × 24 × 23 × 22 × 21 = 6 375 600 fits in 32 bits: five picks of 25 values take
        // one word of the stream (this stream's first word is not rejected).
        let (mut a, mut b) = (rng(), rng());
        assert_eq!(pick_few::<5>(&mut a, 25, 5).len(), 5);
        b.next_u32();
        assert_eq!(a.next_u32(), b.next_u32());
        // 75 × 74 × 73 × 72 × 71 = 2 071 126 800 fits, × 70 does not: six picks of 75 values
        // take two words.
        let (mut a, mut b) = (rng(), rng());
        assert_eq!(pick_distinct::<MAX_PICK>(&mut a, 75, 6).len(), 6);
        b.next_u32();
        b.next_u32();
        assert_eq!(a.next_u32(), b.next_u32());
    }

    #[test]
    #[should_panic(expected = "pick_distinct: 3 of 40")]
    fn pick_distinct_refuses_more_picks_than_its_result_holds() {
        pick_distinct::<2>(&mut rng(), 40, 3);
    }

    #[test]
    #[should_panic(expected = "pick_few: 3 of 33")]
    fn pick_few_refuses_more_values_than_it_holds() {
        pick_few::<8>(&mut rng(), 33, 3);
    }

    #[test]
    fn pick_distinct_gives_distinct_values_in_range() {
        let mut r = rng();
        let mut seen = [0u32; 5];
        for _ in 0..2000 {
            let p = pick_distinct::<MAX_PICK>(&mut r, 5, 3);
            assert_eq!(p.len(), 3);
            assert!(p.iter().all(|&x| x < 5));
            assert!(p[0] != p[1] && p[0] != p[2] && p[1] != p[2], "{p:?}");
            for &x in &p {
                seen[x as usize] += 1;
            }
        }
        // Each value is in 3/5 of the draws: 1200 expected.
        assert!(seen.iter().all(|&c| (1100..1300).contains(&c)), "{seen:?}");
        // As many as a column has values: every one of them, once.
        let mut all: Vec<u32> = pick_distinct::<MAX_PICK>(&mut r, 256, MAX_PICK).to_vec();
        all.sort_unstable();
        assert_eq!(all, (0..256).collect::<Vec<u32>>());
        assert_eq!(
            pick_distinct::<MAX_PICK>(&mut r, 4, 4)
                .iter()
                .copied()
                .fold(0, |a, x| a | (1 << x)),
            0b1111
        );
    }
}
