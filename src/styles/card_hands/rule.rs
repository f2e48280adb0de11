//! The [`Style`] of a `card_hands` surface: the ways it carries, its features, its
//! rule (the evaluation of a face), and how a proof shows it.

use super::*;

impl CardHands {
    /// A way is feasible when it has at most 4 wins, each a zone amount, in distinct zones,
    /// and its combination weights (the way's, else its tier's) are feasible under the
    /// policy: a four of a kind needs a community pair, which makes every zone a naive
    /// winner, so it must weigh 0 unless the way wins on every zone; at most one four of a
    /// kind and one royal flush fit on a ticket (two royals need six community cards of one
    /// suit; a second four of a kind a second community pair), so a way of two or more wins
    /// needs a positive weight on a pair, three of a kind, straight or flush.
    fn check_way(&self, way: &Way) -> Result<(), Refusal> {
        let k = way.wins.len();
        let zones = self.zones;
        if k > zones {
            return Err(Refusal::TooManyWins {
                area: self.layout.areas.join(", "),
                wins: k,
                most: zones,
                why: "one win per player zone",
            });
        }
        for w in &way.wins {
            if self.amount_code(w.amount).is_none() {
                return Err(Refusal::CannotWin {
                    area: self.layout.areas.join(", "),
                    amount: w.amount,
                    can: "the amount is not one of zone_amounts".into(),
                });
            }
        }
        for (i, a) in way.wins.iter().enumerate() {
            if let Some(z) = a.area {
                if way.wins[i + 1..].iter().any(|b| b.area == a.area) {
                    return Err(Refusal::SameArea {
                        area: self.layout.areas[usize::from(z)].clone(),
                    });
                }
            }
        }
        if k == 0 {
            return Ok(());
        }
        let w = self
            .weights_for(way)
            .ok_or_else(|| Refusal::NoWeights {
                fix: match self.tier_amount(way) {
                    Some(t) => format!(
                        "combination_weights.\"{t}\" (its tier's amount) or way_combination_weights.\"{}\"",
                        way.id
                    ),
                    None => format!("way_combination_weights.\"{}\"", way.id),
                },
            })?;
        let four = Combination::FourOfAKind;
        if k < zones && w[four.index()] > 0 {
            return Err(Refusal::FourNeedsEveryZone {
                four: self.id(four).to_string(),
                weight: w[four.index()],
                wins: k,
                zones,
            });
        }
        let repeatable: u64 = w[..4].iter().map(|&x| u64::from(x)).sum();
        if k >= 2 && repeatable == 0 {
            let listed: Vec<&str> = Combination::ALL[..4]
                .iter()
                .filter(|c| self.ids[c.index()].is_some())
                .map(|&c| self.id(c))
                .collect();
            return Err(Refusal::NothingRepeats {
                wins: k,
                give: if listed.is_empty() {
                    "a pair, three of a kind, straight or flush combination".to_string()
                } else {
                    listed.join(", ")
                },
            });
        }
        Ok(())
    }

    /// A combination needs a weight above 0 in the way's weights (its own, else its
    /// tier's); a near miss a rate above 0 and a way with a losing zone (fewer wins than
    /// zones).
    fn can_show(&self, way: &Way, id: FeatureId) -> Result<(), Refusal> {
        let feature = self.layout.features.name(id).to_string();
        match self.parse_want(id) {
            None => Err(Refusal::NoFeature {
                style: "card_hands",
                feature,
            }),
            Some(Want::Win(c)) => match self.weights_for(way) {
                Some(w) if !way.wins.is_empty() && w[c.index()] > 0 => Ok(()),
                _ => Err(Refusal::NoWeight {
                    feature,
                    way: way.id.clone(),
                }),
            },
            Some(Want::Draw(d)) => {
                if self.draw_rate(d) == 0 {
                    Err(Refusal::ZeroRate {
                        feature,
                        area: self.layout.areas.join(", "),
                    })
                } else if way.wins.len() >= self.zones {
                    Err(Refusal::NeedsLosing {
                        feature,
                        needs: format!("one of the {} zones to lose", self.zones),
                        way: way.id.clone(),
                    })
                } else {
                    Ok(())
                }
            }
        }
    }

