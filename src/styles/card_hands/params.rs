//! A `card_hands` surface's table: its raw form, and the checks that turn it into a
//! [`CardHands`] (zones, cards, combinations, amounts, weights and rates).

use super::*;

/// One entry of `combinations`: a kind of the catalogue under the spec's id and name.
#[derive(Debug, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct RawCombination {
    /// Feature id of the combination (`pair`), ASCII letters, digits and `_`.
    pub id: String,
    /// Its kind in the catalogue ([`CATALOGUE`]: `pair`, `straight`, …).
    pub kind: String,
    /// Its printed name (`royal flush`); the id when left out.
    #[serde(default)]
    pub name: Option<String>,
    /// `straight` only: not all five of one suit (the only reading carried: `true`).
    #[serde(default)]
    pub not_flush: Option<bool>,
    /// `flush` only: not five consecutive ranks (the only reading carried: `true`).
    #[serde(default)]
    pub not_straight: Option<bool>,
    /// `straight` only: whether A-2-3-4-5 counts (the only reading carried: `false`).
    #[serde(default)]
    pub ace_low: Option<bool>,
}

pub(super) fn default_own() -> usize {
    OWN
}
pub(super) fn default_community() -> usize {
    COMMUNITY
}
pub(super) fn default_one() -> usize {
    1
}
pub(crate) fn default_card_name() -> String {
    "{rank} OF {suit}".into()
}

/// A `card_hands` surface's table in the spec.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCardHands {
    /// Number of player zones (1 to [`MAX_ZONES`]); from `zone_ids` when left out.
    #[serde(default)]
    pub zones: Option<usize>,
    /// The zones' ids (play areas, panels, column prefixes); `p1` … `pN` when left out.
    #[serde(default)]
    pub zone_ids: Option<Vec<String>>,
    /// Own cards per zone.
    #[serde(default = "default_own")]
    pub own_cards: usize,
    /// Community cards.
    #[serde(default = "default_community")]
    pub community_cards: usize,
    /// Column prefix of the community cards (`b` gives `b1` … `b5`).
    #[serde(default)]
    pub community_prefix: Option<String>,
    /// Panel id of the community cards (its `[labels]` key); `{surface id}_board` when left
    /// out.
    #[serde(default)]
    pub community_id: Option<String>,
    /// Fewest own cards a winning hand holds.
    #[serde(default = "default_one")]
    pub min_own: usize,
    /// Fewest community cards a winning hand holds.
    #[serde(default = "default_one")]
    pub min_community: usize,
    /// The 13 ranks in letters, 2 to ace (each card's inscription).
    pub rank_names: Vec<String>,
    /// The 4 suits in letters, in the order `c d h s` (clubs, diamonds, hearts, spades).
    pub suit_names: Vec<String>,
    /// How a card's inscription is written, with `{rank}` and `{suit}`.
    #[serde(default = "default_card_name")]
    pub card_name: String,
    /// The combinations, in ascending order.
    pub combinations: Vec<RawCombination>,
    /// Every amount a zone's GAIN may show.
    pub zone_amounts: Vec<Money>,
    /// Weight of each amount shown as a decoy in the GAIN of a losing zone (key: amount);
    /// amounts not listed are never decoys.
    pub decoy_weights: BTreeMap<String, u32>,
    /// Share (0..=1) of losing zones whose own cards, with the community cards, make four to a
    /// flush (near miss).
    #[serde(default)]
    pub near_miss_flush: f64,
    /// Share (0..=1) of losing zones whose own cards, with the community cards, make four to a
    /// straight (near miss).
    #[serde(default)]
    pub near_miss_straight: f64,
    /// Combination weights of each tier (key: the tier's amount, the ticket's whole lot, also
    /// when part of it is won on another surface; inner key: a combination id) for the
    /// winning zones of its ways; a combination not listed weighs 0.
    pub combination_weights: BTreeMap<String, BTreeMap<String, u32>>,
    /// Optional combination weights of one way (key: way id), replacing its tier's.
    #[serde(default)]
    pub way_combination_weights: BTreeMap<String, BTreeMap<String, u32>>,
}

