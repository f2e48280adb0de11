//! Shared elements of a face (`[[shared]]`): a part of the face printed once and read by
//! the play areas of several surfaces, each by its own style (one caller's draw read by
//! several bingo cards; one set of bonus numbers that wins on every key-number grid).
//!
//! A shared element is drawn first on every ticket, uniformly and independently of the
//! ticket's way ([`Shared::draw`]): it tells nothing of the prize. Each surface that reads
//! it (`reads = "caller"`) then draws its own cells *given* it ([`super::Plan::draw_given`]),
//! so that the surface shows its part of the way against it. The composed face holds the
//! element's columns once, before the surfaces' own ([`super::game::Game`]); a reading
//! surface's face is gathered from them, so its style judges it as it judges any face.

use super::{Column, ColumnKind, Face, FaceRng, Panel};
use crate::crypto::rng::below;

/// One shared element as the spec declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shared {
    /// Its id (`[[shared]] id`): an ASCII word, the key of its printed name in `[labels]`,
    /// the name of its panel and the stem of its columns (`{id}_1`, `{id}_2`, …).
    pub id: String,
    /// What it is.
    pub kind: SharedKind,
    /// How many cells it prints.
    pub count: usize,
    /// The symbols a cell may show (code → text), in the spec's order.
    pub values: Vec<String>,
}

/// What a shared element is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SharedKind {
    /// A draw of `count` different symbols among `values` (a caller's numbers, a set of
    /// winning or bonus numbers), in the order drawn.
    Draw,
}

impl Shared {
    /// The element's face columns, in its order: `{id}_1` to `{id}_{count}`, each over
    /// `values`.
    pub fn columns(&self) -> Vec<Column> {
        (1..=self.count)
            .map(|i| Column {
                name: format!("{}_{i}", self.id),
                kind: ColumnKind::Symbol,
                values: self.values.clone(),
                inscriptions: Vec::new(),
            })
            .collect()
    }

    /// The element's panel, its cells from face column `first` on, eight a row.
    pub fn panel(&self, first: usize) -> Panel {
        let cells: Vec<usize> = (first..first + self.count).collect();
        Panel {
            id: self.id.clone(),
            rows: cells.chunks(8).map(<[usize]>::to_vec).collect(),
        }
    }

    /// One ticket's element, drawn from `rng` whatever the ticket's way: `count` different
    /// codes of `values`, uniformly, in the order drawn, written at face columns
    /// `first..first + count` of `face`.
    pub fn draw(&self, face: &mut Face, first: usize, rng: &mut FaceRng) {
        let codes = draw_distinct(rng, self.values.len(), self.count);
        for (i, c) in codes.into_iter().enumerate() {
            face.codes[first + i] = c;
        }
    }

    /// The element in words, for `tirage check`.
    pub fn describe(&self, readers: &[&str]) -> String {
        let readers: Vec<String> = readers.iter().map(|r| format!("\"{r}\"")).collect();
        let what = match self.kind {
            SharedKind::Draw => format!(
                "a draw of {} different symbols among {} ({} to {})",
                self.count,
                self.values.len(),
                self.values[0],
                self.values.last().expect("at least one symbol")
            ),
        };
        format!(
            "shared \"{}\": {what}, printed once under the scratch layer and drawn on every \
             ticket whatever its prize; read by surface{} {}.",
            self.id,
            if readers.len() == 1 { "" } else { "s" },
            readers.join(", ")
        )
    }
}

/// `k` different codes below `n` (at most 256), uniformly, in the order drawn (a partial
/// Fisher–Yates shuffle).
fn draw_distinct(rng: &mut FaceRng, n: usize, k: usize) -> Vec<u8> {
    let mut pool: Vec<u8> = (0..n).map(|c| c as u8).collect();
    for i in 0..k {
        let j = i + below(rng, (n - i) as u32) as usize;
        pool.swap(i, j);
    }
    pool.truncate(k);
    pool
}

/// The `r`-th code below `n` that is not in `taken` (each below `n`, distinct): how a
/// surface reading a shared draw draws a symbol the draw does not show.
pub fn nth_free(taken: &[u8], r: u32) -> u8 {
    let mut sorted: Vec<u8> = taken.to_vec();
    sorted.sort_unstable();
    let mut r = r;
    for &s in &sorted {
        if r >= u32::from(s) {
            r += 1;
        }
    }
    r as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::SeedableRng;

    #[test]
    fn a_draw_is_distinct_and_within_its_symbols() {
        let s = Shared {
            id: "caller".into(),
            kind: SharedKind::Draw,
            count: 5,
            values: (1..=9).map(|n| format!("{n}")).collect(),
        };
        let mut rng = FaceRng::from_seed([7; 32]);
        for _ in 0..200 {
            let mut face = Face::default();
            s.draw(&mut face, 3, &mut rng);
            let mut got: Vec<u8> = face.codes[3..8].to_vec();
            assert!(got.iter().all(|&c| c < 9));
            got.sort_unstable();
            got.dedup();
            assert_eq!(got.len(), 5);
            assert_eq!(face.codes[..3], [0, 0, 0]);
            assert_eq!(face.codes[8], 0);
        }
        assert_eq!(
            s.columns()
                .iter()
                .map(|c| c.name.as_str())
                .collect::<Vec<_>>(),
            ["caller_1", "caller_2", "caller_3", "caller_4", "caller_5"]
        );
        assert_eq!(s.panel(2).rows, vec![vec![2, 3, 4, 5, 6]]);
    }

    #[test]
    fn the_nth_free_code_skips_the_taken_ones() {
        assert_eq!(nth_free(&[3, 0], 0), 1);
        assert_eq!(nth_free(&[3, 0], 1), 2);
        assert_eq!(nth_free(&[3, 0], 2), 4);
        assert_eq!(nth_free(&[], 5), 5);
    }
}