    /// The way's only combination, when its weights give exactly one a weight above 0.
    fn always_shows(&self, way: &Way) -> Vec<FeatureId> {
        match self.weights_for(way) {
            Some(w) if !way.wins.is_empty() && w.iter().filter(|&&x| x > 0).count() == 1 => {
                Combination::ALL
                    .iter()
                    .filter(|c| w[c.index()] > 0)
                    .map(|&c| self.feature(c))
                    .collect()
            }
            _ => Vec::new(),
        }
    }
}

/// The presentation of the style, computed once by its constructor.
impl CardHands {
    /// `self` with its layout completed: panels, printed lines, shown amounts and
    /// description, computed once from its settings.
    pub(super) fn with_layout(mut self) -> Self {
        for &c in &self.card_columns {
            self.layout.columns[c].inscriptions =
                (0..DECK).map(|code| self.inscription(code)).collect();
        }
        self.layout.shown_amounts = self.shown_amounts();
        self.layout.panels = self.panels();
        self.layout.description = self.describe();
        self
    }

    fn shown_amounts(&self) -> Vec<Money> {
        self.gain.amounts().to_vec()
    }

    /// A card's inscription: its rank and suit in letters from the spec's `rank_names` and
    /// `suit_names`, written as `card_name` says (`{rank} OF {suit}`: `QUEEN OF HEARTS`).
    /// Every card column carries the inscription of each of the [`DECK`] cards.
    fn inscription(&self, code: u8) -> String {
        self.card_name
            .replace("{rank}", self.rank_caption(code))
            .replace("{suit}", self.suit_caption(code))
    }

    /// Each zone (its id: its two cards and the GAIN), then the community cards
    /// (`community_id`).
    fn panels(&self) -> Vec<Panel> {
        let mut out: Vec<Panel> = (0..self.zones)
            .map(|z| Panel {
                id: self.layout.areas[z].clone(),
                rows: vec![(z * ZONE_COLUMNS..z * ZONE_COLUMNS + 3).collect()],
            })
            .collect();
        out.push(Panel {
            id: self.community_id.clone(),
            rows: vec![(self.board_column..self.board_column + COMMUNITY).collect()],
        });
        out
    }

    /// One sentence per zone, then the community cards, the combinations, the cards'
    /// inscriptions, the amounts, decoys, near misses and the combination weights.
    fn describe(&self) -> Vec<String> {
        let listed: Vec<Combination> = Combination::ALL
            .iter()
            .copied()
            .filter(|c| self.kinds & c.bit() != 0)
            .collect();
        let names: Vec<String> = listed
            .iter()
            .map(|&c| format!("« {} »", self.printed_name(c)))
            .collect();
        let board = &self.board_label;
        let mut lines: Vec<String> = (0..self.zones)
            .map(|z| {
                let usage = if self.kinds & POCKET != 0 {
                    format!("made with at least one of its 2 own cards and any of the {COMMUNITY} cards of « {board} » (its two cards alone may make a pair)")
                } else {
                    format!("made with at least one of its 2 own cards and at least one of the {COMMUNITY} cards of « {board} »")
                };
                format!(
                    "« {} » wins the amount in its GAIN when its best hand, {usage}, is one of: {} (only its best counts; winning zones add up).",
                    self.zone_labels[z],
                    names.join(", ")
                )
            })
            .collect();
        lines.push(format!(
            "« {board} » ({COMMUNITY} cards, {}1 to {}{COMMUNITY}) wins nothing by itself: it is read by every zone.",
            self.layout.columns[self.board_column].name.trim_end_matches('1'),
            self.layout.columns[self.board_column].name.trim_end_matches('1'),
        ));
        lines.push(format!(
            "Combinations, lowest to highest: {}.",
            listed
                .iter()
                .map(|&c| {
                    let def = if c == Combination::Straight && self.kinds & ACE_LOW != 0 {
                        "five consecutive ranks, ace high or low (A-2-3-4-5), not all of one suit"
                    } else {
                        c.definition()
                    };
                    format!("« {} » ({}: {def})", self.printed_name(c), self.id(c))
                })
                .collect::<Vec<_>>()
                .join("; ")
        ));
        lines.push(format!(
            "Cards: rank {} + suit {} in files; printed as \"{}\" with ranks {} and suits (c d h s) {}.",
            RANK_CHARS.iter().collect::<String>(),
            SUIT_CHARS.iter().collect::<String>(),
            self.card_name,
            self.rank_captions.join(" "),
            self.suit_captions.join(" ")
        ));
        let weights: Vec<String> = self
            .gain
            .amounts()
            .iter()
            .zip(&self.decoy_weights)
            .filter(|(_, &w)| w > 0)
            .map(|(m, w)| format!("{m}×{w}"))
            .collect();
        lines.push(format!(
            "GAIN amounts: {}; a losing zone's GAIN shows a decoy, weights {}.",
            self.gain
                .amounts()
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" "),
            weights.join(" ")
        ));
        lines.push(format!(
            "Near misses: of losing zones, {:.2}% show four to a flush and {:.2}% four to a straight, their own cards with the community cards (when the community cards leave room).",
            f64::from(self.near_miss[1]) / 1e4,
            f64::from(self.near_miss[2]) / 1e4
        ));
        let show = |w: &[u32; 6]| {
            Combination::ALL
                .iter()
                .zip(w)
                .filter(|(_, &x)| x > 0)
                .map(|(&c, x)| format!("{}×{x}", self.id(c)))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let unless = if self.way_weights.is_empty() {
            ""
        } else {
            " (unless its way has weights of its own)"
        };
        for (m, w) in &self.tier_weights {
            lines.push(format!(
                "Combinations shown, tier {m} (a ticket whose whole lot is {m}, part of it possibly won on another surface): each winning zone{unless} shows one drawn by weight from {}.",
                show(w)
            ));
        }
        for (id, w) in &self.way_weights {
            lines.push(format!(
                "Combinations shown, way {id}: each winning zone shows one drawn by weight from {}.",
                show(w)
            ));
        }
        lines
    }
}