/// The `n` names of `v` (`what` they are, for the error), trimmed: each printable
/// ([`printed`]) and none reading as another, as a player reads them
/// ([`crate::text::reading`]: `C0EUR` and `COEUR`, `I0` and `10` are one name).
pub(crate) fn caption_list(v: &[String], n: usize, what: &str) -> Result<Vec<String>, String> {
    if v.len() != n {
        return Err(format!("expected {n} {what}, got {}", v.len()));
    }
    let mut seen: Vec<(String, &str)> = Vec::new();
    for c in v {
        printed(c)?;
        let t = c.trim();
        let r = crate::text::reading(t);
        if let Some((_, first)) = seen.iter().find(|(s, _)| *s == r) {
            return Err(if first.eq_ignore_ascii_case(t) {
                format!("\"{c}\" appears twice")
            } else {
                format!("\"{c}\" reads as \"{first}\": a player could not tell the two apart")
            });
        }
        seen.push((r, t));
    }
    Ok(v.iter().map(|c| c.trim().to_string()).collect())
}

/// The 13 rank names of `v`, 2 to ace ([`caption_list`]); a name in figures says its own
/// rank (`"10"` for the ten, `"1"` for the ace at most): an ace named `10` would print a
/// pair of tens that is none.
pub(crate) fn rank_names(v: &[String]) -> Result<Vec<String>, String> {
    let names = caption_list(v, 13, "rank names (2 … ace)")?;
    for (i, name) in names.iter().enumerate() {
        let reads = crate::text::reading(name);
        if !reads.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let own = match i {
            0..=8 => (i + 2).to_string(),
            12 => "1".to_string(),
            _ => String::new(),
        };
        if reads != own {
            let rank = [
                "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "ace",
            ][i];
            return Err(format!("\"{name}\" names the {rank} with another rank's figure: a rank named in figures says its own"));
        }
    }
    Ok(names)
}

/// `Err` unless `c` may be printed in files and proofs as a name.
pub(crate) fn printed(c: &str) -> Result<(), String> {
    let t = c.trim();
    if t.is_empty()
        || t.contains([',', '"'])
        || crate::text::first_hidden(t).is_some()
        || t.starts_with(crate::lots::FORMULA_START)
    {
        return Err(format!(
            "\"{c}\": a caption is not empty, has no comma, double quote, line break, control, invisible, text-direction or stray combining character, and does not begin with = + - or @"
        ));
    }
    Ok(())
}

/// `Err` unless `id` is an ASCII id (letters, digits, `_`).
pub(crate) fn ascii_id(id: &str, what: &str) -> Result<(), String> {
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Err(format!(
            "\"{id}\" is not {what}: expected ASCII letters, digits or _"
        ));
    }
    Ok(())
}

