//! Which tickets `render` draws: positions (`--tickets 1,5,9..12`, `--pack 3`), ways
//! (`--way 2+2`) and tiers of the lot table (`--tier 8`, the tier's amount), each option
//! narrowing the others. A [`Selection`] is what the user typed; [`Selection::resolve`]
//! checks it against the spec and the block's size and gives the [`Chosen`] tickets'
//! rule, applied as the ticket files stream past.

use crate::lots::WayId;
use crate::money::Money;
use crate::spec::GameSpec;
use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

/// Most tickets drawn when no ticket is named (`--tickets`): a deck's, never a whole
/// block's.
pub const MOST_UNNAMED: u64 = 2000;

/// Numbers from `first` to `last`, both included, 1-based (`5` is `5..5`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    /// The first number.
    pub first: u32,
    /// The last number, at least `first`.
    pub last: u32,
}

impl Span {
    fn holds(self, n: u32) -> bool {
        (self.first..=self.last).contains(&n)
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.first == self.last {
            write!(f, "{}", self.first)
        } else {
            write!(f, "{}..{}", self.first, self.last)
        }
    }
}

impl FromStr for Span {
    type Err = String;

    /// Parses `5` or `9..12` (spaces around each number allowed). Errors: not a number, 0
    /// (numbers are 1-based), a range whose end is before its start.
    fn from_str(s: &str) -> Result<Span, String> {
        let bad = || format!("`{}` is not a number or a range (5, 9..12)", s.trim());
        let num = |x: &str| -> Result<u32, String> {
            match x.trim().parse::<u32>() {
                Ok(0) => Err(format!("`{}`: numbers start at 1", s.trim())),
                Ok(n) => Ok(n),
                Err(_) => Err(bad()),
            }
        };
        let (first, last) = match s.split_once("..") {
            Some((a, b)) => (num(a)?, num(b)?),
            None => {
                let n = num(s)?;
                (n, n)
            }
        };
        if last < first {
            return Err(format!(
                "`{}` ends before it starts: write {last}..{first}",
                s.trim()
            ));
        }
        Ok(Span { first, last })
    }
}

/// The tickets asked for, as typed. Every option given narrows the selection; the values
/// of one option add up (`--way 2,4`: the tickets of way 2 and those of way 4).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// Ticket numbers and ranges (1-based, print order), drawn in the order given; empty:
    /// every ticket, in print order.
    pub tickets: Vec<Span>,
    /// Pack numbers and ranges (1-based); empty: every pack.
    pub packs: Vec<Span>,
    /// Way ids of the spec's lot table (`lose` for losing tickets); empty: every way.
    pub ways: Vec<String>,
    /// Tiers of the spec's lot table, each named by its amount; empty: every tier.
    pub tiers: Vec<Money>,
}