impl Style for CardHands {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Plans `way` (checked as `CardHands::check_way` says). Its faces are built as
    /// GAMES.md (poker) says: winning zones get the way's amounts (fixed zones as the spec
    /// says, the others in random free zones); each draws its combination from the way's
    /// weights (else its tier's), in zone order, a drawn four of a kind or royal flush
    /// weighing 0 for the zones after it. Each losing zone draws its near miss (four to a
    /// flush / to a straight made with its own cards, at the spec's rates, else none) and
    /// shows a decoy amount. Asked to show a feature, the first winning zone takes the
    /// combination asked, or the first losing zone the near miss asked, instead of drawing
    /// it (see `CardHands::goals`). Then the cards are dealt constructively (community cards
    /// first, shaped for the combinations wanted, then the zones, hardest first, each from
    /// the cards that give it exactly its goal under both readings); a deal that reaches a
    /// dead end is started again with the same goals, at most [`MAX_ATTEMPTS`] times (the
    /// plan's checks leave every goal dealable: running out is a bug, and panics). A near
    /// miss the community cards leave no room for is dropped (the zone still loses under
    /// both readings). In debug builds the finished face is evaluated and any difference
    /// from the goals panics; generation judges every face anyway.
    fn plan(self: Arc<Self>, way: &Way) -> Result<Plan, Refusal> {
        self.check_way(way)?;
        let me = Arc::clone(&self);
        let w = way.clone();
        Ok(Plan::new(
            &*self,
            way,
            |id| self.can_show(way, id),
            self.always_shows(way),
            move |show, rng, face| {
                me.synthesize_into(&w, show, rng, face);
            },
        ))
    }

    /// Every weight table applies to some winning part of a way: `way_combination_weights`
    /// of a way that wins on a zone, `combination_weights` of a tier one of whose ways wins
    /// on a zone without weights of its own.
    fn check_ways(&self, plans: &[&Plan]) -> Result<(), Refusal> {
        let winning = || plans.iter().map(|p| p.way()).filter(|w| !w.wins.is_empty());
        for id in self.way_weights.keys() {
            if !winning().any(|w| &w.id == id) {
                return Err(Refusal::WayWeightsUnused { way: id.clone() });
            }
        }
        for m in self.tier_weights.keys() {
            let used = winning()
                .any(|w| self.tier_amount(w) == Some(*m) && !self.way_weights.contains_key(&w.id));
            if !used {
                return Err(Refusal::TierWeightsUnused { tier: *m });
            }
        }
        Ok(())
    }