impl CardHands {
    /// Validates a surface's table against the rest of the spec (its captions, tier amounts
    /// and way ids). Errors, each naming its field: zones not 1 to [`MAX_ZONES`] or not
    /// matching `zone_ids`, a zone id repeated or not an ASCII id; card counts or a usage
    /// rule this engine does not carry; a combination of an unknown kind, one the engine
    /// does not carry, a definition option it does not carry or that does not apply, out of
    /// ascending order, listed twice, or with a repeated id; no zone amounts, a repeated or
    /// zero one, or one without a caption; a decoy weight for an amount that is not a zone
    /// amount, or all decoy weights zero; a near miss rate outside 0..=1 or both summing
    /// above 1; not 13 rank names or 4 suit names (or a repeated one); a card name without
    /// `{rank}` and `{suit}`; combination weights for an amount that is no tier, a way id
    /// that is no way, a combination that is not listed, or all zero.
    pub fn new(p: &RawCardHands, ctx: &StyleCtx) -> Result<CardHands, FieldError> {
        let err = |field: &str, msg: String| FieldError::new(field, msg);
        // Zones.
        let zone_ids: Vec<String> = match (&p.zone_ids, p.zones) {
            (Some(ids), n) => {
                if n.is_some_and(|n| n != ids.len()) {
                    return Err(err(
                        "zones",
                        format!(
                            "zones = {} but zone_ids lists {}",
                            n.unwrap_or(0),
                            ids.len()
                        ),
                    ));
                }
                ids.clone()
            }
            // Checked before any zone is named: the count never sizes an allocation.
            (None, Some(n)) if !(1..=MAX_ZONES).contains(&n) => {
                return Err(err(
                    "zones",
                    format!("{n} zones; expected 1 to {MAX_ZONES}"),
                ));
            }
            (None, Some(n)) => (1..=n).map(|z| format!("p{z}")).collect(),
            (None, None) => {
                return Err(err("zones", "missing field `zones` (or `zone_ids`)".into()))
            }
        };
        let zones = zone_ids.len();
        if !(1..=MAX_ZONES).contains(&zones) {
            return Err(err(
                "zones",
                format!("{zones} zones; expected 1 to {MAX_ZONES}"),
            ));
        }
        for (i, z) in zone_ids.iter().enumerate() {
            ascii_id(z, "a zone id").map_err(|m| err("zone_ids", m))?;
            if zone_ids[..i].contains(z) {
                return Err(err("zone_ids", format!("\"{z}\" is listed twice")));
            }
        }
        if p.own_cards != OWN {
            return Err(err(
                "own_cards",
                format!(
                    "{} own cards per zone; this engine deals exactly {OWN}",
                    p.own_cards
                ),
            ));
        }
        if p.community_cards != COMMUNITY {
            return Err(err(
                "community_cards",
                format!(
                    "{} community cards; this engine deals exactly {COMMUNITY}",
                    p.community_cards
                ),
            ));
        }
        if p.min_own != 1 {
            return Err(err(
                "min_own",
                format!("min_own = {}; this engine judges exactly min_own = 1 (a hand holds at least one own card)", p.min_own),
            ));
        }
        if p.min_community > 1 {
            return Err(err(
                "min_community",
                format!("min_community = {}; this engine judges min_community = 1 (a hand holds at least one community card) or 0 (its own two cards may make a pair alone)", p.min_community),
            ));
        }
        let prefix = p.community_prefix.clone().unwrap_or_else(|| "b".into());
        ascii_id(&prefix, "a column prefix").map_err(|m| err("community_prefix", m))?;
        let community_id = p
            .community_id
            .clone()
            .unwrap_or_else(|| format!("{}_board", ctx.id));
        ascii_id(&community_id, "a panel id").map_err(|m| err("community_id", m))?;
        if zone_ids.contains(&community_id) {
            return Err(err(
                "community_id",
                format!("\"{community_id}\" is also a zone id"),
            ));
        }

        // Combinations.
        if p.combinations.is_empty() {
            return Err(err(
                "combinations",
                "expected at least one combination".into(),
            ));
        }
        let mut ids = [None; 6];
        let mut names: [Option<String>; 6] = Default::default();
        // The near misses first ([`NEAR_MISS_FLUSH_ID`], [`NEAR_MISS_STRAIGHT_ID`]), then
        // the combinations in the spec's order.
        let mut features = Features::default();
        features.add(
            NEAR_MISS_FLUSH,
            FeatureKind::NearMiss,
            "four to a flush: four of one suit among its own and the community cards",
            "quatre à la couleur : quatre cartes d'une couleur parmi les siennes et celles \
             du tapis",
        );
        features.add(
            NEAR_MISS_STRAIGHT,
            FeatureKind::NearMiss,
            "four to a straight: four ranks of a straight among its own and the community cards, one that only its own cards bring",
            "quatre à la suite : quatre rangs d'une suite parmi ses cartes et celles du tapis, \
             dont un que seules ses cartes apportent",
        );
        let mut kinds = if p.min_community == 0 { POCKET } else { 0 };
        let mut last: Option<(usize, &str)> = None;
        // The names printed so far, as a player reads them, with the combination's kind.
        let mut read_names: Vec<(String, &str)> = Vec::new();
        for (i, c) in p.combinations.iter().enumerate() {
            let field = format!("combinations[{i}]");
            let e = |sub: &str, m: String| err(&format!("{field}{sub}"), m);
            let known: Vec<&str> = CATALOGUE.iter().map(|k| k.0).collect();
            let pos = CATALOGUE
                .iter()
                .position(|k| k.0 == c.kind)
                .ok_or_else(|| {
                    e(
                        ".kind",
                        format!(
                            "unknown kind \"{}\"; expected one of: {}",
                            c.kind,
                            known.join(", ")
                        ),
                    )
                })?;
            let kind = CATALOGUE[pos].1.ok_or_else(|| {
                let carried: Vec<&str> = CATALOGUE
                    .iter()
                    .filter(|k| k.1.is_some())
                    .map(|k| k.0)
                    .collect();
                e(
                    ".kind",
                    format!(
                        "the card_hands engine does not build or judge \"{}\" hands yet; it carries: {}",
                        c.kind,
                        carried.join(", ")
                    ),
                )
            })?;
            if let Some((lp, lk)) = last {
                if pos <= lp {
                    return Err(e(
                        ".kind",
                        format!(
                            "combinations are listed in ascending order: \"{}\" cannot come after \"{lk}\" (ascending: {})",
                            c.kind,
                            known.join(", ")
                        ),
                    ));
                }
            }
            last = Some((pos, CATALOGUE[pos].0));
            let opt = |name: &str, v: Option<bool>, applies: bool, carried: bool| {
                match v {
                    Some(_) if !applies => Err(e(
                        &format!(".{name}"),
                        format!("{name} does not apply to a {} combination", c.kind),
                    )),
                    Some(x) if x != carried => Err(e(
                        &format!(".{name}"),
                        format!(
                            "{name} = {x} is not carried; this engine judges a {} with {name} = {carried}",
                            c.kind
                        ),
                    )),
                    _ => Ok(()),
                }
            };
            opt(
                "not_flush",
                c.not_flush,
                kind == Combination::Straight,
                true,
            )?;
            if c.ace_low.is_some() && kind != Combination::Straight {
                return Err(e(
                    ".ace_low",
                    format!("ace_low does not apply to a {} combination", c.kind),
                ));
            }
            if kind == Combination::Straight && c.ace_low == Some(true) {
                kinds |= ACE_LOW;
            }
            opt(
                "not_straight",
                c.not_straight,
                kind == Combination::Flush,
                true,
            )?;
            ascii_id(&c.id, "a combination id").map_err(|m| e(".id", m))?;
            if features.find(&c.id).is_some() {
                return Err(e(
                    ".id",
                    format!("\"{}\" names another feature already", c.id),
                ));
            }
            let name = c.name.clone().unwrap_or_else(|| c.id.clone());
            printed(&name).map_err(|m| e(".name", m))?;
            // A proof's note names the combination a zone wins with: one name, one kind.
            let reads = crate::text::reading(name.trim());
            if let Some((_, other)) = read_names.iter().find(|(r, _)| *r == reads) {
                return Err(e(
                    ".name",
                    format!(
                        "\"{}\" reads as the name of the {other} combination: each combination prints a name of its own",
                        name.trim()
                    ),
                ));
            }
            read_names.push((reads, &c.kind));
            let id = features.add(
                c.id.clone(),
                FeatureKind::Winning,
                format!("a winning zone's best combination is a {}", c.id),
                format!(
                    "la meilleure combinaison d'une zone gagnante est {}",
                    name.trim()
                ),
            );
            // A proof names it as the ticket prints it, in the spec's language.
            features.call(id, name.trim(), name.trim());
            ids[kind.index()] = Some(id);
            names[kind.index()] = Some(name.trim().to_string());
            kinds |= kind.bit();
        }

        // Amounts, decoys, near misses.
        let mut sorted = p.zone_amounts.clone();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.is_empty()
            || sorted.len() != p.zone_amounts.len()
            || sorted.iter().any(|m| m.is_zero())
        {
            return Err(err(
                "zone_amounts",
                "expected distinct amounts above 0".into(),
            ));
        }
        if let Some(max) = ctx.max {
            if let Some(m) = sorted.iter().find(|&&m| m > max) {
                return Err(err(
                    "zone_amounts",
                    format!("{m} is above the surface's max {max}: a GAIN never shows more (not even as a decoy)"),
                ));
            }
        }
        let gain = AmountBox::new(sorted, ctx.captions).map_err(|e| err("zone_amounts", e))?;
        let decoy_weights =
            common::decoy_weights(&p.decoy_weights, gain.amounts(), "one of zone_amounts")
                .map_err(|e| err("decoy_weights", e))?;
        let nf = common::share(p.near_miss_flush).map_err(|e| err("near_miss_flush", e))?;
        let ns = common::share(p.near_miss_straight).map_err(|e| err("near_miss_straight", e))?;
        if nf + ns > 1_000_000 {
            return Err(err(
                "near_miss_flush",
                "near_miss_flush + near_miss_straight exceed 1".into(),
            ));
        }
        // A near miss is one card short of a paid combination: four to a flush where no
        // flush pays would tell a QA tester, and a player, that a flush wins.
        let listed = |c: &[Combination]| c.iter().any(|c| ids[c.index()].is_some());
        let pays_flush = listed(&[Combination::Flush, Combination::RoyalFlush]);
        let pays_straight = listed(&[Combination::Straight, Combination::RoyalFlush]);
        for (field, rate, pays, what) in [
            ("near_miss_flush", nf, pays_flush, "flush"),
            ("near_miss_straight", ns, pays_straight, "straight"),
        ] {
            if rate > 0 && !pays {
                return Err(err(
                    field,
                    format!("no combination of `combinations` is a {what} (nor a royal_flush): a hand four to a {what} would be a near miss to a prize the game does not pay; expected 0, or a {what} listed"),
                ));
            }
        }
        let rank_captions = rank_names(&p.rank_names).map_err(|m| err("rank_names", m))?;
        let suit_captions = caption_list(&p.suit_names, 4, "suit names (c d h s)")
            .map_err(|m| err("suit_names", m))?;
        if !p.card_name.contains("{rank}") || !p.card_name.contains("{suit}") {
            return Err(err(
                "card_name",
                format!(
                    "\"{}\" should hold {{rank}} and {{suit}} (e.g. \"{{rank}} DE {{suit}}\")",
                    p.card_name
                ),
            ));
        }
        printed(&p.card_name).map_err(|m| err("card_name", m))?;

        let check_weights =
            |field: &str, key: &str, w: &BTreeMap<String, u32>| -> Result<[u32; 6], FieldError> {
                let f = format!("{field}.\"{key}\"");
                let mut a = [0u32; 6];
                for (id, &x) in w {
                    let k = Combination::ALL
                        .iter()
                        .find(|c| ids[c.index()].is_some_and(|f| features.name(f) == id))
                        .ok_or_else(|| {
                            err(
                                &format!("{f}.{id}"),
                                format!("\"{id}\" is not the id of one of the combinations"),
                            )
                        })?;
                    a[k.index()] = x;
                }
                let t: u64 = a.iter().map(|&x| u64::from(x)).sum();
                if t == 0 || t > u64::from(u32::MAX) {
                    return Err(err(&f, "expected weights summing to 1..=4294967295".into()));
                }
                Ok(a)
            };
        let mut tier_weights = BTreeMap::new();
        for (k, w) in &p.combination_weights {
            let m: Money = k.parse().map_err(|e| {
                err(
                    &format!("combination_weights.\"{k}\""),
                    format!("key \"{k}\": {e}"),
                )
            })?;
            if !ctx.tier_amounts.contains(&m) {
                return Err(err(
                    &format!("combination_weights.\"{k}\""),
                    format!("\"{k}\" is not the amount of a tier"),
                ));
            }
            if tier_weights
                .insert(m, check_weights("combination_weights", k, w)?)
                .is_some()
            {
                return Err(err(
                    "combination_weights",
                    format!("key \"{k}\" is the amount {m} a second time (written another way)"),
                ));
            }
        }
        let mut way_weights = BTreeMap::new();
        for (k, w) in &p.way_combination_weights {
            if !ctx.way_ids.iter().any(|x| x == k) {
                return Err(err(
                    &format!("way_combination_weights.\"{k}\""),
                    format!("\"{k}\" is not the id of a way"),
                ));
            }
            way_weights.insert(k.clone(), check_weights("way_combination_weights", k, w)?);
        }

        let cards: Vec<String> = (0..DECK).map(card_code).collect();
        let mut columns = Vec::new();
        let mut card_columns = Vec::new();
        for z in &zone_ids {
            for c in 1..=OWN {
                card_columns.push(columns.len());
                columns.push(Column {
                    name: format!("{z}_c{c}"),
                    kind: ColumnKind::Symbol,
                    values: cards.clone(),
                    inscriptions: Vec::new(),
                });
            }
            let gain_col = columns.len();
            columns.push(gain.column(format!("{z}_gain")));
            columns.push(Column::caption(
                format!("{z}_caption"),
                gain_col,
                ctx.captions,
            ));
        }
        let board_column = columns.len();
        for i in 1..=COMMUNITY {
            card_columns.push(columns.len());
            columns.push(Column {
                name: format!("{prefix}{i}"),
                kind: ColumnKind::Symbol,
                values: cards.clone(),
                inscriptions: Vec::new(),
            });
        }
        let near_miss = [1_000_000 - nf - ns, nf, ns];
        Ok(CardHands {
            zone_labels: zone_ids.iter().map(|z| ctx.label(z).to_string()).collect(),
            board_label: ctx.label(&community_id).to_string(),
            layout: Layout {
                features,
                ..Layout::new(INFO.name, zone_ids, columns)
            },
            zones,
            board_column,
            card_columns,
            community_id,
            kinds,
            ids,
            names,
            gain,
            decoy_draw: Weights::new(&decoy_weights),
            near_miss_draw: Weights::new(&near_miss),
            decoy_weights,
            near_miss,
            rank_captions,
            suit_captions,
            card_name: p.card_name.clone(),
            tier_weights,
            way_weights,
            tier_amounts: ctx.tier_amounts.to_vec(),
        }
        .with_layout())
    }
}

