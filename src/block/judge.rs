//! The one judge of a face: the game's evaluation, then the way of the spec it
//! realises. The generator judges every face before writing it, `render` before drawing
//! it, and `verify` re-judges every ticket of a block; all three through [`judge`].

use crate::money::Money;
use crate::spec::{GameSpec, WayId};
use crate::styles::{Evaluation, Face};

/// What the rules say of one face.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Judgement {
    /// The way of the spec the face realises; `None` when no way gives what it wins.
    pub way: Option<WayId>,
    /// What the face wins: the sum of its winning play areas, in cents.
    pub prize: Money,
    /// Breaches of the ambiguity policy (GAMES.md), each naming its case; a face with any
    /// is never produced.
    pub ambiguities: Vec<&'static str>,
    /// The game's whole evaluation (wins, features, losing features).
    pub evaluation: Evaluation,
}

/// Judges `face` by the rules of `spec`: evaluates it, then recognises its way
/// ([`GameSpec::recognise`]).
pub fn judge(spec: &GameSpec, face: &Face) -> Judgement {
    let mut judged = Judgement::default();
    judged.judge(spec, face);
    judged
}

impl Judgement {
    /// Judges `face` by the rules of `spec` in place of what it held, as [`judge()`] does:
    /// the generator keeps one judgement for a pack's faces, evaluated in place.
    pub fn judge(&mut self, spec: &GameSpec, face: &Face) {
        spec.game.evaluate_into(face, &mut self.evaluation);
        self.way = spec.recognise(&self.evaluation.wins);
        self.prize = self.evaluation.prize();
        self.ambiguities.clone_from(&self.evaluation.ambiguities);
    }

    /// Checks the rules give exactly `way_id`, with no ambiguity. `Err` says what they found
    /// instead: `ambiguous (…)`, another way with its prize, or a prize no way gives.
    pub fn realises(&self, spec: &GameSpec, way_id: WayId) -> Result<(), String> {
        if !self.ambiguities.is_empty() {
            return Err(format!("ambiguous ({})", self.ambiguities.join("; ")));
        }
        match self.way {
            Some(w) if w == way_id => Ok(()),
            Some(w) => Err(format!(
                "way \"{}\" (prize {})",
                spec.ways[w as usize].id, self.prize
            )),
            None => Err(format!(
                "a prize of {} that no way of the spec gives",
                self.prize
            )),
        }
    }
}
