//! A game composed of surfaces, each of a play style from the library ([`super::style`]).
//!
//! The composed face is the surfaces' faces side by side: surface `s` owns the face columns
//! `offset[s]..offset[s] + its columns`, and its play areas follow those of the surfaces
//! before it. A way's wins are split over the surfaces: a win whose `areas` entry names a
//! play area goes to that area's surface; a free win goes to any surface that can carry it.
//! Every split that each surface can realise is found when the spec is loaded, and one is
//! drawn per ticket, so a way is carried the same way whatever the thread count. A surface
//! with no win of the split shows a losing face. The ticket's lot is the sum of every
//! surface's winning areas (décret n°78-1067: a lot may be the sum of several play areas).

use super::{
    common, AreaFeature, AreaWin, Column, ColumnKind, Evaluation, Face, FaceRng, FeatureInfo, Mark,
    Mechanic, Panel, Printed, FREE_CELL, MAX_CELLS,
};
use crate::lots::{Way, Win};
use crate::money::Money;
use crate::rng::below;
use std::collections::HashMap;
use std::sync::{Arc, RwLock};

/// Most splits of one way over the surfaces that are tried when the spec is loaded.
pub const MAX_SPLITS: usize = 4096;

/// One surface of a composed game.
pub struct Surface {
    /// Its id in the spec.
    pub id: String,
    /// Its play style's name (`match_symbols`).
    pub style: &'static str,
    /// The style's mechanic for this surface.
    pub mechanic: Box<dyn Mechanic>,
    /// The surface's printed maximum, in cents: no split gives it more, and a face where it
    /// wins more is ambiguous.
    pub max: Option<Money>,
    /// First face column of the surface in the composed face.
    offset: usize,
    /// First play area of the surface in the composed game.
    area_offset: u8,
}

/// One surface as the spec gives it, before it is put beside the others.
pub struct Part {
    /// The surface's id.
    pub id: String,
    /// Its play style's name.
    pub style: &'static str,
    /// Its printed maximum, in cents (`max`).
    pub max: Option<Money>,
    /// The style's mechanic for it.
    pub mechanic: Box<dyn Mechanic>,
}

/// A way split over the surfaces: one sub-way per surface (a losing one for a surface that
/// wins nothing).
type Split = Vec<Way>;

/// A game made of surfaces (the spec's `[[surfaces]]`).
pub struct Composed {
    surfaces: Vec<Surface>,
    columns: Vec<Column>,
    areas: Vec<String>,
    /// The splits every way of the spec may be carried by, found by [`Mechanic::check_way`].
    splits: RwLock<HashMap<String, Arc<Vec<Split>>>>,
}