/// Why a selection selects nothing to draw.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SelectError {
    /// A ticket or pack asked for is past the block's last.
    #[error("{option} {span}: {what} {asked} is not in the block: its {what}s are 1 to {last}")]
    PastBlock {
        /// `--tickets` or `--pack`.
        option: &'static str,
        /// `ticket` or `pack`.
        what: &'static str,
        /// The number or range as typed.
        span: Span,
        /// The first number of `span` past the block.
        asked: u32,
        /// The block's last.
        last: u32,
    },
    /// A ticket or pack named twice: a proof sheet holds each ticket once, so the count of
    /// proofs would not be the count named.
    #[error("{option} {first},{again}: {what} {asked} is named twice (in {first} and in {again}); name each {what} once")]
    Repeated {
        /// `--tickets` or `--pack`.
        option: &'static str,
        /// `ticket` or `pack`.
        what: &'static str,
        /// The first number named twice.
        asked: u32,
        /// The number or range that names it first, as typed.
        first: Span,
        /// The one that names it again.
        again: Span,
    },
    /// An empty way id (`--way ""`, or two commas in a row).
    #[error("--way: an empty way id was given; name one of the spec's ways: {ways}")]
    EmptyWay {
        /// The spec's way ids, comma-separated.
        ways: String,
    },
    /// A way id that is not one of the spec's.
    #[error("--way {asked}: the spec has no such way; its ways are {ways}")]
    UnknownWay {
        /// The id asked for.
        asked: String,
        /// The spec's way ids, comma-separated.
        ways: String,
    },
    /// An amount that is no tier's of the lot table.
    #[error("--tier {asked}: no tier of the lot table has this amount; its tiers are {tiers} (losing tickets: --way lose)")]
    UnknownTier {
        /// The amount asked for, as written in the spec.
        asked: String,
        /// The tiers' amounts, comma-separated.
        tiers: String,
    },
    /// `--way` or `--tier` where no prize may be known: the print file alone of a
    /// production block.
    #[error("--way and --tier select by prize, and these proofs know none: tickets.csv is not read (absent, or encrypted to others) and a production block's print file shows no prize to its printer; select with --tickets or --pack")]
    NoPrize,
    /// Nothing matches every option given.
    #[error("no ticket of the block is {0}: nothing to draw")]
    Empty(String),
    /// More tickets than are drawn without naming them.
    #[error("{count} tickets are {said}: name the ones to draw with --tickets (at most {MOST_UNNAMED} are drawn unnamed), or narrow with --pack, --way or --tier")]
    TooMany {
        /// How many match.
        count: u64,
        /// The selection, in words.
        said: String,
    },
}

/// A selection checked against a spec and a block: the rule a ticket must meet.
#[derive(Clone, Debug)]
pub struct Chosen {
    tickets: Vec<Span>,
    packs: Vec<Span>,
    pack_size: u32,
    /// The ways selected; `None`: every way.
    ways: Option<BTreeSet<WayId>>,
    said: String,
}