impl CardHands {
    /// What feature `id` of the layout's table asks of a face.
    pub(super) fn parse_want(&self, id: FeatureId) -> Option<Want> {
        match id {
            NEAR_MISS_FLUSH_ID => Some(Want::Draw(Draw::Flush)),
            NEAR_MISS_STRAIGHT_ID => Some(Want::Draw(Draw::Straight)),
            _ => self.kind_of(id).map(Want::Win),
        }
    }

    /// The kind of the combination that is feature `id`.
    pub(super) fn kind_of(&self, id: FeatureId) -> Option<Combination> {
        Combination::ALL
            .iter()
            .copied()
            .find(|c| self.ids[c.index()] == Some(id))
    }

    /// The feature of kind `c`, which the spec lists (the evaluator reads no other).
    pub(super) fn feature(&self, c: Combination) -> FeatureId {
        self.ids[c.index()].expect("a combination the spec lists")
    }

    /// The feature id of kind `c` (listed in the spec), as the spec and the files write it.
    pub(super) fn id(&self, c: Combination) -> &str {
        self.ids[c.index()].map_or(c.kind(), |f| self.layout.features.name(f))
    }

    /// The printed name of kind `c` (listed in the spec).
    pub(super) fn printed_name(&self, c: Combination) -> &str {
        self.names[c.index()].as_deref().unwrap_or(c.kind())
    }