    /// The combinations that some tier or way weighs above 0, then `near_miss_flush`
    /// and `near_miss_straight` when their rates are above 0.
    fn features(&self) -> Vec<FeatureId> {
        let mut v: Vec<FeatureId> = Combination::ALL
            .iter()
            .filter(|c| {
                self.tier_weights
                    .values()
                    .chain(self.way_weights.values())
                    .any(|w| w[c.index()] > 0)
            })
            .map(|&c| self.feature(c))
            .collect();
        for (d, id) in [
            (Draw::Flush, NEAR_MISS_FLUSH_ID),
            (Draw::Straight, NEAR_MISS_STRAIGHT_ID),
        ] {
            if self.draw_rate(d) > 0 {
                v.push(id);
            }
        }
        v
    }

    /// Judges the face: each zone whose best combination by the letter exists (see
    /// [`read_zone`]; the spec's combinations only) wins its GAIN amount (one win per
    /// zone), and the lot is the sum of the winning zones. Every case where the strict and
    /// the naive readings could differ, and every duplicate card, is reported as an
    /// ambiguity (GAMES.md).
    fn evaluate_into(&self, face: &Face, ev: &mut Evaluation) {
        ev.clear();
        let codes = &face.codes;
        let push = |ev: &mut Evaluation, a: &'static str| {
            if !ev.ambiguities.contains(&a) {
                ev.ambiguities.push(a);
            }
        };
        let (mut seen, mut duplicate, mut highest) = (0u64, false, 0u8);
        for &i in &self.card_columns {
            let c = codes[i];
            highest = highest.max(c);
            duplicate |= seen & 1 << (c & 63) != 0;
            seen |= 1 << (c & 63);
        }
        if highest >= DECK {
            push(ev, AMB_BAD_CODE);
            return;
        }
        if duplicate {
            push(ev, AMB_DUPLICATE);
        }
        let mut cards = [0; COMMUNITY];
        cards.copy_from_slice(&codes[self.board_column..self.board_column + COMMUNITY]);
        let board = Board::new(cards);
        for z in 0..self.zones {
            let base = z * ZONE_COLUMNS;
            let r = read([codes[base], codes[base + 1]], &board, self.kinds);
            if let Some(c) = r.strict {
                match self.gain.amounts().get(codes[base + 2] as usize) {
                    Some(&amount) => {
                        ev.wins.push(AreaWin {
                            area: z as u8,
                            amount,
                        });
                        ev.features.push(AreaFeature {
                            area: z as u8,
                            id: self.feature(c),
                        });
                    }
                    None => push(ev, AMB_BAD_CODE),
                }
            } else {
                for (on, id) in [
                    (r.flush_draw, NEAR_MISS_FLUSH_ID),
                    (r.straight_draw, NEAR_MISS_STRAIGHT_ID),
                ] {
                    if on {
                        ev.losing_features.push(AreaFeature { area: z as u8, id });
                    }
                }
                if r.pair {
                    push(ev, AMB_LOSER_PAIR);
                }
                if r.straight {
                    push(ev, AMB_LOSER_STRAIGHT);
                }
                if r.flush {
                    push(ev, AMB_LOSER_FLUSH);
                }
            }
            if r.straight_flush {
                push(ev, AMB_STRAIGHT_FLUSH);
            }
        }
        if ev.wins.len() < self.zones {
            if board.pair {
                push(ev, AMB_COMMUNITY_PAIR);
            }
            if has_straight(board.ranks) {
                push(ev, AMB_COMMUNITY_STRAIGHT);
            }
            if board.suits.iter().any(|&n| n >= 5) {
                push(ev, AMB_COMMUNITY_FLUSH);
            }
        }
    }

    /// A winning zone: its GAIN and the cards of its combination among its own and the
    /// community cards: the cards of the rank of its pair, three or four of a kind; one
    /// card of each rank of its straight; the cards of the suit of its flush; the five of
    /// its royal flush. A losing zone: its GAIN (a decoy), and the four cards of a
    /// suit or of four ranks of a straight that make its near miss.
    fn marks(&self, face: &Face, ev: &Evaluation) -> Vec<Mark> {
        let c = &face.codes;
        let mut out = Vec::new();
        let board = self.board_column..self.board_column + COMMUNITY;
        for z in 0..self.zones {
            let base = z * ZONE_COLUMNS;
            let seven: Vec<usize> = [base, base + 1].into_iter().chain(board.clone()).collect();
            let area = z as u8;
            let wins = ev.wins.iter().any(|w| w.area == area);
            let mut mark = |column: usize, kind: MarkKind| out.push(Mark { area, column, kind });
            let of_rank = |r: u8| seven.iter().copied().filter(move |&k| rank(c[k]) == r);
            let of_suit = |s: u8| seven.iter().copied().filter(move |&k| suit(c[k]) == s);
            let suit_count = |s: u8| of_suit(s).count();
            // One column for each rank of `window` (a bit set of ranks), own cards first.
            let straight = |window: u16| -> Vec<usize> {
                (0..13u8)
                    .filter(|r| window >> r & 1 == 1)
                    .filter_map(|r| of_rank(r).next())
                    .collect()
            };
            let ranks: u16 = seven.iter().fold(0, |m, &k| m | 1 << rank(c[k]));
            let windows = || {
                (0..=8u8)
                    .rev()
                    .map(|lo| 0x1Fu16 << lo)
                    .chain(std::iter::once(WHEEL))
            };
            let own = |k: &usize| *k == base || *k == base + 1;
            if wins {
                let kind = ev.feature(area).and_then(|id| self.kind_of(id));
                let cells: Vec<usize> = match kind {
                    Some(
                        Combination::Pair | Combination::ThreeOfAKind | Combination::FourOfAKind,
                    ) => {
                        let r = [c[base], c[base + 1]]
                            .into_iter()
                            .map(rank)
                            .filter(|&r| of_rank(r).any(|k| !own(&k)))
                            .max_by_key(|&r| (of_rank(r).count(), r))
                            // A pocket pair (min_community = 0).
                            .or((rank(c[base]) == rank(c[base + 1])).then(|| rank(c[base])));
                        r.map(|r| of_rank(r).collect()).unwrap_or_default()
                    }
                    Some(Combination::Flush) => (0..4u8)
                        .find(|&s| suit_count(s) >= 5)
                        .map(|s| of_suit(s).collect())
                        .unwrap_or_default(),
                    Some(Combination::Straight) => windows()
                        .take(if self.kinds & ACE_LOW != 0 { 10 } else { 9 })
                        .find(|&w| ranks & w == w && straight(w).iter().any(own))
                        .map(straight)
                        .unwrap_or_default(),
                    Some(Combination::RoyalFlush) => (0..4u8)
                        .map(|s| {
                            of_suit(s)
                                .filter(|&k| ROYAL >> rank(c[k]) & 1 == 1)
                                .collect::<Vec<_>>()
                        })
                        .find(|v| v.len() == 5)
                        .unwrap_or_default(),
                    None => Vec::new(),
                };
                for k in cells {
                    mark(k, MarkKind::Win);
                }
                mark(base + 2, MarkKind::Win);
                continue;
            }
            if ev
                .losing_features
                .iter()
                .any(|f| f.area == area && f.id == NEAR_MISS_FLUSH_ID)
            {
                if let Some(s) =
                    (0..4u8).find(|&s| suit_count(s) == 4 && of_suit(s).any(|k| own(&k)))
                {
                    for k in of_suit(s) {
                        mark(k, MarkKind::NearMiss);
                    }
                }
            }
            if ev
                .losing_features
                .iter()
                .any(|f| f.area == area && f.id == NEAR_MISS_STRAIGHT_ID)
            {
                let four = windows()
                    .find(|&w| (ranks & w).count_ones() == 4 && straight(w).iter().any(own));
                if let Some(w) = four {
                    for k in straight(ranks & w) {
                        mark(k, MarkKind::NearMiss);
                    }
                }
            }
            mark(base + 2, MarkKind::Decoy);
        }
        out
    }
}