impl Selection {
    /// Checks the selection against `spec` and a block of `tickets` tickets. Errors
    /// ([`SelectError`]): a ticket or pack past the block's last, a way or tier the spec
    /// has not, ways and tiers that share no way, positions that share no ticket.
    pub fn resolve(&self, spec: &GameSpec, tickets: u32) -> Result<Chosen, SelectError> {
        let packs = tickets.div_ceil(spec.pack_size.max(1));
        for (spans, option, what, last) in [
            (&self.tickets, "--tickets", "ticket", tickets),
            (&self.packs, "--pack", "pack", packs),
        ] {
            if let Some(&span) = spans.iter().find(|s| s.last > last) {
                return Err(SelectError::PastBlock {
                    option,
                    what,
                    span,
                    asked: span.first.max(last + 1),
                    last,
                });
            }
            if let Some((asked, first, again)) = repeated(spans) {
                return Err(SelectError::Repeated {
                    option,
                    what,
                    asked,
                    first,
                    again,
                });
            }
        }
        let all_ways = || {
            spec.ways
                .iter()
                .map(|w| w.id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut ways: Option<BTreeSet<WayId>> = None;
        if !self.ways.is_empty() {
            let mut set = BTreeSet::new();
            for asked in &self.ways {
                if asked.is_empty() {
                    return Err(SelectError::EmptyWay { ways: all_ways() });
                }
                let i = spec
                    .ways
                    .iter()
                    .position(|w| &w.id == asked)
                    .ok_or_else(|| SelectError::UnknownWay {
                        asked: asked.clone(),
                        ways: all_ways(),
                    })?;
                set.insert(way_id(i));
            }
            ways = Some(set);
        }
        if !self.tiers.is_empty() {
            let mut set = BTreeSet::new();
            for &asked in &self.tiers {
                let tier = spec
                    .tiers
                    .iter()
                    .position(|t| t.amount == asked)
                    .ok_or_else(|| SelectError::UnknownTier {
                        asked: asked.to_string(),
                        tiers: spec
                            .tiers
                            .iter()
                            .map(|t| t.amount.to_string())
                            .collect::<Vec<_>>()
                            .join(", "),
                    })?;
                set.extend(spec.tiers[tier].ways.iter().copied());
            }
            ways = Some(match ways {
                Some(w) => w.intersection(&set).copied().collect(),
                None => set,
            });
        }
        let chosen = Chosen {
            tickets: self.tickets.clone(),
            packs: self.packs.clone(),
            pack_size: spec.pack_size.max(1),
            ways,
            said: self.to_string(),
        };
        if chosen.ways.as_ref().is_some_and(BTreeSet::is_empty) || chosen.placed(tickets) == 0 {
            return Err(SelectError::Empty(chosen.said.clone()));
        }
        Ok(chosen)
    }
}

/// The smallest number two of `spans` both hold, with the span that holds it first (in the
/// order typed) and the other; `None` when no number is named twice.
fn repeated(spans: &[Span]) -> Option<(u32, Span, Span)> {
    let mut found: Option<(u32, Span, Span)> = None;
    for (i, a) in spans.iter().enumerate() {
        for b in &spans[i + 1..] {
            let lo = a.first.max(b.first);
            if lo <= a.last.min(b.last) && found.is_none_or(|(n, _, _)| lo < n) {
                found = Some((lo, *a, *b));
            }
        }
    }
    found
}

fn way_id(i: usize) -> WayId {
    WayId::try_from(i).expect("a spec's ways are numbered by WayId")
}

/// Spans as typed, comma-separated.
fn list(spans: &[Span]) -> String {
    spans
        .iter()
        .map(Span::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

impl fmt::Display for Selection {
    /// The selection in words, as the options were typed (`--tickets 1..20 --way 2`);
    /// `in the block` when nothing narrows it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if !self.tickets.is_empty() {
            parts.push(format!("--tickets {}", list(&self.tickets)));
        }
        if !self.packs.is_empty() {
            parts.push(format!("--pack {}", list(&self.packs)));
        }
        if !self.ways.is_empty() {
            parts.push(format!("--way {}", self.ways.join(",")));
        }
        if !self.tiers.is_empty() {
            let t: Vec<String> = self.tiers.iter().map(Money::to_string).collect();
            parts.push(format!("--tier {}", t.join(",")));
        }
        if parts.is_empty() {
            f.write_str("in the block")
        } else {
            write!(f, "selected by {}", parts.join(" "))
        }
    }
}

impl Chosen {
    /// True when ticket `t` (1-based) is at a place selected: among the tickets and in a
    /// pack asked for.
    pub fn at_place(&self, t: u32) -> bool {
        (self.tickets.is_empty() || self.tickets.iter().any(|s| s.holds(t)))
            && (self.packs.is_empty() || {
                let pack = (t - 1) / self.pack_size + 1;
                self.packs.iter().any(|s| s.holds(pack))
            })
    }

    /// True when a ticket of way `way` is selected.
    pub fn of_way(&self, way: WayId) -> bool {
        self.ways.as_ref().is_none_or(|w| w.contains(&way))
    }

    /// True when the selection depends on the ticket's way (`--way`, `--tier`).
    pub fn by_prize(&self) -> bool {
        self.ways.is_some()
    }

    /// True when the tickets were named (`--tickets`): they are drawn in the order named,
    /// however many.
    pub fn named(&self) -> bool {
        !self.tickets.is_empty()
    }

    /// Where ticket `t` comes in the drawing order: in the order the tickets were named
    /// (never twice: [`Selection::resolve`] refuses a repeat), else in print order.
    pub fn order(&self, t: u32) -> (usize, u32) {
        (self.tickets.iter().position(|s| s.holds(t)).unwrap_or(0), t)
    }

    /// How many tickets of a block of `tickets` are at a place selected (whatever their
    /// way). Counted span by span, never ticket by ticket: a block's count comes from its
    /// manifest, which a forger may set to 4 294 967 295.
    pub fn placed(&self, tickets: u32) -> u64 {
        let all = [Span {
            first: 1,
            last: tickets,
        }];
        // The packs' spans as spans of tickets.
        let ps = u64::from(self.pack_size);
        let packs: Vec<(u64, u64)> = self
            .packs
            .iter()
            .map(|p| ((u64::from(p.first) - 1) * ps + 1, u64::from(p.last) * ps))
            .collect();
        let all_packs = [(1, u64::from(tickets))];
        let spans = if self.tickets.is_empty() {
            &all[..]
        } else {
            &self.tickets
        };
        let packs = if packs.is_empty() {
            &all_packs[..]
        } else {
            &packs
        };
        // Neither option names a number twice (resolve refuses it): the overlaps add up.
        if tickets == 0 {
            return 0;
        }
        spans
            .iter()
            .flat_map(|s| {
                packs.iter().map(move |&(a, b)| {
                    let lo = u64::from(s.first).max(a);
                    let hi = u64::from(s.last).min(b).min(u64::from(tickets));
                    (hi + 1).saturating_sub(lo)
                })
            })
            .sum()
    }

    /// The selection in words, for errors (`selected by --way 2 --pack 3`).
    pub fn said(&self) -> &str {
        &self.said
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> GameSpec {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/specs/coq_tiny.toml");
        GameSpec::load(&path).unwrap()
    }

    fn spans(s: &str) -> Vec<Span> {
        s.split(',').map(|x| x.parse().unwrap()).collect()
    }

    #[test]
    fn spans_parse_numbers_and_ranges() {
        assert_eq!(
            spans("1, 5,9..12"),
            [
                Span { first: 1, last: 1 },
                Span { first: 5, last: 5 },
                Span { first: 9, last: 12 }
            ]
        );
        assert_eq!("0".parse::<Span>(), Err("`0`: numbers start at 1".into()));
        assert_eq!(
            "12..9".parse::<Span>(),
            Err("`12..9` ends before it starts: write 9..12".into())
        );
        assert_eq!(
            "a..3".parse::<Span>(),
            Err("`a..3` is not a number or a range (5, 9..12)".into())
        );
    }

    #[test]
    fn places_ways_and_tiers_narrow_each_other() {
        let spec = spec();
        let ids: Vec<&str> = spec.ways.iter().map(|w| w.id.as_str()).collect();
        let sel = Selection {
            tickets: spans("2..7,1"),
            packs: spans("2..3"),
            ..Selection::default()
        };
        let c = sel.resolve(&spec, 9).unwrap();
        let at: Vec<u32> = (1..=9).filter(|&t| c.at_place(t)).collect();
        assert_eq!(at, [4, 5, 6, 7]);
        assert_eq!(c.placed(9), 4);
        assert!(!c.by_prize() && c.named());
        // Drawn in the order named: 2..7 before 1.
        let mut order = vec![1, 7, 4];
        order.sort_by_key(|&t| c.order(t));
        assert_eq!(order, [4, 7, 1]);
        // A tier is named by its amount; its ways are its, narrowed by --way.
        let tier = Selection {
            tiers: vec![Money::units(4)],
            ..Selection::default()
        };
        let c = tier.resolve(&spec, 9).unwrap();
        let got: Vec<&str> = (0..spec.ways.len())
            .filter(|&i| c.of_way(way_id(i)))
            .map(|i| ids[i])
            .collect();
        let want: Vec<&str> = spec
            .ways
            .iter()
            .filter(|w| w.amount == Money::units(4) && w.tier.is_some())
            .map(|w| w.id.as_str())
            .collect();
        assert_eq!(got, want);
        assert!(c.by_prize());
    }

    /// The count of tickets at a place selected is that of the tickets `at_place` admits,
    /// for any block size, taken from the spans alone: the largest count a manifest can
    /// claim is counted at once.
    #[test]
    fn placed_counts_the_tickets_at_a_place_selected_from_the_spans() {
        let spec = spec();
        let ps = spec.pack_size;
        for (tickets, packs) in [("", ""), ("2..7,1", ""), ("", "2..3"), ("9,2..7,1", "1,3")] {
            let sel = Selection {
                tickets: if tickets.is_empty() {
                    vec![]
                } else {
                    spans(tickets)
                },
                packs: if packs.is_empty() {
                    vec![]
                } else {
                    spans(packs)
                },
                ..Selection::default()
            };
            for n in [9, 10, 3 * ps + 1] {
                let c = sel.resolve(&spec, n).unwrap();
                let by_ticket = (1..=n).filter(|&t| c.at_place(t)).count() as u64;
                assert_eq!(c.placed(n), by_ticket, "{tickets} {packs} of {n}");
            }
        }
        let every = Selection::default().resolve(&spec, u32::MAX).unwrap();
        assert_eq!(every.placed(u32::MAX), u64::from(u32::MAX));
        let pack_2 = Selection {
            packs: spans("2"),
            ..Selection::default()
        };
        let c = pack_2.resolve(&spec, u32::MAX).unwrap();
        assert_eq!(c.placed(u32::MAX), u64::from(ps));
    }

    #[test]
    fn a_selection_past_the_block_unknown_or_empty_is_refused() {
        let spec = spec();
        let sel = |t: &str, p: &str, w: &[&str], tier: &[u64]| Selection {
            tickets: if t.is_empty() { vec![] } else { spans(t) },
            packs: if p.is_empty() { vec![] } else { spans(p) },
            ways: w.iter().map(|s| s.to_string()).collect(),
            tiers: tier.iter().map(|&u| Money::units(u)).collect(),
        };
        let err = |s: Selection| s.resolve(&spec, 9).unwrap_err().to_string();
        // The first ticket past the block is named, not the range's end.
        assert_eq!(
            err(sel("8..12", "", &[], &[])),
            "--tickets 8..12: ticket 10 is not in the block: its tickets are 1 to 9"
        );
        assert_eq!(
            err(sel("2,11..14", "", &[], &[])),
            "--tickets 11..14: ticket 11 is not in the block: its tickets are 1 to 9"
        );
        assert_eq!(
            err(sel("", "4", &[], &[])),
            "--pack 4: pack 4 is not in the block: its packs are 1 to 3"
        );
        // A ticket named twice is refused, naming it and where it was named.
        assert_eq!(
            err(sel("1,1,2", "", &[], &[])),
            "--tickets 1,1: ticket 1 is named twice (in 1 and in 1); name each ticket once"
        );
        assert_eq!(
            err(sel("7,2..5,4..6", "", &[], &[])),
            "--tickets 2..5,4..6: ticket 4 is named twice (in 2..5 and in 4..6); name each ticket once"
        );
        assert_eq!(
            err(sel("", "1..2,2", &[], &[])),
            "--pack 1..2,2: pack 2 is named twice (in 1..2 and in 2); name each pack once"
        );
        let ways: Vec<&str> = spec.ways.iter().map(|w| w.id.as_str()).collect();
        assert_eq!(
            err(sel("", "", &["7"], &[])),
            format!(
                "--way 7: the spec has no such way; its ways are {}",
                ways.join(", ")
            )
        );
        assert_eq!(
            err(sel("", "", &["2", ""], &[])),
            format!(
                "--way: an empty way id was given; name one of the spec's ways: {}",
                ways.join(", ")
            )
        );
        let tiers: Vec<String> = spec.tiers.iter().map(|t| t.amount.to_string()).collect();
        assert_eq!(
            err(sel("", "", &[], &[3])),
            format!(
                "--tier 3: no tier of the lot table has this amount; its tiers are {} (losing tickets: --way lose)",
                tiers.join(", ")
            )
        );
        assert_eq!(
            err(sel("1..3", "2", &[], &[])),
            "no ticket of the block is selected by --tickets 1..3 --pack 2: nothing to draw"
        );
        assert_eq!(
            err(sel("", "", &["lose"], &[2])),
            "no ticket of the block is selected by --way lose --tier 2: nothing to draw"
        );
    }
}