    /// The rank of card `c` in letters, from the spec (`AS`, `DIX`).
    pub fn rank_caption(&self, c: Card) -> &str {
        &self.rank_captions[rank(c) as usize]
    }

    /// The suit of card `c` in letters, from the spec (`PIQUE`).
    pub fn suit_caption(&self, c: Card) -> &str {
        &self.suit_captions[suit(c) as usize]
    }

    /// The rates (per million) of near miss `d` on a losing zone.
    pub(super) fn draw_rate(&self, d: Draw) -> u32 {
        match d {
            Draw::Flush => self.near_miss[1],
            Draw::Straight => self.near_miss[2],
            Draw::None | Draw::Any => 0,
        }
    }

    pub(super) fn amount_code(&self, m: Money) -> Option<u8> {
        self.gain.code(m)
    }

    /// The amount of `way`'s tier (`None` for the losing way).
    pub(super) fn tier_amount(&self, way: &Way) -> Option<Money> {
        way.tier.and_then(|t| self.tier_amounts.get(t)).copied()
    }

    /// Combination weights of `way`: its own, else its tier's (keyed by the tier's amount,
    /// which is the ticket's whole lot, even when this surface wins only part of it).
    pub(super) fn weights_for(&self, way: &Way) -> Option<[u32; 6]> {
        self.way_weights
            .get(&way.id)
            .or_else(|| self.tier_weights.get(&self.tier_amount(way)?))
            .copied()
    }
}
