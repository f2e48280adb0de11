//! The tallies of the ticket pass against what the block must hold: the leakage gate, the
//! pack constraints, the count of every way and the payout.

use super::{add, Block, CheckId, Found, Procedure};
use crate::block::Kind;
use crate::money::Money;
use crate::spec::GameSpec;

/// The pack constraints a block of `kind` honours: the spec's for production, none for a
/// specimen deck.
pub(super) fn pack_rules(spec: &GameSpec, kind: Kind) -> crate::spec::PackRules {
    match kind {
        Kind::Production => spec.pack_rules.clone(),
        Kind::Specimen => crate::spec::PackRules::default(),
    }
}

/// No field printed outside the scratch layer predicts win or lose ([`CheckId::Leakage`]).
pub(super) struct Leakage;

impl Procedure for Leakage {
    fn checks(&self) -> &'static [CheckId] {
        &[CheckId::Leakage]
    }

    fn run(&self, block: &Block, found: &mut Found) {
        if block.spec.is_none() {
            return;
        }
        let run = &block.run;
        match &run.leakage {
            // Not one face judged (every face code out of range): no ticket is known to
            // win or lose, so nothing was tested.
            Some(t) if t.tickets() == 0 => found.not_run.push(CheckId::Leakage),
            Some(t) => {
                let results = t.results();
                for r in results.iter().filter(|r| r.result == "fail") {
                    add(
                        &mut found.checks,
                        CheckId::Leakage,
                        None,
                        format!(
                            "{} ({}): chi-square {:.1} on {} df, p = {:.1e}, mutual information {:.4} bits (an independent field: {:.6}): this printed field predicts win or lose",
                            r.field,
                            r.measures,
                            r.chi_square.unwrap_or(0.0),
                            r.df.unwrap_or(0.0),
                            r.p_value.unwrap_or(0.0),
                            r.mi_bits.unwrap_or(0.0),
                            r.mi_baseline_bits.unwrap_or(0.0),
                        ),
                    );
                }
                found.leakage = Some(results);
            }
            None => found.not_run.push(CheckId::Leakage),
        }
    }
}

/// The evaluated block meets its pack constraints ([`CheckId::PackRules`]).
pub(super) struct PackRules;

impl Procedure for PackRules {
    fn checks(&self) -> &'static [CheckId] {
        &[CheckId::PackRules]
    }

    fn run(&self, block: &Block, found: &mut Found) {
        let Some((spec, e, _)) = block.tallied() else {
            return;
        };
        for b in pack_rules(spec, e.kind).breaches(spec, &block.run.ways) {
            add(
                &mut found.checks,
                CheckId::PackRules,
                None,
                format!("{}: {} ({})", b.place, b.what, b.constraint.field()),
            );
        }
    }
}

/// Every way has the count the block must hold, and the evaluated payout is the expected
/// one ([`CheckId::Counts`]).
pub(super) struct Counts;

impl Procedure for Counts {
    fn checks(&self) -> &'static [CheckId] {
        &[CheckId::Counts]
    }

    fn run(&self, block: &Block, found: &mut Found) {
        let Some((spec, e, counts)) = block.tallied() else {
            return;
        };
        let unjudged = block.run.unjudged;
        if unjudged > 0 {
            add(
                &mut found.checks,
                CheckId::Counts,
                None,
                match unjudged {
                    1 => "1 ticket whose face cannot be judged (see face_codes) is counted in no way"
                        .to_string(),
                    n => format!(
                        "{} tickets whose faces cannot be judged (see face_codes) are counted in no way",
                        crate::money::grouped(n)
                    ),
                },
            );
        }
        for (i, w) in spec.ways.iter().enumerate() {
            if counts[i] != e.counts[i] {
                add(
                    &mut found.checks,
                    CheckId::Counts,
                    None,
                    format!(
                        "way \"{}\" ({}): {}, expected {}",
                        w.id,
                        w.amount,
                        super::counted(counts[i], "ticket", "tickets"),
                        crate::money::grouped(e.counts[i])
                    ),
                );
            }
        }
        let want: u64 = spec.ways.iter().zip(&e.counts).fold(0u64, |a, (w, &n)| {
            a.saturating_add(w.amount.cents().saturating_mul(n))
        });
        if block.run.payout != want {
            add(
                &mut found.checks,
                CheckId::Counts,
                None,
                format!(
                    "evaluated payout {} differs from the expected {}",
                    Money(block.run.payout).with_currency(&spec.currency),
                    Money(want).with_currency(&spec.currency)
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{block, findings, made, run};
    use super::super::Options;
    use super::*;

    #[test]
    fn without_a_tally_the_leakage_gate_is_not_run() {
        let m = made();
        let opts = Options::default();
        let b = block(&m, &opts);
        let found = run(&Leakage, &b);
        assert!(found.not_run.contains(&CheckId::Leakage));
        assert!(found.leakage.is_none());
    }

    #[test]
    fn a_pack_short_of_its_minimum_of_winners_is_a_finding() {
        let m = made();
        let opts = Options::default();
        let mut b = block(&m, &opts);
        assert_eq!(findings(&run(&PackRules, &b), CheckId::PackRules), 0);
        b.spec.as_mut().unwrap().pack_rules.min_winners = Some(150);
        assert!(findings(&run(&PackRules, &b), CheckId::PackRules) > 0);
    }

    #[test]
    fn a_way_one_ticket_short_is_a_finding_on_its_count_and_the_payout() {
        let m = made();
        let opts = Options::default();
        let mut b = block(&m, &opts);
        assert_eq!(findings(&run(&Counts, &b), CheckId::Counts), 0);
        b.run.counts.as_mut().unwrap()[1] -= 1;
        b.run.payout -= m.spec.ways[1].amount.cents();
        assert_eq!(findings(&run(&Counts, &b), CheckId::Counts), 2);
    }
}