impl Composed {
    /// Puts the surfaces side by side, in the spec's order. Errors: no surface, a face
    /// column or play area name used by two surfaces, or more than [`MAX_CELLS`] face
    /// columns in all; each error names what is wrong.
    pub fn new(parts: Vec<Part>) -> Result<Composed, String> {
        if parts.is_empty() {
            return Err("a game needs at least one [[surfaces]] entry".into());
        }
        let mut surfaces = Vec::new();
        let mut columns: Vec<Column> = Vec::new();
        let mut areas: Vec<String> = Vec::new();
        for Part {
            id,
            style,
            max,
            mechanic,
        } in parts
        {
            let offset = columns.len();
            let area_offset = u8::try_from(areas.len()).map_err(|_| "more than 255 play areas")?;
            for c in mechanic.columns() {
                if columns.iter().any(|d| d.name == c.name) {
                    return Err(format!(
                        "surface \"{id}\" names face column \"{}\", which another surface already has",
                        c.name
                    ));
                }
                let mut c = c.clone();
                if let ColumnKind::Caption { of } = &mut c.kind {
                    *of += offset;
                }
                columns.push(c);
            }
            for a in mechanic.areas() {
                if areas.contains(a) {
                    return Err(format!(
                        "surface \"{id}\" has play area \"{a}\", which another surface already has"
                    ));
                }
                areas.push(a.clone());
            }
            if columns.len() > MAX_CELLS {
                let mut each: Vec<String> = surfaces
                    .iter()
                    .map(|s: &Surface| format!("{} {}", s.id, s.mechanic.columns().len()))
                    .collect();
                each.push(format!("{id} {}", mechanic.columns().len()));
                return Err(format!(
                    "the surfaces have {} face columns in all ({}); a ticket has at most \
                     {MAX_CELLS}",
                    columns.len(),
                    each.join(", ")
                ));
            }
            surfaces.push(Surface {
                id,
                style,
                mechanic,
                max,
                offset,
                area_offset,
            });
        }
        let mut panel_ids: Vec<String> = Vec::new();
        for s in &surfaces {
            for p in s.mechanic.panels() {
                if panel_ids.contains(&p.id) {
                    return Err(format!(
                        "surface \"{}\" draws panel \"{}\", which another surface already draws",
                        s.id, p.id
                    ));
                }
                panel_ids.push(p.id);
            }
        }
        Ok(Composed {
            surfaces,
            columns,
            areas,
            splits: RwLock::new(HashMap::new()),
        })
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

    /// The columns of surface `s` in the composed face.
    fn span(&self, s: usize) -> std::ops::Range<usize> {
        let start = self.surfaces[s].offset;
        let end = self
            .surfaces
            .get(s + 1)
            .map_or(self.columns.len(), |n| n.offset);
        start..end
    }

    /// Surface `s`'s own face, cut out of the composed one.
    fn sub_face(&self, face: &Face, s: usize) -> Face {
        let r = self.span(s);
        let mut f = Face::default();
        f.codes[..r.len()].copy_from_slice(&face.codes[r]);
        f
    }

    /// Every split of `way` that each surface can realise, in a fixed order. Errors: none
    /// (then the message of the last surface that refused, naming it), or more candidate
    /// splits than [`MAX_SPLITS`].
    fn find_splits(&self, way: &Way) -> Result<Vec<Split>, String> {
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
            return Err(format!(
                "its {} wins can be split over the surfaces in more than {MAX_SPLITS} ways; \
                 give the play area of some wins (`areas`)",
                way.wins.len()
            ));
        }
        let spread: Vec<Vec<Vec<usize>>> = groups
            .iter()
            .map(|g| distributions(g.1, g.2.len()))
            .collect();
        let mut found: Vec<Split> = Vec::new();
        // Why each refused split was refused, each reason once, in the order met.
        let mut reasons: Vec<String> = Vec::new();
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
            // Each distribution is a different set of wins per surface: no split twice.
            let split: Split = sub
                .into_iter()
                .map(|wins| Way {
                    id: way.id.clone(),
                    tier: if wins.is_empty() { None } else { way.tier },
                    amount: Money(wins.iter().map(|w| w.amount.cents()).sum()),
                    count: way.count,
                    wins,
                })
                .collect();
            let refused = split.iter().enumerate().find_map(|(s, sw)| {
                let surface = &self.surfaces[s];
                if let Some(max) = surface.max.filter(|&m| sw.amount > m) {
                    return Some(format!(
                        "surface \"{}\" would win {}, above its printed maximum {max}",
                        surface.id, sw.amount
                    ));
                }
                surface
                    .mechanic
                    .check_way(sw)
                    .err()
                    .map(|e| format!("surface \"{}\": {e}", surface.id))
            });
            match refused {
                None => found.push(split),
                Some(e) => {
                    if !reasons.contains(&e) {
                        reasons.push(e);
                    }
                }
            }
            // Next combination (odometer).
            for (g, p) in pick.iter_mut().enumerate() {
                *p += 1;
                if *p < spread[g].len() {
                    break;
                }
                *p = 0;
            }
        }
        if found.is_empty() {
            return Err(if reasons.is_empty() {
                "no surface can carry it".into()
            } else {
                format!("no surface can carry it: {}", reasons.join("; "))
            });
        }
        Ok(found)
    }

    /// The splits of `way`, found once and kept.
    fn splits(&self, way: &Way) -> Result<Arc<Vec<Split>>, String> {
        if let Some(s) = self
            .splits
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .get(&way.id)
        {
            if s[0].iter().map(|w| w.wins.len()).sum::<usize>() == way.wins.len() {
                return Ok(Arc::clone(s));
            }
        }
        let found = Arc::new(self.find_splits(way)?);
        self.splits
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .insert(way.id.clone(), Arc::clone(&found));
        Ok(found)
    }

    /// Surface `s`'s part of evaluation `ev`, with its own area numbers.
    fn sub_evaluation(&self, ev: &Evaluation, s: usize) -> Evaluation {
        let lo = self.surfaces[s].area_offset;
        let hi = self
            .surfaces
            .get(s + 1)
            .map_or(self.areas.len() as u8, |n| n.area_offset);
        let mut out = Evaluation::default();
        for w in ev.wins.iter().filter(|w| (lo..hi).contains(&w.area)) {
            out.wins.push(AreaWin {
                area: w.area - lo,
                amount: w.amount,
            });
        }
        for f in ev.features.iter().filter(|f| (lo..hi).contains(&f.area)) {
            out.features.push(AreaFeature {
                area: f.area - lo,
                name: f.name,
            });
        }
        for f in ev
            .losing_features
            .iter()
            .filter(|f| (lo..hi).contains(&f.area))
        {
            out.losing_features.push(AreaFeature {
                area: f.area - lo,
                name: f.name,
            });
        }
        out
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

/// Ambiguity of a face where a surface wins more than its printed maximum.
pub const AMB_ABOVE_MAX: &str = "a surface wins more than its printed maximum";

impl Mechanic for Composed {
    fn name(&self) -> &'static str {
        "styles"
    }

    fn areas(&self) -> &[String] {
        &self.areas
    }

    fn columns(&self) -> &[Column] {
        &self.columns
    }

    fn shown_amounts(&self) -> Vec<Money> {
        let mut v: Vec<Money> = self
            .surfaces
            .iter()
            .flat_map(|s| s.mechanic.shown_amounts())
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    fn check_way(&self, way: &Way) -> Result<(), String> {
        self.splits(way).map(|_| ())
    }

    /// Each surface is given its part of every split of every way.
    fn check_ways(&self, ways: &[Way]) -> Result<(), String> {
        for (s, surface) in self.surfaces.iter().enumerate() {
            let mut parts = Vec::new();
            for way in ways {
                parts.extend(self.splits(way)?.iter().map(|split| split[s].clone()));
            }
            surface
                .mechanic
                .check_ways(&parts)
                .map_err(|e| format!("surface \"{}\": {e}", surface.id))?;
        }
        Ok(())
    }

    fn synthesize_showing(
        &self,
        way: &Way,
        show: Option<&str>,
        rng: &mut FaceRng,
    ) -> Result<Face, String> {
        let splits = self.splits(way)?;
        // A production face draws among every split; a face asked to show a feature draws
        // among the splits where some surface can show it (that surface is asked).
        let (pick, shower) = match show {
            None => (draw(rng, splits.len()), None),
            Some(id) => {
                let usable: Vec<(usize, usize)> = splits
                    .iter()
                    .enumerate()
                    .filter_map(|(i, split)| {
                        (0..self.surfaces.len())
                            .find(|&s| self.surfaces[s].mechanic.can_show(&split[s], id).is_ok())
                            .map(|s| (i, s))
                    })
                    .collect();
                if usable.is_empty() {
                    return Err(format!(
                        "way \"{}\" cannot show feature \"{id}\" on any surface",
                        way.id
                    ));
                }
                let (i, s) = usable[draw(rng, usable.len())];
                (i, Some(s))
            }
        };
        let split = &splits[pick];
        let mut face = Face::default();
        for (s, surface) in self.surfaces.iter().enumerate() {
            let asked = if shower == Some(s) { show } else { None };
            let sub = surface
                .mechanic
                .synthesize_showing(&split[s], asked, rng)
                .map_err(|e| format!("surface \"{}\": {e}", surface.id))?;
            let r = self.span(s);
            let len = r.len();
            face.codes[r].copy_from_slice(&sub.codes[..len]);
        }
        Ok(face)
    }

    fn inscription(&self, column: usize, code: u8) -> Option<String> {
        let s = self.surfaces.iter().rposition(|s| s.offset <= column)?;
        self.surfaces[s]
            .mechanic
            .inscription(column - self.surfaces[s].offset, code)
    }

    fn features(&self) -> Vec<FeatureInfo> {
        let mut v: Vec<FeatureInfo> = Vec::new();
        for s in &self.surfaces {
            for f in s.mechanic.features() {
                if !v.iter().any(|g| g.id == f.id) {
                    v.push(f);
                }
            }
        }
        v
    }

    fn can_show(&self, way: &Way, id: &str) -> Result<(), String> {
        let splits = self.splits(way)?;
        let mut why = String::new();
        for split in splits.iter() {
            for (s, surface) in self.surfaces.iter().enumerate() {
                match surface.mechanic.can_show(&split[s], id) {
                    Ok(()) => return Ok(()),
                    Err(e) => why = e,
                }
            }
        }
        Err(why)
    }

    fn always_shows(&self, way: &Way) -> Vec<&'static str> {
        let Ok(splits) = self.splits(way) else {
            return Vec::new();
        };
        let per_split: Vec<Vec<&'static str>> = splits
            .iter()
            .map(|split| {
                self.surfaces
                    .iter()
                    .enumerate()
                    .flat_map(|(s, surface)| surface.mechanic.always_shows(&split[s]))
                    .collect()
            })
            .collect();
        let mut v: Vec<&'static str> = per_split[0]
            .iter()
            .copied()
            .filter(|f| per_split.iter().all(|p| p.contains(f)))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    fn panels(&self) -> Vec<Panel> {
        self.surfaces
            .iter()
            .flat_map(|s| {
                s.mechanic.panels().into_iter().map(|mut p| {
                    for row in &mut p.rows {
                        for c in row.iter_mut().filter(|c| **c != FREE_CELL) {
                            *c += s.offset;
                        }
                    }
                    p
                })
            })
            .collect()
    }

    fn printed(&self) -> Vec<Printed> {
        let mut out = Vec::new();
        for s in &self.surfaces {
            let mut own = s.mechanic.printed();
            if let Some(m) = s.max {
                let first = s.mechanic.panels().into_iter().next().map(|p| p.id);
                if let Some(panel) = first {
                    let line = format!("Maximum: {}", common::printed_amount(m));
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

    fn marks(&self, face: &Face, ev: &Evaluation) -> Vec<Mark> {
        let mut out = Vec::new();
        for (s, surface) in self.surfaces.iter().enumerate() {
            let sub = self.sub_face(face, s);
            let sev = self.sub_evaluation(ev, s);
            for m in surface.mechanic.marks(&sub, &sev) {
                out.push(Mark {
                    area: m.area + surface.area_offset,
                    column: m.column + surface.offset,
                    kind: m.kind,
                });
            }
        }
        out
    }

    fn evaluate(&self, face: &Face) -> Evaluation {
        let mut ev = Evaluation::default();
        for (s, surface) in self.surfaces.iter().enumerate() {
            let sub = surface.mechanic.evaluate(&self.sub_face(face, s));
            let o = surface.area_offset;
            for w in &sub.wins {
                let w = AreaWin {
                    area: w.area + o,
                    amount: w.amount,
                };
                if ev.wins.try_push(w).is_err() {
                    ev.ambiguities.push(AMB_TOO_MANY_WINS);
                }
            }
            for f in &sub.features {
                let _ = ev.features.try_push(AreaFeature {
                    area: f.area + o,
                    name: f.name,
                });
            }
            for f in &sub.losing_features {
                let _ = ev.losing_features.try_push(AreaFeature {
                    area: f.area + o,
                    name: f.name,
                });
            }
            if surface.max.is_some_and(|m| sub.prize() > m) {
                ev.ambiguities.push(AMB_ABOVE_MAX);
            }
            ev.ambiguities.extend(sub.ambiguities);
        }
        ev
    }

    fn surfaces(&self) -> Vec<(String, &'static str)> {
        self.surfaces
            .iter()
            .map(|s| (s.id.clone(), s.style))
            .collect()
    }

    fn describe(&self) -> Vec<String> {
        let mut v = Vec::new();
        for s in &self.surfaces {
            match s.max {
                Some(m) => v.push(format!(
                    "surface \"{}\" ({}), printed maximum {m}:",
                    s.id, s.style
                )),
                None => v.push(format!("surface \"{}\" ({}):", s.id, s.style)),
            }
            for line in s.mechanic.describe() {
                v.push(format!("  {line}"));
            }
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
